"""How :mod:`tienlen.rl` finds a game: its encoder through the registry, and the game-named
env classes (``TienlenVectorEnv``, ``GuandanEnv`` ...) as names over the generic envs.

Every registered game with an encoder (its spec's ``encoder()``) gets, by its title
(``encoder.title``, the game's name capitalised): ``<Title>VectorEnv`` (over
:class:`~tienlen.rl.vector.NativeVectorEnv`), ``<Title>Env`` (over
:class:`~tienlen.rl.gym_env.NativeEnv`), ``<Title>AECEnv`` (over
:class:`~tienlen.rl.aec.NativeAECEnv`) and the PettingZoo factories ``<name>_env`` and
``<name>_raw_env``; the registry's default game's are also ``env`` and ``raw_env``. Each is
made once, on first use (by the module of its kind: :mod:`.vector`, :mod:`.gym_env`,
:mod:`.aec`), and loads only its own game.

>>> from tienlen.rl.games import env_name
>>> env_name("GuandanVectorEnv")
('guandan', 'vector')
>>> env_name("env") == (DEFAULT_GAME, "aec_env"), env_name("Chess")
(True, None)
"""

from __future__ import annotations

import inspect
import threading
from typing import Any

from ..table.registry import DEFAULT_GAME, get_spec, spec_names

__all__ = ["encoder", "dmc", "env_name", "made", "bind_signature", "DEFAULT_GAME"]

_KINDS = (("VectorEnv", "vector"), ("AECEnv", "aec"), ("Env", "single"))
_MADE: dict[str, Any] = {}
_LOCK = threading.RLock()


def encoder(game: str) -> Any:
    """The RL encoder of the registered game ``game`` (ValueError if it has none)."""
    spec = get_spec(game)
    make = getattr(spec, "encoder", None)
    if make is None:
        raise ValueError(f"the game {game!r:.40} has no RL encoder")
    return make()


def dmc(game: str) -> Any:
    """What the Deep Monte Carlo trainer needs of the registered game ``game`` (its spec's
    ``dmc()``; ValueError if it has none)."""
    make = getattr(get_spec(game), "dmc", None)
    if make is None:
        raise ValueError(f"the game {game!r:.40} cannot be trained by tienlen.rl.dmc")
    return make()


def env_name(name: str) -> tuple[str, str] | None:
    """The game and kind a game-named env name stands for, or None: (game, "vector" /
    "aec" / "single" / "aec_env" / "aec_raw_env")."""
    if name in ("env", "raw_env"):
        return DEFAULT_GAME, f"aec_{name}"
    for suffix in ("_raw_env", "_env"):
        if name.endswith(suffix) and name[: -len(suffix)] in spec_names():
            return name[: -len(suffix)], f"aec{suffix}"
    for suffix, kind in _KINDS:
        title = name[: -len(suffix)]
        if name.endswith(suffix) and title[:1].isupper() and title.lower() in spec_names():
            return title.lower(), kind
    return None


def made(name: str, build: Any) -> Any:
    """The game-named class or factory ``name``, built by ``build()`` on first use and the
    same object ever after (isinstance checks and pickles need one class per name)."""
    with _LOCK:
        value = _MADE.get(name)
        if value is None:
            value = _MADE[name] = build()
        return value


def bind_signature(function: Any, source: Any, *extra: tuple[str, object]) -> None:
    """Give ``function`` (a game-named class's ``__init__``) the signature of ``source`` (its
    game's adapter's ``__init__``) plus the keyword-only ``extra`` parameters of the generic
    env, for ``help()`` and the docs."""
    params = list(inspect.signature(source).parameters.values())
    params += [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default)
               for name, default in extra]
    function.__signature__ = inspect.Signature(params)
