"""Reinforcement-learning environments on the native core (``pip install "tienlen[rl]"``).

==========================  ==============================================================
``env(players=4, ...)``     PettingZoo AEC env, every seat an agent (:mod:`.aec`)
``TienlenEnv(opponents)``   Gymnasium single-agent env against bots (:mod:`.gym_env`)
``TienlenVectorEnv(n)``     Gymnasium VectorEnv over N native games (:mod:`.vector`)
``VecGames(n)``             the raw array API of the vectorised env (``tienlen.games.tienlen.core``)
``NativeVecEnv(n)``         the native games as a Stable-Baselines3 VecEnv (:mod:`.sb3`)
``PolicyBot``               a trained MaskablePPO policy as a :class:`~tienlen.games.tienlen.bots.Bot`
``guandan_env()``           Guandan: PettingZoo AEC env, four agents (:mod:`.guandan_aec`)
``GuandanEnv()``            Guandan: Gymnasium single-seat env (:mod:`.guandan_gym`)
``GuandanVectorEnv(n)``     Guandan: Gymnasium VectorEnv over N native tables (:mod:`.guandan_vector`)
==========================  ==============================================================

All of them encode with their game's one native encoder; the layout is in :mod:`.encoding`,
:mod:`.guandan_encoding` and ``docs/rl.md``. What the envs of every game share (errors,
argument checks, the masked action space, the AEC env's seats) is in :mod:`.common`,
:mod:`.spaces` and :mod:`.seat_aec`, which import no game. Every name loads on first use:
``import tienlen.rl`` loads no game, and a Guandan env none of Tiến Lên's modules.
Submodules import pettingzoo / gymnasium / torch only when used.

>>> import tienlen.rl as rl
>>> rl.OBS_SIZE, rl.NUM_ACTIONS, rl.MAX_LEGAL    # action 0 passes, 1..486 index the moves
(468, 487, 486)
>>> env = rl.TienlenEnv(opponents=("L1", "L1", "L1"))
>>> obs, info = env.reset(seed=2)
>>> env.step(487)
Traceback (most recent call last):
...
tienlen.rl.common.IllegalActionError: action 487 is outside the action mask: ...
"""

from __future__ import annotations

from typing import Any

__all__ = ["env", "raw_env", "TienlenAECEnv", "TienlenEnv", "VectorObservation", "TienlenVectorEnv", "VecGames",
           "PolicyBot", "NativeVecEnv", "OBS_SIZE", "NUM_ACTIONS", "MAX_LEGAL", "HISTORY", "FIELDS",
           "IllegalActionError", "OpponentError", "place_rewards",
           "guandan_env", "GuandanAECEnv", "GuandanEnv", "GuandanVectorEnv"]

_LAZY = {
    "OBS_SIZE": "encoding", "NUM_ACTIONS": "encoding", "MAX_LEGAL": "encoding",
    "HISTORY": "encoding", "FIELDS": "encoding", "place_rewards": "encoding",
    "IllegalActionError": "common", "OpponentError": "common",
    "env": "aec", "raw_env": "aec", "TienlenAECEnv": "aec",
    "TienlenEnv": "gym_env", "VectorObservation": "gym_env",
    "TienlenVectorEnv": "vector", "VecGames": "vector",
    "PolicyBot": "policy_bot",
    "NativeVecEnv": "sb3",
    "guandan_env": "guandan_aec", "GuandanAECEnv": "guandan_aec",
    "GuandanEnv": "guandan_gym", "GuandanVectorEnv": "guandan_vector",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'tienlen.rl' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(f".{module}", __name__), name)


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
