"""``tienlen review FILE`` (issue 38): both games' saved files, the text and the ``--json``
lines, the options, and one-line errors for bad files and options."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tienlen.cli.program import main
from tienlen.table import get_spec


def _saved(game: str, tmp_path: Path, seed: int = 7) -> Path:
    spec = get_spec(game)
    options = {"hands": 1} if game == "tienlen" else {"max_hands": 1}
    state = spec.new_match(seed, options=options)
    bots = [spec.make_bot("L1", seed=s) for s in range(4)]
    while state.phase not in ("hand_over", "over"):
        seat = state.turn
        state.apply(bots[seat].act(state.bot_view(seat)), seat)
    name, text = spec.match_file(state)
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("game", ["tienlen", "guandan"])
def test_json_is_one_object_per_decision(game: str, tmp_path: Path, capsys: Any) -> None:
    path = _saved(game, tmp_path)
    assert main(["review", str(path), "--json", "--seat", "1", "--deals", "16"]) == 0
    lines = capsys.readouterr().out.splitlines()
    record = get_spec(game).read_record(path.read_bytes())[-1]
    assert len(lines) == len([s for s in record.steps if s.seat == 1])
    for line, step in zip(lines, [s for s in record.steps if s.seat == 1]):
        row = json.loads(line)
        assert row["seat"] == 1 and row["turn"] == step.turn
        assert {"chosen", "best", "chosen_value", "chosen_error", "best_value", "best_error",
                "mistake", "cost"} <= set(row)
        assert row["chosen"]["kind"] == step.action["kind"]
        if row["mistake"]:
            assert row["cost"] > 0 and row["best"] != row["chosen"]


def test_the_same_seed_gives_the_same_review(tmp_path: Path, capsys: Any) -> None:
    path = _saved("guandan", tmp_path)
    outs = []
    for seed in (3, 3, 4):
        assert main(["review", str(path), "--json", "--deals", "12", "--seed", str(seed)]) == 0
        outs.append(capsys.readouterr().out)
    assert outs[0] == outs[1] != outs[2]


def test_text_marks_the_mistakes_in_chinese(tmp_path: Path, capsys: Any) -> None:
    path = _saved("guandan", tmp_path)
    assert main(["review", str(path), "--lang", "zh", "--deals", "16",
                 "--threshold", "0"]) == 0
    out = capsys.readouterr().out
    assert "第 1 局" in out and "处失误" in out
    if "✗" in out:
        assert "更好：" in out and "损失" in out


def test_a_tight_time_bound_says_so(tmp_path: Path, capsys: Any) -> None:
    path = _saved("guandan", tmp_path)
    assert main(["review", str(path), "--time", "0.001"]) == 0
    assert "not evaluated" in capsys.readouterr().out


@pytest.mark.parametrize("argv,message", [
    (["--seat", "7"], "seat must be 0..3"),
    (["--hand", "5"], "no finished hand 5"),
])
def test_bad_options_are_one_line_errors(argv: list[str], message: str, tmp_path: Path,
                                         capsys: Any) -> None:
    path = _saved("tienlen", tmp_path)
    assert main(["review", str(path), *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


@pytest.mark.parametrize("content,message", [
    (b"not json", "not a JSON replay"),
    (b'{"schema": "tienlen.guandan.match", "version": 1}', "missing field"),
    (b"x" * (2 << 20), "larger than"),
])
def test_bad_files_are_one_line_errors(content: bytes, message: str, tmp_path: Path,
                                       capsys: Any) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    assert main(["review", str(path)]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_a_missing_file_is_a_one_line_error(tmp_path: Path, capsys: Any) -> None:
    assert main(["review", str(tmp_path / "nothing.json")]) == 2
    assert "No such file" in capsys.readouterr().err


def test_a_tienlen_match_file_is_reviewed_hand_by_hand(tmp_path: Path, capsys: Any) -> None:
    """A Tiến Lên match file (``tienlen.Match.to_json``, schema ``tienlen.match``) is read
    like Guandan's: every finished hand is a record, ``--hand N`` picks one."""
    from tienlen.games.tienlen.match import Match

    match = Match(4, seed=11)
    for _ in range(2):
        while not match.game.is_over:
            plays = match.game.legal_plays()
            match.game.play(plays[0]) if plays else match.game.pass_turn()
        match.next_hand()
    path = tmp_path / "match.json"
    path.write_text(match.to_json(), encoding="utf-8")
    records = get_spec("tienlen").read_record(path.read_bytes())
    assert [record.hand for record in records] == [1, 2]
    assert records[0].steps != records[1].steps
    for hand in (1, 2):
        assert main(["review", str(path), "--json", "--hand", str(hand), "--deals", "8"]) == 0
        rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
        assert [row["turn"] for row in rows] == [s.turn for s in records[hand - 1].steps
                                                 if s.seat == 0]
    assert main(["review", str(path), "--hand", "3"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "the finished hands are 1, 2" in err
