"""Why a Tiến Lên bot chose its move, in words a player can learn from (the room Guandan
calls :mod:`tienlen.games.guandan.explain`): :class:`Explainer` words a move from the hand
split before and after it (:mod:`tienlen.games.tienlen.bots.split`: which groups the move
keeps intact, which it breaks), and the notes for the L3 search's estimate and a forced win.
:func:`tienlen.games.tienlen.hints.hint` asks the bot for its move and this module for why.

>>> from tienlen.games.tienlen.cards import Cards
>>> group_words(Cards.parse("4s 5c 6d"))
'4-5-6 run'
"""

from __future__ import annotations

from collections.abc import Sequence

from tienlen import _core
from tienlen.games.tienlen.bots.base import PASS, TWOS_MASK, Move
from tienlen.games.tienlen.bots.heuristic import Decision
from tienlen.games.tienlen.bots.search import Estimate
from tienlen.games.tienlen.bots.split import GROUP, is_control, move_damage, split_masks
from tienlen.games.tienlen.cards import RANKS, Cards
from tienlen.games.tienlen.plays import Combo, Kind, classify
from tienlen.games.tienlen.refusals import Wording
from tienlen.games.tienlen.rules import ALL_TARGETS, CONTRACT_CUTS, Bomb, Rules
from tienlen.games.tienlen.solver import Solution
from tienlen.games.tienlen.view import View

__all__ = ["Explainer", "group_words", "forced_note", "search_note", "joined"]

_DEFAULT_RULES = Rules()


def _move_words(move: Move) -> str:
    """A move as a field of a Wording ("pass" for PASS), for the screen to draw."""
    return "pass" if not isinstance(move, Cards) else Wording("{move}", move=move)


def forced_note(solution: Solution) -> str:
    """"wins by force: X, then Y, then Z": the seat's own moves along the solver's line."""
    pieces: list[str] = ["wins by force: "]
    for i, move in enumerate(solution.winning_moves()):
        pieces += [", then "] if i else []
        pieces.append(_move_words(move))
    return Wording.concat(*pieces)


def _shape(move: Move) -> tuple[int, ...]:
    return tuple(card >> 2 for card in move) if isinstance(move, Cards) else ()   # () for PASS


def search_note(estimate: Estimate, move: Move) -> str:
    """The search's numbers for ``move``, against the best different-looking move."""
    index = estimate.moves.index(move)
    place = estimate.mean_places[index]
    note = f"in {estimate.samples} sampled deals its average place is {place:.2f}"
    # A move that differs only in suits is no alternative worth naming; a move the search
    # dropped early rests on fewer samples.
    shape = _shape(move)
    others = [i for i, (m, n) in enumerate(zip(estimate.moves, estimate.counts))
              if n == estimate.samples and _shape(m) != shape]
    if not others:
        return note
    runner = min(others, key=estimate.mean_places.__getitem__)
    runner_move = estimate.moves[runner]
    what = "passing" if not isinstance(runner_move, Cards) else _move_words(runner_move)
    other = estimate.mean_places[runner]
    if other < place and estimate.first_rates:
        won, runner_won = estimate.first_rates[index], estimate.first_rates[runner]
        return Wording.concat(f"{note}, level with ", what, f" ({other:.2f}) within the noise, "
                              f"and it goes out first more often ({won:.0%} against "
                              f"{runner_won:.0%})")
    return Wording.concat(f"{note}, against {other:.2f} for ", what)


def group_words(cards: Cards, rules: Rules = _DEFAULT_RULES) -> str:
    """A group in a player's words: "pair of Ks", "4-5-6 run", "2♥".

    >>> group_words(Cards.parse("Ks Kh")), group_words(Cards.parse("4s 5c 6d"))
    ('pair of Ks', '4-5-6 run')
    >>> group_words(Cards.parse("2h")), group_words(Cards.parse("3s 3c 4d 4h 5s 5c"))
    ('2♥', '3-4-5 double run')
    """
    combo = classify(cards, rules)
    if combo is None or combo.kind is Kind.SINGLE:
        return Wording("{cards}", cards=cards)   # the suit matters: a field for the screen
    ranks = sorted({card >> 2 for card in cards})
    top = RANKS[ranks[-1]]
    if combo.kind is Kind.PAIR:
        return f"pair of {top}s"
    if combo.kind is Kind.TRIPLE:
        return f"three {top}s"
    if combo.kind is Kind.QUAD:
        return f"four {top}s"
    run = "-".join(RANKS[r] for r in ranks)
    return f"{run} run" if combo.kind is Kind.SEQUENCE else f"{run} double run"


_BOMB_WORDS: dict[Bomb, str] = {"quad": "a quad", "3ds": "a 3-pair double run",
                                "4ds": "a 4-pair double run", "5ds": "a 5-pair double run"}

# The same words by the core's table class (core.cut_class: the index in ALL_TARGETS).
_BOMB_CLASS_WORDS: dict[int, str] = {ALL_TARGETS.index(b): w for b, w in _BOMB_WORDS.items()}


def _cut_words(pile: Combo | None) -> str:
    """What a bomb that cuts ``pile`` does to it, in words: "beats their 2s" (R4.1), or,
    where the ruleset's table lets a bomb cut a bomb (R11.1), "cuts their quad".

    >>> _cut_words(classify("2h")), _cut_words(classify("9s 9c 9d 9h"))
    ('beats their 2s', 'cuts their quad')
    """
    words = _BOMB_CLASS_WORDS.get(_core.cut_class(pile.code)) if pile is not None else None
    return "beats their 2s" if words is None else f"cuts their {words.removeprefix('a ')}"


def _out_of_turn_words(rules: Rules, bot: bool = False) -> str:
    """What a locked-out player could still play, in words, from the ruleset's own table
    (R5.2 in the contract, R11.2 in the South).

    >>> _out_of_turn_words(Rules()), _out_of_turn_words(Rules.southern())
    ('only a bomb on 2s could be played', 'only a 4-pair double run on what it cuts could be played')
    """
    if rules.cuts == CONTRACT_CUTS and rules.out_of_turn == Rules().out_of_turn:
        return "only a bomb on 2s could be played"
    bombs = sorted(rules.out_of_turn & {bomb for bomb, _ in rules.cuts})
    if not bombs:
        return "it plays again only once the pile clears" if bot else \
            "you play again only once the pile clears"
    return f"only {_join([_BOMB_WORDS[b] for b in bombs], 'or')} on what it cuts could be played"


def _join(items: list[str], word: str = "and") -> str:
    """"a, b and c" as a :class:`~tienlen.games.tienlen.refusals.Wording` keeping every item's fields."""
    pieces: list[str] = []
    for i, item in enumerate(items):
        if i:
            pieces.append(", " if i < len(items) - 1 else f" {word} ")
        pieces.append(item)
    return Wording.concat(*pieces)


def joined(parts: Sequence[str]) -> str:
    """``"; ".join(parts)`` as a :class:`~tienlen.games.tienlen.refusals.Wording` keeping every part's
    fields (cards, seats)."""
    pieces: list[str] = []
    for i, part in enumerate(parts):
        pieces += ["; "] if i else []
        pieces.append(part)
    return Wording.concat(*pieces)


def _same_shape(code: int, other: int) -> bool:
    """Whether two combo codes have the same kind and number of cards (the core's helpers
    read the code's layout)."""
    return (_core.code_kind(code) == _core.code_kind(other)
            and _core.code_len(code) == _core.code_len(other))


def _breaks(group: int, move: int) -> bool:
    """Whether ``move`` breaks ``group``: it plays some of the group's cards, not all."""
    return bool(group & move) and bool(group & ~move)


class Explainer:
    """Words for why a move fits the hand, from the split before and after it.

    Every claim is a fact about the cards, worded so that a reader can check it: "breaks
    X" means the move plays some of X's cards but not all, "keeps X for later" that X is
    still whole in hand after the move, "every other beating move breaks ..." that each of
    those moves breaks one of the groups named (``tests/test_hint_claims.py`` checks each
    phrase over hundreds of positions). Advice that is not a fact is worded as advice.
    """

    def __init__(self, view: View, moves: list[Cards], voice: str = "you") -> None:
        # "you": advice to the person (a hint); "bot": the seat's own move, third person.
        self.bot = voice == "bot"
        self.your = "its" if self.bot else "your"
        self.view = view
        self.hand = view.hand.mask
        self.rules = view.rules
        self.flags = view.rules.flags
        self.moves = moves
        self.groups = split_masks(self.hand, self.flags)

    @staticmethod
    def _notable(group: int) -> bool:
        # Singles below a 2 are the leftovers of a split, not something worth keeping.
        return group.bit_count() > 1 or bool(group & TWOS_MASK)

    def _control(self, move: int) -> bool:
        return is_control(move, self.flags)

    def _your(self, group: int) -> str:
        return Wording.concat(f"{self.your} ", group_words(Cards(group), self.rules))

    def kept(self, move: int) -> list[str]:
        rest = split_masks(self.hand & ~move, self.flags)
        return [self._your(g) for g in sorted(rest, key=int.bit_length) if self._notable(g)]

    def broken(self, move: int) -> list[str]:
        return [self._your(g) for g in self.groups if _breaks(g, move) and self._notable(g)]

    def reason(self, move: Move, decision: Decision | None = None) -> str:
        if not isinstance(move, Cards):         # PASS
            return self._pass_reason()
        mask = move.mask
        if mask == self.hand:
            return ("it is its last combination: it goes out" if self.bot else
                    "it is your last combination: you go out")
        parts: list[str] = []
        rule = decision.rule if decision else None
        if rule == "block":
            count, seat = min((c, p) for p, c in enumerate(self.view.card_counts)
                              if p != self.view.seat and c)
            noun = "card" if count == 1 else "cards"
            # A Wording, so that a screen can name the seat without rewriting the text.
            advice = "it plays high" if self.bot else "play high"
            parts.append(Wording("{seat} has {count} {noun} left, so " + advice + " to stop them",
                                 seat=seat, count=count, noun=noun))
        elif rule == "finish":
            parts.append("nothing unseen beats it, so it keeps the lead for its last group"
                         if self.bot else
                         "nothing unseen beats it, so you keep the lead for your last group")
        elif rule == "bomb":
            parts.append(f"a bomb is exactly what {_cut_words(self.view.pile)}")
        elif rule == "control":
            parts.append(f"it should win the pile, and {self.your} hand is nearly done")
        # A move that is a group of another best split breaks nothing that matters.
        damaged = move_damage(self.hand, mask, self.flags) >= GROUP // 2
        broken = self.broken(mask) if damaged else []
        kept = self.kept(mask)
        if broken:
            parts.append(Wording.concat("it breaks ", _join(broken)))
        if kept:
            parts.append(Wording.concat("it keeps ", _join(kept), " for later"))
        if not parts:
            parts.append(self._plain_reason(mask))
        return joined(parts)

    def _plain_reason(self, mask: int) -> str:
        """The reason for a move that breaks nothing and keeps no group worth naming."""
        if self.view.pile is None:
            if mask & -mask == self.hand & -self.hand:
                return f"it sheds {self.your} lowest card first"
            # A lead without the lowest card, that breaks and keeps nothing worth naming:
            # chosen for the place it gets, which the search's numbers give.
            return f"it leads something other than {self.your} lowest cards, for the place it gets"
        pile = self.view.pile.code
        same = [m.mask for m in self.moves
                if _same_shape(_core.classify(m.mask, self.flags), pile)]
        if mask in same and mask.bit_length() == min(m.bit_length() for m in same):
            return "it is the cheapest play that beats the pile"
        # Not the cheapest: a search chose it over a lower card, so no claim about what it
        # keeps (it may spend the stronger card).
        return "it beats the pile, though a cheaper play also does"

    def _pass_reason(self) -> str:
        if not self.moves:
            if self.view.seat in self.view.locked_seats:
                who = "it" if self.bot else "you"
                return f"{who} passed on this pile, so {_out_of_turn_words(self.rules, self.bot)}"
            return f"nothing in {self.your} hand beats the pile"
        plain = [m.mask for m in self.moves if not self._control(m.mask)]
        strong = [m.mask for m in self.moves if self._control(m.mask)]
        parts: list[str] = []
        if strong:
            words = _join([self._your(m) for m in strong[:2]] + (["more"] if len(strong) > 2 else []))
            parts.append(Wording.concat(words, f" {'is' if len(strong) == 1 else 'are'} worth "
                                        "more later, when it wins the pile or stops someone "
                                        "going out"))
        # "Every other move breaks ..." is said only when each of those moves breaks one of
        # the groups named; a move that breaks nothing leaves passing as a choice of style.
        per_move = [self.broken(move) for move in plain]
        broken: list[str] = []
        if per_move and all(per_move):
            for groups in per_move:
                broken += [b for b in groups if b not in broken]
        if broken:
            if strong:
                what = "the other beating move" if len(plain) == 1 else "every other beating move"
            else:
                what = (f"{self.your} only beating move" if len(plain) == 1
                        else "every move that beats it")
            parts.append(Wording.concat(f"{what} breaks ", _join(broken, "or")))
        elif plain:
            parts.append(f"keeping {self.your} hand as it is scores better than beating this pile")
        return joined(parts)
