"""Scoring actions over sampled deals on native threads (issue 35): the core's
:class:`~tienlen._guandan.DealScoring` / :func:`~tienlen._guandan.values_after` against the
per-deal calls it batches (:func:`~tienlen._guandan.solve_after` and
:meth:`~tienlen._guandan.GdState.playouts_after`, scored by the hand's value), and L3's
:func:`~tienlen.games.guandan.bots.sample_scores`, which samples in Python while the
previous batch is scored, against the same sampling scored one deal at a time."""

from __future__ import annotations

import gc
import random

import numpy as np
import pytest

from tienlen import _guandan as core
from tienlen.games.guandan.bots import (_Knowledge, _action_of, _hand_score, make_bot,
                                        plan_decision, sample_scores)
from tienlen.guandan import Game


def _decisions(seeds: range, every: int = 1):
    """(view, actions) at L2's turns of whole first hands: the candidates L3 would weigh."""
    bots = [make_bot("L2", seed=s) for s in range(4)]
    l3 = make_bot("L3", seed=1, iterations=1)
    out = []
    for g in seeds:
        game = Game(seed=g)
        turn = 0
        while not game.is_over:
            seat = game.turn
            view = game.view(seat)
            base = plan_decision(view)
            if turn % every == 0 and not l3._plan_stands(view, base):
                cands = l3._candidates(view, base)
                if len(cands) > 1:
                    out.append((view, [_action_of(c) for c in cands]))
            turn += 1
            kind, cards = bots[seat].decide(view)
            game.act(kind, cards, seat)
    return out


def _one_deal_at_a_time(view, actions, rng, iterations, solve):
    """The search's values as the composition of its parts: deal k of the decision's seed
    (DealSampler.deal: the hands and the playout seed), then solved (within 2000 nodes an
    action) or played out, one deal at a time, by solve_after and playouts_after."""
    known = _Knowledge(view, infer=True)
    seed = rng.getrandbits(64)
    team = (view.seat, view.partner)
    gains = (view.config.double_down_levels, 2, 1)
    columns = []
    for k in range(iterations):
        hands, playout_seed = known.sampler.deal(seed, k)
        state = core.GdState.from_fields(hands, *known._state_args)
        scores = [None] * len(actions)
        if solve:
            scores = core.solve_after(state, actions, seat=view.seat,
                                      double_down=gains[0], max_nodes=2000)[0]
        if None in scores:
            orders = state.playouts_after(actions, playout_seed)
            scores = [_hand_score(orders[i], team, gains) if v is None else v
                      for i, v in enumerate(scores)]
        columns.append(scores)
    return np.array(columns, dtype=np.float64).T


def test_sample_scores_is_the_one_deal_at_a_time_scoring_on_any_threads():
    # Every column is deal k of the decision's seed, scored as one deal alone would be:
    # threads and chunks change nothing with a deal budget.
    decisions = _decisions(range(3), every=3)
    endgames = 0
    for k, (view, actions) in enumerate(decisions):
        solve = sum(view.hand_sizes) <= 14
        endgames += solve
        want = _one_deal_at_a_time(view, actions, random.Random(k), 12, solve)
        for threads in (1, 2, 3):
            got = sample_scores(view, actions, random.Random(k), iterations=12, solve=solve,
                                threads=threads)
            assert got.shape == want.shape == (len(actions), 12)
            assert (got == want).all(), (k, threads)
    assert len(decisions) > 40 and endgames >= 3


def test_sample_scores_draws_a_long_budget_in_several_calls_of_the_same_deals(monkeypatch):
    from tienlen.games.guandan import bots

    view, actions = _decisions(range(1))[5]
    whole = sample_scores(view, actions, random.Random(3), iterations=50, solve=False)
    monkeypatch.setattr(bots, "DEALS_PER_CALL", 7)          # 8 calls: 7, 7, ..., 1
    assert (sample_scores(view, actions, random.Random(3), iterations=50, solve=False)
            == whole).all()


def test_sample_values_stops_at_its_time_after_the_first_deal():
    view, actions = _decisions(range(1))[0]
    known = _Knowledge(view, infer=True)
    base = known.template()
    values, _ = core.sample_values(known.sampler, base, actions, 1, 10 ** 5, view.seat,
                                   seconds=0, threads=2)
    assert 1 <= values.shape[1] <= 4                          # the first, and what was underway
    values, _ = core.sample_values(known.sampler, base, actions, 1, 10 ** 5, view.seat,
                                   seconds=0.02, threads=2)
    assert 1 <= values.shape[1] < 10 ** 5
    full, _ = core.sample_values(known.sampler, base, actions, 1, values.shape[1], view.seat,
                                 threads=1)
    assert (full == values).all()                             # the first deals, whatever the time


def test_values_after_is_solve_after_then_playouts_after_per_deal():
    rng = random.Random(5)
    for view, actions in _decisions(range(3, 5), every=4):
        known = _Knowledge(view)
        states = [known.sample_state(rng) for _ in range(7)]
        seeds = [rng.getrandbits(64) for _ in states]
        team = (view.seat, view.partner)
        for nodes in (0, 50):
            values, solved = core.values_after(states, actions, seeds, view.seat,
                                               solve_nodes=nodes, threads=2)
            assert values.dtype == np.int8 and values.shape == (len(actions), len(states))
            proved = 0
            for d, (state, seed) in enumerate(zip(states, seeds)):
                exact = core.solve_after(state, actions, seat=view.seat, max_nodes=nodes)[0] \
                    if nodes else [None] * len(actions)
                orders = state.playouts_after(actions, seed)
                for i, v in enumerate(exact):
                    proved += v is not None
                    want = v if v is not None else _hand_score(orders[i], team, (3, 2, 1))
                    assert values[i, d] == want
            assert solved == proved
            if nodes == 0:
                assert solved == 0


def test_deal_scoring_runs_in_the_background_and_reports_its_time():
    view, actions = _decisions(range(1))[0]
    known = _Knowledge(view)
    rng = random.Random(2)
    states = [known.sample_state(rng) for _ in range(40)]
    job = core.DealScoring(states, actions, range(40), view.seat, threads=2)
    values, solved = job.result()
    assert job.done() and job.seconds is not None and job.seconds > 0
    assert (values == core.values_after(states, actions, range(40), view.seat)[0]).all()
    assert set(np.unique(values).tolist()) <= {-3, -2, -1, 1, 2, 3} and solved == 0
    # A batch dropped unread waits for its threads before its buffers go.
    for _ in range(20):
        core.DealScoring(states, actions, range(40), view.seat, threads=3)
        gc.collect()
    here = core.DealScoring(states, actions, range(40), view.seat, threads=0)
    assert here.done() and (here.result()[0] == values).all()     # scored before it returned
    with pytest.raises(ValueError, match="started"):
        here.__init__(states, actions, range(40), view.seat)
    empty = core.DealScoring([], actions, [], view.seat)
    assert empty.done() and empty.result()[0].shape == (len(actions), 0)


def test_deal_scoring_refuses_bad_input_and_starts_nothing():
    view, actions = _decisions(range(1))[0]
    state = _Knowledge(view).sample_state(random.Random(1))
    over = core.GdState.from_fields([(0, 0), (1, 0), (0, 0), (0, 0)], level=2, turn=-1,
                                    finished=(0, 2, 3))
    cases = [
        (([state], actions, [1, 2], view.seat), "one seed a deal"),
        (([state, "deal"], actions, [1, 2], view.seat), "must be a GdState"),
        (([state], [(1, 2)], [1], view.seat), "must be \\(once, twice, code\\)"),
        (([state], [(1 << 60, 0, 0x1042)], [1], view.seat), "actions\\[0\\]"),
        (([state], [(0, 0, 0)] if view.pile is None else [(1 << 53, 0, 0x1042)], [1],
          view.seat), "not legal"),
        (([state], actions, [-1], view.seat), "seed"),
        (([state], actions, [1], 4), "seat"),
        (([state], 5, [1], view.seat), "sequences"),
    ]
    for args, match in cases:
        with pytest.raises(ValueError, match=match):
            core.DealScoring(*args)
    with pytest.raises(ValueError, match="threads"):
        core.values_after([state], actions, [1], view.seat, threads=-1)
    with pytest.raises(ValueError, match="threads"):
        core.values_after([state], actions, [1], view.seat, threads=17)
    with pytest.raises(ValueError, match="solve_nodes"):
        core.values_after([state], actions, [1], view.seat, solve_nodes=-1)
    with pytest.raises(ValueError, match="policy"):
        core.values_after([state], actions, [1], view.seat, policy=7)
    with pytest.raises(ValueError, match="hand is over"):
        core.values_after([over], [(0, 0, 0)], [1], 0)


def test_deal_scoring_refuses_deals_with_different_seats_to_act():
    view, actions = _decisions(range(1))[0]
    state = _Knowledge(view).sample_state(random.Random(1))
    other = core.GdState(core.deal(3), level=2, leader=(view.seat + 1) % 4)
    with pytest.raises(ValueError, match="to act"):
        core.values_after([state, other], actions, [1, 2], view.seat)
