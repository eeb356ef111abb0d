"""The writer's lock file is created, never followed (issue 36): a symbolic link or a FIFO
planted at ``FILE.lock`` is refused with one line, and what it points at is left as it was."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from tienlen.arena.lockfile import WriterLock, lock_path
from tienlen.cli.program import main

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="symbolic links and FIFOs")


def test_a_symlink_at_the_lock_is_refused_and_its_target_kept(tmp_path: Path) -> None:
    victim = tmp_path / "precious.txt"
    victim.write_text("keep me\n")
    games = tmp_path / "games.jsonl"
    os.symlink(victim, lock_path(games))
    with pytest.raises(ValueError, match="symbolic link"):
        WriterLock.acquire(games)
    assert victim.read_text() == "keep me\n"


def test_a_dangling_symlink_at_the_lock_creates_nothing(tmp_path: Path) -> None:
    games = tmp_path / "games.jsonl"
    target = tmp_path / "made-by-the-link"
    os.symlink(target, lock_path(games))
    with pytest.raises(ValueError, match="symbolic link"):
        WriterLock.acquire(games)
    assert not target.exists()


def test_sim_out_refuses_the_planted_link_in_one_line(tmp_path: Path, capsys) -> None:
    victim = tmp_path / "precious.txt"
    victim.write_text("keep me\n")
    games = tmp_path / "games.jsonl"
    os.symlink(victim, lock_path(games))
    status = main(["sim", "--bots", "L1", "--players", "2", "--games", "2", "--out", str(games)])
    err = capsys.readouterr().err
    assert status == 2 and "symbolic link" in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1
    assert victim.read_text() == "keep me\n"


def test_a_fifo_at_the_lock_does_not_hang(tmp_path: Path) -> None:
    games = tmp_path / "games.jsonl"
    os.mkfifo(lock_path(games))
    with pytest.raises(ValueError, match="not a regular file"):
        WriterLock.acquire(games)


def test_an_ordinary_lock_still_works(tmp_path: Path) -> None:
    games = tmp_path / "games.jsonl"
    with WriterLock.acquire(games) as lock:
        assert lock.held and lock_path(games).is_file()
    assert not lock_path(games).exists()
