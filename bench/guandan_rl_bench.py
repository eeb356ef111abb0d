"""compare.py rows for the Guandan RL envs (issue 26), kept in their own module. Measured in
one run, interleaved, against RLCard's ``doudizhu`` env stepped by random agents (the
closest large-action-space game RLCard has):

- the native vectorised env (``GdVecGames``), learner at seat 0 taking uniform random legal
  ids, the three other seats native RANDOM, one thread: learner steps per second, goal
  >= 100x RLCard's env steps per second;
- the legal-action features (``legal_action_features``: listing included) of a 27-card
  lead, per lead and per 775 plays (the issue's typical lead), goal <= 20 us;
- the PettingZoo AEC env (``tienlen.rl.guandan_env``), every agent uniform over its mask:
  agent steps per second, goal >= 10x RLCard's;
- the public env as a learner steps it (issue 37), ``GuandanVectorEnv(1024)`` with its
  defaults (copies of every array returned), in its two forms: ``"mask"``, the observation
  and the 2,048-wide ``action_mask`` every step and a uniform random legal id chosen from
  that mask (every row's nonzero entries, found by NumPy: :func:`pick_from_mask`); and
  ``action_form="features"``, the observation and every env's legal-action list with its
  features (``legal_features()``) every step and a uniform random row of each env's list.
  Learner steps per second, goal >= 100x RLCard's; and the mask form again with
  ``copy_mask=False`` (the core's mask handed out without a copy).
"""

from __future__ import annotations

import os
import random

import numpy as np

from tienlen import _guandan
from tienlen.rl.vector import _draw_legal as draw_legal


def _vec_side(n: int, calls: int, seed: int):
    v = _guandan.GdVecGames(n, learner_seats=(0,), policies=(_guandan.RANDOM,) * 4, seed=seed)
    rng = np.random.default_rng(seed)

    def side():
        for _ in range(calls):
            legal = v.num_legal.astype(np.int64)
            can_pass = v.can_pass.astype(np.int64)
            actions = (rng.random(n) * (legal + can_pass)).astype(np.int64) + (1 - can_pass)
            v.step(actions)
        return n * calls
    return side


def pick_from_mask(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniform random legal id per row of an (N, A) 0/1 action mask, as a learner without
    a network would pick it, reading nothing but the mask: the draw of
    ``env.action_space.sample(mask=...)`` (``tienlen.rl.vector._draw_legal``, the mask
    read as uint64 words). 0.31 ms for (1024, 2048) here, against 0.36 ms for NumPy's
    nonzero entries of the mask viewed as bool and 4.6 ms of the int8 mask itself (which
    alone would cap the row near 25x)."""
    return draw_legal(mask, rng)


def _public_side(n: int, calls: int, seed: int, form: str, copy_mask: bool = True):
    """GuandanVectorEnv(n) with its defaults (or ``copy_mask=False``), stepped as a learner
    steps it (see above)."""
    from tienlen.rl import GuandanVectorEnv

    env = GuandanVectorEnv(n, action_form=form, copy_mask=copy_mask)
    rng = np.random.default_rng(seed)
    state = {"obs": env.reset(seed=seed)[0]}

    def side():
        for _ in range(calls):
            if form == "mask":
                actions = pick_from_mask(state["obs"]["action_mask"], rng)
            else:
                offsets, ids, cards, reading = env.legal_features()
                counts = offsets[1:] - offsets[:-1]
                actions = ids[offsets[:-1] + (rng.random(n) * counts).astype(np.int64)]
            state["obs"] = env.step(actions)[0]
        return n * calls
    return side


def _leads(count: int, seed: int) -> tuple[list[tuple[int, int, int]], float]:
    rng = random.Random(seed)
    leads = []
    for k in range(count):
        once, twice = _guandan.deal(seed * 1000 + k)[k % 4]
        leads.append((once, twice, rng.randrange(2, 15)))
    plays = [_guandan.count_legal_plays(o, t, lv) for o, t, lv in leads]
    return leads, sum(plays) / len(plays)


def _features_side(leads):
    f = _guandan.legal_action_features

    def side():
        for once, twice, level in leads:
            f(once, twice, level)
        return len(leads)
    return side


def _aec_side(steps: int, seed: int, random_aec_side):
    from tienlen.rl import guandan_env

    return random_aec_side(guandan_env(), steps, seed)


def bench_guandan_rl(cfg, api: dict) -> None:
    Result, record, interleave, med, ratio, iqr, skip = (
        api["Result"], api["record"], api["interleave"], api["med"], api["ratio"], api["iqr"],
        api["skip"])
    g_vec = "Guandan vectorised env learner steps/s (1 thread) >= 100x RLCard doudizhu random-agent steps/s"
    g_feat = "Guandan legal-action features of a 27-card lead (775 plays) <= 20 us"
    g_aec = "Guandan PettingZoo AEC env steps/s >= 10x RLCard doudizhu random-agent steps/s"
    g_mask = ("Guandan public GuandanVectorEnv(1024), obs + 2,048-wide mask + a pick from it, "
              "learner steps/s >= 100x RLCard doudizhu random-agent steps/s")
    g_features = ("Guandan public GuandanVectorEnv(1024, action_form='features'), obs + every "
                  "legal action's features + a pick, learner steps/s >= 100x RLCard doudizhu")
    g_shared = ("Guandan public GuandanVectorEnv(1024, copy_mask=False), obs + the core's "
                "2,048-wide mask (no copy) + a pick from it, learner steps/s >= 100x RLCard")
    n = 256 if cfg.quick else 1024
    leads, mean_plays = _leads(100 if cfg.quick else 400, cfg.seed)
    sides = {"vec": _vec_side(n, 4 if cfg.quick else 16, cfg.seed),
             "features": _features_side(leads)}
    try:
        sides["public_mask"] = _public_side(1024, 2 if cfg.quick else 8, cfg.seed, "mask")
        sides["public_features"] = _public_side(1024, 2 if cfg.quick else 8, cfg.seed,
                                                "features")
        sides["public_shared"] = _public_side(1024, 2 if cfg.quick else 8, cfg.seed, "mask",
                                              copy_mask=False)
        public_why = ""
    except ImportError as e:
        public_why = f"gymnasium not installed ({e}); pip install -e '.[rl]'"
    try:
        sides["aec"] = _aec_side(300 if cfg.quick else 2000, cfg.seed, api["random_aec_side"])
        aec_why = ""
    except ImportError as e:
        aec_why = f"pettingzoo not installed ({e}); pip install -e '.[rl]'"
    rl_side, rl_why = api["rlcard_side"](cfg.seed, 300 if cfg.quick else 2000)
    if rl_side is not None:
        sides["rlcard"] = rl_side
    load = os.getloadavg()[0]
    s = interleave(sides, cfg.rounds)
    vec_rate = 1e9 / med(s["vec"])
    per_lead_us = med(s["features"]) / 1e3
    per_775_us = per_lead_us * 775 / mean_plays
    record(Result("Guandan 27-card lead features", g_feat, per_775_us, " us", per_775_us <= 20.0,
                  {"us_per_lead": per_lead_us, "mean_plays_per_lead": mean_plays,
                   "ns_per_play": per_lead_us * 1e3 / mean_plays, "load_avg": load}))
    if "rlcard" not in s:
        skip("Guandan vectorised env vs RLCard doudizhu", g_vec, rl_why)
        skip("Guandan AEC env vs RLCard doudizhu", g_aec, rl_why)
        skip("Guandan public env (mask) vs RLCard doudizhu", g_mask, rl_why)
        skip("Guandan public env (features) vs RLCard doudizhu", g_features, rl_why)
        skip("Guandan public env (mask, copy_mask=False) vs RLCard doudizhu", g_shared, rl_why)
        return
    rl_rate = 1e9 / med(s["rlcard"])
    r = ratio(s["rlcard"], s["vec"])
    record(Result("Guandan vectorised env vs RLCard doudizhu", g_vec, r, "x", r >= 100.0,
                  {"vec_learner_steps_per_s": vec_rate, "rlcard_steps_per_s": rl_rate,
                   "num_envs": n, "iqr": iqr(s["rlcard"], s["vec"]), "load_avg": load}))
    for form, goal in (("mask", g_mask), ("features", g_features), ("shared", g_shared)):
        name = (f"Guandan public env ({form}) vs RLCard doudizhu" if form != "shared" else
                "Guandan public env (mask, copy_mask=False) vs RLCard doudizhu")
        if f"public_{form}" not in s:
            skip(name, goal, public_why)
            continue
        r = ratio(s["rlcard"], s[f"public_{form}"])
        record(Result(name, goal, r, "x", r >= 100.0,
                      {"learner_steps_per_s": 1e9 / med(s[f"public_{form}"]),
                       "rlcard_steps_per_s": rl_rate, "num_envs": 1024,
                       "iqr": iqr(s["rlcard"], s[f"public_{form}"]), "load_avg": load}))
    if "aec" in s:
        r = ratio(s["rlcard"], s["aec"])
        record(Result("Guandan AEC env vs RLCard doudizhu", g_aec, r, "x", r >= 10.0,
                      {"aec_steps_per_s": 1e9 / med(s["aec"]), "rlcard_steps_per_s": rl_rate,
                       "iqr": iqr(s["rlcard"], s["aec"]), "load_avg": load}))
    else:
        skip("Guandan AEC env vs RLCard doudizhu", g_aec, aec_why)
