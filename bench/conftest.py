"""Fixtures for the pytest-benchmark suite: ``python -m pytest bench/ --benchmark-only``.

Inputs are built once per session from fixed seeds (see ``workloads.py``), so every run
times the same work. Each benchmark loops over a block of inputs rather than repeating one:
a single hand would sit in the branch predictor and flatter the core. The per-item time is
stored in ``extra_info`` (``per_item_ns``) next to the per-block time pytest-benchmark shows.
"""

from __future__ import annotations

import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(__file__))

import workloads  # noqa: E402

SEED = int(os.environ.get("TIENLEN_BENCH_SEED", "0"))
BLOCK = 1000


@pytest.fixture(scope="session")
def seed() -> int:
    return SEED


@pytest.fixture(scope="session")
def hands13() -> list[int]:
    return workloads.dealt_hands(BLOCK, SEED)


@pytest.fixture(scope="session")
def mid_hands() -> list[int]:
    return workloads.mid_game_hands(BLOCK, SEED)


@pytest.fixture(scope="session")
def following() -> tuple[list[int], list[int]]:
    return workloads.following(BLOCK, SEED)


@pytest.fixture(scope="session")
def locked() -> tuple[list[int], list[int]]:
    return workloads.locked_on_twos(BLOCK, SEED)


@pytest.fixture(scope="session")
def plays() -> list[int]:
    return workloads.candidate_plays(BLOCK * 10, SEED)


@pytest.fixture(scope="session")
def beat_pairs() -> tuple[list[int], list[int]]:
    return workloads.beat_pairs(BLOCK * 10, SEED)


@pytest.fixture
def per_item(benchmark):
    """Run ``fn`` under the benchmark and record the time per item of a block of ``n``."""

    def run(fn, n, *args):
        result = benchmark(fn, *args)
        benchmark.extra_info["items_per_call"] = n
        if benchmark.stats is not None:  # None under --benchmark-disable
            benchmark.extra_info["per_item_ns"] = benchmark.stats.stats.median * 1e9 / n
        return result

    return run
