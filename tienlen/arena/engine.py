"""The arena engine, written once for every game (issue 25): work units, the runners that
play them (this process, the arena's own process pool, any executor such as Dask's), Ctrl-C
and progress, resume, and the per-entry statistics of seat-rotation runs.

A game's arena is a :class:`Work`: it plays the deals ``start..stop-1`` of a run (its own
tuned per-hand loop, in the game's module) and says how to merge and sum up its units.
:func:`run_work` runs any work; the runners own the parallelism, progress, Ctrl-C and the
units of an earlier run (``done=``, resume). :class:`TableWork` is the generic work for any
registered game (:mod:`tienlen.table.registry`), played through the table protocol with
the duplicate seat rotations of :class:`ArenaResult`: a new game gets the arena, ``sim``,
results files and Dask without writing a loop (Tiến Lên and Guandan keep their own,
faster loops: :mod:`tienlen.games.tienlen.arena`, :mod:`tienlen.games.guandan.arena`).

"Seconds", in every game's results, are wall-clock seconds (``time.perf_counter``) a bot
spent choosing its actions: what a player waits for. (Before issue 25 Guandan counted CPU
time.)

This module imports no game.
"""

from __future__ import annotations

import math
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import (FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor,
                                as_completed, wait)
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar, Union

import numpy as np

from tienlen.errors import TienlenError

__all__ = ["ArenaError", "ArenaInterrupted", "ArenaResult", "BotStats", "Comparison", "Entry",
           "Interval", "MAX_GAMES", "MAX_JOBS", "Pace", "RotationWork", "Stopped", "TableWork",
           "Unit", "Work", "mean_interval", "paired_test", "play_deals", "run_table",
           "run_work", "unique_names"]

#: A lineup entry in a result: its index, or its name in :attr:`ArenaResult.names`.
Entry = Union[int, str]

_Z95 = 1.959963984540054  # two-sided 95% normal quantile

#: Most games one run may play: the result keeps every game's places (a byte per entry).
MAX_GAMES = 10_000_000
#: Most worker processes one run may start.
MAX_JOBS = 256
# Seconds to wait, after Ctrl-C, for the workers to hand back their completed deals.
_STOP_WAIT = 3.0

class ArenaError(TienlenError):
    """A bad arena request (lineup, number of games, jobs), or a bot that broke the rules."""


@dataclass(frozen=True, slots=True)
class Interval:
    """An estimate with its 95% confidence interval (``nan`` bounds with fewer than two
    deals)."""

    value: float
    low: float
    high: float

    def __str__(self) -> str:
        return f"{self.value:.3f} [{self.low:.3f}, {self.high:.3f}]"


@dataclass(frozen=True, slots=True)
class BotStats:
    """One lineup entry's results. Places count from 1 (first out) to ``players`` (last place)."""

    name: str
    games: int
    first_rate: Interval
    mean_place: Interval
    loser_rate: Interval
    ms_per_decision: float
    decisions: int


@dataclass(frozen=True, slots=True)
class Comparison:
    """Entry ``a`` against entry ``b``, paired by deal: ``diff`` is a's mean place minus
    b's (negative: a finishes higher), with its 95% interval, the normal-approximation z
    and the two-sided p-value of "no difference"."""

    a: str
    b: str
    deals: int
    diff: Interval
    z: float
    p_value: float

    def __str__(self) -> str:
        # Past z of about 38 the p-value underflows to 0.0; say so rather than print 0.
        p = f"= {self.p_value:.2g}" if self.p_value != 0.0 else "< 1e-300"
        return (f"{self.a} vs {self.b}: mean place difference {self.diff} over "
                f"{self.deals} deals, z = {self.z:.2f}, p {p}")


@dataclass(frozen=True, slots=True, eq=False)
class Unit:
    """A work unit's games: deals ``start..stop-1``, each in every seat rotation.

    The arrays are indexed ``[deal - start, rotation, entry]``: ``places`` (1 = first out),
    ``decisions`` (the entry's moves in that game) and ``seconds`` (the time it spent
    choosing them). A run is the union of its units, and since every game's seeds come
    from its indices alone, how a run is cut into units never changes its results.
    """

    start: int
    stop: int
    places: np.ndarray
    decisions: np.ndarray
    seconds: np.ndarray

    @property
    def games(self) -> int:
        return int(self.places.shape[0] * self.places.shape[1])


class ArenaResult:
    """The outcome of a seat-rotation run (:func:`tienlen.games.tienlen.arena.run`, :func:`run_table`).

    ``places[d, r, e]`` is the finishing place (1 = first out) of lineup entry ``e`` in
    rotation ``r`` of deal ``d``; in rotation ``r`` entry ``e`` sat in seat
    ``(e + r) % players``. ``names`` labels the entries (repeated levels get ``#2``, ``#3``).
    """

    def __init__(self, names: tuple[str, ...], players: int, seed: int, places: np.ndarray,
                 seconds: np.ndarray, decisions: np.ndarray) -> None:
        self.names = names
        self.players = players
        self.seed = seed
        self.places = places
        self.seconds = seconds
        self.decisions = decisions

    @classmethod
    def from_units(cls, names: tuple[str, ...], players: int, seed: int,
                   units: Iterable[Unit]) -> ArenaResult:
        """The result of the games in ``units``, which must cover deals ``0..D-1`` once
        each (in any order): the same result whichever units, and in whatever order, played
        them (timings aside)."""
        ordered = sorted(units, key=lambda u: u.start)
        expected = 0
        for unit in ordered:
            if unit.start != expected:
                raise ArenaError(f"the units do not cover the deals once each: deals "
                                 f"{min(expected, unit.start)}..{max(expected, unit.start) - 1} "
                                 f"are {'missing' if unit.start > expected else 'played twice'}")
            if unit.places.shape != (unit.stop - unit.start, players, len(names)):
                raise ArenaError(f"unit {unit.start}..{unit.stop - 1} has places of shape "
                                 f"{unit.places.shape}, not ({unit.stop - unit.start}, "
                                 f"{players}, {len(names)})")
            expected = unit.stop
        if not ordered:
            raise ArenaError("no units: a result needs at least one deal")
        return _result(names, players, seed, ordered)

    @property
    def deals(self) -> int:
        return int(self.places.shape[0])

    @property
    def games(self) -> int:
        """Hands played (deals times rotations)."""
        return int(self.places.shape[0] * self.places.shape[1])

    def index(self, entry: Entry) -> int:
        """The lineup index of ``entry``, given as an index or a name from :attr:`names`."""
        if isinstance(entry, str):
            if entry not in self.names:
                raise ArenaError(f"no entry named {entry!r} (entries: {', '.join(self.names)})")
            return self.names.index(entry)
        if type(entry) is not int or not 0 <= entry < len(self.names):
            raise ArenaError(f"entry must be a name or an index 0..{len(self.names) - 1}; got {entry!r}")
        return entry

    def _per_deal(self, entry: int, values: np.ndarray, low: float, high: float) -> Interval:
        # The normal interval can reach past what the quantity can be (a rate below 0).
        est = mean_interval(values[:, :, entry].mean(axis=1))
        return Interval(est.value, max(low, est.low), min(high, est.high)) if est.low == est.low else est

    def bot(self, entry: Entry) -> BotStats:
        """Statistics of one entry."""
        e = self.index(entry)
        decisions = int(self.decisions[e])
        return BotStats(
            name=self.names[e],
            games=self.games,
            first_rate=self._per_deal(e, (self.places == 1).astype(float), 0.0, 1.0),
            mean_place=self._per_deal(e, self.places.astype(float), 1.0, float(self.players)),
            loser_rate=self._per_deal(e, (self.places == self.players).astype(float), 0.0, 1.0),
            ms_per_decision=1000.0 * float(self.seconds[e]) / decisions if decisions else 0.0,
            decisions=decisions,
        )

    def stats(self) -> list[BotStats]:
        """Statistics of every entry, in lineup order."""
        return [self.bot(e) for e in range(len(self.names))]

    def compare(self, a: Entry | Sequence[Entry], b: Entry | Sequence[Entry]) -> Comparison:
        """Compare two entries' mean place, paired by deal (normal approximation).

        Either side may be several entries (say every copy of one level in the lineup):
        then its per-deal mean place is their average (see :mod:`tienlen.games.tienlen.arena`).
        """
        ia, ib = self._group(a), self._group(b)
        if set(ia) & set(ib):
            raise ArenaError("the two sides of a comparison share an entry")
        per_deal = self.places.astype(float).mean(axis=1)
        diff = per_deal[:, ia].mean(axis=1) - per_deal[:, ib].mean(axis=1)
        interval, z, p = paired_test(diff)
        return Comparison(" + ".join(self.names[i] for i in ia),
                          " + ".join(self.names[i] for i in ib), len(diff), interval, z, p)

    def _group(self, entries: Entry | Sequence[Entry]) -> list[int]:
        if isinstance(entries, (str, int)):
            return [self.index(entries)]
        group = [self.index(e) for e in entries]
        if not group:
            raise ArenaError("a side of a comparison needs at least one entry")
        return group

    def table(self) -> str:
        """The statistics as a Markdown table."""
        lines = [
            f"{self.games} games ({self.deals} deals x {self.places.shape[1]} rotations), "
            f"{self.players} players, seed {self.seed}",
            "",
            "| bot | games | first place | mean place | last place | ms/decision |",
            "|---|---:|---|---|---|---:|",
        ]
        for s in self.stats():
            lines.append(
                f"| {s.name} | {s.games} | {_pct(s.first_rate)} | {s.mean_place} | "
                f"{_pct(s.loser_rate)} | {s.ms_per_decision:.2f} |")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.table()

    def __repr__(self) -> str:
        return f"<ArenaResult {self.games} games: {', '.join(self.names)}>"


def _pct(interval: Interval) -> str:
    return f"{100 * interval.value:.1f}% [{100 * interval.low:.1f}, {100 * interval.high:.1f}]"


def mean_interval(values: np.ndarray) -> Interval:
    """The mean of independent observations with its 95% normal interval (``nan`` bounds
    with fewer than two).

    >>> print(mean_interval(np.array([1.0, 2.0, 3.0])))     # 2 +- 1.96 * 1 / sqrt(3)
    2.000 [0.868, 3.132]
    """
    n = len(values)
    mean = float(values.mean()) if n else math.nan
    if n < 2:
        return Interval(mean, math.nan, math.nan)
    half = _Z95 * float(values.std(ddof=1)) / math.sqrt(n)
    return Interval(mean, mean - half, mean + half)


def paired_test(diff: np.ndarray) -> tuple[Interval, float, float]:
    """The paired comparison behind :meth:`ArenaResult.compare`: ``diff`` holds one
    difference per independent unit (a deal); the result is its mean with the 95%
    interval, the z of "mean 0" (normal approximation) and the two-sided p-value. Fewer
    than two units give ``nan``; differences that never vary give z = +-inf and p = 0
    (or z = 0 and p = 1 when they are all 0).

    >>> interval, z, p = paired_test(np.array([1.0, 1.0, 0.0, 2.0]))
    >>> round(z, 3), round(p, 4)            # mean 1, sd sqrt(2/3), z = 1 / (sd / 2)
    (2.449, 0.0143)
    """
    interval = mean_interval(diff)
    n = len(diff)
    if n < 2:
        return interval, math.nan, math.nan
    sd = float(diff.std(ddof=1))
    if sd == 0.0:
        z = 0.0 if interval.value == 0 else math.copysign(math.inf, interval.value)
        return interval, z, 1.0 if interval.value == 0 else 0.0
    z = interval.value / (sd / math.sqrt(n))
    return interval, z, math.erfc(abs(z) / math.sqrt(2.0))



class ArenaInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped :func:`run`. ``result`` holds the deals completed before it (every
    rotation of each), or ``None`` if none was; ``games`` is how many were asked for.

    It is a ``KeyboardInterrupt``, so a caller that does not look for it still stops."""

    def __init__(self, result: ArenaResult | None, games: int) -> None:
        super().__init__()
        self.result = result
        self.games = games


class Stopped(Exception):
    """The parent asked the worker to stop (raised by :meth:`Pace.poll`, between two
    decisions)."""


# How often, in seconds, a game loop reports finished games and looks for a stop request.
_REPORT_EVERY = 0.05


class Pace:
    """Reports finished games and polls for a stop request, at most every
    ``_REPORT_EVERY`` seconds, so that fast bots do not pay for it per game.

    A :meth:`Work.play` loop calls ``if pace.due(now): pace.poll(now)`` after each
    decision, adds its finished games to ``pending``, and on :class:`Stopped` returns the
    games it completed, calling :meth:`flush` last."""

    __slots__ = ("report", "stopped", "pending", "last")

    def __init__(self, report: Callable[[int], None], stopped: Callable[[], bool]) -> None:
        self.report = report
        self.stopped = stopped
        self.pending = 0
        self.last = time.perf_counter()

    def due(self, now: float) -> bool:
        return now - self.last >= _REPORT_EVERY

    def poll(self, now: float) -> None:
        """Send what is pending; raise :class:`Stopped` if a stop was asked for."""
        self.last = now
        self.flush()
        if self.stopped():
            raise Stopped

    def flush(self) -> None:
        if self.pending:
            self.report(self.pending)
            self.pending = 0



# The worker side of a run on our own process pool: where to report finished games and the
# event that asks for a stop. Set in each worker by _init_worker; None anywhere else.
_CHANNEL: tuple[Any, Any] | None = None
#: Whether this worker is inside a task (``_play_chunk``), for its SIGTERM handler.
_BUSY = False


def _init_worker(games_queue: Any, stop_event: Any, parent: int) -> None:
    global _CHANNEL
    _CHANNEL = (games_queue, stop_event)
    # Ctrl-C goes to the whole process group; the parent decides, and tells workers to stop
    # through the event, so that each returns the deals it completed.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, _worker_sigterm)
    _die_with_parent(parent)


def _worker_sigterm(signum: int, frame: object) -> None:
    """SIGTERM in a worker: the parent takes SIGTERM as Ctrl-C (tienlen.cli), and a service
    manager may signal the whole process group. Inside a task it stops the task as Ctrl-C
    would (its future carries the KeyboardInterrupt; the pool's stop of a stuck worker
    relies on this). Between tasks, waiting on the pool's queue, it is ignored: raising
    there escaped the pool's worker loop and printed a traceback, and a worker that simply
    died broke the pool while the parent was cancelling its futures (Python 3.11's pool then
    fails on the cancelled futures, printing another). The parent's stop ends an idle worker
    cleanly, and a worker never outlives its parent (_die_with_parent)."""
    if _BUSY:
        raise KeyboardInterrupt


#: prctl(2) option: the signal the kernel sends this process when its parent dies.
_PR_SET_PDEATHSIG = 1
#: How often a worker checks that its parent is alive, where the kernel cannot tell it.
_PARENT_CHECK = 0.5


def _die_with_parent(parent: int) -> None:
    """End this worker when the run's process (``parent``) dies, however it dies: a
    SIGKILL runs no handler there, and the pool's queue would keep the worker waiting for
    ever. On Linux the kernel sends SIGKILL at the parent's death (PR_SET_PDEATHSIG, which
    also ends a worker stuck in a long native call); everywhere, a thread watches the
    parent id and exits the process when the worker is orphaned."""
    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass                       # the watch below still applies
    original = os.getppid()
    # (POSIX only: on Windows os.kill(pid, 0) would end that process, and the parent id
    # does not change when the parent dies, so there the watch below never fires.)
    if os.name == "posix" and original != parent and not _alive(parent):
        os._exit(1)                    # orphaned before the watch began

    def watch() -> None:
        while True:
            time.sleep(_PARENT_CHECK)
            if os.getppid() != original:
                os._exit(1)            # nothing to save: the results went with the parent

    threading.Thread(target=watch, name="tienlen-parent-watch", daemon=True).start()


def _alive(pid: int) -> bool:
    """Whether process ``pid`` exists (POSIX: signal 0 checks without sending)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True                    # exists, owned by someone else
    return True


class _Span(Protocol):
    """What the runners read of a work unit: the deals ``start..stop-1`` it holds."""

    @property
    def start(self) -> int: ...

    @property
    def stop(self) -> int: ...


U = TypeVar("U", bound=_Span)
R = TypeVar("R")


class Work(Generic[U, R]):
    """What a run plays, for the runners below (this process, the arena's own process
    pool, any executor), which own the parallelism, progress and Ctrl-C. The Tiến Lên
    arena is one kind of work; :mod:`tienlen.games.guandan.arena` is another.

    A work object is pickled to the workers: a subclass is a module-level class whose
    fields pickle."""

    @property
    def per_deal(self) -> int:
        """The games one deal counts for in progress reports."""
        return 1

    def play(self, start: int, stop: int, pace: Pace | None) -> U:
        """Deals ``start..stop-1``: a pure function of the work and the indices, so that
        how a run is cut into units never changes its results. With ``pace``, report
        finished games and stop early on request, keeping the completed deals."""
        raise NotImplementedError

    def merge(self, parts: list[U]) -> U:
        """Consecutive units as one."""
        raise NotImplementedError

    def result(self, parts: list[U]) -> R | None:
        """The run's result from units in any order (``None`` if they hold no deal)."""
        raise NotImplementedError

    def interrupted(self, result: R | None, games: int) -> KeyboardInterrupt:
        """The exception Ctrl-C raises, holding the completed deals' result."""
        raise NotImplementedError



def play_deals(start: int, stop: int, per_deal: int, pace: Pace | None,
               play_game: Callable[[int, int], None]) -> int:
    """The deal loop of every :meth:`Work.play`: ``play_game(deal, k)`` for the ``per_deal``
    games of each deal ``start..stop-1`` (its seat rotations, its seatings), each finished
    game added to ``pace``'s pending count. Returns where the completed deals end: ``stop``,
    or earlier when a stop request (:class:`Stopped`, raised by ``pace.poll`` inside a game)
    cut a deal short, which is then dropped whole. ``pace`` is flushed last.

    >>> played = []
    >>> play_deals(3, 5, 2, None, lambda deal, k: played.append((deal, k)))
    5
    >>> played
    [(3, 0), (3, 1), (4, 0), (4, 1)]
    """
    done = start
    try:
        for deal in range(start, stop):
            for k in range(per_deal):
                play_game(deal, k)
                if pace is not None:
                    pace.pending += 1
            done = deal + 1
    except Stopped:
        pass
    finally:
        if pace is not None:
            pace.flush()
    return done


class RotationWork(Work[Unit, ArenaResult]):
    """A seat-rotation run whose units are :class:`Unit` and whose result is an
    :class:`ArenaResult`: every deal played once per rotation (``players`` games), the
    entries named ``names``. A subclass (a frozen dataclass with the fields ``names``,
    ``players`` and ``seed``) writes :meth:`play`."""

    names: tuple[str, ...]
    players: int
    seed: int

    @property
    def per_deal(self) -> int:
        return self.players

    def merge(self, parts: list[Unit]) -> Unit:
        return _merge(parts)

    def result(self, parts: list[Unit]) -> ArenaResult | None:
        return _assemble(self.names, self.players, self.seed, parts, len(self.names))

    def interrupted(self, result: ArenaResult | None, games: int) -> KeyboardInterrupt:
        return ArenaInterrupted(result, games)


def _play_chunk(work: Work[U, R], start: int, stop: int) -> U:
    """One task of a parallel run: ``work.play``, reporting through the worker's channel
    when it runs on the arena's own pool. A pure function of its arguments, so any
    executor may run it anywhere."""
    global _BUSY
    if _CHANNEL is None:
        return work.play(start, stop, None)
    games_queue, stop_event = _CHANNEL
    _BUSY = True
    try:
        return work.play(start, stop, Pace(games_queue.put, stop_event.is_set))
    finally:
        _BUSY = False


def _assemble(names: tuple[str, ...], players: int, seed: int, parts: Iterable[Unit],
              n: int) -> ArenaResult | None:
    """One result from parts in any order (deals sorted by index); ``None`` if empty."""
    parts = sorted((p for p in parts if len(p.places)), key=lambda p: p.start)
    if not parts:
        return None
    return _result(names, players, seed, parts)


def _result(names: tuple[str, ...], players: int, seed: int, parts: list[Unit]) -> ArenaResult:
    places = np.concatenate([p.places for p in parts])
    # Integer sums do not depend on the order; the timings' float sums may, by an ulp.
    decisions = np.sum([p.decisions.sum(axis=(0, 1), dtype=np.int64) for p in parts], axis=0)
    seconds = np.sum([p.seconds.sum(axis=(0, 1)) for p in parts], axis=0)
    return ArenaResult(names, players, seed, places, seconds, decisions)


def _merge(parts: list[Unit]) -> Unit:
    """Consecutive units as one."""
    if len(parts) == 1:
        return parts[0]
    return Unit(parts[0].start, parts[-1].stop, np.concatenate([p.places for p in parts]),
                np.concatenate([p.decisions for p in parts]),
                np.concatenate([p.seconds for p in parts]))


def run_work(work: Work[U, R], deals: int, *, jobs: int = 1, executor: Executor | None = None,
             progress: Callable[[int, int], None] | None = None,
             on_unit: Callable[[U], None] | None = None, unit_deals: int | None = None,
             done: Iterable[U] = ()) -> R:
    """Play deals ``0..deals-1`` of ``work``: here (``jobs=1``), on the arena's own pool of
    ``jobs`` processes, or on ``executor``. ``progress(done, total)`` is called as games
    complete; ``on_unit`` with each completed unit, in this process. With ``unit_deals``
    the deals are played in units of that many deals on multiples of it, and the units in
    ``done`` (an earlier run's, read back from its results file) are not played again; none
    of this changes the results. Ctrl-C raises ``work.interrupted(...)`` with the completed
    deals' result. The caller checks ``jobs`` and ``deals``; ``done`` is checked here for
    its spans (inside the run, not overlapping), the game checks their contents."""
    if unit_deals is not None and (type(unit_deals) is not int or unit_deals < 1):
        raise ArenaError(f"unit_deals must be a positive int; got {unit_deals!r}")
    plan = _Plan(_spans(done, deals), unit_deals, on_unit)
    if plan.played(1) == deals and deals:
        # An earlier run already played every deal: nothing to start.
        games = deals * work.per_deal
        if progress:
            progress(games, games)
        result = work.result(list(plan.finished))
        assert result is not None
        return result
    return _dispatch(work, deals, jobs, executor, progress, plan)


def _spans(done: Iterable[U], deals: int) -> list[U]:
    units = sorted(done, key=lambda u: u.start)
    last = 0
    for unit in units:
        if not (0 <= unit.start < unit.stop <= deals):
            raise ArenaError(f"a finished unit has deals {unit.start}..{unit.stop - 1}, "
                             f"outside this run's deals 0..{deals - 1}")
        if unit.start < last:
            raise ArenaError(f"finished units overlap at deal {unit.start}")
        last = unit.stop
    return units


def _dispatch(work: Work[U, R], deals: int, jobs: int, executor: Executor | None,
              progress: Callable[[int, int], None] | None, plan: _Plan[U]) -> R:
    games = deals * work.per_deal
    if executor is None and jobs == 1:
        return _run_here(work, deals, games, progress, plan)
    if executor is None:
        return _run_on_own_pool(work, deals, games, jobs, progress, plan)
    return _run_on_executor(work, deals, games, executor, progress, plan)


@dataclass(frozen=True, slots=True)
class _Plan(Generic[U]):
    """What a runner plays and where its units go: the units of an earlier run, the unit
    size (``None``: the runner's own chunks) and the caller's ``on_unit``."""

    finished: list[U]
    unit_deals: int | None
    on_unit: Callable[[U], None] | None

    def ranges(self, deals: int, parts: int) -> list[tuple[int, int]]:
        size = self.unit_deals
        if size is None:
            size = max(stop - start for start, stop in _chunks(deals, parts))
        return _todo(deals, self.finished, size)

    def played(self, per_deal: int) -> int:
        return sum(u.stop - u.start for u in self.finished) * per_deal

    def land(self, parts: list[U], unit: U) -> None:
        parts.append(unit)
        if self.on_unit is not None and unit.stop > unit.start:
            self.on_unit(unit)


def _run_here(work: Work[U, R], deals: int, games: int,
              progress: Callable[[int, int], None] | None, plan: _Plan[U]) -> R:
    done = plan.played(work.per_deal)

    def report(count: int) -> None:
        nonlocal done
        done += count
        if progress:
            progress(done, games)

    pace = Pace(report, lambda: False)
    parts: list[U] = list(plan.finished)
    # Ranges of one deal: a Ctrl-C (raised inside a bot) loses at most the deal in play.
    in_play: list[U] = []
    try:
        for start, stop in plan.ranges(deals, 1):
            in_play = []
            for d in range(start, stop):
                in_play.append(work.play(d, d + 1, pace))
            unit, in_play = work.merge(in_play), []
            plan.land(parts, unit)
    except KeyboardInterrupt:
        if in_play:
            plan.land(parts, work.merge(in_play))
        raise work.interrupted(work.result(parts), games) from None
    result = work.result(parts)
    assert result is not None
    return result


def _run_on_own_pool(work: Work[U, R], deals: int, games: int, jobs: int,
                     progress: Callable[[int, int], None] | None, plan: _Plan[U]) -> R:
    """Worker processes that report every finished game and stop on request.

    Chunks set only the load balancing and what a Ctrl-C can lose (nothing: a stopped
    chunk returns its completed deals); every game's seeds come from its indices, so the
    results do not depend on them."""
    ranges = plan.ranges(deals, jobs * 8)
    context = multiprocessing.get_context()
    games_queue = context.SimpleQueue()
    stop_event = context.Event()
    pool = ProcessPoolExecutor(max_workers=min(jobs, len(ranges)), mp_context=context,
                               initializer=_init_worker,
                               initargs=(games_queue, stop_event, os.getpid()))
    futures: set[Future[U]] = set()
    landed: set[Future[U]] = set()
    parts: list[U] = list(plan.finished)
    done = plan.played(work.per_deal)

    def drain() -> None:
        nonlocal done
        before = done
        while not games_queue.empty():
            done += games_queue.get()
        if progress and done != before:
            progress(min(done, games), games)

    try:
        # Submitting inside the try: a Ctrl-C while tasks are queued still stops the pool.
        for start, stop in ranges:
            futures.add(pool.submit(_play_chunk, work, start, stop))
        pending = set(futures)
        while pending:
            finished, pending = wait(pending, timeout=_REPORT_EVERY, return_when=FIRST_COMPLETED)
            for future in finished:
                landed.add(future)    # first: a Ctrl-C inside on_unit must not land it twice
                plan.land(parts, future.result())
            drain()
    except KeyboardInterrupt:
        stop_event.set()
        for future in futures:
            future.cancel()
        # Each running chunk returns within one decision; wait that long, not for the run.
        running = [f for f in futures if not f.cancelled()]
        finished, stuck = wait(running, timeout=_STOP_WAIT)
        for future in finished:
            # (not those already taken: they would count twice)
            if future.exception() is None and future not in landed:
                plan.land(parts, future.result())
        if stuck:
            _terminate_workers(pool)
        pool.shutdown(wait=not stuck, cancel_futures=True)
        raise work.interrupted(work.result(parts), games) from None
    except BaseException:
        stop_event.set()
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    pool.shutdown(wait=True)
    if progress:
        progress(games, games)
    result = work.result(parts)
    assert result is not None
    return result


def _terminate_workers(pool: ProcessPoolExecutor) -> None:
    # A worker still busy after the stop request is inside one long native call (a huge
    # iterations= budget); it has nothing to return that the run could use.
    for process in list(getattr(pool, "_processes", {}).values()):
        process.terminate()


def _run_on_executor(work: Work[U, R], deals: int, games: int, executor: Executor,
                     progress: Callable[[int, int], None] | None, plan: _Plan[U]) -> R:
    """Any executor (threads, another process pool, a cluster's): tasks are independent
    and results are gathered in completion order; progress comes per task, so there are
    more, smaller tasks."""
    ranges = plan.ranges(deals, 64)
    futures = {executor.submit(_play_chunk, work, start, stop): stop - start
               for start, stop in ranges}
    parts: list[U] = list(plan.finished)
    landed: set[Future[U]] = set()
    done = plan.played(work.per_deal)
    try:
        for future in as_completed(futures):
            landed.add(future)    # first: a Ctrl-C inside on_unit must not land it twice
            plan.land(parts, future.result())
            done += futures[future] * work.per_deal
            if progress:
                progress(done, games)
    except KeyboardInterrupt:
        for future in futures:
            future.cancel()
        # Units that finished while this one was handed over are kept too.
        for future in futures:
            if (future not in landed and future.done() and not future.cancelled()
                    and future.exception() is None):
                plan.land(parts, future.result())
        raise work.interrupted(work.result(parts), games) from None
    except BaseException:
        for future in futures:
            future.cancel()
        raise
    result = work.result(parts)
    assert result is not None
    return result



def unique_names(raw: Iterable[str]) -> tuple[str, ...]:
    """Names with repeats told apart (``#2``, ``#3``).

    >>> unique_names(["L1", "random", "L1"])
    ('L1', 'random', 'L1 #2')
    """
    names: list[str] = []
    for name in raw:
        label, k = name, 1
        while label in names:
            k += 1
            label = f"{name} #{k}"
        names.append(label)
    return tuple(names)


def _finished(done: Iterable[Unit], deals: int, players: int, n: int) -> list[Unit]:
    """The units of an earlier run, checked: inside this run's deals, of the right shape,
    and not overlapping."""
    units = sorted(done, key=lambda u: u.start)
    last = 0
    for unit in units:
        if not isinstance(unit, Unit):
            raise ArenaError(f"done must hold Units; got {unit!r}")
        if not (0 <= unit.start < unit.stop <= deals):
            raise ArenaError(f"a finished unit has deals {unit.start}..{unit.stop - 1}, "
                             f"outside this run's deals 0..{deals - 1}")
        if unit.start < last:
            raise ArenaError(f"finished units overlap at deal {unit.start}")
        if unit.places.shape != (unit.stop - unit.start, players, n):
            raise ArenaError(f"a finished unit has places of shape {unit.places.shape}, "
                             f"not {(unit.stop - unit.start, players, n)}")
        last = unit.stop
    return units


def _todo(deals: int, finished: Sequence[_Span], unit_deals: int) -> list[tuple[int, int]]:
    """The deals not in ``finished``, cut into units of at most ``unit_deals`` deals on
    multiples of ``unit_deals`` (so that a resumed run keeps the boundaries it had)."""
    todo: list[tuple[int, int]] = []
    gaps, last = [], 0
    for unit in finished:
        if unit.start > last:
            gaps.append((last, unit.start))
        last = unit.stop
    if last < deals:
        gaps.append((last, deals))
    for lo, hi in gaps:
        while lo < hi:
            stop = min(hi, (lo // unit_deals + 1) * unit_deals)
            todo.append((lo, stop))
            lo = stop
    return todo


def _chunks(deals: int, parts: int) -> list[tuple[int, int]]:
    parts = max(1, min(parts, deals))
    bounds = [deals * i // parts for i in range(parts + 1)]
    return [(bounds[i], bounds[i + 1]) for i in range(parts)]


_names = unique_names


# --- any registered game, through the table protocol -----------------------------------


@dataclass(frozen=True, slots=True)
class TableWork(RotationWork):
    """A seat-rotation run of any registered game (:func:`tienlen.table.get_spec`), played
    through the table protocol: every deal (a match with the spec's default options, from
    ``new_match(deal_seed)``; its places are the last ``outcome()``'s) in
    every rotation; in rotation ``r`` entry ``e`` sits in seat ``(e + r) % players``.
    ``lineup`` holds the spec's bot levels. Places come from ``outcome()["places"]``."""

    game: str
    lineup: tuple[str, ...]
    players: int
    seed: int
    names: tuple[str, ...]

    def play(self, start: int, stop: int, pace: Pace | None) -> Unit:
        from tienlen.seeds import mix
        from tienlen.table.registry import get_spec

        spec = get_spec(self.game)
        n, players = len(self.lineup), self.players
        places = np.zeros((stop - start, players, n), np.int8)
        seconds = np.zeros((stop - start, players, n))
        decisions = np.zeros((stop - start, players, n), np.int32)
        clock = time.perf_counter

        def play_game(d: int, r: int) -> None:
            entry_at = {(e + r) % players: e for e in range(n)}
            bots = [spec.make_bot(self.lineup[entry_at[s]], mix(self.seed, d, r, entry_at[s]))
                    for s in range(players)]
            state = spec.new_match(mix(self.seed, 0xDEA1, d), players=players)
            while not state.is_over:
                seat = state.turn
                if seat is None:
                    state.next_hand()
                    continue
                e = entry_at[seat]
                t0 = clock()
                try:
                    action = bots[seat].act(state.bot_view(seat))
                except Exception as error:
                    raise ArenaError(f"{bots[seat].name} (seat {seat}, deal {d}, rotation "
                                     f"{r}) raised {type(error).__name__}: {error}") from error
                t1 = clock()
                seconds[d - start, r, e] += t1 - t0
                decisions[d - start, r, e] += 1
                try:
                    state.apply(action, seat)
                except ValueError as error:
                    raise ArenaError(f"{bots[seat].name} (seat {seat}, deal {d}, rotation "
                                     f"{r}) made an illegal move {action!r}: {error}") from error
                if pace is not None and pace.due(t1):
                    pace.poll(t1)
            outcome = state.outcome()
            assert outcome is not None
            for seat, place in enumerate(outcome["places"]):
                places[d - start, r, entry_at[seat]] = place

        k = play_deals(start, stop, players, pace, play_game) - start
        return Unit(start, start + k, places[:k], decisions[:k], seconds[:k])


def table_work(game: str, lineup: Sequence[str], games: int, *, players: int | None = None,
               seed: int = 0) -> tuple[TableWork, int]:
    """The checked :class:`TableWork` of a request, and its number of deals."""
    from tienlen.seeds import check_seed
    from tienlen.table.registry import get_spec

    spec = get_spec(game)
    lineup = tuple(lineup)
    players = len(lineup) if players is None else players
    if players not in spec.player_counts:
        raise ArenaError(f"{game} is played by {', '.join(map(str, spec.player_counts))}; "
                         f"got players={players!r:.20}")
    if len(lineup) != players:
        raise ArenaError(f"the lineup needs one bot per seat: {players} entries, got {len(lineup)}")
    if type(games) is not int or games < players or games % players or games > MAX_GAMES:
        raise ArenaError(f"games must be a positive multiple of players ({players}), at most "
                         f"{MAX_GAMES:,}; got {games!r:.20}")
    check_seed(seed, ArenaError)
    names = []
    for level in lineup:
        try:
            names.append(spec.make_bot(level, 0).name)
        except ValueError as error:
            raise ArenaError(str(error)) from None
    return TableWork(game, lineup, players, seed, unique_names(names)), games // players


def run_table(game: str, lineup: Sequence[str], games: int, *, players: int | None = None,
              seed: int = 0, jobs: int = 1, executor: Executor | None = None,
              progress: Callable[[int, int], None] | None = None,
              unit_deals: int | None = None, done: Iterable[Unit] = (),
              on_unit: Callable[[Unit], None] | None = None) -> ArenaResult:
    """Play ``games`` one-hand matches of the registered ``game`` between the ``lineup``
    (one of the spec's bot levels per seat), each deal in every seat rotation; the other
    arguments as for :func:`run_work`. Raises :class:`ArenaError` for a bad request."""
    if type(jobs) is not int or not 1 <= jobs <= MAX_JOBS:
        raise ArenaError(f"jobs must be a positive int, at most {MAX_JOBS}; got {jobs!r:.20}")
    work, deals = table_work(game, lineup, games, players=players, seed=seed)
    return run_work(work, deals, jobs=jobs, executor=executor, progress=progress,
                    on_unit=on_unit, unit_deals=unit_deals,
                    done=_finished(done, deals, work.players, len(work.lineup)))
