"""The arena past one process: Dask executors, work-unit sizes, and ``tienlen sim``'s
``--scheduler``/``--out``/``--resume``/``--unit-games`` for every game (:func:`options_for`).

:func:`tienlen.arena.simulate` plays work units on any :class:`concurrent.futures.Executor`;
this module makes one that runs on a Dask cluster (``pip install "tienlen[dask]"``):

- ``tcp://HOST:PORT`` (or ``HOST:PORT``): a running cluster, started with ``dask
  scheduler`` and ``dask worker`` (see docs/scale.md);
- ``local:N``: a ``LocalCluster`` of N single-threaded worker processes for one run, bound
  to the loopback address with no dashboard, so nothing listens beyond this machine.

Only the lineup's specs (level names, factories) travel to the workers, which build the
bots themselves; units come back as arrays. Results do not depend on where units run. This
module imports no game: a game is the run's (:mod:`tienlen.arena.runs`).

>>> parse_scheduler("local:2"), parse_scheduler("10.0.0.5:8786")
(('local', 2), ('address', 'tcp://10.0.0.5:8786'))
>>> unit_deals(["L1"] * 4, deals=25_000, workers=2)     # thousands of fast games a unit
512
>>> unit_deals(["L1"] * 4, deals=100, workers=2)        # small runs still use every worker
13
"""

from __future__ import annotations

import contextlib
import logging
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Executor, Future
from pathlib import Path
import warnings
from typing import TYPE_CHECKING, Any, Protocol

# The engine's error, not a game's module: a run on Dask loads no game but its own.
from tienlen.arena.engine import ArenaError

if TYPE_CHECKING:
    from tienlen.arena.runs import Run

__all__ = ["ScaleError", "parse_scheduler", "dask_executor", "unit_deals", "options_for",
           "run_options", "sim_options", "GamesStore", "UNIT_GAMES"]

#: Games of the fastest bots (random, L1) per work unit: about a second of work, so Dask's
#: few milliseconds per task cost under 1%, while an interrupted run loses little.
UNIT_GAMES = 2048
# Rough cost of a game, relative to L1, by the slowest level at the table (the levels both
# games name alike); a factory or another level is assumed slow (usually a configured L3).
_COST = {"random": 1.0, "L1": 1.0, "L2": 1.5, "L3": 150.0}
_SLOW = 150.0
# Units per worker at least, so that a short run still spreads and balances.
_UNITS_PER_WORKER = 4
# The largest count unit_deals takes (far past any run; floats stay exact below it).
_MAX_COUNT = 1 << 40


class ScaleError(ArenaError):
    """A scheduler that is malformed, missing its extra, or cannot be reached."""


def parse_scheduler(text: str) -> tuple[str, Any]:
    """``("local", workers)`` for ``local:N``, else ``("address", "proto://host:port")``."""
    if not isinstance(text, str):
        raise ScaleError(f"--scheduler: expected tcp://HOST:PORT or local:N; got {text!r:.80}")
    local = re.fullmatch(r"local:(\d+)", text.strip())
    if text.strip().startswith("local") and not local:
        raise ScaleError(f"--scheduler: expected local:N, N worker processes; got {text!r}")
    if local:
        workers = int(local[1])
        if not 1 <= workers <= 256:
            raise ScaleError(f"--scheduler local:N needs 1 to 256 workers; got {workers}")
        return "local", workers
    address = text.strip()
    if "://" not in address:
        address = "tcp://" + address
    if not re.fullmatch(r"(tcp|tls|ws|wss)://([^\s/:\[\]]+|\[[0-9a-fA-F:.]+\])(:\d+)?/?", address):
        raise ScaleError(f"--scheduler: expected tcp://HOST:PORT or local:N; got {text!r}")
    return "address", address


def unit_deals(lineup: Sequence[Any], *, deals: int, workers: int,
               unit_games: int = UNIT_GAMES) -> int:
    """Deals per work unit: about ``unit_games`` games of the fastest bots (fewer as the
    lineup gets slower), but at least a few units per worker. Any size gives the same
    results; it trades per-task overhead against load balance and what an interruption
    loses."""
    for name, value in (("deals", deals), ("workers", workers), ("unit_games", unit_games)):
        if type(value) is not int or not 1 <= value <= _MAX_COUNT:
            raise ArenaError(f"{name} must be an int in 1..2**40; got {value!r:.80}")
    players = len(lineup)
    if players == 0:
        raise ArenaError("the lineup is empty")
    cost = max(_COST.get(spec, _SLOW) if isinstance(spec, str) else _SLOW for spec in lineup)
    by_cost = max(1, int(unit_games / cost) // players)
    spread = max(1, -(-deals // (_UNITS_PER_WORKER * workers)))   # ceil, exact for any int
    return min(by_cost, spread)


def _distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise ScaleError('--scheduler needs Dask: pip install "tienlen[dask]"') from None
    return distributed


def _fingerprint() -> str:
    """This process's engine: the version and seat 0's cards of one deal of every
    registered game (runs on workers too: a worker with another build of a core would play
    other games). The games are loaded here, when a cluster is checked, not when this
    module is."""
    from tienlen import __version__
    from tienlen.seeds import mix
    from tienlen.table import get_spec, spec_names

    hands = [get_spec(name).new_match(mix(0, 1)).view(0)["hand"] for name in spec_names()]
    return f"{__version__} {hands}"


#: The Dask settings of a ``local:N`` cluster (workers started by ``dask worker`` take the
#: same as DASK_DISTRIBUTED__... environment variables: docs/scale.md).
_LOCAL_CLUSTER_CONFIG: dict[str, object] = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "5s",
    "distributed.worker.memory.monitor-interval": "1s",
    # A worker removed from the scheduler has its nanny closed for good when no worker of
    # its name has registered lost-worker-timeout (15 s) later. That is meant for job
    # queues; here the nanny restarts a killed worker at once, and a second death of the
    # restarted worker that falls just at the first one's deadline (its replacement not yet
    # registered) closed the nanny and left the cluster a worker short for the rest of the
    # run. Local workers are the nanny's to restart, so that hard close never comes.
    "distributed.deploy.lost-worker-timeout": "1000d",
}


@contextlib.contextmanager
def dask_executor(scheduler: str, *, timeout: float = 3.0) -> Iterator[tuple[Executor, int]]:
    """An executor on the Dask cluster ``scheduler`` and its number of worker threads
    (``local:N`` starts and afterwards stops a loopback ``LocalCluster``). Raises
    :class:`ScaleError` within about ``timeout`` seconds if the scheduler cannot be
    reached."""
    kind, value = parse_scheduler(scheduler)
    distributed = _distributed()
    with contextlib.ExitStack() as stack:
        # Closing while units are in flight (Ctrl-C, a bot error) makes Dask's and
        # tornado's loggers print tracebacks of the connections it closes: noise, since
        # the run has already stopped with its own message. Quiet them while closing.
        loggers = [logging.getLogger(name) for name in ("distributed", "tornado.application")]
        levels = [logger.level for logger in loggers]
        stack.callback(_set_levels, loggers, levels)
        if kind == "local":
            # Dask's workers sample their task thread's stack every 10 ms for the
            # dashboard's profile; for pure-Python games that costs ~10% CPU, and this
            # cluster has no dashboard. (Workers started by `dask worker` take
            # DASK_DISTRIBUTED__WORKER__PROFILE__ENABLED=False: see docs/scale.md.)
            # Its other clocks (the event-loop tick every 20 ms, the system monitor every
            # 0.5 s, the memory monitor every 0.1 s) cost an idle 2-worker cluster 1.5
            # CPU-seconds per 20 s; at 1 s / 5 s / 1 s, 0.3 (bench/scale_compare.py's
            # numbers in docs/scale.md). Nothing here needs them finer.
            import dask

            stack.enter_context(dask.config.set(_LOCAL_CLUSTER_CONFIG))
            try:
                cluster = stack.enter_context(distributed.LocalCluster(
                    n_workers=value, threads_per_worker=1, processes=True, host="127.0.0.1",
                    dashboard_address=None, worker_dashboard_address=None,
                    scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
                    silence_logs=logging.ERROR))
            except Exception as error:   # Dask's own errors: ports, spawning, memory
                raise ScaleError(f"could not start a local Dask cluster of {value} workers: "
                                 f"{_first_line(error)}") from None
            address = cluster.scheduler_address
        else:
            address = value
        try:
            client = stack.enter_context(distributed.Client(
                address, timeout=f"{timeout}s", set_as_default=False))
        except (OSError, TimeoutError) as error:
            raise ScaleError(f"cannot reach the Dask scheduler at {address}: "
                             f"{_first_line(error)}") from None
        if not client.nthreads():
            print(f"the Dask scheduler at {address} has no workers yet: waiting for them "
                  "(start some with dask worker)", file=sys.stderr)
        mine = _fingerprint()
        for worker, theirs in client.run(_fingerprint).items():
            if theirs != mine:
                raise ScaleError(f"worker {worker} runs tienlen {theirs.split()[0]}, this "
                                 f"machine {mine.split()[0]} (or the same version dealing other "
                                 "cards): install the same build everywhere, or the games "
                                 "would differ")
        workers = sum(client.nthreads().values()) or 1
        stack.callback(_set_levels, loggers, [logging.CRITICAL + 1] * len(loggers))
        yield ClientExecutor(client), workers


class ClientExecutor(Executor):
    """A :class:`concurrent.futures.Executor` over a Dask ``client``.

    Dask's own ``client.get_executor()`` reads a task's status after fetching its result;
    when a worker dies in between (its data lost, the task queued again) that status is no
    longer "finished" and the executor fails the future with a ``TypeError``. Here the
    result is fetched with ``future.result()``, which waits for Dask to recompute lost work,
    so a killed worker costs only time."""

    def __init__(self, client: Any) -> None:
        self._client = client

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        task = self._client.submit(fn, *args, pure=False, **kwargs)
        mirror: Future[Any] = Future()

        def transfer(done: Any) -> None:
            # Runs in Dask's callback thread; result() blocks there, not in the caller.
            if not mirror.set_running_or_notify_cancel():
                return
            try:
                mirror.set_result(done.result())
            except BaseException as error:   # the task's own error, or its cancellation
                mirror.set_exception(error)

        def cancel(mirrored: Future[Any]) -> None:
            if mirrored.cancelled():
                task.cancel()

        mirror.add_done_callback(cancel)
        task.add_done_callback(transfer)
        return mirror

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        # The client belongs to dask_executor's context, which closes it.
        pass


def _set_levels(loggers: Sequence[logging.Logger], levels: Sequence[int]) -> None:
    for logger, level in zip(loggers, levels):
        logger.setLevel(level)


def _first_line(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return text[0] if text else type(error).__name__


class GamesStore(Protocol):
    """A results file of any game as :func:`run_options` writes it: the units already on
    file (an earlier run's), the games they hold, and what to do with each new unit."""

    @property
    def units(self) -> Sequence[Any]: ...

    @property
    def played(self) -> int: ...

    def write(self, unit: Any) -> None: ...

    def discard(self) -> None: ...


@contextlib.contextmanager
def run_options(*, games: int, jobs: int, scheduler: str | None, out: Path | str | None,
                resume: bool, unit_size: Callable[[int], int],
                open_store: Callable[[], contextlib.AbstractContextManager[GamesStore]]
                | None = None,
                check: Callable[[], None] | None = None,
                error: Callable[[str], ValueError] = ScaleError,
                noun: str = "games") -> Iterator[dict[str, Any]]:
    """The extra arguments of an arena run of any game (:func:`tienlen.arena.engine.run_work`)
    for ``tienlen sim --scheduler/--out/--resume/--unit-games``: an executor, the unit size,
    the units already on file and the writer of new ones. Checks the flags (then ``check()``,
    the game's own checks) and opens the file (``open_store()``, for ``out``: a context
    manager that gives the store and closes it) before it
    starts a cluster; a cluster that does not start removes the file it created. The unit
    size is ``unit_size(workers)``. On Ctrl-C, and whenever the file is left short, says
    how much is on file and how to resume (counting ``noun``: games, hands, matches).
    Refusals are ``error(message)``."""
    if resume and out is None:
        raise error("--resume continues the run in --out FILE: give --out")
    if scheduler is not None and jobs != 1:
        raise error("--jobs and --scheduler exclude each other: the cluster's workers "
                    "play the games")
    if check is not None:
        check()
    if scheduler is not None:
        parse_scheduler(scheduler)
        _distributed()
    options: dict[str, Any] = {}
    with contextlib.ExitStack() as stack:
        store = None
        if out is not None:
            assert open_store is not None
            store = stack.enter_context(open_store())
            options["done"] = list(store.units)
            options["on_unit"] = store.write
            if store.units:
                print(f"resuming {out}: {store.played} of {games} {noun} on file",
                      file=sys.stderr)
        workers = jobs
        if scheduler is not None:
            try:
                executor, workers = stack.enter_context(dask_executor(scheduler))
            except BaseException:
                if store is not None:
                    store.discard()    # the file this run created, still empty
                raise
            options["executor"] = executor
        options["unit_deals"] = unit_size(max(workers, 1))

        def hint() -> None:
            if store is not None and store.played < games:
                print(f"\n{store.played} of {games} {noun} are in {out}: run the same "
                      "command with --resume to finish", file=sys.stderr)

        try:
            yield options
        except KeyboardInterrupt:
            hint()
            raise
        # A caller that shows a partial result on Ctrl-C and returns normally: same hint.
        hint()


@contextlib.contextmanager
def options_for(run: Run, *, jobs: int, scheduler: str | None, out: Path | str | None,
                resume: bool, unit_games: int | None) -> Iterator[dict[str, Any]]:
    """The extra arguments of :meth:`tienlen.arena.runs.Run.play` for ``tienlen sim
    --scheduler/--out/--resume/--unit-games`` of any game (:func:`run_options`): its results
    file a :class:`tienlen.arena.files.GamesFile` of the run's header, its units of
    ``unit_games`` games (whole deals) or sized by :func:`unit_deals`."""
    from tienlen.arena.files import GamesFile

    def check() -> None:
        run.check_unit_games(unit_games, ScaleError)

    def open_store() -> GamesFile:
        assert out is not None
        return GamesFile.open(out, run.header, games=run.games, resume=resume)

    def unit_size(workers: int) -> int:
        if unit_games is not None:
            return unit_games // run.per_deal
        return unit_deals(run.lineup, deals=max(run.deals, 1), workers=workers,
                          unit_games=run.unit_games)

    with run_options(games=run.games, jobs=jobs, scheduler=scheduler, out=out, resume=resume,
                     unit_size=unit_size, open_store=open_store, check=check,
                     noun=run.noun) as options:
        yield options


@contextlib.contextmanager
def sim_options(*, lineup: Sequence[Any], games: int, players: int, seed: int,
                rules: Any, jobs: int, scheduler: str | None, out: Path | None,
                resume: bool, unit_games: int | None, game: str | None = None,
                names: Sequence[str] | None = None) -> Iterator[dict[str, Any]]:
    """Deprecated: :func:`options_for` of the run :func:`tienlen.arena.plan` checks."""
    from tienlen.arena.runs import plan
    from tienlen.arena.loops import TableLoop
    from tienlen.table.registry import DEFAULT_GAME

    warnings.warn("tienlen.arena.scale.sim_options is deprecated: use "
                  "tienlen.arena.scale.options_for(tienlen.arena.plan(...), ...) (moved in "
                  "0.2.0)", DeprecationWarning, stacklevel=3)
    game = DEFAULT_GAME if game is None else game
    # (a run given no rules of a game other than the first was the table protocol's)
    loop = TableLoop(game) if rules is None and game != DEFAULT_GAME else None
    if unit_games is not None and (unit_games < players or unit_games % players):
        raise ScaleError(f"--unit-games must be a positive multiple of players ({players}); "
                         f"got {unit_games}")
    run = plan(game, lineup, games, players=players, seed=seed, rules=rules, loop=loop)
    with options_for(run, jobs=jobs, scheduler=scheduler, out=out, resume=resume,
                     unit_games=unit_games) as options:
        yield options
