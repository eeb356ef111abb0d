"""An independent, deliberately plain model of one hand of play (RULES.md R5-R9, R11.2-R11.3).

Built on ``reference`` only (nothing from ``tienlen``), to be driven side by side with
``tienlen.Game``. Each rule is implemented where its label appears, as literally as
RULES.md words it; speed is not a goal.

>>> from reference import parse, cards_str
>>> g = RefGame([parse("3♠ 4♠"), parse("5♠ 2♥")])  # R7.2: 3♠ leads, must include it
>>> g.turn, sorted(cards_str(m) for m in g.legal_plays())
(0, ['3♠'])
>>> g.play(parse("3♠")); g.play(parse("2♥")); g.turn, g.can_pass()  # seat 0 may pass
(0, True)

A dealt hand (not a set-up position) first looks for an instant win (R11.3):

>>> from reference import SOUTHERN
>>> dragon = parse("3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks As 2s")
>>> g = RefGame.dealt([parse("3c 4c"), dragon], leader=0, rules=SOUTHERN)
>>> g.is_over, g.instant_winner, g.finished
(True, 1, [1])
"""

from __future__ import annotations

from typing import Any, Mapping

import reference as ref


class RefGame:
    def __init__(
        self,
        hands: list[int],
        leader: int | None = None,
        twos_in_sequences: bool = True,
        rules: ref.Ruleset | Mapping[str, Any] | None = None,
    ) -> None:
        if not 2 <= len(hands) <= 4:
            raise ValueError("a hand is played by 2, 3 or 4 players (R1.1)")
        seen = 0
        for h in hands:
            ref.check_mask(h)
            if h & seen:
                raise ValueError("hands overlap")
            seen |= h
        self.players = len(hands)
        self.rules = ref.ruleset(twos_in_sequences, rules)
        self.twos_in_sequences = self.rules.twos_in_sequences
        # R11.3: set by ``dealt`` when a dealt hand wins at once.
        self.instant_winner: int | None = None
        self.hands = list(hands)
        self.pile = 0
        self.pile_owner: int | None = None
        self.locked_seats: set[int] = set()
        self.finished: list[int] = []
        # R7.2: the card the first lead must contain, when it applies.
        self.must_include: int | None = None
        if leader is None:
            self.must_include = ref.lowest_card(seen)
            leader = next(s for s, h in enumerate(hands) if (h >> self.must_include) & 1)
        elif not 0 <= leader < self.players:
            raise ValueError(f"no seat {leader}")
        self.turn: int | None = leader  # R7.4 when given explicitly
        self._legal_cache: tuple = (None, frozenset())

    @classmethod
    def dealt(
        cls,
        hands: list[int],
        leader: int | None = None,
        rules: ref.Ruleset | Mapping[str, Any] | None = None,
    ) -> RefGame:
        """The hand as dealt: like the constructor, then R11.3. Seats are checked in turn
        order from the leader (the seat to act first); the first whose hand holds an
        instant win the rules enable wins the hand at once. It is the only player out;
        the others share last place, so ``finished`` holds the winner alone."""
        game = cls(hands, leader, rules=rules)
        start = game.turn
        for step in range(game.players):
            seat = (start + step) % game.players
            if ref.instant_wins_of(game.hands[seat], rules=game.rules):
                game.instant_winner = seat
                game.finished = [seat]
                game.turn = None
                game.must_include = None
                break
        return game

    @property
    def is_over(self) -> bool:
        return self.turn is None

    def _locked_get_turn(self) -> bool:
        return ref.locked_out_get_turn(self.pile, rules=self.rules)

    # ------------------------------------------------------------------ questions

    def legal_plays(self) -> set[int]:
        if self.is_over:
            return set()
        seat = self.turn
        if self.pile == 0:
            # R7.1 (any combination) and R7.2 (include the lowest card, first lead only).
            args = (self.hands[seat], 0, False, self.must_include)
        else:
            args = (self.hands[seat], self.pile, seat in self.locked_seats, None)  # R5.2, R11.2
        # Asked several times per turn by the tests; the answer depends on args alone.
        if self._legal_cache[0] != args:
            moves = ref.legal_moves_fast(*args, rules=self.rules)
            self._legal_cache = (args, frozenset(moves))
        return set(self._legal_cache[1])

    def can_pass(self) -> bool:
        # R5.1: anyone may pass except the leader (R7.1); R5.3: a locked-out player
        # given the turn on a pile of 2s (R11.2: on anything an out-of-turn bomb cuts)
        # may pass too.
        return not self.is_over and self.pile != 0

    # -------------------------------------------------------------------- actions

    def play(self, mask: int) -> None:
        if mask not in self.legal_plays():
            raise ValueError(f"illegal play {ref.cards_str(mask)}")
        seat = self.turn
        self.hands[seat] &= ~mask
        self.pile = mask
        self.pile_owner = seat
        self.must_include = None
        # R5.4: a bomb unlocks no one (in or out of turn), so locked_seats is left as it is.
        if self.hands[seat] == 0:
            self.finished.append(seat)  # R9.1
            still_in = [s for s in range(self.players) if self.hands[s]]
            if len(still_in) == 1:
                self.finished.append(still_in[0])  # R9.2
                self.turn = None
                return
        self._advance_from(seat)

    def pass_turn(self) -> None:
        if not self.can_pass():
            raise ValueError("cannot pass now")
        seat = self.turn
        self.locked_seats.add(seat)  # R5.1
        self._advance_from(seat)

    def _advance_from(self, seat: int) -> None:
        """R8.1 clockwise, with the R5.3 skips and the R6 pile clearing."""
        for step in range(1, self.players + 1):
            candidate = (seat + step) % self.players
            if candidate == self.pile_owner:
                # R6.1 / R6.2: the turn has come round to the owner's seat.
                self.pile = 0
                self.pile_owner = None
                self.locked_seats.clear()
                leader = candidate
                while self.hands[leader] == 0:
                    leader = (leader + 1) % self.players
                self.turn = leader
                return
            if self.hands[candidate] == 0:
                continue  # R8.1: out players are skipped
            if candidate in self.locked_seats and not self._locked_get_turn():
                continue  # R5.3, R11.2
            self.turn = candidate
            return
        raise AssertionError("unreachable: the owner's seat is always reached")
