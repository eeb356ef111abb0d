"""Results files users have (tests/data/results/, see its README: written by the versions
before this one, never regenerated) load, hold what a run of the same request plays now
(every run is reproducible from its seed), resume, and write back byte for byte; and a run
now writes the same bytes as the landed version did, but for the seconds spent deciding."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from paths import DATA as TEST_DATA
from tienlen.arena import files, simulate
from tienlen.arena.stats import ArenaResult, DuplicateResult
from tienlen.cli import main

from toy_game import registered

DATA = TEST_DATA / "results"

#: Every file, with the command that wrote it (tests/data/results/README.md) and what a
#: run of the same request is.
FILES: dict[str, tuple[list[str], dict[str, Any]]] = {
    "tienlen-v1.jsonl": (["--bots", "L1,random,random,random", "--games", "8", "--seed", "7"],
                         dict(game="tienlen", lineup=["L1", "random", "random", "random"],
                              games=8, seed=7)),
    "tienlen-v1.parquet": (["--bots", "L1,L2,random", "--players", "3", "--games", "6",
                            "--seed", "9"],
                           dict(game="tienlen", lineup=["L1", "L2", "random"], games=6, seed=9)),
    "guandan-v1.jsonl": (["--game", "guandan", "--bots", "L1,L1", "--matches", "2",
                          "--hand-cap", "3", "--seed", "5"],
                         dict(game="guandan", lineup=["L1", "L1"], games=2, seed=5, hand_cap=3)),
    "tienlen-v2.jsonl": (["--bots", "L1,random,L2", "--players", "3", "--games", "12", "--seed",
                          "21", "--unit-games", "6"],
                         dict(game="tienlen", lineup=["L1", "random", "L2"], games=12, seed=21)),
    "tienlen-v2.parquet": (["--bots", "L1,random", "--players", "2", "--games", "8", "--seed",
                            "22", "--unit-games", "4"],
                           dict(game="tienlen", lineup=["L1", "random"], games=8, seed=22)),
    "guandan-v2.jsonl": (["--game", "guandan", "--bots", "L1,L2", "--hands", "6", "--seed", "23",
                          "--unit-games", "4"],
                         dict(game="guandan", lineup=["L1", "L2"], games=6, seed=23, mode="hand")),
    "guandan-v2.parquet": (["--game", "guandan", "--bots", "L1,L1", "--matches", "4",
                            "--hand-cap", "3", "--seed", "24", "--unit-games", "2"],
                           dict(game="guandan", lineup=["L1", "L1"], games=4, seed=24,
                                hand_cap=3)),
    "guandan-v2-resumed.jsonl": (["--game", "guandan", "--bots", "L1,L1", "--matches", "4",
                                  "--hand-cap", "2", "--seed", "24"],
                                 dict(game="guandan", lineup=["L1", "L1"], games=4, seed=24,
                                      hand_cap=2)),
    "toy-v2.jsonl": (["--game", "toy", "--bots", "low,random,random", "--games", "12", "--seed",
                      "25", "--unit-games", "6"],
                     dict(game="toy", lineup=["low", "random", "random"], games=12, seed=25)),
}


@pytest.fixture(autouse=True)
def toy():
    with registered():
        yield


def _needs(name: str) -> None:
    if name.endswith(".parquet"):
        pytest.importorskip("pyarrow")


def _same(a: ArenaResult | DuplicateResult, b: ArenaResult | DuplicateResult) -> bool:
    """Equal results, the timings aside."""
    if isinstance(a, ArenaResult) and isinstance(b, ArenaResult):
        return (a.names == b.names and np.array_equal(a.places, b.places)
                and np.array_equal(a.decisions, b.decisions))
    assert isinstance(a, DuplicateResult) and isinstance(b, DuplicateResult)
    return a.names == b.names and a.games_table() == b.games_table() and all(
        a.team(t).decisions == b.team(t).decisions for t in (0, 1))


def _snapshot(path: Path) -> dict[str, bytes]:
    """Every byte of a file, or of every file of a Parquet dataset."""
    if path.is_dir():
        return {p.name: p.read_bytes() for p in sorted(path.iterdir())}
    return {path.name: path.read_bytes()}


def _copy(name: str, into: Path) -> Path:
    target = into / name
    (shutil.copytree if (DATA / name).is_dir() else shutil.copy)(DATA / name, target)
    return target


@pytest.mark.parametrize("name", FILES)
def test_a_landed_file_loads_as_the_run_it_holds(name: str) -> None:
    _needs(name)
    request = dict(FILES[name][1])
    loaded = files.load(DATA / name)
    again = simulate(request.pop("game"), request.pop("lineup"), request.pop("games"), **request)
    assert _same(loaded, again)
    found = files.read(DATA / name)
    assert found.played == again.games and found.games == again.games


@pytest.mark.parametrize("name", FILES)
def test_resuming_a_finished_landed_file_changes_no_byte(name: str, tmp_path: Path) -> None:
    # What `tienlen sim ... --out FILE --resume` does to a finished file: the run's header
    # (checked against the file's, version 1 or 2), nothing to play, the file as it was.
    _needs(name)
    path = _copy(name, tmp_path)
    before = _snapshot(path)
    args, _ = FILES[name]
    assert main(["sim", *args, "--out", str(path), "--resume"]) == 0
    assert _snapshot(path) == before


@pytest.mark.parametrize("name", [n for n in FILES if n.endswith(".jsonl")])
def test_the_units_of_a_landed_file_write_back_byte_for_byte(name: str, tmp_path: Path) -> None:
    found = files.read(DATA / name)
    again = tmp_path / name
    with files.GamesFile.open(again, found.header, games=found.played) as out:
        for unit in found.units:
            out.write(unit)
    old, new = (DATA / name).read_bytes().splitlines(), again.read_bytes().splitlines()

    def units(lines: list[bytes]) -> list[bytes]:     # the game rows and the unit lines
        return [line for line in lines[1:] if not line.startswith(b'{"games": ')]

    assert units(new) == units(old)
    if b'"version": 2' in old[0] and name != "guandan-v2-resumed.jsonl":
        assert new == old              # a file written in one go: every byte


_SECONDS = re.compile(rb'"seconds":\[[^\]]*\]')


@pytest.mark.parametrize("name", [n for n in FILES if "-v2" in n])
def test_a_run_writes_what_the_landed_version_wrote(name: str, tmp_path: Path) -> None:
    """The same command, with this version: the same bytes, but for the seconds spent
    deciding (wall-clock, different every run)."""
    _needs(name)
    args, _ = FILES[name]
    out = tmp_path / name
    if name == "guandan-v2-resumed.jsonl":     # written in two steps, as the landed one
        assert main(["sim", *[a if a != "4" else "2" for a in args], "--out", str(out)]) == 0
        assert main(["sim", *args, "--out", str(out), "--resume"]) == 0
    else:
        assert main(["sim", *args, "--out", str(out)]) == 0
    if out.is_dir():
        import pyarrow.parquet as pq

        assert (out / "_run.json").read_bytes() == (DATA / name / "_run.json").read_bytes()
        units = sorted(p.name for p in out.glob("unit-*"))
        assert units == sorted(p.name for p in (DATA / name).glob("unit-*"))
        for unit in units:
            mine, theirs = pq.read_table(out / unit), pq.read_table(DATA / name / unit)
            assert mine.schema.remove_metadata() == theirs.schema.remove_metadata()
            assert mine.drop(["seconds"]).to_pylist() == theirs.drop(["seconds"]).to_pylist()
            assert json.loads(mine.schema.metadata[b"tienlen"]) == json.loads(
                theirs.schema.metadata[b"tienlen"])
    else:
        assert _SECONDS.sub(b"", out.read_bytes()) == _SECONDS.sub(b"", (DATA / name).read_bytes())


@pytest.mark.parametrize("name", ["tienlen-v1.jsonl", "tienlen-v2.jsonl", "guandan-v1.jsonl",
                                  "guandan-v2.jsonl", "guandan-v2.parquet", "toy-v2.jsonl"])
def test_a_landed_file_cut_short_resumes_to_a_longer_run(name: str, tmp_path: Path) -> None:
    """`--resume` of a file the landed version wrote, its last unit torn by a crash: the
    torn tail is cut, the complete units kept byte for byte, only the rest played, and the
    run extended to twice the games."""
    _needs(name)
    path = _copy(name, tmp_path)
    args, request = FILES[name]
    if path.is_dir():
        last = sorted(path.glob("unit-*"))[-1]
        last.rename(path / f".{last.name}.tmp")           # caught half-written
        kept = {n: b for n, b in _snapshot(path).items() if n.startswith("unit-")}
    else:
        data = path.read_bytes()
        starts = [m.start() for m in re.finditer(rb'\{"unit"', data)]
        path.write_bytes(data[:starts[-1] + 5])           # inside the last unit's line
        # what stays: the header, and every unit but the last (none: the header line)
        keep = data.index(b"\n", starts[-2]) + 1 if len(starts) > 1 else data.index(b"\n") + 1
        kept = {"": data[:keep]}
    count = "--games" if "--games" in args else "--matches" if "--matches" in args else "--hands"
    longer = [str(2 * int(a)) if i and args[i - 1] == count else a for i, a in enumerate(args)]
    assert main(["sim", *longer, "--out", str(path), "--resume"]) == 0
    request = dict(request, games=2 * request["games"])
    expected = simulate(request.pop("game"), request.pop("lineup"), request.pop("games"),
                        **request)
    assert _same(files.load(path), expected)
    if path.is_dir():
        assert {n: b for n, b in _snapshot(path).items() if n in kept} == kept
    else:
        assert path.read_bytes().startswith(kept[""])


# --- bounded reading (issue 36) ----------------------------------------------------------------


@pytest.mark.parametrize("where", ["header", "row", "unit"])
@pytest.mark.parametrize("text", [b"[" * 100_000, b'{"a":' * 50_000 + b"1" + b"}" * 50_000,
                                  b'{"deal": "' + b"x" * (2 << 20) + b'"}'],
                         ids=["deep-list", "deep-object", "long-line"])
def test_a_hostile_line_is_one_clean_error(tmp_path: Path, where: str, text: bytes) -> None:
    lines = (DATA / "tienlen-v2.jsonl").read_bytes().splitlines(keepends=True)
    at = {"header": 0, "row": 2, "unit": 5}[where]
    lines[at] = text + b"\n"
    path = tmp_path / "games.jsonl"
    path.write_bytes(b"".join(lines))
    with pytest.raises(files.ResultsError, match=rf"games\.jsonl:{at + 1}: (nested deeper "
                                                 "than 16|larger than 1,048,576 bytes)"):
        files.read(path)


def test_a_nested_parquet_header_is_one_clean_error(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    path = _copy("tienlen-v2.parquet", tmp_path)
    (path / "_run.json").write_bytes(b"[" * 100_000)
    with pytest.raises(files.ResultsError, match="_run.json: nested deeper than 16"):
        files.load(path)


def test_sim_resume_of_a_nested_file_is_a_one_line_error(tmp_path: Path, capsys) -> None:
    path = tmp_path / "games.jsonl"
    path.write_bytes(b"[" * 100_000 + b"\n")
    args, _ = FILES["tienlen-v2.jsonl"]
    assert main(["sim", *args, "--out", str(path), "--resume"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "nested deeper than 16" in err and "Traceback" not in err


def test_a_parquet_unit_larger_than_its_name_says_is_refused_before_it_is_read(
        tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    path = _copy("tienlen-v2.parquet", tmp_path)
    first, second = sorted(path.glob("unit-*"))
    second.unlink()
    first.rename(path / "unit-0000000000-0000000001.parquet")     # two deals' games
    with pytest.raises(files.ResultsError, match="holds 4 games, not 2"):
        files.read(path)


def test_reading_takes_either_kind_of_file_and_the_old_readers_one(tmp_path: Path) -> None:
    assert isinstance(files.load(DATA / "tienlen-v2.jsonl"), ArenaResult)
    assert isinstance(files.load(DATA / "guandan-v2.jsonl"), DuplicateResult)
    with pytest.raises(files.ResultsError, match="not a tienlen games file"):
        files.read(DATA / "guandan-v2.jsonl", schema=files.SCHEMA)
    with pytest.raises(files.ResultsError, match="not a Guandan games file"):
        files.read(DATA / "tienlen-v2.jsonl", schema="tienlen.guandan.games")
    junk = tmp_path / "junk.jsonl"
    junk.write_text('{"schema": "chess.games", "version": 2}\n')
    with pytest.raises(files.ResultsError, match="its schema is 'chess.games'"):
        files.read(junk)
    with pytest.raises(files.ResultsError, match="path must be a file path"):
        files.read(None)  # type: ignore[arg-type]
