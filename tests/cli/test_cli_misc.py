"""The rest of the command line: --version, help, ``tienlen rules``, ``moves`` still working,
and the play front end's input parsing and card colouring, tested directly."""

from __future__ import annotations

from paths import REPO

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

import tienlen
from tienlen.games.tienlen.cards import Card, Cards
from tienlen.cli import main
from tienlen.games.tienlen.board import cards_from_input, save_path
from tienlen.tui.common import Command, parse_command
from tienlen.games.tienlen.board import Style, card_text, cards_text, ordinal
from tienlen.tui.rules_view import rules_text



def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    out = capsys.readouterr().out
    assert re.fullmatch(r"tienlen \d+\.\d+\.\d+\S*\n", out), out
    assert out.split()[1] == tienlen.__version__


def test_help_lists_every_subcommand(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    for command in ("play", "sim", "replay", "moves", "rules"):
        assert re.search(rf"^\s+{command}\s+\w", out, re.M), command


def test_no_subcommand_prints_the_help(capsys: pytest.CaptureFixture[str]) -> None:
    # Issue 11 #11: `tienlen` alone printed a usage error; now it shows what to do.
    assert main([]) == 2
    out, err = capsys.readouterr()
    assert err == ""
    for command in ("play", "sim", "replay", "moves", "rules"):
        assert re.search(rf"^\s+{command}\s+\w", out, re.M), command
    assert "tienlen play " in out and "tienlen COMMAND --help" in out


def test_rules_renders_rules_md(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    assert "The rules of Tiến Lên, as tienlen plays them" in out
    # Players get the rules; the contributors' note about test names stays in the file.
    assert "test whose name" not in out and "About this file" not in out
    assert "test whose name" in (REPO / "RULES.md").read_text(encoding="utf-8")
    for label in ("R1.1", "R4.1", "R7.3", "R10.2"):
        assert label in out
    assert "**R1.1**" not in out and "## R1" not in out  # rendered, not the raw markdown
    assert "quad" in out and "a single 2" in out  # the bomb table's cells


def test_rules_text_is_the_contract() -> None:
    assert rules_text() == (REPO / "RULES.md").read_text(encoding="utf-8")


def test_rules_from_the_command_line_works_without_a_terminal(tmp_path: Path) -> None:
    marker = tmp_path / "paged"
    env = dict(os.environ, PAGER=f"cat > {marker}")
    done = subprocess.run([sys.executable, "-m", "tienlen", "rules"], capture_output=True,
                          text=True, encoding="utf-8", stdin=subprocess.DEVNULL, timeout=30,
                          env=env)
    assert done.returncode == 0 and "R9.2" in done.stdout and "\x1b" not in done.stdout
    assert not marker.exists()  # piped: printed, no pager


def test_rules_on_a_terminal_go_through_the_pager(tmp_path: Path) -> None:
    # Issue 11 #11: 130 lines scrolled past with no pager.
    import pexpect

    from test_cli_play import child_env

    paged = tmp_path / "paged.txt"
    child = pexpect.spawn(sys.executable, ["-m", "tienlen", "rules"], encoding="utf-8",
                          env=child_env(PAGER=f"cat > {paged}", LESS="-X"),
                          dimensions=(24, 80), timeout=30)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "R9.2" not in child.before  # nothing printed past the pager
    text = paged.read_text(encoding="utf-8")
    assert "R1.1" in text and "R10.2" in text and "test whose name" not in text


def test_moves_still_works(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["moves", "3s 3c 4d 5h", "--pile", "3d", "--ascii"]) == 0
    assert capsys.readouterr().out == (
        "hand: 3s 3c 4d 5h (4 cards)\npile: single 3d\nsingles (2):\n  4d\n  5h\n"
        "total: 2 legal plays\n")


@pytest.mark.parametrize(
    ("line", "command"),
    [
        ("", Command("empty")),
        ("  p ", Command("pass")),
        ("PASS", Command("pass")),
        ("h", Command("hint")),
        ("hint", Command("hint")),
        ("y", Command("yes")),
        ("m", Command("moves")),
        ("moves", Command("moves")),
        ("?", Command("help")),
        ("help", Command("help")),
        ("q", Command("quit")),
        ("#12", Command("pick", number=12)),
        ("# 3", Command("pick", number=3)),
        ("²", Command("play", text="²")),  # a card name the parser then refuses
        ("3s 4s 5h", Command("play", text="3s 4s 5h")),
        ("1 2 3", Command("play", text="1 2 3")),
    ],
)
def test_parse_command(line: str, command: Command) -> None:
    assert parse_command(line) == command


def test_unicode_digits_are_refused_with_a_reason_not_an_int_error() -> None:
    # Issue 10 #10: `²` and `#²` raised "invalid literal for int()".
    with pytest.raises(ValueError, match="after # give the number of a move"):
        parse_command("#²")
    with pytest.raises(ValueError, match="not a card: '²'"):
        cards_from_input("²", Cards.parse("3s 4s"))
    with pytest.raises(ValueError, match="not a card: '٣'"):
        cards_from_input("٣", Cards.parse("3s 4s"))  # an Arabic-Indic 3: not a card number


def test_out_of_range_numbers_are_worded_for_a_single_item() -> None:
    # Issue 11 #11: "the moves are numbered 1-1".
    with pytest.raises(ValueError, match="your hand has one card, number 1"):
        cards_from_input("2", Cards.parse("9d"))
    with pytest.raises(ValueError, match="numbered 1-2"):
        cards_from_input("3", Cards.parse("9d 9h"))


def test_cards_from_input_takes_names_numbers_and_symbols() -> None:
    hand = Cards.parse("3s 4c 10h Qd As 2h")
    assert cards_from_input("1 2", hand) == Cards.parse("3s 4c")
    assert cards_from_input("10h", hand) == Cards.parse("10h")
    assert cards_from_input("A♠, 6", hand) == Cards.parse("As 2h")
    assert cards_from_input("Td", hand) == Cards.parse("10d")  # not held: the game says so
    with pytest.raises(ValueError, match="there is no card 0"):
        cards_from_input("0", hand)
    with pytest.raises(ValueError, match="3♠ is named twice"):
        cards_from_input("1 3s", hand)
    with pytest.raises(ValueError, match="not a card: 'zz'"):
        cards_from_input("zz", hand)


def test_save_path_keeps_every_hand(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    assert save_path(path, 1) == path
    assert save_path(path, 2) == tmp_path / "game-2.json"
    assert save_path(tmp_path / "game", 3) == tmp_path / "game-3.json"


def test_save_help_names_the_files_save_path_writes(capsys: pytest.CaptureFixture[str]) -> None:
    # Issue 11 #13: the help said FILE-n; the second hand goes to game-2.json.
    assert main(["play", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    names = [save_path(Path("game.json"), n).name for n in (1, 2, 3)]
    assert f"--save game.json writes {names[0]}, {names[1]}, {names[2]}" in text
    assert "FILE-n" not in text


def test_red_suits_are_red_and_black_suits_plain() -> None:
    style = Style()
    assert str(card_text(Card.parse("9h"), style).style) == "red"
    assert str(card_text(Card.parse("9d"), style).style) == "red"
    assert str(card_text(Card.parse("9s"), style).style) == ""
    assert str(card_text(Card.parse("9c"), style).style) == ""
    assert cards_text(Cards.parse("3s 10h"), Style(ascii=True)).plain == "3s 10h"
    console = Console(color_system="standard", force_terminal=True, width=40)
    with console.capture() as capture:
        console.print(cards_text(Cards.parse("5s 5h"), style))
    assert capture.get() == "5♠ \x1b[31m5♥\x1b[0m\n"


def test_ascii_style_turns_suit_symbols_in_plain_text_into_letters() -> None:
    # Plain text only (a legend, or text the player typed): messages that name cards are
    # Wordings, drawn card by card by prose_text (tests/test_hint_rendering.py).
    style = Style(ascii=True)
    message = "4♠ 5♠ does not beat 7♦ 8♦ 9♦: it has a lower top card (5♠ against 9♦)"
    assert style.words(message) == \
        "4s 5s does not beat 7d 8d 9d: it has a lower top card (5s against 9d)"
    assert style.words("Tiến Lên") == "Tien Len"
    assert style.words("a suit (s c d h or ♠ ♣ ♦ ♥)") == "a suit (s c d h or s c d h)"
    assert style.words("unknown card '4♠\ufe0f'") == "unknown card '4s'"   # emoji selector
    assert Style().words(message) == message


@pytest.mark.parametrize(("place", "word"), [(1, "1st"), (2, "2nd"), (3, "3rd"), (4, "4th")])
def test_ordinal(place: int, word: str) -> None:
    assert ordinal(place) == word


def test_rules_text_from_an_installed_wheel(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Outside a checkout the copy shipped inside the package is read."""
    from tienlen.tui import rules_view

    site = tmp_path / "site-packages"
    (site / "tienlen" / "tui").mkdir(parents=True)
    (site / "tienlen" / "RULES.md").write_text("# shipped rules\n", encoding="utf-8")
    monkeypatch.setattr(rules_view, "__file__", str(site / "tienlen" / "tui" / "rules_view.py"))
    monkeypatch.setattr(rules_view.resources, "files", lambda package: site / package)
    assert rules_view.rules_text() == "# shipped rules\n"
    (site / "tienlen" / "RULES.md").unlink()
    with pytest.raises(ValueError, match="RULES.md is missing from this installation"):
        rules_view.rules_text()
