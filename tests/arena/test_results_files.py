"""Results files written by the landed version (tests/data/results/, made with the code of
main before issue 25's rewrite by `tienlen sim ... --out`) still load, and hold what a run
of the same request plays now (every run is reproducible from its seed).

The files were made by:
  tienlen sim --bots L1,random,random,random --games 8 --seed 7 --out tienlen-v1.jsonl
  tienlen sim --bots L1,L2,random --players 3 --games 6 --seed 9 --out tienlen-v1.parquet
  tienlen sim --game guandan --bots L1,L1 --matches 2 --hand-cap 3 --seed 5 --out guandan-v1.jsonl
"""

from __future__ import annotations

from paths import DATA as TEST_DATA

from pathlib import Path

import numpy as np
import pytest

DATA = TEST_DATA / "results"


@pytest.mark.parametrize("name, lineup, games, players, seed", [
    ("tienlen-v1.jsonl", ("L1", "random", "random", "random"), 8, 4, 7),
    ("tienlen-v1.parquet", ("L1", "L2", "random"), 6, 3, 9),
])
def test_tienlen_results_of_the_landed_version_load(name, lineup, games, players, seed):
    if name.endswith(".parquet"):
        pytest.importorskip("pyarrow")
    from tienlen.games.tienlen import arena
    from tienlen.games.tienlen import results

    loaded = results.load(DATA / name)
    assert loaded.games == games and loaded.players == players and loaded.seed == seed
    again = arena.run(list(lineup), games, players=players, seed=seed)
    assert np.array_equal(loaded.places, again.places)
    assert [(s.first_rate, s.decisions) for s in loaded.stats()] == \
        [(s.first_rate, s.decisions) for s in again.stats()]
    assert [s.games for s in loaded.stats()] == [games] * players


def test_guandan_games_file_of_the_landed_version_loads():
    from tienlen.games.guandan import arena

    loaded = arena.load(DATA / "guandan-v1.jsonl")
    assert loaded.games == 2 and loaded.boards == 1 and loaded.seed == 5
    again = arena.run("L1", "L1", matches=2, hand_cap=3, seed=5)
    for team in (0, 1):
        a, b = loaded.team(team), again.team(team)
        assert (a.match_wins, a.hand_wins, a.mean_place, a.levels, a.decisions) == \
            (b.match_wins, b.hand_wins, b.mean_place, b.levels, b.decisions)
