"""The MLS tactical layer: fights between two sides, stepped round by round
or run to the end, and many fights simulated for win rates.

A side (or a battle map) is a TOML file, given as a path (``str`` or
``pathlib.Path``), or its TOML text (a ``str`` holding a line break): the
same files the command line reads (``docs/mls/combat.md``,
``docs/mls/map.md``).

>>> from nutshell import mls
>>> knight = '''
... name = "Knight"
... thp = 12
... traits = { strength = 3, body = 3, agility = 2 }
... skills = { sword = 7, dodge = 4 }
... weapons = [{ name = "longsword", skill = "sword", dam = 8 }]
... '''
>>> brigand = '''
... name = "Brigand"
... thp = 10
... traits = { strength = 4, body = 2, agility = 3 }
... skills = { axe = 6, dodge = 5 }
... weapons = [{ name = "axe", skill = "axe", dam = 10 }]
... '''
>>> fight = mls.Fight(knight, brigand, seed=5)
>>> fight.step()
Round(turn=1, round=1)
>>> fight.run().winner
'Knight'
>>> fight.over, len(fight.log()) > 5
(True, True)
>>> result = mls.simulate(knight, brigand, trials=200, seed=1)
>>> round(sum(result.win_rates.values()) + result.draw_rate, 9)
1.0
"""

from __future__ import annotations

import json
import os
import warnings
from typing import Any, Dict, Iterator, List, NamedTuple, Optional, Sequence, Tuple, Union

from . import _nutshell

__all__ = ["Fight", "Round", "Ending", "Simulation", "simulate"]

Source = Union[str, "os.PathLike[str]"]


def _load(what: str, source: Source) -> Tuple[str, str]:
    """``(name, text)``: a file read, or TOML text as given."""
    if isinstance(source, str) and "\n" in source:
        return (f"<{what} text>", source)
    path = os.fspath(source)
    try:
        with open(path, encoding="utf-8") as f:
            return (path, f.read())
    except OSError as e:
        from ._errors import RuleError

        raise RuleError(f"{path}: cannot read the {what}: {e.strerror}") from e


def _setting(
    a: Source,
    b: Source,
    map: Optional[Source],
    distance: int,
    surprised: Optional[str],
    max_turns: int,
) -> Tuple[Any, ...]:
    if surprised not in (None, "a", "b"):
        from ._errors import RuleError

        raise RuleError(f'surprised={surprised!r}: "a" (the first side) or "b"')
    return (
        [_load("side", a), _load("side", b)],
        None if map is None else _load("map", map),
        int(distance),
        None if surprised is None else "ab".index(surprised),
        int(max_turns),
    )


class Round(NamedTuple):
    """A round was resolved: the turn (each side's turn counts) and the
    round (1 to 5; 0 is a turn's movement and end)."""

    turn: int
    round: int


class Ending(NamedTuple):
    """How a fight ended: the winning side's name (None for a draw), the
    turns played, and why, in words."""

    winner: Optional[str]
    turns: int
    reason: str


class Fight:
    """One fight between two sides: ``step()`` resolves one round (a virtual
    table shows each), ``run()`` goes to the end. ``seed`` makes it
    reproducible (the command line's ``--seed``), ``faces`` rolls typed-in
    dice; ``map`` puts it on a battle map (``distance`` is for fights on a
    line); ``surprised`` is ``"a"`` or ``"b"``; a fight still going after
    ``max_turns`` is a draw."""

    def __init__(
        self,
        a: Source,
        b: Source,
        *,
        map: Optional[Source] = None,
        distance: int = 1,
        surprised: Optional[str] = None,
        max_turns: int = 100,
        seed: Optional[int] = None,
        faces: Optional[Union[Sequence[int], str]] = None,
    ) -> None:
        setting = _setting(a, b, map, distance, surprised, max_turns)
        self._fight = _nutshell.Fight(setting, seed=seed, faces=faces)
        self._ending: Optional[Ending] = None

    def _ended(self, data: Dict[str, Any]) -> Ending:
        e = data["ending"] if "ending" in data else data
        self._ending = Ending(e["winner"], e["turns"], e["reason"])
        left = self._fight.leftover()
        if left:
            warnings.warn(left, stacklevel=3)
        return self._ending

    def step(self) -> Union[Round, Ending]:
        """Resolves the next round; once the fight is over, its :class:`Ending`."""
        data = json.loads(self._fight.step())
        if data["over"]:
            return self._ending or self._ended(data)
        return Round(data["turn"], data["round"])

    def __iter__(self) -> Iterator[Round]:
        """Every round until the end."""
        while True:
            step = self.step()
            if isinstance(step, Ending):
                return
            yield step

    def run(self) -> Ending:
        """Runs to the end (without holding the GIL) and returns how it ended."""
        if self._ending is None:
            return self._ended(json.loads(self._fight.run()))
        return self._ending

    @property
    def over(self) -> bool:
        return self._fight.over

    @property
    def ending(self) -> Optional[Ending]:
        """How it ended, or None while it goes on."""
        return self._ending

    def log(self, start: int = 0) -> List[Dict[str, Any]]:
        """The log's lines from ``start`` on: ``turn``, ``round``, ``text``,
        ``rule``, and the ``faces`` rolled (on a map also ``positions``,
        ``opened``, ``closed``)."""
        return json.loads(self._fight.log_json(start))

    @property
    def combatants(self) -> List[Dict[str, Any]]:
        """Every combatant now: name, side, CHP, THP, state, fate points."""
        return json.loads(self._fight.state_json())

    def to_dict(self) -> Dict[str, Any]:
        """The whole fight as ``nutshell mls fight --json`` prints it (once over)."""
        return json.loads(self._fight.report_json())

    def __repr__(self) -> str:
        state = f"over: {self._ending}" if self._ending else "going on"
        return f"<Fight {state}>"


class Simulation:
    """Many fights: each side's ``win_rates`` and the ``draw_rate``, with 95%
    intervals in ``to_dict()`` (the command line's ``mls simulate --json``)."""

    def __init__(self, data: Dict[str, Any]) -> None:
        self._data = data

    @property
    def trials(self) -> int:
        return self._data["trials"]

    @property
    def win_rates(self) -> Dict[str, float]:
        """Each side's share of wins, by side name."""
        return {
            name: w["probability"] for name, w in zip(self._data["sides"], self._data["wins"])
        }

    @property
    def draw_rate(self) -> float:
        return self._data["draw"]["probability"]

    @property
    def mean_turns(self) -> float:
        return self._data["mean_turns"]

    def to_dict(self) -> Dict[str, Any]:
        return json.loads(json.dumps(self._data))

    def __repr__(self) -> str:
        rates = ", ".join(f"{k} {v:.2%}" for k, v in self.win_rates.items())
        return f"<Simulation of {self.trials} fights: {rates}, draw {self.draw_rate:.2%}>"


def simulate(
    a: Source,
    b: Source,
    *,
    trials: int,
    seed: int = 1,
    map: Optional[Source] = None,
    distance: int = 1,
    surprised: Optional[str] = None,
    max_turns: int = 100,
    threads: Optional[int] = None,
) -> Simulation:
    """Runs ``trials`` fights, each from its own seed, on ``threads`` threads
    (default: every core) without holding the GIL. The counts are those of
    ``nutshell mls simulate --seed SEED`` whatever the threads."""
    setting = _setting(a, b, map, distance, surprised, max_turns)
    return Simulation(
        json.loads(_nutshell._simulate(setting, trials=trials, seed=seed, threads=threads))
    )
