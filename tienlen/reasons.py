"""Why an action was refused: the :class:`Reason` enum, :class:`IllegalMoveError`, and the
plain-English wording of each reason.

The core decides legality and returns a reason code (``GameState.check_play`` /
``check_pass``); this module only names the code and words it for a player. The one reason
the core cannot give is :attr:`Reason.NOT_YOUR_TURN`: the core has no notion of *who* asks,
only of whose turn it is, so the game layer adds it.

>>> from tienlen.game import Game
>>> game = Game.from_hands(["3s 4s", "5s 9h"])
>>> try:
...     game.play("4s")
... except IllegalMoveError as error:
...     print(error.reason.name, "|", error)
MUST_INCLUDE_LOWEST | the first lead must include 3♠
"""

from __future__ import annotations

from enum import Enum

from . import _core
from .cards import Card, Cards
from .combos import Kind
from .errors import TienlenError

__all__ = ["Reason", "IllegalMoveError", "reason_from_core"]


class Reason(Enum):
    """Why an action is not allowed. Every member but ``NOT_YOUR_TURN`` is a core reason code
    (``core.REASON_NAMES``), under the same name.

    >>> Reason.DOES_NOT_BEAT.core_code == _core.DOES_NOT_BEAT
    True
    >>> Reason.NOT_YOUR_TURN.core_code is None
    True
    """

    NOT_YOUR_TURN = "NOT_YOUR_TURN"
    CARDS_NOT_IN_HAND = "CARDS_NOT_IN_HAND"
    NOT_A_COMBINATION = "NOT_A_COMBINATION"
    DOES_NOT_BEAT = "DOES_NOT_BEAT"
    MUST_INCLUDE_LOWEST = "MUST_INCLUDE_LOWEST"
    LOCKED_OUT = "LOCKED_OUT"
    CANNOT_PASS_ON_LEAD = "CANNOT_PASS_ON_LEAD"
    GAME_OVER = "GAME_OVER"

    @property
    def core_code(self) -> int | None:
        """The core's reason code for this reason, ``None`` for ``NOT_YOUR_TURN``."""
        return _CORE_CODES.get(self)


# Built from the core's own table so that a renamed or new core reason fails loudly at import
# (KeyError) instead of being mis-worded.
_FROM_CORE: dict[int, Reason] = {
    code: Reason[name] for code, name in _core.REASON_NAMES.items() if code != _core.OK
}
_CORE_CODES: dict[Reason, int] = {reason: code for code, reason in _FROM_CORE.items()}


def reason_from_core(code: int) -> Reason:
    """The :class:`Reason` for a non-zero core reason code.

    >>> reason_from_core(_core.LOCKED_OUT)
    <Reason.LOCKED_OUT: 'LOCKED_OUT'>
    """
    return _FROM_CORE[code]


class IllegalMoveError(TienlenError):
    """An action the rules do not allow. ``reason`` says which rule refused it; the message
    says it in words a player can learn from. ``seat`` is the seat that tried to act and
    ``cards`` the cards it tried to play (``None`` for a pass). The game is unchanged.

    >>> error = IllegalMoveError(Reason.GAME_OVER, "the hand is over", seat=1)
    >>> isinstance(error, ValueError), error.reason.name, error.seat, error.cards
    (True, 'GAME_OVER', 1, None)
    """

    def __init__(
        self,
        reason: Reason,
        message: str,
        *,
        seat: int | None = None,
        cards: Cards | None = None,
    ) -> None:
        super().__init__(message)
        self.reason = reason
        self.seat = seat
        self.cards = cards


# ------------------------------------------------------------------------------ wording
# Everything below turns a reason the core already gave into words. It may ask the core
# (classify, beats) *why*, but never decides legality itself.

# The words for each class of the core's rule table (core.cut_class: rules.ALL_TARGETS
# order). Which class cuts which is the core's to say (core.cut_targets, core.cutters).
_CLASS_WORDS = ("a single 2", "a pair of 2s", "a triple of 2s", "a quad",
                "a double sequence of 3 pairs", "a double sequence of 4 pairs",
                "a double sequence of 5 pairs")


def _class_words(cls: int, own: int) -> str:
    # A bomb's own class in the table means a lower one of its kind (RULES13.md).
    return "a lower " + _CLASS_WORDS[cls][2:] if cls == own else _CLASS_WORDS[cls]


def _kind_words(code: int) -> str:
    kind = Kind(code >> 12)
    if kind is Kind.DOUBLE_SEQUENCE:
        return f"double sequence of {((code >> 6) & 63) // 2} pairs"
    if kind is Kind.SEQUENCE:
        return f"sequence of {(code >> 6) & 63} cards"
    return kind.label


def _why_not_beats(play_code: int, pile_code: int, flags: int) -> str:
    """Why a play the core said does not beat the pile fails, comparing the two codes."""
    same_kind = play_code >> 12 == pile_code >> 12
    play_len, pile_len = (play_code >> 6) & 63, (pile_code >> 6) & 63
    if same_kind and play_len == pile_len:
        return (f"it has a lower top card ({Card(play_code & 63)} against "
                f"{Card(pile_code & 63)})")
    if same_kind:
        return f"it has {play_len} cards and the pile has {pile_len}"
    own = _core.cut_class(play_code)
    bombs = [_class_words(cls, own) for cls in _core.cut_targets(play_code, flags)]
    if bombs:
        return (f"it is a different kind ({_kind_words(play_code)} against "
                f"{_kind_words(pile_code)}); a {_kind_words(play_code)} bombs only "
                f"{' or '.join(bombs)}")
    return (f"it is a different kind ({_kind_words(play_code)} against "
            f"{_kind_words(pile_code)})")


def play_message(
    reason: Reason,
    cards: Cards,
    *,
    hand: Cards,
    pile: Cards,
    pile_code: int,
    must_include: int,
    flags: int,
) -> str:
    """Words for a refused play of ``cards`` (the core already gave ``reason``)."""
    if reason is Reason.GAME_OVER:
        return "the hand is over"
    if reason is Reason.CARDS_NOT_IN_HAND:
        return f"you do not hold {cards - hand}"
    if reason is Reason.NOT_A_COMBINATION:
        if not cards:
            return "you must play at least one card (or pass)"
        return f"{cards} is not a combination"
    if reason is Reason.MUST_INCLUDE_LOWEST:
        return f"the first lead must include {Card(must_include)}"
    if reason is Reason.LOCKED_OUT:
        own = _core.cut_class(pile_code)
        bombs = [_CLASS_WORDS[cls] for cls in _core.cutters(pile_code, flags, True)]
        if not bombs:
            return "you passed on this pile: you may not play on it"
        return (f"you passed on this pile: only {' or '.join(bombs)} may cut it"
                + (" (a higher one)" if own in _core.cutters(pile_code, flags, True) else ""))
    if reason is Reason.DOES_NOT_BEAT:
        play_code = _core.classify(cards.mask, flags)
        return f"{cards} does not beat {pile}: {_why_not_beats(play_code, pile_code, flags)}"
    raise AssertionError(f"no wording for {reason!r} on a play")  # pragma: no cover


def pass_message(reason: Reason) -> str:
    """Words for a refused pass (the core already gave ``reason``)."""
    if reason is Reason.GAME_OVER:
        return "the hand is over"
    if reason is Reason.CANNOT_PASS_ON_LEAD:
        return "you lead: you cannot pass"
    raise AssertionError(f"no wording for {reason!r} on a pass")  # pragma: no cover


def turn_message(turn: int, seat: int) -> str:
    """Words for :attr:`Reason.NOT_YOUR_TURN`."""
    return f"it is seat {turn}'s turn, not seat {seat}'s"
