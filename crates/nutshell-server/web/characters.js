// characters.js: MLS characters. It owns the guided character form (it
// writes the choices file and asks the server to price and check it as
// the player chooses; weapons and armour as rows of fields), making a sheet, the list of the table's sheets (each
// shown as a sheet: traits, skills, weapons, armour, health, Fate Points,
// the ledger folded) and the form that advances one.

import { $, api, clientSeed, el, errorText, setError, table } from "./shared.js";
import { readToml } from "./toml.js";

// The sheets made at this table that this member may see (a GM sees all).
async function showSheets() {
  if (!table.current) return;
  const answer = await api("GET", `/api/rooms/${encodeURIComponent(table.current.room)}/sheets`, table.current.seat.key);
  if (!answer.ok) return;
  const items = answer.data.sheets.map((sheet) => {
    const item = el("li");
    const details = el("details");
    details.append(el("summary", null, `${sheet.name} (made by ${sheet.owner}, roll #${sheet.seq}${sheet.advances ? `, advanced ${sheet.advances} time(s)` : ""})`));
    for (const line of sheet.rolled ?? []) details.append(el("div", "meta", line));
    details.append(sheetView(sheet.sheet));
    if (table.current.seat.role === "gm" || sheet.roller === table.me?.id) details.append(advanceForm(sheet));
    item.append(details);
    return item;
  });
  $("sheets").replaceChildren(...items);
}

// ---------------------------------------------------------------- a sheet as a sheet

const TRAITS = ["strength", "body", "size", "dexterity", "agility", "mind", "aura", "awareness"];
const LEVEL = (level) => (level === undefined ? "not acquired" : level === 0 ? "base" : `base+${level}`);

// A small table: a head row and rows of text.
function grid(className, head, rows) {
  const node = el("table", `odds ${className}`);
  const tr = el("tr");
  for (const h of head) tr.append(el("th", null, h));
  node.append(tr);
  for (const row of rows) {
    const line = el("tr");
    for (const cell of row) line.append(el("td", typeof cell === "number" ? "num" : null, String(cell ?? "")));
    node.append(line);
  }
  const box = el("div", "table-scroll");
  box.append(node);
  return box;
}

// A sheet as a person reads one: who, health and Fate Points; traits;
// skills (a character's secondary traits by level, or a combatant's skill
// values); weapons; armour; the ledger and the TOML folded. Nothing is
// computed here: every value is the sheet's.
function sheetView(text) {
  const view = el("div", "sheet");
  let sheet;
  try { sheet = readToml(text ?? ""); } catch (error) {
    view.append(el("p", "meta", `This sheet is shown as its text (${error.message}).`), el("pre", null, text ?? ""));
    return view;
  }
  const c = sheet.character ?? {};
  const who = [c.race, c.age !== undefined ? `age ${c.age}` : null, c.occupation?.name ? `${c.occupation.name} (${LEVEL(c.occupation.level ?? 0)})` : null].filter(Boolean).join(", ");
  view.append(el("p", "sheet-who", `${sheet.name ?? "?"}${who ? `: ${who}` : ""}`));
  const facts = el("div", "sheet-facts");
  facts.append(
    el("span", null, `Health: ${sheet.thp ?? "?"} THP${sheet.chp !== undefined ? ` (${sheet.chp} now)` : ""}`),
    el("span", null, `Fate Points: ${sheet.fate_points ?? 0}`),
  );
  if (sheet.shock !== undefined) facts.append(el("span", null, `Shock: ${sheet.shock}`));
  if (c.cps !== undefined) facts.append(el("span", null, `CPs unspent: ${c.cps}`));
  view.append(facts);
  const traits = sheet.traits ?? {};
  const named = [...TRAITS.filter((t) => t in traits), ...Object.keys(traits).filter((t) => !TRAITS.includes(t))];
  if (named.length) {
    const list = el("div", "sheet-traits");
    for (const t of named) {
      const item = el("span", "trait");
      item.append(el("span", "trait-name", t), " ", el("b", "trait-value", String(traits[t])));
      list.append(item);
    }
    view.append(el("h4", null, "Traits"), list);
  }
  const skills = [];
  for (const [name, s] of Object.entries(c.secondary ?? {})) skills.push([name, s.kind ?? "", s.base ?? "", LEVEL(s.level)]);
  if (skills.length) view.append(el("h4", null, "Skills (secondary traits)"), grid("sheet-skills", ["skill", "kind", "base", "level"], skills));
  const values = Object.entries(sheet.skills ?? {});
  if (values.length) view.append(el("h4", null, "Skills"), grid("sheet-skills", ["skill", "value"], values));
  const negative = Object.entries(c.negative ?? {});
  if (negative.length) view.append(el("h4", null, "Negative traits"), grid("sheet-negative", ["trait", "level"], negative.map(([n, t]) => [n, LEVEL(t.level ?? 0)])));
  const personality = Object.entries(c.personality ?? {});
  if (personality.length) view.append(el("h4", null, "Personality"), grid("sheet-personality", ["trait", "value"], personality));
  const weapons = sheet.weapons ?? [];
  if (weapons.length) view.append(el("h4", null, "Weapons"), grid("sheet-weapons", ["weapon", "skill", "DAM", "kind"], weapons.map((w) => [w.name, w.skill, w.dam, w.kind ?? "melee"])));
  const armour = [...(sheet.armour ?? [])];
  if (sheet.shield) armour.push({ ...sheet.shield, coverage: "shield" });
  if (armour.length) view.append(el("h4", null, "Armour"), grid("sheet-armour", ["armour", "value", "coverage"], armour.map((a) => [a.name, a.value, a.coverage ?? ""])));
  const ledger = c.ledger ?? [];
  if (ledger.length) {
    const fold = el("details", "fold ledger");
    fold.append(el("summary", null, `Ledger (${ledger.length} entr${ledger.length === 1 ? "y" : "ies"})`));
    fold.append(grid("sheet-ledger", ["age", "change", "CPs"], ledger.map((e) => [e.age, `${e.change ?? ""}${e.roll ? ` [${e.roll}]` : ""}`, e.cps])));
    view.append(fold);
  }
  const raw = el("details", "fold toml");
  raw.append(el("summary", null, "The sheet as TOML (nutshell mls reads it)"), el("pre", null, text));
  view.append(raw);
  return view;
}

// The advance's errors name `nutshell mls advance`'s options; the form
// says its own fields' words ("--adventure" is “adventure”, "--reduce
// TRAIT" a trait to reduce, which only the API takes for now).
const ADVANCE_WORDS = { adventure: "adventure", role: "role in it", check: "traits checked", years: "years passed", spend: "spend CPs on", reduce: "a trait to reduce (reduce, in the API)" };
function advanceWords(message) {
  return message.replace(/--([a-z-]+)(?: [A-Z]+\b)?/g, (whole, flag) => (ADVANCE_WORDS[flag] ? `“${ADVANCE_WORDS[flag]}”` : whole));
}

// Advancing a sheet (POST .../sheets/{sheet}/advance, `nutshell mls
// advance`'s options by name): an adventure and the role played, traits
// checked, years passed, CPs to spend; the ledger's new entries shown.
function advanceForm(sheet) {
  const form = el("form", "advance-form");
  form.autocomplete = "off";
  const id = (name) => `advance-${sheet.seq}-${name}`;
  const field = (name, label, input) => {
    input.id = id(name);
    const wrap = el("label", null, label);
    wrap.htmlFor = input.id;
    wrap.append(input);
    return wrap;
  };
  const select = (options) => {
    const node = el("select");
    for (const [value, text] of options) { const o = el("option", null, text); o.value = value; node.append(o); }
    return node;
  };
  const text = (placeholder) => { const input = el("input"); input.placeholder = placeholder; return input; };
  const years = el("input");
  years.type = "number";
  years.min = "0";
  years.placeholder = "0";
  const fields = el("div", "fields");
  fields.append(
    field("adventure", "adventure", select([["", "none"], ["minor", "minor"], ["average", "average"], ["major", "major"]])),
    field("role", "role in it", select([["minor", "minor"], ["major", "major"]])),
    field("check", "traits checked (commas)", text("strength, mind")),
    field("years", "years passed", years),
    field("spend", "spend CPs on (commas)", text("secondary:sword, money:1")),
  );
  const button = el("button", null, "Advance (the dice are rolled for the table)");
  button.type = "submit";
  const error = el("div", "error");
  error.hidden = true;
  error.setAttribute("role", "alert");
  const result = el("div", "advance-result");
  result.setAttribute("aria-live", "polite");
  form.append(el("h3", null, `Advance ${sheet.name}`), fields, button, error, result);
  const list = (value) => value.split(",").map((v) => v.trim()).filter(Boolean);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const body = { client_seed: clientSeed(), commitment: table.commitment };
    const adventure = form.querySelector(`#${id("adventure")}`).value;
    if (adventure) { body.adventure = adventure; body.role = form.querySelector(`#${id("role")}`).value; }
    const checks = list(form.querySelector(`#${id("check")}`).value);
    if (checks.length) body.check = checks;
    const passed = form.querySelector(`#${id("years")}`).value;
    if (passed !== "" && Number(passed) > 0) body.years = Number(passed);
    const spend = list(form.querySelector(`#${id("spend")}`).value);
    if (spend.length) body.spend = spend;
    button.disabled = true;
    const answer = await api("POST", `/api/rooms/${encodeURIComponent(table.current.room)}/sheets/${sheet.seq}/advance`, table.current.seat.key, body);
    button.disabled = false;
    error.hidden = answer.ok;
    if (!answer.ok) { setError(error, advanceWords(errorText(answer)).replace(/; /g, "\n")); return; }
    const entries = (answer.data.entries ?? []).map((entry) => el("li", null, `${entry.change}${entry.roll ? ` [${entry.roll}]` : ""}`));
    const ledger = el("ul", "ledger");
    ledger.append(...entries);
    result.replaceChildren(ledger, el("div", "meta", `${answer.data.cps ?? 0} CP(s) unspent at age ${answer.data.age ?? ""}`));
    // The sheet's new version (the list keeps this item's result in view).
    const view = form.parentElement.querySelector(".sheet");
    if (view && answer.data.sheet) view.replaceWith(sheetView(answer.data.sheet));
  });
  return form;
}

// The form writes the choices file (the text box under "advanced" holds
// it) and asks the table to check it (POST .../sheets/check with
// `choices`): the CPs spent and left and every rule broken come from the
// server, which prices everything; nothing here knows a rule.
const tomlString = (text) => JSON.stringify(text);

function choicesFromForm() {
  const lines = [`name = ${tomlString($("cf-name").value)}`, `race = ${tomlString($("cf-race").value)}`];
  const age = $("cf-age").value.trim();
  lines.push(`age = ${/^\d+(\.\d+)?$/.test(age) ? age : tomlString(age)}`);
  const traits = [...document.querySelectorAll("#char-guided [data-trait]")]
    .map((select) => `${select.dataset.trait} = ${Number(select.value)}`);
  lines.push(`traits = { ${traits.join(", ")} }`);
  lines.push(`occupation = { name = ${tomlString($("cf-occ-name").value.trim())}, base = ${tomlString($("cf-occ-base").value.trim())}, level = ${Number($("cf-occ-level").value)} }`);
  const fate = Number($("cf-fate").value);
  lines.push(`fate_points_bought = ${Number.isInteger(fate) ? fate : 0}`);
  if ($("cf-magic").checked) lines.push("magic = true");
  lines.push("", "[secondary]");
  for (const row of document.querySelectorAll("#char-guided .secondary")) {
    const name = row.querySelector(".s-name").value.trim();
    if (!name) continue;
    const level = row.querySelector(".s-level").value;
    lines.push(`${tomlString(name)} = { kind = ${tomlString(row.querySelector(".s-kind").value)}, base = ${tomlString(row.querySelector(".s-base").value.trim())}${level === "" ? "" : `, level = ${Number(level)}`} }`);
  }
  lines.push("", "[negative]");
  for (const row of document.querySelectorAll("#char-guided .negative")) {
    const name = row.querySelector(".n-name").value.trim();
    if (name) lines.push(`${tomlString(name)} = { level = ${Number(row.querySelector(".n-level").value)} }`);
  }
  lines.push("", "[personality]");
  for (const row of document.querySelectorAll("#char-guided .personality")) {
    const name = row.querySelector(".p-name").value.trim();
    const value = row.querySelector(".p-value").value.trim();
    if (!name || !value) continue;
    lines.push(`${tomlString(name)} = ${/^\d+$/.test(value) ? value : tomlString(value)}`);
  }
  lines.push(...gearLines());
  const extra = $("cf-extra").value.trim();
  if (extra) lines.push("", extra);
  return lines.join("\n") + "\n";
}

// Where on the form a violation belongs: the field whose `data-field` (or
// row name) starts the violation's field.
function fieldFor(field) {
  const named = [...document.querySelectorAll("#char-guided [data-field]")]
    .find((node) => field === node.dataset.field || field.startsWith(`${node.dataset.field}.`));
  if (named) return named;
  for (const [kind, input] of [["secondary", ".s-name"], ["negative", ".n-name"], ["personality", ".p-name"]]) {
    for (const row of document.querySelectorAll(`#char-guided .${kind}`)) {
      const name = row.querySelector(input).value.trim();
      if (name && (field === `character.${kind}.${name}` || field.startsWith(`character.${kind}.${name}.`))) return row;
    }
  }
  return null;
}

let checkTimer = null;
let checkSerial = 0;
function scheduleCheck() {
  clearTimeout(checkTimer);
  checkTimer = setTimeout(checkChoices, 250);
}

async function checkChoices() {
  if (!table.current) return;
  const serial = ++checkSerial;
  const answer = await api("POST", `/api/rooms/${encodeURIComponent(table.current.room)}/sheets/check`, table.current.seat.key, {
    choices: $("choices").value,
  });
  if (serial !== checkSerial) return; // a later check is under way
  for (const node of document.querySelectorAll("#char-guided .problem")) node.textContent = "";
  for (const node of document.querySelectorAll("#char-guided [aria-invalid]")) node.removeAttribute("aria-invalid");
  const list = $("char-violations");
  const status = $("char-cps");
  if (!answer.ok) {
    status.textContent = "CPs: the choices cannot be read";
    list.replaceChildren(el("li", null, errorText(answer)));
    return;
  }
  const { cps, violations, ok } = answer.data;
  status.textContent = cps
    ? `CPs: ${cps.spent} spent of ${cps.budget}, ${cps.left} left${ok ? " ✓ the rules accept this character" : ""}`
    : "CPs: none (see below)";
  status.classList.toggle("over", Boolean(cps && cps.left < 0));
  list.replaceChildren(...violations.map((v) => {
    const text = `${v.field}: ${v.problem}${v.rule ? ` (${v.rule})` : ""}`;
    const field = fieldFor(v.field);
    if (field) {
      const problem = field.querySelector(".problem");
      if (problem) problem.textContent = `${problem.textContent ? `${problem.textContent}; ` : ""}${v.problem}`;
      for (const input of field.querySelectorAll("input, select")) input.setAttribute("aria-invalid", "true");
    }
    return el("li", "violation", text);
  }));
}

// ---------------------------------------------------------------- weapons and armour

// Weapons and armour as form rows (the sheet's `weapons` and `armour`:
// name, skill, dam, kind and a missile's or a spell's range; name, value
// and coverage). The MLS text has no weapon table: the examples are the
// project's own example sheets'.
const WEAPON_EXAMPLES = [
  { name: "arming sword", skill: "sword", dam: 8, kind: "melee" },
  { name: "hand axe", skill: "axe", dam: 7, kind: "melee" },
  { name: "dagger", skill: "dagger", dam: 5, kind: "melee" },
  { name: "staff", skill: "staff", dam: 5, kind: "melee" },
  { name: "short bow", skill: "bow", dam: 5, kind: "missile", range: 12 },
];
const COVERAGES = [["partial", "Partial"], ["full", "Full"], ["encased", "Encased"], ["total", "Total"]];
function cell(label, input) {
  const wrap = el("label", "cell");
  wrap.append(el("span", null, label), input);
  return wrap;
}
function input(cls, value, aria, type = "text") {
  const node = el("input", cls);
  node.type = type;
  node.value = value ?? "";
  node.setAttribute("aria-label", aria);
  return node;
}
function choose(cls, options, value, aria) {
  const node = el("select", cls);
  for (const [v, text] of options) { const o = el("option", null, text); o.value = v; node.append(o); }
  node.value = value;
  node.setAttribute("aria-label", aria);
  return node;
}
function removeButton(row, what) {
  const b = el("button", "small remove", "Remove");
  b.type = "button";
  b.setAttribute("aria-label", `remove ${what}`);
  b.addEventListener("click", () => { row.remove(); formChanged(); });
  return b;
}
function weaponRow(w = {}) {
  const n = document.querySelectorAll("#cf-weapons .weapon").length + 1;
  const row = el("div", "field row weapon");
  row.dataset.row = "weapon";
  const kind = choose("w-kind", [["melee", "melee"], ["missile", "missile"], ["spell", "spell"]], w.kind ?? "melee", `weapon ${n}: kind`);
  const range = input("w-range", w.range ?? "", `weapon ${n}: range (squares)`, "number");
  range.min = "1";
  const rangeCell = cell("range", range);
  // A range for a missile or a spell only (a melee weapon's row has none).
  const showRange = () => {
    if (kind.value === "melee") rangeCell.remove();
    else if (!rangeCell.isConnected) kind.closest("label").after(rangeCell);
  };
  kind.addEventListener("change", showRange);
  const dam = input("w-dam", w.dam ?? "", `weapon ${n}: damage`, "number");
  row.append(cell("name", input("w-name", w.name, `weapon ${n}: name`)), cell("skill", input("w-skill", w.skill, `weapon ${n}: skill`)), cell("DAM", dam), cell("kind", kind), rangeCell, removeButton(row, `weapon ${n}`), el("span", "problem"));
  showRange();
  $("cf-weapons").append(row);
  return row;
}
function armourRow(a = {}) {
  const n = document.querySelectorAll("#cf-armour .armour").length + 1;
  const row = el("div", "field row armour");
  row.dataset.row = "armour";
  row.append(cell("name", input("a-name", a.name, `armour ${n}: name`)), cell("value", input("a-value", a.value ?? "", `armour ${n}: value`, "number")), cell("coverage", choose("a-coverage", COVERAGES, a.coverage ?? "partial", `armour ${n}: coverage`)), removeButton(row, `armour ${n}`), el("span", "problem"));
  $("cf-armour").append(row);
  return row;
}
// The rows as the sheet's TOML (the same a combatant sheet writes).
function gearLines() {
  const lines = [];
  for (const row of document.querySelectorAll("#cf-weapons .weapon")) {
    const name = row.querySelector(".w-name").value.trim();
    if (!name) continue;
    const kind = row.querySelector(".w-kind").value;
    const range = row.querySelector(".w-range")?.value.trim() ?? "";
    const dam = row.querySelector(".w-dam").value.trim();
    lines.push("", "[[weapons]]", `name = ${tomlString(name)}`, `skill = ${tomlString(row.querySelector(".w-skill").value.trim())}`, `dam = ${/^-?\d+$/.test(dam) ? dam : tomlString(dam)}`);
    if (kind !== "melee") lines.push(`kind = ${tomlString(kind)}`);
    if (kind !== "melee" && range !== "") lines.push(`range = ${/^\d+$/.test(range) ? range : tomlString(range)}`);
  }
  for (const row of document.querySelectorAll("#cf-armour .armour")) {
    const value = row.querySelector(".a-value").value.trim();
    const name = row.querySelector(".a-name").value.trim();
    if (!name && value === "") continue;
    lines.push("", "[[armour]]");
    if (name) lines.push(`name = ${tomlString(name)}`);
    lines.push(`value = ${/^-?\d+$/.test(value) ? value : tomlString(value)}`, `coverage = ${tomlString(row.querySelector(".a-coverage").value)}`);
  }
  return lines;
}
for (const w of WEAPON_EXAMPLES) {
  const o = el("option", null, `${w.name} (${w.skill}, DAM ${w.dam}${w.range ? `, range ${w.range}` : ""})`);
  o.value = w.name;
  $("cf-weapon-example").append(o);
}
$("cf-weapon-example").addEventListener("change", (e) => {
  const w = WEAPON_EXAMPLES.find((x) => x.name === e.target.value);
  e.target.value = "";
  if (w) { weaponRow(w); formChanged(); }
});
$("cf-add-weapon").addEventListener("click", () => { weaponRow().querySelector("input")?.focus(); formChanged(); });
$("cf-add-armour").addEventListener("click", () => { armourRow().querySelector("input")?.focus(); formChanged(); });
// What the TOML box held before: an arming sword and a gambeson.
weaponRow(WEAPON_EXAMPLES[0]);
armourRow({ name: "gambeson", value: 2, coverage: "partial" });

function formChanged() {
  $("choices").value = choicesFromForm();
  scheduleCheck();
}
$("char-guided").addEventListener("input", formChanged);
$("char-guided").addEventListener("change", formChanged);
$("choices").addEventListener("input", scheduleCheck);
$("characters").addEventListener("toggle", () => { if ($("characters").open) formChanged(); });

async function makeSheet(e) {
  e.preventDefault();
  if (!table.current) return;
  const answer = await api("POST", `/api/rooms/${encodeURIComponent(table.current.room)}/sheets`, table.current.seat.key, {
    choices: $("choices").value,
    client_seed: clientSeed(), commitment: table.commitment,
  });
  const error = $("sheet-error");
  if (!answer.ok) {
    // The rules a character breaks are listed one a line.
    setError(error, errorText(answer).replace(/; /g, "\n"));
    return;
  }
  error.hidden = true;
  showSheets();
}

// A sheet made or advanced by anyone (the room's live events): the list,
// when it is open, shows it at once.
export function sheetsChanged() {
  if ($("characters").open) showSheets();
}

$("sheet-form").addEventListener("submit", makeSheet);
$("characters").addEventListener("toggle", () => { if ($("characters").open) showSheets(); });
