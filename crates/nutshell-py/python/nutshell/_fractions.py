"""Exact fractions from the engine's integers."""

from __future__ import annotations

from fractions import Fraction
from typing import Tuple


def lowest(pair: Tuple[int, int]) -> Fraction:
    """A Fraction from ``(n, d)`` that the engine already put in lowest
    terms (d > 0): built without a second gcd, since the engine reduces
    without one (by the small primes its denominators are made of).

    >>> lowest((1, 36))
    Fraction(1, 36)
    >>> lowest((0, 1)) == 0
    True
    """
    n, d = pair
    f = object.__new__(Fraction)
    f._numerator = n  # type: ignore[attr-defined]
    f._denominator = d  # type: ignore[attr-defined]
    return f


def probability_text(p: Fraction) -> str:
    """``p/q`` as the command line writes it (``0``, ``1``, whole numbers bare)."""
    return str(p.numerator) if p.denominator == 1 else f"{p.numerator}/{p.denominator}"


def percent(p: float, nonzero: bool = True) -> str:
    """A percentage with four decimals, as the command line's table shows."""
    if not nonzero or p == 0:
        return "0%"
    if p * 100 < 0.00005:
        return "<0.0001%"
    return f"{p * 100:.4f}%"
