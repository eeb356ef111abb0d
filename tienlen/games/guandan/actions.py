"""The records of a Guandan hand: :class:`Action` (one action, as in
:attr:`Game.history <tienlen.games.guandan.game.Game.history>`) and :class:`Tribute` (one
tribute and its return). Defined below the game, as Tiến Lên's
:mod:`tienlen.games.tienlen.actions`, so that the view (:mod:`tienlen.games.guandan.view`)
holds them without importing the game; :mod:`tienlen.games.guandan.game` re-exports both.

>>> str(Action(2, "pass", None, None, None))
'seat 2 passes'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal, NamedTuple

from tienlen.games.guandan.cards import Cards
from tienlen.games.guandan.plays import Play

__all__ = ["Action", "Tribute", "AntiTribute", "played_cards"]


class Action(NamedTuple):
    """One action of a hand, as in :attr:`Game.history`: ``(seat, action, cards, play, to)``.

    ``action`` is ``"play"``, ``"pass"``, ``"give_tribute"`` or ``"return_tribute"``;
    ``cards`` the cards moved (None for a pass, and in another seat's view for a tribute
    exchange it did not take part in); ``play`` the reading of a play; ``to`` the seat that
    received a tribute or return card (None for a tribute whose receiver is not yet known).
    """

    seat: int
    action: Literal["play", "pass", "give_tribute", "return_tribute"]
    cards: Cards | None
    play: Play | None
    to: int | None

    def __str__(self) -> str:
        if self.action == "pass":
            return f"seat {self.seat} passes"
        if self.action == "play":
            assert self.play is not None
            return f"seat {self.seat} plays {self.cards} ({self.play.describe()})"
        verb = "gives tribute" if self.action == "give_tribute" else "returns"
        shown = "a card" if self.cards is None else str(self.cards)
        to = "" if self.to is None else f" to seat {self.to}"
        return f"seat {self.seat} {verb} {shown}{to}"


@dataclass(frozen=True, slots=True)
class Tribute:
    """One tribute of a hand: ``payer`` gave ``card`` (an original id) to ``receiver``,
    who returned ``returned`` (None until then)."""

    payer: int
    receiver: int | None
    card: int | None
    returned: int | None


@dataclass(frozen=True, slots=True)
class AntiTribute:
    """Tribute refused (抗贡, G6.6) as every seat sees it (G6.11): ``payers`` the seats that
    would have paid, in the order they would have paid; ``jokers`` the seat of each big joker
    shown in refusing (two entries, one seat twice when it holds both)."""

    payers: tuple[int, ...]
    jokers: tuple[int, ...]


def played_cards(history: Iterable[Action]) -> Cards:
    """The cards of every play in ``history`` (a game's or a view's; tribute and return
    cards are not plays).

    >>> played_cards([Action(0, "play", Cards.parse("3s 3d"), None, None),
    ...               Action(1, "pass", None, None, None)])
    Cards.parse('3s 3d')
    """
    return Cards([c for a in history if a.action == "play" and a.cards is not None
                  for c in a.cards.ids])
