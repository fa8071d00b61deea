// map.js: drawing a battle map: squares by name (A1, B3) and back, the
// map's cells as an SVG with column letters and row numbers, and every
// combatant a token. It keeps no state: fights.js hands it a fight.

import { svgEl } from "./shared.js";

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
const TURN = { north: 0, east: 90, south: 180, west: 270 };

// The map as an SVG: a square a unit, column letters and row numbers
// around it, every combatant a token (its side's colour and initial, a
// yellow arrow to the side it faces, a health bar; the fallen grey and
// crossed out).
export function mapPicture(fight) {
  const rows = fight.map.rows;
  const width = rows[0]?.length ?? 0;
  const height = rows.length;
  const svg = svgEl("svg", { viewBox: `-0.8 -0.8 ${width + 0.8} ${height + 0.8}`, role: "img", id: "fight-svg" });
  svg.append(svgEl("title", {}, `${fight.map.name}: ${width} columns by ${height} rows`));
  for (let x = 0; x < width; x++) svg.append(svgEl("text", { x: x + 0.5, y: -0.25, "text-anchor": "middle", class: "grid-label" }, columnName(x)));
  rows.forEach((row, y) => {
    svg.append(svgEl("text", { x: -0.4, y: y + 0.65, "text-anchor": "middle", class: "grid-label" }, String(y + 1)));
    [...row].forEach((ch, x) => {
      svg.append(svgEl("rect", { x, y, width: 1, height: 1, class: `cell ${CELL[ch] ?? "floor"}`, "data-square": `${columnName(x)}${y + 1}` }));
    });
  });
  for (const c of fight.state?.combatants ?? []) {
    const at = squareXY(c.square);
    if (!at) continue;
    const fallen = c.state !== "standing";
    const side = fight.sides.indexOf(c.side);
    const token = svgEl("g", {
      class: `token side-${side < 0 ? 0 : side}${fallen ? " fallen" : ""}`,
      transform: `translate(${at.x + 0.5} ${at.y + 0.5})`,
      "data-name": c.name, "data-square": c.square, "data-facing": c.facing, "data-state": c.state,
    });
    token.append(svgEl("title", {}, `${c.name} (${c.side}): ${c.square}, facing ${c.facing}, ${c.chp}/${c.thp} HP, ${c.state}`));
    const arrow = svgEl("polygon", { class: "arrow", points: "0,-0.5 0.2,-0.22 -0.2,-0.22", transform: `rotate(${TURN[c.facing] ?? 0})` });
    token.append(svgEl("circle", { r: 0.34 }), arrow, svgEl("text", { y: 0 }, (c.name ?? "?").slice(0, 1)));
    const share = Math.max(0, Math.min(1, c.thp > 0 ? c.chp / c.thp : 0));
    token.append(svgEl("rect", { class: "hp-back", x: -0.4, y: 0.36, width: 0.8, height: 0.1 }), svgEl("rect", { class: "hp", x: -0.4, y: 0.36, width: 0.8 * share, height: 0.1 }));
    if (fallen) token.append(svgEl("path", { class: "cross", d: "M-0.3,-0.3 L0.3,0.3 M0.3,-0.3 L-0.3,0.3" }));
    svg.append(token);
  }
  return svg;
}
