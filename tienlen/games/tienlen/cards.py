"""Cards and sets of cards: thin Python values over the core's card indices and masks.

A :class:`Card` is an ``int`` 0..51, ``rank * 4 + suit``, so comparing cards compares their
strength (R1.3). A :class:`Cards` is an immutable set of cards stored as a 52-bit mask, the
form the core works with.

>>> hand = Cards.parse("3s 4c 10h")
>>> print(hand)
3♠ 4♣ 10♥
>>> hand.mask
2147483681
>>> Card.parse("3s") < Card.parse("2h")
True
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Iterator

from tienlen import _core
from tienlen.errors import CardParseError
from tienlen.games.spelling import Spelling

__all__ = ["Card", "Cards", "parse_cards", "RANKS", "SUITS", "ASCII_SUITS"]

#: Rank symbols, weakest first (rank index 0..12).
RANKS: tuple[str, ...] = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2")
#: Suit symbols, weakest first (suit index 0..3).
SUITS: tuple[str, ...] = ("♠", "♣", "♦", "♥")
#: ASCII suit letters, in the order of :data:`SUITS`.
ASCII_SUITS: tuple[str, ...] = ("s", "c", "d", "h")

_NCARDS = 52
_ALL_MASK = (1 << _NCARDS) - 1

# Text is read by the spelling shared with the Guandan deck (tienlen.games.spelling).
_SPELLING = Spelling(
    RANKS, SUITS, ASCII_SUITS, error=CardParseError,
    expected="a rank (3-10, T, J, Q, K, A, 2) then a suit (s c d h or ♠ ♣ ♦ ♥)")
_UNICODE = _SPELLING.names
_ASCII = _SPELLING.ascii_names


class Card(int):
    """One card, an ``int`` 0..51 equal to ``rank * 4 + suit`` (R1.3).

    Ranks 0..12 are ``3 4 5 6 7 8 9 10 J Q K A 2``, suits 0..3 are ``♠ ♣ ♦ ♥``; the index
    order is the strength order, so cards compare like their strength.

    >>> card = Card(51)
    >>> card
    Card.parse('2h')
    >>> print(card, card.ascii(), f"{card:a}", card.rank, card.suit)
    2♥ 2h 2h 12 3
    >>> Card.parse("10d") > Card.parse("10c")
    True
    >>> Card(52)
    Traceback (most recent call last):
    ...
    ValueError: card index out of range 0..51: 52
    """

    __slots__ = ()

    def __new__(cls, index: int) -> Card:
        # Plain ints in range are the common case: return the shared instance directly.
        if type(index) is int and 0 <= index < _NCARDS:
            return _CARDS[index]
        if isinstance(index, Card):
            return index
        if isinstance(index, (str, bool)):
            raise ValueError(
                f"Card() takes an index 0..51, got {index!r}"
                + (" (use Card.parse for text)" if isinstance(index, str) else "")
            )
        try:
            value = operator.index(index)
        except TypeError:
            raise ValueError(
                f"Card() takes an index 0..51, got {type(index).__name__}"
            ) from None
        if not 0 <= value < _NCARDS:
            raise ValueError(f"card index out of range 0..51: {value}")
        return _CARDS[value]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse one card such as ``"3s"``, ``"10H"``, ``"td"``, ``"A♠"`` or ``"2♥️"``.

        Ranks are ``3``-``10``, ``T``, ``J``, ``Q``, ``K``, ``A``, ``2`` and suits are
        ``s c d h`` or ``♠ ♣ ♦ ♥``, in any case; surrounding whitespace is ignored.

        >>> Card.parse("Td") == Card.parse("10♦")
        True
        >>> Card.parse("11h")
        Traceback (most recent call last):
        ...
        tienlen.errors.CardParseError: not a card: '11h' (unknown rank '11')
        """
        return _CARDS[_SPELLING.one(text)]

    @property
    def rank(self) -> int:
        """Rank index 0..12 (``3`` is 0, ``2`` is 12)."""
        return self >> 2

    @property
    def suit(self) -> int:
        """Suit index 0..3 (``♠`` is 0, ``♥`` is 3)."""
        return self & 3

    def ascii(self) -> str:
        """The ASCII form, such as ``"10h"``.

        >>> Card(7 * 4 + 3).ascii()
        '10h'
        """
        return _ASCII[self]

    def __str__(self) -> str:
        return _UNICODE[self]

    def __repr__(self) -> str:
        return f"Card.parse('{_ASCII[self]}')"

    def __format__(self, spec: str) -> str:
        """``"a"`` gives the ASCII form; any other spec formats the symbol form as a string.

        >>> f"[{Card(0):a}] [{Card(0)}] [{Card(0):>3}]"
        '[3s] [3♠] [ 3♠]'
        """
        if spec == "a":
            return _ASCII[self]
        return format(_UNICODE[self], spec)


_CARDS: tuple[Card, ...] = tuple(int.__new__(Card, i) for i in range(_NCARDS))


def _indices(mask: int) -> Iterator[int]:
    """Set bits of ``mask``, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class Cards:
    """An immutable set of cards over a 52-bit mask (bit *i* is card *i*).

    ``Cards(mask)`` takes an int mask; ``Cards(iterable)`` takes cards (:class:`Card`,
    ints 0..51 or card strings) with set semantics, so repeats collapse. Use
    :meth:`Cards.parse` for text. Iteration yields :class:`Card` in ascending order.

    >>> hand = Cards.parse("10h 3s, 4c")
    >>> hand
    Cards.parse('3s 4c 10h')
    >>> len(hand), Card.parse("4c") in hand, 0 in hand, list(hand)[0]
    (3, True, True, Card.parse('3s'))
    >>> print(hand - Cards.parse("4c"), "|", hand & Cards([0, 51]), "|", f"{hand:a}")
    3♠ 10♥ | 3♠ | 3s 4c 10h
    >>> Cards(hand.mask) == hand, bool(Cards())
    (True, False)
    >>> Cards(1 << 52)
    Traceback (most recent call last):
    ...
    ValueError: mask has bits outside 0..51: 4503599627370496
    """

    __slots__ = ("_mask",)
    _mask: int

    def __init__(self, cards: int | Iterable[int | str] = 0) -> None:
        # Exact ints first: this constructor sits on hot paths.
        if type(cards) is int and 0 <= cards <= _ALL_MASK:
            self._mask = cards
            return
        self._mask = _coerce_mask(cards)

    @classmethod
    def parse(cls, text: str) -> Cards:
        """Parse cards separated by spaces and/or commas, such as ``"3s 4c, 10h"``.

        Each card is spelled as in :meth:`Card.parse`. The empty (or blank) string is the
        empty set. A token that is not a card, or a card given twice, raises
        :class:`~tienlen.errors.CardParseError` naming the token.

        >>> Cards.parse("3S,4♣ , td 2♥️")
        Cards.parse('3s 4c 10d 2h')
        >>> Cards.parse("")
        Cards()
        >>> Cards.parse("3s 4c 3S")
        Traceback (most recent call last):
        ...
        tienlen.errors.CardParseError: duplicate card 3♠ ('3S')
        """
        mask = 0
        for token in _SPELLING.tokens(text):
            bit = 1 << _SPELLING.id(token)
            if mask & bit:
                card = _CARDS[bit.bit_length() - 1]
                raise CardParseError(f"duplicate card {card} ({token!r})", token)
            mask |= bit
        return _wrap(mask)

    @property
    def mask(self) -> int:
        """The 52-bit mask, as the core takes it."""
        return self._mask

    def ascii(self) -> str:
        """The ASCII form, such as ``"3s 4c 10h"``.

        >>> Cards.parse("10♥ 3♠").ascii()
        '3s 10h'
        """
        return " ".join([_ASCII[i] for i in _indices(self._mask)])

    def __str__(self) -> str:
        return " ".join([_UNICODE[i] for i in _indices(self._mask)])

    def __repr__(self) -> str:
        return f"Cards.parse('{self.ascii()}')" if self._mask else "Cards()"

    def __format__(self, spec: str) -> str:
        """``"a"`` gives the ASCII form; any other spec formats the symbol form as a string."""
        if spec == "a":
            return self.ascii()
        return format(str(self), spec)

    def __len__(self) -> int:
        return self._mask.bit_count()

    def __bool__(self) -> bool:
        return self._mask != 0

    def __iter__(self) -> Iterator[Card]:
        cards = _CARDS
        for i in _indices(self._mask):
            yield cards[i]

    def __contains__(self, card: object) -> bool:
        """Whether a card is in the set: a :class:`Card`, an index or a card string.

        Other values are never members; text that is not a card raises
        :class:`~tienlen.errors.CardParseError` rather than quietly answering ``False``.

        >>> "3S" in Cards.parse("3s"), 52 in Cards.parse("3s"), None in Cards.parse("3s")
        (True, False, False)
        """
        if isinstance(card, str):
            index = int(Card.parse(card))
        else:
            try:
                index = operator.index(card)  # type: ignore[arg-type]
            except TypeError:
                return False
        return 0 <= index < _NCARDS and (self._mask >> index) & 1 == 1

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Cards):
            return self._mask == other._mask
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._mask)

    def __or__(self, other: Cards) -> Cards:
        if isinstance(other, Cards):
            return _wrap(self._mask | other._mask)
        return NotImplemented

    def __and__(self, other: Cards) -> Cards:
        if isinstance(other, Cards):
            return _wrap(self._mask & other._mask)
        return NotImplemented

    def __sub__(self, other: Cards) -> Cards:
        if isinstance(other, Cards):
            return _wrap(self._mask & ~other._mask)
        return NotImplemented

    def __xor__(self, other: Cards) -> Cards:
        if isinstance(other, Cards):
            return _wrap(self._mask ^ other._mask)
        return NotImplemented

    def __reduce__(self) -> tuple[type[Cards], tuple[int]]:
        return (Cards, (self._mask,))


def _coerce_mask(cards: object) -> int:
    """The mask of anything :class:`Cards` accepts other than an in-range ``int``."""
    if isinstance(cards, Cards):
        return cards._mask
    # A Card is an int, but reading it as a mask would silently give the wrong cards.
    if isinstance(cards, Card):
        raise ValueError(
            f"Cards() takes a mask or an iterable; for one card use Cards([{cards!r}])"
        )
    if isinstance(cards, (str, bool)):
        raise ValueError(
            f"Cards() takes a mask or an iterable of cards, got {cards!r}"
            + (" (use Cards.parse for text)" if isinstance(cards, str) else "")
        )
    try:
        mask = operator.index(cards)  # type: ignore[arg-type]
    except TypeError:
        pass
    else:
        if mask < 0:
            raise ValueError(f"mask must not be negative: {mask}")
        if mask > _ALL_MASK:
            raise ValueError(f"mask has bits outside 0..51: {mask}")
        return mask
    if not isinstance(cards, Iterable):
        raise ValueError(
            f"Cards() takes a mask or an iterable of cards, got {type(cards).__name__}"
        )
    mask = 0
    for card in cards:
        mask |= 1 << (Card.parse(card) if isinstance(card, str) else Card(card))
    return mask


_new = object.__new__


def _wrap(mask: int) -> Cards:
    """A :class:`Cards` over a mask already known to be valid (no checks: hot path)."""
    cards = _new(Cards)
    cards._mask = mask
    return cards


# How many move objects the table below keeps before it starts again (a few MB at most).
_INTERN_LIMIT = 1 << 15

#: One shared :class:`Cards` per mask, for the masks the core lists as moves. ``Cards`` are
#: immutable, so a move listed again (the same single, pair or run comes up in position
#: after position) reuses the object built the first time. The table is the core's
#: MaskTable: ``GameState.legal_moves_through`` probes it in C with each mask, where
#: building an object, or even a Python int to look one up, was most of the cost of listing
#: moves in Python. Bounded: it starts again when full.
_INTERNED = _core.MaskTable(_wrap, _INTERN_LIMIT)
#: ``_interned(mask)``: the shared :class:`Cards` for a valid mask (no checks: hot path).
_interned = _INTERNED.__getitem__


#: Same as :meth:`Cards.parse`.
parse_cards = Cards.parse
