"""The fair bot scheduler (tienlen.server.scheduler): the next decision to start is the one of
the table that thought least lately, batch tables never hold the reserved threads, a table's
waiting decisions are bounded, and batch state changes use at most half of the loop."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from tienlen.server.scheduler import BatchLane, BotScheduler, SchedulerFull, default_workers


def _sleeper(seconds: float, log: list[str], name: str):
    def work() -> str:
        log.append(f"start {name}")
        time.sleep(seconds)
        return name
    return work


def test_a_quiet_table_goes_before_a_busy_one() -> None:
    async def main() -> list[str]:
        scheduler = BotScheduler(workers=1, reserve=0)
        log: list[str] = []
        # the busy table thinks a lot: three decisions, queued first
        busy = [asyncio.ensure_future(scheduler.run("busy", True, _sleeper(0.05, log, f"busy{i}")))
                for i in range(3)]
        await asyncio.sleep(0.01)                        # busy0 is running
        quiet = asyncio.ensure_future(scheduler.run("quiet", False, _sleeper(0.0, log, "quiet")))
        await asyncio.gather(*busy, quiet)
        scheduler.shutdown()
        return log

    log = asyncio.run(main())
    assert log.index("start quiet") == 1, log           # right after the one running


def test_batch_tables_never_hold_the_reserve() -> None:
    async def main() -> tuple[int, float]:
        scheduler = BotScheduler(workers=3, reserve=1)
        running = 0
        most = 0
        lock = threading.Lock()

        def think() -> None:
            nonlocal running, most
            with lock:
                running += 1
                most = max(most, running)
            time.sleep(0.05)
            with lock:
                running -= 1

        batch = [asyncio.ensure_future(scheduler.run(f"t{i}", True, think)) for i in range(10)]
        await asyncio.sleep(0.01)
        t0 = time.monotonic()
        await scheduler.run("human-table", False, lambda: None)
        waited = time.monotonic() - t0
        await asyncio.gather(*batch)
        scheduler.shutdown()
        return most, waited

    most, waited = asyncio.run(main())
    assert most == 2                                      # 3 threads, 1 kept
    assert waited < 0.04                                  # it did not wait for a batch one


def test_a_tables_waiting_decisions_are_bounded() -> None:
    async def main() -> None:
        scheduler = BotScheduler(workers=1, reserve=0, per_table=2)
        gate = threading.Event()
        first = asyncio.ensure_future(scheduler.run("t", True, gate.wait, 5))
        await asyncio.sleep(0.01)
        queued = [asyncio.ensure_future(scheduler.run("t", True, lambda: 1)) for _ in range(2)]
        await asyncio.sleep(0.01)
        with pytest.raises(SchedulerFull):
            await scheduler.run("t", True, lambda: 1)
        gate.set()
        await asyncio.gather(first, *queued)
        scheduler.shutdown()

    asyncio.run(main())


def test_errors_come_back_and_forget_cancels_what_waits() -> None:
    async def main() -> None:
        scheduler = BotScheduler(workers=1, reserve=0)
        with pytest.raises(ZeroDivisionError):
            await scheduler.run("t", False, lambda: 1 / 0)
        gate = threading.Event()
        running = asyncio.ensure_future(scheduler.run("a", False, gate.wait, 5))
        await asyncio.sleep(0.01)
        waiting = asyncio.ensure_future(scheduler.run("b", False, lambda: "never"))
        await asyncio.sleep(0.01)
        scheduler.forget("b")
        gate.set()
        await running
        with pytest.raises(asyncio.CancelledError):
            await waiting
        assert scheduler.stats()["waiting"] == 0
        scheduler.shutdown()

    asyncio.run(main())


def test_usage_decays() -> None:
    async def main() -> None:
        scheduler = BotScheduler(workers=1, reserve=0, half_life=0.1)
        await scheduler.run("t", False, time.sleep, 0.05)
        first = scheduler.usage("t")
        await asyncio.sleep(0.3)
        assert 0.04 < first and scheduler.usage("t") < first / 4
        scheduler.shutdown()

    asyncio.run(main())


@pytest.mark.parametrize("workers, reserve", [(0, 0), (4, 4), (4, -1), (300, 1), (2.5, 0)])
def test_bad_sizes_are_refused(workers: object, reserve: object) -> None:
    with pytest.raises(ValueError):
        BotScheduler(workers, reserve)  # type: ignore[arg-type]


def test_defaults() -> None:
    scheduler = BotScheduler()
    assert scheduler.workers == default_workers() >= 2
    assert 1 <= scheduler.reserve < scheduler.workers
    scheduler.shutdown()


def test_the_lane_keeps_half_the_loop_free() -> None:
    async def main() -> tuple[float, int]:
        lane = BatchLane(share=0.5)
        ticks = 0

        def change() -> None:
            end = time.monotonic() + 0.01            # 10 ms of loop work per change
            while time.monotonic() < end:
                pass

        async def table() -> None:
            for _ in range(10):
                await lane.step(change)

        async def other() -> None:
            nonlocal ticks
            while not done.is_set():
                ticks += 1
                await asyncio.sleep(0.001)

        done = asyncio.Event()
        t0 = time.monotonic()
        counter = asyncio.ensure_future(other())
        await asyncio.gather(*(table() for _ in range(5)))
        done.set()
        await counter
        return time.monotonic() - t0, ticks

    elapsed, ticks = asyncio.run(main())
    assert elapsed >= 0.9                                 # 50 changes of 10 ms, 50 % duty
    assert ticks > 100                                    # the rest of the loop kept running
