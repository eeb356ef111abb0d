"""Reviews (复盘, issue 38) on the server: a finished hand's review computed in the
background, never holding up a table.

Each decision of a review is one job on the bot threads (:class:`~tienlen.server.scheduler.BotScheduler`),
in the interactive class (a person waits for it, as for a hint): it may use the threads
held in reserve from bots-only tables, and the scheduler's fairness (least recent thinking
first) still puts the bots of a table with a human, which think little, ahead of a review,
which thinks a lot. Reviews are bounded three ways: at most ``slots`` (2) run at once and
``waiting`` more wait for a slot (any more are refused: "busy"); each review stops pricing
decisions ``time_s`` seconds after it was asked for, the waits for a slot and for a thread
included (:meth:`Reviewer.walk <tienlen.review.Reviewer.walk>` shares that time among the
decisions, cheapest first; those left are sent as not evaluated); and a table keeps one
review going (a newer hand's review replaces an older one still running).

The game is reached through its spec's review hooks only (:mod:`tienlen.review`).

>>> import asyncio
>>> from tienlen.games.tienlen.game import Game
>>> from tienlen.table import get_spec
>>> from tienlen.games.tienlen.replay import game_to_json
>>> game = Game.from_hands(["5s 2h", "6d 7c"], leader=1)
>>> for cards, seat in (("6d", 1), (None, 0), ("7c", 1)):
...     _ = game.pass_turn(seat) if cards is None else game.play(cards, seat)
>>> async def demo():
...     scheduler = BotScheduler(workers=2, reserve=1)
...     review = await Reviews(scheduler).review("me", get_spec("tienlen"),
...                                              game_to_json(game).encode(), 0)
...     scheduler.shutdown()
...     return review_message(review)
>>> message = asyncio.run(demo())
>>> message["type"], message["mistakes"], message["decisions"][0]["best"]["cards"]
('review', 1, ['2h'])
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Hashable
from typing import Any

from tienlen.review import Review, ReviewError, Reviewer, pick_record, records_of
from .scheduler import BotScheduler, SchedulerFull

__all__ = ["Reviews", "ReviewBusy", "REVIEW_TIME_S"]

#: The longest a review prices decisions, in seconds.
REVIEW_TIME_S = 10.0


class ReviewBusy(Exception):
    """Too many reviews are running or waiting."""


class Reviews:
    """The server's reviews (see the module's docstring)."""

    def __init__(self, scheduler: BotScheduler, *, slots: int = 2, waiting: int = 8,
                 time_s: float = REVIEW_TIME_S, batch: bool = False) -> None:
        self.scheduler = scheduler
        self.slots = asyncio.Semaphore(slots) if slots else None
        self._slots = slots
        self.waiting = waiting
        self.time_s = time_s
        self.batch = batch
        self._queued = 0
        self.done = 0
        self.refused = 0

    def stats(self) -> dict[str, Any]:
        return {"slots": self._slots, "queued": self._queued, "done": self.done,
                "refused": self.refused}

    async def review(self, owner: Hashable, spec: Any, source: bytes, seat: int, *,
                     hand: int | None = None, lang: str = "en",
                     threshold: float | None = None) -> Review:
        """The review of ``seat`` in hand ``hand`` (the last finished one by default) of
        the saved file ``source``; its decisions priced as jobs of ``owner`` on the bot
        threads, all within ``time_s`` of this call (the wait for a slot included: a
        review that gets no slot in time comes back unpriced). Raises :class:`ReviewBusy`
        when the queue is full and :class:`~tienlen.review.ReviewError` (one line) for a
        bad file or request."""
        deadline = time.monotonic() + self.time_s
        if self._queued >= self.waiting + self._slots:
            self.refused += 1
            raise ReviewBusy("the server is reviewing other hands: try again shortly")
        self._queued += 1
        try:
            assert self.slots is not None
            slot = False
            try:
                await asyncio.wait_for(self.slots.acquire(),
                                       max(0.001, deadline - time.monotonic()))
                slot = True
            except asyncio.TimeoutError:
                pass                  # no slot in time: the decisions are left unpriced
            try:
                return await self._review(owner, spec, source, seat, hand, lang, threshold,
                                          deadline if slot else time.monotonic())
            finally:
                if slot:
                    self.slots.release()
        finally:
            self._queued -= 1

    async def _run(self, owner: Hashable, fn: Any, *args: Any) -> Any:
        """``fn(*args)`` as a job of ``owner``, waiting while its queue is full."""
        while True:
            try:
                return await self.scheduler.run(owner, self.batch, fn, *args)
            except SchedulerFull:
                await asyncio.sleep(0.05)

    async def _review(self, owner: Hashable, spec: Any, source: bytes, seat: int,
                      hand: int | None, lang: str, threshold: float | None,
                      deadline: float) -> Review:
        records = await self._run(owner, records_of, spec, source)
        record = pick_record(records, hand)
        reviewer = Reviewer(spec, record, seat, lang=lang, threshold=threshold,
                            time_s=max(0.001, deadline - time.monotonic()))
        walk = reviewer.walk(time.monotonic)
        try:
            asked = next(walk)
            while True:
                step, time_ms = asked
                try:
                    # the wait for a thread counts: a decision not started by the deadline
                    # is left unpriced (one already running ends within its time_ms)
                    evaluation = await asyncio.wait_for(
                        self._run(owner, reviewer.evaluate, step, time_ms),
                        max(0.001, deadline - time.monotonic()))
                except asyncio.TimeoutError:
                    evaluation = reviewer.unpriced(step)
                asked = walk.send(evaluation)
        except StopIteration as finished:
            self.done += 1
            review: Review = finished.value
            return review


def review_message(review: Review, tracker: dict[str, Any] | None = None) -> dict[str, Any]:
    """The review as the room's ``review`` message (docs/protocol.md)."""
    out = {"type": "review", **review.to_json()}
    if tracker is not None:
        out["tracker"] = tracker
    return out


__all__ += ["review_message", "ReviewError"]
