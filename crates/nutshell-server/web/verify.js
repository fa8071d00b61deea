// verify.js: checking the room's log in this browser: every body against
// its hash, every event chained to the one before, every revealed seed
// against its commitment; the marks this leaves on the feed's rolls. The
// dice themselves are recomputed by `nutshell verify`, not here.

import { $, el, table } from "./shared.js";
import { seen } from "./feed.js";

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

export async function verifyNow() {
  if (!table.current) return;
  const out = $("verified");
  out.className = "";
  out.textContent = "checking…";
  let report;
  try {
    report = await verifyLog(table.current.room, table.current.seat.key);
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
    // Exactly what this browser checked, and what it did not: the dice are
    // recomputed by `nutshell verify` on the downloaded log.
    if (report.revealed.has(event.epoch)) {
      rolls += 1;
      mark.textContent = "✓ checked in this browser: the roll is chained in the log, and its epoch's revealed seed matches the commitment published before it. The dice are not recomputed here: download the log and run nutshell verify room.jsonl.";
    } else {
      mark.textContent = "✓ checked in this browser: the roll is chained in the log. Its dice become checkable (nutshell verify) when the GM reveals this epoch's seed.";
    }
  }
  out.textContent = `✓ Checked in this browser: ${report.events.length} events chained, the seeds of ${report.revealed.size} revealed epoch(s) match their commitments (${rolls} rolls). The dice themselves are recomputed by nutshell verify on the downloaded log (below).`;
}

$("verify").addEventListener("click", verifyNow);
