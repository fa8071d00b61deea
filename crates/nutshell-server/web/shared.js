// shared.js: what every part of the web table uses. The page is a view of
// nutshell serve's JSON API and event stream: everything here is possible
// with curl (docs/server.md). Text from the server is always set with
// textContent, never parsed as HTML. This module owns the page's state in
// the room (`table`), the API call, error boxes, client seeds and the
// small DOM and SVG helpers; it imports nothing.

// Where this page is: the room and seat in use, who this member is, the
// members by name, and the commitment of the epoch in play as this page
// last saw it (the room's view, then each reveal's next commitment): it is
// sent with every roll, so a reveal that happens while a request is on its
// way refuses it (409 `epoch_changed`) instead of rolling it with the next
// epoch's seed. `historyUpTo` is the room's last event when the page
// entered it: what the stream replays up to it is history, shown but not
// announced.
export const table = {
  current: null, // { room, seat }
  me: null, // { id, name, role }
  members: [], // names, in the order they joined
  commitment: undefined,
  commitmentSeq: undefined,
  historyUpTo: Infinity,
};

export const $ = (id) => document.getElementById(id);
export const loadedAt = Date.now();

export async function api(method, path, key, body) {
  const headers = { "content-type": "application/json" };
  if (key) headers.authorization = `Bearer ${key}`;
  const response = await fetch(path, { method, headers, body: body ? JSON.stringify(body) : undefined });
  let data = null;
  try { data = await response.json(); } catch { /* no body */ }
  // A reveal's answer names the next epoch's commitment: rolls go there now.
  if (response.ok && path.endsWith("/reveal") && data?.next_epoch !== undefined) table.commitment = data.commitment;
  return { ok: response.ok, status: response.status, data };
}

export function errorText(answer) {
  return answer.data?.error?.message ?? `the server answered ${answer.status}`;
}

// An error in its box: the message wraps to the screen; lines that are
// quoted text (the expression with a caret under the bad character, a
// file's line and its marker: lines that start with spaces or a `|`
// gutter) keep their columns in a box of their own that scrolls sideways.
export function setError(node, text) {
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

// A fresh client seed for every roll and action: 32 random bytes from the
// browser, so the dice depend on something the server learns only with
// the request (see docs/server.md, "Fair dice").
export function clientSeed() {
  const bytes = new Uint8Array(32);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

export function el(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

export function time(ms) {
  return new Date(ms).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

export const SVG = "http://www.w3.org/2000/svg";
export function svgEl(tag, attrs, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs ?? {})) node.setAttribute(k, String(v));
  if (text !== undefined) node.textContent = text;
  return node;
}

// "You are Ann (a player)", or for the GM "You are the GM" (and their name
// when they gave another than "GM"), and who else is here.
export function showWho() {
  const me = table.me;
  if (!me) return;
  const gm = me.role === "gm";
  const you = gm ? (/^(the )?gm$/i.test(me.name.trim()) ? "the GM" : `${me.name} (the GM)`) : `${me.name} (a player)`;
  $("who").textContent = `You are ${you}. Members: ${table.members.join(", ")}.`;
}

// The room's path in the API, for the room in use.
export const roomPath = () => `/api/rooms/${encodeURIComponent(table.current.room)}`;
