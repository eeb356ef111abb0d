"""The statistics of a run, one module for both seatings (:mod:`tienlen.arena.seatings`):
per-seat places over seat rotations (:class:`ArenaResult`, one :class:`BotStats` per lineup
entry) and per-team matches, hands, places and levels over team seatings
(:class:`DuplicateResult`, one :class:`TeamStats` per team), each estimate with its 95%
interval (:class:`Interval`) and the paired tests between entries or teams
(:func:`paired_test`, :class:`Comparison`).

Every statistic is computed per deal first (an entry's average over the rotations of a
deal, a team's over the two seatings of a board), which makes the deals the independent
units: the intervals and the paired comparisons are over deals.

>>> import numpy as np
>>> print(mean_interval(np.array([1.0, 2.0, 3.0])))     # 2 +- 1.96 * 1 / sqrt(3)
2.000 [0.868, 3.132]
>>> result = ArenaResult(("a", "b"), 2, 0, np.array([[[1, 2], [2, 1]], [[1, 2], [1, 2]]]),
...                      np.zeros(2), np.ones(2, np.int64))
>>> result.bot("a").first_rate.value, result.compare("a", "b").diff.value
(0.75, -0.5)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final, Union

import numpy as np

from tienlen.arena.engine import ArenaError
from tienlen.arena.seatings import Mode, TeamUnit, Unit

__all__ = ["Interval", "mean_interval", "paired_test", "Comparison", "Entry", "BotStats",
           "ArenaResult", "TeamStats", "TeamComparison", "DuplicateResult", "STATISTICS",
           "Result"]

#: A lineup entry in a result: its index, or its name in :attr:`ArenaResult.names`.
Entry = Union[int, str]

_Z95 = 1.959963984540054  # two-sided 95% normal quantile
#: What :meth:`DuplicateResult.compare` compares.
STATISTICS: Final = ("match_wins", "hand_wins", "places", "levels")
_TEAMS: Final = ("A", "B")


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


class ArenaResult:
    """The outcome of a seat-rotation run (:func:`tienlen.arena.simulate` of a game whose
    loop seats :class:`~tienlen.arena.seatings.Rotations`; :func:`tienlen.arena.run_table`).

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

    @classmethod
    def completed(cls, names: tuple[str, ...], players: int, seed: int,
                  units: Iterable[Unit]) -> ArenaResult | None:
        """The result of the deals completed in ``units`` (in any order; the deals in deal
        order): an interrupted run on several processes may leave gaps. ``None`` if they
        hold no deal."""
        parts = sorted((u for u in units if len(u.places)), key=lambda u: u.start)
        if not parts:
            return None
        return _result(names, players, seed, parts)

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
        then its per-deal mean place is their average.
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


def _result(names: tuple[str, ...], players: int, seed: int, parts: list[Unit]) -> ArenaResult:
    places = np.concatenate([p.places for p in parts])
    # Integer sums do not depend on the order; the timings' float sums may, by an ulp.
    decisions = np.sum([p.decisions.sum(axis=(0, 1), dtype=np.int64) for p in parts], axis=0)
    seconds = np.sum([p.seconds.sum(axis=(0, 1)) for p in parts], axis=0)
    return ArenaResult(names, players, seed, places, seconds, decisions)


@dataclass(frozen=True, slots=True)
class TeamStats:
    """One team's results, each an average over boards with its 95% interval: the share
    of matches won (a capped match is won by neither), of hands won (first out), the mean
    place of its players (1..4), and the levels gained per game (match or hand)."""

    name: str
    games: int
    hands: int
    match_wins: Interval
    hand_wins: Interval
    mean_place: Interval
    levels: Interval
    ms_per_decision: float      # wall-clock, as every game's arena
    decisions: int


@dataclass(frozen=True, slots=True)
class TeamComparison(Comparison):
    """Team A (``a``) minus team B (``b``) in one ``statistic``, paired by board
    (``deals`` counts the boards): the mean difference with its 95% interval, the z of
    "no difference" and its two-sided p-value."""

    statistic: str = "places"

    def __str__(self) -> str:
        p = f"= {self.p_value:.2g}" if self.p_value != 0.0 else "< 1e-300"
        return (f"A - B {self.statistic}: {self.diff} over {self.deals} boards, "
                f"z = {self.z:.2f}, p {p}")


class DuplicateResult:
    """The outcome of a team-seatings run (:func:`tienlen.arena.simulate` of a game whose
    loop seats :class:`~tienlen.arena.seatings.TeamSeatings`), from the units of its
    completed boards (in any order, none twice; an interrupted run on several processes may
    leave gaps): ``unit`` holds their games by position, board order (see
    :class:`~tienlen.arena.seatings.TeamUnit`), ``board_ids`` the board at each position;
    ``names`` label team A and team B. A board's value is the average of its two games.
    A match cut off by the hand cap counts as won by neither team."""

    def __init__(self, names: tuple[str, str], mode: Mode, seed: int, hand_cap: int,
                 units: Sequence[TeamUnit]) -> None:
        ordered = sorted((u for u in units if u.stop > u.start), key=lambda u: u.start)
        if not ordered:
            raise ArenaError("a result needs at least one board")
        for a, b in zip(ordered, ordered[1:]):
            if b.start < a.stop:
                raise ArenaError(f"boards {b.start}..{min(a.stop, b.stop) - 1} are "
                                 "in two units")
        self.names = names
        self.mode = mode
        self.seed = seed
        self.hand_cap = hand_cap
        self.board_ids = np.concatenate([np.arange(u.start, u.stop) for u in ordered])
        joined = TeamUnit.join(ordered)
        self.unit = TeamUnit(0, len(self.board_ids), *(getattr(joined, name)
                                                       for name in TeamUnit._ARRAYS))

    @property
    def boards(self) -> int:
        return len(self.board_ids)

    @property
    def games(self) -> int:
        """Matches (match mode) or hands (hand mode) played: two per board."""
        return 2 * self.boards

    @property
    def hands(self) -> int:
        return int(self.unit.hands.sum())

    @property
    def capped(self) -> int:
        """Matches the hand cap stopped before a team won (match mode)."""
        if self.mode != "match":
            return 0
        return int((self.unit.match_wins.sum(axis=2) == 0).sum())

    def _per_board(self, statistic: str) -> np.ndarray:
        """``[board, team]``: the statistic's value on each board (both games)."""
        u = self.unit
        hands = u.hands.sum(axis=1)[:, None].astype(float)
        if statistic == "match_wins":
            return np.asarray(u.match_wins.mean(axis=1), float)
        if statistic == "hand_wins":
            return np.asarray(u.hand_wins.sum(axis=1) / hands, float)
        if statistic == "places":
            return np.asarray(u.place_sums.sum(axis=1) / (2 * hands), float)
        if statistic == "levels":
            return np.asarray(u.levels.mean(axis=1), float)
        raise ArenaError(f"no statistic {statistic!r}; choose from {', '.join(STATISTICS)}")

    def team(self, team: int | str) -> TeamStats:
        """Team 0 / ``"A"`` or 1 / ``"B"``."""
        t = _team_index(team)

        def interval(statistic: str, low: float, high: float) -> Interval:
            est = mean_interval(self._per_board(statistic)[:, t])
            if math.isnan(est.low):
                return est
            return Interval(est.value, max(low, est.low), min(high, est.high))

        decisions = int(self.unit.decisions[:, :, t].sum())
        seconds = float(self.unit.seconds[:, :, t].sum())
        return TeamStats(
            name=self.names[t], games=self.games, hands=self.hands,
            match_wins=interval("match_wins", 0.0, 1.0),
            hand_wins=interval("hand_wins", 0.0, 1.0),
            mean_place=interval("places", 1.5, 3.5),
            levels=interval("levels", 0.0, math.inf),
            ms_per_decision=1000.0 * seconds / decisions if decisions else 0.0,
            decisions=decisions)

    def teams(self) -> list[TeamStats]:
        return [self.team(0), self.team(1)]

    def compare(self, statistic: str = "places") -> TeamComparison:
        """Team A against team B in ``statistic`` (one of :data:`STATISTICS`), paired by
        board. For ``places`` a negative difference means A finishes higher."""
        values = self._per_board(statistic)
        interval, z, p = paired_test(values[:, 0] - values[:, 1])
        return TeamComparison(self.names[0], self.names[1], self.boards, interval, z, p,
                              statistic)

    def title(self) -> str:
        kind = "matches" if self.mode == "match" else "hands"
        text = (f"{self.games} {kind} ({self.boards} boards x 2 seatings), seed {self.seed}")
        if self.mode == "match":
            text += (f", {self.hands} hands, hand cap {self.hand_cap}"
                     f" ({self.capped} capped)")
        return text

    def table(self) -> str:
        """The statistics as a Markdown table (match wins in match mode only), then the
        paired comparisons."""
        match = self.mode == "match"
        lines = [self.title(), "",
                 "| team |" + (" match wins |" if match else "")
                 + " hand wins | mean place | levels/game | ms/decision |",
                 "|---|" + ("---|" if match else "") + "---|---|---|---:|"]
        for label, s in zip(_TEAMS, self.teams()):
            wins = f" {_pct(s.match_wins)} |" if match else ""
            lines.append(f"| {label} {s.name} |{wins} {_pct(s.hand_wins)} | {s.mean_place} "
                         f"| {s.levels} | {s.ms_per_decision:.2f} |")
        lines.append("")
        lines += [str(self.compare(stat)) for stat in self._compared()]
        return "\n".join(lines)

    def _compared(self) -> tuple[str, ...]:
        if self.mode == "match":
            return ("match_wins", "places", "hand_wins", "levels")
        return ("places", "hand_wins", "levels")

    def games_table(self) -> list[list[object]]:
        """Every game as a row (board, seating, then per team: match won, hands won, place
        sum, levels), the timings left out: equal for equal runs whatever ``jobs`` was."""
        u = self.unit
        rows: list[list[object]] = []
        for i in range(self.boards):
            for s in (0, 1):
                rows.append([int(self.board_ids[i]), s, int(u.hands[i, s]), u.match_wins[i, s].tolist(),
                             u.hand_wins[i, s].tolist(), u.place_sums[i, s].tolist(),
                             u.levels[i, s].tolist()])
        return rows

    def to_json(self) -> dict[str, Any]:
        """The results as a JSON-ready dict (intervals as value/low/high; null when there
        is only one board)."""
        def interval(i: Interval) -> dict[str, float | None]:
            return {k: (None if math.isnan(v) else v)
                    for k, v in (("value", i.value), ("low", i.low), ("high", i.high))}

        def number(x: float) -> float | None:
            return None if math.isnan(x) or math.isinf(x) else x

        return {
            "schema": "tienlen.guandan.sim", "version": 1, "mode": self.mode,
            "seed": self.seed, "boards": self.boards, "games": self.games,
            "hands": self.hands, "hand_cap": self.hand_cap, "capped": self.capped,
            "confidence": 0.95,
            "teams": [{"team": label, "name": s.name,
                       "match_wins": interval(s.match_wins) if self.mode == "match" else None,
                       "hand_wins": interval(s.hand_wins), "mean_place": interval(s.mean_place),
                       "levels": interval(s.levels), "ms_per_decision": s.ms_per_decision,
                       # (the key before issue 25, when it was CPU time; deprecated)
                       "cpu_ms_per_decision": s.ms_per_decision,
                       "decisions": s.decisions}
                      for label, s in zip(_TEAMS, self.teams())],
            "comparisons": [{"statistic": c.statistic, "diff": interval(c.diff),
                             "z": number(c.z), "p_value": number(c.p_value)}
                            for c in (self.compare(stat) for stat in self._compared())],
        }

    def __str__(self) -> str:
        return self.table()

    def __repr__(self) -> str:
        noun = "matches" if self.mode == "match" else "hands"
        return f"<DuplicateResult {self.games} {noun}: {self.names[0]} vs {self.names[1]}>"


def _team_index(team: int | str) -> int:
    if team in (0, "A", "a"):
        return 0
    if team in (1, "B", "b"):
        return 1
    raise ArenaError(f"team must be 0 / 'A' or 1 / 'B'; got {team!r}")


#: The result of a run of either seating.
Result = Union[ArenaResult, "DuplicateResult"]
