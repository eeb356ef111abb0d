"""The services written once (issue 25) play a game tienlen does not know: the toy game of
tests/toy_game.py, registered for these tests only, through the generic arena
(tienlen.arena), `tienlen sim --game toy` with --out (.jsonl and .parquet) and
--resume, and a Dask cluster, with nothing in those modules written for it."""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

from tienlen.arena import files
from tienlen.cli import main
from tienlen.arena import ArenaError, Unit, run_table, simulate

from toy_game import registered


@pytest.fixture
def toy():
    with registered() as spec:
        yield spec


def _same(a, b) -> bool:
    return (a.names == b.names and a.places.shape == b.places.shape
            and bool((a.places == b.places).all()) and bool((a.decisions == b.decisions).all()))


def test_the_arena_plays_the_toy_in_every_rotation_the_same_on_any_runner(toy):
    serial = run_table("toy", ["low", "random", "random"], 30, seed=4)
    assert serial.games == 30 and serial.deals == 10 and serial.names == (
        "toy-low", "toy-random", "toy-random #2")
    # every rotation of every deal: each entry places 1..3, each place once per game
    assert sorted(serial.places[0, 0].tolist()) == [1, 2, 3]
    assert (np.sort(serial.places, axis=2) == [1, 2, 3]).all()
    # the greedy bot beats two random ones on average
    assert serial.compare("toy-low", ["toy-random", "toy-random #2"]).diff.value < 0
    units: list[Unit] = []
    with ThreadPoolExecutor(2) as pool:
        threaded = run_table("toy", ["low", "random", "random"], 30, seed=4, executor=pool,
                             unit_deals=3, on_unit=units.append)
    assert _same(threaded, serial) and sorted(u.start for u in units) == [0, 3, 6, 9]
    assert _same(run_table("toy", ["low", "random", "random"], 30, seed=4, jobs=2), serial)
    assert not _same(run_table("toy", ["low", "random", "random"], 30, seed=5), serial)
    # resuming from the first units plays only the rest
    again = run_table("toy", ["low", "random", "random"], 30, seed=4, unit_deals=3,
                      done=units[:2])
    assert _same(again, serial)
    with pytest.raises(ArenaError, match="multiple of players"):
        run_table("toy", ["low", "low"], 3)
    with pytest.raises(ArenaError, match="unknown toy bot level"):
        run_table("toy", ["L3", "low"], 4)


@pytest.mark.parametrize("suffix", [".jsonl", ".parquet"])
def test_sim_game_toy_writes_and_resumes_results_files(toy, tmp_path: Path, suffix, capsys):
    if suffix == ".parquet":
        pytest.importorskip("pyarrow")
    out = tmp_path / f"games{suffix}"
    args = ["sim", "--game", "toy", "--bots", "low,random", "--seed", "3", "--out", str(out)]
    assert main([*args, "--games", "8", "--unit-games", "4"]) == 0
    first = files.load(out)
    assert first.games == 8
    assert main([*args, "--games", "20", "--unit-games", "4", "--resume"]) == 0
    assert "resuming" in capsys.readouterr().err
    on_file = files.read(out)
    assert on_file.header.game == "toy" and on_file.header.rules is None
    assert _same(files.load(out), run_table("toy", ["low", "random"], 20, seed=3))
    # the file names its game: a Tiến Lên run may not resume it
    assert main(["sim", "--game", "chess", "--games", "4"]) == 2
    assert "unknown game 'chess'" in capsys.readouterr().err
    assert main(["sim", "--bots", "L1,random", "--players", "2", "--seed", "3", "--out",
                 str(out), "--games", "20", "--resume"]) != 0
    assert "game is toy" in capsys.readouterr().err


def test_sim_game_toy_prints_the_table_and_json(toy, tmp_path: Path, capsys):
    path = tmp_path / "r.json"
    assert main(["sim", "--game", "toy", "--bots", "low", "--games", "9", "--json",
                 str(path)]) == 0
    out = capsys.readouterr().out
    assert "toy-low #3" in out
    record = json.loads(path.read_text())
    assert [b["name"] for b in record["bots"]] == ["toy-low", "toy-low #2", "toy-low #3"]
    # The record names its game and claims no Tiến Lên ruleset (issue 25).
    assert record["game"] == "toy" and record["rules"] is None


def test_a_dask_cluster_plays_the_toy(toy):
    distributed = pytest.importorskip("distributed")
    from tienlen.arena.scale import ClientExecutor

    serial = run_table("toy", ["random", "low"], 40, seed=8)
    # Threads in this process: the workers see the toy registered here.
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as local:
        with distributed.Client(local, set_as_default=False) as client:
            result = run_table("toy", ["random", "low"], 40, seed=8,
                               executor=ClientExecutor(client), unit_deals=4)
    assert _same(result, serial)
