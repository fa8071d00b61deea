"""Issue "The second hour": the Python module behaves as an icepool user
expects. Arithmetic and comparisons of distributions, their summaries, and
the conversion of icepool dice are checked against icepool (which computes
with Python integers, independently of the engine); the two paths of the
module (the engine's combined expression, and weights combined outcome by
outcome) are checked against each other."""

from __future__ import annotations

import operator
import pickle
import random
from fractions import Fraction
from typing import Callable, Dict, List, Tuple

import icepool
import pytest
from icepool import d4, d6, d8, d10, d20

import nutshell

from test_odds_icepool import icepool_fractions


def same(dist: nutshell.Distribution, die: "icepool.Die") -> None:
    ours = dict(dist.items())
    theirs = icepool_fractions(die)
    assert ours == theirs, (dist.expression, set(ours) ^ set(theirs))
    assert dist.tail == 0


# (nutshell expression, icepool die) operands, written as people write them.
OPERANDS: List[Tuple[str, Callable[[], "icepool.Die"]]] = [
    ("3d6", lambda: 3 @ d6),
    ("1d20", lambda: d20),
    ("2d4 - 1", lambda: 2 @ d4 - 1),
    ("4d6kh3", lambda: d6.highest(4, 3)),
    ("1d8 * 2", lambda: d8 * 2),
    ("-1d6", lambda: -d6),
    ("1d10 >= 6", lambda: (d10 >= 6).map(lambda x: int(x))),
]

OPERATORS: Dict[str, Callable] = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "//": operator.floordiv,
}


@pytest.mark.parametrize("op", sorted(OPERATORS))
def test_operators_between_distributions_equal_icepools(op: str) -> None:
    f = OPERATORS[op]
    rng = random.Random(37)
    pairs = [(a, b) for a in OPERANDS for b in OPERANDS]
    for (ta, ia), (tb, ib) in rng.sample(pairs, 14):
        if op == "//" and 0 in ib().outcomes():
            with pytest.raises(nutshell.DiceError):
                f(nutshell.odds(ta), nutshell.odds(tb))
            continue
        same(f(nutshell.odds(ta), nutshell.odds(tb)), f(ia(), ib()))


@pytest.mark.parametrize("op", sorted(OPERATORS))
def test_operators_with_ints_on_either_side_equal_icepools(op: str) -> None:
    f = OPERATORS[op]
    for text, die in OPERANDS[:4]:
        for n in (3, -2, 7):
            same(f(nutshell.odds(text), n), f(die(), n))
            if op != "//":
                same(f(n, nutshell.odds(text)), f(n, die()))


def test_the_result_is_odds_of_the_combined_expression() -> None:
    d, e = nutshell.odds("3d6"), nutshell.odds("2d6")
    assert d + e == nutshell.odds("3d6 + 2d6")
    assert (d + e).expression == "3d6 + 2d6"
    assert d - 2 == nutshell.odds("3d6 - 2")
    assert 2 * d == nutshell.odds("2 * 3d6")
    assert d * (e + 1) == nutshell.odds("3d6 * (2d6 + 1)")
    assert -(d - e) == nutshell.odds("-(3d6 - 2d6)")
    assert abs(e - d) == nutshell.odds("abs(2d6 - 3d6)")
    assert (d >= e) + 1 == nutshell.odds("(3d6 >= 2d6) + 1")
    # An exploding die: the same tail as the combined expression's.
    x = nutshell.odds("1d6!") + 2
    assert x == nutshell.odds("1d6! + 2")
    assert x.tail > 0
    # sum() and many terms stay within the limits.
    many = sum([nutshell.odds("1d6")] * 150)
    assert many.mean == Fraction(525)


def test_unary_minus_and_plus_equal_icepools() -> None:
    same(-nutshell.odds("4d6kh3"), -d6.highest(4, 3))
    same(+nutshell.odds("2d6"), 2 @ d6)
    same(-(-nutshell.odds("1d4")), d4)


@pytest.mark.parametrize("op", ["<", "<=", ">", ">="])
def test_comparisons_are_distributions_equal_to_icepools(op: str) -> None:
    f = getattr(operator, {"<": "lt", "<=": "le", ">": "gt", ">=": "ge"}[op])
    for (ta, ia), (tb, ib) in [(OPERANDS[0], OPERANDS[1]), (OPERANDS[3], OPERANDS[2])]:
        same(f(nutshell.odds(ta), nutshell.odds(tb)), f(ia(), ib()).map(lambda x: int(x)))
        same(f(nutshell.odds(ta), 11), f(ia(), 11).map(lambda x: int(x)))


def test_a_comparison_has_no_truth_value_as_in_icepool() -> None:
    d, e = nutshell.odds("3d6"), nutshell.odds("2d6")
    with pytest.raises(TypeError, match="no truth value"):
        bool(d >= 100)
    with pytest.raises(TypeError):
        bool(d6 >= 100)  # icepool's own
    with pytest.raises(TypeError, match="no truth value"):
        max(d, e)
    with pytest.raises(TypeError, match="no truth value"):
        if d:
            pass
    # Equality of distributions is still a plain answer.
    assert (d == nutshell.odds("3d6")) is True
    assert (d == e) is False


def test_median_and_mode_equal_icepools() -> None:
    for text, die in OPERANDS + [("1d4", lambda: d4), ("2d6", lambda: 2 @ d6), ("3d6 + 1d20", lambda: 3 @ d6 + d20)]:
        dist = nutshell.odds(text)
        assert dist.median() == die().median(), text
        assert dist.median_low() == die().median_low(), text
        assert dist.median_high() == die().median_high(), text
        assert dist.mode() == die().mode(), text
    assert isinstance(nutshell.odds("1d6").median(), Fraction)


def test_sample_is_reproducible_and_follows_the_distribution() -> None:
    d = nutshell.odds("2d6")
    draws = d.sample(36_000, seed=5)
    assert draws == d.sample(36_000, seed=5)
    assert draws != d.sample(36_000, seed=6)
    assert d.sample(0, seed=1) == []
    counts = {v: draws.count(v) for v in d}
    # A chi-square of 11 cells: 10 degrees of freedom, 99.9% below 29.59.
    chi2 = sum((counts[v] - 36_000 * float(p)) ** 2 / (36_000 * float(p)) for v, p in d.items())
    assert chi2 < 29.59, chi2
    with pytest.raises(ValueError, match="n is a whole number"):
        d.sample(-1)


def test_odds_takes_an_int_and_an_icepool_die_exactly() -> None:
    assert dict(nutshell.odds(5).items()) == {5: Fraction(1)}
    assert dict(nutshell.odds(-3).items()) == {-3: Fraction(1)}
    for die in [d6, 3 @ d6, d6.highest(4, 3), icepool.Die({1: 2, 5: 3, 10: 2}), d20 >= 11]:
        converted = nutshell.odds(die)
        same(converted, die.map(lambda x: int(x)))
        assert converted.expression is None
    # Weights whose denominator is prime, and large ones, stay exact.
    odd = icepool.Die({0: 1, 1: 10**30, 2: 7})
    assert nutshell.odds(odd)[1] == Fraction(10**30, 10**30 + 8)
    with pytest.raises(TypeError, match="not a whole number"):
        nutshell.odds(icepool.Die(["a", "b"]))
    with pytest.raises(TypeError, match="an icepool Die"):
        nutshell.odds(2.5)  # type: ignore[arg-type]


def test_a_converted_die_combines_by_its_weights_as_the_engine_would() -> None:
    # Two independent paths: outcome by outcome over weights, and the engine.
    for (ta, ia), (tb, ib) in [(OPERANDS[0], OPERANDS[3]), (OPERANDS[2], OPERANDS[4]), (OPERANDS[5], OPERANDS[1])]:
        for op, f in OPERATORS.items():
            if op == "//" and 0 in ib().outcomes():
                continue
            engine = f(nutshell.odds(ta), nutshell.odds(tb))
            by_weights = f(nutshell.odds(ia()), nutshell.odds(ib()))
            assert by_weights.expression is None
            assert dict(by_weights.items()) == dict(engine.items()), (ta, op, tb)
            # Mixed: a distribution with an icepool die on the right.
            assert dict(f(nutshell.odds(ta), ib()).items()) == dict(engine.items())
    same(nutshell.odds("3d6") + d6, 3 @ d6 + d6)
    same(-nutshell.odds(d6), -d6)
    same(abs(nutshell.odds(d6) - 4), abs(d6 - 4))
    same(nutshell.odds(d6) >= 4, (d6 >= 4).map(lambda x: int(x)))
    with pytest.raises(ZeroDivisionError):
        nutshell.odds(d6) // nutshell.odds(icepool.Die([0, 1]))
    # It survives pickling as its weights.
    w = nutshell.odds(icepool.Die({1: 2, 3: 1}))
    assert dict(pickle.loads(pickle.dumps(w)).items()) == dict(w.items())
    assert "given by its weights" in repr(w)


def test_expression_odds_and_roll_repeat() -> None:
    e = nutshell.Expression("4d6kh3")
    assert e.odds() == nutshell.odds("4d6kh3")
    same(e.odds(), d6.highest(4, 3))
    # The limits it was parsed with are kept.
    short = nutshell.Expression("1d6!", max_explosions=2).odds()
    assert short == nutshell.odds("1d6!", max_explosions=2)
    assert short != nutshell.odds("1d6!")
    assert short.tail == Fraction(1, 216)
    rolls = nutshell.roll("1d6", faces=[4, 1, 6], repeat=3)
    assert [r.total for r in rolls] == [4, 1, 6]
    seeded = nutshell.roll("2d20kh1", seed=9, repeat=50)
    assert [r.total for r in seeded] == [r.total for r in nutshell.Expression("2d20kh1").roll(seed=9, repeat=50)]
    assert len({r.total for r in seeded}) > 5
    assert isinstance(nutshell.roll("1d6", seed=1), nutshell.Roll)
    with pytest.raises(ValueError, match="repeat=0"):
        nutshell.roll("1d6", repeat=0)


def test_errors_name_keywords_not_flags() -> None:
    with pytest.raises(nutshell.LimitError) as e:
        nutshell.odds("1000d6kh500", max_work=10**6)
    assert "--" not in str(e.value), str(e.value)
    assert "roll(expression, repeat=n)" in str(e.value)
    with pytest.raises(nutshell.RuleError) as r:
        nutshell.check("fantasy", mod=5)
    assert "(dc=N)" in str(r.value), str(r.value)
    assert "--" not in str(r.value)


def test_ruleset_names_take_underscores_or_hyphens() -> None:
    for name in ("exploding_d6", "exploding-d6", "Exploding_D6"):
        result = nutshell.check(name, score=3, dc=6, seed=1)
        assert result.to_dict()["ruleset"] == "exploding-d6"
    assert nutshell.check("tiered_d20", skill=4, dc=14, odds=True).ruleset == "tiered-d20"
    with pytest.raises(nutshell.RuleError, match="unknown ruleset 'fantasi': one of fantasy"):
        nutshell.check("fantasi", mod=1, dc=10)
