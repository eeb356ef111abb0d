"""Opponents that play unlike our own bots: the styles a strength change is measured against,
so that a gain is not a fit to L2 (issue 35).

L3's playouts and its inference assume that every seat plays L2's plan. The rule bots of the
outside world do not. Each style here is the plan (L2) with one habit of a different player:

=========  ===========================================================================
style      habit
=========  ===========================================================================
bomber     bombs an opponent's trick early: as soon as that opponent holds at most
           ``BOMB_WHEN`` (12) cards (L2 waits until a trick matters)
hoarder    passes rather than follow with its control cards (a single, pair or triple of
           level cards or jokers, a bomb) until it or an opponent holds ``LATE`` (10) cards
longest    leads the longest group of its plan's split (L2 leads its weakest group)
=========  ===========================================================================

Each keeps L2's play everywhere else, so that the styles are opponents of about L2's
strength that decide differently, not weak players.

Seat one with ``make_bot("style:bomber")`` (any CLI or arena bot list accepts it).

>>> from tienlen.guandan import Game
>>> game = Game(seed=5)
>>> view = game.view(game.turn)
>>> kind, play = StyleBot("longest", seed=1).decide(view)
>>> kind, play.size == max(p.size for p in plan_plays(view.hand, view.level) if not p.is_bomb)
('play', True)
"""

from __future__ import annotations

from tienlen.games.guandan.bots import Decision, PlanBot, plan_decision, plan_plays, play_strength
from tienlen.games.guandan.explain import Explanation
from tienlen.games.guandan.game import GameView, single_value
from tienlen.games.guandan.plays import Play

__all__ = ["STYLES", "StyleBot", "CONTROL_VALUE", "LATE", "BOMB_WHEN"]

#: The styles :class:`StyleBot` plays.
STYLES = ("bomber", "hoarder", "longest")

#: A card whose single-card value is at least this (a level card, a joker) is a control
#: card: it wins tricks late in the hand.
CONTROL_VALUE = 15

#: The bomber bombs an opponent's trick once that opponent holds at most this many cards.
BOMB_WHEN = 12

#: Late in the hand, when this seat or an opponent holds at most this many cards, the hoarder
#: spends its control cards as L2 would.
LATE = 10


def _is_control(play: Play, level: int) -> bool:
    """A bomb, or a single, pair or triple of control cards (a wild inside a longer
    combination does not make it one)."""
    return play.is_bomb or (play.size <= 3 and all(single_value(c, level) >= CONTROL_VALUE
                                                   for c in play.cards.ids))


class StyleBot(PlanBot):
    """L2's plan with one habit of another kind of player (see the module's table)."""

    def __init__(self, style: str, seed: int | None = None) -> None:
        if style not in STYLES:
            raise ValueError(f"unknown style {style!r}; choose from {', '.join(STYLES)}")
        super().__init__(seed, exchange="base")
        self.style = style
        self.level = f"style:{style}"

    @property
    def name(self) -> str:
        return self.level

    def choose_play(self, view: GameView) -> Decision:
        habit: Decision = getattr(self, f"_{self.style}")(view)
        return habit

    def _habit(self, kind: str, play: Play | None) -> Decision:
        return Decision.because(kind, play, Explanation("STYLE_HABIT", style=self.style, action=play))

    def _opponents(self, view: GameView) -> list[int]:
        return [s for s in range(4) if s not in (view.seat, view.partner)]

    def _bomber(self, view: GameView) -> Decision:
        owner = view.pile_owner
        if view.pile is not None and owner in self._opponents(view) \
                and view.hand_sizes[owner] <= BOMB_WHEN:
            bombs = sorted((p for p in view.legal_plays if p.is_bomb), key=play_strength)
            if bombs:
                return self._habit("play", bombs[0])
        return plan_decision(view)

    def _hoarder(self, view: GameView) -> Decision:
        plan = plan_decision(view)
        if view.pile is None or plan.kind != "play" or not isinstance(plan.cards, Play):
            return plan                                         # leads are the plan's
        if not _is_control(plan.cards, view.level) or not view.can_pass:
            return plan
        if len(view.hand) <= LATE or any(0 < view.hand_sizes[s] <= LATE
                                         for s in self._opponents(view)):
            return plan                                         # late in the hand: spend
        return self._habit("pass", None)

    def _longest(self, view: GameView) -> Decision:
        if view.pile is not None:
            return plan_decision(view)
        groups = [p for p in plan_plays(view.hand, view.level, view.config) if not p.is_bomb]
        if not groups:
            return plan_decision(view)
        longest = max(groups, key=lambda p: (p.size, [-v for v in play_strength(p)]))
        # the plan's group, as the legal play of the same cards and reading
        for play in view.legal_plays:
            if play == longest:
                return self._habit("play", play)
        return plan_decision(view)
