"""Exact odds equal icepool's, fraction by fraction (icepool is the model
for keep/drop; it computes with Python integers, independently of the
engine)."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Callable, Dict

import icepool
import pytest
from icepool import d4, d6, d8, d10, d12, d20

import nutshell

SENTINEL = 10**6


def icepool_fractions(die: "icepool.Die") -> Dict[int, Fraction]:
    """``die`` as {value: Fraction}, booleans as 0/1, zero weights left out."""
    total = die.denominator()
    out: Dict[int, Fraction] = {}
    for outcome, weight in die.items():
        if weight:
            v = int(outcome)
            out[v] = out.get(v, Fraction(0)) + Fraction(weight, total)
    return out


def assert_same(dist: nutshell.Distribution, expected: Dict[int, Fraction]) -> None:
    ours = dict(dist.items())
    assert set(ours) == set(expected), (dist.expression, set(ours) ^ set(expected))
    for v, p in expected.items():
        assert ours[v] == p, (dist.expression, v, ours[v], p)
    assert dist.tail == 0
    assert sum(ours.values()) == 1


# (nutshell expression, icepool die) for expressions without explosions.
PLAIN: Dict[str, Callable[[], "icepool.Die"]] = {
    "3d6": lambda: 3 @ d6,
    "1d20": lambda: d20,
    "2d6 + 1d8 - 3": lambda: 2 @ d6 + d8 - 3,
    "4d6kh3": lambda: d6.highest(4, 3),
    "4d6kl3": lambda: d6.lowest(4, 3),
    "2d20kh1": lambda: d20.highest(2, 1),
    "2d20kl1 + 5": lambda: d20.lowest(2, 1) + 5,
    "5d6dl2": lambda: d6.highest(5, 3),
    "5d8dh1": lambda: d8.lowest(5, 4),
    "10d10kh3": lambda: d10.highest(10, 3),
    "20d6kh10": lambda: d6.highest(20, 10),
    "6d12kl2 + 4d4kh1": lambda: d12.lowest(6, 2) + d4.highest(4, 1),
    "3d6 - 2d6": lambda: 3 @ d6 - 2 @ d6,
    "8d10>=7": lambda: 8 @ (d10 >= 7),
    "5d6=6 >= 3": lambda: (5 @ (d6 == 6)) >= 3,
    "3d6 >= 10": lambda: (3 @ d6) >= 10,
    "4d6kh3 + 2 > 14": lambda: (d6.highest(4, 3) + 2) > 14,
    "1d20 + 5 >= 15": lambda: (d20 + 5) >= 15,
    "(1d20 >= 11) + (1d20 >= 11)": lambda: (d20 >= 11).map(lambda x: int(x)) + (d20 >= 11).map(lambda x: int(x)),
    "2d6 * 3": lambda: (2 @ d6) * 3,
    "-1d4 + 5": lambda: -d4 + 5,
}


@pytest.mark.parametrize("expression", sorted(PLAIN))
def test_plain_expressions_equal_icepool(expression: str) -> None:
    assert_same(nutshell.odds(expression), icepool_fractions(PLAIN[expression]()))


# (nutshell expression, depth, icepool die with every capped chain marked by SENTINEL).
EXPLODING = {
    "1d6!": (10, lambda depth, end: d6.explode(depth=depth, end=end)),
    "1d8! + 3": (4, lambda depth, end: d8.explode(depth=depth, end=end) + 3),
    "3d6!": (3, lambda depth, end: 3 @ d6.explode(depth=depth, end=end)),
    "4d6!kh2": (2, lambda depth, end: d6.explode(depth=depth, end=end).highest(4, 2)),
    "10d10!kh5": (9, lambda depth, end: d10.explode(depth=depth, end=end).highest(10, 5)),
}


@pytest.mark.parametrize("expression", sorted(EXPLODING))
def test_explosions_with_a_depth_equal_icepool(expression: str) -> None:
    """With ``max_explosions=N`` and no tail threshold, the engine follows
    every chain of up to N explosions and reports the chains that would
    explode again as the tail. icepool's ``explode(depth=N)`` keeps such a
    chain's last die as it is; with ``end=SENTINEL`` those chains land at
    SENTINEL or above, so below it icepool equals the distribution and at
    and above it its mass equals the tail."""
    depth, make = EXPLODING[expression]
    dist = nutshell.odds(expression, max_explosions=depth, tail=0)
    marked = icepool_fractions(make(depth, SENTINEL))
    below = {v: p for v, p in marked.items() if v < SENTINEL}
    above = sum((p for v, p in marked.items() if v >= SENTINEL), Fraction(0))
    ours = dict(dist.items())
    assert ours == below
    assert dist.tail == above
    assert dist.tail > 0
    assert sum(ours.values()) + dist.tail == 1


def test_comparisons_give_the_distribution_of_the_comparison() -> None:
    d = nutshell.odds("3d6")
    for n in (3, 10, 11, 18, 19, -1):
        assert_same(d >= n, icepool_fractions((3 @ d6) >= n))
        assert_same(d > n, icepool_fractions((3 @ d6) > n))
        assert_same(d <= n, icepool_fractions((3 @ d6) <= n))
        assert_same(d < n, icepool_fractions((3 @ d6) < n))
        assert_same(d.eq(n), icepool_fractions((3 @ d6) == n))
        assert_same(d.ne(n), icepool_fractions((3 @ d6) != n))
    # Against another distribution: independent dice.
    assert_same(d > nutshell.odds("2d8"), icepool_fractions((3 @ d6) > (2 @ d8)))


def test_comparisons_of_exploding_dice_are_exact() -> None:
    """``3d6! >= 20`` has no tail: the engine follows explosions only until the
    total reaches 20. icepool agrees once its depth is deep enough that no
    capped chain stays below 20 (each 6 adds at least 1)."""
    d = nutshell.odds("3d6!")
    assert d.tail > 0
    at_least = d >= 20
    assert at_least.tail == 0
    expected = icepool_fractions((3 @ d6.explode(depth=20)) >= 20)
    assert_same(at_least, expected)
    assert d.at_least(20) == expected[1]
    assert d.at_most(19) == expected[0]


def test_moments_and_queries_agree_with_the_fractions() -> None:
    for expression in ("4d6kh3", "2d20kl1 + 5", "8d10>=7", "3d6 - 2d6"):
        d = nutshell.odds(expression)
        items = dict(d.items())
        mean = sum(v * p for v, p in items.items())
        assert d.mean == mean
        assert d.variance == sum(v * v * p for v, p in items.items()) - mean * mean
        assert abs(d.std_dev**2 - float(d.variance)) < 1e-9
        for n in range(min(d) - 1, max(d) + 2):
            assert d.at_least(n) == sum((p for v, p in items.items() if v >= n), Fraction(0))
            assert d.at_most(n) == sum((p for v, p in items.items() if v <= n), Fraction(0))
        for q in (Fraction(1, 100), Fraction(1, 4), Fraction(1, 2), Fraction(99, 100), 1):
            v = d.quantile(q)
            assert d.at_most(v) >= q and (v == min(d) or d.at_most(v - 1) < q)


def test_fractions_are_in_lowest_terms() -> None:
    d = nutshell.odds("10d10!kh5", max_explosions=9)
    for v, p in d.items():
        assert Fraction(p.numerator, p.denominator) == p
        assert p.denominator > 0 and Fraction(p.numerator, p.denominator).denominator == p.denominator


def test_mapping_behaviour() -> None:
    d = nutshell.odds("2d6")
    assert list(d) == list(range(2, 13))
    assert len(d) == 11 and 7 in d and 13 not in d and "7" not in d
    with pytest.raises(KeyError):
        d[13]
    assert d.get(13) is None and d.probability(13) == 0
    assert d == nutshell.odds("1d6 + 1d6") and d != nutshell.odds("2d6 + 0 * 1d4 + 1")
    assert dict(d) == d.to_fractions()
    with pytest.raises(TypeError):
        d[7] = Fraction(1)  # type: ignore[index]


def test_to_icepool_round_trips() -> None:
    d = nutshell.odds("4d6kh3")
    assert icepool_fractions(d.to_icepool()) == dict(d.items())
    exploding = nutshell.odds("1d6!", max_explosions=2, tail=0)
    with pytest.raises(ValueError, match="tail_outcome"):
        exploding.to_icepool()
    die = exploding.to_icepool(tail_outcome=18)
    assert icepool_fractions(die) == icepool_fractions(d6.explode(depth=2))


def random_expression(rng: random.Random):
    """An expression as people type them, with icepool's equivalent: terms
    ``NdX`` with an optional keep/drop, added or subtracted, a constant, and
    sometimes a comparison of the total."""
    text, die = "", None
    for k in range(rng.randint(1, 3)):
        n, x = rng.randint(1, 6), rng.choice([2, 3, 4, 6, 8, 10, 12, 20])
        base = icepool.d(x)
        mod = rng.choice(["", "kh", "kl", "dh", "dl"]) if n > 1 else ""
        if mod:
            m = rng.randint(1, n - 1)
            kept = {"kh": ("highest", m), "kl": ("lowest", m),
                    "dh": ("lowest", n - m), "dl": ("highest", n - m)}[mod]
            term_text, term = f"{n}d{x}{mod}{m}", getattr(base, kept[0])(n, kept[1])
        else:
            term_text, term = f"{n}d{x}", n @ base
        sign = rng.choice(["+", "-"]) if k else ""
        text += f" {sign} {term_text}" if k else term_text
        die = term if die is None else (die + term if sign == "+" else die - term)
    c = rng.randint(-3, 5)
    if c:
        text += f" + {c}" if c > 0 else f" - {-c}"
        die = die + c
    if rng.random() < 0.3:
        lo, hi = min(die.outcomes()), max(die.outcomes())
        t = rng.randint(lo, hi)
        op = rng.choice([">=", "<=", ">", "<"])
        text += f" {op} {t}"
        die = {">=": die >= t, "<=": die <= t, ">": die > t, "<": die < t}[op]
    return text, die


def test_generated_expressions_equal_icepool() -> None:
    """Expressions generated from a fixed seed (so a failure is reproducible),
    each checked fraction by fraction."""
    rng = random.Random(28)
    for _ in range(60):
        text, die = random_expression(rng)
        assert_same(nutshell.odds(text), icepool_fractions(die))


def test_distributions_pickle_to_the_same_distribution() -> None:
    import pickle

    for d in (nutshell.odds("4d6kh3"), nutshell.odds("2d10!", max_explosions=3, tail=0)):
        back = pickle.loads(pickle.dumps(d))
        assert back == d and back.tail == d.tail and back.expression == d.expression
