"""Interleaved head-to-head comparisons and the project's speed goals, in one process.

    python bench/compare.py            # full run (20-45 s), writes bench/results/latest.json
    python bench/compare.py --quick    # smoke run (5-10 s): fewer rounds, smaller blocks
    python bench/compare.py --seed 3 --json /tmp/run.json
    python bench/compare.py --only threads,game     # a subset

The machine this runs on is shared and noisy, so absolute times are unreliable. Every
comparison therefore times both sides in the same process, alternating them round by round
(A B B A A B ...: the mirrored order cancels a linear drift), and reports the median of the
per-round ratios. A goal is "met" when that median ratio is on the right side of the target.
Single-threaded sides are timed by this thread's CPU time (see CLOCK).
Comparisons whose other side (open_spiel, chess, tienlen.Game, tests/reference.py,
tests/guandan_reference.py) is not importable are reported as skipped, with the reason.
The ``guandan`` group times the Guandan core (``--only guandan``).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import gc
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests" / "reference"))   # the references (reference.py, ...)

import workloads  # noqa: E402
from tienlen import core  # noqa: E402

perf_ns = time.perf_counter_ns


# ----------------------------------------------------------------------------- timing


# The clock for single-threaded comparisons. This thread's CPU time, not wall time: on a
# shared, overloaded machine a block of work is often descheduled half-way, and wall time
# bills that wait to whichever side happened to be running. CPU time counts only the time
# spent running, which for single-threaded code is what wall time would be on an idle
# machine. `--wall` switches back (the thread comparison always uses wall time: a speedup
# from a second thread is a wall-clock effect).
CLOCK: Callable[[], int] = time.thread_time_ns


def timed(fn: Callable[[], int], clock: Callable[[], int] | None = None) -> float:
    """Nanoseconds per item of one call of ``fn`` (which returns how many items it did).

    The collector is paused so a collection triggered by one side is not billed to it.
    """
    clock = clock or CLOCK
    gc.collect()
    gc.disable()
    try:
        t0 = clock()
        n = fn()
        dt = clock() - t0
    finally:
        gc.enable()
    return dt / n


def interleave(sides: dict[str, Callable[[], int]], rounds: int,
               clock: Callable[[], int] | None = None) -> dict[str, list[float]]:
    """Per-item ns of each side for every round, sides alternating in mirrored order."""
    names = list(sides)
    for name in names:  # warm caches, allocators and lazy imports outside the timing
        sides[name]()
    samples: dict[str, list[float]] = {name: [] for name in names}
    for r in range(rounds):
        for name in names if r % 2 == 0 else names[::-1]:
            samples[name].append(timed(sides[name], clock))
    return samples


def med(xs: list[float]) -> float:
    return statistics.median(xs)


def ratio(num: list[float], den: list[float]) -> float:
    """Median over rounds of num/den, pairing the samples of the same round."""
    return statistics.median(a / b for a, b in zip(num, den))


def iqr(num: list[float], den: list[float]) -> str:
    """Interquartile range of the per-round ratios: how far the noise moved the answer."""
    q = statistics.quantiles([a / b for a, b in zip(num, den)], n=4)
    return f"{q[0]:.3g}-{q[2]:.3g}"


# ----------------------------------------------------------------------------- results


@dataclass
class Result:
    name: str
    goal: str  # human-readable target, "" for an informational comparison
    value: float | None  # the measured ratio or number the goal is judged on
    unit: str
    met: bool | None  # None: no goal, or skipped
    detail: dict = field(default_factory=dict)
    skipped: str = ""
    inconclusive: str = ""  # why a miss says nothing about our code (the machine was busy)

    def status(self) -> str:
        if self.skipped:
            return "skipped"
        if self.inconclusive:
            return "inconclusive"
        if self.met is None:
            return "info"
        return "met" if self.met else "MISSED"


RESULTS: list[Result] = []


def record(result: Result) -> None:
    RESULTS.append(result)
    value = "-" if result.value is None else f"{result.value:.3g}{result.unit}"
    extra = result.skipped or result.inconclusive or ", ".join(f"{k}={_fmt(v)}" for k, v in result.detail.items())
    print(f"  {result.status():8} {result.name}: {value}  [{result.goal or 'no goal'}]  {extra}",
          flush=True)


def _fmt(v):
    return f"{v:.4g}" if isinstance(v, float) else str(v)


def skip(name: str, goal: str, why: str) -> None:
    record(Result(name, goal, None, "", None, skipped=why))


# ----------------------------------------------------------------------------- setup


class Config:
    def __init__(self, quick: bool, seed: int) -> None:
        self.quick = quick
        self.seed = seed
        self.rounds = 9 if quick else 25
        self.hands = 1000 if quick else 4000
        self.big = 1 << 20
        self.playouts = 500 if quick else 2000
        self.os_games = 20 if quick else 80
        self.os_states = 100 if quick else 300
        self.game_games = 10 if quick else 40
        self.thread_playouts = 2000 if quick else 8000
        self.thread_hands = 20_000 if quick else 80_000


# ----------------------------------------------------------------------------- core vs Python yardsticks


def bench_classify(cfg: Config) -> None:
    goal = "classify <= 2x int.bit_count per call"
    plays = workloads.candidate_plays(cfg.hands * 5, cfg.seed)
    classify, bit_count = core.classify, int.bit_count

    def ours():
        for m in plays:
            classify(m)
        return len(plays)

    def base():
        for m in plays:
            bit_count(m)
        return len(plays)

    s = interleave({"classify": ours, "bit_count": base}, cfg.rounds)
    r = ratio(s["classify"], s["bit_count"])
    record(Result("classify vs int.bit_count (per call)", goal, r, "x", r <= 2.0,
                  {"classify_ns": med(s["classify"]), "bit_count_ns": med(s["bit_count"]),
                   "iqr": iqr(s["classify"], s["bit_count"])}))


def bench_classify_many(cfg: Config) -> None:
    goal = "classify_many <= 5x np.bitwise_count per element"
    arr = workloads.candidate_plays_array(cfg.big, cfg.seed)
    out32 = np.empty(len(arr), np.uint32)
    out8 = np.empty(len(arr), np.uint8)

    def ours():
        core.classify_many(arr, out=out32)
        return len(arr)

    def base():
        np.bitwise_count(arr, out=out8)
        return len(arr)

    s = interleave({"classify_many": ours, "bitwise_count": base}, cfg.rounds)
    r = ratio(s["classify_many"], s["bitwise_count"])
    record(Result("classify_many vs np.bitwise_count (per element, 1M)", goal, r, "x", r <= 5.0,
                  {"classify_many_ns": med(s["classify_many"]),
                   "bitwise_count_ns": med(s["bitwise_count"]),
                   "iqr": iqr(s["classify_many"], s["bitwise_count"])}))


def bench_legal_moves_abs(cfg: Config) -> None:
    goal = "core.legal_moves fresh lead, 13 cards <= 3 us per hand"
    hands = workloads.dealt_hands(cfg.hands, cfg.seed)
    arr = workloads.as_u64(hands)
    counts = core.count_legal_moves_many(arr)
    total = int(counts.sum())
    lm = core.legal_moves

    def per_call():
        for h in hands:
            lm(h)
        return len(hands)

    def many():
        core.legal_moves_many(arr)
        return len(hands)

    s = interleave({"per_call": per_call, "many": many}, cfg.rounds)
    us = med(s["per_call"]) / 1000
    mean_moves = total / len(hands)
    record(Result("core.legal_moves fresh lead (13 cards)", goal, us, " us/hand", us <= 3.0,
                  {"mean_moves": round(mean_moves, 2),
                   "per_move_ns": med(s["per_call"]) / mean_moves,
                   "legal_moves_many_us_per_hand": med(s["many"]) / 1000,
                   "legal_moves_many_ns_per_move": med(s["many"]) / mean_moves}))


def bench_python_layer(cfg: Config) -> None:
    """What the Python objects (Cards in, list of Cards out) cost over the bare core call."""
    name = "tienlen.legal_moves vs core.legal_moves (lead, 13 cards)"
    try:
        import tienlen
        from tienlen.games.tienlen.cards import Cards

        py_lm = getattr(tienlen, "legal_moves", None)
        if py_lm is None:
            from tienlen.games.tienlen.plays import legal_moves as py_lm
    except ImportError as e:
        return skip(name, "", f"tienlen.legal_moves not importable: {e}")
    hands = workloads.dealt_hands(cfg.hands // 2, cfg.seed)
    cards = [Cards(h) for h in hands]
    lm = core.legal_moves

    def py():
        for c in cards:
            py_lm(c)
        return len(cards)

    def ours():
        for h in hands:
            lm(h)
        return len(hands)

    s = interleave({"python": py, "core": ours}, cfg.rounds)
    r = ratio(s["python"], s["core"])
    record(Result(name, "", r, "x", None,
                  {"python_us": med(s["python"]) / 1000, "core_us": med(s["core"]) / 1000}))


# ----------------------------------------------------------------------------- OpenSpiel


def _open_spiel():
    try:
        import pyspiel
    except ImportError as e:
        return None, f"open_spiel not installed ({e}); pip install -e '.[bench]'"
    return pyspiel.load_game("dou_dizhu"), ""


# dou_dizhu action ids: 0 = pass, 1..3 = bids, 4 and up = card plays.
_DDZ_FIRST_PLAY_ACTION = 4


def _ddz_first_lead(game, rng: random.Random):
    """A state at the first card-play decision: deal by chance, bid at random, and start
    over when every player passes the bidding (that deal ends without play)."""
    while True:
        s = game.new_initial_state()
        while not s.is_terminal():
            legal = s.legal_actions()
            if not s.is_chance_node() and min(legal) >= _DDZ_FIRST_PLAY_ACTION:
                return s
            s.apply_action(rng.choice(legal))


def _ddz_random_game(game, rng: random.Random) -> None:
    """One random dou_dizhu game driven the plain fast way: a uniform pick of
    ``legal_actions()`` at every node, chance nodes included. Every chance node of dou_dizhu
    is uniform and its legal actions are its outcomes, so this samples the deal exactly as
    ``chance_outcomes()`` would, without building the (action, probability) pairs: ~1.6x
    fewer OpenSpiel games/s were measured that way (kept, for information, as
    ``_ddz_random_game_outcomes``)."""
    choice = rng.choice
    s = game.new_initial_state()
    while not s.is_terminal():
        s.apply_action(choice(s.legal_actions()))


def _ddz_random_game_outcomes(game, rng: random.Random) -> None:
    """The same game with the chance nodes sampled through ``chance_outcomes()`` (how
    compare.py drove OpenSpiel before issue 25): slower for OpenSpiel, for information."""
    s = game.new_initial_state()
    while not s.is_terminal():
        if s.is_chance_node():
            s.apply_action(rng.choice(s.chance_outcomes())[0])
        else:
            s.apply_action(rng.choice(s.legal_actions()))


def bench_openspiel_lead(cfg: Config) -> None:
    g1 = "fresh-lead per move >= 4x OpenSpiel dou_dizhu legal_actions() per action (per call)"
    g2 = "fresh-lead per move >= 20x OpenSpiel (core.legal_moves_many)"
    game, why = _open_spiel()
    if game is None:
        skip("fresh lead vs OpenSpiel (per call)", g1, why)
        return skip("fresh lead vs OpenSpiel (legal_moves_many)", g2, why)
    rng = random.Random(cfg.seed)
    states = [_ddz_first_lead(game, rng) for _ in range(cfg.os_states)]
    actions = sum(len(s.legal_actions()) for s in states)
    hands = workloads.dealt_hands(cfg.hands, cfg.seed)
    arr = workloads.as_u64(hands)
    moves = int(core.count_legal_moves_many(arr).sum())
    lm = core.legal_moves

    def os_side():
        for s in states:
            s.legal_actions()
        return actions

    def per_call():
        for h in hands:
            lm(h)
        return moves

    def many():
        core.legal_moves_many(arr)
        return moves

    s = interleave({"openspiel": os_side, "per_call": per_call, "many": many}, cfg.rounds)
    r1 = ratio(s["openspiel"], s["per_call"])
    r2 = ratio(s["openspiel"], s["many"])
    common = {"openspiel_ns_per_action": med(s["openspiel"]),
              "openspiel_actions_per_state": round(actions / len(states), 1)}
    record(Result("fresh lead vs OpenSpiel (per call)", g1, r1, "x", r1 >= 4.0,
                  {**common, "ours_ns_per_move": med(s["per_call"]),
                   "iqr": iqr(s["openspiel"], s["per_call"])}))
    record(Result("fresh lead vs OpenSpiel (legal_moves_many)", g2, r2, "x", r2 >= 20.0,
                  {**common, "ours_ns_per_move": med(s["many"]),
                   "iqr": iqr(s["openspiel"], s["many"])}))


def bench_openspiel_games(cfg: Config) -> None:
    g1 = "core.random_playouts games/s >= 20x OpenSpiel dou_dizhu Python-driven random games/s"
    game, why = _open_spiel()
    if game is None:
        return skip("native playouts vs OpenSpiel random games", g1, why)
    rng = random.Random(cfg.seed)
    n = cfg.playouts
    seeds = iter(range(cfg.seed * 1_000_000, 10**12))

    def os_side():
        for _ in range(cfg.os_games):
            _ddz_random_game(game, rng)
        return cfg.os_games

    def ours():
        core.random_playouts(n, 4, next(seeds))
        return n

    s = interleave({"openspiel": os_side, "playouts": ours}, cfg.rounds)
    r = ratio(s["openspiel"], s["playouts"])
    record(Result("native playouts vs OpenSpiel random games", g1, r, "x", r >= 20.0,
                  {"openspiel_games_per_s": 1e9 / med(s["openspiel"]),
                   "random_playouts_games_per_s": 1e9 / med(s["playouts"]),
                   "iqr": iqr(s["openspiel"], s["playouts"])}))


# ----------------------------------------------------------------------------- tienlen.Game


def _game_api():
    """``(Game, PASS)`` from the package, or ``(None, reason)`` while it is not written yet."""
    try:
        import tienlen
        Game = getattr(tienlen, "Game", None)
        if Game is None:
            from tienlen.games.tienlen.game import Game
        from tienlen.games.tienlen.game import PASS
    except ImportError as e:
        return None, f"tienlen.Game not available yet ({e})"
    return Game, PASS


def game_random_checked(Game, seed: int, rng: random.Random) -> int:
    """One random game through the public checked path: legal_moves(), can_pass(), then
    play()/pass_turn(), which verify the action again. Returns the number of actions."""
    g = Game(4, seed=seed)
    n = 0
    while not g.is_over:
        moves = list(g.legal_moves())
        i = rng.randrange(len(moves) + g.can_pass())
        if i == len(moves):
            g.pass_turn()
        else:
            g.play(moves[i])
        n += 1
    return n


def game_random_unchecked(Game, PASS, seed: int, rng: random.Random) -> int:
    """The same game loop through apply_unchecked (the caller vouches for legality)."""
    g = Game(4, seed=seed)
    n = 0
    while not g.is_over:
        moves = list(g.legal_moves())
        i = rng.randrange(len(moves) + g.can_pass())
        g.apply_unchecked(PASS if i == len(moves) else moves[i])
        n += 1
    return n


def bench_game(cfg: Config) -> None:
    goal = "checked tienlen.Game random games/s >= 1x OpenSpiel dou_dizhu Python-driven games/s"
    name = "tienlen.Game (checked) vs OpenSpiel random games"
    Game, PASS = _game_api()
    if Game is None:
        skip(name, goal, PASS)
        skip("tienlen.Game apply_unchecked vs checked", "", PASS)
        return skip("Game.copy() vs GameState.copy()", "", PASS)
    game, why = _open_spiel()
    rng = random.Random(cfg.seed)
    seeds = iter(range(cfg.seed * 1_000_000, 10**12))
    k = cfg.game_games

    def checked():
        for _ in range(k):
            game_random_checked(Game, next(seeds), rng)
        return k

    def unchecked():
        for _ in range(k):
            game_random_unchecked(Game, PASS, next(seeds), rng)
        return k

    sides = {"checked": checked, "unchecked": unchecked}
    if game is not None:
        def os_side():
            for _ in range(k):
                _ddz_random_game(game, rng)
            return k

        def os_outcomes():
            for _ in range(k):
                _ddz_random_game_outcomes(game, rng)
            return k
        sides["openspiel"] = os_side
        sides["openspiel_outcomes"] = os_outcomes
    s = interleave(sides, cfg.rounds)
    common = {"checked_games_per_s": 1e9 / med(s["checked"]),
              "unchecked_games_per_s": 1e9 / med(s["unchecked"])}
    if game is None:
        skip(name, goal, why)
    else:
        r = ratio(s["openspiel"], s["checked"])
        # The goal is judged against OpenSpiel driven the fast way; the ratio against the
        # chance_outcomes() driver (how this row read before issue 25) is kept for information.
        record(Result(name, goal, r, "x", r >= 1.0,
                      {**common, "openspiel_games_per_s": 1e9 / med(s["openspiel"]),
                       "iqr": iqr(s["openspiel"], s["checked"]),
                       "vs_openspiel_chance_outcomes": ratio(s["openspiel_outcomes"], s["checked"])}))
    record(Result("tienlen.Game apply_unchecked vs checked", "", ratio(s["checked"], s["unchecked"]),
                  "x", None, common))

    # Copying, the primitive of any search: the Python object vs the bare core struct.
    games = [Game(4, seed=cfg.seed * 1000 + i) for i in range(200)]
    for i, g in enumerate(games):  # a few actions in, so the history is not empty
        for _ in range(i % 12):
            moves = list(g.legal_moves())
            g.apply_unchecked(moves[0] if not g.can_pass() else PASS)
    states = [core.GameState(core.deal(cfg.seed * 1000 + i)) for i in range(200)]
    reps = 20

    def game_copy():
        for _ in range(reps):
            for g in games:
                g.copy()
        return reps * len(games)

    def state_copy():
        for _ in range(reps):
            for st in states:
                st.copy()
        return reps * len(states)

    s = interleave({"Game.copy": game_copy, "GameState.copy": state_copy}, cfg.rounds)
    record(Result("Game.copy() vs GameState.copy()", "", ratio(s["Game.copy"], s["GameState.copy"]),
                  "x", None, {"game_copy_ns": med(s["Game.copy"]),
                              "state_copy_ns": med(s["GameState.copy"])}))


# ----------------------------------------------------------------------------- threads


def _idle_ticks() -> int | None:
    """Idle + iowait clock ticks of the whole machine so far (Linux), or None."""
    try:
        with open("/proc/stat") as f:
            fields = f.readline().split()
        return int(fields[4]) + int(fields[5])
    except (OSError, IndexError, ValueError):
        return None


class CoreMeter:
    """Wraps a side to add up its wall and process CPU time, and the machine's idle time.

    CPU / wall is how many cores the process really got: near 2 with two threads means the
    loops ran in parallel. If it stays near 1 the idle time tells why: cores left idle mean
    our threads serialised (a lock, or the GIL taken back); no idle core means other
    processes had the second core, and the run says nothing about our code."""

    TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100

    def __init__(self, fn: Callable[[], int]) -> None:
        self.fn, self.wall, self.cpu, self.items = fn, 0, 0, 0
        self.idle: int | None = 0

    def __call__(self) -> int:
        i0, c0, w0 = _idle_ticks(), time.process_time_ns(), perf_ns()
        n = self.fn()
        self.wall += perf_ns() - w0
        self.cpu += time.process_time_ns() - c0
        i1 = _idle_ticks()
        self.idle = None if i0 is None or i1 is None or self.idle is None else self.idle + i1 - i0
        self.items += n
        return n

    @property
    def cpu_per_item(self) -> float:
        return self.cpu / self.items

    @property
    def cores(self) -> float:
        return round(self.cpu / self.wall, 2) if self.wall else 0.0

    @property
    def idle_cores(self) -> float | None:
        """Average number of idle cores on the machine while this side ran."""
        if self.idle is None or not self.wall:
            return None
        return round(self.idle / self.TICK / (self.wall / 1e9), 2)


def _overlap(spans: list[tuple[int, int]]) -> float:
    """How much two calls' wall-clock spans overlap, as a fraction of the longer one. A call
    that kept the GIL would block the other thread's call from even starting: overlap ~0
    whatever the machine's load. Released, the calls overlap nearly completely."""
    (s1, e1), (s2, e2) = spans
    return max(0, min(e1, e2) - max(s1, s2)) / max(e1 - s1, e2 - s2)


def bench_threads(cfg: Config) -> None:
    """Two chunks on a 2-worker pool vs the same two chunks on a 1-worker pool: same calls,
    same pool overhead, only the parallelism differs."""
    pool1 = concurrent.futures.ThreadPoolExecutor(max_workers=1)
    pool2 = concurrent.futures.ThreadPoolExecutor(max_workers=2)
    half = cfg.thread_playouts // 2
    seed = cfg.seed
    hands = workloads.as_u64(workloads.dealt_hands(cfg.thread_hands, seed))
    chunks = [hands[: len(hands) // 2].copy(), hands[len(hands) // 2:].copy()]

    def spanned(fn, *args):
        t0 = perf_ns()
        fn(*args)
        return t0, perf_ns()

    def make(pool, calls, items, overlaps):
        def run():
            spans = [f.result() for f in [pool.submit(spanned, *c) for c in calls]]
            overlaps.append(_overlap(spans))
            return items
        return CoreMeter(run)

    jobs = (
        ("random_playouts", "games_per_s", 2 * half,
         [(core.random_playouts_range, i * half, half, 4, seed) for i in range(2)]),
        ("legal_moves_many", "hands_per_s", len(hands),
         [(core.legal_moves_many, c) for c in chunks]),
    )
    for name, unit, items, calls in jobs:
        ov1: list[float] = []
        ov2: list[float] = []
        one, two = make(pool1, calls, items, ov1), make(pool2, calls, items, ov2)
        s = interleave({"1 thread": one, "2 threads": two}, cfg.rounds, perf_ns)
        r = ratio(s["1 thread"], s["2 threads"])
        busy = ""
        if r < 1.7 and two.cores < 1.5 and two.idle_cores is not None and two.idle_cores < 0.3:
            busy = (f"machine busy: the 2-thread side got {two.cores} cores while "
                    f"{two.idle_cores} cores stood idle; rerun on an idle machine")
        record(Result(f"{name}, 2 threads vs 1", "speedup >= 1.7x", r, "x", r >= 1.7,
                      {f"{unit}_1": 1e9 / med(s["1 thread"]), f"{unit}_2": 1e9 / med(s["2 threads"]),
                       "iqr": iqr(s["1 thread"], s["2 threads"]), "call_overlap_2": round(med(ov2), 2),
                       "cores_used_1": one.cores, "cores_used_2": two.cores,
                       "idle_cores_2": two.idle_cores,
                       # CPU per item, 1 thread over 2 threads: ~1 means running two at once
                       # costs no extra work, so with two idle cores the speedup would be
                       # ~2 x call_overlap_2. This is a diagnosis, not the measurement.
                       "cpu_per_item_1_over_2": round(one.cpu_per_item / two.cpu_per_item, 2),
                       "load_avg": os.getloadavg()[0]}, inconclusive=busy))
    pool1.shutdown()
    pool2.shutdown()


# ----------------------------------------------------------------------------- RL environments

# RLCard's doudizhu env stepped by random agents, as measured on this machine when issue 16
# was filed; used only when rlcard cannot be imported, and labelled as a fixed anchor.
RLCARD_FIXED_STEPS_PER_S = 9_300.0


def _rlcard_side(seed: int, steps: int):
    """RLCard doudizhu, every seat a RandomAgent: env.step calls per run of the side."""
    try:
        import rlcard
        from rlcard.agents import RandomAgent
    except ImportError as e:
        return None, f"rlcard not installed ({e})"
    env = rlcard.make("doudizhu", config={"seed": seed})
    agent = RandomAgent(num_actions=env.num_actions)
    np.random.seed(seed)  # RandomAgent draws from NumPy's global generator
    state = {"s": None}

    def side():
        done = 0
        while done < steps:
            if state["s"] is None or env.is_over():
                state["s"], _ = env.reset()
            state["s"], _ = env.step(agent.step(state["s"]))
            done += 1
        return done
    return side, ""


def _openspiel_apply_side(game, rng: random.Random, games: int):
    """OpenSpiel dou_dizhu random games driven from Python: apply_action calls (chance
    nodes of the deal included) per run, driven the fast way (see _ddz_random_game)."""
    choice = rng.choice

    def side():
        calls = 0
        for _ in range(games):
            s = game.new_initial_state()
            while not s.is_terminal():
                s.apply_action(choice(s.legal_actions()))   # chance nodes too: see _ddz_random_game
                calls += 1
        return calls
    return side


def _vec_side(n: int, calls: int, seed: int, threads: int = 1):
    """The native vectorised env against three native random opponents, the learner's
    actions drawn by a cheap NumPy policy (uniform over its mask): learner steps per run."""
    v = core.VecGames(n, opponents=(core.RANDOM,) * 3, seed=seed)
    rng = np.random.default_rng(seed)

    def side():
        for _ in range(calls):
            legal = v.num_legal.astype(np.int64)
            can_pass = v.action_mask[:, 0].astype(np.int64)
            actions = (rng.random(n) * (legal + can_pass)).astype(np.int64) + (1 - can_pass)
            v.step(actions, threads)
        return n * calls
    return side


def _aec_side(steps: int, seed: int):
    """The PettingZoo AEC env, every agent acting uniformly over its mask: agent steps."""
    from tienlen.rl import env as make_env

    return random_aec_side(make_env(players=4), steps, seed)


def random_aec_side(e, steps: int, seed: int):
    """Any game's PettingZoo AEC env, every agent acting uniformly over its mask: a timed
    side counting agent steps (the Tiến Lên row above, the Guandan row of guandan_rl_bench)."""
    e.reset(seed=seed)
    rng = random.Random(seed)

    def side():
        done = 0
        while done < steps:
            obs, _, terminated, truncated, _ = e.last()
            if terminated or truncated:
                e.reset()
                continue
            e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
            done += 1
        return done
    return side


def bench_rl(cfg: Config) -> None:
    g_vec = "vectorised env learner steps/s >= 100x RLCard doudizhu random-agent steps/s"
    g_os = "vectorised env learner steps/s >= 1x OpenSpiel dou_dizhu apply_action calls/s (Python loop)"
    g_aec = "PettingZoo AEC env steps/s >= 2x RLCard doudizhu random-agent steps/s"
    g_thr = "vectorised env, 2 threads vs 1: speedup >= 1.7x"
    n = 1024 if cfg.quick else 4096
    vec = _vec_side(n, 4 if cfg.quick else 8, cfg.seed)
    sides = {"vec": vec}
    try:
        sides["aec"] = _aec_side(500 if cfg.quick else 2000, cfg.seed)
    except ImportError as e:
        sides["aec"] = None
        aec_why = f"pettingzoo not installed ({e}); pip install -e '.[rl]'"
    rl_side, rl_why = _rlcard_side(cfg.seed, 500 if cfg.quick else 2000)
    if rl_side is not None:
        sides["rlcard"] = rl_side
    game, os_why = _open_spiel()
    if game is not None:
        sides["openspiel"] = _openspiel_apply_side(game, random.Random(cfg.seed), cfg.os_games // 2)
    s = interleave({k: f for k, f in sides.items() if f is not None}, cfg.rounds)
    vec_ns = s["vec"]
    vec_rate = 1e9 / med(vec_ns)
    if "rlcard" in s:
        r = ratio(s["rlcard"], vec_ns)
        rl_rate = 1e9 / med(s["rlcard"])
        anchor = {"rlcard_steps_per_s": rl_rate, "iqr": iqr(s["rlcard"], vec_ns)}
    else:
        rl_rate = RLCARD_FIXED_STEPS_PER_S
        r = vec_rate / rl_rate
        anchor = {"rlcard_steps_per_s": rl_rate,
                  "anchor": f"FIXED (issue 16's measurement; {rl_why})"}
    record(Result("vectorised env vs RLCard doudizhu", g_vec, r, "x", r >= 100.0,
                  {"vec_learner_steps_per_s": vec_rate, "num_envs": n, **anchor}))
    if "openspiel" in s:
        r = ratio(s["openspiel"], vec_ns)
        record(Result("vectorised env vs OpenSpiel dou_dizhu Python loop", g_os, r, "x", r >= 1.0,
                      {"vec_learner_steps_per_s": vec_rate,
                       "openspiel_apply_action_per_s": 1e9 / med(s["openspiel"]),
                       "iqr": iqr(s["openspiel"], vec_ns)}))
    else:
        skip("vectorised env vs OpenSpiel dou_dizhu Python loop", g_os, os_why)
    if "aec" in s:
        aec_rate = 1e9 / med(s["aec"])
        if "rlcard" in s:
            r = ratio(s["rlcard"], s["aec"])
            extra = {"iqr": iqr(s["rlcard"], s["aec"])}
        else:
            r = aec_rate / rl_rate
            extra = {"anchor": "FIXED (issue 16's measurement)"}
        record(Result("PettingZoo AEC env vs RLCard doudizhu", g_aec, r, "x", r >= 2.0,
                      {"aec_steps_per_s": aec_rate, "rlcard_steps_per_s": rl_rate, **extra}))
    else:
        skip("PettingZoo AEC env vs RLCard doudizhu", g_aec, aec_why)
    # Threads: wall clock, the same batch stepped by one thread or split over two. Each
    # sample is about 0.2 s of stepping on one core: at 8 calls (40 ms) the thread pool's
    # wake-ups and the scheduler's noise decided the ratio (IQR 1.14-1.81 in one run).
    calls = 4 if cfg.quick else 40
    one = CoreMeter(_vec_side(2 * n, calls, cfg.seed, threads=1))
    two = CoreMeter(_vec_side(2 * n, calls, cfg.seed, threads=2))
    s = interleave({"1 thread": one, "2 threads": two}, cfg.rounds, perf_ns)
    r = ratio(s["1 thread"], s["2 threads"])
    busy = ""
    if r < 1.7 and two.cores < 1.5 and two.idle_cores is not None and two.idle_cores < 0.3:
        busy = (f"machine busy: the 2-thread side got {two.cores} cores while "
                f"{two.idle_cores} cores stood idle; rerun on an idle machine")
    record(Result("vectorised env, 2 threads vs 1", g_thr, r, "x", r >= 1.7,
                  {"steps_per_s_1": 1e9 / med(s["1 thread"]), "steps_per_s_2": 1e9 / med(s["2 threads"]),
                   "iqr": iqr(s["1 thread"], s["2 threads"]), "cores_used_2": two.cores,
                   "idle_cores_2": two.idle_cores,
                   # ~1: two threads do no extra work per step, so on two idle cores the
                   # speedup would be ~2 (a diagnosis, not the measurement)
                   "cpu_per_item_1_over_2": round(one.cpu_per_item / two.cpu_per_item, 2),
                   "load_avg": os.getloadavg()[0]},
                  inconclusive=busy))


# ----------------------------------------------------------------------------- reference


def bench_reference(cfg: Config) -> None:
    try:
        import reference
    except ImportError as e:
        why = f"tests/reference.py not importable ({e})"
        skip("reference.classify vs core.classify", "", why)
        return skip("reference.legal_moves vs core.legal_moves", "", why)
    plays = workloads.candidate_plays(cfg.hands, cfg.seed)
    classify = core.classify

    def ref_c():
        for m in plays:
            reference.classify(m)
        return len(plays)

    def ours_c():
        for m in plays:
            classify(m)
        return len(plays)

    s = interleave({"reference": ref_c, "core": ours_c}, cfg.rounds)
    record(Result("reference.classify vs core.classify", "", ratio(s["reference"], s["core"]),
                  "x", None, {"reference_ns": med(s["reference"]), "core_ns": med(s["core"])}))

    # The reference tries every subset of the hand (8191 for 13 cards, ~80 ms each), so the
    # comparison uses mid-game hands, where it stays within a few ms.
    hands = workloads.mid_game_hands(10 if cfg.quick else 30, cfg.seed)
    lm = core.legal_moves
    reps = 200

    def ref_lm():
        for h in hands:
            reference.legal_moves(h)
        return len(hands)

    def ours_lm():
        for _ in range(reps):
            for h in hands:
                lm(h)
        return reps * len(hands)

    s = interleave({"reference": ref_lm, "core": ours_lm}, max(3, cfg.rounds // 3))
    record(Result("reference.legal_moves vs core.legal_moves (lead, 4-10 cards)", "",
                  ratio(s["reference"], s["core"]), "x", None,
                  {"reference_us": med(s["reference"]) / 1000, "core_us": med(s["core"]) / 1000}))


def bench_plan(cfg: Config) -> None:
    """The PLAN playout policy (what L3 samples with): native vs its Python twin, per game,
    from fresh 4-player deals; and the greedy policy's speed for scale."""
    name = "PLAN playouts: Python reference vs core (per game)"
    try:
        from reference_playout import Playout, plan_of
    except ImportError as e:
        return skip(name, "", f"tests/reference_playout.py not importable ({e})")
    games = 20 if cfg.quick else 60
    seeds = iter(range(10**9))
    engine = Playout(0)

    def ref():
        base = next(seeds) * games
        for i in range(games):
            state = core.GameState(core.deal(base + i))
            engine.run(state, [plan_of(h) for h in state.hands])
        return games

    n = cfg.playouts

    def plan():
        core.random_playouts(n, 4, next(seeds), 0, core.PLAN)
        return n

    def greedy():
        core.random_playouts(n, 4, next(seeds), 0, core.GREEDY)
        return n

    s = interleave({"reference": ref, "plan": plan, "greedy": greedy}, max(3, cfg.rounds // 3))
    record(Result(name, "", ratio(s["reference"], s["plan"]), "x", None,
                  {"reference_games_per_s": 1e9 / med(s["reference"]),
                   "plan_games_per_s": 1e9 / med(s["plan"]),
                   "greedy_games_per_s": 1e9 / med(s["greedy"]),
                   "iqr": iqr(s["reference"], s["plan"])}))


# ----------------------------------------------------------------------------- python-chess

# The start position and four of the standard perft test positions (chessprogramming.org).
CHESS_FENS = (
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1q1n1/Q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
)


def bench_chess(cfg: Config) -> None:
    name = "python-chess legal_moves per move vs ours per move"
    try:
        import chess
    except ImportError as e:
        return skip(name, "", f"chess not installed ({e}); pip install -e '.[bench]'")
    boards = [chess.Board(fen) for fen in CHESS_FENS]
    chess_moves = sum(len(list(b.legal_moves)) for b in boards)
    hands = workloads.dealt_hands(1000, cfg.seed)
    moves = int(core.count_legal_moves_many(workloads.as_u64(hands)).sum())
    lm = core.legal_moves
    reps = 20

    def chess_side():
        for _ in range(reps):
            for b in boards:
                list(b.legal_moves)
        return reps * chess_moves

    def core_side():
        for h in hands:
            lm(h)
        return moves

    sides = {"chess": chess_side, "core": core_side}
    try:
        import tienlen
        from tienlen.games.tienlen.cards import Cards

        py_lm = getattr(tienlen, "legal_moves", None)
        if py_lm is None:
            from tienlen.games.tienlen.plays import legal_moves as py_lm
        cards = [Cards(h) for h in hands]

        def py_side():
            for c in cards:
                py_lm(c)
            return moves

        sides["python"] = py_side
    except ImportError:
        pass
    s = interleave(sides, cfg.rounds)
    detail = {"chess_ns_per_move": med(s["chess"]), "core_ns_per_move": med(s["core"]),
              "chess_moves_per_position": round(chess_moves / len(boards), 1)}
    if "python" in s:
        detail["tienlen_legal_moves_ns_per_move"] = med(s["python"])
        detail["chess_vs_tienlen_legal_moves"] = ratio(s["chess"], s["python"])
    record(Result(name, "", ratio(s["chess"], s["core"]), "x", None, detail))


# ----------------------------------------------------------------------------- Guandan


def bench_guandan(cfg: Config) -> None:
    """The Guandan core (tienlen.games.guandan.core): leads of dealt 27-card hands, following a
    pile, against the pure-Python reference, and the batch calls on two threads."""
    import guandan_workloads as gw
    from tienlen.guandan import core as gd

    lp = gd.legal_plays
    leads = gw.dealt_hands(cfg.hands // 4, cfg.seed)
    lead_arr = gw.as_arrays(leads)
    plays = int(gd.count_legal_plays_many(lead_arr[0], lead_arr[1]).sum())

    def per_call():
        for once, twice, level in leads:
            lp(once, twice, level)
        return plays

    def many():
        gd.legal_plays_many(lead_arr[0], lead_arr[1])
        return plays

    def count_many():
        gd.count_legal_plays_many(lead_arr[0], lead_arr[1])
        return len(leads)

    s = interleave({"per_call": per_call, "many": many, "count_many": count_many}, cfg.rounds)
    ns = med(s["per_call"])
    record(Result("guandan legal_plays, lead (27 cards, random level)",
                  "<= 15 ns per generated play through the core", ns, " ns/play", ns <= 15.0,
                  {"plays_per_hand": round(plays / len(leads), 1),
                   "us_per_hand": ns * plays / len(leads) / 1000,
                   "legal_plays_many_ns_per_play": med(s["many"]),
                   "count_legal_plays_many_us_per_hand": med(s["count_many"]) / 1000}))

    rows = gw.following(cfg.hands, cfg.seed)
    cp = gd.count_legal_plays
    followed = sum(cp(*r) for r in rows)

    def follow():
        for once, twice, level, pile in rows:
            lp(once, twice, level, pile)
        return len(rows)

    def follow_count():
        for once, twice, level, pile in rows:
            cp(once, twice, level, pile)
        return len(rows)

    s = interleave({"legal_plays": follow, "count": follow_count}, cfg.rounds)
    us = med(s["legal_plays"]) / 1000
    record(Result("guandan legal_plays, following a pile (5-27 cards)", "<= 1 us per call", us,
                  " us/call", us <= 1.0,
                  {"plays_per_call": round(followed / len(rows), 2),
                   "count_legal_plays_us_per_call": med(s["count"]) / 1000}))

    name = "guandan reference vs core legal plays (lead, 27 cards, per play)"
    goal = "core >= 100x faster per play than tests/guandan_reference.py"
    try:
        import guandan_reference as ref
    except ImportError as e:
        skip(name, goal, f"tests/guandan_reference.py not importable ({e})")
    else:
        few = leads[: 2 if cfg.quick else 4]
        few_ids = [([i for i in range(54) for _ in range((o >> i & 1) + (t >> i & 1))], lv)
                   for o, t, lv in few]
        few_plays = sum(gd.count_legal_plays(o, t, lv) for o, t, lv in few)
        reps = 100

        def reference():
            for ids, level in few_ids:
                ref.legal_plays(ids, level, None, ref.STANDARD)
            return few_plays

        def core_side():
            for _ in range(reps):
                for once, twice, level in few:
                    lp(once, twice, level)
            return reps * few_plays

        s = interleave({"reference": reference, "core": core_side}, max(3, cfg.rounds // 3))
        r = ratio(s["reference"], s["core"])
        record(Result(name, goal, r, "x", r >= 100.0,
                      {"reference_ns_per_play": med(s["reference"]),
                       "core_ns_per_play": med(s["core"]),
                       "iqr": iqr(s["reference"], s["core"])}))

    # Two chunks on a 2-worker pool vs the same chunks on a 1-worker pool (as bench_threads).
    pool1 = concurrent.futures.ThreadPoolExecutor(max_workers=1)
    pool2 = concurrent.futures.ThreadPoolExecutor(max_workers=2)
    big = gw.dealt_hands(cfg.thread_hands // 20, cfg.seed + 1)
    hands, levels, _ = gw.as_arrays(big)
    half = len(big) // 2
    chunks = [(hands[:half].copy(), levels[:half].copy()), (hands[half:].copy(), levels[half:].copy())]

    def spanned(fn, *args):
        t0 = perf_ns()
        fn(*args)
        return t0, perf_ns()

    def make(pool, calls, items, overlaps):
        def run():
            spans = [f.result() for f in [pool.submit(spanned, *c) for c in calls]]
            overlaps.append(_overlap(spans))
            return items
        return CoreMeter(run)

    # count_legal_plays_many gets 10x the rows: 2,000 rows are ~2 ms a call, and at that
    # length the row measured how soon this VM wakes a second core (a worker parked between
    # rounds started after the other had finished: call overlap 0-0.5 with a core idle),
    # not whether the calls run in parallel. legal_plays_many's 2,000 rows are ~15 ms.
    many = gw.dealt_hands(cfg.thread_hands // 2, cfg.seed + 2)
    mh, ml, _ = gw.as_arrays(many)
    mhalf = len(many) // 2
    count_chunks = [(mh[:mhalf].copy(), ml[:mhalf].copy()), (mh[mhalf:].copy(), ml[mhalf:].copy())]
    for fname, fn, rows, pair in (("count_legal_plays_many", gd.count_legal_plays_many,
                                   len(many), count_chunks),
                                  ("legal_plays_many", gd.legal_plays_many, len(big), chunks)):
        calls = [(fn, h, lv) for h, lv in pair]
        ov1: list[float] = []
        ov2: list[float] = []
        one, two = make(pool1, calls, rows, ov1), make(pool2, calls, rows, ov2)
        s = interleave({"1 thread": one, "2 threads": two}, cfg.rounds, perf_ns)
        r = ratio(s["1 thread"], s["2 threads"])
        busy = ""
        if r < 1.7 and two.cores < 1.5 and two.idle_cores is not None and two.idle_cores < 0.3:
            busy = (f"machine busy: the 2-thread side got {two.cores} cores while "
                    f"{two.idle_cores} cores stood idle; rerun on an idle machine")
        record(Result(f"guandan {fname} (27-card leads), 2 threads vs 1", "speedup >= 1.7x", r,
                      "x", r >= 1.7,
                      {"hands_per_s_1": 1e9 / med(s["1 thread"]),
                       "hands_per_s_2": 1e9 / med(s["2 threads"]),
                       "iqr": iqr(s["1 thread"], s["2 threads"]),
                       "call_overlap_2": round(med(ov2), 2), "cores_used_1": one.cores,
                       "cores_used_2": two.cores, "idle_cores_2": two.idle_cores,
                       "cpu_per_item_1_over_2": round(one.cpu_per_item / two.cpu_per_item, 2),
                       "load_avg": os.getloadavg()[0]}, inconclusive=busy))
    pool1.shutdown()
    pool2.shutdown()


# ----------------------------------------------------------------------------- main


def machine() -> dict:
    model = platform.processor()
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, check=True).stdout
        for line in out.splitlines():
            if line.startswith("Model name:"):
                model = line.split(":", 1)[1].strip()
    except (OSError, subprocess.CalledProcessError):
        pass
    info = {"cpu": model, "cores": os.cpu_count(), "python": platform.python_version(),
            "numpy": np.__version__, "platform": platform.platform(),
            "load_avg_at_start": os.getloadavg()[0]}
    for mod in ("pyspiel", "chess"):
        try:
            m = __import__(mod)
            info[mod] = getattr(m, "__version__", "installed")
        except ImportError:
            info[mod] = None
    return info


def table() -> str:
    rows = ["| comparison | goal | measured | status | details |", "|---|---|---|---|---|"]
    for r in RESULTS:
        value = "-" if r.value is None else f"{r.value:.3g}{r.unit}"
        note = r.skipped or "; ".join(
            x for x in (r.inconclusive, ", ".join(f"{k} {_fmt(v)}" for k, v in r.detail.items())) if x)
        rows.append(f"| {r.name} | {r.goal or 'none (info)'} | {value} | {r.status()} | {note} |")
    return "\n".join(rows)


# Guandan game-layer rows (issue 17) live in guandan_game_bench.py; they get the helpers here.
def _gd_api() -> dict:
    return {"Result": Result, "record": record, "interleave": interleave, "med": med,
            "ratio": ratio, "iqr": iqr, "skip": skip, "open_spiel": _open_spiel,
            "game_random_checked": game_random_checked}


def bench_guandan_playouts(cfg: Config) -> None:
    import guandan_game_bench

    guandan_game_bench.bench_guandan_playouts(cfg, _gd_api())


def bench_guandan_game(cfg: Config) -> None:
    import guandan_game_bench

    guandan_game_bench.bench_guandan_game(cfg, _gd_api())


def bench_guandan_rl(cfg: Config) -> None:
    import guandan_rl_bench

    guandan_rl_bench.bench_guandan_rl(cfg, {**_gd_api(), "rlcard_side": _rlcard_side,
                                          "random_aec_side": random_aec_side})


COMPARISONS: dict[str, Callable[[Config], None]] = {
    "classify": bench_classify,
    "classify_many": bench_classify_many,
    "legal_moves": bench_legal_moves_abs,
    "openspiel_lead": bench_openspiel_lead,
    "openspiel_games": bench_openspiel_games,
    "game": bench_game,
    "threads": bench_threads,
    "python_layer": bench_python_layer,
    "reference": bench_reference,
    "plan": bench_plan,
    "chess": bench_chess,
    "rl": bench_rl,
    "guandan": bench_guandan,
    "guandan_playouts": bench_guandan_playouts,
    "guandan_game": bench_guandan_game,
    "guandan_rl": bench_guandan_rl,
}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="fast smoke run (5-10 s)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", type=Path, default=None,
                    help="where to write the results (default: bench/results/latest.json)")
    ap.add_argument("--wall", action="store_true",
                    help="time single-threaded comparisons by wall clock, not thread CPU time")
    ap.add_argument("--only", default=",".join(COMPARISONS), metavar="NAMES",
                    help="comma-separated subset of: " + ", ".join(COMPARISONS)
                    + " (a partial run writes JSON only when --json is given)")
    args = ap.parse_args(argv)
    only = [n.strip() for n in args.only.split(",") if n.strip()]
    unknown = [n for n in only if n not in COMPARISONS]
    if unknown:
        ap.error(f"unknown comparison(s): {', '.join(unknown)}")
    partial = set(only) != set(COMPARISONS)
    global CLOCK
    if args.wall:
        CLOCK = perf_ns
    cfg = Config(args.quick, args.seed)
    t0 = time.perf_counter()
    info = machine()
    print(f"{info['cpu']}, {info['cores']} cores, Python {info['python']}, NumPy {info['numpy']}, "
          f"load {info['load_avg_at_start']:.2f}; {cfg.rounds} interleaved rounds per comparison, "
          f"timed by {'wall clock' if args.wall else 'thread CPU time'}")
    for name in only:
        COMPARISONS[name](cfg)
    elapsed = time.perf_counter() - t0
    print()
    print(table())
    print(f"\n{elapsed:.0f} s")
    if args.json is None:
        if partial:
            return 0
        args.json = HERE / "results" / "latest.json"
    args.json.parent.mkdir(parents=True, exist_ok=True)
    payload = {"machine": info, "seed": args.seed, "quick": args.quick, "rounds": cfg.rounds,
               "only": only,
               "clock": "wall" if args.wall else "thread_cpu",
               "elapsed_s": round(elapsed, 1),
               "results": [{k: v for k, v in r.__dict__.items()} | {"status": r.status()}
                           for r in RESULTS]}
    args.json.write_text(json.dumps(payload, indent=2, default=float) + "\n")
    print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
