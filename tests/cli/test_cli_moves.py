"""``tienlen moves``: output grouped by kind, one-line errors with exit status 2."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import tienlen.cli
from tienlen.cli import main

LEAD_OUTPUT = """\
hand: 3s 3c 4d 5h (4 cards)
pile: empty (leading)
singles (4):
  3s
  3c
  4d
  5h
pairs (1):
  3s 3c
sequences (2):
  3s 4d 5h
  3c 4d 5h
total: 7 legal plays
"""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def groups(out: str) -> dict[str, list[str]]:
    """Header line -> the plays listed under it."""
    result: dict[str, list[str]] = {}
    header = None
    for line in out.splitlines():
        if line.startswith("  "):
            assert header is not None, out
            result[header].append(line.strip())
        elif line.endswith(":"):
            header = line
            result[header] = []
        else:
            header = None
    return result


def test_moves_lead_grouped_by_kind(capsys):
    status, out, err = run(capsys, "moves", "3s 3c 4d 5h", "--ascii")
    assert (status, out, err) == (0, LEAD_OUTPUT, "")


def test_moves_hand_as_several_arguments_and_symbols(capsys):
    status, out, _ = run(capsys, "moves", "3♠", "3c,", "4D", "5♥")
    assert status == 0
    assert out.splitlines()[0] == "hand: 3♠ 3♣ 4♦ 5♥ (4 cards)"
    assert groups(out)["pairs (1):"] == ["3♠ 3♣"]
    assert out.splitlines()[-1] == "total: 7 legal plays"


def test_moves_pile(capsys):
    status, out, _ = run(capsys, "moves", "3s 3c 4d 4h 5s 6c", "--pile", "3d 3h", "--ascii")
    assert status == 0
    assert "pile: pair 3d 3h" in out.splitlines()
    assert groups(out) == {"pairs (1):": ["4d 4h"]}
    assert out.endswith("total: 1 legal play\n")


def test_R4_1_moves_bomb_on_a_two(capsys):
    status, out, _ = run(capsys, "moves", "3s 3c 3d 3h 9s 2h", "--pile", "2s", "--ascii")
    assert status == 0
    assert groups(out) == {"singles (1):": ["2h"], "quads (1):": ["3s 3c 3d 3h"]}
    assert out.endswith("total: 2 legal plays\n")


def test_R5_2_moves_locked_out(capsys):
    argv = ["moves", "3s 3c 3d 3h 9s 2h", "--pile", "2s", "--ascii", "--locked-out"]
    status, out, _ = run(capsys, *argv)
    assert status == 0
    assert groups(out) == {"quads (1):": ["3s 3c 3d 3h"]}
    status, out, _ = run(capsys, "moves", "3s 3c 3d 3h 9s", "--pile", "8s", "--locked-out")
    assert status == 0 and groups(out) == {}
    assert "no legal plays: pass" in out and out.endswith("total: 0 legal plays\n")


def test_R7_2_moves_must_include(capsys):
    status, out, _ = run(capsys, "moves", "3s 3c 4d 5h", "--must-include", "3S", "--ascii")
    assert status == 0
    assert "must include: 3s" in out.splitlines()
    assert groups(out) == {"singles (1):": ["3s"], "pairs (1):": ["3s 3c"],
                           "sequences (1):": ["3s 4d 5h"]}


def test_R2_8_moves_rules_no_twos(capsys):
    status, out, _ = run(capsys, "moves", "Js Qs Ks As 2s", "--ascii")
    assert status == 0 and out.endswith("total: 11 legal plays\n")
    status, out, _ = run(capsys, "moves", "Js Qs Ks As 2s", "--ascii", "--rules", "no-twos")
    assert status == 0
    assert "rules: no-twos" in out.splitlines()
    assert groups(out)["sequences (3):"] == ["Js Qs Ks", "Qs Ks As", "Js Qs Ks As"]
    assert out.endswith("total: 8 legal plays\n")


@pytest.mark.parametrize(
    "argv, fragment",
    [
        (["3s 1h"], "hand: not a card: '1h' (unknown rank '1')"),
        (["3s 3S"], "hand: duplicate card 3♠ ('3S')"),
        ([""], "hand: no cards given"),
        (["3s 4c", "--pile", "5s 7s"], "--pile: not a combination under default rules: 5♠ 7♠"),
        (["3s 4c", "--pile", "5s 5x"], "--pile: not a card: '5x' (unknown suit 'x')"),
        (["3s 4c", "--pile", " "], "--pile: no cards given"),
        (["3s 4c", "--pile", "3s"], "cards both in the hand and on the pile: 3♠"),
        (["3s 4c", "--must-include", "9h"], "must include 9♥, which is not in the hand"),
        (["3s 4c", "--must-include", "3"], "--must-include: not a card: '3' (missing suit)"),
        (["3s 4c", "--must-include", "3s 4c"], "--must-include: expected exactly one card"),
        (["Js Qs", "--pile", "Ks As 2s", "--rules", "no-twos"], "not a combination under no-twos"),
    ],
)
def test_moves_bad_input_one_error_line(capsys, argv, fragment):
    status, out, err = run(capsys, "moves", *argv)
    assert status == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("tienlen: error: ")
    assert fragment in err


@pytest.mark.parametrize(
    "argv",
    [["moves"], ["moves", "3s", "--rules", "house"], ["moves", "3s", "--bogus"], ["nosuch"]],
)
def test_argparse_errors_exit_2(capsys, argv):
    status, out, err = run(capsys, *argv)
    assert status == 2 and out == "" and "error:" in err


def test_version(capsys):
    status, out, _ = run(capsys, "--version")
    assert status == 0 and out.startswith("tienlen ") and len(out.split()) == 2


def test_help_lists_moves(capsys):
    status, out, _ = run(capsys, "--help")
    assert status == 0 and "moves" in out
    status, out, _ = run(capsys, "moves", "--help")
    assert status == 0 and "--must-include" in out and "--locked-out" in out


def _child_env() -> dict[str, str]:
    # The child imports the same tienlen package as this process.
    package_parent = str(Path(tienlen.cli.__file__).resolve().parents[1])
    path = os.pathsep.join(filter(None, [package_parent, os.environ.get("PYTHONPATH")]))
    return dict(os.environ, PYTHONPATH=path, PYTHONIOENCODING="utf-8")


def _python_m(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tienlen", *argv],
        capture_output=True, text=True, encoding="utf-8", env=_child_env(), timeout=60,
        check=False,
    )


def test_python_m_tienlen_moves():
    ok = _python_m("moves", "3s 3c 4d 5h", "--ascii")
    assert (ok.returncode, ok.stdout, ok.stderr) == (0, LEAD_OUTPUT, "")
    bad = _python_m("moves", "3s 4c", "--pile", "3s 5s")
    assert bad.returncode == 2 and bad.stdout == ""
    error = "tienlen: error: --pile: not a combination under default rules: 3♠ 5♠\n"
    assert bad.stderr == error
    usage = _python_m("moves")
    assert usage.returncode == 2 and "error:" in usage.stderr


def test_moves_too_many_plays_is_one_error_line(capsys):
    deck = " ".join(f"{rank}{suit}" for rank in "3456789TJQKA2" for suit in "scdh")
    status, out, err = run(capsys, "moves", deck)
    assert status == 2 and out == ""
    assert err.startswith("tienlen: error: ") and err.count("\n") == 1 and "MAX_MOVES" in err


def test_python_m_reader_leaving_early_is_quiet():
    # 18 cards give over 4,000 plays: far more than a pipe buffer holds.
    hand = "3s 3c 3d 3h 4s 4c 4d 4h 5s 5c 5d 5h 6s 6c 6d 6h 7s 7c"
    child = subprocess.Popen(
        [sys.executable, "-m", "tienlen", "moves", hand, "--ascii"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_child_env(),
    )
    assert child.stdout is not None and child.stderr is not None
    assert child.stdout.readline().startswith(b"hand: 3s 3c")
    child.stdout.close()
    assert child.wait(timeout=60) == 1
    assert child.stderr.read() == b""
    child.stderr.close()


def test_locked_out_needs_a_pile_and_never_says_pass_on_a_lead(capsys):
    # Issue 11 #11: `moves --locked-out` with no pile said "no legal plays: pass", though a
    # lead cannot pass (R5.1) and nobody is locked out on a lead (R5.2).
    status, out, err = run(capsys, "moves", "4s 5s", "--locked-out")
    assert status == 2 and out == ""
    assert "--locked-out needs --pile" in err
    status, out, _ = run(capsys, "moves", "4s 5s", "--locked-out", "--pile", "9h", "--ascii")
    assert status == 0 and "no legal plays: pass" in out
