"""``moves --game guandan``, ``sim --game guandan`` and the game view the CLI draws from (the
training mode, ``play --game guandan``, and ``replay`` are tested in test_guandan_play.py)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pexpect
import pytest

from tienlen.cli import main
from tienlen.guandan import Cards, Match

TIMEOUT = 60


def env(**extra: str) -> dict[str, str]:
    e = {k: v for k, v in os.environ.items() if k not in ("LANG", "LC_ALL", "LC_MESSAGES")}
    e.update(PYTHONIOENCODING="utf-8", TERM="xterm-256color", **extra)
    return e


def run(*args: str, stdin: str = "", **extra: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tienlen", *args], input=stdin, text=True,
                          capture_output=True, env=env(**extra), timeout=120, encoding="utf-8")


def test_moves_lists_guandan_plays_with_chinese_kind_names(capsys):
    # Level 5 makes 5♥ wild: 6 singles, 5 pairs (x + wild), 8 straights, 8 straight flushes.
    assert main(["moves", "--game", "guandan", "--level", "5", "5s 5h 6s 7s 8s 9s",
                 "--lang", "en", "--ascii"]) == 0
    text = capsys.readouterr().out
    assert "total: 27 legal plays" in text and "straight flush 同花顺 (8):" in text
    assert "pair 对子 (5):" in text
    assert main(["moves", "--game", "guandan", "--level", "7", "7h 7s", "--pile",
                 "7s 7h 8d 9s 10c"]) == 2
    assert "--pile-kind" in capsys.readouterr().err
    assert main(["moves", "--game", "guandan", "--level", "A", "Ks Kd Ah", "--pile", "Qs Qd",
                 "--pile-kind", "pair", "--ascii"]) == 0
    text = capsys.readouterr().out
    assert "total: 3 legal plays" in text     # K♠K♦, K♠ + the wild A♥, K♦ + the wild


def test_sim_guandan_duplicate_table():
    out = run("sim", "--game", "guandan", "--bots", "L2,L1", "--hands", "6", "--seed", "2")
    assert out.returncode == 0, out.stderr
    assert "6 hands (3 boards x 2 seatings)" in out.stdout and "A - B over 3 boards" in out.stdout


def test_cards_in_the_view_are_the_players_own():
    m = Match(4)
    view = m.game.view(0)
    assert view.hand == m.game.hand(0) and len(view.hand) == 27
    assert isinstance(view.hand, Cards)
    assert view.hand_sizes == (27, 27, 27, 27)


def test_guandan_replay_reads_at_most_the_replay_limit(tmp_path: Path) -> None:
    """Issue 24, item 13: ``replay`` of a Guandan match read the whole file (path.read_bytes)
    with no size limit, so a file or pipe that never ends filled memory. It now reads through
    Tiến Lên's reader at the Guandan format's limit: a stream far longer than that is refused
    ("larger than") after limit + 1 bytes, and the writer sees the pipe closed."""
    import argparse
    import threading

    from tienlen.guandan import GuandanError
    from tienlen.games.guandan import cli as guandan_cli
    from tienlen.games.guandan.match import MAX_REPLAY_BYTES

    if not hasattr(os, "mkfifo"):
        pytest.skip("needs a named pipe")
    fifo = tmp_path / "endless.json"
    os.mkfifo(fifo)
    head = b'{"schema": "tienlen.guandan.match", "version": 1, "actions": [' + b" " * 4096
    total = 8 * MAX_REPLAY_BYTES
    written = [0]

    def writer() -> None:
        chunk = b" " * (1 << 16)
        try:
            with open(fifo, "wb") as out:
                out.write(head)
                written[0] = len(head)
                while written[0] < total:
                    out.write(chunk)
                    written[0] += len(chunk)
        except BrokenPipeError:      # the reader stopped reading and closed: what we want
            pass

    thread = threading.Thread(target=writer, daemon=True)
    thread.start()
    with pytest.raises(GuandanError, match=f"larger than {MAX_REPLAY_BYTES} bytes"):
        guandan_cli.run_replay(argparse.Namespace(file=fifo))
    thread.join(60)
    assert not thread.is_alive()
    assert written[0] <= MAX_REPLAY_BYTES + (1 << 20)   # the limit, plus the pipe's buffers


def test_guandan_replay_of_a_file_within_the_limit_still_loads(tmp_path: Path) -> None:
    from tienlen.games.tienlen import replay
    from tienlen.games.guandan.match import MAX_REPLAY_BYTES

    match = Match(seed=5)
    match.play(match.game.legal_plays()[0])
    text = match.to_json()
    path = tmp_path / "m.json"
    path.write_text(text + " " * (MAX_REPLAY_BYTES - len(text.encode())))
    assert Match.from_json(replay.read_replay_file(path, limit=MAX_REPLAY_BYTES)) == match
    path.write_text(text + " " * (MAX_REPLAY_BYTES + 1 - len(text.encode())))
    with pytest.raises(replay.ReplayError, match="larger than"):
        replay.read_replay_file(path, limit=MAX_REPLAY_BYTES)


def test_sim_hands_says_hands_and_no_match_wins(tmp_path: Path, capsys) -> None:
    """Issue 39 #19: a ``--hands`` run counts hands in everything it says, its team table
    has no "match wins" column, and a value that was the same on every board is shown
    without "± 0.0" (with the caption saying why)."""
    out = tmp_path / "h.jsonl"
    args = ["sim", "--game", "guandan", "--bots", "L2,random", "--seed", "1", "--unit-games",
            "4", "--out", str(out)]
    assert main([*args, "--hands", "8"]) == 0
    text = capsys.readouterr().out
    assert "8 hands (4 boards x 2 seatings)" in text and "match wins" not in text
    a = next(line for line in text.splitlines() if "A L2+L2" in line)
    assert "100.0% " in a and "± 0.0" not in text             # every board won: no spread
    assert "A value without ± has no interval to show" in " ".join(text.split())
    assert main([*args, "--hands", "12", "--resume"]) == 0
    assert "resuming" in capsys.readouterr().err
    assert main([*args, "--hands", "12", "--resume"]) == 0
    err = capsys.readouterr().err
    assert "12 of 12 hands on file" in err and "games" not in err
    matches = main(["sim", "--game", "guandan", "--bots", "L1,L1", "--matches", "2",
                    "--hand-cap", "2"])
    assert matches == 0 and "match wins" in capsys.readouterr().out
