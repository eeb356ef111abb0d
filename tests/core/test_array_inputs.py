"""The standing test of issue 24: every array that enters a native loop, attacked every way.

The functions are *found*, not listed: every function and method of the two core stubs
(tienlen/_core.pyi, tienlen/_guandan.pyi, parsed with ``ast``) and of the modules of
``tienlen.rl`` that has a parameter annotated with an array type. Each found (function,
parameter) needs a recipe in RECIPES below (how to call it well, and what comes back); a
function found without one FAILS test_every_array_parameter_has_a_recipe, so a new
function is covered the day it is added.

Each array parameter is then given, one at a time (the others stay good):

- a subclass whose ``shape`` lies: a 1-row or 0-row array claiming the good shape, and the
  good array claiming 2**40 rows;
- a subclass whose ``copy``, ``__array__``, ``__len__``, ``__index__``, ``__iter__``,
  ``tolist``, ``astype`` and ``reshape`` write other values into the original;
- read-only, strided (every other row), Fortran-ordered, unaligned, byte-swapped and
  other-dtype copies of the good values, a zero-length array and a list;
- for inputs, a second thread writing other values into it during the calls.

The rule each call is held to: it raises ``ValueError`` (the cores' one error class for
bad arguments, including a wrong type: src/README.md), or it gives exactly the answer it
gives for a plain ndarray holding the same data (for the lying subclasses: the data the
buffer really holds; for the mutating ones: the unmodified values, and the methods were
never called; for the racing writer: the answer for one of the two arrays the writer
alternates between). Any other exception fails; a crash or a read of stray memory fails the
run (CI runs this file under AddressSanitizer: .ci/asan). Seconds by default;
``TIENLEN_SOAK=1`` runs many more racing rounds.
"""

from __future__ import annotations

import ast
import importlib
import os
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import tienlen
from tienlen import _core, _guandan

SOAK = os.environ.get("TIENLEN_SOAK") == "1"
ROUNDS = 400 if SOAK else 12
PACKAGE = Path(tienlen.__file__).parent


# ---------------------------------------------------------------- discovery

def _array_aliases(tree: ast.Module) -> set[str]:
    """Names a module defines as an array type (``_U64Array: TypeAlias = npt.NDArray[...]``)."""
    names = set()
    for node in tree.body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value:
            if "NDArray" in ast.unparse(node.value):
                names.add(node.target.id)
    return names


def _is_array(annotation: ast.expr | None, aliases: set[str]) -> bool:
    """Whether an annotation is an array type, or a union with one (``X | None``)."""
    if annotation is None:
        return False
    if isinstance(annotation, ast.BinOp) and isinstance(annotation.op, ast.BitOr):
        return _is_array(annotation.left, aliases) or _is_array(annotation.right, aliases)
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        return _is_array(ast.parse(annotation.value, mode="eval").body, aliases)
    if isinstance(annotation, ast.Subscript):
        head = ast.unparse(annotation.value)
        if head.endswith(("Optional", "Union")):
            inner = annotation.slice
            parts = inner.elts if isinstance(inner, ast.Tuple) else [inner]
            return any(_is_array(p, aliases) for p in parts)
        return head.endswith("NDArray")
    text = ast.unparse(annotation)
    return text in aliases or text.endswith(("ndarray", "ArrayLike", "NDArray"))


def _public(name: str) -> bool:
    return not name.startswith("_") or name in ("__init__", "__call__")


def _array_params(path: Path, module: str) -> dict[str, list[str]]:
    """``{"module.func" or "module.Class.method": [array parameter names]}`` of a file."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    aliases = _array_aliases(tree)
    found: dict[str, list[str]] = {}

    def visit(fn: ast.FunctionDef | ast.AsyncFunctionDef, qual: str) -> None:
        args = fn.args
        params = [a for a in args.posonlyargs + args.args + args.kwonlyargs
                  if _is_array(a.annotation, aliases)]
        if params:
            found[qual] = [a.arg for a in params]

    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and _public(node.name):
            visit(node, f"{module}.{node.name}")
        elif isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and _public(item.name):
                    visit(item, f"{module}.{node.name}.{item.name}")
    return found


def discovered() -> dict[str, list[str]]:
    found = _array_params(PACKAGE / "_core.pyi", "tienlen._core")
    found.update(_array_params(PACKAGE / "_guandan.pyi", "tienlen._guandan"))
    for path in sorted((PACKAGE / "rl").glob("*.py")):
        if path.stem != "__init__":
            found.update(_array_params(path, f"tienlen.rl.{path.stem}"))
    return found


FOUND = discovered()


# ---------------------------------------------------------------- recipes

@dataclass
class Param:
    good: Callable[[], np.ndarray]       # a fresh good array
    bad: Callable[[], np.ndarray] | None = None   # what a racing writer alternates with
    bad_valid: bool = False              # `bad` is itself a good input (its answer counts)
    out: bool = False                    # an out= buffer (written, not read)


@dataclass
class Recipe:
    params: dict[str, Param]
    run: Callable[[dict[str, Any]], Any]  # call with these arrays; returns what to compare
    needs: str | None = None              # an optional dependency the call imports
    # Known open findings on another branch: cases that may fail until it merges.
    open_finding: str | None = None


RNG = np.random.default_rng(24)
N = 8                                            # rows of every good array (few: the racing
                                                 # writer's numpy stores keep the GIL)


def _masks() -> np.ndarray:
    return RNG.integers(0, 1 << 52, N, dtype=np.uint64) & np.uint64(0x0F0F0F0F0F0F0)


def _codes() -> np.ndarray:
    return _core.classify_many(np.array([1 << k for k in range(N)], np.uint64))


def _const(arr: np.ndarray) -> Callable[[], np.ndarray]:
    return lambda: arr.copy()


HANDS = _const(_masks())
PILES = _const(np.array([0, _core.classify(1), 0, _core.classify(0b11 << 4), 0, 0,
                         _core.classify(1 << 9), 0][:N], np.uint32))
LOCKED = _const(np.array([False, True] * (N // 2)))
MUST = _const(np.full(N, -1, np.int8))
CODES = _const(_codes())
BAD_MASKS = _const(np.full(N, 1 << 60, np.uint64))
BAD_CODES = _const(np.full(N, 0xFFFFFFFF, np.uint32))

GD_HANDS = _const(np.array([[0b1111 << (4 * k), 0b0011 << (4 * k)] for k in range(N)], np.uint64))
GD_LEVELS = _const(np.arange(2, 2 + N, dtype=np.int64))
GD_PILES = _const(np.array([0, _guandan.make_code(_guandan.SINGLE, 1, 2)] * (N // 2), np.uint32))


def _state_case() -> tuple[_core.GameState, np.ndarray, np.ndarray, np.ndarray]:
    state = _core.GameState(_core.deal(5))
    unseen = _core.FULL_DECK & ~state.hand(state.turn)
    deals, _ = _core.scored_deals(state, unseen, N, 1, [])
    bad = deals.copy()
    others = [p for p in range(4) if p != state.turn]
    bad[:, others[0]] = unseen                      # one seat holding every hidden card
    bad[:, others[1:]] = 0
    return state, deals, bad, state.legal_moves()[:3]


STATE, DEALS, BAD_DEALS, MOVES = _state_case()


def _rl_game() -> _core.RLGame:
    g = _core.RLGame(4)
    g.reset(3)
    return g


def _vec(n: int = N) -> _core.VecGames:
    v = _core.VecGames(n, opponents=(_core.GREEDY,) * 3)
    v.reset(1)
    return v


def _vec_state(v: _core.VecGames) -> tuple[Any, ...]:
    return (v.obs.copy(), v.action_mask.copy(), v.reward.copy(), v.terminated.copy(),
            v.places.copy(), v.error.copy())


def _first_legal() -> np.ndarray:
    v = _vec()
    actions = v.action_mask.argmax(axis=1).astype(np.int64)
    v.close()
    return actions


def _vec_step(a: dict[str, Any]) -> Any:
    v = _vec()
    try:
        return v.step(a["actions"]), _vec_state(v)
    finally:
        v.close()


def _vec_reset(a: dict[str, Any]) -> Any:
    v = _vec()
    try:
        v.reset(a["seed"])
        return _vec_state(v), v.game_state(N - 1).key()
    finally:
        v.close()


def _vec_init(a: dict[str, Any]) -> Any:
    v = _core.VecGames(N, opponents=(_core.GREEDY,) * 3, seed=a["seed"])
    try:
        return _vec_state(v), v.game_state(N - 1).key()
    finally:
        v.close()


def _vec_cards(a: dict[str, Any]) -> Any:
    v = _vec()
    try:
        return v.legal_action_cards(N - 1, a["out"])
    finally:
        v.close()


def _sb3_first_legal() -> np.ndarray:
    """Each env's first legal action in NativeVecEnv's own first deal (its seed and
    opponents are not _vec()'s, so _first_legal's actions would be refused there)."""
    from tienlen.rl.sb3 import NativeVecEnv
    env = NativeVecEnv(N)
    try:
        env.reset()
        return env.action_masks().argmax(axis=1).astype(np.int64)
    finally:
        env.close()


def _sb3_step(a: dict[str, Any]) -> Any:
    from tienlen.rl.sb3 import NativeVecEnv
    env = NativeVecEnv(N)
    try:
        env.reset()
        env.step_async(a["actions"])
        return env.step_wait()[:3]
    finally:
        env.close()


def _masked_sample_with(a: dict[str, Any]) -> Any:
    from tienlen.rl.spaces import MaskedDiscrete
    space = MaskedDiscrete(_core.RL_NUM_ACTIONS, seed=0)
    if a["mask"] is not None and a["probability"] is not None:
        return int(space.sample(mask=a["mask"])), int(space.sample(probability=a["probability"]))
    return int(space.sample(mask=a["mask"], probability=a["probability"]))


def _sample_mask() -> np.ndarray:
    mask = np.zeros(_core.RL_NUM_ACTIONS, np.int8)
    mask[[0, 3, 7, 100]] = 1
    return mask


def _gd_vec(seed: Any = 5) -> _guandan.GdVecGames:
    return _guandan.GdVecGames(N, learner_seats=(0,), policies=(_guandan.GREEDY,) * 4, seed=seed)


def _gd_vec_state(v: _guandan.GdVecGames) -> tuple[Any, ...]:
    return (v.obs.copy(), v.seat.copy(), v.phase.copy(), v.num_legal.copy(), v.can_pass.copy(),
            v.reward.copy(), v.terminated.copy(), v.places.copy(), v.episodes.copy(),
            tuple(v.table(i).hands for i in range(N)))


def _gd_first_legal() -> np.ndarray:
    """Each table's first listed action (a lead cannot pass), as GuandanVectorEnv reads it."""
    v = _gd_vec()
    try:
        return np.where(v.num_legal > 0, 1, 0).astype(np.int64)
    finally:
        v.close()


def _gd_vec_step(a: dict[str, Any]) -> Any:
    v = _gd_vec()
    try:
        return v.step(a["actions"]), _gd_vec_state(v)
    finally:
        v.close()


def _gd_vec_reset(a: dict[str, Any]) -> Any:
    v = _gd_vec()
    try:
        v.reset(a["seed"])
        return _gd_vec_state(v)
    finally:
        v.close()


def _gd_vec_init(a: dict[str, Any]) -> Any:
    v = _gd_vec(a["seed"])
    try:
        return _gd_vec_state(v)
    finally:
        v.close()


def _gd_gym_vector_step(a: dict[str, Any]) -> Any:
    from tienlen.rl import GuandanVectorEnv
    env = GuandanVectorEnv(N, policies=("greedy",) * 4)
    try:
        env.reset(seed=5)
        obs, reward, terminated, _, info = env.step(a["actions"])
        return obs["observation"], obs["action_mask"], reward, terminated, info["num_legal"]
    finally:
        env.close()


GD_SEEDS = _const(np.arange(N, dtype=np.uint64) * np.uint64(7919))
GD_OTHER_SEEDS = _const(np.arange(N, dtype=np.uint64) + np.uint64(100))


def _out(dtype: Any, *shape: int) -> Callable[[], np.ndarray]:
    return lambda: np.zeros(shape, dtype)


RECIPES: dict[str, Recipe] = {
    "tienlen._core.classify_many": Recipe(
        {"masks": Param(HANDS, BAD_MASKS), "out": Param(_out(np.uint32, N), out=True)},
        lambda a: _core.classify_many(a["masks"], 0, a["out"])),
    "tienlen._core.beats_many": Recipe(
        {"play_codes": Param(CODES, BAD_CODES), "pile_codes": Param(CODES, BAD_CODES),
         "out": Param(_out(np.bool_, N), out=True)},
        lambda a: _core.beats_many(a["play_codes"], a["pile_codes"], 0, a["out"])),
    "tienlen._core.count_legal_moves_many": Recipe(
        {"hands": Param(HANDS, BAD_MASKS), "pile_codes": Param(PILES, BAD_CODES),
         "locked_out": Param(LOCKED, lambda: ~LOCKED(), bad_valid=True),
         "must_include": Param(MUST, _const(np.full(N, 100, np.int8))),
         "out": Param(_out(np.int64, N), out=True)},
        lambda a: _core.count_legal_moves_many(a["hands"], a["pile_codes"], 0, a["locked_out"],
                                               a["must_include"], a["out"])),
    "tienlen._core.legal_moves_many": Recipe(
        {"hands": Param(HANDS, BAD_MASKS), "pile_codes": Param(PILES, BAD_CODES),
         "locked_out": Param(LOCKED, lambda: ~LOCKED(), bad_valid=True),
         "must_include": Param(MUST, _const(np.full(N, 100, np.int8)))},
        lambda a: _core.legal_moves_many(a["hands"], a["pile_codes"], 0, a["locked_out"],
                                         a["must_include"])),
    "tienlen._core.random_playouts": Recipe(
        {"out": Param(_out(np.int8, N, 4), out=True)},
        lambda a: _core.random_playouts(N, 4, 1, 0, _core.GREEDY, a["out"])),
    "tienlen._core.random_playouts_range": Recipe(
        {"out": Param(_out(np.int8, N, 4), out=True)},
        lambda a: _core.random_playouts_range(3, N, 4, 1, 0, _core.GREEDY, a["out"])),
    "tienlen._core.deal_places": Recipe(
        {"deals": Param(_const(DEALS), _const(BAD_DEALS))},
        lambda a: _core.deal_places(STATE, a["deals"], MOVES, _core.GREEDY, 2)),
    "tienlen._core.RLGame.observe": Recipe(
        {"out": Param(_out(np.uint8, _core.RL_OBS_SIZE), out=True)},
        lambda a: _rl_game().observe(1, a["out"])),
    "tienlen._core.RLGame.action_mask": Recipe(
        {"out": Param(_out(np.int8, _core.RL_NUM_ACTIONS), out=True)},
        lambda a: _rl_game().action_mask(a["out"])),
    "tienlen._core.RLGame.legal_action_cards": Recipe(
        {"out": Param(_out(np.int8, _core.RL_NUM_ACTIONS, 52), out=True)},
        lambda a: _rl_game().legal_action_cards(a["out"])),
    "tienlen._core.MaskTable.map_array": Recipe(
        {"masks": Param(HANDS, _const(np.full(N, 1 << 63, np.uint64)))},
        lambda a: _core.MaskTable(lambda m: m * 3).map_array(a["masks"])),
    "tienlen._core.VecGames.__init__": Recipe(
        {"seed": Param(_const(np.arange(N, dtype=np.uint64)),
                       _const(np.arange(N, dtype=np.uint64) + 100), bad_valid=True)},
        _vec_init),
    "tienlen._core.VecGames.reset": Recipe(
        {"seed": Param(_const(np.arange(N, dtype=np.uint64)),
                       _const(np.arange(N, dtype=np.uint64) + 100), bad_valid=True)},
        _vec_reset),
    "tienlen._core.VecGames.step": Recipe(
        {"actions": Param(_first_legal, _const(np.full(N, -1, np.int64)))}, _vec_step),
    "tienlen._core.VecGames.legal_action_cards": Recipe(
        {"out": Param(_out(np.int8, _core.RL_NUM_ACTIONS, 52), out=True)}, _vec_cards),
    "tienlen._guandan.count_legal_plays_many": Recipe(
        {"hands": Param(GD_HANDS, _const(np.full((N, 2), 1 << 60, np.uint64))),
         "levels": Param(GD_LEVELS, _const(np.full(N, 99, np.int64))),
         "pile_codes": Param(GD_PILES, _const(np.full(N, 0xFFFFFFFF, np.uint32))),
         "out": Param(_out(np.int64, N), out=True)},
        lambda a: _guandan.count_legal_plays_many(a["hands"], a["levels"], a["pile_codes"], 0,
                                                  a["out"])),
    "tienlen._guandan.legal_plays_many": Recipe(
        {"hands": Param(GD_HANDS, _const(np.full((N, 2), 1 << 60, np.uint64))),
         "levels": Param(GD_LEVELS, _const(np.full(N, 99, np.int64))),
         "pile_codes": Param(GD_PILES, _const(np.full(N, 0xFFFFFFFF, np.uint32)))},
        lambda a: _guandan.legal_plays_many(a["hands"], a["levels"], a["pile_codes"])),
    "tienlen._guandan.GdTable.observe": Recipe(
        {"out": Param(_out(np.uint8, _guandan.GR_OBS_SIZE), out=True)},
        lambda a: _guandan.GdTable(seed=5).observe(2, a["out"])),
    "tienlen._guandan.GdVecGames.__init__": Recipe(
        {"seed": Param(GD_SEEDS, GD_OTHER_SEEDS, bad_valid=True)}, _gd_vec_init),
    "tienlen._guandan.GdVecGames.reset": Recipe(
        {"seed": Param(GD_SEEDS, GD_OTHER_SEEDS, bad_valid=True)}, _gd_vec_reset),
    "tienlen._guandan.GdVecGames.step": Recipe(
        {"actions": Param(_gd_first_legal, _const(np.full(N, -1, np.int64)))}, _gd_vec_step),
    # One class for every game's vector env (TienlenVectorEnv, GuandanVectorEnv are it with
    # the game bound): its actions enter through the same vector_actions, checked here on
    # Guandan's (Tiến Lên's reach it through NativeVecEnv.step_async's recipe and the
    # core's VecGames.step).
    "tienlen.rl.vector.NativeVectorEnv.step": Recipe(
        {"actions": Param(_gd_first_legal, _const(np.full(N, -1, np.int64)))},
        _gd_gym_vector_step, needs="gymnasium"),
    "tienlen.rl.sb3.NativeVecEnv.step_async": Recipe(
        {"actions": Param(_sb3_first_legal, _const(np.full(N, -1, np.int64)))}, _sb3_step,
        needs="stable_baselines3"),
    "tienlen.rl.spaces.MaskedDiscrete.sample": Recipe(
        {"mask": Param(_sample_mask, None), "probability": Param(
            lambda: _sample_mask().astype(np.float64) / 4, None)},
        _masked_sample_with, needs="gymnasium"),
}


# ---------------------------------------------------------------- the attacks

def _plain(arr: np.ndarray) -> np.ndarray:
    """A base-class view, taken without running any method of the subclass."""
    return np.ndarray.view(arr, np.ndarray)


def liar(arr: np.ndarray, shape: tuple[int, ...] | None = None,
         writes: np.ndarray | None = None, log: list[str] | None = None) -> np.ndarray:
    """`arr` as a subclass that lies about `shape` and/or whose Python-level methods write
    `writes` into the original buffer (and note their name in `log`) before answering."""
    namespace: dict[str, Any] = {}
    if shape is not None:
        namespace["shape"] = property(lambda self: shape)
        namespace["__len__"] = lambda self: shape[0]
    if writes is not None:
        target = _plain(arr)

        def hook(name: str) -> Callable[..., Any]:
            base = getattr(np.ndarray, name)

            def method(self: np.ndarray, *args: Any, **kwargs: Any) -> Any:
                assert log is not None
                log.append(name)
                target[...] = writes
                return base(_plain(self), *args, **kwargs)
            return method

        for name in ("copy", "__array__", "__len__", "__index__", "__iter__", "tolist",
                     "astype", "reshape", "__int__"):
            namespace[name] = hook(name)
    cls = type("Hostile", (np.ndarray,), namespace)
    return np.ndarray.view(arr, cls)


def _unaligned(good: np.ndarray) -> np.ndarray:
    raw = np.zeros(good.nbytes + 1, np.uint8)
    view = raw[1:].view(good.dtype).reshape(good.shape)
    view[...] = good
    return view


def _readonly(good: np.ndarray) -> np.ndarray:
    good.flags.writeable = False
    return good


def _other_dtypes(good: np.ndarray) -> list[tuple[str, np.ndarray]]:
    out = []
    for dt in (np.float64, np.int64, np.uint64, np.int32, np.uint32, np.int8, np.uint8, np.bool_,
               good.dtype.newbyteorder(">" if sys.byteorder == "little" else "<")):
        dt = np.dtype(dt)
        if dt == good.dtype:
            continue
        with np.errstate(all="ignore"):
            conv = good.astype(dt)
        if np.array_equal(conv.astype(good.dtype), good):   # the same values, another type
            out.append((f"dtype {dt.str}", conv))
    return out


def variants(good: np.ndarray, is_out: bool, bad: np.ndarray | None
             ) -> list[tuple[str, Any, np.ndarray | None, list[str] | None]]:
    """(name, argument, the plain array it must behave as (None: must be refused), the
    mutation log to check is empty)."""
    rows = good.shape
    huge = (1 << 40,) + rows[1:]
    writes = bad if bad is not None else np.roll(good, 1, axis=0)
    log: list[str] = []
    out: list[tuple[str, Any, np.ndarray | None, list[str] | None]] = [
        ("shape lies: 1 row claims all", liar(good[:1].copy(), rows), good[:1].copy(), None),
        ("shape lies: 0 rows claim all", liar(good[:0].copy(), rows), good[:0].copy(), None),
        ("shape lies: claims 2**40 rows", liar(good.copy(), huge), good.copy(), None),
        ("methods write the original", liar(good.copy(), None, writes, log), good.copy(), log),
        ("strided", np.repeat(good, 2, axis=0)[::2], good.copy(), None),
        ("unaligned", _unaligned(good), good.copy(), None),
        ("zero-length", good[:0].copy(), good[:0].copy(), None),
        ("read-only", _readonly(good.copy()), None if is_out else good.copy(), None),
        ("a list", good.tolist(), good.copy(), None),
    ]
    if good.ndim == 2:
        out.append(("Fortran order", np.asfortranarray(good), good.copy(), None))
    out += [(name, arr, good.copy(), None) for name, arr in _other_dtypes(good)]
    return out


def outcome(recipe: Recipe, args: dict[str, Any]) -> tuple[str, Any]:
    """("error", None) for a ValueError, ("value", comparable) for an answer; anything else
    raised is the test's failure."""
    try:
        result = recipe.run(args)
    except ValueError:
        return "error", None
    return "value", _digest(result)


def _digest(x: Any) -> Any:
    if isinstance(x, np.ndarray):
        plain = _plain(x)
        return ("array", plain.dtype.str, plain.shape, plain.tobytes())
    if isinstance(x, (tuple, list)):
        return tuple(_digest(v) for v in x)
    if isinstance(x, dict):
        return tuple(sorted((k, _digest(v)) for k, v in x.items()))
    return x


def _cases() -> list[Any]:
    cases = []
    for qual, recipe in RECIPES.items():
        for name in recipe.params:
            marks = []
            if recipe.open_finding:
                marks.append(pytest.mark.xfail(reason=recipe.open_finding, strict=False))
            cases.append(pytest.param(qual, name, id=f"{qual}:{name}", marks=marks))
    return cases


def _good_args(recipe: Recipe) -> dict[str, Any]:
    return {k: p.good() for k, p in recipe.params.items()}


def _skip_without(recipe: Recipe) -> None:
    if recipe.needs:
        pytest.importorskip(recipe.needs)


# ---------------------------------------------------------------- the tests

def test_every_array_parameter_has_a_recipe() -> None:
    """Found in the stubs / tienlen.rl == covered here, both ways: a new function (or a new
    array parameter) fails until it has a recipe, a removed one until its recipe goes."""
    assert FOUND, "discovery found nothing: the stubs or tienlen/rl moved"
    missing = {q: [p for p in ps if q not in RECIPES or p not in RECIPES[q].params]
               for q, ps in FOUND.items()}
    missing = {q: ps for q, ps in missing.items() if ps}
    assert not missing, f"array parameters with no recipe in tests/test_array_inputs.py: {missing}"
    stale = {q: [p for p in r.params if p not in FOUND.get(q, [])] for q, r in RECIPES.items()}
    stale = {q: ps for q, ps in stale.items() if ps}
    assert not stale, f"recipes for parameters the stubs / tienlen.rl no longer have: {stale}"
    # The discovery itself, on the cases the issue named.
    for qual in ("tienlen._guandan.count_legal_plays_many", "tienlen._core.VecGames.step",
                 "tienlen._core.VecGames.reset", "tienlen._core.RLGame.observe",
                 "tienlen._core.deal_places", "tienlen._core.MaskTable.map_array",
                 "tienlen._guandan.GdTable.observe", "tienlen._guandan.GdVecGames.step",
                 "tienlen._guandan.GdVecGames.reset"):
        assert qual in FOUND, qual


@pytest.mark.parametrize("qual,param", _cases())
def test_hostile_arrays_are_refused_or_answered_as_their_real_data(qual: str, param: str) -> None:
    recipe = RECIPES[qual]
    _skip_without(recipe)
    spec = recipe.params[param]
    good = spec.good()
    for name, arg, behaves_as, log in variants(good, spec.out, None if spec.bad is None
                                               else spec.bad()):
        args = _good_args(recipe)
        args[param] = arg
        got = outcome(recipe, args)
        if log is not None:
            assert log == [], f"{qual}({param}: {name}) called {sorted(set(log))} of its argument"
            assert got[0] == "value", f"{qual}({param}: {name}) refused a good array"
        if behaves_as is None:
            assert got[0] == "error", f"{qual}({param}: {name}) was accepted"
            continue
        if got[0] == "error":
            continue
        args[param] = behaves_as
        want = outcome(recipe, args)
        assert got == want, f"{qual}({param}: {name}) answered other than for its real data"


@pytest.mark.parametrize("qual,param", [c for c in _cases()
                                        if not RECIPES[c.values[0]].params[c.values[1]].out])
def test_a_second_thread_writing_the_input_never_changes_an_answer(qual: str, param: str) -> None:
    recipe = RECIPES[qual]
    _skip_without(recipe)
    spec = recipe.params[param]
    if spec.bad is None:
        pytest.skip("no alternative values for a racing writer")     # only the open finding
    good, bad = spec.good(), spec.bad()
    args = _good_args(recipe)
    want = {outcome(recipe, args)}
    if spec.bad_valid:
        args[param] = bad
        want.add(outcome(recipe, args))
    want.add(("error", None))
    shared = good.copy()
    args[param] = shared
    stop = threading.Event()

    def writer() -> None:
        while not stop.is_set():
            shared[...] = bad
            shared[...] = good

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    thread = threading.Thread(target=writer)
    thread.start()
    try:
        for _ in range(ROUNDS):
            got = outcome(recipe, args)
            assert got in want, f"{qual}({param}) answered for neither array the writer wrote"
    finally:
        stop.set()
        thread.join()
        sys.setswitchinterval(interval)


def test_the_writer_test_would_see_a_torn_answer() -> None:
    """The racing check is not vacuous: an answer computed from a mixture of the two arrays
    (what reading the caller's array during the loop gives) is in neither accepted set."""
    recipe = RECIPES["tienlen._core.VecGames.reset"]
    spec = recipe.params["seed"]
    good, bad = spec.good(), spec.bad()
    mixed = good.copy()
    mixed[N // 2:] = bad[N // 2:]
    answers = {outcome(recipe, {"seed": x}) for x in (good, bad, mixed)}
    assert len(answers) == 3


def test_lying_and_mutating_arrays_would_be_caught() -> None:
    """The harness's own hostile arrays do what they claim (so a pass above means something)."""
    good = np.arange(4, dtype=np.uint64)
    assert liar(good[:1].copy(), (4,)).shape == (4,)
    log: list[str] = []
    hostile = liar(good.copy(), None, np.zeros(4, np.uint64), log)
    assert _plain(hostile.copy()).tolist() == [0, 0, 0, 0] and log == ["copy"]
    # A wrong answer is told apart from a right one.
    recipe = RECIPES["tienlen._core.count_legal_moves_many"]
    args = _good_args(recipe)
    right = outcome(recipe, args)
    args["hands"] = np.roll(args["hands"], 1)
    assert outcome(recipe, args) != right
