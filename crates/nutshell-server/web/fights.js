// fights.js: MLS fights at the table. It owns the fight form (sides, map,
// examples, the room's sheets), starting and stepping a fight, every fight
// this page has seen (followed from the feed's events) and the one shown
// with its log (each decision of a played fight in words), clock and
// roster, the room's rolls moved beside the map while a fight on a map is
// shown, and the simulation of 10,000 fights. The map itself is drawn by
// map.js.

import { $, api, clientSeed, el, errorText, setError, svgEl, table } from "./shared.js";
import { mapPicture, setSquare, zoomable } from "./map.js";
import { exampleName, loadFightSheets } from "./setup.js";
import { decorate, drawPanel, handOverSelect, isMine, memberCount, onChange, onFresh, pickOf, playedRequest, playedView, readView, refresh, show, walkStep } from "./play.js";
import { trackerRows } from "./tracker.js";

// Every fight this page has seen, by id: its sides, the map as it is now
// (the rows as the fight began, doors opened and closed by the log's
// lines), the state after the latest step and that step's lines. The view
// shows the latest fight; every member's page follows it as the steps are
// announced.
const fights = new Map();
let shownFight = null;

export function fightStarted(event) {
  const body = event.body;
  if (!body?.fight) return;
  fights.set(event.seq, {
    id: event.seq,
    starter: body.roller,
    sides: body.fight.sides ?? [],
    map: body.fight.map ? { name: body.fight.map.name, rows: [...body.fight.map.rows] } : null,
    state: body.fight.state,
    lines: [], // every line so far, each with the step that logged it
    step: 0,
    over: false,
    ending: null,
    played: Boolean(body.played),
  });
  shownFight = event.seq;
  if (body.played) refresh(event.seq);
  // Everyone at the table sees a fight as it starts (the play view, the
  // page brought to the map); a fight of the history a reload replays is
  // drawn, but its panel stays closed until opened.
  const live = event.seq > table.historyUpTo;
  if (live) {
    $("fights").open = true;
    folded = false;
  }
  drawFight();
  if (live) requestAnimationFrame(() => bringToFight(null));
}

export function fightStepped(event, { draw = true } = {}) {
  const body = event.body;
  // This server's steps say their fight and number in `action`.
  const step = body?.action?.step ?? body?.step;
  const fight = fights.get(body?.action?.fight ?? body?.fight);
  if (!fight || step <= fight.step) return;
  const result = body.result ?? {};
  for (const line of result.lines ?? []) {
    for (const square of line.opened ?? []) if (fight.map) setSquare(fight.map.rows, square, "/");
    for (const square of line.closed ?? []) if (fight.map) setSquare(fight.map.rows, square, "+");
  }
  fight.state = result.state;
  // A played fight's decision first (who decided what, the GM's marked),
  // then the lines it brought; a step that logged nothing adds nothing.
  const made = body.action?.decision;
  if (made) fight.lines.push({ step, decision: made, by: { name: body.name, role: body.role } });
  fight.lines.push(...(result.lines ?? []).map((line) => ({ step, text: line.text })));
  // A round stepped by the button that logged nothing says so once (the
  // button did something); a played fight's step always says its decision.
  if (event.kind === "fight-step" && !result.lines?.length) {
    const when = whenWords(result.state);
    fight.lines.push({ step, text: `${when[0].toUpperCase()}${when.slice(1)}: nothing to log.` });
  }
  fight.step = step;
  fight.over = Boolean(result.over);
  fight.ending = result.ending ?? null;
  if (draw && shownFight === fight.id) drawFight();
}

// A played fight's decision or change of control: the lines and state it
// brought (a move walked square by square first), then the fight as the
// server shows it to this member (their options, whose turn). Events are
// taken one after another, so a move's walk ends before the next.
let queue = Promise.resolve();
export function fightDecided(event) {
  // When this page heard of each step (the browser test's latency, split
  // into the server's part and the page's).
  const step = event.body?.action?.step ?? event.body?.step;
  if (step !== undefined) (window.nutshellEventAt ??= {})[step] ??= Date.now();
  queue = queue.then(() => takeDecision(event)).catch(() => {});
}

async function takeDecision(event) {
  const body = event.body;
  const id = body?.action?.fight ?? body?.fight;
  const fight = fights.get(id);
  if (!fight) return;
  if (event.kind === "fight-control") {
    fight.step = Math.max(fight.step, body.step ?? 0);
    await refresh(id);
    return;
  }
  // The fight as the server now shows this member, asked for at once and
  // drawn once the moves the decision brought are walked (from the event's
  // own lines: no second request before the walk).
  const next = readView(id);
  const step = body.action?.step ?? body.step;
  if (shownFight === id && step > fight.step) await walkStep(id, step, body.result?.lines);
  // Drawn once: with the member's view when it is new, else as stepped.
  fightStepped(event, { draw: false });
  if (!(await show(id, await next)) && shownFight === id) drawFight();
}

// ---------------------------------------------------------------- a decision in words

const MODES = { normal: "a normal attack", "total-attack": "a Total Attack", "total-defence": "a Total Defence", forego: "forego the attack" };
const ACTIONS = { fight: "Fight", charge: "Charge", shoot: "Shoot", "cast-offensive-spells": "Cast Offensive Spells", move: "Move", "move-and-shoot": "Move and Shoot", flee: "Flee", pursue: "Pursue", respond: "Respond", "turn-action": "a full-turn action" };
const YES = {
  dodge: ["dodges", "does not dodge"],
  "fate-point": ["spends a Fate Point", "spends no Fate Point"],
  reload: ["reloads", "holds the attack"],
  advance: ["advances", "stays"],
  "shoot-back": ["shoots back", "keeps the target"],
};

// A decision's kind in words ("set-action": set action).
const KINDS = { chain: "Total Attack's next opponent", "fate-point": "Fate Point" };
export const kindWords = (kind) => KINDS[kind] ?? String(kind ?? "").replaceAll("-", " ");

// A square of a way, as the log writes it ("E5:north": E5, facing north).
const squareWords = (square) => {
  const [at, facing] = String(square).split(":");
  return facing ? `${at} (facing ${facing})` : at;
};

function timingWords(t, attack) {
  const which = attack ? `attack ${attack} of the turn` : "the first attack";
  if (t.rush) return `rushes ${which}`;
  if (!t.delay) return `${which} on time`;
  return `delays ${which} ${t.delay} round${t.delay === 1 ? "" : "s"}`;
}

// A decision's answer in words (the engine's own words for a choice, as
// `mls fight` logs them): "Charge", "moves D4 → C4", "dodges".
export function choiceWords(kind, choice) {
  if (choice === "stop") return "stops";
  if (choice === "break-off") return "breaks off";
  if (!choice || typeof choice !== "object") return String(choice ?? "");
  if ("action" in choice) return ACTIONS[choice.action] ?? choice.action;
  if ("path" in choice) return choice.path.length ? `moves ${choice.path.map(squareWords).join(" → ")}` : "stays";
  if ("target" in choice) return kind === "chain" ? `goes on against ${choice.target}` : `targets ${choice.target}`;
  if ("attack" in choice) return MODES[choice.attack] ?? choice.attack;
  if ("yes" in choice) return (YES[kind] ?? ["yes", "no"])[choice.yes ? 0 : 1];
  if ("timing" in choice) return timingWords(choice.timing);
  if ("timing-of" in choice) return timingWords(choice["timing-of"], choice["timing-of"].attack);
  if ("aim" in choice) return choice.aim === "chest" ? "the chest (not aimed)" : `aims at the ${choice.aim}`;
  if ("shot-at" in choice) {
    const n = choice["shot-at"];
    return n ? `shoots after ${n} movement point${n === 1 ? "" : "s"} of the move` : "shoots before moving";
  }
  if ("squares" in choice) {
    const n = choice.squares;
    if (!n) return "stays";
    return n > 0 ? `closes ${n} square${n === 1 ? "" : "s"}` : `withdraws ${-n} square${n === -1 ? "" : "s"}`;
  }
  return JSON.stringify(choice);
}

// A decision made, as a line: the combatant, who decided for him (the
// member's name, the GM marked by the event's role, never by the name;
// or the engine) and the answer: "Kara (Ann): Charge".
export function decisionLine(made, by, tag = "span") {
  const line = el(tag, "decision");
  line.append(`${made.who} (`);
  if (made.by === "engine") line.append("the engine");
  else {
    const name = el("span", "who", by?.name ?? "");
    if (by?.role === "gm") {
      name.classList.add("gm");
      name.append(el("span", "gm-mark", "GM"));
    }
    line.append(name);
  }
  line.append(`): ${choiceWords(made.kind, made.choice)}`);
  if (made.by === "engine") line.append(" (the engine's default)");
  return line;
}

// A combatant by name once: its side when that is another name, and in a
// played fight who controls it when that is another name ("Sir Aldric
// (Ann)", "Goblin 1 of The Raiders (the GM)").
export function combatantName(c, controllers) {
  const side = c.side && c.side !== c.name ? ` of ${c.side}` : "";
  const controller = controllers?.find((x) => x.name === c.name)?.controller;
  const by = controller === undefined ? null : controller === "gm" ? "the GM" : controller === "engine" ? "the engine" : controller?.name ?? `member ${controller?.member}`;
  return `${c.name}${side}${by && by !== c.name ? ` (${by})` : ""}`;
}

onChange((id) => { if (id === shownFight) drawFight(); });

// The play view: while a fight on a map is shown and the fights panel is
// open, the map takes the window and the rest of the table folds away
// (`body.playing`; style.css lays it out); the room's rolls, with the
// roll box, beside the map (under it on a phone). "Show the rest of the
// table" folds the play view itself away (the page as it is without a
// fight in it, the fight in its panel) and the same button brings it back.
let folded = false;
function placeRolls() {
  const fight = fights.get(shownFight);
  const board = Boolean(fight?.map);
  $("fight-view").classList.toggle("board", board);
  const beside = board && $("fights").open && !$("fight-view").hidden;
  const playing = beside && !folded;
  document.body.classList.toggle("playing", playing);
  const fold = $("play-fold");
  fold.hidden = !beside;
  fold.textContent = folded ? "Back to the play view" : "Show the rest of the table";
  fold.setAttribute("aria-pressed", String(!folded));
  const home = beside ? $("fight-side") : $("rolls-home");
  const box = $("rolls-box");
  if (box.parentElement !== home) home.append(box);
  // The roll box goes with the rolls while playing (its own place else).
  const form = $("roll-form");
  const formHome = playing ? box : $("roll-home");
  if (form.parentElement !== formHome) formHome.insertBefore(form, formHome === box ? $("feed") : null);
}
$("fights").addEventListener("toggle", placeRolls);
$("play-fold").addEventListener("click", () => {
  folded = !folded;
  placeRolls();
  if (!folded) bringToFight(null);
  $("play-fold").focus({ preventScroll: true });
});

// Brings the page to the fight: the map at the top of the window with this
// member's awaited token in view, and `box` (a decision of this member's
// new to the page) with every button in view: on a desktop the side column
// scrolled to it; on a phone (the map over the panel) the window scrolled
// as far as the box needs without taking the token out of view.
function bringToFight(box) {
  if (!document.body.classList.contains("playing")) return;
  const view = $("fight-view");
  const top = view.getBoundingClientRect().top + scrollY;
  let y = top;
  if (box) {
    const side = $("fight-side");
    if (side.scrollHeight > side.clientHeight && getComputedStyle(side).overflowY !== "visible") {
      const b = box.getBoundingClientRect();
      const s = side.getBoundingClientRect();
      if (b.top < s.top || b.bottom > s.bottom) side.scrollTop += b.top - s.top - 8;
    }
    const b = box.getBoundingClientRect();
    const bottom = b.bottom + scrollY;
    if (bottom - y > innerHeight) {
      const token = document.querySelector("#fight-svg .token.yours") ?? document.querySelector("#fight-svg .token.own");
      const tokenTop = token ? token.getBoundingClientRect().top + scrollY - 8 : Infinity;
      y = Math.min(bottom - innerHeight + 8, tokenTop, b.top + scrollY - 8);
    }
  }
  window.scrollTo({ top: Math.max(0, y), behavior: "instant" });
}
onFresh((box) => bringToFight(box));
let drawnKey = null;
/** The name on the token last tapped: the bar under the map follows him. */
let tappedToken = null;

function drawFight() {
  const fight = fights.get(shownFight);
  $("fight-view").hidden = !fight;
  if (!fight) return;
  $("fight-title").textContent = `Fight #${fight.id}: ${fight.sides.join(" against ")}${fight.map ? ` on ${fight.map.name}` : " (on a line)"}`;
  const mayStep = table.current && (table.current.seat.role === "gm" || table.me?.id === fight.starter);
  document.querySelector(".fight-controls").hidden = !mayStep || fight.over || fight.played;
  // A played fight is drawn as the server last showed it to this member.
  const view = playedView(fight.id);
  // One present for every part (map, tracker, list, clock): the server's
  // view once it is at least as recent as the events taken in, else the
  // state the latest event brought.
  const shown = view && view.step >= fight.step ? { ...fight, state: view.state, over: view.over } : fight;
  // The map and the panel are drawn again only when what they show
  // changed (a square clicked or a button focused stays so meanwhile).
  const key = JSON.stringify([fight.id, shown.state, fight.map?.rows, view?.seq, pickOf(fight.id), memberCount()]);
  if (key !== drawnKey) {
    drawnKey = key;
    const svg = fight.map ? mapPicture(shown) : null;
    if (svg) decorate(svg, fight);
    // A token tapped (or clicked) says what its hover says, in the bar,
    // and keeps saying it as the fight goes on (drawn again, the bar
    // reads the same combatant's new token).
    const tell = (token) => { $("token-info").textContent = token?.querySelector("title")?.textContent ?? ""; };
    svg?.addEventListener("click", (e) => {
      const token = e.target.closest?.(".token");
      if (token) { tappedToken = token.dataset.name; tell(token); }
    });
    const tapped = tappedToken && svg ? [...svg.querySelectorAll(".token")].find((t) => t.dataset.name === tappedToken) : null;
    if (tapped) tell(tapped);
    $("fight-map-view").replaceChildren(svg ? zoomable(svg, `fight-${fight.id}`, ".token.yours, .token.own, .token.awaited") : el("p", "quiet", "No map: the sides stand on a line (see the squares apart below)."));
    $("fight-tracker").hidden = !(shown.state?.combatants ?? []).length;
    $("tracker-list").replaceChildren(...trackerRows({
      fight, view: view && view.step >= fight.step ? view : null, state: shown.state, mine: isMine,
      handOver: table.me?.role === "gm" && view?.played ? (c, i) => handOverSelect(fight, c, i) : null,
    }));
    drawPanel(fight);
  }
  // The step drawn: a played fight's once the server's view of it is in.
  $("fight-view").dataset.step = String(view ? view.step : fight.played ? -1 : fight.step);
  $("fight-view").dataset.events = String(fight.step); // the events taken in so far
  placeRolls();
  const state = shown.state ?? {};
  $("fight-clock").textContent = clockWords(fight, state, view);
  // The whole log so far, the latest step's lines marked and in view.
  const log = $("fight-log");
  log.replaceChildren(...fight.lines.map((line) => {
    const item = el("li", line.step === fight.step ? "latest" : null);
    if (line.decision) item.append(decisionLine(line.decision, line.by));
    else item.textContent = line.text;
    return item;
  }), ...roundSoFar(fight, view));
  log.scrollTop = log.scrollHeight;
  $("fight-roster").replaceChildren(...(state.combatants ?? []).map((c) => {
    const where = c.square ? `${c.square}, facing ${c.facing}` : `square ${c.position}`;
    const item = el("li", c.state !== "standing" ? "fallen" : null, `${combatantName(c, view?.controllers)}: ${c.chp}/${c.thp} HP, ${c.state}, ${where}${c.action ? `, ${c.action}` : ""}`);
    item.dataset.name = c.name;
    return item;
  }));
}

// A played fight's round in progress, at the end of its log: the lines the
// server shows up to the decision awaited (`so_far`), under "Turn 3, round
// 2 so far:"; gone once the round's own event (which begins with them) is
// in, until the server's view catches up with it.
function roundSoFar(fight, view) {
  const lines = view && view.step >= fight.step && !view.over ? view.so_far ?? [] : [];
  if (!lines.length) return [];
  const at = view.waiting?.[0] ?? lines[lines.length - 1];
  const when = whenWords({ turn: at.turn, round: at.round });
  const head = el("li", "latest so-far", `${when[0].toUpperCase()}${when.slice(1)} so far:`);
  return [head, ...lines.map((line) => el("li", "latest so-far", line.text))];
}

// The turn and its round in words (round 0 is the movement phase).
export function whenWords(state) {
  if (!state?.turn) return "before the first turn";
  return `turn ${state.turn}, ${state.round ? `round ${state.round}` : "the movement phase"}`;
}

// The clock: the step, the turn and its round (0: the movement phase),
// and every decision awaited while any is (a played fight: the turn and
// round are then the awaited decisions', the state being the last step
// completed), else whose turn it is; never once the fight is over.
function clockWords(fight, state, view) {
  if (fight.step === 0) return "Before the first round";
  const waiting = view && view.step >= fight.step && !view.over && !fight.over ? view.waiting ?? [] : [];
  const asked = waiting.find((w) => w.turn !== undefined);
  const when = whenWords(asked ? { turn: asked.turn, round: asked.round } : state);
  let now = "";
  if (fight.over) now = "";
  else if (waiting.length) now = ` (waiting for ${waiting.map((w) => `${w.controller === "gm" ? "the GM" : w.controller === "engine" ? "the engine" : w.controller?.name ?? "the engine"}: ${w.who}'s ${kindWords(w.kind)}`).join("; ")})`;
  else if (state.acting) now = ` (${state.acting}'s turn)`;
  const clock = `Step ${fight.step}: ${when}${now}`;
  return fight.over ? `${clock}. Over: ${fight.ending?.winner ? `${fight.ending.winner} wins` : "a draw"} (${fight.ending?.reason ?? ""})` : clock;
}

async function stepFight(rounds) {
  if (!table.current || shownFight === null) return;
  const body = { client_seed: clientSeed(), commitment: table.commitment };
  if (rounds) body.rounds = rounds;
  for (const id of ["fight-step", "fight-end"]) $(id).disabled = true;
  const answer = await api("POST", `/api/rooms/${encodeURIComponent(table.current.room)}/fights/${shownFight}/step`, table.current.seat.key, body);
  for (const id of ["fight-step", "fight-end"]) $(id).disabled = false;
  const error = $("fight-error");
  error.hidden = answer.ok;
  if (!answer.ok) setError(error, errorText(answer));
}

async function startFight(e) {
  e.preventDefault();
  if (!table.current) return;
  const body = { a: $("fight-a").value, b: $("fight-b").value, distance: Number($("fight-distance").value) || 1 };
  if ($("fight-map").value.trim() !== "") body.map = $("fight-map").value;
  Object.assign(body, playedRequest() ?? {});
  const answer = await api("POST", `/api/rooms/${encodeURIComponent(table.current.room)}/fights`, table.current.seat.key, body);
  const error = $("fight-error");
  error.hidden = answer.ok;
  if (!answer.ok) { setError(error, errorText(answer)); return; }
  if (body.played) return;
  $("fight-step").focus();
}

// "Simulate 10,000": ten batches of 1,000 fights of the form's setting
// with one seed (so they add up to one run, the command line's with that
// --seed), the progress shown between them, then each outcome's rate with
// its 95% interval (Wilson's, as the server and the command line give).
const SIM_TRIALS = 10000;
const SIM_BATCH = 1000;
const Z95 = 1.959963984540054;

function wilson(count, trials) {
  const n = Math.max(trials, 1);
  const p = count / n;
  const z2 = Z95 * Z95;
  const center = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (Z95 * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  return { p, low: Math.min(Math.max(center - half, 0), p), high: Math.max(Math.min(center + half, 1), p) };
}

function rateChart(rows) {
  // One row an outcome: its words as text of the page (so they are as
  // large on a phone as anywhere), under them a bar for the rate with a
  // whisker for its interval.
  const chart = el("div", "rates");
  chart.setAttribute("role", "img");
  chart.setAttribute("aria-label", "win rates with 95% intervals");
  for (const row of rows) {
    const rate = wilson(row.count, row.trials);
    const line = el("div", "rate");
    line.append(el("div", "rate-label", `${row.label}: ${(rate.p * 100).toFixed(1)}% (95%: ${(rate.low * 100).toFixed(1)}–${(rate.high * 100).toFixed(1)}%)`));
    const svg = svgEl("svg", { viewBox: "0 0 100 4", preserveAspectRatio: "none", "aria-hidden": "true" });
    svg.append(svgEl("rect", { class: "track", x: 0, y: 0.5, width: 100, height: 3 }));
    svg.append(svgEl("rect", { class: "bar", x: 0, y: 0.5, width: 100 * rate.p, height: 3 }));
    svg.append(svgEl("line", { class: "whisker", x1: 100 * rate.low, x2: 100 * rate.high, y1: 2, y2: 2 }));
    line.append(svg);
    chart.append(line);
  }
  return chart;
}

// What the form sets up, in words: the example's name while the form
// still holds it as picked, else the sides and the map by their names.
function settingName(setting) {
  const example = exampleName(setting);
  if (example) return `“${example}”`;
  // A side file's `side`, else a combatant's (or a map's) `name`.
  const name = (toml) => /^\s*side\s*=\s*"([^"]*)"/m.exec(toml ?? "")?.[1] ?? /^\s*name\s*=\s*"([^"]*)"/m.exec(toml ?? "")?.[1];
  const sides = `${name(setting.a) ?? "side A"} against ${name(setting.b) ?? "side B"}`;
  return setting.map ? `${sides} on ${name(setting.map) ?? "the map"}` : `${sides} on a line`;
}

// The setting the simulation shown was run on: changing the form hides
// its result (it would answer for another fight).
let simulated = null;
function formSetting() {
  const setting = { a: $("fight-a").value, b: $("fight-b").value, distance: Number($("fight-distance").value) || 1 };
  if ($("fight-map").value.trim() !== "") setting.map = $("fight-map").value;
  return setting;
}
function hideStaleSimulation() {
  if (simulated !== null && simulated !== JSON.stringify(formSetting())) {
    $("simulation").hidden = true;
    simulated = null;
  }
}

async function simulateFights() {
  if (!table.current) return;
  const setting = formSetting();
  const words = new Uint32Array(2);
  crypto.getRandomValues(words);
  const seed = (words[0] % 2 ** 21) * 2 ** 32 + words[1]; // a safe integer
  const box = $("simulation");
  box.hidden = false;
  box.dataset.seed = String(seed);
  $("simulation-title").textContent = `Who wins ${settingName(setting)}, over ${SIM_TRIALS.toLocaleString()} fights`;
  simulated = JSON.stringify(setting);
  $("simulation-chart").replaceChildren();
  $("simulate").disabled = true;
  const counts = { wins: [0, 0], draw: 0, trials: 0, sides: [] };
  const error = $("fight-error");
  error.hidden = true;
  for (let first = 0; first < SIM_TRIALS; first += SIM_BATCH) {
    const answer = await api("POST", `/api/rooms/${encodeURIComponent(table.current.room)}/simulate`, table.current.seat.key, { ...setting, seed, first, trials: SIM_BATCH });
    if (!answer.ok) { setError(error, errorText(answer)); break; }
    const data = answer.data;
    counts.sides = data.sides;
    counts.wins[0] += data.wins[0].count;
    counts.wins[1] += data.wins[1].count;
    counts.draw += data.draw.count;
    counts.trials += data.trials;
    $("simulation-progress").value = counts.trials;
    $("simulation-count").textContent = `${counts.trials.toLocaleString()} of ${SIM_TRIALS.toLocaleString()} fights (seed ${seed})`;
    if (!data.complete) break;
  }
  $("simulate").disabled = false;
  box.dataset.wins = JSON.stringify(counts.wins);
  box.dataset.draws = String(counts.draw);
  box.dataset.trials = String(counts.trials);
  if (!counts.trials) return;
  $("simulation-chart").replaceChildren(rateChart([
    { label: `${counts.sides[0]} wins`, count: counts.wins[0], trials: counts.trials },
    { label: `${counts.sides[1]} wins`, count: counts.wins[1], trials: counts.trials },
    { label: "a draw", count: counts.draw, trials: counts.trials },
  ]));
}

$("fight-example").addEventListener("change", hideStaleSimulation);
$("fight-form").addEventListener("input", hideStaleSimulation);
$("simulate").addEventListener("click", simulateFights);
$("fight-form").addEventListener("submit", startFight);
$("fight-step").addEventListener("click", () => stepFight(null));
$("fight-end").addEventListener("click", () => stepFight("end"));
$("fights").addEventListener("toggle", () => { if ($("fights").open) loadFightSheets(); });
