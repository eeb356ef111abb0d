"""Invariants over many random games (2, 3 and 4 players, both rule sets).

Each game picks uniformly among the legal moves plus pass (when allowed). Most games use
the fast unchecked path; a share goes through the checked path and also probes random
subsets of the hand, and a sample round-trips through JSON. ``TIENLEN_SOAK=1`` plays 1M
games instead of 10,000.

Checked after every action: cards are conserved (hands + played = the initial cards), hands
are disjoint, only legal moves are applied. At the end: the game terminated within a bound,
the finishing order is a permutation with the loser last, and the history is consistent.
"""

from __future__ import annotations

import os
import random
from itertools import islice

from tienlen.games.tienlen.cards import Cards
from tienlen.games.tienlen.game import PASS, Game
from tienlen.games.tienlen.refusals import IllegalMoveError
from tienlen.games.tienlen.rules import Rules

SOAK = os.environ.get("TIENLEN_SOAK") == "1"
GAMES = 1_000_000 if SOAK else 10_000
CHECKED_EVERY = 8  # one game in 8 goes through the checked path with subset probes
JSON_EVERY = 25  # one game in 25 round-trips through JSON
# Every play removes a card; between two plays at most one pass per other seat, plus one
# more round of locked-out seats answering a 2 (R5.3). Far above what any game needs.
MAX_ACTIONS = 52 * 2 * 4

RULESETS = (Rules(), Rules(twos_in_sequences=False))


def check_cards(game: Game, dealt: int) -> None:
    union = 0
    count = 0
    for hand in game.hands:
        union |= hand.mask
        count += len(hand)
    played = game.played.mask
    assert count == union.bit_count(), "hands overlap"
    assert union & played == 0, "a card is both held and played"
    assert union | played == dealt, "cards were created or lost"


def probe_subsets(game: Game, rng: random.Random, legal: set[int]) -> None:
    """Random subsets of the hand to act: listed ones are accepted, the others refused,
    and a refusal changes nothing."""
    hand = game.hands[game.turn].mask
    bits = [1 << i for i in range(52) if hand >> i & 1]
    for _ in range(2):
        size = rng.choice((1, 1, 2, 2, 3, 4, 5, 6))
        subset = sum(rng.sample(bits, min(size, len(bits))))
        allowed = game.can_play(subset)
        assert allowed == (subset in legal), (str(Cards(subset)), game.snapshot())
        if not allowed:
            before = game.snapshot()
            try:
                game.play(subset)
            except IllegalMoveError:
                pass
            else:
                raise AssertionError(f"play({Cards(subset)}) was accepted")
            assert game.snapshot() == before
    # Cards from another hand are never playable.
    others = 0
    for seat, other in enumerate(game.hands):
        if seat != game.turn:
            others |= other.mask
    if others:
        assert not game.can_play(others & -others)


def check_view(game: Game, listed: list[Cards], can_pass: bool) -> None:
    """The acting seat's view offers the same options as the game, and so does the core
    state a searcher would rebuild from it."""
    view = game.view(game.turn)
    assert view.legal_moves() == listed and view.can_pass() == can_pass
    assert view.hand == game.hands[game.turn]
    state = view.search_state()
    assert [int(m) for m in state.legal_moves()] == [m.mask for m in listed]
    assert state.can_pass() == can_pass and state.turn == game.turn
    assert [h.bit_count() for h in state.hands] == list(view.card_counts)


def play_one(index: int, seed: int) -> None:
    rng = random.Random(seed)
    players = 2 + index % 3
    rules = RULESETS[index % 2 if index % 7 == 0 else 0]
    checked = index % CHECKED_EVERY == 0
    game = Game(players, seed=seed, rules=rules)
    dealt = 0
    for hand in game.hands:
        dealt |= hand.mask
    steps = 0
    while not game.is_over:
        assert steps < MAX_ACTIONS, "the hand does not terminate"
        turn = game.turn
        moves = game.legal_moves()
        can_pass = game.can_pass()
        if checked:
            listed = list(moves)
            legal = {move.mask for move in listed}
            assert len(legal) == len(listed) == len(moves), "duplicate or miscounted moves"
            check_view(game, listed, can_pass)
            probe_subsets(game, rng, legal)
            pick = rng.randrange(len(listed) + can_pass)
            move = listed[pick] if pick < len(listed) else PASS
            action = game.act(move, turn)
        else:
            count = len(moves)
            assert count or can_pass, "a seat with no play must be able to pass"
            pick = rng.randrange(count + can_pass)
            move = next(islice(moves, pick, None)) if pick < count else PASS
            action = game.apply_unchecked(move)
        assert action.seat == turn
        steps += 1
        if checked or steps % 8 == 0:
            check_cards(game, dealt)
    check_cards(game, dealt)
    assert sorted(game.finished) == list(range(players))
    assert game.loser == game.finished[-1] and game.turn is None
    assert len(game.hands[game.loser]) > 0
    assert all(len(game.hands[seat]) == 0 for seat in game.finished[:-1])
    history = game.history
    assert len(history) == steps
    assert sum(len(a.cards) for a in history if a.cards is not None) == dealt.bit_count() - len(
        game.hands[game.loser])
    if index % JSON_EVERY == 0:
        again = Game.from_json(game.to_json())
        assert again == game and again.history == history


def test_invariants_over_random_games() -> None:
    master = random.Random(0xC0FFEE)
    for index in range(GAMES):
        play_one(index, master.getrandbits(64))
