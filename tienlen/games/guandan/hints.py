"""Training-mode hints for Guandan: the best play with a reason a learner can use, and the
classic 提示 button, which cycles through the plays that beat the pile, weakest first.

>>> from tienlen.guandan import Game
>>> game = Game(hands=["3s 3d 9s Js", "4s 5s", "6s 7s", "8s Ks"], leader=3)
>>> _ = game.play("8s")
>>> button = TipButton(game.view(0))
>>> [str(button.press().cards) for _ in range(3)]      # weakest first, then round again
['9♠', 'J♠', '9♠']
>>> h = hint(game.view(0), "L2")
>>> print(h)
play 9♠ (single 9): single 9 beats it without breaking your plan
>>> h.why.code, h.reason_in("zh")
('FOLLOW_GROUP', '单张 9能压过，而且不拆散你的牌型')
"""

from __future__ import annotations

from dataclasses import dataclass

from tienlen.games.guandan.bots import Bot, Decision, make_bot, weakest_first
from tienlen.games.guandan.game import GameView
from tienlen.games.guandan.plays import Play
from tienlen.games.guandan.explain import Explanation

__all__ = ["Hint", "hint", "hint_bot", "TipButton", "tip_plays", "HINT_ITERATIONS", "HINT_TIME_MS"]


@dataclass(frozen=True)
class Hint:
    """A suggested action and why: ``reason`` in English words, ``why`` the same reason as a
    value that words itself in either language (:meth:`reason_in`)."""

    kind: str              # "play", "pass", "give_tribute" or "return_tribute"
    cards: object          # a Play, a card id, or None
    reason: str
    why: Explanation | None = None

    def reason_in(self, lang: str) -> str:
        """The reason worded in ``lang`` (``"en"`` or ``"zh"``)."""
        return self.reason if self.why is None else self.why.text(lang)

    def __str__(self) -> str:
        if self.kind == "pass":
            return f"pass: {self.reason}"
        if isinstance(self.cards, Play):
            return f"play {self.cards.cards} ({self.cards.describe()}): {self.reason}"
        from tienlen.games.guandan.cards import Cards

        what = Cards.from_ids([self.cards]) if isinstance(self.cards, int) else self.cards
        return f"{self.kind.replace('_', ' ')} {what}: {self.reason}"


#: The hint's search budget: L3 on a fixed number of sampled deals (deterministic: the same
#: position gets the same hint), sized so that a hint answers within half a second for a
#: person (docs/strength.md, "The training room's hints and AI seats"): the strongest bot
#: that does. 600 since the plan's split got twice as fast (it was 300, and 100 before L3
#: drew and scored its deals on both cores): on an idle 2-core machine at most 249 ms a hint
#: (bench/guandan_l3_deals.py), about what 300 deals took before; L3's own 85 ms weigh a
#: median 800-960 deals in the same positions, fewer where deals are dearest.
HINT_ITERATIONS = 600
#: The hint's wall-time cap (milliseconds): the deals are cut short here when the machine is
#: too busy to price them all in time (a server under load, issue 35), so that the answer
#: still comes within half a second, from fewer deals (the reason says how many). Above the
#: deals' idle maximum, so that an idle machine does not cut them; 400 let a busy server's
#: answer reach 506 ms (bench/server_load.py --hints, docs/strength.md).
HINT_TIME_MS = 300.0


def hint(view: GameView, level: str = "L3", *, seed: int = 0) -> Hint:
    """The action the ``level`` bot would take for this seat, with its reason in words.

    The default is L3, the strongest bot, on :data:`HINT_ITERATIONS` sampled deals (within
    :data:`HINT_TIME_MS`): it starts from the L2 plan's choice and its reason ("lead your
    pair of 6: it follows your plan ..."), tries the alternatives on deals of the cards this
    seat cannot see, and says whether the plan's choice held up or which play did better and
    by how much. ``"L2"`` gives the plan's choice alone (instant), ``"L1"`` the basic one.
    """
    d: Decision = hint_bot(level, seed).explain(view)
    return Hint(d.kind, d.cards, d.reason, d.why)


def hint_bot(level: str = "L3", seed: int = 0) -> Bot:
    """The bot whose choice is the hint at ``level``: L3 on :data:`HINT_ITERATIONS` sampled
    deals (the same position, the same hint) cut short at :data:`HINT_TIME_MS`, another
    level as it plays. The terminal's ``h`` and the room's hint
    (:meth:`tienlen.games.guandan.spec.GuandanSpec.hint_bot`) both ask it.

    >>> hint_bot(seed=3).name
    'L3(iterations=600, time_ms=300)'
    """
    options: dict[str, float] = ({"iterations": HINT_ITERATIONS, "time_ms": HINT_TIME_MS}
                                 if str(level).lower() == "l3" else {})
    return make_bot(level, seed=seed, **options)


def tip_plays(view: GameView) -> list[Play]:
    """The 提示 cycle: every legal play of the seat (on a pile: those that beat it), weakest
    first; plays without wilds before the same play with them."""
    return weakest_first(view.legal_plays)


class TipButton:
    """Each :meth:`press` gives the next play of :func:`tip_plays`, wrapping round; None when
    there is nothing to play (pass)."""

    def __init__(self, view: GameView) -> None:
        self._plays = tip_plays(view)
        self._next = 0

    def press(self) -> Play | None:
        if not self._plays:
            return None
        play = self._plays[self._next % len(self._plays)]
        self._next += 1
        return play

    def __len__(self) -> int:
        return len(self._plays)
