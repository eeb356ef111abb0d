"""Every public function of the native core, called with bad values in every argument:
the answer is a ValueError that says which argument is wrong (never a crash, a TypeError
or an OverflowError), and a GameState argument is left exactly as it was.

A crash here takes the whole test run down, which is the point: Python code that can be
made to segfault is a bug whatever it was passed."""

from __future__ import annotations

import numpy as np
import pytest

from tienlen import core

BIG = 1 << 70
EMPTY: list = []
NOT_AN_INT = object()
# Values that are wrong in every position: not an int, or an int far out of range.
ALWAYS_BAD = [None, "x", 1.5, BIG, EMPTY, NOT_AN_INT]
# ... plus values that are wrong in most positions.
BAD = ALWAYS_BAD + [-1, True]


def _state() -> core.GameState:
    state = core.GameState(core.deal(3))
    state.apply(state.legal_moves()[0])
    return state


def _unseen(state: core.GameState) -> int:
    return core.FULL_DECK & ~state.hand(state.turn) & ~state.played_mask


# name -> (function, good arguments); each argument in turn is replaced by every BAD value.
CALLS = {
    "classify": (core.classify, lambda: [0b11, 0]),
    "beats": (core.beats, lambda: [core.classify(0b10), core.classify(0b1), 0]),
    "legal_moves": (core.legal_moves, lambda: [0b111, 0, 0, False, -1]),
    "count_legal_moves": (core.count_legal_moves, lambda: [0b111, 0, 0, False, -1]),
    "is_two_combo": (core.is_two_combo, lambda: [core.classify(1 << 51)]),
    "make_code": (core.make_code, lambda: [1, 1, 0]),
    "deal": (core.deal, lambda: [1, 4]),
    "plan": (core.plan, lambda: [0b111, 0]),
    "flat_monte_carlo": (core.flat_monte_carlo, lambda: (lambda s: [s, _unseen(s), 2, 1, core.GREEDY])(_state())),
    "sampled_places": (core.sampled_places,
                       lambda: (lambda s: [s, _unseen(s), [0], 2, 1, core.PLAN])(_state())),
    "random_playouts": (core.random_playouts, lambda: [2, 4, 1, 0, core.PLAN]),
    "random_playouts_range": (core.random_playouts_range, lambda: [1, 2, 4, 1, 0, core.RANDOM]),
    "record_playout": (core.record_playout, lambda: [1, 0, 4, 0, core.GREEDY]),
    "classify_many": (core.classify_many, lambda: [np.array([1, 3], np.uint64), 0]),
    "count_legal_moves_many": (core.count_legal_moves_many, lambda: [np.array([7], np.uint64)]),
    "legal_moves_many": (core.legal_moves_many, lambda: [np.array([7], np.uint64)]),
    "GameState": (core.GameState, lambda: [core.deal(1), -1, 0]),
}

# Exactly the BAD values each argument accepts, for their documented meanings; every other
# (argument, value) pair must raise ValueError, and these must not.
ACCEPTS = {
    ("legal_moves", 3): BAD, ("count_legal_moves", 3): BAD,   # locked_out: any truth value
    ("legal_moves", 4): [-1], ("count_legal_moves", 4): [-1],  # must_include=-1: no card
    ("GameState", 1): [None, -1],              # leader None or -1: the R7.2 rule decides
    ("sampled_places", 2): [None, EMPTY],         # every action; no action (an empty result)
}


@pytest.mark.parametrize("name", sorted(CALLS))
def test_bad_arguments_raise_value_error_and_change_nothing(name: str) -> None:
    fn, good = CALLS[name]
    fn(*good())                                             # the good call works
    for position in range(len(good())):
        for bad in BAD:
            args = good()
            state = next((a for a in args if isinstance(a, core.GameState)), None)
            before = state.key() if state is not None else None
            args[position] = bad
            try:
                fn(*args)
            except ValueError:
                accepted = False
            except Exception as e:  # noqa: BLE001 - the failure names what escaped
                pytest.fail(f"{name} argument {position} = {bad!r}: {type(e).__name__}: {e}")
            else:
                accepted = True
            expected = any(bad is a for a in ACCEPTS.get((name, position), []))
            assert accepted == expected, \
                f"{name} argument {position} = {bad!r} was {'accepted' if accepted else 'refused'}"
            if state is not None:
                assert state.key() == before, (name, position, bad)


def test_search_functions_refuse_a_missing_state() -> None:
    with pytest.raises(ValueError, match="GameState"):
        core.flat_monte_carlo(None, 0, 1, 1)
    with pytest.raises(ValueError, match="GameState"):
        core.sampled_places(None, 0, [0], 1, 1)


METHODS = {
    "apply": lambda s: [s.legal_moves()[0]],
    "apply_checked": lambda s: [s.legal_moves()[0]],
    "try_play": lambda s: [s.legal_moves()[0]],
    "check_play": lambda s: [s.legal_moves()[0]],
    "hand": lambda s: [0],
    "playout": lambda s: [1, core.PLAN],
    "playout_moves": lambda s: [1, core.GREEDY],
}


@pytest.mark.parametrize("method", sorted(METHODS))
def test_game_state_methods_refuse_bad_arguments_and_change_nothing(method: str) -> None:
    for position in range(len(METHODS[method](_state()))):
        for bad in BAD:
            state = _state()
            before = state.key()
            args = METHODS[method](state)
            args[position] = bad
            try:
                getattr(state, method)(*args)
            except ValueError:
                pass
            except Exception as e:  # noqa: BLE001 - the failure names what escaped
                pytest.fail(f"GameState.{method} argument {position} = {bad!r}: {type(e).__name__}: {e}")
            else:
                # No method argument gives -1 or True a meaning (a seat, a mask, a seed, a
                # policy): every BAD value must be refused.
                pytest.fail(f"GameState.{method} argument {position} = {bad!r} was accepted")
            assert state.key() == before, (method, position, bad)


def test_from_fields_refuses_bad_fields() -> None:
    good = dict(hands=core.deal(2), pile_mask=0, pile_owner=-1, turn=0, locked_mask=0,
                finished=(), must_include=-1, flags=0, played_mask=0)
    for field in good:
        for bad in ALWAYS_BAD:
            if field == "finished" and bad is EMPTY:
                continue                                    # no seat has finished: valid
            with pytest.raises(ValueError):
                core.GameState.from_fields(**{**good, field: bad})
