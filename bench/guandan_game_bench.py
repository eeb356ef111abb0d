"""compare.py rows for the Guandan game layer (issue 17), kept in their own module.

- native random playouts of the play phase (``GdState.playouts``, GIL released): decisions
  (plays and passes) per CPU second, goal >= 1,000,000 per core;
- a checked ``tienlen.guandan.Game`` action from Python against a checked Tiến Lên
  ``Game`` action, both driven by the same random loop (legal list, can_pass, play/pass),
  timed in one run, interleaved: goal <= 3x.
"""

from __future__ import annotations

import random


def gd_random_checked(Game, seed: int, rng: random.Random) -> int:
    """One random Guandan hand through the checked public path; the number of actions."""
    g = Game(seed=seed)
    n = 0
    while not g.is_over:
        plays = g.legal_plays()
        i = rng.randrange(len(plays) + g.can_pass())
        if i == len(plays):
            g.pass_turn()
        else:
            g.play(plays[i])
        n += 1
    return n


def bench_guandan_playouts(cfg, api) -> None:
    from tienlen import _guandan

    Result, record, interleave, med = api["Result"], api["record"], api["interleave"], api["med"]
    state = _guandan.GdState(_guandan.deal(cfg.seed), 2, 0)
    n = 200 if cfg.quick else 1000
    seeds = iter(range(10**9))

    def playouts():
        return state.playouts(next(seeds) * n, n)[1]     # decisions made

    s = interleave({"playouts": playouts}, cfg.rounds)
    rate = 1e9 / med(s["playouts"])
    record(Result("Guandan native random playouts (decisions/s, one core)",
                  "decisions/s >= 1,000,000 per core", rate, "/s", rate >= 1e6,
                  {"playouts_per_call": n}))


def bench_guandan_game(cfg, api) -> None:
    from tienlen.game import Game as TGame
    from tienlen.guandan import Game as GGame

    Result, record, interleave, ratio = api["Result"], api["record"], api["interleave"], api["ratio"]
    game_random_checked = api["game_random_checked"]
    rng = random.Random(cfg.seed)
    k = max(4, cfg.game_games // 4)
    seeds = iter(range(cfg.seed * 1_000_000, 10**12))

    def tienlen_side():
        return sum(game_random_checked(TGame, next(seeds), rng) for _ in range(k))

    def guandan_side():
        return sum(gd_random_checked(GGame, next(seeds), rng) for _ in range(k))

    s = interleave({"tienlen": tienlen_side, "guandan": guandan_side}, cfg.rounds)
    r = ratio(s["guandan"], s["tienlen"])
    record(Result("checked guandan.Game action vs checked tienlen Game action",
                  "<= 3x the time of a Tiến Lên action", r, "x", r <= 3.0,
                  {"tienlen_ns_per_action": api["med"](s["tienlen"]),
                   "guandan_ns_per_action": api["med"](s["guandan"])}))
