"""The review and the card tracker in the terminal session (issue 38), both games: ``k``
turns the tracker's line on under the board, ``?`` lists k and r, and after the hand ``r``
prints the review of the person's decisions, then the session goes on."""

from __future__ import annotations

import io

import pytest

from tienlen.table.board import PlaySettings
from tienlen.tui.session import play
from tienlen.tui.terminal import Terminal


class Scripted(Terminal):
    """Answers the session's questions: the tracker and help once, then hints taken, and
    at the end of the hand r (once), then stop."""

    def __init__(self) -> None:
        self.out = io.StringIO()
        super().__init__(stdin=io.StringIO(""), stdout=self.out)
        self.script = ["?", "k"]
        self.reviewed = False
        self.last = "y"

    def ask(self, prompt):  # type: ignore[no-untyped-def]
        text = str(prompt)
        self.console.print(text)
        if "(r:" in text or "（r：" in text:
            if not self.reviewed:
                self.reviewed = True
                return "r"
            return "q" if "q" in text.split("(r:")[0] or "q：" in text else "n"
        if self.script:
            return self.script.pop(0)
        self.last = "h" if self.last == "y" else "y"
        return self.last

    def confirm(self, question, *, default):  # type: ignore[no-untyped-def]
        # the yes/no question after a hand takes r too (Terminal.extra_answers)
        if ("(r:" in question or "（r：" in question) and not self.reviewed:
            self.reviewed = True
            self.extra_answers["r"]()
        return False


@pytest.mark.parametrize("game,lang", [("tienlen", "en"), ("guandan", "zh"),
                                       ("guandan", "en")])
def test_k_shows_the_tracker_and_r_reviews_the_hand(game: str, lang: str) -> None:
    term = Scripted()
    settings = PlaySettings(seat=0, seed=4, lang=lang, fast=True, levels=("L1",) * 3)
    assert play(game, settings, term) == 0
    out = term.out.getvalue()
    assert term.reviewed
    if lang == "zh":
        assert "记牌器" in out and "打开或关闭记牌器" in out
        assert "第 1 局" in out and "处失误" in out
    else:
        assert "tracker:" in out and "the card tracker's line on or off" in out
        assert "hand 1: seat 0's" in out and "mistake(s), costing" in out
