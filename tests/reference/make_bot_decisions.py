"""Write tests/data/bot_decisions.json: what each bot (and the L1/L2 hint) decided, under
the contract (``Rules()``), on a few hundred seeded positions.

Usage: ``python tests/make_bot_decisions.py`` (a few seconds).

The file was written from main *before* the bots learned the rule table (issue 13: their
bomb and cut reasoning used to look at the kind only, the contract's view). Under the
contract the rule-aware bots must decide exactly as before, so
``tests/test_bot_rules_aware.py`` replays every position and compares. Do not regenerate
it to make that test pass: a difference is a change of contract behaviour.

Positions: half from ``Game(seed=...)`` deals, half from deals where one seat is given a
bomb (a quad or a double sequence of 3, 4 or 5 pairs) and the seats hold extra 2s, so that
bombs, 2s and the piles they cut come up often. Each position is stored as its hands and
the list of moves (masks, 0 for a pass) played from the start, so it does not depend on
any bot; the moves were drawn by a seeded random driver that favours plays, and 2s.
"""

from __future__ import annotations


import json
import random
import sys
from pathlib import Path

from tienlen import _core
from tienlen.games.tienlen.bots import make_bot
from tienlen.games.tienlen.game import Game
from tienlen.games.tienlen.hints import hint

OUT = Path(__file__).resolve().parents[1] / "data" / "bot_decisions.json"
POSITIONS = 600
LEVELS = ("random", "L1", "L2")
BOT_SEED = 5


def _bomb(rng: random.Random) -> list[int]:
    """The cards (bit = rank * 4 + suit) of a random bomb."""
    kind = rng.choice(("quad", "3ds", "4ds", "5ds"))
    if kind == "quad":
        rank = rng.randrange(12)
        return [rank * 4 + s for s in range(4)]
    pairs = int(kind[0])
    low = rng.randrange(12 - pairs + 1)          # 2s (rank 12) never in a double sequence
    cards = []
    for rank in range(low, low + pairs):
        cards += [rank * 4 + s for s in rng.sample(range(4), 2)]
    return cards


def _bomb_deal(rng: random.Random, players: int) -> list[int]:
    seat = rng.randrange(players)
    bomb = _bomb(rng)
    rest = [c for c in range(52) if c not in bomb]
    rng.shuffle(rest)
    # Put 2s first in the rest so that they are dealt (more 2-combos on the pile).
    rest.sort(key=lambda c: (c < 48, rng.random()))
    hands = [0] * players
    for card in bomb:
        hands[seat] |= 1 << card
    need = [13 - (len(bomb) if s == seat else 0) for s in range(players)]
    order = [s for s in range(players) for _ in range(need[s])]
    rng.shuffle(order)
    for card, s in zip(rest, order):
        hands[s] |= 1 << card
    return hands


def _bomb_decision(game: Game) -> bool:
    """Whether the seat to act may play a quad or a double sequence now (the decisions the
    bots' bomb reasoning makes)."""
    return any(_core.code_kind(_core.classify(m.mask)) in (_core.QUAD, _core.DOUBLE_SEQUENCE)
               for m in game.legal_moves())


def _drive(game: Game, rng: random.Random, steps: int, until_bomb: bool) -> list[int]:
    """Play up to ``steps`` seeded random moves (stopping early, with ``until_bomb``, where
    the seat to act may play a bomb); the masks played (0 = pass)."""
    played: list[int] = []
    for _ in range(steps):
        if game.is_over or (until_bomb and played and _bomb_decision(game)):
            break
        moves = [m.mask for m in game.legal_moves()]
        twos = [m for m in moves if m >> 48]
        if twos and rng.random() < 0.5:
            move = rng.choice(twos)
        elif moves and (not game.can_pass() or rng.random() < 0.75):
            move = rng.choice(moves)
        else:
            move = 0
        game.apply_unchecked(move)
        played.append(move)
    return played


def positions() -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    rng = random.Random(20261130)
    while len(out) < POSITIONS:
        players = rng.choice((2, 3, 4, 4))
        if len(out) % 2:
            hands = _bomb_deal(rng, players)
        else:
            hands = [c.mask for c in Game(players, seed=rng.randrange(2**32)).hands]
        game = Game.from_hands(hands)
        moves = _drive(game, rng, rng.randrange(0, 30), until_bomb=len(out) % 4 == 1)
        if game.is_over:
            continue
        out.append({"hands": hands, "moves": moves})
    return out


def replay(position: dict[str, object]) -> Game:
    """The game of a stored position (shared with the test)."""
    game = Game.from_hands(position["hands"])  # type: ignore[arg-type]
    for move in position["moves"]:  # type: ignore[attr-defined]
        game.apply_unchecked(move)
    return game


def decisions(game: Game) -> dict[str, object]:
    view = game.view(game.turn)  # type: ignore[arg-type]
    record: dict[str, object] = {}
    for level in LEVELS:
        move = make_bot(level, seed=BOT_SEED).choose(view)
        record[level] = getattr(move, "mask", 0)
    decision = make_bot("L2", seed=BOT_SEED).decide(view)  # type: ignore[attr-defined]
    record["L2_rule"] = decision.rule
    record["hint_L1"] = str(hint(view, "L1", seed=BOT_SEED))
    record["hint_L2"] = str(hint(view, "L2", seed=BOT_SEED))
    return record


def main() -> int:
    rows = []
    for position in positions():
        rows.append({**position, **decisions(replay(position))})
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_text(json.dumps({"rules": "default", "bot_seed": BOT_SEED, "positions": rows},
                              indent=None, separators=(",", ":")) + "\n", encoding="utf-8")
    print(f"wrote {len(rows)} positions to {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
