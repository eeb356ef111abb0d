"""Batch (nogil) entry points on NumPy arrays. random_playouts is in test_bench_playouts.py."""

from __future__ import annotations

import numpy as np
import pytest

import workloads
from tienlen import core

BIG = 1 << 20
HANDS = 10_000


@pytest.fixture(scope="module")
def big_plays(seed):
    return workloads.candidate_plays_array(BIG, seed)


@pytest.fixture(scope="module")
def hands_arr(seed):
    return workloads.as_u64(workloads.dealt_hands(HANDS, seed))


@pytest.fixture(scope="module")
def following_arr(seed):
    hands, piles = workloads.following(HANDS, seed)
    return workloads.as_u64(hands), workloads.as_u32(piles)


@pytest.fixture(scope="module")
def locked_arr(seed):
    hands, piles = workloads.locked_on_twos(HANDS, seed)
    return workloads.as_u64(hands), workloads.as_u32(piles), np.ones(len(hands), np.bool_)


def test_np_bitwise_count_baseline(per_item, big_plays):
    """The yardstick for classify_many: one popcount per element."""
    per_item(np.bitwise_count, BIG, big_plays)


def test_classify_many(per_item, big_plays):
    out = np.empty(BIG, np.uint32)
    per_item(lambda: core.classify_many(big_plays, out=out), BIG)


def test_beats_many(per_item, seed):
    plays, piles = workloads.beat_pairs(BIG // 16, seed)
    a, b = workloads.as_u32(plays), workloads.as_u32(piles)
    a, b = np.tile(a, 16), np.tile(b, 16)
    out = np.empty(len(a), np.bool_)
    per_item(lambda: core.beats_many(a, b, out=out), len(a))


def test_count_legal_moves_many_lead(per_item, hands_arr):
    out = np.empty(HANDS, np.int64)
    per_item(lambda: core.count_legal_moves_many(hands_arr, out=out), HANDS)


def test_count_legal_moves_many_following(per_item, following_arr):
    hands, piles = following_arr
    per_item(lambda: core.count_legal_moves_many(hands, piles), HANDS)


def test_legal_moves_many_lead(per_item, hands_arr):
    per_item(core.legal_moves_many, HANDS, hands_arr)


def test_legal_moves_many_following(per_item, following_arr):
    per_item(core.legal_moves_many, HANDS, *following_arr)


def test_legal_moves_many_locked_out(per_item, locked_arr):
    hands, piles, lo = locked_arr
    per_item(lambda: core.legal_moves_many(hands, piles, 0, lo), HANDS)
