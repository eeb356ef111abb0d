"""Guandan bots and hints: legal actions only, L2's partner and bomb discipline, the 提示
cycle weakest first."""

from __future__ import annotations

import numpy as np
import pytest

from tienlen.guandan import Game, Match, beats
from tienlen.games.guandan.bots import PlanBot, GreedyBot, make_bot, play_strength, plan_groups
from tienlen.games.guandan.hints import TipButton, hint, tip_plays
from tienlen.guandan import Cards


@pytest.mark.parametrize("levels", [("L1", "L2", "L1", "L2"), ("L2", "L2", "L1", "L1")])
def test_bots_play_whole_hands_with_tribute_legally(levels):
    match = Match(seed=21)
    bots = [make_bot(lv, seed=i) for i, lv in enumerate(levels)]
    while match.hand_number < 3 and not match.is_over:
        seat = match.turn
        kind, cards = bots[seat].decide(match.game.view(seat))
        match.act(kind, cards, seat)          # checked: an illegal choice would raise
    assert len(match.results) >= 3


def test_L3_decides_legally():
    # Its time per decision is a budget (time_ms), measured in bench/, not asserted here.
    game = Game(seed=4)
    bot = make_bot("L3", seed=1, time_ms=30)
    for _ in range(6):
        seat = game.turn
        kind, cards = bot.decide(game.view(seat))
        game.act(kind, cards, seat)


def test_L1_leads_its_lowest_single():
    game = Game(hands=["9s 9d 3c Ks", "4s", "5s", "6s"], leader=0)
    kind, play = GreedyBot().decide(game.view(0))
    assert kind == "play" and play.cards == Cards.parse("3c")


def test_L2_lets_the_partners_play_stand():
    game = Game(hands=["3s 4s 5s Ks", "9s 9d", "As 6s 6d", "7s 8s"], leader=0)
    game.play("Ks")
    game.pass_turn()
    assert game.can_play("As", seat=2)
    kind, _ = PlanBot().decide(game.view(2))
    assert kind == "pass"                                   # partner 0 is winning
    game2 = Game(hands=["3s 4s 5s Ks", "9s 9d", "As", "7s 8s"], leader=0)
    game2.play("Ks")
    game2.pass_turn()
    kind, play = PlanBot().decide(game2.view(2))
    assert kind == "play" and play.cards == Cards.parse("As")   # going out is worth it
    game3 = Game(hands=["3s 4s 5s Ks", "9s 9d", "As 6s 6d", "7s 8s"], leader=1)
    game3.play("9s")
    kind, play = PlanBot().decide(game3.view(2))
    assert kind == "play"                                   # an opponent's 9: beat it


SEAT0 = "3s 4d 6c 8h 10s Qd 9s 9d 9c 9h"


def test_L2_keeps_a_bomb_early():
    # The pile's owner keeps 13 cards, more than the plan's PLAN_BOMB_OWNER (12).
    game = Game(hands=[SEAT0, "As 5s 5d 7c 7d Jc Jd Kc Kd 3d 4h 9c 9h 10s", "3c 5c 6d 8d 10c Qc Ks",
                       "4c 6h 8c 10h Jh Qh Kh"], leader=1)
    game.play("As")
    game.pass_turn()
    game.pass_turn()
    assert game.turn == 0
    assert PlanBot().decide(game.view(0))[0] == "pass"


def test_L2_bombs_when_an_opponent_is_close_to_going_out():
    game = Game(hands=[SEAT0, "As 5s 5d", "3c 5c 6d 8d 10c Qc Ks", "4c 6h 8c 10h Jh Qh Kh"],
                leader=1)
    game.play("As")
    game.pass_turn()
    game.pass_turn()
    kind, play = PlanBot().decide(game.view(0))
    assert kind == "play" and play.is_bomb


def test_tip_button_cycles_plays_that_beat_weakest_first():
    game = Game(seed=8, leader=0)
    game.play(min(game.legal_plays(), key=play_strength))
    view = game.view(1)
    plays = tip_plays(view)
    assert plays and all(beats(p, game.pile) for p in plays)
    keys = [play_strength(p) for p in plays]
    assert keys == sorted(keys)
    button = TipButton(view)
    pressed = [button.press() for _ in range(len(plays) + 1)]
    assert pressed[:-1] == plays and pressed[-1] == plays[0]


def test_hint_gives_a_legal_action_and_a_reason():
    m = Match(seed=31)
    for _ in range(40):
        view = m.game.view(m.turn)
        h = hint(view)
        assert h.reason and str(h)
        m.act(h.kind, h.cards, m.turn)


def test_hint_never_breaks_a_bomb_of_four_4s_for_a_full_house():
    """Issue 28 item 15: holding 4444 and 99 against a full house, the plan took 444 + 99
    ("the smallest cost to your plan"): the rest then split into as many turns, so breaking
    the bomb looked free. A bomb is spent whole or kept."""
    from tienlen.guandan import Game
    from tienlen.games.guandan.plays import Kind

    hand = "4s 4h 4c 4d 9s 9d Ks Qd 7c 6h"
    # An opponent close to out (6 cards left after its full house): the trick matters, so
    # the 4s go as the bomb they are.
    game = Game(hands=[hand, "Ts Td Jc Qc 6s 6d 7s 7d", "Ac Ad Kc Kd 8h 8c",
                       "3s 3h 3c 5s 5d 8s 8d Js Jd Tc Th"], leader=3)
    game.play("3s 3h 3c 5s 5d")
    h = hint(game.view(0), "L2")
    assert h.kind == "play" and h.cards.kind is Kind.BOMB, str(h)
    # L3 may weigh the bomb against passing (on its 150 deals it passes), never the 444 + 99.
    h = hint(game.view(0))
    assert h.kind == "pass" or h.cards.kind is Kind.BOMB, str(h)
    # Nobody close to out (the full house's owner keeps 13 cards, more than the plan's
    # PLAN_BOMB_OWNER): keep the bomb and pass.
    game = Game(hands=[hand, "Ts Td Jc Qc 6s 6d 7s 7d", "Ac Ad Kc Kd 8h 8c Qh Qs",
                       "3s 3h 3c 5s 5d 8s 8d Js Jd Tc Th Ah As 9h 9c Kh Ks 7h"], leader=3)
    game.play("3s 3h 3c 5s 5d")
    h = hint(game.view(0), "L2")
    assert h.kind == "pass", str(h)
    assert "keep" in h.reason


def _endgame_games(seed: int, count: int):
    """Games played by L2 from a seeded deal until at most 14 cards are held in all."""
    made = 0
    s = seed
    while made < count:
        s += 1
        game = Game(seed=s)
        bots = [make_bot("L2", seed=p) for p in range(4)]
        while not game.is_over and sum(game.view(game.turn).hand_sizes) > 14:
            seat = game.turn
            kind, cards = bots[seat].decide(game.view(seat))
            game.act(kind, cards, seat)
        if not game.is_over:
            made += 1
            yield game


def test_L3_solves_its_sampled_endgames_legally_and_deterministically():
    """Issue 29: with at most 14 cards held, L3 scores its candidates on each sampled deal
    by the exact solver (its reason says the deals were played out perfectly); every action
    it takes to the end of the hand is legal (game.act checks) and the same seed gives the
    same hand."""
    solved = 0
    for game in _endgame_games(29, 4):
        runs = []
        for _ in range(2):
            g = game.copy()
            bots = [make_bot("L3", seed=p, iterations=12) for p in range(4)]
            actions = []
            while not g.is_over:
                seat = g.turn
                d = bots[seat].explain(g.view(seat))
                solved += "played out perfectly by both teams" in d.reason
                g.act(d.kind, d.cards, seat)
                actions.append((d.kind, str(d.cards)))
            runs.append((actions, g.places))
        assert runs[0] == runs[1]
    assert solved > 0
    # solver=False never claims it.
    game = next(_endgame_games(31, 1))
    d = make_bot("L3", seed=1, iterations=12, solver=False).explain(game.view(game.turn))
    assert "perfectly" not in d.reason


def _scripted_values(sampler, base, actions, seed, deals, *args):
    """A stand-in for the core's search (:func:`~tienlen._guandan.sample_values`) whose
    values are scripted by the deal's number d: candidate 0 (the plan's choice) alternately
    wins with the partner second (+3 levels) and loses with the opponents' partner last
    (-1); candidate 1 always wins with the partner last (+1); every other candidate loses
    with both opponents first (-3)."""
    first = args[-1]
    values = np.array([[(3 if d % 2 == 0 else -1) if i == 0 else 1 if i == 1 else -3
                        for d in range(first, first + deals)] for i in range(len(actions))],
                      np.int8)
    return values, 0


def test_L3_win_bonus_prefers_the_play_that_wins_the_hand_more_often(monkeypatch):
    # Both candidates score +1 level a hand on average; only the win bonus separates them:
    # 50% of hands won against 100%.
    from tienlen.games.guandan import bots

    game = Game(seed=4)
    view = game.view(game.turn)
    monkeypatch.setattr(bots._guandan, "sample_values", _scripted_values)
    levels_only = bots.SearchBot(seed=1, iterations=40, solver=False, win_bonus=0)
    plan = bots.plan_decision(view)
    cands = levels_only._candidates(view, plan)
    assert len(cands) >= 2
    held = levels_only.explain(view)
    assert held.why is not None and held.why.code == "SEARCH_HELD"
    assert (held.kind, held.cards) == (plan.kind, plan.cards)
    assert held.why.fields["win"] == 0.5 and held.why.fields["rate"] == 1.0
    bonus = bots.SearchBot(seed=1, iterations=40, solver=False)           # WIN_BONUS = 2
    assert bonus.win_bonus == bots.WIN_BONUS == 2.0
    took = bonus.explain(view)
    assert took.cards == cands[1] and took.why is not None
    assert took.why.fields["win"] == 1.0 and took.why.fields["rate"] == 1.0
    assert took.why.fields["base_win"] == 0.5 and took.why.fields["base_rate"] == 1.0


@pytest.mark.parametrize("bad", [-1, 101, "2", True, None])
def test_L3_refuses_a_bad_win_bonus(bad):
    with pytest.raises(ValueError, match="win_bonus"):
        make_bot("L3", seed=1, iterations=4, win_bonus=bad)


def test_G6_11_sampled_deals_place_the_cards_the_exchanges_made_public():
    """A seat that took no part in the exchange knows where the tribute and the return went
    (G6.11): every deal the L2/L3 sampling draws puts them there, and caps the payer's
    other cards at its tribute's value; big jokers shown to refuse tribute stay with their
    seats."""
    import random

    from tienlen.games.guandan.bots import _Knowledge
    from tienlen.games.guandan.game import single_value

    hs = ["3s 4s 5d 6d 8h", "5s 6s 7c 9c", "7s 8s Jd Jc", "9s Ks 4c 3c"]
    g = Game(hands=hs, level=2, previous_order=(0, 1, 2, 3))
    g.give_tribute("Ks")                         # seat 3 pays seat 0, who returns 4♠
    g.return_tribute("4s")
    view = g.view(1)
    known = _Knowledge(view)
    ks, four = Cards.parse("Ks").ids[0], Cards.parse("4s").ids[0]
    wild = view.config.wild_card(2)
    rng = random.Random(5)
    for _ in range(50):
        deal = known.sample(rng)
        assert ks in deal[0] and four in deal[3]
        assert all(single_value(c, 2) <= single_value(ks, 2) for c in deal[3]
                   if c != wild)                 # the wild may not be given (G6.3)
        assert [len(h) for h in deal] == [len(g.hand(s)) for s in range(4)]
    anti = Game(hands=["3s 4s", "5s 6s", "7s 8s", "BJ BJ 9s"], level=2,
                previous_order=(0, 1, 2, 3))
    known = _Knowledge(anti.view(1))
    for _ in range(20):
        assert known.sample(rng)[3].count(53) == 2


def test_L3_explanation_carries_what_it_weighed_and_the_debug_panel_words_it():
    # Issue 35: the AI-debug panel shows what L3 weighed: every candidate it priced on the
    # same deals, the chosen action first, the plan's marked once, worded in both languages.
    from tienlen.games.guandan import bots
    from tienlen.games.guandan.words import explanation_text

    game = Game(seed=4)
    view = game.view(game.turn)
    bot = bots.SearchBot(seed=1, iterations=24)
    cands = bot._candidates(view, bots.plan_decision(view))
    assert len(cands) >= 3
    d = bot.explain(view)
    assert d.why is not None
    weighed = d.why.fields["weighed"]
    assert len(weighed) == len(cands) and {w.play for w in weighed} == set(cands)
    assert weighed[0].play == d.cards and sum(w.plan for w in weighed) == 1
    assert [w.play for w in weighed if w.plan] == [cands[0]]
    assert all(0 <= w.win <= 1 for w in weighed)
    assert [w.gain for w in weighed[1:]] == sorted((w.gain for w in weighed[1:]), reverse=True)
    en = explanation_text(d.why, "en", voice="bot")
    zh = explanation_text(d.why, "zh", voice="bot")
    assert en.count("; ") >= len(cands) - 1 and "It weighed " in en and "(its plan)" in en
    assert "它比较了：" in zh and zh.count("；") >= len(cands) - 1
    assert "weighed" not in d.why.text("en")          # a hint speaks to the person, briefly


def test_L3_takes_deals_and_a_time_cap():
    # Issue 35: the room's hint is L3 on 300 deals cut short at 300 ms: with both, the
    # deals decide when the time suffices (the same choice as the deals alone), and the time
    # cuts them short when it does not.
    import time

    from tienlen.games.guandan.hints import HINT_ITERATIONS, HINT_TIME_MS, hint_bot

    game = Game(seed=4)
    view = game.view(game.turn)
    roomy = make_bot("L3", seed=3, iterations=8, time_ms=60_000).explain(view)
    alone = make_bot("L3", seed=3, iterations=8).explain(view)
    assert roomy == alone and roomy.why is not None
    assert roomy.why.fields["how"].fields["deals"] == 8
    t0 = time.perf_counter()
    capped = make_bot("L3", seed=3, iterations=10 ** 6, time_ms=40).explain(view)
    assert time.perf_counter() - t0 < 5
    assert capped.why is not None and 1 <= capped.why.fields["how"].fields["deals"] < 10 ** 6
    assert hint_bot(seed=1).name == f"L3(iterations={HINT_ITERATIONS}, time_ms={HINT_TIME_MS:g})"
    with pytest.raises(ValueError, match="time_ms"):
        make_bot("L3", seed=1, iterations=8, time_ms=0)


def test_L3_threads_change_the_speed_not_the_choice():
    # Issue 35: the sampled deals are drawn and scored on several threads at once; with a
    # deal budget the decision is the same on any number of threads.
    game = Game(seed=6)
    views = []
    bots = [make_bot("L2", seed=s) for s in range(4)]
    while not game.is_over and len(views) < 30:
        views.append(game.view(game.turn))
        kind, cards = bots[game.turn].decide(views[-1])
        game.act(kind, cards, game.turn)
    for view in views[::3]:
        made = {t: make_bot("L3", seed=2, iterations=16, threads=t).explain(view)
                for t in (1, 2, 3)}
        assert made[1] == made[2] == made[3]
    assert make_bot("L3", seed=1, threads=1).name == "L3(threads=1)"
    for bad in (0, 17, 1.0, "2", True):
        with pytest.raises(ValueError, match="threads"):
            make_bot("L3", seed=1, threads=bad)
