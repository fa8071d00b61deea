// app.js: the page's entry and the room. It owns the seats this browser
// holds (localStorage), creating, joining and entering a room, switching
// seats, the room's event stream (every event goes to the feed), the log's
// head, the GM's reveal, and the start from the address's `#room=...`.
// The other parts of the page are modules of their own, each named after
// what it shows: feed.js (the room's events), rolls.js (the roll form, a
// roll's odds, the dice panel), checks.js (checks and contests of the
// rulesets), characters.js (MLS sheets), fights.js and map.js (MLS fights
// and their battle map), verify.js (checking the log in the browser);
// shared.js holds what they all use.

import { $, api, el, errorText, showWho, table } from "./shared.js";
import { addEvent, seen } from "./feed.js";
import { verifyNow } from "./verify.js";
import "./rolls.js";
import "./checks.js";
import "./characters.js";
import "./fights.js";

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

function show(section) {
  for (const id of ["start", "join", "table"]) $(id).hidden = id !== section;
}

// ---------------------------------------------------------------- the room

async function enterRoom(room, seat) {
  const answer = await api("GET", `/api/rooms/${encodeURIComponent(room)}`, seat.key);
  if (!answer.ok) {
    if (answer.status === 401 || answer.status === 403) seats.forget(room, seat.key);
    show("start");
    $("who").textContent = `Could not enter the room: ${errorText(answer)}`;
    return;
  }
  const info = answer.data;
  table.historyUpTo = info.last_seq ?? -1;
  // A seat taken from a link (#room=...&key=...) learns its role here.
  seat.role = info.you.role;
  seat.name = info.you.name;
  seats.add(room, seat);
  seats.use(room, seat.key);
  table.current = { room, seat };
  showSeats(room, seat);
  showHead(room, info.last_seq, info.last_hash);
  table.commitment = info.commitment;
  $("room-name").textContent = `· ${info.name}`;
  table.me = info.you;
  table.members = info.members.map((m) => m.name);
  showWho();
  for (const node of document.querySelectorAll(".gm-only")) node.hidden = seat.role !== "gm";
  // Links carry what they need after the `#`, which a browser never sends
  // to the server: the invite and the table's name (shown on the join page)
  // for players; the key, and for a GM the invite, for the member's other
  // device (the server keeps only hashes: the invite cannot be asked for
  // again).
  const tableName = `&table=${encodeURIComponent(info.name)}`;
  if (seat.role === "gm" && seat.invite) {
    const link = `${location.origin}/#room=${encodeURIComponent(room)}&invite=${encodeURIComponent(seat.invite)}${tableName}`;
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
  if (!table.current) return;
  seats.use(table.current.room, $("seat-switch").value);
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
    if (event.kind === "reveal" && event.body?.commitment && event.seq > (table.commitmentSeq ?? 0)) {
      table.commitment = event.body.commitment;
      table.commitmentSeq = event.seq;
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
  if (!table.current) return;
  $("reveal-confirm").hidden = true;
  $("reveal").hidden = false;
  const answer = await api("POST", `/api/rooms/${encodeURIComponent(table.current.room)}/reveal`, table.current.seat.key);
  if (!answer.ok) $("who").textContent = errorText(answer);
});

// ---------------------------------------------------------------- start

function start() {
  const { room, invite, key, table: tableName } = hashParams();
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
    $("join-table").textContent = tableName ? `Join the table “${tableName}”` : "Join the table";
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
