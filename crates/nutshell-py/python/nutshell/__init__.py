"""nutshell: dice for tabletop role-playing games.

Rolls with a full transcript (reproducible from a seed, or typed in from
physical dice), the exact odds of any expression as fractions, the checks and
contests of five rulesets with the exact odds of every outcome, and the MLS
tactical layer (:mod:`nutshell.mls`). A thin layer over the Rust libraries
that the ``nutshell`` command line runs: the same notation, the same answers
(``to_dict()`` is the command line's ``--json``).

>>> import nutshell
>>> nutshell.roll("4d6kh3", faces=[6, 5, 3, 1]).text
'4d6kh3 = [6, 5, 3, (1)] = 14'
>>> nutshell.odds("4d6kh3")[18]
Fraction(7, 432)
>>> nutshell.check("mls", skill=12, faces=[6, 5, 4]).outcome
'critical-success'
"""

from . import mls
from ._errors import DiceError, LimitError, NotationError, NutshellError, RuleError
from ._nutshell import Die, Expression, Roll, __version__, roll
from ._odds import Distribution, odds
from ._rules import (
    RULESETS,
    CheckResult,
    ContestResult,
    OutcomeOdds,
    TurnOdds,
    TurnResult,
    check,
    contest,
)

# Written out (the rulesets' names repeat _rules.__all__) so that tools that
# read the package without running it see every name.
__all__ = [
    "roll",
    "Roll",
    "Die",
    "Expression",
    "odds",
    "Distribution",
    "check",
    "contest",
    "CheckResult",
    "TurnResult",
    "ContestResult",
    "OutcomeOdds",
    "TurnOdds",
    "RULESETS",
    "mls",
    "NutshellError",
    "NotationError",
    "LimitError",
    "DiceError",
    "RuleError",
    "__version__",
]

# The native functions' docstrings hold examples too: run them as doctests.
__test__ = {
    "roll": roll.__doc__,
    "Expression": Expression.__doc__,
}
