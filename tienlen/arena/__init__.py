"""The arena, written once for every game: bots against bots over many deals, each deal in
every seat rotation or both team seatings so that the luck of the deal cancels out, with
the statistics, the results files and the runners (this process, a process pool of its
own, a Dask cluster).

=========================  =================================================================
:mod:`.engine`             the runners: units of deals, a pool of its own, any executor,
                           Ctrl-C and SIGTERM, progress, resume of units
:mod:`.seatings`           seat rotations and team seatings as data, and the units of deals
:mod:`.stats`              the statistics: per-seat places, per-team matches, hands, places
                           and levels, intervals, paired tests
:mod:`.loops`              how a game's own per-game loop is found (its spec), and the
                           table protocol's loop for a game with none
:mod:`.runs`               a run of any game: checked (:func:`plan`), played
                           (:func:`simulate`)
:mod:`.files`              results files (JSON lines, Parquet): header, resume, lock, reading
:mod:`.scale`              Dask executors, unit sizes, ``tienlen sim``'s file and cluster setup
:mod:`.lockfile`           one writer per results file
=========================  =================================================================

>>> from tienlen.arena import simulate
>>> simulate("tienlen", ["L1", "L1"], 4, seed=1).games
4
>>> str(mean_interval(np.array([1.0, 2.0, 3.0])).value)
'2.0'
"""

from __future__ import annotations

import importlib
import warnings
from typing import Any

import numpy as np

from tienlen.arena.engine import (MAX_GAMES, MAX_JOBS, ArenaError, ArenaInterrupted, Pace,
                                  Stopped, Work, run_work)
from tienlen.arena.files import GamesFile, ResultsError, load, read
from tienlen.arena.runs import Run, plan, run_table, simulate
from tienlen.arena.seatings import Rotations, TeamSeatings, TeamUnit, Unit
from tienlen.arena.stats import (ArenaResult, BotStats, Comparison, DuplicateResult, Entry,
                                 Interval, TeamComparison, TeamStats, mean_interval,
                                 paired_test)

__all__ = ["ArenaError", "ArenaInterrupted", "ArenaResult", "BotStats", "Comparison",
           "DuplicateResult", "Entry", "GamesFile", "Interval", "MAX_GAMES", "MAX_JOBS", "Pace",
           "ResultsError", "Rotations", "Run", "Stopped", "TeamComparison", "TeamSeatings",
           "TeamStats", "TeamUnit", "Unit", "Work", "load", "mean_interval", "paired_test",
           "plan", "read", "run_table", "run_work", "simulate"]

_ = np   # (the doctest's arrays)


# `tienlen.arena` was Tiến Lên's arena module before it became this package (0.2.0): its
# game-specific names still resolve here, with a warning, for two minor releases.
def __getattr__(name: str) -> Any:
    if name == "run":
        warnings.warn("tienlen.arena.run is deprecated: use tienlen.arena.simulate('tienlen', "
                      "lineup, games, ...) (moved in 0.2.0)", DeprecationWarning, stacklevel=2)
        return importlib.import_module("tienlen.games.tienlen.arena")._run
    if name == "entry_names":
        warnings.warn("tienlen.arena.entry_names is deprecated: use "
                      "tienlen.arena.runs.entry_names('tienlen', lineup) (moved in 0.2.0)",
                      DeprecationWarning, stacklevel=2)
        return importlib.import_module("tienlen.games.tienlen.arena")._entry_names
    if name == "BotSpec":
        warnings.warn("tienlen.arena.BotSpec is deprecated: use "
                      "tienlen.games.tienlen.arena.BotSpec (moved in 0.2.0)", DeprecationWarning,
                      stacklevel=2)
        return importlib.import_module("tienlen.games.tienlen.arena").BotSpec
    raise AttributeError(f"module 'tienlen.arena' has no attribute {name!r}")
