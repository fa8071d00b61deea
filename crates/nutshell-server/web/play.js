// play.js: MLS fights played by their players. It owns the "Who plays"
// part of the fight form (played or stepped, who controls whom, seconds for
// each decision), each played fight as the server's GET shows it to this
// member (every decision awaited, and this member's own options only), a
// box for each decision of this member's (options as buttons with the
// rule's words on hover; for movement the reachable squares shaded on the
// map and listed as buttons, a first click showing the way and its cost
// (and a square's facings as buttons when it has several), a second
// confirming; arrow keys and Enter for the keyboard; a "Your decision"
// link while the decision is below the fold), the targets
// the server names marked on the map, the GM's hand-over of a combatant,
// the optional follow-ups asked in the box of the question they follow
// (their pick sent when the server asks them), and a move walked square by square along the server's way or the log's.
// Costs, ways and targets come from the server: nothing here computes a
// rule.

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

let loading = false;
let loadedOnce = false;
async function loadRoom() {
  if (!table.current) return;
  loading = true;
  loadedOnce = true;
  const room = await api("GET", roomPath(), table.current.seat.key);
  loading = false;
  if (room.ok) members = room.data.members ?? [];
  if (shownId !== null) redraw(shownId);
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
const picks = new Map(); // `${fight id} ${who}` -> the square picked once (a second click confirms)
const onMap = new Map(); // fight id -> the combatant whose squares the map shades
let redraw = () => {};
let shownId = null; // the fight the panel last drew

// What style.css has no rule for (it is not this module's file) is set on
// the elements themselves (the page's policy refuses style elements): a
// line between the boxes of several decisions, each box's name in bold, and
// a marked target that keeps its hover (its reason) above shaded squares.

// fights.js draws the fight again when a played fight's view changes.
export function onChange(draw) { redraw = draw; }
// fights.js brings the page to the fight when a decision of this member's
// is new to the page (its token and the decision's buttons in view).
let fresh = () => {};
export function onFresh(bring) { fresh = bring; }

const pickKey = (id, who) => `${id} ${who}`;
export function playedView(id) { return views.get(id) ?? null; }
// Every pick of the fight (fights.js draws again when one changes).
export function pickOf(id) {
  return [...picks].filter(([k]) => k.startsWith(`${id} `)).map(([k, v]) => `${k}=${v}`).join(",") || null;
}

// Every decision this member is asked, each like the GET's `decision`: the
// server's `decisions` (one a combatant this member controls), else its
// single `decision`.
function decisionsOf(view) {
  if (!view || view.over) return [];
  if (Array.isArray(view.decisions)) return view.decisions;
  return view.decision ? [view.decision] : [];
}

// The decision whose squares the map shades: the one last picked from,
// else the first with squares.
function mapDecision(id, view) {
  const withSquares = decisionsOf(view).filter((d) => (d.options ?? []).some((o) => o.square));
  return withSquares.find((d) => d.name === onMap.get(id)) ?? withSquares[0] ?? null;
}

// Reads the fight again (after its start and each decision or change of
// control); the page draws it with this member's options.
export async function refresh(id) {
  await show(id, await readView(id));
}

// The fight as the server shows it to this member (the GET's answer), asked
// for now and drawn by `show` later: a page that walks a move meanwhile has
// the next question by the time the walk ends.
export function readView(id) {
  if (!table.current) return Promise.resolve(null);
  return api("GET", `${roomPath()}/fights/${id}`, table.current.seat.key);
}

// Draws an answer of `readView`; false when there was nothing new to draw.
export async function show(id, answer) {
  if (!answer?.ok) return false;
  const old = views.get(id);
  // An older answer arriving late, or the same again: nothing to draw (a
  // drawing again would take the focus from the keyboard's user).
  if (old && old.seq >= answer.data.seq) return false;
  views.set(id, answer.data);
  if (!walkedUpTo.has(id)) walkedUpTo.set(id, answer.data.step);
  if (old?.step !== answer.data.step) for (const k of [...picks.keys()]) if (k.startsWith(`${id} `)) picks.delete(k);
  // A page opened (or reloaded) in the middle of a fight shows the fight
  // when a decision in it is this member's (the fights of the history a
  // reload replays are otherwise drawn closed).
  if (!old && decisionsOf(answer.data).length && $("fights") && !$("fights").open) $("fights").open = true;
  redraw(id);
  // When this page first drew each step (the browser test's latency).
  window.nutshellStepAt ??= {};
  window.nutshellStepAt[answer.data.step] ??= Date.now();
  return true;
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

const kindWords = (kind) => String(kind ?? "").replace(/[-_]/g, " ");

// The status line: every decision awaited, by whom ("Waiting for Ann
// (Kara's set action), Bob (Dain's set action)").
function statusText(view) {
  if (view.over) return "The fight is over.";
  const waiting = view.waiting ?? [];
  if (!waiting.length) return "Nobody is awaited.";
  let text;
  if (waiting.length === 1 && mine(waiting[0].controller)) text = `Your decision: ${waiting[0].who}'s ${kindWords(waiting[0].kind)}.`;
  else text = `Waiting for ${waiting.map((w) => `${mine(w.controller) ? "you" : controllerName(w.controller)} (${w.who}'s ${kindWords(w.kind)})`).join(", ")}.`;
  const deadlines = waiting.map((w) => w.deadline).filter(Boolean).sort();
  if (deadlines.length) text += ` (the engine decides at ${new Date(deadlines[0]).toLocaleTimeString()})`;
  return text;
}

// The panel above the map: whose decisions are awaited, and, for each of
// them that is this member's, its question and options.
export function drawPanel(fight) {
  const panel = $("play-panel");
  const view = views.get(fight.id);
  panel.hidden = !view?.played;
  $("fight-view").classList.toggle("played", Boolean(view?.played));
  if (!view?.played) return;
  shownId = fight.id;
  // Where the keyboard was in the panel, to put it back on the same button
  // of the new drawing (or on the first option of a new decision).
  const active = document.activeElement;
  const inPanel = active && panel.contains(active) && active !== panel;
  const was = inPanel ? { who: active.closest(".play-decision")?.dataset.who, square: active.dataset?.square, choice: active.dataset?.choice, id: active.id } : null;
  const before = new Set([...panel.querySelectorAll(".play-decision")].map((d) => d.dataset.id));
  const parts = [];
  const status = el("p", "play-waiting");
  status.id = "play-waiting";
  status.tabIndex = -1;
  status.setAttribute("aria-live", "polite");
  status.textContent = statusText(view);
  status.classList.toggle("yours", (view.waiting ?? []).some((w) => mine(w.controller)) && !view.over);
  parts.push(status);
  const note = groupedNotes.get(fight.id);
  if (note) {
    const said = el("p", "play-auto play-grouped-note quiet", note);
    said.id = "play-grouped-note";
    parts.push(said);
  }
  const asked = decisionsOf(view);
  for (const d of asked) if (FOLLOWS_OF[d.kind]) seen.set(seenKey(fight.id, d.name, d.kind), d);
  answerGrouped(fight, view, asked);
  answerUnasked(fight, view, asked);
  const boxes = asked.map((d, k) => decisionBox(fight, view, d, k, asked.length > 1));
  parts.push(...boxes);
  if (!view.over && (view.controllers ?? []).some((c) => mine(c.controller))) parts.push(skipBox(fight));
  const error = el("div", "error");
  error.id = "play-error";
  error.setAttribute("role", "alert");
  error.hidden = true;
  parts.push(error);
  panel.replaceChildren(...parts);
  // The keyboard's place: the same button if it is still there, else the
  // first option of a decision new to this page when the keyboard was in
  // the fight or nowhere in particular (never from a field being typed in).
  if (was) {
    watchJump(boxes[0] ?? null);
    const box = boxes.find((b) => b.dataset.who === was.who);
    const same = box && [...box.querySelectorAll("button")].find((b) => (was.square && b.dataset.square === was.square) || (was.choice && b.dataset.choice === was.choice));
    const target = same ?? (was.id ? document.getElementById(was.id) : null) ?? boxes[0]?.querySelector("button") ?? status;
    target.focus({ preventScroll: true });
    return;
  }
  watchJump(boxes[0] ?? null);
  const box = boxes.find((b) => !before.has(b.dataset.id));
  if (box && idle(document.activeElement)) box.querySelector("button")?.focus({ preventScroll: true });
  // A decision new to this page: the page comes to it (after the map is
  // drawn: fights.js draws the panel last).
  if (box) requestAnimationFrame(() => fresh(box));
}

// "Your decision ↓": a link kept in the window's corner while a decision
// of this member's is below the fold, to jump to it (it scrolls the
// decision to the middle of the screen).
let jumpWatch = null;
function watchJump(box) {
  let jump = $("play-jump");
  if (!jump) {
    jump = el("a", "play-jump", "Your decision ↓");
    // Docked in the play view's bar (never floating over the page).
    jump.id = "play-jump";
    jump.href = "#play-panel";
    jump.hidden = true;
    jump.addEventListener("click", (e) => {
      e.preventDefault();
      const target = document.querySelector("#play-panel .play-decision");
      target?.scrollIntoView({ block: "center" });
      target?.querySelector("button:not(:disabled)")?.focus({ preventScroll: true });
      jump.hidden = true;
    });
    ($("play-jump-dock") ?? document.body).append(jump);
  }
  jumpWatch?.disconnect();
  jump.hidden = true;
  if (!box) return;
  // Below the fold: under the screen's first three quarters (a box whose
  // top only peeps in at the bottom is not yet read).
  jumpWatch = new IntersectionObserver(([entry]) => {
    jump.hidden = entry.isIntersecting || entry.boundingClientRect.top < 0 || !$("fights").open;
  }, { rootMargin: "0px 0px -25% 0px" });
  jumpWatch.observe(box);
}

// Nothing being typed or chosen elsewhere: the page itself, the fight, or
// an empty text field.
function idle(node) {
  if (!node || node === document.body || node === document.documentElement) return true;
  if ($("fight-view")?.contains(node)) return true;
  if (node.matches?.("input[type=text], input:not([type]), textarea")) return node.value === "";
  return false;
}

// Arrow keys move between the buttons of a row or list (Tab leaves it).
function arrows(list) {
  list.addEventListener("keydown", (e) => {
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[e.key];
    if (!step) return;
    const buttons = [...list.querySelectorAll("button:not(:disabled)")];
    const at = buttons.indexOf(document.activeElement);
    if (at < 0) return;
    e.preventDefault();
    buttons[(at + step + buttons.length) % buttons.length].focus();
  });
}

function decisionBox(fight, view, decision, k, labelled) {
  const box = el("div", "play-decision");
  const suffix = k ? `-${k + 1}` : "";
  box.id = `play-decision${suffix}`;
  box.dataset.who = decision.name ?? "";
  box.dataset.kind = decision.kind ?? "";
  box.dataset.step = String(view.step);
  box.dataset.id = decision.id ?? "";
  box.setAttribute("role", "group");
  box.setAttribute("aria-label", `${decision.name}'s ${kindWords(decision.kind)}`);
  // Several at once: each box says whose it is, a line between them.
  if (labelled) {
    const who = el("p", "play-who", `${decision.name}: ${kindWords(decision.kind)}`);
    Object.assign(who.style, { fontWeight: "600", margin: "0.2rem 0 0" });
    box.append(who);
    if (k) Object.assign(box.style, { borderTop: "1px solid var(--line, #ccc)", marginTop: "0.4rem", paddingTop: "0.3rem" });
  }
  box.append(el("p", "play-question", decision.question ?? ""));
  const options = decision.options ?? [];
  const squares = options.filter((o) => o.square);
  const others = options.filter((o) => !o.square);
  if (squares.length) {
    const pick = picks.get(pickKey(fight.id, decision.name));
    const now = facingNow(view, decision);
    const picked = pick && wayTo(squares, pick);
    const facings = pick ? facingOptions(squares, pick) : [];
    const say = el("p", "play-path");
    say.id = `play-path${suffix}`;
    say.setAttribute("aria-live", "polite");
    const again = facings.length && !facings.some((o) => facingOf(o) === now)
      ? "Pick a facing below to move there."
      : facings.length
        ? `Click it again (or press Enter on its button) to take it facing ${now}, as now; or pick a facing below.`
        : "Click it again (or press Enter on its button) to move there.";
    say.textContent = picked
      ? `${wayWords(picked)}. ${again}`
      : "Pick a shaded square (its cost shows on hover), then again to confirm; or a square below (arrow keys move between them, Enter picks).";
    box.append(say);
    const list = el("div", "play-squares");
    list.setAttribute("aria-label", `the squares ${decision.name} can reach`);
    // One button a square (a square with several facings shows them once
    // picked).
    for (const square of [...new Set(squares.map((o) => o.square))]) {
      const option = wayTo(squares, square);
      const several = facingOptions(squares, square);
      const label = several.length ? `${square} (${option.cost} MP, ${several.length} facings)` : optionWords(option);
      const b = el("button", `small${square === pick ? " picked" : ""}`, label);
      b.type = "button";
      b.dataset.square = square;
      b.title = `${square}: ${option.cost} MP${option.rule ? ` (${option.rule})` : ""}`;
      b.addEventListener("click", () => pickSquare(fight, decision, square));
      list.append(b);
    }
    let facingRow = null;
    if (facings.length) {
      // The square's facings, each a button (the current one marked).
      const row = el("div", "row play-facings");
      row.id = `play-facings${suffix}`;
      row.setAttribute("aria-label", `the facings ${decision.name} can take on ${pick}`);
      for (const option of facings) {
        const facing = facingOf(option);
        const b = el("button", "small play-facing", `face ${facing}${facing === now ? " (as now)" : ""}`);
        b.type = "button";
        b.dataset.facing = facing;
        b.dataset.choice = JSON.stringify(option.choice);
        b.title = `${optionWords(option)}${option.rule ? ` (${option.rule})` : ""}`;
        b.addEventListener("click", () => decide(fight.id, view, decision, option));
        row.append(b);
      }
      arrows(row);
      facingRow = row;
    }
    arrows(list);
    box.append(list);
    // After the squares: Tab goes on from the square picked to its facings.
    if (facingRow) box.append(facingRow);
  }
  if (others.length) {
    const row = el("div", "row play-options");
    for (const option of others) {
      const b = el("button", "play-option", option.label ?? JSON.stringify(option.choice));
      b.type = "button";
      b.title = option.rule ?? "";
      b.dataset.choice = JSON.stringify(option.choice);
      // The engine's pick is marked: one click takes it.
      if (JSON.stringify(option.choice) === JSON.stringify(decision.default)) {
        b.classList.add("default");
        b.append(el("span", "default-mark", " ✓ usual"));
      }
      b.addEventListener("click", () => decide(fight.id, view, decision, option));
      row.append(b);
    }
    arrows(row);
    box.append(row);
    for (const follow of grouping() ? FOLLOWS[decision.kind] ?? [] : []) if (!skipped(fight.id).has(follow)) box.append(groupBox(fight, decision, follow));
    const off = offGroup.get(decision.id);
    if (off) box.append(el("p", "play-auto quiet", off));
    if (skipped(fight.id).has(decision.kind)) box.append(el("p", "play-auto quiet", `You asked not to be asked about ${SKIPPABLE[decision.kind]}: the page answers with the engine's default (${decision.default === undefined ? "none" : optionLabel(decision)}).`));
  }
  if (decision.ruled_out?.length) {
    const out = el("details", "play-ruled-out");
    out.append(el("summary", null, "Ruled out"));
    for (const r of decision.ruled_out) out.append(el("div", "quiet", `${r.label ?? JSON.stringify(r.choice)}: ${r.why}`));
    box.append(out);
  }
  return box;
}

// ---------------------------------------------------------------- fewer questions

// The questions a member may ask not to be asked for the rest of a fight:
// the page answers them with the engine's default (and says so in their
// box). Kept per room and fight in this browser.
const SKIPPABLE = { timing: "delaying or rushing", aim: "aiming", advance: "advancing" };
const skipKey = (id) => `nutshell:skip:${table.current?.room}:${id}`;
function skipped(id) {
  try { return new Set(JSON.parse(localStorage.getItem(skipKey(id))) ?? []); } catch { return new Set(); }
}
function skipBox(fight) {
  const box = el("fieldset", "play-skip");
  box.append(el("legend", null, "For the rest of this fight, don't ask me about"));
  const now = skipped(fight.id);
  for (const [kind, words] of Object.entries(SKIPPABLE)) {
    const label = el("label", "check");
    const input = el("input");
    input.type = "checkbox";
    input.dataset.skip = kind;
    input.checked = now.has(kind);
    input.addEventListener("change", () => {
      const set = skipped(fight.id);
      if (input.checked) set.add(kind); else set.delete(kind);
      localStorage.setItem(skipKey(fight.id), JSON.stringify([...set]));
      drawPanel(fight);
    });
    label.append(input, ` ${words}`);
    box.append(label);
  }
  box.append(el("p", "hint", "The page then takes the engine's default for you, and says so."));
  return box;
}
// The default's words, from the option that carries it.
function optionLabel(decision) {
  const option = (decision.options ?? []).find((o) => JSON.stringify(o.choice) === JSON.stringify(decision.default));
  return option?.label ?? JSON.stringify(decision.default);
}
// Answers, once each, the decisions of the kinds this member asked not to
// be asked, with the engine's default.
const answered = new Set();
function answerUnasked(fight, view, asked) {
  const skip = skipped(fight.id);
  for (const decision of asked) {
    if (!skip.has(decision.kind) || decision.default === undefined || answered.has(decision.id)) continue;
    answered.add(decision.id);
    setTimeout(() => decide(fight.id, view, decision, { choice: decision.default }), 0);
  }
}

// ---------------------------------------------------------------- grouped questions

// The optional questions that follow another (the timing of the attacks a
// set action brings, the aim of an attack or of a shot at its target) are
// asked in the same box, a group of choices with the engine's usual one
// preselected: one click on the main option answers both; when the server
// then asks the follow-up, the page answers it at once with the choice
// picked (and says so), or asks it as usual when that choice is not among
// the options offered.
const FOLLOWS = { "set-action": ["timing"], attack: ["aim", "advance"], target: ["aim"] };
const FOLLOWS_OF = { timing: true, aim: true };
const FOLLOW_WORDS = { timing: "the timing of its first attack, if asked", aim: "the aim, if asked", advance: "into a fallen foe's square this turn, if asked" };
const AFTER_WORDS = { timing: "with the set action", aim: "with the attack", advance: "with the attack" };
// The engine's pick when the question comes (whether to advance depends
// on where everyone stands then: P-73).
const USUAL = "usual";
// The options known before the question is asked (the decisions table of
// docs/mls/combat.md), when it was not yet asked in this fight.
const STANDARD = {
  timing: {
    default: { timing: { delay: 0, rush: false } },
    options: [
      { label: "on time", choice: { timing: { delay: 0, rush: false } } },
      ...[1, 2, 3, 4].map((n) => ({ label: `delayed ${n} round${n > 1 ? "s" : ""} (+${n})`, choice: { timing: { delay: n, rush: false } } })),
      { label: "rushed a round (-2)", choice: { timing: { delay: 0, rush: true } } },
    ],
  },
  aim: {
    default: { aim: "chest" },
    options: [
      ["chest", "the chest (not aimed)"], ["head", "the head (-3, 17+)"], ["face", "the face (-3, 18+)"], ["neck", "the neck (-3, 19+)"],
      ["abdomen", "the abdomen (-1, 16+)"], ["arm", "an arm (-2, 17+)"], ["leg", "a leg (-2, 17+)"], ["wrist", "a wrist (-4, 17+)"],
    ].map(([aim, label]) => ({ label, choice: { aim } })),
  },
  advance: {
    default: USUAL,
    options: [
      { label: "as the engine would", choice: USUAL },
      { label: "advance", choice: { yes: true } },
      { label: "stay", choice: { yes: false } },
    ],
  },
};
// This browser's preference: `localStorage["nutshell:grouped"] = "off"`
// asks every question one after another (as the server asks them).
function grouping() {
  try { return localStorage.getItem("nutshell:grouped") !== "off"; } catch { return true; }
}
const sameChoice = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const seen = new Map(); // `${fight} ${who} ${kind}` -> the last such decision asked
const seenKey = (id, who, kind) => `${id} ${who} ${kind}`;
const groupPicks = new Map(); // `${fight} ${who} ${kind}` -> the choice picked in a group
const pending = new Map(); // `${fight} ${who} ${kind}` -> { choice, label, turn, round, after }
const groupedNotes = new Map(); // fight id -> what the page last answered by itself
const offGroup = new Map(); // decision id -> why the pick made beforehand was not taken
// "t3r2-Ann-attack-1" -> { turn: 3, round: 2 }
function turnOf(decision) {
  const m = /^t(\d+)r(\d+)-/.exec(decision.id ?? "");
  return m ? { turn: Number(m[1]), round: Number(m[2]) } : null;
}
function groupBox(fight, decision, follow) {
  const known = FOLLOWS_OF[follow] ? seen.get(seenKey(fight.id, decision.name, follow)) : null;
  const options = (known?.options ?? STANDARD[follow].options).filter((o) => o.choice);
  const usual = known?.default ?? STANDARD[follow].default;
  const key = seenKey(fight.id, decision.name, follow);
  let picked = groupPicks.get(key);
  if (!picked || !options.some((o) => sameChoice(o.choice, picked))) picked = usual;
  const box = el("fieldset", "play-group");
  box.dataset.follow = follow;
  box.append(el("legend", null, `Then ${FOLLOW_WORDS[follow]}:`));
  const row = el("div", "row");
  for (const [k, option] of options.entries()) {
    const label = el("label", "check");
    const input = el("input");
    input.type = "radio";
    input.name = `group-${decision.id}-${follow}`;
    input.dataset.choice = JSON.stringify(option.choice);
    input.checked = sameChoice(option.choice, picked);
    input.id = `group-${follow}-${k}`;
    input.addEventListener("change", () => { if (input.checked) groupPicks.set(key, option.choice); });
    label.title = option.rule ?? "";
    label.append(input, ` ${option.label ?? JSON.stringify(option.choice)}${sameChoice(option.choice, usual) ? " ✓ usual" : ""}`);
    row.append(label);
  }
  box.append(row);
  return box;
}
// A main question answered: its follow-ups' picks kept for when they come.
function keepGrouped(id, decision) {
  if (!grouping()) return;
  const at = turnOf(decision);
  for (const follow of FOLLOWS[decision.kind] ?? []) {
    if (skipped(id).has(follow)) continue;
    const key = seenKey(id, decision.name, follow);
    const known = FOLLOWS_OF[follow] ? seen.get(key) : null;
    const choice = groupPicks.get(key) ?? known?.default ?? STANDARD[follow].default;
    const label = [...(known?.options ?? []), ...STANDARD[follow].options].find((o) => sameChoice(o.choice, choice))?.label ?? JSON.stringify(choice);
    pending.set(key, { choice, label, turn: at?.turn, round: at?.round, after: AFTER_WORDS[follow] });
  }
}
// A follow-up asked: answered at once with the pick made beforehand when
// it is one of the options offered (the timing in the set action's turn,
// the aim in the attack's round), else asked as usual.
function answerGrouped(fight, view, asked) {
  let off = false;
  for (const decision of asked) {
    const key = seenKey(fight.id, decision.name, decision.kind);
    const kept = pending.get(key);
    if (!kept || answered.has(decision.id) || skipped(fight.id).has(decision.kind)) continue;
    // An advance picked with the attack holds for the turn's every advance.
    if (decision.kind !== "advance") pending.delete(key);
    const at = turnOf(decision);
    if (at && kept.turn !== undefined && (at.turn !== kept.turn || (decision.kind === "aim" && at.round !== kept.round))) {
      pending.delete(key);
      continue;
    }
    const want = kept.choice === USUAL ? decision.default : kept.choice;
    const option = want === undefined ? null : (decision.options ?? []).find((o) => sameChoice(o.choice, want));
    if (!option) {
      offGroup.set(decision.id, `Your pick ${kept.after} (${kept.label}) is not among the options now: pick one.`);
      off = true;
      continue;
    }
    answered.add(decision.id);
    groupedNotes.set(fight.id, `The page answered ${decision.name}'s ${kindWords(decision.kind)} as you picked ${kept.after}: ${option.label ?? kept.label}.`);
    setTimeout(() => decide(fight.id, view, decision, option), 0);
  }
  return off;
}

// A square's options: several when each names a facing ("F6:east"), one
// otherwise (the cheapest way there).
const facingOf = (option) => {
  const last = option.choice?.path?.[option.choice.path.length - 1];
  return typeof last === "string" && last.includes(":") ? last.split(":")[1] : null;
};
function facingOptions(squares, square) {
  const here = squares.filter((o) => o.square === square && facingOf(o));
  return here.length > 1 ? here : [];
}
const wayTo = (squares, square) => squares.filter((o) => o.square === square).sort((x, y) => x.cost - y.cost)[0] ?? null;
function facingNow(view, decision) {
  return (view?.state?.combatants ?? []).find((c) => c.name === decision.name)?.facing ?? null;
}
// An option in words: "F6, facing east" for a square with a facing, else
// its own label ("C3 (2 MP)").
function optionWords(option) {
  const facing = facingOf(option);
  return facing ? `${option.square}, facing ${facing}` : option.label ?? `${option.square} (${option.cost} MP)`;
}
// The way to a square and its cost: "F6: 0 MP, by F6", "F6: stay (0 MP)".
function wayWords(option) {
  const path = option.path ?? [];
  return path.length ? `${option.square}: ${option.cost} MP, by ${path.join(" → ")}` : `${option.square}: stay (${option.cost} MP)`;
}

// A square picked: once, its way and cost shown (and its facings, when it
// has several); again, the move taken (with the current facing when the
// square has several and that is one of them, else nothing until a facing
// is picked).
function pickSquare(fight, decision, square) {
  const key = pickKey(fight.id, decision.name);
  onMap.set(fight.id, decision.name);
  const view = views.get(fight.id);
  const squares = (decision.options ?? []).filter((o) => o.square);
  if (picks.get(key) === square) {
    const facings = facingOptions(squares, square);
    const option = facings.length ? facings.find((o) => facingOf(o) === facingNow(view, decision)) : wayTo(squares, square);
    if (option) decide(fight.id, view, decision, option);
    else document.querySelector(`.play-decision[data-who="${CSS.escape(decision.name)}"] .play-facing`)?.focus();
    return;
  }
  picks.set(key, square);
  redraw(fight.id);
  document.querySelector(`.play-decision[data-who="${CSS.escape(decision.name)}"] button[data-square="${CSS.escape(square)}"]`)?.focus();
}

async function decide(id, view, decision, option) {
  const box = document.querySelector(`.play-decision[data-who="${CSS.escape(decision.name)}"]`);
  const buttons = box ? [...box.querySelectorAll("button")] : [];
  for (const b of buttons) b.disabled = true;
  // The decision's id: a doubled click or a retried request can never
  // answer the next decision (the server answers 409 `stale`).
  const body = { id: decision.id, who: decision.name, kind: decision.kind, choice: option.choice, client_seed: clientSeed() };
  const answer = await api("POST", `${roomPath()}/fights/${id}/decisions`, table.current.seat.key, body);
  if (answer.ok) {
    keepGrouped(id, decision);
    // The follow-up may already be shown (the live feed can bring it
    // before this answer): answered now.
    const now = views.get(id);
    if (now && answerGrouped({ id }, now, decisionsOf(now))) redraw(id);
    picks.delete(pickKey(id, decision.name));
    // The moves this decision brought, walked before the fight is drawn
    // anew (read meanwhile).
    const next = readView(id);
    if (answer.data?.step !== undefined) await walkStep(id, answer.data.step, answer.data.result?.lines);
    await show(id, await next);
    return;
  }
  if (answer.status === 409) {
    await refresh(id);
    setError($("play-error"), `The fight had moved on (${errorText(answer)}): it is shown as it is now.`);
    return;
  }
  for (const b of buttons) b.disabled = false;
  // The refusal beside the buttons it refused.
  let near = box?.querySelector(".play-refused");
  if (box && !near) {
    near = el("div", "error play-refused");
    near.setAttribute("role", "alert");
    box.append(near);
  }
  setError(near ?? $("play-error"), answer.status === 403 ? `Not yours: ${errorText(answer)}` : `Refused: ${errorText(answer)}`);
  near?.scrollIntoView({ block: "nearest" });
}

// Whether a controller is this member (the tracker marks its rows).
export const isMine = mine;

// The GM's hand-over of one combatant (a row of the turn tracker): a list
// of controllers, the GM, the engine or a player, the current one chosen.
export function handOverSelect(fight, c, i) {
  const view = views.get(fight.id);
  if (!view || view.over || table.me?.role !== "gm" || !c) return null;
  const row = el("span", "play-hand");
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
  const label = el("label", "visually-hidden", `${c.name}'s controller`);
  label.htmlFor = select.id;
  row.append(label, select);
  if (!loadedOnce && !loading) loadRoom();
  return row;
}

// How many members the page knows (the tracker's hand-over lists them).
export const memberCount = () => members.length;

// ---------------------------------------------------------------- on the map

const center = (square) => { const at = squareXY(square); return at && { x: at.x + 0.5, y: at.y + 0.5 }; };

// A token's hover says why it is marked.
function mark(svg, name, why) {
  const token = svg.querySelector(`.token[data-name="${CSS.escape(name)}"]`);
  if (!token) return;
  token.classList.add("target");
  token.style.pointerEvents = "auto"; // its hover, above the shaded squares
  const reasons = new Set((token.dataset.why ?? "").split("; ").filter(Boolean));
  for (const w of why) reasons.add(w);
  token.dataset.why = [...reasons].join("; ");
  const title = token.querySelector("title");
  if (title) title.textContent = `${title.textContent.replace(/ \(target: .*\)$/, "")} (target: ${token.dataset.why})`;
}

// Marks the map: every token awaited (this member's highlighted), the
// targets in the arcs and sight of each of this member's combatants asked
// for a set action or a movement, the squares one of them can reach shaded
// with their cost on hover, and the way to the square picked.
export function decorate(svg, fight) {
  const view = views.get(fight.id);
  if (!view?.played || !svg) return;
  // The tokens of the combatants this member controls (the map of a phone
  // is first scrolled to one of them).
  for (const c of view.controllers ?? []) if (mine(c.controller)) svg.querySelector(`.token[data-name="${CSS.escape(c.name)}"]`)?.classList.add("own");
  // Each token awaited drawn over the others (this member's last).
  const awaited = (view.over ? [] : view.waiting ?? []).map((w) => [svg.querySelector(`.token[data-name="${CSS.escape(w.who)}"]`), mine(w.controller)]).filter(([t]) => t);
  for (const [token, yours] of awaited) token.classList.add(yours ? "yours" : "awaited");
  for (const [token] of awaited.filter(([, yours]) => !yours)) svg.append(token);
  for (const [token] of awaited.filter(([, yours]) => yours)) svg.append(token);
  walkDrawn(fight);
  const decisions = decisionsOf(view);
  for (const d of decisions) {
    if (d.kind === "set-action" || d.kind === "movement") {
      for (const t of view.targets?.[d.name] ?? []) {
        mark(svg, t.name, [t.front_arc && "in your front arc", t.in_sight && "in sight"].filter(Boolean));
      }
    }
    for (const option of d.options ?? []) if (option.choice?.target) mark(svg, option.choice.target, ["a target you may choose"]);
  }
  const decision = mapDecision(fight.id, view);
  if (!decision) return;
  const pick = picks.get(pickKey(fight.id, decision.name));
  const layer = svgEl("g", { class: "reach-layer", "data-who": decision.name });
  // One shaded square a square (an option may reach it more than one way:
  // the map offers the cheapest, the list every one).
  const cheapest = new Map();
  for (const option of decision.options ?? []) {
    const best = cheapest.get(option.square);
    if (option.square && (!best || option.cost < best.cost)) cheapest.set(option.square, option);
  }
  for (const option of cheapest.values()) {
    const at = squareXY(option.square);
    if (!at) continue;
    const rect = svgEl("rect", { x: at.x + 0.04, y: at.y + 0.04, width: 0.92, height: 0.92, class: `reach${option.square === pick ? " picked" : ""}`, "data-reach": option.square });
    rect.append(svgEl("title", {}, `${option.square}: ${option.cost} MP`));
    rect.addEventListener("click", () => pickSquare(fight, decision, option.square));
    layer.append(rect);
  }
  const picked = pick && cheapest.get(pick);
  if (picked) {
    const me = (view.state?.combatants ?? []).find((c) => c.name === decision.name);
    const points = [me?.square, ...(picked.path ?? [])].map(center).filter(Boolean).map((p) => `${p.x},${p.y}`).join(" ");
    layer.append(svgEl("polyline", { class: "way", points }));
    const end = center(picked.square);
    layer.append(svgEl("text", { class: "way-cost", x: end.x, y: end.y - 0.3, "text-anchor": "middle" }, `${picked.cost} MP`));
  }
  // Under the tokens: the tokens stay on top of the shading.
  const firstToken = svg.querySelector(".token");
  svg.insertBefore(layer, firstToken);
  draggable(svg, fight, decision, cheapest);
}

// One's own token dragged to a shaded square is a move (as a square
// clicked twice; a square with several facings, none of them the current
// one, is picked and its facings shown). Dropped elsewhere, it goes back.
// The drag is the map's (the token itself lets clicks through to the
// square under it, so that a click on one's own square stays a click).
function draggable(svg, fight, decision, cheapest) {
  const token = svg.querySelector(`.token.yours[data-name="${CSS.escape(decision.name)}"]`);
  if (!token) return;
  const home = squareXY(token.dataset.square);
  if (!home) return;
  token.style.cursor = "grab";
  let from = null;
  let dragging = false;
  let quietUntil = 0;
  svg.addEventListener("click", (c) => { if (Date.now() < quietUntil) c.stopPropagation(); }, { capture: true });
  const at = (e) => {
    const m = svg.getScreenCTM()?.inverse();
    return m ? new DOMPoint(e.clientX, e.clientY).matrixTransform(m) : null;
  };
  svg.addEventListener("pointerdown", (e) => {
    const p = at(e);
    if (!p || Math.floor(p.x) !== home.x || Math.floor(p.y) !== home.y) return;
    from = { x: e.clientX, y: e.clientY, transform: token.getAttribute("transform") };
    dragging = false;
  });
  svg.addEventListener("pointermove", (e) => {
    if (!from) return;
    if (!dragging && Math.hypot(e.clientX - from.x, e.clientY - from.y) < 6) return;
    if (!dragging) {
      dragging = true;
      svg.setPointerCapture?.(e.pointerId);
      svg.style.touchAction = "none";
    }
    const p = at(e);
    if (p) token.setAttribute("transform", `translate(${p.x} ${p.y})`);
  });
  const end = (e) => {
    if (!from) return;
    const was = from;
    from = null;
    if (!dragging) return;
    dragging = false;
    token.setAttribute("transform", was.transform);
    // The click that ends a drag is not a click on a square.
    quietUntil = Date.now() + 400;
    const p = at(e);
    const square = p && p.x >= 0 && p.y >= 0 ? `${columnName(Math.floor(p.x))}${Math.floor(p.y) + 1}` : null;
    if (!square || !cheapest.has(square)) return;
    const view = views.get(fight.id);
    const squares = (decision.options ?? []).filter((o) => o.square);
    const facings = facingOptions(squares, square);
    const option = facings.length ? facings.find((o) => facingOf(o) === facingNow(view, decision)) : wayTo(squares, square);
    if (option) decide(fight.id, view, decision, option);
    else pickSquare(fight, decision, square);
  };
  svg.addEventListener("pointerup", end);
  svg.addEventListener("pointercancel", () => { if (from) token.setAttribute("transform", from.transform); from = null; dragging = false; });
}

// The moves of a step's log lines: each line of a combatant's that reads
// "E5 to F6, diagonal, 2 MP; F6 to F7, ..." (a turn in place enters no
// square): who, from where, and the squares entered in order.
function movesOfLines(lines, names) {
  const moves = [];
  for (const line of lines ?? []) {
    const text = String(line.text ?? "");
    const steps = [...text.matchAll(/\b([A-Z]+\d+) to ([A-Z]+\d+)\b/g)];
    const name = names.filter((n) => text.startsWith(`${n} `)).sort((a, b) => b.length - a.length)[0];
    if (steps.length && name) moves.push({ name, from: steps[0][1], squares: steps.map((m) => m[2]) });
  }
  return moves;
}

// The walks of each step of a fight, by `fight step`: a step is walked once
// (the page that made the decision from the answer to it, the others from
// the event that announced it, before the step is drawn, or from the lines
// drawn), and
// whoever asks again waits for the same walk. The steps up to the first the
// page read are history: never walked.
const walks = new Map();
const walkedUpTo = new Map(); // fight id -> the step the page first read

export function walkStep(id, step, lines) {
  const key = `${id} ${step}`;
  if (step <= (walkedUpTo.get(id) ?? Infinity)) return Promise.resolve();
  if (!walks.has(key)) {
    // The step's lines not read yet (a map drawn before its event came):
    // nothing is noted, so that the walk is made once they are.
    if (!lines?.length) return Promise.resolve();
    const names = (views.get(id)?.state?.combatants ?? []).map((c) => c.name);
    walks.set(key, Promise.all(movesOfLines(lines, names).map(walk)));
  }
  return walks.get(key);
}

// One move, square by square (each step one square to the next, as the log
// has it: never across a wall), the token found again at each step (the map
// may be drawn again meanwhile); a way the page cannot follow is not walked.
// A square takes 90 ms, a whole walk at most WALK_MS: a long move does not
// hold the next question back.
const WALK_MS = 300;
function walk(move) {
  const steps = [];
  let at = squareXY(move.from);
  for (const square of move.squares) {
    const to = squareXY(square);
    if (!at || !to || Math.abs(to.x - at.x) > 1 || Math.abs(to.y - at.y) > 1) return Promise.resolve();
    steps.push(to);
    at = to;
  }
  const pace = Math.min(90, WALK_MS / Math.max(1, steps.length));
  return new Promise((done) => {
    const next = () => {
      const step = steps.shift();
      const token = document.querySelector(`#fight-svg .token[data-name="${CSS.escape(move.name)}"]`);
      if (!step || !token) { done(); return; }
      token.setAttribute("transform", `translate(${step.x + 0.5} ${step.y + 0.5})`);
      token.dataset.moving = `${columnName(step.x)}${step.y + 1}`;
      setTimeout(next, pace);
    };
    // From the next task: a map being drawn is in the page by then.
    setTimeout(next, 0);
  });
}

// The moves of a step drawn without a walk before it (a decision that is
// no movement ended the phase): walked on the map just drawn.
function walkDrawn(fight) {
  const step = fight.step;
  if (!walks.has(`${fight.id} ${step}`)) walkStep(fight.id, step, fight.lines.filter((l) => l.step === step));
}
