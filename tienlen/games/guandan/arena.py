"""The Guandan duplicate arena: two bot teams over duplicated deals, so that luck cancels.

A *board* is one seed: in ``"match"`` mode a whole :class:`~tienlen.games.guandan.match.Match`
(tribute, levels, 过A) played until a team wins at A or the hand cap; in ``"hand"`` mode the
first hand of that match (level 2, no tribute). Every board is played twice, in two
*seatings*: team A holds the match's first team's seats (0 and 2) and then its second's
(1 and 3), team B the others. The cards (each hand's deal comes from the board's seed and
the hand's index), the first leader and every seat's bot seed are the same in both games,
so a team's edge from good cards in one seating is the other team's in the next.

Statistics are per team, over boards: a board's value is the average of its two games,
which makes boards the independent units of the 95% intervals, and the comparisons of the
teams are paired by board (:func:`tienlen.games.tienlen.arena.paired_test`). A match cut off by the hand
cap counts as won by neither team. Hand mode is cheaper and more sensitive (a first hand
of two equal-level teams); match mode measures what the game scores.

The runs use the Tiến Lên arena's runners (:func:`tienlen.games.tienlen.arena.run_work`): ``jobs``
worker processes, progress reports, and Ctrl-C raising :class:`DuplicateInterrupted` with
the completed boards' result. Every game's seeds derive from ``seed`` and its board's
index, so a run gives the same result whatever ``jobs`` is (with bots that are themselves
reproducible: L3 on a fixed ``iterations=`` budget, not a time budget).

>>> result = run("L2", "L1", hands=8, seed=1)
>>> result.games, result.boards, [t.name for t in result.teams()]
(8, 4, ['L2+L2', 'L1+L1'])
>>> run("L1", "L1", hands=6, seed=3).compare("places").diff.value   # mirror: exactly even
0.0
>>> run("L2", "L1", hands=8, seed=1, jobs=2).games_table() == result.games_table()
True
"""

from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, Final, Literal, Union

import numpy as np

from tienlen.arena.engine import (MAX_JOBS, ArenaError, ArenaInterrupted, Comparison, Interval,
                           Pace, Work, mean_interval, paired_test, play_deals, run_work)
from tienlen.arena.files import (HEADER_FILE, ParquetUnits, ResultsError, _durable, _json_line,
                           float_column, int_column, int_field, span_field)
from tienlen.arena.lockfile import WriterLock
from tienlen import seeds as _seeds
from tienlen.seeds import check_seed
from tienlen.games.guandan.bots import Bot, make_bot
from tienlen.games.guandan.rules import RuleConfig
from tienlen.games.guandan.errors import GuandanError
from tienlen.games.guandan.match import Match

__all__ = ["run", "DuplicateResult", "DuplicateUnit", "TeamStats", "TeamComparison",
           "DuplicateError", "DuplicateInterrupted", "GamesFileError", "GamesWriter", "load",
           "TeamSpec",
           "check_request", "team_name", "board_seed", "bot_seed", "team_seats",
           "Mode", "MODES", "DEFAULT_HAND_CAP", "MAX_HAND_CAP", "MAX_GAMES", "SCHEMA",
           "STATISTICS"]

#: A team: a level name for :func:`tienlen.games.guandan.bots.make_bot` ("L1", "L2", "L3"), or
#: a picklable callable taking ``seed=`` and returning a :class:`~tienlen.games.guandan.bots.Bot`
#: (say ``functools.partial(make_bot, "L3", iterations=100)``). Both players of a team
#: are built from it, each with its own seed.
TeamSpec = Union[str, Callable[..., Bot]]
#: What one board is: a whole match to A, or a single hand.
Mode = Literal["match", "hand"]
#: The values of :data:`Mode`.
MODES: Final = ("match", "hand")
#: Hands after which a match stops undecided (a draw). Matches between the bots took 5
#: to 24 hands in docs/strength.md's runs; the cap bounds a long seesaw of failed A
#: attempts (G7.6 sends a team back to 2 after three).
DEFAULT_HAND_CAP: Final = 100
#: The largest hand cap a run accepts.
MAX_HAND_CAP: Final = 1000
#: Most games one run may play.
MAX_GAMES: Final = 2_000_000
#: The schema name in the header of a games file (``--out``).
SCHEMA: Final = "tienlen.guandan.games"
#: Version 2 (issue 25) adds ``game`` and the ``{"games": N}`` line of a resumed run.
_VERSION: Final = 2
_READS: Final = (1, 2)
#: What :meth:`DuplicateResult.compare` compares.
STATISTICS: Final = ("match_wins", "hand_wins", "places", "levels")
_TEAMS: Final = ("A", "B")


class DuplicateError(GuandanError, ArenaError):
    """A bad duplicate-arena request (teams, counts, jobs, seed, hand cap), a bot that
    broke the rules, or a games file that cannot be read."""


class GamesFileError(DuplicateError, ResultsError):
    """A Guandan games file that :func:`load` cannot read: a :class:`DuplicateError`, as
    before, and a :class:`tienlen.games.tienlen.results.ResultsError`, as for a Tiến Lên games file."""


class DuplicateInterrupted(ArenaInterrupted):
    """Ctrl-C stopped :func:`run`: ``result`` holds the completed boards (both games of
    each), or ``None`` if none was; ``games`` is how many were asked for. An
    :class:`~tienlen.arena.engine.ArenaInterrupted`, as every game's arena raises (and a
    ``KeyboardInterrupt``)."""

    result: DuplicateResult | None  # type: ignore[assignment]

    def __init__(self, result: DuplicateResult | None, games: int) -> None:
        KeyboardInterrupt.__init__(self)
        self.result = result
        self.games = games


# --- one board -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, eq=False)
class DuplicateUnit:
    """Boards ``start..stop-1``, each in both seatings. Arrays are indexed ``[board -
    start, seating, team]`` (team 0 is A), except ``hands`` (``[board - start,
    seating]``) and ``a_seats`` (``[board - start, seating]``: team A's two seats, then
    the others are B's): ``match_wins`` (1 if the team won the match, 0 for both when the hand cap
    stopped it; in hand mode nothing, 0), ``hand_wins`` (hands whose first out was the
    team's), ``place_sums`` (the team's two players' places, 1..4, summed over the
    hands), ``levels`` (levels gained, G7.1, summed), ``decisions`` and ``seconds``
    (the wall-clock seconds its bots spent deciding, as in every game's arena:
    :mod:`tienlen.arena.engine`; before issue 25 this was CPU time)."""

    start: int
    stop: int
    hands: np.ndarray
    a_seats: np.ndarray
    match_wins: np.ndarray
    hand_wins: np.ndarray
    place_sums: np.ndarray
    levels: np.ndarray
    decisions: np.ndarray
    seconds: np.ndarray

    _ARRAYS = ("hands", "a_seats", "match_wins", "hand_wins", "place_sums", "levels", "decisions",
               "seconds")

    @classmethod
    def empty(cls, start: int, boards: int) -> DuplicateUnit:
        def ints() -> np.ndarray:
            return np.zeros((boards, 2, 2), np.int32)

        return cls(start, start + boards, hands=np.zeros((boards, 2), np.int32),
                   a_seats=np.zeros((boards, 2, 2), np.int8), match_wins=ints(),
                   hand_wins=ints(), place_sums=ints(), levels=ints(), decisions=ints(),
                   seconds=np.zeros((boards, 2, 2)))

    def head(self, boards: int) -> DuplicateUnit:
        """The first ``boards`` boards."""
        return DuplicateUnit(self.start, self.start + boards,
                             *(getattr(self, name)[:boards] for name in self._ARRAYS))

    @staticmethod
    def join(parts: Sequence[DuplicateUnit]) -> DuplicateUnit:
        """Consecutive units as one."""
        if len(parts) == 1:
            return parts[0]
        return DuplicateUnit(parts[0].start, parts[-1].stop,
                             *(np.concatenate([getattr(p, name) for p in parts])
                               for name in DuplicateUnit._ARRAYS))


#: The match seed of board ``board`` (0-based) of a run with ``seed``
#: (:func:`tienlen.seeds.board_seed`).
board_seed = _seeds.board_seed
#: The seed of the bot in ``seat`` on ``board``: the same in both seatings, so that equal
#: teams play the two games of a board identically (:func:`tienlen.seeds.board_bot_seed`).
bot_seed = _seeds.board_bot_seed


def team_seats(match: Match, seating: int) -> tuple[tuple[int, int], tuple[int, int]]:
    """(team A's seats, team B's seats) in ``seating`` 0 or 1: A takes the match's first
    team (seats 0 and 2 unless teams are drawn), then its second."""
    first, second = match.teams
    return (first, second) if seating == 0 else (second, first)


def _build(spec: TeamSpec, seed: int) -> Bot:
    bot = make_bot(spec, seed=seed) if isinstance(spec, str) else spec(seed=seed)
    if not isinstance(bot, Bot):
        raise DuplicateError(f"the bot factory {spec!r} returned {bot!r}, not a Guandan Bot")
    return bot


@dataclass(frozen=True, slots=True)
class _Boards(Work[DuplicateUnit, "DuplicateResult"]):
    """A duplicate run, as work for the arena's runners."""

    teams: tuple[TeamSpec, TeamSpec]
    names: tuple[str, str]
    mode: Mode
    seed: int
    hand_cap: int
    config: RuleConfig

    @property
    def per_deal(self) -> int:
        return 2

    def play(self, start: int, stop: int, pace: Pace | None) -> DuplicateUnit:
        unit = DuplicateUnit.empty(start, stop - start)
        done = play_deals(start, stop, 2, pace,
                          lambda board, seating: self._play_game(unit, board, seating, pace))
        return unit.head(done - start)

    def _play_game(self, unit: DuplicateUnit, board: int, seating: int,
                   pace: Pace | None) -> None:
        # The match itself stops at the cap (no winner), so the loop only asks is_over.
        cap = 1 if self.mode == "hand" else self.hand_cap
        match = Match(board_seed(self.seed, board), self.config, max_hands=cap)
        seats = team_seats(match, seating)
        team_at = [0 if s in seats[0] else 1 for s in range(4)]
        bots = [_build(self.teams[team_at[s]], bot_seed(self.seed, board, s)) for s in range(4)]
        i = board - unit.start
        unit.a_seats[i, seating] = seats[0]
        clock = time.perf_counter
        decisions, seconds = unit.decisions[i, seating], unit.seconds[i, seating]
        where = f"board {board}, seating {seating}"
        while not match.is_over:
            seat = match.turn
            assert seat is not None   # someone acts until the match is over
            team = team_at[seat]
            t0 = clock()
            try:
                kind, cards = bots[seat].decide(match.game.view(seat))
            except Exception as error:
                raise DuplicateError(f"{bots[seat].name} (seat {seat}, {where}, hand "
                                     f"{match.hand_number}) raised {type(error).__name__}: "
                                     f"{error}") from error
            t1 = clock()
            seconds[team] += t1 - t0
            decisions[team] += 1
            try:
                match.act(kind, cards, seat)
            except ValueError as error:
                raise DuplicateError(f"{bots[seat].name} (seat {seat}, {where}, hand "
                                     f"{match.hand_number}) made an illegal move {kind} "
                                     f"{cards}: {error}") from error
            if pace is not None and pace.due(t1):
                pace.poll(t1)
        results = match.results
        unit.hands[i, seating] = len(results)
        for hand in results:
            first = hand.places[0]
            won = team_at[first]
            unit.hand_wins[i, seating, won] += 1
            unit.levels[i, seating, won] += hand.gain
            for place, seat in enumerate(hand.places, start=1):
                unit.place_sums[i, seating, team_at[seat]] += place
        if self.mode == "match" and match.winner is not None:
            # The match's team index -> A or B: A holds match.teams[seating].
            unit.match_wins[i, seating, 0 if match.winner == seating else 1] = 1

    def merge(self, parts: list[DuplicateUnit]) -> DuplicateUnit:
        return DuplicateUnit.join(parts)

    def result(self, parts: list[DuplicateUnit]) -> DuplicateResult | None:
        if not any(p.stop > p.start for p in parts):
            return None
        return DuplicateResult(self.names, self.mode, self.seed, self.hand_cap, parts)

    def interrupted(self, result: DuplicateResult | None, games: int) -> KeyboardInterrupt:
        return DuplicateInterrupted(result, games)


# --- results ---------------------------------------------------------------------------


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
    """The outcome of :func:`run`, from the units of its completed boards (in any order,
    none twice; an interrupted run on several processes may leave gaps): ``unit`` holds
    their games by position, board order (see :class:`DuplicateUnit`), ``board_ids`` the
    board at each position; ``names`` label team A and team B."""

    def __init__(self, names: tuple[str, str], mode: Mode, seed: int, hand_cap: int,
                 units: Sequence[DuplicateUnit]) -> None:
        ordered = sorted((u for u in units if u.stop > u.start), key=lambda u: u.start)
        if not ordered:
            raise DuplicateError("a result needs at least one board")
        for a, b in zip(ordered, ordered[1:]):
            if b.start < a.stop:
                raise DuplicateError(f"boards {b.start}..{min(a.stop, b.stop) - 1} are "
                                     "in two units")
        self.names = names
        self.mode = mode
        self.seed = seed
        self.hand_cap = hand_cap
        self.board_ids = np.concatenate([np.arange(u.start, u.stop) for u in ordered])
        joined = DuplicateUnit.join(ordered)
        self.unit = DuplicateUnit(0, len(self.board_ids), *(getattr(joined, name)
                                                            for name in DuplicateUnit._ARRAYS))

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
        raise DuplicateError(f"no statistic {statistic!r}; choose from {', '.join(STATISTICS)}")

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
        """The statistics as a Markdown table, then the paired comparisons."""
        lines = [self.title(), "",
                 "| team | match wins | hand wins | mean place | levels/game | ms/decision |",
                 "|---|---|---|---|---|---:|"]
        for label, s in zip(_TEAMS, self.teams()):
            wins = _pct(s.match_wins) if self.mode == "match" else "-"
            lines.append(f"| {label} {s.name} | {wins} | {_pct(s.hand_wins)} | {s.mean_place} "
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
        return f"<DuplicateResult {self.games} {self.mode}es: {self.names[0]} vs {self.names[1]}>"


def _pct(interval: Interval) -> str:
    if math.isnan(interval.low):
        return f"{100 * interval.value:.1f}%"
    return f"{100 * interval.value:.1f}% [{100 * interval.low:.1f}, {100 * interval.high:.1f}]"


def _team_index(team: int | str) -> int:
    if team in (0, "A", "a"):
        return 0
    if team in (1, "B", "b"):
        return 1
    raise DuplicateError(f"team must be 0 / 'A' or 1 / 'B'; got {team!r}")


# --- the run ---------------------------------------------------------------------------


def team_name(spec: TeamSpec) -> str:
    """``"L3+L3"`` for a team of two L3 bots (a factory: the name its bots give).

    >>> team_name("l2")
    'L2+L2'
    """
    if not (isinstance(spec, str) or callable(spec)):
        raise DuplicateError(f"a team is a level name or a bot factory; got {spec!r}")
    try:
        name = _build(spec, 0).name
    except DuplicateError:
        raise
    except (ValueError, TypeError) as error:   # an unknown level, an option it lacks
        raise DuplicateError(f"cannot make the team's bots: {error}") from None
    return f"{name}+{name}"


def check_request(team_a: TeamSpec, team_b: TeamSpec, *, matches: int | None = None,
                  hands: int | None = None, seed: int = 0, jobs: int = 1,
                  hand_cap: int = DEFAULT_HAND_CAP,
                  config: RuleConfig = RuleConfig()) -> tuple[Mode, int, tuple[str, str]]:
    """Check a :func:`run` request without playing: its mode, games and team names, or
    :class:`DuplicateError` saying what is wrong.

    >>> check_request("L1", "L2", matches=3)
    Traceback (most recent call last):
    ...
    tienlen.games.guandan.arena.DuplicateError: matches must be a positive even number (each board is played in both seatings); got 3
    """
    if (matches is None) == (hands is None):
        raise DuplicateError("give matches= (whole matches) or hands= (first hands), not "
                             f"{'both' if matches is not None else 'neither'}")
    mode: Mode = "match" if matches is not None else "hand"
    games = matches if matches is not None else hands
    what = "matches" if mode == "match" else "hands"
    if type(games) is not int or games < 2 or games % 2:
        raise DuplicateError(f"{what} must be a positive even number (each board is played "
                             f"in both seatings); got {games!r}")
    if games > MAX_GAMES:
        raise DuplicateError(f"{what} must be at most {MAX_GAMES:,} per run; got {games:,}")
    if type(jobs) is not int or not 1 <= jobs <= MAX_JOBS:
        raise DuplicateError(f"jobs must be a positive int, at most {MAX_JOBS}; got {jobs!r}")
    if type(hand_cap) is not int or not 1 <= hand_cap <= MAX_HAND_CAP:
        raise DuplicateError(f"hand_cap must be an int in 1..{MAX_HAND_CAP}; got {hand_cap!r}")
    check_seed(seed, DuplicateError)
    if not isinstance(config, RuleConfig):
        raise DuplicateError(f"config must be a RuleConfig; got {config!r}")
    return mode, games, (team_name(team_a), team_name(team_b))


def run(team_a: TeamSpec, team_b: TeamSpec, *, matches: int | None = None,
        hands: int | None = None, seed: int = 0, jobs: int = 1,
        hand_cap: int = DEFAULT_HAND_CAP, config: RuleConfig = RuleConfig(),
        progress: Callable[[int, int], None] | None = None,
        on_unit: Callable[[DuplicateUnit], None] | None = None,
        executor: Executor | None = None, unit_deals: int | None = None,
        done: Iterable[DuplicateUnit] = ()) -> DuplicateResult:
    """Play ``matches`` whole matches, or ``hands`` first hands, between team A and team B
    (both even: every board is played in both seatings) and return the statistics.

    A match ends when a team wins at A (G7.3) or after ``hand_cap`` hands (then neither
    team wins it). ``jobs > 1`` plays on that many worker processes, with the same
    result. ``progress(done, total)`` is called as games complete; ``on_unit`` with each
    completed :class:`DuplicateUnit` (in this process; :class:`GamesWriter` writes them to
    disk). Ctrl-C raises :class:`DuplicateInterrupted` holding the completed boards' result.
    ``executor`` (any :class:`concurrent.futures.Executor`, a Dask cluster's:
    :mod:`tienlen.arena.scale`) plays the boards there; with ``unit_deals`` boards are played in
    units of that many, and the units in ``done`` (an earlier run's, from
    :meth:`GamesWriter.open` with ``resume=True``) are not played again. None of this
    changes the result.

    Raises :class:`DuplicateError` for a bad request (checked before any game starts,
    :func:`check_request`) or a bot that breaks the rules.
    """
    mode, games, names = check_request(team_a, team_b, matches=matches, hands=hands,
                                       seed=seed, jobs=jobs, hand_cap=hand_cap, config=config)
    work = _Boards((team_a, team_b), names, mode, seed, hand_cap, config)
    done = list(done)
    if not all(isinstance(u, DuplicateUnit) for u in done):
        raise DuplicateError("done must hold DuplicateUnits")
    return run_work(work, games // 2, jobs=jobs, executor=executor, progress=progress,
                    on_unit=on_unit, unit_deals=unit_deals, done=done)


# --- games files (--out) ---------------------------------------------------------------


#: A game row's fields, in the order a JSON line and a Parquet unit hold them.
_COLUMNS: Final = ("board", "seating", "a_seats", "hands", "match_won", "hands_won",
                   "place_sum", "levels", "decisions", "seconds")


def _columns(unit: DuplicateUnit) -> dict[str, np.ndarray]:
    """A unit as game-row columns, one row per game in (board, seating) order: per team
    fields as rows x 2 (team A, team B)."""
    boards = unit.stop - unit.start
    return {
        "board": np.repeat(np.arange(unit.start, unit.stop, dtype=np.int64), 2),
        "seating": np.tile(np.arange(2, dtype=np.int8), boards),
        "a_seats": unit.a_seats.reshape(-1, 2), "hands": unit.hands.reshape(-1),
        "match_won": unit.match_wins.reshape(-1, 2), "hands_won": unit.hand_wins.reshape(-1, 2),
        "place_sum": unit.place_sums.reshape(-1, 2), "levels": unit.levels.reshape(-1, 2),
        "decisions": unit.decisions.reshape(-1, 2), "seconds": unit.seconds.reshape(-1, 2),
    }


class GamesWriter:
    """A file of a run's games, written as each unit completes, so that a run cut short
    (Ctrl-C, a crash, a killed worker's client) leaves a file whose complete units
    :func:`load` reads. A game row holds ``board``, ``seating``, ``a_seats``, ``hands``
    and per team (A, B) ``match_won``, ``hands_won``, ``place_sum``, ``levels``,
    ``decisions`` and ``seconds``. Two formats, chosen by the file name, as for Tiến Lên
    (:mod:`tienlen.games.tienlen.results`):

    ``NAME.parquet``
        A Parquet dataset (a directory; needs ``pyarrow``, the ``dask`` extra):
        ``_run.json`` holds the header (the run: schema, game, teams, mode, seed, hand
        cap, rules, games asked for) and each unit is one file ``unit-START-STOP.parquet``
        of game rows, renamed into place once complete
        (:class:`tienlen.arena.files.ParquetUnits`, the Tiến Lên writer's).
    any other name (``NAME.jsonl``)
        JSON lines: the header line, then per unit one line per game and a closing
        ``{"unit": [start, stop]}`` line, written and flushed to disk together. A resumed
        run that asks for more games than the header says appends a ``{"games": N}`` line.

    Refuses to overwrite a file, unless ``resume``: then an existing file of the same run
    (teams, mode, seed, hand cap, rules) is continued, its torn tail cut off (a unit file
    left half-written removed), and :attr:`units` holds its complete units (pass them to
    :func:`run` as ``done=``); a file of another run is refused, untouched. Use as a
    context manager, or :meth:`close` it."""

    def __init__(self, path: str | os.PathLike[str], *, teams: Sequence[str], mode: Mode,
                 seed: int, hand_cap: int, games: int,
                 config: RuleConfig = RuleConfig(), resume: bool = False) -> None:
        self.path = Path(path)
        self.units: list[DuplicateUnit] = []
        self._stream: Any = None
        self._dataset: ParquetUnits | None = None
        self._closed = False
        # One writer per file, as for Tiến Lên games files (tienlen.arena.lockfile), held to close().
        self._lock = WriterLock.acquire(self.path, DuplicateError)
        #: Whether this writer created the file (rather than reopening it to resume).
        self.created = not self.path.exists()
        self.header = {"schema": SCHEMA, "version": _VERSION, "game": "guandan",
                       "teams": list(teams), "mode": mode, "seed": seed,
                       "hand_cap": hand_cap, "games": games, "config": config.to_dict()}
        try:
            if self.path.suffix == ".parquet":
                self._open_parquet(games, resume)
            elif resume and self.path.exists():
                self._stream = self._continue(games)
            else:
                self._stream = self.path.open("xb")
                _durable(self._stream, (json.dumps(self.header) + "\n").encode())
        except FileExistsError:
            self._lock.release()
            raise DuplicateError(f"{self.path} already exists: name another file, or "
                                 "give --resume to continue its run") from None
        except OSError as error:
            self._lock.release()
            raise DuplicateError(f"cannot create {self.path}: {error.strerror or error}") from None
        except BaseException:
            self._lock.release()
            raise

    def _open_parquet(self, games: int, resume: bool) -> None:
        dataset = ParquetUnits(self.path, GamesFileError)
        if self.path.exists():
            if not resume:
                raise FileExistsError
            found, units, planned = _read_parquet(self.path)
            self._check_same_run(found, units, games)     # before anything in it changes
            dataset.clean()
            if planned != games:
                dataset.set_header(self.header)
            self.units = units
        else:
            dataset.create(self.header)
        self._dataset = dataset

    def _check_same_run(self, found: dict[str, Any], units: list[DuplicateUnit],
                        games: int) -> None:
        """Refuse, before the file is touched, another run's file or a shorter run."""
        for key in ("teams", "mode", "seed", "hand_cap", "config"):
            mine, theirs = found.get(key), self.header[key]
            if key == "config":
                mine = RuleConfig.from_dict(mine).to_dict() if isinstance(mine, dict) else mine
            if mine != theirs:
                raise GamesFileError(f"{self.path} holds another run's games: its {key} is "
                                     f"{mine}, this run's is {theirs}")
        stop = max((u.stop for u in units), default=0)
        if 2 * stop > games:
            raise GamesFileError(f"{self.path} already holds boards up to {stop - 1}, more "
                                 f"than {games} games have: ask for at least {2 * stop} games")

    def _continue(self, games: int) -> Any:
        found, units, end, planned = _read_games(self.path)
        self._check_same_run(found, units, games)
        stream = self.path.open("r+b")
        stream.truncate(end)
        stream.seek(end)
        if planned != games:
            _durable(stream, (json.dumps({"games": games}) + "\n").encode())
        self.units = units
        return stream

    @property
    def played(self) -> int:
        """Games in the complete units on file (those of an earlier run and this one's)."""
        return 2 * sum(u.stop - u.start for u in self.units)

    def write(self, unit: DuplicateUnit) -> None:
        cols = _columns(unit)
        if self._dataset is not None:
            self._dataset.write(unit.start, unit.stop, cols, self.header)
        else:
            lines = [json.dumps({name: cols[name][i].tolist() for name in _COLUMNS},
                                separators=(",", ":")) for i in range(len(cols["board"]))]
            lines.append(json.dumps({"unit": [unit.start, unit.stop]}))
            _durable(self._stream, ("\n".join(lines) + "\n").encode())
        self.units.append(unit)

    def close(self) -> None:
        """Release the file and its writer lock (every unit written is already on disk)."""
        if self._closed:
            return
        self._closed = True
        if self._stream is not None:
            self._stream.close()
        self._lock.release()

    def discard(self) -> None:
        """Close, and remove the file if this writer created it and wrote no unit (the
        run could not start, as a Tiến Lên games file's :meth:`~tienlen.games.tienlen.results.GamesFile.discard`):
        a failed start leaves no file behind. A file resumed, or holding games, is kept."""
        if self._closed:
            return
        try:
            if self._stream is not None:
                self._stream.close()
                self._stream = None
            if self.created and not self.units:
                # Removed while still locked: no other run sees it half-removed.
                if self._dataset is not None:
                    self._dataset.discard()
                else:
                    self.path.unlink(missing_ok=True)
        finally:
            self.close()

    def __enter__(self) -> GamesWriter:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


def load(path: str | os.PathLike[str]) -> DuplicateResult:
    """The result of the complete units in a games file written by :class:`GamesWriter`,
    JSON lines or (a ``.parquet`` name) a Parquet dataset (an interrupted run's file gives
    the boards it completed; a unit cut short is left out). Reads every version written
    (1: before issue 25; 2: with ``game`` and resumes). A file that is not one, holds a
    value no run writes, or whose units do not cover boards ``0..n-1`` once each, raises
    :class:`GamesFileError` (a DuplicateError)."""
    if not isinstance(path, (str, os.PathLike)):
        raise GamesFileError(f"path must be a file path; got {path!r:.80}")
    path = Path(path)
    if path.suffix == ".parquet":
        if not path.exists():
            raise GamesFileError(f"{path}: no such file")
        header, units, _ = _read_parquet(path)
    else:
        header, units, _, _ = _read_games(path)
    if not units:
        raise GamesFileError(f"{path}: no complete unit of games")
    try:
        return DuplicateResult(header["_names"], header["mode"], header["seed"],
                               header["hand_cap"], units)
    except DuplicateError as error:
        raise GamesFileError(f"{path}: {error}") from None


def _check_header(header: dict[str, Any], where: str) -> dict[str, Any]:
    """A games file's header, checked; ``_names`` added: the teams as a pair."""
    if header.get("schema") != SCHEMA or header.get("version") not in _READS:
        raise GamesFileError(f"{where}: not a Guandan games file (versions "
                             f"{', '.join(map(str, _READS))} of {SCHEMA!r})")
    try:
        teams = header["teams"]
        if not isinstance(teams, list) or len(teams) != 2 or not all(type(t) is str for t in teams):
            raise ValueError("teams must be two names")
        header["_names"] = (teams[0], teams[1])
        mode = header["mode"]
        if mode not in MODES:
            raise ValueError(f"a bad mode {mode!r:.40}")
        check_seed(header["seed"])
        int_field(header["hand_cap"], 1, MAX_HAND_CAP, "hand_cap")
    except (KeyError, TypeError, ValueError) as error:
        raise GamesFileError(f"{where}: a bad header ({error})") from None
    return header


def _game_cap(header: dict[str, Any]) -> int:
    """The most hands one game of the run plays."""
    return 1 if header["mode"] == "hand" else int(header["hand_cap"])


def _read_parquet(path: Path) -> tuple[dict[str, Any], list[DuplicateUnit], int | None]:
    """A Parquet games dataset's header (checked), its complete units in board order, and
    the games the last request asked for."""
    dataset = ParquetUnits(path, GamesFileError)
    header = _check_header(dataset.header(), f"{path}/{HEADER_FILE}")
    planned = header.get("games")
    cap = _game_cap(header)
    units: list[DuplicateUnit] = []
    for start, stop, cols, file in dataset.units(_COLUMNS):
        # The same rows as a JSON file's, checked by the same code.
        rows = [{name: cols[name][i].tolist() for name in _COLUMNS}
                for i in range(len(cols["board"]))]
        try:
            units.append(_unit_from_rows([start, stop], rows, cap))
        except (KeyError, TypeError, ValueError, IndexError) as error:
            raise GamesFileError(f"{file}: a bad unit ({error})") from None
    return header, units, planned if type(planned) is int else None


def _read_games(path: Path) -> tuple[dict[str, Any], list[DuplicateUnit], int, int | None]:
    """A games file's header (checked; ``_names`` the teams as a pair), its complete units,
    the byte offset where they end, and the games the last request asked for."""
    try:
        data = path.read_bytes()
    except OSError as error:
        raise GamesFileError(f"cannot read {path}: {error.strerror or error}") from None
    lines = data.split(b"\n")
    lines.pop()     # the text after the last newline: empty, or a line cut short
    if not lines:
        raise GamesFileError(f"{path}: empty, not a Guandan games file")
    try:
        header = _json_line(lines[0], path, 1)
    except ValueError as error:
        raise GamesFileError(str(error)) from None
    header = _check_header(header, f"{path}:1" if header.get("schema") == SCHEMA else str(path))
    cap = _game_cap(header)
    planned = header.get("games")
    units: list[DuplicateUnit] = []
    rows: list[dict[str, Any]] = []
    offset = end = len(lines[0]) + 1
    for number, line in enumerate(lines[1:], start=2):
        offset += len(line) + 1
        try:
            record = _json_line(line, path, number)
        except ValueError as error:
            raise GamesFileError(str(error)) from None
        if set(record) == {"games"} and header["version"] >= 2:
            if type(record["games"]) is not int or record["games"] < 2:
                raise GamesFileError(f"{path}:{number}: a bad games count")
            if not rows:   # between units: part of the file
                planned, end = record["games"], offset
            continue
        if "unit" not in record:
            rows.append(record)
            continue
        try:
            units.append(_unit_from_rows(record["unit"], rows, cap))
        except (KeyError, TypeError, ValueError) as error:
            raise GamesFileError(f"{path}:{number}: a bad unit ({error})") from None
        rows, end = [], offset
    return header, units, end, planned if type(planned) is int else None


#: The most levels a won hand gains under any RuleConfig (double_down_levels <= 12, G7.1).
_MAX_GAIN: Final = 12


def _unit_from_rows(span: object, rows: list[dict[str, Any]], cap: int) -> DuplicateUnit:
    """The unit ``span`` from its game lines, every field checked once, against the range
    a game can give (``cap``: the most hands a game plays), before it is stored."""
    start, stop = span_field(span, MAX_GAMES // 2, "unit")
    if len(rows) != 2 * (stop - start):
        raise ValueError(f"{len(rows)} games for boards {start}..{stop - 1}")
    unit = DuplicateUnit.empty(start, stop - start)
    seen = set()
    for row in rows:
        board = int_field(row["board"], start, stop - 1, "board")
        s = int_field(row["seating"], 0, 1, "seating")
        if (board, s) in seen:
            raise ValueError(f"game (board {board}, seating {s}) repeated")
        seen.add((board, s))
        i = board - start
        hands = int_field(row["hands"], 1, cap, "hands")
        pair = {}
        for key in ("a_seats", "match_won", "hands_won", "place_sum", "levels", "decisions"):
            pair[key] = int_column(row[key], 0, 2**31 - 1, key)
            if pair[key].shape != (2,):
                raise ValueError(f"{key} is not one value per team")
        seconds = float_column(row["seconds"], 0.0, 365 * 86400.0, "seconds")
        if seconds.shape != (2,):
            raise ValueError("seconds is not one value per team")
        a_seats, won, hand_wins = pair["a_seats"], pair["match_won"], pair["hands_won"]
        # Team A holds two of the four seats; a match has one winner at most; every hand
        # has one first out; each hand's four places 1..4 sum to 10, a team's two to 3..7.
        if a_seats.max() > 3 or a_seats[0] == a_seats[1]:
            raise ValueError(f"a_seats {a_seats.tolist()} are not two of the seats 0..3")
        if won.max() > 1 or won.sum() > 1:
            raise ValueError(f"match_won {won.tolist()}: a match has one winner at most")
        if hand_wins.sum() != hands:
            raise ValueError(f"hands_won {hand_wins.tolist()} do not add up to {hands} hands")
        if (pair["place_sum"] < 3 * hands).any() or pair["place_sum"].sum() != 10 * hands:
            raise ValueError(f"place_sum {pair['place_sum'].tolist()} is not two partners' "
                             f"places over {hands} hands")
        if (pair["levels"] > _MAX_GAIN * hand_wins).any():
            raise ValueError(f"levels {pair['levels'].tolist()}: more than {_MAX_GAIN} a "
                             f"hand won ({hand_wins.tolist()})")
        unit.hands[i, s] = hands
        unit.a_seats[i, s] = a_seats
        unit.match_wins[i, s] = won
        unit.hand_wins[i, s] = hand_wins
        unit.place_sums[i, s] = pair["place_sum"]
        unit.levels[i, s] = pair["levels"]
        unit.decisions[i, s] = pair["decisions"]
        unit.seconds[i, s] = seconds
    return unit
