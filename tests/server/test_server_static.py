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


@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(),
                    reason="not a git checkout")
def test_the_browser_tests_screenshots_go_to_an_untracked_folder():
    # Issue 39 #21: the browser test never rewrites a tracked file (the tree stays clean after
    # CI): its screenshots go to build/screenshots (ignored) or $TIENLEN_SCREENSHOTS.
    ignored = subprocess.run(["git", "check-ignore", "-q", "--no-index", "build/screenshots/room.png"],
                             cwd=ROOT).returncode
    assert ignored == 0
    source = (ROOT / "tests" / "server" / "test_room_browser.py").read_text(encoding="utf-8")
    assert 'REPO / "build" / "screenshots"' in source and 'REPO / "docs"' not in source
    assert "fonts-noto-cjk" in (ROOT / ".ci" / "browser").read_text(encoding="utf-8")
