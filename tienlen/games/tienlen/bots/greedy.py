"""GreedyBot (L1): shed the lowest cards first, beat the pile as cheaply as possible.

The rule, precisely:

- **Lead.** Play the combination with the most cards among those holding the hand's lowest
  card, bombs excluded; ties go to the lowest top card. So a low card leaves the hand in
  the longest run, pair or triple it belongs to.
- **Follow.** Play the lowest legal play: the first in the core's order (kind, length,
  then top card). A bomb is played only where it cuts the pile; otherwise it is skipped.
  With no such play, pass.

"Bomb" and "cuts" are the game's rule table (:func:`~tienlen.games.tienlen.bots.base.is_bomb`,
:func:`~tienlen.games.tienlen.bots.base.cuts`): under the contract every quad and double sequence is a
bomb and it cuts only 2s (R4.1); in the South a 5-pair double sequence is no bomb and a
bomb also cuts the bombs below it in the chặt table (R11.1).
- A play that empties the hand is always made.

This is the core's ``GREEDY`` playout policy, except that it keeps its bombs.

>>> from tienlen.games.tienlen.game import Game
>>> game = Game.from_hands(["3s 4s 5h 5d 9d", "6c 6d 6h 6s 2h"])
>>> bot = GreedyBot(seed=0)
>>> print(bot.choose(game.view(0)))
3♠ 4♠ 5♦
>>> _ = game.play("3s 4s 5d")
>>> bot.choose(game.view(1))          # no run of three, and the quad is kept
PASS
"""

from __future__ import annotations

from tienlen import _core
from tienlen.games.tienlen.view import View
from tienlen.games.tienlen.bots.base import PASS, Bot, Move, cuts, is_bomb

__all__ = ["GreedyBot"]


class GreedyBot(Bot):
    """L1: lowest combination first; never a bomb except to cut the pile."""

    level = "L1"

    def choose(self, view: View) -> Move:
        self._check_turn(view)
        moves = view.legal_moves()
        hand = view.hand.mask
        flags = view.rules.flags
        for move in moves:
            if move.mask == hand:
                return move
        if view.pile is None:
            lowest = hand & -hand
            best, best_len = moves[0], 0
            for move in moves:
                size = len(move)
                if (move.mask & lowest and size > best_len
                        and not is_bomb(_core.classify(move.mask, flags), flags)):
                    best, best_len = move, size
            return best
        pile = view.pile.code
        for move in moves:
            code = _core.classify(move.mask, flags)
            if not is_bomb(code, flags) or cuts(code, pile, flags):
                return move
        return PASS
