"""HeuristicBot (L2): play the hand as a plan of groups, keep the strong cards for the end.

The plan is the hand's best split (:mod:`tienlen.games.tienlen.bots.split`): the fewest combinations that
cover it. Every candidate move is scored by its *damage*, how much it worsens that split
(0 when the move is one of the groups). Then:

- **Going out** is always taken.
- **Control cards** (anything holding a 2, and bombs) are held back. One is played only
  when it wins the pile for sure (nothing among the unseen cards can beat it) and the
  hand is short enough to use the lead it wins, when it is a bomb that cuts the pile, or
  when an opponent is close to going out.
- **Lead.** With at most one group left that could be beaten, lead the unbeatable groups
  first and go out with the last. Otherwise lead the weakest intact group (lowest top
  card, then most cards). When an opponent holds 1 or 2 cards, avoid leading a
  combination that small; if nothing else is left, lead the highest one.
- **Follow.** Beat the pile with the lowest move that keeps the split intact, else pass.
  When an opponent holds 1 or 2 cards, stop them: play the highest beating move, breaking
  groups if needed.

"Unbeatable" pools every unseen card as if one opponent held them all, so it errs on the
side of caution. "Bomb" and "cuts" are the game's rule table (:func:`~tienlen.games.tienlen.bots.base.is_bomb`,
:func:`~tienlen.games.tienlen.bots.base.cuts`): a bomb cuts 2s under the contract (R4.1), and in the South
also the bombs below it (R11.1, chặt chồng).

>>> from tienlen.games.tienlen.game import Game
>>> game = Game.from_hands(["3s 4d 5c 9s 9h Kd", "6s 7s 8s 10c Jd 2h"])
>>> bot = HeuristicBot(seed=0)
>>> print(bot.choose(game.view(0)))     # the run, keeping the pair of 9s
3♠ 4♦ 5♣
>>> _ = game.play("3s 4d 5c")
>>> print(bot.choose(game.view(1)))     # 6-7-8 is a group of its split
6♠ 7♠ 8♠
"""

from __future__ import annotations

from dataclasses import dataclass

from tienlen import _core
from tienlen.games.tienlen.cards import Cards
from tienlen.games.tienlen.view import View
from tienlen.games.tienlen.bots.base import PASS, Bot, Move, cuts, is_bomb, is_unbeatable
from tienlen.games.tienlen.bots.split import GROUP, is_control, move_damage, split_count, split_masks

__all__ = ["HeuristicBot", "Decision"]

# Damage below this counts as "keeps the split": tie-break differences only, no broken group.
_KEEPS = GROUP // 2
# A hand down to this many groups can use the lead that a sure winner buys.
_SHORT_HAND = 3


@dataclass(frozen=True, slots=True)
class Decision:
    """A move and the rule that chose it (for hints). ``rule`` is one of ``"out"``,
    ``"only"``, ``"finish"``, ``"block"``, ``"lead"``, ``"follow"``, ``"control"``,
    ``"bomb"``, ``"pass"``."""

    move: Move
    rule: str
    damage: int = 0


class HeuristicBot(Bot):
    """L2: split-aware play that keeps 2s and bombs for when they decide the hand."""

    level = "L2"

    def choose(self, view: View) -> Move:
        return self.decide(view).move

    def decide(self, view: View) -> Decision:
        """The move and which rule chose it."""
        self._check_turn(view)
        moves = [m.mask for m in view.legal_moves()]
        can_pass = view.can_pass()
        hand = view.hand.mask
        if hand in moves:
            return Decision(Cards(hand), "out")
        if len(moves) + can_pass == 1:
            return Decision(Cards(moves[0]) if moves else PASS, "only")
        ctx = _Context(view)
        if view.pile is None:
            return ctx.lead(moves)
        return ctx.follow(moves)


class _Context:
    """Everything one decision needs, computed once."""

    def __init__(self, view: View) -> None:
        self.hand = view.hand.mask
        self.flags = view.rules.flags
        self.unseen = view.unseen.mask
        # Only the cards opponents still hold can beat us; the seat's own cards and the
        # played ones are already outside `unseen`.
        counts = [c for seat, c in enumerate(view.card_counts) if seat != view.seat and c]
        self.danger = min(counts) if counts else 99
        self.pile_code = view.pile.code if view.pile is not None else 0
        self._damage: dict[int, int] = {}

    def damage(self, move: int) -> int:
        value = self._damage.get(move)
        if value is None:
            value = self._damage[move] = move_damage(self.hand, move, self.flags)
        return value

    def code(self, move: int) -> int:
        return _core.classify(move, self.flags)

    def bomb(self, move: int) -> bool:
        return is_bomb(self.code(move), self.flags)

    def cuts_pile(self, move: int) -> bool:
        return cuts(self.code(move), self.pile_code, self.flags)

    def control(self, move: int) -> bool:
        return is_control(move, self.flags)

    def unbeatable(self, move: int) -> bool:
        return is_unbeatable(move, self.unseen, self.flags)

    def lead(self, moves: list[int]) -> Decision:
        # The split's groups are the intact leads (on a first lead, the one group holding
        # the required card is the only legal one).
        groups = split_masks(self.hand, self.flags)
        legal = set(moves)
        intact = [g for g in groups if g in legal] or moves
        # Finishing line: when every group but one wins for sure, lead the sure winners
        # (each gives the lead back) and go out with the last group.
        winners = [g for g in intact if self.unbeatable(g)]
        if winners and len(groups) - len(winners) <= 1:
            best = max(winners, key=lambda m: (m.bit_count(), -self._top(m)))
            return Decision(Cards(best), "finish", self.damage(best))
        plain = [m for m in intact if not self.control(m)] or intact
        if self.danger <= 2:
            safe = [m for m in plain if m.bit_count() > self.danger]
            if safe:
                plain = safe
            else:
                best = max(intact, key=self._top)
                return Decision(Cards(best), "block", self.damage(best))
        best = min(plain, key=lambda m: (self._top(m), -m.bit_count()))
        return Decision(Cards(best), "lead", self.damage(best))

    def follow(self, moves: list[int]) -> Decision:
        if self.danger <= 2 and moves:
            best = max(moves, key=lambda m: (not self.bomb(m), self._top(m)))
            return Decision(Cards(best), "block", self.damage(best))
        if moves:
            bombs = [m for m in moves if self.cuts_pile(m)]   # only a bomb cuts
            if bombs:
                best = min(bombs, key=self.damage)
                return Decision(Cards(best), "bomb", self.damage(best))
        plain = [m for m in moves if not self.control(m) and self.damage(m) < _KEEPS]
        if plain:
            best = min(plain, key=self._top)
            return Decision(Cards(best), "follow", self.damage(best))
        strong = [m for m in moves if self.control(m) and self.damage(m) < _KEEPS]
        short = split_count(self.hand, self.flags) <= _SHORT_HAND
        for m in sorted(strong, key=self._top):
            if (short and self.unbeatable(m)) or self.danger <= 3:
                return Decision(Cards(m), "control", self.damage(m))
        return Decision(PASS, "pass")

    @staticmethod
    def _top(move: int) -> int:
        return move.bit_length() - 1
