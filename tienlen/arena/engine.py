"""The arena engine, written once for every game (issues 25, 34): work units, the runners
that play them (this process, the arena's own process pool, any executor such as Dask's),
Ctrl-C and SIGTERM, progress, and the units of an earlier run (resume).

A run is a :class:`Work`: it plays the deals ``start..stop-1`` of the run (every game of
each deal: its seat rotations or its team seatings, :mod:`tienlen.arena.seatings`) and says
how to merge and sum up its units. :func:`run_work` runs any work; the runners own the
parallelism, progress, Ctrl-C and the units of an earlier run (``done=``, resume). The
works of both seatings, and the runs of every registered game, are
:mod:`tienlen.arena.runs`; their statistics :mod:`tienlen.arena.stats`.

"Seconds", in every game's results, are wall-clock seconds (``time.perf_counter``) a bot
spent choosing its actions: what a player waits for.

This module imports no game.

>>> played = []
>>> play_deals(3, 5, 2, None, lambda deal, k: played.append((deal, k)))
5
"""

from __future__ import annotations

import contextlib
import math
import multiprocessing
import os
import signal
import sys
import threading
import time
import importlib
import warnings
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import (FIRST_COMPLETED, Executor, Future, ProcessPoolExecutor,
                                as_completed, wait)
from dataclasses import dataclass
from typing import Any, Generic, Protocol, TypeVar

from tienlen.errors import TienlenError

__all__ = ["ArenaError", "ArenaInterrupted", "MAX_GAMES", "MAX_JOBS", "Pace", "Stopped",
           "Work", "play_deals", "run_work", "unique_names"]

#: Most games one run may play: the result keeps every game's places (a byte per entry).
MAX_GAMES = 10_000_000
#: Most worker processes one run may start.
MAX_JOBS = 256
# Seconds to wait, after Ctrl-C, for the workers to hand back their completed deals.
_STOP_WAIT = 3.0

class ArenaError(TienlenError):
    """A bad arena request (lineup, number of games, jobs), or a bot that broke the rules."""


class ArenaInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped a run. ``result`` holds the deals completed before it (every game of
    each: its rotations or both its seatings), or ``None`` if none was; ``games`` is how
    many were asked for.

    It is a ``KeyboardInterrupt``, so a caller that does not look for it still stops."""

    def __init__(self, result: Any, games: int) -> None:
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
    pool, any executor), which own the parallelism, progress and Ctrl-C: a run of seat
    rotations or of team seatings (:mod:`tienlen.arena.runs`), of any game.

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
        # A Ctrl-C between the two would give a result that counts a unit the file lacks
        # (seen: "154 hands played" over a file of 104): it waits for both.
        with _signals_held():
            parts.append(unit)
            if self.on_unit is not None and unit.stop > unit.start:
                self.on_unit(unit)


#: The signals that stop a run in this process: Ctrl-C, and SIGTERM where the command
#: line takes it as Ctrl-C (:func:`tienlen.cli.common.sigterm_as_ctrl_c`).
_STOP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM")
                      if hasattr(signal, name))


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """Run the block whole: a stop signal (Ctrl-C, SIGTERM) that arrives inside it is
    acted on (its handler raises) when the block ends. A second one inside the block is
    acted on at once: the person means it. Only signals whose handler is Python's own
    (the default Ctrl-C's KeyboardInterrupt, the command line's SIGTERM) are held, and
    only in the main thread, where handlers run."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    held: list[int] = []
    previous: dict[int, Callable[[int, Any], Any]] = {}

    def hold(signum: int, frame: Any) -> None:
        if held:
            held.clear()
            previous[signum](signum, frame)
            return
        held.append(signum)

    for signum in _STOP_SIGNALS:
        handler = signal.getsignal(signum)
        if callable(handler):
            previous[signum] = handler
            signal.signal(signum, hold)
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
    for signum in held:
        previous[signum](signum, None)


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


# --- names that moved (issue 34): still here, with a warning, until 0.4.0 ----------------

#: Where each name that left this module lives now (the statistics, the units, the works).
_MOVED_NAMES = {
    **dict.fromkeys(("ArenaResult", "BotStats", "Comparison", "Entry", "Interval",
                     "mean_interval", "paired_test"), "tienlen.arena.stats"),
    "Unit": "tienlen.arena.seatings",
    **dict.fromkeys(("RotationWork", "TableWork", "run_table", "table_work"),
                    "tienlen.arena.runs"),
}


def __getattr__(name: str) -> Any:
    home = _MOVED_NAMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    warnings.warn(f"tienlen.arena.engine.{name} is deprecated: use {home}.{name} (moved in "
                  "0.2.0)", DeprecationWarning, stacklevel=2)
    return getattr(importlib.import_module(home), name)
