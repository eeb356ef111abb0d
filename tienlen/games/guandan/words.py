"""The words of the Guandan training mode, in English and in Chinese (the plan's labels:
出牌 过牌 提示 进贡 还贡 头游 …), and how a play is described in each.

One table per language, so that ``--lang zh`` changes every word on the screen and nothing
else. Kind names come from :class:`~tienlen.games.guandan.plays.Kind`; English shows the Chinese
name beside its own.

>>> from tienlen.guandan import classify
>>> play = classify("8s 8c", 5)[0]
>>> describe(play, "en"), describe(play, "zh")
('pair of 8 · 对子', '对子 8')
>>> describe(classify("3s 4s 5s 6s 7d", 5)[0], "zh"), WORDS["zh"].places[0]
('顺子 3-7', '头游')
>>> refusal_text("CANNOT_PASS", "CANNOT_PASS", "the leader must play", "zh")
'首出不能过牌：请出任意一手牌（t 提示给出一手） (CANNOT_PASS)'
"""

from __future__ import annotations

import locale
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from tienlen.games.guandan.plays import Kind, Play
from tienlen.games.guandan.explain import REASON_WORDS, Explanation, Weighed, play_words, rank_text
from tienlen.table.board import CommandRefusal, TableWords
from tienlen.table.errors import IllegalActionError

__all__ = ["Words", "WORDS", "LANGS", "default_lang", "describe", "kind_name", "rank_text",
           "refusal_text", "reason_text", "explanation_text", "REFUSALS_ZH", "SESSION_DETAILS",
           "words", "play_label", "joker_text", "BOT_REASON_WORDS", "Voice", "WEIGHED_WORDS",
           "weighed_text"]

#: The languages of the training mode.
LANGS = ("en", "zh")

@dataclass(frozen=True, kw_only=True, slots=True)
class Words(TableWords):
    """Every word the training mode shows, in one language: the one terminal session's
    (:class:`~tienlen.table.board.TableWords`), the board's, and those a room reads (the
    wild card's badge, a seat's cards left, a hand won). Fields with ``{name}`` are
    formatted with those names; a field ending in ``_you`` is the person's form of the
    field without it."""

    title: str
    hand_n: str
    playing: str
    wild: str
    levels: str
    hands_won: str
    us: str
    them: str
    you: str
    partner: str
    left: str
    right: str
    your_hand: str
    col_player: str
    col_bot: str
    col_cards: str
    col_trick: str
    table: str
    empty: str
    to_lead: str
    played_by: str
    passed: str
    to_play: str
    out_place: str
    places: tuple[str, str, str, str]
    ev_lead: str
    ev_play: str
    ev_pass: str
    ev_out: str
    ev_cleared: str
    ev_jiefeng: str
    ev_gives: str
    ev_gives_to: str
    ev_gives_hidden: str
    ev_tribute_goes: str
    ev_returns: str
    ev_returns_hidden: str
    ev_hand_starts: str
    ev_lead_you: str
    ev_play_you: str
    ev_pass_you: str
    ev_out_you: str
    ev_gives_you: str
    ev_gives_to_you: str
    ev_tribute_goes_you: str
    ev_returns_you: str
    ev_cleared_you: str
    ev_jiefeng_you: str
    tribute: str
    return_word: str
    anti: str
    anti_one: str
    anti_two: str
    must_give: str
    must_return: str
    prompt_tribute: str
    prompt_return: str
    turn_lead: str
    turn_beat: str
    turn_nothing: str
    turn_help: str
    hint: str
    accept: str
    accept_give: str
    empty_lead: str
    empty_beat: str
    empty_tribute: str
    tip: str
    tip_none: str
    no_card: str
    no_cards_named: str
    moves_title: str
    refused: str
    hand_over: str
    place_col: str
    left_holding: str
    level_change: str
    level_same: str
    level_up: str
    level_reset: str
    pass_a: str
    failed_a: str
    reset_a: str
    won_match: str
    match_capped: str
    match_after: str
    pass_word: str
    seat_n: str
    team_n: str
    tribute_title: str
    #: The jokers as a reading names them, in English as the cards show them (☆ ★, or SJ
    #: BJ in ASCII), in Chinese by name.
    jokers: tuple[str, str]
    jokers_ascii: tuple[str, str]
    #: What a room shows: the wild card's badge, a seat's cards left, a seat's line, a
    #: hand won (one level, or {n}).
    wild_badge: str
    cards_left: str
    seat_line: str
    hand_won: str
    hand_won_one: str

    def says(self, field: str, *, you: bool) -> str:
        """The template ``field``, in the person's form when ``you`` (if it has one)."""
        if you and hasattr(self, f"{field}_you"):
            return str(getattr(self, f"{field}_you"))
        return str(getattr(self, field))

    def refusal(self, error: ValueError) -> str:
        """A refusal in this language, with its G8 code (:func:`refusal_text`): the game's
        (a G8 code and a finer detail), the table's or a session's (its message is already
        in the session's words)."""
        if isinstance(error, CommandRefusal):
            return refusal_text(error.reason_code, _SESSION, error.message, self.lang)
        if isinstance(error, IllegalActionError):
            return refusal_text(error.reason_code, getattr(error, "detail", None) or
                                error.reason_code, error.message, self.lang)
        return refusal_text("INVALID_CARDS", "BAD_COMMAND", str(error), self.lang)

    def refusal_brief(self, error: ValueError) -> str:
        """A refusal for a front end with buttons (the browser room): what is wrong, in
        this language, with its code, and no terminal keys to type
        (:func:`refusal_text` with ``advice=False``)."""
        if isinstance(error, IllegalActionError) and not isinstance(error, CommandRefusal):
            return refusal_text(error.reason_code, getattr(error, "detail", None) or
                                error.reason_code, error.message, self.lang, advice=False)
        return self.refusal(error)

    def refused_tribute(self, shown: Sequence[str]) -> str:
        """Tribute refused (G6.6) and who showed the big jokers (G6.11): ``shown`` names the
        seat of each (one name twice when it holds both; empty: the sentence names none).

        >>> WORDS["en"].refused_tribute(["Left", "Left"])
        'Anti-tribute (抗贡): both big jokers shown by Left, so no tribute.'
        >>> WORDS["zh"].refused_tribute(["对家", "上家"])
        '抗贡：对家和上家各亮出一张大王，免于进贡。'
        """
        if len(shown) == 2 and shown[0] != shown[1]:
            return self.anti_two.format(a=shown[0], b=shown[1])
        if shown:
            return self.anti_one.format(who=shown[0])
        return self.anti

    def won(self, team: str, n: int) -> str:
        """"Them win the hand: up 3 levels", one level said as one."""
        return (self.hand_won_one if n == 1 else self.hand_won).format(team=team, n=n)


EN = Words(
    lang="en", title="Guandan 掼蛋", hand_n="hand {n}", playing="playing {rank} ({team})",
    wild="wild {card}", levels="Levels", hands_won="Hands won", us="Us", them="Them",
    you="You", partner="Partner", left="Left", right="Right", your_hand="Your hand",
    col_player="player",
    col_bot="bot", col_cards="cards", col_trick="this trick", table="Table", empty="empty",
    to_lead="{who} to lead", played_by="played by {who}", passed="passed", to_play="to play",
    out_place="out: {place}",
    places=("1st (头游)", "2nd (二游)", "3rd (三游)", "4th (末游)"),
    ev_lead="{who} leads ", ev_play="{who} plays ", ev_pass="{who} passes",
    ev_out="{who} is out: {place}.", ev_cleared="Everyone passed: {who} leads.",
    ev_cleared_you="Everyone passed: you lead.",
    ev_jiefeng="接风: {who} leads for their partner, who went out.",
    ev_jiefeng_you="接风: you lead for your partner, who went out.",
    ev_gives="{who} gives tribute (进贡): {card}.",
    ev_gives_to="{who} gives tribute (进贡) {card} to {to}.",
    ev_gives_hidden="{who} gives tribute (进贡).",
    ev_tribute_goes="{who}'s tribute {card} goes to {to}.",
    ev_returns="{who} returns (还贡) {card} to {to}.",
    ev_returns_hidden="{who} returns a card (还贡) to {to}.",
    ev_hand_starts="Hand {n}, playing level {rank}.",
    ev_lead_you="You lead ", ev_play_you="You play ", ev_pass_you="You pass",
    ev_out_you="You are out: {place}.", ev_gives_you="You give tribute (进贡): {card}.",
    ev_gives_to_you="You give tribute (进贡) {card} to {to}.",
    ev_tribute_goes_you="Your tribute {card} goes to {to}.",
    ev_returns_you="You return (还贡) {card} to {to}.",
    tribute="Tribute", return_word="Return",
    anti="Anti-tribute (抗贡): the payers hold both big jokers, so no tribute.",
    anti_one="Anti-tribute (抗贡): both big jokers shown by {who}, so no tribute.",
    anti_two="Anti-tribute (抗贡): one big joker shown by {a}, one by {b}, so no tribute.",
    must_give="Tribute (进贡): give your highest card: {cards}.",
    must_return="Return (还贡): give {who} one card back: {cards}.",
    prompt_move="Your move> ", prompt_tribute="Tribute> ", prompt_return="Return> ",
    turn_lead="Your turn: you lead: play any combination.",
    turn_beat="Your turn: beat {pile} or pass.",
    turn_nothing="Your turn: nothing you hold beats {pile}: pass (p or Enter).",
    turn_help="Type cards or numbers; t 提示, h hint, ? help.",
    hint="Hint", accept="Type y to play it, n to choose yourself.", tip="提示 {i}/{n}",
    accept_give="Type y to give it, n to choose yourself.",
    declined="Not played: type your own move.",
    no_to_decline="there is no suggestion to decline: type cards, or t or h for one",
    empty_lead="Enter does nothing on a lead: type cards or their numbers "
               "(t 提示 suggests a play, m lists them).",
    empty_beat="Enter passes only when nothing beats the table: type p to pass, or cards "
               "to beat it (t 提示 suggests a play).",
    empty_tribute="Type one of the cards shown, or its number (t or h suggests one).",
    tip_none="提示: nothing beats the table: pass (p).",
    no_suggestion="there is no suggestion to accept: type t or h first",
    hints_off="hints are off for this game (--no-hints): t 提示 and m still work",
    no_card="there is no card {n}: your hand has {count} cards, numbered 1-{count}",
    no_cards_named="name at least one card, or type p to pass",
    no_move="there is no play #{n}: the plays are numbered 1-{count} (m lists them)",
    no_move_one="there is no play #{n}: there is one play, #1 (m lists it)",
    no_play="you have no play that beats the table: pass (p)",
    bad_pick="{text!r}: after # give the number of a play from the list (m shows it)",
    pick_shown="#{n} is {action}. Type y to play it, n not to, or m to see the list.",
    no_actions="提示: nothing beats the table: pass (p).",
    moves_title="{n} play{s}, weakest first (type #N to play one):",
    tribute_title="{n} card{s} you may give (type #N to give one):",
    moves_more="... and {n} more (#N plays any of them)", or_pass="or p to pass",
    refused="Refused", hand_over="Hand {n} is over", place_col="place",
    left_holding="{who} still held {cards}",
    level_change="{team}: level {old} -> {new} ({gain})", level_same="{team}: level {old}",
    level_up="+{n}", level_reset="back to 2",
    pass_a="过A: {team} passed A!",
    failed_a="过A failed: {team} at A, attempt {n} of {limit}.",
    reset_a="{team} failed A {limit} times: back to level 2.",
    won_match="{team} win the match!",
    match_capped="The match stopped after {n} hands with no winner (the engine's hand cap).",
    match_after="Score after hand {n}: {score}",
    next_hand="Enter: next hand, q: stop ",
    replay_stops="The replay stops before the end of the hand.", step="Enter: next, q: stop ",
    quit_confirm="The match is not over. Quit anyway?",
    eof="End of input: leaving the game.", thanks="Thanks for playing.",
    saved="Replay saved to {path} (tienlen replay {path})",
    save_failed="could not save the replay to {path}: {error}",
    help_title="Commands", help_headers=("type", "to"), pass_word="pass",
    seat_n="Seat {n}", team_n="Team {a}+{b}",
    jokers=("☆", "★"), jokers_ascii=("SJ", "BJ"),
    wild_badge="wild", cards_left="{n} left", seat_line="{who} · {left} · {status}",
    hand_won="{team} win the hand: up {n} levels", hand_won_one="{team} win the hand: up 1 level",
    help_rows=(
        ("5h 5s  10h  SJ BJ", "play these cards (ranks 2-10 J Q K A, suits s h c d; jokers SJ BJ)"),
        ("1 2 3", "play the cards with these numbers (shown under your hand)"),
        ("p, pass", "pass (过牌); Enter passes when nothing beats the table"),
        ("t, 提示", "the 提示 button: the next play that beats the table, weakest first"),
        ("h, hint", "the best play, and why"),
        ("y / n", "play the shown 提示 or hint / choose yourself"),
        ("m, moves", "list your plays, numbered; #N plays one"),
        ("?, help", "this help"),
        ("q, quit", "leave the match (asks first)"),
    ),
)

ZH = Words(
    lang="zh", title="掼蛋训练模式", hand_n="第{n}局", playing="打{rank}（{team}）", wild="逢人配 {card}",
    levels="级数", hands_won="胜局", us="我方", them="对方", you="你", partner="对家",
    left="上家", right="下家", your_hand="你的手牌", col_player="玩家", col_bot="AI", col_cards="张数",
    col_trick="本轮", table="桌面", empty="空", to_lead="{who}先出", played_by="{who}出的",
    passed="过牌", to_play="出牌中", out_place="出完：{place}",
    places=("头游", "二游", "三游", "末游"),
    ev_lead="{who}首出 ", ev_play="{who}出牌 ", ev_pass="{who}过牌",
    ev_out="{who}出完：{place}。", ev_cleared="其他人都过牌：{who}先出。",
    ev_cleared_you="其他人都过牌：你先出。",
    ev_jiefeng="接风：{who}替出完的对家先出。", ev_jiefeng_you="接风：你替出完的对家先出。",
    ev_gives="{who}进贡 {card}。", ev_gives_to="{who}向{to}进贡 {card}。", ev_gives_hidden="{who}进贡。",
    ev_tribute_goes="{who}的贡牌 {card} 归{to}。",
    ev_returns="{who}向{to}还贡 {card}。", ev_returns_hidden="{who}向{to}还贡。",
    ev_hand_starts="第{n}局，打{rank}。",
    ev_lead_you="你首出 ", ev_play_you="你出牌 ", ev_pass_you="你过牌", ev_out_you="你出完：{place}。",
    ev_gives_you="你进贡 {card}。", ev_returns_you="你向{to}还贡 {card}。",
    ev_gives_to_you="你向{to}进贡 {card}。", ev_tribute_goes_you="你的贡牌 {card} 归{to}。",
    tribute="进贡", return_word="还贡", anti="抗贡：进贡方持有两张大王，免于进贡。",
    anti_one="抗贡：{who}亮出两张大王，免于进贡。", anti_two="抗贡：{a}和{b}各亮出一张大王，免于进贡。",
    must_give="进贡：请交出你最大的牌：{cards}。",
    must_return="还贡：还给{who}一张牌：{cards}。",
    prompt_move="请出牌> ", prompt_tribute="进贡> ", prompt_return="还贡> ",
    turn_lead="轮到你：你先出，任意牌型。", turn_beat="轮到你：压过 {pile} 或过牌。",
    turn_nothing="轮到你：没有能压过 {pile} 的牌：过牌（p 或回车）。",
    turn_help="输入牌或序号；t 提示，h 建议，? 帮助。",
    hint="建议", accept="输入 y 出这手牌，n 自己选。", tip="提示 {i}/{n}",
    accept_give="输入 y 交出这张牌，n 自己选。",
    declined="不出这手：请自己出牌。",
    no_to_decline="没有可以拒绝的建议：请输入牌，或按 t 或 h 获取建议",
    empty_lead="首出时回车没有作用：请输入牌或序号（t 提示给出一手，m 列出全部）。",
    empty_beat="只有没有能压的牌时回车才是过牌：输入 p 过牌，或输入能压过的牌（t 提示）。",
    empty_tribute="请输入上面列出的一张牌或它的序号（t 或 h 给出建议）。",
    tip_none="提示：没有能压的牌：过牌（p）。",
    no_suggestion="没有可以接受的建议：请先按 t 或 h",
    hints_off="本局关闭了建议（--no-hints）：t 提示和 m 仍可用",
    no_card="没有第{n}张牌：你的手牌编号为 1-{count}",
    no_cards_named="请至少输入一张牌，或输入 p 过牌",
    no_move="没有第 #{n} 手：编号为 1-{count}（m 列出）",
    no_move_one="没有第 #{n} 手：只有 #1 一手（m 列出）",
    no_play="你没有能压过桌面的牌：过牌（p）",
    bad_pick="{text!r}：# 后面请输入列表中的编号（m 列出）",
    pick_shown="#{n} 是 {action}。输入 y 出这手牌，n 不出，m 查看列表。",
    no_actions="提示：没有能压的牌：过牌（p）。",
    moves_title="可出的牌共 {n} 手，从小到大（输入 #N 出牌）：",
    tribute_title="可以交出的牌共 {n} 张（输入 #N 交出）：",
    moves_more="……还有 {n} 手（#N 也能出）", or_pass="或输入 p 过牌",
    refused="不合规", hand_over="第{n}局结束", place_col="名次",
    left_holding="{who}手里剩下 {cards}",
    level_change="{team}：{old} → {new}（{gain}）", level_same="{team}：{old}",
    level_up="升{n}级", level_reset="退回2",
    pass_a="过A：{team}打过了A！", failed_a="{team}打A失败（第{n}次，共{limit}次）。",
    reset_a="{team}打A失败{limit}次：退回2。",
    won_match="{team}赢得比赛！", match_capped="已打满{n}局（引擎的局数上限），比赛结束，无胜者。",
    match_after="第{n}局后比分：{score}",
    next_hand="回车：下一局，q：结束 ", quit_confirm="比赛还没结束。确定退出？",
    replay_stops="录像在这一局结束前停止。", step="回车：下一步，q：停止 ",
    eof="输入结束：离开游戏。", thanks="谢谢参与。",
    saved="录像已保存到 {path}（tienlen replay {path}）",
    save_failed="无法保存录像到 {path}：{error}",
    help_title="命令", help_headers=("输入", "作用"), pass_word="过牌",
    seat_n="{n}号", team_n="{a}+{b}号队",
    jokers=("小王", "大王"), jokers_ascii=("小王", "大王"),
    wild_badge="配", cards_left="剩 {n} 张", seat_line="{who} · {left} · {status}",
    hand_won="{team}获胜，升{n}级", hand_won_one="{team}获胜，升1级",
    answer_again="请回答 {keys}。", answer_or="或",
    help_rows=(
        ("5h 5s  10h  SJ BJ", "出这些牌（点数 2-10 J Q K A，花色 s h c d；王 SJ BJ）"),
        ("1 2 3", "出手牌下方这些序号的牌"),
        ("p, 过牌", "过牌；没有能压的牌时回车也是过牌"),
        ("t, 提示", "提示：下一手能压过桌面的牌，从小到大"),
        ("h, 建议", "最好的一手，并说明理由"),
        ("y, 出牌 / n", "出提示或建议的那手牌 / 自己选"),
        ("m", "列出可出的牌并编号；#N 出其中一手"),
        ("?", "帮助"),
        ("q", "退出比赛（先确认）"),
    ),
)

#: The training mode's words by language code.
WORDS: dict[str, Words] = {"en": EN, "zh": ZH}

#: The refusals the session raises itself, with a message already in the session's language
#: (a :class:`Words` field): the screen shows that message as it is, in either language.
SESSION_DETAILS = frozenset({"NO_SUGGESTION", "NO_SUGGESTION_TO_DECLINE", "NO_SUCH_PLAY",
                             "NO_CARDS", "SESSION"})
# The detail of a refusal the one terminal session words itself (in the session's words).
_SESSION = "SESSION"

# Every G8 code and finer detail in Chinese, as (what is wrong, what to do next): English
# shows the engine's own message. A code with no finer detail is its own detail.
#: Chinese wording of each refusal code: what is wrong, then what to do next.
REFUSALS_ZH: dict[str, tuple[str, str]] = {
    # the G8 codes
    "INVALID_CARDS": ("牌型不合法", "请输入一手合法的牌（m 列出可出的牌）"),
    "NOT_YOUR_TURN": ("还没轮到你", "请等其他玩家出牌"),
    "CANNOT_PASS": ("首出不能过牌", "请出任意一手牌（t 提示给出一手）"),
    "CARD_NOT_FOUND": ("你没有这些牌", "请输入你手里的牌，或手牌下方的序号"),
    "HAND_EMPTY": ("你的牌已出完", "请等这一局结束"),
    "INVALID_TRIBUTE": ("进贡或还贡的牌不对", "请输入上面列出的一张牌"),
    "GAME_OVER": ("牌局已结束", "按回车开始下一局，或输入 q 结束"),
    "STATE_CONFLICT": ("现在不能这样做", "输入 ? 查看可用的命令"),
    # the engine's finer details
    "DOES_NOT_BEAT": ("压不过桌面上的牌", "请出更大的同类牌或炸弹，或输入 p 过牌"),
    "NOT_A_PLAY": ("这些牌不成牌型", "请输入一手合法的牌（m 列出可出的牌）"),
    "NOT_A_READING": ("这些牌不能这样出", "请输入一手合法的牌（m 列出可出的牌）"),
    "BAD_CARDS": ("无法识别的牌", "牌名如 5h 10s SJ BJ，或输入序号（? 帮助）"),
    "NOT_HIGHEST": ("进贡必须是你最大的牌", "请交出上面列出的牌"),
    "WILD_TRIBUTE": ("逢人配（红桃级牌）不能进贡", "请交出上面列出的、你最大的其他牌"),
    "BAD_RETURN": ("还贡的牌必须是10及以下、非级牌的牌", "请还上面列出的一张牌"),
    "NOT_ONE_CARD": ("进贡或还贡只能交一张牌", "请输入一张牌"),
    "NOT_TRIBUTE_PHASE": ("现在不是进贡或还贡的时候", "请出牌"),
    "WRONG_TRIBUTE_STEP": ("现在不是这一步", "请等进贡和还贡按顺序完成"),
    "TRIBUTE_PENDING": ("进贡还没结束", "请等进贡和还贡完成后再出牌"),
    "BAD_SEAT": ("座位号必须是 0-3", "请选 0-3 号座位"),
    "UNKNOWN_ACTION": ("无法识别的动作", "请出牌、过牌、进贡或还贡"),
    # the session's own refusals whose message comes from elsewhere (English)
    "BAD_COMMAND": ("无法识别的命令", "输入 ? 查看命令"),
    "NO_SUCH_NUMBER": ("没有这个序号的牌", "序号在手牌下方，从 1 开始"),
    "NAMED_TWICE": ("同一张牌输入了两次", "每个序号只能用一次"),
    "ONE_CARD": ("进贡或还贡只能交一张牌", "请输入一张牌或它的序号"),
    # a table's own refusals (the browser room, the protocol)
    "HINTS_OFF": ("本桌关闭了提示", "可在设置中打开训练提示"),
    "BUSY": ("提示还在计算中", "请稍后再试"),
    "NOT_ALLOWED": ("这个座位不能这样做", "请等其他玩家"),
    "BAD_ACTION": ("无法识别的动作", "请出牌、过牌、进贡或还贡"),
    "HAND_OVER": ("这一局已经结束", "请开始下一局"),
    "HAND_NOT_OVER": ("这一局还没结束", "请继续出牌"),
    "NOT_JOINED": ("这个连接不再持有座位", "请刷新页面重新加入"),
    "BAD_SETTINGS": ("设置不合规", "请检查设置中的数值"),
    "BAD_MESSAGE": ("无法识别的消息", "请刷新页面"),
}


def refusal_text(reason: str, detail: str, message: str, lang: str, *,
                 advice: bool = True) -> str:
    """A refusal as the screen says it, with its G8 code: in English the engine's message; in
    Chinese what is wrong and what to do next, looked up by the finer detail (or the code).
    A refusal of the session's own (:data:`SESSION_DETAILS`) is already in its language.

    >>> refusal_text("INVALID_CARDS", "DOES_NOT_BEAT", "that does not beat the play", "en")
    'that does not beat the play (INVALID_CARDS)'
    >>> refusal_text("INVALID_CARDS", "DOES_NOT_BEAT", "that does not beat the play", "zh")
    '压不过桌面上的牌：请出更大的同类牌或炸弹，或输入 p 过牌 (INVALID_CARDS)'

    ``advice=False`` leaves out what to type next (the terminal's keys), for a front end
    with buttons (the browser room):

    >>> refusal_text("INVALID_CARDS", "NOT_A_PLAY", "these cards are not a combination", "zh",
    ...              advice=False)
    '这些牌不成牌型 (INVALID_CARDS)'
    """
    if lang == "zh" and detail not in SESSION_DETAILS:
        what, todo = REFUSALS_ZH.get(detail) or REFUSALS_ZH.get(reason) or (reason, "")
        return f"{what}：{todo} ({reason})" if todo and advice else f"{what} ({reason})"
    return f"{message} ({reason})"


def words(lang: str) -> Words:
    """The training mode's words in ``lang`` (English for a language it does not have).

    >>> words("zh").won("对方", 3), words("en").won("Them", 1)
    ('对方获胜，升3级', 'Them win the hand: up 1 level')
    """
    return WORDS.get(lang, EN)


def default_lang() -> str:
    """``"zh"`` when the locale is Chinese (LC_ALL, LC_MESSAGES, LANG, then the process's
    locale), else ``"en"``."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(name)
        if value:
            return "zh" if value.lower().startswith("zh") else "en"
    try:
        loc = locale.getlocale()[0] or ""
    except ValueError:
        loc = ""
    return "zh" if loc.lower().startswith("zh") else "en"


def kind_name(kind: Kind, lang: str) -> str:
    """``"pair 对子"`` in English (both names side by side), ``"对子"`` in Chinese.

    >>> kind_name(Kind.PLATE, "en"), kind_name(Kind.PLATE, "zh")
    ('plate 钢板', '钢板')
    """
    return kind.chinese if lang == "zh" else f"{kind.label} {kind.chinese}"


def joker_text(text: str, lang: str, *, ascii: bool = False) -> str:
    """``text`` (a reading) with its jokers named as :attr:`Words.jokers` says: ☆ ★ in
    English (SJ BJ in ASCII, as the cards are drawn), 小王 大王 in Chinese.

    >>> joker_text("pair of ☆", "en", ascii=True), joker_text("单张 ★", "zh")
    ('pair of SJ', '单张 大王')
    """
    if "☆" not in text and "★" not in text:
        return text
    names = words(lang)
    small, big = names.jokers_ascii if ascii else names.jokers
    return text.replace("☆", small).replace("★", big)


def describe(play: Play, lang: str, *, ascii: bool = False) -> str:
    """The reading of ``play`` as the training mode shows it: English words with the
    Chinese kind name beside them, or Chinese alone; jokers named as the cards are drawn
    (:func:`joker_text`).

    >>> from tienlen.guandan import classify
    >>> [describe(p, "zh") for p in classify("7s 7d 7c 10h 10h", 10)]
    ['三带二 7', '炸弹 7（5张）']
    >>> describe(classify("SJ SJ BJ BJ", 2)[0], "en")
    'joker bomb · 天王炸'
    >>> describe(classify("SJ SJ", 2)[0], "en", ascii=True), describe(classify("SJ", 2)[0], "zh")
    ('pair of SJ · 对子', '单张 小王')
    """
    if lang != "zh":
        return f"{play_label(play, lang, ascii=ascii)} · {play.kind.chinese}"
    return play_label(play, "zh")


def play_label(play: Play, lang: str, *, ascii: bool = False) -> str:
    """The reading of ``play`` in ``lang`` alone (``pair of 8``, ``对子 8``), its jokers
    named as :func:`joker_text` says: what a room shows beside a play (the table view's
    ``label`` and ``label_zh``).

    >>> from tienlen.guandan import classify
    >>> play_label(classify("SJ", 2)[0], "en", ascii=True), play_label(classify("SJ", 2)[0], "zh")
    ('single SJ', '单张 小王')
    """
    return joker_text(play_words(play, lang), lang, ascii=ascii)


#: Whom an explanation speaks to: ``"you"``, the person it advises (a hint), or ``"bot"``,
#: in the third person about a bot's own move (the AI-debug panel).
Voice = Literal["you", "bot"]

#: The reasons whose wording speaks to the person, in the third person for a bot's own
#: move (the other reasons name no one). Same codes and fields as
#: :data:`tienlen.games.guandan.explain.REASON_WORDS`.
BOT_REASON_WORDS: dict[str, dict[str, str]] = {
    "GIVE_HIGHEST": {"en": "the rules make it give its highest card",
                     "zh": "规则要求它交出最大的牌"},
    "RETURN_LOW": {"en": "it returns a low card it does not need", "zh": "还一张它用不上的小牌"},
    "STYLE_HABIT": {"en": "the {style} style's habit: {action}", "zh": "{style}风格的习惯：{action}"},
    "GIVE_KEEPS_SPLIT": {"en": "it gives the highest card its plan can spare",
                         "zh": "交出它牌型最用不上的那张最大的牌"},
    "RETURN_KEEPS_SPLIT": {"en": "it returns the low card its plan can spare",
                           "zh": "还一张它的牌型最用不上的小牌"},
    "LEAD_LOWEST": {"en": "it leads its lowest card", "zh": "先出它最小的牌"},
    "GO_OUT": {"en": "this play empties its hand", "zh": "这手牌出完它的手牌"},
    "LEAD": {"en": "it leads its {play}: that follows its plan and keeps its strong cards "
                   "for later",
             "zh": "先出{play}：符合它的牌型规划，把大牌留到后面"},
    "LEAD_FOR_PARTNER": {
        "en": "its partner is a card or two from going out: it leads its lowest single so "
              "they can go out",
        "zh": "对家只剩一两张牌：它先出最小的单张，让对家出完"},
    "FOLLOW_GROUP": {"en": "{play} beats it without breaking its plan",
                     "zh": "{play}能压过，而且不拆散它的牌型"},
    "FOLLOW_BREAK": {"en": "{play} beats it at the smallest cost to its plan",
                     "zh": "{play}能压过，对它的牌型拆得最少"},
    "BOMB": {"en": "it bombs now: the trick matters (an opponent or it is close to going out)",
             "zh": "现在炸：这一轮很关键（对手或它快出完了）"},
    "PASS_PARTNER": {"en": "its partner is winning this trick: it lets it stand",
                     "zh": "它的对家正在赢这一轮：不压"},
    "PASS_KEEP": {"en": "it keeps its bombs and groups: it is too early to spend them",
                  "zh": "它保留炸弹和牌型：现在用太早"},
    "BLOCK": {"en": "{play} beats its partner's play: an opponent holds just as many cards "
                    "and could go out on it",
              "zh": "用{play}压过它的对家：对手手里的牌数正好能借这手牌出完"},
    "TAKE_OVER": {"en": "{play} takes its partner's trick: then it leads its last group and "
                        "goes out first",
                  "zh": "用{play}接过它对家的这一轮：再出它最后一手，先出完"},
    "DENY_WIND": {"en": "{play} beats the last play of an opponent who has gone out: else "
                        "that opponent's partner would take the lead (接风)",
                  "zh": "用{play}压过已出完的对手的最后一手：否则由那名对手的对家接风"},
    "NOTHING_BEATS": {"en": "nothing it holds beats it", "zh": "它没有能压过的牌"},
    "DEALS_PLAN": {"en": "{deals} deals of the cards it cannot see, each played out by the plan",
                   "zh": "在它看不到的牌的 {deals} 种发法上各按牌型规划打完"},
    "DEALS_SOLVED": {"en": "{deals} deals of the cards it cannot see, each played out "
                           "perfectly by both teams",
                     "zh": "在它看不到的牌的 {deals} 种发法上由双方完美打完"},
    "SEARCH_PASS": {"en": "it passes and keeps its cards for later: on {how}, passing wins "
                          "the hand {win:.0%} of the time and scores {rate:+.2f} levels a "
                          "hand; {plan} {base_win:.0%} and {base_rate:+.2f}",
                    "zh": "它过牌，把牌留到后面：{how}，过牌赢下这手牌的比例是 {win:.0%}，"
                          "平均每局得 {rate:+.2f} 级；{plan}是 {base_win:.0%} 和 "
                          "{base_rate:+.2f} 级"},
    "SEARCH_LEAD": {"en": "{play}: it keeps the lead or the cards it needs. On {how}, it wins "
                          "the hand {win:.0%} of the time and scores {rate:+.2f} levels a "
                          "hand; {plan} {base_win:.0%} and {base_rate:+.2f}",
                    "zh": "{play}：能保住出牌权或它需要的牌。{how}，这样打赢下这手牌的比例是 "
                          "{win:.0%}，平均每局得 {rate:+.2f} 级；{plan}是 {base_win:.0%} 和 "
                          "{base_rate:+.2f} 级"},
}


def explanation_text(why: Explanation, lang: str, voice: Voice = "you") -> str:
    """A bot's or hint's reason (its :class:`~tienlen.games.guandan.explain.Explanation`) in
    ``lang``: the wording comes from the reason's code and fields, never from English text.
    A hint speaks to the person (``voice="you"``); a bot's own move is explained in the
    third person (``voice="bot"``: :data:`BOT_REASON_WORDS`), nested reasons alike.

    >>> from tienlen.guandan import classify
    >>> king = classify("Ks", 5)[0]
    >>> explanation_text(Explanation("FOLLOW_GROUP", play=king), "zh")
    '单张 K能压过，而且不拆散你的牌型'
    >>> explanation_text(Explanation("FOLLOW_GROUP", play=king), "en", voice="bot")
    'single K beats it without breaking its plan'
    """
    if voice == "you":
        return why.text(lang)
    lang = lang if lang in LANGS else "en"
    values = {name: _shown(value, lang, voice) for name, value in why.fields.items()}
    template = BOT_REASON_WORDS.get(why.code, REASON_WORDS[why.code])[lang]
    text = template.format_map(values)
    weighed = why.fields.get("weighed")
    return text if not weighed else WEIGHED_WORDS[lang]["join"].join((text, weighed_text(weighed, lang)))


#: What L3 weighed, after its reason in the AI-debug panel: each action it compared, with
#: the share of sampled deals on which its team won the hand after it and the levels a hand
#: it scored there; the plan's own choice marked.
WEIGHED_WORDS: dict[str, dict[str, str]] = {
    "en": {"join": ". ", "intro": "It weighed ", "item": "{play}{plan}: {win:.0%}, {rate:+.2f}",
           "plan": " (its plan)", "sep": "; ", "end": " (hands won, levels a hand)"},
    "zh": {"join": "。", "intro": "它比较了：", "item": "{play}{plan} {win:.0%}，{rate:+.2f} 级",
           "plan": "（牌型规划）", "sep": "；", "end": "（胜率，每局得级）"},
}


def weighed_text(weighed: Sequence[Weighed], lang: str) -> str:
    """The actions L3 weighed (an explanation's ``weighed`` field), in its order, in ``lang``.

    >>> from tienlen.guandan import classify
    >>> pair = classify("6s 6d", 5)[0]
    >>> rows = (Weighed(None, 0.6, 0.9, 0.4, False), Weighed(pair, 0.5, 0.5, 0.0, True))
    >>> weighed_text(rows, "en")
    'It weighed passing: 60%, +0.90; pair of 6 (its plan): 50%, +0.50 (hands won, levels a hand)'
    >>> weighed_text(rows, "zh")
    '它比较了：过牌 60%，+0.90 级；对子 6（牌型规划） 50%，+0.50 级（胜率，每局得级）'
    """
    words = WEIGHED_WORDS[lang if lang in LANGS else "en"]
    items = [words["item"].format(play=_shown(w.play, lang, "bot"), win=w.win, rate=w.rate,
                                  plan=words["plan"] if w.plan else "") for w in weighed]
    return words["intro"] + words["sep"].join(items) + words["end"]


def _shown(value: Any, lang: str, voice: Voice) -> Any:
    if isinstance(value, Explanation):
        return explanation_text(value, lang, voice)
    if isinstance(value, Play):
        return play_words(value, lang)
    if value is None:
        return "passing" if lang == "en" else "过牌"
    return value


# Older reason strings (before the bots gave an Explanation) in Chinese, for callers that hold
# only the English text; {play} stands for the play's reading. The training mode words the
# bots' Explanation instead (explanation_text). A reason not listed here is shown as written.
_REASONS_TEXT_ZH = {
    "the rules make you give your highest card": "规则要求你交出最大的牌",
    "return a low card you do not need": "还一张你用不上的小牌",
    "lead your lowest card": "先出你最小的牌",
    "nothing beats the play on the table": "没有能压过桌面的牌",
    "the smallest play that beats": "能压过的最小一手",
    "this play empties your hand": "这手牌出完你的手牌",
    "lead your {play}: it follows your plan and keeps your strong cards for later":
        "先出{play}：符合你的牌型规划，把大牌留到后面",
    "nothing you hold beats it": "你没有能压过的牌",
    "your partner is winning this trick: let it stand": "对家正在赢这一轮：不要压",
    "{play} beats it without breaking your plan": "{play}能压过，而且不拆散你的牌型",
    "an opponent is close to going out: beat it even if it breaks a group":
        "对手快出完了：即使拆牌也要压",
    "bomb now: you are close to going out": "现在炸：你快出完了",
    "bomb now: an opponent is close to going out": "现在炸：对手快出完了",
    "keep your bombs and groups: it is too early to spend them": "保留炸弹和牌型：现在用太早",
}
_SCORES = " levels on simulated deals"


def reason_text(reason: str, play: Play | None, lang: str) -> str:
    """An older bot reason string for ``play`` (None: a pass or a card) in ``lang``: Chinese
    for the L1/L2 reasons listed above, with the play's reading in Chinese; else as written.
    Superseded by :func:`explanation_text`, which words the structured reason (the L3
    search's sentences too); kept for callers that hold only the string.

    >>> from tienlen.guandan import classify
    >>> king = classify("Ks", 5)[0]
    >>> reason_text("single K beats it without breaking your plan", king, "zh")
    '单张 K能压过，而且不拆散你的牌型'
    >>> reason_text("passing scores +0.50 levels on simulated deals", None, "zh")
    '过牌在模拟牌局中平均得 +0.50 级'
    """
    if lang != "zh":
        return reason
    reading = play.describe() if play is not None else None
    for english, chinese in _REASONS_TEXT_ZH.items():
        if "{play}" not in english:
            if reason == english:
                return chinese
            continue
        if reading is not None and reason == english.format(play=reading):
            assert play is not None
            return chinese.format(play=describe(play, "zh"))
    if reason.endswith(_SCORES) and " scores " in reason:
        who, _, rate = reason[:-len(_SCORES)].rpartition(" scores ")
        if who == "passing":
            return f"过牌在模拟牌局中平均得 {rate} 级"
        if play is not None and who == reading:
            return f"{describe(play, 'zh')}在模拟牌局中平均得 {rate} 级"
    return reason
