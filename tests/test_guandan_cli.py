"""``tienlen play --game guandan`` (the training mode) through a pseudo-terminal and through a
pipe; ``moves --game guandan``, ``replay`` of a Guandan match and ``sim --game guandan``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pexpect

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


def test_pty_training_mode_hint_refusal_tip_and_quit(tmp_path):
    save = tmp_path / "m.json"
    child = pexpect.spawn(sys.executable, ["-m", "tienlen", "play", "--game", "guandan",
                                           "--seed", "4", "--lang", "en", "--bots", "L1",
                                           "--save", str(save)],
                          env=env(), encoding="utf-8", timeout=TIMEOUT, dimensions=(50, 200))
    child.expect("Guandan training mode")
    child.expect("hand 1")
    child.expect(r"Your hand \(27\)")
    child.expect("Your move> ")
    child.sendline("h")
    child.expect("hint: play ")
    child.expect("Your move> ")
    child.sendline("p")                          # seed 4: seat 0 leads, so passing is refused
    child.expect("CANNOT_PASS")
    child.expect("Your move> ")
    child.sendline("9s 9s 9s")                   # a third copy: not cards at all
    child.expect("Refused")
    child.expect("Your move> ")
    child.sendline("t")
    child.expect(r"tip: (\S+)")
    child.expect("Your move> ")
    child.sendline("y")
    child.expect("You: plays")
    child.expect(["Your move> ", "tribute> ", "return> "])
    child.sendline("q")
    child.expect("Bye.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    match = Match.from_json(save.read_text(encoding="utf-8"))   # the save replays
    first = match.history[0][1]
    assert first.seat == 0 and first.action == "play"


def test_piped_whole_match_in_chinese_with_save_and_replay(tmp_path):
    save = tmp_path / "match.json"
    script = "t\ny\np\n" * 3000
    out = run("play", "--game", "guandan", "--seed", "4", "--bots", "L1", "--save", str(save),
              stdin=script, LANG="zh_CN.UTF-8")
    assert out.returncode == 0, out.stderr
    text = out.stdout
    for label in ("掼蛋训练模式", "出牌", "过牌", "提示", "头游", "末游", "级数"):
        assert label in text, label
    assert "进贡" in text and "还贡" in text
    data = json.loads(save.read_text(encoding="utf-8"))
    match = Match.from_json(save.read_text(encoding="utf-8"))
    assert match.is_over and data["winner"] == match.winner
    assert "赢得比赛" in text
    rep = run("replay", str(save), "--lang", "en")
    assert rep.returncode == 0 and "wins the match" in rep.stdout
    # Tampering: a seat plays out of turn.
    data["actions"][0]["seat"] = (data["actions"][0]["seat"] + 1) % 4
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    rep = run("replay", str(bad))
    assert rep.returncode == 2 and "actions[0]" in rep.stderr and "NOT_YOUR_TURN" in rep.stderr


def test_piped_input_ends_cleanly_at_eof():
    out = run("play", "--game", "guandan", "--seed", "1", "--lang", "en", stdin="h\n")
    assert out.returncode == 0 and "hint:" in out.stdout and "Bye." in out.stdout


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
    assert "6 hands (3 boards x 2 seatings)" in out.stdout and "A - B places" in out.stdout


def test_cards_in_the_view_are_the_players_own():
    m = Match(4)
    view = m.game.view(0)
    assert view.hand == m.game.hand(0) and len(view.hand) == 27
    assert isinstance(view.hand, Cards)
    assert view.hand_sizes == (27, 27, 27, 27)
