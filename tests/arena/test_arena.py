"""The arena: duplicate seating, reproducibility across jobs/executors, and the statistics."""

from __future__ import annotations

import functools
import math
import multiprocessing
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

from tienlen import core
from tienlen.arena import ArenaError, ArenaInterrupted, ArenaResult, simulate
from tienlen.games.tienlen.bots import GreedyBot, RandomBot, make_bot
from tienlen.games.tienlen.game import PASS
from tienlen.games.tienlen.match import hand_seed
from tienlen.games.tienlen.rules import Rules


def run(lineup, games, *, players=4, **options):  # type: ignore[no-untyped-def]
    """Tiến Lên's arena (tienlen.arena.simulate), four players unless told."""
    return simulate("tienlen", lineup, games, players=players, **options)


class _Recorder(GreedyBot):
    """L1 that records, at every decision, its seat and the hand it was dealt."""

    seen: set[tuple[int, int]] = set()

    def choose(self, view):
        played = 0
        for action in view.history:
            if action.seat == view.seat and action.cards is not None:
                played |= action.cards.mask
        _Recorder.seen.add((view.seat, view.hand.mask | played))
        return super().choose(view)


class _Cheater(RandomBot):
    def choose(self, view):
        return PASS      # illegal whenever it leads


def test_run_reports_every_entry_with_games_and_timings():
    result = run(["L1", "random", "L1", "random"], games=40, seed=2)
    assert result.names == ("L1", "random", "L1 #2", "random #2")
    assert result.games == 40 and result.deals == 10 and result.places.shape == (10, 4, 4)
    for stats in result.stats():
        assert stats.games == 40 and stats.decisions > 0 and stats.ms_per_decision >= 0
        assert 1.0 <= stats.mean_place.value <= 4.0
        assert stats.mean_place.low <= stats.mean_place.value <= stats.mean_place.high
    # Every game has each place exactly once.
    assert (np.sort(result.places, axis=2) == np.arange(1, 5)).all()
    assert "| L1 #2 | 40 |" in result.table()


def test_every_entry_sits_in_every_seat_on_the_same_deals():
    # Identical deterministic bots: a seat's place depends only on the deal, so rotating
    # the entries must rotate the places: places[d, r, e] == places[d, 0, (e + r) % n].
    result = run(["L1"] * 4, games=24, seed=5)
    for r in range(4):
        for e in range(4):
            assert (result.places[:, r, e] == result.places[:, 0, (e + r) % 4]).all()


def test_deals_come_from_the_seed_and_repeat_for_every_rotation():
    _Recorder.seen = set()
    run([_Recorder, _Recorder, _Recorder], games=6, players=3, seed=9)
    dealt = {(seat, hand) for d in range(2)
             for seat, hand in enumerate(core.deal(hand_seed(9, d + 1), 3))}
    assert _Recorder.seen == dealt


def test_results_are_reproducible_whatever_runs_them():
    lineup = ["L2", functools.partial(make_bot, "L3", iterations=3), "random", "L1"]
    one = run(lineup, games=16, seed=11)
    assert (run(lineup, games=16, seed=11).places == one.places).all()
    assert (run(lineup, games=16, seed=11, jobs=2).places == one.places).all()
    with ThreadPoolExecutor(3) as pool:
        assert (run(lineup, games=16, seed=11, executor=pool).places == one.places).all()
    assert not (run(lineup, games=16, seed=12).places == one.places).all()


def test_a_stronger_bot_wins_more_and_the_comparison_says_so():
    result = run(["L1", "random"], games=200, players=2, seed=1)
    l1, rnd = result.bot("L1"), result.bot("random")
    assert l1.first_rate.value > 0.75 and rnd.loser_rate.value > 0.75
    cmp = result.compare("L1", "random")
    assert cmp.diff.value < 0 and cmp.diff.high < 0 and cmp.p_value < 1e-6 and cmp.deals == 100
    # Swapping the order flips the sign, not the p-value.
    back = result.compare(1, 0)
    assert back.diff.value == -cmp.diff.value and back.p_value == cmp.p_value


def _synthetic(places: list[list[list[int]]], players: int) -> ArenaResult:
    arr = np.array(places, np.int8)
    n = arr.shape[2]
    return ArenaResult(tuple(f"b{i}" for i in range(n)), players, 0, arr,
                       np.full(n, 0.5), np.full(n, 100, np.int64))


def test_statistics_match_a_hand_computation():
    # 2 players, 1 rotation pair per deal; b0's per-deal mean places: 1, 1.5, 1, 2.
    places = [
        [[1, 2], [1, 2]],
        [[1, 2], [2, 1]],
        [[1, 2], [1, 2]],
        [[2, 1], [2, 1]],
    ]
    result = _synthetic(places, 2)
    stats = result.bot("b0")
    per_deal = np.array([1.0, 1.5, 1.0, 2.0])
    half = 1.959963984540054 * per_deal.std(ddof=1) / 2
    assert stats.mean_place.value == pytest.approx(1.375)
    # The interval is clipped to the places that exist (1..players).
    assert stats.mean_place.low == pytest.approx(max(1.0, 1.375 - half)) == 1.0
    assert stats.mean_place.high == pytest.approx(1.375 + half)
    assert 0.0 <= stats.first_rate.low <= stats.first_rate.high <= 1.0
    assert stats.first_rate.value == pytest.approx(0.625)
    assert stats.loser_rate.value == pytest.approx(0.375)
    assert stats.ms_per_decision == pytest.approx(5.0)
    cmp = result.compare("b0", "b1")
    diff = per_deal - (3 - per_deal)
    z = diff.mean() / (diff.std(ddof=1) / 2)
    assert cmp.z == pytest.approx(z)
    assert cmp.p_value == pytest.approx(math.erfc(abs(z) / math.sqrt(2)))


def test_statistics_edge_cases():
    same = _synthetic([[[1, 2], [1, 2]], [[1, 2], [1, 2]]], 2)
    cmp = same.compare(0, 1)
    assert cmp.p_value == 0.0 and cmp.z == -math.inf        # no variance, clear difference
    tie = _synthetic([[[1, 2], [2, 1]], [[2, 1], [1, 2]]], 2)
    assert tie.compare(0, 1).p_value == 1.0
    one = _synthetic([[[1, 2], [2, 1]]], 2)
    assert math.isnan(one.bot(0).mean_place.low) and math.isnan(one.compare(0, 1).p_value)


def test_bad_requests_raise_arena_errors():
    with pytest.raises(ArenaError, match="one bot per seat"):
        run(["L1", "L2"], games=8)
    with pytest.raises(ArenaError, match="multiple of players"):
        run(["L1"] * 4, games=10)
    with pytest.raises(ArenaError, match="jobs"):
        run(["L1"] * 4, games=8, jobs=0)
    with pytest.raises(ValueError, match="unknown bot level"):
        run(["L1", "L1", "L1", "L7"], games=8)
    with pytest.raises(ArenaError, match="level name or a bot factory"):
        run(["L1", "L1", "L1", 3], games=8)
    result = run(["L1"] * 2, games=2, players=2)
    with pytest.raises(ArenaError, match="no entry named"):
        result.bot("L9")


def test_an_illegal_move_stops_the_run_naming_the_bot():
    with pytest.raises(ArenaError, match="random.*illegal move PASS"):
        run([_Cheater, _Cheater], games=2, players=2)


def test_progress_and_rules_are_passed_through():
    calls = []
    result = run(["L1", "L2", "L1"], games=6, players=3, seed=4,
                 rules=Rules(twos_in_sequences=False), progress=lambda d, t: calls.append((d, t)))
    assert calls[-1] == (6, 6) and result.players == 3


def test_a_comparison_reads_as_one_line():
    result = _synthetic([[[1, 2], [1, 2]], [[1, 2], [2, 1]], [[2, 1], [1, 2]]], 2)
    text = str(result.compare("b0", "b1"))
    assert text.startswith("b0 vs b1: mean place difference -0.333 [") and "over 3 deals" in text
    assert text.endswith("z = -1.00, p = 0.32")
    assert "p < 1e-300" in str(_synthetic([[[1, 2], [1, 2]]] * 3, 2).compare(0, 1))


def test_a_comparison_can_pool_several_entries_per_side():
    # 2 players: each deal's places are (b0, b1, b2) over two rotations.
    result = _synthetic([[[1, 2, 3], [2, 1, 3]], [[1, 3, 2], [1, 2, 3]], [[2, 1, 3], [1, 3, 2]]], 3)
    pooled = result.compare(["b0", "b1"], "b2")
    per_deal = result.places.astype(float).mean(axis=1)
    diff = per_deal[:, :2].mean(axis=1) - per_deal[:, 2]
    assert pooled.a == "b0 + b1" and pooled.b == "b2"
    assert pooled.diff.value == pytest.approx(diff.mean())
    with pytest.raises(ArenaError, match="share an entry"):
        result.compare(["b0", "b1"], ["b1"])
    with pytest.raises(ArenaError, match="at least one entry"):
        result.compare([], "b2")


class _Slow(GreedyBot):
    """L1 that takes 30 ms over its first decision of each game: a stand-in for a slow bot."""

    def choose(self, view):
        if not getattr(self, "_waited", False):
            self._waited = True
            time.sleep(0.03)
        return super().choose(view)


class _InterruptAfter(GreedyBot):
    """L1 that presses Ctrl-C at its decision number ``_InterruptAfter.at`` (counted over
    the whole run, in this process)."""

    at = 0
    count = 0

    def choose(self, view):
        _InterruptAfter.count += 1
        if _InterruptAfter.count == _InterruptAfter.at:
            raise KeyboardInterrupt
        return super().choose(view)


def test_results_follow_the_documented_seed_scheme():
    # Deal d is hand_seed(seed, d + 1); the bot of entry e in rotation r is seeded with
    # splitmix64 steps over (seed, d, r, e) and sits in seat (e + r) % players. Replayed
    # here by hand, so the parallel runners cannot drift from it unnoticed.
    mask = (1 << 64) - 1

    def mix(*values):
        z = 0
        for v in values:
            z = (z + (v & mask) + 0x9E3779B97F4A7C15) & mask
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
            z ^= z >> 31
        return z

    lineup, players, seed = ["L2", "L1", "random"], 3, 21
    expected = np.zeros((3, players, players), np.int8)
    from tienlen.games.tienlen.game import Game

    for d in range(3):
        for r in range(players):
            bots = {(e + r) % players: make_bot(lineup[e], seed=mix(seed, d, r, e))
                    for e in range(players)}
            game = Game(players, seed=hand_seed(seed, d + 1))
            while not game.is_over:
                game.act(bots[game.turn].choose(game.view(game.turn)))
            for place, seat in enumerate(game.finished, start=1):
                expected[d, r, (seat - r) % players] = place
    for jobs in (1, 2):
        assert (run(lineup, 9, players=3, seed=seed, jobs=jobs).places == expected).all()
    with ThreadPoolExecutor(2) as pool:
        assert (run(lineup, 9, players=3, seed=seed, executor=pool).places == expected).all()


def test_progress_is_reported_per_game_not_per_deal():
    calls = []
    run([_Slow, _Slow], games=6, players=2, seed=3, progress=lambda d, t: calls.append(d))
    # Each game takes over 50 ms, so each is reported before the next deal ends.
    assert calls[-1] == 6 and 1 in calls and 3 in calls and 5 in calls
    assert calls == sorted(calls)


def test_ctrl_c_in_a_serial_run_keeps_the_completed_deals():
    full = run(["L1", "L1"], games=20, players=2, seed=6)
    decisions = int(full.decisions.sum())
    _InterruptAfter.count, _InterruptAfter.at = 0, decisions // 2
    with pytest.raises(ArenaInterrupted) as caught:
        run([_InterruptAfter, _InterruptAfter], games=20, players=2, seed=6)
    partial = caught.value.result
    assert isinstance(caught.value, KeyboardInterrupt) and caught.value.games == 20
    assert 0 < partial.deals < full.deals
    # The completed deals are the first ones, played exactly as in the full run.
    assert (partial.places == full.places[:partial.deals]).all()
    _InterruptAfter.count, _InterruptAfter.at = 0, 1
    with pytest.raises(ArenaInterrupted) as caught:
        run([_InterruptAfter, _InterruptAfter], games=20, players=2, seed=6)
    assert caught.value.result is None


def test_ctrl_c_stops_the_worker_pool_within_a_decision():
    # Ctrl-C reaches the parent while it waits (here: raised from the progress callback);
    # the workers finish the decision in hand, return their completed deals and exit.
    full = run([_Slow, _Slow], games=40, players=2, seed=2)
    calls = []

    def interrupt(done, total):
        calls.append(done)
        if done >= 4:
            raise KeyboardInterrupt

    started = time.monotonic()
    with pytest.raises(ArenaInterrupted) as caught:
        run([_Slow, _Slow], games=40, players=2, seed=2, jobs=2, progress=interrupt)
    assert time.monotonic() - started < 5.0
    partial = caught.value.result
    assert partial is not None and 2 <= partial.deals < 20
    rows = {full.places[d].tobytes() for d in range(full.deals)}
    assert all(partial.places[d].tobytes() in rows for d in range(partial.deals))
    assert not multiprocessing.active_children()


def test_absurd_sizes_are_refused_up_front():
    # Issue 10 #9: a trillion games was a MemoryError; a million jobs would fork a million.
    with pytest.raises(ArenaError, match="at most 10,000,000"):
        run(["L1"] * 4, games=10**12)
    with pytest.raises(ArenaError, match="at most 256"):
        run(["L1"] * 4, games=8, jobs=10**6)
