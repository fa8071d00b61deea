#!/usr/bin/env python3
"""Roll throughput of d20 (Avrae's dice roller), for bench/peers/run.

    .peers/venv/bin/python bench/peers/d20_roll.py EXPR SECONDS

EXPR is written in nutshell's notation and mapped to d20's own notation by the
table below (only expressions whose semantics are known to match are accepted).
Prints one JSON line in the same shape as nutshell's `throughput` example.

API: `d20.Roller.parse(text)` once, then `Roller.roll(ast, stringifier=...)`
with the pre-parsed AST on every roll: no re-parse (d20 would otherwise look
the string up in its own LFU parse cache, also without re-parsing). Each roll
still builds d20's full result tree (every die, kept/dropped/exploded flags),
the counterpart of nutshell's transcript; the text rendering is lazy and is
not asked for. Dice come from Python's `random` (Mersenne Twister), seeded 1.
Interpreter start-up, import, parse and the checks below are not timed.
"""

import json
import random
import sys
import time

import d20

# nutshell notation -> (d20 notation, lowest total, expected mean).
# d20's `e6` is "explode on": every die showing 6 rolls one more die into the
# pool, and new 6s explode again (SetOperator.explode loops until no unexploded
# die matches); the total sums every kept die, so `10d6e6` is nutshell's `10d6!`.
# d20 stops a roll after 1000 dice (TooManyRolls), nutshell a die after 100
# explosions: both far beyond anything 10d6 reaches in practice.
NOTATION = {
    "4d6kh3+2": ("4d6kh3+2", 5, 12.2446 + 2),  # mean of 4d6kh3 = 15869/1296
    "10d6!": ("10d6e6", 10, 42.0),  # mean of one exploding d6 = 3.5 / (5/6)
}
HIGHEST = {"4d6kh3+2": 20, "10d6!": None}

BATCH = 256


def main() -> int:
    if len(sys.argv) != 3:
        print("usage: d20_roll.py EXPR SECONDS", file=sys.stderr)
        return 2
    expr, budget = sys.argv[1], float(sys.argv[2])
    if expr not in NOTATION:
        print(f"no d20 notation known for {expr}; known: {', '.join(NOTATION)}", file=sys.stderr)
        return 2
    notation, lowest, mean = NOTATION[expr]
    highest = HIGHEST[expr]

    random.seed(1)
    roller = d20.Roller()
    tree = roller.parse(notation)  # parse once
    stringifier = d20.SimpleStringifier()  # made once; only used if .result is read

    def roll() -> int:
        return roller.roll(tree, stringifier=stringifier).total

    # Check the semantics on 10,000 rolls (also warms up): range, and the mean
    # (within ~6 standard errors), which tells exploding dice from plain ones.
    checks = [roll() for _ in range(10_000)]
    bad = [t for t in checks if t < lowest or (highest is not None and t > highest)]
    if bad:
        print(f"d20 {notation}: totals out of range: {bad[:5]}", file=sys.stderr)
        return 1
    got = sum(checks) / len(checks)
    if abs(got - mean) > 0.6:
        print(f"d20 {notation}: mean {got:.3f}, expected {mean:.3f}", file=sys.stderr)
        return 1

    rolls = 0
    checksum = 0
    start = time.perf_counter()
    while True:
        for _ in range(BATCH):
            checksum += roll()
        rolls += BATCH
        elapsed = time.perf_counter() - start
        if elapsed >= budget:
            break

    print(json.dumps({
        "tool": "d20",
        "expression": expr,
        "rolls": rolls,
        "seconds": round(elapsed, 6),
        "rolls_per_second": round(rolls / elapsed, 1),
        "checksum": checksum,
    }, separators=(",", ":")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
