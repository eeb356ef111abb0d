"""Random matches driven through tienlen.guandan.Match and the independent model in
tests/guandan_reference_game.py side by side (G5-G8): the same turn, pile, hands, places,
tribute, levels and winner after every action; 108 cards conserved; only legal actions
accepted; refused actions change nothing; every match ends. A few seconds by default;
TIENLEN_SOAK=1 runs many more matches."""

from __future__ import annotations

import os
import random
from collections import Counter

import pytest

import guandan_reference as ref
import guandan_reference_game as model
from tienlen.guandan import IllegalActionError, Match, RuleConfig

SOAK = os.environ.get("TIENLEN_SOAK") == "1"
CONFIGS = [
    RuleConfig(),
    RuleConfig.huaian(),
    RuleConfig(can_tribute_wild=True, tribute_return_max_rank=14, double_down_levels=4),
    RuleConfig(failed_attempts_limit=1, team_formation="RANDOM", bomb_compare_priority="BY_RANK"),
    RuleConfig(failed_attempts_limit=0, wild_count=0, tribute_return_max_rank=2),
]


def counter(cards) -> Counter:
    return Counter(cards.ids)


def reading(play) -> tuple[str, int, int]:
    return (play.kind.name.lower(), play.size, play.rank)


def expect_refused(match: Match, attempt, reasons: set[str]) -> None:
    before = match.copy()
    with pytest.raises(IllegalActionError) as info:
        attempt()
    assert info.value.reason in reasons, info.value
    assert match == before


def run_match(seed: int, config: RuleConfig, max_hands: int) -> int:
    rng = random.Random(seed)
    cfg = {**ref.STANDARD, **config.to_dict()}
    match = Match(seed, config)
    teams = match.teams
    assert sorted(teams[0] + teams[1]) == [0, 1, 2, 3]
    if config.team_formation.name == "FIXED_1_3":
        assert teams == ((0, 2), (1, 3))
    rm = model.RefMatch(cfg, teams)
    prev_places = None
    actions = 0
    for hand_index in range(max_hands):
        game = match.game
        assert match.hand_number == hand_index and game.level == rm.level
        hands = [counter(h) for h in game.initial_hands]
        assert sum(hands, Counter()) == Counter({c: 2 for c in range(54)})
        if prev_places is None:
            leader = match.first_leader
            assert game.phase == "play" and game.turn == leader
        else:
            setup = model.tribute_setup(prev_places, hands, teams)
            assert game.anti_tribute == setup["anti"]
            if setup["anti"]:
                leader = setup["leader"]
                assert game.phase == "play"
            else:
                leader = play_tribute(match, game, hands, setup, prev_places, rng, cfg)
        assert game.turn == leader
        rh = model.RefHand(hands, game.level, leader, teams, cfg)
        played = Counter()
        while not game.is_over:
            actions += 1
            assert game.turn == rh.turn
            assert [counter(game.hand(s)) for s in range(4)] == [+h for h in rh.hands]
            pile = game.pile
            assert (None if pile is None else reading(pile)) == rh.pile
            assert game.can_pass() == rh.can_pass()
            plays = game.legal_plays()
            assert plays or rh.can_pass(), "a leader always has a play"
            if rng.random() < 0.03:
                wrong = (rh.turn + 1 + rng.randrange(3)) % 4
                expect_refused(match, lambda: match.pass_turn(seat=wrong),
                               {"NOT_YOUR_TURN", "HAND_EMPTY", "CANNOT_PASS"})
            if rh.pile is None and rng.random() < 0.05:
                expect_refused(match, match.pass_turn, {"CANNOT_PASS"})
            if rh.can_pass() and (not plays or rng.random() < 0.35):
                match.pass_turn(seat=rh.turn)
                rh.pass_()
                continue
            play = rng.choice(plays)
            ids, r = play.cards.ids, reading(play)
            assert rh.is_legal(ids, r), (ids, r, rh.pile)
            match.play(play, seat=rh.turn)
            played += Counter(ids)
            rh.play(ids, r)
        assert rh.turn is None
        in_hands = sum((counter(game.hand(s)) for s in range(4)), Counter())
        assert in_hands + played == sum(hands, Counter())          # 108 cards conserved
        places = list(game.places)
        assert places[:len(rh.out)] == rh.out and set(places) == {0, 1, 2, 3}
        rm.settle(rh.places())
        result = match.results[-1]
        assert list(match.levels) == rm.levels and list(match.failed_attempts) == rm.failed
        assert match.winner == rm.winner and result.match_won == (rm.winner is not None)
        if match.is_over:
            break
        prev_places = rh.places()
    assert actions > 0
    return len(match.results)


def play_tribute(match, game, hands, setup, prev_places, rng, cfg) -> int:
    payers = setup["payers"]
    assert game.phase == "tribute" and sorted(t.payer for t in game.tributes) == sorted(payers)
    given = {}
    level = game.level
    while len(given) < len(payers):
        seat = game.turn
        assert seat in payers and seat not in given
        hand = hands[seat]
        ok = model.allowed_tribute(hand, level, cfg)
        bad = [c for c in hand if hand[c] and c not in ok]
        if bad and rng.random() < 0.3:
            expect_refused(match, lambda: match.give_tribute(rng.choice(bad), seat), {"INVALID_TRIBUTE"})
        expect_refused(match, lambda: match.return_tribute(min(hand.elements()), seat),
                       {"STATE_CONFLICT"})
        card = rng.choice(sorted(ok))
        match.give_tribute(card, seat=seat)
        hand[card] -= 1
        given[seat] = card
    receivers, leader = model.assign_receivers(prev_places, given, level)
    for payer, receiver in receivers.items():
        hands[receiver][given[payer]] += 1
    assert {t.payer: t.receiver for t in game.tributes} == receivers
    returned = set()
    while game.phase == "tribute":
        seat = game.turn
        payer = next(p for p, r in receivers.items() if r == seat and p not in returned)
        hand = hands[seat]
        ok = model.allowed_return(hand, level, cfg)
        bad = [c for c in hand if hand[c] and c not in ok]
        if bad and rng.random() < 0.3:
            expect_refused(match, lambda: match.return_tribute(rng.choice(bad), seat),
                           {"INVALID_TRIBUTE"})
        card = rng.choice(sorted(ok))
        match.return_tribute(card, seat=seat)
        hand[card] -= 1
        hands[payer][card] += 1
        returned.add(payer)
    assert returned == set(receivers)
    return leader


@pytest.mark.parametrize("seed", range(60 if SOAK else 6))
@pytest.mark.parametrize("config_index", range(len(CONFIGS)))
def test_random_matches_agree_with_the_model(seed, config_index):
    hands = run_match(seed * 7919 + config_index, CONFIGS[config_index], 400 if SOAK else 3)
    assert hands >= 1


@pytest.mark.parametrize("seed", range(40 if SOAK else 2))
def test_every_match_ends(seed):
    """Matches played to the end (G7): a team wins at A within the hand cap."""
    config = CONFIGS[seed % len(CONFIGS)]
    if config.failed_attempts_limit == 0:
        config = RuleConfig()
    n = run_match(10_000 + seed, config, 2000)
    assert n >= 4          # at least 4 hands: 12 levels at most 3 (or 4) a hand
