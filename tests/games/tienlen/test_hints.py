"""Hints: a legal suggestion with a reason drawn from the hand split and the search."""

from __future__ import annotations

import pytest

from tienlen.games.tienlen.bots import PASS, BotError, make_bot
from tienlen.games.tienlen.cards import Cards
from tienlen.games.tienlen.game import Game
from tienlen.games.tienlen.hints import Hint, group_words, hint


def _after(hands, *moves, leader=None):
    game = Game.from_hands(hands, leader=leader)
    for move in moves:
        game.act(PASS if move == "pass" else Cards.parse(move))
    return game


@pytest.mark.parametrize("level", ["random", "L1", "L2", "L3"])
def test_a_hint_is_a_legal_move_of_the_seat_with_a_reason(level):
    for seed in range(5):
        game = Game(4, seed=seed)
        for _ in range(seed * 3):                # somewhere into the hand
            game.act(next(iter(game.legal_moves())) if not game.can_pass() else PASS)
        view = game.view(game.turn)
        h = hint(view, level, seed=seed, iterations=30)
        assert isinstance(h, Hint) and h.level == level and h.reason
        assert h.move in view.legal_moves() or (h.move is PASS and view.can_pass())
        assert str(h).startswith("Pass: " if h.is_pass else f"Play {h.move}: ")


def test_a_play_names_the_groups_it_keeps():
    game = _after(["4s 5c 6d 9h Ks Kh 2s", "3s 8d 10c Jd Qh Ah 7c"], "3s")
    h = hint(game.view(0), "L2")
    assert h.move == Cards.parse("9h")
    assert h.reason == "it keeps your 4-5-6 run, your pair of Ks and your 2♠ for later"


def test_a_pass_names_the_group_a_beating_move_would_break():
    # Only 8♣ beats 7♦, and it belongs to the 6-7-8 run.
    game = _after(["3s 7d 9c 10c Kc", "4s 4h 6h 7s 8c"], "7d", leader=0)
    assert str(hint(game.view(1), "L2")) == "Pass: your only beating move breaks your 6-7-8 run"
    # With several beating moves, each breaking something, the reason lists the groups.
    game = _after(["3s 5d 9c 10c Kc", "4s 4h 6h 7s 8c Jd Jh"], "5d", leader=0)
    assert str(hint(game.view(1), "L2")) == (
        "Pass: every move that beats it breaks your 6-7-8 run or your pair of Js")


def test_a_pass_explains_keeping_a_2():
    game = _after(["4s 5c 6d 9h Ks Kh 2s", "3s 8d 10c Jd Qh Ah 7c"], "3s", "9h", "Ah")
    h = hint(game.view(0), "L2")
    assert h.is_pass and "your 2♠ is worth more later" in h.reason


def test_an_l3_hint_reports_the_search_estimate_and_is_deterministic():
    game = _after(["4s 5c 6d 9h Ks Kh 2s", "3s 8d 10c Jd Qh Ah 7c"], "3s")
    a = hint(game.view(0), "L3", seed=3, iterations=80)
    assert a == hint(game.view(0), "L3", seed=3, iterations=80)
    assert a.average_place is not None and 1.0 <= a.average_place <= 2.0
    assert "in 80 sampled deals its average place is" in a.reason


def test_a_hint_follows_the_levels_choice():
    # Facing 3♠ with 4♠ 5♣ 6♦ 9♥ K♠ K♥ 2♠ the levels disagree, each by its documented
    # policy (tienlen.games.tienlen.bots): L1 plays the cheapest card that beats the pile, 4♠, though it
    # breaks the 4-5-6 run of the hand's split (run, pair of Ks, 2♠, and 9♥ left over);
    # L2 plays by that split, so the one card outside its groups, 9♥, keeping them all.
    # Each hint must name its own move and say what that move does to the groups.
    game = _after(["4s 5c 6d 9h Ks Kh 2s", "3s 8d 10c Jd Qh Ah 7c"], "3s")
    view = game.view(0)
    l1, l2 = hint(view, "L1"), hint(view, "L2")
    assert l1.move == Cards.parse("4s") and l2.move == Cards.parse("9h")
    assert str(l1) == ("Play 4♠: it breaks your 4-5-6 run; it keeps your pair of Ks and your "
                       "2♠ for later")
    assert str(l2) == "Play 9♥: it keeps your 4-5-6 run, your pair of Ks and your 2♠ for later"
    # At every level the hint is the move that level's bot makes in the same seat.
    for level in ("random", "L1", "L2"):
        for seed in range(3):
            assert hint(view, level, seed=seed).move == make_bot(level, seed=seed).choose(view)


def test_going_out_and_blocking_have_their_own_reasons():
    out = Game.from_hands(["3s 4s 5s", "9h 9d"], leader=0)
    assert hint(out.view(0), "L2").reason == "it is your last combination: you go out"
    block = _after(["4h 9d", "5s 6c 7d 8h Jh Kd Jc", "10s 10c 10d"], "4h", leader=0)
    h = hint(block.view(1), "L2")
    assert h.move == Cards.parse("Kd") and "seat 0 has 1 card left" in h.reason


def test_hint_rejects_unknown_levels_and_views_that_are_not_its_turn():
    game = Game.from_hands(["3s 4s", "5s 9h"])
    with pytest.raises(BotError, match="unknown hint level"):
        hint(game.view(0), "L5")
    with pytest.raises(ValueError, match="not its turn"):
        hint(game.view(1), "L2")


def test_group_words():
    assert group_words(Cards.parse("Ks Kh")) == "pair of Ks"
    assert group_words(Cards.parse("9s 9h 9d")) == "three 9s"
    assert group_words(Cards.parse("7s 7h 7d 7c")) == "four 7s"
    assert group_words(Cards.parse("10s Jc Qd")) == "10-J-Q run"
    assert group_words(Cards.parse("3s 3c 4d 4h 5s 5c")) == "3-4-5 double run"
    assert group_words(Cards.parse("2h")) == "2♥"


def test_the_search_note_skips_suit_twins_and_explains_a_win_first_choice():
    from tienlen.games.tienlen.bots.search import Estimate
    from tienlen.games.tienlen.explain import search_note as _search_note

    a, twin, other = Cards.parse("5s"), Cards.parse("5h"), Cards.parse("9s")
    plain = Estimate((a, twin, other, PASS), (1.5, 1.5, 1.8, 2.0), 50, (50, 50, 50, 50))
    assert _search_note(plain, a) == (
        "in 50 sampled deals its average place is 1.50, against 1.80 for 9♠")
    tie = Estimate((a, other), (1.6, 1.5), 50, (50, 50), (0.5, 0.4), 0)
    assert _search_note(tie, a) == (
        "in 50 sampled deals its average place is 1.60, level with 9♠ (1.50) within the "
        "noise, and it goes out first more often (50% against 40%)")
    dropped = Estimate((a, other), (1.5, 1.2), 50, (50, 8))
    assert _search_note(dropped, a) == "in 50 sampled deals its average place is 1.50"
