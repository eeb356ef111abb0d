"""Rule variants: which ruleset a game plays, as the flags the core takes.

``Rules()`` is the contract of ``RULES.md``. The only variant is R2.8, ``no-twos``.

>>> Rules().name, Rules().flags
('default', 0)
>>> Rules.from_name("no-twos")
Rules(twos_in_sequences=False)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from . import _core

__all__ = ["Rules"]

_NO_TWOS: int = _core.NO_TWOS_IN_SEQUENCES


@dataclass(frozen=True, slots=True)
class Rules:
    """A ruleset. Immutable and hashable; ``Rules()`` is the contract.

    ``twos_in_sequences=False`` is the R2.8 variant: no 2 in a sequence or double sequence.

    >>> rules = Rules(twos_in_sequences=False)
    >>> rules.name, rules.flags == Rules.from_name("no-twos").flags
    ('no-twos', True)
    >>> Rules.from_flags(rules.flags) == rules
    True
    """

    twos_in_sequences: bool = True

    #: The names accepted by :meth:`from_name`, the contract first.
    NAMES: ClassVar[tuple[str, ...]] = ("default", "no-twos")

    def __post_init__(self) -> None:
        if not isinstance(self.twos_in_sequences, bool):
            raise ValueError(
                f"twos_in_sequences must be a bool, got {self.twos_in_sequences!r}"
            )

    @property
    def flags(self) -> int:
        """The core's flags int for this ruleset (``0`` is the contract)."""
        return 0 if self.twos_in_sequences else _NO_TWOS

    @property
    def name(self) -> str:
        """The ruleset's name, one of :attr:`NAMES`."""
        return "default" if self.twos_in_sequences else "no-twos"

    @classmethod
    def from_name(cls, name: str) -> Rules:
        """The ruleset called ``name`` (see :attr:`NAMES`).

        >>> Rules.from_name("default") == Rules()
        True
        >>> Rules.from_name("house")
        Traceback (most recent call last):
        ...
        ValueError: unknown rules 'house' (expected one of: default, no-twos)
        """
        if name == "default":
            return cls()
        if name == "no-twos":
            return cls(twos_in_sequences=False)
        raise ValueError(f"unknown rules {name!r} (expected one of: {', '.join(cls.NAMES)})")

    @classmethod
    def from_flags(cls, flags: int) -> Rules:
        """The ruleset of a core flags int, the inverse of :attr:`flags`.

        >>> Rules.from_flags(0)
        Rules(twos_in_sequences=True)
        >>> Rules.from_flags(8)
        Traceback (most recent call last):
        ...
        ValueError: unknown rule flags 8
        """
        if type(flags) is not int or flags & ~_NO_TWOS:
            raise ValueError(f"unknown rule flags {flags!r}")
        return cls(twos_in_sequences=not flags & _NO_TWOS)
