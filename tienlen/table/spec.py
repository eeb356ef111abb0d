"""The table protocol: a game spec, the state of one match at a table, a bot.

Actions travel as plain dicts (JSON objects), the same shape in every game:

``{"kind": "play", "cards": ["5h", "5h"]}``
    a play; ``"reading"`` (the game's play code) may pick one reading of cards that have
    several (Guandan's wild cards); without it the game chooses.
``{"kind": "pass"}``
    a pass.
``{"kind": "give_tribute", "card": "BJ"}`` / ``{"kind": "return_tribute", "card": "3s"}``
    Guandan's tribute and return, steps of their own.

Cards are the game's ASCII card names (``"10h"``, ``"SJ"``). A refused action raises
:class:`IllegalActionError` (a ``ValueError``) with a reason code, and changes nothing.

A :class:`TableState` is a whole match. When a hand ends the state stops at phase
``"hand_over"`` (turn None, :meth:`TableState.outcome` filled) until
:meth:`TableState.next_hand` deals the next one, so that a table can show the result;
``"over"`` ends the match.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from ..seeds import table_bot_seed
from .errors import IllegalActionError

__all__ = ["Action", "GameSpec", "IllegalActionError", "TableBot", "TableState", "bot_seed",
           "check_action", "ACTION_KINDS", "CanFromVerify", "MatchTable", "table_option"]

#: An action as data: see the module's docstring.
Action = Mapping[str, Any]
#: Every kind an :class:`Action` may have, across the games.
ACTION_KINDS = ("play", "pass", "give_tribute", "return_tribute")




def check_action(action: object) -> dict[str, Any]:
    """The shape of an action, before any game looks at it: a dict whose ``kind`` is one of
    :data:`ACTION_KINDS`, ``cards`` a list of strings (plays), ``card`` a string (tribute).

    >>> check_action({"kind": "play", "cards": ["3s"]})
    {'kind': 'play', 'cards': ['3s']}
    >>> check_action({"kind": "jump"})
    Traceback (most recent call last):
    ...
    tienlen.errors.IllegalActionError: BAD_ACTION: kind must be one of play, pass, give_tribute, return_tribute; got 'jump'
    """
    if not isinstance(action, Mapping):
        raise IllegalActionError("BAD_ACTION", f"an action is an object; got {type(action).__name__}")
    kind = action.get("kind")
    if kind not in ACTION_KINDS:
        raise IllegalActionError("BAD_ACTION", f"kind must be one of {', '.join(ACTION_KINDS)}; "
                                               f"got {kind!r:.40}")
    out: dict[str, Any] = {"kind": kind}
    if kind == "play":
        cards = action.get("cards")
        if (not isinstance(cards, list) or not cards or len(cards) > 64
                or not all(isinstance(c, str) and 0 < len(c) <= 4 for c in cards)):
            raise IllegalActionError("BAD_ACTION", "a play's cards are a non-empty list of "
                                                   "card names such as [\"5h\", \"5h\"]")
        out["cards"] = list(cards)
        reading = action.get("reading")
        if reading is not None:
            if type(reading) is not int:
                raise IllegalActionError("BAD_ACTION", "reading must be an int play code")
            out["reading"] = reading
    elif kind in ("give_tribute", "return_tribute"):
        card = action.get("card")
        if not isinstance(card, str) or not 0 < len(card) <= 4:
            raise IllegalActionError("BAD_ACTION", "a tribute names one card, such as \"BJ\"")
        out["card"] = card
    return out


#: The seed of the bot in ``seat`` for hand ``hand`` of a table
#: (:func:`tienlen.seeds.table_bot_seed`).
bot_seed = table_bot_seed


class TableBot(Protocol):
    """A bot seated at a table: it reads the game's own view of its seat
    (:meth:`TableState.bot_view`) and answers an action dict."""

    name: str

    def act(self, view: object) -> dict[str, Any]:
        """The action to take."""

    def explain(self, view: object, lang: str = "en") -> tuple[dict[str, Any], str]:
        """The action and the reason for it, in words (hints, the AI debug panel): in
        ``lang`` when it is one of the spec's ``reason_langs``, else in English."""


class TableState(Protocol):
    """One match at a table. Every method that takes ``seat`` acts for that seat only."""

    @property
    def game(self) -> str:
        """The spec's name."""

    @property
    def players(self) -> int: ...

    @property
    def phase(self) -> str:
        """The game's phase (``"play"``, ``"tribute"`` ...), ``"hand_over"`` or ``"over"``."""

    @property
    def turn(self) -> int | None:
        """The seat to act, None between hands and once the match is over."""

    @property
    def hand_number(self) -> int:
        """The current hand, 1 for the first."""

    @property
    def is_over(self) -> bool: ...

    def legal_actions(self) -> list[dict[str, Any]]:
        """Every legal action of the seat to act, as action dicts; [] when nobody is to act."""

    def verify(self, action: Action, seat: int) -> None:
        """Raise :class:`IllegalActionError` if ``seat`` may not take ``action`` now."""

    def can(self, action: Action, seat: int) -> bool: ...

    def apply(self, action: Action, seat: int) -> dict[str, Any]:
        """Take ``action`` for ``seat``; returns the record of what was done, as a seat
        other than the actor may see it (a tribute's card only to those who gave or took it
        is the view's business: the record names the card, the view hides it)."""

    def last_record(self, seat: int) -> dict[str, Any] | None:
        """The record of the last action :meth:`apply` took, as ``seat`` may see it (the
        game hides what that seat may not know, such as another's tribute card); ``None``
        before any action."""

    def next_hand(self) -> None:
        """Deal the next hand (phase ``"hand_over"`` only)."""

    def view(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may know, as JSON-able data: never another seat's hand."""

    def bot_view(self, seat: int) -> object:
        """The game's own view object of ``seat``, for bots."""

    def outcome(self) -> dict[str, Any] | None:
        """The last finished hand's result (places, scores or levels), None before any."""


class CanFromVerify:
    """``can`` derived from ``verify``, so that a game's :class:`TableState` writes the
    check once (pokerkit's verify / can / do): mix it in and define ``verify``."""

    __slots__ = ()

    def verify(self, action: Action, seat: int) -> None:
        raise NotImplementedError

    def can(self, action: Action, seat: int) -> bool:
        """Whether ``verify`` accepts ``action`` for ``seat``."""
        try:
            self.verify(action, seat)
        except IllegalActionError:
            return False
        return True


class MatchTable(CanFromVerify):
    """What every game's :class:`TableState` checks the same way, written once: ``can``
    from ``verify`` (:class:`CanFromVerify`), :attr:`is_over` from the phase, and the
    refusals of a bad seat, of an action between hands or after the match, and of a deal
    while a hand is in play. A game's table defines ``players``, ``phase`` and the rest of
    the protocol.

    >>> class Table(MatchTable):
    ...     players, phase = 4, "hand_over"
    >>> Table().is_over
    False
    >>> Table()._check_acting(0)
    Traceback (most recent call last):
    ...
    tienlen.errors.IllegalActionError: HAND_OVER: the hand is over: deal the next one first
    >>> Table()._check_seat(4)
    Traceback (most recent call last):
    ...
    tienlen.errors.IllegalActionError: BAD_SEAT: seat must be 0..3; got 4
    """

    #: The last record :meth:`_remember` kept and the seat that acted (unset before any).
    __slots__ = ("_last_applied",)
    _last_applied: tuple[dict[str, Any], int]

    @property
    def players(self) -> int:
        raise NotImplementedError

    def _remember(self, record: dict[str, Any], seat: int) -> dict[str, Any]:
        """Keep ``record`` of the action ``seat`` took, for :meth:`last_record`; returns
        it (a game's ``apply`` ends with ``return self._remember(record, seat)``)."""
        self._last_applied = (record, seat)
        return record

    def last_record(self, seat: int) -> dict[str, Any] | None:
        """The record of the last action applied, as ``seat`` may see it
        (:meth:`_record_seen_by`); ``None`` before any action.

        >>> class Table(MatchTable):
        ...     players, phase = 2, "play"
        >>> table = Table(); table.last_record(0) is None
        True
        >>> table._remember({"seat": 1, "kind": "pass"}, 1) and table.last_record(0)
        {'seat': 1, 'kind': 'pass'}
        """
        self._check_seat(seat)
        last = getattr(self, "_last_applied", None)
        if last is None:
            return None
        record, actor = last
        return self._record_seen_by(record, seat, actor)

    def _record_seen_by(self, record: dict[str, Any], seat: int, actor: int) -> dict[str, Any]:
        """``record`` of ``actor``'s action as ``seat`` may see it: all of it, unless the
        game hides a part (Guandan: a tribute card)."""
        return record

    @property
    def phase(self) -> str:
        raise NotImplementedError

    @property
    def is_over(self) -> bool:
        return self.phase == "over"

    def _check_seat(self, seat: object) -> None:
        """Refuse a seat that is not one of the table's (``BAD_SEAT``)."""
        if type(seat) is not int or not 0 <= seat < self.players:
            raise IllegalActionError("BAD_SEAT", f"seat must be 0..{self.players - 1}; "
                                                 f"got {seat!r:.20}")

    def _check_acting(self, seat: object) -> None:
        """Refuse an action once the match is over (``GAME_OVER``), between two hands
        (``HAND_OVER``) or from a bad seat (``BAD_SEAT``), in that order."""
        phase = self.phase
        if phase == "over":
            raise IllegalActionError("GAME_OVER", "the match is over")
        if phase == "hand_over":
            raise IllegalActionError("HAND_OVER", "the hand is over: deal the next one first")
        self._check_seat(seat)

    def _check_deal(self) -> None:
        """Refuse to deal the next hand but between two hands (``HAND_NOT_OVER`` while
        one is played, ``GAME_OVER`` once the match is over)."""
        phase = self.phase
        if phase != "hand_over":
            raise IllegalActionError("GAME_OVER" if phase == "over" else "HAND_NOT_OVER",
                                     "no hand to deal now")


def table_option(options: Mapping[str, Any] | None, name: str, default: int, top: int,
                 game: str) -> int:
    """The one option a game's table takes (``hands``, ``max_hands``): an int 1..``top``,
    ``default`` when not given; any other option is a ``ValueError`` naming ``game``.

    >>> table_option({"hands": 3}, "hands", 5, 1000, "Tiến Lên")
    3
    >>> table_option({"hand": 3}, "hands", 5, 1000, "Tiến Lên")
    Traceback (most recent call last):
    ...
    ValueError: unknown Tiến Lên table options: hand
    """
    opts = dict(options or {})
    value = opts.pop(name, default)
    if opts:
        raise ValueError(f"unknown {game} table options: {', '.join(sorted(opts))}")
    if type(value) is not int or not 1 <= value <= top:
        raise ValueError(f"{name} must be an int 1..{top}")
    return value


class GameSpec(Protocol):
    """A game as the table layer sees it, registered by name."""

    name: str
    #: The game's name as players write it ("Tiến Lên", "Guandan").
    title: str
    #: Player counts the game is played with.
    player_counts: tuple[int, ...]
    #: Bot levels, weakest first (``make_bot`` takes them in any case).
    bot_levels: tuple[str, ...]
    #: The level whose explanation is the training room's hint (:meth:`hint_bot`): the
    #: strongest that answers a person within half a second.
    hint_level: str
    #: The languages its bots word their reasons in (``TableBot.explain(view, lang)``).
    reason_langs: tuple[str, ...]

    def new_match(self, seed: int, *, players: int | None = None,
                  options: Mapping[str, Any] | None = None) -> TableState:
        """A new match dealt from ``seed``."""

    def make_bot(self, level: str, seed: int) -> TableBot:
        """A bot of ``level``; unknown levels raise ``ValueError``."""

    def hint_bot(self, seed: int) -> TableBot:
        """The bot whose explanation is the hint: ``hint_level``'s, on a fixed budget where
        it searches (the same position gets the same hint, as in the terminal)."""
