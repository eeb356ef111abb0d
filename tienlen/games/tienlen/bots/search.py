"""SearchBot (L3): information-set Monte Carlo over the core's playouts.

For each decision the bot samples the hidden hands from the cards it has not seen (every
opponent keeps its card count; nothing hidden is ever read), applies every candidate action
to each sample, plays the hand out in the core, and picks the action with the best (lowest)
average finishing place. Every candidate sees the same samples (common random numbers), so
their differences are measured with little noise.

The samples are not uniform: the bot infers what the opponents hold from what they did
(``infer=True``, the default). Each past decision of an opponent in this hand is a record;
a deal that gives an opponent a hand with which the default playouts' model of an
opponent (the PLAN policy below) would have played differently *misses* that record. Deals are drawn
uniformly, ``_PROPOSALS`` per sample, and resampled with weight ``_MISS_WEIGHT`` to the
power of their misses (``core.scored_deals``, ``core.deal_places``). A seat that led a pair
of 9s rarely still holds a lone 4; one that passed on a 7 rarely holds a spare 8.

The playouts run in C with the GIL released (``core.sampled_places``), by one of the core's
policies, chosen by ``playout=``:

- ``"plan"`` (the default): every seat plays a cut-down L2: it keeps a best split of its
  hand and plays it group by group, holding 2s and bombs back (``docs/strength.md``).
- ``"greedy"``: every seat beats the pile whenever it can (L1's model of play). Strong
  against L1, no better than L2 against L2.
- ``"random"``: uniform random play.

The search runs in rounds of samples, each round twice as long as the one before; after
each round, a move whose paired difference from the best is more than two standard errors
worse stops being sampled (racing). On a lead with more than eight candidates, only the
moves that keep the hand's best split are searched.

Budgets:

- ``iterations=N``: N sampled deals per decision. **Deterministic**: the same seed and the
  same views give the same moves on any machine.
- ``time_ms=T`` (the default, 50 ms): samples until ``T`` is spent. How many fit depends on
  the machine and its load, so moves are *not* bit-reproducible in this mode.

Two cases skip the search: a move that empties the hand (nothing finishes better), and a
position with exactly one action.

The exact solver (``tienlen.games.tienlen.solver``, on by default, ``solver=False`` to switch it off) is
asked first when it is cheap:

- when the view pins down every hand (one other seat holds cards and no card was set
  aside), it solves the position itself, and plays the winning move when it goes out
  first by force;
- when few cards are unseen (at most ``SOLVE_UNSEEN``), it samples ``SOLVE_SAMPLES`` deals
  of them and plays a move that goes out first by force in every one of them, against
  any play of the others, if there is such a move.

Otherwise (or when its budget runs out first) the sampling search decides.

>>> from tienlen.games.tienlen.game import Game
>>> game = Game(4, seed=11)
>>> bot = SearchBot(seed=2, iterations=40)
>>> estimate = bot.evaluate(game.view(game.turn))
>>> estimate.samples, 1.0 <= min(estimate.mean_places) <= 4.0
(40, True)
>>> estimate.best == SearchBot(seed=2, iterations=40).choose(game.view(game.turn))
True
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from tienlen import _core
from tienlen.games.tienlen.cards import Cards
from tienlen.games.tienlen.view import View
from tienlen.games.tienlen.solver import Solution, Value
from tienlen.games.tienlen.solver import solve as solve_position
from tienlen.table.budget import budget_options, check_budget
from tienlen.games.tienlen.bots.base import PASS, Bot, BotError, Move
from tienlen.games.tienlen.bots.split import GROUP, move_damage

# One opponent decision for core.scored_deals: (state before it, seat, cards played from
# then on, what it played, 0 for a pass).
_Record = tuple[_core.GameState, int, int, int]

__all__ = ["SearchBot", "Estimate", "DEFAULT_TIME_MS", "PLAYOUTS", "SOLVE_UNSEEN",
           "SOLVE_SAMPLES"]

#: The default time budget per decision, in milliseconds.
DEFAULT_TIME_MS = 50.0
#: The playout policies of the core that the search can play its samples out with.
PLAYOUTS = {"plan": _core.PLAN, "greedy": _core.GREEDY, "random": _core.RANDOM}

# On more candidates than this, search only the moves that keep the hand's best split.
_PRUNE_ABOVE = 8
_KEEPS = GROUP // 2
# Racing needs this many samples for a variance worth trusting.
_RACE_MIN = 8
_RACE_Z = 2.0
# Moves within this many standard errors of the best average place count as level.
_TIE_Z = 1.0
# The first round is small, to learn the speed before committing the budget.
_FIRST_ROUND = 16
# A timed round is sized to this share of the time left, so the last rarely overshoots.
_FILL = 0.85
# The share of a time budget kept back for the work after the last round (joining the
# samples, choosing), so that the whole decision stays within the budget.
_RESERVE = 0.05
#: The solver samples deals only when at most this many cards are unseen.
SOLVE_UNSEEN = 20
#: Sampled deals a move must win by force in, all of them, to be played without search.
SOLVE_SAMPLES = 8
# Nodes per solve of one sampled deal; small positions need far fewer (bench/README.md).
_SOLVE_NODES = 4000
# Share of a time budget the solver may take before the sampling search gets the rest.
_SOLVE_SHARE = 0.4
# In iterations= mode (deterministic, so no clock) the solver's budget is in nodes, in
# proportion to the search's: per iteration, for the exact solve and for all the solves
# of the sampled deals together. At 200 iterations that is at most ~20 ms and ~10 ms.
_EXACT_NODES_PER_ITERATION = 100
_SAMPLED_NODES_PER_ITERATION = 50
# Inference (class _Deals): uniform deals scored per deal kept, and the weight of a deal
# per recorded decision it fails to explain.
_PROPOSALS = 4
_MISS_WEIGHT = 0.3
_MISS_WEIGHTS = _MISS_WEIGHT ** np.arange(64, dtype=np.float64)


@dataclass(frozen=True, slots=True)
class Estimate:
    """The search's answer: each candidate move with its average finishing place
    (1 = first out), over ``samples`` sampled deals. Candidates are the legal moves in the
    core's order, then :data:`PASS` when passing is allowed; with ``prune`` the search
    keeps, out of more than eight moves, only those that keep the hand's best split, and
    stops sampling a move once it is clearly worse than the best (its ``counts`` entry is
    then below ``samples``)."""

    moves: tuple[Move, ...]
    mean_places: tuple[float, ...]
    samples: int
    #: Samples behind each move: ``samples``, or fewer for a move the search dropped early.
    counts: tuple[int, ...] = ()
    #: Share of its samples in which each move finished first.
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
    one of :data:`PLAYOUTS`; ``prune`` lets the search skip split-breaking moves when there
    are many, and stop sampling moves that are clearly worse than the best; ``solver`` asks
    the endgame solver first when it is cheap; ``infer`` samples deals by how well they
    explain the opponents' play so far instead of uniformly (see the module docstring).
    """

    level = "L3"

    def __init__(
        self,
        seed: int | None = None,
        *,
        iterations: int | None = None,
        time_ms: float | None = None,
        playout: str = "plan",
        prune: bool = True,
        solver: bool = True,
        infer: bool = True,
    ) -> None:
        super().__init__(seed)
        self.iterations, self.time_ms = check_budget(iterations, time_ms,
                                                     default_ms=DEFAULT_TIME_MS, error=BotError)
        if playout not in PLAYOUTS:
            raise BotError(f"playout must be one of {', '.join(PLAYOUTS)}; got {playout!r}")
        self.playout = playout
        self.prune = prune
        self.solver = bool(solver)
        self.infer = bool(infer)
        # Each action's share of sampled deals won by force, from the last _forced_move.
        self._shares: dict[int, float] = {}

    @property
    def name(self) -> str:
        options = budget_options(self.iterations, self.time_ms, default_ms=DEFAULT_TIME_MS)
        if self.playout != "plan":
            options.append(f"playout={self.playout}")
        if not self.solver:
            options.append("solver=off")
        if not self.infer:
            options.append("infer=off")
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
        deals = self._deals(view, state)
        if self.solver and view.must_include is None:
            forced = self._forced_move(view, state, start, deals)
            if forced is not None:
                return forced
        return self._search(view, state, start, deals)

    def _deals(self, view: View, state: _core.GameState) -> _Deals:
        """Where this decision's sampled deals come from (inferred, unless ``infer=False``)."""
        return _Deals(state, view.unseen.mask, PLAYOUTS[self.playout],
                      _inference_records(view) if self.infer else [])

    def forced_win(self, view: View) -> Solution | None:
        """The solver's winning line when the view pins down every hand (one other seat
        holds cards, none set aside) and the seat to act, this one, goes out first by
        force within the budget; else None."""
        self._check_turn(view)
        if view.must_include is not None or not _all_known(view):
            return None
        solution = solve_position(view.search_state(), view.seat, **self._exact_limits(None))
        return solution if solution.value is Value.WIN else None

    def _exact_limits(self, start: float | None) -> dict[str, int]:
        # __init__ sets exactly one of iterations and time_ms.
        if self.iterations is not None:
            return {"max_nodes": _EXACT_NODES_PER_ITERATION * self.iterations, "max_ms": 0}
        assert self.time_ms is not None
        left = self.time_ms * _SOLVE_SHARE
        if start is not None:
            left -= (time.perf_counter() - start) * 1000
        return {"max_nodes": 1 << 40, "max_ms": max(1, int(left))}

    def _forced_move(self, view: View, state: _core.GameState, start: float,
                     deals: _Deals) -> Move | None:
        """A move the solver proves goes out first (see the module docstring), or None.
        In the sampled case, also leaves in ``self._shares`` each action's share of the
        sampled deals it wins by force in, for :meth:`_search` to weigh."""
        self._shares = {}
        seat = view.seat
        if _all_known(view):
            solution = solve_position(state, seat, **self._exact_limits(start))
            return solution.move if solution.value is Value.WIN else None
        unseen = view.unseen.mask
        if unseen.bit_count() > SOLVE_UNSEEN:
            return None
        deadline = None if self.time_ms is None else start + self.time_ms * _SOLVE_SHARE / 1000.0
        actions = state.legal_moves().tolist() + ([0] if state.can_pass() else [])
        wins = dict.fromkeys(actions, 0)
        nodes_left = (1 << 40 if self.iterations is None
                      else _SAMPLED_NODES_PER_ITERATION * self.iterations)
        for done, hands in enumerate(deals.draw(SOLVE_SAMPLES, self.rng).tolist()):
            deal = _deal_state(state, hands)
            # Only actions that can still win in half the samples are worth solving.
            left = SOLVE_SAMPLES - done
            for action in actions:
                if wins[action] + left < SOLVE_SAMPLES // 2:
                    continue
                child = deal.copy()
                child.apply(action)
                value, _, nodes, _ = _core.solve(child, seat, min(_SOLVE_NODES, nodes_left), 0)
                if value == _core.SOLVE_WIN:
                    wins[action] += 1
                nodes_left -= nodes
                if nodes_left <= 0 or (deadline is not None and time.perf_counter() > deadline):
                    return None
            if max(wins.values()) + left - 1 < SOLVE_SAMPLES // 2:
                return None
        best = max(actions, key=lambda a: wins[a])
        if wins[best] == SOLVE_SAMPLES:
            return Cards(best) if best else PASS
        self._shares = {a: n / SOLVE_SAMPLES for a, n in wins.items() if n}
        return None

    def evaluate(self, view: View) -> Estimate:
        """Search the position and return every candidate's average place, whatever the
        number of candidates (``choose`` skips the search when the answer is forced)."""
        start = time.perf_counter()
        self._check_turn(view)
        state = view.search_state()
        return self._estimate(view, state, start, self._deals(view, state))

    def _search(self, view: View, state: _core.GameState, start: float, deals: _Deals) -> Move:
        estimate = self._estimate(view, state, start, deals)
        best = estimate.best
        shares, self._shares = self._shares, {}
        if shares:
            # A move that wins by force, against any play, in more of the sampled deals than
            # the search's choice finishes first in its playouts is the better bet for a
            # first place.
            rate = estimate.first_rates[estimate.moves.index(best)] if estimate.first_rates else 0.0
            share, action = max((s, a) for a, s in shares.items())
            if share > rate and shares.get(best.mask if isinstance(best, Cards) else 0, 0.0) < share:
                return Cards(action) if action else PASS
        return best

    def _estimate(self, view: View, state: _core.GameState, start: float,
                  deals: _Deals) -> Estimate:
        """Sample in rounds: every active candidate is played out in the round's deals,
        then racing drops the clearly worse ones, until the budget is spent."""
        actions = self._candidates(view, state)
        blocks: list[list[np.ndarray]] = [[] for _ in actions]
        active = list(range(len(actions)))
        deadline = None if self.time_ms is None else start + self.time_ms * (1 - _RESERVE) / 1000.0
        samples, batch = 0, _FIRST_ROUND
        while True:
            if self.iterations is not None:
                batch = min(batch, self.iterations - samples)
            t0 = time.perf_counter()
            places = deals.places([actions[i] for i in active], batch, self.rng)
            now = time.perf_counter()
            for row, i in enumerate(active):
                blocks[i].append(places[row])
            samples += batch
            per_sample = (now - t0) / batch
            if self.prune and len(active) > 1 and samples >= _RACE_MIN:
                active = _race(active, {i: _joined(blocks[i]) for i in active})
            batch = self._next_round(samples, deadline, now, per_sample)
            if batch == 0:
                break
        rows = [_joined(b) for b in blocks]
        return Estimate(tuple(Cards(a) if a else PASS for a in actions),
                        tuple(1.0 + float(r.mean()) for r in rows),
                        samples, tuple(len(r) for r in rows),
                        tuple(float(np.count_nonzero(r == 0)) / len(r) for r in rows),
                        _choose(rows, samples, actions))

    def _candidates(self, view: View, state: _core.GameState) -> list[int]:
        """The actions to search: the legal moves (on a lead with many, only those that
        keep the hand's best split), then the pass when it is allowed."""
        actions: list[int] = state.legal_moves().tolist()
        if self.prune and len(actions) > _PRUNE_ABOVE:
            # A free lead offers dozens of moves; those that break the hand's best split
            # rarely win and would spread the samples thin.
            hand, flags = view.hand.mask, view.rules.flags
            intact = [a for a in actions if move_damage(hand, a, flags) < _KEEPS]
            if intact:
                actions = intact
        if state.can_pass():
            actions.append(0)
        return actions

    def _next_round(self, samples: int, deadline: float | None, now: float,
                    per_sample: float) -> int:
        """How many samples the next round takes, 0 to stop. Rounds double, so racing
        looks in at 16, 32, 64...; a timed round is sized to the time left at the speed
        just measured, and skipped if not even a small one fits: the budget is a ceiling."""
        if deadline is None:
            assert self.iterations is not None      # no time budget: a sample budget
            return min(samples, self.iterations - samples)
        fits = int((deadline - now) * _FILL / per_sample)
        return 0 if fits < min(_FIRST_ROUND, samples) else min(fits, samples)


class _Deals:
    """Where the search's sampled deals come from: uniform deals of the unseen cards
    (``core.sampled_places``), or, given records of the opponents' past decisions, deals
    drawn in proportion to how well they explain those decisions.

    Inference: ``_PROPOSALS`` uniform deals are drawn per sample kept, each is scored by
    how many recorded decisions the PLAN policy would have made differently with the hands
    it gives (``core.scored_deals``), and the kept deals are drawn from them with weight
    ``_MISS_WEIGHT ** misses`` (importance resampling): a deal that explains every decision
    is far likelier than one that explains none, but none is ruled out, since no model of
    an opponent is exact."""

    def __init__(self, state: _core.GameState, unseen: int, policy: int,
                 records: list[_Record]) -> None:
        self.state, self.unseen, self.policy, self.records = state, unseen, policy, records

    def places(self, actions: list[int], samples: int, rng: random.Random) -> np.ndarray:
        """Places (0 = first) of the acting seat after each action, one column per deal."""
        if not self.records:
            return _core.sampled_places(self.state, self.unseen, actions, samples,
                                        rng.getrandbits(64), self.policy)
        return _core.deal_places(self.state, self.draw(samples, rng), actions, self.policy,
                                 rng.getrandbits(64))

    def draw(self, samples: int, rng: random.Random) -> np.ndarray:
        """``samples`` deals, one row of hands each (the acting seat's column is its own
        hand): uniform without records, else resampled by weight."""
        seed = rng.getrandbits(64)
        if not self.records:
            return _core.scored_deals(self.state, self.unseen, samples, seed, [])[0]
        deals, misses = _core.scored_deals(self.state, self.unseen, samples * _PROPOSALS,
                                           seed, self.records)
        weights = _MISS_WEIGHTS[np.minimum(misses, len(_MISS_WEIGHTS) - 1)]
        chosen = np.random.Generator(np.random.PCG64(rng.getrandbits(64))).choice(
            len(deals), size=samples, p=weights / weights.sum())
        return deals[chosen]


def _inference_records(view: View) -> list[_Record]:
    """The opponents' past decisions in this hand as ``core.scored_deals`` records: the
    public state before each (replayed in the core from a stand-in deal whose hands have
    the right sizes), the seat, the cards it played from then on, and what it did.

    The first action is left out (it may have had to hold the lowest card, R7.2, which the
    replay does not know), and so is everything if the replay disagrees with the history
    (a rule the replay cannot follow): no inference is better than a wrong one."""
    history = view.history
    if len(history) < 2:
        return []
    players, seat = view.players, view.seat
    played = [0] * players
    for action in history:
        if action.cards is not None:
            played[action.seat] |= action.cards.mask
    # Stand-ins for the hidden hands as they are now: any unseen cards, the right counts.
    hands = [0] * players
    pool = view.unseen.mask
    for p in range(players):
        if p == seat:
            hands[p] = view.hand.mask | played[p]
            continue
        for _ in range(view.card_counts[p]):
            low = pool & -pool
            hands[p] |= low
            pool ^= low
        hands[p] |= played[p]
    try:
        state = _core.GameState.from_fields(hands, turn=history[0].seat, flags=view.rules.flags)
    except ValueError:
        return []
    later = played[:]
    records: list[_Record] = []
    for i, action in enumerate(history):
        mask = 0 if action.cards is None else action.cards.mask
        if state.turn != action.seat:
            return []
        if i > 0 and action.seat != seat:
            records.append((state.copy(), action.seat, later[action.seat], mask))
        later[action.seat] &= ~mask
        if (state.try_play(mask) if mask else state.try_pass()) < 0:
            return []
    return records


def _all_known(view: View) -> bool:
    """Whether the view determines every hand: one other seat holds cards, and every
    unseen card is in it (no card was set aside, R1.2)."""
    others = [count for p, count in enumerate(view.card_counts) if count and p != view.seat]
    return len(others) == 1 and view.unseen.mask.bit_count() == others[0]


def _deal_state(state: _core.GameState, hands: list[int]) -> _core.GameState:
    """``state`` with the hidden hands replaced by one sampled deal."""
    return _core.GameState.from_fields(
        hands, pile_mask=state.pile_mask, pile_owner=state.pile_owner, turn=state.turn,
        locked_mask=state.locked_mask, finished=state.finished,
        must_include=state.must_include, flags=state.flags, played_mask=state.played_mask)


def _joined(blocks: list[np.ndarray]) -> np.ndarray:
    """One array of a move's samples so far; kept as the only block, so that the next
    round joins two arrays, not every round's."""
    if len(blocks) > 1:
        blocks[:] = [np.concatenate(blocks)]
    return blocks[0]


def _paired_z(places: np.ndarray, ref: np.ndarray) -> tuple[float, float]:
    """Mean of the paired differences ``places - ref`` and its squared standard error."""
    diffs = places.astype(np.int16) - ref
    n = len(diffs)
    mean = float(diffs.mean())
    var = float(diffs.var(ddof=1)) if n > 1 else 0.0
    return mean, var / n


def _choose(places: Sequence[npt.ArrayLike], samples: int, actions: list[int]) -> int:
    """The lowest average place wins; among the moves the samples cannot tell from it
    (within one standard error of the paired difference), the one that finishes first
    most often, since a first place is what a player is after. Exact ties (often moves
    that differ only in suits) go to the lowest cards, and to a play before a pass."""
    rows = [np.asarray(p, dtype=np.int8) for p in places]
    full = [i for i, r in enumerate(rows) if len(r) == samples]
    sums = {i: int(rows[i].sum(dtype=np.int64)) for i in full}
    best = min(full, key=sums.__getitem__)
    if samples < 2:
        return best
    tied = []
    for i in full:
        mean, sq_err = _paired_z(rows[i], rows[best])
        if mean * mean <= _TIE_Z * _TIE_Z * sq_err:
            tied.append(i)
    return max(tied, key=lambda i: (int(np.count_nonzero(rows[i] == 0)), -sums[i],
                                    -(actions[i] or 1 << 60)))


def _race(active: list[int],
          places: Mapping[int, npt.ArrayLike] | Sequence[npt.ArrayLike]) -> list[int]:
    """The actions still worth sampling: those not clearly worse than the current best.

    All active actions saw the same samples, so each is compared with the best on the
    paired differences; one whose mean difference exceeds ``_RACE_Z`` standard errors is
    dropped."""
    rows = {i: np.asarray(places[i], dtype=np.int8) for i in active}
    sums = {i: int(rows[i].sum(dtype=np.int64)) for i in active}
    best = min(active, key=sums.__getitem__)
    kept = []
    for i in active:
        if i != best:
            mean, sq_err = _paired_z(rows[i], rows[best])
            if mean > 0 and mean * mean > _RACE_Z * _RACE_Z * sq_err:
                continue
        kept.append(i)
    return kept
