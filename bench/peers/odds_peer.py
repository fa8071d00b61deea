#!/usr/bin/env python3
"""Exact-distribution timing of icepool or dyce for one problem, for bench/peers/run odds.

    .peers/venv/bin/python bench/peers/odds_peer.py TOOL EXPR [--max-explosions N] [--dump FILE]
                                                    [--recursion-limit N]

TOOL is `icepool` or `dyce`. EXPR is written in nutshell's notation and mapped to the
tool's own API by the table below (or, for the plain forms `NdX` and `NdXkhK`, by a
fixed rule); any other expression is refused (exit 3, "n/a"). Prints one JSON line:
{"tool","expression","max_explosions","code","ms","outcomes"}.

One process computes one distribution once: icepool memoizes dice operations and
evaluator results, and a second computation of the same problem in the same process
would be a cache hit. The timed span covers constructing the dice and forcing the
whole exact distribution: every (outcome, count) pair plus the common denominator,
which is also what nutshell's `Distribution` holds (counts over one denominator, not
reduced fractions). Before it, an untimed warm-up computes a few tiny problems on a
d3 (a sum, a keep-highest, an explosion, a count), so that first-call costs (lazy
imports, dispatch tables) are not charged to the problem; it shares no cache entry
with any problem here, which never uses a d3.

--dump FILE writes the distribution (untimed, after the timing) as JSON
{"denominator": D, "outcomes": [[value, count], ...]}, booleans as 0/1, and for
exploding problems also "sentinel": the same problem computed again with every chain
that reaches the depth limit marked (see SENTINEL), which lets the harness line up
icepool's capped chains with nutshell's tail exactly.
"""

import json
import re
import sys
import time
import warnings

# Far above any total in these problems. icepool's `end=SENTINEL` adds it to a chain
# that reaches the depth limit on a maximum face (the place where the timed
# computation simply stops), so a total T of the sentinel computation says how many
# such capped chains were kept (T // SENTINEL), and T % SENTINEL is the total the
# timed computation gives that same roll.
SENTINEL = 10**6


def icepool_problems(depth):
    from icepool import d6, d10, d20

    return {
        "3d6": ("3 @ d6", lambda: 3 @ d6),
        "4d6kh3": ("d6.highest(4, 3)", lambda: d6.highest(4, 3)),
        "2d20kh1": ("d20.highest(2, 1)", lambda: d20.highest(2, 1)),
        "5d6=6 >= 3": ("(5 @ (d6 == 6)) >= 3", lambda: (5 @ (d6 == 6)) >= 3),
        "8d10>=7": ("8 @ (d10 >= 7)", lambda: 8 @ (d10 >= 7)),
        "1d6!": (f"d6.explode(depth={depth})", lambda: d6.explode(depth=depth)),
        "10d10!kh5": (
            f"d10.explode(depth={depth}).highest(10, 5)",
            lambda: d10.explode(depth=depth).highest(10, 5),
        ),
    }


def icepool_sentinel(expr, depth):
    from icepool import d6, d10

    if expr == "1d6!":
        return d6.explode(depth=depth, end=SENTINEL)
    if expr == "10d10!kh5":
        return d10.explode(depth=depth, end=SENTINEL).highest(10, 5)
    return None


def icepool_plain(n, x, k):
    import icepool

    if k is None:
        return f"{n} @ d{x}", lambda: n @ icepool.d(x)
    return f"d{x}.highest({n}, {k})", lambda: icepool.d(x).highest(n, k)


def icepool_warmup():
    from icepool import d3

    for die in (3 @ d3, d3.highest(3, 2), d3.explode(depth=2), 3 @ (d3 >= 2), (2 @ (d3 == 3)) >= 1):
        list(die.items())
        die.denominator()


def icepool_force(die):
    return list(die.items()), die.denominator()


def dyce_problems(depth):
    from dyce import H, P, explode_n

    return {
        "3d6": ("3 @ H(6)", lambda: 3 @ H(6)),
        "4d6kh3": ("(4 @ P(6)).at(slice(-3, None))", lambda: (4 @ P(6)).at(slice(-3, None))),
        "2d20kh1": ("(2 @ P(20)).at(-1)", lambda: (2 @ P(20)).at(-1)),
        "5d6=6 >= 3": ("(5 @ H(6).eq(6)).ge(3)", lambda: (5 @ H(6).eq(6)).ge(3)),
        "8d10>=7": ("8 @ H(10).ge(7)", lambda: 8 @ H(10).ge(7)),
        "1d6!": (f"explode_n(H(6), n={depth})", lambda: explode_n(H(6), n=depth)),
        "10d10!kh5": (
            f"(10 @ P(explode_n(H(10), n={depth}))).at(slice(-5, None))",
            lambda: (10 @ P(explode_n(H(10), n=depth))).at(slice(-5, None)),
        ),
    }


def dyce_plain(n, x, k):
    from dyce import H, P

    if k is None:
        return f"{n} @ H({x})", lambda: n @ H(x)
    return f"({n} @ P({x})).at(slice(-{k}, None))", lambda: (n @ P(x)).at(slice(-k, None))


def dyce_warmup():
    from dyce import H, P, explode_n

    for h in ((3 @ P(3)).at(slice(-2, None)), 3 @ H(3), explode_n(H(3), n=2), 3 @ H(3).ge(2), (2 @ H(3).eq(3)).ge(1)):
        list(h.items())
        h.total


def dyce_force(h):
    return list(h.items()), h.total


PLAIN = re.compile(r"^(\d+)d(\d+)(?:kh(\d+))?$")
EXPLODING = {"1d6!", "10d10!kh5"}


def main() -> int:
    args = sys.argv[1:]
    dump = None
    depth = None
    if "--dump" in args:
        i = args.index("--dump")
        dump = args[i + 1]
        del args[i : i + 2]
    if "--recursion-limit" in args:  # only for the note on icepool's RecursionError
        i = args.index("--recursion-limit")
        sys.setrecursionlimit(int(args[i + 1]))
        del args[i : i + 2]
    if "--max-explosions" in args:
        i = args.index("--max-explosions")
        depth = int(args[i + 1])
        del args[i : i + 2]
    if len(args) != 2 or args[0] not in ("icepool", "dyce"):
        print("usage: odds_peer.py icepool|dyce EXPR [--max-explosions N] [--dump FILE]", file=sys.stderr)
        return 2
    tool, expr = args
    if (expr in EXPLODING) != (depth is not None):
        print(f"{expr}: --max-explosions is required for exploding dice and only for them", file=sys.stderr)
        return 2

    sys.set_int_max_str_digits(0)  # counts of 1000 dice run to hundreds of digits
    warnings.simplefilter("ignore")  # dyce's explode_n is "experimental" and says so on stderr
    if tool == "icepool":
        table, plain, warmup, force = icepool_problems, icepool_plain, icepool_warmup, icepool_force
    else:
        table, plain, warmup, force = dyce_problems, dyce_plain, dyce_warmup, dyce_force

    m = PLAIN.match(expr)
    if m:
        n, x, k = int(m[1]), int(m[2]), m[3] and int(m[3])
        code, build = plain(n, x, k)
    else:
        problems = table(depth)
        if expr not in problems:
            print(f"{tool}: no equivalent known for {expr}", file=sys.stderr)
            return 3
        code, build = problems[expr]

    warmup()
    start = time.perf_counter()
    items, denominator = force(build())
    ms = (time.perf_counter() - start) * 1e3

    print(json.dumps({
        "tool": tool,
        "expression": expr,
        "max_explosions": depth,
        "code": code,
        "ms": round(ms, 4),
        "outcomes": len(items),
    }, separators=(",", ":")), flush=True)

    if dump:
        out = {"denominator": denominator, "outcomes": [[int(v), c] for v, c in items]}
        if tool == "icepool" and expr in EXPLODING:
            s_items, s_den = force(icepool_sentinel(expr, depth))
            out["sentinel"] = {"value": SENTINEL, "denominator": s_den, "outcomes": [[int(v), c] for v, c in s_items]}
        with open(dump, "w") as f:
            json.dump(out, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
