"""Differential tests: ``tienlen.Game`` against the independent game model ``RefGame``.

Both models are driven with the same seeded random choices; after every action their
whole visible state and their legal options must agree, and actions one refuses the
other must refuse too. ``TIENLEN_SOAK=1`` plays 100 times more games.
"""

from __future__ import annotations

import math
import os
import random
from dataclasses import dataclass, field

import pytest

import reference as ref
from reference import DOUBLE_SEQUENCE, QUAD
from reference_game import RefGame
from tienlen import Cards, Game, Rules

SOAK = 100 if os.environ.get("TIENLEN_SOAK") == "1" else 1
PASS = 0


@dataclass
class Log:
    """Everything needed to replay a failing game by hand."""

    hands: list[int]
    leader: int | None
    twos_in_sequences: bool
    actions: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        seats = "\n".join(f"    seat {s}: [{ref.cards_str(h)}] ({h:#x})" for s, h in enumerate(self.hands))
        rules = "Rules()" if self.twos_in_sequences else "Rules(twos_in_sequences=False)"
        actions = "\n".join(f"    {a}" for a in self.actions[-25:]) or "    (none)"
        skipped = len(self.actions) - 25
        more = f"    ... {skipped} earlier actions not shown\n" if skipped > 0 else ""
        return (
            f"  Game.from_hands(hands, rules={rules}, leader={self.leader})\n"
            f"  hands:\n{seats}\n  actions so far:\n{more}{actions}"
        )


def deal(rng: random.Random, players: int) -> list[int]:
    """Random hands of four styles: full 13-card deals; short hands from the top ranks,
    where endings and 2s come quickly; short hands from a narrow band of ranks plus the
    2s; and "duels" where most seats hold a bomb and some 2s (R4, R5.2-R5.4)."""
    style = rng.random()
    if style < 0.3:
        size, deck = 13, list(range(52))
    elif style < 0.5:
        size = rng.randint(2, 9)
        low_rank = rng.randint(0, 13 - math.ceil(size * players / 4))
        deck = list(range(4 * low_rank, 52))
    elif style < 0.75:
        size = rng.randint(4, 10)
        width = min(12, math.ceil(size * players / 4) + rng.randint(0, 1))
        low_rank = rng.randint(0, 12 - width)
        deck = list(range(4 * low_rank, 4 * (low_rank + width))) + [48, 49, 50, 51]
    else:
        return duel_deal(rng, players)
    cards = rng.sample(deck, size * players)
    return [sum(1 << c for c in cards[i * size : (i + 1) * size]) for i in range(players)]


def duel_deal(rng: random.Random, players: int) -> list[int]:
    free = ref.FULL_DECK
    hands = [0] * players
    for seat in range(players):
        if rng.random() < 0.7:
            # A quad, or a double sequence of 3-5 pairs, from ranks below the 2s.
            pairs = rng.choice([0, 3, 3, 4, 5])
            length = max(pairs, 1)
            lo = rng.randint(0, 12 - length)
            need = 4 if pairs == 0 else 2
            bomb = 0
            for r in range(lo, lo + length):
                here = [c for c in range(4 * r, 4 * r + 4) if (free >> c) & 1]
                if len(here) < need:
                    bomb = 0
                    break
                bomb |= sum(1 << c for c in rng.sample(here, need))
            hands[seat] |= bomb
            free &= ~bomb
        twos = [c for c in range(48, 52) if (free >> c) & 1]
        for c in rng.sample(twos, min(len(twos), rng.randint(0, 2))):
            hands[seat] |= 1 << c
            free &= ~(1 << c)
    for seat in range(players):
        extra = rng.randint(1, 5)
        pool = ref.cards_of(free)
        for c in rng.sample(pool, extra):
            hands[seat] |= 1 << c
            free &= ~(1 << c)
    return hands


def game_state(game: Game) -> dict:
    return {
        "turn": game.turn,
        "hands": tuple(h.mask for h in game.hands),
        "pile": None if game.pile is None else game.pile.cards.mask,
        "pile_owner": game.pile_owner,
        "locked_seats": game.locked_seats,
        "finished": game.finished,
        "is_over": game.is_over,
    }


def ref_state(g: RefGame) -> dict:
    return {
        "turn": g.turn,
        "hands": tuple(g.hands),
        "pile": None if g.pile == 0 else g.pile,
        "pile_owner": g.pile_owner,
        "locked_seats": frozenset(g.locked_seats),
        "finished": tuple(g.finished),
        "is_over": g.is_over,
    }


def state_str(state: dict) -> str:
    shown = dict(state)
    shown["hands"] = " | ".join(ref.cards_str(h) for h in shown["hands"])
    if shown["pile"] is not None:
        shown["pile"] = f"[{ref.cards_str(shown['pile'])}]"
    return ", ".join(f"{k}={v}" for k, v in shown.items())


def compare(game: Game, g: RefGame, log: Log) -> set[int]:
    """Assert both models agree; return the legal plays (empty when over)."""
    mine, theirs = ref_state(g), game_state(game)
    assert isinstance(theirs["locked_seats"], frozenset) and isinstance(theirs["finished"], tuple)
    assert theirs == mine, (
        f"game state differs\n  Game:      {state_str(theirs)}\n  reference: {state_str(mine)}\n{log}"
    )
    want = g.legal_plays()
    got = {c.mask for c in game.legal_moves()}
    where = f"seat {g.turn} holding [{ref.cards_str(g.hands[g.turn])}]" if not g.is_over else "game over"
    assert got == want, (
        f"legal moves differ for {where}\n"
        f"  only Game: {sorted(ref.cards_str(m) for m in got - want)}\n"
        f"  only reference: {sorted(ref.cards_str(m) for m in want - got)}\n{log}"
    )
    assert game.can_pass() == g.can_pass(), (
        f"can_pass differs for {where}: Game {game.can_pass()}, reference {g.can_pass()}\n{log}"
    )
    return want


def is_bomb_shape(mask: int) -> bool:
    return ref.classify(mask)[0] in (QUAD, DOUBLE_SEQUENCE)


def holds_bomb(hand: int) -> bool:
    return any(is_bomb_shape(m) for m in ref.combos_in(hand) if m.bit_count() >= 4)


def choose(rng: random.Random, plays: set[int], can_pass: bool, pile: int, hand: int) -> int:
    """Uniform over plays and pass, but often play 2s, bomb them, save a bomb by passing
    (to bomb later while locked out), or play rather than pass, so that the special rules
    (R4, R5.2-R5.4) come up in most games."""
    ordered = sorted(plays)
    r = rng.random()
    if ref.is_two_combo(pile) and r < 0.7:
        bombs = [m for m in ordered if is_bomb_shape(m)]
        if bombs:
            return rng.choice(bombs)
    if can_pass and not ref.is_two_combo(pile) and r < 0.4 and holds_bomb(hand):
        return PASS
    if ordered and r < 0.3:
        twos = [m for m in ordered if ref.is_two_combo(m)]
        if twos:
            return rng.choice(twos)
    if ordered and (r < 0.5 or not can_pass):
        return rng.choice(ordered)
    return rng.choice(ordered + ([PASS] if can_pass else []))


def probe_refusals(rng: random.Random, game: Game, g: RefGame, legal: set[int], log: Log) -> None:
    """Random attempts, mostly illegal: both models must accept or refuse them alike."""
    hand = g.hands[g.turn]
    cards = ref.cards_of(hand)
    outside = [c for c in range(52) if not (hand >> c) & 1]
    tries = []
    for _ in range(3):
        k = rng.randint(1, min(4, len(cards)))
        tries.append(sum(1 << c for c in rng.sample(cards, k)))
    if outside:
        tries.append((1 << rng.choice(outside)) | (1 << rng.choice(cards)))
    for m in tries:
        expected = m in legal
        assert game.can_play(Cards(m)) == expected, (
            f"can_play([{ref.cards_str(m)}]) is {not expected} in Game, {expected} in the reference "
            f"(seat {g.turn}, hand [{ref.cards_str(hand)}])\n{log}"
        )
    refused = [m for m in tries if m not in legal]
    if refused:
        # A refused action raises ValueError and changes nothing, in both models.
        m = rng.choice(refused)
        before, before_ref = game_state(game), ref_state(g)
        with pytest.raises(ValueError):
            game.play(Cards(m))
        with pytest.raises(ValueError):
            g.play(m)
        assert game_state(game) == before and ref_state(g) == before_ref, (
            f"refused play [{ref.cards_str(m)}] changed the state\n{log}"
        )
    if not g.can_pass():
        with pytest.raises(ValueError):
            game.pass_turn()
        with pytest.raises(ValueError):
            g.pass_turn()
        assert game_state(game) == ref_state(g), f"refused pass changed the state\n{log}"


@dataclass
class Tally:
    """How often the games reached the rarer rules, so the test can insist they did.

    bombs: a quad or double sequence played on 2s (R4.1); locked_bombs: by a locked-out
    player (R5.2); bomb_on_bomb: a play on a quad or double sequence (R4.3, and the
    R5.4 skip); locked_turns_on_twos: a locked-out seat given the turn (R5.3);
    owner_out_clears: the pile cleared after its owner went out (R6.2).
    """

    games: int = 0
    actions: int = 0
    bombs: int = 0
    locked_turns_on_twos: int = 0
    owner_out_clears: int = 0
    locked_bombs: int = 0
    bomb_on_bomb: int = 0


def play_one(rng: random.Random, players: int, tally: Tally) -> None:
    hands = deal(rng, players)
    leader = None if rng.random() < 0.5 else rng.randrange(players)
    tis = rng.random() < 0.5
    log = Log(hands, leader, tis)
    game = Game.from_hands([Cards(h) for h in hands], rules=Rules(twos_in_sequences=tis), leader=leader)
    g = RefGame(list(hands), leader=leader, twos_in_sequences=tis)
    legal = compare(game, g, log)
    while not g.is_over:
        seat = g.turn
        if seat in g.locked_seats:
            tally.locked_turns_on_twos += 1
        probe_refusals(rng, game, g, legal, log)
        move = choose(rng, legal, g.can_pass(), g.pile, g.hands[seat])
        owner_before = g.pile_owner
        if move == PASS:
            log.actions.append(f"seat {seat} passes")
            game.pass_turn()
            g.pass_turn()
        else:
            log.actions.append(f"seat {seat} plays [{ref.cards_str(move)}]")
            if ref.is_two_combo(g.pile) and not ref.is_two_combo(move):
                tally.bombs += 1
                tally.locked_bombs += seat in g.locked_seats
            if g.pile and is_bomb_shape(g.pile):
                tally.bomb_on_bomb += 1
            game.play(Cards(move))
            g.play(move)
        if owner_before is not None and g.pile == 0 and g.hands[owner_before] == 0:
            tally.owner_out_clears += 1
        tally.actions += 1
        legal = compare(game, g, log)
    assert sorted(g.finished) == list(range(players))
    tally.games += 1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_game_matches_reference(players: int) -> None:
    rng = random.Random(1000 + players)
    tally = Tally()
    for _ in range(700 * SOAK):
        play_one(rng, players, tally)
    # The random policy must actually reach the rules that matter most.
    assert tally.bombs > 50 * SOAK, tally
    assert tally.bomb_on_bomb >= 3 * SOAK, tally
    if players > 2:  # with two players a pass always hands the lead back at once
        assert tally.locked_turns_on_twos > 200 * SOAK, tally
        assert tally.locked_bombs > 15 * SOAK, tally
        assert tally.owner_out_clears > 200 * SOAK, tally
