# Type stub for the native core (src/_core.pyx, built as tienlen._core).
#
# Cython writes no annotations that a type checker can read, so this file states the types
# of every name the module exports. tests/test_core_stub.py compares it with the built
# module (names both ways, constant values, and every signature inspect can read), so a
# function added to, renamed in or changed in src/ fails the suite until it is stated here.
#
# Arguments: every int argument is taken by __index__ (an int or a NumPy integer; bools,
# floats and strings are refused with ValueError at run time), hence SupportsIndex. Masks are
# 52-bit card masks (bit = rank * 4 + suit), codes are packed combo codes
# (kind << 12 | ncards << 6 | top). Batch functions take exact-dtype, C-contiguous arrays.

from collections.abc import Callable, Iterable, Sequence
from typing import Final, Literal, NoReturn, SupportsIndex, TypeAlias

from typing_extensions import disjoint_base

import numpy as np
import numpy.typing as npt

_U64Array: TypeAlias = npt.NDArray[np.uint64]
_U32Array: TypeAlias = npt.NDArray[np.uint32]
# GameState.key(): hands, pile mask, pile code, pile owner, turn, locked mask, finishing
# order, must_include card, rule flags, played mask.
_StateKey: TypeAlias = tuple[
    tuple[int, ...], int, int, int, int, int, tuple[int, ...], int, int, int
]

# Combination kinds (the kind field of a combo code).
SINGLE: Final = 1
PAIR: Final = 2
TRIPLE: Final = 3
QUAD: Final = 4
SEQUENCE: Final = 5
DOUBLE_SEQUENCE: Final = 6

# Rule flags.
NO_TWOS_IN_SEQUENCES: Final = 1

FULL_DECK: Final = 0xFFFFFFFFFFFFF
MAX_MOVES: Final = 4194304
MAX_MOVES_13_CARDS: Final = 486
MAX_SAMPLES: Final = 16777216
MAX_PLACES: Final = 268435456
MAX_GAMES: Final = 1073741824

# Playout policies.
RANDOM: Final = 0
GREEDY: Final = 1
PLAN: Final = 2

# The RL environments (src/rlenv.pxi, layout in docs/rl.md).
RL_OBS_SIZE: Final = 468
VEC_MAX_THREADS: Final = 64
RL_NUM_ACTIONS: Final = 487
RL_HISTORY: Final = 4

# Reason codes of GameState.check_play / check_pass (minus them from try_play / try_pass).
OK: Final = 0
GAME_OVER: Final = 1
CARDS_NOT_IN_HAND: Final = 2
NOT_A_COMBINATION: Final = 3
MUST_INCLUDE_LOWEST: Final = 4
LOCKED_OUT: Final = 5
DOES_NOT_BEAT: Final = 6
CANNOT_PASS_ON_LEAD: Final = 7
REASON_NAMES: Final[dict[int, str]]
# Cython's doctest table (autotestdict): docstring examples by function name and line.
__test__: Final[dict[str, str]]

# ---------------------------------------------------------------- combo codes

def code_kind(code: SupportsIndex) -> int: ...
def code_len(code: SupportsIndex) -> int: ...
def code_top(code: SupportsIndex) -> int: ...
def make_code(kind: SupportsIndex, ncards: SupportsIndex, top: SupportsIndex) -> int: ...
def classify(mask: SupportsIndex, flags: SupportsIndex = 0) -> int: ...
def beats(code: SupportsIndex, pile_code: SupportsIndex, flags: SupportsIndex = 0) -> bool: ...
def is_two_combo(code: SupportsIndex) -> bool: ...

# ---------------------------------------------------------------- the rule table

def cut_class(code: SupportsIndex) -> int: ...
def cut_targets(
    code: SupportsIndex, flags: SupportsIndex = 0, out_of_turn: bool = False
) -> tuple[int, ...]: ...
def cutters(
    pile_code: SupportsIndex, flags: SupportsIndex = 0, out_of_turn: bool = False
) -> tuple[int, ...]: ...
def instant_win(hand: SupportsIndex, flags: SupportsIndex = 0) -> int: ...

# ---------------------------------------------------------------- legal moves and deals

def count_legal_moves(
    hand: SupportsIndex,
    pile_code: SupportsIndex = 0,
    flags: SupportsIndex = 0,
    locked_out: bool = False,
    must_include: SupportsIndex = -1,
) -> int: ...
def legal_moves(
    hand: SupportsIndex,
    pile_code: SupportsIndex = 0,
    flags: SupportsIndex = 0,
    locked_out: bool = False,
    must_include: SupportsIndex = -1,
) -> _U64Array: ...
def deal(seed: SupportsIndex, players: SupportsIndex = 4) -> tuple[int, ...]: ...
def plan(hand: SupportsIndex, flags: SupportsIndex = 0) -> tuple[int, ...]: ...
def split_score(hand: SupportsIndex, flags: SupportsIndex = 0) -> int: ...
def is_control_group(mask: SupportsIndex, flags: SupportsIndex = 0) -> bool: ...
def is_bomb_group(code: SupportsIndex, flags: SupportsIndex = 0) -> bool: ...

# ---------------------------------------------------------------- the game state

@disjoint_base  # a C extension type: it cannot be a second base of a class
class GameState:
    __hash__: None  # type: ignore[assignment]  # mutable, compared by value: unhashable
    def __init__(
        self,
        hands: Iterable[SupportsIndex],
        leader: SupportsIndex | None = -1,
        flags: SupportsIndex = 0,
        dealt: bool = False,
    ) -> None: ...
    @staticmethod
    def from_fields(
        hands: Iterable[SupportsIndex],
        pile_mask: SupportsIndex = 0,
        pile_owner: SupportsIndex = -1,
        turn: SupportsIndex = 0,
        locked_mask: SupportsIndex = 0,
        finished: Iterable[SupportsIndex] = (),
        must_include: SupportsIndex = -1,
        flags: SupportsIndex = 0,
        played_mask: SupportsIndex = 0,
    ) -> GameState: ...
    @property
    def players(self) -> int: ...
    @property
    def flags(self) -> int: ...
    @property
    def instant_win(self) -> int: ...
    @property
    def turn(self) -> int: ...
    @property
    def hands(self) -> tuple[int, ...]: ...
    def hand(self, seat: SupportsIndex) -> int: ...
    @property
    def pile_code(self) -> int: ...
    @property
    def pile_mask(self) -> int: ...
    @property
    def pile_owner(self) -> int: ...
    @property
    def locked_mask(self) -> int: ...
    @property
    def finished(self) -> tuple[int, ...]: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def loser(self) -> int: ...
    @property
    def must_include(self) -> int: ...
    @property
    def played_mask(self) -> int: ...
    def legal_moves(self) -> _U64Array: ...
    def count_legal_moves(self) -> int: ...
    def legal_moves_list(self) -> list[int]: ...
    def can_pass(self) -> bool: ...
    def check_play(self, mask: SupportsIndex) -> int: ...
    def check_pass(self) -> int: ...
    def apply(self, mask: SupportsIndex) -> int: ...
    def try_play(self, mask: SupportsIndex) -> int: ...
    def try_pass(self) -> int: ...
    def apply_checked(self, mask: SupportsIndex) -> None: ...
    def copy(self) -> GameState: ...
    def __copy__(self) -> GameState: ...
    def key(self) -> _StateKey: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __reduce__(self) -> tuple[Callable[[_StateKey], GameState], tuple[_StateKey]]: ...
    def playout(self, seed: SupportsIndex, policy: SupportsIndex = 0) -> tuple[int, ...]: ...
    def playout_moves(
        self, seed: SupportsIndex, policy: SupportsIndex = 0
    ) -> tuple[tuple[int, ...], list[int]]: ...

def _state_from_key(key: _StateKey) -> GameState: ...

# ---------------------------------------------------------------- sampling search

def flat_monte_carlo(
    state: GameState,
    unseen: SupportsIndex,
    samples: SupportsIndex,
    seed: SupportsIndex,
    policy: SupportsIndex = 1,
) -> tuple[_U64Array, npt.NDArray[np.int64]]: ...
def sampled_places(
    state: GameState,
    unseen: SupportsIndex,
    actions: Iterable[SupportsIndex] | None,
    samples: SupportsIndex,
    seed: SupportsIndex,
    policy: SupportsIndex = 2,
) -> npt.NDArray[np.int8]: ...

# ---------------------------------------------------------------- inference (src/search.pxi)

def scored_deals(
    state: GameState,
    unseen: SupportsIndex,
    samples: SupportsIndex,
    seed: SupportsIndex,
    records: Iterable[tuple[GameState, SupportsIndex, SupportsIndex, SupportsIndex]],
) -> tuple[_U64Array, npt.NDArray[np.int32]]: ...
def deal_places(
    state: GameState,
    deals: npt.ArrayLike,
    actions: Iterable[SupportsIndex] | None,
    policy: SupportsIndex = 2,
    seed: SupportsIndex = 0,
) -> npt.NDArray[np.int8]: ...

# ---------------------------------------------------------------- perfect-information solver

SOLVE_UNKNOWN: Final = 0
SOLVE_WIN: Final = 1
SOLVE_LOSS: Final = 2
SOLVE_LIMITS: Final[dict[int, Literal["nodes", "time"] | None]]

def solve(
    state: GameState,
    seat: SupportsIndex = -1,
    max_nodes: SupportsIndex = 50000000,
    max_ms: SupportsIndex = 10000,
    check_signals: object = True,
) -> tuple[int, tuple[int, ...], int, Literal["nodes", "time"] | None]: ...

# ---------------------------------------------------------------- batch API

def classify_many(
    masks: _U64Array, flags: SupportsIndex = 0, out: _U32Array | None = None
) -> _U32Array: ...
def _simd(enabled: bool | None = None) -> bool: ...
def beats_many(
    play_codes: _U32Array,
    pile_codes: _U32Array,
    flags: SupportsIndex = 0,
    out: npt.NDArray[np.bool_] | None = None,
) -> npt.NDArray[np.bool_]: ...
def count_legal_moves_many(
    hands: _U64Array,
    pile_codes: _U32Array | None = None,
    flags: SupportsIndex = 0,
    locked_out: npt.NDArray[np.bool_] | None = None,
    must_include: npt.NDArray[np.int8] | None = None,
    out: npt.NDArray[np.int64] | None = None,
) -> npt.NDArray[np.int64]: ...
def legal_moves_many(
    hands: _U64Array,
    pile_codes: _U32Array | None = None,
    flags: SupportsIndex = 0,
    locked_out: npt.NDArray[np.bool_] | None = None,
    must_include: npt.NDArray[np.int8] | None = None,
) -> tuple[npt.NDArray[np.int64], _U64Array]: ...
def random_playouts(
    n: SupportsIndex,
    players: SupportsIndex = 4,
    seed: SupportsIndex = 0,
    flags: SupportsIndex = 0,
    policy: SupportsIndex = 0,
    out: npt.NDArray[np.int8] | None = None,
) -> npt.NDArray[np.int8]: ...
def random_playouts_range(
    first: SupportsIndex,
    n: SupportsIndex,
    players: SupportsIndex = 4,
    seed: SupportsIndex = 0,
    flags: SupportsIndex = 0,
    policy: SupportsIndex = 0,
    out: npt.NDArray[np.int8] | None = None,
) -> npt.NDArray[np.int8]: ...
# The newer names of random_playouts / random_playouts_range (the same functions).
playouts = random_playouts
playouts_range = random_playouts_range
def record_playout(
    seed: SupportsIndex,
    index: SupportsIndex,
    players: SupportsIndex = 4,
    flags: SupportsIndex = 0,
    policy: SupportsIndex = 0,
) -> tuple[tuple[int, ...], list[int], tuple[int, ...]]: ...

# ---------------------------------------------------------------- RL environments

_I8Array: TypeAlias = npt.NDArray[np.int8]

@disjoint_base
class RLGame:
    def __init__(self, players: SupportsIndex = 4, flags: SupportsIndex = 0) -> None: ...
    @property
    def players(self) -> int: ...
    @property
    def flags(self) -> int: ...
    def reset(self, seed: SupportsIndex) -> None: ...
    def reset_hands(self, hands: Iterable[SupportsIndex], leader: SupportsIndex = -1) -> None: ...
    @property
    def turn(self) -> int: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def instant_win(self) -> int: ...
    @property
    def num_legal(self) -> int: ...
    @property
    def can_pass(self) -> bool: ...
    @property
    def finished(self) -> tuple[int, ...]: ...
    @property
    def hands(self) -> tuple[int, ...]: ...
    @property
    def leader(self) -> int: ...
    @property
    def history(self) -> tuple[tuple[int, int], ...]: ...
    def state(self) -> GameState: ...
    def legal_moves(self) -> _U64Array: ...
    def is_legal(self, action: object) -> bool: ...
    def action_mask_of(self, action: SupportsIndex) -> int: ...
    def step(self, action: SupportsIndex) -> None: ...
    def play_mask(self, mask: SupportsIndex) -> None: ...
    def observe(
        self, seat: SupportsIndex, out: npt.NDArray[np.uint8] | None = None
    ) -> npt.NDArray[np.uint8]: ...
    def action_mask(self, out: _I8Array | None = None) -> _I8Array: ...
    def legal_action_cards(self, out: _I8Array | None = None) -> _I8Array: ...
    def __copy__(self) -> RLGame: ...
    def copy(self) -> RLGame: ...
    def __deepcopy__(self, memo: object) -> RLGame: ...
    def __reduce__(self) -> NoReturn: ...  # raises TypeError: native state cannot be pickled

class ActionOutsideMaskError(ValueError): ...

@disjoint_base
class VecGames:
    def __init__(
        self,
        num_envs: SupportsIndex,
        players: SupportsIndex = 4,
        opponents: Iterable[SupportsIndex] | None = (0, 0, 0),
        learner_seat: SupportsIndex = 0,
        rewards: Sequence[float] | None = None,
        seed: SupportsIndex = 0,
        flags: SupportsIndex = 0,
        legal_masks: bool = False,
        on_error: Literal["raise", "flag"] = "raise",
        final_obs: bool = False,
    ) -> None: ...
    @property
    def num_envs(self) -> int: ...
    @property
    def players(self) -> int: ...
    @property
    def flags(self) -> int: ...
    @property
    def learner_seat(self) -> int: ...
    @property
    def self_play(self) -> bool: ...
    @property
    def raise_on_error(self) -> bool: ...
    @property
    def closed(self) -> bool: ...
    @property
    def obs(self) -> npt.NDArray[np.uint8]: ...
    @property
    def action_mask(self) -> _I8Array: ...
    @property
    def num_legal(self) -> npt.NDArray[np.int32]: ...
    @property
    def seat(self) -> _I8Array: ...
    @property
    def reward(self) -> npt.NDArray[np.float32]: ...
    @property
    def terminated(self) -> npt.NDArray[np.bool_]: ...
    @property
    def error(self) -> npt.NDArray[np.uint8]: ...
    @property
    def places(self) -> _I8Array: ...
    @property
    def final_rewards(self) -> npt.NDArray[np.float32]: ...
    @property
    def episodes(self) -> npt.NDArray[np.int64]: ...
    @property
    def legal(self) -> _U64Array | None: ...
    @property
    def final_obs(self) -> npt.NDArray[np.uint8] | None: ...
    @property
    def actions(self) -> npt.NDArray[np.int64]: ...
    def close(self) -> None: ...
    def reset(self, seed: SupportsIndex | _U64Array = 0) -> None: ...
    def step(self, actions: npt.NDArray[np.int64], threads: SupportsIndex = 1) -> int: ...
    def game_state(self, env: SupportsIndex) -> GameState: ...
    def legal_action_cards(self, env: SupportsIndex, out: _I8Array | None = None) -> _I8Array: ...
    def __reduce__(self) -> NoReturn: ...  # raises TypeError: native games cannot be pickled
