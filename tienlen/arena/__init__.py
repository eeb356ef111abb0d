"""The arena, written once for every game: the engine that plays units of deals (in this
process, on a pool of its own, or on a Dask cluster), the statistics, the results files and
the lock that keeps one writer per file.

>>> from tienlen.arena import mean_interval
>>> import numpy as np
>>> print(mean_interval(np.array([1.0, 2.0, 3.0])))
2.000 [0.868, 3.132]
"""

from __future__ import annotations

import importlib
import warnings
from typing import Any

from tienlen.arena.engine import (MAX_GAMES, MAX_JOBS, ArenaError, ArenaInterrupted, ArenaResult,
                                  BotStats, Comparison, Interval, Pace, Stopped, Unit, Work,
                                  mean_interval, paired_test, run_work)

__all__ = ["ArenaError", "ArenaInterrupted", "ArenaResult", "BotStats", "Comparison", "Interval",
           "MAX_GAMES", "MAX_JOBS", "Pace", "Stopped", "Unit", "Work", "mean_interval",
           "paired_test", "run_work"]

# `tienlen.arena` was Tiến Lên's arena module before it became this package (0.2.0): its
# game-specific names still resolve here, with a warning, for two minor releases.
_TIENLEN_NAMES = ("run", "BotSpec", "Entry", "entry_names")


def __getattr__(name: str) -> Any:
    if name in _TIENLEN_NAMES:
        warnings.warn(f"tienlen.arena.{name} is deprecated: use tienlen.games.tienlen.arena.{name} "
                      "(moved in 0.2.0)", DeprecationWarning, stacklevel=2)
        return getattr(importlib.import_module("tienlen.games.tienlen.arena"), name)
    raise AttributeError(f"module 'tienlen.arena' has no attribute {name!r}")
