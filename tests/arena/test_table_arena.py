"""The arena engine written once (tienlen.arena.engine, tienlen.arena.files): it imports no
game, the games' arenas import none of each other's modules, and the names that moved
there stay importable from where they were."""

from __future__ import annotations

import subprocess
import sys

import pytest

_TIENLEN_GAME = ("tienlen.games.tienlen.game", "tienlen.games.tienlen.match", "tienlen._core", "tienlen.games.tienlen.core",
                 "tienlen.games.tienlen.bots", "tienlen.games.tienlen.arena", "tienlen.games.tienlen.results", "tienlen.games.tienlen.rules")


def _loaded_after(statement: str) -> set[str]:
    code = ("import sys, tienlen; before = set(sys.modules); " + statement + "; "
            "print(' '.join(sorted(set(sys.modules) - before)))")
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                         text=True).stdout
    return set(out.split())


def test_the_engine_imports_no_game() -> None:
    new = _loaded_after("import tienlen.arena.engine, tienlen.arena.files")
    assert not [m for m in new if "guandan" in m or m in _TIENLEN_GAME], new


@pytest.mark.parametrize("module", ["tienlen.games.guandan.arena", "tienlen.games.guandan.cli",
                                    "tienlen.arena.scale"])
def test_guandan_services_load_no_tienlen_game_module(module: str) -> None:
    new = _loaded_after(f"import {module}")
    assert not [m for m in new if m in _TIENLEN_GAME or m.startswith("tienlen.games.tienlen.bots")], new


def test_the_tienlen_arena_loads_no_guandan_module() -> None:
    new = _loaded_after("import tienlen.games.tienlen.arena, tienlen.games.tienlen.results, tienlen.arena.scale")
    assert not [m for m in new if "guandan" in m], new


def test_moved_names_are_the_same_objects_where_they_were() -> None:
    from tienlen.games.tienlen import arena
    from tienlen.games.tienlen import results
    from tienlen.arena import engine
    from tienlen.arena import files

    for name in ("ArenaResult", "ArenaError", "ArenaInterrupted", "Unit", "Work", "Pace",
                 "Stopped", "Interval", "Comparison", "BotStats", "mean_interval",
                 "paired_test", "run_work", "MAX_JOBS", "MAX_GAMES"):
        assert getattr(arena, name) is getattr(engine, name), name
    for name in ("ResultsError", "int_field", "int_column", "float_column", "span_field"):
        assert getattr(results, name) is getattr(files, name), name
    assert issubclass(files.ResultsError, engine.ArenaError)
    assert issubclass(engine.ArenaError, ValueError)


def test_one_parquet_writer_for_every_game() -> None:
    """Issue 25: both games' Parquet games files are written and read by
    tienlen.arena.files.ParquetUnits; no game module calls pyarrow's Parquet I/O itself."""
    import inspect

    from tienlen.games.tienlen import results
    from tienlen.games.guandan import arena as guandan_arena
    from tienlen.arena import files

    assert "write_table" in inspect.getsource(files.ParquetUnits)
    for module in (results, guandan_arena):
        source = inspect.getsource(module)
        assert "ParquetUnits(" in source, module.__name__
        assert "write_table" not in source and "read_table" not in source, module.__name__
