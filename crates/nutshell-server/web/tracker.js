// tracker.js: the turn tracker of the play view. One row a combatant, in
// the fight's order: its token's label in its side's colour, its name, its
// health (a bar and CHP/THP), its set action, who controls it, and where
// it stands in the turn: awaited now (this member's own marked "you"),
// acted this round (a line of the round so far begins with its name), of
// the side acting, or fallen. The GM's rows hold the hand-over (play.js
// makes the list of controllers). Nothing here computes a rule: every word
// comes from the server's `GET` of the fight as fights.js last drew it.

import { el } from "./shared.js";
import { sideNumbers, tokenLabel } from "./map.js";

function controllerWords(controller) {
  if (controller === "gm") return "the GM";
  if (controller === "engine") return "the engine";
  return controller?.name ?? (controller ? `member ${controller.member}` : "");
}

// Where a combatant stands in the turn, as a word for its row's
// `data-status` and its badge: "awaited", "acted", "acting" (its side
// acts), "fallen", or "" (waits for its side's turn).
function statusOf(c, fight, view, state) {
  if (c.state !== "standing") return "fallen";
  if (fight.over || view?.over) return "";
  if (view && !view.over && (view.waiting ?? []).some((w) => w.who === c.name)) return "awaited";
  const soFar = view && !view.over ? view.so_far ?? [] : [];
  if (soFar.some((line) => String(line.text ?? "").startsWith(`${c.name} `))) return "acted";
  if (state?.acting && state.acting === c.side) return "acting";
  return "";
}

const BADGE = { awaited: "awaited", acted: "acted", acting: "side acts", fallen: "fallen" };

// The rows of the tracker. `mine(controller)` says whether a controller is
// this member; `handOver(c, i)` (the GM's page only) makes the control
// that hands combatant `c` over.
export function trackerRows({ fight, view, state, mine, handOver }) {
  const combatants = state?.combatants ?? [];
  const numbers = sideNumbers(combatants);
  return combatants.map((c, i) => {
    const side = fight.sides.indexOf(c.side);
    const status = statusOf(c, fight, view, state);
    const controller = view?.controllers?.find((x) => x.name === c.name)?.controller;
    const yours = controller !== undefined && mine(controller);
    const row = el("li", `tracker-row${status ? ` ${status}` : ""}${yours ? " yours" : ""}`);
    row.dataset.name = c.name;
    row.dataset.status = status;
    const chip = el("span", `chip side-${side < 0 ? 0 : side}`, tokenLabel(c.name, numbers.get(c.name)));
    chip.setAttribute("aria-hidden", "true");
    const name = el("span", "tracker-name", c.name);
    const share = Math.max(0, Math.min(1, c.thp > 0 ? c.chp / c.thp : 0));
    const hp = el("span", "tracker-hp");
    hp.setAttribute("role", "meter");
    hp.setAttribute("aria-valuemin", "0");
    hp.setAttribute("aria-valuemax", String(c.thp));
    hp.setAttribute("aria-valuenow", String(c.chp));
    hp.setAttribute("aria-label", `${c.name}'s health`);
    const bar = el("span", "tracker-hp-bar");
    bar.style.width = `${Math.round(share * 100)}%`;
    hp.append(bar);
    const facts = el("span", "tracker-facts quiet", `${c.chp}/${c.thp} HP${c.action ? ` · ${c.action}` : ""}`);
    row.append(chip, name, hp, facts);
    if (status) row.append(el("span", `tracker-badge ${status}`, yours && status === "awaited" ? "awaited: you" : BADGE[status]));
    const hand = handOver && controller !== undefined ? handOver(view.controllers.find((x) => x.name === c.name), i) : null;
    if (hand) row.append(hand);
    else if (controller !== undefined) row.append(el("span", "tracker-by quiet", yours ? "you" : controllerWords(controller)));
    return row;
  });
}
