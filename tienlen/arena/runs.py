"""A run of any registered game: the request checked (:func:`plan`), the work the engine
plays (a game's own per-game loop, found through its spec, in every seat rotation or team
seating: :class:`RotationWork`, :class:`TeamWork`), and :func:`simulate`, the one entry
point of every game's arena.

Every deal and every bot's seed derive from ``seed`` and the game's indices only, so a run
is reproducible whatever runs it (``jobs``, an executor, a run interrupted and resumed);
only the timings differ. (A bot on a time budget, such as L3 by default, is itself not
reproducible: give L3 a fixed ``iterations=`` for that.)

>>> result = simulate("tienlen", ["L1", "random"], 40, seed=3)
>>> [(s.name, s.games) for s in result.stats()]
[('L1', 40), ('random', 40)]
>>> result.compare("L1", "random").diff.value < 0      # L1 finishes higher on average
True
>>> teams = simulate("guandan", ["L2", "L1"], 8, mode="hand", seed=1)
>>> teams.games, teams.boards, [t.name for t in teams.teams()]
(8, 4, ['L2+L2', 'L1+L1'])
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar, Union

from tienlen.arena.engine import (MAX_GAMES, MAX_JOBS, ArenaError, ArenaInterrupted, Pace,
                                  Work, play_deals, run_work, unique_names)
from tienlen.arena.files import RunHeader, TeamHeader, engine_version
from tienlen.arena.loops import RotationLoop, TableLoop, TeamLoop, loop_of, title_of
from tienlen.arena.seatings import MODES, ROTATIONS, Rotations, TeamSeatings, TeamUnit, Unit
from tienlen.arena.stats import ArenaResult, DuplicateResult
from tienlen.seeds import check_seed

__all__ = ["RotationWork", "TeamWork", "Run", "plan", "simulate", "entry_names", "run_table",
           "table_work", "check_jobs", "UNIT_GAMES"]

#: Games of the fastest bots per work unit when a run's are cut for a cluster (about a
#: second of work; :func:`tienlen.arena.scale.unit_deals`).
UNIT_GAMES = 2048
#: A match of a team run is some ten hands: its units hold a tenth of the games of hands.
_MATCH_UNIT_GAMES = 256

U = TypeVar("U", Unit, TeamUnit)
R = TypeVar("R", ArenaResult, DuplicateResult)


class _SeatingWork(Work[U, R], Generic[U, R]):
    """What both seatings' works share: the words of a bot's failure, which a game's loop
    raises (``raise work.bot_raised(...) from error``), naming the game where it happened:
    on a cluster's worker the traceback is far away, the message travels with the error."""

    __slots__ = ()

    @staticmethod
    def bot_raised(name: str, seat: int, where: str, error: BaseException) -> ArenaError:
        return ArenaError(f"{name} (seat {seat}, {where}) raised {type(error).__name__}: "
                          f"{error}")

    @staticmethod
    def illegal(name: str, seat: int, where: str, action: str, error: BaseException) -> ArenaError:
        return ArenaError(f"{name} (seat {seat}, {where}) made an illegal move {action}: "
                          f"{error}")

    def interrupted(self, result: R | None, games: int) -> KeyboardInterrupt:
        return ArenaInterrupted(result, games)


@dataclass(frozen=True, slots=True)
class RotationWork(_SeatingWork[Unit, ArenaResult]):
    """Every deal in every seat rotation, each game played by ``loop`` (the game's): the
    entries of ``lineup`` (as the loop takes them) named ``names``."""

    loop: RotationLoop
    lineup: tuple[Any, ...]
    players: int
    seed: int
    rules: Any
    names: tuple[str, ...]
    seating: Rotations = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "seating", Rotations(self.players))

    @property
    def per_deal(self) -> int:
        return self.players

    def play(self, start: int, stop: int, pace: Pace | None) -> Unit:
        """Deals ``start..stop-1``, each in every rotation. With ``pace``, finished games are
        reported as they end, and a stop request ends the range early: the unit then holds
        the deals completed so far (a deal cut short is dropped whole)."""
        unit = Unit.empty(start, stop - start, self.players, len(self.lineup))
        places, decisions, seconds = unit.places, unit.decisions, unit.seconds
        play_rotation = self.loop.play_rotation

        def game(deal: int, rotation: int) -> None:
            i = deal - start
            play_rotation(self, deal, rotation, pace, places[i, rotation],
                          decisions[i, rotation], seconds[i, rotation])

        return unit.head(play_deals(start, stop, self.players, pace, game) - start)

    def merge(self, parts: list[Unit]) -> Unit:
        return Unit.join(parts)

    def result(self, parts: list[Unit]) -> ArenaResult | None:
        return ArenaResult.completed(self.names, self.players, self.seed, parts)


@dataclass(frozen=True, slots=True)
class TeamWork(_SeatingWork[TeamUnit, DuplicateResult]):
    """Every board in both team seatings, each game played by ``loop`` (the game's): team A
    and team B of ``teams`` (as the loop takes them) named ``names``; a board is a whole
    match (``mode`` "match", stopped undecided after ``hand_cap`` hands) or its first hand."""

    loop: TeamLoop
    teams: tuple[Any, Any]
    names: tuple[str, str]
    mode: str
    seed: int
    hand_cap: int
    rules: Any
    seating: TeamSeatings = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "seating", TeamSeatings())

    @property
    def per_deal(self) -> int:
        return 2

    def play(self, start: int, stop: int, pace: Pace | None) -> TeamUnit:
        unit = TeamUnit.empty(start, stop - start)
        play_seating = self.loop.play_seating

        def game(board: int, seating: int) -> None:
            play_seating(self, board, seating, pace, unit, board - start)

        return unit.head(play_deals(start, stop, 2, pace, game) - start)

    def merge(self, parts: list[TeamUnit]) -> TeamUnit:
        return TeamUnit.join(parts)

    def result(self, parts: list[TeamUnit]) -> DuplicateResult | None:
        if not any(p.stop > p.start for p in parts):
            return None
        return DuplicateResult(self.names, self.mode, self.seed, self.hand_cap, parts)  # type: ignore[arg-type]


# --- a request, checked ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True, eq=False)
class Run:
    """A checked request of ``game``: what the engine plays (``work``, ``deals``), what its
    results file holds (``header``), and what ``tienlen sim`` says of it: ``labels`` (the
    lineup as asked, in the progress bar and the JSON), ``noun`` (what ``games`` counts:
    games, hands or matches), ``note`` (a line about its rules, or None)."""

    game: str
    work: RotationWork | TeamWork
    deals: int
    header: RunHeader | TeamHeader
    labels: tuple[str, ...]
    noun: str
    note: str | None

    @property
    def games(self) -> int:
        return self.deals * self.work.per_deal

    @property
    def per_deal(self) -> int:
        return self.work.per_deal

    @property
    def seating(self) -> str:
        return self.work.seating.kind

    @property
    def names(self) -> tuple[str, ...]:
        return self.work.names

    @property
    def lineup(self) -> tuple[Any, ...]:
        """The entries as the game's loop takes them (level names, bot factories)."""
        return self.work.lineup if isinstance(self.work, RotationWork) else self.work.teams

    @property
    def title(self) -> str:
        """The game's name as players write it."""
        return title_of(self.game)

    @property
    def unit_games(self) -> int:
        """Games of the fastest bots in a work unit (fewer as the lineup gets slower)."""
        if isinstance(self.work, TeamWork) and self.work.mode == "match":
            return _MATCH_UNIT_GAMES
        return UNIT_GAMES

    def check_unit_games(self, unit_games: int | None, error: type[ValueError] = ArenaError) -> None:
        """Refuse a unit size that is not whole deals (``--unit-games``)."""
        per_deal = self.per_deal
        if unit_games is not None and (type(unit_games) is not int or unit_games < per_deal
                                       or unit_games % per_deal):
            raise error(f"--unit-games must be a positive multiple of "
                        f"{self.work.seating.unit_rule()}; got {unit_games!r:.20}")

    def play(self, *, jobs: int = 1, executor: Executor | None = None,
             progress: Callable[[int, int], None] | None = None, unit_deals: int | None = None,
             done: Iterable[Unit | TeamUnit] = (),
             on_unit: Callable[[Any], None] | None = None) -> ArenaResult | DuplicateResult:
        """Play the run (:func:`tienlen.arena.engine.run_work`): its result, or
        :class:`~tienlen.arena.engine.ArenaInterrupted` on Ctrl-C with the completed
        deals'. ``done`` are the units of an earlier run of the same request (its results
        file's), not played again."""
        check_jobs(jobs)
        finished = _finished(self.work, self.deals, done)
        work: Work[Any, ArenaResult | DuplicateResult] = self.work  # type: ignore[assignment]
        return run_work(work, self.deals, jobs=jobs, executor=executor, progress=progress,
                        on_unit=on_unit, unit_deals=unit_deals, done=finished)


def check_jobs(jobs: object) -> int:
    """``jobs`` if it is a number of worker processes a run may start."""
    if type(jobs) is not int or not 1 <= jobs <= MAX_JOBS:
        raise ArenaError(f"jobs must be a positive int, at most {MAX_JOBS}; got {jobs!r:.20}")
    return jobs


def _finished(work: RotationWork | TeamWork, deals: int, done: Iterable[Any]) -> list[Any]:
    """The units of an earlier run, checked: of this run's kind and shape (their spans are
    the engine's to check)."""
    units = list(done)
    kind = Unit if isinstance(work, RotationWork) else TeamUnit
    for unit in units:
        if not isinstance(unit, kind):
            raise ArenaError(f"done must hold the {kind.__name__}s of this kind of run; "
                             f"got {unit!r:.60}")
        if isinstance(unit, Unit) and isinstance(work, RotationWork):
            shape = (unit.stop - unit.start, work.players, len(work.lineup))
            if unit.places.shape != shape:
                raise ArenaError(f"a finished unit has places of shape {unit.places.shape}, "
                                 f"not {shape}")
    return units


def plan(game: str, lineup: Sequence[Any], games: int, *, players: int | None = None,
         seed: int = 0, rules: Any = None, mode: str = "match", hand_cap: int | None = None,
         labels: Sequence[str] | None = None, loop: RotationLoop | TeamLoop | None = None) -> Run:
    """The checked request to play ``games`` games of the registered ``game`` between the
    ``lineup`` (raises :class:`~tienlen.arena.engine.ArenaError` saying what is wrong).

    A game seated in rotations takes one entry per seat (``players``: the lineup's length
    unless given) and ``games`` a multiple of the players: every deal is played in every
    seat rotation. A game of two teams takes two entries, team A then team B, each seating
    two partners, and ``games`` an even number: every board is played in both seatings;
    ``mode`` "match" plays whole matches (stopped undecided after ``hand_cap`` hands),
    "hand" the first hand of each. Entries are the game's bot levels or picklable factories
    of its bots (``functools.partial(make_bot, "L3", iterations=100)``); ``rules`` the
    game's rules (None: its default). ``loop`` plays the game another way than its own
    (:class:`~tienlen.arena.loops.TableLoop`: through the table protocol).
    """
    if not isinstance(game, str):
        raise ArenaError(f"game must be a registered game's name; got {game!r:.40}")
    try:
        loop = loop_of(game) if loop is None else loop
    except ValueError as error:      # an unknown game
        raise ArenaError(str(error)) from None
    lineup = tuple(lineup)
    if loop.seating == ROTATIONS:
        return _plan_rotations(game, loop, lineup, games, players, seed, rules,  # type: ignore[arg-type]
                               labels)
    return _plan_teams(game, loop, lineup, games, players, seed, rules, mode, hand_cap,  # type: ignore[arg-type]
                       labels)


def _checked(step: Callable[[], Any]) -> Any:
    """``step()``, its ValueError (a game's own words) an :class:`ArenaError`."""
    try:
        return step()
    except ArenaError:
        raise
    except (ValueError, TypeError) as error:
        raise ArenaError(str(error)) from None


def _plan_rotations(game: str, loop: RotationLoop, lineup: tuple[Any, ...], games: object,
                    players: int | None, seed: int, rules: Any,
                    labels: Sequence[str] | None) -> Run:
    count = len(lineup) if players is None else players
    players = _checked(lambda: loop.check_players(count))
    if len(lineup) != players:
        raise ArenaError(f"the lineup needs one bot per seat: {players} entries, got {len(lineup)}")
    if type(games) is not int or games < players or games % players:
        raise ArenaError(
            f"games must be a positive multiple of players ({players}), so that every bot "
            f"sits in every seat equally; got {games!r:.20}")
    most = min(getattr(loop, "max_games", MAX_GAMES), MAX_GAMES)
    if games > most:
        raise ArenaError(
            f"games must be at most {most:,} per run (the result keeps every game's places "
            f"in memory); got {games:,}: split a longer run over several seeds")
    check_seed(seed, ArenaError)
    rules = _checked(lambda: loop.rules(rules))
    names = unique_names(_checked(lambda: [loop.entry_name(e) for e in lineup]))
    work = RotationWork(loop, lineup, players, seed, rules, names)
    header = RunHeader(tuple(loop.label(e) for e in lineup), names, players, seed,
                       rules, engine_version(), game)
    return Run(game, work, games // players, header, _labels(labels, lineup, names), "games",
               loop.rules_note(rules))


def _plan_teams(game: str, loop: TeamLoop, lineup: tuple[Any, ...], games: object,
                players: int | None, seed: int, rules: Any, mode: str, hand_cap: int | None,
                labels: Sequence[str] | None) -> Run:
    if len(lineup) != 2:
        raise ArenaError(f"{title_of(game)} is played by two teams: give team A then team B; "
                         f"got {len(lineup)} entries")
    if players not in (None, 4):
        raise ArenaError(f"{title_of(game)} is played by four; got players={players!r:.20}")
    if mode not in MODES:
        raise ArenaError(f"mode must be 'match' (whole matches) or 'hand' (first hands); "
                         f"got {mode!r:.20}")
    noun = "matches" if mode == "match" else "hands"
    if type(games) is not int or games < 2 or games % 2:
        raise ArenaError(f"{noun} must be a positive even number (each board is played in "
                         f"both seatings); got {games!r:.20}")
    if games > loop.max_games:
        raise ArenaError(f"{noun} must be at most {loop.max_games:,} per run; got {games:,}")
    cap = loop.default_hand_cap if hand_cap is None else hand_cap
    if type(cap) is not int or not 1 <= cap <= loop.max_hand_cap:
        raise ArenaError(f"hand_cap must be an int in 1..{loop.max_hand_cap}; got {cap!r:.20}")
    check_seed(seed, ArenaError)
    rules = _checked(lambda: loop.rules(rules))
    a, b = _checked(lambda: [loop.entry_name(t) for t in lineup])
    work = TeamWork(loop, (lineup[0], lineup[1]), (a, b), mode, seed, cap, rules)
    header = TeamHeader((a, b), mode, seed, cap, rules, game, loop.schema)
    return Run(game, work, games // 2, header, _labels(labels, lineup, (a, b)), noun,
               loop.rules_note(rules))


def _labels(labels: Sequence[str] | None, lineup: tuple[Any, ...],
            names: tuple[str, ...]) -> tuple[str, ...]:
    if labels is not None:
        return tuple(labels)
    return tuple(e if isinstance(e, str) else name for e, name in zip(lineup, names))


def simulate(game: str, lineup: Sequence[Any], games: int, *, players: int | None = None,
             seed: int = 0, rules: Any = None, mode: str = "match", hand_cap: int | None = None,
             jobs: int = 1, executor: Executor | None = None,
             progress: Callable[[int, int], None] | None = None,
             unit_deals: int | None = None, done: Iterable[Unit | TeamUnit] = (),
             on_unit: Callable[[Any], None] | None = None) -> ArenaResult | DuplicateResult:
    """Play ``games`` games of the registered ``game`` between the ``lineup`` and return
    the statistics: an :class:`~tienlen.arena.stats.ArenaResult` for a game seated in
    rotations, a :class:`~tienlen.arena.stats.DuplicateResult` for a game of two teams
    (:func:`plan` says what a request may be).

    ``jobs > 1`` plays on that many worker processes; ``executor`` (any
    :class:`concurrent.futures.Executor`, a Dask cluster's: :mod:`tienlen.arena.scale`)
    plays there instead. ``progress(done, total)`` is called as games complete: per game
    (at most every 50 ms) in this process and on the arena's own workers, per task on an
    executor. Ctrl-C raises :class:`~tienlen.arena.engine.ArenaInterrupted` (a
    ``KeyboardInterrupt``) holding the completed deals' result; the arena's own workers
    stop within one decision.

    Streaming and resuming (:mod:`tienlen.arena.files`): with ``unit_deals`` the deals are
    played in work units of that many deals, on multiples of it; ``on_unit`` is called in
    this process with each unit as it completes (and, on Ctrl-C, with the completed deals of
    the units in play); the units in ``done`` (an earlier run's) are not played again. None
    of this changes the results.
    """
    return plan(game, lineup, games, players=players, seed=seed, rules=rules, mode=mode,
                hand_cap=hand_cap).play(jobs=jobs, executor=executor, progress=progress,
                                        unit_deals=unit_deals, done=done, on_unit=on_unit)


def entry_names(game: str, lineup: Sequence[Any]) -> tuple[str, ...]:
    """The names a run of ``game`` gives the lineup's entries (in a rotation run repeats
    get ``#2``, ``#3``).

    >>> entry_names("tienlen", ["L1", "random", "L1"])
    ('L1', 'random', 'L1 #2')
    """
    loop = _checked(lambda: loop_of(game))
    names = tuple(_checked(lambda: [loop.entry_name(e) for e in lineup]))
    return unique_names(names) if loop.seating == ROTATIONS else names


# --- any registered game through the table protocol -------------------------------------------


def table_work(game: str, lineup: Sequence[str], games: int, *, players: int | None = None,
               seed: int = 0) -> tuple[RotationWork, int]:
    """The checked work of playing ``game`` through the table protocol
    (:class:`~tienlen.arena.loops.TableLoop`), and its number of deals."""
    run = plan(game, lineup, games, players=players, seed=seed, loop=TableLoop(game))
    assert isinstance(run.work, RotationWork)
    return run.work, run.deals


def run_table(game: str, lineup: Sequence[str], games: int, *, players: int | None = None,
              seed: int = 0, jobs: int = 1, executor: Executor | None = None,
              progress: Callable[[int, int], None] | None = None,
              unit_deals: int | None = None, done: Iterable[Unit] = (),
              on_unit: Callable[[Unit], None] | None = None) -> ArenaResult:
    """Play ``games`` games of the registered ``game`` between the ``lineup`` (one of the
    spec's bot levels per seat) through the table protocol, each deal in every seat
    rotation, whether or not the game has a loop of its own; the other arguments as for
    :func:`simulate`."""
    run = plan(game, lineup, games, players=players, seed=seed, loop=TableLoop(game))
    result = run.play(jobs=jobs, executor=executor, progress=progress, unit_deals=unit_deals,
                      done=done, on_unit=on_unit)
    assert isinstance(result, ArenaResult)
    return result


#: The result of a run of either seating.
Result = Union[ArenaResult, DuplicateResult]
