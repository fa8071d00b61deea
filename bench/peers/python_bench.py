#!/usr/bin/env python3
"""nutshell's Python module next to icepool and d20, in one Python process.

    python bench/peers/python_bench.py            # with nutshell (a release wheel), icepool, d20 installed
    bench/peers/run python                        # builds the release wheel and the venv, then runs this

Exact odds: for each problem, the best of several `nutshell.odds(EXPR)` calls
(each computes the distribution afresh: only the parsed expression is
cached), then the same with every probability made a `fractions.Fraction`
(`dict(d.items())`), against one icepool computation of the same problem
(icepool caches its results, so only its first computation in a process is a
computation; a d3 warm-up before it pays its first-call costs). Every
distribution is checked against icepool's fraction by fraction (the exploding
problem as in README.md, "How results are checked").

Rolls: calls per second of `nutshell.roll("4d6kh3+2")` (parse cache, fresh
dice from the process's entropy-keyed ChaCha8, a `Roll` with its transcript)
and of `d20.roll("4d6kh3+2")` (its own parse cache, Mersenne Twister, its
result tree), best of five batches of about a second each; also the
parse-once forms, `Expression.roll()` and `d20.Roller.roll(ast)`.

Prints Markdown on stdout (the load average in the header); progress on stderr.
"""

from __future__ import annotations

import importlib.metadata
import os
import platform
import sys
import time
from fractions import Fraction

import d20
import icepool

import nutshell

SENTINEL = 10**6
# (nutshell expression, explosion depth, icepool die, icepool die with capped chains marked)
PROBLEMS = [
    ("100d6kh50", None, lambda: icepool.d6.highest(100, 50), None),
    ("200d6kh100", None, lambda: icepool.d6.highest(200, 100), None),
    ("500d6kh250", None, lambda: icepool.d6.highest(500, 250), None),
    (
        "10d10!kh5",
        9,
        lambda: icepool.d10.explode(depth=9).highest(10, 5),
        lambda: icepool.d10.explode(depth=9, end=SENTINEL).highest(10, 5),
    ),
]
GOALS = {"100d6kh50": 300, "500d6kh250": 1000}
ROLL = "4d6kh3+2"


def log(msg: str) -> None:
    print(f"[python_bench] {msg}", file=sys.stderr, flush=True)


def best_of(f, min_runs: int = 3, budget_s: float = 2.0, max_runs: int = 200) -> float:
    """The best time of `f()` in seconds: at least `min_runs` runs, more while
    they add up to less than `budget_s`."""
    times = []
    while len(times) < min_runs or (sum(times) < budget_s and len(times) < max_runs):
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
    return min(times)


def icepool_fractions(die) -> dict:
    total = die.denominator()
    return {int(o): Fraction(w, total) for o, w in die.items() if w}


def check(dist, expr: str, depth, plain_die, marked) -> str:
    ours = dict(dist.items())
    if marked is None:
        same = ours == icepool_fractions(plain_die) and dist.tail == 0
    else:
        # Capped chains land at SENTINEL or above in the marked run: below it
        # icepool equals nutshell's distribution, at and above it the tail.
        m = icepool_fractions(marked())
        below = {v: p for v, p in m.items() if v < SENTINEL}
        above = sum((p for v, p in m.items() if v >= SENTINEL), Fraction(0))
        same = ours == below and dist.tail == above
    return "yes" if same else "**no**"


def warm_up() -> None:
    d3 = icepool.d3
    for die in (3 @ d3, d3.highest(3, 2), d3.explode(depth=2), 3 @ (d3 >= 2)):
        list(die.items())
        die.denominator()
    nutshell.odds("3d3kh2")
    d20.roll("1d3")


def odds_section() -> None:
    print("## Exact odds, one process\n")
    print("| problem | nutshell.odds | + every Fraction | icepool (first computation) "
          "| icepool ÷ nutshell | goal | identical |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | --- |")
    for expr, depth, make, marked in PROBLEMS:
        kwargs = {} if depth is None else {"max_explosions": depth}
        log(f"odds {expr}: nutshell")
        dist = nutshell.odds(expr, **kwargs)
        t_odds = best_of(lambda: nutshell.odds(expr, **kwargs))
        t_frac = best_of(lambda: dict(nutshell.odds(expr, **kwargs).items()))
        log(f"odds {expr}: icepool (one computation)")
        start = time.perf_counter()
        die = make()
        list(die.items())
        die.denominator()
        t_ice = time.perf_counter() - start
        identical = check(dist, expr, depth, die, marked)
        goal = GOALS.get(expr)
        label = f"`{expr}`" + ("" if depth is None else f", ≤ {depth} explosions")
        print(f"| {label} | {t_odds * 1e3:.3f} ms | {t_frac * 1e3:.3f} ms | {t_ice * 1e3:,.0f} ms "
              f"| {t_ice / t_odds:,.0f}× | {f'≥ {goal}×' if goal else '—'} | {identical} |")


def rate(f, seconds: float = 1.0, batches: int = 5) -> float:
    """Best calls per second of `f` over `batches` batches of about `seconds`."""
    n = 1000
    while True:  # size a batch
        start = time.perf_counter()
        for _ in range(n):
            f()
        elapsed = time.perf_counter() - start
        if elapsed > seconds / 4:
            break
        n *= 4
    n = max(1, int(n * seconds / elapsed))
    best = 0.0
    for _ in range(batches):
        start = time.perf_counter()
        for _ in range(n):
            f()
        best = max(best, n / (time.perf_counter() - start))
    return best


def rolls_section() -> None:
    print(f"\n## Rolls of `{ROLL}`, one process\n")
    # The same dice: totals in range, means near 14.24 (checked, untimed).
    for name, f in (("nutshell", lambda: nutshell.roll(ROLL).total), ("d20", lambda: d20.roll(ROLL).total)):
        totals = [f() for _ in range(20000)]
        mean = sum(totals) / len(totals)
        assert all(5 <= t <= 20 for t in totals) and abs(mean - 14.2446) < 0.1, (name, mean)
    expression = nutshell.Expression(ROLL)
    roller, ast = d20.Roller(), d20.parse(ROLL)
    rows = [
        ("`nutshell.roll(\"4d6kh3+2\")`", lambda: nutshell.roll(ROLL)),
        ("`d20.roll(\"4d6kh3+2\")`", lambda: d20.roll(ROLL)),
        ("`Expression(\"4d6kh3+2\").roll()` (parsed once)", expression.roll),
        ("`d20.Roller().roll(ast)` (parsed once)", lambda: roller.roll(ast)),
        ("`nutshell.roll(\"4d6kh3+2\", seed=7)`", lambda: nutshell.roll(ROLL, seed=7)),
        ("`nutshell.roll(\"4d6kh3+2\").text` (with the text)", lambda: nutshell.roll(ROLL).text),
    ]
    print("| call | calls/s | µs a call |")
    print("| --- | ---: | ---: |")
    rates = {}
    for label, f in rows:
        log(f"rolls: {label}")
        r = rate(f)
        rates[label] = r
        print(f"| {label} | {r:,.0f} | {1e6 / r:.2f} |")
    n, d = rates[rows[0][0]], rates[rows[1][0]]
    print(f"\nnutshell.roll ÷ d20.roll: {n / d:.1f}× the calls per second; "
          f"{1e6 / n:.2f} µs a call (goal: under 5 µs).")


def main() -> int:
    load = os.getloadavg()
    print("# nutshell for Python vs icepool and d20\n")
    print(f"- date: {time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())}")
    print(f"- nutshell {nutshell.__version__} (module from a release wheel), "
          f"icepool {importlib.metadata.version('icepool')}, d20 {importlib.metadata.version('d20')}")
    print(f"- Python {platform.python_version()} ({platform.python_implementation()}), "
          f"{os.cpu_count()} cores, {platform.machine()}")
    print(f"- load average at start: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}\n")
    warm_up()
    odds_section()
    rolls_section()
    load = os.getloadavg()
    print(f"\n- load average at the end: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
