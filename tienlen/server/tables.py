"""Tables, seats and the bots that play them, on one asyncio loop.

Every change to a table happens on the event loop thread, between two awaits, so a table
needs no lock: a message is verified and applied in one go or refused with nothing changed.
Bots think in a thread pool (:attr:`Hub.pool`): the view a bot reads is made on the loop,
the bot's answer comes back to the loop and is applied only if the table has not moved on
meanwhile (``Table.version``). A slow L3 at one table never holds up another table.

Seats are ``human`` (the browser room), ``remote`` (an agent over our protocol) or a bot
level. Human and remote seats get a secret token; a silent seat past the turn timer, or a
seat with no socket past the reconnect grace, is played by the fallback bot (``L1``, or
``wait`` to wait for ever); a reconnect with the token takes the seat back.

A tribute card is shown only to whoever moved it:

>>> record = {"seat": 2, "kind": "give_tribute", "card": "BJ", "to": None}
>>> _hidden_for(record, seat=2, actor=2)["card"], "card" in _hidden_for(record, seat=1, actor=2)
('BJ', False)
"""

from __future__ import annotations

import asyncio
import hmac
import secrets
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..seeds import seed_or_fresh
from ..table import (GameSpec, IllegalActionError, TableBot, TableState, bot_seed, get_spec)

__all__ = ["PROTOCOL_VERSION", "ServerConfig", "Hub", "Table", "Seat", "Connection",
           "TableError"]

#: The version of our WebSocket protocol (docs/protocol.md); every message carries it.
PROTOCOL_VERSION = 1
SEAT_KINDS = ("human", "remote")


class TableError(ValueError):
    """A request the hub refuses (bad seats, too many tables, unknown table or token)."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


@dataclass
class ServerConfig:
    """The server's limits and defaults (``tienlen serve`` options)."""

    #: Seconds a connected human or remote seat may think; 0 waits for ever.
    turn_timeout: float = 30.0
    #: Who plays a silent or disconnected seat: a bot level, or "wait".
    fallback: str = "L1"
    #: Seconds a seat may have no socket on its turn before the fallback plays it.
    reconnect_grace: float = 5.0
    #: Pause before a bot's move at a table with a human, so the room can show each play.
    bot_delay: float = 0.0
    #: Pause before dealing the next hand at a table with no human (0: at once).
    max_tables: int = 1000
    #: Largest message a client may send, in bytes (the WebSocket layer is set to this too).
    max_message_bytes: int = 16 * 1024
    #: Messages per second a socket may send (sustained), and the burst above it: well
    #: above a fast agent playing instant bots (~30 actions a second), far below a flood.
    rate: float = 100.0
    burst: float = 200.0
    #: Seconds without any message before a socket is closed (the room pings every 20 s).
    idle_timeout: float = 120.0
    #: Messages waiting for a slow reader before it is dropped.
    send_queue: int = 64
    #: Threads for bots.
    bot_threads: int = 4
    #: Seconds a finished table, or one nobody has joined, stays in memory.
    table_ttl: float = 3600.0


class Connection(Protocol):
    """A client socket as the tables see it: sending never blocks the table."""

    def send(self, message: dict[str, Any]) -> None: ...

    def close(self, code: int, reason: str) -> None: ...


@dataclass
class Seat:
    index: int
    kind: str                        # "human", "remote" or "bot"
    level: str | None                # a bot's level (None for human/remote)
    token: str | None
    bot: TableBot | None = None
    conn: Connection | None = None
    want_legal: bool = False
    ever_joined: bool = False

    @property
    def name(self) -> str:
        return self.level if self.kind == "bot" and self.level else self.kind


def _event(**fields: Any) -> dict[str, Any]:
    return {"v": PROTOCOL_VERSION, **fields}


def _hidden_for(record: dict[str, Any], seat: int, actor: int) -> dict[str, Any]:
    """An action record as ``seat`` may see it: a tribute card only to whoever moved it
    (the receiver learns it from its own view, which the game builds)."""
    if "card" in record and seat != actor and seat != record.get("to"):
        return {k: v for k, v in record.items() if k != "card"}
    return record


class Table:
    """One match, its seats and its driver task."""

    def __init__(self, hub: Hub, table_id: str, spec: GameSpec, state: TableState, seed: int,
                 seats: list[Seat], settings: dict[str, Any]) -> None:
        self.hub = hub
        self.id = table_id
        self.spec = spec
        self.state = state
        self.seed = seed
        self.seats = seats
        self.settings = settings
        self.version = 0                   # bumped by every change
        self.created = time.monotonic()
        self.touched = self.created
        self.turn_started = time.monotonic()
        self.last_reason: dict[str, Any] | None = None
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._fallbacks: dict[int, TableBot] = {}
        self.closed = False

    # ------------------------------------------------------------ info

    @property
    def has_human(self) -> bool:
        return any(s.kind == "human" for s in self.seats)

    def seat_info(self) -> list[dict[str, Any]]:
        return [{"seat": s.index, "kind": s.kind, "name": s.name,
                 "connected": s.conn is not None} for s in self.seats]

    def turn_timeout(self) -> float:
        value = self.settings.get("turn_timeout")
        return float(value) if isinstance(value, (int, float)) else self.hub.config.turn_timeout

    def fallback(self) -> str:
        value = self.settings.get("fallback")
        return value if isinstance(value, str) else self.hub.config.fallback

    # ------------------------------------------------------------ sockets

    def seat_for_token(self, token: object) -> Seat:
        if isinstance(token, str):
            for seat in self.seats:
                if seat.token is not None and hmac.compare_digest(seat.token, token):
                    return seat
        raise TableError("BAD_TOKEN", "no seat at this table has that token")

    def attach(self, seat: Seat, conn: Connection, want_legal: bool) -> None:
        old = seat.conn
        seat.conn, seat.want_legal, seat.ever_joined = conn, want_legal, True
        if old is not None and old is not conn:
            old.close(4001, "the seat was taken by a newer connection with its token")
        self.touched = time.monotonic()
        conn.send(_event(type="welcome", table=self.id, game=self.state.game, seat=seat.index,
                         players=self.state.players, seats=self.seat_info(),
                         settings=self.public_settings()))
        self.broadcast_seats()
        self.send_state(seat)
        self.poke()

    def detach(self, seat: Seat, conn: Connection) -> None:
        if seat.conn is conn:
            seat.conn = None
            self.broadcast_seats()
            self.poke()

    def public_settings(self) -> dict[str, Any]:
        return {"hints": bool(self.settings.get("hints", True)),
                "ai_debug": bool(self.settings.get("ai_debug", False)),
                "turn_timeout": self.turn_timeout(), "fallback": self.fallback(),
                "lang": self.lang()}

    def lang(self) -> str:
        """The language the table words its bots' reasons in (the room's, ``"en"`` or
        ``"zh"``), where the game words them in it; else English."""
        value = self.settings.get("lang", "en")
        return value if value in getattr(self.spec, "reason_langs", ("en",)) else "en"

    def broadcast_seats(self) -> None:
        info = self.seat_info()
        for s in self.seats:
            if s.conn is not None:
                s.conn.send(_event(type="seats", seats=info))

    def clock(self) -> dict[str, Any] | None:
        turn = self.state.turn
        timeout = self.turn_timeout()
        if turn is None or self.seats[turn].kind == "bot" or timeout <= 0:
            return None
        left = max(0.0, timeout - (time.monotonic() - self.turn_started))
        return {"seat": turn, "seconds_left": round(left, 1), "timeout": timeout}

    def send_state(self, seat: Seat) -> None:
        if seat.conn is None:
            return
        message = _event(type="state", table=self.id, version=self.version,
                         view=self.state.view(seat.index), clock=self.clock())
        if seat.want_legal and self.state.turn == seat.index:
            message["legal"] = self.state.legal_actions()
        seat.conn.send(message)

    def broadcast_state(self) -> None:
        for s in self.seats:
            self.send_state(s)

    # ------------------------------------------------------------ actions

    def _changed(self) -> None:
        self.version += 1
        self.turn_started = time.monotonic()
        self.touched = self.turn_started
        self.poke()

    def poke(self) -> None:
        self._wake.set()

    def act(self, seat: int, action: object, by: str = "player",
            reason: str | None = None) -> dict[str, Any]:
        """Verify and apply ``action`` for ``seat`` now; raises IllegalActionError (and
        changes nothing) on refusal. Broadcasts the action and the new views."""
        if not isinstance(action, dict):
            raise IllegalActionError("BAD_ACTION", "action must be an object")
        record = self.state.apply(action, seat)
        self._changed()
        for s in self.seats:
            if s.conn is not None:
                message = _event(type="action", seat=seat, by=by,
                                 action=_hidden_for(record, s.index, seat))
                if reason is not None and self.settings.get("ai_debug"):
                    message["reason"] = reason
                s.conn.send(message)
        self.broadcast_state()
        return record

    def next_hand(self) -> None:
        self.state.next_hand()
        self._changed()
        self.broadcast_state()

    async def hint(self, seat: int, lang: str | None = None) -> dict[str, Any]:
        """The hint level's action and reason for ``seat`` (its turn only), the reason in
        ``lang`` (default: the table's ``lang`` setting) if the game words its reasons in it
        (``spec.reason_langs``), else in English; ``lang`` in the answer says which."""
        if lang is None:
            lang = self.lang()
        if lang not in LANGS:
            raise IllegalActionError("BAD_MESSAGE", "lang is \"en\" or \"zh\"")
        if not self.settings.get("hints", True):
            raise IllegalActionError("HINTS_OFF", "hints are turned off at this table")
        if self.state.turn != seat:
            raise IllegalActionError("NOT_YOUR_TURN", "a hint is for the seat to act")
        view = self.state.bot_view(seat)
        bot = self.spec.make_bot(self.spec.hint_level, bot_seed(self.seed, seat, self.version))
        if lang not in getattr(self.spec, "reason_langs", ("en",)):
            lang = "en"
        action, reason = await asyncio.get_running_loop().run_in_executor(
            self.hub.pool, bot.explain, view, lang)
        return {"action": action, "reason": reason, "lang": lang, "level": self.spec.hint_level}

    # ------------------------------------------------------------ the driver

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._drive(), name=f"table-{self.id}")

    async def stop(self) -> None:
        self.closed = True
        self.poke()
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except (asyncio.CancelledError, Exception):
                pass

    async def _wait(self, timeout: float | None) -> None:
        self._wake.clear()
        try:
            await asyncio.wait_for(self._wake.wait(), timeout)
        except asyncio.TimeoutError:
            pass

    @property
    def waiting_for_humans(self) -> bool:
        """A table with human seats starts when each has joined once: the room sees every
        play from the first (remote seats have the reconnect grace instead)."""
        return any(s.kind == "human" and not s.ever_joined for s in self.seats)

    def _bot_for(self, seat: Seat) -> TableBot | None:
        """Who plays ``seat`` now: its bot, the fallback (silent or gone), or None (wait)."""
        if seat.bot is not None:
            return seat.bot
        fallback = self.fallback()
        if fallback == "wait":
            return None
        now = time.monotonic()
        waited = now - self.turn_started
        timeout = self.turn_timeout()
        gone = seat.conn is None and waited >= self.hub.config.reconnect_grace
        silent = seat.conn is not None and timeout > 0 and waited >= timeout
        if not (gone or silent):
            return None
        bot = self._fallbacks.get(seat.index)
        if bot is None:
            bot = self.spec.make_bot(fallback, bot_seed(self.seed, seat.index, 0xFA11))
            self._fallbacks[seat.index] = bot
        return bot

    def _deadline(self, seat: Seat) -> float | None:
        """Seconds until the fallback may take ``seat`` (None: no deadline)."""
        if self.fallback() == "wait":
            return None
        waited = time.monotonic() - self.turn_started
        if seat.conn is None:
            return max(0.0, self.hub.config.reconnect_grace - waited)
        timeout = self.turn_timeout()
        return None if timeout <= 0 else max(0.0, timeout - waited)

    async def _drive(self) -> None:
        loop = asyncio.get_running_loop()
        while not self.closed:
            state = self.state
            if self.waiting_for_humans:
                await self._wait(None)
                continue
            if state.phase == "over":
                await self._wait(None)
                continue
            if state.phase == "hand_over":
                if any(s.kind == "human" and s.conn is not None for s in self.seats):
                    await self._wait(None)         # a human deals the next hand
                else:
                    delay = self.hub.config.bot_delay if self.has_human else 0.0
                    if delay:
                        await asyncio.sleep(delay)
                    if state.phase == "hand_over":
                        self.next_hand()
                continue
            turn = state.turn
            if turn is None:
                await self._wait(None)
                continue
            seat = self.seats[turn]
            bot = self._bot_for(seat)
            if bot is None:
                await self._wait(self._deadline(seat))
                continue
            version = self.version
            if seat.kind == "bot" and self.has_human and self.hub.config.bot_delay:
                await asyncio.sleep(self.hub.config.bot_delay)
                if self.version != version:
                    continue
            view = state.bot_view(turn)
            debug = bool(self.settings.get("ai_debug"))
            lang = self.lang()
            think: Callable[[object], Any] = \
                (lambda v: bot.explain(v, lang)) if debug else bot.act
            try:
                answer = await loop.run_in_executor(self.hub.pool, think, view)
            except Exception as error:       # a bot bug must not stop the table
                self.hub.log(f"table {self.id}: bot of seat {turn} failed: {error!r}")
                await self._wait(1.0)
                continue
            if self.version != version or self.closed:
                continue                         # the seat's owner acted meanwhile
            action, reason = answer if debug else (answer, None)
            by = "bot" if seat.kind == "bot" else "fallback"
            try:
                self.act(turn, action, by=by, reason=reason)
            except IllegalActionError as error:
                self.hub.log(f"table {self.id}: bot of seat {turn} was refused: {error}")
                await self._wait(1.0)


@dataclass
class Hub:
    """Every table of one server process."""

    config: ServerConfig = field(default_factory=ServerConfig)
    log: Callable[[str], None] = field(default=lambda text: None)

    def __post_init__(self) -> None:
        self.tables: dict[str, Table] = {}
        self.pool = ThreadPoolExecutor(max_workers=self.config.bot_threads,
                                       thread_name_prefix="tienlen-bot")

    def create(self, game: object, seats: object, *, seed: object = None,
               players: object = None, options: object = None,
               settings: object = None) -> tuple[Table, dict[int, str]]:
        """A new table; returns it and the tokens of its human and remote seats."""
        self.reap()
        if len(self.tables) >= self.config.max_tables:
            raise TableError("TOO_MANY_TABLES", f"the server holds {self.config.max_tables} "
                                                "tables already")
        try:
            spec = get_spec(game)  # type: ignore[arg-type]
        except ValueError as error:
            raise TableError("BAD_GAME", str(error)) from None
        if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
            raise TableError("BAD_SEATS", 'seats is a list such as ["human", "L2", "L2", "L2"]')
        if players is None:
            players = len(seats)
        if players != len(seats) or players not in spec.player_counts:
            raise TableError("BAD_SEATS", f"{spec.name} seats "
                                          f"{' or '.join(map(str, spec.player_counts))}; "
                                          f"got {len(seats)} seats")
        if options is not None and not isinstance(options, dict):
            raise TableError("BAD_OPTIONS", "options is an object")
        if settings is None:
            settings = {}
        if not isinstance(settings, dict):
            raise TableError("BAD_SETTINGS", "settings is an object")
        clean = check_settings(settings, spec)
        try:
            seed = seed_or_fresh(seed)
            state = spec.new_match(seed, players=len(seats), options=options)
        except ValueError as error:
            raise TableError("BAD_OPTIONS", str(error)) from None
        built: list[Seat] = []
        tokens: dict[int, str] = {}
        for index, kind in enumerate(seats):
            if kind in SEAT_KINDS:
                token = secrets.token_urlsafe(24)
                tokens[index] = token
                built.append(Seat(index, kind, None, token))
                continue
            try:
                bot = spec.make_bot(kind, bot_seed(seed, index))
            except ValueError:
                raise TableError("BAD_SEATS", f"seat {index}: {kind!r:.20} is not human, "
                                 f"remote or a bot level ({', '.join(spec.bot_levels)})") from None
            built.append(Seat(index, "bot", bot.name, None, bot=bot))
        table_id = secrets.token_hex(6)
        table = Table(self, table_id, spec, state, seed, built, clean)
        self.tables[table_id] = table
        table.start()
        return table, tokens

    def get(self, table_id: object) -> Table:
        table = self.tables.get(table_id) if isinstance(table_id, str) else None
        if table is None:
            raise TableError("NO_TABLE", "no such table")
        return table

    def reap(self) -> None:
        """Forget tables nobody holds that are finished or untouched past the TTL."""
        now = time.monotonic()
        for table_id, table in list(self.tables.items()):
            idle = now - table.touched > self.config.table_ttl
            nobody = all(s.conn is None for s in table.seats)
            if nobody and (idle or (table.state.phase == "over" and now - table.touched > 60)):
                del self.tables[table_id]
                asyncio.get_running_loop().create_task(table.stop())

    async def close(self) -> None:
        for table in list(self.tables.values()):
            await table.stop()
        self.tables.clear()
        self.pool.shutdown(wait=False, cancel_futures=True)


#: The languages a table may word its bots' reasons in (a game words fewer: reason_langs).
LANGS = ("en", "zh")


#: The settings a human seat may change during a match (the ``settings`` message).
LIVE_SETTINGS = ("hints", "ai_debug", "lang", "turn_timeout")


def check_settings(settings: dict[str, Any], spec: GameSpec) -> dict[str, Any]:
    """``settings`` checked (raises :class:`TableError` ``BAD_SETTINGS``) and normalised."""
    out: dict[str, Any] = {}
    for key, value in settings.items():
        if key in ("hints", "ai_debug"):
            if not isinstance(value, bool):
                raise TableError("BAD_SETTINGS", f"{key} is true or false")
            out[key] = value
        elif key == "lang":
            if value not in LANGS:
                raise TableError("BAD_SETTINGS", 'lang is "en" or "zh"')
            out[key] = value
        elif key == "turn_timeout":
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 <= value <= 3600:
                raise TableError("BAD_SETTINGS", "turn_timeout is seconds 0..3600 (0: no timer)")
            out[key] = float(value)
        elif key == "fallback":
            levels = {lvl.lower() for lvl in spec.bot_levels}
            if not isinstance(value, str) or (value != "wait" and value.lower() not in levels):
                raise TableError("BAD_SETTINGS", f"fallback is 'wait' or a bot level "
                                                 f"({', '.join(spec.bot_levels)})")
            out[key] = value
        else:
            raise TableError("BAD_SETTINGS", f"unknown setting {key!r:.30}")
    return out
