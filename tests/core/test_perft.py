"""Perft-style regression: the core's legal-lead counts against tests/perft.txt.

perft.txt was written by tests/make_perft.py from the reference (brute force and a closed
form), never from the core's move generator; its header describes the format.
"""

from __future__ import annotations

from paths import REFERENCE

from pathlib import Path
from typing import NamedTuple

import pytest

import reference as ref
from tienlen import core

PERFT = REFERENCE / "perft.txt"
SETTINGS = [(0, True), (core.NO_TWOS_IN_SEQUENCES, False)]


class Row(NamedTuple):
    label: str
    seed: int | None
    seat: int | None
    hand: int
    counts: tuple[int, int, int, int]  # (N0, M0, N1, M1), see the file header


def load() -> list[Row]:
    rows = []
    for line in PERFT.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split()
        if parts[0] == "deal":
            seed, seat = int(parts[1]), int(parts[2])
            rows.append(Row(f"deal {seed} seat {seat}", seed, seat, int(parts[3], 16),
                            tuple(map(int, parts[4:8]))))
        elif parts[0] == "hand":
            rows.append(Row(f"hand {parts[1]}", None, None, int(parts[2], 16),
                            tuple(map(int, parts[3:7]))))
        else:
            raise AssertionError(f"unknown perft line: {line!r}")
    return rows


ROWS = load()
DEALS = [r for r in ROWS if r.seed is not None]
BIG = [r for r in ROWS if r.seed is None]


def test_perft_file_is_complete_and_consistent() -> None:
    assert [(r.seed, r.seat) for r in DEALS] == [(s, p) for s in range(200) for p in range(4)]
    assert len(BIG) >= 3 and all(r.hand.bit_count() > 13 for r in BIG)
    # The closed form is independent of the brute force that wrote the deal lines.
    for r in ROWS:
        low = ref.lowest_card(r.hand)
        expected = tuple(
            ref.count_leads_closed_form(r.hand, must, tis)
            for tis in (True, False)
            for must in (None, low)
        )
        assert r.counts == expected, r.label


def test_R1_4_deal_matches_recorded_hands() -> None:
    # The recorded hands came from core.deal itself: this pins the deal across platforms
    # and versions (R1.4); the shape of each deal is checked independently of the file.
    for seed in range(200):
        hands = [int(h) for h in core.deal(seed, 4)]
        assert [h.bit_count() for h in hands] == [13] * 4
        union = 0
        for h in hands:
            assert union & h == 0
            union |= h
        assert union == ref.FULL_DECK
        recorded = [r.hand for r in DEALS[4 * seed : 4 * seed + 4]]
        assert hands == recorded, f"core.deal({seed}, 4) changed"


def check_counts(row: Row) -> None:
    low = ref.lowest_card(row.hand)
    expected = iter(row.counts)
    for flags, _ in SETTINGS:
        for must in (-1, low):
            want = next(expected)
            where = f"{row.label} [{ref.cards_str(row.hand)}], flags={flags}, must_include={must}"
            count = core.count_legal_moves(row.hand, 0, flags, False, must)
            assert count == want, f"count_legal_moves {count} != {want}: {where}"
            if want > core.MAX_MOVES:
                with pytest.raises(ValueError):
                    core.legal_moves(row.hand, 0, flags, False, must)
            else:
                got = len(core.legal_moves(row.hand, 0, flags, False, must))
                assert got == want, f"len(legal_moves) {got} != {want}: {where}"


def test_perft_deals() -> None:
    for row in DEALS:
        check_counts(row)


@pytest.mark.parametrize("row", BIG, ids=[r.label for r in BIG])
def test_perft_big_hands(row: Row) -> None:
    check_counts(row)
