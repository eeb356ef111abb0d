"""Guandan positions for the tests that need a hand in play with a history behind it:
tributes paid and returned, passes on record (L3's sampling and inference)."""

from __future__ import annotations

from tienlen.guandan import Match
from tienlen.games.guandan.bots import PlanBot


def mid_hand(seed: int, actions: int):
    """The game of hand 2 of a seeded match of four L2 seats (after its tribute), `actions`
    plays and passes in."""
    match = Match(seed=seed)
    bots = [PlanBot(seed=s) for s in range(4)]
    while match.hand_number < 2 or match.game.phase == "tribute" or actions > 0:
        if match.hand_number >= 2 and match.game.phase == "play":
            actions -= 1
        seat = match.turn
        kind, cards = bots[seat].decide(match.game.view(seat))
        match.act(kind, cards, seat)
    return match.game
