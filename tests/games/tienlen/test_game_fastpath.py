"""The native pieces of the checked Game path (issue 25): GameState.play_record and
pass_record, the core's LegalView under LegalMoves (and its kept list), played_key."""

from __future__ import annotations

import random

import pytest

from tienlen import _core
from tienlen.games.tienlen.actions import _PASSES, Action
from tienlen.games.tienlen.cards import _INTERNED, Cards
from tienlen.games.tienlen.plays import _PLAYED, classify
from tienlen.games.tienlen.game import Game


def test_play_record_plays_and_records_like_try_play() -> None:
    rng = random.Random(5)
    for seed in range(30):
        a = _core.GameState(_core.deal(seed), -1, 0, True)
        b = a.copy()
        while a.turn >= 0:
            moves = a.legal_moves_list()
            seat = a.turn
            if a.can_pass() and (not moves or rng.random() < 0.3):
                rec = a.pass_record(_PASSES)
                assert rec is _PASSES[seat] and b.try_pass() == 0
            else:
                mask = moves[rng.randrange(len(moves))]
                rec = a.play_record(Cards(mask), _PLAYED, Action)
                code = b.try_play(mask)
                assert type(rec) is Action and rec.seat == seat and rec.action == "play"
                assert rec.cards.mask == mask and rec.combo.code == code
            assert a == b


def test_refused_play_and_pass_change_nothing() -> None:
    s = _core.GameState([0b11, 0b1100])           # seat 0 leads with 3♠ (R7.2)
    before = s.copy()
    assert s.play_record(Cards(0b10), _PLAYED, Action) == -_core.MUST_INCLUDE_LOWEST
    assert s.play_record(Cards(0b100), _PLAYED, Action) == -_core.CARDS_NOT_IN_HAND
    assert s.pass_record(_PASSES) == -_core.CANNOT_PASS_ON_LEAD
    assert s == before


def test_bad_arguments_raise_value_errors() -> None:
    s = _core.GameState(_core.deal(1))
    with pytest.raises(ValueError):
        s.play_record(Cards(1), {}, Action)
    with pytest.raises(ValueError):
        s.play_record(Cards(1), _PLAYED, list)
    with pytest.raises(ValueError):
        s.pass_record([None] * 4)
    with pytest.raises(ValueError):
        _core.LegalView(s, {})
    with pytest.raises(ValueError):
        _core.LegalView(None, _INTERNED)
    view = _core.LegalView.__new__(_core.LegalView)     # never initialised: refused, no crash
    with pytest.raises(ValueError):
        len(view)
    with pytest.raises(ValueError):
        list(view)


def test_legal_view_follows_the_state() -> None:
    # The view keeps its last list; every action must still show the moves of now.
    rng = random.Random(2)
    for seed in range(20):
        g = Game(4, seed=seed)
        view = g.legal_moves()
        while not g.is_over:
            masks = [int(m) for m in g._state.legal_moves_list()]
            assert len(view) == len(masks) == g._state.count_legal_moves()
            assert [m.mask for m in view] == masks and bool(view) == bool(masks)
            moves = list(view)
            i = rng.randrange(len(moves) + g.can_pass())
            g.pass_turn() if i == len(moves) else g.play(moves[i])
        assert list(view) == [] and len(view) == 0 and not view


def test_played_key_names_code_and_mask() -> None:
    combo = classify("5s 5h")
    assert combo is not None
    key = _core.played_key(combo.cards.mask, combo.code)
    assert key & ((1 << 52) - 1) == combo.cards.mask
    assert _PLAYED[key].code == combo.code and _PLAYED[key].cards == combo.cards
    with pytest.raises(ValueError):
        _core.played_key(0b11, _core.classify(1))     # a single's code for two cards
