// map.js: drawing a battle map: squares by name (A1, B3) and back, the
// map's cells as an SVG with column letters and row numbers, every
// combatant a token (its initials and its number in its side, the side's
// colour, its name on hover), and the zoom around a map. It keeps only
// each map's zoom: fights.js hands it a fight, setup.js the map drawn.

import { el, svgEl } from "./shared.js";

export function squareXY(name) {
  const m = /^([A-Z]+)(\d+)$/.exec(name ?? "");
  if (!m) return null;
  let x = 0;
  for (const c of m[1]) x = x * 26 + (c.charCodeAt(0) - 64);
  return { x: x - 1, y: Number(m[2]) - 1 };
}

export function columnName(x) {
  let name = "";
  for (let n = x + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

export function setSquare(rows, square, ch) {
  const at = squareXY(square);
  if (!at || !rows[at.y]) return;
  const row = [...rows[at.y]];
  row[at.x] = ch;
  rows[at.y] = row.join("");
}

export const CELL = { "#": "wall", ".": "floor", "+": "door", "/": "open-door", H: "ladder" };
export const TURN = { north: 0, east: 90, south: 180, west: 270 };

// A token's text: the initials of its name's words (two at most) and a
// number: the one its name ends with ("Goblin 2" is G2), else its number
// in its side ("Sir Aldric", first of its side, is SA1).
export function tokenLabel(name, number) {
  const words = String(name ?? "").split(/\s+/).filter(Boolean);
  const own = words.length > 1 && /^\d+$/.test(words[words.length - 1]) ? words.pop() : null;
  const initials = words.slice(0, 2).map((w) => [...w][0].toUpperCase()).join("") || "?";
  return `${initials}${own ?? number}`;
}

// Each combatant's number in its side (1, 2, ...), in the order given.
export function sideNumbers(combatants) {
  const counts = new Map();
  const numbers = new Map();
  for (const c of combatants) {
    const n = (counts.get(c.side) ?? 0) + 1;
    counts.set(c.side, n);
    numbers.set(c.name, n);
  }
  return numbers;
}

// The grid: a square a unit, column letters and row numbers around it,
// each cell a rect with its square's name.
export function gridPicture(rows, title, id) {
  const width = Math.max(0, ...rows.map((r) => [...r].length));
  const height = rows.length;
  const svg = svgEl("svg", { viewBox: `-0.8 -0.8 ${width + 0.8} ${height + 0.8}`, role: "img", id });
  svg.style.setProperty("--cells", String(width + 0.8)); // the squares across, labels included
  svg.append(svgEl("title", {}, `${title}: ${width} columns by ${height} rows`));
  for (let x = 0; x < width; x++) svg.append(svgEl("text", { x: x + 0.5, y: -0.25, "text-anchor": "middle", class: "grid-label" }, columnName(x)));
  rows.forEach((row, y) => {
    svg.append(svgEl("text", { x: -0.4, y: y + 0.65, "text-anchor": "middle", class: "grid-label" }, String(y + 1)));
    [...row].forEach((ch, x) => {
      svg.append(svgEl("rect", { x, y, width: 1, height: 1, class: `cell ${CELL[ch] ?? "floor"}`, "data-square": `${columnName(x)}${y + 1}` }));
    });
  });
  return svg;
}

// A token: a disc in its side's colour with its label, an arrow to the
// side it faces; `title` is what a hover shows.
export function tokenPicture({ square, side, label, facing, title, fallen, extra }) {
  const at = squareXY(square);
  const token = svgEl("g", {
    class: `token side-${side < 0 ? 0 : side}${fallen ? " fallen" : ""}`,
    transform: `translate(${at.x + 0.5} ${at.y + 0.5})`,
    ...extra,
  });
  token.append(svgEl("title", {}, title));
  const arrow = svgEl("polygon", { class: "arrow", points: "0,-0.5 0.2,-0.22 -0.2,-0.22", transform: `rotate(${TURN[facing] ?? 0})` });
  const size = label.length <= 2 ? 0.36 : label.length === 3 ? 0.27 : 0.22;
  token.append(svgEl("circle", { r: 0.34 }), arrow, svgEl("text", { y: 0, "font-size": size, class: "token-label" }, label));
  return token;
}

// The zoom of each map by key (it stays as the map is drawn again), where
// its box was scrolled to, and the token it last brought into view.
const zooms = new Map();
const scrolls = new Map();
const followed = new Map();
const STEPS = [0.5, 0.75, 1, 1.5, 2, 3, 4];

// The map in a box that scrolls, with buttons to zoom out, back to fit
// and in (each map keeps its zoom and where its box was scrolled to as it
// is drawn again). `follow` selects a token to bring into view when it is
// another than last time or stands elsewhere (the one awaited, on a phone
// whose map is wider than the screen): selectors apart by commas, tried in
// their order.
export function zoomable(svg, key, follow) {
  const box = el("div", "zoom-box");
  const bar = el("div", "zoom-bar");
  const scroll = el("div", "zoom-scroll");
  scroll.append(svg);
  scroll.addEventListener("scroll", () => scrolls.set(key, [scroll.scrollLeft, scroll.scrollTop]));
  // Once the box is on the page (before it is painted).
  requestAnimationFrame(() => {
    const at = scrolls.get(key);
    if (at) [scroll.scrollLeft, scroll.scrollTop] = at;
    // The first of the selectors that finds a token (in their order).
    const token = follow ? follow.split(",").map((f) => svg.querySelector(f)).find(Boolean) ?? null : null;
    const which = token ? `${token.dataset.name}@${token.dataset.square}` : null;
    if (!token || followed.get(key) === which) return;
    followed.set(key, which);
    const t = token.getBoundingClientRect();
    const b = scroll.getBoundingClientRect();
    if (t.left < b.left || t.right > b.right) scroll.scrollLeft += t.left + t.width / 2 - (b.left + b.width / 2);
    if (t.top < b.top || t.bottom > b.bottom) scroll.scrollTop += t.top + t.height / 2 - (b.top + b.height / 2);
  });
  const shown = el("span", "quiet zoom-level");
  const apply = () => {
    const z = zooms.get(key) ?? 1;
    // A page may ask for a least width at the zoom "fit" (`--least-width`,
    // e.g. squares large enough to read on a phone): the zoom scales it.
    svg.style.width = `max(${z * 100}%, ${z} * var(--least-width, 0px))`;
    svg.style.maxHeight = z === 1 ? "" : "none";
    shown.textContent = `${Math.round(z * 100)}%`;
  };
  const button = (text, label, change) => {
    const b = el("button", "small", text);
    b.type = "button";
    b.setAttribute("aria-label", label);
    b.addEventListener("click", () => {
      const z = zooms.get(key) ?? 1;
      zooms.set(key, change(z));
      apply();
    });
    return b;
  };
  bar.append(
    button("−", "zoom out", (z) => STEPS[Math.max(0, STEPS.indexOf(z) - 1)] ?? 1),
    button("fit", "fit the map to the page", () => 1),
    button("+", "zoom in", (z) => STEPS[Math.min(STEPS.length - 1, STEPS.indexOf(z) + 1)] ?? 1),
    shown,
  );
  box.dataset.zoom = key;
  box.append(bar, scroll);
  apply();
  return box;
}

// The map of a fight as an SVG: the grid, every combatant a token (its
// side's colour, initials and number, a yellow arrow to the side it faces,
// a health bar; the fallen in their side's colour, faded, crossed out and
// labelled dark, drawn under the standing and, on a standing one's square,
// smaller in its corner).
export function mapPicture(fight) {
  const rows = fight.map.rows;
  const svg = gridPicture(rows, fight.map.name, "fight-svg");
  const numbers = sideNumbers(fight.state?.combatants ?? []);
  // The fallen first: a combatant standing on a fallen one's square is
  // drawn over him.
  const combatants = [...(fight.state?.combatants ?? [])];
  const down = (c) => (c.state !== "standing" ? 0 : 1);
  combatants.sort((a, b) => down(a) - down(b));
  const standingAt = new Set(combatants.filter((c) => c.state === "standing").map((c) => c.square));
  for (const c of combatants) {
    if (!squareXY(c.square)) continue;
    const fallen = c.state !== "standing";
    const label = tokenLabel(c.name, numbers.get(c.name));
    const token = tokenPicture({
      square: c.square, side: fight.sides.indexOf(c.side), label, facing: c.facing, fallen,
      title: `${label}: ${c.name}${c.side && c.side !== c.name ? ` of ${c.side}` : ""}: ${c.square}, facing ${c.facing}, ${c.chp}/${c.thp} HP, ${c.state}${c.action ? `, set action ${c.action}` : ""}`,
      extra: { "data-name": c.name, "data-square": c.square, "data-facing": c.facing, "data-state": c.state },
    });
    const share = Math.max(0, Math.min(1, c.thp > 0 ? c.chp / c.thp : 0));
    token.append(svgEl("rect", { class: "hp-back", x: -0.4, y: 0.36, width: 0.8, height: 0.1 }), svgEl("rect", { class: "hp", x: -0.4, y: 0.36, width: 0.8 * share, height: 0.1 }));
    if (fallen) token.append(svgEl("path", { class: "cross", d: "M-0.3,-0.3 L0.3,0.3 M0.3,-0.3 L-0.3,0.3" }));
    // A fallen one under a standing one on his square: drawn smaller in
    // the square's corner, so that both are seen.
    if (fallen && standingAt.has(c.square)) token.setAttribute("transform", `translate(${squareXY(c.square).x + 0.78} ${squareXY(c.square).y + 0.78}) scale(0.5)`);
    svg.append(token);
  }
  return svg;
}
