// rolls.js: rolling dice at the table. It owns the roll form (an
// expression, secret for the GM), a roll's odds drawn under it (the exact
// distribution from the server, the rolled total marked) and the dice
// panel ("are they fair?": every face this page has seen, by member and
// die, with the exact odds of such a run).

import { $, api, clientSeed, el, errorText, setError, table } from "./shared.js";

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

export async function showOdds(item, expression, total) {
  const old = item.querySelector(".chart");
  if (old) { old.remove(); return; }
  const box = el("div", "chart");
  item.append(box);
  const answer = await api("POST", `/api/rooms/${encodeURIComponent(table.current.room)}/odds`, table.current.seat.key, { expression });
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

// Every face this page has seen, by member and die: "these dice are
// rigged" answered with the exact odds of such a run of faces.
const tally = new Map(); // "name\u0000d20" -> { name, sides, faces: [] }

export function countFaces(event) {
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
  const answer = await api("POST", `/api/rooms/${encodeURIComponent(table.current.room)}/odds`, table.current.seat.key, { expression });
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

$("roll-form").addEventListener("submit", async (e) => {
  e.preventDefault();
  if (!table.current) return;
  const expression = $("expression").value;
  const answer = await api("POST", `/api/rooms/${encodeURIComponent(table.current.room)}/rolls`, table.current.seat.key, {
    expression,
    client_seed: clientSeed(), commitment: table.commitment,
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

$("dice-panel").addEventListener("toggle", () => { if ($("dice-panel").open) showDicePanel(); });
