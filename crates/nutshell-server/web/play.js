// play.js: MLS fights played by their players. It owns the "Who plays"
// part of the fight form (played or stepped, who controls whom, seconds for
// each decision), each played fight as the server's GET shows it to this
// member (whose decision is awaited, and this member's own options only),
// the panel that answers a decision (options as buttons with the rule's
// words on hover; for movement the reachable squares shaded on the map and
// listed as buttons, a first click showing the way and its cost, a second
// confirming), the GM's hand-over of a combatant, and a move animated
// square by square. Costs and ways come from the server's options: nothing
// here computes a rule.

import { $, api, clientSeed, el, errorText, roomPath, setError, svgEl, table } from "./shared.js";
import { columnName, squareXY } from "./map.js";
import { readToml } from "./toml.js";

// ---------------------------------------------------------------- set-up

let members = []; // { id, name, role }
let sheetOwners = new Map(); // sheet name -> owner's name
let touched = false; // the GM set the checkbox by hand

// The combatants the form's sides name, in order.
function combatantNames() {
  const names = [];
  for (const id of ["fight-a", "fight-b"]) {
    try {
      const file = readToml($(id).value);
      if (Array.isArray(file.combatant)) for (const c of file.combatant) names.push(String(c.name ?? ""));
      else if (file.name) names.push(String(file.name));
    } catch { /* the form shows its own error on start */ }
  }
  return names.filter(Boolean);
}

async function loadRoom() {
  if (!table.current) return;
  const room = await api("GET", roomPath(), table.current.seat.key);
  if (room.ok) members = room.data.members ?? [];
  const sheets = await api("GET", `${roomPath()}/sheets`, table.current.seat.key);
  if (sheets.ok) sheetOwners = new Map((sheets.data.sheets ?? []).map((s) => [s.name, s.owner]));
  drawControl();
}

// One row a combatant: its name and a list of controllers, the default
// one (its sheet's owner, else the GM) chosen.
function drawControl() {
  const names = combatantNames();
  const list = $("play-control");
  const kept = new Map([...list.querySelectorAll("select")].map((s) => [s.dataset.name, s.value]));
  const fromSheet = names.some((n) => sheetOwners.has(n));
  if (!touched) $("fight-played").checked = fromSheet;
  $("play-control-box").hidden = !$("fight-played").checked;
  list.replaceChildren(...names.map((name, i) => {
    const row = el("li");
    const select = el("select");
    select.id = `play-control-${i}`;
    select.dataset.name = name;
    const owner = members.find((m) => m.role !== "gm" && m.name === sheetOwners.get(name));
    const choices = [["gm", "the GM"], ["engine", "the engine"], ...members.filter((m) => m.role !== "gm").map((m) => [String(m.id), `${m.name} (player)`])];
    for (const [value, label] of choices) {
      const option = el("option", null, label);
      option.value = value;
      select.append(option);
    }
    select.value = kept.get(name) ?? (owner ? String(owner.id) : "gm");
    const label = el("label", null, `${name}: `);
    label.htmlFor = select.id;
    row.append(label, select);
    return row;
  }));
}

// What a played start adds to the fight's request (null: a stepped fight).
export function playedRequest() {
  if (!$("fight-played").checked) return null;
  const control = {};
  for (const select of $("play-control").querySelectorAll("select")) {
    control[select.dataset.name] = /^\d+$/.test(select.value) ? Number(select.value) : select.value;
  }
  const request = { played: true, control, client_seed: clientSeed() };
  const seconds = $("fight-seconds").value.trim();
  if (seconds !== "") request.decision_seconds = Number(seconds);
  return request;
}

$("fight-played").addEventListener("change", () => { touched = true; drawControl(); });
for (const id of ["fight-a", "fight-b"]) $(id).addEventListener("input", drawControl);
$("fight-form").addEventListener("change", () => setTimeout(drawControl, 0));
$("fights").addEventListener("toggle", () => { if ($("fights").open && table.current?.seat.role === "gm") loadRoom(); });

// ---------------------------------------------------------------- the fight as this member sees it

const views = new Map(); // fight id -> the GET answer
const picks = new Map(); // fight id -> the square picked once (a second click confirms)
let redraw = () => {};

// fights.js draws the fight again when a played fight's view changes.
export function onChange(draw) { redraw = draw; }

export function playedView(id) { return views.get(id) ?? null; }
export function pickOf(id) { return picks.get(id) ?? null; }

// Reads the fight again (after its start and each decision or change of
// control); the page draws it with this member's options.
export async function refresh(id) {
  if (!table.current) return;
  const answer = await api("GET", `${roomPath()}/fights/${id}`, table.current.seat.key);
  if (!answer.ok) return;
  const old = views.get(id);
  // An older answer arriving late, or the same again: nothing to draw (a
  // drawing again would take the focus from the keyboard's user).
  if (old && old.seq >= answer.data.seq) return;
  views.set(id, answer.data);
  if (old?.step !== answer.data.step) picks.delete(id);
  redraw(id);
  // When this page first drew each step (the browser test's latency).
  window.nutshellStepAt ??= {};
  window.nutshellStepAt[answer.data.step] ??= Date.now();
}

function controllerName(c) {
  if (c === "gm") return "the GM";
  if (c === "engine") return "the engine";
  return c?.name ?? `member ${c?.member}`;
}

function mine(controller) {
  if (!table.me) return false;
  if (controller === "gm") return table.me.role === "gm";
  return controller?.member === table.me.id;
}

// The panel above the map: whose decision is awaited, and, when it is
// this member's, the question and its options.
export function drawPanel(fight) {
  const panel = $("play-panel");
  const view = views.get(fight.id);
  panel.hidden = !view?.played;
  $("fight-view").classList.toggle("played", Boolean(view?.played));
  if (!view?.played) return;
  const parts = [];
  const waiting = view.waiting?.[0];
  const status = el("p", "play-waiting");
  status.id = "play-waiting";
  status.setAttribute("aria-live", "polite");
  if (view.over) status.textContent = "The fight is over.";
  else if (waiting) {
    const yours = mine(waiting.controller);
    status.textContent = yours
      ? `Your decision: ${waiting.who}'s ${waiting.kind}.`
      : `Waiting for ${controllerName(waiting.controller)}: ${waiting.who}'s ${waiting.kind}.`;
    if (waiting.deadline) status.textContent += ` (the engine decides at ${new Date(waiting.deadline).toLocaleTimeString()})`;
    status.classList.toggle("yours", yours);
  } else status.textContent = "Nobody is awaited.";
  parts.push(status);
  const decision = view.decision;
  if (decision && !view.over) parts.push(decisionBox(fight, view, decision));
  const error = el("div", "error");
  error.id = "play-error";
  error.setAttribute("role", "alert");
  error.hidden = true;
  parts.push(error);
  if (table.me?.role === "gm" && !view.over) parts.push(controlBox(fight, view));
  panel.replaceChildren(...parts);
}

function decisionBox(fight, view, decision) {
  const box = el("div", "play-decision");
  box.id = "play-decision";
  box.dataset.who = view.waiting?.[0]?.who ?? decision.name ?? "";
  box.dataset.kind = decision.kind ?? "";
  box.append(el("p", "play-question", decision.question ?? ""));
  const options = decision.options ?? [];
  const squares = options.filter((o) => o.square);
  const others = options.filter((o) => !o.square);
  if (squares.length) {
    const pick = picks.get(fight.id);
    const picked = pick && squares.filter((o) => o.square === pick).sort((x, y) => x.cost - y.cost)[0];
    const say = el("p", "play-path");
    say.id = "play-path";
    say.textContent = picked
      ? `${picked.square}: ${picked.cost} MP, by ${(picked.path ?? []).join(" → ")}. Click it again (or its button) to move there.`
      : "Pick a shaded square (its cost shows on hover), then again to confirm; or a square below.";
    box.append(say);
    const list = el("div", "play-squares");
    list.setAttribute("aria-label", "the squares you can reach");
    for (const option of squares) {
      const b = el("button", `small${option.square === pick ? " picked" : ""}`, option.label ?? `${option.square} (${option.cost} MP)`);
      b.type = "button";
      b.dataset.square = option.square;
      b.title = option.rule ?? "";
      b.addEventListener("click", () => pickSquare(fight, option));
      list.append(b);
    }
    box.append(list);
  }
  if (others.length) {
    const row = el("div", "row play-options");
    for (const option of others) {
      const b = el("button", "play-option", option.label ?? JSON.stringify(option.choice));
      b.type = "button";
      b.title = option.rule ?? "";
      b.dataset.choice = JSON.stringify(option.choice);
      b.addEventListener("click", () => decide(fight.id, view, option.choice));
      row.append(b);
    }
    box.append(row);
  }
  if (decision.ruled_out?.length) {
    const out = el("details", "play-ruled-out");
    out.append(el("summary", null, "Ruled out"));
    for (const r of decision.ruled_out) out.append(el("div", "quiet", `${r.label ?? JSON.stringify(r.choice)}: ${r.why}`));
    box.append(out);
  }
  return box;
}

function pickSquare(fight, option) {
  if (picks.get(fight.id) === option.square) {
    decide(fight.id, views.get(fight.id), option.choice);
    return;
  }
  picks.set(fight.id, option.square);
  redraw(fight.id);
  document.querySelector(`#play-decision button[data-square="${option.square}"]`)?.focus();
}

async function decide(id, view, choice) {
  const waiting = view.waiting?.[0];
  if (!waiting) return;
  for (const b of document.querySelectorAll("#play-decision button")) b.disabled = true;
  const body = { step: view.step, who: waiting.who, kind: waiting.kind, choice, client_seed: clientSeed() };
  const answer = await api("POST", `${roomPath()}/fights/${id}/decisions`, table.current.seat.key, body);
  if (answer.ok) { picks.delete(id); await refresh(id); return; }
  if (answer.status === 409) {
    await refresh(id);
    setError($("play-error"), `The fight had moved on (${errorText(answer)}): it is shown as it is now.`);
    return;
  }
  for (const b of document.querySelectorAll("#play-decision button")) b.disabled = false;
  setError($("play-error"), answer.status === 403 ? `Not yours: ${errorText(answer)}` : `Refused: ${errorText(answer)}`);
}

// The GM's hand-over: a combatant to the GM, the engine or a player.
function controlBox(fight, view) {
  const box = el("details", "play-handover");
  box.append(el("summary", null, "Who controls whom (hand a combatant over)"));
  const list = el("ul", "play-control");
  view.controllers.forEach((c, i) => {
    const row = el("li");
    const select = el("select");
    select.id = `play-hand-${i}`;
    const choices = [["gm", "the GM"], ["engine", "the engine"], ...members.filter((m) => m.role !== "gm").map((m) => [String(m.id), `${m.name} (player)`])];
    const current = typeof c.controller === "object" ? String(c.controller.member) : c.controller;
    if (!choices.some(([v]) => v === current)) choices.push([current, controllerName(c.controller)]);
    for (const [value, label] of choices) {
      const option = el("option", null, label);
      option.value = value;
      select.append(option);
    }
    select.value = current;
    select.addEventListener("change", async () => {
      const controller = /^\d+$/.test(select.value) ? Number(select.value) : select.value;
      const answer = await api("POST", `${roomPath()}/fights/${fight.id}/control`, table.current.seat.key, { who: c.name, controller });
      if (!answer.ok) setError($("play-error"), errorText(answer));
      await refresh(fight.id);
    });
    const label = el("label", null, `${c.name}: `);
    label.htmlFor = select.id;
    row.append(label, select);
    list.append(row);
  });
  box.append(list);
  if (!members.length) loadRoom();
  return box;
}

// ---------------------------------------------------------------- on the map

const center = (square) => { const at = squareXY(square); return at && { x: at.x + 0.5, y: at.y + 0.5 }; };

// Marks the map: the token awaited (yours highlighted), the squares you
// can reach shaded with their cost on hover, the way to the square
// picked, and the targets of your options.
export function decorate(svg, fight) {
  const view = views.get(fight.id);
  if (!view?.played || !svg) return;
  const waiting = view.waiting?.[0];
  const token = waiting && svg.querySelector(`.token[data-name="${CSS.escape(waiting.who)}"]`);
  if (token) token.classList.add(mine(waiting.controller) ? "yours" : "awaited");
  const decision = view.over ? null : view.decision;
  if (!decision) return;
  const pick = picks.get(fight.id);
  const layer = svgEl("g", { class: "reach-layer" });
  // One shaded square a square (an option may reach it more than one way:
  // the map offers the cheapest, the list below every one).
  const cheapest = new Map();
  for (const option of decision.options ?? []) {
    if (option.choice?.target) svg.querySelector(`.token[data-name="${CSS.escape(option.choice.target)}"]`)?.classList.add("target");
    const best = cheapest.get(option.square);
    if (option.square && (!best || option.cost < best.cost)) cheapest.set(option.square, option);
  }
  for (const option of cheapest.values()) {
    const at = squareXY(option.square);
    if (!at) continue;
    const rect = svgEl("rect", { x: at.x + 0.04, y: at.y + 0.04, width: 0.92, height: 0.92, class: `reach${option.square === pick ? " picked" : ""}`, "data-reach": option.square });
    rect.append(svgEl("title", {}, `${option.square}: ${option.cost} MP`));
    rect.addEventListener("click", () => pickSquare(fight, option));
    layer.append(rect);
  }
  const picked = pick && cheapest.get(pick);
  if (picked) {
    const me = (view.state?.combatants ?? []).find((c) => c.name === waiting?.who);
    const points = [me?.square, ...(picked.path ?? [])].map(center).filter(Boolean).map((p) => `${p.x},${p.y}`).join(" ");
    layer.append(svgEl("polyline", { class: "way", points }));
    const end = center(picked.square);
    layer.append(svgEl("text", { class: "way-cost", x: end.x, y: end.y - 0.3, "text-anchor": "middle" }, `${picked.cost} MP`));
  }
  // Under the tokens: the tokens stay on top of the shading.
  const firstToken = svg.querySelector(".token");
  svg.insertBefore(layer, firstToken);
}

// A move, square by square: the token goes from where it stood through
// the squares the decision named (each step one square, a straight line
// between them), then the map is drawn as the fight now is.
export function animateMove(from, squares, name) {
  const svg = document.getElementById("fight-svg");
  const token = svg?.querySelector(`.token[data-name="${CSS.escape(name)}"]`);
  if (!token || !from) return Promise.resolve();
  const steps = [];
  let at = squareXY(from);
  for (const square of squares) {
    const to = squareXY(String(square).split(":")[0]);
    if (!to) continue;
    while (at.x !== to.x || at.y !== to.y) {
      at = { x: at.x + Math.sign(to.x - at.x), y: at.y + Math.sign(to.y - at.y) };
      steps.push({ ...at });
    }
  }
  return new Promise((done) => {
    const next = () => {
      const step = steps.shift();
      if (!step) { done(); return; }
      token.setAttribute("transform", `translate(${step.x + 0.5} ${step.y + 0.5})`);
      token.dataset.moving = `${columnName(step.x)}${step.y + 1}`;
      setTimeout(next, 90);
    };
    next();
  });
}
