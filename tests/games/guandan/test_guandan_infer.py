"""L3's inference from passes (issue 29): the core's PlanPasses counts the passes the plan
would have replaced by a play; for players of the plan itself the true hands contradict none
of their passes (so the evidence is read off the history right: the piles, the counts then,
the cards played since); L3's inferred deals keep every card count and known card, and fit
the passes better than uniform deals."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tienlen import _guandan as core
from tienlen.guandan import Cards, Match, RuleConfig
from tienlen.games.guandan.bots import PlanBot, SearchBot, _Knowledge, _pass_evidence, make_bot
from tienlen.games.guandan.game import single_value

from guandan_positions import mid_hand

CONFIGS = [RuleConfig(), RuleConfig.huaian(), RuleConfig(wild_count=0)]


def pair(rank: int) -> int:
    return core.make_code(core.PAIR, 2, rank)


def _positions(seed: int, config: RuleConfig, hands: int = 2, every: int = 7):
    """Views of an all-L2 match (tribute from hand 2 on), every `every` actions."""
    match = Match(seed=seed, config=config)
    bots = [PlanBot(seed=s) for s in range(4)]
    step = 0
    while match.hand_number <= hands and not match.is_over:
        seat = match.turn
        if match.game.phase == "play" and step % every == 0:
            yield match.game
        kind, cards = bots[seat].decide(match.game.view(seat))
        match.act(kind, cards, seat)
        step += 1


@pytest.mark.parametrize("config", CONFIGS, ids=["standard", "huaian", "no_wilds"])
def test_the_passes_of_plan_players_fit_their_true_hands(config):
    checked = contradicted = 0
    for seed in (1, 2):
        for game in _positions(seed, config):
            for seat in range(4):
                view = game.view(seat)
                for other, passes in _pass_evidence(view).items():
                    assert other != seat and len(passes) > 0
                    assert passes.misses(*game.view(other).hand.masks) == 0
                    checked += len(passes)
                    # a hand of the other seat's size dealt at random often contradicts them
                    rng = random.Random(checked)
                    deck = [c for c in range(54) for _ in range(2)]
                    fake = Cards.from_ids(rng.sample(deck, len(game.view(other).hand)))
                    contradicted += passes.misses(*fake.masks) > 0
    assert checked > 100 and contradicted > 10


def test_plan_passes_count_the_passes_the_plan_would_have_played():
    eights = Cards.parse("8s 8d")
    lone = Cards.parse("3s Qc")
    keep = core.PlanPasses(9, 0, [(0, 0, pair(5), 20, 20, (20, 20))])
    assert keep.misses(*(Cards.from_ids(eights.ids + lone.ids)).masks) == 1
    assert keep.misses(*lone.masks) == 0
    # the pair was played after the pass: the hand then held it
    later = core.PlanPasses(9, 0, [(*eights.masks, pair(5), 20, 20, (20, 20))])
    assert later.misses(*lone.masks) == 1
    # a pair of 10s passes the 8s but not a pair of Ks
    two = core.PlanPasses(9, 0, [(0, 0, pair(8), 20, 20, (20, 20)),
                                 (0, 0, pair(13), 20, 20, (20, 20))])
    assert two.misses(*Cards.from_ids(Cards.parse("10s 10d").ids + lone.ids).masks) == 1
    assert len(two) == 2


def test_plan_passes_keep_the_latest_and_refuse_bad_input():
    rows = [(0, 0, pair(5), 20, 20, (20, 20))] * 70
    assert len(core.PlanPasses(9, 0, rows)) == 64
    good = (0, 0, pair(5), 20, 20, (20, 20))
    bad_rows = [
        (0, 0, pair(5), 20, 20),                       # five fields
        (0, 0, 0, 20, 20, (20, 20)),                   # no pile
        (0, 0, 12345, 20, 20, (20, 20)),               # not a play
        (0, 0, pair(5), 28, 20, (20, 20)),             # 28 cards
        (0, 0, pair(5), 20, -1, (20, 20)),
        (0, 0, pair(5), 20, 20, (20,)),                # one opponent
        (0, 1, pair(5), 20, 20, (20, 20)),             # twice outside once
        (1 << 54, 0, pair(5), 20, 20, (20, 20)),       # no such card type
        "nonsense",
    ]
    for row in bad_rows:
        with pytest.raises(ValueError):
            core.PlanPasses(9, 0, [good, row])
    with pytest.raises(ValueError):
        core.PlanPasses(15, 0, [good])
    with pytest.raises(ValueError):
        core.PlanPasses(9, 0, 5)
    passes = core.PlanPasses(9, 0, [good])
    with pytest.raises(ValueError):
        passes.misses(1, 2)
    # any hand and any cards played since, overlapping to three copies or not: an answer
    rng = random.Random(5)
    full = (1 << 54) - 1
    rows = [(rng.getrandbits(54), 0, pair(rng.randint(2, 14)), rng.randint(0, 27),
             rng.randint(0, 27), (rng.randint(0, 27), rng.randint(0, 27))) for _ in range(30)]
    rows = [(a, a & rng.getrandbits(54), *rest) for a, _, *rest in rows]
    passes = core.PlanPasses(9, 0, rows)
    for _ in range(50):
        once = rng.getrandbits(54) & full
        assert 0 <= passes.misses(once, once & rng.getrandbits(54)) <= 30
    assert passes.misses(0, 0) >= 0


def test_inferred_deals_keep_counts_and_known_cards_and_fit_the_passes_better():
    game = mid_hand(7, 40)                  # hand 2: a double tribute, then 40 actions
    assert game.tributes
    played = Counter(c for a in game.history if a.action == "play" for c in a.cards.ids)
    better = 0
    for seat in range(4):
        view = game.view(seat)
        uniform, inferred = _Knowledge(view), _Knowledge(view, infer=True)
        assert inferred.passes and not uniform.passes
        rng = random.Random(seat)
        misses = {False: 0, True: 0}
        for know, infer in ((uniform, False), (inferred, True)):
            for _ in range(40):
                hands = know.sample(rng)
                assert tuple(sorted(hands[seat])) == view.hand.ids
                assert [len(h) for h in hands] == list(view.hand_sizes)
                assert sum((Counter(h) for h in hands), played) == Counter(
                    {c: 2 for c in range(54)})
                for t in game.tributes:
                    if t.receiver is None:
                        continue
                    if t.payer == seat and t.card is not None and t.card not in played:
                        assert t.card in hands[t.receiver]
                    if t.receiver == seat and t.card is not None:
                        wild = (game.level - 2) * 4 + 1
                        top = single_value(t.card, game.level)
                        assert all(c == wild or single_value(c, game.level) <= top
                                   for c in hands[t.payer])
                misses[infer] += sum(p.misses(*Cards.from_ids(hands[s]).masks)
                                     for s, p in inferred.passes.items())
        better += misses[True] < misses[False]
    assert better >= 3


def test_L3_infer_option():
    assert make_bot("L3", seed=1, iterations=5, infer=False).name == "L3(iterations=5, infer=off)"
    assert make_bot("L3", seed=1, iterations=5).infer
    with pytest.raises(ValueError):
        SearchBot(infer="yes")
