#!/usr/bin/env node
// Roll throughput of @dice-roller/rpg-dice-roller, for bench/peers/run.
//
//     node bench/peers/rpg_roll.mjs EXPR SECONDS
//
// EXPR is written in nutshell's notation and mapped to rpg-dice-roller's own
// notation by the table below (only expressions whose semantics are known to
// match are accepted). Prints one JSON line in the same shape as nutshell's
// `throughput` example.
//
// API: `new DiceRoll(notation)` parses once (Parser.parse) and rolls; each
// further `diceRoll.roll()` rolls the stored parsed expressions again, with no
// re-parse, and `diceRoll.total` sums the fresh results. Each roll builds the
// full result objects (every die, with its modifier flags), the counterpart of
// nutshell's transcript. Dice come from the library's default engine
// (`Math.random`, unseeded). Node start-up, import, parse and the checks below
// (which also warm up the JIT) are not timed.
//
// The package is loaded from `.peers/node` (set up by bench/peers/run), or from
// the folder named by $PEERS_NODE_DIR.

import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const nodeDir = process.env.PEERS_NODE_DIR ?? resolve(here, '../../.peers/node');
const require = createRequire(join(nodeDir, 'package.json'));
const pkgJson = require.resolve('@dice-roller/rpg-dice-roller/package.json');
const { DiceRoll } = await import(pathToFileURL(join(dirname(pkgJson), 'lib/esm/bundle.js')).href);

// nutshell notation -> [rpg-dice-roller notation, lowest, highest, expected mean].
// `!` explodes on the highest face: each 6 rolls again and the new die is added
// (and explodes again) — nutshell's `10d6!`. rpg-dice-roller stops a die after
// 1000 explosions, nutshell after 100: far beyond anything reached in practice.
const NOTATION = {
  '4d6kh3+2': ['4d6kh3+2', 5, 20, 12.2446 + 2], // mean of 4d6kh3 = 15869/1296
  '10d6!': ['10d6!', 10, Infinity, 42.0], // mean of one exploding d6 = 3.5 / (5/6)
};

const BATCH = 1024;

const [expr, secondsArg] = process.argv.slice(2);
if (expr === undefined || secondsArg === undefined) {
  console.error('usage: rpg_roll.mjs EXPR SECONDS');
  process.exit(2);
}
if (!(expr in NOTATION)) {
  console.error(`no rpg-dice-roller notation known for ${expr}; known: ${Object.keys(NOTATION).join(', ')}`);
  process.exit(2);
}
const [notation, lowest, highest, mean] = NOTATION[expr];
const budgetMs = Number(secondsArg) * 1000;

const diceRoll = new DiceRoll(notation); // parse once (and a first roll)
const roll = () => {
  diceRoll.roll();
  return diceRoll.total;
};

// Check the semantics on 10,000 rolls (also warms up): range, and the mean
// (within ~6 standard errors), which tells exploding dice from plain ones.
let sum = 0;
for (let i = 0; i < 10000; i++) {
  const t = roll();
  if (!Number.isInteger(t) || t < lowest || t > highest) {
    console.error(`rpg-dice-roller ${notation}: total out of range: ${t}`);
    process.exit(1);
  }
  sum += t;
}
if (Math.abs(sum / 10000 - mean) > 0.6) {
  console.error(`rpg-dice-roller ${notation}: mean ${(sum / 10000).toFixed(3)}, expected ${mean.toFixed(3)}`);
  process.exit(1);
}

let rolls = 0;
let checksum = 0;
let elapsedMs;
const start = performance.now();
for (;;) {
  for (let i = 0; i < BATCH; i++) checksum += roll();
  rolls += BATCH;
  elapsedMs = performance.now() - start;
  if (elapsedMs >= budgetMs) break;
}
const seconds = elapsedMs / 1000;

console.log(JSON.stringify({
  tool: 'rpg-dice-roller',
  expression: expr,
  rolls,
  seconds: Number(seconds.toFixed(6)),
  rolls_per_second: Number((rolls / seconds).toFixed(1)),
  checksum,
}));
