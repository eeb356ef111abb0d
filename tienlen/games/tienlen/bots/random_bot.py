"""RandomBot: a uniform choice among the legal moves, plus pass when passing is allowed.

>>> from tienlen.games.tienlen.game import Game
>>> game = Game.from_hands(["3s 4s 5h", "6c 7c 8c"])
>>> a, b = RandomBot(seed=3), RandomBot(seed=3)
>>> view = game.view(0)
>>> [a.choose(view) for _ in range(5)] == [b.choose(view) for _ in range(5)]
True
"""

from __future__ import annotations

from tienlen.games.tienlen.view import View
from tienlen.games.tienlen.bots.base import PASS, Bot, Move

__all__ = ["RandomBot"]


class RandomBot(Bot):
    """Every legal play, and pass when allowed, is equally likely."""

    level = "random"

    def choose(self, view: View) -> Move:
        self._check_turn(view)
        moves = view.legal_moves()
        options = len(moves) + view.can_pass()
        pick = self.rng.randrange(options)
        return moves[pick] if pick < len(moves) else PASS
