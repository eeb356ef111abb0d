"""``tienlen sim --out/--resume/--unit-games`` on one machine, and the ``--scheduler`` errors
that need no cluster (tests/test_scale.py has the cluster runs)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tienlen.arena import files, simulate
from tienlen.cli import main


def sim(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["sim", *args])
    out, err = capsys.readouterr()
    return status, out, err


ARGS = ["--bots", "L1,random,L1", "--seed", "4"]


def test_out_writes_every_game_and_resume_extends_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, report = tmp_path / "games.jsonl", tmp_path / "r.json"
    status, _, err = sim(capsys, *ARGS, "--games", "60", "--out", str(path), "--unit-games", "9")
    assert (status, err) == (0, "")
    assert files.load(path).places.tolist() == simulate(
        "tienlen", ["L1", "random", "L1"], 60, players=3, seed=4).places.tolist()
    # More games on the same file: the first 60 are kept, only the new deals are played.
    status, out, err = sim(capsys, *ARGS, "--games", "120", "--out", str(path), "--resume",
                           "--jobs", "2", "--json", str(report))
    assert status == 0 and "resuming" in err and "60 of 120 games on file" in err
    expected = simulate("tienlen", ["L1", "random", "L1"], 120, players=3, seed=4)
    assert files.load(path).places.tolist() == expected.places.tolist()
    record = json.loads(report.read_text())
    assert [b["decisions"] for b in record["bots"]] == expected.decisions.tolist()
    assert "120 games (40 deals × 3 seat rotations)" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--games", "12", "--resume"], "--resume continues the run in --out FILE"),
        (["--games", "12", "--out", "x.csv"], "name a .jsonl (JSON lines) or .parquet"),
        (["--games", "12", "--jobs", "2", "--scheduler", "local:2"], "--jobs and --scheduler"),
        (["--games", "12", "--scheduler", "local:0"], "1 to 256 workers"),
        (["--games", "12", "--scheduler", "http://x y"], "expected tcp://HOST:PORT or local:N"),
        (["--games", "12", "--unit-games", "4"], "--unit-games must be a positive multiple"),
        (["--games", "10", "--out", "g.jsonl"], "games must be a positive multiple of players"),
    ],
)
def test_bad_flags_are_one_line_errors_and_create_nothing(
    args: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    status, out, err = sim(capsys, *ARGS, *args)
    assert status == 2 and out == ""
    assert err.startswith("tienlen: error: ") and message in err, err
    assert list(tmp_path.iterdir()) == []


def test_a_file_of_another_run_is_refused_and_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "games.jsonl"
    assert sim(capsys, *ARGS, "--games", "12", "--out", str(path))[0] == 0
    before = path.read_bytes()
    status, _, err = sim(capsys, *ARGS, "--games", "12", "--out", str(path))
    assert status == 2 and "already exists: pass --resume" in err
    status, _, err = sim(capsys, "--bots", "L1,random,L1", "--seed", "5", "--games", "12",
                         "--out", str(path), "--resume")
    assert status == 2 and "different run (its seed is 4, this run's is 5)" in err
    status, _, err = sim(capsys, *ARGS, "--games", "6", "--out", str(path), "--resume")
    assert status == 2 and "ask for at least 12 games" in err
    assert path.read_bytes() == before


def test_without_the_dask_extra_the_errors_say_what_to_install(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A None entry in sys.modules makes the import fail, as if not installed.
    monkeypatch.setitem(sys.modules, "distributed", None)
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    status, _, err = sim(capsys, *ARGS, "--games", "12", "--scheduler", "local:2")
    assert status == 2 and 'pip install "tienlen[dask]"' in err
    status, _, err = sim(capsys, *ARGS, "--games", "12", "--out", str(tmp_path / "g.parquet"))
    assert status == 2 and "needs pyarrow" in err and 'pip install "tienlen[dask]"' in err
    assert not (tmp_path / "g.parquet").exists()


@pytest.mark.parametrize("suffix", ["jsonl", "parquet"])
def test_two_resumes_of_same_file_at_once_second_refused(tmp_path: Path, suffix: str) -> None:
    # Issue 24: the same `sim --out FILE --resume` started twice at once corrupted the
    # file (.jsonl: both wrote at the same offsets; .parquet: the same temporary unit).
    # The second is refused up front, the first finishes, and the file is whole.
    import subprocess
    import time

    if suffix == "parquet":
        pytest.importorskip("pyarrow")
    path = tmp_path / f"games.{suffix}"
    args = [sys.executable, "-m", "tienlen", "sim", "--bots", "random", "--players", "4",
            "--games", "1000", "--unit-games", "40", "--seed", "5", "--out", str(path),
            "--resume"]
    first = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while not (tmp_path / f"games.{suffix}.lock").exists():
            assert first.poll() is None and time.monotonic() < deadline, "the first run ended"
            time.sleep(0.02)
        second = subprocess.run(args, capture_output=True, text=True, timeout=120)
        _, first_err = first.communicate(timeout=300)
    finally:
        first.kill()
        first.wait()
    assert first.returncode == 0, first_err
    assert second.returncode == 2, second.stderr
    assert "is being written by another run" in second.stderr
    assert "Traceback" not in second.stderr
    assert files.load(path).games == 1000
