"""Bots: players that choose a move from one seat's :class:`~tienlen.games.tienlen.view.View`.

=========  =====================  ==============================================================
level      class                  plays
=========  =====================  ==============================================================
random     :class:`RandomBot`     uniformly among the legal moves and pass
L1         :class:`GreedyBot`     its lowest combination; the cheapest play that beats the pile
L2         :class:`HeuristicBot`  by a plan of the fewest groups, keeping 2s and bombs back
L3         :class:`SearchBot`     by information-set Monte Carlo over plan playouts
=========  =====================  ==============================================================

Helper: :mod:`~tienlen.games.tienlen.bots.split`, the hand split behind L2, the hints, and (in C) the
core's ``PLAN`` playout policy that L3 searches with.

>>> from tienlen.games.tienlen.game import Game
>>> game = Game(4, seed=5)
>>> bots = [make_bot(level, seed=seat) for seat, level in enumerate(LEVELS)]
>>> while not game.is_over:
...     _ = game.act(bots[game.turn].choose(game.view(game.turn)))
>>> sorted(game.finished)
[0, 1, 2, 3]
"""

from __future__ import annotations

from typing import Any

from tienlen.games.tienlen.bots.base import PASS, Bot, BotError, Move
from tienlen.games.tienlen.bots.greedy import GreedyBot
from tienlen.games.tienlen.bots.heuristic import HeuristicBot
from tienlen.games.tienlen.bots.random_bot import RandomBot
from tienlen.games.tienlen.bots.search import Estimate, SearchBot

__all__ = ["Bot", "BotError", "Move", "PASS", "RandomBot", "GreedyBot", "HeuristicBot",
           "SearchBot", "Estimate", "make_bot", "LEVELS"]

_BY_LEVEL: dict[str, type[Bot]] = {
    "random": RandomBot,
    "l1": GreedyBot,
    "l2": HeuristicBot,
    "l3": SearchBot,
}

#: The level names, weakest first, as the CLI spells them.
LEVELS: tuple[str, ...] = ("random", "L1", "L2", "L3")


def make_bot(level: str, seed: int | None = None, **options: Any) -> Bot:
    """A bot of ``level`` ("random", "L1", "L2" or "L3", any case) with ``seed``.

    ``"ppo:PATH"`` seats a trained policy (:class:`tienlen.games.tienlen.learned.PolicyBot`, needs the
    ``[train]`` extra), ``"dmc:PATH"`` a network of ``tienlen train`` (:class:`tienlen.games.tienlen.learned.DmcBot`). ``options`` go to the bot's constructor, such as ``iterations=`` or ``time_ms=`` for
    L3. ``functools.partial(make_bot, "L3", iterations=50)`` is a picklable bot factory
    for :func:`tienlen.games.tienlen.arena.run`.

    >>> make_bot("l2", seed=4)
    <HeuristicBot L2 seed=4>
    >>> make_bot("L3", seed=1, iterations=20).name
    'L3(iterations=20)'
    >>> make_bot("L9")
    Traceback (most recent call last):
    ...
    tienlen.games.tienlen.bots.base.BotError: unknown bot level 'L9' (expected one of: random, L1, L2, L3)
    """
    if isinstance(level, str) and level.lower().startswith(("ppo:", "dmc:")):
        # A trained policy (behind the [train] extra), imported only when named.
        from importlib import import_module

        learned = import_module("tienlen.games.tienlen.learned")
        make = learned.from_spec if level.lower().startswith("ppo:") else learned.dmc_from_spec
        bot: Bot = make(level, seed=seed, **options)
        return bot
    cls = _BY_LEVEL.get(level.lower()) if isinstance(level, str) else None
    if cls is None:
        raise BotError(f"unknown bot level {level!r} (expected one of: {', '.join(LEVELS)})")
    return cls(seed, **options)
