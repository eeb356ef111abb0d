"""Guandan cards (G1): a :class:`Card` is an ``original_id`` 0..53, a :class:`Cards` an
immutable multiset holding each card at most twice, stored as the core's two masks.

``original_id = (rank - 2) * 4 + suit`` for the naturals (suits ``♠ ♥ ♣ ♦`` = 0..3, ranks
2..14 with 14 = A), 52 = small joker ☆, 53 = big joker ★. The two physical copies of a card
(``card_id = original_id + 54 * deck``) are interchangeable in play.

>>> hand = Cards.parse("5h 5h 10s SJ BJ")
>>> print(hand)
5♥ 5♥ 10♠ ☆ ★
>>> hand.ids, len(hand), hand.counts[13]
((13, 13, 32, 52, 53), 5, 2)
>>> Card.parse("10s").rank, Card.parse("☆").suit
(10, None)
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Iterator

from tienlen.games.spelling import Spelling
from tienlen.games.guandan.errors import CardError

__all__ = ["Card", "Cards", "RANKS", "SUITS", "ASCII_SUITS"]

#: Rank symbols by natural rank 2..14 (index rank - 2).
RANKS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
#: Suit symbols by suit 0..3 (the plan's order).
SUITS: tuple[str, ...] = ("♠", "♥", "♣", "♦")
#: ASCII suit letters, in the order of :data:`SUITS`.
ASCII_SUITS: tuple[str, ...] = ("s", "h", "c", "d")

_NTYPES = 54
_ALL = (1 << _NTYPES) - 1

# Text is read by the spelling shared with the Tiến Lên deck (tienlen.games.spelling); the
# jokers are ids 52 and 53.
_SPELLING = Spelling(
    RANKS, SUITS, ASCII_SUITS, (("☆", "SJ"), ("★", "BJ")), error=CardError,
    expected="a rank (2-10, T, J, Q, K, A) then a suit (s h c d or ♠ ♥ ♣ ♦), "
             "or a joker (SJ, BJ, ☆, ★)")
_UNICODE = _SPELLING.names
_ASCII = _SPELLING.ascii_names


class Card(int):
    """One card face, an ``int`` equal to its ``original_id`` 0..53.

    >>> card = Card(13)
    >>> card, str(card), card.rank, card.suit, card.original_id
    (Card.parse('5h'), '5♥', 5, 1, 13)
    >>> Card(53).rank, str(Card.parse("bj"))
    (16, '★')
    >>> Card(54)
    Traceback (most recent call last):
    ...
    tienlen.games.guandan.errors.CardError: original_id out of range 0..53: 54
    """

    __slots__ = ()

    def __new__(cls, original_id: int) -> Card:
        if type(original_id) is int and 0 <= original_id < _NTYPES:
            return _CARDS[original_id]
        if isinstance(original_id, Card):
            return original_id
        if isinstance(original_id, (str, bool)) or original_id is None:
            raise CardError(f"Card() takes an original_id 0..53; got {original_id!r}"
                            + (" (use Card.parse for text)" if isinstance(original_id, str) else ""))
        try:
            value = operator.index(original_id)
        except TypeError:
            raise CardError(f"Card() takes an original_id 0..53; got {type(original_id).__name__}") from None
        if not 0 <= value < _NTYPES:
            raise CardError(f"original_id out of range 0..53: {value}")
        return _CARDS[value]

    @classmethod
    def parse(cls, text: str) -> Card:
        """One card: ``"5h"``, ``"10♠"``, ``"Td"``, ``"A♥️"``, ``"SJ"``, ``"☆"`` (any case).

        >>> Card.parse("Qc").original_id, Card.parse("☆") == Card.parse("sj")
        (42, True)
        """
        return _CARDS[_SPELLING.one(text)]

    @property
    def original_id(self) -> int:
        """The face, 0..53."""
        return int(self)

    @property
    def rank(self) -> int:
        """Natural rank 2..14 (14 = A); 15 for ☆, 16 for ★."""
        return 15 + (self - 52) if self >= 52 else 2 + (self >> 2)

    @property
    def suit(self) -> int | None:
        """0 ♠, 1 ♥, 2 ♣, 3 ♦; ``None`` for a joker."""
        return None if self >= 52 else self & 3

    @property
    def is_joker(self) -> bool:
        return self >= 52

    def ascii(self) -> str:
        """The ASCII form, such as ``"10h"`` or ``"SJ"``."""
        return _ASCII[self]

    def __str__(self) -> str:
        return _UNICODE[self]

    def __repr__(self) -> str:
        return f"Card.parse('{_ASCII[self]}')"


_CARDS: tuple[Card, ...] = tuple(int.__new__(Card, i) for i in range(_NTYPES))


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _add_id(once: int, twice: int, oid: int, what: str) -> tuple[int, int]:
    bit = 1 << oid
    if twice & bit:
        raise CardError(f"a third copy of {_UNICODE[oid]} ({what!r}): a hand holds at most two "
                        "of each card", what)
    if once & bit:
        return once, twice | bit
    return once | bit, twice


class Cards:
    """An immutable multiset of Guandan cards, each at most twice.

    Stored as two masks over the 54 faces: ``once`` (held at least once) and ``twice``
    (held twice), the form the core takes. Iteration yields :class:`Card` in id order,
    repeats included. ``+`` adds (a third copy is an error), ``-`` removes (only what is
    there), ``|`` and ``&`` take the larger and smaller count of each face, ``<=`` tests
    for a sub-multiset.

    >>> a, b = Cards.parse("5h 6s"), Cards.parse("5h 7d")
    >>> print(a + b, "|", a | b, "|", a & b, "|", (a + b) - b)
    5♥ 5♥ 6♠ 7♦ | 5♥ 6♠ 7♦ | 5♥ | 5♥ 6♠
    >>> a <= a + b, Card.parse("6s") in a, "7d" in a
    (True, True, False)
    >>> Cards.parse("5h 5h") + a
    Traceback (most recent call last):
    ...
    tienlen.games.guandan.errors.CardError: a third copy of 5♥: a hand holds at most two of each card
    """

    __slots__ = ("_once", "_twice")
    _once: int
    _twice: int

    def __init__(self, cards: Iterable[int | str] = ()) -> None:
        """Cards from an iterable of original ids, :class:`Card` or card text."""
        if isinstance(cards, Cards):
            self._once, self._twice = cards._once, cards._twice
            return
        if isinstance(cards, (str, bytes, int)):
            raise CardError(f"Cards() takes an iterable of cards; got {cards!r}"
                            + (" (use Cards.parse for text)" if isinstance(cards, str) else ""))
        try:
            items = list(cards)
        except TypeError:
            raise CardError(f"Cards() takes an iterable of cards; got {type(cards).__name__}") from None
        once = twice = 0
        for item in items:
            card = Card.parse(item) if isinstance(item, str) else Card(item)
            once, twice = _add_id(once, twice, card, str(item))
        self._once, self._twice = once, twice

    @classmethod
    def parse(cls, text: str) -> Cards:
        """Cards separated by spaces and/or commas: ``"5h 5h 10s SJ BJ"``, ``"T♦, ☆"``.

        >>> Cards.parse("Th, ☆ ★ q♦ AS").ids
        (33, 43, 48, 52, 53)
        >>> Cards.parse("5x")
        Traceback (most recent call last):
        ...
        tienlen.games.guandan.errors.CardError: not a card: '5x' (unknown suit 'x')
        """
        once = twice = 0
        for token in _SPELLING.tokens(text):
            once, twice = _add_id(once, twice, _SPELLING.id(token), token)
        return _wrap(once, twice)

    @classmethod
    def from_ids(cls, ids: Iterable[int]) -> Cards:
        """Cards from original ids 0..53 (each at most twice).

        >>> print(Cards.from_ids([53, 13, 13]))
        5♥ 5♥ ★
        """
        once = twice = 0
        for oid in _iter_ints(ids, "ids"):
            if not 0 <= oid < _NTYPES:
                raise CardError(f"original ids are 0..53; got {oid}")
            once, twice = _add_id(once, twice, oid, str(oid))
        return _wrap(once, twice)

    @classmethod
    def from_card_ids(cls, card_ids: Iterable[int]) -> Cards:
        """Cards from physical card ids 0..107 (``original_id + 54 * deck``), each at most
        once.

        >>> Cards.from_card_ids([0, 54]) == Cards.parse("2s 2s")
        True
        """
        seen = 0
        once = twice = 0
        for cid in _iter_ints(card_ids, "card_ids"):
            if not 0 <= cid < 2 * _NTYPES:
                raise CardError(f"card ids are 0..107; got {cid}")
            if (seen >> cid) & 1:
                raise CardError(f"card id {cid} given twice")
            seen |= 1 << cid
            once, twice = _add_id(once, twice, cid % _NTYPES, str(cid))
        return _wrap(once, twice)

    @classmethod
    def from_masks(cls, once: int, twice: int = 0) -> Cards:
        """Cards from the core's two masks (``twice`` must lie inside ``once``).

        >>> Cards.from_masks(1 << 13, 1 << 13) == Cards.parse("5h 5h")
        True
        """
        for name, mask in (("once", once), ("twice", twice)):
            if type(mask) is not int:
                try:
                    mask = operator.index(mask)
                except TypeError:
                    raise CardError(f"{name} must be an int mask; got {mask!r}") from None
            if mask < 0 or mask > _ALL:
                raise CardError(f"{name} must be a mask of the 54 faces (0 <= mask < 2**54); got {mask!r}")
        once, twice = operator.index(once), operator.index(twice)
        if twice & ~once:
            raise CardError("twice has faces that once lacks: a face held twice is held once too")
        return _wrap(once, twice)

    @property
    def once(self) -> int:
        """Mask of the faces held at least once."""
        return self._once

    @property
    def twice(self) -> int:
        """Mask of the faces held twice."""
        return self._twice

    @property
    def masks(self) -> tuple[int, int]:
        """``(once, twice)``, the core's form."""
        return self._once, self._twice

    @property
    def ids(self) -> tuple[int, ...]:
        """Original ids, ascending, repeats included."""
        out: list[int] = []
        twice = self._twice
        for oid in _bits(self._once):
            out.append(oid)
            if (twice >> oid) & 1:
                out.append(oid)
        return tuple(out)

    @property
    def counts(self) -> tuple[int, ...]:
        """How many of each face 0..53 (54 ints, each 0..2)."""
        once, twice = self._once, self._twice
        return tuple(((once >> i) & 1) + ((twice >> i) & 1) for i in range(_NTYPES))

    def count(self, card: int | str) -> int:
        """How many copies of one face.

        >>> Cards.parse("5h 5h 6s").count("5h")
        2
        """
        oid = Card.parse(card) if isinstance(card, str) else Card(card)
        return ((self._once >> oid) & 1) + ((self._twice >> oid) & 1)

    def ascii(self) -> str:
        """The ASCII form, such as ``"5h 5h 10s SJ"``."""
        return " ".join(_ASCII[i] for i in self.ids)

    def __str__(self) -> str:
        return " ".join(_UNICODE[i] for i in self.ids)

    def __repr__(self) -> str:
        return f"Cards.parse('{self.ascii()}')" if self._once else "Cards()"

    def __len__(self) -> int:
        return self._once.bit_count() + self._twice.bit_count()

    def __bool__(self) -> bool:
        return self._once != 0

    def __iter__(self) -> Iterator[Card]:
        cards = _CARDS
        for oid in self.ids:
            yield cards[oid]

    def __contains__(self, card: object) -> bool:
        oid: int
        if isinstance(card, str):
            oid = Card.parse(card)
        else:
            try:
                oid = operator.index(card)  # type: ignore[arg-type]
            except TypeError:
                return False
        return 0 <= oid < _NTYPES and (self._once >> oid) & 1 == 1

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Cards):
            return self._once == other._once and self._twice == other._twice
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self._once, self._twice))

    def __add__(self, other: Cards) -> Cards:
        if not isinstance(other, Cards):
            return NotImplemented
        both = self._once & other._once
        third = (self._twice & other._once) | (other._twice & self._once)
        if third:
            oid = (third & -third).bit_length() - 1
            raise CardError(f"a third copy of {_UNICODE[oid]}: a hand holds at most two of each card")
        return _wrap(self._once | other._once, self._twice | other._twice | both)

    def __sub__(self, other: Cards) -> Cards:
        if not isinstance(other, Cards):
            return NotImplemented
        if not other <= self:
            missing = (other._once & ~self._once) | (other._twice & ~self._twice)
            oid = (missing & -missing).bit_length() - 1
            raise CardError(f"cannot take away {other}: not enough {_UNICODE[oid]}")
        # Per face: count 2 - 1 = 1, 2 - 2 = 0, 1 - 1 = 0.
        once = (self._once & ~other._once) | (self._twice & ~other._twice)
        twice = self._twice & ~other._once
        return _wrap(once, twice)

    def __or__(self, other: Cards) -> Cards:
        if not isinstance(other, Cards):
            return NotImplemented
        return _wrap(self._once | other._once, self._twice | other._twice)

    def __and__(self, other: Cards) -> Cards:
        if not isinstance(other, Cards):
            return NotImplemented
        return _wrap(self._once & other._once, self._twice & other._twice)

    def __le__(self, other: Cards) -> bool:
        if not isinstance(other, Cards):
            return NotImplemented
        return (self._once & ~other._once) == 0 and (self._twice & ~other._twice) == 0

    def __ge__(self, other: Cards) -> bool:
        if not isinstance(other, Cards):
            return NotImplemented
        return other <= self

    def __lt__(self, other: Cards) -> bool:
        if not isinstance(other, Cards):
            return NotImplemented
        return self <= other and self != other

    def __gt__(self, other: Cards) -> bool:
        if not isinstance(other, Cards):
            return NotImplemented
        return other <= self and self != other

    def __reduce__(self) -> tuple[object, tuple[int, int]]:
        return (Cards.from_masks, (self._once, self._twice))


def _iter_ints(values: Iterable[int], name: str) -> Iterator[int]:
    if isinstance(values, (str, bytes)):
        raise CardError(f"{name} must be an iterable of ints; got {values!r}")
    try:
        items = list(values)
    except TypeError:
        raise CardError(f"{name} must be an iterable of ints; got {type(values).__name__}") from None
    for value in items:
        if isinstance(value, bool) or value is None:
            raise CardError(f"{name} must hold ints; got {value!r}")
        try:
            yield operator.index(value)
        except TypeError:
            raise CardError(f"{name} must hold ints; got {value!r}") from None


_new = object.__new__


def _wrap(once: int, twice: int) -> Cards:
    """A :class:`Cards` over masks already known to be valid (no checks: hot path)."""
    cards = _new(Cards)
    cards._once = once
    cards._twice = twice
    return cards


def _masks_of_ids(ids: Iterable[int]) -> tuple[int, int]:
    """The (once, twice) masks of original ids the program drew itself, each at most
    twice (no checks: L3's sampler builds thousands of hands a decision; outside input goes
    through :meth:`Cards.from_ids`).

    >>> _masks_of_ids([13, 53, 13]) == Cards.from_ids([13, 53, 13]).masks
    True
    """
    once = twice = 0
    for oid in ids:
        bit = 1 << oid
        if once & bit:
            twice |= bit
        else:
            once |= bit
    return once, twice


def deal(seed: int) -> tuple[Cards, Cards, Cards, Cards]:
    """The seeded deal (G5): four hands of 27 cards, the same for a seed on every platform
    (the core's own PRNG; see :func:`tienlen.games.guandan.core.deal`).

    >>> hands = deal(7)
    >>> [len(h) for h in hands], sum(hands[1:], hands[0]) == Cards.from_card_ids(range(108))
    ([27, 27, 27, 27], True)
    """
    from tienlen import _guandan

    return tuple(_wrap(once, twice) for once, twice in _guandan.deal(seed))  # type: ignore[return-value]
