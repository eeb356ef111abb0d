"""An independent, deliberately plain model of a Guandan hand and match (GUANDAN.md G5-G7).

Written from the rulings apart from tienlen.games.guandan.game / match, and importing nothing from
``tienlen``: hands are Counters of original ids, a play is (sorted ids, reading) with the
reading (kind, size, rank) of tests/guandan_reference.py, which decides legality. The
differential tests drive a tienlen Match and this model side by side and compare them after
every action.
"""

from __future__ import annotations

from collections import Counter
from typing import Sequence

import guandan_reference as ref

Reading = tuple[str, int, int]

KINDS = ("single", "pair", "triple", "full_house", "straight", "three_pairs", "plate",
         "bomb", "straight_flush", "joker_bomb")


def card_value(card: int, level: int) -> int:
    """Single-card order (G1.5): naturals 2..14, the level rank 15, ☆ 16, ★ 17."""
    if card == 52:
        return 16
    if card == 53:
        return 17
    rank = 2 + card // 4
    return 15 if rank == level else rank


def partner_of(seat: int, teams) -> int:
    for team in teams:
        if seat in team:
            return team[0] if team[1] == seat else team[1]
    raise AssertionError(seat)


class RefHand:
    """The play phase of one hand (G5)."""

    def __init__(self, hands: Sequence[Counter], level: int, leader: int, teams, cfg: dict):
        self.hands = [Counter(h) for h in hands]
        self.level = level
        self.teams = teams
        self.cfg = cfg
        self.turn: int | None = leader
        self.pile: Reading | None = None
        self.owner: int | None = None
        self.passed: set[int] = set()      # seats that passed since the last play
        self.out: list[int] = []

    def holding(self, seat: int) -> bool:
        return sum(self.hands[seat].values()) > 0

    def next_seat(self, seat: int) -> int:
        for step in range(1, 5):
            s = (seat + step) % 4
            if self.holding(s):
                return s
        raise AssertionError("nobody holds cards")

    def is_legal(self, ids: Sequence[int], reading: Reading) -> bool:
        hand = self.hands[self.turn]
        need = Counter(ids)
        if any(hand[c] < n for c, n in need.items()):
            return False
        if reading not in ref.classify(list(ids), self.level, self.cfg):
            return False
        return self.pile is None or ref.beats(reading, self.pile, self.level, self.cfg)

    def play(self, ids: Sequence[int], reading: Reading) -> None:
        assert self.turn is not None and self.is_legal(ids, reading)
        seat = self.turn
        self.hands[seat] -= Counter(ids)
        self.pile, self.owner = reading, seat
        self.passed = set()
        if not self.holding(seat):
            self.out.append(seat)
            if partner_of(seat, self.teams) in self.out:
                self.turn = None           # G5.7: the hand ends before any 接风
                return
        self.turn = self.next_seat(seat)

    def can_pass(self) -> bool:
        return self.turn is not None and self.pile is not None

    def pass_(self) -> None:
        assert self.can_pass()
        self.passed.add(self.turn)
        waiting = {s for s in range(4) if self.holding(s) and s != self.owner}
        if waiting <= self.passed:
            # Trick over (G5.5): the owner leads, or its partner when it is out (G5.6).
            owner = self.owner
            self.pile, self.owner, self.passed = None, None, set()
            self.turn = owner if self.holding(owner) else partner_of(owner, self.teams)
            assert self.holding(self.turn)
            return
        self.turn = self.next_seat(self.turn)

    def places(self) -> list[int]:
        """G5.8: the out order, then the others (order among them is irrelevant to G6/G7,
        except that both of a team still in hold 3rd and 4th)."""
        rest = [s for s in range(4) if s not in self.out]
        return self.out + rest


def tribute_setup(places: list[int], hands: Sequence[Counter], teams) -> dict:
    """G6.2, G6.5, G6.6: who pays, or an anti-tribute, judged on the new hands."""
    first = places[0]
    mate_place = places.index(partner_of(first, teams))   # 1, 2 or 3
    if mate_place == 1:
        payers = [places[2], places[3]]
    elif mate_place == 2:
        payers = [places[3]]
    else:
        payers = [places[2]]
    big_jokers = sum(hands[p][53] for p in payers)
    if big_jokers >= 2:
        return {"anti": True, "leader": first, "payers": []}
    return {"anti": False, "payers": payers}


def allowed_tribute(hand: Counter, level: int, cfg: dict) -> set[int]:
    wild = ref.wild_card(level, cfg)
    cands = [c for c, n in hand.items() if n > 0 and (cfg["can_tribute_wild"] or c != wild)]
    top = max(card_value(c, level) for c in cands)
    return {c for c in cands if card_value(c, level) == top}


def allowed_return(hand: Counter, level: int, cfg: dict) -> set[int]:
    have = [c for c, n in hand.items() if n > 0]
    ok = {c for c in have if c < 52 and 2 + c // 4 != level
          and 2 + c // 4 <= cfg["tribute_return_max_rank"]}
    if ok:
        return ok
    low = min(card_value(c, level) for c in have)
    return {c for c in have if card_value(c, level) == low}


def assign_receivers(places: list[int], given: dict[int, int], level: int) -> tuple[dict, int]:
    """G6.5, G6.7: payer -> receiver, and the leader (whoever paid the first out)."""
    first, second = places[0], places[1]
    if len(given) == 1:
        (payer,) = given
        return {payer: first}, payer
    a, b = list(given)
    va, vb = card_value(given[a], level), card_value(given[b], level)
    if va == vb:
        # Equal: going round from the seat after the first out, the first payer met.
        order = [(first + k) % 4 for k in range(1, 4)]
        to_first = a if order.index(a) < order.index(b) else b
    else:
        to_first = a if va > vb else b
    other = b if to_first == a else a
    return {to_first: first, other: second}, to_first


class RefMatch:
    """Levels and the match (G7)."""

    def __init__(self, cfg: dict, teams):
        self.cfg = cfg
        self.teams = teams
        self.levels = [2, 2]
        self.failed = [0, 0]
        self.declarer: int | None = None
        self.winner: int | None = None

    def team(self, seat: int) -> int:
        return 0 if seat in self.teams[0] else 1

    def settle(self, places: list[int]) -> None:
        first = places[0]
        win = self.team(first)
        mate_place = places.index(partner_of(first, self.teams)) + 1
        gain = {2: self.cfg["double_down_levels"], 3: 2, 4: 1}[mate_place]
        d = self.declarer
        attempt_failed = False
        if d is not None and self.levels[d] == 14:
            if d == win and mate_place <= 3:
                self.winner = win
                return
            attempt_failed = True
        self.levels[win] = min(14, self.levels[win] + gain)
        if attempt_failed:
            self.failed[d] += 1
            limit = self.cfg["failed_attempts_limit"]
            if limit and self.failed[d] >= limit:
                self.levels[d] = 2
                self.failed[d] = 0
        self.declarer = win

    @property
    def level(self) -> int:
        return 2 if self.declarer is None else self.levels[self.declarer]
