"""The sample outputs in docs/ checked against real runs, so that they cannot go stale
(issue 28 #6: docs/scale.md showed a Ctrl-C ending the command no longer printed).

A sample's numbers are a measurement of its own run and may differ from this one's; its
lines must not: each line of a sample, with every number read as N (and runs of spaces and
rules as one), is the line the real command prints. Each test runs the command the sample
shows (or a smaller run of the same code) and compares.

The README's and the terminal games' screens are regenerated in full elsewhere
(tests/test_readme.py, tests/test_guandan_play.py: docs/play-screen.txt and
docs/guandan-screen.txt).
"""

from __future__ import annotations

from paths import REPO

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

DOCS = REPO / "docs"
_NUMBER = re.compile(r"[-+−]?\d[\d,]*(?:\.\d+)?(?:e[-+]?\d+)?")
_RULE = re.compile(r"([━─═-])\1+")


def shape(line: str) -> str:
    """A line with its numbers as N, rules and runs of spaces as one: what two runs of the
    same command print alike."""
    line = _NUMBER.sub("N", line.rstrip())
    line = _RULE.sub(r"\1", line)
    return re.sub(r" +", " ", line)


def blocks(page: str) -> list[list[str]]:
    """The fenced blocks of a page, as lines."""
    found, current = [], None
    for line in (DOCS / page).read_text(encoding="utf-8").splitlines():
        if line.lstrip().startswith("```"):
            if current is None:
                current = []
            else:
                found.append(current)
                current = None
        elif current is not None:
            current.append(line)
    return found


def the_block(page: str, marker: str) -> list[str]:
    matching = [b for b in blocks(page) if any(marker in line for line in b)]
    assert len(matching) == 1, f"{page}: one block with {marker!r}; found {len(matching)}"
    return matching[0]


def assert_same_shape(sample: list[str], real: list[str], where: str) -> None:
    want = [shape(line) for line in sample if line.strip()]
    got = [shape(line) for line in real if line.strip()]
    assert want == got, (f"{where} is stale: regenerate it from this run:\n"
                         + "\n".join(real))


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "NO_COLOR")}
    env["PYTHONIOENCODING"] = "utf-8"
    return env


# --- docs/scale.md: Ctrl-C ------------------------------------------------------------

def test_scale_ctrl_c_sample_is_what_an_interrupted_run_prints(tmp_path: Path) -> None:
    """The sample is the command docs/scale.md runs, interrupted with SIGINT once part of
    it is on file: "Interrupted: ...", the table of the complete deals, then how many games
    are on file and how to resume (no "tienlen: interrupted")."""
    pytest.importorskip("pyarrow")
    sample = the_block("scale.md", "^C")
    command = sample[0]
    assert command.startswith("$ tienlen sim ") and sample[1] == "^C"
    args = command.removeprefix("$ tienlen ").split()
    out = args[args.index("--out") + 1]
    child = subprocess.Popen([sys.executable, "-m", "tienlen", *args], cwd=tmp_path,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=_env(),
                             text=True, encoding="utf-8")
    try:
        # Interrupted once at least one unit is on file (a Parquet dataset: a directory
        # that gets a part file per unit).
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and child.poll() is None:
            on_file = tmp_path / out
            if on_file.is_dir() and any(re.fullmatch(r"unit-\d+-\d+\.parquet", p.name)
                                        for p in on_file.iterdir()):
                break
            time.sleep(0.2)
        assert child.poll() is None, child.communicate()[0]
        time.sleep(0.5)
        child.send_signal(signal.SIGINT)
        output, _ = child.communicate(timeout=120)
    finally:
        if child.poll() is None:
            child.kill()
            child.communicate()
    assert child.returncode == 130, output
    assert_same_shape(sample[2:], output.splitlines(), "docs/scale.md's Ctrl-C sample")


# --- docs/rl.md: an illegal action ----------------------------------------------------

def test_rl_illegal_action_sample_is_the_real_message() -> None:
    pytest.importorskip("gymnasium")
    from tienlen.rl import IllegalActionError, TienlenEnv

    sample = the_block("rl.md", "IllegalActionError: action")
    env = TienlenEnv(opponents=("L1",) * 3)
    obs, _ = env.reset(seed=9)
    # a pile to answer, with several plays and a pass, as the sample shows
    while not (obs["action_mask"][0] and obs["action_mask"][1:].sum() > 1):
        obs, _, done, _, _ = env.step(int(obs["action_mask"].argmax()))
        if done:
            obs, _ = env.reset()
    with pytest.raises(IllegalActionError) as refused:
        env.step(486)
    env.close()
    assert_same_shape(sample, [f"IllegalActionError: {refused.value}"],
                      "docs/rl.md's IllegalActionError sample")


# --- docs/strength.md: arena tables ---------------------------------------------------

def test_strength_tables_have_the_shape_arena_prints() -> None:
    """docs/strength.md's tables are ``ArenaResult.table()`` and ``compare()`` of long
    runs: each table's title, header and rule lines are the real ones, and every row and
    comparison has the real row's shape (a bot's name taken as a word)."""
    from tienlen.arena import simulate

    result = simulate("tienlen", ["L1", "L1", "random", "random"], 8, seed=1)
    real = result.table().splitlines()
    title, header, rule = real[0], real[2], real[3]
    row_shape = shape(re.sub(r"^\| [^|]+ \|", "| BOT |", real[4]))
    compare = shape(str(result.compare(["L1", "L1 #2"], ["random", "random #2"])))
    compare_tail = compare[compare.index(": mean place"):]
    checked = 0
    for block in blocks("strength.md"):
        if header not in block:
            continue
        checked += 1
        at = block.index(header)
        assert block[at + 1] == rule
        if at >= 2:
            assert shape(block[at - 2]) == shape(title) and not block[at - 1].strip()
        for line in block[at + 2:]:
            if line.startswith("|"):
                assert shape(re.sub(r"^\| [^|]+ \|", "| BOT |", line)) == row_shape, line
            elif ": mean place difference" in line:
                # "p < 1e-300" is how a p-value that underflows is written
                tail = shape(line[line.index(": mean place"):]).replace("p < N", "p = N")
                assert tail == compare_tail.replace("p < N", "p = N"), line
    assert checked >= 5


def test_rl_install_works_from_pypi_alone_and_the_torch_index_is_optional() -> None:
    """Issue 28 #5: the torch step named PyTorch's own index, which a machine reaching only
    PyPI cannot use. The first install block uses PyPI alone; the index comes after, marked
    optional."""
    installs = [b for b in blocks("rl.md") if any("pip install" in line for line in b)]
    first = installs[0]
    assert any('pip install -e ".[train]"' in line for line in first)
    assert not any("--index-url" in line or "download.pytorch.org" in line for line in first)
    later = [line for b in installs[1:] for line in b if "--index-url" in line]
    assert later and all("optional" in line for line in later)
    pyproject = (DOCS.parent / "pyproject.toml").read_text(encoding="utf-8")
    assert '"torch==2.13.0"' in pyproject        # the pin the [train] step installs
