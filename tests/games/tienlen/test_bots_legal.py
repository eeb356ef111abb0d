"""The hard rule: every bot returns only moves legal in its view, over 10,000+ games.

One lineup holds all four levels, so every game checks every bot, in every seat (the
arena rotates them). The arena plays each move through ``Game.act``, the checked path, and
stops with ``ArenaError`` at the first illegal one; the wrapper below also insists on the
protocol's types (``Cards`` or ``PASS``, nothing else). ``TIENLEN_SOAK=1`` runs far more.
"""

from __future__ import annotations

import functools
import os

import pytest

from tienlen.arena import simulate
from tienlen.games.tienlen.bots import PASS, Bot, make_bot
from tienlen.games.tienlen.cards import Cards
from tienlen.games.tienlen.rules import Rules

SOAK = os.environ.get("TIENLEN_SOAK") == "1"


class Typed(Bot):
    """Wraps a bot of ``level`` and fails loudly if it answers with anything but ``Cards``
    or ``PASS``."""

    def __init__(self, level: str, seed: int | None = None, **options) -> None:
        super().__init__(seed)
        self.inner = make_bot(level, seed=seed, **options)
        self.level = level

    @property
    def name(self) -> str:
        return self.inner.name

    def choose(self, view):
        move = self.inner.choose(view)
        if not (type(move) is Cards or move is PASS):
            raise AssertionError(f"{self.name} returned {move!r}, not Cards or PASS")
        return move


def _lineup(l3: dict) -> list:
    return [functools.partial(Typed, "random"), functools.partial(Typed, "L1"),
            functools.partial(Typed, "L2"), functools.partial(Typed, "L3", **l3)]


def test_all_four_bots_play_only_legal_moves_in_10000_games():
    games = 100_000 if SOAK else 10_000
    result = simulate("tienlen", _lineup({"iterations": 4}), games, seed=2024, jobs=2)
    assert result.games == games
    assert result.names == ("random", "L1", "L2", "L3(iterations=4)")
    # Every bot decided in every game (each game needs at least one move per seat).
    assert all(n >= games for n in result.decisions)


@pytest.mark.parametrize("players, rules", [(2, Rules()), (3, Rules(twos_in_sequences=False)),
                                            (4, Rules(twos_in_sequences=False))])
def test_bots_stay_legal_with_fewer_players_and_the_no_twos_variant(players, rules):
    levels = ["random", "L1", "L2", "L3"]
    games = (6000 if SOAK else 300) // players * players
    for start in range(0, 4, players):
        picked = [levels[(start + i) % 4] for i in range(players)]
        lineup = [functools.partial(Typed, lv, **({"iterations": 2} if lv == "L3" else {}))
                  for lv in picked]
        result = simulate("tienlen", lineup, games, players=players, seed=7 + start, rules=rules)
        assert result.games == games


def test_the_timed_search_stays_legal():
    games = 400 if SOAK else 40
    result = simulate("tienlen", _lineup({"time_ms": 1}), games, seed=99)
    assert result.bot("L3(time_ms=1)").decisions >= games
