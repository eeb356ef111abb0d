"""The package as a Python user meets it (issue 28): one version, read from the package
metadata; a changelog in Keep a Changelog's shape that lists every deprecation; and, when
CI runs the suite against an installed wheel (.ci/wheel), proof that the wheel is what ran."""

from __future__ import annotations

from paths import REPO

import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import tienlen

CHANGELOG = REPO / "CHANGELOG.md"
SECTIONS = ("Added", "Changed", "Deprecated", "Removed", "Fixed", "Security")


def test_version_is_the_package_metadata() -> None:
    assert tienlen.__version__ == importlib.metadata.version("tienlen")
    # and that is pyproject.toml's, the one place the version is written
    pyproject = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    project = pyproject.split("[project]", 1)[1].split("\n[", 1)[0]
    written = re.search(r'^version = "([^"]+)"$', project, re.M)
    assert written is not None and written.group(1) == tienlen.__version__


def test_the_version_is_written_nowhere_in_the_package() -> None:
    # A second copy (say `__version__ = "0.1.0"` in __init__.py) would go stale at the
    # next release; the metadata is the only source.
    for path in sorted((Path(tienlen.__file__).parent).rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"^__version__\s*=", text, re.M), path


def _run_tienlen(*args: str) -> str:
    script = shutil.which("tienlen", path=str(Path(sys.executable).parent))
    assert script is not None, "the tienlen console script is not installed beside python"
    result = subprocess.run([script, *args], capture_output=True, text=True, timeout=60,
                            check=True)
    return result.stdout


def test_tienlen_version_prints_the_metadata_version() -> None:
    assert _run_tienlen("--version") == f"tienlen {importlib.metadata.version('tienlen')}\n"


def _changelog_sections() -> list[tuple[str, list[str]]]:
    """(release heading, its ### section names), in file order."""
    releases: list[tuple[str, list[str]]] = []
    for line in CHANGELOG.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            releases.append((line[3:], []))
        elif line.startswith("### "):
            assert releases, f"{line!r} before any release heading"
            releases[-1][1].append(line[4:])
    return releases


def test_changelog_starts_with_unreleased_in_keep_a_changelog_shape() -> None:
    releases = _changelog_sections()
    assert releases and releases[0][0] == "[Unreleased]"
    for heading, sections in releases[1:]:
        assert re.fullmatch(r"\[\d+\.\d+\.\d+\S*\] - \d{4}-\d{2}-\d{2}", heading), heading
    for heading, sections in releases:
        assert sections, f"{heading} has no sections"
        assert set(sections) <= set(SECTIONS), (heading, sections)
        assert len(sections) == len(set(sections)), f"{heading} repeats a section"
        # Keep a Changelog's order: Added, Changed, Deprecated, Removed, Fixed, Security
        assert sections == sorted(sections, key=SECTIONS.index), (heading, sections)


def _deprecated_names() -> set[str]:
    """Every name the package deprecates, read from its warning messages
    ("Game.locked_out is deprecated: use ...")."""
    names: set[str] = set()
    for path in sorted((REPO / "tienlen").rglob("*.py")):
        names.update(re.findall(r'"([\w.]+(?:\([\w=.]+\))?) is deprecated',
                                path.read_text(encoding="utf-8")))
    return names


def test_every_deprecation_is_in_the_changelog() -> None:
    names = _deprecated_names()
    assert "Game.locked_out" in names                        # (the probe finds them)
    text = CHANGELOG.read_text(encoding="utf-8")
    deprecated = "".join(part.split("\n### ", 1)[0]
                         for part in text.split("\n### Deprecated\n")[1:])
    missing = sorted(n for n in names if f"`{n}`" not in deprecated)
    assert not missing, f"deprecated in tienlen/ but not under ### Deprecated in CHANGELOG.md: {missing}"


def test_the_deprecation_policy_is_stated() -> None:
    policy = (REPO / "docs" / "versioning.md").read_text(encoding="utf-8")
    assert "## Deprecation policy" in policy and "DeprecationWarning" in policy
    assert "docs/versioning.md" in CHANGELOG.read_text(encoding="utf-8")


@pytest.mark.skipif(os.environ.get("TIENLEN_WHEEL_TEST") != "1",
                    reason="only when .ci/wheel runs the suite against an installed wheel")
def test_the_suite_runs_against_the_installed_wheel() -> None:
    # .ci/wheel sets TIENLEN_WHEEL_TEST=1: then the tienlen under test must be the wheel's,
    # installed in site-packages, not the source tree or an editable install of it.
    package = Path(tienlen.__file__).resolve().parent
    assert REPO not in package.parents, f"tienlen was imported from the source tree: {package}"
    dist = importlib.metadata.distribution("tienlen")
    direct_url = dist.read_text("direct_url.json")
    if direct_url is not None:
        assert not json.loads(direct_url).get("dir_info", {}).get("editable"), "an editable install"
    files = {str(f) for f in dist.files or ()}
    assert {"tienlen/RULES.md", "tienlen/GUANDAN.md", "tienlen/py.typed"} <= files
    assert any(re.fullmatch(r"tienlen/_core\..*(so|pyd)", f) for f in files)


def test_the_train_extra_installs_what_the_training_scripts_import() -> None:
    """issue 39 #11: ``--plot`` of examples/train_guandan_dmc.py needs matplotlib."""
    try:
        import tomllib
    except ImportError:                      # Python 3.10
        pytest.skip("tomllib is Python 3.11+")
    extras = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))[
        "project"]["optional-dependencies"]
    names = {re.split(r"[<>=!\[ ]", req, maxsplit=1)[0].lower() for req in extras["train"]}
    assert {"torch", "sb3-contrib", "matplotlib", "gymnasium", "pettingzoo"} <= names
