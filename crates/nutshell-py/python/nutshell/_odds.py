"""Exact odds: :func:`odds` and :class:`Distribution`."""

from __future__ import annotations

import bisect
import json
import math
import random
from collections.abc import Mapping
from fractions import Fraction
from numbers import Rational
from typing import (
    Any,
    Dict,
    ItemsView,
    Iterator,
    List,
    Optional,
    Tuple,
    Union,
    ValuesView,
)

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
    expression: Union[str, int, Any],
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

    ``expression`` may also be a whole number (a distribution of one value)
    or an icepool ``Die`` of whole numbers, converted exactly (its weights
    kept): ``nutshell.odds(icepool.d6)``.
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
    if isinstance(expression, str):
        return Distribution(_nutshell._odds(expression, **limits), limits)
    if isinstance(expression, int) and not isinstance(expression, bool):
        return Distribution(_nutshell._odds(_number(expression), **limits), limits)
    weights = _icepool_weights(expression)
    if weights is None:
        raise TypeError(
            "odds() takes an expression (str), a whole number (int) or an icepool "
            f"Die, not {type(expression).__name__}"
        )
    return Distribution(_nutshell._Dist._from_weights(weights), limits)


def _number(n: int) -> str:
    """A whole number as notation (a negative one in brackets)."""
    return f"({n})" if n < 0 else str(n)


def _icepool_weights(die: Any) -> Optional[List[Tuple[int, int]]]:
    """An icepool ``Die``'s ``(outcome, weight)`` pairs, or ``None`` when
    ``die`` is not one. Outcomes must be whole numbers (booleans as 0 and 1)."""
    try:
        import icepool  # type: ignore[import-untyped]
    except ImportError:  # pragma: no cover - depends on the environment
        return None
    if not isinstance(die, icepool.Die):
        return None
    pairs = []
    for outcome, weight in die.items():
        if isinstance(outcome, bool):
            outcome = int(outcome)
        if not isinstance(outcome, int):
            raise TypeError(
                f"odds(): the icepool Die's outcome {outcome!r} is not a whole number"
            )
        pairs.append((outcome, int(weight)))
    if not any(w for _, w in pairs):
        raise ValueError("odds(): the icepool Die has no outcome with a weight above 0")
    return pairs


Other = Union[int, "Distribution", Any]

#: Binding of the notation's operators, loosest first: a comparison, a sum, a
#: product; an operand that binds looser than its operator is bracketed.
_BINDING = {"<": 1, "<=": 1, ">": 1, ">=": 1, "=": 1, "+": 2, "-": 2, "*": 3, "/": 3}
#: Python's operators as the notation's (`//` rounds down, as `/` does).
_NOTATION = {"//": "/", "==": "="}


def _binding(text: str) -> int:
    """How loosely ``text`` binds: its loosest operator outside brackets (4
    when it has none; a leading minus counts as a product's)."""
    depth = 0
    loosest = 4
    i = 0
    while i < len(text):
        c = text[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif depth == 0 and c == " ":
            word = text[i + 1 : text.find(" ", i + 1)] if text.find(" ", i + 1) > 0 else ""
            if word in _BINDING:
                loosest = min(loosest, _BINDING[word])
        i += 1
    if loosest == 4 and text.startswith("-"):
        return 3
    return loosest


def _compose(left: str, op: str, right: str) -> str:
    """The text of ``left op right`` with the brackets its reading needs."""
    bind = _BINDING[op]
    # A comparison does not chain: one on either side is bracketed.
    left_needs = _binding(left) <= 1 if bind == 1 else _binding(left) < bind
    right_needs = _binding(right) <= bind or right.startswith("-")
    if left_needs:
        left = f"({left})"
    if right_needs:
        right = f"({right})"
    return f"{left} {op} {right}"


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
    def expression(self) -> Optional[str]:
        """The expression, normalized (``None`` for a distribution given by
        its weights, such as an icepool ``Die`` converted)."""
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

    # -- arithmetic and comparisons --------------------------------------------

    def _operand(self, other: Any) -> Optional["Distribution"]:
        """``other`` as a distribution of independent dice, or ``None`` when
        it is not a number, a distribution or an icepool ``Die``."""
        if isinstance(other, Distribution):
            return other
        if isinstance(other, bool):
            return None
        if isinstance(other, int):
            return _Constant(other, self._limits)
        weights = _icepool_weights(other)
        if weights is None:
            return None
        return Distribution(_nutshell._Dist._from_weights(weights), self._limits)

    def _binary(self, op: str, other: Any, reflected: bool = False) -> "Distribution":
        """``self op other`` (``other op self`` when ``reflected``) for
        independent dice: the engine's exact distribution of the combined
        expression when both sides have one (so it equals ``odds()`` of that
        text, tail and all), else outcome by outcome over the weights."""
        right = self._operand(other)
        if right is None:
            return NotImplemented  # type: ignore[return-value]
        left: Distribution = self
        if reflected:
            left, right = right, left
        notation = _NOTATION.get(op, op)
        if left.expression is not None and right.expression is not None:
            if notation == "!=":  # the notation has no "not equal": 1 - (a = b)
                text = f"1 - ({_compose(left.expression, '=', right.expression)})"
            else:
                text = _compose(left.expression, notation, right.expression)
            return _computed(text, self._limits)
        native = "//" if notation == "/" else notation
        combined = left._weights_native()._combine(native, right._weights_native())
        return Distribution(combined, self._limits)

    def _weights_native(self) -> Any:
        return self._native

    def __add__(self, other: Other) -> "Distribution":
        return self._binary("+", other)

    def __radd__(self, other: Other) -> "Distribution":
        return self._binary("+", other, reflected=True)

    def __sub__(self, other: Other) -> "Distribution":
        return self._binary("-", other)

    def __rsub__(self, other: Other) -> "Distribution":
        return self._binary("-", other, reflected=True)

    def __mul__(self, other: Other) -> "Distribution":
        return self._binary("*", other)

    def __rmul__(self, other: Other) -> "Distribution":
        return self._binary("*", other, reflected=True)

    def __floordiv__(self, other: Other) -> "Distribution":
        return self._binary("//", other)

    def __rfloordiv__(self, other: Other) -> "Distribution":
        return self._binary("//", other, reflected=True)

    def __neg__(self) -> "Distribution":
        return self._unary("-", "neg")

    def __pos__(self) -> "Distribution":
        return self

    def __abs__(self) -> "Distribution":
        return self._unary("abs", "abs")

    def _unary(self, notation: str, native: str) -> "Distribution":
        text = self.expression
        if text is None:
            return Distribution(self._native._map(native), self._limits)
        if notation == "abs":
            return _computed(f"abs({text})", self._limits)
        if _binding(text) < 4 or text.startswith("-"):
            text = f"({text})"
        return _computed(f"-{text}", self._limits)

    def __lt__(self, other: Other) -> "Distribution":  # type: ignore[override]
        return self._binary("<", other)

    def __le__(self, other: Other) -> "Distribution":  # type: ignore[override]
        return self._binary("<=", other)

    def __gt__(self, other: Other) -> "Distribution":  # type: ignore[override]
        return self._binary(">", other)

    def __ge__(self, other: Other) -> "Distribution":  # type: ignore[override]
        return self._binary(">=", other)

    def eq(self, other: Other) -> "Distribution":
        """The distribution of ``total == other`` (1 or 0)."""
        return self._binary("=", other)

    def ne(self, other: Other) -> "Distribution":
        """The distribution of ``total != other`` (1 or 0)."""
        return self._binary("!=", other)

    def __bool__(self) -> bool:
        raise TypeError(
            "a Distribution has no truth value (as an icepool Die has none): "
            "`d >= 10` is the distribution of the comparison; ask (d >= 10)[1] "
            "or d.at_least(10) for its probability, and compare with == for equality"
        )

    # -- summaries -------------------------------------------------------------

    def median_low(self) -> int:
        """The smallest value ``v`` with ``P(total <= v) >= 1/2``."""
        return self.quantile(Fraction(1, 2))

    def median_high(self) -> int:
        """The largest value ``v`` with ``P(total >= v) >= 1/2``."""
        denominator = self.denominator
        running = 0
        for v, w in zip(self._values, self._native.weights()):
            running += w
            if 2 * running > denominator:
                return v
        raise ValueError(
            f"median: the values reach only {1 - self.tail}; the rest is the tail "
            "(explosions not followed; a smaller tail= follows them further)"
        )

    def median(self) -> Fraction:
        """The median, the mean of :meth:`median_low` and :meth:`median_high`
        when they differ (icepool's ``median``), exactly.

        >>> import nutshell
        >>> nutshell.odds("1d6").median(), nutshell.odds("2d6").median()
        (Fraction(7, 2), Fraction(7, 1))
        """
        return Fraction(self.median_low() + self.median_high(), 2)

    def mode(self) -> Tuple[int, ...]:
        """The most likely values, ascending (icepool's ``mode``).

        >>> import nutshell
        >>> nutshell.odds("2d6").mode(), nutshell.odds("1d4").mode()
        ((7,), (1, 2, 3, 4))
        """
        weights = self._native.weights()
        if not weights:
            return ()
        best = max(weights)
        return tuple(v for v, w in zip(self._values, weights) if w == best)

    def sample(self, n: int = 1, *, seed: Optional[int] = None) -> List[int]:
        """``n`` values drawn independently with their exact probabilities
        (big integers, no floating point); the same ``seed`` gives the same
        values. The tail, if any, is left out: the draws are of the values
        the distribution holds.

        >>> import nutshell
        >>> d = nutshell.odds("3d6")
        >>> d.sample(5, seed=1) == d.sample(5, seed=1)
        True
        >>> all(3 <= v <= 18 for v in d.sample(100, seed=2))
        True
        """
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise ValueError(f"sample(n={n!r}): n is a whole number, 0 or more")
        rng = random.Random(seed)
        cumulative = []
        running = 0
        for w in self._native.weights():
            running += w
            cumulative.append(running)
        if running == 0:
            raise ValueError("sample(): every roll is in the tail")
        return [self._values[bisect.bisect_right(cumulative, rng.randrange(running))] for _ in range(n)]

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
        (exact, so the same distribution), or as its weights when it has no
        expression: it crosses to other processes."""
        if self.expression is None:
            pairs = list(zip(self._values, self._native.weights()))
            return (_rebuild_weights, (pairs, dict(self._limits)))
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
        lines = [self.expression or "(a distribution given by its weights)"]
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


def _rebuild_weights(pairs: List[Tuple[int, int]], limits: Dict[str, Any]) -> Distribution:
    return Distribution(_nutshell._Dist._from_weights(pairs), limits)


def _computed(text: str, limits: Dict[str, Any]) -> Distribution:
    """The engine's distribution of a combined expression, its length limit
    raised to the text's (the parts were within theirs)."""
    limits = dict(limits)
    limits["max_length"] = max(limits.get("max_length") or 10_000, len(text))
    return Distribution(_nutshell._odds(text, **limits), limits)


class _Constant(Distribution):
    """A whole number as an operand: its text is the number, computed only
    when a distribution given by weights needs its weights."""

    __slots__ = ("_number",)

    def __init__(self, number: int, limits: Dict[str, Any]) -> None:  # noqa: D107
        self._number = number
        self._limits = limits

    @property
    def expression(self) -> str:
        return _number(self._number)

    def _weights_native(self) -> Any:
        return _nutshell._Dist._from_weights([(self._number, 1)])


def _bar(fraction: float) -> str:
    eighths = "▏▎▍▌▋▊▉█"
    n = round(min(max(fraction, 0.0), 1.0) * BAR_WIDTH * 8)
    s = "█" * (n // 8)
    if n % 8:
        s += eighths[n % 8 - 1]
    return s
