"""The endgame solver over seeded random positions (bench/solver_stats.py prints the
percentiles the issue's goals are stated in; these rows track the totals over time)."""

from __future__ import annotations

from solver_stats import position

from tienlen import _core


def _solve_all(states):
    for state in states:
        _core.solve(state, max_nodes=1 << 40, max_ms=10_000)


def test_solve_three_players_six_cards(per_item):
    states = [position(seed, 3, 6, 0) for seed in range(100)]
    per_item(_solve_all, len(states), states)


def test_solve_two_players_thirteen_cards(benchmark):
    # Seconds per round: one round of 20 positions, a few rounds, no warm-up.
    states = [position(seed, 2, 13, 0) for seed in range(20)]
    benchmark.pedantic(_solve_all, args=(states,), rounds=3, iterations=1)
    benchmark.extra_info["items_per_call"] = len(states)
