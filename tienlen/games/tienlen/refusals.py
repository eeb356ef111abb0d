"""Why an action was refused: the :class:`Reason` enum, :class:`IllegalMoveError`, and the
plain-English wording of each reason.

The core decides legality and returns a reason code (``GameState.check_play`` /
``check_pass``); this module only names the code and words it for a player. The one reason
the core cannot give is :attr:`Reason.NOT_YOUR_TURN`: the core has no notion of *who* asks,
only of whose turn it is, so the game layer adds it.

>>> from tienlen.games.tienlen.game import Game
>>> game = Game.from_hands(["3s 4s", "5s 9h"])
>>> try:
...     game.play("4s")
... except IllegalMoveError as error:
...     print(error.reason.name, "|", error)
MUST_INCLUDE_LOWEST | the first lead must include 3♠
"""

from __future__ import annotations

import string
from collections.abc import Callable, Iterator, Mapping
from enum import Enum
from typing import Any

from tienlen import _core
from tienlen.games.tienlen.cards import Card, Cards
from tienlen.games.tienlen.plays import Kind
from tienlen.table.errors import IllegalActionError

__all__ = ["Reason", "IllegalMoveError", "Wording", "reason_from_core"]


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


def seat_words(seat: int) -> str:
    """How a message names a seat unless a screen names it otherwise: ``"seat 2"``."""
    return f"seat {seat}"


#: Fields of a :class:`Wording` that hold a seat number (shown through ``seat_name``).
SEAT_FIELDS = frozenset({"seat", "turn"})


class Wording(str):
    """A message that keeps what it was built from: a :meth:`str.format` template and its
    fields (seats, cards, counts). As a ``str`` it reads as it always did; :meth:`render`
    words it again for another screen (seats by name, cards in ASCII) or with another
    grammatical ``subject``, so no caller rewrites message text.

    >>> from tienlen.games.tienlen.cards import Cards
    >>> w = Wording("{subject} does not beat {pile}", subject=Cards.parse("4s"),
    ...             pile=Cards.parse("9h"))
    >>> print(w, "|", w.render(subject="it", card_text=lambda c: c.ascii()))
    4♠ does not beat 9♥ | it does not beat 9h
    >>> print(Wording("it is {turn}'s turn", turn=2).render(seat_name=["Ann", "Bo", "Cy"].__getitem__))
    it is Cy's turn
    """

    template: str
    fields: Mapping[str, Any]

    def __new__(cls, template: str, /, **fields: Any) -> Wording:
        self = super().__new__(cls, _fill(template, fields, seat_words, str))
        self.template = template
        self.fields = fields
        return self

    def render(self, *, seat_name: Callable[[int], str] = seat_words,
               card_text: Callable[[Cards], str] = str, subject: str | None = None) -> str:
        """The message with seats through ``seat_name``, cards through ``card_text``, and
        the play's cards replaced by ``subject`` where they are the subject."""
        fields = dict(self.fields)
        if subject is not None and "subject" in fields:
            fields["subject"] = subject
        return _fill(self.template, fields, seat_name, card_text)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_wording, (self.template, dict(self.fields)))

    @classmethod
    def concat(cls, *parts: str) -> Wording:
        """The parts one after another, as one Wording that keeps every part's fields: a
        plain ``str`` part is text, a Wording part brings its template and fields (renamed
        where two parts use the same name, so "your {cards} and your {cards}" keeps both).

        >>> from tienlen.games.tienlen.cards import Cards
        >>> two = lambda text: Wording("{cards}", cards=Cards.parse(text))
        >>> w = Wording.concat("keeps ", two("2s"), " and ", two("2h"), " {as is}")
        >>> print(w, "|", w.render(card_text=lambda c: c.ascii()))
        keeps 2♠ and 2♥ {as is} | keeps 2s and 2h {as is}
        """
        templates: list[str] = []
        fields: dict[str, Any] = {}
        for part in parts:
            if not isinstance(part, Wording):
                templates.append(part.replace("{", "{{").replace("}", "}}"))
                continue
            names = {}
            for name, value in part.fields.items():
                new, base, number = name, name.partition(_RENAMED)[0], 1
                while new in fields:
                    new, number = f"{base}{_RENAMED}{number}", number + 1
                names[name] = new
                fields[new] = value
            templates.append(_renamed(part.template, names))
        return cls("".join(templates), **fields)

    def parts(self) -> Iterator[tuple[str, str | None, Any]]:
        """The message in order as ``(text, field name, value)`` triples: the literal text
        before each field, then the field (``None`` and ``None`` after the last text), so
        that a screen can draw each card or seat its own way. Field names lose any suffix
        :meth:`concat` gave them.

        >>> from tienlen.games.tienlen.cards import Cards
        >>> list(Wording("play {cards} now", cards=Cards.parse("3s")).parts())
        [('play ', 'cards', Cards.parse('3s')), (' now', None, None)]
        """
        for literal, name, spec, conversion in _FORMATTER.parse(self.template):
            if name is None:
                yield literal, None, None
                continue
            value = self.fields[name]
            if conversion or spec:
                value = _FORMATTER.format_field(_FORMATTER.convert_field(value, conversion),
                                                spec or "")
            yield literal, name.partition(_RENAMED)[0], value


# concat() renames a repeated field to name + _RENAMED + a number; the suffix is dropped
# wherever the name's meaning is read (a seat field stays a seat field).
_RENAMED = "__"
_FORMATTER = string.Formatter()


def _renamed(template: str, names: Mapping[str, str]) -> str:
    """``template`` with its fields renamed by ``names`` (plain identifier fields only)."""
    out: list[str] = []
    for literal, name, spec, conversion in _FORMATTER.parse(template):
        out.append(literal.replace("{", "{{").replace("}", "}}"))
        if name is not None:
            out.append("{" + names.get(name, name) + (f"!{conversion}" if conversion else "")
                       + (f":{spec}" if spec else "") + "}")
    return "".join(out)


def _wording(template: str, fields: dict[str, Any]) -> Wording:
    return Wording(template, **fields)


def _fill(template: str, fields: Mapping[str, Any], seat_name: Callable[[int], str],
          card_text: Callable[[Cards], str]) -> str:
    def show(name: str, value: Any) -> Any:
        if isinstance(value, Card):
            return card_text(Cards([value]))
        if isinstance(value, Cards):
            return card_text(value)
        if name.partition(_RENAMED)[0] in SEAT_FIELDS and type(value) is int:
            return seat_name(value)
        return value
    return template.format_map({name: show(name, value) for name, value in fields.items()})


class IllegalMoveError(IllegalActionError):
    """An action the rules do not allow. ``reason`` says which rule refused it; the message
    says it in words a player can learn from. ``seat`` is the seat that tried to act and
    ``cards`` the cards it tried to play (``None`` for a pass). The game is unchanged.

    It is the one :class:`tienlen.table.errors.IllegalActionError` (``reason`` a
    :class:`Reason`, :attr:`reason_code` its name); unlike other games' refusals its text is
    the message alone, as it always was.

    ``fields`` holds everything the message was built from (the seat whose turn it is, the
    pile, the cards not held, the card a first lead must include, ...), and
    :meth:`describe` words the message again from them, for a screen that names seats or
    shows cards in ASCII.

    >>> error = IllegalMoveError(Reason.GAME_OVER, "the hand is over", seat=1)
    >>> isinstance(error, ValueError), error.reason.name, error.seat, error.cards
    (True, 'GAME_OVER', 1, None)
    >>> error = IllegalMoveError(Reason.NOT_YOUR_TURN, turn_message(2, 0), seat=0)
    >>> error.fields["turn"], error.describe(seat_name=["You", "Bo", "Cy"].__getitem__)
    (2, "it is Cy's turn, not You's")
    """

    def __init__(
        self,
        reason: Reason,
        message: str,
        *,
        seat: int | None = None,
        cards: Cards | None = None,
    ) -> None:
        super().__init__(reason, message, text=message)
        self.seat = seat
        self.cards = cards
        self.wording = message if isinstance(message, Wording) else Wording(
            "{text}", text=message)

    def __reduce__(self) -> tuple[Any, ...]:
        # Exceptions pickle by their args, which here would be the message alone.
        return (type(self), (self.reason, self.wording), dict(self.__dict__))

    @property
    def fields(self) -> Mapping[str, Any]:
        """What the message was built from, by name (``seat``, ``turn``, ``pile``,
        ``missing``, ``required``, ...)."""
        return self.wording.fields

    def describe(self, *, seat_name: Callable[[int], str] = seat_words,
                 card_text: Callable[[Cards], str] = str, subject: str | None = None) -> str:
        """The message worded again: see :meth:`Wording.render`."""
        return self.wording.render(seat_name=seat_name, card_text=card_text, subject=subject)


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
    kind = Kind(_core.code_kind(code))
    if kind is Kind.DOUBLE_SEQUENCE:
        return f"double sequence of {_core.code_len(code) // 2} pairs"
    if kind is Kind.SEQUENCE:
        return f"sequence of {_core.code_len(code)} cards"
    return kind.label


def _why_not_beats(play_code: int, pile_code: int, flags: int) -> tuple[str, dict[str, Any]]:
    """Why a play the core said does not beat the pile fails, comparing the two codes: a
    template and its fields."""
    same_kind = _core.code_kind(play_code) == _core.code_kind(pile_code)
    play_len, pile_len = _core.code_len(play_code), _core.code_len(pile_code)
    # The codes ride along (fields no English template shows), so that another language
    # words the same refusal from them (tienlen.games.tienlen.words).
    codes = {"play_code": play_code, "pile_code": pile_code}
    if same_kind and play_len == pile_len:
        return ("it has a lower top card ({play_top} against {pile_top})",
                {"play_top": Card(_core.code_top(play_code)),
                 "pile_top": Card(_core.code_top(pile_code)), **codes})
    if same_kind:
        return ("it has {play_len} cards and the pile has {pile_len}",
                {"play_len": play_len, "pile_len": pile_len, **codes})
    kinds = {"play_kind": _kind_words(play_code), "pile_kind": _kind_words(pile_code), **codes}
    own = _core.cut_class(play_code)
    classes = tuple(_core.cut_targets(play_code, flags))
    bombs = [_class_words(cls, own) for cls in classes]
    if bombs:
        return ("it is a different kind ({play_kind} against {pile_kind}); a {play_kind} "
                "bombs only {bombs}", {**kinds, "bombs": " or ".join(bombs),
                                       "bomb_classes": classes, "own_class": own})
    return "it is a different kind ({play_kind} against {pile_kind})", kinds


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
    """Words for a refused play of ``cards`` (the core already gave ``reason``), as a
    :class:`Wording` whose fields are the cards involved (``subject`` is the play)."""
    if reason is Reason.GAME_OVER:
        return Wording("the hand is over")
    if reason is Reason.CARDS_NOT_IN_HAND:
        return Wording("you do not hold {missing}", missing=cards - hand)
    if reason is Reason.NOT_A_COMBINATION:
        if not cards:
            return Wording("you must play at least one card (or pass)")
        return Wording("{subject} is not a combination", subject=cards)
    if reason is Reason.MUST_INCLUDE_LOWEST:
        return Wording("the first lead must include {required}", required=Card(must_include))
    if reason is Reason.LOCKED_OUT:
        own = _core.cut_class(pile_code)
        classes = tuple(_core.cutters(pile_code, flags, True))
        bombs = [_CLASS_WORDS[cls] for cls in classes]
        if not bombs:
            return Wording("you passed on this pile: you may not play on it")
        higher = " (a higher one)" if own in classes else ""
        return Wording("you passed on this pile: only {bombs} may cut it" + higher,
                       bombs=" or ".join(bombs), bomb_classes=classes, higher=bool(higher))
    if reason is Reason.DOES_NOT_BEAT:
        play_code = _core.classify(cards.mask, flags)
        why, fields = _why_not_beats(play_code, pile_code, flags)
        return Wording("{subject} does not beat {pile}: " + why, subject=cards, pile=pile,
                       **fields)
    raise AssertionError(f"no wording for {reason!r} on a play")  # pragma: no cover


def pass_message(reason: Reason) -> str:
    """Words for a refused pass (the core already gave ``reason``)."""
    if reason is Reason.GAME_OVER:
        return Wording("the hand is over")
    if reason is Reason.CANNOT_PASS_ON_LEAD:
        return Wording("you lead: you cannot pass")
    raise AssertionError(f"no wording for {reason!r} on a pass")  # pragma: no cover


def turn_message(turn: int, seat: int) -> str:
    """Words for :attr:`Reason.NOT_YOUR_TURN`; the fields are ``turn`` and ``seat``."""
    return Wording("it is {turn}'s turn, not {seat}'s", turn=turn, seat=seat)
