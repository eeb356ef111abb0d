"""Tiến Lên's words (tienlen.games.tienlen.words): one table per language (English and
Chinese) that the session, the board and the room read, with the person's own form of every
sentence that names a seat, and every refusal of a move worded in both."""

from __future__ import annotations

import re

from tienlen.games.tienlen.cards import Cards
from tienlen.games.tienlen.plays import Combo
from tienlen.games.tienlen.refusals import IllegalMoveError, Reason, Wording
from dataclasses import fields

import pytest

from tienlen.games.tienlen.game import Game
from tienlen.games.tienlen.words import LANGS, WORDS, describe, move_wording, refusal_text, words
from tienlen.table.errors import IllegalActionError
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
    assert get_spec("tienlen").words("zh") is words("zh") is WORDS["zh"]
    assert get_spec("tienlen").words("fr") is words("en") is WORDS["en"]
    error = IllegalMoveError(Reason.DOES_NOT_BEAT, Wording(
        "{subject} does not beat {pile}", subject=Cards.parse("4h"), pile=Cards.parse("10h")))
    assert refusal_text(error) == "4♥ does not beat 10♥"
    assert get_spec("tienlen").words("en").refusal(ValueError("not a card: 'zz'")) == \
        "not a card: 'zz'"


def test_a_play_reads_in_rank_order() -> None:
    assert [str(c) for c in Combo.from_cards("2s As Ks Qs Js").display_cards()] == \
        ["J♠", "Q♠", "K♠", "A♠", "2♠"]



def _cjk(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


def _texts(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, tuple):
        return [t for v in value for t in _texts(v)]
    return []


def test_every_english_key_has_a_chinese_entry_with_the_same_fields() -> None:
    """Issue 39 #6: a field the English table words and the Chinese one does not fails here
    (and a field ZH leaves out cannot even be built: the tables are dataclasses)."""
    assert LANGS == ("en", "zh") and set(WORDS) == set(LANGS)
    en, zh = WORDS["en"], WORDS["zh"]
    assert zh.lang == "zh"
    for f in fields(en):
        if f.name == "lang":
            continue
        ours, theirs = getattr(en, f.name), getattr(zh, f.name)
        assert type(ours) is type(theirs), f.name
        if isinstance(ours, tuple):
            assert len(ours) == len(theirs), f.name
        for a, b in zip(_texts(ours), _texts(theirs)):
            if a == b and re.fullmatch(r"\w+", a):      # a key (instant_wins' names)
                continue
            assert set(re.findall(r"\{(\w+)", a)) <= set(re.findall(r"\{(\w+)", b)) | {"error", "s"}, \
                (f.name, a, b)
            # every sentence in Chinese (a command's syntax, a name and 提示 stay as typed)
            if re.search(r"[a-z]{3}", re.sub(r"\{[^}]*\}", "", a)) and f.name != "help_rows":
                assert _cjk(b), (f.name, b)
    assert [row[1] for row in zh.help_rows] and all(_cjk(row[1]) for row in zh.help_rows)


def test_the_plays_have_their_usual_chinese_names() -> None:
    zh = WORDS["zh"]
    assert zh.kinds == ("单张", "对子", "三张", "炸弹", "顺子", "连对")
    assert describe(Combo.from_cards("3s 4s 5h 6d 7c"), "zh") == "顺子 3-7"
    assert describe(Combo.from_cards("9s 9h 9d"), "zh") == "三张 9"
    assert describe(Combo.from_cards("2s 2h 2d 2c"), "zh") == "炸弹 2"
    assert describe(Combo.from_cards("8s 8h"), "en") == Combo.from_cards("8s 8h").describe()
    assert zh.title == "越南十三张" and zh.hint_pass == "过"


def _refusals() -> list[IllegalMoveError]:
    """One refusal of each reason, from real games."""
    out: list[IllegalMoveError] = []
    attempts = [
        (Game.from_hands(["3s 4s", "5s 9h"]), lambda g: g.play("4s")),           # must include
        (Game.from_hands(["3s 4s", "5s 9h"]), lambda g: g.play("3s", seat=1)),   # not your turn
        (Game.from_hands(["3s 4s", "5s 9h"]), lambda g: g.play("9h")),           # not in hand
        (Game.from_hands(["3s 4s", "5s 9h"]), lambda g: g.play("3s 4s")),        # no combination
        (Game.from_hands(["3s 4s", "5s 9h"]), lambda g: g.pass_turn()),          # lead
    ]
    for game, act in attempts:
        with pytest.raises(IllegalMoveError) as info:
            act(game)
        out.append(info.value)
    g = Game.from_hands(["3s 4s 5s", "5d 9h Kc"])
    g.play("3s")
    with pytest.raises(IllegalMoveError) as info:
        g.play("5d 9h", seat=1)                                   # not a combination
    out.append(info.value)
    g.play("5d", seat=1)
    with pytest.raises(IllegalMoveError) as info:
        g.play("4s")                                              # lower top card
    out.append(info.value)
    return out


def test_every_refusal_of_a_move_is_worded_in_chinese_with_its_cards() -> None:
    refusals = _refusals()
    assert {e.reason for e in refusals} >= {Reason.MUST_INCLUDE_LOWEST, Reason.NOT_YOUR_TURN,
                                            Reason.CARDS_NOT_IN_HAND, Reason.NOT_A_COMBINATION,
                                            Reason.CANNOT_PASS_ON_LEAD, Reason.DOES_NOT_BEAT}
    for error in refusals:
        zh = refusal_text(error, "zh")
        assert _cjk(zh) and not re.search(r"[a-z]{4}", zh), (error.reason, zh)
        assert refusal_text(error, "en") == str(error.wording)
        # the same cards, drawn by the screen's renderer
        assert move_wording(error, "zh").render(card_text=lambda c: c.ascii()).isascii() is False
    # a table's refusal caused by a move's: worded from the move's fields
    cause = refusals[0]
    try:
        raise IllegalActionError(cause.reason.name, str(cause)) from cause
    except IllegalActionError as table_error:
        assert refusal_text(table_error, "zh") == "首轮首出必须包含 3♠"
    assert refusal_text(IllegalActionError("HAND_OVER", "the hand is over"), "zh") == \
        "本局已结束：请先发下一局"
