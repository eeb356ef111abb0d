"""What one seat of a Guandan hand may know: :class:`GameView`
(:meth:`Game.view <tienlen.games.guandan.game.Game.view>` makes one). The same room as Tiến
Lên's :mod:`tienlen.games.tienlen.view`; :mod:`tienlen.games.guandan.game` re-exports it.

>>> from tienlen.games.guandan.game import Game
>>> view = Game(seed=3).view(0)
>>> view.seat, view.partner, len(view.hand)
(0, 2, 27)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from tienlen.games.guandan.actions import Action, AntiTribute, Tribute, played_cards
from tienlen.games.guandan.cards import Cards
from tienlen.games.guandan.plays import Play
from tienlen.games.guandan.rules import RuleConfig

__all__ = ["GameView"]


@dataclass(frozen=True, slots=True)
class GameView:
    """What one seat may know (issue 17): its own hand, the cards left per seat, the trick,
    the history, level, teams, and the hand's exchanges as every seat sees them (G6.11):
    who paid whom with which card and who returned which card to whom (a tribute's card
    is its payer's alone until every tribute is given), or who refused tribute showing
    which big jokers."""

    seat: int
    phase: str
    hand: Cards
    hand_sizes: tuple[int, ...]
    turn: int | None
    level: int
    teams: tuple[tuple[int, int], tuple[int, int]]
    pile: Play | None
    pile_owner: int | None
    finished: tuple[int, ...]
    history: tuple[Action, ...]
    tributes: tuple[Tribute, ...]
    config: RuleConfig
    legal_plays: Sequence[Play]
    can_pass: bool
    #: During tribute, what this seat must do now: "give", "return" or None.
    tribute_step: str | None = None
    #: Tribute refused (G6.6): who would have paid and whose big jokers were shown (G6.11);
    #: None when tribute was paid or there was none.
    anti_tribute: AntiTribute | None = None

    @property
    def partner(self) -> int:
        team = self.teams[0] if self.seat in self.teams[0] else self.teams[1]
        return team[1] if team[0] == self.seat else team[0]

    # -- the names Tiến Lên's view gives the same things (docs/architecture.md, the
    # vocabulary): one contract for a front end or bot that reads either game's view.

    @property
    def players(self) -> int:
        """The number of seats: always 4."""
        return len(self.hand_sizes)

    @property
    def rules(self) -> RuleConfig:
        """The same as :attr:`config`: the hand's rule options."""
        return self.config

    @property
    def card_counts(self) -> tuple[int, ...]:
        """The same as :attr:`hand_sizes`: the cards each seat holds."""
        return self.hand_sizes

    @property
    def is_my_turn(self) -> bool:
        """Whether this seat is to act."""
        return self.turn == self.seat

    def legal_moves(self) -> list[Play]:
        """This seat's legal plays as a list (:attr:`legal_plays`); ``[]`` unless it is to
        play."""
        return list(self.legal_plays)

    @property
    def played(self) -> Cards:
        """Every card played so far in this hand (from :attr:`history`)."""
        return played_cards(self.history)

    def known_cards(self, seat: int) -> Cards:
        """The cards ``seat`` is known to hold now, as far as this seat can tell: its own
        hand for this seat; for another, what the public exchanges put in its hand (G6.11:
        a tribute card it received and did not give back, a card returned to it, a big
        joker it showed to refuse tribute) less what it has played since. A lower bound:
        the seat may hold more copies.

        >>> from tienlen.games.guandan.game import Game
        >>> g = Game(hands=["3s 4s", "5s 6s", "7s 8s", "9s Ks"], previous_order=(0, 1, 2, 3))
        >>> _ = g.give_tribute("Ks"); _ = g.return_tribute("4s")
        >>> v = g.view(1)
        >>> v.known_cards(0), v.known_cards(3), v.known_cards(2)
        (Cards.parse('Ks'), Cards.parse('4s'), Cards())
        """
        if seat == self.seat:
            return self.hand
        held: Counter[int] = Counter()
        for t in self.tributes:
            if t.receiver == seat and t.card is not None:
                held[t.card] += 1
            if t.payer == seat and t.returned is not None:
                held[t.returned] += 1
            if t.receiver == seat and t.returned is not None:
                held -= Counter([t.returned])   # it may have given the tribute card back
        if self.anti_tribute is not None:
            held[53] += self.anti_tribute.jokers.count(seat)
        for a in self.history:
            if a.seat == seat and a.action == "play" and a.cards is not None:
                held -= Counter(a.cards.ids)
        return Cards(sorted(held.elements()))

    @property
    def unseen(self) -> Cards:
        """The two decks minus this seat's hand minus every card played: the cards the
        other seats hold (and, during tribute, the cards in flight), as far as this seat
        can tell."""
        return _DOUBLE_DECK - self.hand - self.played


_DOUBLE_DECK = Cards(list(range(54)) * 2)
