"""What one seat of a Guandan hand may know: :class:`GameView`
(:meth:`Game.view <tienlen.games.guandan.game.Game.view>` makes one). The same room as Tiến
Lên's :mod:`tienlen.games.tienlen.view`; :mod:`tienlen.games.guandan.game` re-exports it.

>>> from tienlen.games.guandan.game import Game
>>> view = Game(seed=3).view(0)
>>> view.seat, view.partner, len(view.hand)
(0, 2, 27)
>>> view.standing is None                  # a hand alone: no match around it
True

A hand of a :class:`~tienlen.games.guandan.match.Match` carries the match's
:class:`Standing` (G7.7): both teams' levels, whose level the hand is played at, the failed
attempts at A and the hand's number, as every seat at the table knows them.

>>> from tienlen.games.guandan.match import Match
>>> Match(seed=3).game.view(0).standing
Standing(levels=(2, 2), declarer=None, hand_number=0, failed_attempts=(0, 0))
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from tienlen.games.guandan.actions import Action, AntiTribute, Tribute, played_cards
from tienlen.games.guandan.cards import Cards
from tienlen.games.guandan.errors import GuandanError
from tienlen.games.guandan.plays import Play
from tienlen.games.guandan.rules import RuleConfig

__all__ = ["GameView", "Standing"]


@dataclass(frozen=True, slots=True)
class Standing:
    """The match around one hand, as every seat at the table knows it (GUANDAN.md G7.7).
    A view's team index is 0 for a seat of ``teams[0]``, 1 for the other.

    ``levels`` and ``failed_attempts`` are per team, in the order of the hand's ``teams``
    (``teams[0]``'s first), as they stood when the hand was dealt; ``declarer`` is the team
    (0 or 1) whose level the hand is played at, None for a match's first hand (G1.4);
    ``hand_number`` counts the match's hands from 0.

    >>> s = Standing((14, 9), 0, 6, (1, 0))
    >>> s.level_of(0), s.at_ace(0), s.at_ace(1)
    (14, True, False)
    >>> Standing((15, 9), 1, 6)
    Traceback (most recent call last):
    ...
    tienlen.errors.GuandanError: standing: levels must be two ints 2..14; got (15, 9)
    """

    levels: tuple[int, int]
    declarer: int | None
    hand_number: int
    failed_attempts: tuple[int, int] = (0, 0)

    def __post_init__(self) -> None:
        _check_standing(self)

    def level_of(self, team: int) -> int:
        """Team ``team``'s level (0: ``teams[0]``)."""
        return self.levels[team]

    def at_ace(self, team: int) -> bool:
        """Whether team ``team`` is at A (its 过A is possible only in a hand it declares,
        G7.3, G7.5)."""
        return self.levels[team] == 14


@dataclass(frozen=True, slots=True)
class GameView:
    """What one seat may know (issue 17): its own hand, the cards left per seat, the trick,
    the history, level, teams, the hand's exchanges as every seat sees them (G6.11): who
    paid whom with which card and who returned which card to whom (a tribute's card is its
    payer's alone until every tribute is given), or who refused tribute showing which big
    jokers; and, in a match, the match's :class:`Standing` (both teams' levels, the
    declarer, the failed attempts and the hand's number: :attr:`standing`, None for a hand
    alone)."""

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
    #: The match around this hand (G7.7); None for a hand played alone.
    standing: Standing | None = None

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


def _pair(value: object, low: int, high: int) -> bool:
    return (isinstance(value, tuple) and len(value) == 2
            and all(type(v) is int and low <= v <= high for v in value))


def _check_standing(s: Standing) -> None:
    """A standing's fields, each checked: one GuandanError naming the first bad one."""
    if not _pair(s.levels, 2, 14):
        raise GuandanError(f"standing: levels must be two ints 2..14; got {s.levels!r:.80}")
    if s.declarer is not None and (type(s.declarer) is not int or s.declarer not in (0, 1)):
        raise GuandanError(f"standing: declarer must be None, 0 or 1 (a team); "
                           f"got {s.declarer!r:.80}")
    if type(s.hand_number) is not int or s.hand_number < 0:
        raise GuandanError(f"standing: hand_number must be an int >= 0; "
                           f"got {s.hand_number!r:.80}")
    if not _pair(s.failed_attempts, 0, 1 << 30):
        raise GuandanError(f"standing: failed_attempts must be two ints >= 0; "
                           f"got {s.failed_attempts!r:.80}")
    if (s.declarer is None) != (s.hand_number == 0):
        raise GuandanError(f"standing: a match's first hand (hand_number 0) and only it has no "
                           f"declarer; got declarer={s.declarer!r:.20}, "
                           f"hand_number={s.hand_number!r:.20}")


_DOUBLE_DECK = Cards(list(range(54)) * 2)
