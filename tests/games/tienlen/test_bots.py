"""The bots: protocol, determinism, each level's documented behaviour, L3's budget and GIL."""

from __future__ import annotations

import collections
import itertools
import threading
import time
import types

import pytest

from tienlen import core
from tienlen.games.tienlen.bots import (
    LEVELS,
    PASS,
    Bot,
    BotError,
    GreedyBot,
    HeuristicBot,
    RandomBot,
    SearchBot,
    make_bot,
)
from tienlen.games.tienlen.bots import search as search_module
from tienlen.games.tienlen.bots.split import move_damage, split_count, split_hand, split_masks

import reference_split
from tienlen.games.tienlen.cards import Cards
from tienlen.games.tienlen.game import Game
from tienlen.games.tienlen.rules import Rules

from reference_playout import Playout, plan_of


def _play_out(game: Game, bots: list[Bot]) -> list:
    moves = []
    while not game.is_over:
        move = bots[game.turn].choose(game.view(game.turn))
        moves.append(move)
        game.act(move)
    return moves


def _after(hands: list[str], *moves: str, leader: int | None = None) -> Game:
    """A game from ``hands`` after ``moves`` ("pass" passes)."""
    game = Game.from_hands(hands, leader=leader)
    for move in moves:
        game.act(PASS if move == "pass" else Cards.parse(move))
    return game


# ------------------------------------------------------------------ protocol, factory


def test_make_bot_builds_every_level_with_its_class_and_seed():
    classes = [RandomBot, GreedyBot, HeuristicBot, SearchBot]
    for level, cls in zip(LEVELS, classes):
        bot = make_bot(level, seed=9)
        assert type(bot) is cls and bot.seed == 9 and bot.level == level
        assert make_bot(level.lower(), seed=1).level == level


def test_make_bot_rejects_unknown_levels_and_bad_seeds_with_value_errors():
    with pytest.raises(BotError, match="unknown bot level 'L4'"):
        make_bot("L4")
    with pytest.raises(ValueError, match="seed must be an int"):
        make_bot("L1", seed=-1)
    with pytest.raises(ValueError, match="seed must be an int"):
        RandomBot(seed=1 << 64)


def test_seed_none_draws_a_seed_that_is_kept():
    bot = RandomBot()
    assert 0 <= bot.seed < 1 << 64
    assert RandomBot(seed=bot.seed).seed == bot.seed


@pytest.mark.parametrize("level", LEVELS)
def test_a_bot_refuses_a_view_when_it_is_not_its_turn(level):
    game = Game.from_hands(["3s 4s", "5s 9h"])
    with pytest.raises(BotError, match="seat 1.*seat 0"):
        make_bot(level, seed=0, **({"iterations": 5} if level == "L3" else {})).choose(game.view(1))


@pytest.mark.parametrize("level", LEVELS)
def test_same_seed_same_game(level):
    options = {"iterations": 10} if level == "L3" else {}
    runs = []
    for _ in range(2):
        bots = [make_bot(level, seed=100 + seat, **options) for seat in range(4)]
        runs.append(_play_out(Game(4, seed=77), bots))
    assert runs[0] == runs[1]


@pytest.mark.parametrize("level", LEVELS)
def test_a_bot_decides_from_its_view_only(level):
    # Seat 0's view is identical in both games; the hidden hands differ. The choice must not.
    mine = "3s 4c 5d 8h 8s Jd Qd Kd 2c"
    others = Cards(core.FULL_DECK) - Cards.parse(mine)
    rest = list(others)
    a = [mine, Cards(rest[0:9]), Cards(rest[9:18]), Cards(rest[18:27])]
    b = [mine, Cards(rest[18:27]), Cards(rest[0:9]), Cards(rest[9:18])]
    options = {"iterations": 20} if level == "L3" else {}
    views = [Game.from_hands(hands).view(0) for hands in (a, b)]
    assert views[0] == views[1]
    choices = [make_bot(level, seed=5, **options).choose(view) for view in views]
    assert choices[0] == choices[1]


# ------------------------------------------------------------------------- RandomBot


def test_random_bot_is_uniform_over_moves_and_pass():
    game = _after(["3s 9d 10h", "4s 5s 6s"], "3s")      # seat 1 may play 4♠, 5♠, 6♠ or pass
    view = game.view(1)
    bot = RandomBot(seed=12)
    counts = collections.Counter(bot.choose(view) for _ in range(4000))
    assert set(counts) == {*view.legal_moves(), PASS}
    # Each of the 4 options has p = 1/4; 4000 draws put each within ±100 except with
    # probability far below 1e-6.
    assert all(abs(n - 1000) < 100 for n in counts.values()), counts


def test_random_bot_never_passes_on_a_lead():
    view = Game.from_hands(["3s 9d 10h", "4s 5s 6s"], leader=0).view(0)
    bot = RandomBot(seed=3)
    assert all(bot.choose(view) is not PASS for _ in range(200))


# ------------------------------------------------------------------------- GreedyBot


def test_greedy_leads_the_longest_combo_holding_its_lowest_card():
    view = Game.from_hands(["4s 5c 6d 4h 9h Jd", "3s 2h"], leader=0).view(0)
    assert GreedyBot(seed=0).choose(view) == Cards.parse("4s 5c 6d")


def test_greedy_lead_ties_go_to_the_lowest_top_card():
    view = Game.from_hands(["4s 4h 4d 9h 9c 9d", "3s 2h"], leader=0).view(0)
    # The triple of 4s and two lower triples tie on length; the lowest top wins.
    assert GreedyBot(seed=0).choose(view) == Cards.parse("4s 4d 4h")


def test_greedy_does_not_lead_a_bomb():
    view = Game.from_hands(["3s 3c 4d 4h 5s 5c 9h", "6s 2h"], leader=0).view(0)
    assert GreedyBot(seed=0).choose(view) == Cards.parse("3s 4d 5s")


def test_greedy_follows_with_the_lowest_beating_play():
    game = _after(["3s 8d Kh", "5s 7c 9d Qh"], "3s")
    assert GreedyBot(seed=0).choose(game.view(1)) == Cards.parse("5s")


def test_greedy_passes_without_a_beating_play():
    game = _after(["3s 3c 2h", "4s 5s 6s 7s"], "3s 3c")       # no pair to answer with
    assert GreedyBot(seed=0).choose(game.view(1)) is PASS


def test_greedy_bombs_only_a_pile_of_twos():
    two = _after(["3s 2s", "6c 6d 6h 6s 9h"], "2s", leader=0)
    assert GreedyBot(seed=0).choose(two.view(1)) == Cards.parse("6s 6c 6d 6h")
    quad = _after(["5s 5c 5d 5h 3s", "9c 9d 9h 9s 10h"], "5s 5c 5d 5h", leader=0)
    assert GreedyBot(seed=0).choose(quad.view(1)) is PASS


def test_greedy_goes_out_when_it_can():
    follow = _after(["3s 7d", "8s"], "7d", leader=0)
    assert GreedyBot(seed=0).choose(follow.view(1)) == Cards.parse("8s")
    # Going out beats the no-bomb-on-lead rule.
    lead = Game.from_hands(["9s 9c 9d 9h", "3s"], leader=0).view(0)
    assert GreedyBot(seed=0).choose(lead) == Cards.parse("9s 9c 9d 9h")


# ---------------------------------------------------------------------- hand split


def test_split_finds_the_fewest_groups():
    assert split_count(Cards.parse("3s 4c 5d 6h 7s 8c 9d 10h Js Qc Kd Ah 2s").mask) == 1
    assert split_count(Cards.parse("3s 3c 4d 4h 5s 5c").mask) == 1
    assert split_count(Cards.parse("3s 3c 4d 5h").mask) == 2          # 3-4-5 and 3
    assert split_count(Cards.parse("3s 5c 7d 9h").mask) == 4
    assert split_count(0) == 0


def test_split_respects_the_no_twos_variant():
    hand = Cards.parse("Qs Kc Ad 2h")
    assert split_count(hand.mask) == 1
    assert split_count(hand.mask, Rules(twos_in_sequences=False).flags) == 2


def test_split_groups_cover_the_hand_exactly_with_combinations():
    for seed in range(50):
        hand = core.deal(seed)[0]
        masks = split_masks(hand)
        union = 0
        for mask in masks:
            assert core.classify(mask) != 0
            assert union & mask == 0
            union |= mask
        assert union == hand and len(masks) == split_count(hand)
        # (list.sort() returns None: compare sorted copies) The tests' own split search
        # (tests/reference_split.py) must find the same groups as the core's.
        assert sorted(g.cards.mask for g in split_hand(Cards(hand)).groups) == sorted(masks)
        assert sorted(reference_split.split_masks(hand)) == sorted(masks)


def test_move_damage_is_zero_for_a_group_and_positive_for_a_broken_one():
    hand = Cards.parse("3s 4c 5d 9s 9c Kd").mask
    assert move_damage(hand, Cards.parse("3s 4c 5d").mask) == 0
    assert move_damage(hand, Cards.parse("9s 9c").mask) == 0
    assert move_damage(hand, Cards.parse("9s").mask) > 0
    for seed in range(20):
        h = core.deal(seed)[1]
        assert all(move_damage(h, int(m)) >= 0 for m in core.legal_moves(h))


# ---------------------------------------------------------------------- HeuristicBot


def test_heuristic_leads_its_weakest_intact_group():
    view = Game.from_hands(["4s 5c 6d 9h 9c Kd 2s", "3s Jh Qh Ah"], leader=0).view(0)
    assert HeuristicBot(seed=0).choose(view) == Cards.parse("4s 5c 6d")


def test_heuristic_follows_without_breaking_its_split():
    # On a single 6, 8♦ is a lone single; 7♠ would break the 7-7 pair.
    game = _after(["3s 6h Qs Kd 4c 9h", "7s 7c 8d 10s 10c Jh Jd"], "3s", "pass", "6h", leader=0)
    assert HeuristicBot(seed=0).choose(game.view(1)) == Cards.parse("8d")


def test_heuristic_passes_rather_than_break_a_pair():
    game = _after(["3s 9h 9c Js Qd", "4s 5c 6d Kh Kd Ac Ad"], "9h", leader=0)
    # Only a K or an A beats 9♥, and each would break a pair: L2 keeps its pairs.
    assert HeuristicBot(seed=0).choose(game.view(1)) is PASS


def test_heuristic_holds_back_a_2_early():
    game = _after(["3s 7h 8h Ac Kd Qd 10s 9s", "4s 5c 6d Jh Jd 2c 9c 10c"], "Ac", leader=0)
    assert HeuristicBot(seed=0).choose(game.view(1)) is PASS


def test_heuristic_plays_high_when_an_opponent_is_about_to_go_out():
    game = _after(["4h 9d", "5s 6c 7d 8h Jh Kd Jc", "10s 10c 10d"], "4h", leader=0)
    # Seat 0 holds a single card: stop it with the highest single, not the lowest.
    assert HeuristicBot(seed=0).choose(game.view(1)) == Cards.parse("Kd")


def test_heuristic_leads_a_sure_winner_then_goes_out():
    # No unseen cards can beat a run topped by 2♥, so lead it; the 4-5-6 run goes out next.
    view = Game.from_hands(["4s 5c 6d Qs Kd Ah 2h", "3s 9h 9c Jd Qd Kc"], leader=0).view(0)
    decision = HeuristicBot(seed=0).decide(view)
    assert decision.move == Cards.parse("Qs Kd Ah 2h") and decision.rule == "finish"


def test_heuristic_bombs_a_pile_of_twos():
    game = _after(["2s 3h 4h 5h", "7s 7c 7d 7h 9s Jd Kd"], "2s", leader=0)
    assert HeuristicBot(seed=0).choose(game.view(1)) == Cards.parse("7s 7c 7d 7h")


# ----------------------------------------------------------------------- SearchBot


def test_search_bot_options_are_validated():
    with pytest.raises(BotError, match="not both"):
        SearchBot(seed=0, iterations=5, time_ms=10)
    with pytest.raises(BotError, match="iterations must be a positive int"):
        SearchBot(seed=0, iterations=0)
    with pytest.raises(BotError, match="time_ms must be a positive number"):
        SearchBot(seed=0, time_ms=-1)
    with pytest.raises(BotError, match="playout must be one of"):
        SearchBot(seed=0, playout="smart")
    assert SearchBot(seed=0).time_ms == 50.0 and SearchBot(seed=0).name == "L3"
    assert SearchBot(seed=0, time_ms=20).name == "L3(time_ms=20)"
    assert SearchBot(seed=0, iterations=9, playout="greedy").name == "L3(iterations=9, playout=greedy)"


@pytest.mark.parametrize("playout", ["plan", "greedy"])
def test_search_bot_skips_the_search_when_the_answer_is_forced(monkeypatch, playout):
    calls = []
    real = SearchBot._estimate
    monkeypatch.setattr(SearchBot, "_estimate",
                        lambda self, *a: calls.append(a) or real(self, *a))
    bot = SearchBot(seed=0, iterations=10, playout=playout)
    only = _after(["3s 2h", "4s 9d"], "2h", leader=0)       # seat 1 can only pass
    assert bot.choose(only.view(1)) is PASS
    out = Game.from_hands(["3s 4s 5s", "6s 9h"], leader=0)    # seat 0 goes out at once
    assert bot.choose(out.view(0)) == Cards.parse("3s 4s 5s")
    assert calls == []
    bot.choose(Game.from_hands(["3s 4s 5s 9h", "6s 10h"], leader=0).view(0))
    assert len(calls) == 1


@pytest.mark.parametrize("playout", ["plan", "greedy", "random"])
def test_search_estimate_lists_every_action_with_places_in_range(playout):
    game = _after(["3s 8d Kh 2c", "5s 7c 9d Qh", "4s 6c 10d Jd"], "3s")
    estimate = SearchBot(seed=1, iterations=30, playout=playout).evaluate(game.view(1))
    assert list(estimate.moves) == [*game.view(1).legal_moves(), PASS]
    assert estimate.samples == 30
    assert all(1.0 <= p <= 3.0 for p in estimate.mean_places)
    assert estimate.place_of(estimate.best) == min(estimate.mean_places)
    with pytest.raises(ValueError):
        estimate.place_of(Cards.parse("2h"))


@pytest.mark.parametrize("playout", ["plan", "greedy"])
def test_search_prefers_the_move_that_wins(playout):
    # Seat 1 holds one card. 2♥ takes the pile (one card cannot bomb) and 4♠ goes out;
    # passing lets seat 1 lead its last card and finish first.
    game = _after(["2h 4s", "As 9d"], "As", leader=1)
    bot = SearchBot(seed=0, iterations=50, playout=playout)
    estimate = bot.evaluate(game.view(0))
    assert estimate.place_of(Cards.parse("2h")) == 1.0 and estimate.place_of(PASS) == 2.0
    assert bot.choose(game.view(0)) == Cards.parse("2h")


@pytest.mark.parametrize("playout", ["plan", "greedy"])
def test_search_iterations_mode_is_reproducible(playout):
    view = Game.from_hands(core.deal(21), leader=0).view(0)
    a = SearchBot(seed=4, iterations=30, playout=playout).evaluate(view)
    assert a == SearchBot(seed=4, iterations=30, playout=playout).evaluate(view)
    assert a != SearchBot(seed=5, iterations=30, playout=playout).evaluate(view)


def test_time_budget_rounds_fill_the_budget_without_overshooting(monkeypatch):
    # A fake clock where every playout costs 20 us: the rounds must stop just short of 50 ms.
    clock = [0.0]
    real = core.sampled_places
    calls = []

    def timed(state, unseen, actions, n, seed, policy):
        clock[0] += n * len(actions) * 0.00002
        calls.append(n)
        return real(state, unseen, actions, n, seed, policy)

    monkeypatch.setattr(search_module._core, "sampled_places", timed)
    monkeypatch.setattr(search_module, "time", types.SimpleNamespace(perf_counter=lambda: clock[0]))
    game = Game(4, seed=21)
    estimate = SearchBot(seed=4).evaluate(game.view(game.turn))
    assert 0.04 <= clock[0] <= 0.0505, clock[0]
    assert estimate.samples == sum(calls) and calls[0] == 16
    # Rounds at most double, so racing gets to look in between them.
    assert all(b <= total for total, b in zip(itertools.accumulate(calls), calls[1:]))
    assert len(calls) >= 3


@pytest.mark.parametrize("playout", ["plan", "greedy"])
def test_time_budget_holds_on_the_real_clock(playout):
    view = Game.from_hands(core.deal(21), leader=0).view(0)
    start = time.perf_counter()
    estimate = SearchBot(seed=4, time_ms=30, playout=playout).evaluate(view)
    elapsed = time.perf_counter() - start
    # Loose: a loaded test machine can stretch any round, but never by seconds.
    assert estimate.samples > 0 and elapsed < 0.5


@pytest.mark.parametrize("playout, iterations", [("greedy", 2000), ("plan", 2000)])
def test_other_threads_run_during_a_search(playout, iterations):
    view = Game.from_hands(core.deal(8), leader=0).view(0)      # a free lead: many moves
    ticks: list[float] = []
    stop = threading.Event()

    def ticker() -> None:
        while not stop.is_set():
            ticks.append(time.perf_counter())
            time.sleep(0.001)

    thread = threading.Thread(target=ticker)
    thread.start()
    try:
        time.sleep(0.01)
        start = time.perf_counter()
        # Native rounds of up to a few hundred ms each, which would freeze the ticker for
        # all of them if they held the GIL.
        estimate = SearchBot(seed=0, iterations=iterations, playout=playout, prune=False).evaluate(view)
        end = time.perf_counter()
    finally:
        stop.set()
        thread.join()
    assert estimate.samples == iterations and len(estimate.moves) > 1 and end - start > 0.1
    during = [t for t in ticks if start <= t <= end]
    gaps = [b - a for a, b in zip([start, *during], [*during, end])]
    # Loose enough for a loaded machine (the OS may not schedule the ticker for a while),
    # strict enough to fail if the search held the GIL throughout.
    assert len(during) >= 5 and max(gaps) < 0.5 * (end - start), (len(during), max(gaps))


class _CheckedState(core.GameState):
    """A GameState whose fast path checks every move, so an illegal plan move raises."""

    def apply(self, mask):
        self.apply_checked(mask)


def test_plan_playouts_make_only_legal_moves_and_finish_every_hand():
    for seed in range(150):
        hands = core.deal(seed, 2 + seed % 3)
        flags = core.NO_TWOS_IN_SEQUENCES if seed % 5 == 0 else 0
        state = _CheckedState(hands, -1 if seed % 2 else seed % len(hands), flags)
        order = Playout(flags).run(state, [plan_of(h, flags) for h in hands])
        assert sorted(order) == list(range(len(hands))) and state.is_over


def test_a_plan_is_the_split_weakest_first_with_twos_and_bombs_last():
    plan = plan_of(Cards.parse("2s 3s 4c 5d 9h 9c 7s 7c 7d 7h").mask)
    assert [str(Cards(m)) for m, _, _ in plan] == ["3♠ 4♣ 5♦", "9♣ 9♥", "7♠ 7♣ 7♦ 7♥", "2♠"]
    assert [control for _, _, control in plan] == [False, False, True, True]
    assert all(code == core.classify(m) for m, code, _ in plan)
    plan.pop()
    assert len(plan_of(Cards.parse("2s 3s 4c 5d 9h 9c 7s 7c 7d 7h").mask)) == 4


def test_racing_drops_only_the_clearly_worse_moves():
    # Move 0 finishes first in every sample; move 1 is always last; move 2 is within noise.
    places = [[0] * 12, [3] * 12, [0] * 11 + [1]]
    assert search_module._race([0, 1, 2], places) == [0, 2]


def test_near_ties_go_to_the_move_that_finishes_first_more_often():
    # Same mean place (1.0 in core units) within the noise: 0 wins 4 of 8, 1 wins 2 of 8.
    steady = [1, 1, 1, 1, 1, 1, 1, 1]
    swingy = [0, 2, 0, 2, 0, 2, 0, 2]
    rare = [0, 1, 1, 1, 1, 1, 0, 2]
    assert search_module._choose([steady, swingy, rare], 8, [1, 2, 4]) == 1
    # A move that is clearly better on average wins even if it is never first.
    assert search_module._choose([[1] * 8, [3, 3, 3, 0] * 2], 8, [1, 2]) == 0
    # Exact ties go to the lowest cards, and a play before a pass.
    assert search_module._choose([[1] * 8, [1] * 8, [1] * 8], 8, [0, 8, 2]) == 2
