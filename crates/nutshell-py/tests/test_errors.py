"""Errors and limits: every bad input is a Python exception that says what
and where; limits are explicit keyword arguments."""

from __future__ import annotations

import threading
import time

import pytest

import nutshell
from nutshell import mls


def test_notation_errors_point_at_the_character() -> None:
    with pytest.raises(nutshell.NotationError) as info:
        nutshell.roll("4d6+")
    e = info.value
    assert isinstance(e, ValueError) and isinstance(e, nutshell.NutshellError)
    assert e.position == 4 and e.column == 5 and e.expression == "4d6+"
    lines = str(e).splitlines()
    assert lines[0].startswith("error: ") and lines[1].strip() == "4d6+"
    assert lines[2].index("^") == lines[1].index("4") + 4
    with pytest.raises(nutshell.NotationError) as info:
        nutshell.odds("3d6z")
    assert info.value.position == 3 and "z" in info.value.message


@pytest.mark.parametrize("call,limit", [
    (lambda: nutshell.roll("20d6", max_dice=10), "max_dice"),
    (lambda: nutshell.roll("1d6" * 1 + "+1" * 100, max_length=50), "max_length"),
    (lambda: nutshell.roll("((((1d6))))", max_nesting=2), "max_nesting"),
    (lambda: nutshell.odds("1000d6kh500", max_work=10**6), "max_work"),
    (lambda: nutshell.odds("1d1000000 + 1d1000000", max_outcomes=1000), "max_outcomes"),
    (lambda: nutshell.roll("1d2!! + 1d6", max_dice=3, faces=[2, 2, 2, 2, 1]), "max_dice"),
])
def test_limits_raise_limit_errors_naming_the_limit(call, limit: str) -> None:
    with pytest.raises(nutshell.LimitError) as info:
        call()
    assert info.value.limit == limit
    assert info.value.position is not None
    assert info.value.message in str(info.value)


def test_raising_a_limit_lets_the_computation_through() -> None:
    assert nutshell.roll("20d6", max_dice=20, seed=1).total >= 20
    assert len(nutshell.odds("200d6kh100", max_work=10**10)) > 0


def test_dice_errors() -> None:
    with pytest.raises(nutshell.DiceError, match="ran out of faces"):
        nutshell.roll("3d6", faces=[1, 2])
    with pytest.raises(nutshell.DiceError, match="not on a d6"):
        nutshell.roll("1d6", faces=[7])
    with pytest.raises(nutshell.DiceError) as info:
        nutshell.roll("1d6 / (1d2 - 1d2)", faces=[3, 1, 1])
    assert "division by zero" in str(info.value) and info.value.position is not None
    with pytest.raises(nutshell.DiceError, match="some rolls"):
        nutshell.odds("1d6 / (1d2 - 1)")
    with pytest.warns(UserWarning, match="1 of the faces given was not used"):
        nutshell.roll("1d6", faces=[1, 2])
    with pytest.raises(ValueError, match="seed and faces"):
        nutshell.roll("1d6", seed=1, faces=[1])
    with pytest.raises(ValueError, match="not a whole number"):
        nutshell.roll("1d6", faces="1,x")


def test_rule_errors() -> None:
    with pytest.raises(nutshell.RuleError, match="skill"):
        nutshell.check("fantasy", skill=3, dc=10)
    with pytest.raises(nutshell.RuleError, match="dc"):
        nutshell.check("exploding-d6", score=3)
    with pytest.raises(nutshell.RuleError, match="no contests|contest"):
        nutshell.contest("fantasy", mod=1)
    with pytest.raises(nutshell.RuleError, match="^unknown ruleset 'no-such-ruleset': one of fantasy, mls"):
        nutshell.check("no-such-ruleset", skill=3)
    with pytest.raises(nutshell.RuleError, match="option `skill`: invalid type"):
        nutshell.check("mls", skill="x")
    with pytest.raises(nutshell.RuleError, match="option `mod`"):
        nutshell.check("mls", skill=3, mod=[1, "a"])
    with pytest.raises(nutshell.RuleError, match="then"):
        nutshell.check("tiered-d20", skill=3, dc=10, then=["x:y"])
    with pytest.raises(nutshell.RuleError, match="line"):
        mls.Fight("name = 'x'\nthp = [\n", "name = 'y'\n")
    with pytest.raises(nutshell.RuleError, match="cannot read"):
        mls.Fight("no/such/side.toml", "no/such/other.toml")
    with pytest.raises(nutshell.RuleError, match="surprised"):
        mls.Fight("a.toml", "b.toml", surprised="c")


def test_bad_limits_and_tails_are_refused() -> None:
    with pytest.raises(ValueError, match="max_nesting"):
        nutshell.roll("1d6", max_nesting=0)
    with pytest.raises(ValueError, match="tail"):
        nutshell.odds("1d6!", tail=2)
    with pytest.raises(OverflowError):
        nutshell.roll("1d6", max_dice=-1)


def test_long_computations_release_the_gil() -> None:
    """While one thread computes exact odds, another runs Python code: it
    would be held up for the whole computation if the GIL were held."""
    ticks = []
    stop = threading.Event()

    def ticker() -> None:
        while not stop.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.001)

    t = threading.Thread(target=ticker)
    t.start()
    try:
        started = time.perf_counter()
        nutshell.odds("1000d6kh500")
        finished = time.perf_counter()
    finally:
        stop.set()
        t.join()
    if finished - started < 0.02:
        pytest.skip("the computation was too quick here to tell")
    during = [x for x in ticks if started < x < finished]
    # The ticker ran during the computation: it could not if the GIL were held.
    assert len(during) >= 2
