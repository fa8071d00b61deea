// setup.js: setting up a fight without typing TOML. It owns the examples
// offered (/web/scenarios.json) and the room's sheets as combatants, the
// two sides picked from them, the map drawn in the page (floor, wall,
// door, open door, ladder; its size and name) with the starts placed by
// dragging tokens onto squares, and the TOML under "Advanced" it writes:
// the TOML is what the page sends, and an edit to it is drawn back here
// when this page can read it. The form folds away while a fight is shown.

import { $, api, el, table } from "./shared.js";
import { readToml, tomlLines, tomlString, tomlValue } from "./toml.js";
import { columnName, gridPicture, squareXY, tokenLabel, tokenPicture, zoomable } from "./map.js";

let scenarios = [];
let sheets = []; // the room's sheets: { name, owner, sheet }

// The set-up: two sides of combatants (each its table, as a sheet has it)
// and the map (its rows, name, starts and any other key it had).
const sides = [
  { name: "", pcs: false, combatants: [] },
  { name: "", pcs: false, combatants: [] },
];
let map = { use: true, name: "A new map", rows: [], starts: [], extra: {} };
// The combatant picked to be placed (from the tray or on the map).
let picked = null;

const FACING = ["east", "west"]; // side A faces east at first, side B west

// ---------------------------------------------------------------- the examples and the sheets

// The example's name when the setting is the example as offered.
export function exampleName(setting) {
  if ($("fight-example").value === "") return null;
  const chosen = scenarios[Number($("fight-example").value)];
  if (chosen && chosen.a === setting.a && chosen.b === setting.b && (chosen.map ?? "") === (setting.map ?? "")) return chosen.name;
  return null;
}

function useScenario() {
  if ($("fight-example").value === "") return;
  const chosen = scenarios[Number($("fight-example").value)];
  if (!chosen) return;
  $("fight-a").value = chosen.a;
  $("fight-b").value = chosen.b;
  $("fight-map").value = chosen.map ?? "";
  $("fight-distance").value = chosen.distance ?? 1;
  fromText();
}

async function loadScenarios() {
  const response = await fetch("/web/scenarios.json");
  if (!response.ok) return;
  scenarios = await response.json();
  $("fight-example").replaceChildren(...scenarios.map((s, i) => { const o = el("option", null, s.name); o.value = String(i); return o; }));
  useScenario();
}

// The room's sheets, offered as combatants for either side.
export async function loadFightSheets() {
  if (!table.current) return;
  const answer = await api("GET", `/api/rooms/${encodeURIComponent(table.current.room)}/sheets`, table.current.seat.key);
  if (!answer.ok) return;
  sheets = answer.data.sheets ?? [];
  offerCombatants();
}

// A side's file read: a side (`side`, `[[combatant]]`) or one combatant.
function sideOf(text) {
  const file = readToml(text);
  if (file.side !== undefined || Array.isArray(file.combatant)) {
    return { name: file.side ?? "", pcs: Boolean(file.pcs), combatants: [...(file.combatant ?? [])] };
  }
  return { name: file.name ?? "", pcs: false, combatants: [file] };
}

// Everyone who can be added to a side: the room's sheets, then the
// examples' combatants (once each, by name).
function candidates() {
  const list = [];
  for (const sheet of sheets) {
    try { list.push({ label: `${sheet.name} (a sheet of this table, by ${sheet.owner})`, table: readToml(sheet.sheet), sheet: true }); } catch { /* shown as text elsewhere */ }
  }
  const seen = new Set();
  for (const s of scenarios) {
    for (const text of [s.a, s.b]) {
      let side;
      try { side = sideOf(text); } catch { continue; }
      for (const c of side.combatants) {
        if (seen.has(c.name)) continue;
        seen.add(c.name);
        list.push({ label: `${c.name} (example${side.name && side.name !== c.name ? `, ${side.name}` : ""})`, table: c });
      }
    }
  }
  return list;
}

function offerCombatants() {
  const list = candidates();
  for (const select of document.querySelectorAll("#fight-form .side-add")) {
    const first = el("option", null, "choose one…");
    first.value = "";
    select.replaceChildren(first, ...list.map((c, i) => { const o = el("option", null, c.label); o.value = String(i); return o; }));
    select.candidates = list;
  }
}

// ---------------------------------------------------------------- TOML in and out

// Reads the TOML under "Advanced" into the set-up (an example picked, or
// the text edited); what cannot be read here stays as text, and is sent
// as it is.
function fromText() {
  ["fight-a", "fight-b"].forEach((id, i) => {
    try { sides[i] = { ...sideOf($(id).value), readable: true }; } catch { sides[i] = { name: "", pcs: false, combatants: [], readable: false }; }
  });
  const text = $("fight-map").value;
  if (text.trim() === "") {
    map = { ...map, use: false, readable: true };
  } else {
    try {
      const file = readToml(text);
      const extra = {};
      for (const [k, v] of Object.entries(file)) if (!["name", "rows", "start"].includes(k)) extra[k] = v;
      map = { use: true, readable: true, name: String(file.name ?? ""), rows: String(file.rows ?? "").split("\n").filter((r) => r.length), starts: [...(file.start ?? [])], extra };
    } catch {
      map = { ...map, readable: false };
    }
  }
  picked = null;
  draw();
}

// A side as TOML: a lone combatant whose side bears its name as its
// sheet; else a side file.
function sideText(side) {
  if (side.combatants.length === 1 && !side.pcs && (side.name === "" || side.name === side.combatants[0].name)) {
    return `${tomlLines(side.combatants[0])}\n`;
  }
  const head = [`side = ${tomlString(side.name || "a side")}`];
  if (side.pcs) head.push("pcs = true");
  return `${head.join("\n")}\n${side.combatants.map((c) => `\n[[combatant]]\n${tomlLines(c)}\n`).join("")}`;
}

function mapText() {
  if (!map.use) return "";
  const lines = [`name = ${tomlString(map.name)}`];
  for (const [k, v] of Object.entries(map.extra)) lines.push(`${k} = ${tomlValue(v)}`);
  lines.push("rows = '''", ...map.rows, "'''");
  for (const start of map.starts) lines.push("", "[[start]]", tomlLines(start));
  return `${lines.join("\n")}\n`;
}

// The set-up changed here: the TOML under "Advanced" is written again
// (only the parts this page could read), and the form says it changed.
function toText(parts = { sides: true, map: true }) {
  if (parts.sides) ["fight-a", "fight-b"].forEach((id, i) => { if (sides[i].readable !== false) $(id).value = sideText(sides[i]); });
  if (parts.map && map.readable !== false) $("fight-map").value = mapText();
  // No example any more: the list says so.
  const setting = { a: $("fight-a").value, b: $("fight-b").value, map: $("fight-map").value };
  const select = $("fight-example");
  if (!exampleName(setting)) {
    let own = select.querySelector("option[value='']");
    if (!own) { own = el("option", null, "(your own set-up)"); own.value = ""; select.append(own); }
    select.value = "";
  }
  $("fight-form").dispatchEvent(new Event("input"));
  draw();
}

// ---------------------------------------------------------------- drawing the set-up

// Where each combatant starts: its own start, by name.
function startOf(name) {
  return map.starts.find((s) => s.who === name);
}

function everyone() {
  const list = [];
  sides.forEach((side, i) => side.combatants.forEach((c, n) => list.push({ name: c.name, side: i, number: n + 1 })));
  return list;
}

function draw() {
  sides.forEach((side, i) => {
    const box = $(i === 0 ? "side-a" : "side-b");
    box.querySelector(".side-name").value = side.name ?? "";
    box.querySelector(".side-pcs").checked = Boolean(side.pcs);
    const items = side.combatants.map((c, n) => {
      const item = el("li");
      item.append(el("span", `chip side-${i}`, tokenLabel(c.name, n + 1)), ` ${c.name ?? "?"}${c.thp !== undefined ? ` (${c.thp} THP)` : ""} `);
      const remove = el("button", "small", "remove");
      remove.type = "button";
      remove.setAttribute("aria-label", `remove ${c.name} from ${side.name || "the side"}`);
      remove.addEventListener("click", () => {
        side.combatants.splice(n, 1);
        map.starts = map.starts.filter((s) => s.who !== c.name && !(side.combatants.length === 0 && s.side !== undefined && s.side === side.name));
        // An empty side is named again by the first one added to it.
        if (!side.combatants.length) { side.name = ""; side.pcs = false; }
        toText();
      });
      item.append(remove);
      return item;
    });
    if (side.readable === false) items.push(el("li", "quiet", "This side's TOML is beyond this form: edit it under Advanced."));
    box.querySelector(".side-list").replaceChildren(...items);
  });
  drawMap();
}

function drawMap() {
  const editor = $("map-editor");
  $("map-use").checked = map.use;
  // The squares apart count only on a line.
  for (const node of [$("fight-distance"), document.querySelector("label[for=fight-distance]")]) node.hidden = map.use;
  editor.classList.toggle("off", !map.use);
  const canvas = $("map-canvas");
  if (!map.use) { canvas.replaceChildren(el("p", "quiet", "No map: the sides stand on a line.")); $("map-tray").replaceChildren(); $("map-selected").hidden = true; return; }
  if (map.readable === false) { canvas.replaceChildren(el("p", "quiet", "This map's TOML is beyond this editor: edit it under Advanced.")); return; }
  $("map-name").value = map.name;
  $("map-width").value = map.rows[0]?.length ?? 0;
  $("map-height").value = map.rows.length;
  const svg = gridPicture(map.rows, map.name || "the map", "setup-svg");
  const all = everyone();
  // A whole side placed in ranks: its first square marked.
  for (const start of map.starts.filter((s) => s.side !== undefined && s.who === undefined)) {
    const side = sides.findIndex((s) => s.name === start.side);
    if (!squareXY(start.at)) continue;
    svg.append(tokenPicture({ square: start.at, side, label: "⋯", facing: start.facing, title: `${start.side}: the side's ranks start here`, extra: { class: `token rank side-${side < 0 ? 0 : side}` } }));
  }
  for (const c of all) {
    const start = startOf(c.name);
    if (!start || !squareXY(start.at)) continue;
    const label = tokenLabel(c.name, c.number);
    svg.append(tokenPicture({
      square: start.at, side: c.side, label, facing: start.facing,
      title: `${label}: ${c.name} (${sides[c.side].name || `side ${c.side ? "B" : "A"}`}), ${start.at}, facing ${start.facing}`,
      extra: { "data-name": c.name, "data-square": start.at, "data-facing": start.facing ?? "", class: `token side-${c.side}${picked === c.name ? " picked" : ""}` },
    }));
  }
  svg.addEventListener("pointerdown", pointerDown);
  svg.addEventListener("pointermove", pointerMove);
  svg.addEventListener("pointerup", pointerUp);
  canvas.replaceChildren(zoomable(svg, "setup"));
  // The tray: everyone, placed or not; a placed one is marked.
  $("map-tray").replaceChildren(...all.map((c) => {
    const token = el("button", `tray-token side-${c.side}${picked === c.name ? " picked" : ""}${startOf(c.name) ? " placed" : ""}`, tokenLabel(c.name, c.number));
    token.type = "button";
    token.title = `${c.name}${startOf(c.name) ? ` (at ${startOf(c.name).at})` : " (not placed)"}`;
    token.setAttribute("aria-label", `place ${c.name}`);
    token.dataset.name = c.name;
    token.addEventListener("pointerdown", (e) => trayDown(e, c.name));
    token.addEventListener("click", () => pick(c.name));
    return token;
  }));
  const start = picked && startOf(picked);
  $("map-selected").hidden = !picked;
  if (picked) {
    $("map-selected-name").textContent = start ? `${picked} at ${start.at}` : `${picked}: click a square to place`;
    $("map-facing").value = start?.facing ?? "east";
    $("map-facing").disabled = !start;
    $("map-unplace").disabled = !start;
  }
}

function pick(name) {
  picked = picked === name ? null : name;
  drawMap();
}

// Places a combatant on a square (its start replaces any it had).
function place(name, square) {
  const c = everyone().find((x) => x.name === name);
  if (!c || !squareXY(square)) return;
  const old = startOf(name);
  const facing = old?.facing ?? FACING[c.side];
  map.starts = map.starts.filter((s) => s.who !== name);
  map.starts.push({ who: name, at: square, facing });
  picked = name;
  toText({ map: true });
}

// ---------------------------------------------------------------- painting and dragging

let painting = false;
let dragging = null; // the name of a token dragged from the tray or the map

function paintChar() {
  return document.querySelector("#map-editor input[name=paint]:checked")?.value ?? ".";
}

function squareAt(e) {
  const target = document.elementFromPoint(e.clientX, e.clientY);
  return target?.closest?.("#setup-svg [data-square]")?.dataset.square ?? null;
}

function paint(square) {
  const at = squareXY(square);
  if (!at || !map.rows[at.y]) return false;
  const row = [...map.rows[at.y]];
  const ch = paintChar();
  if (row[at.x] === ch) return false;
  row[at.x] = ch;
  map.rows[at.y] = row.join("");
  const cell = document.querySelector(`#setup-svg rect.cell[data-square="${square}"]`);
  if (cell) cell.setAttribute("class", `cell ${{ "#": "wall", ".": "floor", "+": "door", "/": "open-door", H: "ladder" }[ch]}`);
  return true;
}

function pointerDown(e) {
  const token = e.target.closest?.(".token[data-name]");
  if (token) {
    // A placed token: picked (its facing shown), and dragged if moved.
    dragging = token.dataset.name;
    picked = dragging;
    e.currentTarget.setPointerCapture?.(e.pointerId);
    e.preventDefault();
    return;
  }
  const square = e.target.closest?.("[data-square]")?.dataset.square;
  if (!square) return;
  if (picked && !startOf(picked)) { place(picked, square); return; }
  painting = true;
  e.currentTarget.setPointerCapture?.(e.pointerId);
  e.preventDefault();
  paint(square);
}

function pointerMove(e) {
  if (painting) paint(squareAt(e));
}

function pointerUp(e) {
  if (painting) { painting = false; toText({ map: true }); return; }
  if (dragging) {
    const name = dragging;
    dragging = null;
    const square = squareAt(e);
    const start = startOf(name);
    if (square && start && square !== start.at) place(name, square);
    else drawMap();
  }
}

// A token dragged from the tray: dropped on a square, it is placed there.
function trayDown(e, name) {
  dragging = name;
  const move = (m) => { document.body.classList.toggle("dragging-token", Boolean(squareAt(m))); };
  const up = (u) => {
    document.removeEventListener("pointermove", move);
    document.removeEventListener("pointerup", up);
    document.body.classList.remove("dragging-token");
    const square = squareAt(u);
    dragging = null;
    if (square) { u.preventDefault(); place(name, square); }
  };
  document.addEventListener("pointermove", move);
  document.addEventListener("pointerup", up);
}

// ---------------------------------------------------------------- the form's own fields

for (const [i, id] of [[0, "side-a"], [1, "side-b"]]) {
  const box = $(id);
  box.querySelector(".side-add").addEventListener("change", (e) => {
    const chosen = e.target.candidates?.[Number(e.target.value)];
    e.target.value = "";
    if (!chosen) return;
    const side = sides[i];
    if (side.readable === false) return;
    const c = structuredClone({ ...chosen.table });
    // Names are a fight's keys: a second "Goblin" becomes "Goblin 2".
    const taken = new Set(everyone().map((x) => x.name));
    if (taken.has(c.name)) { let n = 2; while (taken.has(`${c.name} ${n}`)) n += 1; c.name = `${c.name} ${n}`; }
    if (!side.combatants.length && !side.name) { side.name = chosen.sheet ? "The Party" : c.name; side.pcs = Boolean(chosen.sheet); }
    side.combatants.push(c);
    // A side of several is not named after its first fighter: a lone
    // combatant's side bears his name (and is written as his sheet); with a
    // second one, a name the GM has not typed becomes "Side A" or "Side B".
    if (side.combatants.length === 2 && !side.typed && !side.pcs && side.name === side.combatants[0].name) {
      const name = i ? "Side B" : "Side A";
      for (const start of map.starts) if (start.side !== undefined && start.side === side.name) start.side = name;
      side.name = name;
    }
    toText({ sides: true });
  });
  box.querySelector(".side-name").addEventListener("change", (e) => {
    const side = sides[i];
    for (const start of map.starts) if (start.side !== undefined && start.side === side.name) start.side = e.target.value;
    side.name = e.target.value;
    side.typed = true;
    toText();
  });
  box.querySelector(".side-pcs").addEventListener("change", (e) => { sides[i].pcs = e.target.checked; toText({ sides: true }); });
}

$("map-use").addEventListener("change", () => {
  map.use = $("map-use").checked;
  if (map.use && !map.rows.length) map.rows = blankRows(12, 8);
  map.readable = true;
  toText({ map: true });
});
$("map-name").addEventListener("change", () => { map.name = $("map-name").value; toText({ map: true }); });

// A new map: floor, walled round.
function blankRows(width, height) {
  return Array.from({ length: height }, (_, y) => (y === 0 || y === height - 1 ? "#".repeat(width) : `#${".".repeat(width - 2)}#`));
}

// Resizing keeps what is drawn; new squares are floor; starts off the map
// are taken off.
function resize() {
  const width = Math.max(2, Math.min(60, Number($("map-width").value) || 2));
  const height = Math.max(2, Math.min(60, Number($("map-height").value) || 2));
  const rows = [];
  for (let y = 0; y < height; y++) rows.push((map.rows[y] ?? "").padEnd(width, ".").slice(0, width));
  map.rows = rows;
  map.starts = map.starts.filter((s) => { const at = squareXY(s.at); return at && at.x < width && at.y < height; });
  toText({ map: true });
}
$("map-width").addEventListener("change", resize);
$("map-clear").addEventListener("click", () => {
  map.rows = blankRows(map.rows[0]?.length || 12, map.rows.length || 8);
  map.starts = map.starts.filter((s) => { const at = squareXY(s.at); return at && map.rows[at.y]?.[at.x] === "."; });
  toText({ map: true });
});
$("map-height").addEventListener("change", resize);
$("map-facing").addEventListener("change", () => {
  const start = picked && startOf(picked);
  if (start) { start.facing = $("map-facing").value; toText({ map: true }); }
});
$("map-unplace").addEventListener("click", () => {
  map.starts = map.starts.filter((s) => s.who !== picked);
  toText({ map: true });
});
// Keyboard: a picked token is placed by typing its square's name.
$("map-square").addEventListener("change", () => {
  const square = $("map-square").value.trim().toUpperCase();
  $("map-square").value = "";
  if (picked && squareXY(square)) place(picked, square);
});
for (const id of ["fight-a", "fight-b", "fight-map"]) $(id).addEventListener("change", fromText);
$("fight-example").addEventListener("change", useScenario);
loadScenarios();
// For the browser test: the set-up as this page holds it.
window.nutshellSetup = () => ({ sides, map, columns: map.rows[0] ? [...map.rows[0]].map((_, x) => columnName(x)) : [] });

// ---------------------------------------------------------------- folded while a fight is shown

// Once a fight is shown the form folds away (a button opens it again); a
// fight just started by this page brings its map into view.
let started = false;
let foldedFor = null; // the fight title the form was folded for
$("fight-form").addEventListener("submit", () => { started = true; });
function fold(shut) {
  $("fight-form").classList.toggle("folded", shut);
  $("fight-setup-open").hidden = !shut || $("fight-form").hidden;
}
$("fight-setup-open").addEventListener("click", () => {
  fold(false);
  $("fight-form").querySelector("h3")?.scrollIntoView();
  $("fight-example").focus({ preventScroll: true });
});
new MutationObserver(() => {
  const title = $("fight-title").textContent;
  if (!title || title === foldedFor || $("fight-view").hidden) return;
  foldedFor = title;
  fold(true);
  if (started) {
    started = false;
    $("fight-view").scrollIntoView({ block: "start" });
  }
}).observe($("fight-title"), { childList: true, characterData: true, subtree: true });
