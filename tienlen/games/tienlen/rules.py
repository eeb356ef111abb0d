"""Rule variants as data: which ruleset a game plays, and the flags the core reads it from.

``Rules()`` is the contract of ``RULES.md``. Two presets ship beside it: ``Rules.no_twos()``
(R2.8) and ``Rules.southern()`` (R11, the Southern rules most Vietnamese players use). Every
field can also be set alone, and the core reads them all from one table (:attr:`Rules.flags`).

>>> Rules().name, Rules().flags
('default', 0)
>>> Rules.from_name("no-twos") == Rules.no_twos() == Rules(twos_in_sequences=False)
True
>>> Rules.southern().name
'southern'
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from typing import Any, ClassVar, Literal, cast, get_args

__all__ = ["Bomb", "CutTarget", "InstantWin", "Penalties", "Rules", "CONTRACT_CUTS",
           "SOUTHERN_CUTS", "ALL_BOMBS", "ALL_TARGETS", "ALL_INSTANT_WINS"]

#: The combinations that can be bombs: a quad, and double sequences of 3, 4 and 5 pairs.
Bomb = Literal["quad", "3ds", "4ds", "5ds"]
#: What a bomb can cut: a single 2, a pair of 2s, a triple of 2s, or a bomb of a kind above.
CutTarget = Literal["2", "22", "222", "quad", "3ds", "4ds", "5ds"]
#: The deals that win a hand at once (R11): four 2s, a dragon (one card of each rank 3 to A),
#: six pairs, five consecutive pairs.
InstantWin = Literal["four_twos", "dragon", "six_pairs", "five_pairs"]

#: Every :data:`Bomb`, in the order of the rule flags.
ALL_BOMBS: tuple[Bomb, ...] = get_args(Bomb)
#: Every :data:`CutTarget`, in the order of the rule flags.
ALL_TARGETS: tuple[CutTarget, ...] = get_args(CutTarget)
#: Every :data:`InstantWin`, in the order of the rule flags.
ALL_INSTANT_WINS: tuple[InstantWin, ...] = get_args(InstantWin)

#: R4.1: the contract's bomb table, as (bomb, what it cuts) pairs.
CONTRACT_CUTS: frozenset[tuple[Bomb, CutTarget]] = frozenset(
    {("quad", "2"), ("3ds", "2"), ("4ds", "22"), ("5ds", "222")})
#: R11.1 (chặt): the Southern table. A pair whose two sides are the same kind ("quad" cuts
#: "quad") means "beats a lower one"; it matters for out-of-turn play (R11.2), since in turn
#: R3.1 already lets a higher combination of the same kind beat a lower one.
SOUTHERN_CUTS: frozenset[tuple[Bomb, CutTarget]] = frozenset(
    {("3ds", "2"),
     ("quad", "2"), ("quad", "22"), ("quad", "3ds"), ("quad", "quad"),
     ("4ds", "2"), ("4ds", "22"), ("4ds", "3ds"), ("4ds", "quad"), ("4ds", "4ds")})

# The layout of Rules.flags, the one int the core reads the whole table from. Every bit is a
# difference from the contract, so that 0 stays the contract in every core entry point.
_F_NO_TWOS = 1                       # bit 0: R2.8
_CUT_BASE = 1                        # bits 1-28: cut (bomb b, target t) toggled, 1 + 7b + t
_OUT_OF_TURN_BASE = 29               # bits 29-32: out-of-turn bomb b toggled (contract: all)
_INSTANT_BASE = 33                   # bits 33-36: instant win w enabled (contract: none)
_KNOWN_BITS = (1 << 37) - 1


def _cut_bit(bomb: Bomb, target: CutTarget) -> int:
    return 1 << (_CUT_BASE + 7 * ALL_BOMBS.index(bomb) + ALL_TARGETS.index(target))


@dataclass(frozen=True, slots=True)
class Penalties:
    """R11.5: the Southern penalty table that :class:`~tienlen.games.tienlen.match.Match` scores beside the
    R10.2 points. Every value is in points; the defaults are the common table.

    >>> Penalties().red_two
    2
    """

    #: Each unplayed black 2 (♠, ♣) left in the loser's hand.
    black_two: int = 1
    #: Each unplayed red 2 (♦, ♥) left in the loser's hand.
    red_two: int = 2
    #: Each unplayed bomb left in the loser's hand, by kind: a double sequence of 3 pairs,
    #: a quad, a double sequence of 4 pairs. Only the ruleset's own bombs count (the kinds
    #: that cut something in ``Rules.cuts``).
    three_pairs: int = 3
    quad: int = 4
    four_pairs: int = 6
    #: A player who played no card by the end of the hand (cóng) pays this many times over.
    cong_multiplier: int = 2
    #: A cut 2 or bomb is paid (its value above) by the player cut to the player who cut it;
    #: in a chain of cuts the last player cut pays for the whole chain.
    cut_pays: bool = True
    #: A double sequence of 5 pairs, for rulesets where it is a bomb (the contract's R4.1;
    #: not a bomb in the South).
    five_pairs: int = 8

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(f.default, bool):
                if not isinstance(value, bool):
                    raise ValueError(f"Penalties.{f.name} must be a bool, got {value!r}")
            elif type(value) is not int or value < 0:
                raise ValueError(f"Penalties.{f.name} must be an int >= 0, got {value!r}")


def _frozen(name: str, value: Any, allowed: tuple[str, ...], pairs: bool = False) -> frozenset[Any]:
    """Validate a set field: a (frozen)set, list or tuple of allowed names (or name pairs)."""
    if isinstance(value, (str, bytes)) or not isinstance(value, (frozenset, set, list, tuple)):
        raise ValueError(f"{name} must be a set, got {value!r}")
    try:
        items = frozenset(tuple(v) if pairs and isinstance(v, list) else v for v in value)
    except TypeError:   # an unhashable entry, e.g. a JSON list where a name belongs
        raise ValueError(f"{name}: entries must be names"
                         + (" or (bomb, target) pairs" if pairs else "")
                         + f", got {value!r:.80}") from None
    for item in items:
        if pairs:
            ok = (isinstance(item, tuple) and len(item) == 2 and item[0] in ALL_BOMBS
                  and item[1] in ALL_TARGETS)
        else:
            ok = item in allowed
        if not ok:
            raise ValueError(f"{name}: unknown entry {item!r} (expected "
                             + ("(bomb, target) pairs" if pairs else ", ".join(allowed)) + ")")
    return items


_FLAGS_LIMIT = 256
_FLAGS: dict[Rules, int] = {}   # Rules.flags by ruleset: few rulesets, each read many times


@dataclass(frozen=True, slots=True)
class Rules:
    """A ruleset. Immutable and hashable; ``Rules()`` is the contract.

    - ``twos_in_sequences``: ``False`` is R2.8, no 2 in a sequence or double sequence.
    - ``cuts``: which bomb beats which combination across kinds (R4.1; R11.1 in the South).
    - ``out_of_turn``: the bombs a locked-out player may still play, on anything ``cuts`` says
      they beat; while the pile holds such a target, locked-out players get the turn (R5.2,
      R5.3; R11.2).
    - ``instant_wins``: the deals that win the hand at once (R11.3).
    - ``penalties``: the Match's penalty table (R11.5), ``None`` for R10.2 points only.

    >>> rules = Rules(twos_in_sequences=False)
    >>> rules.name, rules.flags == Rules.from_name("no-twos").flags
    ('no-twos', True)
    >>> Rules.from_flags(rules.flags) == rules
    True
    >>> Rules(cuts=frozenset()).name
    'custom'
    """

    twos_in_sequences: bool = True
    cuts: frozenset[tuple[Bomb, CutTarget]] = CONTRACT_CUTS
    out_of_turn: frozenset[Bomb] = frozenset(ALL_BOMBS)
    instant_wins: frozenset[InstantWin] = frozenset()
    penalties: Penalties | None = None

    #: The presets accepted by :meth:`from_name`, the contract first.
    NAMES: ClassVar[tuple[str, ...]] = ("default", "no-twos", "southern")

    def __post_init__(self) -> None:
        if not isinstance(self.twos_in_sequences, bool):
            raise ValueError(
                f"twos_in_sequences must be a bool, got {self.twos_in_sequences!r}")
        object.__setattr__(self, "cuts", _frozen("cuts", self.cuts, (), pairs=True))
        object.__setattr__(self, "out_of_turn",
                           _frozen("out_of_turn", self.out_of_turn, ALL_BOMBS))
        object.__setattr__(self, "instant_wins",
                           _frozen("instant_wins", self.instant_wins, ALL_INSTANT_WINS))
        if self.penalties is not None and not isinstance(self.penalties, Penalties):
            raise ValueError(f"penalties must be a Penalties or None, got {self.penalties!r}")

    # --- presets -----------------------------------------------------------------------------

    @classmethod
    def no_twos(cls) -> Rules:
        """R2.8: the contract with no 2 in any sequence or double sequence."""
        return cls(twos_in_sequences=False)

    @classmethod
    def southern(cls) -> Rules:
        """R11, Tiến Lên Miền Nam: no 2 in sequences, the chặt table, 4-pair double sequences
        out of turn, instant wins and the penalty table.

        >>> r = Rules.southern()
        >>> ("4ds", "quad") in r.cuts, sorted(r.out_of_turn), r.twos_in_sequences
        (True, ['4ds'], False)
        """
        return cls(twos_in_sequences=False, cuts=SOUTHERN_CUTS, out_of_turn=frozenset({"4ds"}),
                   instant_wins=frozenset(ALL_INSTANT_WINS), penalties=Penalties())

    # --- names ---------------------------------------------------------------------------------

    @property
    def name(self) -> str:
        """The preset's name (one of :attr:`NAMES`), or ``"custom"``."""
        for name in self.NAMES:
            if self.from_name(name) == self:
                return name
        return "custom"

    @classmethod
    def from_name(cls, name: str) -> Rules:
        """The preset called ``name`` (see :attr:`NAMES`).

        >>> Rules.from_name("default") == Rules()
        True
        >>> Rules.from_name("house")
        Traceback (most recent call last):
        ...
        ValueError: unknown rules 'house' (expected one of: default, no-twos, southern)
        """
        if name == "default":
            return cls()
        if name == "no-twos":
            return cls.no_twos()
        if name == "southern":
            return cls.southern()
        raise ValueError(f"unknown rules {name!r} (expected one of: {', '.join(cls.NAMES)})")

    def with_(self, **changes: Any) -> Rules:
        """A copy with some fields changed (validated like the constructor).

        >>> Rules().with_(instant_wins={"dragon"}).instant_wins
        frozenset({'dragon'})
        >>> Rules().with_(dragon=True)
        Traceback (most recent call last):
        ...
        ValueError: Rules has no field 'dragon' (fields: twos_in_sequences, cuts, out_of_turn, instant_wins, penalties)
        """
        names = [f.name for f in fields(self)]
        for key in changes:
            if key not in names:
                raise ValueError(f"Rules has no field {key!r} (fields: {', '.join(names)})")
        return replace(self, **changes)

    # --- the core's view ---------------------------------------------------------------------

    @property
    def flags(self) -> int:
        """The core's flags int for this ruleset (``0`` is the contract; penalties are the
        Match's business and not part of it). Bits are differences from the contract: bit 0
        R2.8, bits 1-28 a cut toggled, bits 29-32 an out-of-turn bomb toggled, bits 33-36 an
        instant win enabled."""
        # Memoised by value: every Game reads it when it is dealt, and working it out
        # walks every (bomb, target) pair (several us). A hit is one hash of the ruleset.
        try:
            flags = _FLAGS.get(self)
        except TypeError:       # a field that cannot be hashed: work it out every time
            return self._flags()
        if flags is None:
            if len(_FLAGS) >= _FLAGS_LIMIT:
                _FLAGS.clear()
            flags = _FLAGS[self] = self._flags()
        return flags

    def _flags(self) -> int:
        flags = 0 if self.twos_in_sequences else _F_NO_TWOS
        for bomb in ALL_BOMBS:
            for target in ALL_TARGETS:
                if ((bomb, target) in self.cuts) != ((bomb, target) in CONTRACT_CUTS):
                    flags |= _cut_bit(bomb, target)
        for b, bomb in enumerate(ALL_BOMBS):
            if bomb not in self.out_of_turn:
                flags |= 1 << (_OUT_OF_TURN_BASE + b)
        for w, win in enumerate(ALL_INSTANT_WINS):
            if win in self.instant_wins:
                flags |= 1 << (_INSTANT_BASE + w)
        return flags

    @classmethod
    def from_flags(cls, flags: int, penalties: Penalties | None = None) -> Rules:
        """The ruleset of a core flags int, the inverse of :attr:`flags`.

        >>> Rules.from_flags(0) == Rules()
        True
        >>> Rules.from_flags(Rules.southern().flags, Penalties()) == Rules.southern()
        True
        >>> Rules.from_flags(1 << 40)
        Traceback (most recent call last):
        ...
        ValueError: unknown rule flags 1099511627776
        """
        if type(flags) is not int or flags < 0 or flags & ~_KNOWN_BITS:
            raise ValueError(f"unknown rule flags {flags!r}")
        cuts = {(b, t) for b in ALL_BOMBS for t in ALL_TARGETS
                if ((b, t) in CONTRACT_CUTS) != bool(flags & _cut_bit(b, t))}
        out = {b for i, b in enumerate(ALL_BOMBS) if not flags >> (_OUT_OF_TURN_BASE + i) & 1}
        wins = {w for i, w in enumerate(ALL_INSTANT_WINS) if flags >> (_INSTANT_BASE + i) & 1}
        return cls(twos_in_sequences=not flags & _F_NO_TWOS, cuts=frozenset(cuts),
                   out_of_turn=frozenset(out), instant_wins=frozenset(wins), penalties=penalties)

    # --- JSON (replays) ------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able fields, sorted so the same rules always give the same text.

        >>> Rules().to_dict()["out_of_turn"]
        ['3ds', '4ds', '5ds', 'quad']
        """
        return {
            "name": self.name,
            "twos_in_sequences": self.twos_in_sequences,
            "cuts": sorted([b, t] for b, t in self.cuts),
            "out_of_turn": sorted(self.out_of_turn),
            "instant_wins": sorted(self.instant_wins),
            "penalties": None if self.penalties is None else {
                f.name: getattr(self.penalties, f.name) for f in fields(self.penalties)},
        }

    @classmethod
    def from_dict(cls, data: object) -> Rules:
        """The inverse of :meth:`to_dict`; a bare preset name is accepted too.

        >>> Rules.from_dict(Rules.southern().to_dict()) == Rules.southern()
        True
        >>> Rules.from_dict("no-twos") == Rules.no_twos()
        True
        """
        if isinstance(data, str):
            return cls.from_name(data)
        if not isinstance(data, dict):
            raise ValueError(f"rules must be a preset name or an object, got {data!r:.80}")
        known = {"name", "twos_in_sequences", "cuts", "out_of_turn", "instant_wins", "penalties"}
        extra = set(data) - known
        if extra:
            # Sorted by text: a dict built in Python may mix key types that do not compare.
            raise ValueError(f"rules: unknown field {sorted(map(repr, extra))[0]}")
        base = cls.from_name(data["name"]) if data.get("name", "custom") != "custom" else cls()
        changes: dict[str, Any] = {}
        for key in ("twos_in_sequences", "cuts", "out_of_turn", "instant_wins"):
            if key in data:
                changes[key] = data[key]
        if "penalties" in data:
            p = data["penalties"]
            if p is None:
                changes["penalties"] = None
            elif isinstance(p, dict):
                names = {f.name for f in fields(Penalties)}
                bad = set(p) - names
                if bad:
                    raise ValueError(
                        f"rules.penalties: unknown field {sorted(map(repr, bad))[0]}")
                changes["penalties"] = Penalties(**cast(dict[str, Any], p))
            else:
                raise ValueError(f"rules.penalties must be an object or null, got {p!r:.80}")
        rules = replace(base, **changes)
        if "name" in data and data["name"] != "custom" and rules.name != data["name"]:
            raise ValueError(f"rules: the fields do not match the preset {data['name']!r}")
        return rules
