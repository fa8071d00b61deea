"""The exceptions nutshell raises.

Every error says what is wrong and where: an expression's errors carry the
position of the offending character and the expression with a caret under
it, as the command line prints them.

>>> import nutshell
>>> try:
...     nutshell.roll("4d6+")
... except nutshell.NotationError as e:
...     print(e.position, e.column)
...     print(e)
4 5
error: expected a number, a die, `(`, `{` or a function after `+`
  4d6+
      ^
"""

from __future__ import annotations

from typing import Optional

__all__ = [
    "NutshellError",
    "NotationError",
    "LimitError",
    "DiceError",
    "RuleError",
]


class NutshellError(Exception):
    """Base class of every nutshell error.

    ``str(e)`` is the whole message (with the caret, for an expression);
    ``e.message`` is its one sentence.
    """

    message: str

    def __init__(self, message: str, rendered: Optional[str] = None) -> None:
        super().__init__(rendered if rendered is not None else message)
        self.message = message


class _Positioned(NutshellError):
    """An error at a place in an expression."""

    position: Optional[int]
    expression: Optional[str]

    def __init__(
        self,
        message: str,
        rendered: Optional[str] = None,
        position: Optional[int] = None,
        expression: Optional[str] = None,
    ) -> None:
        super().__init__(message, rendered)
        self.position = position
        self.expression = expression

    @property
    def column(self) -> Optional[int]:
        """The 1-based column of :attr:`position`, as an editor counts."""
        return None if self.position is None else self.position + 1


class NotationError(_Positioned, ValueError):
    """The text of an expression is not valid notation.

    ``position`` is the 0-based index (in characters) of the offending
    character; ``str(e)`` shows the expression with a caret under it.
    """


class LimitError(_Positioned):
    """A limit was reached: ``limit`` names it (``"max_dice"``,
    ``"max_work"``, ...), the keyword argument that raises it.

    >>> import nutshell
    >>> try:
    ...     nutshell.roll("20d6", max_dice=10)
    ... except nutshell.LimitError as e:
    ...     print(e.limit, e.position)
    max_dice 0
    """

    limit: Optional[str]

    # _Positioned's parameters written out again, so that the signature
    # shows every keyword.
    def __init__(
        self,
        message: str,
        rendered: Optional[str] = None,
        position: Optional[int] = None,
        expression: Optional[str] = None,
        limit: Optional[str] = None,
    ) -> None:
        super().__init__(message, rendered, position, expression)
        self.limit = limit


class DiceError(_Positioned, ValueError):
    """The expression is valid but a roll of it fails (the faces given ran
    out or are not on the die, a division by zero, a negative dice count),
    or its exact odds cannot be computed (some rolls fail, or a feature the
    exact engine does not compute)."""


class RuleError(NutshellError, ValueError):
    """A ruleset refuses the request (an option it does not have, a value the
    rules forbid, a bad side, sheet or map file): the message quotes the rule
    or names the file's line."""
