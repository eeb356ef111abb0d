"""Issue 39 in Guandan's shared words: one display order for plays (item 14), one wording
table per language that every front end reads (item 6), a bot's own move explained in the
third person (item 13), and the wording slips (item 16)."""

from __future__ import annotations

import io
import random
import re
from collections import Counter

import pytest

from tienlen.games.guandan.board import GuandanBoard, play_text
from tienlen.games.guandan.cards import Cards
from tienlen.games.guandan.explain import REASON_WORDS, Explanation
from tienlen.games.guandan.game import IllegalActionError
from tienlen.games.guandan.plays import Kind, classify, legal_plays
from tienlen.games.guandan.spec import play_json
from tienlen.games.guandan.words import (BOT_REASON_WORDS, WORDS, explanation_text, play_label,
                                         words)
from tienlen.table import get_spec
from tienlen.table.board import PlaySettings, Style
from tienlen.tui.session import Session
from tienlen.tui.terminal import Terminal


def _shown(text: str, level: int, reading: int = 0) -> str:
    return " ".join(str(c) for c in classify(text, level)[reading].display_cards())


# --- item 14: one display order ------------------------------------------------------


@pytest.mark.parametrize(("cards", "level", "shown"), [
    ("2s 2d Ks Kh Kc", 5, "K♠ K♥ K♣ 2♠ 2♦"),              # a full house: KKK22
    ("As 2s 3h 4c 5s", 7, "A♠ 2♠ 3♥ 4♣ 5♠"),              # the straight A-5: A2345
    ("10s Js Qs Ks As", 4, "10♠ J♠ Q♠ K♠ A♠"),            # 10 to A: the ace on top
    ("As Ah Ad 2s 2h 2c", 9, "A♠ A♥ A♦ 2♠ 2♥ 2♣"),         # the plate A-2
    ("Qs Qh Ks Kh As Ah", 5, "Q♠ Q♥ K♠ K♥ A♠ A♥"),         # three pairs
    ("SJ SJ BJ BJ", 2, "☆ ☆ ★ ★"),
])
def test_plays_read_in_the_order_players_read_them(cards: str, level: int, shown: str) -> None:
    assert _shown(cards, level) == shown


def test_a_wild_stands_where_it_stands_in() -> None:
    # Level 10: 10♥ is wild. In 3 4 _ 6 7 it is the 5; in a full house it completes the
    # triple before the pair.
    assert _shown("3s 4s 6s 7s 10h", 10) == "3♠ 4♠ 10♥ 6♠ 7♠"
    full = next(p for p in classify("5s 5c 10h Ks Kh", 10) if p.kind is Kind.FULL_HOUSE
                and p.rank == 13)
    assert " ".join(str(c) for c in full.display_cards()) == "K♠ K♥ 10♥ 5♠ 5♣"


def test_the_display_order_is_the_plays_cards_and_keeps_each_run_in_order() -> None:
    rng = random.Random(5)
    runs = {Kind.STRAIGHT: (5, 1), Kind.STRAIGHT_FLUSH: (5, 1), Kind.THREE_PAIRS: (3, 2),
            Kind.PLATE: (2, 3)}
    checked = 0
    for _ in range(60):
        ids = rng.sample(range(108), 14)
        hand = Cards.from_card_ids(ids)
        level = rng.randint(2, 14)
        for play in legal_plays(hand, level):
            shown = play.display_cards()
            assert Counter(shown) == Counter(play.cards), play
            if play.kind in runs and not play.uses_wild:
                width, copies = runs[play.kind]
                faces = [14 if r == 1 else r for r in range(play.rank - width + 1, play.rank + 1)
                         for _ in range(copies)]
                assert [c.rank for c in shown] == faces, play
                checked += 1
    assert checked > 50


def test_the_terminal_and_the_room_show_the_same_order() -> None:
    play = classify("2s 2d Ks Kh Kc", 5)[0]
    assert play_text(play, "en", Style()).plain.startswith("K♠ K♥ K♣ 2♠ 2♦  full house of K")
    data = play_json(play)
    assert data["cards"] == ["Ks", "Kh", "Kc", "2s", "2d"]
    # The view's cards still name a play the table accepts back.
    state = get_spec("guandan").new_match(seed=3)
    legal = state.legal_actions()
    assert all(isinstance(a.get("cards", []), list) for a in legal)


# --- item 6: one wording table per language, read by every front end -----------------


def test_a_refusal_is_worded_by_the_spec_in_either_language() -> None:
    from tienlen.guandan import Game

    game = Game(hands=["3s 3d 9s Js", "4s 5s", "6s 7s", "8s Ks"], leader=3)
    game.play("8s")
    with pytest.raises(IllegalActionError) as refused:
        game.play("3s", 0)
    spec = get_spec("guandan")
    assert spec.words("zh").refusal(refused.value) == \
        "压不过桌面上的牌：请出更大的同类牌或炸弹，或输入 p 过牌 (INVALID_CARDS)"
    assert spec.words("en").refusal(refused.value).endswith("(INVALID_CARDS)")
    # A table's refusal (no finer detail) still reads in Chinese, by its code.
    table = spec.new_match(seed=3)
    with pytest.raises(ValueError) as table_refusal:
        table.apply({"kind": "pass"}, table.turn)
    assert "英" not in spec.words("zh").refusal(table_refusal.value)
    assert spec.words("zh").refusal(table_refusal.value).startswith("首出不能过牌")


def test_every_language_has_every_word() -> None:
    en, zh = WORDS["en"], WORDS["zh"]
    for field in type(en).__dataclass_fields__:
        assert getattr(zh, field) is not None or field == "another_hand", field
        template = getattr(en, field)
        if isinstance(template, str) and isinstance(getattr(zh, field), str):
            names = set(re.findall(r"\{(\w+)", template))
            assert names == set(re.findall(r"\{(\w+)", getattr(zh, field))) or field in (
                "moves_title", "tribute_title"), field   # zh has no plural {s}


# --- item 13: a bot's own move, in the third person -----------------------------------


def _fields_for(code: str) -> dict[str, object]:
    play = classify("8s 8d", 5)[0]
    base = Explanation("LEAD", play=play)
    how = Explanation("DEALS_PLAN", deals=50)
    template = REASON_WORDS[code]["en"]
    values: dict[str, object] = {"play": play, "base": base, "how": how, "deals": 50,
                                 "rate": 0.25, "win": 0.5, "base_rate": -0.1, "base_win": 0.4,
                                 "plan": play, "value": 0.3, "style": "bomber", "action": play}
    return {name: values[name] for name in re.findall(r"\{(\w+)", template)}


@pytest.mark.parametrize("code", sorted(REASON_WORDS))
def test_every_reason_has_a_third_person_form(code: str) -> None:
    why = Explanation(code, **_fields_for(code))
    for lang, you in (("en", r"\byou(r)?\b"), ("zh", "你")):
        said = explanation_text(why, lang, voice="bot")
        assert not re.search(you, said), (code, lang, said)
    assert set(BOT_REASON_WORDS) <= set(REASON_WORDS)


def test_the_ai_debug_reason_speaks_of_the_bot() -> None:
    spec = get_spec("guandan")
    state = spec.new_match(seed=4)
    bot = spec.make_bot("L2", seed=1)
    seat = state.turn
    _, hint = bot.explain(state.bot_view(seat), "en")
    _, debug = bot.explain(state.bot_view(seat), "en", voice="bot")
    assert re.search(r"\byour?\b", hint) and not re.search(r"\byour?\b", debug)


# --- item 16: the wording slips --------------------------------------------------------


def test_no_you_leads_and_no_stray_words_in_a_whole_match() -> None:
    class Scripted(Terminal):
        def __init__(self) -> None:
            super().__init__(stdin=io.StringIO(), stdout=io.StringIO())
            self.lines = iter(["p", "t", "y"] * 3000)

        def ask(self, prompt: object) -> str:
            line = next(self.lines, None)
            if line is None:
                raise EOFError
            return line

    term = Scripted()
    board = GuandanBoard.play(PlaySettings(seed=6, levels=("L1",) * 3, lang="en"))
    Session(board, term).run()
    out = term.console.file.getvalue()  # type: ignore[attr-defined]
    assert "Everyone passed: you lead." in out
    assert not re.search(r"\bYou (leads|plays|passes|is|gives|returns)\b", out)


def test_the_rooms_words_are_fixed_in_both_languages() -> None:
    en, zh = words("en"), words("zh")
    assert en.won("Them", 3) == "Them win the hand: up 3 levels"
    assert en.won("Them", 1) == "Them win the hand: up 1 level"
    assert zh.won("对方", 3) == "对方获胜，升3级"              # no stray space
    assert en.wild_badge == "wild" and zh.wild_badge == "配"
    assert en.seat_line.format(who="You", left=en.cards_left.format(n=27),
                               status=en.tribute) == "You · 27 left · Tribute"


def test_jokers_are_named_as_the_cards_are_drawn() -> None:
    single = classify("SJ", 3)[0]
    assert play_label(single, "en", ascii=True) == "single SJ"
    assert play_label(single, "zh") == "单张 小王"
    assert play_text(single, "en", Style(ascii=True)).plain == "SJ  single SJ · 单张"
    assert play_text(single, "en", Style()).plain == "☆  single ☆ · 单张"
    assert play_json(single)["label"] == "single SJ"
    assert play_json(single)["label_zh"] == "单张 小王"



# --- item 3: whom a tribute goes to, in the table view ---------------------------------


@pytest.mark.parametrize("double", [False, True])
def test_the_view_says_whom_a_tribute_goes_to(double: bool) -> None:
    # Before delivery the view lists who may receive (the previous hand's first out, and
    # second for a double tribute); once delivered, the receiver, in the tributes and in
    # the history's give records. The rules decide; the view only says what they will do.
    spec = get_spec("guandan")
    for seed in range(200):
        state = spec.new_match(seed=seed, options={"max_hands": 3})
        bots = [spec.make_bot("L1", seed=s) for s in range(4)]
        while state.phase != "hand_over":
            state.apply(bots[state.turn].act(state.bot_view(state.turn)), state.turn)
        places = state.outcome()["places"]
        state.next_hand()
        if state.phase != "tribute" or (len(state.view(0)["tributes"]) == 2) != double:
            continue
        for seat in range(4):
            for t in state.view(seat)["tributes"]:
                assert t["receiver"] is None and t["may_go_to"] == places[:1 + double]
        while state.phase == "tribute":
            seat = state.turn
            record = state.apply(bots[seat].act(state.bot_view(seat)), seat)
            if record["kind"] == "give_tribute" and not double:
                assert record["to"] == places[0]
        tributes = state.view(0)["tributes"]
        assert sorted(t["receiver"] for t in tributes) == sorted(places[:1 + double])
        assert all("may_go_to" not in t for t in tributes)
        gives = [a for a in state.view(0)["history"] if a["kind"] == "give_tribute"]
        assert {a["seat"]: a["to"] for a in gives} == {t["payer"]: t["receiver"] for t in tributes}
        return
    pytest.skip("no such deal in 200 seeds")
