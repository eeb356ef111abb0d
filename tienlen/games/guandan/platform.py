"""The Guandan AI platform's v1006 protocol (docs/platform.md), over the same Guandan table
(:class:`tienlen.games.guandan.spec.GuandanTable`) the room plays on.

``tienlen serve --platform --games N`` listens on ``ws://127.0.0.1:23456/game/<anything>``,
seats agents by connection order (1st -> myPos 0 ...), plays N matches from level 2 to A
and prints each team's wins, as the platform's offline server does. It is as open as that
server (no tokens: whoever connects takes the next seat), so it is off unless asked for.

What an agent sends is bounded as everything else that crosses a socket: each frame (text,
or binary holding UTF-8 JSON) passes the one decoder (:data:`tienlen.table.decode.PLATFORM_FRAME`:
64 KiB, 8 levels); at most :data:`INBOX` frames wait unread (more are dropped, and said
so); an agent has ``decision_timeout`` seconds to answer a decision validly, after which it
is taken for gone: its socket is closed and L1 plays its seat for the rest of the run, as
for an agent that disconnects.

The notation (cards ``S9 HT SB HR``, actions ``[type, rank, cards]``) is written here from
the protocol sheet; the rules, the legal plays and the tribute choices come from the game.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tienlen.games.guandan.cards import Card, Cards
from tienlen.games.guandan.game import Game, return_candidates, tribute_candidates
from tienlen.games.guandan.match import DEFAULT_MAX_HANDS
from tienlen.games.guandan.plays import Kind, Play
from tienlen.games.guandan.spec import GuandanTable, sort_key
from tienlen.seeds import mix, seed_or_fresh
from tienlen.table import TableBot, bot_seed, get_spec
from tienlen.table.decode import PLATFORM_FRAME, DecodeError, decode_object

__all__ = ["card_text", "action_tuple", "play_cards", "PASS_TUPLE", "PlatformRunner", "run_platform",
           "DEFAULT_PORT", "INBOX", "SETTLE", "answer_index", "platform_app"]

#: The platform's offline server port, which its agents connect to unchanged.
DEFAULT_PORT = 23456
#: Frames of one agent waiting to be read, at most (an agent answers one decision at a time).
INBOX = 16
#: Seconds between an agent's connection and the first frame sent to it. ws4py's threaded
#: client (the competition's rule bots, DanZero) starts its reading thread when the
#: handshake ends and then parses, from its own thread, whatever followed the handshake in
#: its last read: a frame sent at once can be parsed by both threads, and the client drops
#: the connection (1006). Seen in 6 of 55 one-hand tournament matches of the rule bot ai1
#: against L2, always at the agent that connected last, whose table then started at once.
SETTLE = 0.25
#: A pass as the platform writes it in an action list.
PASS_TUPLE: list[Any] = ["PASS", "PASS", "PASS"]
_SUITS = "SHCD"          # the platform's suit letters in our suit order (spades, hearts, clubs, diamonds)
_RANKS = "23456789TJQKA"
_TYPES = {Kind.SINGLE: "Single", Kind.PAIR: "Pair", Kind.TRIPLE: "Trips",
          Kind.FULL_HOUSE: "ThreeWithTwo", Kind.STRAIGHT: "Straight",
          Kind.THREE_PAIRS: "ThreePair", Kind.PLATE: "TwoTrips", Kind.BOMB: "Bomb",
          Kind.STRAIGHT_FLUSH: "StraightFlush", Kind.JOKER_BOMB: "Bomb"}
_WIDTH = {Kind.STRAIGHT: 5, Kind.STRAIGHT_FLUSH: 5, Kind.THREE_PAIRS: 3, Kind.PLATE: 2}


def rank_text(rank: int) -> str:
    """A rank 2..14 in the platform's letters (ten is ``T``); 15/16 the jokers ``B``/``R``."""
    return _RANKS[rank - 2] if rank <= 14 else ("B" if rank == 15 else "R")


def card_text(card: int) -> str:
    """An original id in the platform's notation.

    >>> card_text(0), card_text(33), card_text(52), card_text(53)
    ('S2', 'HT', 'SB', 'HR')
    """
    if card == 52:
        return "SB"
    if card == 53:
        return "HR"
    return _SUITS[card & 3] + _RANKS[card >> 2]


def hand_cards(cards: Cards, level: int) -> list[str]:
    """A hand as ``handCards``: by power (the level rank after A, jokers last), then suit."""
    return [card_text(c) for c in sorted(cards.ids, key=lambda c: sort_key(c, level))]


def _natural_rank(card: int) -> int:
    """A card's own rank: 2..14, the jokers 15 (small) and 16 (big)."""
    return (card >> 2) + 2 if card < 52 else card - 37


def _slots(play: Play, ids: Sequence[int], wild: int) -> list[int]:
    """The ranks the platform lists a play's cards by, one per card, in its order: a
    full house its triple then its pair, a window (straight, three pairs, plate, straight
    flush) low to high (the A of an ace-low window first), anything else its one rank."""
    kind = play.kind
    if kind in _WIDTH:
        width = _WIDTH[kind]
        ranks = [14 if r == 1 else r for r in range(play.rank - width + 1, play.rank + 1)]
        return [r for r in ranks for _ in range(play.size // width)]
    if kind is Kind.FULL_HOUSE:
        others = [_natural_rank(c) for c in ids if c != wild and _natural_rank(c) != play.rank]
        pair = others[0] if others else play.level
        return [play.rank] * 3 + [pair] * 2
    if kind is Kind.JOKER_BOMB:
        return sorted(_natural_rank(c) for c in ids)
    return [play.rank] * play.size


def play_cards(play: Play) -> list[int]:
    """A play's cards (original ids) in the order the platform's agents read them: slot by
    slot (see ``_slots``), each slot's own cards in hand order, then the wild cards that
    stand in for that rank. Agents index into it: a rule bot takes ``cards[0]`` as the
    triple and ``cards[3]`` as the pair of a full house, ``cards[0], [2], [4]`` as the three
    pairs of a ThreePair."""
    level = play.level
    wild = play.wild_card if play.uses_wild else -1
    ids = sorted(play.cards.ids, key=lambda c: sort_key(c, level))
    slots = _slots(play, ids, wild)
    taken: list[int | None] = [None] * len(slots)
    standin = [False] * len(slots)
    rest = list(ids)
    # each slot its own rank's card first (the level's heart counts as its own rank) ...
    for natural_wild in (False, True):
        for i, rank in enumerate(slots):
            if taken[i] is None:
                card = next((c for c in rest if _natural_rank(c) == rank
                             and (c == wild) == natural_wild), None)
                if card is not None:
                    taken[i] = card
                    rest.remove(card)
    # ... then the wild cards fill what is left
    for i in range(len(slots)):
        if taken[i] is None and rest:
            taken[i] = rest.pop(0)
            standin[i] = True
    first = {rank: slots.index(rank) for rank in slots}
    order = sorted(range(len(slots)), key=lambda i: (
        first[slots[i]], standin[i], sort_key(taken[i] or 0, level)))
    return [c for i in order if (c := taken[i]) is not None] + rest


def action_tuple(play: Play) -> list[Any]:
    """A play as ``[type, rank, cards]``: the rank of singles, pairs, triples and bombs is
    their cards' (``B``/``R`` for jokers), of a full house its triple's, of a window its
    lowest card (A2345 is ``A``); the joker bomb is ``["Bomb", "JOKER", ...]``. Cards are
    listed as the platform's agents read them (:func:`play_cards`): a full house's triple
    before its pair, a window low to high, a wild card after the cards of the rank it
    stands for.

    >>> from tienlen.guandan import classify
    >>> action_tuple(classify("Ah 2s 3s 4s 5s", 9)[0])
    ['Straight', 'A', ['HA', 'S2', 'S3', 'S4', 'S5']]
    >>> action_tuple(classify("2s 2h 2h 2c 9h", 9)[-1])
    ['Bomb', '2', ['S2', 'H2', 'H2', 'C2', 'H9']]
    >>> action_tuple(classify("3s 3d Kc Kd Kh", 5)[0])
    ['ThreeWithTwo', 'K', ['HK', 'CK', 'DK', 'S3', 'D3']]
    """
    kind = play.kind
    if kind is Kind.JOKER_BOMB:
        rank = "JOKER"
    elif kind in _WIDTH:
        low = play.rank - _WIDTH[kind] + 1
        rank = "A" if low == 1 else rank_text(low)
    else:
        rank = rank_text(play.rank)
    return [_TYPES[kind], rank, [card_text(c) for c in play_cards(play)]]


def level_text(level: int) -> str:
    return rank_text(level)


def answer_index(frame: str | bytes) -> int:
    """The ``actIndex`` of an agent's frame, through the one bounded decoder; a frame that
    is not ``{"actIndex": i}`` is a ``ValueError`` (:class:`~tienlen.table.decode.DecodeError`
    for what the decoder refuses).

    >>> answer_index('{"actIndex": 3}'), answer_index(b'{"actIndex": 0}')
    (3, 0)
    >>> answer_index('[' * 5000 + ']' * 5000)
    Traceback (most recent call last):
    ...
    tienlen.table.decode.DecodeError: TOO_DEEP: platform frame: nested deeper than 8 levels
    """
    message = decode_object(frame, PLATFORM_FRAME)
    index = message.get("actIndex")
    if type(index) is not int:
        raise ValueError(f"want {{\"actIndex\": i}}; got actIndex {index!r:.20}")
    return index


@dataclass
class Agent:
    """One platform client: its socket's send and the queue of what it sent (``INBOX``
    frames at most: :meth:`deliver`)."""

    pos: int
    send: Callable[[str], Any]
    inbox: asyncio.Queue[str | bytes | None] = field(
        default_factory=lambda: asyncio.Queue(INBOX + 1))
    gone: bool = False
    #: closes the socket normally (1000) once the last match is played
    close: Callable[[], Awaitable[Any]] | None = None
    dropped: int = 0
    #: when it connected (``time.monotonic``): the first frame waits ``SETTLE`` from it
    since: float = field(default_factory=time.monotonic)

    def deliver(self, frame: str | bytes) -> bool:
        """Queue a frame; False (the frame is dropped) when ``INBOX`` are waiting."""
        if self.inbox.qsize() >= INBOX:
            self.dropped += 1
            return False
        self.inbox.put_nowait(frame)
        return True

    def hang_up(self) -> None:
        """The socket is gone: wake whoever waits for a frame."""
        try:
            self.inbox.put_nowait(None)
        except asyncio.QueueFull:          # the one slot past INBOX is for this
            pass


class PlatformRunner:
    """Plays ``games`` matches among agents (by connection order) and our bots."""

    def __init__(self, games: int, seats: Sequence[str] = ("agent",) * 4, *,
                 seed: int | None = None, log: Callable[[str], None] = print,
                 max_hands: int = DEFAULT_MAX_HANDS, decision_timeout: float | None = None,
                 connect_timeout: float | None = None) -> None:
        if type(games) is not int or not 1 <= games <= 1_000_000:
            raise ValueError(f"--games must be 1..1000000; got {games!r:.20}")
        if len(seats) != 4:
            raise ValueError("--seats names four seats, e.g. agent,L2,agent,L2")
        # a bot's name as given: levels are read in any case, and a dmc:PATH keeps its path
        self.seat_kinds = ["agent" if s.strip().lower() == "agent" else s.strip() for s in seats]
        if "agent" not in self.seat_kinds:
            raise ValueError("--seats names no agent: a platform server with bots alone "
                             "would wait for nobody (bots against bots: tienlen sim "
                             "--game guandan)")
        for name, value in (("decision_timeout", decision_timeout),
                            ("connect_timeout", connect_timeout)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))
                                      or not 0 < value <= 86400):
                raise ValueError(f"{name} must be seconds in (0, 86400] or None; got {value!r:.20}")
        self.decision_timeout = decision_timeout
        self.connect_timeout = connect_timeout
        self.games = games
        spec = get_spec("guandan")
        self.seed = seed_or_fresh(seed)
        self.bots: dict[int, TableBot] = {}
        for pos, kind in enumerate(self.seat_kinds):
            if kind != "agent":
                self.bots[pos] = spec.make_bot(kind, bot_seed(self.seed, pos))
        self.agents: dict[int, Agent] = {}
        self.ready = asyncio.Event()
        self.done = asyncio.Event()
        self.log = log
        self.max_hands = max_hands
        self.victories = [0, 0, 0, 0]
        self.draws = [0, 0, 0, 0]
        self.team_wins = [0, 0]
        #: per match played: the winning team (None: undecided), hands played, hands won by
        #: each team (its player out first), and the agent seats gone by then
        self.records: list[dict[str, Any]] = []
        self.fallback = spec.make_bot("L1", bot_seed(self.seed, 9))

    def abandon(self, pos: int) -> None:
        """Give up waiting for seat ``pos``'s agent (it did not connect): L1 plays it, and
        the next connection takes the next open seat."""
        if pos in self.open_seats():
            self.agents[pos] = Agent(pos, _nowhere, gone=True)
            self.log(f"myPos {pos}: no agent connected: L1 plays the seat")
            if not self.open_seats():
                self.ready.set()

    def open_seats(self) -> list[int]:
        return [p for p, k in enumerate(self.seat_kinds) if k == "agent" and p not in self.agents]

    def connect(self, send: Callable[[str], Any],
                close: Callable[[], Awaitable[Any]] | None = None) -> Agent | None:
        """Seat a new connection at the next open seat (None: the table is full)."""
        free = self.open_seats()
        if not free or self.ready.is_set():
            return None
        agent = Agent(free[0], send, close=close)
        self.agents[agent.pos] = agent
        self.log(f"client connected: myPos {agent.pos}")
        if not self.open_seats():
            self.ready.set()
        return agent

    async def _send(self, pos: int, message: dict[str, Any]) -> None:
        agent = self.agents.get(pos)
        if agent is None or agent.gone:
            return
        wait = agent.since + SETTLE - time.monotonic()
        if wait > 0:
            await asyncio.sleep(wait)
        try:
            await agent.send(json.dumps(message, separators=(",", ":")))
        except Exception:
            agent.gone = True
            self.log(f"myPos {pos} disconnected: L1 plays its seat")

    async def _all(self, message: dict[str, Any]) -> None:
        for pos in range(4):
            await self._send(pos, message)

    async def _answer(self, agent: Agent, options: int) -> int | None:
        """The agent's first valid answer (invalid ones are refused and logged: we wait for
        a valid one); None once it is gone."""
        while not agent.gone:
            frame = await agent.inbox.get()
            if agent.dropped:
                self.log(f"myPos {agent.pos}: {agent.dropped} frame(s) dropped: more than "
                         f"{INBOX} were waiting unread")
                agent.dropped = 0
            if frame is None:
                agent.gone = True
                self.log(f"myPos {agent.pos} disconnected: L1 plays its seat")
                break
            try:
                index = answer_index(frame)
            except ValueError as error:
                self.log(f"myPos {agent.pos}: not an answer: {str(error)[:120]}")
                continue
            if not 0 <= index < options:
                self.log(f"myPos {agent.pos}: actIndex {index} out of range 0..{options - 1}")
                continue
            return index
        return None

    async def _choose(self, pos: int, message: dict[str, Any], table: GuandanTable) -> int:
        """The index an agent answers within ``decision_timeout``, or our bot's pick for a
        bot seat or a vanished agent. An agent past the deadline is gone for the run."""
        options = message["actionList"]
        agent = self.agents.get(pos)
        if agent is not None and not agent.gone:
            await self._send(pos, message)
            try:
                index = await asyncio.wait_for(self._answer(agent, len(options)),
                                               self.decision_timeout)
            except asyncio.TimeoutError:
                index = None
                agent.gone = True
                self.log(f"myPos {pos} did not answer within {self.decision_timeout:g} s: "
                         "L1 plays its seat for the rest of the run")
                if agent.close is not None:
                    try:
                        await asyncio.wait_for(agent.close(), 5)
                    except Exception:
                        pass
            if index is not None:
                return index
        bot = self.bots.get(pos, self.fallback)
        action = await asyncio.get_running_loop().run_in_executor(
            None, bot.act, table.bot_view(pos))
        return self._index_of(action, message, table, pos)

    def _index_of(self, action: dict[str, Any], message: dict[str, Any], table: GuandanTable,
                  pos: int) -> int:
        stage = message["stage"]
        if stage == "play":
            if action["kind"] == "pass":
                return 0
            plays = list(table.match.game.legal_plays())
            offset = 1 if message["actionList"][0] == PASS_TUPLE else 0
            for i, p in enumerate(plays):
                if p.code == action["reading"] and sorted(Card(c).ascii() for c in p.cards.ids) == \
                        sorted(action["cards"]):
                    return i + offset
            raise AssertionError("the bot's play is not among the legal plays")
        card = card_text(Card.parse(action["card"]))
        return next(i for i, a in enumerate(message["actionList"]) if a[2][0] == card)

    # ------------------------------------------------------------ one deal

    def _public(self, game: Game, trick: dict[int, list[Any]]) -> list[dict[str, Any]]:
        return [{"rest": len(game.hand(s)), "playArea": trick.get(s)} for s in range(4)]

    def _ranks(self, table: GuandanTable, pos: int) -> dict[str, str]:
        """``selfRank``, ``oppoRank`` (the teams' levels, seen from ``pos``) and ``curRank``."""
        m = table.match
        return {"selfRank": level_text(m.levels[m.team_of(pos)]),
                "oppoRank": level_text(m.levels[1 - m.team_of(pos)]),
                "curRank": level_text(m.game.level)}

    def _act(self, table: GuandanTable, pos: int, stage: str, actions: list[list[Any]],
             trick: dict[int, list[Any]], cur: tuple[int, Any], greater: tuple[int, Any]) -> dict[str, Any]:
        game = table.match.game
        return {"type": "act", "stage": stage, "handCards": hand_cards(game.hand(pos), game.level),
                "publicInfo": self._public(game, trick), **self._ranks(table, pos),
                "curPos": cur[0], "curAction": cur[1], "greaterPos": greater[0],
                "greaterAction": greater[1], "actionList": actions,
                "indexRange": len(actions) - 1}

    async def _exchange_notify(self, game: Game, stage: str) -> None:
        """``tribute/notify`` ([giver, receiver, card] of each tribute) or ``back/notify``
        ([returner, receiver, card]) to each seat, as its view shows the exchange (public
        once made, G6.11)."""
        for seat in range(4):
            result = []
            for t in game.view(seat).tributes:
                card = t.card if stage == "tribute" else t.returned
                assert t.receiver is not None and card is not None  # public by now (G6.11)
                result.append([t.payer, t.receiver, card_text(card)] if stage == "tribute"
                              else [t.receiver, t.payer, card_text(card)])
            await self._send(seat, {"type": "notify", "stage": stage, "result": result})

    async def _deal(self, table: GuandanTable) -> None:
        m = table.match
        game = m.game
        for seat in range(4):
            # the ranks too: DanZero's clients read curRank, selfRank and oppoRank here
            await self._send(seat, {"type": "notify", "stage": "beginning",
                                    "handCards": hand_cards(game.hand(seat), game.level),
                                    "myPos": seat, **self._ranks(table, seat)})
        trick: dict[int, list[Any]] = {}
        for seat in range(4):
            # what each seat's view shows of a refusal (G6.11): who would have paid
            anti = game.view(seat).anti_tribute
            if anti is not None:
                refused = sorted(anti.payers)
                await self._send(seat, {"type": "notify", "stage": "anti-tribute",
                                        "antiNums": len(refused), "antiPos": refused})
        given_notified = False
        last: tuple[int, Any] = (-1, None)
        while not game.is_over:
            if game.phase == "tribute":
                giver = game.turn
                assert giver is not None
                view = game.view(giver)
                step = view.tribute_step
                pick = tribute_candidates if step == "give" else return_candidates
                word = "tribute" if step == "give" else "back"
                faces = pick(view.hand, view.level, view.config)
                options = [[word, word, [card_text(c)]] for c in faces]
                message = self._act(table, giver, word, options, {}, (-1, None), (-1, None))
                index = await self._choose(giver, message, table)
                kind = "give_tribute" if step == "give" else "return_tribute"
                table.apply({"kind": kind, "card": Card(faces[index]).ascii()}, giver)
                if not given_notified and all(t.card is not None for t in game.tributes):
                    given_notified = True       # every tribute given: the receivers are fixed
                    await self._exchange_notify(game, "tribute")
                if game.phase != "tribute":
                    await self._exchange_notify(game, "back")
                continue
            pos = game.turn
            assert pos is not None
            pile = game.pile
            plays = list(game.legal_plays())
            actions = ([PASS_TUPLE] if pile is not None else []) + [action_tuple(p) for p in plays]
            if pile is None:
                cur: tuple[int, Any] = (-1, None)
                greater: tuple[int, Any] = (-1, None)
                trick = {}
            else:
                cur = last
                owner = game.pile_owner
                greater = (-1 if owner is None else owner, action_tuple(pile))
            message = self._act(table, pos, "play", actions, trick, cur, greater)
            index = await self._choose(pos, message, table)
            if pile is not None and index == 0:
                table.apply({"kind": "pass"}, pos)
                done: list[Any] = PASS_TUPLE
            else:
                play = plays[index - (1 if pile is not None else 0)]
                table.apply({"kind": "play", "cards": [Card(c).ascii() for c in play.cards.ids],
                             "reading": play.code}, pos)
                done = action_tuple(play)
            trick[pos] = done
            last = (pos, done)
            top = game.pile if not game.is_over else None
            if game.is_over or top is None:
                # the trick ended with this action (or the deal did): the top is what stood
                g_pos = pos if done is not PASS_TUPLE else greater[0]
                g_act = done if done is not PASS_TUPLE else greater[1]
            else:
                g_pos = -1 if game.pile_owner is None else game.pile_owner
                g_act = action_tuple(top)
            await self._all({"type": "notify", "stage": "play", "curPos": pos, "curAction": done,
                             "greaterPos": g_pos, "greaterAction": g_act})
        result = m.results[-1]
        rest = [[s, hand_cards(game.hand(s), game.level)] for s in range(4) if len(game.hand(s))]
        await self._all({"type": "notify", "stage": "episodeOver", "order": list(result.places),
                         "curRank": level_text(result.level), "restCards": rest})

    async def play(self) -> None:
        try:
            await asyncio.wait_for(self.ready.wait(), self.connect_timeout)
        except asyncio.TimeoutError:
            missing = self.open_seats()
            self.ready.set()                 # no more connections: L1 plays the empty seats
            for pos in missing:
                self.agents[pos] = Agent(pos, _nowhere, gone=True)
            self.log(f"myPos {', '.join(map(str, missing))}: no agent connected within "
                     f"{self.connect_timeout:g} s: L1 plays the seat(s)")
        try:
            for number in range(self.games):
                table = GuandanTable(mix(self.seed, number), max_hands=self.max_hands)
                while not table.is_over:
                    await self._deal(table)
                    if not table.is_over:
                        table.next_hand()
                m = table.match
                self.records.append({
                    "winner": m.winner, "hands": len(m.results),
                    "hands_won": [sum(1 for r in m.results if m.team_of(r.places[0]) == team)
                                  for team in (0, 1)],
                    "gone": sorted(p for p, a in self.agents.items() if a.gone)})
                if m.winner is None:
                    for p in range(4):
                        self.draws[p] += 1
                else:
                    self.team_wins[m.winner] += 1
                    for p in m.teams[m.winner]:
                        self.victories[p] += 1
                await self._all({"type": "notify", "stage": "gameOver", "curTimes": number + 1,
                                 "settingTimes": self.games})
                self.log(f"game {number + 1}/{self.games}: "
                         + ("draw" if m.winner is None else f"team {m.winner} "
                            f"(seats {m.teams[m.winner][0]} and {m.teams[m.winner][1]}) wins"))
            await self._all({"type": "notify", "stage": "gameResult",
                             "victoryNum": self.victories, "draws": self.draws})
            # a normal close (1000) after the result: a server shutting down would close
            # with 1012, which websocket-client's agents report as an error
            for agent in self.agents.values():
                if agent.close is not None and not agent.gone:
                    try:
                        await agent.close()
                    except Exception:
                        agent.gone = True
        finally:
            self.done.set()

    def summary(self) -> str:
        return (f"team 0 (seats 0 and 2): {self.team_wins[0]} wins; "
                f"team 1 (seats 1 and 3): {self.team_wins[1]} wins; "
                f"draws: {self.draws[0]}")


async def _nowhere(text: str) -> None:
    """The send of a seat no agent took."""


def platform_app(runner: PlatformRunner) -> Any:
    """The platform's WebSocket endpoint ``/game/<anything>`` for ``runner``."""
    from starlette.applications import Starlette
    from starlette.routing import WebSocketRoute
    from starlette.websockets import WebSocket, WebSocketDisconnect

    async def game(ws: WebSocket) -> None:
        await ws.accept()
        agent = runner.connect(ws.send_text, ws.close)
        if agent is None:
            await ws.close(1008, "all seats are taken")
            return
        try:
            while True:
                message = await ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                text, data = message.get("text"), message.get("bytes")
                frame: str | bytes = text if text is not None else bytes(data or b"")
                agent.deliver(frame)
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            agent.hang_up()

    return Starlette(routes=[WebSocketRoute("/game/{tail:path}", game)])


def run_platform(args: argparse.Namespace) -> int:
    """Deprecated: ``tienlen serve --platform`` is run by :func:`tienlen.server.run.run_platform`
    (the server binds and serves; this module is the game's codec and runner only)."""
    import warnings
    from importlib import import_module

    warnings.warn("tienlen.games.guandan.platform.run_platform is deprecated: use "
                  "tienlen.server.run.run_platform (the same command)", DeprecationWarning,
                  stacklevel=2)
    status: int = import_module("tienlen.server.run").run_platform(args)
    return status
