"""Perft-style regression for Guandan: the core's legal-play counts against guandan_perft.txt.

guandan_perft.txt was written by tests/make_guandan_perft.py from the reference
(tests/guandan_reference.py), never from the core; its header describes the format. The file
checks need only the reference; the core checks skip until ``tienlen.guandan`` exists.
"""

from __future__ import annotations

from paths import REFERENCE

from pathlib import Path
from typing import NamedTuple

import pytest

import guandan_reference as ref
from make_guandan_perft import CONFIGS, SEEDS, deal, originals

PERFT = REFERENCE / "guandan_perft.txt"


class Count(NamedTuple):
    seed: int | str  # a deal seed, or the name of a hand-picked hand
    seat: int
    level: int
    config: str
    pile: tuple[tuple[int, ...], tuple[str, int, int]] | None
    count: int


def parse_pile(text: str):
    if text == "-":
        return None
    kind, size, rank, ids = text.split(":")
    return (tuple(int(i) for i in ids.split(".")), (kind, int(size), int(rank)))


def load() -> tuple[dict, list[Count], list[tuple[Count, list[int]]]]:
    hands: dict[tuple[int, int], list[int]] = {}
    counts: list[Count] = []
    named: list[tuple[Count, list[int]]] = []
    for line in PERFT.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        parts = line.split()
        if parts[0] == "hand":
            hands[int(parts[1]), int(parts[2])] = [int(c) for c in parts[3].split(",")]
        elif parts[0] == "count":
            counts.append(Count(int(parts[1]), int(parts[2]), int(parts[3]), parts[4],
                                parse_pile(parts[5]), int(parts[6])))
        elif parts[0] == "named":
            c = Count(parts[1], 0, int(parts[2]), parts[3], parse_pile(parts[4]), int(parts[5]))
            named.append((c, [int(i) for i in parts[6].split(",")]))
        else:
            raise AssertionError(f"unknown perft line: {line!r}")
    return hands, counts, named


HANDS, COUNTS, NAMED = load()


def label(c: Count) -> str:
    pile = "lead" if c.pile is None else f"on {c.pile[1]}"
    where = c.seed if isinstance(c.seed, str) else f"deal {c.seed} seat {c.seat}"
    return f"{where} level {c.level} {c.config} {pile}"


def test_perft_file_is_complete_and_consistent() -> None:
    assert sorted(HANDS) == [(s, p) for s in SEEDS for p in range(4)]
    for seed in SEEDS:
        dealt = [HANDS[seed, p] for p in range(4)]
        assert dealt == deal(seed), f"deal({seed}) changed"
        assert sorted(c for hand in dealt for c in hand) == list(range(108))
    assert len(COUNTS) >= 40 and len(NAMED) >= 8
    assert {c.config for c in COUNTS} == set(CONFIGS)
    assert sum(c.pile is None for c in COUNTS) == sum(c.pile is not None for c in COUNTS)
    levels_with_wilds = set()
    for c in COUNTS:
        assert (c.seed, c.seat) in HANDS
        hand = originals(HANDS[c.seed, c.seat])
        wild = ref.wild_card(c.level, CONFIGS[c.config])
        if wild is not None and wild in hand:
            levels_with_wilds.add(hand.count(wild))
        if c.pile is not None:  # the recorded pile really reads as recorded
            ids, reading = c.pile
            assert reading in ref.classify(ids, c.level, CONFIGS[c.config]), label(c)
    assert levels_with_wilds == {1, 2}


@pytest.mark.parametrize("c", COUNTS[::9], ids=label)
def test_reference_still_gives_the_recorded_counts(c: Count) -> None:
    hand = originals(HANDS[c.seed, c.seat])
    pile = None if c.pile is None else c.pile[1]
    assert len(ref.legal_plays(hand, c.level, pile, CONFIGS[c.config])) == c.count


@pytest.mark.parametrize("c,hand", NAMED, ids=[label(c) for c, _ in NAMED])
def test_named_hands_hand_derived_counts(c: Count, hand: list[int]) -> None:
    # The counts of these lines were worked out by hand (make_guandan_perft.NAMED).
    pile = None if c.pile is None else c.pile[1]
    if c.pile is not None:
        assert pile in ref.classify(c.pile[0], c.level, CONFIGS[c.config])
    assert len(ref.legal_plays(hand, c.level, pile, CONFIGS[c.config])) == c.count


@pytest.fixture(scope="module")
def guandan():
    return pytest.importorskip("tienlen.guandan")


def core_config(guandan, cfg: dict):
    fields = dict(cfg)
    fields["bomb_compare_priority"] = guandan.BombOrder[cfg["bomb_compare_priority"]]
    fields["team_formation"] = guandan.TeamFormation[cfg["team_formation"]]
    return guandan.RuleConfig(**fields)


def test_core_counts_match_the_file(guandan) -> None:
    rows = [(c, guandan.Cards.from_card_ids(HANDS[c.seed, c.seat])) for c in COUNTS]
    rows += [(c, guandan.Cards.from_ids(ids)) for c, ids in NAMED]
    for c, hand in rows:
        config = core_config(guandan, CONFIGS[c.config])
        pile = None
        if c.pile is not None:
            ids, reading = c.pile
            found = [p for p in guandan.classify(guandan.Cards.from_ids(list(ids)), c.level, config)
                     if (p.kind.name.lower(), p.size, p.rank) == reading]
            assert len(found) == 1, label(c)
            pile = found[0]
        got = guandan.count_legal_plays(hand, c.level, pile, config)
        assert got == c.count, f"count_legal_plays {got} != {c.count}: {label(c)}"
        listed = guandan.legal_plays(hand, c.level, pile, config)
        assert len(listed) == c.count, f"len(legal_plays) {len(listed)} != {c.count}: {label(c)}"
