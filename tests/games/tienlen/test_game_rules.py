"""Scenario tests for the rules of play (RULES.md R5-R10), through ``tienlen.Game``.

Every scenario uses fixed hands (``Game.from_hands``) and its expected values are reasoned
by hand from RULES.md; the comments give the reasoning. Seats are 0..n-1 and play passes to
the next seat up (R8.1).
"""

from __future__ import annotations

import random

import pytest

from tienlen.games.tienlen.cards import Card, Cards
from tienlen.games.tienlen.game import PASS, Game
from tienlen.games.tienlen.match import Match
from tienlen.games.tienlen.refusals import IllegalMoveError, Reason


def C(text: str) -> Cards:
    return Cards.parse(text)


def moves(game: Game) -> list[str]:
    return [move.ascii() for move in game.legal_moves()]


def refused(game: Game, cards: str | None, seat: int | None = None) -> Reason:
    """The reason the game gives for refusing a play of ``cards`` (None: a pass)."""
    before = game.snapshot()
    with pytest.raises(IllegalMoveError) as info:
        if cards is None:
            game.pass_turn(seat)
        else:
            game.play(cards, seat)
    assert game.snapshot() == before
    return info.value.reason


# ------------------------------------------------------------------- R5 pass and lock-out


def test_R5_1_a_follower_may_pass_while_able_to_play_and_is_then_locked_out() -> None:
    game = Game.from_hands(["3s 9s Kd", "4c 5c Qh", "6d 7d Jh"])
    game.play("3s", 0)
    # Seat 1 could beat 3♠ with anything, and may still pass.
    assert game.can_play("4c") and game.can_pass()
    game.pass_turn(1)
    assert game.locked_seats == {1}
    game.play("6d", 2)
    game.play("9s", 0)
    # Seat 1 is locked out and the top is not a 2, so seat 2 is next (R5.3).
    assert game.turn == 2
    assert not game.can_play("Qh", 1)
    assert refused(game, "Qh", 1) is Reason.NOT_YOUR_TURN


def test_R5_1_a_locked_out_player_stays_out_until_the_pile_clears() -> None:
    game = Game.from_hands(["3s 9s Kd", "4c 5c Qh", "6d 7d Jh"])
    game.play("3s", 0)
    game.pass_turn(1)
    game.play("6d", 2)
    game.play("9s", 0)
    game.play("Jh", 2)
    # Seat 0 beats J♥ with K♦; seat 1 still locked, skipped; seat 2 passes; back to seat 0.
    game.play("Kd", 0)
    assert game.finished == (0,)  # seat 0 played its last card (R9.1)
    assert game.turn == 2
    game.pass_turn(2)
    # R6.2: the owner (seat 0) is out; the pile clears at its seat; seat 1 leads, unlocked.
    assert game.pile is None and game.locked_seats == frozenset()
    assert game.turn == 1


def test_R5_2_locked_out_player_bombs_single_two() -> None:
    game = Game.from_hands(["3s 4s 2h Ks", "5s 5c 5d 5h 9d", "6c 7c 8h"])
    game.play("3s", 0)
    game.pass_turn(1)
    game.play("6c", 2)
    game.play("2h", 0)
    # A single 2 on top: locked seat 1 gets the turn (R5.3) and may bomb with the quad.
    assert game.turn == 1 and game.locked_seats == {1}
    assert moves(game) == ["5s 5c 5d 5h"]
    # Anything that is not a bomb on the 2 is refused because seat 1 passed.
    assert refused(game, "9d") is Reason.LOCKED_OUT
    assert refused(game, "5s 5c") is Reason.LOCKED_OUT
    action = game.play("5s 5c 5d 5h")
    assert action.seat == 1 and action.combo.kind.name == "QUAD"
    assert game.pile_owner == 1


def test_R5_2_locked_out_player_bombs_pair_of_twos_with_four_pair_double_sequence() -> None:
    game = Game.from_hands([
        "3s 3h 2s 2h Kd",
        "4s 4c 5s 5c 6s 6c 7s 7c Jd",
        "8c 8d Qh",
    ])
    game.play("3s 3h", 0)
    game.pass_turn(1)  # seat 1 passes although it holds pairs
    game.play("8c 8d", 2)
    game.play("2s 2h", 0)
    assert game.turn == 1 and 1 in game.locked_seats
    # Only the 4-pair double sequence beats a pair of 2s (R4.1); a 3-pair one beats only a
    # single 2 (R4.2), so for a locked-out seat it is refused as LOCKED_OUT.
    assert moves(game) == ["4s 4c 5s 5c 6s 6c 7s 7c"]
    assert refused(game, "4s 4c 5s 5c 6s 6c") is Reason.LOCKED_OUT
    assert refused(game, "Jd") is Reason.LOCKED_OUT
    game.play("4s 4c 5s 5c 6s 6c 7s 7c")
    assert game.pile.kind.name == "DOUBLE_SEQUENCE" and game.pile_owner == 1


def test_R5_2_locked_out_player_may_not_bomb_a_non_two() -> None:
    # Seat 1 passed on 3♠; on A♥ (not a 2) it is skipped entirely.
    game = Game.from_hands(["3s Ah 9c", "5s 5c 5d 5h 9d", "6c 7c 8h"])
    game.play("3s", 0)
    game.pass_turn(1)
    game.play("8h", 2)
    game.play("Ah", 0)
    assert game.turn == 2
    assert refused(game, "5s 5c 5d 5h", 1) is Reason.NOT_YOUR_TURN


def test_R5_3_locked_player_without_a_bomb_still_gets_the_turn_on_a_two() -> None:
    game = Game.from_hands(["3s 4s 2h Ks", "6s 9d Jc", "6c 7c 8h"])
    game.play("3s", 0)
    game.pass_turn(1)
    game.play("6c", 2)
    game.play("2h", 0)
    # Seat 1 holds no bomb, yet it gets the turn, with no legal play and a pass.
    assert game.turn == 1
    assert moves(game) == [] and not game.legal_moves() and len(game.legal_moves()) == 0
    assert game.can_pass()
    game.pass_turn()
    assert game.turn == 2


def test_R5_3_turn_sequence_does_not_reveal_whether_a_locked_player_holds_a_bomb() -> None:
    # The same hand twice; seat 1 holds a quad in one and none in the other.
    with_bomb = ["3s 4s 2h Ks", "5s 5c 5d 5h 9d", "6c 7c 8h"]
    without = ["3s 4s 2h Ks", "5s 6d 10d Jh 9d", "6c 7c 8h"]
    script = [("3s", 0), (None, 1), ("6c", 2), ("2h", 0), (None, 1), (None, 2), ("4s", 0)]
    turns = []
    for hands in (with_bomb, without):
        game = Game.from_hands(hands)
        seen = []
        for cards, seat in script:
            seen.append(game.turn)
            if cards is None:
                game.pass_turn(seat)
            else:
                game.play(cards, seat)
        seen.append(game.turn)
        turns.append(seen)
    assert turns[0] == turns[1] == [0, 1, 2, 0, 1, 2, 0, 1]


def test_R5_3_locked_players_are_skipped_when_the_top_is_not_twos() -> None:
    game = Game.from_hands(["3s 8s Ks", "4c 9d 10c", "5c Jc Qc", "6c 7c Ac"])
    game.play("3s", 0)
    game.pass_turn(1)
    game.pass_turn(2)
    game.play("6c", 3)
    # Seats 1 and 2 are locked out: the turn goes from 3 straight to 0.
    assert game.turn == 0
    game.play("8s", 0)
    assert game.turn == 3


def test_R5_4_bomb_unlocks_no_one_and_a_beaten_bomber_is_skipped_again() -> None:
    game = Game.from_hands([
        "3s 2h 9h Ah",
        "5s 5c 5d 5h 8c",
        "4d Jd Qd",
        "7s 7c 7d 7h 10c Kc",
    ])
    game.play("3s", 0)
    game.pass_turn(1)
    game.play("4d", 2)
    game.play("10c", 3)
    game.play("2h", 0)
    assert game.turn == 1  # locked, but the top is a 2 (R5.3)
    game.play("5s 5c 5d 5h", 1)
    assert game.locked_seats == {1}  # the bomber stays locked out (R5.4)
    game.pass_turn(2)
    assert game.locked_seats == {1, 2}
    game.play("7s 7c 7d 7h", 3)  # a higher quad beats the quad (R4.3)
    assert game.turn == 0
    game.pass_turn(0)
    # Seats 1 and 2 are locked and the top is no longer a 2: both are skipped, the turn
    # reaches the owner (seat 3) and the pile clears (R6.1).
    assert game.turn == 3 and game.pile is None and game.locked_seats == frozenset()


# ------------------------------------------------------------------------ R6 clearing


def test_R6_1_pile_clears_when_the_turn_comes_back_to_the_owner() -> None:
    game = Game.from_hands(["3s 9s Kd", "4c 5c Qh", "6d 7d Jh"])
    game.play("3s", 0)
    game.pass_turn(1)
    game.play("6d", 2)
    game.play("9s", 0)
    game.pass_turn(2)
    # Seat 1 is skipped (locked), seat 0 owns 9♠: the pile clears, lock-outs end, 0 leads.
    assert game.turn == 0
    assert game.pile is None and game.pile_owner is None and game.locked_seats == frozenset()
    assert not game.can_pass()
    assert refused(game, None) is Reason.CANNOT_PASS_ON_LEAD


def test_R6_1_owner_who_passed_then_bombed_leads_when_the_turn_comes_back() -> None:
    game = Game.from_hands(["3s 4s 2h Ks", "5s 5c 5d 5h 9d", "6c 7c 8h"])
    game.play("3s", 0)
    game.pass_turn(1)
    game.play("6c", 2)
    game.play("2h", 0)
    game.play("5s 5c 5d 5h", 1)  # seat 1 passed earlier in this pile, then bombed
    game.pass_turn(2)
    game.pass_turn(0)
    # Back round to seat 1, the owner: the pile clears and seat 1 leads, no longer locked.
    assert game.turn == 1
    assert game.pile is None and game.locked_seats == frozenset()
    assert moves(game) == ["9d"]


def test_R6_2_owner_goes_out_with_an_unbeaten_play_and_the_next_seat_leads() -> None:
    game = Game.from_hands(["3s Ah", "4c 5c", "6c 7c", "8c 9c"])
    for cards, seat in [("3s", 0), ("4c", 1), ("6c", 2), ("8c", 3)]:
        game.play(cards, seat)
    game.play("Ah", 0)  # seat 0's last card: out in first place
    assert game.finished == (0,) and game.pile_owner == 0
    for seat in (1, 2, 3):
        game.pass_turn(seat)
    # The turn reaches seat 0's (empty) seat: the pile clears and seat 1 leads.
    assert game.turn == 1 and game.pile is None and game.locked_seats == frozenset()


def test_R6_2_lead_skips_seats_that_are_out_after_the_owner() -> None:
    game = Game.from_hands(["3s Ah", "4c", "5c 7c", "6c 9c"])
    game.play("3s", 0)
    game.play("4c", 1)  # seat 1 is out
    game.play("5c", 2)
    game.play("6c", 3)
    game.play("Ah", 0)  # seat 0 is out, owning the pile
    assert game.finished == (1, 0)
    assert game.turn == 2
    game.pass_turn(2)
    game.pass_turn(3)
    # Clears at seat 0; seat 1 is out too, so seat 2 leads.
    assert game.turn == 2 and game.pile is None


# ------------------------------------------------------------------------- R7 leading


def test_R7_1_the_leader_must_play_and_may_lead_any_combination() -> None:
    game = Game.from_hands(["3s 4s 5s 6s 9h 9d", "Kd"], leader=0)
    assert not game.can_pass()
    assert refused(game, None) is Reason.CANNOT_PASS_ON_LEAD
    assert game.can_play("9d 9h") and game.can_play("3s 4s 5s 6s") and game.can_play("6s")
    game.play("4s 5s 6s")
    assert game.pile.kind.name == "SEQUENCE"


def test_R7_2_first_lead_is_the_three_of_spades_holder_and_must_include_it() -> None:
    game = Game(4, seed=0)
    holder = next(seat for seat, hand in enumerate(game.hands) if "3s" in hand)
    assert game.turn == holder and game.must_include == Card.parse("3s")
    assert all("3s" in move for move in game.legal_moves())
    other = next(card for card in game.hands[holder] if card != Card.parse("3s"))
    assert refused(game, Cards([other])) is Reason.MUST_INCLUDE_LOWEST
    game.play("3s")
    assert game.must_include is None


def test_R7_2_two_player_first_lead_without_three_of_spades() -> None:
    game = Game.from_hands(["5s 6h", "3d 9c"])
    # 3♠, 3♣ are not in play: the lowest card is 3♦, held by seat 1.
    assert game.turn == 1 and game.must_include == Card.parse("3d")
    assert moves(game) == ["3d"]
    assert refused(game, "9c") is Reason.MUST_INCLUDE_LOWEST


def test_R7_2_three_player_first_lead_without_three_of_spades() -> None:
    game = Game.from_hands(["4s 4h 8c", "Jd 4d", "4c 2s"])
    # No 3 at all: the lowest card is 4♠ (seat 0); 4♠ 4♥ includes it, 8♣ does not.
    assert game.turn == 0 and game.must_include == Card.parse("4s")
    assert moves(game) == ["4s", "4s 4h"]
    game.play("4s 4h")
    assert game.turn == 1 and game.must_include is None


@pytest.mark.parametrize("players", [2, 3])
def test_R7_2_dealt_short_game_leads_with_the_lowest_card_dealt(players: int) -> None:
    # Find (deterministically) a deal that set 3♠ aside.
    seed = next(s for s in range(1000)
                if not any("3s" in hand for hand in Game(players, seed=s).initial_hands))
    game = Game(players, seed=seed)
    in_play = 0
    for hand in game.hands:
        in_play |= hand.mask
    lowest = (in_play & -in_play).bit_length() - 1
    assert lowest != 0
    assert game.must_include == lowest
    assert lowest in game.hands[game.turn]


def test_R7_3_later_hands_are_led_by_the_previous_winner_with_any_combination() -> None:
    match = Match(4, seed=5)
    rng = random.Random(5)
    for _ in range(3):
        game = match.game
        while not game.is_over:
            options = list(game.legal_moves())
            choice = rng.randrange(len(options) + game.can_pass())
            game.act(options[choice] if choice < len(options) else PASS)
        winner = game.finished[0]
        match.next_hand()
        new = match.game
        assert new.turn == winner and new.leader == winner
        assert new.must_include is None
        # Any combination may be led: every single in the leader's hand is playable.
        assert all(new.can_play(Cards([card])) for card in new.hands[winner])


def test_R7_4_given_hands_with_explicit_leader_lead_anything() -> None:
    game = Game.from_hands(["3s 4s", "5s 9h", "6d 7d"], leader=2)
    assert game.turn == 2 and game.must_include is None
    assert moves(game) == ["6d", "7d"]
    game.play("7d")
    assert game.turn == 0


# ------------------------------------------------------------------------ R8 turn order


def test_R8_1_turns_go_up_the_seats_and_skip_players_who_are_out() -> None:
    game = Game.from_hands(["3s 8s Ks", "4c", "5c Jc Qc", "6c 7c Ac"])
    turns = [game.turn]
    game.play("3s")
    turns.append(game.turn)
    game.play("4c")  # seat 1 is out
    turns.append(game.turn)
    game.play("5c")
    turns.append(game.turn)
    game.play("6c")
    turns.append(game.turn)
    game.play("8s")
    turns.append(game.turn)
    assert turns == [0, 1, 2, 3, 0, 2]  # after seat 0 comes seat 2: seat 1 is out


# --------------------------------------------------------------------- R9 end of the hand


def test_R9_1_playing_the_last_card_takes_the_next_place() -> None:
    game = Game.from_hands(["3s 9s", "4c", "5c Qc", "6c Ac"])
    game.play("3s")
    assert game.finished == ()
    game.play("4c")
    assert game.finished == (1,) and game.hands[1] == Cards() and not game.is_over
    assert game.loser is None


def test_R9_2_hand_ends_when_the_last_but_one_player_goes_out() -> None:
    game = Game.from_hands(["3s 9s", "4c", "5c Qc"])
    game.play("3s")
    game.play("4c")  # seat 1 out first
    game.play("5c")
    game.play("9s")  # seat 0's last card: only seat 2 still holds cards
    assert game.is_over
    assert game.finished == (1, 0, 2) and game.loser == 2 and game.turn is None
    assert refused(game, None) is Reason.GAME_OVER
    assert refused(game, "Qc") is Reason.GAME_OVER
    assert list(game.legal_moves()) == []


def test_R9_2_two_player_hand_ends_with_the_first_player_out() -> None:
    game = Game.from_hands(["3s", "4c 5d"])
    game.play("3s")
    assert game.is_over and game.finished == (0, 1) and game.loser == 1
    assert game.hands[1] == C("4c 5d")


# ------------------------------------------------------------------------- R10 matches


def _play_out(game: Game, rng: random.Random) -> None:
    while not game.is_over:
        options = list(game.legal_moves())
        choice = rng.randrange(len(options) + game.can_pass())
        game.act(options[choice] if choice < len(options) else PASS)


def test_R10_1_a_match_deals_fresh_hands_and_leads_by_R7_2_then_R7_3() -> None:
    match = Match(3, seed=11)
    rng = random.Random(11)
    first = match.game
    assert first.leader is None and first.must_include is not None
    seen = []
    for number in range(1, 5):
        assert match.hand_number == number
        seen.append(match.game.initial_hands)
        _play_out(match.game, rng)
        previous = match.game.finished
        match.next_hand()
        assert match.game.leader == previous[0] and match.game.must_include is None
    assert len(set(seen)) == len(seen)  # every hand is dealt fresh
    assert len(match.results) == 4


def test_R10_1_next_hand_refused_while_the_hand_is_in_play() -> None:
    match = Match(4, seed=2)
    game = match.game
    with pytest.raises(ValueError, match="not over"):
        match.next_hand()
    assert match.game is game and match.hand_number == 1


def test_R10_2_places_score_players_minus_place() -> None:
    match = Match(4, seed=3)
    _play_out(match.game, random.Random(3))
    order = match.game.finished
    # One hand: first out 3, second 2, third 1, loser 0.
    scores = match.scores
    assert [scores[seat] for seat in order] == [3, 2, 1, 0]
    assert match.results == [order]
    counts = match.place_counts
    for place, seat in enumerate(order):
        assert counts[seat] == tuple(1 if p == place else 0 for p in range(4))


def test_R10_2_scoreboard_adds_up_over_hands() -> None:
    match = Match(3, seed=8)
    rng = random.Random(8)
    for _ in range(5):
        _play_out(match.game, rng)
        match.next_hand()
    results = match.results
    assert len(results) == 5
    expected = [0, 0, 0]
    for order in results:
        for place, seat in enumerate(order):
            expected[seat] += 3 - (place + 1)
    assert list(match.scores) == expected
    assert sum(match.scores) == 5 * (2 + 1 + 0)
    assert all(sum(row) == 5 for row in match.place_counts)
