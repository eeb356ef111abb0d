"""The core's MaskTable (src/masktable.pxi): a bounded mask -> object map probed in C, which
the Python layer uses to share one Cards object per listed move."""

from __future__ import annotations

import gc
import sys

import numpy as np
import pytest

from tienlen import _core
from tienlen.games.tienlen.cards import Cards
from tienlen.games.tienlen.game import Game


def test_the_factory_runs_once_per_mask_and_its_object_is_shared():
    made = []

    def factory(mask):
        made.append(mask)
        return ("obj", mask)

    t = _core.MaskTable(factory, limit=8)
    a = t[5]
    assert a == ("obj", 5) and t[5] is a and t[np.uint64(5)] is a and made == [5]
    assert t[0] == ("obj", 0) and t[2**63 - 1] == ("obj", 2**63 - 1)
    assert len(t) == 3 and t.limit == 8


def test_a_full_table_starts_again_and_stays_bounded():
    t = _core.MaskTable(lambda m: [m], limit=4)
    first = [t[m] for m in range(4)]
    assert len(t) == 4 and all(t[m] is first[m] for m in range(4))
    t[4]                                   # the fifth entry: the table starts again
    assert len(t) == 1
    assert t[0] == [0] and t[0] is not first[0]
    for m in range(1000):
        t[m]
        assert len(t) <= 4


def test_entries_hold_one_reference_each_and_release_it():
    obj = object()
    t = _core.MaskTable(lambda m: obj, limit=16)
    base = sys.getrefcount(obj)
    for m in range(10):
        assert t[m] is obj
    assert sys.getrefcount(obj) == base + 10
    for _ in range(1000):
        t[3]
    assert sys.getrefcount(obj) == base + 10
    t.clear()
    assert len(t) == 0 and sys.getrefcount(obj) == base
    for m in range(10):
        t[m]
    del t
    gc.collect()
    assert sys.getrefcount(obj) == base


def test_bad_masks_and_factories_are_value_errors_that_store_nothing():
    t = _core.MaskTable(lambda m: m, limit=4)
    for bad in (-1, 2**63, 2**64, 1.5, True, "3", None):
        with pytest.raises(ValueError):
            t[bad]
    assert len(t) == 0
    with pytest.raises(ValueError, match="callable"):
        _core.MaskTable(5)
    for bad in (0, -1, 1.5, True, 2**40):
        with pytest.raises(ValueError):
            _core.MaskTable(lambda m: m, limit=bad)
    with pytest.raises(ValueError, match="already initialised"):
        t.__init__(lambda m: m)

    def fails(mask):
        raise RuntimeError("no")

    f = _core.MaskTable(fails)
    with pytest.raises(RuntimeError):
        f[1]
    assert len(f) == 0
    with pytest.raises(TypeError):
        import pickle
        pickle.dumps(t)


def test_an_uninitialised_table_refuses_instead_of_crashing():
    t = _core.MaskTable.__new__(_core.MaskTable)
    with pytest.raises(ValueError, match="never initialised"):
        t[1]
    with pytest.raises(ValueError, match="never initialised"):
        t.map_array(np.array([1], np.uint64))
    assert len(t) == 0
    t.clear()
    g = Game(4, seed=1)
    with pytest.raises(ValueError, match="never initialised"):
        g._state.legal_moves_through(t)
    with pytest.raises(TypeError):
        g._state.legal_moves_through({})


def test_a_factory_that_uses_or_clears_the_table_meanwhile():
    holder = {}

    def factory(mask):
        t = holder["t"]
        if mask == 7:
            t.clear()                      # clears while a lookup of 7 is under way
        elif mask < 7:
            t[mask + 1]                    # fills other slots while 'mask' is being made
        return ("obj", mask)

    t = holder["t"] = _core.MaskTable(factory, limit=4)
    assert t[1] == ("obj", 1)
    assert t[1] is t[1] and t[7] == ("obj", 7) and t[7] is t[7]
    for m in range(20):
        assert t[m] == ("obj", m)
        assert len(t) <= 4


def test_map_array_is_a_checked_native_map():
    t = _core.MaskTable(lambda m: ("obj", m), limit=64)
    masks = np.array([3, 9, 3, 0], np.uint64)
    out = t.map_array(masks)
    assert out == [("obj", 3), ("obj", 9), ("obj", 3), ("obj", 0)] and out[0] is out[2]
    assert t.map_array(np.zeros(0, np.uint64)) == []
    with pytest.raises(ValueError, match="2\\*\\*63"):
        t.map_array(np.array([1, 2**63], np.uint64))
    with pytest.raises(ValueError):
        t.map_array(np.array([1, 2], np.int64))
    with pytest.raises(ValueError):
        t.map_array([1, 2])


def test_legal_moves_through_is_the_legal_list_mapped():
    # Every state of random games: the mapped list is the core's list, object by object.
    rng = np.random.default_rng(4)
    t = _core.MaskTable(lambda m: Cards(m), limit=1 << 12)
    for seed in range(20):
        g = Game(4, seed=seed)
        while not g.is_over:
            masks = g._state.legal_moves_list()
            through = g._state.legal_moves_through(t)
            assert [c.mask for c in through] == masks
            assert all(t[m] is c for m, c in zip(masks, through))
            moves = list(g.legal_moves())
            assert [c.mask for c in moves] == masks
            i = int(rng.integers(len(moves) + g.can_pass()))
            g.pass_turn() if i == len(moves) else g.play(moves[i])
        assert g._state.legal_moves_through(t) == []


def test_a_value_whose_finaliser_uses_the_table_while_it_is_cleared():
    holder = {}

    class Noisy:
        def __init__(self, mask):
            self.mask = mask

        def __del__(self):
            t = holder.get("t")
            if t is not None and self.mask < 3:
                t[self.mask + 100]          # inserts while the table is being cleared

    t = holder["t"] = _core.MaskTable(Noisy, limit=4)
    for m in range(4):
        t[m]
    t[10]                                  # full: starts again, dropping Noisy 0..3
    assert 1 <= len(t) <= 4
    for m in range(50):
        assert t[m].mask == m and len(t) <= 4
    holder.clear()
