// The web table: a page over nutshell serve's JSON API and event stream.
// Everything here is possible with curl (docs/server.md); the page only
// shows it. Text from the server is always set with textContent, never
// parsed as HTML.

const $ = (id) => document.getElementById(id);
const loadedAt = Date.now();

// ---------------------------------------------------------------- seats

// A seat is what the browser remembers of a room: a key, its role, the
// member's name and, for the GM, the invite. A browser keeps every seat it
// has held in a room (the GM's and players', opened from seat links), as a
// list per room, and which one is in use; opening another seat's link adds
// it and never replaces one. A GM's key is never dropped: the server keeps
// only its hash and cannot give it again.
const seats = {
  list(room) {
    let list = [];
    try { list = JSON.parse(localStorage.getItem(`nutshell:seats:${room}`)) ?? []; } catch { list = []; }
    if (!Array.isArray(list)) list = [];
    // The one seat an earlier page kept.
    try {
      const old = JSON.parse(localStorage.getItem(`nutshell:${room}`));
      if (old?.key && !list.some((s) => s.key === old.key)) list.push(old);
    } catch { /* none */ }
    return list.filter((s) => typeof s?.key === "string");
  },
  save(room, list) {
    localStorage.setItem(`nutshell:seats:${room}`, JSON.stringify(list));
    localStorage.removeItem(`nutshell:${room}`);
  },
  // Adds a seat, or updates the one with its key (keeping an invite known).
  add(room, seat) {
    const list = seats.list(room);
    const found = list.find((s) => s.key === seat.key);
    if (found) {
      for (const [field, value] of Object.entries(seat)) if (value !== null && value !== undefined) found[field] = value;
    } else {
      list.push(seat);
    }
    seats.save(room, list);
  },
  get(room) {
    const list = seats.list(room);
    const active = localStorage.getItem(`nutshell:active:${room}`);
    return list.find((s) => s.key === active) ?? list.find((s) => s.role === "gm") ?? list[0] ?? null;
  },
  use(room, key) { localStorage.setItem(`nutshell:active:${room}`, key); },
  // Forgets a player's seat the server no longer knows; a GM's stays.
  forget(room, key) {
    seats.save(room, seats.list(room).filter((s) => s.key !== key || s.role === "gm"));
  },
};
// For the browser test.
window.nutshellSeats = seats;

function hashParams() {
  const params = new URLSearchParams(location.hash.slice(1));
  return { room: params.get("room"), invite: params.get("invite"), key: params.get("key"), table: params.get("table") };
}

async function api(method, path, key, body) {
  const headers = { "content-type": "application/json" };
  if (key) headers.authorization = `Bearer ${key}`;
  const response = await fetch(path, { method, headers, body: body ? JSON.stringify(body) : undefined });
  let data = null;
  try { data = await response.json(); } catch { /* no body */ }
  // A reveal's answer names the next epoch's commitment: rolls go there now.
  if (response.ok && path.endsWith("/reveal") && data?.next_epoch !== undefined) commitmentNow = data.commitment;
  return { ok: response.ok, status: response.status, data };
}

function errorText(answer) {
  return answer.data?.error?.message ?? `the server answered ${answer.status}`;
}

// An error in its box: the message wraps to the screen; lines that are
// quoted text (the expression with a caret under the bad character, a
// file's line and its marker: lines that start with spaces or a `|`
// gutter) keep their columns in a box of their own that scrolls sideways.
function setError(node, text) {
  const parts = [];
  const add = (quoted, line) => {
    const last = parts[parts.length - 1];
    if (last && last.quoted === quoted) last.lines.push(line);
    else parts.push({ quoted, lines: [line] });
  };
  for (const line of text.split("\n")) {
    // The words after a caret are message too: they wrap under its box.
    const caret = /^(\s+\^+) (.+)$/.exec(line);
    if (caret) { add(true, caret[1]); add(false, `at the caret: ${caret[2]}`); continue; }
    add(/^(\s{2,}|\s*\d*\s*\|)/.test(line), line);
  }
  node.replaceChildren(...parts.map((part) => el(part.quoted ? "pre" : "p", part.quoted ? "quoted" : "message", part.lines.join("\n"))));
  node.hidden = false;
}

function show(section) {
  for (const id of ["start", "join", "table"]) $(id).hidden = id !== section;
}

// The commitment of the epoch in play as this page last saw it (the room's
// view, then each reveal's next commitment): sent with every roll, so a
// reveal that happens while a request is on its way refuses it (409
// `epoch_changed`) instead of rolling it with the next epoch's seed.
let commitmentNow;
let commitmentSeq;

// A fresh client seed for every roll and action: 32 random bytes from the
// browser, so the dice depend on something the server learns only with
// the request (see docs/server.md, "Fair dice").
function clientSeed() {
  const bytes = new Uint8Array(32);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// ---------------------------------------------------------------- the feed

const seen = new Map(); // seq -> <li>
const shownSecrets = new Set(); // seqs of secret rolls shown to everyone

function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function time(ms) {
  return new Date(ms).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

// The dice of a roll's transcript (`nutshell roll --json`), one box a die,
// as the text line writes them: a rerolled face struck out before the face
// that replaced it (2→4: the rerolled face counts for nothing); an exploded
// or compounded die's faces added up in its one box (6!+6!+2 =14); a dropped
// die dashed, struck through and in brackets; a success ✓ and a failure ✗.
function diceChips(dice, terms) {
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
function contestNames(ruleset, first) {
  return {
    first: ruleset === "mls" ? `${first} (the active side)` : first,
    second: "the opponent",
    none: ruleset === "mls" ? "no one (the action fails)" : "no one (both sides fail)",
  };
}

// Each side of a contest in a line: its outcome, total and dice.
function contestSides(result, names) {
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
    part.append(el("div", null, `New character: `), el("span", "total", result.name ?? ""));
  } else if (kind === "advance") {
    part.append(el("div", null, `Advanced: `), el("span", "total", result.name ?? ""));
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
    part.append(el("li", null, `${c.name} (${c.side}): ${c.chp}/${c.thp} HP, ${c.state}, ${where}${c.action ? `, ${c.action}` : ""}`));
  }
  return part;
}

function describe(event) {
  const item = el("li");
  item.dataset.seq = event.seq;
  const meta = el("div", "meta", `#${event.seq} · ${time(event.at_ms)}`);
  const body = event.body;
  item.append(meta);
  switch (event.kind) {
    case "room":
      item.append(el("div", null, `Room “${body.name}” created. The dice of epoch ${body.epoch} are committed: ${body.commitment.slice(0, 16)}…`));
      break;
    case "join":
      item.append(el("div", null, `${body.name} joined.`));
      if (!members.includes(body.name)) { members.push(body.name); showWho(); }
      break;
    case "roll":
      if (event.hidden) {
        item.append(el("div", "secret", `The GM rolled in secret. Its commitment: ${event.body_hash.slice(0, 16)}…`));
      } else if (body.secret && current?.seat.role === "gm" && !shownSecrets.has(event.seq)) {
        const line = el("div");
        line.append(who(body), document.createTextNode(" rolled in secret (players do not see it yet):"));
        const reveal = el("button", "small show-button", "show it to everyone");
        reveal.type = "button";
        reveal.addEventListener("click", async () => {
          const answer = await api("POST", `/api/rooms/${encodeURIComponent(current.room)}/rolls/${event.seq}/reveal`, current.seat.key);
          if (!answer.ok) $("who").textContent = errorText(answer);
        });
        item.append(line, rollBody(body), reveal);
      } else {
        const line = el("div");
        line.append(who(body), document.createTextNode(body.secret ? " rolled (secret, now shown):" : " rolled:"));
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
    case "fight-step": {
      if (event.hidden) { item.append(el("div", "secret", "The GM stepped a secret fight.")); break; }
      const result = body.result ?? {};
      const line = el("div");
      line.append(document.createTextNode(`Fight #${body.action?.fight ?? body.fight}, step ${body.action?.step ?? body.step}: turn ${result.state?.turn}, round ${result.state?.round} (`), who(body), document.createTextNode(")"));
      item.append(line);
      for (const line of result.lines ?? []) item.append(el("div", "meta", line.text));
      item.append(fightState(result.state));
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

function addEvent(event) {
  const item = describe(event);
  const old = seen.get(event.seq);
  if (!old || old.querySelector(".secret")) countFaces(event);
  if (old) {
    old.replaceWith(item);
  } else {
    $("feed").prepend(item);
  }
  seen.set(event.seq, item);
  // Screen readers hear what happens now, not the history a reload or a
  // reconnect replays (the feed itself is not a live region).
  if (!old && event.seq > historyUpTo) {
    $("announce").textContent = item.textContent.slice(0, 300);
  }
  // A fight's events once each (a secret one when it is shown).
  if (!event.hidden && (!old || old.querySelector(".secret"))) {
    if (event.kind === "fight") fightStarted(event);
    if (event.kind === "fight-step") fightStepped(event);
  }
}

// ---------------------------------------------------------------- the room

let current = null; // { room, seat }
// The room's last event when this page entered it: what the stream then
// replays up to it is history, shown but not announced.
let historyUpTo = Infinity;
let members = []; // names, in the order they joined
let me = null; // { name, role }

function showWho() {
  if (!me) return;
  $("who").textContent = `You are ${me.name} (${me.role === "gm" ? "the GM" : "a player"}). Members: ${members.join(", ")}.`;
}

async function enterRoom(room, seat) {
  const answer = await api("GET", `/api/rooms/${encodeURIComponent(room)}`, seat.key);
  if (!answer.ok) {
    if (answer.status === 401 || answer.status === 403) seats.forget(room, seat.key);
    show("start");
    $("who").textContent = `Could not enter the room: ${errorText(answer)}`;
    return;
  }
  const info = answer.data;
  historyUpTo = info.last_seq ?? -1;
  // A seat taken from a link (#room=...&key=...) learns its role here.
  seat.role = info.you.role;
  seat.name = info.you.name;
  seats.add(room, seat);
  seats.use(room, seat.key);
  current = { room, seat };
  showSeats(room, seat);
  showHead(room, info.last_seq, info.last_hash);
  commitmentNow = info.commitment;
  $("room-name").textContent = `· ${info.name}`;
  me = info.you;
  members = info.members.map((m) => m.name);
  showWho();
  for (const node of document.querySelectorAll(".gm-only")) node.hidden = seat.role !== "gm";
  // Links carry what they need after the `#`, which a browser never sends
  // to the server: the invite and the table's name (shown on the join page)
  // for players; the key, and for a GM the invite, for the member's other
  // device (the server keeps only hashes: the invite cannot be asked for
  // again).
  const table = `&table=${encodeURIComponent(info.name)}`;
  if (seat.role === "gm" && seat.invite) {
    const link = `${location.origin}/#room=${encodeURIComponent(room)}&invite=${encodeURIComponent(seat.invite)}${table}`;
    $("invite-link").href = link;
    $("invite-link").textContent = link;
  } else if (seat.role === "gm") {
    $("invite-link").removeAttribute("href");
    $("invite-link").textContent = "not known in this browser: open the seat link of the browser that made the room";
  }
  const invite = seat.role === "gm" && seat.invite ? `&invite=${encodeURIComponent(seat.invite)}` : "";
  $("seat-link").href = `${location.origin}/#room=${encodeURIComponent(room)}&key=${encodeURIComponent(seat.key)}${invite}`;
  $("export").href = `/api/rooms/${encodeURIComponent(room)}/log?key=${encodeURIComponent(seat.key)}`;
  show("table");
  listen(room, seat.key);
  $("expression").focus();
}

// Every seat this browser holds in the room, to switch between them.
function showSeats(room, active) {
  const list = seats.list(room);
  const select = $("seat-switch");
  select.replaceChildren();
  for (const seat of list) {
    const label = seat.role === "gm" ? `the GM${seat.name && seat.name !== "GM" ? ` (${seat.name})` : ""}` : `${seat.name ?? "a player"} (player)`;
    const option = el("option", null, label);
    option.value = seat.key;
    option.selected = seat.key === active.key;
    select.append(option);
  }
  $("seats-row").hidden = list.length < 2;
}

$("seat-switch").addEventListener("change", () => {
  if (!current) return;
  seats.use(current.room, $("seat-switch").value);
  location.reload();
});

// The room's latest event (its number and hash), to note: `nutshell verify
// --head SEQ:HASH` refuses a log that does not end there.
let head = null;
function showHead(room, seq, hash) {
  if (seq === undefined || seq === null || !hash) return;
  if (head && head.seq >= seq) return;
  head = { seq, hash };
  $("head").textContent = `${seq}:${hash}`;
  $("verify-command").textContent = `nutshell verify room.jsonl --head ${seq}:${hash}`;
}
$("copy-head").addEventListener("click", async () => {
  if (!head) return;
  try { await navigator.clipboard.writeText(`${head.seq}:${head.hash}`); $("copy-head").textContent = "copied"; } catch { $("copy-head").textContent = "select it and copy"; }
});

function listen(room, key) {
  // EventSource reconnects by itself with Last-Event-ID: the server sends
  // exactly what was missed; `seen` keeps a repeated number from showing twice.
  const source = new EventSource(`/api/rooms/${encodeURIComponent(room)}/events?key=${encodeURIComponent(key)}`);
  source.onopen = () => { $("status").textContent = "· live"; };
  source.onerror = () => { $("status").textContent = "· reconnecting…"; };
  source.onmessage = async (message) => {
    const event = JSON.parse(message.data);
    if (event.error) { $("status").textContent = `· ${event.error.message}`; return; }
    addEvent(event);
    showHead(room, event.seq, event.hash);
    if (event.kind === "reveal" && event.body?.commitment && event.seq > (commitmentSeq ?? 0)) {
      commitmentNow = event.body.commitment;
      commitmentSeq = event.seq;
    }
    if (event.kind === "show" || event.kind === "reveal") {
      await refreshHidden(room, key);
      if (event.kind === "reveal") verifyNow();
    }
  };
}

// After a show or a reveal, secret rolls this member could not see may be
// visible: read them again from the log.
async function refreshHidden(room, key) {
  const hidden = [...seen.entries()].filter(([, item]) => item.querySelector(".secret"));
  if (!hidden.length) return;
  const response = await fetch(`/api/rooms/${encodeURIComponent(room)}/log?key=${encodeURIComponent(key)}`);
  if (!response.ok) return;
  const text = await response.text();
  for (const line of text.split("\n")) {
    if (!line) continue;
    const event = JSON.parse(line);
    if (!event.hidden && seen.has(event.seq) && seen.get(event.seq).querySelector(".secret")) addEvent(event);
  }
}

// ---------------------------------------------------------------- rulesets

// Each ruleset's options, by the command line's names (the server takes
// them as JSON): [name, label, kind] with kind number, text or flag.
const RULES = {
  fantasy: {
    check: [["mod", "modifier", "number"], ["ability", "ability score modifier", "number"], ["dc", "DC (number or easy, medium, hard ...)", "text"],
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

function rulesFields() {
  const kind = $("rules-kind").value;
  const set = $("rules-set");
  // Only the rulesets that have this kind of roll.
  const names = Object.keys(RULES).filter((name) => RULES[name][kind]);
  const chosen = names.includes(set.value) ? set.value : names[0];
  set.replaceChildren(...names.map((name) => { const o = el("option", null, name); o.value = name; return o; }));
  set.value = chosen;
  const box = $("rules-fields");
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
    }
    box.append(wrap);
  }
}

function oddsTable(odds, names) {
  const table = el("table", "odds");
  const head = el("tr");
  head.append(el("th", null, "outcome"), el("th", null, "exact"), el("th", null, "%"));
  table.append(head);
  for (const row of odds?.outcomes ?? []) {
    const tr = el("tr");
    tr.append(el("td", null, names?.[row.outcome] ? `winner: ${names[row.outcome]}` : row.outcome), el("td", "num", row.probability), el("td", "num", `${Number(row.percent).toFixed(2)}`));
    table.append(tr);
  }
  return table;
}

async function rollRules(e) {
  e.preventDefault();
  if (!current) return;
  const kind = $("rules-kind").value;
  const ruleset = $("rules-set").value;
  const body = { ruleset, odds: true, client_seed: clientSeed(), commitment: commitmentNow };
  for (const input of $("rules-fields").querySelectorAll("input")) {
    if (input.type === "checkbox") { if (input.checked) body[input.name] = true; continue; }
    if (input.value === "") continue;
    body[input.name] = input.type === "number" ? Number(input.value) : input.value;
  }
  const answer = await api("POST", `/api/rooms/${encodeURIComponent(current.room)}/${kind}s`, current.seat.key, body);
  const error = $("rules-error");
  const result = $("rules-result");
  if (!answer.ok) {
    setError(error, errorText(answer).replace(/^error: /, ""));
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

// ---------------------------------------------------------------- odds of a roll

// The exact distribution of a roll's expression as bars, the rolled total
// marked, and how often a total at least as high comes up. Exploding dice
// reach far (3d6! to 321) with chances too small to see: each end is cut
// where what lies beyond it comes up less than once in CHART_CUT rolls
// (never cutting the total rolled), and a note says what was cut.
const CHART_CUT = 1e-6;

function percentText(p) {
  if (p > 0 && p < 1e-6) return "< 0.0001%";
  if (p < 0.001) return `${Number((p * 100).toPrecision(2))}%`;
  return `${(p * 100).toFixed(1)}%`;
}

async function showOdds(item, expression, total) {
  const old = item.querySelector(".chart");
  if (old) { old.remove(); return; }
  const box = el("div", "chart");
  item.append(box);
  const answer = await api("POST", `/api/rooms/${encodeURIComponent(current.room)}/odds`, current.seat.key, { expression });
  if (!answer.ok) { const error = el("div", "error"); setError(error, errorText(answer)); box.append(error); return; }
  const all = answer.data.distribution ?? [];
  let first = 0, last = all.length - 1, below = 0, above = 0;
  while (first < last && all[first].value < total && below + all[first].p < CHART_CUT) below += all[first++].p;
  while (last > first && all[last].value > total && above + all[last].p < CHART_CUT) above += all[last--].p;
  const rows = all.slice(first, last + 1);
  const highest = Math.max(...rows.map((r) => r.p), 0) || 1;
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  const width = Math.max(rows.length, 1);
  svg.setAttribute("viewBox", `0 0 ${width} 100`);
  svg.setAttribute("preserveAspectRatio", "none");
  svg.setAttribute("role", "img");
  rows.forEach((row, i) => {
    const bar = document.createElementNS(ns, "rect");
    const h = (row.p / highest) * 100;
    bar.setAttribute("x", String(i + 0.05));
    bar.setAttribute("width", "0.9");
    bar.setAttribute("y", String(100 - h));
    bar.setAttribute("height", String(h));
    bar.setAttribute("class", row.value === total ? "bar hit" : "bar");
    bar.dataset.value = String(row.value);
    const title = document.createElementNS(ns, "title");
    title.textContent = `${row.value}: ${row.probability} (${(row.p * 100).toFixed(2)}%)`;
    bar.append(title);
    svg.append(bar);
  });
  const atLeast = all.filter((r) => r.value >= total).reduce((sum, r) => sum + r.p, 0);
  svg.setAttribute("aria-label", `distribution of ${expression}`);
  const axis = el("div", "axis");
  axis.append(el("span", null, String(rows[0]?.value ?? "")), el("span", null, String(rows[rows.length - 1]?.value ?? "")));
  const low = all[0]?.value, high = all[all.length - 1]?.value;
  box.append(svg, axis, el("div", "meta", `${expression}: ${low} to ${high}, mean ${Number(answer.data.mean).toFixed(2)}. Rolled ${total}: as high or higher ${(atLeast * 100).toFixed(1)}% of the time.`));
  const cut = [];
  if (first > 0) cut.push(`values below ${rows[0].value} (from ${low}): ${percentText(below)}`);
  if (last < all.length - 1) cut.push(`values beyond ${rows[rows.length - 1].value} (to ${high}): ${percentText(above)}`);
  if (cut.length) box.append(el("div", "meta chart-cut", `Not drawn, too rare to see: ${cut.join("; ")} of the time.`));
}

// ---------------------------------------------------------------- verification

// The canonical text the server hashes: keys sorted, no spaces (fair.rs).
function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");

// SHA-256 (FIPS 180-4) in plain JavaScript, for when the browser has no
// `crypto.subtle`: browsers give it only to secure contexts (https, or
// localhost), so a table served over plain http on a network address would
// otherwise never verify. The browser test checks it against
// `crypto.subtle` on inputs of many lengths.
const SHA256_K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

function sha256Plain(bytes) {
  const length = bytes.length;
  // The message, a 1 bit, zeros, and its length in bits as 64 bits.
  const padded = new Uint8Array((((length + 8) >> 6) + 1) << 6);
  padded.set(bytes);
  padded[length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(length / 0x20000000));
  view.setUint32(padded.length - 4, (length << 3) >>> 0);
  const h = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const w = new Uint32Array(64);
  const ror = (x, n) => (x >>> n) | (x << (32 - n));
  for (let block = 0; block < padded.length; block += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(block + 4 * i);
    for (let i = 16; i < 64; i++) {
      const x = w[i - 15], y = w[i - 2];
      w[i] = w[i - 16] + (ror(x, 7) ^ ror(x, 18) ^ (x >>> 3)) + w[i - 7] + (ror(y, 17) ^ ror(y, 19) ^ (y >>> 10));
    }
    let [a, b, c, d, e, f, g, k] = h;
    for (let i = 0; i < 64; i++) {
      const t1 = (k + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + ((e & f) ^ (~e & g)) + SHA256_K[i] + w[i]) | 0;
      const t2 = ((ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      k = g; g = f; f = e; e = (d + t1) | 0; d = c; c = b; b = a; a = (t1 + t2) | 0;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += k;
  }
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  h.forEach((word, i) => outView.setUint32(4 * i, word));
  return hex(out);
}

// The browser's own SHA-256 where it has one, else the plain one.
async function sha256Hex(bytes) {
  if (!globalThis.crypto?.subtle?.digest) return sha256Plain(bytes);
  return hex(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)));
}
// For the browser test: the plain SHA-256, checked against crypto.subtle.
window.nutshellSha256Plain = sha256Plain;

const utf8 = (text) => new TextEncoder().encode(text);
const GENESIS = "0".repeat(64);

// Checks the room's log as this member sees it, in the browser: every
// body against its hash, every event's hash over the previous one, every
// revealed seed against the commitment published before its rolls.
// Recomputing the dice themselves is `nutshell verify`'s job.
async function verifyLog(room, key) {
  const response = await fetch(`/api/rooms/${encodeURIComponent(room)}/log?key=${encodeURIComponent(key)}`);
  if (!response.ok) return { ok: false, problem: `the log could not be read (${response.status})` };
  const events = (await response.text()).split("\n").filter(Boolean).map((l) => JSON.parse(l));
  const commitments = new Map();
  const revealed = new Set();
  let prev = null;
  for (const event of events) {
    if (prev !== null && event.prev !== prev) return { ok: false, problem: `event #${event.seq} does not chain to the one before` };
    if (prev === null && event.seq === 1 && event.prev !== GENESIS) return { ok: false, problem: "the first event does not start the chain" };
    if (event.body !== null && (await sha256Hex(utf8(canonical(event.body)))) !== event.body_hash) {
      return { ok: false, problem: `event #${event.seq}: its body does not match its hash` };
    }
    const link = { at_ms: event.at_ms, body_hash: event.body_hash, epoch: event.epoch, kind: event.kind, prev: event.prev, room: event.room, secret: event.secret, seq: event.seq };
    if ((await sha256Hex(utf8(canonical(link)))) !== event.hash) return { ok: false, problem: `event #${event.seq}: its hash is wrong` };
    if (event.kind === "room") commitments.set(event.body.epoch, event.body.commitment);
    if (event.kind === "reveal") {
      const seed = new Uint8Array(event.body.seed.match(/../g).map((h) => parseInt(h, 16)));
      const expected = commitments.get(event.body.epoch);
      if (expected !== undefined && (await sha256Hex(seed)) !== expected) {
        return { ok: false, problem: `the seed revealed for epoch ${event.body.epoch} does not match its commitment` };
      }
      revealed.add(event.body.epoch);
      commitments.set(event.body.next_epoch, event.body.commitment);
    }
    prev = event.hash;
  }
  return { ok: true, events, revealed };
}

async function verifyNow() {
  if (!current) return;
  const out = $("verified");
  out.className = "";
  out.textContent = "checking…";
  let report;
  try {
    report = await verifyLog(current.room, current.seat.key);
  } catch (error) {
    // Never left at "checking…": a network failure or a log that cannot be
    // read is said as such.
    report = { ok: false, problem: `the check could not be finished (${error?.message ?? error})` };
  }
  if (!report.ok) { out.textContent = `✗ ${report.problem}`; out.className = "error"; return; }
  out.className = "ok";
  let rolls = 0;
  for (const event of report.events) {
    const item = seen.get(event.seq);
    if (!item || event.kind !== "roll") continue;
    let mark = item.querySelector(".verified");
    if (!mark) { mark = el("div", "verified meta"); item.append(mark); }
    if (report.revealed.has(event.epoch)) {
      rolls += 1;
      mark.textContent = "✓ verified: chained in the log, and its epoch's seed matches the commitment made before the roll";
    } else {
      mark.textContent = "✓ chained in the log; checkable when the GM reveals this epoch's seed";
    }
  }
  out.textContent = `✓ Checked in this browser: ${report.events.length} events chained, ${rolls} rolls of revealed epochs verified (run nutshell verify on the exported log to recompute every die).`;
}

// ---------------------------------------------------------------- the dice panel

// Every face this page has seen, by member and die: "these dice are
// rigged" answered with the exact odds of such a run of faces.
const tally = new Map(); // "name\u0000d20" -> { name, sides, faces: [] }

function countFaces(event) {
  if (event.kind !== "roll" || !event.body) return;
  const name = event.body.name;
  for (const die of event.body.result?.dice ?? []) {
    const sides = Number(/^d(\d+)$/.exec(die.die ?? "")?.[1]);
    if (!Number.isInteger(sides) || sides < 2) continue;
    const faces = die.faces ? die.faces.filter((f) => f.cause !== "fixed").map((f) => f.face) : [die.face];
    const key = `${name}\u0000${sides}`;
    if (!tally.has(key)) tally.set(key, { name, sides, faces: [] });
    tally.get(key).faces.push(...faces.filter((f) => Number.isInteger(f)));
  }
}

// How often fair dice do at least as well (or as badly): the exact chance
// that N dice of S sides total at least (or at most) what was rolled, from
// the server's exact odds. "1 in K" sessions like this one.
async function luck(row) {
  const n = row.faces.length;
  const total = row.faces.reduce((a, b) => a + b, 0);
  const mean = (n * (row.sides + 1)) / 2;
  const high = total >= mean;
  const expression = `${n}d${row.sides} ${high ? ">=" : "<="} ${total}`;
  const answer = await api("POST", `/api/rooms/${encodeURIComponent(current.room)}/odds`, current.seat.key, { expression });
  if (!answer.ok) return "—";
  const yes = answer.data.distribution.find((d) => d.value === 1)?.p ?? 0;
  if (yes >= 0.5) return "about average";
  const k = Math.round(1 / yes);
  return `${high ? "as lucky" : "as unlucky"} as 1 in ${k.toLocaleString()} sessions`;
}

async function showDicePanel() {
  const body = $("dice-panel-rows");
  const rows = [...tally.values()].filter((r) => r.faces.length > 0 && r.faces.length <= 2000);
  rows.sort((a, b) => a.name.localeCompare(b.name) || a.sides - b.sides);
  const out = [];
  for (const row of rows) {
    const tr = el("tr");
    const average = row.faces.reduce((a, b) => a + b, 0) / row.faces.length;
    tr.append(
      el("td", null, row.name),
      el("td", null, `d${row.sides}`),
      el("td", "num", String(row.faces.length)),
      el("td", "num", `${average.toFixed(2)} (fair: ${((row.sides + 1) / 2).toFixed(1)})`),
      el("td", null, await luck(row)),
    );
    out.push(tr);
  }
  body.replaceChildren(...out);
  $("dice-panel-empty").hidden = out.length > 0;
}

// ---------------------------------------------------------------- characters

// The sheets made at this table that this member may see (a GM sees all).
async function showSheets() {
  if (!current) return;
  const answer = await api("GET", `/api/rooms/${encodeURIComponent(current.room)}/sheets`, current.seat.key);
  if (!answer.ok) return;
  const items = answer.data.sheets.map((sheet) => {
    const item = el("li");
    const details = el("details");
    details.append(el("summary", null, `${sheet.name} (made by ${sheet.owner}, roll #${sheet.seq}${sheet.advances ? `, advanced ${sheet.advances} time(s)` : ""})`));
    for (const line of sheet.rolled ?? []) details.append(el("div", "meta", line));
    details.append(el("pre", null, sheet.sheet));
    if (current.seat.role === "gm" || sheet.roller === me?.id) details.append(advanceForm(sheet));
    item.append(details);
    return item;
  });
  $("sheets").replaceChildren(...items);
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
    const body = { client_seed: clientSeed(), commitment: commitmentNow };
    const adventure = form.querySelector(`#${id("adventure")}`).value;
    if (adventure) { body.adventure = adventure; body.role = form.querySelector(`#${id("role")}`).value; }
    const checks = list(form.querySelector(`#${id("check")}`).value);
    if (checks.length) body.check = checks;
    const passed = form.querySelector(`#${id("years")}`).value;
    if (passed !== "" && Number(passed) > 0) body.years = Number(passed);
    const spend = list(form.querySelector(`#${id("spend")}`).value);
    if (spend.length) body.spend = spend;
    button.disabled = true;
    const answer = await api("POST", `/api/rooms/${encodeURIComponent(current.room)}/sheets/${sheet.seq}/advance`, current.seat.key, body);
    button.disabled = false;
    error.hidden = answer.ok;
    if (!answer.ok) { setError(error, errorText(answer).replace(/; /g, "\n")); return; }
    const entries = (answer.data.entries ?? []).map((entry) => el("li", null, `${entry.change}${entry.roll ? ` [${entry.roll}]` : ""}`));
    const ledger = el("ul", "ledger");
    ledger.append(...entries);
    result.replaceChildren(ledger, el("div", "meta", `${answer.data.cps ?? 0} CP(s) unspent at age ${answer.data.age ?? ""}`));
    // The sheet's new version (the list keeps this item's result in view).
    const pre = form.parentElement.querySelector("pre");
    if (pre && answer.data.sheet) pre.textContent = answer.data.sheet;
  });
  return form;
}

// ---------------------------------------------------------------- the guided character form

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
  if (!current) return;
  const serial = ++checkSerial;
  const answer = await api("POST", `/api/rooms/${encodeURIComponent(current.room)}/sheets/check`, current.seat.key, {
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
  if (!current) return;
  const answer = await api("POST", `/api/rooms/${encodeURIComponent(current.room)}/sheets`, current.seat.key, {
    choices: $("choices").value,
    client_seed: clientSeed(), commitment: commitmentNow,
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

// ---------------------------------------------------------------- fights on a map

// Every fight this page has seen, by id: its sides, the map as it is now
// (the rows as the fight began, doors opened and closed by the log's
// lines), the state after the latest step and that step's lines. The view
// shows the latest fight; every member's page follows it as the steps are
// announced.
const fights = new Map();
let shownFight = null;

function squareXY(name) {
  const m = /^([A-Z]+)(\d+)$/.exec(name ?? "");
  if (!m) return null;
  let x = 0;
  for (const c of m[1]) x = x * 26 + (c.charCodeAt(0) - 64);
  return { x: x - 1, y: Number(m[2]) - 1 };
}

function columnName(x) {
  let name = "";
  for (let n = x + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

function setSquare(rows, square, ch) {
  const at = squareXY(square);
  if (!at || !rows[at.y]) return;
  const row = [...rows[at.y]];
  row[at.x] = ch;
  rows[at.y] = row.join("");
}

function fightStarted(event) {
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
  });
  shownFight = event.seq;
  // Everyone at the table sees a fight as it starts; a fight of the history
  // a reload replays is drawn, but its panel stays closed until opened.
  if (event.seq > historyUpTo) $("fights").open = true;
  drawFight();
}

function fightStepped(event) {
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
  const lines = (result.lines ?? []).map((line) => ({ step, text: line.text }));
  if (!lines.length) lines.push({ step, text: `Turn ${result.state?.turn}, round ${result.state?.round}: nothing to log.` });
  fight.lines.push(...lines);
  fight.step = step;
  fight.over = Boolean(result.over);
  fight.ending = result.ending ?? null;
  if (shownFight === fight.id) drawFight();
}

const SVG = "http://www.w3.org/2000/svg";
function svgEl(tag, attrs, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs ?? {})) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

const CELL = { "#": "wall", ".": "floor", "+": "door", "/": "open-door", H: "ladder" };
const TURN = { north: 0, east: 90, south: 180, west: 270 };

// The map as an SVG: a square a unit, column letters and row numbers
// around it, every combatant a token (its side's colour and initial, a
// yellow arrow to the side it faces, a health bar; the fallen grey and
// crossed out).
function mapPicture(fight) {
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

function drawFight() {
  const fight = fights.get(shownFight);
  $("fight-view").hidden = !fight;
  if (!fight) return;
  $("fight-title").textContent = `Fight #${fight.id}: ${fight.sides.join(" against ")}${fight.map ? ` on ${fight.map.name}` : " (on a line)"}`;
  const mayStep = current && (current.seat.role === "gm" || me?.id === fight.starter);
  document.querySelector(".fight-controls").hidden = !mayStep || fight.over;
  $("fight-map-view").replaceChildren(fight.map ? mapPicture(fight) : el("p", "quiet", "No map: the sides stand on a line (see the squares apart below)."));
  const state = fight.state ?? {};
  const clock = fight.step === 0 ? "Before the first round" : `Step ${fight.step}: turn ${state.turn}, round ${state.round}${state.acting ? ` (${state.acting} acting)` : ""}`;
  $("fight-clock").textContent = fight.over ? `${clock}. Over: ${fight.ending?.winner ? `${fight.ending.winner} wins` : "a draw"} (${fight.ending?.reason ?? ""})` : clock;
  // The whole log so far, the latest step's lines marked and in view.
  const log = $("fight-log");
  log.replaceChildren(...fight.lines.map((line) => el("li", line.step === fight.step ? "latest" : null, line.text)));
  log.scrollTop = log.scrollHeight;
  $("fight-roster").replaceChildren(...(state.combatants ?? []).map((c) => {
    const where = c.square ? `${c.square}, facing ${c.facing}` : `square ${c.position}`;
    const item = el("li", c.state !== "standing" ? "fallen" : null, `${c.name} (${c.side}): ${c.chp}/${c.thp} HP, ${c.state}, ${where}${c.action ? `, ${c.action}` : ""}`);
    item.dataset.name = c.name;
    return item;
  }));
}

async function stepFight(rounds) {
  if (!current || shownFight === null) return;
  const body = { client_seed: clientSeed(), commitment: commitmentNow };
  if (rounds) body.rounds = rounds;
  for (const id of ["fight-step", "fight-end"]) $(id).disabled = true;
  const answer = await api("POST", `/api/rooms/${encodeURIComponent(current.room)}/fights/${shownFight}/step`, current.seat.key, body);
  for (const id of ["fight-step", "fight-end"]) $(id).disabled = false;
  const error = $("fight-error");
  error.hidden = answer.ok;
  if (!answer.ok) setError(error, errorText(answer));
}

async function startFight(e) {
  e.preventDefault();
  if (!current) return;
  const body = { a: $("fight-a").value, b: $("fight-b").value, distance: Number($("fight-distance").value) || 1 };
  if ($("fight-map").value.trim() !== "") body.map = $("fight-map").value;
  const answer = await api("POST", `/api/rooms/${encodeURIComponent(current.room)}/fights`, current.seat.key, body);
  const error = $("fight-error");
  error.hidden = answer.ok;
  if (!answer.ok) { setError(error, errorText(answer)); return; }
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

async function simulateFights() {
  if (!current) return;
  const setting = { a: $("fight-a").value, b: $("fight-b").value, distance: Number($("fight-distance").value) || 1 };
  if ($("fight-map").value.trim() !== "") setting.map = $("fight-map").value;
  const words = new Uint32Array(2);
  crypto.getRandomValues(words);
  const seed = (words[0] % 2 ** 21) * 2 ** 32 + words[1]; // a safe integer
  const box = $("simulation");
  box.hidden = false;
  box.dataset.seed = String(seed);
  $("simulation-chart").replaceChildren();
  $("simulate").disabled = true;
  const counts = { wins: [0, 0], draw: 0, trials: 0, sides: [] };
  const error = $("fight-error");
  error.hidden = true;
  for (let first = 0; first < SIM_TRIALS; first += SIM_BATCH) {
    const answer = await api("POST", `/api/rooms/${encodeURIComponent(current.room)}/simulate`, current.seat.key, { ...setting, seed, first, trials: SIM_BATCH });
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

let scenarios = [];
function useScenario() {
  const chosen = scenarios[Number($("fight-example").value)];
  if (!chosen) return;
  $("fight-a").value = chosen.a;
  $("fight-b").value = chosen.b;
  $("fight-map").value = chosen.map ?? "";
  $("fight-distance").value = chosen.distance ?? 1;
}

async function loadScenarios() {
  const response = await fetch("/web/scenarios.json");
  if (!response.ok) return;
  scenarios = await response.json();
  $("fight-example").replaceChildren(...scenarios.map((s, i) => { const o = el("option", null, s.name); o.value = String(i); return o; }));
  useScenario();
}

// The room's sheets as choices for either side (a sheet is a combatant).
let fightSheets = [];
async function loadFightSheets() {
  if (!current) return;
  const answer = await api("GET", `/api/rooms/${encodeURIComponent(current.room)}/sheets`, current.seat.key);
  if (!answer.ok) return;
  fightSheets = answer.data.sheets ?? [];
  for (const id of ["fight-sheet-a", "fight-sheet-b"]) {
    const options = [el("option", null, "or a sheet of this table…")];
    options[0].value = "";
    fightSheets.forEach((sheet, i) => { const o = el("option", null, `${sheet.name} (by ${sheet.owner})`); o.value = String(i); options.push(o); });
    $(id).replaceChildren(...options);
  }
}

for (const [select, area] of [["fight-sheet-a", "fight-a"], ["fight-sheet-b", "fight-b"]]) {
  $(select).addEventListener("change", () => {
    const sheet = fightSheets[Number($(select).value)];
    if ($(select).value !== "" && sheet) $(area).value = sheet.sheet;
  });
}
$("fight-example").addEventListener("change", useScenario);
$("simulate").addEventListener("click", simulateFights);
$("fight-form").addEventListener("submit", startFight);
$("fight-step").addEventListener("click", () => stepFight(null));
$("fight-end").addEventListener("click", () => stepFight("end"));
$("fights").addEventListener("toggle", () => { if ($("fights").open) loadFightSheets(); });
loadScenarios();

// ---------------------------------------------------------------- forms

$("create-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const answer = await api("POST", "/api/rooms", null, { name: $("create-name").value });
  if (!answer.ok) { $("who").textContent = errorText(answer); return; }
  const room = answer.data.room;
  const seat = { key: answer.data.gm_key, role: "gm", invite: answer.data.invite };
  seats.add(room, seat);
  history.replaceState(null, "", `#room=${encodeURIComponent(room)}`);
  enterRoom(room, seat);
});

$("join-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  const { room, invite } = hashParams();
  const answer = await api("POST", `/api/rooms/${encodeURIComponent(room)}/join`, null, { invite, name: $("join-name").value });
  if (!answer.ok) { $("who").textContent = errorText(answer); return; }
  const seat = { key: answer.data.player_key, role: "player" };
  seats.add(room, seat);
  history.replaceState(null, "", `#room=${encodeURIComponent(room)}`);
  enterRoom(room, seat);
});

$("roll-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  if (!current) return;
  const expression = $("expression").value;
  const answer = await api("POST", `/api/rooms/${encodeURIComponent(current.room)}/rolls`, current.seat.key, {
    expression,
    client_seed: clientSeed(), commitment: commitmentNow,
    secret: $("secret").checked,
  });
  const error = $("roll-error");
  if (!answer.ok) {
    // The server's message carries the expression and a caret under the bad character.
    setError(error, errorText(answer).replace(/^error: /, ""));
    return;
  }
  error.hidden = true;
  $("expression").select();
});

$("verify").addEventListener("click", verifyNow);
$("sheet-form").addEventListener("submit", makeSheet);
$("characters").addEventListener("toggle", () => { if ($("characters").open) showSheets(); });
$("dice-panel").addEventListener("toggle", () => { if ($("dice-panel").open) showDicePanel(); });
$("rules-kind").addEventListener("change", rulesFields);
$("rules-set").addEventListener("change", rulesFields);
$("rules-form").addEventListener("submit", rollRules);
rulesFields();

// Revealing cannot be undone: the button asks first.
$("reveal").addEventListener("click", () => {
  $("reveal-confirm").hidden = false;
  $("reveal").hidden = true;
  $("reveal-no").focus();
});
$("reveal-no").addEventListener("click", () => {
  $("reveal-confirm").hidden = true;
  $("reveal").hidden = false;
  $("reveal").focus();
});
$("reveal-yes").addEventListener("click", async () => {
  if (!current) return;
  $("reveal-confirm").hidden = true;
  $("reveal").hidden = false;
  const answer = await api("POST", `/api/rooms/${encodeURIComponent(current.room)}/reveal`, current.seat.key);
  if (!answer.ok) $("who").textContent = errorText(answer);
});

// ---------------------------------------------------------------- start

function start() {
  const { room, invite, key, table } = hashParams();
  if (room && key) {
    // A seat link (another device of the same member): keep the key (and a
    // GM's invite), drop them from the address bar.
    const seat = { key, role: null };
    if (invite) seat.invite = invite;
    seats.add(room, seat);
    seats.use(room, key);
    history.replaceState(null, "", `#room=${encodeURIComponent(room)}`);
  }
  const seat = room && seats.get(room);
  if (seat) return enterRoom(room, seat);
  if (room && invite) {
    $("join-table").textContent = table ? `Join the table “${table}”` : "Join the table";
    show("join");
    $("join-name").focus();
    return;
  }
  // A room's address without a seat in this browser: say what to ask for.
  $("no-seat").hidden = !room;
  show("start");
}

window.addEventListener("hashchange", () => location.reload());
start();
