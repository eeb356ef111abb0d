"""Write tests/perft.txt: legal-lead counts from the reference, a regression oracle for the core.

Usage: ``python tests/make_perft.py`` (about a minute or two: brute force over subsets).

The hands of the ``deal`` lines come from ``core.deal(seed, 4)`` (the one thing taken from
the core); every count comes from ``tests/reference.py``: ``legal_moves`` brute force over
every subset of the hand, cross-checked against ``count_leads_closed_form`` (rank counts
and binomials). The ``hand`` lines are hand-picked hands of more than 13 cards, too big to
brute-force, counted by the closed form; for several of them the expected counts were
also worked out by hand (below) and the generator refuses to write a file that disagrees.
"""

from __future__ import annotations


import sys
from pathlib import Path

import reference as ref
from reference import parse

SEEDS = range(200)
OUT = Path(__file__).with_name("perft.txt")


def suits(ranks: str, suit_letters: str) -> str:
    return " ".join(f"{r}{s}" for r in ranks.split() for s in suit_letters)


ALL_RANKS = "3 4 5 6 7 8 9 10 J Q K A 2"

# name -> (cards, hand-derived counts or None). Counts are (leads, leads through the
# lowest card) under the contract, then the same under NO_TWOS_IN_SEQUENCES.
BIG_HANDS: dict[str, tuple[str, tuple[int, int, int, int] | None]] = {
    # 26 cards, two of every rank (spades and hearts).
    #   contract: 26 singles + 13 pairs + sum_{L=3..13} (14-L) 2^L = 32664 runs + 66
    #   double runs (one per window) = 32769. Through 3♠: 3♠ and 3♠3♥, then the 11
    #   windows from 3: sum_{L=3..13} 2^(L-1) = 8188 runs, 11 double runs -> 8201.
    #   no-twos: 39 + sum_{L=3..12} (13-L) 2^L = 16288 + 55 = 16382; through 3♠:
    #   2 + (2^2 + ... + 2^11 = 4092) + 10 = 4104.
    "two_full_suits": (suits(ALL_RANKS, "sh"), (32769, 8201, 16382, 4104)),
    # 20 cards, J Q K A 2 of every suit. n-of-a-kind: 20 + 30 + 20 + 5 = 75.
    #   contract: runs 3*4^3 + 2*4^4 + 4^5 = 1728, double runs 3*6^3 + 2*6^4 + 6^5 = 11016
    #   -> 12819. Through J♠: 1+3+3+1 = 8 n-of-a-kind, runs from J: 4^2+4^3+4^4 = 336,
    #   double runs 3 * (6^2+6^3+6^4) = 4644 -> 4988.
    #   no-twos: 75 + (2*64 + 256) + (2*216 + 1296) = 2187; through J♠: 8 + 80 + 756 = 844.
    "J_to_2_all_suits": (suits("J Q K A 2", "scdh"), (12819, 4988, 2187, 844)),
    # 16 cards, 3 4 5 6 of every suit: 16 + 24 + 16 + 4 n-of-a-kind, runs 2*64 + 256,
    #   double runs 2*216 + 1296 -> 2172; through 3♠: 8 + (16 + 64) + 3*(36 + 216) = 844.
    #   No 2s, so the variant changes nothing.
    "3_to_6_all_suits": (suits("3 4 5 6", "scdh"), (2172, 844, 2172, 844)),
    # 20 cards: a full suit of spades and the hearts from 3 to 9.
    "spades_and_low_hearts": (suits(ALL_RANKS, "s") + " " + suits("3 4 5 6 7 8 9", "h"), None),
    # 32 cards, 3..10 of every suit: about 2.5 million leads, under the core's MAX_MOVES.
    "3_to_10_all_suits": (suits("3 4 5 6 7 8 9 10", "scdh"), None),
    # The whole deck: far more leads than MAX_MOVES (legal_moves must refuse, count must not).
    "full_deck": (suits(ALL_RANKS, "scdh"), None),
    # 14 cards: one of every rank plus the 2♥ (two 2s): just over a real hand.
    "one_per_rank_plus_2h": (suits(ALL_RANKS, "c") + " 2h", None),
}

HEADER = """\
# perft.txt: exact numbers of legal leads, a regression oracle for tienlen.games.tienlen.core.
# Written by `python tests/make_perft.py`; checked by tests/test_perft.py. Do not edit by hand.
#
# deal SEED SEAT MASK N0 M0 N1 M1
#   MASK (hex) is seat SEAT's hand in core.deal(SEED, 4); seeds 0..199, four seats each.
# hand NAME MASK N0 M0 N1 M1
#   a hand-picked hand of more than 13 cards (see BIG_HANDS in make_perft.py).
# N0 = number of legal leads (empty pile, not locked out) under flags 0 (the contract);
# M0 = the same with must_include = the lowest card of that hand (R7.2);
# N1, M1 = the same under NO_TWOS_IN_SEQUENCES (R2.8).
# Counts of `deal` lines: tests/reference.py legal_moves (brute force over every subset),
# cross-checked with its closed form. Counts of `hand` lines: the closed form over rank
# counts, and for several of them a hand derivation in make_perft.py.
"""


def lead_counts_brute(hand: int) -> tuple[int, int, int, int]:
    low = ref.lowest_card(hand)
    counts = []
    for tis in (True, False):
        counts.append(len(ref.legal_moves(hand, twos_in_sequences=tis)))
        counts.append(len(ref.legal_moves(hand, must_include=low, twos_in_sequences=tis)))
    return tuple(counts)


def lead_counts_closed(hand: int) -> tuple[int, int, int, int]:
    low = ref.lowest_card(hand)
    counts = []
    for tis in (True, False):
        counts.append(ref.count_leads_closed_form(hand, None, tis))
        counts.append(ref.count_leads_closed_form(hand, low, tis))
    return tuple(counts)


def main() -> None:
    from tienlen import core

    lines = [HEADER.rstrip("\n")]
    for seed in SEEDS:
        for seat, hand in enumerate(core.deal(seed, 4)):
            hand = int(hand)
            counts = lead_counts_brute(hand)
            if counts != lead_counts_closed(hand):
                sys.exit(f"brute force and closed form disagree on {ref.cards_str(hand)}")
            lines.append(f"deal {seed} {seat} {hand:#x} " + " ".join(map(str, counts)))
        print(f"seed {seed}", file=sys.stderr, end="\r")
    for name, (text, by_hand) in BIG_HANDS.items():
        hand = parse(text)
        counts = lead_counts_closed(hand)
        if by_hand is not None and counts != by_hand:
            sys.exit(f"{name}: closed form {counts} but worked out by hand {by_hand}")
        lines.append(f"hand {name} {hand:#x} " + " ".join(map(str, counts)))
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {OUT}", file=sys.stderr)


if __name__ == "__main__":
    main()
