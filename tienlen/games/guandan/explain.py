"""Why a Guandan bot (and so a hint) chose its action, as a value: a reason code and the
plays and numbers the reason mentions (:class:`Explanation`), with its wording in English
and in Chinese rendered from that value in one place.

The bots build an :class:`Explanation` once, where they decide; a screen asks for the
wording in its own language (:meth:`Explanation.text`), so no front end rewrites English
sentences. The English wording is the bots' ``reason`` text as it always read.

>>> from tienlen.guandan import classify
>>> pair = classify("6s 6d", 5)[0]
>>> why = Explanation("LEAD", play=pair)
>>> why.text("en")
'lead your pair of 6: it follows your plan and keeps your strong cards for later'
>>> why.text("zh")
'先出对子 6：符合你的牌型规划，把大牌留到后面'
>>> held = Explanation("SEARCH_HELD", base=why, how=Explanation("DEALS_PLAN", deals=400),
...                    rate=-0.125, win=0.45)
>>> print(held.text("zh"))
先出对子 6：符合你的牌型规划，把大牌留到后面；在你看不到的牌的 400 种发法上各按牌型规划打完，这样打赢下这手牌的比例是 45%，平均每局得 -0.12 级，没有别的出法明显更好
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from tienlen.games.guandan.plays import Kind, Play

__all__ = ["Explanation", "Weighed", "REASON_WORDS", "LANGS", "play_words", "rank_text"]

#: The languages every reason is worded in.
LANGS = ("en", "zh")

_RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
_WINDOWS = {Kind.STRAIGHT: 5, Kind.STRAIGHT_FLUSH: 5, Kind.THREE_PAIRS: 3, Kind.PLATE: 2}


def rank_text(rank: int) -> str:
    """A natural rank 2..14 as written on a card (``10``, ``A``); 15 and 16 are the jokers.

    >>> rank_text(14), rank_text(10), rank_text(16)
    ('A', '10', 'BJ')
    """
    if 2 <= rank <= 14:
        return _RANKS[rank - 2]
    return "SJ" if rank == 15 else "BJ"


def play_words(play: Play, lang: str) -> str:
    """The reading of ``play`` in ``lang``: ``"pair of 8"`` in English (the play's own
    :meth:`~tienlen.games.guandan.plays.Play.describe`), ``"对子 8"`` in Chinese.

    >>> from tienlen.guandan import classify
    >>> [play_words(p, "zh") for p in classify("7s 7d 7c 10h 10h", 10)]
    ['三带二 7', '炸弹 7（5张）']
    >>> play_words(classify("3s 4s 5s 6s 7d", 5)[0], "zh"), play_words(classify("SJ", 5)[0], "zh")
    ('顺子 3-7', '单张 小王')
    """
    if lang != "zh":
        return play.describe()
    kind, rank = play.kind, play.rank
    name = kind.chinese
    if kind in _WINDOWS:
        low = rank - _WINDOWS[kind] + 1
        return f"{name} {rank_text(14 if low == 1 else low)}-{rank_text(rank)}"
    if kind is Kind.JOKER_BOMB:
        return name
    if kind is Kind.BOMB:
        return f"{name} {rank_text(rank)}（{play.size}张）"
    return f"{name} {_ZH_JOKERS.get(rank) or rank_text(rank)}"


# The jokers by name in a Chinese reading (小王, 大王), as players say them.
_ZH_JOKERS = {15: "小王", 16: "大王"}


#: Each reason code's wording, by language: a str.format template over the explanation's
#: fields. A Play field is shown as its reading, an Explanation field by its own wording,
#: a None play field as passing. Both languages use the same fields (tests walk the codes).
REASON_WORDS: dict[str, dict[str, str]] = {
    # tribute and return (every bot)
    "GIVE_HIGHEST": {"en": "the rules make you give your highest card",
                     "zh": "规则要求你交出最大的牌"},
    "RETURN_LOW": {"en": "return a low card you do not need", "zh": "还一张你用不上的小牌"},
    # the bench's opponents of other styles (tienlen.games.guandan.styles)
    "STYLE_HABIT": {"en": "the {style} style's habit: {action}", "zh": "{style}风格的习惯：{action}"},
    # tribute and return of L2 and L3 (tienlen.games.guandan.exchange)
    "GIVE_KEEPS_SPLIT": {"en": "give the highest card your plan can spare",
                         "zh": "交出你牌型最用不上的那张最大的牌"},
    "RETURN_KEEPS_SPLIT": {"en": "return the low card your plan can spare",
                           "zh": "还一张你的牌型最用不上的小牌"},
    # L1
    "LEAD_LOWEST": {"en": "lead your lowest card", "zh": "先出你最小的牌"},
    "NOTHING_BEATS_TABLE": {"en": "nothing beats the play on the table", "zh": "没有能压过桌面的牌"},
    "SMALLEST_BEAT": {"en": "the smallest play that beats", "zh": "能压过的最小一手"},
    # the L2 plan (the core's PLAN_REASONS)
    "GO_OUT": {"en": "this play empties your hand", "zh": "这手牌出完你的手牌"},
    "LEAD": {"en": "lead your {play}: it follows your plan and keeps your strong cards for later",
             "zh": "先出{play}：符合你的牌型规划，把大牌留到后面"},
    "LEAD_FOR_PARTNER": {
        "en": "your partner is a card or two from going out: lead your lowest single so they can go out",
        "zh": "对家只剩一两张牌：先出你最小的单张，让对家出完"},
    "FOLLOW_GROUP": {"en": "{play} beats it without breaking your plan",
                     "zh": "{play}能压过，而且不拆散你的牌型"},
    "FOLLOW_BREAK": {"en": "{play} beats it at the smallest cost to your plan",
                     "zh": "{play}能压过，对你的牌型拆得最少"},
    "BOMB": {"en": "bomb now: the trick matters (an opponent or you are close to going out)",
             "zh": "现在炸：这一轮很关键（对手或你快出完了）"},
    "PASS_PARTNER": {"en": "your partner is winning this trick: let it stand",
                     "zh": "对家正在赢这一轮：不要压"},
    "PASS_KEEP": {"en": "keep your bombs and groups: it is too early to spend them",
                  "zh": "保留炸弹和牌型：现在用太早"},
    "BLOCK": {"en": "{play} beats your partner's play: an opponent holds just as many cards and "
                    "could go out on it",
              "zh": "用{play}压过对家：对手手里的牌数正好能借这手牌出完"},
    "TAKE_OVER": {"en": "{play} takes your partner's trick: then you lead your last group and go "
                        "out first",
                  "zh": "用{play}接过对家这一轮：再出你最后一手，先出完"},
    "DENY_WIND": {"en": "{play} beats the last play of an opponent who has gone out: else that "
                        "opponent's partner takes the lead (接风)",
                  "zh": "用{play}压过已出完的对手的最后一手：否则由那名对手的对家接风"},
    "NOTHING_BEATS": {"en": "nothing you hold beats it", "zh": "你没有能压过的牌"},
    # L3: how the candidates were tried
    "DEALS_PLAN": {"en": "{deals} deals of the cards you cannot see, each played out by the plan",
                   "zh": "在你看不到的牌的 {deals} 种发法上各按牌型规划打完"},
    "DEALS_SOLVED": {"en": "{deals} deals of the cards you cannot see, each played out "
                           "perfectly by both teams",
                     "zh": "在你看不到的牌的 {deals} 种发法上由双方完美打完"},
    # L3: what the search found
    "SEARCH_HELD": {"en": "{base}; tried on {how}, it wins the hand {win:.0%} of the time and "
                          "scores {rate:+.2f} levels a hand, and nothing else does clearly better",
                    "zh": "{base}；{how}，这样打赢下这手牌的比例是 {win:.0%}，平均每局得 "
                          "{rate:+.2f} 级，没有别的出法明显更好"},
    "SEARCH_PASS": {"en": "pass and keep your cards for later: on {how}, passing wins the hand "
                          "{win:.0%} of the time and scores {rate:+.2f} levels a hand; {plan} "
                          "{base_win:.0%} and {base_rate:+.2f}",
                    "zh": "过牌，把牌留到后面：{how}，过牌赢下这手牌的比例是 {win:.0%}，"
                          "平均每局得 {rate:+.2f} 级；{plan}是 {base_win:.0%} 和 {base_rate:+.2f} 级"},
    "SEARCH_BOMB": {"en": "{play}: the bomb wins the trick while it still matters. On {how}, it "
                          "wins the hand {win:.0%} of the time and scores {rate:+.2f} levels a "
                          "hand; {plan} {base_win:.0%} and {base_rate:+.2f}",
                    "zh": "{play}：趁这一轮还关键，用炸弹拿下。{how}，这样打赢下这手牌的比例是 "
                          "{win:.0%}，平均每局得 {rate:+.2f} 级；{plan}是 {base_win:.0%} 和 "
                          "{base_rate:+.2f} 级"},
    "SEARCH_LEAD": {"en": "{play}: it keeps the lead or the cards you need. On {how}, it wins "
                          "the hand {win:.0%} of the time and scores {rate:+.2f} levels a hand; "
                          "{plan} {base_win:.0%} and {base_rate:+.2f}",
                    "zh": "{play}：能保住出牌权或你需要的牌。{how}，这样打赢下这手牌的比例是 "
                          "{win:.0%}，平均每局得 {rate:+.2f} 级；{plan}是 {base_win:.0%} 和 "
                          "{base_rate:+.2f} 级"},
    "SEARCH_TAKE": {"en": "{play}: it takes the trick at a price worth paying. On {how}, it "
                          "wins the hand {win:.0%} of the time and scores {rate:+.2f} levels a "
                          "hand; {plan} {base_win:.0%} and {base_rate:+.2f}",
                    "zh": "{play}：拿下这一轮，代价值得。{how}，这样打赢下这手牌的比例是 "
                          "{win:.0%}，平均每局得 {rate:+.2f} 级；{plan}是 {base_win:.0%} 和 "
                          "{base_rate:+.2f} 级"},
    # the review (复盘) of a return: what the search found (tienlen.games.guandan.review)
    "SEARCH_RETURN": {"en": "return {play}: on {how}, the hand is won {win:.0%} of the time "
                            "and scores {rate:+.2f} levels; returning {plan}, "
                            "{base_win:.0%} and {base_rate:+.2f}",
                      "zh": "还{play}：{how}，赢下这手牌的比例是 {win:.0%}，平均每局得 "
                            "{rate:+.2f} 级；还{plan}是 {base_win:.0%} 和 {base_rate:+.2f} 级"},
    "RANDOM": {"en": "{play}, chosen at random among the legal actions",
               "zh": "{play}，从合法的出法中随机选出"},
    "POLICY_VALUE": {"en": "{play}: the trained network values it highest ({value:+.2f} "
                           "hands won, expected)",
                     "zh": "{play}：训练好的网络估值最高（预计 {value:+.2f} 手胜）"},
}


class Weighed(NamedTuple):
    """One action L3 compared, as its search priced it on the same sampled deals as the
    others: how often the hand was won after it, the levels a hand it scored, and its mean
    gain over the plan's choice in L3's own score (levels, the win bonus, the level race).
    An explanation of L3's decision carries them all in its ``weighed`` field, the chosen one
    first, then by gain (the AI-debug panel shows them: :func:`tienlen.games.guandan.words.explanation_text`).

    >>> Weighed(None, 0.5, 0.25, 0.0, True).play is None       # None: passing
    True
    """

    play: Play | None
    win: float
    rate: float
    gain: float
    plan: bool


# A play field that is None: the plan's choice was to pass.
_PASSING = {"en": "passing", "zh": "过牌"}


@dataclass(frozen=True, init=False)
class Explanation:
    """Why an action was chosen: a code of :data:`REASON_WORDS` and the values its wording
    mentions (plays, numbers, and nested explanations such as the plan's own reason inside
    the search's). Equal explanations word the same in every language.

    >>> Explanation("NO_SUCH_REASON")
    Traceback (most recent call last):
    ...
    ValueError: unknown reason code 'NO_SUCH_REASON'
    """

    code: str
    fields: Mapping[str, Any] = field(default_factory=dict)

    def __init__(self, code: str, /, **fields: Any) -> None:
        if code not in REASON_WORDS:
            raise ValueError(f"unknown reason code {code!r}")
        object.__setattr__(self, "code", code)
        object.__setattr__(self, "fields", dict(fields))

    def __reduce__(self) -> tuple[Any, ...]:
        return (_explanation, (self.code, dict(self.fields)))

    def __hash__(self) -> int:
        return hash((self.code, tuple(sorted(self.fields))))

    def text(self, lang: str = "en") -> str:
        """The explanation worded in ``lang`` (``"en"`` or ``"zh"``; anything else is
        English)."""
        lang = lang if lang in LANGS else "en"
        values = {name: _show(value, lang) for name, value in self.fields.items()}
        return REASON_WORDS[self.code][lang].format_map(values)

    def codes(self) -> list[str]:
        """This explanation's code, then those of the explanations inside it.

        >>> Explanation("SEARCH_HELD", base=Explanation("GO_OUT"),
        ...             how=Explanation("DEALS_PLAN", deals=3), rate=0.0).codes()
        ['SEARCH_HELD', 'GO_OUT', 'DEALS_PLAN']
        """
        out = [self.code]
        for value in self.fields.values():
            if isinstance(value, Explanation):
                out.extend(value.codes())
        return out

    def __str__(self) -> str:
        return self.text("en")


def _explanation(code: str, fields: dict[str, Any]) -> Explanation:
    return Explanation(code, **fields)


def _show(value: Any, lang: str) -> Any:
    if isinstance(value, Explanation):
        return value.text(lang)
    if isinstance(value, Play):
        return play_words(value, lang)
    if value is None:
        return _PASSING[lang]
    return value
