"""The five rulesets: :func:`check` and :func:`contest`.

Options are the command line's, as keyword arguments: ``--mod 5`` is
``mod=5`` (a repeatable option takes a list: ``mod=[2, -1]``), ``--crit-success``
is ``crit_success=True``, ``--vs-skill`` is ``vs_skill``. An option a ruleset
does not have is refused with :class:`nutshell.RuleError`, as on the command
line. The requests are the server's (``nutshell_rules::request``), so every
front end validates alike.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from fractions import Fraction
from typing import Any, Dict, Iterator, List, Optional, Sequence, Union, overload

from . import _nutshell
from ._errors import RuleError
from ._fractions import probability_text

try:
    from typing import Literal
except ImportError:  # pragma: no cover - Python < 3.8
    from typing_extensions import Literal  # type: ignore

__all__ = [
    "check",
    "contest",
    "CheckResult",
    "TurnResult",
    "ContestResult",
    "OutcomeOdds",
    "TurnOdds",
    "RULESETS",
]

#: The ruleset ids.
RULESETS = ("fantasy", "mls", "exploding-d6", "tiered-d20", "favor-3d6")

Faces = Union[Sequence[int], str]


def ruleset_id(name: str) -> str:
    """A ruleset's id from its name as Python code writes it: ``exploding_d6``
    is ``exploding-d6`` (case and ``_`` or ``-`` as you like).

    >>> ruleset_id("Exploding_D6"), ruleset_id("tiered-d20")
    ('exploding-d6', 'tiered-d20')
    """
    if not isinstance(name, str):
        raise TypeError(f"the ruleset is its name (str), not {type(name).__name__}")
    wanted = name.strip().lower().replace("_", "-")
    if wanted not in RULESETS:
        raise RuleError(
            f"unknown ruleset {name!r}: one of {', '.join(RULESETS)} "
            "(written with _ or -, as exploding_d6)"
        )
    return wanted


def _request(ruleset: str, options: Dict[str, Any]) -> str:
    request: Dict[str, Any] = {"ruleset": ruleset_id(ruleset)}
    for key, value in options.items():
        if value is None:
            continue
        if key in ("advantage", "disadvantage") and isinstance(value, bool):
            value = int(value)
        if isinstance(value, tuple):
            value = list(value)
        request[key] = value
    return json.dumps(request)


class _Record:
    """A result as the command line's JSON, read by attribute."""

    __slots__ = ("_data",)

    def __init__(self, data: Dict[str, Any]) -> None:
        self._data = data

    def __getattr__(self, name: str) -> Any:
        try:
            return self._data[name]
        except KeyError:
            raise AttributeError(name) from None

    def to_dict(self) -> Dict[str, Any]:
        """The command line's ``--json`` object."""
        return json.loads(json.dumps(self._data))

    def __eq__(self, other: object) -> bool:
        return type(self) is type(other) and self._data == other._data  # type: ignore[attr-defined]

    __hash__ = None  # type: ignore[assignment]


class CheckResult(_Record):
    """One check as rolled: ``outcome`` (such as ``"success"``), ``total``,
    ``natural``, ``difficulty``, ``margin``, ``dice``, ``transcript`` (each
    step with the rule it applies), ``effect``, ``experience``; ``text`` is
    what the command line prints."""

    @property
    def outcome(self) -> str:
        return self._data["outcome"]

    @property
    def margin(self) -> Optional[int]:
        return self._data.get("margin")

    @property
    def effect(self) -> Optional[Dict[str, Any]]:
        return self._data.get("effect")

    @property
    def experience(self) -> List[Dict[str, Any]]:
        return self._data.get("experience", [])

    @property
    def text(self) -> str:
        lines = [f"  {s['text']}  ({s['rule']})" for s in self._data["transcript"]]
        details = []
        if self._data.get("total") is not None:
            details.append(f"total {self._data['total']}")
        if self._data.get("natural") is not None:
            details.append(f"natural {self._data['natural']}")
        if self._data.get("margin") is not None:
            details.append(f"margin {self._data['margin']:+d}")
        for e in self.experience:
            s = "" if e["points"] == 1 else "s"
            details.append(f"{e['character']}: +{e['points']} experience point{s}")
        summary = f"{self._data['ruleset']}: {self.outcome}"
        if details:
            summary += f" ({', '.join(details)})"
        lines.append(summary)
        if self.effect:
            lines.append(f"effect: {self.effect['text']}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return self.text


class TurnResult(_Record):
    """A turn of tiered-d20 checks (``then=``), as rolled: ``checks``."""

    @property
    def checks(self) -> List[CheckResult]:
        return [CheckResult(c) for c in self._data["checks"]]

    def __repr__(self) -> str:
        return "\n".join(f"check {k + 1}:\n{c.text}" for k, c in enumerate(self.checks))


class ContestResult(_Record):
    """A contest as rolled: ``winner``, each side's check (``sides``), and
    the contest's own ``transcript``."""

    @property
    def winner(self) -> str:
        return self._data["winner"]

    @property
    def sides(self) -> List[CheckResult]:
        return [CheckResult(c) for c in self._data["sides"]]

    def __repr__(self) -> str:
        lines = []
        for k, side in enumerate(self.sides):
            lines.append(f"side {k + 1}:\n{side.text}")
        lines += [f"  {s['text']}  ({s['rule']})" for s in self._data["transcript"]]
        lines.append(f"{self._data['ruleset']}: {self.winner}")
        return "\n".join(lines)


def _fraction(text: str) -> Fraction:
    return Fraction(text)


class OutcomeOdds(Mapping[str, Fraction]):
    """The exact probability of every outcome (a check's tiers, or a
    contest's winners), lowest first: a read-only mapping from the outcome's
    id to a :class:`fractions.Fraction`. ``tail`` is the probability left
    out by the explosion limit (exploding-d6), ``effects`` the distributions
    of effects by outcome; ``reached`` is the chance a turn reaches this
    check (``then=``), else None."""

    __slots__ = ("_data", "_odds")

    def __init__(self, data: Dict[str, Any]) -> None:
        self._data = data
        self._odds = {o["outcome"]: _fraction(o["probability"]) for o in data["outcomes"]}

    def __getitem__(self, outcome: str) -> Fraction:
        return self._odds[outcome]

    def __iter__(self) -> Iterator[str]:
        return iter(self._odds)

    def __len__(self) -> int:
        return len(self._odds)

    @property
    def ruleset(self) -> str:
        return self._data["ruleset"]

    @property
    def tail(self) -> Fraction:
        return _fraction(self._data.get("tail", "0"))

    @property
    def reached(self) -> Optional[Fraction]:
        r = self._data.get("reached")
        return None if r is None else _fraction(r)

    @property
    def effects(self) -> List[Dict[str, Any]]:
        return self._data.get("effects", [])

    def to_dict(self) -> Dict[str, Any]:
        """The command line's ``--odds --json`` object."""
        return json.loads(json.dumps(self._data))

    def _repr_html_(self) -> str:
        """A table for notebooks: each outcome, its exact probability, its
        percentage and a bar (plain HTML, no JavaScript).

        >>> import nutshell
        >>> html = nutshell.check("mls", skill=12, odds=True)._repr_html_()
        >>> html.startswith("<table") and html.count("<tr>") == 5
        True
        """
        import html

        peak = max([float(p) for p in self._odds.values()] + [1e-300])
        rows = []
        for k, p in self._odds.items():
            width = float(p) / peak * 160
            rows.append(
                f"<tr><td>{html.escape(k)}</td><td style=\"text-align:right\">"
                f"{html.escape(probability_text(p))}</td><td style=\"text-align:right\">"
                f"{float(p) * 100:.4f}%</td><td><div style=\"background:#4a7ab5;"
                f"height:10px;width:{width:.1f}px\"></div></td></tr>"
            )
        caption = html.escape(self.ruleset) + (
            f", tail {html.escape(probability_text(self.tail))}" if self.tail else ""
        )
        return (
            f"<table><caption>{caption}</caption><tr><th>outcome</th><th>probability</th>"
            f"<th>%</th><th></th></tr>{''.join(rows)}</table>"
        )

    def __repr__(self) -> str:
        width = max([len("outcome")] + [len(k) for k in self._odds])
        texts = {k: probability_text(p) for k, p in self._odds.items()}
        pw = max([len("probability")] + [len(t) for t in texts.values()])
        lines = [f"{'outcome'.ljust(width)}  {'probability'.rjust(pw)}  {'%':>9}"]
        for k, p in self._odds.items():
            lines.append(f"{k.ljust(width)}  {texts[k].rjust(pw)}  {float(p) * 100:8.4f}%")
        if self.tail:
            lines.append(f"tail {probability_text(self.tail)} (rolls past the explosion limit)")
        return "\n".join(lines)


class TurnOdds(Sequence[OutcomeOdds]):
    """The odds of every check of a turn (``then=``): a sequence of
    :class:`OutcomeOdds`, each with the chance the turn ``reached`` it."""

    __slots__ = ("_data", "_checks")

    def __init__(self, data: Dict[str, Any]) -> None:
        self._data = data
        self._checks = [OutcomeOdds(c) for c in data["checks"]]

    def __getitem__(self, k: int) -> OutcomeOdds:  # type: ignore[override]
        return self._checks[k]

    def __len__(self) -> int:
        return len(self._checks)

    def to_dict(self) -> Dict[str, Any]:
        return json.loads(json.dumps(self._data))

    def __repr__(self) -> str:
        return "\n".join(
            f"check {k + 1} (reached with probability {probability_text(c.reached or Fraction(1))}):\n{c!r}"
            for k, c in enumerate(self._checks)
        )


@overload
def check(
    ruleset: str,
    *,
    seed: Optional[int] = ...,
    faces: Optional[Faces] = ...,
    odds: Literal[False] = ...,
    **options: Any,
) -> Union[CheckResult, TurnResult]: ...


@overload
def check(
    ruleset: str,
    *,
    seed: Optional[int] = ...,
    faces: Optional[Faces] = ...,
    odds: Literal[True],
    **options: Any,
) -> Union[OutcomeOdds, TurnOdds]: ...


def check(
    ruleset: str,
    *,
    seed: Optional[int] = None,
    faces: Optional[Faces] = None,
    odds: bool = False,
    **options: Any,
) -> Union[CheckResult, TurnResult, OutcomeOdds, TurnOdds]:
    """Resolves a check of a ruleset, step by step, or with ``odds=True``
    gives the exact odds of every outcome tier (``nutshell check RULESET
    ... [--odds] --json``).

    >>> import nutshell
    >>> r = nutshell.check("fantasy", mod=5, dc="hard", crit_success=True, faces=[20, 20])
    >>> r.outcome
    'critical-success'
    >>> o = nutshell.check("mls", skill=12, odds=True)
    >>> o["success"] + o["critical-success"] + o["failure"] + o["fumble"] == 1
    True
    """
    answer = _nutshell._check(_request(ruleset, options), seed=seed, faces=faces, odds=odds)
    data = json.loads(answer)
    if odds:
        return TurnOdds(data) if "checks" in data else OutcomeOdds(data)
    return TurnResult(data) if "checks" in data else CheckResult(data)


@overload
def contest(
    ruleset: str,
    *,
    seed: Optional[int] = ...,
    faces: Optional[Faces] = ...,
    odds: Literal[False] = ...,
    **options: Any,
) -> ContestResult: ...


@overload
def contest(
    ruleset: str,
    *,
    seed: Optional[int] = ...,
    faces: Optional[Faces] = ...,
    odds: Literal[True],
    **options: Any,
) -> OutcomeOdds: ...


def contest(
    ruleset: str,
    *,
    seed: Optional[int] = None,
    faces: Optional[Faces] = None,
    odds: bool = False,
    **options: Any,
) -> Union[ContestResult, OutcomeOdds]:
    """Resolves a contest between two sides (mls, exploding-d6, favor-3d6), or
    with ``odds=True`` gives the exact odds of each winner (``nutshell
    contest RULESET ... [--odds] --json``). The second side's options start
    with ``vs_``.

    >>> import nutshell
    >>> o = nutshell.contest("exploding-d6", score=3, vs_score=2, odds=True)
    >>> sum(o.values()) + o.tail == 1
    True
    """
    answer = _nutshell._contest(_request(ruleset, options), seed=seed, faces=faces, odds=odds)
    data = json.loads(answer)
    return OutcomeOdds(data) if odds else ContestResult(data)
