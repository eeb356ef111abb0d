"""Why a Tiến Lên bot chose its move, in words a player can learn from (the room Guandan
calls :mod:`tienlen.games.guandan.explain`): :class:`Explainer` words a move from the hand
split before and after it (:mod:`tienlen.games.tienlen.bots.split`: which groups the move
keeps intact, which it breaks), and the notes for the L3 search's estimate and a forced win.
:func:`tienlen.games.tienlen.hints.hint` asks the bot for its move and this module for why.

Every phrase is a template of :class:`ReasonWords`, one table a language (:data:`REASON_WORDS`:
English and Chinese, the room's two); the cards and seats a reason names stay fields of its
:class:`~tienlen.games.tienlen.refusals.Wording` whatever the language.

>>> from tienlen.games.tienlen.cards import Cards
>>> group_words(Cards.parse("4s 5c 6d"))
'4-5-6 run'
>>> group_words(Cards.parse("Ks Kh"), lang="zh")
'对子 K'
"""

from __future__ import annotations

import string
from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import Any

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

__all__ = ["Explainer", "ReasonWords", "REASON_WORDS", "REASON_LANGS", "reason_words",
           "group_words", "forced_note", "search_note", "joined"]

_DEFAULT_RULES = Rules()


@dataclass(frozen=True, slots=True)
class ReasonWords:
    """One language's phrases for a bot's reasons. A ``{name}`` in a phrase is filled by
    :func:`_phrase` with a number, a word or another reason (whose cards and seats stay
    fields); ``_you`` / ``_bot`` pairs are the two voices (advice to a person, the bot's
    own move in the third person)."""

    lang: str
    your_you: str
    your_bot: str
    who_you: str
    who_bot: str
    possessive: str                       # "{your} {group}": your pair of Ks
    pair: str
    triple: str
    quad: str
    run: str
    double_run: str
    run_sep: str
    bomb_quad: str                        # the bombs of the rules' cut table, by name
    bomb_3ds: str
    bomb_4ds: str
    bomb_5ds: str
    a_bomb: str                           # "a {bomb}": the article where the language has one
    beats_twos: str
    cuts_bomb: str
    only_bomb_on_twos: str
    plays_again_you: str
    plays_again_bot: str
    only_bombs_on_cut: str
    list_sep: str
    list_and: str
    list_or: str
    parts_sep: str
    pass_word: str
    passing: str
    wins_by_force: str
    then: str
    average_place: str
    level_within_noise: str
    against: str
    last_group_you: str
    last_group_bot: str
    block_you: str
    block_bot: str
    card: str
    cards: str
    finish_you: str
    finish_bot: str
    bomb_exactly: str
    control: str
    breaks: str
    keeps: str
    sheds_lowest: str
    leads_other: str
    cheapest: str
    not_cheapest: str
    passed_already: str
    nothing_beats: str
    worth_more_one: str
    worth_more_many: str
    more: str
    other_beating_move: str
    every_other_beating_move: str
    only_beating_move: str
    every_beating_move: str
    move_breaks: str
    keep_hand: str
    random_move: str


EN = ReasonWords(
    lang="en", your_you="your", your_bot="its", who_you="you", who_bot="it",
    possessive="{your} {group}",
    pair="pair of {rank}s", triple="three {rank}s", quad="four {rank}s",
    run="{ranks} run", double_run="{ranks} double run", run_sep="-",
    bomb_quad="quad", bomb_3ds="3-pair double run", bomb_4ds="4-pair double run",
    bomb_5ds="5-pair double run", a_bomb="a {bomb}",
    beats_twos="beats their 2s", cuts_bomb="cuts their {bomb}",
    only_bomb_on_twos="only a bomb on 2s could be played",
    plays_again_you="you play again only once the pile clears",
    plays_again_bot="it plays again only once the pile clears",
    only_bombs_on_cut="only {bombs} on what it cuts could be played",
    list_sep=", ", list_and=" and ", list_or=" or ", parts_sep="; ",
    pass_word="pass", passing="passing",
    wins_by_force="wins by force: {line}", then=", then ",
    average_place="in {samples} sampled deals its average place is {place:.2f}",
    level_within_noise="{note}, level with {what} ({other:.2f}) within the noise, and it goes "
                       "out first more often ({won:.0%} against {runner_won:.0%})",
    against="{note}, against {other:.2f} for {what}",
    last_group_you="it is your last combination: you go out",
    last_group_bot="it is its last combination: it goes out",
    block_you="{seat} has {count} {noun} left, so play high to stop them",
    block_bot="{seat} has {count} {noun} left, so it plays high to stop them",
    card="card", cards="cards",
    finish_you="nothing unseen beats it, so you keep the lead for your last group",
    finish_bot="nothing unseen beats it, so it keeps the lead for its last group",
    bomb_exactly="a bomb is exactly what {cut}",
    control="it should win the pile, and {your} hand is nearly done",
    breaks="it breaks {groups}", keeps="it keeps {groups} for later",
    sheds_lowest="it sheds {your} lowest card first",
    leads_other="it leads something other than {your} lowest cards, for the place it gets",
    cheapest="it is the cheapest play that beats the pile",
    not_cheapest="it beats the pile, though a cheaper play also does",
    passed_already="{who} passed on this pile, so {then}",
    nothing_beats="nothing in {your} hand beats the pile",
    worth_more_one="{groups} is worth more later, when it wins the pile or stops someone "
                   "going out",
    worth_more_many="{groups} are worth more later, when it wins the pile or stops someone "
                    "going out",
    more="more",
    other_beating_move="the other beating move",
    every_other_beating_move="every other beating move",
    only_beating_move="{your} only beating move",
    every_beating_move="every move that beats it",
    move_breaks="{what} breaks {groups}",
    keep_hand="keeping {your} hand as it is scores better than beating this pile",
    random_move="a random legal move (choose a level for advice)",
)

#: The Chinese phrases: the plays by the names the board uses (对子 三张 顺子 连对 炸弹,
#: :mod:`tienlen.games.tienlen.words`), 压 for beating, 头游 for going out first.
ZH = ReasonWords(
    lang="zh", your_you="你的", your_bot="它的", who_you="你", who_bot="它",
    possessive="{your}{group}",
    pair="对子 {rank}", triple="三张 {rank}", quad="四张 {rank}",
    run="顺子 {ranks}", double_run="连对 {ranks}", run_sep="-",
    bomb_quad="四张", bomb_3ds="三连对", bomb_4ds="四连对", bomb_5ds="五连对",
    a_bomb="{bomb}",
    beats_twos="压住对方的 2", cuts_bomb="压住对方的{bomb}",
    only_bomb_on_twos="只能用炸弹压 2",
    plays_again_you="要等重新起牌你才能再出",
    plays_again_bot="要等重新起牌它才能再出",
    only_bombs_on_cut="只能用{bombs}压它能压的牌",
    list_sep="、", list_and="和", list_or="或", parts_sep="；",
    pass_word="过", passing="过",
    wins_by_force="必胜：{line}", then="，然后",
    average_place="在 {samples} 个抽样牌局中，它的平均名次是 {place:.2f}",
    level_within_noise="{note}，与{what}（{other:.2f}）在误差范围内持平，且它更常头游"
                       "（{won:.0%} 对 {runner_won:.0%}）",
    against="{note}，而{what}是 {other:.2f}",
    last_group_you="这是你的最后一手牌：出完",
    last_group_bot="这是它的最后一手牌：出完",
    block_you="{seat}只剩 {count} {noun}，所以出大牌拦住",
    block_bot="{seat}只剩 {count} {noun}，所以它出大牌拦住",
    card="张牌", cards="张牌",
    finish_you="没有未见的牌压得过它，所以你保住出牌权，出最后一组",
    finish_bot="没有未见的牌压得过它，所以它保住出牌权，出最后一组",
    bomb_exactly="炸弹正好用来{cut}",
    control="这一轮应该拿下，{your}手牌快出完了",
    breaks="这手拆开了{groups}", keeps="这手保留{groups}以后再出",
    sheds_lowest="先出掉{your}最小的牌",
    leads_other="不出{your}最小的牌，为的是名次",
    cheapest="这是压过桌上牌的最小一手",
    not_cheapest="它压过桌上的牌，虽然更小的牌也压得过",
    passed_already="{who}这一轮已经过了，所以{then}",
    nothing_beats="{your}手里没有压得过的牌",
    worth_more_one="{groups}留到以后更有用：拿下一轮或拦住快出完的人",
    worth_more_many="{groups}留到以后更有用：拿下一轮或拦住快出完的人",
    more="其他",
    other_beating_move="另一手压得过的牌",
    every_other_beating_move="其他每一手压得过的牌",
    only_beating_move="{your}唯一压得过的一手",
    every_beating_move="每一手压得过的牌",
    move_breaks="{what}都会拆开{groups}",
    keep_hand="{your}手牌保持不动，比压这一手得分更好",
    random_move="随机的一手合法牌（选择一个水平以获得建议）",
)

#: The reasons' words by language: the languages a Tiến Lên bot words its reasons in.
REASON_WORDS: dict[str, ReasonWords] = {"en": EN, "zh": ZH}
#: The languages of :data:`REASON_WORDS` (the spec's ``reason_langs``).
REASON_LANGS: tuple[str, ...] = tuple(REASON_WORDS)

_FORMATTER = string.Formatter()


def reason_words(lang: str = "en") -> ReasonWords:
    """The phrases of ``lang`` (one of :data:`REASON_LANGS`).

    >>> reason_words("zh").pass_word
    '过'
    """
    words = REASON_WORDS.get(lang) if isinstance(lang, str) else None
    if words is None:
        raise ValueError(f"reasons are worded in {', '.join(REASON_LANGS)}; got {lang!r}")
    return words


def _phrase(template: str, **parts: Any) -> str:
    """``template`` filled with ``parts``: a number takes the field's format, a
    :class:`Wording` part keeps its own fields (cards, seats), so that a phrase puts its
    parts in its language's order without flattening them.

    >>> print(_phrase("{a} and {n:.1f}", a=Wording("{cards}", cards=Cards.parse("3s")), n=2))
    3♠ and 2.0
    """
    pieces: list[str] = []
    for literal, name, spec, conversion in _FORMATTER.parse(template):
        pieces += [literal] if literal else []
        if name is None:
            continue
        value = parts[name]
        if isinstance(value, Wording):
            pieces.append(value)
        else:
            pieces.append(_FORMATTER.format_field(
                _FORMATTER.convert_field(value, conversion), spec or ""))
    return Wording.concat(*pieces)


def _move_words(move: Move, words: ReasonWords = EN) -> str:
    """A move as a field of a Wording (the pass word for PASS), for the screen to draw."""
    return words.pass_word if not isinstance(move, Cards) else Wording("{move}", move=move)


def forced_note(solution: Solution, lang: str = "en") -> str:
    """"wins by force: X, then Y, then Z": the seat's own moves along the solver's line."""
    words = reason_words(lang)
    pieces: list[str] = []
    for i, move in enumerate(solution.winning_moves()):
        pieces += [words.then] if i else []
        pieces.append(_move_words(move, words))
    return _phrase(words.wins_by_force, line=Wording.concat(*pieces))


def _shape(move: Move) -> tuple[int, ...]:
    return tuple(card >> 2 for card in move) if isinstance(move, Cards) else ()   # () for PASS


def search_note(estimate: Estimate, move: Move, lang: str = "en") -> str:
    """The search's numbers for ``move``, against the best different-looking move."""
    words = reason_words(lang)
    index = estimate.moves.index(move)
    place = estimate.mean_places[index]
    note = _phrase(words.average_place, samples=estimate.samples, place=place)
    # A move that differs only in suits is no alternative worth naming; a move the search
    # dropped early rests on fewer samples.
    shape = _shape(move)
    others = [i for i, (m, n) in enumerate(zip(estimate.moves, estimate.counts))
              if n == estimate.samples and _shape(m) != shape]
    if not others:
        return note
    runner = min(others, key=estimate.mean_places.__getitem__)
    runner_move = estimate.moves[runner]
    what = words.passing if not isinstance(runner_move, Cards) else _move_words(runner_move)
    other = estimate.mean_places[runner]
    if other < place and estimate.first_rates:
        return _phrase(words.level_within_noise, note=note, what=what, other=other,
                       won=estimate.first_rates[index],
                       runner_won=estimate.first_rates[runner])
    return _phrase(words.against, note=note, other=other, what=what)


def group_words(cards: Cards, rules: Rules = _DEFAULT_RULES, lang: str = "en") -> str:
    """A group in a player's words: "pair of Ks", "4-5-6 run", "2♥".

    >>> group_words(Cards.parse("Ks Kh")), group_words(Cards.parse("4s 5c 6d"))
    ('pair of Ks', '4-5-6 run')
    >>> group_words(Cards.parse("2h")), group_words(Cards.parse("3s 3c 4d 4h 5s 5c"))
    ('2♥', '3-4-5 double run')
    >>> group_words(Cards.parse("3s 3c 4d 4h 5s 5c"), lang="zh")
    '连对 3-4-5'
    """
    words = reason_words(lang)
    combo = classify(cards, rules)
    if combo is None or combo.kind is Kind.SINGLE:
        return Wording("{cards}", cards=cards)   # the suit matters: a field for the screen
    ranks = sorted({card >> 2 for card in cards})
    top = RANKS[ranks[-1]]
    if combo.kind is Kind.PAIR:
        return words.pair.format(rank=top)
    if combo.kind is Kind.TRIPLE:
        return words.triple.format(rank=top)
    if combo.kind is Kind.QUAD:
        return words.quad.format(rank=top)
    run = words.run_sep.join(RANKS[r] for r in ranks)
    return (words.run if combo.kind is Kind.SEQUENCE else words.double_run).format(ranks=run)


def _bomb_words(bomb: Bomb | str, words: ReasonWords) -> str | None:
    """A bomb of the rules' cut table by name ("quad", "3-pair double run"); None for what
    is not a bomb (the 2s a bomb cuts)."""
    return {"quad": words.bomb_quad, "3ds": words.bomb_3ds, "4ds": words.bomb_4ds,
            "5ds": words.bomb_5ds}.get(bomb)


def _cut_words(pile: Combo | None, words: ReasonWords = EN) -> str:
    """What a bomb that cuts ``pile`` does to it, in words: "beats their 2s" (R4.1), or,
    where the ruleset's table lets a bomb cut a bomb (R11.1), "cuts their quad".

    >>> _cut_words(classify("2h")), _cut_words(classify("9s 9c 9d 9h"))
    ('beats their 2s', 'cuts their quad')
    """
    cut = _core.cut_class(pile.code) if pile is not None else None
    bomb = _bomb_words(ALL_TARGETS[cut], words) if cut is not None and \
        0 <= cut < len(ALL_TARGETS) else None
    return words.beats_twos if bomb is None else words.cuts_bomb.format(bomb=bomb)


def _out_of_turn_words(rules: Rules, bot: bool = False, words: ReasonWords = EN) -> str:
    """What a locked-out player could still play, in words, from the ruleset's own table
    (R5.2 in the contract, R11.2 in the South).

    >>> _out_of_turn_words(Rules()), _out_of_turn_words(Rules.southern())
    ('only a bomb on 2s could be played', 'only a 4-pair double run on what it cuts could be played')
    """
    if rules.cuts == CONTRACT_CUTS and rules.out_of_turn == Rules().out_of_turn:
        return words.only_bomb_on_twos
    bombs = sorted(rules.out_of_turn & {bomb for bomb, _ in rules.cuts})
    if not bombs:
        return words.plays_again_bot if bot else words.plays_again_you
    named = [words.a_bomb.format(bomb=_bomb_words(b, words)) for b in bombs]   # all bombs
    return _phrase(words.only_bombs_on_cut, bombs=_join(named, "or", words))


def _join(items: list[str], word: str = "and", words: ReasonWords = EN) -> str:
    """"a, b and c" as a :class:`~tienlen.games.tienlen.refusals.Wording` keeping every item's fields."""
    last = words.list_and if word == "and" else words.list_or
    pieces: list[str] = []
    for i, item in enumerate(items):
        if i:
            pieces.append(words.list_sep if i < len(items) - 1 else last)
        pieces.append(item)
    return Wording.concat(*pieces)


def joined(parts: Sequence[str], lang: str = "en") -> str:
    """``"; ".join(parts)`` (in ``lang``'s punctuation) as a
    :class:`~tienlen.games.tienlen.refusals.Wording` keeping every part's fields (cards, seats)."""
    sep = reason_words(lang).parts_sep
    pieces: list[str] = []
    for i, part in enumerate(parts):
        pieces += [sep] if i else []
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
    """Words for why a move fits the hand, from the split before and after it, in ``lang``
    (:data:`REASON_LANGS`).

    Every claim is a fact about the cards, worded so that a reader can check it: "breaks
    X" means the move plays some of X's cards but not all, "keeps X for later" that X is
    still whole in hand after the move, "every other beating move breaks ..." that each of
    those moves breaks one of the groups named (``tests/test_hint_claims.py`` checks each
    phrase over hundreds of positions). Advice that is not a fact is worded as advice.
    """

    def __init__(self, view: View, moves: list[Cards], voice: str = "you",
                 lang: str = "en") -> None:
        # "you": advice to the person (a hint); "bot": the seat's own move, third person.
        self.bot = voice == "bot"
        self.words = reason_words(lang)
        self.lang = self.words.lang
        self.your = self.words.your_bot if self.bot else self.words.your_you
        self.view = view
        self.hand = view.hand.mask
        self.rules = view.rules
        self.flags = view.rules.flags
        self.moves = moves
        self.groups = split_masks(self.hand, self.flags)

    def _voiced(self, you: str, bot: str) -> str:
        return bot if self.bot else you

    @staticmethod
    def _notable(group: int) -> bool:
        # Singles below a 2 are the leftovers of a split, not something worth keeping.
        return group.bit_count() > 1 or bool(group & TWOS_MASK)

    def _control(self, move: int) -> bool:
        return is_control(move, self.flags)

    def _your(self, group: int) -> str:
        return _phrase(self.words.possessive, your=self.your,
                       group=group_words(Cards(group), self.rules, self.lang))

    def kept(self, move: int) -> list[str]:
        rest = split_masks(self.hand & ~move, self.flags)
        return [self._your(g) for g in sorted(rest, key=int.bit_length) if self._notable(g)]

    def broken(self, move: int) -> list[str]:
        return [self._your(g) for g in self.groups if _breaks(g, move) and self._notable(g)]

    def reason(self, move: Move, decision: Decision | None = None) -> str:
        words = self.words
        if not isinstance(move, Cards):         # PASS
            return self._pass_reason()
        mask = move.mask
        if mask == self.hand:
            return self._voiced(words.last_group_you, words.last_group_bot)
        parts: list[str] = []
        rule = decision.rule if decision else None
        if rule == "block":
            count, seat = min((c, p) for p, c in enumerate(self.view.card_counts)
                              if p != self.view.seat and c)
            noun = words.card if count == 1 else words.cards
            # A Wording, so that a screen can name the seat without rewriting the text.
            parts.append(Wording(self._voiced(words.block_you, words.block_bot),
                                 seat=seat, count=count, noun=noun))
        elif rule == "finish":
            parts.append(self._voiced(words.finish_you, words.finish_bot))
        elif rule == "bomb":
            parts.append(words.bomb_exactly.format(cut=_cut_words(self.view.pile, words)))
        elif rule == "control":
            parts.append(words.control.format(your=self.your))
        # A move that is a group of another best split breaks nothing that matters.
        damaged = move_damage(self.hand, mask, self.flags) >= GROUP // 2
        broken = self.broken(mask) if damaged else []
        kept = self.kept(mask)
        if broken:
            parts.append(_phrase(words.breaks, groups=_join(broken, "and", words)))
        if kept:
            parts.append(_phrase(words.keeps, groups=_join(kept, "and", words)))
        if not parts:
            parts.append(self._plain_reason(mask))
        return joined(parts, self.lang)

    def _plain_reason(self, mask: int) -> str:
        """The reason for a move that breaks nothing and keeps no group worth naming."""
        words = self.words
        if self.view.pile is None:
            if mask & -mask == self.hand & -self.hand:
                return words.sheds_lowest.format(your=self.your)
            # A lead without the lowest card, that breaks and keeps nothing worth naming:
            # chosen for the place it gets, which the search's numbers give.
            return words.leads_other.format(your=self.your)
        pile = self.view.pile.code
        same = [m.mask for m in self.moves
                if _same_shape(_core.classify(m.mask, self.flags), pile)]
        if mask in same and mask.bit_length() == min(m.bit_length() for m in same):
            return words.cheapest
        # Not the cheapest: a search chose it over a lower card, so no claim about what it
        # keeps (it may spend the stronger card).
        return words.not_cheapest

    def _pass_reason(self) -> str:
        words = self.words
        if not self.moves:
            if self.view.seat in self.view.locked_seats:
                return words.passed_already.format(
                    who=self._voiced(words.who_you, words.who_bot),
                    then=_out_of_turn_words(self.rules, self.bot, words))
            return words.nothing_beats.format(your=self.your)
        plain = [m.mask for m in self.moves if not self._control(m.mask)]
        strong = [m.mask for m in self.moves if self._control(m.mask)]
        parts: list[str] = []
        if strong:
            named = [self._your(m) for m in strong[:2]] + ([words.more] if len(strong) > 2 else [])
            template = words.worth_more_one if len(strong) == 1 else words.worth_more_many
            parts.append(_phrase(template, groups=_join(named, "and", words)))
        # "Every other move breaks ..." is said only when each of those moves breaks one of
        # the groups named; a move that breaks nothing leaves passing as a choice of style.
        per_move = [self.broken(move) for move in plain]
        broken: list[str] = []
        if per_move and all(per_move):
            for groups in per_move:
                broken += [b for b in groups if b not in broken]
        if broken:
            if strong:
                what = (words.other_beating_move if len(plain) == 1
                        else words.every_other_beating_move)
            else:
                what = (words.only_beating_move.format(your=self.your) if len(plain) == 1
                        else words.every_beating_move)
            parts.append(_phrase(words.move_breaks, what=what,
                                 groups=_join(broken, "or", words)))
        elif plain:
            parts.append(words.keep_hand.format(your=self.your))
        return joined(parts, self.lang)
