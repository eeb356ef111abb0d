"""The Python twin of the core's PLAN playout policy, to test it against move for move.

Written straight from the specification in ``docs/strength.md`` on top of the tests' own
split search (``tests/reference_split.py``, not the core's), asking the core only rule questions (``beats``, legal
moves, applying a move). Every seat plays a cut-down L2:

- every seat keeps a *plan*: the best split of its hand, weakest group first, 2s and bombs
  last, recomputed only when it plays something off-plan;
- **lead**: the weakest group that is not a 2 or a bomb; with an opponent on 1-2 cards, a
  group bigger than that opponent's hand, else the highest group;
- **follow**: the lowest group that beats the pile; a 2 or a bomb only when the plan is
  down to three groups, an opponent holds three cards or fewer, or it bombs 2s; with an
  opponent on 1-2 cards, the highest legal play; otherwise pass.

Under other rules (issue 13) a *bomb* is a combination that cuts something by the ruleset's
table (``core.cut_targets``), or a double sequence of six or more pairs; "it bombs 2s" reads
"it is a bomb and the pile is something a bomb cuts" (``core.cutters``); a locked-out seat
plays its first plan group that the game lets it play (R5.2, R11.2).

>>> from tienlen import core
>>> state = core.GameState(core.deal(4))
>>> hands = state.hands
>>> order = Playout(flags=0).run(state.copy(), [plan_of(h) for h in hands])
>>> order == state.playout(0, core.PLAN)
True
"""

from __future__ import annotations

from functools import lru_cache

from tienlen import _core
from tienlen.games.tienlen.bots.base import TWOS_MASK
from reference_split import split_masks

__all__ = ["Playout", "plan_of", "Plan"]

#: A seat's plan: ``(mask, combo code, is a 2 or a bomb)`` per group, weakest first, 2s
#: and bombs last.
Plan = list[tuple[int, int, bool]]

# A plan this short can afford to spend a 2 or a bomb to win the lead.
_SHORT_PLAN = 3
# An opponent this close to going out makes every seat play to stop them.
_DANGER = 2
# ... and this close makes a 2 or a bomb worth spending.
_NEAR = 3


def _is_bomb(code: int, flags: int) -> bool:
    """A bomb for the plan under ``flags``: a combination the cut table lets cut something,
    or a double sequence of six or more pairs (under the contract: any quad or double
    sequence). Written here from the kind and the table, not taken from the core's
    ``is_bomb_group``, which this twin checks."""
    if code >> 12 == 6 and (code >> 6) & 63 >= 12:
        return True
    if flags:
        return bool(_core.cut_targets(code, flags))
    return _core.code_kind(code) in (_core.QUAD, _core.DOUBLE_SEQUENCE)


def _is_control(mask: int, code: int, flags: int = 0) -> bool:
    return bool(mask & TWOS_MASK) or _is_bomb(code, flags)


def plan_of(mask: int, flags: int = 0) -> Plan:
    """The plan for a hand: its best split as ``(mask, code, is 2-or-bomb)`` triples,
    weakest first, 2s and bombs last. A new list each call (playouts edit their plans).

    >>> from tienlen.games.tienlen.cards import Cards
    >>> [(str(Cards(m)), control) for m, _, control in plan_of(Cards.parse("2s 3s 4c 5d 9h 9c").mask)]
    [('3♠ 4♣ 5♦', False), ('9♣ 9♥', False), ('2♠', True)]
    """
    return list(_plan(mask, flags))


@lru_cache(maxsize=1 << 16)
def _plan(mask: int, flags: int) -> tuple[tuple[int, int, bool], ...]:
    # Cached: under common random numbers every candidate action replays the same sampled
    # deal, so the same hands come back again and again.
    classify = _core.classify
    groups = []
    for g in split_masks(mask, flags):
        code = classify(g, flags)
        groups.append((g, code, _is_control(g, code, flags)))
    groups.sort(key=lambda g: (g[2], g[1] & 63, -g[0].bit_count()))
    return tuple(groups)


class Playout:
    """Runs plan playouts under one ruleset (``flags``)."""

    __slots__ = ("flags",)

    def __init__(self, flags: int = 0) -> None:
        self.flags = flags

    def run(self, state: _core.GameState, plans: list[Plan], trace: list[int] | None = None) -> tuple[int, ...]:
        """Play ``state`` (changed in place) to the end and return the finishing order.

        ``plans[p]`` is seat p's plan for its current hand (updated in place); every action
        taken (0 = pass) is appended to ``trace`` if given.
        """
        beats, flags = _core.beats, self.flags
        while state.turn >= 0:
            seat = state.turn
            hands = state.hands
            plan = plans[seat]
            danger = 99
            for p, h in enumerate(hands):
                if h and p != seat:
                    count = h.bit_count()
                    if count < danger:
                        danger = count
            pile = state.pile_code
            move = 0
            if pile == 0:
                card = state.must_include
                if card >= 0:
                    # R7.2: the first lead must hold the lowest card; its group does.
                    move = next(g[0] for g in plan if (g[0] >> card) & 1)
                else:
                    move = self._lead(plan, danger)
            elif (state.locked_mask >> seat) & 1:
                # R5.2 / R11.2: a seat that passed may only play the bombs the rules let it
                # play out of turn; it plays the first plan group that is one of them.
                allowed = set(state.legal_moves().tolist())
                move = next((m for m, _, _ in plan if m in allowed), 0)
            elif danger <= _DANGER:
                moves = state.legal_moves().tolist()
                if moves:
                    move = max(moves, key=lambda m: (not _is_bomb(_core.classify(m, flags), flags),
                                                     m.bit_length()))
            else:
                # Under the contract: the pile is 2s (R4.1).
                cuttable = bool(_core.cutters(pile, flags))
                for m, c, control in plan:
                    if beats(c, pile, flags):
                        if (not control or len(plan) <= _SHORT_PLAN
                                or danger <= _NEAR or (cuttable and _is_bomb(c, flags))):
                            move = m
                        break
            state.apply(move)
            if trace is not None:
                trace.append(move)
            if move:
                for i, group in enumerate(plan):
                    if group[0] == move:
                        del plan[i]
                        break
                else:
                    plans[seat] = plan_of(hands[seat] & ~move, flags)
        return state.finished

    @staticmethod
    def _lead(plan: Plan, danger: int) -> int:
        if len(plan) == 1:
            return plan[0][0]
        if danger <= _DANGER:
            for m, _c, control in plan:
                if m.bit_count() > danger and not control:
                    return m
            return max(plan, key=lambda g: g[1] & 63)[0]
        for m, _c, control in plan:
            if not control:
                return m
        return plan[0][0]
