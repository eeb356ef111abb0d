"""Bot work scheduled fairly across tables: threads for thinking, and the event loop's time
for applying what was decided (docs/protocol.md, *Bots and load*).

Two classes of table share the machine:

- **interactive**: a table with a human seat. Its bots wait ``--bot-delay`` before each
  move and its human thinks, so it asks for little; it must never wait behind anyone.
- **batch**: a table of bots alone, or of bots and remote agents. It plays as fast as its
  agents answer, without pause, so it would take all it is given.

:class:`BotScheduler` runs bot decisions on ``workers`` threads. When a thread is free, the
next decision to start is the one of the table whose bots have thought least lately (its
thinking seconds, decaying by half every ``half_life`` seconds): a table that thinks little
never waits behind one that thinks much. Batch tables together never hold more than
``workers - reserve`` threads, so ``reserve`` threads are always there for interactive
tables. A table has at most ``per_table`` decisions waiting (its bot and a hint).

:class:`BatchLane` bounds the batch tables' share of the event loop: their state changes
(a bot's move applied, an agent's action, the next hand dealt) pass one at a time, each
followed by a pause as long as it took, so batch tables use at most half of the loop and
the other half stays free for interactive tables' messages.

>>> import asyncio
>>> async def demo():
...     scheduler = BotScheduler(workers=2, reserve=1)
...     answer = await scheduler.run("table-1", False, lambda x: x * 2, 21)
...     scheduler.shutdown()
...     return answer
>>> asyncio.run(demo())
42
"""

from __future__ import annotations

import asyncio
import os
import time
from collections import deque
from collections.abc import Callable, Hashable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

__all__ = ["BotScheduler", "BatchLane", "SchedulerFull", "usable_cores", "default_workers"]


class SchedulerFull(Exception):
    """A table asked for more decisions at once than it may have waiting."""


def usable_cores() -> int:
    """The cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def default_workers() -> int:
    """Bot threads by default: two per usable core (the cores' search loops release the
    GIL, so two threads per core each get at least half a core)."""
    return max(2, 2 * usable_cores())


@dataclass
class _Job:
    owner: Hashable
    batch: bool
    call: Callable[[], Any]
    future: asyncio.Future[Any]
    queued_at: float


@dataclass
class _Usage:
    seconds: float = 0.0
    at: float = field(default_factory=time.monotonic)

    def now(self, now: float, half_life: float) -> float:
        return float(self.seconds * 2.0 ** (-(now - self.at) / half_life))

    def add(self, now: float, seconds: float, half_life: float) -> None:
        self.seconds = self.now(now, half_life) + seconds
        self.at = now


class BotScheduler:
    """Fair bot threads (see the module's docstring). All its methods run on the event loop
    thread; the decisions themselves run on the threads."""

    def __init__(self, workers: int | None = None, reserve: int | None = None, *,
                 per_table: int = 4, half_life: float = 5.0) -> None:
        workers = default_workers() if workers is None else workers
        if type(workers) is not int or not 1 <= workers <= 256:
            raise ValueError(f"bot threads must be 1..256; got {workers!r:.20}")
        if reserve is None:
            reserve = max(1, workers // 4) if workers > 1 else 0
        if type(reserve) is not int or not 0 <= reserve < workers:
            raise ValueError(f"the reserve must be 0..{workers - 1}; got {reserve!r:.20}")
        self.workers = workers
        self.reserve = reserve
        self.per_table = per_table
        self.half_life = half_life
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="tienlen-bot")
        self._waiting: dict[Hashable, deque[_Job]] = {}
        self._usage: dict[Hashable, _Usage] = {}
        self._running = 0
        self._batch_running = 0
        self._busy_seconds = 0.0        # thread-seconds spent, for stats
        self._closed = False

    @property
    def batch_threads(self) -> int:
        """The threads batch tables may hold together."""
        return self.workers - self.reserve

    def stats(self) -> dict[str, Any]:
        return {"threads": self.workers, "reserve": self.reserve, "running": self._running,
                "waiting": sum(len(q) for q in self._waiting.values()),
                "thread_seconds": round(self._busy_seconds, 3)}

    def usage(self, owner: Hashable) -> float:
        """``owner``'s recent thinking seconds (decayed)."""
        entry = self._usage.get(owner)
        return 0.0 if entry is None else entry.now(time.monotonic(), self.half_life)

    async def run(self, owner: Hashable, batch: bool, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` on a bot thread, when fairness says so; its result (or exception).
        Raises :class:`SchedulerFull` if ``owner`` has ``per_table`` decisions waiting."""
        if self._closed:
            raise RuntimeError("the bot scheduler is shut down")
        queue = self._waiting.setdefault(owner, deque())
        if len(queue) >= self.per_table:
            raise SchedulerFull(f"{len(queue)} decisions of this table are waiting already")
        loop = asyncio.get_running_loop()
        job = _Job(owner, batch, lambda: fn(*args), loop.create_future(), time.monotonic())
        queue.append(job)
        self._usage.setdefault(owner, _Usage(0.0, job.queued_at))
        self._dispatch()
        try:
            return await job.future
        except asyncio.CancelledError:
            if job in queue:             # never started: it will not be
                queue.remove(job)
            raise

    def forget(self, owner: Hashable) -> None:
        """Drop ``owner``'s waiting decisions and its usage (its table is gone)."""
        for job in self._waiting.pop(owner, ()):
            if not job.future.done():
                job.future.cancel()
        self._usage.pop(owner, None)

    def _pick(self) -> _Job | None:
        now = time.monotonic()
        best: tuple[float, float] | None = None
        chosen: deque[_Job] | None = None
        batch_full = self._batch_running >= self.batch_threads
        for owner, queue in list(self._waiting.items()):
            while queue and queue[0].future.done():       # cancelled while waiting
                queue.popleft()
            if not queue:
                del self._waiting[owner]
                continue
            job = queue[0]
            if job.batch and batch_full:
                continue
            usage = self._usage.get(owner)
            key = (0.0 if usage is None else usage.now(now, self.half_life), job.queued_at)
            if best is None or key < best:
                best, chosen = key, queue
        return chosen.popleft() if chosen is not None else None

    def _dispatch(self) -> None:
        while self._running < self.workers and not self._closed:
            job = self._pick()
            if job is None:
                return
            self._running += 1
            self._batch_running += job.batch
            loop = job.future.get_loop()

            def work(job: _Job = job) -> tuple[float, Any, BaseException | None]:
                t0 = time.monotonic()
                try:
                    value = job.call()
                except BaseException as error:          # handed back to the awaiting table
                    return time.monotonic() - t0, None, error
                return time.monotonic() - t0, value, None

            def back(done: Any, job: _Job = job, loop: asyncio.AbstractEventLoop = loop) -> None:
                try:
                    loop.call_soon_threadsafe(self._finished, job, done)
                except RuntimeError:                    # the loop is closed: nobody waits
                    pass

            self._pool.submit(work).add_done_callback(back)

    def _finished(self, job: _Job, done: Any) -> None:
        self._running -= 1
        self._batch_running -= job.batch
        seconds, value, error = (0.0, None, None) if done.cancelled() else done.result()
        self._busy_seconds += seconds
        usage = self._usage.get(job.owner)
        if usage is not None:                     # (None: the table was forgotten)
            usage.add(time.monotonic(), seconds, self.half_life)
        if not job.future.done():
            if done.cancelled():
                job.future.cancel()
            elif error is not None:
                job.future.set_exception(error)
            else:
                job.future.set_result(value)
        self._dispatch()

    def shutdown(self) -> None:
        self._closed = True
        for owner in list(self._waiting):
            self.forget(owner)
        self._pool.shutdown(wait=False, cancel_futures=True)


class BatchLane:
    """One batch table's state change at a time, each followed by a pause as long as it
    took (``share`` of the loop at most: 0.5 by default)."""

    def __init__(self, share: float = 0.5) -> None:
        if not 0 < share <= 1:
            raise ValueError(f"share must be in (0, 1]; got {share!r:.20}")
        self.share = share
        self._lock: asyncio.Lock | None = None
        self.steps = 0

    def _get_lock(self) -> asyncio.Lock:
        if self._lock is None:
            self._lock = asyncio.Lock()
        return self._lock

    async def step(self, change: Callable[[], Any]) -> Any:
        """Run ``change()`` (on the loop) in the lane; its result."""
        async with self._get_lock():
            t0 = time.monotonic()
            try:
                return change()
            finally:
                self.steps += 1
                took = time.monotonic() - t0
                pause = took * (1 / self.share - 1)
                if pause > 0:
                    await asyncio.sleep(min(pause, 1.0))
