"""Rule options (G4): :class:`RuleConfig`, frozen, hashable and serialisable.

The fields that change combinations and beating become the core's flags
(:attr:`RuleConfig.flags`); the others are carried for the game (tribute, levels, teams).

>>> RuleConfig.standard() == RuleConfig()
True
>>> RuleConfig.huaian().to_dict()["straight_extends_to_ace"]
False
>>> RuleConfig.from_dict(RuleConfig.huaian().to_dict()) == RuleConfig.huaian()
True
>>> RuleConfig(wild_count=1)
Traceback (most recent call last):
...
tienlen.games.guandan.errors.PlayError: wild_count must be 0 or 2; got 1
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import Enum
from typing import Any

from tienlen import _guandan
from tienlen.games.guandan.errors import PlayError

__all__ = ["BombOrder", "TeamFormation", "RuleConfig"]


class BombOrder(Enum):
    """How bombs compare among themselves (G3, G4)."""

    BY_COUNT = "BY_COUNT"  #: size first, then rank (the competition rules)
    BY_RANK = "BY_RANK"  #: rank first, then size; a straight flush counts as 5½ cards


class TeamFormation(Enum):
    """Who partners whom (G4)."""

    FIXED_1_3 = "FIXED_1_3"  #: seats 0 and 2 against 1 and 3
    RANDOM = "RANDOM"  #: partners drawn from the match seed


def _check_bool(name: str, value: object) -> None:
    if not isinstance(value, bool):
        raise PlayError(f"{name} must be a bool; got {value!r}")


def _check_int(name: str, value: object, lo: int, hi: int | None) -> None:
    if type(value) is not int:
        raise PlayError(f"{name} must be an int; got {value!r}")
    if value < lo or (hi is not None and value > hi):
        upper = "" if hi is None else f"..{hi}"
        raise PlayError(f"{name} must be in {lo}{upper or ' or more'}; got {value!r}")


def _enum(cls: type[Enum], name: str, value: object) -> Enum:
    if isinstance(value, cls):
        return value
    if isinstance(value, str) and value in cls.__members__:
        return cls[value]
    raise PlayError(f"{name} must be one of {', '.join(cls.__members__)}; got {value!r}")


@dataclass(frozen=True, slots=True)
class RuleConfig:
    """The rule options of G4. ``RuleConfig()`` is :meth:`standard`.

    >>> config = RuleConfig(bomb_compare_priority=BombOrder.BY_RANK)
    >>> config.bomb_compare_priority, config.flags == _guandan.BOMB_BY_RANK
    (<BombOrder.BY_RANK: 'BY_RANK'>, True)
    >>> RuleConfig(bomb_compare_priority="BY_RANK") == config    # names are accepted too
    True
    """

    #: False: a one-suit straight is an ordinary straight; no straight-flush bomb.
    same_suit_straight_beats_bomb: bool = True
    #: Levels gained when the partners finish 1st and 2nd.
    double_down_levels: int = 3
    #: True: a wild may be given as tribute.
    can_tribute_wild: bool = False
    #: The returned card is a non-level card of natural rank 2 .. this.
    tribute_return_max_rank: int = 10
    #: False: A may not top a straight or straight flush (A2345 stays valid).
    straight_extends_to_ace: bool = True
    #: How bombs compare among themselves.
    bomb_compare_priority: BombOrder = BombOrder.BY_COUNT
    #: 2: the level hearts are wild; 0: no wild cards.
    wild_count: int = 2
    #: Who partners whom.
    team_formation: TeamFormation = TeamFormation.FIXED_1_3
    #: Failed attempts at A before a team drops back to 2 (0 = unlimited).
    failed_attempts_limit: int = 3

    def __post_init__(self) -> None:
        _check_bool("same_suit_straight_beats_bomb", self.same_suit_straight_beats_bomb)
        _check_bool("can_tribute_wild", self.can_tribute_wild)
        _check_bool("straight_extends_to_ace", self.straight_extends_to_ace)
        _check_int("double_down_levels", self.double_down_levels, 1, 12)
        _check_int("tribute_return_max_rank", self.tribute_return_max_rank, 2, 14)
        _check_int("failed_attempts_limit", self.failed_attempts_limit, 0, None)
        if type(self.wild_count) is not int or self.wild_count not in (0, 2):
            raise PlayError(f"wild_count must be 0 or 2; got {self.wild_count!r}")
        object.__setattr__(self, "bomb_compare_priority",
                           _enum(BombOrder, "bomb_compare_priority", self.bomb_compare_priority))
        object.__setattr__(self, "team_formation",
                           _enum(TeamFormation, "team_formation", self.team_formation))

    @classmethod
    def standard(cls) -> RuleConfig:
        """The competition rules: every default."""
        return cls()

    @classmethod
    def huaian(cls) -> RuleConfig:
        """The plan's second preset: no straight-flush bomb, no straight topped by an A.

        >>> RuleConfig.huaian().same_suit_straight_beats_bomb
        False
        """
        return cls(same_suit_straight_beats_bomb=False, straight_extends_to_ace=False)

    @property
    def flags(self) -> int:
        """The core's rule flags for the fields that change plays (0 for standard())."""
        flags = 0
        if not self.same_suit_straight_beats_bomb:
            flags |= _guandan.NO_STRAIGHT_FLUSH
        if not self.straight_extends_to_ace:
            flags |= _guandan.NO_ACE_TOP
        if self.bomb_compare_priority is BombOrder.BY_RANK:
            flags |= _guandan.BOMB_BY_RANK
        if self.wild_count == 0:
            flags |= _guandan.NO_WILDS
        return flags

    def wild_card(self, level: int) -> int:
        """The card id of ``level``'s wild card (the level's ♥, G1.3) under these rules, -1
        when they play without wilds: the core's rule (``_guandan.wild_card``), the one
        place it is computed.

        >>> RuleConfig().wild_card(2), RuleConfig().wild_card(14), RuleConfig(wild_count=0).wild_card(5)
        (1, 49, -1)
        """
        return int(_guandan.wild_card(level, self.flags))

    def to_dict(self) -> dict[str, Any]:
        """Plain values (enums by name), for JSON.

        >>> RuleConfig().to_dict()["bomb_compare_priority"]
        'BY_COUNT'
        """
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            out[f.name] = value.name if isinstance(value, Enum) else value
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RuleConfig:
        """The inverse of :meth:`to_dict`; missing fields take their defaults, unknown
        ones are refused.

        >>> RuleConfig.from_dict({"wild_count": 0}).wild_count
        0
        >>> RuleConfig.from_dict({"wilds": 0})
        Traceback (most recent call last):
        ...
        tienlen.games.guandan.errors.PlayError: unknown RuleConfig fields: wilds
        """
        if not isinstance(data, dict):
            raise PlayError(f"RuleConfig.from_dict takes a dict; got {type(data).__name__}")
        known = {f.name for f in fields(cls)}
        unknown = sorted(str(k) for k in data if k not in known)
        if unknown:
            raise PlayError(f"unknown RuleConfig fields: {', '.join(unknown)}")
        return cls(**data)
