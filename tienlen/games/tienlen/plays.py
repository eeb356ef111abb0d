"""Combinations (R2), beating (R3, R4) and legal moves, all decided by the core.

This module only converts between Python values and the core's masks, codes and flags;
every rule lives in the core.

>>> combo = classify("5h 5s")
>>> print(combo, "|", combo.describe())
pair 5♠ 5♥ | pair of fives, five of hearts high
>>> beats("6s 6c", combo)
True
>>> [str(move) for move in legal_moves("3s 4c 5d 5h", "4h")]
['5♦', '5♥']
>>> count_legal_moves("3s 4c 5d 5h")
7
"""

from __future__ import annotations

from collections.abc import Callable
from enum import IntEnum
from typing import final

from tienlen import _core
from tienlen.games.tienlen.cards import _CARDS, _INTERNED, Card, Cards, _interned, _wrap
from tienlen.errors import ComboError
from tienlen.games.tienlen.rules import Rules

__all__ = ["Kind", "Combo", "classify", "beats", "legal_moves", "count_legal_moves"]

_DEFAULT_RULES = Rules()

_RANK_WORDS = (
    "three", "four", "five", "six", "seven", "eight", "nine",
    "ten", "jack", "queen", "king", "ace", "two",
)
_RANK_PLURALS = (
    "threes", "fours", "fives", "sixes", "sevens", "eights", "nines",
    "tens", "jacks", "queens", "kings", "aces", "twos",
)
_SUIT_WORDS = ("spades", "clubs", "diamonds", "hearts")


class Kind(IntEnum):
    """Kind of a combination, with the core's values (``core.code_kind(code)``)."""

    SINGLE = 1
    PAIR = 2
    TRIPLE = 3
    QUAD = 4
    SEQUENCE = 5
    DOUBLE_SEQUENCE = 6

    @property
    def label(self) -> str:
        """Lower-case words, such as ``"double sequence"``.

        >>> Kind.DOUBLE_SEQUENCE.label
        'double sequence'
        """
        return self.name.lower().replace("_", " ")


# Indexed by the kind field of a code; index 0 ("not a combination") never occurs.
_KINDS: tuple[Kind, ...] = (Kind.SINGLE, *Kind)


def _card_words(card: int) -> str:
    return f"{_RANK_WORDS[card >> 2]} of {_SUIT_WORDS[card & 3]}"


@final  # a frozen record; final also lets `type(x) is Combo` narrow both ways for mypy
class Combo:
    """A set of cards that forms a combination (R2), with the core's combo code.

    Build one with :meth:`from_cards` (raises if the cards are not a combination) or
    :func:`classify` (returns ``None`` instead). A combo only knows its cards and code;
    whether it beats another depends on the rules, see :func:`beats`.

    >>> combo = Combo.from_cards("9s 10s Jh")
    >>> combo.kind, combo.top, len(combo), combo.cards
    (<Kind.SEQUENCE: 5>, Card.parse('Jh'), 3, Cards.parse('9s 10s Jh'))
    >>> print(combo, "|", f"{combo:a}")
    sequence 9♠ 10♠ J♥ | sequence 9s 10s Jh
    >>> combo.code == (5 << 12 | 3 << 6 | combo.top)
    True
    """

    __slots__ = ("_code", "_cards")
    _code: int
    _cards: Cards

    def __init__(self, cards: Cards | str, rules: Rules = _DEFAULT_RULES) -> None:
        """Same as :meth:`from_cards`."""
        cards = _as_cards(cards)
        code = _core.classify(cards._mask, rules.flags)
        if not code:
            raise ComboError(f"not a combination: {cards}")
        object.__setattr__(self, "_code", int(code))
        object.__setattr__(self, "_cards", cards)

    @classmethod
    def from_cards(cls, cards: Cards | str, rules: Rules = _DEFAULT_RULES) -> Combo:
        """The combination formed by ``cards`` under ``rules``.

        Raises :class:`~tienlen.errors.ComboError` if they form none (:func:`classify`
        returns ``None`` instead).

        >>> Combo.from_cards("Js Qs Ks As 2s").kind
        <Kind.SEQUENCE: 5>
        >>> Combo.from_cards("Js Qs Ks As 2s", Rules(twos_in_sequences=False))
        Traceback (most recent call last):
        ...
        tienlen.errors.ComboError: not a combination: J♠ Q♠ K♠ A♠ 2♠
        """
        return cls(cards, rules)

    @property
    def kind(self) -> Kind:
        """The kind of combination."""
        return _KINDS[_core.code_kind(self._code)]

    @property
    def cards(self) -> Cards:
        """The cards played."""
        return self._cards

    @property
    def top(self) -> Card:
        """The strongest card, which decides beating within a kind and length (R3.2)."""
        return _CARDS[_core.code_top(self._code)]

    @property
    def code(self) -> int:
        """The core's combo code, ``kind << 12 | ncards << 6 | top``."""
        return self._code

    def __len__(self) -> int:
        return _core.code_len(self._code)

    def display_cards(self) -> tuple[Card, ...]:
        """The cards in the order players read the combination: every Tiến Lên combination
        reads in rank order (3 lowest, 2 highest: R1), which is the cards' own order, so a
        sequence that ends in a 2 reads J Q K A 2. The terminal, the logs and the room show
        plays in this order (Guandan's ``Play.display_cards`` is the same idea for a game
        where it differs).

        >>> [str(c) for c in Combo.from_cards("2s As Ks Qs Js").display_cards()]
        ['J♠', 'Q♠', 'K♠', 'A♠', '2♠']
        """
        return tuple(self._cards)

    def describe(self) -> str:
        """The combination in words.

        >>> Combo.from_cards("3s 3c 4d 4h 5s 5h").describe()
        'double sequence of 3 pairs, three to five, five of hearts high'
        >>> Combo.from_cards("Qd").describe()
        'single queen of diamonds'
        """
        kind, top = self.kind, _core.code_top(self._code)
        if kind is Kind.SINGLE:
            return f"single {_card_words(top)}"
        high = f"{_card_words(top)} high"
        if kind is Kind.SEQUENCE or kind is Kind.DOUBLE_SEQUENCE:
            low = (self._cards._mask & -self._cards._mask).bit_length() - 1
            span = f"{_RANK_WORDS[low >> 2]} to {_RANK_WORDS[top >> 2]}"
            if kind is Kind.SEQUENCE:
                return f"sequence of {len(self)} cards, {span}, {high}"
            return f"double sequence of {len(self) // 2} pairs, {span}, {high}"
        return f"{kind.label} of {_RANK_PLURALS[top >> 2]}, {high}"

    def __str__(self) -> str:
        return f"{self.kind.label} {self._cards}"

    def __format__(self, spec: str) -> str:
        """``"a"`` gives the ASCII form; any other spec formats ``str(combo)``."""
        if spec == "a":
            return f"{self.kind.label} {self._cards.ascii()}"
        return format(str(self), spec)

    def __repr__(self) -> str:
        return f"Combo.from_cards({self._cards!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Combo):
            return self._code == other._code and self._cards == other._cards
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self._code, self._cards._mask))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Combo is immutable: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"Combo is immutable: cannot delete {name!r}")

    def __reduce__(self) -> tuple[object, tuple[int, Cards]]:
        return (_combo_from_code, (self._code, self._cards))


# The slots' member descriptors, read from the class dict (where they live at run time).
_set_code: Callable[[Combo, int], None] = vars(Combo)["_code"].__set__
_set_cards: Callable[[Combo, Cards], None] = vars(Combo)["_cards"].__set__


def _combo_from_code(code: int, cards: Cards) -> Combo:
    """A :class:`Combo` from the code the core gave for ``cards`` (no checks). The slot
    descriptors are called directly: this runs once per action in every game."""
    combo = _new_combo(Combo)
    _set_code(combo, code)
    _set_cards(combo, cards)
    return combo


_new_combo = object.__new__

# One shared Combo per (code, mask) that the core has reported for a play. A game records
# a Combo with every play, and the same single, pair or run is played in game after game:
# a hit is one probe of the core's MaskTable (from C, inside GameState.play_record, on the
# checked path), where building the object cost three times as much. The key is the core's
# ``played_key``: mask | kind << 52 | top << 56 (the code's card count is the mask's). Combo
# is immutable, so sharing is safe; the table starts again when full, so it stays bounded.
_PLAYED_LIMIT = 1 << 15
_MASK52 = (1 << 52) - 1


def _played_from_key(key: int) -> Combo:
    mask = key & _MASK52
    code = _core.make_code(key >> 52 & 0xF, mask.bit_count(), key >> 56)
    return _combo_from_code(code, _interned(mask))


_PLAYED: _core.MaskTable[Combo] = _core.MaskTable(_played_from_key, _PLAYED_LIMIT)
_played_get = _PLAYED.__getitem__
_played_key = _core.played_key


def _played_combo(code: int, cards: Cards) -> Combo:
    """The Combo of a play the core accepted with ``code`` (no checks: hot path)."""
    return _played_get(_played_key(cards._mask, code))


def _as_cards(cards: Cards | str) -> Cards:
    if type(cards) is Cards:
        return cards
    if isinstance(cards, str):
        return Cards.parse(cards)
    return Cards(cards)


def classify(cards: Cards | str, rules: Rules = _DEFAULT_RULES) -> Combo | None:
    """The combination formed by ``cards`` (a :class:`Cards` or card text), or ``None``.

    >>> classify("4s 5c 6d").kind
    <Kind.SEQUENCE: 5>
    >>> classify("As 2s 3s") is None  # no wrap-around (R2.7)
    True
    """
    cards = _as_cards(cards)
    code = _core.classify(cards._mask, rules.flags)
    return _combo_from_code(int(code), cards) if code else None


def _pile(pile: Combo | Cards | str | None, flags: int) -> tuple[int, int]:
    """The pile's ``(code, mask)``; ``(0, 0)``, the core's empty pile, for a lead."""
    if pile is None:
        return 0, 0
    if type(pile) is Combo:
        return pile._code, pile._cards._mask
    mask = _as_cards(pile)._mask
    if not mask:
        return 0, 0
    code = _core.classify(mask, flags)
    if not code:
        raise ComboError(f"pile is not a combination: {_wrap(mask)}")
    return code, mask


def beats(
    play: Combo | Cards | str,
    pile: Combo | Cards | str | None,
    rules: Rules = _DEFAULT_RULES,
) -> bool:
    """Whether ``play`` may go on ``pile`` (R3, R4); ``pile=None`` (or no cards) is a lead.

    Cards that form no combination beat nothing (``False``); a pile that is not a
    combination raises :class:`~tienlen.errors.ComboError`.

    >>> beats("5s 5h", "5c 5d"), beats("5s 5h", "9h"), beats("3s 3c 3d 3h", "2s")
    (True, False, True)
    >>> beats("3s 5s", None)
    False
    """
    flags = rules.flags
    code = play._code if type(play) is Combo else _core.classify(_as_cards(play)._mask, flags)
    return bool(code) and bool(_core.beats(code, _pile(pile, flags)[0], flags))


def _move_args(
    hand: Cards | str,
    pile: Combo | Cards | str | None,
    rules: Rules,
    locked_out: bool,
    must_include: Card | int | str | None,
) -> tuple[int, int, int, bool, int]:
    """Validate the arguments of :func:`legal_moves` into the core's positional ones."""
    hand_mask = _as_cards(hand)._mask
    flags = rules.flags
    pile_code, pile_mask = _pile(pile, flags)
    if pile_mask & hand_mask:
        overlap = _wrap(pile_mask & hand_mask)
        raise ValueError(f"cards both in the hand and on the pile: {overlap}")
    if must_include is None:
        return hand_mask, pile_code, flags, bool(locked_out), -1
    card = Card.parse(must_include) if isinstance(must_include, str) else Card(must_include)
    if not (hand_mask >> card) & 1:
        raise ValueError(f"must include {card}, which is not in the hand")
    return hand_mask, pile_code, flags, bool(locked_out), int(card)


def legal_moves(
    hand: Cards | str,
    pile: Combo | Cards | str | None = None,
    *,
    rules: Rules = _DEFAULT_RULES,
    locked_out: bool = False,
    must_include: Card | int | str | None = None,
) -> list[Cards]:
    """Every play from ``hand`` allowed on ``pile`` (``None`` or no cards: a lead).

    The order is the core's: ascending by kind, then number of cards, then mask (so by
    top card, then the remaining cards from the strongest down). ``locked_out=True``
    means the player passed earlier in this pile, so only the cuts ``rules`` allow out of
    turn remain (bombs on a combination of 2s under the contract, R5.2; R11.2 in the
    South). ``must_include`` is a card every move must contain (R7.2).

    Raises ``ValueError`` if the pile is not a combination or shares cards with the hand,
    or if ``must_include`` is not in the hand.

    >>> [str(move) for move in legal_moves("3s 3c 4h 9d", must_include="3s")]
    ['3♠', '3♠ 3♣']
    >>> legal_moves("3s 3c 3d 3h 9d", "2s", locked_out=True)
    [Cards.parse('3s 3c 3d 3h')]
    """
    masks = _core.legal_moves(*_move_args(hand, pile, rules, locked_out, must_include))
    return _INTERNED.map_array(masks)


def count_legal_moves(
    hand: Cards | str,
    pile: Combo | Cards | str | None = None,
    *,
    rules: Rules = _DEFAULT_RULES,
    locked_out: bool = False,
    must_include: Card | int | str | None = None,
) -> int:
    """``len(legal_moves(...))`` with the same arguments, computed without listing them.

    >>> count_legal_moves("3s 3c 4h 9d"), count_legal_moves("3s 3c 4h 9d", "3d")
    (5, 2)
    """
    return int(_core.count_legal_moves(
        *_move_args(hand, pile, rules, locked_out, must_include)))
