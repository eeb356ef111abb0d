"""``tienlen replay FILE``: a hand saved by ``tienlen play --save`` replays action by action;
a corrupt or tampered copy is refused with the engine's ReplayError and exit status 2."""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path

import pexpect
import pytest

from tienlen.games.tienlen.cards import Cards
from tienlen.cli import main
from test_cli_play import CLEAR, child_env, run_piped, strip

NAMES = ("You", "Minh", "Lan", "Hoa")  # the names `play` saves with the replay


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished hand, saved by ``tienlen play --save`` (the person plays its first legal
    move, or passes)."""
    path = tmp_path_factory.mktemp("replay") / "hand.json"
    done = run_piped("--seed", "21", "--bots", "L2", "--save", str(path),
                     stdin="m\n#1\np\n" * 40)
    assert done.returncode == 0, done.stderr
    assert path.exists(), done.stdout
    return path


def replay(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["replay", *args])
    out, err = capsys.readouterr()
    return status, out, err


def expected_line(number: int, action: dict, leads: bool) -> str:
    name = NAMES[action["seat"]]
    if action["action"] == "pass":
        return f"{number:>3}. {name} passes"
    verb = "leads" if leads else "plays"
    return f"{number:>3}. {name} {verb} {Cards.parse(action['cards'])}"


def test_replay_shows_every_action_and_the_finishing_order(
    saved: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = json.loads(saved.read_text(encoding="utf-8"))
    status, out, err = replay(capsys, str(saved))
    assert (status, err) == (0, "")
    actions = record["actions"]
    assert f"{saved.name}: all {len(actions)} actions verified against the rules." in out
    lines = [line for line in out.splitlines()
             if re.match(r"\s*\d+\. (?:You|Minh|Lan|Hoa) ", line)]
    assert len(lines) == len(actions)
    for number, (line, action) in enumerate(zip(lines, actions), start=1):
        # Whether a play leads is the screen's to say; the seat, verb and cards must match.
        assert line.startswith(expected_line(number, action, "leads" in line)), line
    assert lines[0].startswith("  1. ") and " leads " in lines[0]
    table = out[out.index("Finishing order"):]
    order = re.findall(r"(?:1st|2nd|3rd|4th) │ (\w+)", table)
    assert order == [NAMES[seat] for seat in record["finished"]]
    assert f"{order[-1]} finished last, left holding" in out
    assert f"action {len(actions)}/{len(actions)}" in out
    assert "\x1b" not in out


def test_replay_step_waits_for_enter_and_stops_on_q(
    saved: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n\nq\n"))
    status, out, _ = replay(capsys, str(saved), "--step")
    assert status == 0
    assert out.count("Enter: next, q: stop") == 3
    assert re.search(r"^\s+2\. [A-Z]", out, re.M)
    assert not re.search(r"^\s+3\. [A-Z]", out, re.M)
    assert "Finishing order" not in out


def test_replay_title_shows_the_users_seed_and_the_players_names(
    saved: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Issue 11 #5: the title showed the internal deal seed and "Seat 0".."Seat 3".
    from tienlen.games.tienlen.game import Game
    from tienlen.games.tienlen.match import Match

    record = json.loads(saved.read_text(encoding="utf-8"))
    assert record["names"] == list(NAMES) and record["match"] == {"seed": 21, "hand": 1}
    # The seed shown is the one `tienlen play --seed 21` deals this hand from.
    assert [h.ascii() for h in Match(4, seed=21).game.initial_hands] == record["hands"]
    status, out, _ = replay(capsys, str(saved))
    assert status == 0
    assert f"replay · {saved.name} · seed 21, hand 1 · action 0/" in out
    assert re.search(r"\b0\s+You\b", out) and re.search(r"\b1\s+Minh\b", out)
    assert "Seat 0" not in out and str(record["seed"]) not in out

    # A replay without the labels (older files, Game.to_json) still loads, as before.
    plain = tmp_path / "plain.json"
    plain.write_text(Game.from_json(saved.read_text(encoding="utf-8")).to_json(),
                     encoding="utf-8")
    status, out, _ = replay(capsys, str(plain))
    assert status == 0
    assert f"deal seed {record['seed']} · action 0/" in out and "Seat 3" in out


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r.update(match={"seed": 22, "hand": 1}), "match: hand 1 of match seed 22"),
        (lambda r: r.update(match={"seed": 21}), 'match: expected {"seed": S, "hand": n}'),
        (lambda r: r.update(names=["You", "Minh"]), "names: expected 4 names, got 2"),
        (lambda r: r["names"].__setitem__(1, 7), "names[1]: expected a string"),
        (lambda r: r["names"].__setitem__(1, "x" * 41), "names[1]: a name is 1 to 40"),
    ],
)
def test_replay_refuses_tampered_labels(
    saved: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], change, message: str
) -> None:
    path = tampered(saved, tmp_path, change)
    status, out, err = replay(capsys, str(path))
    assert status == 2 and out == ""
    assert err.startswith(f"tienlen: error: {path} is not a valid replay: ")
    assert message in err


def test_replay_in_a_terminal_redraws_each_action(saved: Path) -> None:
    child = pexpect.spawn(sys.executable, ["-m", "tienlen", "replay", str(saved), "--fast"],
                          env=child_env(), dimensions=(50, 120), encoding="utf-8",
                          timeout=30)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    raw = child.before
    actions = len(json.loads(saved.read_text(encoding="utf-8"))["actions"])
    assert raw.count(CLEAR) == actions + 1  # the deal, then once per action
    last = strip(raw.rsplit(CLEAR, 1)[-1])
    assert f"action {actions}/{actions}" in last and "Finishing order" in last


def tampered(saved: Path, tmp_path: Path, change) -> Path:
    record = json.loads(saved.read_text(encoding="utf-8"))
    change(record)
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    return path


def first_play(record: dict) -> int:
    return next(i for i, a in enumerate(record["actions"]) if a["action"] == "play")


def test_replay_refuses_a_tampered_action_with_exit_2(
    saved: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = json.loads(saved.read_text(encoding="utf-8"))
    index = first_play(record)
    seat = record["actions"][index]["seat"]
    # Give the first play a card from another seat's hand.
    stolen = Cards.parse(record["hands"][(seat + 1) % 4]).ascii().split()[0]

    def steal(r: dict) -> None:
        r["actions"][index]["cards"] = stolen

    path = tampered(saved, tmp_path, steal)
    status, out, err = replay(capsys, str(path))
    assert status == 2 and out == ""
    assert err.startswith(f"tienlen: error: {path} is not a valid replay: "
                          f"actions[{index}]: seat {seat} cannot play ")
    assert "you do not hold" in err
    assert err.count("\n") == 1


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r.update(finished=list(reversed(r["finished"]))), "finished: the actions"),
        (lambda r: r.update(version=99), "version: unsupported version 99"),
        (lambda r: r["hands"].reverse(), "hands[0]:"),
        (lambda r: r["actions"].pop(), "finished: the actions"),
    ],
)
def test_replay_refuses_other_tampering_with_the_engines_message(
    saved: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], change, message: str
) -> None:
    path = tampered(saved, tmp_path, change)
    status, out, err = replay(capsys, str(path))
    assert status == 2 and out == ""
    assert err.startswith(f"tienlen: error: {path} is not a valid replay: ")
    assert message in err


def test_replay_of_a_file_that_is_not_json_or_is_missing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    junk = tmp_path / "junk.json"
    junk.write_text("{not json", encoding="utf-8")
    status, _, err = replay(capsys, str(junk))
    assert status == 2 and "not a JSON replay" in err
    status, _, err = replay(capsys, str(tmp_path / "missing.json"))
    assert status == 2
    assert err == f"tienlen: error: cannot read {tmp_path / 'missing.json'}: " \
                  "No such file or directory\n"
