"""An independent brute-force answer to the solver's question, for tiny positions.

Built on ``reference_game.RefGame`` (which builds on ``reference``), importing nothing from
``tienlen``. The question: from a position where every hand is known, does ``seat`` go out
before every other player still holding cards, whatever the others play? The others are
one side (with two players left, that is simply the opponent; R9.2 ends the hand when the
first of the two goes out).

Plain minimax over every legal play and pass, as RULES.md allows them; the only help is a
memo of positions already answered, keyed on everything that decides the rest of the hand.
No ordering, no pruning beyond ``any``/``all`` stopping early, no symmetry: speed is not a
goal, so keep positions tiny (about six cards a hand).

>>> from reference import parse
>>> g = RefGame([parse("3♠ 2♥"), parse("2♦")], leader=0)
>>> wins(g, 0), wins(g, 1)         # 2♥ first holds the lead, then the 3♠ goes out
(True, False)
"""

from __future__ import annotations

from functools import lru_cache

import reference as ref
from reference_game import RefGame

PASS = 0


def copy_game(game: RefGame) -> RefGame:
    """An independent copy of ``game`` (RefGame has no copy of its own)."""
    twin = RefGame.__new__(RefGame)
    twin.players = game.players
    twin.rules = game.rules
    twin.twos_in_sequences = game.twos_in_sequences
    twin.instant_winner = game.instant_winner
    twin.hands = list(game.hands)
    twin.pile = game.pile
    twin.pile_owner = game.pile_owner
    twin.locked_seats = set(game.locked_seats)
    twin.finished = list(game.finished)
    twin.must_include = game.must_include
    twin.turn = game.turn
    twin._legal_cache = (None, frozenset())
    return twin


def position(hands: list[int], *, turn: int, pile: int = 0, pile_owner: int | None = None,
             locked: frozenset[int] | set[int] = frozenset(), finished: list[int] | None = None,
             must_include: int | None = None, rules: ref.Ruleset | None = None) -> RefGame:
    """A position given field by field, as a search from a seat's view sets it up: the
    hands (a finished seat's empty), the pile and its owner, the seat to act, the seats
    locked out of the pile (R5.1), the finishing order so far and the card the lead must
    hold (R7.2). Nothing is checked: the caller gives a position play could reach."""
    game = RefGame.__new__(RefGame)
    game.players = len(hands)
    game.rules = ref.ruleset(rules=rules) if rules is not None else ref.CONTRACT
    game.twos_in_sequences = game.rules.twos_in_sequences
    game.instant_winner = None
    game.hands = list(hands)
    game.pile = pile
    game.pile_owner = pile_owner
    game.locked_seats = set(locked)
    game.finished = list(finished or [])
    game.must_include = must_include
    game.turn = turn
    game._legal_cache = (None, frozenset())
    return game


@lru_cache(maxsize=1 << 18)
def _plays(hand: int, pile: int, locked: bool, must_include: int | None,
           rules: ref.Ruleset) -> tuple:
    return tuple(sorted(ref.legal_moves_fast(hand, pile, locked, must_include, rules=rules)))


def _plays_args(game: RefGame) -> tuple:
    """The arguments RefGame.legal_plays passes to ``reference`` in this position."""
    seat = game.turn
    if game.pile == 0:
        return (game.hands[seat], 0, False, game.must_include)
    return (game.hands[seat], game.pile, seat in game.locked_seats, None)


def actions(game: RefGame) -> list[int]:
    """Every legal action of the seat to act: its plays (ascending masks), then PASS.

    The same question RefGame.legal_plays asks of ``reference`` (R5.2, R11.2: a locked-out
    seat only plays the bombs the rules allow out of turn; R7.2: the first lead holds the
    lowest card), remembered across
    positions, since a brute-force search asks it of the same hands again and again."""
    moves = list(_plays(*_plays_args(game), game.rules))
    if game.can_pass():
        moves.append(PASS)
    return moves


def after(game: RefGame, action: int) -> RefGame:
    """The position after ``action`` (``PASS`` or a play), leaving ``game`` as it was."""
    twin = copy_game(game)
    if action == PASS:
        twin.pass_turn()
    else:
        # RefGame.play checks the play against its legal_plays, which caches the answer
        # for its arguments: hand it the remembered answer for the same arguments.
        args = _plays_args(twin)
        twin._legal_cache = (args, frozenset(_plays(*args, twin.rules)))
        twin.play(action)
    return twin


def _key(game: RefGame, seat: int) -> tuple:
    return (tuple(game.hands), game.pile, game.pile_owner, frozenset(game.locked_seats),
            game.turn, game.must_include, game.rules, seat)


def wins(game: RefGame, seat: int, memo: dict | None = None) -> bool:
    """Whether ``seat`` goes out first, among the players holding cards now, against every
    reply of the others. ``seat`` must hold cards and the hand must not be over."""
    if game.is_over or game.hands[seat] == 0:
        raise ValueError("the seat must still hold cards in a hand in play")
    return _wins(game, seat, {} if memo is None else memo)


def _wins(game: RefGame, seat: int, memo: dict) -> bool:
    key = _key(game, seat)
    if key in memo:
        return memo[key]
    mover = game.turn
    outcomes = []
    for action in actions(game):
        child = after(game, action)
        if action != PASS and child.hands[mover] == 0:
            # R9.1: the mover is out, the first of the players who held cards at the start.
            outcome = mover == seat
        else:
            outcome = _wins(child, seat, memo)
        outcomes.append(outcome)
        # The side to act needs one good action; stop at the first.
        if outcome == (mover == seat):
            break
    result = any(outcomes) if mover == seat else all(outcomes)
    memo[key] = result
    return result
