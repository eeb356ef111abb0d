"""Hints name cards as structure, not text (issue 13): a hint's reason is a Wording whose
fields hold every card (and seat) it names, and the play screen draws those with its own
card renderer, in Unicode suits (red ♦ ♥) or ASCII letters. No regex rewrites the prose."""

from __future__ import annotations

from paths import DATA

import io
import json
from pathlib import Path

import pytest
from rich.console import Console

import tienlen.games.tienlen.board as render_module
from tienlen.games.tienlen.cards import Cards
from tienlen.games.tienlen.game import Game
from tienlen.games.tienlen.hints import Hint, hint
from tienlen.games.tienlen.match import score_hand
from tienlen.games.tienlen.refusals import Wording
from tienlen.games.tienlen.rules import Rules
from tienlen.table.board import PlaySettings
from tienlen.tui.session import Session
from tienlen.games.tienlen.board import Style, TienlenBoard, prose_text
from tienlen.tui.terminal import Terminal
from tienlen.games.tienlen.view import View

SUITS = "♠♣♦♥"
FIXTURE = DATA / "bot_decisions.json"


def _no_cards_in_text(text: str) -> bool:
    """With every card field drawn as "#", no suit symbol is left: each card is a field."""
    assert isinstance(text, Wording)
    drawn = text.render(card_text=lambda cards: "#")
    return not any(suit in drawn for suit in SUITS)


def test_every_card_a_hint_names_is_a_field() -> None:
    # The 600 recorded positions, at L1 and L2 (their texts are checked against main's in
    # test_bot_rules_aware.py), and a sample at L3 with its search note and forced lines.
    positions = json.loads(FIXTURE.read_text(encoding="utf-8"))["positions"]
    named = 0
    for index, position in enumerate(positions):
        game = Game.from_hands(position["hands"])
        for move in position["moves"]:
            game.apply_unchecked(move)
        view = game.view(game.turn)  # type: ignore[arg-type]
        levels = ("L1", "L2", "L3") if index % 40 == 0 else ("L1", "L2")
        for level in levels:
            reason = hint(view, level, iterations=30).reason
            assert _no_cards_in_text(reason), (index, level, reason)
            named += any(s in reason for s in SUITS)
    assert named > 50                      # plenty of reasons do name a card


def test_a_forced_line_names_its_moves_as_fields() -> None:
    # Two seats and every other card played, so the view pins down the opponent's hand:
    # L3's solver proves 9♠ 9♥, then 2♥, then 3♠ wins, and the hint lists those moves.
    hand, other = Cards.parse("3s 9s 9h 2h"), Cards.parse("4d 5d Kd")
    played = Cards(((1 << 52) - 1) & ~hand.mask & ~other.mask)
    view = View(seat=0, players=2, rules=Rules(), hand=hand, card_counts=(4, 3), played=played,
                pile=None, pile_owner=None, turn=0, locked_seats=frozenset(), finished=(),
                must_include=None, history=())
    reason = hint(view, "L3", iterations=30).reason
    assert "wins by force: 9♠ 9♥, then 2♥, then 3♠" in reason
    moves = [v for v in reason.fields.values() if isinstance(v, Cards)]
    assert Cards.parse("9s 9h") in moves and Cards.parse("3s") in moves
    assert _no_cards_in_text(reason)
    ascii_text = prose_text(reason, Style(ascii=True)).plain
    assert "wins by force: 9s 9h, then 2h, then 3s" in ascii_text
    assert not any(suit in ascii_text for suit in SUITS)


def _session(style: Style) -> tuple[Session, io.StringIO]:
    """Seed 1: seat 0 (you) leads first; the L2 hint keeps the 2♦ and says so."""
    out = io.StringIO()
    term = Terminal(stdin=io.StringIO(""), stdout=out)
    board = TienlenBoard.play(PlaySettings(seed=1, levels=("L1",) * 3, style=style,
                                           options={"hint_level": "L2"}))
    session = Session(board, term)
    assert board.game.turn == board.you == 0
    return session, out


@pytest.mark.parametrize(("ascii", "two"), [(False, "2♦"), (True, "2d")])
def test_the_play_screen_draws_the_hint_s_cards_itself(ascii: bool, two: str) -> None:
    session, out = _session(Style(ascii=ascii))
    reason = hint(session.board.game.view(0), "L2").reason
    assert Cards.parse("2d") in reason.fields.values()
    session._handle("h", 0)
    text = out.getvalue()
    assert f"your {two} for later" in text
    if ascii:
        assert not any(suit in text for suit in SUITS)


def test_unicode_hint_cards_are_coloured_by_suit() -> None:
    reason = Wording.concat("it keeps your ", Wording("{cards}", cards=Cards.parse("2d")),
                            " and your ", Wording("{cards}", cards=Cards.parse("2s")))
    text = prose_text(reason, Style())
    assert text.plain == "it keeps your 2♦ and your 2♠"
    red = [text.plain[span.start:span.end] for span in text.spans if str(span.style) == "red"]
    assert red == ["2♦"]
    console = Console(color_system="standard", force_terminal=True, width=60)
    with console.capture() as capture:
        console.print(text)
    assert "\x1b[31m2♦\x1b[0m" in capture.get()
    assert prose_text(reason, Style(ascii=True)).plain == "it keeps your 2d and your 2s"


def test_a_hint_still_reads_as_text_and_pickles_with_its_fields() -> None:
    import pickle

    session, _ = _session(Style())
    result = hint(session.board.game.view(0), "L2")
    assert str(result).startswith("Play ") and "2♦" in str(result)
    twin = pickle.loads(pickle.dumps(result))
    assert isinstance(twin, Hint) and twin == result
    assert twin.reason.fields == result.reason.fields


def test_penalty_details_name_their_cards_as_fields() -> None:
    # R11.5: the loser pays for each 2 left in hand; the detail names them as a field.
    game = Game.from_hands(["3s", "4s 2h 2d"], rules=Rules.southern(), leader=0)
    game.play("3s")
    (payment,) = score_hand(game).payments
    assert payment.detail.startswith("left 2♦ 2♥")
    assert prose_text(payment.detail, Style(ascii=True)).plain.startswith("left 2d 2h")


def test_no_regex_rewrites_prose_on_the_screen() -> None:
    source = Path(render_module.__file__).read_text(encoding="utf-8")
    assert "import re\n" not in source and "re.compile" not in source and ".sub(" not in source
