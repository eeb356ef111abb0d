"""One arena for every game (issue 34): tienlen.arena holds the engine, seatings,
statistics, results files and runs, imports no game, and finds each game's per-game loop
through its spec; a game's arena module is that loop alone. The names that lived in the
games' arena modules (and Tiến Lên's results module) still work, with a warning, doing
what they did, their errors included."""

from __future__ import annotations

import functools
import inspect
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tienlen import arena
from tienlen.arena import files, runs, seatings, stats
from tienlen.arena.engine import ArenaError, ArenaInterrupted
from tienlen.arena.loops import TableLoop, loop_of

ARENA_MODULES = ("engine", "seatings", "stats", "loops", "runs", "files", "scale", "lockfile")


def _loaded_after(statement: str) -> set[str]:
    code = ("import sys, tienlen; before = set(sys.modules); " + statement + "; "
            "print(' '.join(sorted(set(sys.modules) - before)))")
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True,
                         text=True).stdout
    return set(out.split())


def test_the_arena_imports_no_game() -> None:
    new = _loaded_after("; ".join(f"import tienlen.arena.{m}" for m in ARENA_MODULES))
    assert not [m for m in new if m.startswith("tienlen.games.") or m in
                ("tienlen._core", "tienlen._guandan")], new


@pytest.mark.parametrize("game, other", [("tienlen", "guandan"), ("guandan", "tienlen")])
def test_a_run_of_one_game_loads_none_of_the_other(game: str, other: str) -> None:
    lineup = '["L1", "L1"]'
    new = _loaded_after(f"from tienlen.arena import simulate; simulate({game!r}, {lineup}, 2, "
                        "mode='hand')" if game == "guandan" else
                        f"from tienlen.arena import simulate; simulate({game!r}, {lineup}, 2)")
    assert f"tienlen.games.{game}.arena" in new
    assert not [m for m in new if m.startswith(f"tienlen.games.{other}")], new


def test_each_game_is_found_through_its_spec() -> None:
    from tienlen.games.guandan.arena import ARENA as GUANDAN
    from tienlen.games.tienlen.arena import ARENA as TIENLEN
    from tienlen.table import get_spec

    assert loop_of("tienlen") is TIENLEN is get_spec("tienlen").arena
    assert loop_of("guandan") is GUANDAN is get_spec("guandan").arena
    assert TIENLEN.seating == seatings.ROTATIONS and GUANDAN.seating == seatings.TEAMS
    # A loop travels to a worker by name: the one loop of its module.
    import pickle

    assert pickle.loads(pickle.dumps(TIENLEN)) is TIENLEN


def test_no_game_writes_or_counts_for_the_arena() -> None:
    """A game's arena module is its per-game loop: no file format, no statistics, no
    runner (each of those is the arena's, once)."""
    from tienlen.games.guandan import arena as guandan
    from tienlen.games.tienlen import arena as tienlen

    for module in (tienlen, guandan):
        source = inspect.getsource(module)
        for written_once in ("write_table", "read_table", "json.dumps", "mean_interval(",
                             "paired_test(", "ProcessPoolExecutor", "play_deals(", "fsync"):
            assert written_once not in source, (module.__name__, written_once)


def test_a_game_with_no_loop_is_played_through_the_table_protocol() -> None:
    from toy_game import registered

    with registered():
        assert loop_of("toy") == TableLoop("toy")
        result = arena.simulate("toy", ["low", "random"], 6, seed=2)
        assert isinstance(result, stats.ArenaResult) and result.names == ("toy-low", "toy-random")
        # run_table plays any game that way, its own loop or not: the same deals and seeds
        table = arena.run_table("toy", ["low", "random"], 6, seed=2)
        assert np.array_equal(table.places, result.places)


def test_run_table_plays_a_game_that_has_a_loop_of_its_own_through_the_protocol() -> None:
    # (bench/ab_arena.py times one against the other: what a game's own loop buys)
    result = arena.run_table("tienlen", ["L1", "L1"], 4, seed=3)
    assert result.games == 4 and sorted(result.places[0, 0].tolist()) == [1, 2]


def test_plan_and_simulate_refuse_what_no_game_plays() -> None:
    with pytest.raises(ArenaError, match="unknown game 'chess'"):
        arena.plan("chess", ["L1"], 2)
    with pytest.raises(ArenaError, match="game must be a registered game's name"):
        arena.plan(3, ["L1"], 2)
    with pytest.raises(ArenaError, match="players must be 2, 3 or 4; got 5"):
        arena.plan("tienlen", ["L1"] * 5, 10)
    with pytest.raises(ArenaError, match="done must hold the TeamUnits"):
        arena.simulate("guandan", ["L1", "L1"], 2, mode="hand",
                       done=[seatings.Unit.empty(0, 1, 2, 2)])


def test_a_run_says_what_it_counts() -> None:
    assert arena.plan("tienlen", ["L1", "L1"], 4).noun == "games"
    assert arena.plan("guandan", ["L1", "L1"], 4).noun == "matches"
    run = arena.plan("guandan", ["L1", "L1"], 4, mode="hand")
    assert (run.noun, run.deals, run.games, run.per_deal, run.names) == (
        "hands", 2, 4, 2, ("L1+L1", "L1+L1"))
    with pytest.raises(ArenaError, match=r"--unit-games must be a positive multiple of 2 \(a "
                                         r"board is two games\); got 3"):
        run.check_unit_games(3)
    from tienlen.games.tienlen.rules import Rules

    southern = arena.plan("tienlen", ["L1", "L1"], 4, rules=Rules.southern())
    assert southern.note == "Rules: southern (RULES.md R11)"
    assert arena.plan("tienlen", ["L1", "L1"], 4).note is None


# --- the old names -----------------------------------------------------------------------------

#: (module, name, the object it is now): lent as it is, with a warning.
MOVED = [
    ("tienlen.games.tienlen.arena", "ArenaResult", stats.ArenaResult),
    ("tienlen.games.tienlen.arena", "Interval", stats.Interval),
    ("tienlen.games.tienlen.arena", "paired_test", stats.paired_test),
    ("tienlen.games.tienlen.arena", "Unit", seatings.Unit),
    ("tienlen.games.tienlen.arena", "ArenaError", ArenaError),
    ("tienlen.games.tienlen.arena", "MAX_GAMES", arena.MAX_GAMES),
    ("tienlen.games.tienlen.results", "GamesFile", files.GamesFile),
    ("tienlen.games.tienlen.results", "RunHeader", files.RunHeader),
    ("tienlen.games.tienlen.results", "ResultsError", files.ResultsError),
    ("tienlen.games.guandan.arena", "DuplicateResult", stats.DuplicateResult),
    ("tienlen.games.guandan.arena", "DuplicateUnit", seatings.TeamUnit),
    ("tienlen.games.guandan.arena", "TeamStats", stats.TeamStats),
    ("tienlen.games.guandan.arena", "DuplicateError", ArenaError),
    ("tienlen.games.guandan.arena", "GamesFileError", files.ResultsError),
    ("tienlen.games.guandan.arena", "DuplicateInterrupted", ArenaInterrupted),
    ("tienlen.games.guandan.arena", "MODES", seatings.MODES),
    ("tienlen.guandan.arena", "DuplicateResult", stats.DuplicateResult),
    ("tienlen.arena.engine", "ArenaResult", stats.ArenaResult),
    ("tienlen.arena.engine", "RotationWork", runs.RotationWork),
    ("tienlen.arena.engine", "run_table", runs.run_table),
    ("tienlen.table.arena", "Unit", seatings.Unit),
]


@pytest.mark.parametrize("module, name, now", MOVED, ids=[f"{m}.{n}" for m, n, _ in MOVED])
def test_a_moved_name_is_the_new_object_with_a_warning(module: str, name: str, now: object) -> None:
    import importlib
    import warnings

    with warnings.catch_warnings():          # (an old module path warns once, on import)
        warnings.simplefilter("ignore", DeprecationWarning)
        old = importlib.import_module(module)
    with pytest.warns(DeprecationWarning, match=rf"{name} is deprecated: use "):
        assert getattr(old, name) is now


def _old(module: str, name: str) -> object:
    import importlib

    with pytest.warns(DeprecationWarning, match=rf"{name} is deprecated"):
        return getattr(importlib.import_module(module), name)


def test_the_old_tienlen_runs_do_what_they_did() -> None:
    run = _old("tienlen.games.tienlen.arena", "run")
    assert np.array_equal(run(["L1", "random"], 8, players=2, seed=4).places,
                          arena.simulate("tienlen", ["L1", "random"], 8, seed=4).places)
    with pytest.raises(ArenaError, match="one bot per seat: 4 entries, got 2"):
        run(["L1", "random"], 8)   # (four players unless told)
    old_run = _old("tienlen.arena", "run")
    assert old_run(["L1"] * 4, 4, seed=1).games == 4
    names = _old("tienlen.arena", "entry_names")
    assert names(["L1", "random", "L1"]) == ("L1", "random", "L1 #2")


def test_the_old_guandan_arena_does_what_it_did(tmp_path: Path) -> None:
    module = "tienlen.games.guandan.arena"
    run, check, writer, load = (_old(module, n) for n in ("run", "check_request", "GamesWriter",
                                                          "load"))
    result = run("L2", "L1", hands=4, seed=1)
    assert result.games_table() == arena.simulate("guandan", ["L2", "L1"], 4, mode="hand",
                                                  seed=1).games_table()
    assert check("L1", "L2", matches=4) == ("match", 4, ("L1+L1", "L2+L2"))
    for kwargs, words in (({}, "neither"), ({"matches": 2, "hands": 2}, "both"),
                          ({"hands": 2, "jobs": 0}, "jobs"), ({"matches": 3}, "even")):
        with pytest.raises(_old(module, "DuplicateError"), match=words):
            check("L2", "L1", **kwargs)
    path = tmp_path / "g.jsonl"
    with writer(path, teams=["L1+L1", "L1+L1"], mode="hand", seed=3,
                hand_cap=100, games=4) as out:
        run("L1", "L1", hands=4, seed=3, on_unit=out.write)
    assert load(path).games == 4
    assert json.loads(path.read_text().splitlines()[0])["schema"] == "tienlen.guandan.games"
    with pytest.raises(_old(module, "GamesFileError"), match="not a Guandan games file"):
        load(_tienlen_file(tmp_path))
    with pytest.raises(ArenaError, match="path must be a file path"):
        load(None)
    assert _old(module, "team_name")("l2") == "L2+L2"
    from tienlen.guandan import Match

    assert _old(module, "team_seats")(Match(1), 1) == ((1, 3), (0, 2))


def _tienlen_file(tmp_path: Path) -> Path:
    path = tmp_path / "t.jsonl"
    run = arena.plan("tienlen", ["L1", "L1"], 2)
    with files.GamesFile.open(path, run.header, games=2) as out:
        run.play(on_unit=out.write)
    return path


def test_the_old_results_module_reads_its_kind_of_file_only(tmp_path: Path) -> None:
    path = _tienlen_file(tmp_path)
    read, load = (_old("tienlen.games.tienlen.results", n) for n in ("read", "load"))
    assert load(path).games == 2 and read(path).played == 2
    guandan = tmp_path / "g.jsonl"
    run = arena.plan("guandan", ["L1", "L1"], 2, mode="hand")
    with files.GamesFile.open(guandan, run.header, games=2) as out:
        run.play(on_unit=out.write)
    with pytest.raises(files.ResultsError, match="not a tienlen games file"):
        load(guandan)


def test_the_old_sim_options_still_open_a_file(tmp_path: Path) -> None:
    from tienlen.arena.scale import sim_options
    from tienlen.games.tienlen.rules import Rules

    out = tmp_path / "g.jsonl"
    with pytest.warns(DeprecationWarning, match="sim_options is deprecated"):
        with sim_options(lineup=["L1", "L1"], games=4, players=2, seed=0, rules=Rules(),
                         jobs=1, scheduler=None, out=out, resume=False,
                         unit_games=None) as options:
            arena.plan("tienlen", ["L1", "L1"], 4).play(**options)
    assert files.load(out).games == 4


def test_the_old_sim_of_a_game_cli_is_the_one_sim() -> None:
    from tienlen.cli import sim

    for module in ("tienlen.games.tienlen.cli", "tienlen.games.guandan.cli"):
        assert _old(module, "run_sim") is sim.run


def test_a_factory_lineup_entry_is_named_by_its_call() -> None:
    from tienlen.games.tienlen.bots import make_bot

    factory = functools.partial(make_bot, "L3", iterations=5)
    run = arena.plan("tienlen", [factory, "L1"], 2)
    assert run.header.lineup == ("tienlen.games.tienlen.bots.make_bot('L3', iterations=5)", "L1")
    assert run.names == ("L3(iterations=5)", "L1") and run.labels == ("L3(iterations=5)", "L1")
