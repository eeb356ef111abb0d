"""Guandan plays (G2), beating (G3) and legal plays, all decided by the native core.

This module converts between Python values and the core's masks, play codes and flags;
every rule lives in the core (``src/guandan``).

>>> [p.describe() for p in classify("7s 7d 7c 10h 10h", 10)]   # W W: a pair, or two 7s
['full house of 7', '5-card bomb of 7']
>>> pile = classify("As", 2)[0]
>>> [str(p) for p in legal_plays("2d 3s SJ", 2, pile)]      # the level 2 and the joker
['single 2♦', 'single ☆']
>>> count_legal_plays("5s 6s 7s 8s 9s", 2)   # 5 singles, a straight and a straight flush
7
"""

from __future__ import annotations

from enum import IntEnum

from tienlen import _guandan
from tienlen.games.guandan.cards import RANKS, Card, Cards, _wrap
from tienlen.games.guandan.rules import BombOrder, RuleConfig
from tienlen.games.guandan.errors import CardError, PlayError

__all__ = ["Kind", "Play", "classify", "beats", "legal_plays", "count_legal_plays"]

_STANDARD = RuleConfig()


class Kind(IntEnum):
    """Kind of a play, with the core's values (``core.code_kind(code)``), in listing order."""

    SINGLE = 1
    PAIR = 2
    TRIPLE = 3
    FULL_HOUSE = 4
    STRAIGHT = 5
    THREE_PAIRS = 6
    PLATE = 7
    BOMB = 8
    STRAIGHT_FLUSH = 9
    JOKER_BOMB = 10

    @property
    def plan_name(self) -> str:
        """The name the plan's code uses (``TRIPLE_PLUS_TWO``, ``ROCKET`` ...).

        >>> Kind.FULL_HOUSE.plan_name, Kind.JOKER_BOMB.plan_name
        ('TRIPLE_PLUS_TWO', 'ROCKET')
        """
        return _PLAN_NAMES[self]

    @property
    def chinese(self) -> str:
        """The Chinese name.

        >>> Kind.PLATE.chinese
        '钢板'
        """
        return _CHINESE[self]

    @property
    def label(self) -> str:
        """Lower-case words, such as ``"full house"``."""
        return self.name.lower().replace("_", " ")

    @property
    def is_bomb(self) -> bool:
        """Bomb kinds beat every other kind (G3)."""
        return self >= Kind.BOMB


_PLAN_NAMES = {
    Kind.SINGLE: "SINGLE", Kind.PAIR: "PAIR", Kind.TRIPLE: "TRIPLE",
    Kind.FULL_HOUSE: "TRIPLE_PLUS_TWO", Kind.STRAIGHT: "STRAIGHT",
    Kind.THREE_PAIRS: "CONSECUTIVE_PAIRS", Kind.PLATE: "STEEL_PLATE", Kind.BOMB: "BOMB",
    Kind.STRAIGHT_FLUSH: "STRAIGHT_FLUSH", Kind.JOKER_BOMB: "ROCKET",
}
_CHINESE = {
    Kind.SINGLE: "单张", Kind.PAIR: "对子", Kind.TRIPLE: "三张", Kind.FULL_HOUSE: "三带二",
    Kind.STRAIGHT: "顺子", Kind.THREE_PAIRS: "三连对", Kind.PLATE: "钢板", Kind.BOMB: "炸弹",
    Kind.STRAIGHT_FLUSH: "同花顺", Kind.JOKER_BOMB: "天王炸",
}
_KINDS: tuple[Kind, ...] = (Kind.SINGLE, *Kind)  # indexed by the code's kind field
_WINDOWS = (Kind.STRAIGHT, Kind.THREE_PAIRS, Kind.PLATE, Kind.STRAIGHT_FLUSH)
# The run of each window kind (by the core's kind value): its ranks, the cards of each rank.
_RUNS = {int(Kind.STRAIGHT): (5, 1), int(Kind.STRAIGHT_FLUSH): (5, 1),
         int(Kind.THREE_PAIRS): (3, 2), int(Kind.PLATE): (2, 3)}
_FULL_HOUSE, _BOMB, _STRAIGHT_FLUSH = int(Kind.FULL_HOUSE), int(Kind.BOMB), int(Kind.STRAIGHT_FLUSH)
# Every card face once (display_cards builds no Card).
_CARD = tuple(Card(i) for i in range(54))


def _rank_name(rank: int) -> str:
    return RANKS[rank - 2] if rank <= 14 else ("☆" if rank == 15 else "★")


class Play:
    """A play: a multiset of cards and one reading of it (kind, size, rank), at a level.

    Build plays with :func:`classify` or :func:`legal_plays`. Frozen and hashable; two
    plays are equal when their cards, reading and level are.

    >>> play = classify("3s 4s 6s 7s 10h", 10)[-1]      # the wild fills the 5♠
    >>> play.kind, play.size, play.rank, play.level, play.uses_wild, play.is_bomb
    (<Kind.STRAIGHT_FLUSH: 9>, 5, 7, 10, True, True)
    >>> play.kind.chinese, play.cards == Cards.parse("3s 4s 6s 7s 10h")
    ('同花顺', True)
    """

    __slots__ = ("_cards", "_code", "_level", "_flags")
    _cards: Cards
    _code: int
    _level: int
    _flags: int

    def __init__(self) -> None:
        raise TypeError("plays come from classify() or legal_plays()")

    @property
    def cards(self) -> Cards:
        """The cards played."""
        return self._cards

    @property
    def code(self) -> int:
        """The core's play code, ``kind << 12 | size << 6 | rank``."""
        return self._code

    @property
    def kind(self) -> Kind:
        return _KINDS[_guandan.code_kind(self._code)]

    @property
    def size(self) -> int:
        """Number of cards."""
        return _guandan.code_size(self._code)

    @property
    def rank(self) -> int:
        """The reading's rank: 2..14 for a natural rank (a full house: its triple's), 15 ☆,
        16 ★; for straights, three pairs, plates and straight flushes the window's top
        natural rank (A2345 is 5). The joker bomb is 16."""
        return _guandan.code_rank(self._code)

    @property
    def level(self) -> int:
        """The level the play was read at (2..14)."""
        return self._level

    @property
    def config(self) -> RuleConfig:
        """The rule options the play was read under (those that change plays)."""
        return _config_of_flags(self._flags)

    @property
    def wild_card(self) -> int:
        """The card id of the wild card at the play's level under its rule options (-1
        without wilds), the core's."""
        return int(_guandan.wild_card(self._level, self._flags))

    @property
    def uses_wild(self) -> bool:
        """Whether the cards include a wild card (the level ♥, when wilds are on)."""
        wild = _guandan.wild_card(self._level, self._flags)
        return wild >= 0 and (self._cards._once >> wild) & 1 == 1

    @property
    def is_bomb(self) -> bool:
        """A bomb, straight flush or joker bomb: beats every other kind (G3)."""
        return _guandan.code_kind(self._code) >= Kind.BOMB

    @property
    def key(self) -> tuple[int, ...]:
        """A comparison key: ``(1, bomb order)`` for bombs (under the play's rule options),
        ``(0, kind, size, value)`` otherwise. A play beats another exactly when both keys
        start alike up to the last item (kind and size, or both bombs) and its last item is
        larger, or when it is a bomb and the other is not."""
        value = _guandan.compare_value(self._code, self._level, self._flags)
        if self.is_bomb:
            return (1, value)
        return (0, _guandan.code_kind(self._code), self.size, value)

    def display_cards(self) -> tuple[Card, ...]:
        """The cards in the order players read the play: a full house's triple before its
        pair (KKK22), a straight, three pairs or a plate along its run with the ace where
        it stands (A2345, 10JQKA), each wild card where it stands in for a missing card,
        and otherwise the natural cards, then the wilds. The terminal, the logs and the
        room (the table view's ``cards``) show plays in this order.

        >>> [str(c) for c in classify("2s 2h Ks Kh Kc", 2)[0].display_cards()]
        ['K♠', 'K♥', 'K♣', '2♠', '2♥']
        >>> [str(c) for c in classify("As 2s 3h 4c 5s", 3)[0].display_cards()]
        ['A♠', '2♠', '3♥', '4♣', '5♠']
        >>> [str(c) for c in classify("3s 4s 6s 7s 10h", 10)[-1].display_cards()]
        ['3♠', '4♠', '10♥', '6♠', '7♠']
        """
        return tuple(_CARD[c] for c in self.display_ids())

    def display_ids(self) -> list[int]:
        """The card ids (``original_id``) of :meth:`display_cards`, in its order."""
        ids = sorted(self._cards.ids)
        kind = _guandan.code_kind(self._code)
        wild = _guandan.wild_card(self._level, self._flags)
        if wild < 0 or wild not in ids:
            if kind < _FULL_HOUSE or kind >= _BOMB and kind != _STRAIGHT_FLUSH:
                return ids          # one rank (or the jokers), no wild: the sorted cards
            wilds: list[int] = []
            naturals = ids
        else:
            wilds = [c for c in ids if c == wild]
            naturals = [c for c in ids if c != wild]
        rank = _guandan.code_rank(self._code)
        run = _RUNS.get(kind)
        if run is not None:
            width, copies = run
            ordered: list[int] = []
            for position in range(rank - width + 1, rank + 1):
                face = 14 if position == 1 else position        # A2345: the ace is low
                here = [c for c in naturals if c < 52 and (c >> 2) + 2 == face][:copies]
                for c in here:
                    naturals.remove(c)
                ordered += here + [wilds.pop() for _ in range(copies - len(here)) if wilds]
            return ordered + naturals + wilds
        if kind == _FULL_HOUSE:
            triple = [c for c in naturals if c < 52 and (c >> 2) + 2 == rank][:3]
            for c in triple:
                naturals.remove(c)
            triple += [wilds.pop() for _ in range(3 - len(triple)) if wilds]
            return triple + naturals + wilds
        return naturals + wilds

    def describe(self) -> str:
        """The reading in words.

        >>> classify("As 2d 3c 4h 5s", 3)[0].describe()
        'straight A-5'
        >>> classify("SJ SJ", 3)[0].describe()
        'pair of ☆'
        """
        kind, rank = self.kind, self.rank
        if kind in _WINDOWS:
            width = {Kind.THREE_PAIRS: 3, Kind.PLATE: 2}.get(kind, 5)
            low = rank - width + 1
            return f"{kind.label} {_rank_name(14 if low == 1 else low)}-{_rank_name(rank)}"
        if kind is Kind.JOKER_BOMB:
            return "joker bomb"
        if kind is Kind.SINGLE:
            return f"single {_rank_name(rank)}"
        if kind is Kind.BOMB:
            return f"{self.size}-card bomb of {_rank_name(rank)}"
        return f"{kind.label} of {_rank_name(rank)}"

    def __str__(self) -> str:
        return f"{self.kind.label} {self._cards}"

    def __repr__(self) -> str:
        return (f"<Play {self.kind.name} size={self.size} rank={self.rank} "
                f"cards='{self._cards.ascii()}' level={self._level}>")

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Play):
            return (self._code == other._code and self._level == other._level
                    and self._cards == other._cards)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self._cards, self._code, self._level))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Play is immutable")

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        return (_play_from_state, (self._cards.once, self._cards.twice, self._code,
                                   self._level, self._flags))


_new = object.__new__
_set = object.__setattr__


def _make(cards: Cards, code: int, level: int, flags: int) -> Play:
    play = _new(Play)
    _set(play, "_cards", cards)
    _set(play, "_code", code)
    _set(play, "_level", level)
    _set(play, "_flags", flags)
    return play


def _play_from_state(once: int, twice: int, code: int, level: int, flags: int) -> Play:
    """Unpickle a play, re-checking it: the code must be a reading of the cards."""
    cards = Cards.from_masks(once, twice)
    if code not in _guandan.classify(once, twice, level, flags):
        raise PlayError("not a reading of these cards")
    return _make(cards, code, level, flags)


def _config_of_flags(flags: int) -> RuleConfig:
    return RuleConfig(
        same_suit_straight_beats_bomb=not flags & _guandan.NO_STRAIGHT_FLUSH,
        straight_extends_to_ace=not flags & _guandan.NO_ACE_TOP,
        bomb_compare_priority=(BombOrder.BY_RANK if flags & _guandan.BOMB_BY_RANK
                               else BombOrder.BY_COUNT),
        wild_count=0 if flags & _guandan.NO_WILDS else 2,
    )


_LEVEL_NAMES = {name.lower(): i + 2 for i, name in enumerate(RANKS)}
_LEVEL_NAMES["t"] = 10


def _level_arg(level: object) -> int:
    """A level 2..14, also written as a rank (``"A"``, ``"10"``, ``"j"``)."""
    if type(level) is int and 2 <= level <= 14:
        return level
    if isinstance(level, str):
        text = level.strip().lower()
        if text in _LEVEL_NAMES:
            return _LEVEL_NAMES[text]
        # The number the message below offers: "14" (= A), "11" (= J) ... as well as "A".
        if text.isascii() and text.isdigit() and 2 <= int(text) <= 14:
            return int(text)
        raise PlayError(f"level must be a rank 2..14 (14 = A); got {level!r}")
    if isinstance(level, bool) or not hasattr(level, "__index__"):
        raise PlayError(f"level must be a rank 2..14 (14 = A); got {level!r}")
    try:
        value: int = level.__index__()
    except TypeError:     # a NumPy array of more than one element, say
        raise PlayError(f"level must be a rank 2..14 (14 = A); got {level!r:.80}") from None
    if not 2 <= value <= 14:
        raise PlayError(f"level must be a rank 2..14 (14 = A); got {level!r}")
    return value


def _config_arg(config: object) -> int:
    if not isinstance(config, RuleConfig):
        raise PlayError(f"config must be a RuleConfig; got {type(config).__name__}")
    return config.flags


def _cards_arg(cards: object, name: str) -> Cards:
    if isinstance(cards, Cards):
        return cards
    if isinstance(cards, str):
        return Cards.parse(cards)
    raise CardError(f"{name} must be Cards or card text; got {type(cards).__name__}")


def _pile_code(pile: object, level: int, flags: int) -> int:
    """The core code of the pile to beat (0: none)."""
    if pile is None:
        return 0
    if isinstance(pile, Play):
        if pile._level != level:
            raise PlayError(f"the pile was read at level {pile._level}, this is level {level}")
        if not _guandan.is_play_code(pile._code, level, flags):
            raise PlayError(f"the pile {pile!r} is not a play under these rule options")
        return pile._code
    # Cards are not a play: the same cards can have several readings (G2), so the caller
    # picks one with classify().
    raise PlayError(f"pile must be a Play (from classify) or None; got {type(pile).__name__}")


def classify(cards: Cards | str, level: int | str, config: RuleConfig = _STANDARD) -> tuple[Play, ...]:
    """Every reading of exactly these cards at ``level`` (G2); ``()`` if they are no play.

    >>> [p.describe() for p in classify("3s 4d 5c 6h 10h", 10)]   # the wild as 2 or as 7
    ['straight 2-6', 'straight 3-7']
    >>> classify("SJ BJ", 2)
    ()
    """
    lv = _level_arg(level)
    flags = _config_arg(config)
    hand = _cards_arg(cards, "cards")
    return tuple(_make(hand, code, lv, flags)
                 for code in _guandan.classify(hand._once, hand._twice, lv, flags))


def beats(play: Play, pile: Play | None, config: RuleConfig = _STANDARD) -> bool:
    """Whether ``play`` may go on ``pile`` (G3); ``None`` is an empty pile.

    >>> bomb = classify("4s 4d 4c 4h", 2)[0]
    >>> beats(bomb, classify("BJ BJ", 2)[0]), beats(classify("BJ BJ", 2)[0], bomb)
    (True, False)
    """
    flags = _config_arg(config)
    if not isinstance(play, Play):
        raise PlayError(f"play must be a Play; got {type(play).__name__}")
    if pile is not None and not isinstance(pile, Play):
        raise PlayError(f"pile must be a Play or None; got {type(pile).__name__}")
    if not _guandan.is_play_code(play._code, play._level, flags):
        raise PlayError(f"{play!r} is not a play under these rule options")
    return bool(_guandan.beats(play._code, _pile_code(pile, play._level, flags), play._level, flags))


def legal_plays(hand: Cards | str, level: int | str, pile: Play | None = None,
                config: RuleConfig = _STANDARD) -> tuple[Play, ...]:
    """Every distinct play of ``hand`` that may go on ``pile`` (``None``: a lead).

    A play is a (cards, reading) pair: a multiset with two readings is listed twice, and
    plays that differ only in what a wild stands for are one play. Ordered by kind, then
    size and rank of the reading.

    >>> [p.describe() for p in legal_plays("7s 7h 7h", 7)]    # 7♥ is wild at level 7
    ['single 7', 'single 7', 'pair of 7', 'pair of 7', 'triple of 7']
    """
    lv = _level_arg(level)
    flags = _config_arg(config)
    cards = _cards_arg(hand, "hand")
    code = _pile_code(pile, lv, flags)
    masks, codes = _guandan.legal_plays(cards._once, cards._twice, lv, code, flags)
    make = _make
    wrap = _wrap
    return tuple([make(wrap(a, b), c, lv, flags)
                  for (a, b), c in zip(masks.tolist(), codes.tolist())])


def count_legal_plays(hand: Cards | str, level: int, pile: Play | None = None,
                      config: RuleConfig = _STANDARD) -> int:
    """``len(legal_plays(...))`` with the same arguments, counted in closed form.

    >>> count_legal_plays("SJ SJ BJ BJ", 2)     # ☆, ★, ☆☆, ★★ and the joker bomb
    5
    """
    lv = _level_arg(level)
    flags = _config_arg(config)
    cards = _cards_arg(hand, "hand")
    code = _pile_code(pile, lv, flags)
    return int(_guandan.count_legal_plays(cards._once, cards._twice, lv, code, flags))
