"""Scenario tests of GUANDAN.md G5-G8, one or more per clause, named after the labels.
Expected outcomes are worked out by hand from the rulings."""

from __future__ import annotations

import pickle

import pytest

from tienlen.guandan import Cards, Game, GuandanError, IllegalActionError, Match, RuleConfig, deal
from tienlen.games.guandan.game import tribute_candidates
from tienlen.games.guandan.match import settle

TEAMS = ((0, 2), (1, 3))


def hands(*texts: str) -> list[Cards]:
    return [Cards.parse(t) for t in texts]


def refused(obj, fn, reason: str, *args, detail: str | None = None, **kw) -> None:
    before = obj.copy()
    with pytest.raises(IllegalActionError) as info:
        fn(*args, **kw)
    assert info.value.reason == reason, info.value
    if detail:
        assert info.value.detail == detail
    assert obj == before


# ---------------------------------------------------------------- G5 a hand

def test_G5_1_deal_is_seeded_and_whole():
    g = Game(seed=42)
    assert g.initial_hands == deal(42) == Game(seed=42).initial_hands
    assert [len(h) for h in g.initial_hands] == [27] * 4
    assert sum(g.initial_hands[1:], g.initial_hands[0]) == Cards.from_card_ids(range(108))
    assert Game(seed=43).initial_hands != g.initial_hands
    assert Match(5).teams == TEAMS


def test_G5_1_random_teams_come_from_the_match_seed():
    config = RuleConfig(team_formation="RANDOM")
    seen = {Match(s, config).teams for s in range(40)}
    assert all(Match(s, config).teams == Match(s, config).teams for s in range(5))
    assert seen == {((0, 1), (2, 3)), ((0, 2), (1, 3)), ((0, 3), (1, 2))}


def test_G5_2_first_lead_drawn_from_the_match_seed():
    leaders = [Match(s).game.turn for s in range(60)]
    assert set(leaders) == {0, 1, 2, 3}
    assert all(Match(s).game.turn == Match(s).first_leader == leaders[s] for s in range(10))
    assert all(Match(s).game.phase == "play" for s in range(10))


def test_G5_3_turn_order_skips_seats_that_are_out():
    g = Game(hands=hands("3s 4s", "9s", "5s 6s", "7s 8s"), leader=1)
    g.play("9s")                              # seat 1 goes out on the lead
    assert g.finished == (1,) and g.turn == 2
    g.pass_turn()
    g.pass_turn()                             # seat 3
    assert g.turn == 0
    g.pass_turn()                             # seat 0: everyone still in has passed
    assert g.turn == 3 and g.pile is None     # 接风: seat 1's partner 3 leads
    g.play("7s")
    assert g.turn == 0                        # 3 -> 0, skipping nobody; then 0 -> 2 skips 1
    g.pass_turn()                             # seat 0; next is 2, skipping seat 1 (out)
    assert g.turn == 2


def test_G5_4_a_pass_does_not_lock_a_player_out():
    g = Game(hands=hands("3s Ks", "4s 5s", "6s 7s", "8s 9s"), leader=0)
    g.play("3s")
    g.pass_turn()                             # seat 1
    g.play("6s")                              # seat 2
    g.pass_turn()                             # seat 3
    g.play("Ks")                              # seat 0
    assert g.turn == 1 and g.can_play("5s") is False and g.can_pass()
    g2 = Game(hands=hands("3s 8s", "4s As", "6s 7s", "9s 10s"), leader=0)
    g2.play("3s")
    g2.pass_turn()                            # seat 1 passes on the 3
    g2.play("6s")
    g2.pass_turn()
    g2.pass_turn()                            # seat 0
    assert g2.turn == 1 and g2.can_play("As")  # seat 1 plays again in the same trick
    g2.play("As")


def test_G5_4_the_leader_must_play():
    g = Game(hands=hands("3s", "4s", "5s", "6s"), leader=2)
    refused(g, g.pass_turn, "CANNOT_PASS")


def test_G5_5_trick_ends_with_the_last_player_to_play_leading():
    g = Game(hands=hands("3s 4s", "5s 6s", "7s 8s", "9s 10s"), leader=0)
    g.play("3s")
    g.play("5s")
    g.pass_turn()
    g.pass_turn()
    g.pass_turn()                             # seat 0 passes too
    assert g.turn == 1 and g.pile is None and not g.can_pass()


def test_G5_6_partner_takes_the_wind_after_a_player_goes_out_on_a_bomb():
    g = Game(hands=hands("4s 4d 4c 4s", "9s 10s", "5s 6s", "7s 8s"), leader=3)
    g.play("8s")
    g.play("4s 4s 4c 4d")                     # seat 0 bombs out
    assert g.finished == (0,) and g.pile_owner == 0
    for seat in (1, 2, 3):
        g.pass_turn(seat=seat)
    assert g.turn == 2 and g.pile is None     # 接风: the partner leads
    assert not g.is_over


def test_G5_6_wind_only_after_everyone_still_in_passes():
    g = Game(hands=hands("As", "Ks 3s", "5s 6s", "7s 8s"), leader=0)
    g.play("As")
    g.pass_turn()
    g.pass_turn()
    assert g.turn == 3                        # seat 3 still to answer
    g.pass_turn()
    assert g.turn == 2


def test_G5_7_hand_ends_when_a_team_is_out_before_any_wind():
    g = Game(hands=hands("Ks", "3s 4s", "As", "5s 6s"), leader=2)
    g.play("As")                              # seat 2 out
    g.pass_turn()
    g.pass_turn()                             # seat 0 passes
    g.pass_turn()                             # seat 1: wind to seat 0
    assert g.turn == 0
    g.play("Ks")                              # seat 0 out: team 0,2 done
    assert g.is_over and g.phase == "over" and g.turn is None
    assert g.places[:2] == (2, 0) and set(g.places[2:]) == {1, 3}
    refused(g, g.pass_turn, "GAME_OVER")


def test_G5_8_places_partner_still_in_takes_fourth():
    g = Game(hands=hands("3s", "As", "4s 5s", "Ks"), leader=0)
    g.play("3s")                              # 0 out first
    g.play("As")                              # 1 out
    g.pass_turn()                             # 2
    g.pass_turn()                             # 3; 1's partner 3 takes the wind
    assert g.turn == 3
    g.play("Ks")                              # 3 out: team 1,3 done; partner 2 is 4th
    assert g.places == (0, 1, 3, 2)
    assert g.winning_team == (0, 2)


# ---------------------------------------------------------------- G6 tribute

def test_G6_1_no_tribute_in_the_first_hand():
    m = Match(9)
    assert m.game.phase == "play" and m.game.tributes == () and m.game.turn == m.first_leader


def test_G6_1_tribute_judged_at_the_new_level():
    # At level 5 the 5♠ outranks the A: the payer must give 5♠.
    g = Game(hands=hands("3s", "4s", "6s", "As 5s 2d"), level=5, previous_order=(0, 1, 2, 3))
    assert g.turn == 3 and g.verify_give_tribute("5s") == 12
    refused(g, g.give_tribute, "INVALID_TRIBUTE", "As")


def test_G6_2_single_tribute_last_pays_after_first_and_third():
    g = Game(hands=hands("3s 4s", "5s 6s", "7s 8s", "9s Ks"), level=3, previous_order=(0, 1, 2, 3))
    assert [t.payer for t in g.tributes] == [3] and g.turn == 3
    g.give_tribute("Ks")
    assert g.tributes[0].receiver == 0 and g.turn == 0
    assert g.hand(0) == Cards.parse("3s 4s Ks")


def test_G6_2_single_tribute_third_pays_when_partner_last():
    g = Game(hands=hands("3s 4s", "5s Qs", "7s 8s", "9s Ks"), level=3, previous_order=(0, 3, 1, 2))
    assert [t.payer for t in g.tributes] == [1]        # seat 1 came third, partner 2 last
    g.give_tribute("Qs")
    assert g.tributes[0].receiver == 0


def test_G6_3_highest_card_and_wilds():
    # Level 7: 7♥ is wild, 7♦ is a level card (value above A), ★ above all.
    hs = hands("3s", "4s", "5s", "7h As 7d")
    g = Game(hands=hs, level=7, previous_order=(0, 1, 2, 3))
    assert g.can_give_tribute("7d") and not g.can_give_tribute("7h") and not g.can_give_tribute("As")
    g2 = Game(hands=hs, level=7, previous_order=(0, 1, 2, 3), config=RuleConfig(can_tribute_wild=True))
    assert g2.can_give_tribute("7h") and g2.can_give_tribute("7d")   # equal value
    g3 = Game(hands=hands("3s", "4s", "5s", "BJ 7d"), level=7, previous_order=(0, 1, 2, 3))
    assert g3.can_give_tribute("BJ") and not g3.can_give_tribute("7d")


def test_G6_4_return_card_limits():
    g = Game(hands=hands("Js Qs 10d 7s 2c", "5s", "6s", "Ks"), level=7, previous_order=(0, 1, 2, 3))
    g.give_tribute("Ks")
    refused(g, g.return_tribute, "INVALID_TRIBUTE", "Js")     # above 10
    refused(g, g.return_tribute, "INVALID_TRIBUTE", "7s")     # the level rank
    refused(g, g.return_tribute, "INVALID_TRIBUTE", "Ks")
    assert g.can_return_tribute("10d") and g.can_return_tribute("2c")
    g.return_tribute("10d")
    assert g.hand(3) == Cards.parse("10d") and g.hand(0) == Cards.parse("Js Qs 7s 2c Ks")


def test_G6_4_without_a_qualifying_card_the_lowest_goes_back():
    g = Game(hands=hands("Js Qs Qd", "5s", "6s", "Ks"), level=2, previous_order=(0, 1, 2, 3))
    g.give_tribute("Ks")
    assert not g.can_return_tribute("Qs")
    assert g.can_return_tribute("Js")
    g2 = Game(hands=hands("Js Jd Qd", "5s", "6s", "Ks"), level=2, previous_order=(0, 1, 2, 3))
    g2.give_tribute("Ks")
    assert g2.can_return_tribute("Js") and g2.can_return_tribute("Jd")   # any copy of the lowest


def test_G6_5_double_tribute_higher_card_to_first_out():
    g = Game(hands=hands("3s 4s", "Ks 5s", "6s 7s", "As 8s"), level=2, previous_order=(0, 2, 1, 3))
    assert [t.payer for t in g.tributes] == [1, 3]
    assert g.turn == 1
    g.give_tribute("Ks")
    assert g.hand(0) == Cards.parse("3s 4s")          # nothing delivered before all are given
    g.give_tribute("As")
    receivers = {t.payer: t.receiver for t in g.tributes}
    assert receivers == {3: 0, 1: 2}
    assert g.turn == 0                                # the first out returns first
    g.return_tribute("3s")
    g.return_tribute("6s")
    assert g.phase == "play" and g.turn == 3          # the payer of the first out leads


@pytest.mark.parametrize("places, first_payer", [((0, 2, 1, 3), 1), ((2, 0, 3, 1), 3),
                                                 ((0, 2, 3, 1), 1)])
def test_G6_5_double_tribute_with_equal_cards(places, first_payer):
    hs = hands("3s 4s", "As 5s", "3d 4d", "Ac 5c")
    g = Game(hands=hs, level=2, previous_order=places)
    for _ in range(2):
        payer = g.turn
        g.give_tribute("As" if payer == 1 else "Ac")
    receivers = {t.payer: t.receiver for t in g.tributes}
    other = 4 - first_payer
    assert receivers == {first_payer: places[0], other: places[1]}
    while g.phase == "tribute":
        seat = g.turn
        g.return_tribute(min(g.hand(seat).ids))
    assert g.turn == first_payer


def test_G6_6_anti_tribute_one_payer_with_both_big_jokers():
    g = Game(hands=hands("3s", "4s", "5s", "BJ BJ 6s"), level=2, previous_order=(0, 1, 2, 3))
    assert g.anti_tribute and g.phase == "play" and g.turn == 0 and g.tributes == ()


def test_G6_6_anti_tribute_two_payers_one_each():
    g = Game(hands=hands("3s", "BJ 4s", "5s", "BJ 6s"), level=2, previous_order=(2, 0, 1, 3))
    assert g.anti_tribute and g.turn == 2


def test_G6_6_only_the_payers_big_jokers_count():
    g = Game(hands=hands("BJ BJ", "4s", "5s", "6s SJ SJ"), level=2, previous_order=(0, 1, 2, 3))
    assert not g.anti_tribute and g.phase == "tribute"
    g2 = Game(hands=hands("BJ 3s", "BJ 4s", "5s", "6s"), level=2, previous_order=(0, 1, 2, 3))
    assert not g2.anti_tribute          # single tribute: only seat 3 pays, it has no ★


def test_G6_7_who_leads():
    g = Game(hands=hands("3s 4s", "5s 6s", "7s 8s", "9s Ks"), level=3, previous_order=(0, 1, 2, 3))
    g.give_tribute("Ks")
    g.return_tribute("4s")
    assert g.phase == "play" and g.turn == 3 and g.leader == 3


def test_G6_8_every_tribute_before_any_return_and_the_tribute_may_go_back():
    g = Game(hands=hands("Js Qs", "9s 5s", "6s 7s", "9d 4s"), level=2, previous_order=(0, 2, 1, 3))
    refused(g, g.return_tribute, "STATE_CONFLICT", "Js")
    g.give_tribute("9s")
    refused(g, g.return_tribute, "STATE_CONFLICT", "Js", seat=0)
    g.give_tribute("9d")
    # Equal tributes: seat 1 (first after 0) pays 0. Seat 0 holds J Q 9♠: the 9 qualifies.
    assert g.can_return_tribute("9s")
    g.return_tribute("9s")
    assert g.hand(1) == Cards.parse("9s 5s")


def test_G6_9_tribute_actions_are_recorded_and_checked():
    g = Game(hands=hands("3s 4s", "5s 6s", "7s 8s", "9s Ks"), level=3, previous_order=(0, 1, 2, 3))
    refused(g, g.give_tribute, "INVALID_TRIBUTE", "9s")
    refused(g, g.give_tribute, "CARD_NOT_FOUND", "As")
    refused(g, g.give_tribute, "NOT_YOUR_TURN", "Ks", seat=2)
    refused(g, g.play, "STATE_CONFLICT", "9s")
    a = g.give_tribute("Ks")
    b = g.return_tribute("4s")
    assert g.history == (a, b)
    assert (a.seat, a.action, a.cards, b.seat, b.action, b.to) == (3, "give_tribute", Cards.parse("Ks"),
                                                                   0, "return_tribute", 3)
    # Every seat sees them (G6.11), the tribute with its receiver.
    seen = g.view(1).history
    assert seen[0].cards == Cards.parse("Ks") and seen[0].to == 0
    assert seen[1].cards == Cards.parse("4s") and seen[1].to == 3


@pytest.mark.parametrize("places, wilds_at", [((0, 1, 2, 3), 3), ((0, 2, 1, 3), 1),
                                              ((0, 2, 1, 3), 3), ((1, 0, 3, 2), 2)])
def test_G6_10_a_payer_holding_only_wilds_is_refused_when_the_hand_is_made(places, wilds_at):
    """Issue 24, item 12: such a deal was accepted and could never move on: every tribute
    was refused ("highest card ()") and the L1-L3 bots raised "min() arg is an empty
    sequence". Now refused at construction, naming the seat and the clause."""
    hs = ["3s 4s", "5s 6s", "7s 8s", "9s Ks"]
    hs[wilds_at] = "2h 2h" if wilds_at != 2 else "2h"
    with pytest.raises(GuandanError, match=rf"seat {wilds_at} must pay tribute .*G6.10"):
        Game(hands=hs, level=2, previous_order=places)
    # The same hand when wilds may be paid, or when 2h is no wild: a tribute to give.
    for config in (RuleConfig(can_tribute_wild=True), RuleConfig(wild_count=0)):
        g = Game(hands=hs, level=2, previous_order=places, config=config)
        assert g.phase == "tribute"
        seat = next(t.payer for t in g.tributes if t.payer == wilds_at)
        while g.turn != seat:
            g.give_tribute(tribute_candidates(g.hand(g.turn), 2, config)[0], g.turn)
        assert g.can_give_tribute("2h", seat)
    # At another level 2h is a natural card, the highest this seat holds.
    assert Game(hands=hs, level=3, previous_order=places).phase == "tribute"


def test_G6_10_anti_tribute_is_judged_before_a_payer_without_a_card():
    g = Game(hands=["3s", "BJ BJ", "5s", "2h"], level=2, previous_order=(0, 2, 1, 3))
    assert g.anti_tribute and g.phase == "play" and g.turn == 0


def test_G6_10_no_dealt_hand_leaves_a_payer_without_a_card():
    """The reason refusing is safe: dealt hands (every match's) always hold a card to give."""
    for seed in range(60):
        for level in (2, 8, 14):
            for hand in deal(seed):
                assert len(hand) == 27
                assert tribute_candidates(hand, level, RuleConfig())


def test_G6_11_exchanges_are_public_to_every_seat():
    # Single tribute: seat 3 pays K♠ to seat 0, who returns 4♠; seats 1 and 2 see both.
    g = Game(hands=hands("3s 4s", "5s 6s", "7s 8s", "9s Ks"), level=3, previous_order=(0, 1, 2, 3))
    g.give_tribute("Ks")
    for seat in range(4):
        v = g.view(seat)
        assert v.tributes[0].card == Cards.parse("Ks").ids[0] and v.tributes[0].receiver == 0
        assert v.history[0].cards == Cards.parse("Ks") and v.history[0].to == 0
    g.return_tribute("4s")
    for seat in (1, 2):
        v = g.view(seat)
        assert [(a.seat, a.action, a.cards, a.to) for a in v.history] == [
            (3, "give_tribute", Cards.parse("Ks"), 0), (0, "return_tribute", Cards.parse("4s"), 3)]
        assert v.tributes == g.tributes
        assert v.known_cards(0) == Cards.parse("Ks") and v.known_cards(3) == Cards.parse("4s")
    assert g.turn == 3
    g.play("4s", seat=3)                            # played: no longer known to be held
    assert g.view(1).known_cards(3) == Cards() and g.view(1).known_cards(0) == Cards.parse("Ks")


def test_G6_11_a_double_tribute_is_its_payers_alone_until_both_are_given():
    g = Game(hands=hands("3s 4s", "Ks 5s", "6s 7s", "As 8s"), level=2, previous_order=(0, 2, 1, 3))
    g.give_tribute("Ks")                            # seat 1 pays; the receiver is not fixed
    assert g.view(1).tributes[0].card is not None and g.view(1).history[0].cards is not None
    for seat in (0, 2, 3):
        assert g.view(seat).tributes[0].card is None and g.view(seat).history[0].cards is None
    g.give_tribute("As")                            # both given: A♠ to 0, K♠ to 2, public
    for seat in range(4):
        v = g.view(seat)
        assert {(t.payer, t.receiver, t.card) for t in v.tributes} == {
            (3, 0, Cards.parse("As").ids[0]), (1, 2, Cards.parse("Ks").ids[0])}
        assert [(a.seat, a.to) for a in v.history] == [(1, 2), (3, 0)]
    g.return_tribute("3s")
    g.return_tribute("6s")
    v = g.view(0)
    assert v.known_cards(2) == Cards.parse("Ks") and v.known_cards(1) == Cards.parse("6s")
    assert v.known_cards(3) == Cards.parse("3s")


def test_G6_11_the_tribute_card_given_back_is_not_known_twice():
    g = Game(hands=hands("Js Qs", "3d", "8c", "9d 3c"), level=5, previous_order=(0, 1, 2, 3))
    g.give_tribute("9d", seat=3)
    g.return_tribute("9d", seat=0)
    v = g.view(1)
    assert v.known_cards(0) == Cards() and v.known_cards(3) == Cards.parse("9d")


@pytest.mark.parametrize("hs, places, refused_by, shown", [
    (("3s", "4s", "5s", "BJ BJ 6s"), (0, 1, 2, 3), (3,), (3, 3)),           # one payer, both
    (("3s", "BJ 4s", "5s", "BJ 6s"), (2, 0, 1, 3), (1, 3), (1, 3)),         # one each
    (("3s", "BJ BJ 4s", "5s", "6s"), (2, 0, 1, 3), (1, 3), (1, 1)),         # one of two, both
])
def test_G6_11_every_seat_sees_who_refused_tribute_and_the_big_jokers(hs, places, refused_by,
                                                                      shown):
    g = Game(hands=hands(*hs), level=2, previous_order=places)
    assert g.anti_tribute
    for seat in range(4):
        v = g.view(seat)
        assert v.anti_tribute is not None
        assert sorted(v.anti_tribute.payers) == sorted(refused_by)
        assert sorted(v.anti_tribute.jokers) == sorted(shown)
        for s in set(shown) - {seat}:
            assert v.known_cards(s) == Cards.parse(" ".join(["BJ"] * shown.count(s)))
    quiet = Game(hands=hands("3s", "4s", "5s", "9s 6s"), level=2, previous_order=(0, 1, 2, 3))
    assert quiet.view(0).anti_tribute is None


# ---------------------------------------------------------------- G7 levels

S = RuleConfig()


def test_G7_1_level_gain_by_partner_place():
    assert settle((2, 2), (0, 0), None, (0, 2, 1, 3), TEAMS, S)[0] == (5, 2)
    assert settle((2, 2), (0, 0), None, (0, 1, 2, 3), TEAMS, S)[0] == (4, 2)
    assert settle((2, 2), (0, 0), None, (1, 0, 2, 3), TEAMS, S)[0] == (2, 3)
    assert settle((2, 2), (0, 0), None, (0, 2, 1, 3), TEAMS, RuleConfig(double_down_levels=4))[0] == (6, 2)


def test_G7_2_never_past_A_and_next_hand_at_the_winners_level():
    assert settle((13, 2), (0, 0), 1, (0, 2, 1, 3), TEAMS, S)[0] == (14, 2)
    m = Match(3)
    while m.hand_number == 0:
        g = m.game
        plays = g.legal_plays()
        m.play(plays[-1]) if not g.can_pass() else m.pass_turn()
    r = m.results[0]
    assert m.game.level == m.levels[r.winner] and m.declarer == r.winner
    assert m.levels[r.winner] == 2 + r.gain and m.levels[1 - r.winner] == 2


def test_G7_3_winning_at_A():
    assert settle((14, 5), (0, 0), 0, (0, 2, 1, 3), TEAMS, S)[2] is True
    assert settle((14, 5), (0, 0), 0, (2, 1, 0, 3), TEAMS, S)[2] is True
    assert settle((14, 5), (0, 0), 0, (0, 1, 3, 2), TEAMS, S)[2] is False   # partner last


def test_G7_4_failed_attempts_and_the_reset():
    lv, fa, won, _ = settle((14, 5), (0, 0), 0, (0, 1, 3, 2), TEAMS, S)
    assert (lv, fa, won) == ((14, 5), (1, 0), False)            # 1st+4th: +1 capped, failed
    lv, fa, won, _ = settle(lv, fa, 0, (1, 0, 2, 3), TEAMS, S)
    assert (lv, fa) == ((14, 6), (2, 0))
    lv, fa, won, _ = settle(lv, fa, 0, (1, 3, 2, 0), TEAMS, S)
    assert (lv, fa, won) == ((2, 9), (0, 0), False)            # third failure: back to 2
    assert settle((14, 5), (7, 0), 0, (1, 0, 2, 3), TEAMS, RuleConfig(failed_attempts_limit=0))[:2] == ((14, 6), (8, 0))


def test_G7_5_only_the_declarers_A_counts():
    # Team 1 is at A but the hand is played at team 0's level: no match win, no attempt.
    lv, fa, won, _ = settle((9, 14), (0, 0), 0, (1, 3, 0, 2), TEAMS, S)
    assert (lv, fa, won) == ((9, 14), (0, 0), False)
    lv, fa, won, _ = settle((9, 14), (0, 0), 0, (0, 1, 2, 3), TEAMS, S)
    assert (lv, fa, won) == ((11, 14), (0, 0), False)


def test_G7_6_gains_first_then_the_drop():
    # Declarer 0 at A wins 1st+4th on its third failure: gain capped at A, then drop to 2.
    assert settle((14, 3), (2, 0), 0, (0, 1, 3, 2), TEAMS, S)[:2] == ((2, 3), (0, 0))


# ---------------------------------------------------------------- G8 errors

def test_G8_1_every_reason():
    g = Game(hands=hands("3s 4s 5d", "9s", "5s 6s", "7s 8s"), leader=0)
    refused(g, g.play, "INVALID_CARDS", "3s 4s", detail="NOT_A_PLAY")
    refused(g, g.play, "CARD_NOT_FOUND", "9s")
    refused(g, g.pass_turn, "CANNOT_PASS")
    refused(g, g.play, "NOT_YOUR_TURN", "9s", seat=1)
    g.play("5d")
    g.play("9s")                       # seat 1 goes out
    refused(g, g.pass_turn, "HAND_EMPTY", seat=1)
    refused(g, g.give_tribute, "STATE_CONFLICT", "5s")
    refused(g, g.play, "INVALID_CARDS", "5s", detail="DOES_NOT_BEAT")
    t = Game(hands=hands("3s 4s", "5s 6s", "7s 8s", "9s Ks"), level=3, previous_order=(0, 1, 2, 3))
    refused(t, t.give_tribute, "INVALID_TRIBUTE", "9s")
    over = Game(hands=hands("3s", "4s", "As", "5s"), leader=0)
    over.play("3s"); over.pass_turn(); over.play("As")
    assert over.is_over
    refused(over, over.play, "GAME_OVER", "4s")
    assert issubclass(IllegalActionError, ValueError)


def test_G8_2_refusals_change_nothing_including_the_match():
    m = Match(12)
    g = m.game
    seat = g.turn
    bad = (seat + 1) % 4
    before = pickle.loads(pickle.dumps(m))
    for fn, args in [(m.pass_turn, ()), (m.play, (g.hand(bad),)), (m.give_tribute, (0,))]:
        with pytest.raises(IllegalActionError):
            fn(*args)
    assert m == before
