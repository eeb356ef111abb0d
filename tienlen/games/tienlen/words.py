"""The words of Tiến Lên (越南十三张), one table per language (:class:`Words`: English and
Chinese) that the one terminal session (:mod:`tienlen.tui.session`), the board
(:mod:`tienlen.games.tienlen.board`) and the browser room (through
:meth:`tienlen.games.tienlen.spec.TienlenSpec.words`) read: the screens, the plays' names,
the refusals. The bots' reasons are worded by :mod:`tienlen.games.tienlen.explain`
(English and Chinese too).

A sentence that names the person has its own form (``You lead`` beside ``Minh leads``):
:meth:`Words.says` picks it. Cards and seats inside a sentence are fields, filled by the
board (:func:`tienlen.table.board.fill`), never found in the text.

>>> WORDS["en"].says("ev_cleared", you=True).format(who="You")
'Everyone passed: the pile is cleared and You lead.'
>>> WORDS["en"].says("ev_cleared", you=False).format(who="Lan")
'Everyone passed: the pile is cleared and Lan leads.'
>>> refusal_text(ValueError("not a card: 'zz'"), "en")
"not a card: 'zz'"
>>> from tienlen.games.tienlen.plays import Combo
>>> describe(Combo.from_cards("3s 3c 4d 4h 5s 5h"), "zh"), WORDS["zh"].places[0]
('连对 3-5', '第一名')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tienlen import _core
from tienlen.table.board import TableWords
from tienlen.table.errors import IllegalActionError
from tienlen.games.tienlen.plays import Combo, Kind
from tienlen.games.tienlen.refusals import IllegalMoveError, Reason, Wording

__all__ = ["Words", "WORDS", "EN", "ZH", "LANGS", "words", "refusal_text", "describe",
           "move_wording"]

#: The languages Tiến Lên is worded in.
LANGS = ("en", "zh")


@dataclass(frozen=True, kw_only=True, slots=True)
class Words(TableWords):
    """Every sentence Tiến Lên's terminal game says, in one language (the session's words
    included, :class:`~tienlen.table.board.TableWords`). A field ending in ``_you`` is the
    person's form of the field without it."""

    title: str
    replay_title: str
    hand_n: str
    seed_n: str
    rules_n: str
    #: The deals that win at once (R11.3), in a player's words: (the game's name, words).
    instant_wins: tuple[tuple[str, str], ...]
    ev_hand: str
    ev_instant: str
    ev_instant_you: str
    ev_must_include: str
    ev_must_include_you: str
    ev_won_leads: str
    ev_won_leads_you: str
    ev_leads: str
    ev_leads_you: str
    ev_pass: str
    ev_pass_you: str
    ev_lead: str
    ev_lead_you: str
    ev_play: str
    ev_play_you: str
    ev_out: str
    ev_out_you: str
    ev_cleared: str
    ev_cleared_you: str
    ev_over: str
    won_at_once: str
    left_holding: str
    penalties: str
    pays: str
    pays_you: str
    no_penalties: str
    turn: str
    turn_lead: str
    turn_must: str
    turn_any: str
    turn_locked_none: str
    turn_nothing: str
    turn_beat: str
    turn_help: str
    hint: str
    hint_pass: str
    hint_play: str
    hint_accept: str
    no_hints_engine: str
    empty_lead: str
    empty_beat: str
    moves_title: str
    card_parse: str
    no_cards: str
    replay_verified: str
    replay_seed: str
    replay_deal_seed: str
    replay_given: str
    replay_action: str
    replay_pass: str
    replay_lead: str
    replay_play: str
    replay_out: str
    seat_n: str
    not_valid: str
    cannot_read: str
    # the board's table, pile, hand and results
    you: str
    col_seat: str
    col_player: str
    col_level: str
    col_cards: str
    col_hand: str
    col_status: str
    col_last: str
    st_won_at_once: str
    st_last: str
    st_out: str
    st_to_play: str
    passed: str
    pile: str
    empty: str
    to_lead: str
    played_by: str
    your_hand: str
    whose_hand: str
    finishing_order: str
    col_place: str
    col_points: str
    col_penalties: str
    col_total: str
    last_place: str
    match_after: str
    match_after_one: str
    #: Finishing places, first to fourth (``{place}`` in ``ev_out`` and ``replay_out``).
    places: tuple[str, str, str, str]
    #: The kinds of play, by :class:`~tienlen.games.tienlen.plays.Kind` (single first).
    kinds: tuple[str, str, str, str, str, str]
    #: A card number out of range: ``{n}`` and ``{count}`` (``no_card_one``: one card).
    no_card: str
    no_card_one: str
    #: A card named twice: ``{card}``.
    named_twice: str
    #: Text that names no card: ``{error}`` the engine's words, ``{token}`` the text.
    bad_card: str

    def says(self, field: str, *, you: bool) -> str:
        """The template ``field``, in the person's form when ``you``."""
        return str(getattr(self, f"{field}_you" if you else field))

    def refusal(self, error: ValueError) -> str:
        """A refusal in these words (:func:`refusal_text`)."""
        return refusal_text(error, self.lang)

    def place(self, place: int) -> str:
        """A finishing place (1 first) in these words: ``1st``, ``第一名``."""
        return self.places[place - 1] if 1 <= place <= len(self.places) else str(place)

    def kind(self, kind: Kind) -> str:
        """A kind of play in these words: ``double sequence``, ``连对``."""
        return self.kinds[int(kind) - 1]

    def no_card_n(self, n: int, count: int) -> str:
        """Card ``n`` named in a hand of ``count`` cards, numbered 1 to ``count``."""
        return (self.no_card_one if count == 1 else self.no_card).format(n=n, count=count)


#: The English words of Tiến Lên's boards and refusals (the game's one language so far).
EN = Words(
    lang="en",
    # the session's words
    prompt_move="Your move> ", quit_confirm="The hand is not over. Quit anyway?",
    eof="End of input: leaving the game.", thanks="Thanks for playing.",
    declined="Not played: type your own move.",
    no_to_decline="there is no suggestion to decline: type cards, or h for a hint",
    no_suggestion="there is no suggestion to accept: type h for a hint first",
    hints_off="hints are off for this game (--no-hints)",
    no_play="you have no legal play: pass (p)",
    no_move="there is no move #{n}: the moves are numbered 1-{count} (m lists them)",
    no_move_one="there is no move #{n}: there is one move, #1 (m lists them)",
    bad_pick="{text!r}: after # give the number of a move from the list (m shows it)",
    pick_shown="#{n} is {action}. Type y to play it, n not to, or m to see the list.",
    no_actions="No legal play: pass (p).", moves_more="... and {n} more (#N plays any of them)",
    or_pass="or p to pass", help_title="Commands", help_headers=("type", "to"),
    help_rows=(
        ("3s 4s 5h   10h   A♠", "play these cards (ranks 3-10 J Q K A 2, suits s c d h)"),
        ("1 2 3", "play the cards with these numbers (shown under your hand)"),
        ("p, pass", "pass: you are locked out until the pile clears (Enter passes when "
                    "nothing beats the pile)"),
        ("h, hint", "suggest a move and say why; then y plays it, n declines it"),
        ("m, moves", "list your legal plays, numbered"),
        ("#N", "play move N of that list (shown first if the list is not on screen)"),
        ("?, help", "this help"),
        ("q, quit", "leave the game (asks first during a hand)"),
    ),
    saved="Replay saved to {path} (tienlen replay {path})",
    save_failed="could not save the replay to {path}: {error}",
    next_hand="Enter: next hand, q: stop ", another_hand="Play another hand?",
    replay_stops="The replay stops before the end of the hand.",
    step="Enter: next, q: stop ",
    # the board's words
    title="Tiến Lên", replay_title="{title} replay", hand_n="hand {n}", seed_n="seed {n}",
    rules_n="rules {name}",
    instant_wins=(("four_twos", "four 2s"), ("dragon", "a dragon (3 to A)"),
                  ("six_pairs", "six pairs"), ("five_pairs", "five consecutive pairs")),
    ev_hand="Hand {n}: ",
    ev_instant="{who} wins at once with {how} (instant win, R11.3): {cards}",
    ev_instant_you="{who} win at once with {how} (instant win, R11.3): {cards}",
    ev_must_include="{who} holds {card} and leads, with a play that includes it.",
    ev_must_include_you="{who} hold {card} and lead, with a play that includes it.",
    ev_won_leads="{who} won hand {n} and leads.", ev_won_leads_you="{who} won hand {n} and lead.",
    ev_leads="{who} leads.", ev_leads_you="{who} lead.",
    ev_pass="{who} passes", ev_pass_you="{who} pass",
    ev_lead="{who} leads {combo}", ev_lead_you="{who} lead {combo}",
    ev_play="{who} plays {combo}", ev_play_you="{who} play {combo}",
    ev_out="{who} is out: {place} place.", ev_out_you="{who} are out: {place} place.",
    ev_cleared="Everyone passed: the pile is cleared and {who} leads.",
    ev_cleared_you="Everyone passed: the pile is cleared and {who} lead.",
    ev_over="The hand is over: {who} finished last.",
    won_at_once="{who} won at once (instant win, R11.3), +{points}; everyone else shares "
                "last place.",
    left_holding="{who} finished last, left holding {cards}",
    penalties="Penalties (R11.5):",
    pays="  {payer} pays {payee} {amount}: ", pays_you="  {payer} pay {payee} {amount}: ",
    no_penalties="  none this hand",
    turn="Your turn: ", turn_lead="you lead", turn_must=", and your play must include {card}",
    turn_any=": play any combination", turn_locked_none="; you hold none: pass (p or Enter)",
    turn_nothing="nothing you hold beats {pile}, so pass (p or Enter)",
    turn_beat="beat {pile} or pass", turn_help="Type cards or numbers; ? for help.",
    hint="Hint: ", hint_pass="pass", hint_play="play {cards}",
    hint_accept="Type y to play it, n (or your own move) to choose yourself.",
    no_hints_engine="hints are not available in this version",
    empty_lead="Enter does nothing on a lead: type cards or their numbers (m lists your "
               "plays, h suggests one).",
    empty_beat="Enter passes only when nothing beats the pile: type p to pass, or cards to "
               "beat it (m lists your plays, h suggests one).",
    moves_title="{n} legal play{s} (type #N to play one):",
    card_parse="{error}. Type ? for help.",
    no_cards="name at least one card, or type p to pass",
    replay_verified="{file}: all {n} actions verified against the rules.",
    replay_seed="seed {seed}, hand {hand}", replay_deal_seed="deal seed {seed}",
    replay_given="given hands", replay_action="action {i}/{n}",
    replay_pass="{number:>3}. {who} passes", replay_lead="{number:>3}. {who} leads {combo}",
    replay_play="{number:>3}. {who} plays {combo}", replay_out="  and is out, {place}",
    seat_n="Seat {n}", not_valid="{path} is not a valid replay: {error}",
    cannot_read="cannot read {path}: {error}",
    you="You", col_seat="seat", col_player="player", col_level="level", col_cards="cards",
    col_hand="hand", col_status="status", col_last="last action", st_won_at_once="won at once",
    st_last="last", st_out="out, {place}", st_to_play="to play", passed="passed", pile="Pile",
    empty="empty", to_lead="{who} to lead", played_by="played by {who}", your_hand="Your hand",
    whose_hand="{who}'s hand", finishing_order="Finishing order", col_place="place",
    col_points="points", col_penalties="penalties", col_total="total",
    last_place="(last place)", match_after="Match after {n} hands",
    match_after_one="Match after 1 hand", places=("1st", "2nd", "3rd", "4th"),
    kinds=("single", "pair", "triple", "quad", "sequence", "double sequence"),
    no_card="there is no card {n}: your hand has {count} cards, numbered 1-{count}",
    no_card_one="there is no card {n}: your hand has one card, number 1", named_twice="{card} is named twice",
    bad_card="{error}",
)

#: The Chinese words (越南十三张): the usual names of the plays (单张 对子 三张 炸弹 顺子
#: 连对), 过 for a pass; the bots' reasons are worded by :mod:`tienlen.games.tienlen.explain`.
ZH = Words(
    lang="zh",
    prompt_move="请出牌> ", quit_confirm="本局还没结束。仍然退出吗？",
    eof="输入结束：离开游戏。", thanks="谢谢参与。",
    declined="不出这手：请自己出牌。",
    no_to_decline="没有可以拒绝的建议：请输入牌，或按 h 获取建议",
    no_suggestion="没有可以接受的建议：请先按 h",
    hints_off="本局关闭了建议（--no-hints）",
    no_play="你没有可以出的牌：过（p）",
    no_move="没有第 #{n} 手：编号为 1-{count}（m 列出）",
    no_move_one="没有第 #{n} 手：只有 #1 一手（m 列出）",
    bad_pick="{text!r}：# 后面请输入列表中的编号（m 列出）",
    pick_shown="#{n} 是 {action}。输入 y 出这手牌，n 不出，m 查看列表。",
    no_actions="没有可以出的牌：过（p）。", moves_more="……还有 {n} 手（#N 出其中任意一手）",
    or_pass="或 p 过", help_title="命令", help_headers=("输入", "作用"),
    help_rows=(
        ("3s 4s 5h   10h   A♠", "出这些牌（点数 3-10 J Q K A 2，花色 s c d h）"),
        ("1 2 3", "出这些序号的牌（序号在手牌下方）"),
        ("p, pass", "过：这一轮不能再出，直到重新起牌（压不过时回车即为过）"),
        ("h, hint", "建议一手并说明理由；y 出这手，n 不出"),
        ("m, moves", "列出你所有能出的牌，带编号"),
        ("#N", "出列表中的第 N 手（列表不在屏幕上时先显示）"),
        ("?, help", "本帮助"),
        ("q, quit", "离开游戏（一局中途会先确认）"),
    ),
    saved="回放已保存到 {path}（tienlen replay {path}）",
    save_failed="无法把回放保存到 {path}：{error}",
    next_hand="回车：下一局，q：结束 ", another_hand="再来一局？",
    replay_stops="回放在本局结束前停止。",
    step="回车：下一步，q：结束 ",
    title="越南十三张", replay_title="{title} 回放", hand_n="第{n}局", seed_n="种子 {n}",
    rules_n="规则 {name}",
    instant_wins=(("four_twos", "四张2"), ("dragon", "一条龙（3 到 A）"),
                  ("six_pairs", "六对"), ("five_pairs", "五连对")),
    ev_hand="第{n}局：",
    ev_instant="{who}以{how}直接获胜（即胜，R11.3）：{cards}",
    ev_instant_you="{who}以{how}直接获胜（即胜，R11.3）：{cards}",
    ev_must_include="{who}持有 {card}，先出，出的牌必须包含它。",
    ev_must_include_you="{who}持有 {card}，先出，出的牌必须包含它。",
    ev_won_leads="{who}赢了第{n}局，先出。", ev_won_leads_you="{who}赢了第{n}局，先出。",
    ev_leads="{who}先出。", ev_leads_you="{who}先出。",
    ev_pass="{who}过", ev_pass_you="{who}过",
    ev_lead="{who}首出 {combo}", ev_lead_you="{who}首出 {combo}",
    ev_play="{who}出 {combo}", ev_play_you="{who}出 {combo}",
    ev_out="{who}出完：{place}。", ev_out_you="{who}出完：{place}。",
    ev_cleared="其他人都过：重新起牌，{who}先出。",
    ev_cleared_you="其他人都过：重新起牌，{who}先出。",
    ev_over="本局结束：{who}是末名。",
    won_at_once="{who}直接获胜（即胜，R11.3），+{points}；其他人并列末名。",
    left_holding="{who}是末名，手里还剩 {cards}",
    penalties="罚分（R11.5）：",
    pays="  {payer}付给{payee} {amount}：", pays_you="  {payer}付给{payee} {amount}：",
    no_penalties="  本局没有罚分",
    turn="轮到你：", turn_lead="你先出", turn_must="，出的牌必须包含 {card}",
    turn_any="：任意牌型", turn_locked_none="；你没有这样的牌：过（p 或回车）",
    turn_nothing="你没有能压过 {pile} 的牌，只能过（p 或回车）",
    turn_beat="压过 {pile} 或过", turn_help="输入牌或序号；? 帮助。",
    hint="建议：", hint_pass="过", hint_play="出 {cards}",
    hint_accept="输入 y 出这手牌，n（或你自己的牌）自己选。",
    no_hints_engine="这个版本没有建议功能",
    empty_lead="先出时回车没有作用：请输入牌或序号（m 列出能出的牌，h 给出建议）。",
    empty_beat="只有压不过时回车才是过：输入 p 过，或输入能压过的牌（m 列出，h 建议）。",
    moves_title="{n} 手能出的牌（输入 #N 出其中一手）：",
    card_parse="{error}。输入 ? 查看帮助。",
    no_cards="请至少输入一张牌，或输入 p 过",
    replay_verified="{file}：{n} 个动作都已按规则核对。",
    replay_seed="种子 {seed}，第{hand}局", replay_deal_seed="发牌种子 {seed}",
    replay_given="指定手牌", replay_action="第 {i}/{n} 步",
    replay_pass="{number:>3}. {who}过", replay_lead="{number:>3}. {who}首出 {combo}",
    replay_play="{number:>3}. {who}出 {combo}", replay_out="  出完，{place}",
    seat_n="{n}号", not_valid="{path} 不是有效的回放：{error}",
    cannot_read="无法读取 {path}：{error}",
    you="你", col_seat="座位", col_player="玩家", col_level="水平", col_cards="张数",
    col_hand="手牌", col_status="状态", col_last="上一手", st_won_at_once="即胜",
    st_last="末名", st_out="出完，{place}", st_to_play="出牌中", passed="过", pile="桌面",
    empty="空", to_lead="{who}先出", played_by="{who}出的", your_hand="你的手牌",
    whose_hand="{who}的手牌", finishing_order="名次", col_place="名次",
    col_points="得分", col_penalties="罚分", col_total="总分",
    last_place="（末名）", match_after="{n}局后的比分", match_after_one="1局后的比分",
    places=("第一名", "第二名", "第三名", "第四名"),
    kinds=("单张", "对子", "三张", "炸弹", "顺子", "连对"),
    no_card="没有第{n}张牌：你的手牌编号为 1-{count}", no_card_one="没有第{n}张牌：你只有一张牌，编号 1",
    named_twice="{card} 输入了两次",
    bad_card="{token!r} 不是一张牌（点数 3-10 J Q K A 2，花色 s c d h 或 ♠ ♣ ♦ ♥）",
    answer_again="请回答 {keys}。", answer_or="或",
)

#: Tiến Lên's words by language code.
WORDS: dict[str, Words] = {"en": EN, "zh": ZH}


def words(lang: str) -> Words:
    """The words in ``lang`` (``"en"`` or ``"zh"``); English for any other."""
    return WORDS.get(lang, EN)


_RANKS = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2")


def describe(combo: Combo, lang: str = "en") -> str:
    """A play in words: English's :meth:`Combo.describe
    <tienlen.games.tienlen.plays.Combo.describe>`; in Chinese the kind and its rank or
    span (``对子 8``, ``顺子 3-7``, ``单张 Q♦``).

    >>> describe(Combo.from_cards("Qd"), "zh"), describe(Combo.from_cards("8s 8h"), "zh")
    ('单张 Q♦', '对子 8')
    """
    if lang != "zh":
        return combo.describe()
    kind, top = combo.kind, _core.code_top(combo.code)
    name = ZH.kind(kind)
    if kind is Kind.SINGLE:
        return f"{name} {combo.cards}"
    if kind in (Kind.SEQUENCE, Kind.DOUBLE_SEQUENCE):
        low = min(c.rank for c in combo.cards)
        return f"{name} {_RANKS[low]}-{_RANKS[top >> 2]}"
    return f"{name} {_RANKS[top >> 2]}"


# The classes of the core's rule table (refusals._CLASS_WORDS, in the same order).
_CLASS_ZH = ("单张2", "一对2", "三张2", "炸弹", "三连对", "四连对", "五连对")

#: The Chinese of each refusal of a move (:class:`~tienlen.games.tienlen.refusals.Reason`),
#: the same fields as the English wording.
_MOVES_ZH = {
    Reason.NOT_YOUR_TURN: "现在轮到{turn}，不是{seat}",
    Reason.CARDS_NOT_IN_HAND: "你没有 {missing}",
    Reason.MUST_INCLUDE_LOWEST: "首轮首出必须包含 {required}",
    Reason.CANNOT_PASS_ON_LEAD: "你先出：不能过",
    Reason.GAME_OVER: "本局已结束",
}

#: The Chinese of the table's own refusals (by code), where no move was judged.
_CODES_ZH = {
    "GAME_OVER": "比赛已结束", "HAND_OVER": "本局已结束：请先发下一局",
    "NOT_YOUR_TURN": "还没轮到你", "BAD_SEAT": "没有这个座位",
    "BAD_ACTION": "越南十三张没有进贡：请出牌或过", "INVALID_CARDS": "无法识别这些牌",
    "HAND_NOT_OVER": "本局还没结束",
}


def _kind_zh(code: int) -> str:
    kind = Kind(_core.code_kind(code))
    if kind is Kind.DOUBLE_SEQUENCE:
        return f"{_core.code_len(code) // 2}连对"
    if kind is Kind.SEQUENCE:
        return f"{_core.code_len(code)}张顺子"
    return ZH.kind(kind)


def _bombs_zh(classes: tuple[int, ...], own: int = -1) -> str:
    return "或".join(("更小的" if cls == own else "") + _CLASS_ZH[cls] for cls in classes)


def move_wording(error: IllegalMoveError, lang: str = "en") -> Wording:
    """The refusal of a move in ``lang``: its own
    :class:`~tienlen.games.tienlen.refusals.Wording` in English; in Chinese the same fields
    (seats, cards) in a Chinese template, so that a screen still names seats and draws cards
    its own way.

    >>> from tienlen.games.tienlen.game import Game
    >>> try:
    ...     Game.from_hands(["3s 4s", "5s 9h"]).play("4s")
    ... except IllegalMoveError as error:
    ...     print(move_wording(error, "zh"))
    首轮首出必须包含 3♠
    """
    wording, fields = error.wording, dict(error.fields)
    if lang != "zh":
        return wording
    reason = error.reason
    if reason is Reason.NOT_A_COMBINATION:
        if "subject" not in fields:
            return Wording("至少要出一张牌（或者过）")
        return Wording("{subject} 不是合法的牌型", **fields)
    if reason is Reason.LOCKED_OUT:
        if "bomb_classes" not in fields:
            return Wording("你在这一轮已经过了：不能再出")
        higher = "（要更大的）" if fields.get("higher") else ""
        return Wording("你在这一轮已经过了：只有{bombs}能压" + higher,
                       **dict(fields, bombs=_bombs_zh(fields["bomb_classes"])))
    if reason is Reason.DOES_NOT_BEAT and "play_code" in fields:
        return _does_not_beat_zh(fields)
    template = _MOVES_ZH.get(reason) if isinstance(reason, Reason) else None
    if template is None or any(f"{{{name}}}" in template and name not in fields
                               for name in ("turn", "seat", "missing", "required")):
        return wording
    return Wording(template, **fields)


def _does_not_beat_zh(fields: dict[str, Any]) -> Wording:
    head = "{subject} 压不过 {pile}："
    play, pile = fields["play_code"], fields["pile_code"]
    if "play_top" in fields:
        return Wording(head + "最大的牌更小（{play_top} 对 {pile_top}）", **fields)
    if "play_len" in fields:
        return Wording(head + "张数不同（{play_len} 张对 {pile_len} 张）", **fields)
    kinds = dict(fields, play_kind=_kind_zh(play), pile_kind=_kind_zh(pile))
    if "bomb_classes" in fields:
        kinds["bombs"] = _bombs_zh(fields["bomb_classes"], fields.get("own_class", -1))
        return Wording(head + "牌型不同（{play_kind} 对 {pile_kind}）；{play_kind}只能炸{bombs}",
                       **kinds)
    return Wording(head + "牌型不同（{play_kind} 对 {pile_kind}）", **kinds)


def refusal_text(error: ValueError, lang: str = "en") -> str:
    """A refusal as a player reads it, in ``lang``: the engine's own words for a rule (an
    :class:`~tienlen.games.tienlen.refusals.IllegalMoveError`, or a table's refusal caused
    by one, reads as its message alone; :func:`move_wording` in Chinese), the message of any
    other refusal (in Chinese, the table's refusals by their code). A screen that names
    seats words an ``IllegalMoveError`` from its fields itself (:func:`move_wording`).

    >>> refusal_text(IllegalActionError("HAND_OVER", "the hand is over"), "zh")
    '本局已结束：请先发下一局'
    """
    move = error if isinstance(error, IllegalMoveError) else error.__cause__
    if isinstance(move, IllegalMoveError):
        wording = move_wording(move, lang)
        if lang != "zh":
            return str(wording)
        return wording.render(seat_name=lambda seat: ZH.seat_n.format(n=seat))
    if isinstance(error, IllegalActionError):
        if lang == "zh" and error.reason_code in _CODES_ZH:
            return _CODES_ZH[error.reason_code]
        return error.message
    return str(error)
