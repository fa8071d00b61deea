// feed.js: the room's feed, the list of everything that happened (rolls,
// checks, contests, sheets, fights, joins, shows, reveals), newest first.
// It owns how each event is written (dice as chips, a contest's sides, the
// GM's mark), which events have been seen, and which secret rolls were
// shown; fights' events go on to fights.js, faces to the dice panel.

import { $, api, el, errorText, loadedAt, showWho, table, time } from "./shared.js";
import { countFaces, showOdds } from "./rolls.js";
import { combatantName, decisionLine, fightDecided, fightStarted, fightStepped, whenWords } from "./fights.js";
import { sheetsChanged } from "./characters.js";

export const seen = new Map(); // seq -> <li>
export const shownSecrets = new Set(); // seqs of secret rolls shown to everyone
// The GM's own secret rolls not yet shown, by seq: a reveal shows them all
// (the GM's page then draws them as shown, without the "show" button).
const gmSecrets = new Map();

// The dice of a roll's transcript (`nutshell roll --json`), one box a die,
// as the text line writes them: a rerolled face struck out before the face
// that replaced it (2→4: the rerolled face counts for nothing); an exploded
// or compounded die's faces added up in its one box (6!+6!+2 =14); a dropped
// die dashed, struck through and in brackets; a success ✓ and a failure ✗.
export function diceChips(dice, terms) {
  const box = el("span", "dice");
  for (const die of dice ?? []) {
    const classes = ["die"];
    const kept = die.kept !== false;
    if (!kept) classes.push("dropped");
    if (die.exploded) classes.push("exploded");
    if (die.rerolled) classes.push("rerolled");
    if (die.successes) classes.push("success");
    if (die.failures) classes.push("failure");
    const chip = el("span", classes.join(" "));
    const term = terms?.[die.term]?.expression ?? "";
    const bang = term.includes("!!") ? "!!" : term.includes("!p") ? "!p" : "!";
    const faces = die.faces ?? [{ face: die.face, value: die.value ?? die.face, cause: "roll" }];
    let counted = 0;
    for (const face of faces) {
      if (face.rerolled) {
        chip.append(el("s", "face rerolled", String(face.face)), "→");
        continue;
      }
      counted += 1;
      let text = String(face.face);
      if (face.clamped) text = `${face.face}${face.value > face.face ? "↑" : "↓"}${face.value}`;
      else if (face.value !== undefined && face.value !== face.face) text = String(face.value);
      chip.append(el("span", "face", text));
      if (face.exploded) chip.append(el("span", "bang", bang), "+");
    }
    if (counted > 1) chip.append(el("span", "sum", ` =${die.value}`));
    if (die.limit_reached) chip.append("…");
    if (die.successes) chip.append(el("span", "mark", die.successes > 1 ? `✓×${die.successes}` : "✓"));
    if (die.failures) chip.append(el("span", "mark", die.failures > 1 ? `✗×${die.failures}` : "✗"));
    chip.dataset.value = String(die.value ?? die.face);
    const notes = [];
    if (!kept) notes.push("dropped");
    if (die.rerolled) notes.push("rerolled");
    if (die.exploded) notes.push(bang === "!!" ? "compounded" : "exploded");
    if (die.successes) notes.push(`${die.successes} success${die.successes > 1 ? "es" : ""}`);
    if (die.failures) notes.push(`${die.failures} failure${die.failures > 1 ? "s" : ""}`);
    chip.title = `${die.die}: ${die.value}${notes.length ? `, ${notes.join(", ")}` : ""}`;
    box.append(chip);
  }
  return box;
}

// A contest's two sides by name: the result says `first`, `second` or
// `none`; the page says who (the roller's side first, as the form asks for
// it; MLS calls it the active side).
export function contestNames(ruleset, first) {
  return {
    first: ruleset === "mls" ? `${first} (the active side)` : first,
    second: "the opponent",
    none: ruleset === "mls" ? "no one (the action fails)" : "no one (both sides fail)",
  };
}

// Each side of a contest in a line: its outcome, total and dice.
export function contestSides(result, names) {
  return (result.sides ?? []).map((side, i) => {
    const dice = (side.dice ?? []).map((d) => d.face).join(", ");
    const total = side.total !== undefined && side.total !== null ? `, total ${side.total}` : "";
    const line = el("div", "contest-side", `${i === 0 ? names.first : names.second}: ${side.outcome ?? ""}${total}${dice ? ` (dice ${dice})` : ""}`);
    line.dataset.side = i === 0 ? "first" : "second";
    return line;
  });
}

// The kind an earlier server's roll named by its text's prefix.
function legacyKind(text) {
  for (const [prefix, kind] of [["contest ", "contest"], ["check ", "check"], ["fight ", "fight"], ["character ", "sheet"], ["advance ", "advance"]]) {
    if (text.startsWith(prefix)) return kind;
  }
  return "roll";
}

// Who acted: the member's name, and for the GM a mark that comes from the
// event's role, never from the name (a player cannot be called into it).
function who(body) {
  const part = el("span", "who", body.name ?? "");
  if (body.role === "gm") {
    part.classList.add("gm");
    part.append(el("span", "gm-mark", "GM"));
  }
  return part;
}

// What a member did, said after their name: a roll event is dice, a check,
// a contest, a whole fight, a new character or an advance.
function rollVerb(body) {
  const kind = body.action?.kind ?? legacyKind(body.expression ?? "");
  const verb = { sheet: "made a character", advance: "advanced a character", fight: "fought a fight" }[kind] ?? "rolled";
  return body.secret ? ` ${verb} (secret, now shown):` : ` ${verb}:`;
}

// What a roll event's body shows: dice, a check, a contest, a fight, a sheet.
function rollBody(body) {
  const part = el("div");
  const name = body.name ?? "the roller";
  const result = body.result ?? {};
  // This server's events say their kind in `action`; an earlier server's
  // named it by a prefix of `expression`.
  const legacy = body.expression ?? "";
  const kind = body.action?.kind ?? legacyKind(legacy);
  const expression = body.action?.expression ?? legacy;
  if (kind === "contest") {
    const names = contestNames(result.ruleset, `${name}'s side`);
    part.append(el("div", null, `${result.ruleset ?? ""} contest, winner: `), el("span", "total", names[result.winner] ?? result.winner ?? ""));
    part.append(...contestSides(result, names));
    for (const side of result.sides ?? []) for (const line of side.transcript ?? []) part.append(el("div", "meta", `${line.text} (${line.rule})`));
    for (const line of result.transcript ?? []) part.append(el("div", "meta", `${line.text} (${line.rule})`));
  } else if (kind === "check") {
    part.append(el("div", null, `${result.ruleset ?? ""} check: `), el("span", "total", result.outcome ?? ""));
    for (const line of result.transcript ?? []) part.append(el("div", "meta", `${line.text} (${line.rule})`));
  } else if (kind === "fight") {
    part.append(el("div", null, `Fight: ${(result.sides ?? []).join(" against ")}`));
    part.append(el("div", "total", result.ending?.winner ? `${result.ending.winner} wins` : "a draw"));
    part.append(el("div", "meta", result.ending?.reason ?? ""));
  } else if (kind === "sheet") {
    part.append(el("span", "total", result.name ?? ""));
  } else if (kind === "advance") {
    part.append(el("span", "total", result.name ?? ""));
    for (const entry of result.entries ?? []) {
      part.append(el("div", "meta", `${entry.change}${entry.roll ? ` [${entry.roll}]` : ""}`));
    }
    part.append(el("div", "meta", `${result.cps ?? 0} CP(s) unspent at age ${result.age ?? ""}`));
  } else {
    const head = el("div");
    head.append(el("span", "total", String(result.total ?? "")), document.createTextNode(`  ${result.expression ?? expression}  `));
    const odds = el("button", "small odds-button", "odds");
    odds.type = "button";
    odds.addEventListener("click", () => showOdds(part, result.expression ?? expression, result.total));
    head.append(odds);
    part.append(head, diceChips(result.dice, result.terms), el("div", "meta expr", result.text ?? ""));
  }
  return part;
}

// A fight's combatants as a viewer needs them: health and position.
function fightState(state) {
  const part = el("ul", "fighters");
  for (const c of state?.combatants ?? []) {
    const where = c.square ? `${c.square}, facing ${c.facing}` : `square ${c.position}`;
    part.append(el("li", null, `${combatantName(c)}: ${c.chp}/${c.thp} HP, ${c.state}, ${where}${c.action ? `, ${c.action}` : ""}`));
  }
  return part;
}

// A fight step's log lines, one folded entry a turn (a step "to the end"
// holds dozens of turns): the turn and how many lines it logged, the lines
// on demand. The fight view beside the map shows them all.
function turnsFolded(lines) {
  const turns = [];
  for (const line of lines) {
    const last = turns[turns.length - 1];
    if (last && last.turn === line.turn) last.lines.push(line);
    else turns.push({ turn: line.turn, lines: [line] });
  }
  return turns.map(({ turn, lines: said }) => {
    const fold = el("details", "fold turn");
    const count = `${said.length} line${said.length === 1 ? "" : "s"}`;
    fold.append(el("summary", null, turn ? `Turn ${turn} (${count})` : `The log (${count})`));
    for (const line of said) fold.append(el("div", "meta fight-line", line.text));
    return fold;
  });
}

function describe(event) {
  const item = el("li");
  item.dataset.seq = event.seq;
  item.dataset.kind = event.kind;
  const meta = el("div", "meta", `#${event.seq} · ${time(event.at_ms)}`);
  const body = event.body;
  item.append(meta);
  switch (event.kind) {
    case "room":
      item.append(el("div", null, `Room “${body.name}” created. The dice of epoch ${body.epoch} are committed: ${body.commitment.slice(0, 16)}…`));
      break;
    case "join":
      item.append(el("div", null, `${body.name} joined.`));
      if (!table.members.includes(body.name)) { table.members.push(body.name); showWho(); }
      break;
    case "roll":
      if (event.hidden) {
        item.append(el("div", "secret", `The GM rolled in secret. Its commitment: ${event.body_hash.slice(0, 16)}…`));
      } else if (body.secret && table.current?.seat.role === "gm" && !shownSecrets.has(event.seq)) {
        const line = el("div");
        line.append(who(body), document.createTextNode(" rolled in secret (players do not see it yet):"));
        const reveal = el("button", "small show-button", "show it to everyone");
        reveal.type = "button";
        reveal.addEventListener("click", async () => {
          const answer = await api("POST", `/api/rooms/${encodeURIComponent(table.current.room)}/rolls/${event.seq}/reveal`, table.current.seat.key);
          if (!answer.ok) $("who").textContent = errorText(answer);
        });
        item.append(line, rollBody(body), reveal);
        gmSecrets.set(event.seq, event);
      } else {
        const line = el("div");
        line.append(who(body), document.createTextNode(rollVerb(body)));
        item.append(line, rollBody(body));
      }
      break;
    case "fight":
      if (event.hidden) { item.append(el("div", "secret", "The GM started a fight in secret.")); break; }
      {
        const line = el("div");
        line.append(who(body), document.createTextNode(` started fight #${event.seq}: ${(body.fight?.sides ?? []).join(" against ")}.`));
        item.append(line, fightState(body.fight?.state));
      }
      break;
    case "fight-control":
      if (event.hidden) { item.append(el("div", "secret", "The GM changed a secret fight.")); break; }
      item.append(el("div", null, `Fight #${body.fight}: ${body.who ? `${body.who} handed to ${body.controller?.member !== undefined ? `member ${body.controller.member}` : `the ${body.controller === "gm" ? "GM" : body.controller}`}` : "the time for decisions changed"} (by ${body.name ?? "the GM"}).`));
      break;
    case "fight-decision":
    case "fight-step": {
      if (event.hidden) { item.append(el("div", "secret", "The GM stepped a secret fight.")); break; }
      const result = body.result ?? {};
      const made = body.action?.decision;
      if (made) item.append(decisionLine(made, body, "div"));
      const line = el("div");
      line.append(document.createTextNode(`Fight #${body.action?.fight ?? body.fight}, step ${body.action?.step ?? body.step}: ${whenWords(result.state)} (`), who(body), document.createTextNode(")"));
      item.append(line, ...turnsFolded(result.lines ?? []));
      const standing = el("details", "fold standing");
      standing.append(el("summary", null, "Where everyone stands"), fightState(result.state));
      item.append(standing);
      if (result.over) item.append(el("div", "total", result.ending?.winner ? `${result.ending.winner} wins` : "a draw"), el("div", "meta", result.ending?.reason ?? ""));
      break;
    }
    case "show":
      item.append(el("div", null, `The GM showed roll #${body.of}.`));
      shownSecrets.add(body.of);
      seen.get(body.of)?.querySelector(".show-button")?.remove();
      break;
    case "reveal":
      item.append(el("div", null, `The seed of epoch ${body.epoch} is revealed: every roll of it can now be verified. The next epoch's dice are committed: ${body.commitment.slice(0, 16)}…`));
      break;
    default:
      item.append(el("div", null, event.kind));
  }
  if (event.at_ms >= loadedAt - 2000) item.classList.add("fresh");
  return item;
}

export function addEvent(event) {
  const item = describe(event);
  const old = seen.get(event.seq);
  if (!old || old.querySelector(".secret")) countFaces(event);
  if (old) {
    old.replaceWith(item);
  } else {
    $("feed").prepend(item);
  }
  seen.set(event.seq, item);
  // A reveal shows every secret roll before it: the GM's page says so.
  if (event.kind === "reveal") {
    for (const [seq, secret] of [...gmSecrets]) {
      if (seq > event.seq) continue;
      gmSecrets.delete(seq);
      shownSecrets.add(seq);
      const before = seen.get(seq);
      if (!before) continue;
      const after = describe(secret);
      before.replaceWith(after);
      seen.set(seq, after);
    }
  }
  // Screen readers hear what happens now, not the history a reload or a
  // reconnect replays (the feed itself is not a live region).
  if (!old && event.seq > table.historyUpTo) {
    $("announce").textContent = item.textContent.slice(0, 300);
  }
  // A fight's events once each (a secret one when it is shown).
  if (!event.hidden && (!old || old.querySelector(".secret"))) {
    if (event.kind === "fight") fightStarted(event);
    if (event.kind === "fight-step") fightStepped(event);
    if (event.kind === "fight-decision" || event.kind === "fight-control") fightDecided(event);
  }
  // A sheet made or advanced by another member after the page read the
  // log: the list of the table's sheets follows (this member's own are
  // shown by the form that made them, with their results).
  if (!old && !event.hidden && event.seq > table.historyUpTo && event.body?.roller !== table.me?.id
      && ["sheet", "advance"].includes(event.body?.action?.kind)) sheetsChanged();
}
