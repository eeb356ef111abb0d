"""compare.py rows for the Guandan game layer (issue 17), kept in their own module.

- native random playouts of the play phase (``GdState.playouts``, GIL released): decisions
  (plays and passes) per CPU second, goal >= 1,000,000 per core, and >= 1.5x OpenSpiel
  ``dou_dizhu`` driven by a random agent from Python (chance nodes not counted), in one run;
- native PLAN playouts (every seat by the plan policy that L2 plays and L3 searches with):
  decisions per CPU second, for information;
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


def _ddz_dealt_states(game, rng: random.Random, n: int) -> list:
    """n OpenSpiel dou_dizhu states at their first decision (the deal's chance nodes done)."""
    out = []
    while len(out) < n:
        s = game.new_initial_state()
        while s.is_chance_node():   # uniform outcomes, listed by legal_actions(): the fast way
            s.apply_action(rng.choice(s.legal_actions()))
        out.append(s)
    return out


def _ddz_decisions_side(game, rng: random.Random, games: int, calls: int):
    """OpenSpiel dou_dizhu driven by a random agent from Python: every decision is
    legal_actions() + a uniform pick + apply_action. The deals of all ``calls`` runs are made
    before any clock starts; a chance node met later (the landlord's three cards) is applied
    but not counted as a decision."""
    pending = [_ddz_dealt_states(game, rng, games) for _ in range(calls)]

    def side():
        decisions = 0
        for s in pending.pop() if pending else _ddz_dealt_states(game, rng, games):
            while not s.is_terminal():
                decisions += not s.is_chance_node()
                s.apply_action(rng.choice(s.legal_actions()))
        return decisions
    return side


def bench_guandan_playouts(cfg, api) -> None:
    from tienlen import _guandan

    Result, record, interleave, med = api["Result"], api["record"], api["interleave"], api["med"]
    ratio, iqr, skip = api["ratio"], api["iqr"], api["skip"]
    state = _guandan.GdState(_guandan.deal(cfg.seed), 2, 0)
    n = 200 if cfg.quick else 1000
    seeds = iter(range(10**9))

    def playouts():
        return state.playouts(next(seeds) * n, n)[1]     # decisions made

    def plan_playouts():
        return state.playouts(next(seeds) * n, n // 4, _guandan.PLAN)[1]

    sides = {"playouts": playouts, "plan": plan_playouts}
    game, os_why = api["open_spiel"]()
    if game is not None:
        sides["openspiel"] = _ddz_decisions_side(game, random.Random(cfg.seed),
                                                 20 if cfg.quick else 100, cfg.rounds + 1)
    s = interleave(sides, cfg.rounds)
    rate = 1e9 / med(s["playouts"])
    record(Result("Guandan native random playouts (decisions/s, one core)",
                  "decisions/s >= 1,000,000 per core", rate, "/s", rate >= 1e6,
                  {"playouts_per_call": n}))
    goal = "native random playout decisions/s >= 1.5x OpenSpiel dou_dizhu random-agent decisions/s"
    name = "Guandan native random playouts vs OpenSpiel dou_dizhu (Python random agent)"
    if "openspiel" in s:
        r = ratio(s["openspiel"], s["playouts"])
        record(Result(name, goal, r, "x", r >= 1.5,
                      {"guandan_decisions_per_s": rate,
                       "openspiel_decisions_per_s": 1e9 / med(s["openspiel"]),
                       "iqr": iqr(s["openspiel"], s["playouts"])}))
    else:
        skip(name, goal, os_why)
    plan_rate = 1e9 / med(s["plan"])
    record(Result("Guandan native PLAN playouts (decisions/s, one core)", "", plan_rate, "/s",
                  None, {"playouts_per_call": n // 4,
                         "random_over_plan": round(ratio(s["plan"], s["playouts"]), 2)}))


def bench_guandan_game(cfg, api) -> None:
    from tienlen.games.tienlen.game import Game as TGame
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
