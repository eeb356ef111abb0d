# Type stub for the native Guandan core (src/guandan/_guandan.pyx, built as tienlen._guandan).
#
# Cython writes no annotations that a type checker can read, so this file states the types
# of every name the module exports. tests/test_guandan_stub.py compares it with the built
# module (names both ways, constant values, and every signature inspect can read), so a
# function added to, renamed in or changed in src/guandan/ fails the suite until it is
# stated here.
#
# Arguments: every int argument is taken by __index__ (an int or a NumPy integer; bools,
# floats and strings are refused with ValueError at run time), hence SupportsIndex. A hand
# is two 54-bit masks (once, twice): the card types held at least once and held twice.
# Play codes are kind << 12 | size << 6 | rank. Batch functions take exact-dtype arrays.

from collections.abc import Callable, Iterable
from typing import Final, SupportsIndex, TypeAlias

from typing_extensions import disjoint_base

import numpy as np
import numpy.typing as npt

_U64Array: TypeAlias = npt.NDArray[np.uint64]
_U32Array: TypeAlias = npt.NDArray[np.uint32]
_I64Array: TypeAlias = npt.NDArray[np.int64]
_Hand: TypeAlias = tuple[int, int]
_HandArg: TypeAlias = tuple[SupportsIndex, SupportsIndex]
# (once, twice, code) of one action; once == 0 is a pass.
_Action: TypeAlias = tuple[int, int, int]
# GdState.key(): hands, level, flags, team0, turn, pile, pile code, pile owner, passes,
# finishing order.
_StateKey: TypeAlias = tuple[
    tuple[_Hand, ...], int, int, int, int, _Hand, int, int, int, tuple[int, ...]
]

# Play kinds (the kind field of a play code).
SINGLE: Final = 1
PAIR: Final = 2
TRIPLE: Final = 3
FULL_HOUSE: Final = 4
STRAIGHT: Final = 5
THREE_PAIRS: Final = 6
PLATE: Final = 7
BOMB: Final = 8
STRAIGHT_FLUSH: Final = 9
JOKER_BOMB: Final = 10

# Rule flags.
NO_STRAIGHT_FLUSH: Final = 1
NO_ACE_TOP: Final = 2
BOMB_BY_RANK: Final = 4
NO_WILDS: Final = 8
ALL_FLAGS: Final = 15

# Ranks of the jokers, and every card type once.
SMALL_JOKER: Final = 15
BIG_JOKER: Final = 16
FULL_DECK: Final = 0x3FFFFFFFFFFFFF

# Bounds of the batch API.
MAX_PLAYS: Final = 134217728
MAX_ROWS: Final = 2147483648

# Playout policies.
RANDOM: Final = 0
GREEDY: Final = 1
PLAN: Final = 2
# Why plan_move chose its action (its first return value indexes this).
PLAN_REASONS: Final[tuple[str, ...]]

# GdState's reason codes: the name of each, and the ValueError-family base it maps to.
GS_REASON_NAMES: Final[tuple[str, ...]]
GS_REASON_BASE: Final[tuple[int, ...]]

# Cython's doctest table (autotestdict): docstring examples by function name and line.
__test__: Final[dict[str, str]]

# ---------------------------------------------------------------- play codes

def code_kind(code: SupportsIndex) -> int: ...
def code_size(code: SupportsIndex) -> int: ...
def code_rank(code: SupportsIndex) -> int: ...
def make_code(kind: SupportsIndex, size: SupportsIndex, rank: SupportsIndex) -> int: ...
def is_play_code(code: SupportsIndex, level: SupportsIndex, flags: SupportsIndex = 0) -> bool: ...
def wild_card(level: SupportsIndex, flags: SupportsIndex = 0) -> int: ...
def compare_value(code: SupportsIndex, level: SupportsIndex, flags: SupportsIndex = 0) -> int: ...
def classify(
    once: SupportsIndex, twice: SupportsIndex, level: SupportsIndex, flags: SupportsIndex = 0
) -> tuple[int, ...]: ...
def beats(
    code: SupportsIndex, pile_code: SupportsIndex, level: SupportsIndex, flags: SupportsIndex = 0
) -> bool: ...

# ---------------------------------------------------------------- legal plays

def count_legal_plays(
    once: SupportsIndex,
    twice: SupportsIndex,
    level: SupportsIndex,
    pile_code: SupportsIndex = 0,
    flags: SupportsIndex = 0,
) -> int: ...
def legal_plays(
    once: SupportsIndex,
    twice: SupportsIndex,
    level: SupportsIndex,
    pile_code: SupportsIndex = 0,
    flags: SupportsIndex = 0,
) -> tuple[_U64Array, _U32Array]: ...
def deal(seed: SupportsIndex) -> tuple[_Hand, _Hand, _Hand, _Hand]: ...
def shuffle(seed: SupportsIndex) -> tuple[int, ...]: ...

# ---------------------------------------------------------------- batch API

def count_legal_plays_many(
    hands: _U64Array,
    levels: SupportsIndex | npt.NDArray[np.integer],
    pile_codes: _U32Array | None = None,
    flags: SupportsIndex = 0,
    out: _I64Array | None = None,
) -> _I64Array: ...
def legal_plays_many(
    hands: _U64Array,
    levels: SupportsIndex | npt.NDArray[np.integer],
    pile_codes: _U32Array | None = None,
    flags: SupportsIndex = 0,
) -> tuple[_I64Array, _U64Array, _U32Array]: ...

# ---------------------------------------------------------------- the plan policy

def plan_groups(
    once: SupportsIndex, twice: SupportsIndex, level: SupportsIndex, flags: SupportsIndex = 0
) -> tuple[_Action, ...]: ...
def plan_splits(
    once: SupportsIndex, twice: SupportsIndex, level: SupportsIndex, flags: SupportsIndex = 0
) -> tuple[tuple[_Action, ...], ...]: ...
def plan_move(
    once: SupportsIndex,
    twice: SupportsIndex,
    level: SupportsIndex,
    pile_code: SupportsIndex = 0,
    flags: SupportsIndex = 0,
    *,
    owner_partner: bool = False,
    owner_left: SupportsIndex = 27,
    partner_left: SupportsIndex = 27,
    opponents_left: Iterable[SupportsIndex] = (27, 27),
) -> tuple[int, int, int, int]: ...

# One pass: (add_once, add_twice, pile_code, owner_left, partner_left, opponents_left).
_Pass: TypeAlias = tuple[SupportsIndex, SupportsIndex, SupportsIndex, SupportsIndex, SupportsIndex,
              Iterable[SupportsIndex]]

@disjoint_base  # a C extension type: it cannot be a second base of a class
class PlanPasses:
    def __init__(self, level: SupportsIndex, flags: SupportsIndex, passes: Iterable[_Pass]) -> None: ...
    def __len__(self, /) -> int: ...
    def misses(self, once: SupportsIndex, twice: SupportsIndex) -> int: ...

# ---------------------------------------------------------------- the hand state

@disjoint_base  # a C extension type: it cannot be a second base of a class
class GdState:
    __hash__: None  # type: ignore[assignment]  # mutable, compared by value: unhashable
    def __init__(
        self,
        hands: Iterable[_HandArg],
        level: SupportsIndex = 2,
        leader: SupportsIndex = 0,
        flags: SupportsIndex = 0,
        team0: SupportsIndex = 0b0101,
    ) -> None: ...
    @staticmethod
    def from_fields(
        hands: Iterable[_HandArg],
        level: SupportsIndex,
        turn: SupportsIndex,
        flags: SupportsIndex = 0,
        team0: SupportsIndex = 5,
        pile: _HandArg = (0, 0),
        pile_code: SupportsIndex = 0,
        owner: SupportsIndex = -1,
        passes: SupportsIndex = 0,
        finished: Iterable[SupportsIndex] = (),
    ) -> GdState: ...
    @property
    def level(self) -> int: ...
    @property
    def flags(self) -> int: ...
    @property
    def team0(self) -> int: ...
    @property
    def turn(self) -> int: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def hands(self) -> tuple[_Hand, ...]: ...
    def hand(self, seat: SupportsIndex) -> _Hand: ...
    def hand_size(self, seat: SupportsIndex) -> int: ...
    @property
    def pile(self) -> _Hand: ...
    @property
    def pile_code(self) -> int: ...
    @property
    def pile_owner(self) -> int: ...
    @property
    def passes(self) -> int: ...
    @property
    def finished(self) -> tuple[int, ...]: ...
    def partner(self, seat: SupportsIndex) -> int: ...
    def legal_plays(self) -> tuple[_U64Array, _U32Array]: ...
    def count_legal_plays(self) -> int: ...
    def can_pass(self) -> bool: ...
    def check_play(self, once: SupportsIndex, twice: SupportsIndex, code: SupportsIndex) -> int: ...
    def check_pass(self) -> int: ...
    def try_play(self, once: SupportsIndex, twice: SupportsIndex, code: SupportsIndex) -> int: ...
    def try_pass(self) -> int: ...
    def apply(
        self, once: SupportsIndex, twice: SupportsIndex = 0, code: SupportsIndex = 0
    ) -> None: ...
    def copy(self) -> GdState: ...
    def __copy__(self) -> GdState: ...
    def __deepcopy__(self, memo: object) -> GdState: ...
    def key(self) -> _StateKey: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __reduce__(self) -> tuple[Callable[[_StateKey], GdState], tuple[_StateKey]]: ...
    def playout(self, seed: SupportsIndex, policy: SupportsIndex = 0) -> tuple[int, ...]: ...
    def playout_actions(
        self, seed: SupportsIndex, policy: SupportsIndex = 0
    ) -> tuple[tuple[int, ...], list[_Action]]: ...
    def playouts(
        self, seed: SupportsIndex, n: SupportsIndex, policy: SupportsIndex = 0
    ) -> tuple[tuple[int, int, int, int], int]: ...
    def playouts_after(
        self, actions: Iterable[tuple[SupportsIndex, SupportsIndex, SupportsIndex]],
        seed: SupportsIndex, policy: SupportsIndex = 2
    ) -> list[tuple[int, ...]]: ...

def _gd_state_from_key(key: _StateKey) -> GdState: ...

# ---------------------------------------------------------------- the exact endgame solver
# (gd_solver.pxi: the value of a hand to a team, G7.1 levels, both teams playing perfectly)

GD_SOLVE_UNKNOWN: Final = 0  # the solver's answer: not decided within its limits
GD_SOLVE_WIN: Final = 1  # the solver's answer: the team to solve for wins the hand
GD_SOLVE_LOSS: Final = 2  # the solver's answer: the team to solve for loses the hand

def solve(
    state: GdState, seat: SupportsIndex = -1, threshold: SupportsIndex = 1,
    double_down: SupportsIndex = 3, max_nodes: SupportsIndex = 1_000_000,
    check_signals: bool = True,
) -> tuple[int, int, str | None]: ...
def solve_value(
    state: GdState, seat: SupportsIndex = -1, double_down: SupportsIndex = 3,
    max_nodes: SupportsIndex = 1_000_000, check_signals: bool = True,
) -> tuple[int | None, int]: ...
def solve_after(
    state: GdState, actions: Iterable[tuple[SupportsIndex, SupportsIndex, SupportsIndex]],
    seat: SupportsIndex = -1, double_down: SupportsIndex = 3,
    max_nodes: SupportsIndex = 100_000, check_signals: bool = True,
) -> tuple[list[int | None], int]: ...

# ---------------------------------------------------------------- scoring sampled deals

@disjoint_base  # a C extension type: it cannot be a second base of a class
class DealScoring:
    def __init__(
        self, states: Iterable[GdState],
        actions: Iterable[tuple[SupportsIndex, SupportsIndex, SupportsIndex]],
        seeds: Iterable[SupportsIndex], seat: SupportsIndex, double_down: SupportsIndex = 3,
        solve_nodes: SupportsIndex = 0, policy: SupportsIndex = 2, threads: SupportsIndex = 1,
    ) -> None: ...
    def done(self) -> bool: ...
    def result(self) -> tuple[npt.NDArray[np.int8], int]: ...
    @property
    def seconds(self) -> float | None: ...

@disjoint_base  # a C extension type: it cannot be a second base of a class
class DealSampler:
    def __init__(
        self, seat: SupportsIndex, hand: tuple[SupportsIndex, SupportsIndex],
        pool: Iterable[SupportsIndex], fixed: Iterable[Iterable[SupportsIndex]],
        need: Iterable[SupportsIndex], caps: Iterable[SupportsIndex | None],
        passes: Iterable[PlanPasses | None], keep: float = 0.1, tries: SupportsIndex = 8,
    ) -> None: ...
    def hands(self, seed: SupportsIndex, k: SupportsIndex = 0) -> list[tuple[int, int]]: ...
    def deal(self, seed: SupportsIndex, k: SupportsIndex = 0) -> tuple[list[tuple[int, int]], int]: ...

def sample_values(
    sampler: DealSampler, base: GdState,
    actions: Iterable[tuple[SupportsIndex, SupportsIndex, SupportsIndex]],
    seed: SupportsIndex, deals: SupportsIndex, seat: SupportsIndex, seconds: float | None = None,
    double_down: SupportsIndex = 3, solve_nodes: SupportsIndex = 0, policy: SupportsIndex = 2,
    threads: SupportsIndex = 1, first: SupportsIndex = 0,
) -> tuple[npt.NDArray[np.int8], int]: ...

def values_after(
    states: Iterable[GdState], actions: Iterable[tuple[SupportsIndex, SupportsIndex, SupportsIndex]],
    seeds: Iterable[SupportsIndex], seat: SupportsIndex, double_down: SupportsIndex = 3,
    solve_nodes: SupportsIndex = 0, policy: SupportsIndex = 2, threads: SupportsIndex = 1,
) -> tuple[npt.NDArray[np.int8], int]: ...

# ---------------------------------------------------------------- reinforcement learning

_U8Array: TypeAlias = npt.NDArray[np.uint8]
_I8Array: TypeAlias = npt.NDArray[np.int8]
_F32Array: TypeAlias = npt.NDArray[np.float32]
_BoolArray: TypeAlias = npt.NDArray[np.bool_]
_I32Array: TypeAlias = npt.NDArray[np.int32]
# (ids (m,), cards (m, 108), reading (m, 4)) of the variable legal-action list.
_Features: TypeAlias = tuple[_I64Array, _U8Array, _U8Array]
_Tribute: TypeAlias = tuple[int, int, int, int]

GR_OBS_SIZE: Final = 747  # bytes in one RL observation of a seat
GR_CARD_FEATURES: Final = 108  # card features of one legal action (108: every card of two decks)
GR_READING_FEATURES: Final = 4  # reading features of one legal action
GR_PADDED_ACTIONS: Final = 2048  # width of the fixed action mask (legal ids padded to it)
GR_KIND_TRIBUTE_CODE: Final = 11  # the action kind of giving tribute, in action features
GR_KIND_RETURN_CODE: Final = 12  # the action kind of returning tribute, in action features
GR_PHASES: Final[tuple[str, ...]]  # the names of the hand phases an observation reports, by code
GR_FIELDS: Final[tuple[tuple[str, int, int], ...]]  # the observation's fields: (name, offset, length)

class GdActionError(ValueError): ...

# ---------------------------------------------------------------- tribute, return, levels (G6, G7)

def tribute_faces(
    once: SupportsIndex, twice: SupportsIndex, level: SupportsIndex,
    flags: SupportsIndex = 0, can_tribute_wild: bool = False,
) -> int: ...
def return_faces(
    once: SupportsIndex, twice: SupportsIndex, level: SupportsIndex,
    tribute_return_max_rank: SupportsIndex = 10,
) -> int: ...
def tribute_payers(
    previous_order: Iterable[SupportsIndex], big_jokers: Iterable[SupportsIndex],
    team0: SupportsIndex = 5,
) -> tuple[tuple[int, ...], bool]: ...
def tribute_swap(first_card: SupportsIndex, second_card: SupportsIndex, level: SupportsIndex) -> bool: ...
def level_gain(partner_place: SupportsIndex, double_down_levels: SupportsIndex = 3) -> int: ...
def settle_levels(
    levels: Iterable[SupportsIndex], failed: Iterable[SupportsIndex], declarer: SupportsIndex,
    places: Iterable[SupportsIndex], team0: SupportsIndex = 5,
    double_down_levels: SupportsIndex = 3, failed_attempts_limit: SupportsIndex = 3,
) -> tuple[tuple[int, int], tuple[int, int], bool, int, int]: ...


def legal_action_features(
    once: SupportsIndex, twice: SupportsIndex, level: SupportsIndex,
    pile_code: SupportsIndex = 0, flags: SupportsIndex = 0,
) -> _Features: ...

def observe_fields(
    seat: SupportsIndex, hand: tuple[SupportsIndex, SupportsIndex],
    cards_left: Iterable[SupportsIndex],
    played: Iterable[tuple[SupportsIndex, SupportsIndex]],
    pile: tuple[SupportsIndex, SupportsIndex] = (0, 0), pile_code: SupportsIndex = 0,
    pile_owner: SupportsIndex = -1, trick_leader: SupportsIndex = -1, turn: SupportsIndex = -1,
    finished: Iterable[SupportsIndex] = (), level: SupportsIndex = 2,
    levels: Iterable[SupportsIndex] = (2, 2), declarer: SupportsIndex = -1,
    failed_attempts: Iterable[SupportsIndex] = (0, 0),
    tributes: Iterable[tuple[SupportsIndex, SupportsIndex]] = (), flags: SupportsIndex = 0,
) -> _U8Array: ...

@disjoint_base  # a C extension type: it cannot be a second base of a class
class GdTable:
    def __init__(
        self, seed: SupportsIndex = 0, flags: SupportsIndex = 0,
        double_down_levels: SupportsIndex = 3, can_tribute_wild: bool = False,
        tribute_return_max_rank: SupportsIndex = 10, failed_attempts_limit: SupportsIndex = 3,
        max_hands: SupportsIndex = 10000,
    ) -> None: ...
    def reset(self, seed: SupportsIndex) -> None: ...
    def next_hand(self) -> None: ...
    @property
    def seed(self) -> int: ...
    @property
    def phase(self) -> str: ...
    @property
    def turn(self) -> int: ...
    @property
    def level(self) -> int: ...
    @property
    def levels(self) -> tuple[int, int]: ...
    @property
    def failed_attempts(self) -> tuple[int, int]: ...
    @property
    def declarer(self) -> int: ...
    @property
    def hand_index(self) -> int: ...
    @property
    def winner(self) -> int: ...
    @property
    def is_over(self) -> bool: ...
    @property
    def anti_tribute(self) -> bool: ...
    @property
    def tributes(self) -> tuple[_Tribute, ...]: ...
    @property
    def hands(self) -> tuple[_Hand, _Hand, _Hand, _Hand]: ...
    @property
    def played(self) -> tuple[_Hand, _Hand, _Hand, _Hand]: ...
    @property
    def pile(self) -> _Hand: ...
    @property
    def pile_code(self) -> int: ...
    @property
    def pile_owner(self) -> int: ...
    @property
    def trick_leader(self) -> int: ...
    @property
    def finished(self) -> tuple[int, ...]: ...
    @property
    def last_hand(self) -> tuple[tuple[int, ...], int, int, bool] | None: ...
    @property
    def num_legal(self) -> int: ...
    @property
    def can_pass(self) -> bool: ...
    def legal_actions(self) -> tuple[_U64Array, _U32Array]: ...
    def is_legal(self, action: object) -> bool: ...
    def step(self, action: SupportsIndex) -> bool: ...
    def policy_action(self, policy: SupportsIndex) -> int: ...
    def observe(self, seat: SupportsIndex, out: _U8Array | None = None) -> _U8Array: ...
    def action_features(self) -> _Features: ...
    def action_mask(self) -> _I8Array: ...
    def padded_action_features(
        self, max_actions: SupportsIndex = 2048
    ) -> tuple[_I8Array, _U8Array, _U8Array]: ...
    def copy(self) -> GdTable: ...
    def __copy__(self) -> GdTable: ...
    def __deepcopy__(self, memo: object) -> GdTable: ...
    def __reduce__(self) -> tuple[object, ...]: ...

@disjoint_base  # a C extension type: it cannot be a second base of a class
class GdVecGames:
    @property
    def closed(self) -> bool: ...
    @property
    def obs(self) -> _U8Array: ...
    @property
    def seat(self) -> _I8Array: ...
    @property
    def phase(self) -> _I8Array: ...
    @property
    def num_legal(self) -> _I32Array: ...
    @property
    def can_pass(self) -> _U8Array: ...
    @property
    def reward(self) -> _F32Array: ...
    @property
    def terminated(self) -> _BoolArray: ...
    @property
    def truncated(self) -> _BoolArray: ...
    @property
    def error(self) -> _U8Array: ...
    @property
    def final_rewards(self) -> _F32Array: ...
    @property
    def places(self) -> _I8Array: ...
    @property
    def episodes(self) -> _I64Array: ...
    @property
    def final_obs(self) -> _U8Array | None: ...
    @property
    def actions(self) -> _I64Array: ...
    @property
    def action_mask(self) -> _I8Array | None: ...
    def __init__(
        self, num_envs: SupportsIndex, learner_seats: Iterable[SupportsIndex] | None = None,
        policies: Iterable[SupportsIndex] = (0, 0, 0, 0), seed: SupportsIndex | _U64Array = 0,
        episode: str = "hand", reward_weights: Iterable[float] = (0.0, 1.0, 3.0),
        flags: SupportsIndex = 0, double_down_levels: SupportsIndex = 3,
        can_tribute_wild: bool = False, tribute_return_max_rank: SupportsIndex = 10,
        failed_attempts_limit: SupportsIndex = 3, max_hands: SupportsIndex = 10000,
        final_obs: bool = False, action_mask: bool = False, banks: SupportsIndex = 1,
    ) -> None: ...
    @property
    def obs_banks(self) -> tuple[_U8Array, ...]: ...
    @property
    def mask_banks(self) -> tuple[_I8Array | None, ...]: ...
    @property
    def bank(self) -> int: ...
    @property
    def num_envs(self) -> int: ...
    @property
    def learner_seats(self) -> tuple[int, ...]: ...
    def close(self) -> None: ...
    def reset(self, seed: SupportsIndex | _U64Array = 0, bank: SupportsIndex | None = None) -> None: ...
    def step(self, actions: _I64Array, threads: SupportsIndex = 1,
             bank: SupportsIndex | None = None) -> int: ...
    def table(self, env: SupportsIndex) -> GdTable: ...
    def action_features(self, env: SupportsIndex) -> _Features: ...
    def legal_features(self) -> tuple[_I64Array, _I64Array, _U8Array, _U8Array]: ...
    def policy_actions(self, policy: SupportsIndex) -> _I64Array: ...
    def __reduce__(self) -> tuple[object, ...]: ...
