"""Tiến Lên's bots word their reasons in English and Chinese (the room's two languages):
hints, the AI-debug log in both voices, and the review, with the cards and seats a reason
names kept as fields whatever the language."""

from __future__ import annotations

import re
import string
from dataclasses import fields

import pytest

from tienlen.games.tienlen.cards import Cards
from tienlen.games.tienlen.explain import (EN, REASON_LANGS, REASON_WORDS, ZH, Explainer,
                                           group_words, reason_words)
from tienlen.games.tienlen.game import Game
from tienlen.games.tienlen.hints import hint
from tienlen.games.tienlen.refusals import Wording
from tienlen.games.tienlen.rules import Rules
from tienlen.table import get_spec

HAN = re.compile(r"[\u4e00-\u9fff]")
# English words a Chinese reason must not fall back to (card ranks and suits are fields).
ENGLISH = re.compile(r"\b(your|its|the|pair|run|keeps|breaks|pass|passing|beats|sampled|"
                     r"place|seat|cards?)\b")


def _names(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_phrase_has_both_languages_with_the_same_fields() -> None:
    assert REASON_LANGS == ("en", "zh") and set(REASON_WORDS) == {"en", "zh"}
    for f in fields(EN):
        if f.name == "lang":
            continue
        en, zh = getattr(EN, f.name), getattr(ZH, f.name)
        assert zh and _names(en) == _names(zh), f.name
        if f.name not in {"run_sep", "list_sep", "card", "cards", "possessive", "a_bomb"}:
            assert en != zh, f.name


def test_an_unknown_language_is_refused() -> None:
    with pytest.raises(ValueError, match="en, zh"):
        reason_words("fr")
    game = Game(4, seed=1)
    with pytest.raises(ValueError, match="fr"):
        hint(game.view(game.turn), "L2", lang="fr")


def test_groups_in_chinese() -> None:
    assert group_words(Cards.parse("Ks Kh"), lang="zh") == "对子 K"
    assert group_words(Cards.parse("9s 9h 9d"), lang="zh") == "三张 9"
    assert group_words(Cards.parse("7s 7h 7d 7c"), lang="zh") == "四张 7"
    assert group_words(Cards.parse("10s Jc Qd"), lang="zh") == "顺子 10-J-Q"
    assert group_words(Cards.parse("2h"), lang="zh") == "2♥"


def test_a_chinese_hint_says_what_the_english_one_says() -> None:
    game = Game.from_hands(["4s 5c 6d 9h Ks Kh 2s", "3s 8d 10c Jd Qh Ah 7c"])
    game.play("3s")
    en = hint(game.view(0), "L2")
    zh = hint(game.view(0), "L2", lang="zh")
    assert zh.move == en.move == Cards.parse("9h")
    assert en.reason == "it keeps your 4-5-6 run, your pair of Ks and your 2♠ for later"
    assert zh.reason == "这手保留你的顺子 4-5-6、你的对子 K和你的2♠以后再出"
    # the 2♠ it names stays a card field, drawn by the screen
    assert isinstance(zh.reason, Wording)
    assert Cards.parse("2s") in zh.reason.fields.values()


@pytest.mark.parametrize("level", ["L1", "L2", "L3"])
def test_chinese_reasons_over_whole_hands_have_no_english(level: str) -> None:
    spec = get_spec("tienlen")
    assert spec.reason_langs == ("en", "zh")
    checked = 0
    for seed in range(3 if level == "L3" else 6):
        state = spec.new_match(seed=seed, options={"hands": 1})
        bots = [spec.make_bot(level, seed=s) for s in range(4)]
        while state.turn is not None and state.phase == "play":
            seat = state.turn
            view = state.bot_view(seat)
            for voice in ("you", "bot"):
                action, zh = bots[seat].explain(view, "zh", voice=voice)
                same, en = bots[seat].explain(view, "en", voice=voice)
                assert action == same and zh != en
                assert HAN.search(zh) and not ENGLISH.search(zh), zh
                assert not (voice == "bot" and "你" in zh), zh
            state.apply(action, seat)
            checked += 1
    assert checked > 40


def test_the_pass_phrases_in_chinese_in_both_voices() -> None:
    # Nothing beats the pile: the reason says so, to the person or of the bot.
    game = Game.from_hands(["3s 4s", "2h 5d"], leader=1)
    game.play("2h")
    view = game.view(0)
    assert not view.legal_moves()
    assert Explainer(view, [], "you", "zh")._pass_reason() == "你的手里没有压得过的牌"
    assert Explainer(view, [], "bot", "zh")._pass_reason() == "它的手里没有压得过的牌"
    # What a locked-out seat could still play, from the ruleset's own table (R11.2).
    from tienlen.games.tienlen.explain import _out_of_turn_words
    assert _out_of_turn_words(Rules(), words=ZH) == "只能用炸弹压 2"
    assert _out_of_turn_words(Rules.southern(), words=ZH) == "只能用四连对压它能压的牌"
