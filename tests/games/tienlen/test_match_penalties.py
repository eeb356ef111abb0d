"""R11.5: the penalty table a Match scores beside the R10.2 points.

Every expected number is worked out by hand from RULES.md R11.5 and the default table
(``Penalties()``: black 2 = 1, red 2 = 2, 3-pair double sequence = 3, quad = 4, 4-pair
double sequence = 6, 5-pair = 8, cóng x2); the comments give the sums. Games under the
contract's table with penalties switched on (``Rules(penalties=Penalties())``, core flags 0)
run on any core; the ones that need the Southern table or instant wins in the core are
skipped until the core reads ``Rules.southern().flags``.
"""

from __future__ import annotations

import pytest

from tienlen import _core
from tienlen.games.tienlen.bots import make_bot
from tienlen.games.tienlen.cards import Cards
from tienlen.games.tienlen.game import Game
from tienlen.games.tienlen.match import Match, MatchError, cut_chains, score_hand, unplayed_bombs
from tienlen.games.tienlen.rules import Penalties, Rules

PENALTIES = Rules(penalties=Penalties())   # the contract's bombs, the default table


def _core_reads_southern() -> bool:
    try:
        _core.classify(1, Rules.southern().flags)
    except ValueError:
        return False
    return True


needs_southern_core = pytest.mark.skipif(
    not _core_reads_southern(), reason="the core does not read Rules.southern() yet")


def played(game: Game, *moves: str | None) -> Game:
    """Play ``moves`` in turn (``None`` passes)."""
    for move in moves:
        if move is None:
            game.pass_turn()
        else:
            game.play(move)
    return game


def payments(game: Game) -> list[tuple[int, int, int, str]]:
    return sorted((p.payer, p.payee, p.amount, p.reason) for p in score_hand(game).payments)


# --- unplayed 2s and cóng ---------------------------------------------------------------


def test_R11_5_cong_loser_pays_double_for_unplayed_twos() -> None:
    game = played(Game.from_hands(["3s", "4s 2s 2h"], rules=PENALTIES), "3s")
    # Seat 1 never played: (2♠ 1 + 2♥ 2) x 2 = 6 to the winner, seat 0.
    assert payments(game) == [(1, 0, 6, "left")]
    score = score_hand(game)
    assert score.places == (1, 2) and score.points == (1, 0) and score.net == (6, -6)


def test_R11_5_loser_who_played_pays_single_for_black_and_red_twos() -> None:
    game = played(Game.from_hands(["3s 5s", "4s 2c 2d 9d"], rules=PENALTIES), "3s", "4s", "5s")
    # Seat 1 played 4♠, so no cóng: 2♣ black 1 + 2♦ red 2 = 3.
    assert payments(game) == [(1, 0, 3, "left")]


def test_R11_5_loser_pays_for_unplayed_bombs_and_custom_values() -> None:
    rules = Rules(penalties=Penalties(quad=5, three_pairs=2, cong_multiplier=3))
    game = played(Game.from_hands(["3s", "4s 7s 7c 7d 7h 9s 9c 10s 10c Js Jc"], rules=rules),
                  "3s")
    # A quad of 7s (5) and 9-10-J pairs (2), cóng x3: 21.
    assert payments(game) == [(1, 0, 21, "left")]


def test_R11_5_nothing_left_worth_paying_means_no_payment() -> None:
    game = played(Game.from_hands(["3s 5s", "4s 9d"], rules=PENALTIES), "3s", "4s", "5s")
    assert payments(game) == [] and score_hand(game).net == (0, 0)


def test_R11_5_no_penalty_table_no_payments() -> None:
    game = played(Game.from_hands(["3s", "4s 2s 2h"]), "3s")
    assert score_hand(game).payments == () and score_hand(game).points == (1, 0)


# --- which bombs a hand holds ------------------------------------------------------------


def test_R11_5_unplayed_bombs_are_the_most_valuable_disjoint_set() -> None:
    south = Rules.southern()
    # Quad of 7s (4) beside 9-10-J pairs (3): both, disjoint.
    assert sorted(unplayed_bombs(Cards.parse("7s 7c 7d 7h 9s 9c 10s 10c Js Jc"), south)) \
        == ["3ds", "quad"]
    # 5-6-7-8 pairs (6) beat the quad of 7s they overlap (4); the quad and a 3-run
    # cannot both be had (5-6 and 8 are left around the quad).
    assert unplayed_bombs(Cards.parse("5s 5c 6s 6c 7s 7c 7d 7h 8s 8c"), south) == ("4ds",)
    # Five consecutive pairs: a bomb of its own in the contract (8), not in the South,
    # where the best is four of them (6).
    five = Cards.parse("5s 5c 6s 6c 7s 7c 8s 8c 9s 9c")
    assert unplayed_bombs(five, Rules()) == ("5ds",)
    assert unplayed_bombs(five, south) == ("4ds",)
    # Three of a kind and two loose pairs: nothing.
    assert unplayed_bombs(Cards.parse("9s 9c 9d Js Jc Ks Kc"), south) == ()


def test_R11_5_a_two_is_paid_as_a_two_never_inside_a_bomb() -> None:
    # K-A-2 pairs form a double sequence in the contract, but the 2s are paid as 2s.
    assert unplayed_bombs(Cards.parse("Ks Kc As Ac 2s 2c"), Rules()) == ()
    assert unplayed_bombs(Cards.parse("2s 2c 2d 2h"), Rules()) == ()


# --- cuts ----------------------------------------------------------------------------------


def test_R11_5_a_cut_two_is_paid_by_the_player_cut() -> None:
    game = played(Game.from_hands(["2h 3c", "5s 5c 5d 5h 4c", "6c 8c"], rules=PENALTIES,
                                  leader=0),
                  "2h", "5s 5c 5d 5h", None, None,   # quad cuts 2♥; the pile clears
                  "4c", "6c", None, "8c")            # seat 1 out, then seat 2
    assert game.finished == (1, 2, 0)
    # Seat 0 pays seat 1 for its red 2: 2. Seat 0 (last) holds 3♣: nothing more.
    assert payments(game) == [(0, 1, 2, "cut")]
    assert score_hand(game).net == (-2, 2, 0) and score_hand(game).points == (0, 2, 1)


def test_R11_5_chain_of_cuts_is_paid_by_the_last_player_cut() -> None:
    game = played(Game.from_hands(["2h 3c", "5s 5c 5d 5h 4c", "9s 9c 9d 9h 6c"],
                                  rules=PENALTIES, leader=0),
                  "2h", "5s 5c 5d 5h", "9s 9c 9d 9h",  # quad cuts 2♥, a higher quad cuts it
                  None, None, "6c", None, None, "3c")
    assert game.finished == (2, 0, 1)
    chain, = cut_chains(game)
    assert (chain.cutter, chain.cut, len(chain.combos)) == (2, 1, 2)
    # Seat 1, cut last, pays seat 2 for the whole chain: 2♥ (2) + quad (4) = 6; seat 0,
    # whose 2 started it, pays nothing.
    assert payments(game) == [(1, 2, 6, "cut")]
    assert score_hand(game).net == (0, -6, 6)


def test_R11_5_a_cleared_pile_ends_a_chain_and_the_next_cut_is_paid_apart() -> None:
    game = played(Game.from_hands(["2h 3c 6d 6h 7d 7h 8d 8h", "5s 5c 5d 5h 4c 9c", "2d Jc"],
                                  rules=PENALTIES, leader=0),
                  "2h", "5s 5c 5d 5h", None, None,      # cut 1: the quad on 2♥; clears
                  "4c", "2d", "6d 6h 7d 7h 8d 8h",      # cut 2: a 3-pair run on 2♦
                  None, None, "3c", "9c")
    assert game.finished == (0, 1, 2)
    assert len(cut_chains(game)) == 2
    # Seat 0 pays seat 1 for 2♥ (2); seat 2 pays seat 0 for 2♦ (2). Seat 2, last, played
    # 2♦ (no cóng) and holds J♣: nothing more.
    assert payments(game) == [(0, 1, 2, "cut"), (2, 0, 2, "cut")]
    assert score_hand(game).net == (0, 2, -2)


def test_R11_5_a_bomb_led_on_an_empty_pile_cuts_no_one() -> None:
    game = played(Game.from_hands(["5s 5c 5d 5h 3c", "2h 4c"], rules=PENALTIES, leader=0),
                  "5s 5c 5d 5h")
    assert cut_chains(game) == ()


def test_R11_5_a_cut_pair_of_twos_is_worth_both_twos() -> None:
    game = played(Game.from_hands(["2s 2h 3c", "4s 4c 5s 5c 6s 6c 7s 7c 9d"], rules=PENALTIES,
                                  leader=0),
                  "2s 2h", "4s 4c 5s 5c 6s 6c 7s 7c", None, "9d")
    # 2♠ 1 + 2♥ 2 = 3 for the cut; the loser (seat 0) played, holds 3♣: nothing else.
    assert payments(game) == [(0, 1, 3, "cut")]


def test_R11_5_cut_pays_off_means_cuts_are_free() -> None:
    rules = Rules(penalties=Penalties(cut_pays=False))
    game = played(Game.from_hands(["2h 3c", "5s 5c 5d 5h 4c", "6c 8c"], rules=rules, leader=0),
                  "2h", "5s 5c 5d 5h", None, None, "4c", "6c", None, "8c")
    assert len(cut_chains(game)) == 1 and payments(game) == []


def test_R11_5_a_higher_two_on_a_two_is_no_cut() -> None:
    game = played(Game.from_hands(["2s 3c", "2h 4c"], rules=PENALTIES, leader=0), "2s", "2h")
    assert cut_chains(game) == ()


# --- the hand and the match ------------------------------------------------------------------


def test_R11_5_score_of_a_hand_in_play_is_refused() -> None:
    game = Game.from_hands(["3s 4s", "5s"], rules=PENALTIES)
    with pytest.raises(MatchError):
        score_hand(game)


def test_R11_5_bad_arguments_are_value_errors() -> None:
    with pytest.raises(ValueError, match="Game"):
        score_hand("3s 4s")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="Game"):
        cut_chains(None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="Cards"):
        unplayed_bombs("5s 5c 5d 5h", Rules())  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="Rules"):
        Match(2, seed=1, rules="southern")  # type: ignore[arg-type]


def _play_match(rules: Rules, seed: int, hands: int) -> Match:
    match = Match(4, seed=seed, rules=rules)
    bots = [make_bot("L1", seed=seat) for seat in range(4)]
    for number in range(hands):
        if number:
            match.next_hand()
        game = match.game
        while not game.is_over:
            seat = game.turn
            assert seat is not None
            game.act(bots[seat].choose(game.view(seat)))
    return match


def _check_zero_sum(match: Match) -> None:
    players = match.players
    for score in match.hand_scores:
        assert sum(score.net) == 0
        assert sorted(score.points) == sorted(players - p for p in score.places)
        for payment in score.payments:
            assert payment.payer != payment.payee and payment.amount > 0
    assert sum(match.penalties) == 0
    assert match.totals == tuple(a + b for a, b in zip(match.scores, match.penalties))


def test_R11_5_transfers_are_zero_sum_over_a_match() -> None:
    match = _play_match(PENALTIES, seed=2, hands=6)
    _check_zero_sum(match)
    assert sum(match.scores) == 6 * (3 + 2 + 1)
    # Seed 2 was picked because its hands hold cuts, so the zero-sum check is not vacuous.
    assert any(score.payments for score in match.hand_scores)


@needs_southern_core
def test_R11_5_transfers_are_zero_sum_under_southern() -> None:
    _check_zero_sum(_play_match(Rules.southern(), seed=5, hands=6))


@needs_southern_core
def test_R11_5_instant_win_others_share_last_place_and_pay_unmultiplied() -> None:
    # Seed 112 deals seat 3 six pairs (6-6 8-8 10-10 Q-Q K-K 2-2), the only instant win at
    # the table. Seat 2 holds 2♠ 2♥ (1 + 2) and pairs of 4s, 5s, Ks (no 3-pair run): 3.
    # Seats 0 and 1 hold no 2 and no bomb.
    game = Game(4, seed=112, rules=Rules.southern())
    assert game.is_over and game.history == ()
    score = score_hand(game)
    assert score.instant_win
    assert score.places == (4, 4, 4, 1) and score.points == (0, 0, 0, 3)
    assert [(p.payer, p.payee, p.amount) for p in score.payments] == [(2, 3, 3)]


def _brute_force_bomb_value(cards: list[int], values: dict[str, int]) -> int:
    """The most valuable set of disjoint bombs among ``cards`` (non-2 card indices), by
    trying every set of candidate bombs as real cards: written apart from match.py."""
    by_rank: dict[int, list[int]] = {}
    for card in cards:
        by_rank.setdefault(card // 4, []).append(card)
    candidates: list[tuple[int, int]] = []           # (card mask, value)
    import itertools
    if "quad" in values:
        candidates += [(sum(1 << c for c in suits), values["quad"])
                       for suits in by_rank.values() if len(suits) == 4]
    for pairs, name in ((3, "3ds"), (4, "4ds"), (5, "5ds")):
        if name not in values:
            continue
        for low in range(12 - pairs + 1):
            ranks = range(low, low + pairs)
            if not all(len(by_rank.get(r, [])) >= 2 for r in ranks):
                continue
            choices = [list(itertools.combinations(by_rank[r], 2)) for r in ranks]
            for pick in itertools.product(*choices):
                mask = sum(1 << c for pair in pick for c in pair)
                candidates.append((mask, values[name]))

    def best(start: int, used: int) -> int:
        top = 0
        for i in range(start, len(candidates)):
            mask, value = candidates[i]
            if not mask & used:
                top = max(top, value + best(i + 1, used | mask))
        return top

    return best(0, 0)


def test_R11_5_unplayed_bombs_match_a_brute_force_over_real_cards() -> None:
    import random

    from tienlen.games.tienlen.match import _bomb_value

    rng = random.Random(13)
    south = Rules.southern()
    south_values = {"quad": 4, "3ds": 3, "4ds": 6}
    contract_values = {**south_values, "5ds": 8}
    for _ in range(150):
        low_ranks = rng.randint(5, 9)                 # few ranks: many pairs and quads
        deck = list(range(low_ranks * 4))
        cards = rng.sample(deck, min(len(deck), rng.randint(6, 13)))
        hand = Cards(sum(1 << c for c in cards))
        for rules, values in ((south, south_values), (Rules(), contract_values)):
            found = unplayed_bombs(hand, rules)
            got = sum(_bomb_value(b, rules.penalties or Penalties()) for b in found)
            assert got == _brute_force_bomb_value(cards, values), (str(hand), found)


@needs_southern_core
def test_R11_5_instant_win_in_a_match() -> None:
    # Match seed 177 deals hand 1 (by hand_seed) with seat 0 holding six pairs (5 6 8 10 J
    # K); seat 2 leads (3♠) and neither seat 2 (pairs of 7, 9, A, 2) nor seat 3 (pairs of
    # 3, 6, Q) qualifies first. Seat 1 keeps 2♠ (1), seat 2 2♣ 2♦ (1 + 2), seat 3 2♥ (2);
    # none holds three consecutive pairs or a quad.
    match = Match(4, seed=177, rules=Rules.southern())
    assert match.game.instant_win == (0, "six_pairs")
    assert match.scores == (3, 0, 0, 0)
    assert match.penalties == (6, -1, -3, -2)
    assert match.place_counts == ((1, 0, 0, 0), (0, 0, 0, 1), (0, 0, 0, 1), (0, 0, 0, 1))
    match.next_hand()
    assert match.game.leader == 0
