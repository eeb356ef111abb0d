"""SearchBot (L3): information-set Monte Carlo over the core's native playouts.

For each decision the bot asks ``core.flat_monte_carlo``: hidden hands are redrawn from the
cards it has not seen (each opponent keeps its card count), every candidate action is
applied to each sample, and the hand is played out natively by the core's ``GREEDY``
policy. The action with the best (lowest) average finishing place is played. The search
runs in C with the GIL released, so other Python threads keep running meanwhile.

Budgets:

- ``iterations=N``: N sampled deals per decision, in one call. **Deterministic**: the same
  seed and the same views give the same moves, on any machine.
- ``time_ms=T`` (the default, 50 ms): samples in rounds until ``T`` is spent, each round
  sized from the measured speed of the previous one. How many samples fit depends on the
  machine and its load, so moves are *not* bit-reproducible in this mode.

Two cases skip the search: a move that empties the hand (nothing finishes better), and a
position with exactly one action.

>>> from tienlen.game import Game
>>> game = Game(4, seed=11)
>>> bot = SearchBot(seed=2, iterations=40)
>>> estimate = bot.evaluate(game.view(game.turn))
>>> estimate.samples, 1.0 <= min(estimate.mean_places) <= 4.0
(40, True)
>>> estimate.best == SearchBot(seed=2, iterations=40).choose(game.view(game.turn))
True
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from .. import _core
from ..cards import Cards
from ..view import View
from .base import PASS, Bot, BotError, Move

__all__ = ["SearchBot", "Estimate", "DEFAULT_TIME_MS"]

#: The default time budget per decision, in milliseconds.
DEFAULT_TIME_MS = 50.0
# The first timed round is small, to learn the speed before committing the budget.
_FIRST_ROUND = 4
# Rounds are sized to this share of the time left, so the last one rarely overshoots.
_FILL = 0.85


@dataclass(frozen=True, slots=True)
class Estimate:
    """The search's answer: each candidate move with its average finishing place
    (1 = first out), over ``samples`` sampled deals. Moves are in the core's order, with
    :data:`PASS` last when passing is allowed."""

    moves: tuple[Move, ...]
    mean_places: tuple[float, ...]
    samples: int

    @property
    def best(self) -> Move:
        """The move with the lowest average place (the first such, on a tie)."""
        return self.moves[self.mean_places.index(min(self.mean_places))]

    def place_of(self, move: Move) -> float:
        """The average place of ``move``; raises ``ValueError`` if it was not a candidate."""
        for candidate, place in zip(self.moves, self.mean_places):
            if candidate == move:
                return place
        raise ValueError(f"{move!r} was not among the searched moves")


class SearchBot(Bot):
    """L3: flat information-set Monte Carlo with the core's greedy playouts.

    Give at most one of ``iterations`` (sampled deals per decision; deterministic) and
    ``time_ms`` (milliseconds per decision); with neither, ``time_ms=50``.
    """

    level = "L3"

    def __init__(
        self,
        seed: int | None = None,
        *,
        iterations: int | None = None,
        time_ms: float | None = None,
        policy: int = _core.GREEDY,
    ) -> None:
        super().__init__(seed)
        if iterations is not None and time_ms is not None:
            raise BotError("give iterations= (deterministic) or time_ms=, not both")
        if iterations is not None and (type(iterations) is not int or iterations < 1):
            raise BotError(f"iterations must be a positive int; got {iterations!r}")
        if time_ms is not None and (isinstance(time_ms, bool) or not isinstance(time_ms, (int, float))
                                    or not time_ms > 0):
            raise BotError(f"time_ms must be a positive number; got {time_ms!r}")
        if policy not in (_core.RANDOM, _core.GREEDY):
            raise BotError(f"policy must be core.RANDOM or core.GREEDY; got {policy!r}")
        self.iterations = iterations
        self.time_ms = None if iterations is not None else float(time_ms or DEFAULT_TIME_MS)
        self.policy = policy

    @property
    def name(self) -> str:
        if self.iterations is not None:
            return f"L3(iterations={self.iterations})"
        if self.time_ms != DEFAULT_TIME_MS:
            return f"L3(time_ms={self.time_ms:g})"
        return "L3"

    def choose(self, view: View) -> Move:
        start = time.perf_counter()
        self._check_turn(view)
        moves = view.legal_moves()
        hand = view.hand
        for move in moves:
            if move == hand:
                return move
        state = view.search_state()
        if len(moves) + state.can_pass() == 1:
            return moves[0] if moves else PASS
        return self._search(view, state, start).best

    def evaluate(self, view: View) -> Estimate:
        """Search the position and return every candidate's average place, whatever the
        number of candidates (``choose`` skips the search when the answer is forced)."""
        start = time.perf_counter()
        self._check_turn(view)
        return self._search(view, view.search_state(), start)

    def _search(self, view: View, state: _core.GameState, start: float) -> Estimate:
        unseen = view.unseen.mask
        if self.iterations is not None:
            actions, sums = _core.flat_monte_carlo(
                state, unseen, self.iterations, self.rng.getrandbits(64), self.policy)
            return _estimate(actions, sums, self.iterations)
        deadline = start + self.time_ms / 1000.0
        batch, samples, total = _FIRST_ROUND, 0, None
        while True:
            t0 = time.perf_counter()
            actions, sums = _core.flat_monte_carlo(
                state, unseen, batch, self.rng.getrandbits(64), self.policy)
            now = time.perf_counter()
            total = sums if total is None else total + sums
            samples += batch
            per_sample = (now - t0) / batch
            left = deadline - now
            if left < per_sample:
                break
            batch = max(1, int(left * _FILL / per_sample))
        return _estimate(actions, total, samples)


def _estimate(actions: np.ndarray, sums: np.ndarray, samples: int) -> Estimate:
    moves = tuple(Cards(int(a)) if a else PASS for a in actions.tolist())
    # The core counts places from 0; players read them from 1.
    means = tuple(1.0 + s / samples for s in sums.tolist())
    return Estimate(moves, means, samples)
