"""Guandan in the arena: its per-game loop, what the arena (:mod:`tienlen.arena`) plays in
both team seatings of every board. The arena finds it through the game's spec
(``get_spec("guandan").arena``, :data:`ARENA`); this module imports none of the arena's.

A *board* is one seed: in ``"match"`` mode a whole :class:`~tienlen.games.guandan.match.Match`
(tribute, levels, 过A) played until a team wins at A or the hand cap; in ``"hand"`` mode the
first hand of that match (level 2, no tribute). Every board is played twice, in the two
seatings of :class:`tienlen.arena.seatings.TeamSeatings`: team A holds the match's first
team's seats (0 and 2) and then its second's (1 and 3), team B the others. The cards (each
hand's deal comes from the board's seed and the hand's index), the first leader and every
seat's bot seed are the same in both games, so a team's edge from good cards in one seating
is the other team's in the next. The statistics, over boards, are
:class:`tienlen.arena.stats.DuplicateResult`'s; the games files, whose schema is
:data:`SCHEMA`, are :mod:`tienlen.arena.files`'.

>>> from tienlen.arena import simulate
>>> result = simulate("guandan", ["L2", "L1"], 8, mode="hand", seed=1)
>>> result.games, result.boards, [t.name for t in result.teams()]
(8, 4, ['L2+L2', 'L1+L1'])
>>> simulate("guandan", ["L1", "L1"], 6, mode="hand", seed=3).compare("places").diff.value
0.0
>>> ARENA.entry_name("l2")
'L2+L2'
"""

from __future__ import annotations

import importlib
import time
import warnings
from collections.abc import Callable, Iterable, Sequence
from typing import Any, ClassVar, Final, Union

from tienlen import seeds as _seeds
from tienlen.games.guandan.bots import Bot, make_bot
from tienlen.games.guandan.errors import GuandanError
from tienlen.games.guandan.match import Match
from tienlen.games.guandan.rules import RuleConfig

__all__ = ["ARENA", "GuandanLoop", "TeamSpec", "board_seed", "bot_seed", "DEFAULT_HAND_CAP",
           "MAX_HAND_CAP", "MAX_GAMES", "SCHEMA"]

#: A team: a level name for :func:`tienlen.games.guandan.bots.make_bot` ("L1", "L2", "L3"), or
#: a picklable callable taking ``seed=`` and returning a :class:`~tienlen.games.guandan.bots.Bot`
#: (say ``functools.partial(make_bot, "L3", iterations=100)``). Both players of a team
#: are built from it, each with its own seed.
TeamSpec = Union[str, Callable[..., Bot]]
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
#: The most levels a won hand gains under any RuleConfig (double_down_levels <= 12, G7.1).
_MAX_GAIN: Final = 12

#: The match seed of board ``board`` (0-based) of a run with ``seed``
#: (:func:`tienlen.seeds.board_seed`).
board_seed = _seeds.board_seed
#: The seed of the bot in ``seat`` on ``board``: the same in both seatings, so that equal
#: teams play the two games of a board identically (:func:`tienlen.seeds.board_bot_seed`).
bot_seed = _seeds.board_bot_seed


def _build(spec: TeamSpec, seed: int) -> Bot:
    bot = make_bot(spec, seed=seed) if isinstance(spec, str) else spec(seed=seed)
    if not isinstance(bot, Bot):
        raise GuandanError(f"the bot factory {spec!r} returned {bot!r}, not a Guandan Bot")
    return bot


class GuandanLoop:
    """Guandan's loop for the arena (the protocol: :class:`tienlen.arena.loops.TeamLoop`)."""

    seating: ClassVar[str] = "teams"
    schema: ClassVar[str] = SCHEMA
    default_hand_cap: ClassVar[int] = DEFAULT_HAND_CAP
    max_hand_cap: ClassVar[int] = MAX_HAND_CAP
    max_games: ClassVar[int] = MAX_GAMES
    max_gain: ClassVar[int] = _MAX_GAIN

    def __reduce__(self) -> str:
        return "ARENA"          # pickled by name: the one loop of this module

    def entry_name(self, entry: Any) -> str:
        """``"L3+L3"`` for a team of two L3 bots (a factory: the name its bots give)."""
        if not (isinstance(entry, str) or callable(entry)):
            raise GuandanError(f"a team is a level name or a bot factory; got {entry!r}")
        try:
            name = _build(entry, 0).name
        except GuandanError as error:
            if "not a Guandan Bot" in str(error):
                raise
            raise GuandanError(f"cannot make the team's bots: {error}") from None
        except (ValueError, TypeError) as error:   # an unknown level, an option it lacks
            raise GuandanError(f"cannot make the team's bots: {error}") from None
        return f"{name}+{name}"

    def label(self, entry: Any) -> str:
        return self.entry_name(entry)

    def rules(self, value: Any) -> RuleConfig:
        if value is None:
            return RuleConfig()
        if not isinstance(value, RuleConfig):
            raise GuandanError(f"rules (config) must be a RuleConfig; got {value!r:.60}")
        return value

    def rules_to_json(self, rules: RuleConfig) -> Any:
        return rules.to_dict()

    def rules_from_json(self, value: Any) -> RuleConfig:
        if not isinstance(value, dict):
            raise GuandanError(f"config must be a RuleConfig's fields; got {value!r:.40}")
        return RuleConfig.from_dict(value)

    def rules_note(self, rules: RuleConfig) -> str | None:
        standard = RuleConfig().to_dict()
        changed = [f"{k}={v}" for k, v in rules.to_dict().items() if standard.get(k) != v]
        return f"Rules: {', '.join(changed)}" if changed else None

    def play_seating(self, work: Any, board: int, seating: int, pace: Any, unit: Any,
                     i: int) -> None:
        """One game of the arena (see :class:`tienlen.arena.loops.TeamLoop`)."""
        # The match itself stops at the cap (no winner), so the loop only asks is_over.
        cap = 1 if work.mode == "hand" else work.hand_cap
        match = Match(board_seed(work.seed, board), work.rules, max_hands=cap)
        seats = work.seating
        team_at = seats.team_at(match.teams, seating)
        bots = [_build(work.teams[team_at[s]], seats.bot_seed(work.seed, board, s))
                for s in range(4)]
        unit.a_seats[i, seating] = seats.sides(match.teams, seating)[0]
        clock = time.perf_counter
        decisions, seconds = unit.decisions[i, seating], unit.seconds[i, seating]
        while not match.is_over:
            seat = match.turn
            assert seat is not None   # someone acts until the match is over
            team = team_at[seat]
            t0 = clock()
            try:
                kind, cards = bots[seat].decide(match.game.view(seat))
            except Exception as error:
                raise work.bot_raised(bots[seat].name, seat, f"board {board}, seating "
                                      f"{seating}, hand {match.hand_number}", error) from error
            t1 = clock()
            seconds[team] += t1 - t0
            decisions[team] += 1
            try:
                match.act(kind, cards, seat)
            except ValueError as error:
                raise work.illegal(bots[seat].name, seat, f"board {board}, seating {seating}, "
                                   f"hand {match.hand_number}", f"{kind} {cards}",
                                   error) from error
            if pace is not None and pace.due(t1):
                pace.poll(t1)
        results = match.results
        unit.hands[i, seating] = len(results)
        for hand in results:
            won = team_at[hand.places[0]]
            unit.hand_wins[i, seating, won] += 1
            unit.levels[i, seating, won] += hand.gain
            for place, seat in enumerate(hand.places, start=1):
                unit.place_sums[i, seating, team_at[seat]] += place
        if work.mode == "match" and match.winner is not None:
            # The match's team index -> A or B: A holds match.teams[seating].
            unit.match_wins[i, seating, 0 if match.winner == seating else 1] = 1


#: The loop the spec lends the arena.
ARENA = GuandanLoop()


# --- deprecated names (0.2.0, issue 34): the arena's, lent with a warning until 0.4.0 --------
#
# This module was the whole Guandan duplicate arena, with its own statistics and games
# files; the arena is written once now (tienlen.arena). Its old names resolve on first use,
# by name (deprecation re-exports: the game imports no service), their old errors included:
# DuplicateError, GamesFileError and DuplicateInterrupted are the arena's ArenaError,
# ResultsError and ArenaInterrupted.

_MOVED = {
    "DuplicateResult": ("tienlen.arena.stats", "DuplicateResult"),
    "TeamStats": ("tienlen.arena.stats", "TeamStats"),
    "TeamComparison": ("tienlen.arena.stats", "TeamComparison"),
    "STATISTICS": ("tienlen.arena.stats", "STATISTICS"),
    "DuplicateUnit": ("tienlen.arena.seatings", "TeamUnit"),
    "Mode": ("tienlen.arena.seatings", "Mode"),
    "MODES": ("tienlen.arena.seatings", "MODES"),
    "DuplicateError": ("tienlen.arena.engine", "ArenaError"),
    "DuplicateInterrupted": ("tienlen.arena.engine", "ArenaInterrupted"),
    "GamesFileError": ("tienlen.arena.files", "ResultsError"),
}


def _arena(name: str) -> Any:
    return importlib.import_module(f"tienlen.arena.{name}")


def _mode(matches: int | None, hands: int | None) -> tuple[str, Any]:
    if (matches is None) == (hands is None):
        raise _arena("engine").ArenaError(
            "give matches= (whole matches) or hands= (first hands), not "
            f"{'both' if matches is not None else 'neither'}")
    return ("match", matches) if matches is not None else ("hand", hands)


def _check_request(team_a: TeamSpec, team_b: TeamSpec, *, matches: int | None = None,
                   hands: int | None = None, seed: int = 0, jobs: int = 1,
                   hand_cap: int = DEFAULT_HAND_CAP,
                   config: RuleConfig | None = None) -> tuple[str, int, tuple[str, str]]:
    """The old ``check_request``: the mode, games and team names of a request."""
    mode, games = _mode(matches, hands)
    runs = _arena("runs")
    runs.check_jobs(jobs)
    run = runs.plan("guandan", [team_a, team_b], games, seed=seed, rules=config, mode=mode,
                    hand_cap=hand_cap)
    return mode, games, run.names


def _run(team_a: TeamSpec, team_b: TeamSpec, *, matches: int | None = None,
         hands: int | None = None, seed: int = 0, jobs: int = 1,
         hand_cap: int = DEFAULT_HAND_CAP, config: RuleConfig | None = None,
         progress: Callable[[int, int], None] | None = None,
         on_unit: Callable[[Any], None] | None = None, executor: Any = None,
         unit_deals: int | None = None, done: Iterable[Any] = ()) -> Any:
    """The old ``run(team_a, team_b, matches= | hands=, ...)``: :func:`tienlen.arena.simulate`
    of Guandan."""
    mode, games = _mode(matches, hands)
    return _arena("runs").simulate("guandan", [team_a, team_b], games, seed=seed, jobs=jobs,
                                   mode=mode, hand_cap=hand_cap, rules=config,
                                   progress=progress, on_unit=on_unit, executor=executor,
                                   unit_deals=unit_deals, done=done)


def _games_writer(path: Any, *, teams: Sequence[str], mode: str, seed: int, hand_cap: int,
                  games: int, config: RuleConfig | None = None, resume: bool = False) -> Any:
    """The old ``GamesWriter(path, teams=, ...)``: :meth:`tienlen.arena.files.GamesFile.open`
    of a team run's header."""
    files = _arena("files")
    rules = RuleConfig() if config is None else config
    header = files.TeamHeader((teams[0], teams[1]), mode, seed, hand_cap, rules, "guandan",
                              SCHEMA)
    return files.GamesFile.open(path, header, games=games, resume=resume)


def _load(path: Any) -> Any:
    """The old ``load(path)``: :func:`tienlen.arena.files.load` of a Guandan games file."""
    return _arena("files").load(path, schema=SCHEMA)


def _team_name(spec: TeamSpec) -> str:
    """The old ``team_name(spec)``: ``"L3+L3"``."""
    name: str = _arena("runs").entry_names("guandan", [spec])[0]
    return name


def _team_seats(match: Match, seating: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The old ``team_seats(match, seating)``."""
    sides: tuple[tuple[int, ...], tuple[int, ...]] = _arena("seatings").TeamSeatings.sides(
        match.teams, seating)
    return sides


_WRAPPED: dict[str, tuple[Callable[..., Any], str]] = {
    "run": (_run, "tienlen.arena.simulate('guandan', [team_a, team_b], games, mode=...)"),
    "check_request": (_check_request, "tienlen.arena.plan('guandan', [team_a, team_b], games, "
                                      "mode=...)"),
    "GamesWriter": (_games_writer, "tienlen.arena.files.GamesFile.open(path, run.header, ...)"),
    "load": (_load, "tienlen.arena.files.load"),
    "team_name": (_team_name, "tienlen.arena.runs.entry_names('guandan', [team])"),
    "team_seats": (_team_seats, "tienlen.arena.seatings.TeamSeatings.sides(match.teams, seating)"),
}


def __getattr__(name: str) -> Any:
    if name in _WRAPPED:
        function, replacement = _WRAPPED[name]
        warnings.warn(f"tienlen.games.guandan.arena.{name} is deprecated: use {replacement} "
                      "(moved in 0.2.0)", DeprecationWarning, stacklevel=2)
        return function
    if name in _MOVED:
        home, new = _MOVED[name]
        warnings.warn(f"tienlen.games.guandan.arena.{name} is deprecated: use {home}.{new} "
                      "(moved in 0.2.0)", DeprecationWarning, stacklevel=2)
        return getattr(importlib.import_module(home), new)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__, *_WRAPPED, *_MOVED})
