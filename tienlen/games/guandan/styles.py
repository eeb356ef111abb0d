"""Opponents that play unlike our own bots: the styles a strength change is measured against,
so that a gain is not a fit to L2 (issue 35).

L3's playouts and its inference assume that every seat plays L2's plan. The rule bots of the
outside world do not. Each style here is the plan (L2) with one habit of a different player:

=========  ===========================================================================
style      habit
=========  ===========================================================================
bomber     bombs as soon as an opponent leads the trick (the smallest bomb that beats it)
hoarder    keeps its control cards (aces, level cards, jokers, bombs) and passes rather
           than spend one, unless an opponent is close to going out
longest    leads the play with the most cards it holds; follows with the weakest beat
=========  ===========================================================================

Seat one with ``make_bot("style:bomber")`` (any CLI or arena bot list accepts it).

>>> from tienlen.guandan import Game
>>> game = Game(seed=5)
>>> bot = StyleBot("longest", seed=1)
>>> kind, play = bot.decide(game.view(game.turn))
>>> kind, play.size >= max(p.size for p in game.legal_plays())
('play', True)
"""

from __future__ import annotations

from tienlen.games.guandan.bots import Decision, PlanBot, play_strength, plan_decision
from tienlen.games.guandan.explain import Explanation
from tienlen.games.guandan.game import GameView, single_value
from tienlen.games.guandan.plays import Play

__all__ = ["STYLES", "StyleBot", "CONTROL_VALUE", "CLOSE_TO_OUT"]

#: The styles :class:`StyleBot` plays.
STYLES = ("bomber", "hoarder", "longest")

#: A card whose single-card value is at least this (an ace, a level card, a joker) is a
#: control card: it wins tricks late in the hand.
CONTROL_VALUE = 14

#: An opponent with at most this many cards is close to going out: a hoarder spends then.
CLOSE_TO_OUT = 5


def _is_control(play: Play, level: int) -> bool:
    return play.is_bomb or any(single_value(c, level) >= CONTROL_VALUE for c in play.cards.ids)


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
        if view.pile is not None and owner in self._opponents(view):
            bombs = sorted((p for p in view.legal_plays if p.is_bomb), key=play_strength)
            if bombs:
                return self._habit("play", bombs[0])
        return plan_decision(view)

    def _hoarder(self, view: GameView) -> Decision:
        plan = plan_decision(view)
        if plan.kind != "play" or not isinstance(plan.cards, Play):
            return plan
        if not _is_control(plan.cards, view.level):
            return plan
        if any(0 < view.hand_sizes[s] <= CLOSE_TO_OUT for s in self._opponents(view)):
            return plan
        if len(plan.cards.cards) == len(view.hand):
            return plan                                         # it goes out
        plain = sorted((p for p in view.legal_plays if not _is_control(p, view.level)),
                       key=play_strength)
        if view.pile is None:
            if plain:
                return self._habit("play", plain[0])
            return plan                                         # a lead must play something
        if view.can_pass:
            return self._habit("pass", None)
        return plan

    def _longest(self, view: GameView) -> Decision:
        plays = list(view.legal_plays)
        if view.pile is None and plays:
            best = max(plays, key=lambda p: (p.size, [-v for v in play_strength(p)]))
            return self._habit("play", best)
        if view.pile_owner == view.partner and view.can_pass:
            return self._habit("pass", None)
        beats = sorted((p for p in plays if not p.is_bomb), key=play_strength)
        if beats:
            return self._habit("play", beats[0])
        return plan_decision(view)
