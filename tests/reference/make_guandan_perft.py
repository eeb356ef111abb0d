"""Write tests/guandan_perft.txt: exact Guandan legal-play counts from the reference.

Usage: ``python tests/make_guandan_perft.py`` (a few seconds).

The deals come from ``deal(seed)`` below (Python's ``random.Random(seed).shuffle`` of the 108
card_ids, then 27 cards to each seat), not from the core, and every hand is written into the
file in full, so the file stands on its own. Every count comes from
tests/guandan_reference.py. Each hand is counted at one level (chosen so that most hands hold
one or two wild cards and some hold none), under ``standard`` and one other configuration,
on an empty pile and following a pile: a play picked from the next seat's legal plays.
"""

from __future__ import annotations


import random
import sys
from pathlib import Path

import guandan_reference as ref

SEEDS = range(5)
OUT = Path(__file__).with_name("guandan_perft.txt")
LEVELS = range(2, 15)

CONFIGS: dict[str, dict] = {
    "standard": ref.STANDARD,
    "huaian": ref.HUAIAN,
    "no_straight_flush": {**ref.STANDARD, "same_suit_straight_beats_bomb": False},
    "no_ace_top": {**ref.STANDARD, "straight_extends_to_ace": False},
    "by_rank": {**ref.STANDARD, "bomb_compare_priority": "BY_RANK"},
    "no_wilds": {**ref.STANDARD, "wild_count": 0},
}
OTHER_CONFIGS = [name for name in CONFIGS if name != "standard"]


def suits(ranks: str, suit_letters: str) -> str:
    return " ".join(f"{r}{s}" for r in ranks.split() for s in suit_letters)


ALL_RANKS = "2 3 4 5 6 7 8 9 10 J Q K A"
TWO_RANKS = "3s 3s 3d 3d 3c 3c 4s 4s 4d 4d 4c 4c"

# Hand-picked hands whose counts were worked out by hand; the generator refuses to write a
# file that disagrees. (name, cards, level, config, pile cards or None, pile reading, count)
# N(m) below is the number of m-card sub-multisets of a rank held as 3 faces x 2 copies:
# the coefficients of (1 + x + x^2)^3, N(0..6) = 1 3 6 7 6 3 1.
NAMED = [
    # 13 spades, no wild (2h): 13 singles, 10 straights (tops 5..A) each also a flush -> 33.
    ("spades", suits(ALL_RANKS, "s"), 2, "standard", None, None, 33),
    # huaian: 13 singles and 9 straights (no 10JQKA, no flushes) -> 22.
    ("spades", suits(ALL_RANKS, "s"), 2, "huaian", None, None, 22),
    # Spades and diamonds, 26 cards: 26 singles, 13 pairs, 10 windows x 2^5 = 320 straights,
    # 20 straight flushes, 12 three pairs (AA2233 .. QQKKAA) -> 391.
    ("spades_diamonds", suits(ALL_RANKS, "sd"), 2, "standard", None, None, 391),
    # huaian: 26 + 13 + 9 x 32 + 12 -> 339.
    ("spades_diamonds", suits(ALL_RANKS, "sd"), 2, "huaian", None, None, 339),
    # Following a straight topped by 10: 4 windows (J .. A tops) x 32 = 128, 20 flushes -> 148.
    ("spades_diamonds", suits(ALL_RANKS, "sd"), 2, "standard", "6c 7c 8c 9c 10s",
     ("straight", 5, 10), 148),
    # Six 3s and six 4s (faces s d c, twice each), level 2: per rank singles 3, pairs 6,
    # triples 7, bombs 6 + 3 + 1; full houses 7 x 6 each way = 84; plates 7 x 7 = 49.
    # 2 x (3 + 6 + 7 + 10) + 84 + 49 = 185.
    ("two_ranks", TWO_RANKS, 2, "standard", None, None, 185),
    # Following the plate 222333: the 49 plates 333444 and the 20 bombs -> 69.
    ("two_ranks", TWO_RANKS, 2, "standard", "2s 2d 2c 3s 3d 3c", ("plate", 6, 3), 69),
    # The same plus both wilds (3h 3h at level 3), W = wild, k = wilds used <= 2:
    #   singles 6 + W = 7; pairs per rank N(2) + N(1) = 9, twice, + WW = 19;
    #   triples per rank N(3) + N(2) + N(1) = 16, twice = 32;
    #   bombs per rank, size s from N(s) + N(s-1) + N(s-2): 19 + 16 + 10 + 4 + 1 = 50, twice;
    #   full houses per triple rank, (triple naturals, pair naturals): (3,2) 42, (3,1) 21,
    #   (3,0: WW pair) 7, (2,2) 36, (2,1) 18, (1,2) 18 = 142, twice = 284;
    #   plates 333444 with m3 + m4 >= 4: 49 + 42 + 42 + 21 + 21 + 36 = 211;
    #   three pairs 223344 and 334455 with WW as the outer pair: 36 + 36 = 72.
    #   7 + 19 + 32 + 100 + 284 + 211 + 72 = 725.
    ("two_ranks_two_wilds", TWO_RANKS + " 3h 3h", 3, "standard", None, None, 725),
]

HEADER = """\
# guandan_perft.txt: exact numbers of Guandan legal plays, a regression oracle for the core.
# Written by `python tests/make_guandan_perft.py`; checked by tests/test_guandan_perft.py.
# Do not edit by hand. Counts come from tests/guandan_reference.py, never from the core.
#
# hand SEED SEAT CARD_IDS
#   seat SEAT's 27 cards in deal(SEED) of make_guandan_perft.py (random.Random(SEED)
#   shuffles the 108 card_ids 0..107; seat s gets positions 27*s .. 27*s+26), sorted,
#   comma-separated. original_id = card_id % 54.
# named NAME LEVEL CONFIG PILE N IDS
#   a hand-picked hand (NAMED in make_guandan_perft.py, where N is worked out by hand),
#   IDS its original ids comma-separated; PILE and N as below.
# count SEED SEAT LEVEL CONFIG PILE N
#   N = number of distinct legal plays (cards, reading) of that hand at LEVEL under CONFIG
#   (standard, huaian, or standard with one G4 field changed: no_straight_flush,
#   no_ace_top, by_rank, no_wilds). PILE is - (leading) or KIND:SIZE:RANK:IDS, the reading
#   to beat and its cards as original ids joined by '.'.
"""


def deal(seed: int) -> list[list[int]]:
    """Four sorted 27-card hands of card_ids, fixed by the seed."""
    deck = list(range(108))
    random.Random(seed).shuffle(deck)
    return [sorted(deck[27 * s: 27 * s + 27]) for s in range(4)]


def originals(card_ids: list[int]) -> list[int]:
    return sorted(c % 54 for c in card_ids)


def pick_level(hand: list[int], index: int) -> int:
    """Most hands at a level where they hold the most wilds; every fourth at one with none."""
    wilds = {lv: hand.count(ref.card_of(lv, ref.HEARTS)) for lv in LEVELS}
    if index % 4 == 3:
        choices = [lv for lv in LEVELS if wilds[lv] == 0]
    else:
        most = max(wilds.values())
        choices = [lv for lv in LEVELS if wilds[lv] == most]
    return choices[index % len(choices)]


def pick_pile(rng: random.Random, other: list[int], level: int, cfg: dict):
    """A play the next seat could lead: a random kind first, so that rare kinds show up."""
    plays = sorted(ref.legal_plays(other, level, None, cfg))
    kinds = sorted({r[0] for _, r in plays})
    kind = rng.choice(kinds)
    return rng.choice([p for p in plays if p[1][0] == kind])


def pile_text(pile) -> str:
    if pile is None:
        return "-"
    ids, (kind, size, rank) = pile
    return f"{kind}:{size}:{rank}:" + ".".join(map(str, ids))


def main() -> None:
    lines = [HEADER.rstrip("\n")]
    for name, text, level, config, pile_cards, reading, by_hand in NAMED:
        hand = ref.parse(text)
        n = len(ref.legal_plays(hand, level, reading, CONFIGS[config]))
        if n != by_hand:
            sys.exit(f"{name}: the reference counts {n} but the hand derivation says {by_hand}")
        pile = None if reading is None else (tuple(ref.parse(pile_cards)), reading)
        lines.append(f"named {name} {level} {config} {pile_text(pile)} {n} "
                     + ",".join(map(str, hand)))
    index = 0
    for seed in SEEDS:
        hands = deal(seed)
        for seat, card_ids in enumerate(hands):
            lines.append(f"hand {seed} {seat} " + ",".join(map(str, card_ids)))
            hand = originals(card_ids)
            level = pick_level(hand, index)
            rng = random.Random(1000 * seed + seat)
            other = originals(hands[(seat + 1) % 4])
            for name in ("standard", OTHER_CONFIGS[index % len(OTHER_CONFIGS)]):
                cfg = CONFIGS[name]
                for pile in (None, pick_pile(rng, other, level, cfg)):
                    reading = None if pile is None else pile[1]
                    n = len(ref.legal_plays(hand, level, reading, cfg))
                    lines.append(f"count {seed} {seat} {level} {name} {pile_text(pile)} {n}")
            index += 1
        print(f"seed {seed}", file=sys.stderr, end="\r")
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
