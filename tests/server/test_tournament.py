"""`tienlen tournament` end to end (issue 36): stand-in agents of our own that speak the
platform's protocol (examples/platform_agent.py) and ours (`tienlen play --connect`) against
our bots; an agent killed mid-match, one that hangs, one that answers badly, one that never
connects: each replaced by the stated rule and the run goes on; Ctrl-C, then --resume, with
no match lost or counted twice."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

REPO = Path(__file__).resolve().parents[2]
AGENT = f"{sys.executable} {REPO / 'examples' / 'platform_agent.py'} {{url}}"


def _tournament(*argv: str, timeout: float = 240) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tienlen", "tournament", *argv],
                          capture_output=True, text=True, timeout=timeout)


def _rows(path: Path) -> list[dict]:
    lines = path.read_text().splitlines()
    return [json.loads(line) for line in lines[1:]]


def test_a_round_robin_of_agents_and_bots(tmp_path: Path) -> None:
    out = tmp_path / "t.jsonl"
    result = _tournament("--agent", f"me={AGENT} --policy last", "--bots", "L1,L2",
                         "--matches", "2", "--max-hands", "1", "--jobs", "2", "--out", str(out))
    assert result.returncode == 0, result.stderr
    rows = _rows(out)
    assert sorted(r["match"] for r in rows) == list(range(6))
    assert all(r["failed"] == 0 and r["forfeit"] == 0 and r["hands"] == 1 for r in rows)
    table = result.stdout.splitlines()
    assert table[0].startswith("entrant") and {line.split()[0] for line in table[1:]} == \
        {"me", "L1", "L2"}
    assert all("[" in line for line in table[1:])             # intervals
    assert result.stderr.count("match ") >= 6


def test_failing_agents_are_replaced_by_the_stated_rule_and_the_run_goes_on(tmp_path: Path) -> None:
    out = tmp_path / "t.jsonl"
    result = _tournament(
        "--agent", f"crash={AGENT} --die-after 3",
        "--agent", f"hang={AGENT} --hang-after 3",
        "--agent", f"bad={AGENT} --bad-after 3",
        "--agent", "never=" + sys.executable + " -c \"import time; time.sleep(60)\"",
        "--bots", "L1", "--gauntlet", "L1", "--matches", "1", "--max-hands", "1",
        "--decision-timeout", "1", "--connect-timeout", "3", "--jobs", "2", "--out", str(out))
    assert result.returncode == 0, result.stderr
    rows = {r["match"]: r for r in _rows(out)}
    assert sorted(rows) == [0, 1, 2, 3]
    for row in rows.values():                      # L1 (entrant 4) against each failing agent
        assert row["failed"] != 0 and row["forfeit"] == 1 and row["winner"] == 4, row
    assert "did not answer within 1 s" in result.stderr
    assert "Traceback" not in result.stderr


def test_replace_counts_the_match_as_played(tmp_path: Path) -> None:
    out = tmp_path / "t.jsonl"
    result = _tournament("--agent", f"crash={AGENT} --die-after 2", "--bots", "L1",
                         "--matches", "1", "--max-hands", "1", "--on-failure", "replace",
                         "--out", str(out))
    assert result.returncode == 0, result.stderr
    (row,) = _rows(out)
    assert row["failed"] != 0 and row["forfeit"] == 0


def test_an_agent_killed_from_outside_mid_match(tmp_path: Path) -> None:
    """The agent's process is SIGKILLed by someone else while it plays."""
    pidfile = tmp_path / "pids"
    wrapper = tmp_path / "agent.sh"
    wrapper.write_text(f"#!/bin/sh\necho $$ >> {pidfile}\nexec {AGENT.replace('{url}', '$1')}\n")
    wrapper.chmod(0o755)
    out = tmp_path / "t.jsonl"
    proc = subprocess.Popen([sys.executable, "-m", "tienlen", "tournament",
                             "--agent", f"victim={wrapper} {{url}}", "--bots", "L2",
                             "--matches", "2", "--max-hands", "2", "--out", str(out)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not pidfile.exists() or len(pidfile.read_text().split()) < 2:
        assert time.monotonic() < deadline and proc.poll() is None
        time.sleep(0.05)
    time.sleep(0.5)
    os.kill(int(pidfile.read_text().split()[0]), signal.SIGKILL)
    stdout, stderr = proc.communicate(timeout=240)
    assert proc.returncode == 0, stderr
    rows = {r["match"]: r for r in _rows(out)}
    assert sorted(rows) == [0, 1]
    assert rows[0]["failed"] != 0 and rows[0]["forfeit"] == 1
    assert rows[1]["failed"] == 0                      # the next match played normally


def test_agents_of_our_protocol(tmp_path: Path) -> None:
    out = tmp_path / "t.parquet"
    pytest.importorskip("pyarrow")
    agent = f"{sys.executable} -m tienlen play --connect {{url}} --policy random"
    result = _tournament("--agent", f"client=ours:{agent}", "--bots", "L1", "--matches", "2",
                         "--max-hands", "1", "--out", str(out))
    assert result.returncode == 0, result.stderr
    from tienlen.tournament.files import MatchesFile

    header = {"game": "guandan", "entrants": [
        {"name": "client", "kind": "ours", "command": agent},
        {"name": "L1", "kind": "bot", "command": "L1"}], "matches": 2, "gauntlet": None,
        "seed": 0, "max_hands": 1, "on_failure": "forfeit"}
    with MatchesFile.open(out, header, resume=True) as stored:
        assert stored.done == {0, 1}
        assert all(r["failed"] == 0 and r["hands"] == 1 for r in stored.rows.values())


def test_ctrl_c_then_resume_loses_and_repeats_nothing(tmp_path: Path) -> None:
    out = tmp_path / "t.jsonl"
    argv = [sys.executable, "-m", "tienlen", "tournament", "--agent", f"me={AGENT}",
            "--bots", "L1,L2", "--matches", "4", "--max-hands", "1", "--jobs", "2",
            "--out", str(out)]
    # 12 matches (three pairs, four each): Ctrl-C after the second leaves ten to finish or
    # stop. With 6, a loaded CI machine finished every match before the signal landed
    # (the fresh-clone run of 2026-12-07: 6 of 6 in).
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while not out.exists() or len(out.read_text().splitlines()) < 3:     # two matches
        assert time.monotonic() < deadline and proc.poll() is None
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr
    assert "--resume" in stderr and "Traceback" not in stderr
    first = {r["match"] for r in _rows(out)}
    assert 2 <= len(first) < 12
    # no agent process is left behind
    leftover = subprocess.run(["pgrep", "-f", "platform_agent.py"], capture_output=True,
                              text=True).stdout.split()
    assert not [pid for pid in leftover if int(pid) != os.getpid()]
    result = subprocess.run(argv + ["--resume"], capture_output=True, text=True, timeout=240)
    assert result.returncode == 0, result.stderr
    rows = _rows(out)
    assert sorted(r["match"] for r in rows) == list(range(12))      # each once
    assert {r["match"] for r in rows} >= first
    assert f"{len(first)} of 12 matches are in" in result.stderr


def test_refusals_are_one_line(capsys) -> None:
    from tienlen.cli.program import main

    for argv, words in [(["--bots", "L1"], "two entrants"),
                        (["--bots", "L1,L9"], "not a bot level"),
                        (["--bots", "L1,L1"], "share a name"),
                        (["--agent", "a=x {url}", "--agent", "b=ours:y {url}"], "one protocol"),
                        (["--bots", "L1,L2", "--gauntlet", "L3"], "not an entrant"),
                        (["--bots", "L1,L2", "--resume"], "give --out")]:
        assert main(["tournament", *argv]) == 2
        err = capsys.readouterr().err
        assert words in err and len(err.strip().splitlines()) == 1, (argv, err)
