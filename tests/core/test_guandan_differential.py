"""Differential tests: tienlen.guandan against the independent reference (GUANDAN.md G1-G4).

classify, beats and legal_plays must agree with tests/guandan_reference.py on seeded random
card sets and hands with exactly 0, 1 and 2 wild cards, at every level 2..A, under
``standard()``, ``huaian()`` and each rules-core field of G4 toggled alone. The samples come
from tests/guandan_samples.py, biased towards combinations (runs, one-suit runs, pairs, groups,
jokers, wild-filled plays); dealt 27-card hands are checked too. A play is compared as
``(play.cards.ids, (play.kind.name.lower(), play.size, play.rank))`` (GUANDAN_API.md).

The default run takes seconds; ``TIENLEN_SOAK=1`` multiplies every count by 100.
"""

from __future__ import annotations

import os
import random
from collections import Counter

import pytest

guandan = pytest.importorskip("tienlen.guandan")

import guandan_reference as ref  # noqa: E402
from guandan_samples import rich_hand, rich_play  # noqa: E402
from tienlen.guandan import (  # noqa: E402
    BombOrder,
    Cards,
    RuleConfig,
    TeamFormation,
    beats,
    classify,
    count_legal_plays,
    legal_plays,
)

SOAK = 100 if os.environ.get("TIENLEN_SOAK") == "1" else 1
LEVELS = range(2, 15)

# name -> reference config; the core's RuleConfig is built from the same dict.
CONFIGS: dict[str, dict] = {
    "standard": ref.STANDARD,
    "huaian": ref.HUAIAN,
    "no_straight_flush": {**ref.STANDARD, "same_suit_straight_beats_bomb": False},
    "no_ace_top": {**ref.STANDARD, "straight_extends_to_ace": False},
    "by_rank": {**ref.STANDARD, "bomb_compare_priority": "BY_RANK"},
    "no_wilds": {**ref.STANDARD, "wild_count": 0},
}


def rule_config(cfg: dict) -> RuleConfig:
    fields = dict(cfg)
    fields["bomb_compare_priority"] = BombOrder[cfg["bomb_compare_priority"]]
    fields["team_formation"] = TeamFormation[cfg["team_formation"]]
    return RuleConfig(**fields)


CORE_CONFIGS = {name: rule_config(cfg) for name, cfg in CONFIGS.items()}


def test_presets_match_the_reference_dicts() -> None:
    assert CORE_CONFIGS["standard"] == RuleConfig.standard()
    assert CORE_CONFIGS["huaian"] == RuleConfig.huaian()


def reading(play) -> tuple[str, int, int]:
    return (play.kind.name.lower(), play.size, play.rank)


def as_ref(play) -> tuple[tuple[int, ...], tuple[str, int, int]]:
    return (play.cards.ids, reading(play))


def core_pile(ids: tuple[int, ...], want: tuple[str, int, int], level: int, config):
    """The core's Play for these cards and this reading (the pile to follow)."""
    found = [p for p in classify(Cards.from_ids(list(ids)), level, config) if reading(p) == want]
    assert len(found) == 1, (ref.cards_str(ids), want, level)
    return found[0]


def cases(seed: int, count: int):
    """(rng, level, config name, wilds in hand) tuples covering every combination in turn."""
    rng = random.Random(seed)
    names = list(CONFIGS)
    for i in range(count):
        yield rng, LEVELS[i % 13], names[(i // 13) % len(names)], (i // 78) % 3


# ----------------------------------------------------------------------------- classify

def test_classify_agrees_with_reference() -> None:
    kinds: Counter[str] = Counter()
    wilds_used = Counter()
    for rng, level, name, _ in cases(1201, 2000 * SOAK):
        cfg, config = CONFIGS[name], CORE_CONFIGS[name]
        cards = rich_play(rng, level, cfg)
        want = ref.classify(cards, level, cfg)
        got = {reading(p) for p in classify(Cards.from_ids(cards), level, config)}
        assert got == want, f"{ref.cards_str(cards)} at level {level}, {name}"
        kinds.update(r[0] for r in want)
        wild = ref.wild_card(level, cfg)
        if want and wild is not None:
            wilds_used[cards.count(wild)] += 1
    # The sample really covers every kind, and plays with 0, 1 and 2 wilds.
    assert set(kinds) == set(ref.KINDS) and min(kinds.values()) >= 20 * SOAK
    assert min(wilds_used[k] for k in (0, 1, 2)) >= 50 * SOAK


def test_classify_uses_wild_and_is_bomb() -> None:
    for rng, level, name, _ in cases(1202, 600 * SOAK):
        cfg, config = CONFIGS[name], CORE_CONFIGS[name]
        cards = rich_play(rng, level, cfg)
        wild = ref.wild_card(level, cfg)
        for p in classify(Cards.from_ids(cards), level, config):
            assert p.uses_wild == (wild is not None and wild in cards)
            assert p.is_bomb == (p.kind.name.lower() in ref.BOMB_KINDS)
            assert p.size == len(cards) and p.level == level


# ----------------------------------------------------------------------------- beats

def test_beats_agrees_with_reference() -> None:
    compared = Counter()
    for rng, level, name, _ in cases(1301, 400 * SOAK):
        cfg, config = CONFIGS[name], CORE_CONFIGS[name]
        plays = []
        for _ in range(8):
            plays += classify(Cards.from_ids(rich_play(rng, level, cfg)), level, config)
        for a in plays:
            for b in plays:
                want = ref.beats(reading(a), reading(b), level, cfg)
                assert beats(a, b, config) == want, (reading(a), reading(b), level, name)
                compared[want] += 1
    assert compared[True] > 1000 * SOAK and compared[False] > 1000 * SOAK


# ----------------------------------------------------------------------------- legal plays

def check_hand(hand: list[int], level: int, name: str, rng: random.Random) -> set:
    """Lead and follow lists of one hand against the reference; returns the lead readings."""
    cfg, config = CONFIGS[name], CORE_CONFIGS[name]
    cards = Cards.from_ids(hand)
    where = f"{ref.cards_str(hand)} at level {level}, {name}"
    want = ref.legal_plays(hand, level, None, cfg)
    got_list = legal_plays(cards, level, None, config)
    got = {as_ref(p) for p in got_list}
    assert len(got) == len(got_list), f"duplicate plays: {where}"
    assert got == want, (
        f"{where}: core only {sorted(got - want)[:5]}, reference only {sorted(want - got)[:5]}")
    assert count_legal_plays(cards, level, None, config) == len(want)
    # Follow a few piles: plays the hand could lead itself, and a play built to be rich.
    piles = rng.sample(sorted(want), min(3, len(want)))
    extra = rich_play(rng, level, cfg)
    piles += [(tuple(extra), r) for r in sorted(ref.classify(extra, level, cfg))[:1]]
    for ids, pile_reading in piles:
        pile = core_pile(ids, pile_reading, level, config)
        # The reference's follow list is its lead list filtered by beats (a property its own
        # tests check), which is much cheaper than a second generation.
        follow = {p for p in want if ref.beats(p[1], pile_reading, level, cfg)}
        got_follow = {as_ref(p) for p in legal_plays(cards, level, pile, config)}
        assert got_follow == follow, f"{where}, following {pile_reading}"
        assert count_legal_plays(cards, level, pile, config) == len(follow)
    return {r for _, r in want}


def loaded_hand(rng: random.Random, level: int, n_wild: int, cfg: dict) -> list[int]:
    """A rich hand that surely holds all eight cards of one rank and the four jokers."""
    counts = Counter(rich_hand(rng, 10, level, n_wild, cfg))
    rank = rng.choice([r for r in LEVELS if r != level])
    for card in [ref.card_of(rank, s) for s in range(4)] + [ref.SMALL_JOKER, ref.BIG_JOKER]:
        counts[card] = 2
    return sorted(counts.elements())


@pytest.mark.parametrize("n_wild", [0, 1, 2])
def test_legal_plays_agree_on_rich_hands(n_wild: int) -> None:
    rng = random.Random(1400 + n_wild)
    names = list(CONFIGS)
    seen: set[tuple[str, int, int]] = set()
    for i in range(40 * SOAK):
        level = LEVELS[i % 13]
        name = names[i % len(names)]
        size = rng.choice([6, 8, 10, 14, 18, 27])
        if i % 5 == 4:
            hand = loaded_hand(rng, level, n_wild, CONFIGS[name])
        else:
            hand = rich_hand(rng, size, level, n_wild, CONFIGS[name])
        seen |= check_hand(hand, level, name, rng)
    # The hands held every kind, and bombs as big as their wilds allow.
    assert {kind for kind, _, _ in seen} == set(ref.KINDS)
    assert max(size for kind, size, _ in seen if kind == "bomb") == 8 + n_wild


def test_legal_plays_agree_on_dealt_hands() -> None:
    # Plain deals: 27 of the 108 card ids (card_id % 54 = original_id).
    rng = random.Random(1500)
    names = list(CONFIGS)
    for i in range(8 * SOAK):
        hand = sorted(c % 54 for c in rng.sample(range(108), 27))
        check_hand(hand, LEVELS[i % 13], names[i % len(names)], rng)


def test_wilds_only_and_joker_hands() -> None:
    rng = random.Random(1600)
    names = list(CONFIGS)
    for level in LEVELS:
        name = names[level % len(names)]
        heart = ref.card_of(level, ref.HEARTS)
        for hand in ([heart], [heart, heart], [heart, heart, 52, 52, 53, 53],
                     [heart, 52, 53], [52, 52, 53, 53, ref.card_of(level, 0)]):
            check_hand(hand, level, name, rng)
