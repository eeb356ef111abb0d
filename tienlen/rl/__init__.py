"""Reinforcement-learning environments on the native cores (``pip install "tienlen[rl]"``),
written once over a game's encoder (``tienlen/games/<game>/encoding.py``, found through the
registry: ``get_spec(name).encoder()``).

==============================  ==========================================================
``NativeVectorEnv(game, n)``    Gymnasium VectorEnv over N native games (:mod:`.vector`)
``NativeEnv(game)``             Gymnasium single-seat env against the game's opponents
                                (:mod:`.gym_env`)
``NativeAECEnv(game)``          PettingZoo AEC env, every seat an agent (:mod:`.aec`);
                                ``make_env(game)`` wraps it in PettingZoo's order check
``NativeVecEnv(n)``             the native games as a Stable-Baselines3 VecEnv (:mod:`.sb3`)
``TienlenVectorEnv(n)``,        the same classes with each game bound, taking the game's
``TienlenEnv(opponents)``,      keywords; ``env()`` / ``raw_env()`` are the default game's
``TienlenAECEnv``, ``env()``,   (Tiến Lên's) AEC factories, ``guandan_env()`` Guandan's
``GuandanVectorEnv(n)``,        (:mod:`.games`)
``GuandanEnv()``,
``GuandanAECEnv``,
``guandan_env()``
==============================  ==========================================================

The layouts are each game's (``tienlen.games.tienlen.encoding``,
``tienlen.games.guandan.encoding``, ``docs/rl.md``); the trained-policy bots (``ppo:``,
``dmc:``) are bots of their games (``tienlen.games.<game>.learned``). What the envs of
every game share (errors, argument checks, the masked action space, the AEC env's seats)
is in :mod:`.common`, :mod:`.spaces` and :mod:`.seat_aec`, which import no game. Every name
loads on first use: ``import tienlen.rl`` loads no game, and a Guandan env none of Tiến
Lên's modules. Submodules import pettingzoo / gymnasium / torch only when used.

>>> import tienlen.rl as rl
>>> env = rl.TienlenEnv(opponents=("L1", "L1", "L1"))
>>> obs, info = env.reset(seed=2)
>>> env.step(487)
Traceback (most recent call last):
...
tienlen.errors.IllegalActionError: action 487 is outside the action mask: ...
>>> issubclass(rl.GuandanVectorEnv, rl.NativeVectorEnv)
True
"""

from __future__ import annotations

from typing import Any

from .._moved import moved_name

__all__ = ["NativeVectorEnv", "NativeEnv", "NativeAECEnv", "make_env", "NativeVecEnv",
           "env", "raw_env", "TienlenAECEnv", "TienlenEnv", "VectorObservation",
           "TienlenVectorEnv", "IllegalActionError", "OpponentError",
           "guandan_env", "guandan_raw_env", "GuandanAECEnv", "GuandanEnv", "GuandanVectorEnv"]

_LAZY = {
    "IllegalActionError": "common", "OpponentError": "common",
    "NativeVectorEnv": "vector", "NativeEnv": "gym_env", "VectorObservation": "gym_env",
    "NativeAECEnv": "aec", "make_env": "aec",
    "NativeVecEnv": "sb3",
}


def __getattr__(name: str) -> Any:
    import importlib

    module = _LAZY.get(name)
    if module is not None:
        return getattr(importlib.import_module(f".{module}", __name__), name)
    from .games import env_name

    found = env_name(name)
    if found is None:
        return moved_name(__name__, name)
    kind = {"vector": "vector", "single": "gym_env"}.get(found[1], "aec")
    return getattr(importlib.import_module(f".{kind}", __name__), name)


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
