"""Tiến Lên in the arena: its per-game loop, what the arena (:mod:`tienlen.arena`) plays in
every seat rotation of every deal. The arena finds it through the game's spec
(``get_spec("tienlen").arena``, :data:`ARENA`); this module imports none of the arena's.

One game: deal ``d`` (its cards from ``match.hand_seed(seed, d + 1)``) in rotation ``r``,
each lineup entry's bot in its seat of the rotation, played through :class:`Game` directly
(a bot's ``choose`` then ``act``: the fastest checked loop; bench/README.md says what it
buys over the table protocol). After an instant win (R11.3) the other seats share last
place.

>>> from tienlen.arena import simulate
>>> result = simulate("tienlen", ["L1", "random"], 40, seed=3)
>>> [(s.name, s.games) for s in result.stats()]
[('L1', 40), ('random', 40)]
>>> ARENA.entry_name("l2"), ARENA.label(functools.partial(make_bot, "L3", iterations=9))
('L2', "tienlen.games.tienlen.bots.make_bot('L3', iterations=9)")
"""

from __future__ import annotations

import functools
import importlib
import time
import warnings
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Union

import numpy as np

from tienlen.games.tienlen.bots import Bot, make_bot
from tienlen.games.tienlen.game import Game
from tienlen.games.tienlen.match import finishing_places, hand_seed
from tienlen.games.tienlen.rules import Rules
from tienlen.seeds import check_players

__all__ = ["ARENA", "TienlenLoop", "BotSpec"]

#: A lineup entry: a level name for :func:`tienlen.games.tienlen.bots.make_bot`, or a
#: picklable callable taking ``seed=`` and returning a :class:`~tienlen.games.tienlen.bots.Bot`.
BotSpec = Union[str, Callable[..., Bot]]



#: The ruleset of a run given none.
_DEFAULT_RULES = Rules()
#: One instance per ruleset value (bounded as the game's own memo): the game memoises a
#: ruleset's core flags by value, read at every action, and a lookup that finds the very
#: instance it stored skips comparing every field. A fresh but equal Rules() per run cost an
#: L1 game 6.6% (bench/ab_arena.py, issue 34).
_CANONICAL: dict[Rules, Rules] = {_DEFAULT_RULES: _DEFAULT_RULES}
_CANONICAL_LIMIT = 256


def _build(spec: BotSpec, seed: int) -> Bot:
    if not (isinstance(spec, str) or callable(spec)):
        raise ValueError(f"a lineup entry must be a level name or a bot factory; got {spec!r}")
    bot = make_bot(spec, seed=seed) if isinstance(spec, str) else spec(seed=seed)
    if not isinstance(bot, Bot):
        raise ValueError(f"the bot factory {spec!r} returned {bot!r}, not a Bot")
    return bot


def _label(spec: BotSpec) -> str:
    """A lineup entry as stable text: the level name, or the factory's qualified name and
    arguments (never an object address, which differs from run to run)."""
    if isinstance(spec, str):
        return spec
    if isinstance(spec, functools.partial):
        args = [repr(a) for a in spec.args] + [f"{k}={v!r}" for k, v in sorted(spec.keywords.items())]
        return f"{_label(spec.func)}({', '.join(args)})"
    return f"{getattr(spec, '__module__', '?')}.{getattr(spec, '__qualname__', type(spec).__qualname__)}"


class TienlenLoop:
    """Tiến Lên's loop for the arena (the protocol: :class:`tienlen.arena.loops.RotationLoop`)."""

    seating: ClassVar[str] = "rotations"
    #: The result keeps every game's places in memory (a byte per entry).
    max_games: ClassVar[int] = 10_000_000

    def __reduce__(self) -> str:
        return "ARENA"          # pickled by name: the one loop of this module

    def check_players(self, players: object) -> int:
        return check_players(players)

    def entry_name(self, entry: Any) -> str:
        return _build(entry, 0).name

    def label(self, entry: Any) -> str:
        return _label(entry)

    def rules(self, value: Any) -> Rules:
        if value is None:
            return _DEFAULT_RULES
        if not isinstance(value, Rules):
            raise ValueError(f"rules must be a Rules; got {value!r:.60}")
        try:
            if len(_CANONICAL) >= _CANONICAL_LIMIT:
                _CANONICAL.clear()
                _CANONICAL[_DEFAULT_RULES] = _DEFAULT_RULES
            return _CANONICAL.setdefault(value, value)
        except TypeError:           # a field that cannot be hashed: as it is
            return value

    def rules_to_json(self, rules: Rules) -> Any:
        return rules.to_dict()

    def rules_from_json(self, value: Any) -> Rules:
        return Rules.from_dict(value)

    def rules_note(self, rules: Rules) -> str | None:
        if rules.name == "default":
            return None
        return f"Rules: {rules.name} (RULES.md R11)" if rules.name == "southern" else f"Rules: {rules.name}"

    def play_rotation(self, work: Any, deal: int, rotation: int, pace: Any,
                      places: np.ndarray, decisions: np.ndarray, seconds: np.ndarray) -> None:
        """One game of the arena (see :class:`tienlen.arena.loops.RotationLoop`)."""
        seating, lineup, seed = work.seating, work.lineup, work.seed
        entry_at: Sequence[int] = seating.entry_at(rotation)
        bots = [_build(lineup[e], seating.bot_seed(seed, deal, rotation, e)) for e in entry_at]
        game = Game(work.players, seed=hand_seed(seed, deal + 1), rules=work.rules)
        spent = [0.0] * len(entry_at)
        moves = [0] * len(entry_at)
        clock = time.perf_counter
        while not game.is_over:
            seat = game.turn
            assert seat is not None         # (the hand is not over)
            view = game.view(seat)
            t0 = clock()
            try:
                move = bots[seat].choose(view)
            except Exception as error:
                raise work.bot_raised(bots[seat].name, seat,
                                      f"deal {deal}, rotation {rotation}", error) from error
            t1 = clock()
            spent[seat] += t1 - t0
            moves[seat] += 1
            try:
                game.act(move)
            except ValueError as error:
                raise work.illegal(bots[seat].name, seat, f"deal {deal}, rotation {rotation}",
                                   repr(move), error) from error
            if pace is not None and pace.due(t1):
                pace.poll(t1)
        for seat, place in enumerate(finishing_places(game)):
            e = entry_at[seat]
            places[e] = place
            seconds[e] = spent[seat]
            decisions[e] = moves[seat]


#: The loop the spec lends the arena.
ARENA = TienlenLoop()


# --- deprecated names (0.2.0, issue 34): the arena's, lent with a warning until 0.4.0 --------
#
# This module was Tiến Lên's whole arena; the arena is written once now (tienlen.arena).
# Its old names resolve on first use, by name (a deprecation re-export: the game imports no
# service).

_MOVED = {
    **dict.fromkeys(("ArenaResult", "BotStats", "Comparison", "Entry", "Interval",
                     "mean_interval", "paired_test"), "tienlen.arena.stats"),
    **dict.fromkeys(("ArenaError", "ArenaInterrupted", "MAX_GAMES", "MAX_JOBS", "Pace",
                     "Stopped", "Work", "run_work"), "tienlen.arena.engine"),
    "Unit": "tienlen.arena.seatings",
}


def _run(lineup: Sequence[BotSpec], games: int, *, players: int = 4, seed: int = 0,
         jobs: int = 1, rules: Rules = Rules(), **options: Any) -> Any:
    """The old ``run(lineup, games, players=4, ...)``: :func:`tienlen.arena.simulate` of
    Tiến Lên."""
    runs = importlib.import_module("tienlen.arena.runs")
    return runs.simulate("tienlen", lineup, games, players=players, seed=seed, jobs=jobs,
                         rules=rules, **options)


def _entry_names(lineup: Sequence[BotSpec]) -> tuple[str, ...]:
    """The old ``entry_names(lineup)``: :func:`tienlen.arena.runs.entry_names` of Tiến Lên."""
    names: tuple[str, ...] = importlib.import_module("tienlen.arena.runs").entry_names(
        "tienlen", lineup)
    return names


def __getattr__(name: str) -> Any:
    if name == "run":
        warnings.warn("tienlen.games.tienlen.arena.run is deprecated: use "
                      "tienlen.arena.simulate('tienlen', lineup, games, ...) (moved in 0.2.0)",
                      DeprecationWarning, stacklevel=2)
        return _run
    if name == "entry_names":
        warnings.warn("tienlen.games.tienlen.arena.entry_names is deprecated: use "
                      "tienlen.arena.runs.entry_names('tienlen', lineup) (moved in 0.2.0)",
                      DeprecationWarning, stacklevel=2)
        return _entry_names
    home = _MOVED.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    warnings.warn(f"tienlen.games.tienlen.arena.{name} is deprecated: use {home}.{name} "
                  "(moved in 0.2.0)", DeprecationWarning, stacklevel=2)
    return getattr(importlib.import_module(home), name)


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__, "run", "entry_names", *_MOVED})
