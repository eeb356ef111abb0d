"""The review service (see :mod:`tienlen.review`): the walk over a record, the mistake rule,
the time bound. Game-agnostic: a game is reached through its spec's review hooks only."""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable, Generator, Mapping
from dataclasses import dataclass, field
from typing import Any

from tienlen.errors import TienlenError
from tienlen.seeds import check_seed, review_seed
from tienlen.table.review import (ActionValue, Budget, Evaluation, Record, Reviewable, Step,
                                  same_action)

__all__ = ["Review", "ReviewError", "Reviewer", "records_of", "review_hand", "reviewable",
           "pick_record", "game_of_file", "Z_MISTAKE", "DEFAULT_DEALS"]

#: A choice is worse than the best "beyond the sampling error" when the mean of the paired
#: differences exceeds this many standard errors.
Z_MISTAKE = 2.0
#: Sampled deals per decision when neither the caller nor the game says.
DEFAULT_DEALS = 64
#: The most deals a decision may be given.
MAX_DEALS = 4096
#: The share of a review's time bound kept back from the deadline the decisions are priced
#: against: a decision ends after the sample that passes its share (one sample late), and
#: the driver sends the review after the last one.
TIME_RESERVE = 0.1
#: A decision's share of the time left is this many times its cost's share (at most all of
#: it): the costs are rough, a decision that needs less than its share leaves the rest to
#: those after it, and the last ones take what is left, so the time is used to its end.
TIME_STRETCH = 2.0
#: Fewer sampled deals than this (a decision the time bound cut short) price a decision
#: but never mark it: the error of so few deals is itself too uncertain.
MIN_DEALS = 8


class ReviewError(TienlenError):
    """A review that cannot be made: a game without review hooks, a file with no finished
    hand, a seat or hand that is not in it, a bad option. One line."""


def reviewable(spec: object) -> bool:
    """Whether ``spec`` has the review hooks (:class:`tienlen.table.review.Reviewable`)."""
    return all(callable(getattr(spec, name, None))
               for name in ("read_record", "evaluate", "tracker")) \
        and isinstance(getattr(spec, "review_threshold", None), (int, float))


def _spec(spec: object) -> Reviewable:
    if not reviewable(spec):
        raise ReviewError(f"{getattr(spec, 'title', spec)!s:.40} has no review")
    return spec  # type: ignore[return-value]


def records_of(spec: object, source: object) -> tuple[Record, ...]:
    """The finished hands of ``source`` (a saved file's bytes or text, or a table), by the
    game's ``read_record``; a bad file raises :class:`ReviewError` with the game's one-line
    reason."""
    hooks = _spec(spec)
    try:
        return tuple(hooks.read_record(source))
    except ValueError as error:
        text = " ".join(str(error).split())
        raise ReviewError(text[:300]) from None


_SCHEMA = re.compile(rb'"schema"\s*:\s*"([A-Za-z0-9_.]{1,64})"')


def game_of_file(data: bytes) -> str:
    """The registered game whose files carry the schema that the file ``data`` names (each
    game's command line module lists the schemas it reads, ``REPLAY_SCHEMAS``); a file
    that names none is refused.

    >>> game_of_file(b'{"schema": "nothing.known"}')
    Traceback (most recent call last):
    ...
    tienlen.review.service.ReviewError: not a saved hand or match of a game this program knows
    """
    from tienlen.table.registry import get_cli, spec_names

    found = _SCHEMA.search(data[:4096])
    if found is not None:
        schema = found.group(1).decode("ascii")
        for name in spec_names():
            cli = get_cli(name)
            if cli is not None and schema in getattr(cli, "REPLAY_SCHEMAS", ()):
                return name
    raise ReviewError("not a saved hand or match of a game this program knows")


def pick_record(records: tuple[Record, ...], hand: int | None = None) -> Record:
    """Hand number ``hand`` of ``records``, or the last one."""
    if not records:
        raise ReviewError("no hand was played to its end: nothing to review")
    if hand is None:
        return records[-1]
    for record in records:
        if record.hand == hand:
            return record
    raise ReviewError(f"no finished hand {hand}; the finished hands are "
                      f"{', '.join(str(r.hand) for r in records)}")


@dataclass(frozen=True)
class Review:
    """A reviewed hand: every decision of ``seat`` in ``record``, in order. ``complete`` is
    False when the time bound left decisions out (they are there, not evaluated)."""

    game: str
    record: Record
    seat: int
    evaluations: tuple[Evaluation, ...]
    threshold: float
    unit: str
    deals: int
    seed: int
    elapsed: float
    complete: bool
    lang: str = "en"
    extra: Mapping[str, Any] = field(default_factory=dict)

    @property
    def decisions(self) -> int:
        return len(self.evaluations)

    @property
    def mistakes(self) -> tuple[Evaluation, ...]:
        return tuple(e for e in self.evaluations if e.mistake)

    def to_json(self, *, with_record: bool = True) -> dict[str, Any]:
        """The review as data (the room's ``review`` message, ``tienlen review --json``'s
        summary)."""
        out: dict[str, Any] = {
            "game": self.game, "hand": self.record.hand, "seat": self.seat,
            "threshold": self.threshold, "unit": self.unit, "deals": self.deals,
            "seed": self.seed, "elapsed": round(self.elapsed, 3), "complete": self.complete,
            "decisions": [e.to_json() for e in self.evaluations],
            "mistakes": len(self.mistakes),
            "cost": round(sum(e.cost for e in self.mistakes), 4)}
        if with_record:
            out["record"] = self.record.to_json()
        return out


def _number(value: object, name: str, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or \
            not low <= value <= high or value != value:
        raise ReviewError(f"{name} must be a number in [{low:g}, {high:g}]; got {value!r:.40}")
    return float(value)


class Reviewer:
    """The review of ``seat``'s decisions in ``record``, one decision at a time (the server
    runs each as a job of its own) or all at once (:meth:`run`).

    ``threshold`` (default: the game's ``review_threshold``) and ``z`` make the mistake rule;
    ``deals`` sampled deals price a decision (default: the game's ``review_deals``);
    ``time_s`` bounds the whole review (:meth:`walk`: cheapest decisions first, each with
    its share of the time left, those the time leaves out unpriced); ``seed`` is mixed into each decision's
    deals (:func:`tienlen.seeds.review_seed`); ``lang`` the language of the reasons."""

    def __init__(self, spec: object, record: Record, seat: int, *,
                 threshold: float | None = None, seed: int = 0, deals: int | None = None,
                 time_s: float | None = None, lang: str = "en", z: float = Z_MISTAKE) -> None:
        self.spec = _spec(spec)
        if type(seat) is not int or not 0 <= seat < record.players:
            raise ReviewError(f"seat must be 0..{record.players - 1}; got {seat!r:.20}")
        self.record, self.seat = record, seat
        self.threshold = (float(self.spec.review_threshold) if threshold is None
                          else _number(threshold, "threshold", 0.0, 100.0))
        self.seed = check_seed(seed, ReviewError)
        if deals is None:
            deals = getattr(self.spec, "review_deals", DEFAULT_DEALS)
        if type(deals) is not int or not 2 <= deals <= MAX_DEALS:
            raise ReviewError(f"deals must be an int in 2..{MAX_DEALS}; got {deals!r:.20}")
        self.deals = deals
        self.time_s = None if time_s is None else _number(time_s, "time", 0.001, 3600.0)
        self.lang = lang if isinstance(lang, str) and lang in ("en", "zh") else "en"
        self.z = _number(z, "z", 0.0, 10.0)
        self.steps: tuple[Step, ...] = tuple(s for s in record.steps if s.seat == seat)
        # the turns of decisions the time bound cut to fewer than two deals (unpriced)
        self._cut: set[int] = set()

    def unpriced(self, step: Step) -> Evaluation:
        """A decision not priced: forced (one legal action), left out by the time bound or
        not one the game prices."""
        value = ActionValue(dict(step.action), 0.0, 0.0)
        return Evaluation(step.seat, step.turn, value, value, False, 0.0, 0.0,
                          forced=step.legal <= 1, evaluated=False)

    def evaluate(self, step: Step, time_ms: float | None = None) -> Evaluation:
        """Price one decision (``step`` is one of :attr:`steps`) within ``time_ms``."""
        if step.legal <= 1 or step.view is None:
            return self.unpriced(step)
        seed = review_seed(self.record.seed, step.turn, self.seed)
        try:
            values = self.spec.evaluate(step.view, [dict(step.action)], seed,
                                        Budget(self.deals, time_ms), self.lang)
        except ValueError:        # an action the evaluator cannot price: not a review's end
            values = []
        if values and values[0].deals < 2:        # the time allowed no error to give
            self._cut.add(step.turn)
            return self.unpriced(step)
        if not values:
            return self.unpriced(step)
        chosen = values[0]
        best = max(values, key=lambda v: v.value)
        bot = next((v for v in values if v.bot), None)
        gap, error = _paired(best, chosen)
        # The search bot's own choice (same seed, same deals) is never a mistake: the
        # review would otherwise blame a player for the bot's own play.
        mine = bot is not None and same_action(bot.action, chosen.action)
        mistake = (best is not chosen and not mine and chosen.deals >= MIN_DEALS
                   and gap > self.z * error and gap > self.threshold)
        return Evaluation(step.seat, step.turn, chosen, best, mistake,
                          gap if mistake else 0.0, error,
                          why=best.why if mistake else chosen.why,
                          values=tuple(sorted(values, key=lambda v: -v.value)),
                          bot=None if bot is None else dict(bot.action))

    def cost(self, step: Step) -> float:
        """What pricing ``step`` costs, roughly, for sharing a time bound: its candidates
        (at most 10 are compared) times the actions left in the hand after it (each
        candidate is played out to the end), plus a fixed part (the evaluator's setup, and
        an endgame's exact solves, dear for few cards). Game-agnostic: from the record
        alone."""
        left = len(self.record.steps) - step.turn
        return (min(step.legal, 10) + 1) * (left + 40)

    def walk(self, clock: Callable[[], float] = time.perf_counter
             ) -> Generator[tuple[Step, float | None], Evaluation, Review]:
        """The review as a generator, for a driver that prices the decisions where it
        likes (a thread pool): it yields ``(step, time_ms)`` for each decision to price,
        is sent back its :class:`Evaluation`, and returns the :class:`Review` (the decisions
        in the hand's order).

        Without ``time_s`` the decisions come in order, each with its full deals. With it,
        the review is bounded by a deadline (``time_s`` less :data:`TIME_RESERVE` of it,
        kept for a decision's last sample and the driver's own work): the decisions come
        cheapest first (:meth:`cost`), each given :data:`TIME_STRETCH` times its cost's
        share of the time left among those not yet priced (at most all of it), so that a
        decision that needs less (fewer deals, a short endgame) leaves the rest to the
        others; a decision whose turn comes after the deadline, or that the time let see
        fewer than two deals, is left unpriced (``evaluated`` False, the review not
        ``complete``) rather than overrun."""
        start = clock()
        priced = [i for i, s in enumerate(self.steps) if s.legal > 1]
        out: dict[int, Evaluation] = {}
        complete = True
        if self.time_s is None:
            for i in priced:
                out[i] = yield self.steps[i], None
        else:
            end = start + self.time_s * (1.0 - TIME_RESERVE)
            weight = {i: self.cost(self.steps[i]) for i in priced}
            left = float(sum(weight.values()))
            for i in sorted(priced, key=lambda i: (weight[i], i)):
                step = self.steps[i]
                remaining = end - clock()
                if remaining <= 0:
                    complete = False
                    out[i] = self.unpriced(step)
                else:
                    share = min(1.0, TIME_STRETCH * weight[i] / left)
                    out[i] = yield step, remaining * 1000 * share
                left -= weight[i]
        if any(self.steps[i].turn in self._cut for i in out):
            complete = False
        evaluations = [out[i] if i in out else self.unpriced(s)
                       for i, s in enumerate(self.steps)]
        return self.finish(evaluations, clock() - start, complete)

    def run(self, clock: Callable[[], float] = time.perf_counter) -> Review:
        """Every decision in order, here, within ``time_s``; then the review."""
        walk = self.walk(clock)
        try:
            asked = next(walk)
            while True:
                asked = walk.send(self.evaluate(*asked))
        except StopIteration as done:
            review: Review = done.value
            return review

    def finish(self, evaluations: list[Evaluation], elapsed: float, complete: bool) -> Review:
        """The review of these evaluations (one per step, in order)."""
        return Review(self.record.game, self.record, self.seat, tuple(evaluations),
                      self.threshold, str(getattr(self.spec, "value_unit", "")), self.deals,
                      self.seed, elapsed, complete, self.lang)


def _paired(best: ActionValue, chosen: ActionValue) -> tuple[float, float]:
    """The mean of ``best - chosen`` on the same deals and its standard error."""
    if best is chosen:
        return 0.0, 0.0
    n = min(len(best.diffs), len(chosen.diffs))
    if n == 0:
        return best.value - chosen.value, math.hypot(best.stderr, chosen.stderr)
    d = [b - c for b, c in zip(best.diffs[:n], chosen.diffs[:n])]
    mean = sum(d) / n
    if n < 2:
        return mean, math.inf
    var = sum((x - mean) ** 2 for x in d) / (n - 1)
    return mean, math.sqrt(var / n)


def review_hand(spec: object, record: Record, seat: int, **options: Any) -> Review:
    """Review ``seat``'s decisions in ``record`` (options: :class:`Reviewer`'s)."""
    return Reviewer(spec, record, seat, **options).run()
