"""The room's files ship: nothing under tienlen/server/static is ignored by git (the wheel
build, scikit-build-core, leaves out what .gitignore names). Regression: `*.html` in
.gitignore (for Cython's annotation files) had kept index.html out of git and the wheel."""

from __future__ import annotations

from paths import REPO

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = REPO
STATIC = ROOT / "tienlen" / "server" / "static"


def test_room_files_exist():
    assert {p.name for p in STATIC.iterdir()} >= {"index.html", "room.css", "room.js"}


@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(),
                    reason="not a git checkout")
def test_no_room_file_is_ignored_by_git():
    files = [str(p.relative_to(ROOT)) for p in STATIC.iterdir()]
    ignored = subprocess.run(["git", "check-ignore", "--no-index", *files], cwd=ROOT, capture_output=True,
                             text=True).stdout.split()
    assert ignored == []
