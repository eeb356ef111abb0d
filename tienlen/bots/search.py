"""SearchBot (L3): information-set Monte Carlo over the core's playouts.

For each decision the bot samples the hidden hands from the cards it has not seen (every
opponent keeps its card count; nothing hidden is ever read), applies every candidate action
to each sample, plays the hand out, and picks the action with the best (lowest) average
finishing place. Every candidate sees the same samples and random streams (common random
numbers), so their differences are measured with little noise.

Two playout engines, chosen by ``playout=``:

- ``"plan"`` (the default): the first ``depth`` actions of each playout follow the plan
  policy of :mod:`tienlen.bots.playout` (every seat plays like a cut-down L2), then the
  core's native ``GREEDY`` playout finishes the hand. The policy steps run in Python and
  hold the GIL (other threads still get it every switch interval, 5 ms by default); the
  native tails release it.
- ``"greedy"`` / ``"random"``: the whole search is one call to ``core.flat_monte_carlo``
  per round, in C with the GIL released, with that native playout policy. Much faster,
  but it assumes opponents who beat the pile whenever they can: strong against L1, no
  better than L2 against L2 (``docs/strength.md``).

Budgets:

- ``iterations=N``: N sampled deals per decision. **Deterministic**: the same seed and the
  same views give the same moves on any machine.
- ``time_ms=T`` (the default, 50 ms): samples until ``T`` is spent. How many fit depends on
  the machine and its load, so moves are *not* bit-reproducible in this mode.

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


from .. import _core
from ..cards import Cards
from ..view import View
from .base import PASS, Bot, BotError, Move
from .playout import Playout, plan_of
from .split import GROUP, move_damage

__all__ = ["SearchBot", "Estimate", "DEFAULT_TIME_MS", "DEFAULT_DEPTH", "PLAYOUTS"]

#: The default time budget per decision, in milliseconds.
DEFAULT_TIME_MS = 50.0
#: Plan-policy actions per playout before the native greedy playout takes over.
DEFAULT_DEPTH = 20
#: The playout engines: the plan policy, or a native core policy throughout.
PLAYOUTS = ("plan", "greedy", "random")

_NATIVE = {"greedy": _core.GREEDY, "random": _core.RANDOM}
# Plan search on more candidates than this keeps only the moves that keep the split.
_PRUNE_ABOVE = 8
_KEEPS = GROUP // 2
# Racing: from this many samples on, every few samples, drop the clearly worse moves.
_RACE_MIN = 8
_RACE_EVERY = 4
_RACE_Z = 2.0
# Moves within this many standard errors of the best average place count as level.
_TIE_Z = 1.0
# The first timed native round is small, to learn the speed before committing the budget.
_FIRST_ROUND = 4
# Native rounds are sized to this share of the time left, so the last rarely overshoots.
_FILL = 0.85


@dataclass(frozen=True, slots=True)
class Estimate:
    """The search's answer: each candidate move with its average finishing place
    (1 = first out), over ``samples`` sampled deals. Candidates are the legal moves in the
    core's order, then :data:`PASS` when passing is allowed; with ``prune`` the plan engine
    keeps, out of more than eight moves, only those that keep the hand's best split, and
    stops sampling a move once it is clearly worse than the best (its ``counts`` entry is
    then below ``samples``)."""

    moves: tuple[Move, ...]
    mean_places: tuple[float, ...]
    samples: int
    #: Samples behind each move: ``samples``, or fewer for a move the search dropped early.
    counts: tuple[int, ...] = ()
    #: Share of samples in which each move finished first (empty for the native engine).
    first_rates: tuple[float, ...] = ()
    #: The index of the chosen move, when the search chose among near-ties itself.
    chosen: int = -1

    @property
    def best(self) -> Move:
        """The chosen move: the lowest average place among the moves searched to the end
        (the first such, on a tie), unless the search broke a near-tie itself."""
        if self.chosen >= 0:
            return self.moves[self.chosen]
        full = [i for i, n in enumerate(self.counts or [self.samples] * len(self.moves))
                if n == self.samples]
        return self.moves[min(full, key=self.mean_places.__getitem__)]

    def place_of(self, move: Move) -> float:
        """The average place of ``move``; raises ``ValueError`` if it was not a candidate."""
        for candidate, place in zip(self.moves, self.mean_places):
            if candidate == move:
                return place
        raise ValueError(f"{move!r} was not among the searched moves")


class SearchBot(Bot):
    """L3: information-set Monte Carlo (see the module docstring).

    Give at most one of ``iterations`` (sampled deals per decision; deterministic) and
    ``time_ms`` (milliseconds per decision); with neither, ``time_ms=50``. ``playout`` is
    one of :data:`PLAYOUTS`; ``depth`` is the number of plan-policy actions per playout;
    ``prune`` lets the plan engine skip split-breaking moves when there are many.
    """

    level = "L3"

    def __init__(
        self,
        seed: int | None = None,
        *,
        iterations: int | None = None,
        time_ms: float | None = None,
        playout: str = "plan",
        depth: int = DEFAULT_DEPTH,
        prune: bool = True,
    ) -> None:
        super().__init__(seed)
        if iterations is not None and time_ms is not None:
            raise BotError("give iterations= (deterministic) or time_ms=, not both")
        if iterations is not None and (type(iterations) is not int or iterations < 1):
            raise BotError(f"iterations must be a positive int; got {iterations!r}")
        if time_ms is not None and (isinstance(time_ms, bool) or not isinstance(time_ms, (int, float))
                                    or not time_ms > 0):
            raise BotError(f"time_ms must be a positive number; got {time_ms!r}")
        if playout not in PLAYOUTS:
            raise BotError(f"playout must be one of {', '.join(PLAYOUTS)}; got {playout!r}")
        if type(depth) is not int or depth < 0:
            raise BotError(f"depth must be an int >= 0; got {depth!r}")
        self.iterations = iterations
        self.time_ms = None if iterations is not None else float(time_ms or DEFAULT_TIME_MS)
        self.playout = playout
        self.depth = depth
        self.prune = prune

    @property
    def name(self) -> str:
        options = []
        if self.iterations is not None:
            options.append(f"iterations={self.iterations}")
        elif self.time_ms != DEFAULT_TIME_MS:
            options.append(f"time_ms={self.time_ms:g}")
        if self.playout != "plan":
            options.append(f"playout={self.playout}")
        elif self.depth != DEFAULT_DEPTH:
            options.append(f"depth={self.depth}")
        return f"L3({', '.join(options)})" if options else "L3"

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
        return self._search(view, state, start)

    def evaluate(self, view: View) -> Estimate:
        """Search the position and return every candidate's average place, whatever the
        number of candidates (``choose`` skips the search when the answer is forced)."""
        start = time.perf_counter()
        self._check_turn(view)
        return self._estimate(view, view.search_state(), start)

    def _search(self, view: View, state: _core.GameState, start: float) -> Move:
        return self._estimate(view, state, start).best

    def _estimate(self, view: View, state: _core.GameState, start: float) -> Estimate:
        if self.playout == "plan":
            return self._plan_search(view, state, start)
        return self._native_search(view, state, start)

    # ------------------------------------------------------------------ native engine

    def _native_search(self, view: View, state: _core.GameState, start: float) -> Estimate:
        unseen = view.unseen.mask
        policy = _NATIVE[self.playout]
        if self.iterations is not None:
            actions, sums = _core.flat_monte_carlo(
                state, unseen, self.iterations, self.rng.getrandbits(64), policy)
            return _estimate(actions.tolist(), sums.tolist(), self.iterations)
        deadline = start + self.time_ms / 1000.0
        batch, samples, total = _FIRST_ROUND, 0, None
        while True:
            t0 = time.perf_counter()
            actions, sums = _core.flat_monte_carlo(
                state, unseen, batch, self.rng.getrandbits(64), policy)
            now = time.perf_counter()
            total = sums if total is None else total + sums
            samples += batch
            per_sample = (now - t0) / batch
            left = deadline - now
            if left < per_sample:
                break
            batch = max(1, int(left * _FILL / per_sample))
        return _estimate(actions.tolist(), total.tolist(), samples)

    # -------------------------------------------------------------------- plan engine

    def _plan_search(self, view: View, state: _core.GameState, start: float) -> Estimate:
        seat, flags = view.seat, view.rules.flags
        hand = view.hand.mask
        actions = state.legal_moves().tolist()
        if self.prune and len(actions) > _PRUNE_ABOVE:
            # A free lead offers dozens of moves; those that break the hand's best split
            # rarely win and would split the samples many ways.
            intact = [a for a in actions if move_damage(hand, a, flags) < _KEEPS]
            if intact:
                actions = intact
        if state.can_pass():
            actions.append(0)
        sums = [0] * len(actions)
        places: list[list[int]] = [[] for _ in actions]
        active = list(range(len(actions)))
        pool = list(view.unseen)
        counts = view.card_counts
        others = [p for p in range(view.players) if p != seat and counts[p]]
        fields = dict(pile_mask=state.pile_mask, pile_owner=state.pile_owner, turn=state.turn,
                      locked_mask=state.locked_mask, finished=state.finished,
                      must_include=state.must_include, flags=flags,
                      played_mask=state.played_mask)
        # The acting seat's plan after each action does not depend on the sample.
        own = [plan_of(hand & ~a, flags) if a else plan_of(hand, flags) for a in actions]
        engine = Playout(flags)
        rng = self.rng
        deadline = None if self.time_ms is None else start + self.time_ms / 1000.0
        samples = 0
        while True:
            t0 = time.perf_counter()
            rng.shuffle(pool)
            hands = [0] * view.players
            hands[seat] = hand
            at = 0
            for p in others:
                mask = 0
                for card in pool[at:at + counts[p]]:
                    mask |= 1 << card
                at += counts[p]
                hands[p] = mask
            base = _core.GameState.from_fields(hands, **fields)
            plans = [plan_of(h, flags) if h else [] for h in hands]
            seed = rng.getrandbits(64)
            for i in active:
                trial = base.copy()
                trial.apply(actions[i])
                sample_plans = [list(plan) for plan in plans]
                sample_plans[seat] = list(own[i])
                place = engine.run(trial, sample_plans, self.depth, seed).index(seat)
                sums[i] += place
                places[i].append(place)
            samples += 1
            if self.prune and len(active) > 1 and samples >= _RACE_MIN and samples % _RACE_EVERY == 0:
                active = _race(active, places, sums)
            if deadline is None:
                if samples >= self.iterations:
                    break
            else:
                # Stop unless one more sample, at the slower of its last and average cost,
                # still fits: the budget is a ceiling, not a target to overshoot.
                now = time.perf_counter()
                if now + max(now - t0, (now - start) / samples) > deadline:
                    break
        return Estimate(tuple(Cards(a) if a else PASS for a in actions),
                        tuple(1.0 + sums[i] / len(places[i]) for i in range(len(actions))),
                        samples, tuple(len(p) for p in places),
                        tuple(p.count(0) / len(p) for p in places),
                        _choose(places, sums, samples, actions))


def _choose(places: list[list[int]], sums: list[int], samples: int, actions: list[int]) -> int:
    """The lowest average place wins; among the moves the samples cannot tell from it
    (within one standard error of the paired difference), the one that finishes first
    most often, since a first place is what a player is after. Exact ties (often moves
    that differ only in suits) go to the lowest cards, and to a play before a pass."""
    full = [i for i, p in enumerate(places) if len(p) == samples]
    best = min(full, key=sums.__getitem__)
    if samples < 2:
        return best
    ref = places[best]
    tied = []
    for i in full:
        diffs = [a - b for a, b in zip(places[i], ref)]
        mean = sum(diffs) / samples
        var = sum((d - mean) ** 2 for d in diffs) / (samples - 1)
        if mean * mean * samples <= _TIE_Z * _TIE_Z * var:
            tied.append(i)
    return max(tied, key=lambda i: (places[i].count(0), -sums[i], -(actions[i] or 1 << 60)))


def _race(active: list[int], places: list[list[int]], sums: list[int]) -> list[int]:
    """The actions still worth sampling: those not clearly worse than the current best.

    All active actions saw the same samples, so each is compared with the best on the
    paired differences; one whose mean difference exceeds ``_RACE_Z`` standard errors is
    dropped."""
    best = min(active, key=sums.__getitem__)
    ref = places[best]
    n = len(ref)
    kept = []
    for i in active:
        if i != best:
            diffs = [a - b for a, b in zip(places[i], ref)]
            mean = sum(diffs) / n
            var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
            if mean > 0 and mean * mean * n > _RACE_Z * _RACE_Z * var:
                continue
        kept.append(i)
    return kept


def _estimate(actions: list[int], sums: list[int], samples: int) -> Estimate:
    moves = tuple(Cards(a) if a else PASS for a in actions)
    # The core counts places from 0; players read them from 1.
    means = tuple(1.0 + s / samples for s in sums)
    return Estimate(moves, means, samples, (samples,) * len(moves))
