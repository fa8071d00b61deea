// checks.js: the "Check or contest" form: each ruleset's options, the
// check or contest rolled for the table, and its outcome with the exact
// odds of every outcome.

import { $, api, clientSeed, el, errorText, setError, table } from "./shared.js";
import { contestNames, contestSides } from "./feed.js";

// Each ruleset's options, by the JSON request's field names (the command
// line's, with `_` for `-`): [name, label, kind] with kind number, text or
// flag. A DC's descriptors are the rules' own (/web/rulesets.json, read
// from the rules crate), offered as the DC field's suggestions.
const RULES = {
  fantasy: {
    check: [["mod", "modifier", "number"], ["ability", "ability score modifier", "number"], ["dc", "DC (a number or a descriptor)", "text"],
      ["crit_success", "critical success allowed", "flag"], ["crit_failure", "critical failure allowed", "flag"], ["natural_even", "natural even only", "flag"],
      ["take", "take 0, 10 or 20", "number"], ["reroll", "spend a reroll on a failure", "flag"], ["magnitude", "roll the magnitude on a success", "flag"],
      ["effect", "effect dice on a success", "text"]],
    contest: null,
  },
  mls: {
    check: [["skill", "skill", "number"], ["mod", "modifier", "number"]],
    contest: [["skill", "skill", "number"], ["mod", "modifier", "number"], ["vs_skill", "opponent's skill", "number"], ["vs_mod", "opponent's modifier", "number"]],
  },
  "exploding-d6": {
    check: [["score", "Score", "number"], ["mod", "modifier", "number"], ["dc", "Difficulty #", "number"], ["rote", "taking their time (rote)", "flag"]],
    contest: [["score", "Score", "number"], ["mod", "modifier", "number"], ["vs_score", "opponent's Score", "number"], ["vs_mod", "opponent's modifier", "number"]],
  },
  "tiered-d20": {
    check: [["skill", "skill", "number"], ["mod", "modifier", "number"], ["dc", "DC", "number"], ["advantage", "sources of advantage", "number"],
      ["disadvantage", "sources of disadvantage", "number"], ["edge", "edges gained", "number"], ["lose_edge", "edges lost", "number"],
      ["dc_edge", "net edges on the DC", "number"], ["reroll", "one reroll", "flag"], ["effect", "effect dice", "text"]],
    contest: null,
  },
  "favor-3d6": {
    check: [["mod", "modifier", "number"], ["favor", "favor", "number"], ["disfavor", "disfavor", "number"], ["dc", "Test Difficulty", "number"]],
    contest: [["mod", "modifier", "number"], ["favor", "favor", "number"], ["disfavor", "disfavor", "number"], ["pc", "is a PC", "flag"],
      ["defender", "is defending", "flag"], ["level", "level or DR", "number"], ["vs_mod", "opponent's modifier", "number"],
      ["vs_favor", "opponent's favor", "number"], ["vs_disfavor", "opponent's disfavor", "number"], ["vs_pc", "opponent is a PC", "flag"],
      ["vs_defender", "opponent is defending", "flag"], ["vs_level", "opponent's level or DR", "number"]],
  },
};

// What the rules define for the form: each ruleset's DC descriptors.
let rulesData = {};
async function loadRulesData() {
  try {
    const response = await fetch("/web/rulesets.json");
    if (response.ok) rulesData = await response.json();
  } catch { /* the form works without suggestions */ }
  rulesFields();
}

// The label of a field of the form in use (its words before any
// parenthesis): an error says "DC", not `dc`.
function fieldLabel(name) {
  const kind = $("rules-kind").value;
  const found = (RULES[$("rules-set").value]?.[kind] ?? []).find(([field]) => field === name);
  return found ? found[1].replace(/ \(.*\)$/, "") : null;
}

// The server's error in the form's words: each `field` it names becomes
// the field's label (`dc` "medium" is DC “medium”).
function formWords(message) {
  return message.replace(/`([a-z_]+)`(?: "([^"]*)")?/g, (whole, name, value) => {
    const label = fieldLabel(name);
    if (!label) return whole;
    return value === undefined ? label : `${label} “${value}”`;
  });
}

function rulesFields() {
  const kind = $("rules-kind").value;
  const set = $("rules-set");
  // Only the rulesets that have this kind of roll.
  const names = Object.keys(RULES).filter((name) => RULES[name][kind]);
  const chosen = names.includes(set.value) ? set.value : names[0];
  set.replaceChildren(...names.map((name) => { const o = el("option", null, name); o.value = name; return o; }));
  set.value = chosen;
  const box = $("rules-fields");
  // What was typed stays when the same form is drawn again.
  const typed = box.dataset.form === `${chosen}/${kind}` ? new Map([...box.querySelectorAll("input")].map((i) => [i.name, i.type === "checkbox" ? i.checked : i.value])) : new Map();
  box.dataset.form = `${chosen}/${kind}`;
  box.replaceChildren();
  for (const [name, label, type] of RULES[chosen][kind]) {
    const id = `rule-${name}`;
    const wrap = el("label");
    wrap.htmlFor = id;
    const input = el("input");
    input.id = id;
    input.name = name;
    if (type === "flag") {
      input.type = "checkbox";
      wrap.className = "flag";
      wrap.append(input, document.createTextNode(label));
    } else {
      input.type = type === "number" ? "number" : "text";
      if (type === "number") input.step = "1";
      wrap.append(document.createTextNode(label), input);
      // The DC's descriptors, as the ruleset names them.
      const descriptors = name === "dc" ? rulesData[chosen]?.dc_descriptors : null;
      if (descriptors?.length) {
        const list = el("datalist");
        list.id = `${id}-descriptors`;
        for (const d of descriptors) { const o = el("option", null, `${d.name} (${d.dc})`); o.value = d.name; list.append(o); }
        input.setAttribute("list", list.id);
        input.placeholder = `15 or ${descriptors[Math.min(3, descriptors.length - 1)].name}`;
        wrap.append(list, el("span", "hint descriptors", `Descriptors: ${descriptors.map((d) => `${d.name} ${d.dc}`).join(", ")}`));
        wrap.classList.add("wide");
      }
    }
    if (typed.has(name)) { if (type === "flag") input.checked = typed.get(name); else input.value = typed.get(name); }
    box.append(wrap);
  }
}

function oddsTable(odds, names) {
  const grid = el("table", "odds");
  const head = el("tr");
  head.append(el("th", null, "outcome"), el("th", null, "exact"), el("th", null, "%"));
  grid.append(head);
  for (const row of odds?.outcomes ?? []) {
    const tr = el("tr");
    tr.append(el("td", null, names?.[row.outcome] ? `winner: ${names[row.outcome]}` : row.outcome), el("td", "num", row.probability), el("td", "num", `${Number(row.percent).toFixed(2)}`));
    grid.append(tr);
  }
  return grid;
}

async function rollRules(e) {
  e.preventDefault();
  if (!table.current) return;
  const kind = $("rules-kind").value;
  const ruleset = $("rules-set").value;
  const body = { ruleset, odds: true, client_seed: clientSeed(), commitment: table.commitment };
  for (const input of $("rules-fields").querySelectorAll("input")) {
    if (input.type === "checkbox") { if (input.checked) body[input.name] = true; continue; }
    if (input.value === "") continue;
    body[input.name] = input.type === "number" ? Number(input.value) : input.value;
  }
  const answer = await api("POST", `/api/rooms/${encodeURIComponent(table.current.room)}/${kind}s`, table.current.seat.key, body);
  const error = $("rules-error");
  const result = $("rules-result");
  if (!answer.ok) {
    setError(error, formWords(errorText(answer).replace(/^error: /, "")));
    result.replaceChildren();
    return;
  }
  error.hidden = true;
  const data = answer.data;
  const names = kind === "contest" ? contestNames(ruleset, "your side") : null;
  const summary = el("p");
  if (names) {
    summary.append("winner: ", el("span", "total", names[data.winner] ?? data.winner ?? ""));
  } else {
    summary.append(el("span", "total", data.outcome ?? ""), document.createTextNode(data.total !== undefined ? ` (total ${data.total})` : ""));
  }
  const lines = el("div");
  if (names) lines.append(...contestSides(data, names));
  for (const side of data.sides ?? []) for (const line of side.transcript ?? []) lines.append(el("div", "meta", `${line.text} (${line.rule})`));
  for (const line of data.transcript ?? []) lines.append(el("div", "meta", `${line.text} (${line.rule})`));
  result.replaceChildren(summary, lines, el("div", "meta", "The exact odds of every outcome:"), oddsTable(data.odds, names));
}

$("rules-kind").addEventListener("change", rulesFields);
$("rules-set").addEventListener("change", rulesFields);
$("rules-form").addEventListener("submit", rollRules);
rulesFields();
loadRulesData();
