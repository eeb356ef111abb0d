"""bench/guandan_ab_vs.py in whole matches (issue 35): the levels a hand it reports are the
levels over the board's hands (a match's levels grow with its length), and playing in rounds
(``--chunk``) gives the same paired numbers as one run, so a stopped run's rounds hold."""

from __future__ import annotations

import sys

import numpy as np

from paths import REPO
from tienlen.arena import simulate

sys.path.insert(0, str(REPO / "bench"))
import guandan_ab_vs  # noqa: E402


def test_levels_a_hand_are_each_boards_levels_over_its_hands() -> None:
    result = simulate("guandan", ["L2", "style:hoarder"], 6, mode="match", seed=3)
    rows = result.games_table()        # board, seating, hands, wins, hand wins, places, levels
    for team in (0, 1):
        got = guandan_ab_vs.per_board(result, "levels_a_hand", team)
        want = [sum(r[6][team] for r in rows if r[0] == board)
                / sum(r[2] for r in rows if r[0] == board) for board in range(3)]
        assert np.allclose(got, want)
        # a match's levels are not a hand's: matches last more than one hand
        assert not np.allclose(got, guandan_ab_vs.per_board(result, "levels", team))


def test_rounds_give_the_same_comparison_as_one_run(capsys) -> None:
    args = ["--a", "L2", "--b", "L2:exchange=base", "--opponent", "style:hoarder",
            "--matches", "6", "--seed", "5"]

    def paired(extra: list[str]) -> list[str]:
        guandan_ab_vs.main(args + extra)
        out = capsys.readouterr().out.splitlines()
        return [line for line in out if line.startswith("L2 - L2:exchange=base")][-5:]

    whole, rounds = paired([]), paired(["--chunk", "1"])
    assert len(whole) == 5 and "levels_a_hand" in whole[-1] and "over 3 boards" in whole[-1]
    assert rounds == whole
