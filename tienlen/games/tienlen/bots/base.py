"""The bot protocol: a bot looks at one seat's :class:`~tienlen.games.tienlen.view.View` and returns a move.

A bot never sees hidden hands, only the view its seat is given. It returns :class:`Cards`
to play or :data:`PASS`, and the move must be legal in that view. Anything random comes
from the bot's own seeded generator, so a bot built with the same seed makes the same
choices in the same situations.

>>> from tienlen.games.tienlen.game import Game
>>> from tienlen.games.tienlen.bots import GreedyBot
>>> game = Game.from_hands(["3s 4s 5h 9d", "6c 7c 8c 2h"])
>>> bot = GreedyBot(seed=1)
>>> print(bot.choose(game.view(0)))
3♠ 4♠ 5♥
>>> bot.name, bot.seed
('L1', 1)
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import ClassVar

from tienlen import _core
from tienlen.games.tienlen.cards import Cards
from tienlen.errors import TienlenError
from tienlen.games.tienlen.actions import PASS, Move
from tienlen.seeds import seed_or_fresh
from tienlen.games.tienlen.view import View

__all__ = ["Bot", "BotError", "Move", "PASS", "cuts", "is_bomb", "is_unbeatable", "TWOS_MASK"]

#: The four 2s (rank 12), the cards that only bombs can beat.
TWOS_MASK = 0xF << 48


class BotError(TienlenError):
    """A bot was built or asked wrongly: a bad seed, level or budget, or a view that is not
    its turn."""


def is_bomb(code: int, flags: int = 0) -> bool:
    """Whether a play of combo ``code`` is a bomb to keep for a cut under the rules of
    ``flags`` (``Rules.flags``): a kind the rule table lets cut something (R4.1; R11.1 in
    the South), or a double sequence longer than any in the table. The core's test
    (``core.is_bomb_group``), the one the PLAN playouts use; under the contract it is every
    quad and double sequence.

    >>> from tienlen import core
    >>> from tienlen.games.tienlen.rules import Rules
    >>> five_pairs = core.classify(0b11 | 0b11 << 4 | 0b11 << 8 | 0b11 << 12 | 0b11 << 16)
    >>> is_bomb(core.classify(0b1111)), is_bomb(core.classify(0b1)), is_bomb(five_pairs)
    (True, False, True)
    >>> is_bomb(five_pairs, Rules.southern().flags)     # cuts nothing in the South (R11.1)
    False
    """
    return _core.is_bomb_group(code, flags)


def cuts(code: int, pile_code: int, flags: int = 0) -> bool:
    """Whether a play of combo ``code`` would *cut* the pile ``pile_code`` by the rule table
    of ``flags``: the table lists the pile's class among what the play's class cuts (a bomb
    on a 2 under the contract, R4.1; the chặt table in the South, R11.1, where a bomb's own
    class means a lower one of its kind). Whether the play is legal is the game's question.

    >>> from tienlen import core
    >>> from tienlen.games.tienlen.rules import Rules
    >>> quad, three_pairs = core.classify(0b1111), core.classify(0b11 | 0b11 << 4 | 0b11 << 8)
    >>> cuts(quad, core.classify(1 << 51)), cuts(quad, three_pairs)
    (True, False)
    >>> cuts(quad, three_pairs, Rules.southern().flags)
    True
    """
    return _core.cut_class(pile_code) in _core.cut_targets(code, flags)


def is_unbeatable(move: int, unseen: int, flags: int = 0) -> bool:
    """Whether nothing among the ``unseen`` cards beats the play ``move`` on a fresh pile
    (every unseen card pooled as if one opponent held them all, so it errs on the side of
    caution): the play is sure to win the pile. This is the one "control card" test of the
    bots and hints.

    >>> from tienlen.games.tienlen.cards import Cards
    >>> unseen = Cards.parse("3c 4d 5h 8h").mask      # 8♥ beats 8♠; nothing beats 9♠
    >>> is_unbeatable(Cards.parse("9s").mask, unseen), is_unbeatable(Cards.parse("8s").mask, unseen)
    (True, False)
    """
    return _core.count_legal_moves(unseen, _core.classify(move, flags), flags) == 0


class Bot(ABC):
    """Base class of the bots. Subclasses implement :meth:`choose`.

    ``seed`` (an int in [0, 2**64)) fixes every random choice; ``None`` draws one from
    :mod:`secrets`, kept in :attr:`seed` so a game can be replayed.
    """

    #: The level name used by :func:`~tienlen.games.tienlen.bots.make_bot` and the CLI.
    level: ClassVar[str] = "?"

    def __init__(self, seed: int | None = None) -> None:
        self.seed: int = seed_or_fresh(seed, BotError)
        self.rng = random.Random(self.seed)

    @property
    def name(self) -> str:
        """A short label for tables: the level, plus any non-default settings."""
        return self.level

    @abstractmethod
    def choose(self, view: View) -> Move:
        """The move for the seat of ``view``, whose turn it must be: :class:`Cards` from
        ``view.legal_moves()``, or :data:`PASS` when ``view.can_pass()``."""

    def _check_turn(self, view: View) -> None:
        if not view.is_my_turn:
            raise BotError(
                f"{self.name} was asked to move for seat {view.seat}, but the turn is "
                f"{'over' if view.turn is None else f'seat {view.turn}'}'s"
            )

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name} seed={self.seed}>"
