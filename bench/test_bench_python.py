"""The Python layer: tienlen.legal_moves over Cards, and tienlen.Game driven from Python."""

from __future__ import annotations

import random

import pytest

import workloads


def _python_legal_moves():
    import tienlen

    lm = getattr(tienlen, "legal_moves", None)
    if lm is None:
        combos = pytest.importorskip("tienlen.games.tienlen.plays", reason="tienlen.legal_moves not written yet")
        lm = combos.legal_moves
    return lm


def _game_api():
    import tienlen

    Game = getattr(tienlen, "Game", None)
    game_mod = pytest.importorskip("tienlen.games.tienlen.game", reason="tienlen.Game not written yet")
    return Game or game_mod.Game, game_mod.PASS


def test_python_legal_moves_lead_13(per_item, hands13):
    """Cards in, list of Cards out; compare with test_legal_moves_lead_13 for the wrapping cost."""
    lm = _python_legal_moves()
    from tienlen.games.tienlen.cards import Cards

    cards = [Cards(h) for h in hands13]

    def run():
        for c in cards:
            lm(c)

    per_item(run, len(cards))


def test_python_legal_moves_following(per_item, seed):
    lm = _python_legal_moves()
    from tienlen.games.tienlen.cards import Cards
    from tienlen.games.tienlen.plays import Combo

    hands, _, piles = workloads.following_with_piles(1000, seed)
    pairs = [(Cards(h), Combo(Cards(p))) for h, p in zip(hands, piles)]

    def run():
        for hand, pile in pairs:
            lm(hand, pile)

    per_item(run, len(pairs))


def _random_game(Game, seed, rng, play, pass_):
    g = Game(4, seed=seed)
    while not g.is_over:
        moves = list(g.legal_moves())
        i = rng.randrange(len(moves) + g.can_pass())
        if i == len(moves):
            pass_(g)
        else:
            play(g, moves[i])


def test_game_random_checked(per_item):
    """Public checked path: legal_moves(), can_pass(), play()/pass_turn() (verified again)."""
    Game, _ = _game_api()
    rng = random.Random(0)
    seeds = iter(range(10**9))

    def run():
        for _ in range(20):
            _random_game(Game, next(seeds), rng, Game.play, Game.pass_turn)

    per_item(run, 20)


def test_game_random_apply_unchecked(per_item):
    Game, PASS = _game_api()
    rng = random.Random(0)
    seeds = iter(range(10**9))

    def run():
        for _ in range(20):
            _random_game(Game, next(seeds), rng, Game.apply_unchecked,
                         lambda g: g.apply_unchecked(PASS))

    per_item(run, 20)


def test_game_copy(per_item):
    Game, PASS = _game_api()
    games = [Game(4, seed=i) for i in range(200)]
    for i, g in enumerate(games):
        for _ in range(i % 12):
            g.apply_unchecked(PASS if g.can_pass() else next(iter(g.legal_moves())))

    def run():
        for g in games:
            g.copy()

    per_item(run, len(games))
