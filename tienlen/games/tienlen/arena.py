"""Arena: bots play many hands in the duplicate format, and the results come with statistics.

Every deal is played once per seat rotation (``players`` times): the hands stay in their
seats and the bots move round them, so each bot plays every hand of every deal, and luck of
the deal cancels out as in duplicate bridge. Statistics are computed per deal (a bot's
average over the rotations of one deal), which makes the deals the independent units: the
95% confidence intervals and the paired comparison are over deals.

Every deal and every bot's seed derive from ``seed`` and the game's indices only, so a run
is reproducible whatever ``jobs`` (or executor) runs it; only the timings differ. (A bot
on a time budget, such as L3 by default, is itself not reproducible: give L3 a fixed
``iterations=`` for that.)

How a run executes: the deals are cut into ranges, and each range is one task,
``_play_chunk(work, start, stop) -> Unit``, a pure function of its arguments whose result
(the places of deals ``start..``, each game's decision times and counts) is merged by deal
index, in whatever order tasks finish. Three runners share it (and :func:`run_work` lends
them to other kinds of :class:`Work`, such as the Guandan duplicate arena):

- ``jobs=1``: in this process, one deal at a time; progress per game; Ctrl-C keeps
  every completed deal.
- ``jobs>1``: the arena's own process pool. Workers ignore SIGINT and report finished
  games through a queue (at most every 50 ms), and poll a stop event between decisions;
  on Ctrl-C the parent sets the event, each running task returns its completed deals
  within one decision, and queued tasks are cancelled.
- ``executor=``: any :class:`concurrent.futures.Executor` (threads, another pool, a
  cluster's). Tasks are smaller (64 per run) because progress then comes per task; on
  Ctrl-C, queued tasks are cancelled and the completed ones kept.

In each case Ctrl-C raises :class:`ArenaInterrupted` with the completed deals' result.
``unit_deals=``, ``done=`` and ``on_unit=`` cut the run into fixed units, skip the units of
an earlier run and hand each completed unit over as it lands (:mod:`tienlen.games.tienlen.results`
streams them to disk, :mod:`tienlen.arena.scale` runs them on Dask).

>>> result = run(["L1", "random"], games=40, players=2, seed=3)
>>> [(s.name, s.games) for s in result.stats()]
[('L1', 40), ('random', 40)]
>>> cmp = result.compare("L1", "random")
>>> cmp.diff.value < 0, 0.0 <= cmp.p_value <= 1.0    # L1 finishes higher on average
(True, True)
>>> run(["L1", "random"], games=40, players=2, seed=3, jobs=2).places.tolist() == result.places.tolist()
True
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Union

import numpy as np

from tienlen.games.tienlen.bots import Bot, make_bot
from tienlen.games.tienlen.game import Game
from tienlen.games.tienlen.match import finishing_places, hand_seed
from tienlen.games.tienlen.rules import Rules
from tienlen.seeds import check_players, check_seed, mix as _mix
# The engine, written once for every game (issue 25); its names stay importable from here.
from tienlen.arena.engine import (MAX_GAMES, MAX_JOBS, ArenaError, ArenaInterrupted, ArenaResult,
                          BotStats, Comparison, Entry, Interval, Pace, RotationWork, Stopped,
                          Unit, Work, _finished, _names, _play_chunk, mean_interval,
                          paired_test, play_deals, run_work)

__all__ = ["run", "ArenaResult", "BotStats", "Interval", "Comparison", "ArenaError",
           "ArenaInterrupted", "BotSpec", "Entry", "MAX_GAMES", "MAX_JOBS", "Unit",
           "entry_names", "Work", "Pace", "Stopped", "paired_test", "mean_interval",
           "run_work"]

#: A lineup entry: a level name for :func:`tienlen.games.tienlen.bots.make_bot`, or a picklable callable
#: taking ``seed=`` and returning a :class:`~tienlen.games.tienlen.bots.Bot`.
BotSpec = Union[str, Callable[..., Bot]]

_DEFAULT_RULES = Rules()
def _build(spec: BotSpec, seed: int) -> Bot:
    bot = make_bot(spec, seed=seed) if isinstance(spec, str) else spec(seed=seed)
    if not isinstance(bot, Bot):
        raise ArenaError(f"the bot factory {spec!r} returned {bot!r}, not a Bot")
    return bot


def _play_range(lineup: tuple[BotSpec, ...], players: int, seed: int, rules: Rules,
                start: int, stop: int, pace: Pace | None = None) -> Unit:
    """Play deals ``start..stop-1``, each in every rotation. With ``pace``, finished games
    are reported as they end, and a stop request ends the range early: the result then
    holds the deals completed so far (a deal cut short is dropped whole)."""
    n = len(lineup)
    places = np.zeros((stop - start, players, n), np.int8)
    seconds = np.zeros((stop - start, players, n))
    decisions = np.zeros((stop - start, players, n), np.int32)
    clock = time.perf_counter

    def play_game(d: int, r: int) -> None:
        seat_of = [(e + r) % players for e in range(n)]
        entry_at = {seat: e for e, seat in enumerate(seat_of)}
        bots = [_build(lineup[entry_at[s]], _mix(seed, d, r, entry_at[s]))
                for s in range(players)]
        game = Game(players, seed=hand_seed(seed, d + 1), rules=rules)
        spent = [0.0] * n
        moves = [0] * n
        while not game.is_over:
            seat = game.turn
            assert seat is not None         # (the hand is not over)
            view = game.view(seat)
            e = entry_at[seat]
            t0 = clock()
            try:
                move = bots[seat].choose(view)
            except Exception as error:
                # Name the game, as for an illegal move: on a cluster worker the
                # traceback is far away, the message travels with the exception.
                raise ArenaError(
                    f"{bots[seat].name} (seat {seat}, deal {d}, rotation {r}) raised "
                    f"{type(error).__name__}: {error}") from error
            t1 = clock()
            spent[e] += t1 - t0
            moves[e] += 1
            try:
                game.act(move)
            except ValueError as error:
                raise ArenaError(
                    f"{bots[seat].name} (seat {seat}, deal {d}, rotation {r}) made an "
                    f"illegal move {move!r}: {error}") from error
            if pace is not None and pace.due(t1):
                pace.poll(t1)
        # After an instant win (R11.3) the other seats share last place.
        for seat, place in enumerate(finishing_places(game)):
            places[d - start, r, entry_at[seat]] = place
        seconds[d - start, r] = spent
        decisions[d - start, r] = moves

    k = play_deals(start, stop, players, pace, play_game) - start
    return Unit(start, start + k, places[:k], decisions[:k], seconds[:k])


@dataclass(frozen=True, slots=True)
class _Deals(RotationWork):
    """A Tiến Lên arena run: every deal in every seat rotation."""

    lineup: tuple[BotSpec, ...]
    players: int
    seed: int
    rules: Rules
    names: tuple[str, ...]

    def play(self, start: int, stop: int, pace: Pace | None) -> Unit:
        return _play_range(self.lineup, self.players, self.seed, self.rules, start, stop, pace)


def run(
    lineup: Sequence[BotSpec],
    games: int,
    *,
    players: int = 4,
    seed: int = 0,
    jobs: int = 1,
    rules: Rules = _DEFAULT_RULES,
    executor: Executor | None = None,
    progress: Callable[[int, int], None] | None = None,
    unit_deals: int | None = None,
    done: Iterable[Unit] = (),
    on_unit: Callable[[Unit], None] | None = None,
) -> ArenaResult:
    """Play ``games`` hands between the ``lineup`` (one entry per seat) and return the
    statistics.

    ``games`` must be a multiple of ``players`` (each deal is played in every seat
    rotation), at most :data:`MAX_GAMES`. Entries are level names ("random", "L1", "L2",
    "L3") or picklable bot factories called as ``factory(seed=...)``, such as
    ``functools.partial(make_bot, "L3", iterations=100)``. ``jobs > 1`` runs the deals on
    that many worker processes; ``executor`` (any :class:`concurrent.futures.Executor`)
    runs them there instead. ``progress(done, total)`` is called as games complete: per
    game (at most every 50 ms) in this process and on the arena's own workers, per task
    on a given executor.

    Ctrl-C raises :class:`ArenaInterrupted` (a ``KeyboardInterrupt``) holding the deals
    completed so far; the arena's own workers stop within one decision.

    Streaming and resuming (:mod:`tienlen.games.tienlen.results`, :mod:`tienlen.arena.scale`): with
    ``unit_deals`` the deals are played in work units of that many deals, on multiples of
    it; ``on_unit`` is called in this process with each :class:`Unit` as it completes
    (and, on Ctrl-C, with the completed deals of the units in play); the units in ``done``
    (from an earlier, interrupted run) are not played again. None of this changes the
    results.

    Raises :class:`ArenaError` for a bad request, or if a bot makes an illegal move.
    """
    lineup = tuple(lineup)
    names, deals = _checked_request(lineup, games, players, jobs, seed, rules, unit_deals)
    return run_work(_Deals(lineup, players, seed, rules, names), deals, jobs=jobs,
                    executor=executor, progress=progress, on_unit=on_unit,
                    unit_deals=unit_deals, done=_finished(done, deals, players, len(lineup)))


def _checked_request(lineup: tuple[BotSpec, ...], games: object, players: object,
                     jobs: object, seed: object, rules: object,
                     unit_deals: object) -> tuple[tuple[str, ...], int]:
    """Raise :class:`ArenaError` for anything wrong in a :func:`run` request; otherwise
    the entries' names and the number of deals (each played in every seat rotation)."""
    players = check_players(players, ArenaError)
    if len(lineup) != players:
        raise ArenaError(f"the lineup needs one bot per seat: {players} entries, got {len(lineup)}")
    if type(games) is not int or games < players or games % players:
        raise ArenaError(
            f"games must be a positive multiple of players ({players}), so that every bot "
            f"sits in every seat equally; got {games!r}")
    if games > MAX_GAMES:
        raise ArenaError(
            f"games must be at most {MAX_GAMES:,} per run (the result keeps every game's "
            f"places in memory); got {games:,}: split a longer run over several seeds")
    if type(jobs) is not int or not 1 <= jobs <= MAX_JOBS:
        raise ArenaError(f"jobs must be a positive int, at most {MAX_JOBS}; got {jobs!r}")
    check_seed(seed, ArenaError)
    if not isinstance(rules, Rules):
        raise ArenaError(f"rules must be a Rules; got {rules!r}")
    names = entry_names(lineup)       # raises for an entry that is not a level or a factory
    if unit_deals is not None and (type(unit_deals) is not int or unit_deals < 1):
        raise ArenaError(f"unit_deals must be a positive int; got {unit_deals!r}")
    return names, games // players


def entry_names(lineup: Sequence[BotSpec]) -> tuple[str, ...]:
    """The names :func:`run` gives the lineup's entries (repeats get ``#2``, ``#3``).

    >>> entry_names(["L1", "random", "L1"])
    ('L1', 'random', 'L1 #2')
    """
    return _names([_build(_checked(spec), 0).name for spec in lineup])


def _checked(spec: BotSpec) -> BotSpec:
    if isinstance(spec, str) or callable(spec):
        return spec
    raise ArenaError(f"a lineup entry must be a level name or a bot factory; got {spec!r}")


