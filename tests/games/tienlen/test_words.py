"""Tiến Lên's words (tienlen.games.tienlen.words): one table the session and the board read,
with the person's own form of every sentence that names a seat."""

from __future__ import annotations

import re

from tienlen.games.tienlen.cards import Cards
from tienlen.games.tienlen.plays import Combo
from tienlen.games.tienlen.refusals import IllegalMoveError, Reason, Wording
from tienlen.games.tienlen.words import WORDS, refusal_text, words
from tienlen.table import get_spec


def test_every_sentence_naming_a_seat_has_the_persons_form() -> None:
    en = WORDS["en"]
    fields = set(type(en).__dataclass_fields__)
    for name in fields:
        if name.endswith("_you"):
            base = name.removesuffix("_you")
            assert base in fields
            # the same fields, a verb that agrees with "You"
            assert set(re.findall(r"\{(\w+)", getattr(en, base))) == \
                set(re.findall(r"\{(\w+)", getattr(en, name)))
    assert en.says("ev_pass", you=True).format(who="You") == "You pass"
    assert en.says("ev_pass", you=False).format(who="Minh") == "Minh passes"


def test_the_spec_gives_the_words_and_words_a_refusal() -> None:
    assert get_spec("tienlen").words("zh") is words("en") is WORDS["en"]
    error = IllegalMoveError(Reason.DOES_NOT_BEAT, Wording(
        "{subject} does not beat {pile}", subject=Cards.parse("4h"), pile=Cards.parse("10h")))
    assert refusal_text(error) == "4♥ does not beat 10♥"
    assert get_spec("tienlen").words("en").refusal(ValueError("not a card: 'zz'")) == \
        "not a card: 'zz'"


def test_a_play_reads_in_rank_order() -> None:
    assert [str(c) for c in Combo.from_cards("2s As Ks Qs Js").display_cards()] == \
        ["J♠", "Q♠", "K♠", "A♠", "2♠"]
