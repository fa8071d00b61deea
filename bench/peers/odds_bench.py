#!/usr/bin/env python3
"""The `odds` section of bench/peers/run: exact distributions, nutshell vs icepool and dyce.

    .peers/venv/bin/python bench/peers/odds_bench.py --timing ODDS_TIMING --cli NUTSHELL --python VENV_PY --out JSONL

Runs everything one process at a time and prints two Markdown tables on stdout
(problems, then scaling); progress goes to stderr, raw JSON lines to JSONL.
See README.md beside this file for what is measured and how results are checked.

Environment:
  ODDS_TIMEOUT   seconds before a peer process is killed and reported "timeout" (default 120)
  ODDS_REPEATS   fresh peer processes per problem, best time kept (default 3)
  ODDS_WHOLE_REPEATS, ODDS_WHOLE_BUDGET_S
                 whole-process runs of `nutshell odds --json` per problem, best kept: at
                 most this many (default 30), and no more once they add up to this many
                 seconds (default 2)
  ODDS_LONG_S    a peer run longer than this is not repeated (default 10)
  ODDS_DYCE      0 to skip dyce (default 1)
  ODDS_SCALING   0 to skip the scaling table (default 1)
  ODDS_BIG_WORK  --max-work for the CLI fallback when odds_timing refuses a problem as
                 over nutshell's default work limit (default 10^12; 0 = no fallback)
"""

import time

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections import defaultdict
from fractions import Fraction
from pathlib import Path

HERE = Path(__file__).resolve().parent
PEER = HERE / "odds_peer.py"

TIMEOUT = float(os.environ.get("ODDS_TIMEOUT", "120"))
REPEATS = int(os.environ.get("ODDS_REPEATS", "3"))
# A whole process of a few milliseconds varies with the scheduler: best of many.
WHOLE_REPEATS = int(os.environ.get("ODDS_WHOLE_REPEATS", "30"))
WHOLE_BUDGET_S = float(os.environ.get("ODDS_WHOLE_BUDGET_S", "2"))
LONG_MS = float(os.environ.get("ODDS_LONG_S", "10")) * 1e3
WITH_DYCE = os.environ.get("ODDS_DYCE", "1") != "0"
WITH_SCALING = os.environ.get("ODDS_SCALING", "1") != "0"
BIG_WORK = int(float(os.environ.get("ODDS_BIG_WORK", "1e12")))

# (nutshell expression, explosion limit or None, label). Order of the issue.
PROBLEMS = [
    ("3d6", None, "`3d6`"),
    ("4d6kh3", None, "`4d6kh3`"),
    ("2d20kh1", None, "`2d20kh1`"),
    ("10d10kh3", None, "`10d10kh3`"),
    ("20d6kh10", None, "`20d6kh10`"),
    ("100d6", None, "`100d6`"),
    ("100d6kh50", None, "`100d6kh50`"),
    ("200d6kh100", None, "`200d6kh100`"),
    ("500d6kh250", None, "`500d6kh250`"),
    ("1d6!", 10, "`1d6!`, ≤ 10 explosions"),
    ("5d6=6 >= 3", None, "`5d6=6 >= 3`"),
    ("1000d6", None, "`1000d6`"),
    ("8d10>=7", None, "`8d10>=7`"),
    ("50d20kh10", None, "`50d20kh10`"),
    ("10d10!kh5", 9, "`10d10!kh5`, ≤ 9 explosions"),
]
SCALING_NS = [10, 20, 50, 100, 200, 500, 1000]

OUT = None  # the JSONL file


def log(msg):
    print(f"[bench/peers] odds: {msg}", file=sys.stderr, flush=True)


def record(obj):
    OUT.write(json.dumps(obj, separators=(",", ":"), ensure_ascii=False) + "\n")
    OUT.flush()


def explosion_args(depth):
    return [] if depth is None else ["--max-explosions", str(depth)]


# ---------------------------------------------------------------- running


def run_nutshell(args, expr, depth, section):
    """odds_timing's line; if it refuses the problem as over the default max_work, the
    wall time of one `nutshell odds --json --max-work BIG_WORK` instead (status "cli"),
    whose distribution is kept for the check."""
    p = subprocess.run([args.timing, *explosion_args(depth), expr], capture_output=True, text=True)
    if p.returncode == 0:
        r = json.loads(p.stdout.strip().splitlines()[-1])
        r.update(section=section, max_explosions=depth, status="ok")
        record(r)
        return r
    if "TooMuchWork" not in p.stderr:
        raise SystemExit(f"odds_timing {expr} failed: {p.stderr.strip()}")
    r = {"tool": "nutshell", "expression": expr, "section": section, "max_explosions": depth,
         "status": "over max_work", "best_ms": None, "error": "TooMuchWork (odds_timing, default limits)"}
    if BIG_WORK:
        log(f"{expr}: over nutshell's default max_work; timing the CLI with --max-work {BIG_WORK:.0e} instead")
        cmd = [args.cli, "odds", expr, "--json", "--max-work", str(BIG_WORK), *explosion_args(depth)]
        start = time.perf_counter()
        q = subprocess.run(cmd, capture_output=True, text=True)
        wall = (time.perf_counter() - start) * 1e3
        if q.returncode == 0:
            r.update(status="cli", best_ms=round(wall, 1), runs=1, max_work=BIG_WORK)
            r["_distribution"] = json.loads(q.stdout)
        else:
            r["error"] += f"; CLI with --max-work {BIG_WORK}: {q.stderr.strip()}"
    record({k: v for k, v in r.items() if not k.startswith("_")})
    return r


def run_whole(args, expr, depth, section):
    """Whole-process time of `nutshell odds EXPR --json`: start-up, computation,
    reduced fractions and output (best of WHOLE_REPEATS runs or of those that fit
    in WHOLE_BUDGET_S, one run if it is long)."""
    times = []
    for _ in range(WHOLE_REPEATS):
        if times and sum(times) > WHOLE_BUDGET_S * 1e3:
            break
        cmd = [args.cli, "odds", expr, "--json", *explosion_args(depth)]
        start = time.perf_counter()
        q = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        wall = (time.perf_counter() - start) * 1e3
        if q.returncode != 0:
            record({"tool": "nutshell-cli", "section": section, "expression": expr, "max_explosions": depth,
                    "status": "fail", "error": q.stderr.strip()})
            return None
        times.append(wall)
        if wall > LONG_MS:
            break
    # To the microsecond: a ratio against a ~1 ms process needs more than 0.1 ms.
    best = round(min(times), 3)
    record({"tool": "nutshell-cli", "section": section, "expression": expr, "max_explosions": depth,
            "status": "ok", "best_ms": best, "all_ms": [round(t, 3) for t in times]})
    return best


def nutshell_distribution(args, expr, depth):
    p = subprocess.run([args.cli, "odds", expr, "--json", *explosion_args(depth)], capture_output=True, text=True)
    if p.returncode != 0:
        return None, p.stderr.strip()
    return json.loads(p.stdout), None


def run_peer(args, tool, expr, depth, dump, section, extra=()):
    """Up to REPEATS fresh processes; the first also dumps its distribution. Best time."""
    times, code, status, error = [], None, "ok", None
    for i in range(REPEATS):
        cmd = [args.python, str(PEER), tool, expr, *explosion_args(depth), *extra]
        if i == 0:
            cmd += ["--dump", dump]
        try:
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT)
            out, err, rc = p.stdout, p.stderr, p.returncode
        except subprocess.TimeoutExpired as e:
            out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
            err, rc = "", None
            if not out.strip():  # killed before the distribution was done
                status, error = "timeout", f"no result within {TIMEOUT:.0f} s"
                break
            # timed part done, only the (untimed) dump was cut short
            dump = None
        if rc == 3:
            status, error = "n/a", err.strip()
            break
        if rc not in (0, None):
            lines = [l for l in err.strip().splitlines() if l.strip()]
            status, error = "fail", (lines[-1] if lines else f"exit {rc}")
            break
        r = json.loads(out.strip().splitlines()[-1])
        code = r["code"]
        times.append(r["ms"])
        if r["ms"] > LONG_MS:
            break
    if status == "ok" and not times:
        status = "fail"
    res = {
        "tool": tool,
        "section": section,
        "expression": expr,
        "max_explosions": depth,
        "code": code,
        "status": status,
        "best_ms": min(times) if times else None,
        "all_ms": times,
        "error": error,
    }
    if extra:
        res["extra_args"] = list(extra)
    record(res)
    return res


# ---------------------------------------------------------------- checking


def load_dump(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def as_fractions(outcomes, denominator):
    return {v: Fraction(c, denominator) for v, c in outcomes}


def first_difference(ours, theirs):
    for v in sorted(set(ours) | set(theirs)):
        a, b = ours.get(v, Fraction(0)), theirs.get(v, Fraction(0))
        if a != b:
            return f"first difference at {v}: nutshell {a} vs {b}"
    return None


def check(nut, peer_dump, depth, reference=None):
    """(identical?, how) for one peer's dumped distribution against nutshell's CLI output.

    Plain problems: same outcomes, same exact probabilities, nutshell's tail 0.
    Exploding problems: the peer folds chains that reach the depth limit into its
    distribution; nutshell leaves them out and reports their mass as `tail`. With
    icepool's sentinel computation (end=SENTINEL) both parts are matched exactly;
    for a peer without it, the peer must equal icepool's (already checked) result.
    """
    ours = {d["value"]: Fraction(d["probability"]) for d in nut["distribution"]}
    tail = Fraction(nut["tail"])
    theirs = as_fractions(peer_dump["outcomes"], peer_dump["denominator"])
    if depth is None:
        if tail != 0:
            return False, f"nutshell tail {tail} on a problem without one"
        diff = first_difference(ours, theirs)
        return (diff is None), diff or f"{len(ours)} outcomes, exact fractions"
    if "sentinel" in peer_dump:
        s = peer_dump["sentinel"]
        big = s["value"]
        marked = as_fractions(s["outcomes"], s["denominator"])
        plain = {t: p for t, p in marked.items() if t < big}
        capped = sum((p for t, p in marked.items() if t >= big), Fraction(0))
        folded = defaultdict(Fraction)
        for t, p in marked.items():
            folded[t % big] += p
        diff = first_difference(ours, plain)
        if diff:
            return False, f"rolls without a capped chain: {diff}"
        if capped != tail:
            return False, f"capped-chain mass {capped} vs nutshell tail {tail}"
        diff = first_difference(dict(folded), theirs)
        if diff:
            return False, f"sentinel run does not fold back to the timed one: {diff}"
        top = max(theirs)
        extra = f"; top outcome {top} = tail" if theirs[top] == tail and top not in ours else ""
        return True, f"{len(ours)} outcomes exact; capped chains' mass = tail (sentinel){extra}"
    if reference is not None:
        ref = as_fractions(reference["outcomes"], reference["denominator"])
        diff = first_difference(ref, theirs)
        return (diff is None), (f"= icepool's, all {len(ref)} outcomes" if diff is None else f"vs icepool: {diff}")
    return None, "not checked"


def mean_prefix_ok(timing, nut):
    m = timing["mean"]
    return nut["mean"].startswith(m[:-1]) if m.endswith("…") else nut["mean"] == m


# ---------------------------------------------------------------- formatting


def fmt_ms(x):
    if x is None:
        return "—"
    if x >= 100:
        return f"{x:,.0f}"
    return f"{x:.3g}"


CLI_MARK = "†"


def fmt_nutshell(r):
    if r["status"] == "ok":
        return fmt_ms(r["best_ms"])
    if r["status"] == "cli":
        return fmt_ms(r["best_ms"]) + " " + CLI_MARK
    return "over max_work"


CLI_NOTE = (f"{CLI_MARK} over nutshell's default work limit (`max_work` = 4·10⁹ steps), which `odds_timing` "
            "keeps: the time is one wall-clock run of `nutshell odds EXPR --json --max-work "
            f"{BIG_WORK:.0e}` (process start, computation, reduced fractions, JSON output).")


def fmt_peer(r):
    if r is None:
        return "—"
    if r["status"] == "ok":
        return fmt_ms(r["best_ms"])
    if r["status"] == "n/a":
        return "n/a"
    if r["status"] == "timeout":
        return f"timeout (> {TIMEOUT:.0f} s)"
    err = r["error"] or ""
    return f"fail ({err.split(':')[0]})" if err else "fail"


def ratio(a, b):
    if a is None or b is None or b == 0:
        return "—"
    r = a / b
    return f"{r:.1f}×" if r < 10 else f"{r:,.0f}×"


def peer_ms(r):
    return r["best_ms"] if r and r["status"] == "ok" else None


# ---------------------------------------------------------------- sections


def problem(args, tmp, expr, depth, section="problems", tools=None):
    tools = tools or (["icepool", "dyce"] if WITH_DYCE else ["icepool"])
    log(f"{expr}{'' if depth is None else f' (≤ {depth} explosions)'}: nutshell")
    timing = run_nutshell(args, expr, depth, section)
    timing["whole_ms"] = run_whole(args, expr, depth, section)
    peers, checks = {}, {}
    for tool in tools:
        log(f"{expr}: {tool} (fresh processes, up to {REPEATS}, timeout {TIMEOUT:.0f} s)")
        dump = str(tmp / f"{tool}.json")
        if os.path.exists(dump):
            os.remove(dump)
        peers[tool] = run_peer(args, tool, expr, depth, dump, section)
    if "_distribution" in timing:
        nut, err = timing["_distribution"], None
    else:
        nut, err = nutshell_distribution(args, expr, depth)
    icepool_dump = load_dump(str(tmp / "icepool.json")) if peers.get("icepool", {}).get("status") == "ok" else None
    for tool, r in peers.items():
        if r["status"] != "ok":
            continue
        d = load_dump(str(tmp / f"{tool}.json"))
        if nut is None:
            checks[tool] = (False, f"nutshell odds failed: {err}")
        elif d is None:
            checks[tool] = (None, "not checked (no dump)")
        else:
            checks[tool] = check(nut, d, depth, icepool_dump if tool != "icepool" else None)
        record({"tool": "check", "section": section, "expression": expr, "max_explosions": depth,
                "peer": tool, "identical": checks[tool][0], "detail": checks[tool][1]})
    if nut is not None and "mean" in timing and not mean_prefix_ok(timing, nut):
        checks["odds_timing"] = (False, f"odds_timing mean {timing['mean']} ≠ CLI mean {nut['mean'][:60]}")
    return timing, peers, checks


def identical_cell(checks):
    if not checks:
        return "not checked (no peer result)"
    verdicts = [v for v, _ in checks.values()]
    if any(v is False for v in verdicts):
        word = "**no**"
    elif all(v is True for v in verdicts):
        word = "yes"
    else:
        word = "partly"
    parts = []
    details = {}
    for tool, (v, how) in checks.items():
        details.setdefault(how, []).append(tool)
    for how, tools in details.items():
        parts.append(f"{', '.join(tools)}: {how}")
    return f"{word} ({'; '.join(parts)})"


def section_problems(args, tmp):
    print("| problem | nutshell ms (library) | nutshell ms (whole process) | icepool ms | dyce ms "
          "| icepool ÷ nutshell (library) | icepool ÷ nutshell (whole process) | results identical |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    notes = []
    used_cli = False
    for expr, depth, label in PROBLEMS:
        timing, peers, checks = problem(args, tmp, expr, depth)
        ice, dy = peers.get("icepool"), peers.get("dyce")
        used_cli = used_cli or timing["status"] == "cli"
        print(f"| {label} | {fmt_nutshell(timing)} | {fmt_ms(timing.get('whole_ms'))} | {fmt_peer(ice)} "
              f"| {fmt_peer(dy)} | {ratio(peer_ms(ice), timing['best_ms'])} "
              f"| {ratio(peer_ms(ice), timing.get('whole_ms'))} | {identical_cell(checks)} |", flush=True)
        if ice and ice["status"] == "fail" and "RecursionError" in (ice["error"] or ""):
            log(f"{expr}: icepool again with sys.setrecursionlimit(100000)")
            again = run_peer(args, "icepool", expr, depth, str(tmp / "icepool-rec.json"), "problems-recursion",
                             extra=("--recursion-limit", "100000"))
            note = f"icepool fails on {label} with `{ice['error']}` at Python's default recursion limit"
            if again["status"] == "ok":
                note += (f"; with `sys.setrecursionlimit(100000)` it takes {fmt_ms(again['best_ms'])} ms "
                         f"({ratio(again['best_ms'], timing['best_ms'])} nutshell)")
            else:
                note += f"; with `sys.setrecursionlimit(100000)`: {fmt_peer(again)}"
            notes.append(note + ".")
    if used_cli:
        notes.append(CLI_NOTE)
    for n in notes:
        print()
        print(n)


def section_scaling(args, tmp):
    print("| dice N | `Nd6` nutshell ms (library) | `Nd6` nutshell ms (whole process) | `Nd6` icepool ms "
          "| icepool ÷ nutshell (library) | icepool ÷ nutshell (whole process) "
          "| `Nd6kh(N/2)` nutshell ms (library) | `Nd6kh(N/2)` nutshell ms (whole process) "
          "| `Nd6kh(N/2)` icepool ms | icepool ÷ nutshell (library) | icepool ÷ nutshell (whole process) "
          "| results identical |")
    print("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    given_up = {"sum": None, "keep": None}
    used_cli = skipped = False
    for n in SCALING_NS:
        cells, all_checks = [], {}
        for kind, expr in (("sum", f"{n}d6"), ("keep", f"{n}d6kh{n // 2}")):
            if given_up[kind] is None:
                timing, peers, checks = problem(args, tmp, expr, None, "scaling", tools=["icepool"])
                ice = peers["icepool"]
                if ice["status"] != "ok":
                    given_up[kind] = n
                whole = timing.get("whole_ms")
                cells += [fmt_nutshell(timing), fmt_ms(whole), fmt_peer(ice),
                          ratio(peer_ms(ice), timing["best_ms"]), ratio(peer_ms(ice), whole)]
                for tool, c in checks.items():
                    all_checks[f"{expr} {tool}"] = c
            else:
                log(f"{expr}: nutshell (icepool skipped: gave up at N = {given_up[kind]})")
                timing = run_nutshell(args, expr, None, "scaling")
                timing["whole_ms"] = run_whole(args, expr, None, "scaling")
                cells += [fmt_nutshell(timing), fmt_ms(timing["whole_ms"]), "skipped", "—", "—"]
                skipped = True
                timing.pop("_distribution", None)
            used_cli = used_cli or timing["status"] == "cli"
        verdicts = [v for v, _ in all_checks.values()]
        if not verdicts:
            cell = "not checked (no icepool result)"
        elif any(v is False for v in verdicts):
            cell = "**no**: " + "; ".join(f"{k}: {how}" for k, (v, how) in all_checks.items() if v is False)
        else:
            cell = "yes (" + ", ".join(f"`{k.split()[0]}`" for k in all_checks) + ")"
        print(f"| {n} | " + " | ".join(cells) + f" | {cell} |", flush=True)
    if skipped:
        print()
        print("skipped: icepool is not run on larger N once it failed or timed out on a smaller one.")
    if used_cli:
        print()
        print(CLI_NOTE)


def main():
    global OUT
    ap = argparse.ArgumentParser()
    ap.add_argument("--timing", required=True)
    ap.add_argument("--cli", required=True)
    ap.add_argument("--python", required=True)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    sys.set_int_max_str_digits(0)
    with open(args.out, "w") as OUT, tempfile.TemporaryDirectory(prefix="nutshell-odds-") as tmp:
        tmp = Path(tmp)
        print(f"Exact distributions; peers in a fresh process per problem (best of up to {REPEATS}, "
              f"one run if it takes over {LONG_MS / 1e3:.0f} s, killed after {TIMEOUT:.0f} s); "
              f"nutshell best of ≥ 3 in-process runs. Times in milliseconds.")
        print()
        section_problems(args, tmp)
        if WITH_SCALING:
            print()
            print("### Scaling")
            print()
            section_scaling(args, tmp)
    log(f"JSON lines in {args.out}")


if __name__ == "__main__":
    main()
