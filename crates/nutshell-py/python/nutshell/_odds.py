"""Exact odds: :func:`odds` and :class:`Distribution`."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from fractions import Fraction
from numbers import Rational
from typing import Any, Dict, ItemsView, Iterator, List, Optional, Union, ValuesView

from . import _nutshell
from ._fractions import lowest, percent, probability_text

__all__ = ["odds", "Distribution"]

#: Rows the plain-text table shows before it keeps only the most likely run.
TABLE_ROWS = 60
BAR_WIDTH = 30


def tail_digits(tail: float) -> int:
    """``tail=1e-12`` as 12 digits, as the command line reads ``--tail``: a
    threshold that is not a power of ten is rounded to the stricter one.

    >>> tail_digits(1e-12), tail_digits(5e-13), tail_digits(0)
    (12, 13, 0)
    """
    p = float(tail)
    if p == 0:
        return 0
    if not 0 < p < 1:
        raise ValueError(
            f"tail={tail!r}: the tail threshold is a probability between 0 and 1, "
            "such as 1e-12 (0 turns it off)"
        )
    digits = math.ceil(-math.log10(p) - 1e-9)
    if digits > 300:
        raise ValueError(f"tail={tail!r}: at most 1e-300")
    return digits


def odds(
    expression: str,
    *,
    tail: float = 1e-12,
    max_explosions: Optional[int] = None,
    max_work: Optional[int] = None,
    max_dice: Optional[int] = None,
    max_outcomes: Optional[int] = None,
    max_nesting: Optional[int] = None,
    max_length: Optional[int] = None,
) -> "Distribution":
    """The exact distribution of a dice expression.

    Explosions are followed until the probability left out (the ``tail``,
    reported exactly) is below ``tail``, and never past ``max_explosions``
    per die; ``max_work`` bounds the computation (about a second per 10**9
    steps). These are the command line's ``--tail``, ``--max-explosions``
    and ``--max-work``. The computation runs without holding the GIL.

    >>> import nutshell
    >>> d = nutshell.odds("2d6")
    >>> d[7]
    Fraction(1, 6)
    >>> d.mean, d.at_least(10)
    (Fraction(7, 1), Fraction(1, 6))
    >>> nutshell.odds("3d6! >= 20")[1]
    Fraction(37, 324)
    """
    limits: Dict[str, Any] = {
        "max_explosions": max_explosions,
        "max_work": None if max_work is None else int(max_work),
        "max_dice": max_dice,
        "max_outcomes": max_outcomes,
        "max_nesting": max_nesting,
        "max_length": max_length,
        "tail_digits": tail_digits(tail),
    }
    return Distribution(_nutshell._odds(expression, **limits), limits)


Other = Union[int, "Distribution"]


class Distribution(Mapping[int, Fraction]):
    """An exact distribution: a read-only mapping from each possible value to
    its probability as a :class:`fractions.Fraction` (values that cannot
    occur are not keys; :meth:`probability` gives them 0).

    Explosions beyond what the engine follows are not in the mapping: their
    probability is :attr:`tail` (0 for expressions that cannot explode).

    ``d < n``, ``d <= n``, ``d > n``, ``d >= n`` (against a number or another
    distribution, whose dice are independent) give the distribution of the
    comparison: 1 with the probability it is true, 0 otherwise, computed
    exactly by the engine (so even with explosions there is no tail).
    ``==`` compares distributions as mappings; :meth:`eq` and :meth:`ne` give
    the distribution of equality.

    >>> import nutshell
    >>> d = nutshell.odds("4d6kh3")
    >>> len(d), min(d), max(d)
    (16, 3, 18)
    >>> d[18], d.probability(2)
    (Fraction(7, 432), Fraction(0, 1))
    >>> (d >= 15)[1]
    Fraction(25, 108)
    >>> d.quantile(0.5)
    12
    >>> round(float(d.mean), 4), round(d.std_dev, 4)
    (12.2446, 2.8468)
    """

    __slots__ = ("_native", "_limits", "_values", "_index", "_all")

    def __init__(self, native: Any, limits: Dict[str, Any]) -> None:
        self._native = native
        self._limits = limits
        self._values: List[int] = native.values()
        self._index: Optional[Dict[int, int]] = None
        self._all: Optional[Dict[int, Fraction]] = None

    # -- the mapping ------------------------------------------------------

    def __getitem__(self, value: int) -> Fraction:
        if self._all is not None:
            return self._all[value]
        pair = self._native.fraction(value) if isinstance(value, int) else None
        if pair is None:
            raise KeyError(value)
        return lowest(pair)

    def __iter__(self) -> Iterator[int]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __contains__(self, value: object) -> bool:
        if self._index is None:
            self._index = {v: i for i, v in enumerate(self._values)}
        return value in self._index

    def _fractions(self) -> Dict[int, Fraction]:
        if self._all is None:
            self._all = {
                v: lowest(p) for v, p in zip(self._values, self._native.fractions())
            }
        return self._all

    def items(self) -> ItemsView[int, Fraction]:
        """Every ``(value, probability)``, ascending."""
        return self._fractions().items()

    def values(self) -> ValuesView[Fraction]:
        """Every probability, in the order of the values."""
        return self._fractions().values()

    def to_fractions(self) -> Dict[int, Fraction]:
        """A new ``dict`` of every value's probability."""
        return dict(self._fractions())

    # -- what people ask of it ----------------------------------------------

    @property
    def expression(self) -> str:
        """The expression, normalized."""
        return self._native.expression

    def probability(self, value: int) -> Fraction:
        """The probability of exactly ``value`` (0 when it cannot occur)."""
        pair = self._native.fraction(value)
        return Fraction(0) if pair is None else lowest(pair)

    @property
    def mean(self) -> Fraction:
        """The mean over the values (the tail, if any, is not in it)."""
        return lowest(self._native.mean())

    @property
    def variance(self) -> Fraction:
        """The variance over the values."""
        return lowest(self._native.variance())

    @property
    def std_dev(self) -> float:
        """The standard deviation, as a float."""
        return float(self._native.std_dev())

    @property
    def tail(self) -> Fraction:
        """The probability of rolls that explode further than the engine
        followed (left out of the mapping, not folded into a value)."""
        return lowest(self._native.tail())

    @property
    def denominator(self) -> int:
        """The common denominator of the engine's integer weights."""
        return self._native.denominator

    def weights(self) -> Dict[int, int]:
        """Each value's integer weight over :attr:`denominator` (the form
        icepool's dice hold)."""
        return dict(zip(self._values, self._native.weights()))

    def at_least(self, n: int) -> Fraction:
        """``P(total >= n)``, exactly even where the mapping has a tail (the
        engine follows explosions until the total reaches ``n``)."""
        return lowest(self._native.at_least(int(n)))

    def at_most(self, n: int) -> Fraction:
        """``P(total <= n)``, exactly even where the mapping has a tail."""
        return lowest(self._native.at_most(int(n)))

    def quantile(self, p: Union[float, Rational]) -> int:
        """The smallest value ``v`` with ``P(total <= v) >= p``, for ``0 < p <= 1``
        (``p`` is read exactly: 0.5 is 1/2). Raises ``ValueError`` when the
        values do not reach ``p`` because of the tail.

        >>> import nutshell
        >>> nutshell.odds("1d6").quantile(Fraction(1, 2)), nutshell.odds("1d6").quantile(0.51)
        (3, 4)
        """
        q = Fraction(p)
        if not 0 < q <= 1:
            raise ValueError(f"quantile({p!r}): p must be above 0 and at most 1")
        denominator = self.denominator
        need = q * denominator
        running = 0
        for v, w in zip(self._values, self._native.weights()):
            running += w
            if running >= need:
                return v
        raise ValueError(
            f"quantile({p!r}): the values reach only {1 - self.tail}; the rest "
            "is the tail (explosions not followed; a smaller tail= follows them further)"
        )

    # -- comparisons ----------------------------------------------------------

    def _compare(self, op: str, other: Other) -> "Distribution":
        if isinstance(other, Distribution):
            right = f"({other.expression})"
        elif isinstance(other, int) and not isinstance(other, bool):
            right = f"({other})" if other < 0 else str(other)
        else:
            return NotImplemented  # type: ignore[return-value]
        text = f"({self.expression}) {op} {right}"
        if op == "!=":  # the notation has no "not equal": 1 - (a = b)
            text = f"1 - ({self.expression} = {right})"
        limits = dict(self._limits)
        if limits.get("max_length") is not None:
            limits["max_length"] = max(limits["max_length"], len(text))
        return Distribution(_nutshell._odds(text, **limits), limits)

    def __lt__(self, other: Other) -> "Distribution":  # type: ignore[override]
        return self._compare("<", other)

    def __le__(self, other: Other) -> "Distribution":  # type: ignore[override]
        return self._compare("<=", other)

    def __gt__(self, other: Other) -> "Distribution":  # type: ignore[override]
        return self._compare(">", other)

    def __ge__(self, other: Other) -> "Distribution":  # type: ignore[override]
        return self._compare(">=", other)

    def eq(self, other: Other) -> "Distribution":
        """The distribution of ``total == other`` (1 or 0)."""
        return self._compare("=", other)

    def ne(self, other: Other) -> "Distribution":
        """The distribution of ``total != other`` (1 or 0)."""
        return self._compare("!=", other)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Distribution):
            return (
                self._values == other._values
                and self.denominator * other._tail_weight() == other.denominator * self._tail_weight()
                and self.items() == other.items()
            )
        return Mapping.__eq__(self, other)

    def _tail_weight(self) -> int:
        return self._native.tail_weight

    __hash__ = None  # type: ignore[assignment]

    def __reduce__(self) -> Any:
        """Pickled as its expression and limits, computed again when loaded
        (exact, so the same distribution): it crosses to other processes."""
        return (_rebuild, (self.expression, dict(self._limits)))

    # -- other forms ----------------------------------------------------------

    def to_dict(self) -> Dict[str, Any]:
        """The command line's ``nutshell odds EXPR --json``: ``distribution``
        (``{"value", "probability": "p/q"}``), ``expression``, ``mean``,
        ``std_dev``, ``tail``, ``variance``."""
        return json.loads(self._native.to_json())

    def to_icepool(self, tail_outcome: Optional[int] = None) -> Any:
        """The same distribution as an ``icepool.Die`` (icepool must be
        installed). A distribution with a tail needs ``tail_outcome``: the
        value the tail's probability is given to (icepool has no tail).

        >>> import nutshell
        >>> die = nutshell.odds("3d6").to_icepool()   # doctest: +SKIP
        >>> die.probability(10)                        # doctest: +SKIP
        Fraction(1, 8)
        """
        try:
            import icepool  # type: ignore[import-untyped]
        except ImportError as e:  # pragma: no cover - depends on the environment
            raise ImportError("to_icepool() needs icepool: pip install icepool") from e
        weights = self.weights()
        tail = self._tail_weight()
        if tail:
            if tail_outcome is None:
                raise ValueError(
                    f"{self.expression} has a tail of {self.tail} (explosions not "
                    "followed): give tail_outcome=, the value that gets it"
                )
            weights[tail_outcome] = weights.get(tail_outcome, 0) + tail
        return icepool.Die(weights)

    def __repr__(self) -> str:
        return self.table()

    def table(self, all: bool = False) -> str:
        """The command line's table: each value's probability, %, at least,
        at most and a bar; then the mean, the range and the tail. Only the
        60 most likely values in a run unless ``all``."""
        values = self._values
        floats = self._native.floats()
        n = len(values)
        lines = [self.expression]
        if n == 0:
            lines.append("(no outcome: every roll is in the tail)")
            return "\n".join(lines)
        if all or n <= TABLE_ROWS:
            start, stop = 0, n
        else:
            window = sum(floats[:TABLE_ROWS])
            best, best_mass = 0, window
            for s in range(1, n - TABLE_ROWS + 1):
                window += floats[s + TABLE_ROWS - 1] - floats[s - 1]
                if window > best_mass:
                    best, best_mass = s, window
            start, stop = best, best + TABLE_ROWS
        weights = self._native.weights()
        total = sum(weights)
        denominator = self.denominator
        at_most_w = []
        running = 0
        for w in weights:
            running += w
            at_most_w.append(running)
        fractions = [self[values[i]] for i in range(start, stop)]
        texts = [probability_text(f) for f in fractions]
        fit = max(len(t) for t in texts) <= 24
        peak = max(floats) or 1.0
        header = ["value"] + (["probability"] if fit else []) + ["%", "at least", "at most", ""]
        rows = []
        for k, i in enumerate(range(start, stop)):
            below = at_most_w[i - 1] if i > 0 else 0
            row = [str(values[i])]
            if fit:
                row.append(texts[k])
            row += [
                percent(floats[i]),
                percent((total - below) / denominator),
                percent(at_most_w[i] / denominator),
                _bar(floats[i] / peak),
            ]
            rows.append(row)
        widths = [max(len(r[c]) for r in rows + [header]) for c in range(len(header))]
        for r in [header] + rows:
            cells = []
            for c, cell in enumerate(r):
                if c == 0 or c == len(r) - 1:
                    cells.append(cell.ljust(widths[c]))
                else:
                    cells.append(cell.rjust(widths[c]))
            lines.append(" " + "  ".join(cells).rstrip())
        if stop - start < n:
            lines.append(
                f"({stop - start} of {n} outcomes shown, the most likely run; "
                ".table(all=True) shows every outcome)"
            )
        if not fit:
            lines.append("(exact fractions are too long to show here; d[value] gives them)")
        mean = self.mean
        mean_text = probability_text(mean)
        if len(mean_text) > 24 or "/" in mean_text:
            mean_text = (mean_text + " ≈ " if len(mean_text) <= 24 else "≈ ") + f"{float(mean):.4f}"
        lines.append(f"mean {mean_text}   standard deviation {self.std_dev:.4f}")
        lines.append(f"range {values[0]} to {values[-1]}")
        tail = self.tail
        if tail:
            text = probability_text(tail)
            if len(text) > 24:
                text = f"≈ {float(tail):.6e}"
            lines.append(
                f"tail {text} ({percent(float(tail))}): rolls that explode further "
                "than the exact odds follow are not in the table"
            )
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        from ._chart import svg

        return svg(self)


def _rebuild(expression: str, limits: Dict[str, Any]) -> Distribution:
    return Distribution(_nutshell._odds(expression, **limits), limits)


def _bar(fraction: float) -> str:
    eighths = "▏▎▍▌▋▊▉█"
    n = round(min(max(fraction, 0.0), 1.0) * BAR_WIDTH * 8)
    s = "█" * (n // 8)
    if n % 8:
        s += eighths[n % 8 - 1]
    return s
