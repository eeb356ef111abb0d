"""Tables, seats and the bots that play them, on one asyncio loop.

Every change to a table happens on the event loop thread, between two awaits, so a table
needs no lock: a message is verified and applied in one go or refused with nothing changed.
Bots think on the threads of :class:`~tienlen.server.scheduler.BotScheduler`, fairly across
tables: the view a bot reads is made on the loop, the bot's answer comes back to the loop
and is applied only if the table has not moved on meanwhile (``Table.version``). A table
with a human seat is *interactive*; any other (bots alone, or bots and remote agents) is
*batch*: batch tables never hold the threads kept for interactive ones, and change state
one at a time in :class:`~tienlen.server.scheduler.BatchLane` (half of the loop at most).

Seats are ``human`` (the browser room), ``remote`` (an agent over our protocol), a bot
level, or a model the operator offers (``--models DIR``: ``dmc:NAME`` for a file NAME of
that folder, in the games that take such files); nothing else, so no client names a file.
Human and remote seats get a secret token; a silent seat past the turn timer, or a seat
with no socket past the reconnect grace, is played by the fallback bot (``L1``, or ``wait``
to wait for ever); a reconnect with the token takes the seat back.

The tables a server holds are bounded: ``max_tables`` in all, ``tables_per_client`` being
played per client address (its oldest table nobody has joined gives way to a new one), a
token bucket of creations per client, at most ``bot_tables`` tables of bots alone playing
at once, tables nobody joined forgotten after ``unjoined_ttl`` seconds.

Each seat is sent the record of an action as the game lets it see it
(``state.last_record(seat)``: Guandan shows a tribute card only to whoever moved it).
"""

from __future__ import annotations

import asyncio
import hmac
import os
import re
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, is_dataclass
from pathlib import Path
from typing import Any, Protocol

from ..seeds import seed_or_fresh
from ..review import reviewable
from ..table import (GameSpec, IllegalActionError, TableBot, TableState, bot_seed, get_spec)
from .limits import ConnectionLimits
from .reviews import Reviews
from .scheduler import BatchLane, BotScheduler, SchedulerFull, default_workers

__all__ = ["PROTOCOL_VERSION", "ServerConfig", "Hub", "Table", "Seat", "Connection",
           "TableError", "offered_models", "MAX_MODELS"]

#: The version of our WebSocket protocol (docs/protocol.md); every message carries it.
PROTOCOL_VERSION = 1
SEAT_KINDS = ("human", "remote")


class TableError(ValueError):
    """A request the hub refuses (bad seats, too many tables, unknown table or token).
    ``status`` is the HTTP status it is answered with."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.status = status


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
    #: Tables the server holds at most (its oldest table nobody joined gives way first).
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
    #: Threads for bots (None: two per usable core), and how many of them only tables
    #: with a human seat may use (None: a quarter, at least one).
    bot_threads: int | None = None
    bot_reserve: int | None = None
    #: Tables of bots alone playing at once (None: the threads batch tables may hold).
    bot_tables: int | None = None
    #: Seconds a finished table, or one nobody holds, stays in memory.
    table_ttl: float = 3600.0
    #: Seconds a table with human or remote seats that nobody has joined stays.
    unjoined_ttl: float = 300.0
    #: Tables one client address may have in play at once (finished ones do not count).
    tables_per_client: int = 32
    #: Tables one client address may open a second (sustained), and at once (burst).
    table_rate: float = 5.0
    table_burst: float = 30.0
    #: Bounds of every connection (header time, connection caps, slow readers).
    connections: ConnectionLimits = field(default_factory=ConnectionLimits)
    #: Models the server offers as seats: ``{"dmc:NAME": PATH}`` (:func:`offered_models`).
    models: Mapping[str, str] = field(default_factory=dict)


#: Hand outcomes a table keeps (Table.results).
MAX_RESULTS = 2000
#: The files of a ``--models`` folder the server lists at most.
MAX_MODELS = 256
_MODEL_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}")


def offered_models(folder: str | os.PathLike[str], prefixes: tuple[str, ...] = ("dmc:",)
                   ) -> dict[str, str]:
    """The models of the operator's ``folder`` as seats: ``{prefix + NAME: path}`` for each
    regular file NAME (letters, digits, ``.``, ``_``, ``-``; at most :data:`MAX_MODELS`).
    A game seats a name only when it takes files of that prefix. Raises ``ValueError``
    if ``folder`` is not a folder.

    >>> import tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (folder / "best.pt").write_bytes(b"..."); _ = (folder / ".hidden").write_bytes(b"")
    >>> sorted(offered_models(folder))
    ['dmc:best.pt']
    """
    path = Path(folder)
    if not path.is_dir():
        raise ValueError(f"--models {folder}: not a folder")
    out: dict[str, str] = {}
    for entry in sorted(path.iterdir())[: MAX_MODELS * 4]:
        if _MODEL_NAME.fullmatch(entry.name) and entry.is_file():
            for prefix in prefixes:
                out[prefix + entry.name] = str(entry.resolve())
        if len(out) >= MAX_MODELS * len(prefixes):
            break
    return out


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


def room_words(spec: GameSpec, lang: str) -> dict[str, Any]:
    """The fields of ``spec.words(lang)`` that are text or a tuple of texts, by name (empty
    for a game without words): what the ``welcome`` frame carries for the room.

    >>> words = room_words(get_spec("guandan"), "zh")
    >>> words["wild_badge"], words["places"][0], words["lang"]
    ('配', '头游', 'zh')
    """
    words_of = getattr(spec, "words", None)
    if words_of is None:
        return {}
    words = words_of(lang)
    out: dict[str, Any] = {}
    names = [f.name for f in fields(words)] if is_dataclass(words) else []
    for name in names:
        value = getattr(words, name, None)
        if isinstance(value, str):
            out[name] = value
        elif isinstance(value, tuple) and all(isinstance(x, str) for x in value):
            out[name] = list(value)
    return out


class Table:
    """One match, its seats and its driver task."""

    def __init__(self, hub: Hub, table_id: str, spec: GameSpec, state: TableState, seed: int,
                 seats: list[Seat], settings: dict[str, Any], client: str = "") -> None:
        self.hub = hub
        self.client = client
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
        #: moves the fallback made for each seat (a tournament reads its agents' failures)
        self.fallback_moves: dict[int, int] = {}
        #: each finished hand's outcome, in order (the last MAX_RESULTS)
        self.results: list[dict[str, Any]] = []
        #: the review of the last finished hand, computed in the background (issue 38)
        self._review_task: asyncio.Task[None] | None = None

    # ------------------------------------------------------------ info

    @property
    def has_human(self) -> bool:
        return any(s.kind == "human" for s in self.seats)

    @property
    def batch(self) -> bool:
        """No human seat: the table plays as fast as its bots and agents answer."""
        return not self.has_human

    @property
    def bots_only(self) -> bool:
        return all(s.kind == "bot" for s in self.seats)

    @property
    def ever_joined(self) -> bool:
        return any(s.ever_joined for s in self.seats)

    async def step(self, change: Callable[[], Any]) -> Any:
        """``change()`` (a state change of this table, on the loop): at once at an
        interactive table, in the batch lane at a batch table."""
        if self.batch:
            return await self.hub.lane.step(change)
        return change()

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
                         settings=self.public_settings(), room=self.room_features(),
                         words=self.room_words()))
        self.broadcast_seats()
        self.send_state(seat)
        self.poke()

    def detach(self, seat: Seat, conn: Connection) -> None:
        if seat.conn is conn:
            seat.conn = None
            self.broadcast_seats()
            self.poke()

    def room_features(self) -> dict[str, Any]:
        """What the game's spec says the room shows (``spec.room``; none if it says
        nothing): the room branches on these, never on a game's name."""
        return dict(getattr(self.spec, "room", None) or {})

    def room_lang(self) -> str:
        """The room's language (the table's ``lang`` setting, ``"en"`` or ``"zh"``), whether
        or not the game words its bots' reasons in it (:meth:`lang`)."""
        value = self.settings.get("lang", "en")
        return value if value in LANGS else "en"

    def room_words(self) -> dict[str, Any]:
        """The game's words in the room's language (``spec.words(lang)``, the one wording
        table per language that the terminal reads too; English where the game has no
        such language), as data: every field that is text or a tuple of texts. The room
        words a seat's line, the places, the wild's badge, a hand won... from these."""
        return room_words(self.spec, self.room_lang())

    def refusal_text(self, error: ValueError) -> str | None:
        """``error`` worded for the room, in its language, from the game's words (what is
        wrong, without the terminal's keys: ``refusal_brief`` where the words have it);
        None for a game without words."""
        words_of = getattr(self.spec, "words", None)
        if words_of is None:
            return None
        words = words_of(self.room_lang())
        brief = getattr(words, "refusal_brief", None) or words.refusal
        return str(brief(error))

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
        tracker = self.tracker(seat)
        if tracker is not None:
            message["tracker"] = tracker
        seat.conn.send(message)

    # ------------------------------------------------------------ review (issue 38)

    @property
    def reviewable(self) -> bool:
        """Whether the game has the review hooks (its spec's ``read_record``, ...)."""
        return reviewable(self.spec)

    def tracker(self, seat: Seat) -> dict[str, Any] | None:
        """The card tracker (记牌器) of a human seat while a hand is played, from its own
        view (the game's ``tracker`` hook); None between hands or for a game without it."""
        if seat.kind != "human" or not self.reviewable or self.state.turn is None:
            return None
        tracker: dict[str, Any] = self.spec.tracker(self.state.bot_view(seat.index))  # type: ignore[attr-defined]
        return tracker

    def match_file(self) -> dict[str, Any]:
        """The file of the table's match as ``tienlen play --save`` writes it (the game's
        ``match_file``): ``{"name": ..., "text": ...}``."""
        write = getattr(self.spec, "match_file", None)
        if not callable(write):
            raise IllegalActionError("NOT_ALLOWED", "this game saves no match file")
        name, text = write(self.state)
        return {"name": name, "text": text}

    def _start_review(self) -> None:
        """Review the hand just finished for each human seat, in the background (a newer
        hand's review replaces one still running)."""
        if not self.reviewable or not self.has_human or not self.settings.get("review", True):
            return
        try:
            source = self.match_file()["text"].encode("utf-8")
        except (IllegalActionError, ValueError) as error:
            self.hub.log(f"table {self.id}: no review: {error}"[:300])
            return
        if self._review_task is not None and not self._review_task.done():
            self._review_task.cancel()
        self._review_task = asyncio.get_running_loop().create_task(
            self._review(source), name=f"review-{self.id}")

    async def _review(self, source: bytes) -> None:
        from .reviews import ReviewBusy, review_message

        for seat in [s for s in self.seats if s.kind == "human"]:
            try:
                review = await self.hub.reviews.review(("review", self.id), self.spec, source,
                                                       seat.index, lang=self.lang())
            except (ReviewBusy, ValueError) as error:
                if seat.conn is not None:
                    seat.conn.send(_event(type="review", error=str(error)[:300]))
                continue
            except Exception as error:              # a review must not stop the table
                self.hub.log(f"table {self.id}: review failed: {error!r}"[:300])
                continue
            if seat.conn is not None and not self.closed:
                seat.conn.send(_event(**review_message(review)))

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
        if by == "fallback":
            self.fallback_moves[seat] = self.fallback_moves.get(seat, 0) + 1
        if self.state.phase in ("hand_over", "over"):
            outcome = self.state.outcome()
            if outcome is not None:
                self.results = [*self.results[-(MAX_RESULTS - 1):], outcome]
                self._start_review()
        self._changed()
        for s in self.seats:
            if s.conn is not None:
                message = _event(type="action", seat=seat, by=by,
                                 action=self.state.last_record(s.index))
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
        bot = self.spec.hint_bot(bot_seed(self.seed, seat, self.version))
        if lang not in getattr(self.spec, "reason_langs", ("en",)):
            lang = "en"
        try:
            action, reason = await self.hub.scheduler.run(self, self.batch, bot.explain, view, lang)
        except SchedulerFull:
            raise IllegalActionError("BUSY", "this table's hints are still being worked out") from None
        return {"action": action, "reason": reason, "lang": lang, "level": self.spec.hint_level}

    # ------------------------------------------------------------ the driver

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._drive(), name=f"table-{self.id}")

    async def stop(self) -> None:
        self.closed = True
        self.hub.scheduler.forget(self)
        self.hub.scheduler.forget(("review", self.id))
        if self._review_task is not None:
            self._review_task.cancel()
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
                    await self.step(self._deal_if_over)
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
            # The AI-debug reason explains the bot's own move: in the third person where the
            # game words one (spec.reason_voices has "bot"), not as advice to "you".
            voice: dict[str, Any] = ({"voice": "bot"} if "bot" in
                                     getattr(self.spec, "reason_voices", ()) else {})
            think: Callable[[object], Any] = \
                (lambda v: bot.explain(v, lang, **voice)) if debug else bot.act
            try:
                answer = await self.hub.scheduler.run(self, self.batch, think, view)
            except (Exception, SchedulerFull) as error:     # a bot bug must not stop the table
                self.hub.log(f"table {self.id}: bot of seat {turn} failed: {error!r}"[:300])
                await self._wait(1.0)
                continue
            if self.version != version or self.closed:
                continue                         # the seat's owner acted meanwhile
            action, reason = answer if debug else (answer, None)
            by = "bot" if seat.kind == "bot" else "fallback"
            try:
                await self.step(lambda: self._bot_act(version, turn, action, by, reason))
            except IllegalActionError as error:
                self.hub.log(f"table {self.id}: bot of seat {turn} was refused: {error}"[:300])
                await self._wait(1.0)

    def _bot_act(self, version: int, turn: int, action: object, by: str,
                 reason: str | None) -> None:
        """A bot's answer, applied if the table is where the bot saw it (the batch lane may
        have kept it waiting)."""
        if self.version == version and not self.closed:
            self.act(turn, action, by=by, reason=reason)

    def _deal_if_over(self) -> None:
        if self.state.phase == "hand_over" and not self.closed:
            self.next_hand()


class _Bucket:
    """A token bucket: ``rate`` a second, ``burst`` at once."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.tokens, self.at = burst, time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def full(self) -> bool:
        return self.tokens + (time.monotonic() - self.at) * self.rate >= self.burst


#: Client addresses whose creation buckets are remembered at most (the oldest full one
#: is forgotten first).
MAX_CLIENTS = 4096


@dataclass
class Hub:
    """Every table of one server process."""

    config: ServerConfig = field(default_factory=ServerConfig)
    log: Callable[[str], None] = field(default=lambda text: None)

    def __post_init__(self) -> None:
        self.tables: dict[str, Table] = {}
        config = self.config
        workers = default_workers() if config.bot_threads is None else config.bot_threads
        self.scheduler = BotScheduler(workers, config.bot_reserve)
        self.lane = BatchLane()
        self.reviews = Reviews(self.scheduler)
        self.bot_tables = (self.scheduler.batch_threads if config.bot_tables is None
                           else config.bot_tables)
        self._buckets: dict[str, _Bucket] = {}
        self._reaper: asyncio.Task[None] | None = None

    def offered(self, spec: GameSpec) -> list[str]:
        """The models ``spec``'s game takes, of those the operator offers."""
        prefixes = tuple(getattr(spec, "policy_prefixes", ()))
        return [name for name in self.config.models if name.startswith(prefixes)] \
            if prefixes else []

    def _seat_bot(self, spec: GameSpec, kind: str, seed: int, index: int) -> TableBot:
        """The bot a seat names: a level of the game, or an offered model."""
        levels = {level.lower(): level for level in spec.bot_levels}
        if kind.lower() in levels:
            return spec.make_bot(levels[kind.lower()], bot_seed(seed, index))
        if kind in self.offered(spec):
            prefix = kind.split(":", 1)[0] + ":"
            try:
                return spec.make_bot(prefix + self.config.models[kind], bot_seed(seed, index))
            except ValueError as error:
                raise TableError("BAD_SEATS", f"seat {index}: {kind!r:.60} cannot be "
                                              f"seated: {str(error).splitlines()[0][:200]}") from None
        offered = ", ".join([*spec.bot_levels, *self.offered(spec)])
        raise TableError("BAD_SEATS", f"seat {index}: {kind!r:.40} is not human, remote, a bot "
                                      f"level or a model this server offers ({offered})")

    def _client_tables(self, client: str) -> list[Table]:
        return [t for t in self.tables.values()
                if t.client == client and t.state.phase != "over" and not t.closed]

    def _evict(self, among: list[Table]) -> bool:
        """Forget the oldest table of ``among`` that nobody has joined (False: none)."""
        idle = [t for t in among if not t.ever_joined and not t.bots_only]
        if not idle:
            return False
        oldest = min(idle, key=lambda t: t.created)
        self._drop(oldest)
        self.log(f"table {oldest.id}: nobody joined it; it gave way to a new table")
        return True

    def _drop(self, table: Table) -> None:
        self.tables.pop(table.id, None)
        table.closed = True
        self.scheduler.forget(table)
        try:
            asyncio.get_running_loop().create_task(table.stop())
        except RuntimeError:                     # no loop: nothing runs the table anyway
            pass

    def _take_creation(self, client: str) -> None:
        bucket = self._buckets.get(client)
        if bucket is None:
            if len(self._buckets) >= MAX_CLIENTS:
                for key in [k for k, b in self._buckets.items() if b.full()]:
                    del self._buckets[key]
                while len(self._buckets) >= MAX_CLIENTS:
                    del self._buckets[next(iter(self._buckets))]
            bucket = self._buckets[client] = _Bucket(self.config.table_rate, self.config.table_burst)
        if not bucket.take():
            raise TableError("RATE_LIMIT", f"more than {self.config.table_rate:g} new tables a "
                                           "second from this address: wait a moment", 429)

    def create(self, game: object, seats: object, *, seed: object = None,
               players: object = None, options: object = None,
               settings: object = None, client: str = "") -> tuple[Table, dict[int, str]]:
        """A new table; returns it and the tokens of its human and remote seats. ``client``
        is the requester's address, for the per-client limits."""
        self.reap()
        try:
            spec = get_spec(game)  # type: ignore[arg-type]
        except ValueError as error:
            raise TableError("BAD_GAME", str(error)) from None
        if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats) \
                or len(seats) > 16:
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
        for index, kind in enumerate(seats):        # names only, before any work
            if kind not in SEAT_KINDS and kind.lower() not in \
                    {level.lower() for level in spec.bot_levels} and kind not in self.offered(spec):
                self._seat_bot(spec, kind, 0, index)        # raises BAD_SEATS
        bots_only = all(kind not in SEAT_KINDS for kind in seats)
        if bots_only:
            playing = sum(1 for t in self.tables.values()
                          if t.bots_only and t.state.phase != "over" and not t.closed)
            if playing >= self.bot_tables:
                raise TableError("BUSY", f"the server plays {playing} tables of bots alone, "
                                         "as many as its bot threads serve at full speed; try "
                                         "again when one ends", 503)
        mine = self._client_tables(client)
        if len(mine) >= self.config.tables_per_client and not self._evict(mine):
            raise TableError("TOO_MANY_TABLES", f"this address has "
                                                f"{self.config.tables_per_client} tables in play")
        if len(self.tables) >= self.config.max_tables and not self._evict(list(self.tables.values())):
            raise TableError("TOO_MANY_TABLES", f"the server holds {self.config.max_tables} "
                                                "tables already", 503)
        self._take_creation(client)
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
            bot = self._seat_bot(spec, kind, seed, index)
            built.append(Seat(index, "bot", bot.name, None, bot=bot))
        table_id = secrets.token_hex(6)
        table = Table(self, table_id, spec, state, seed, built, clean, client=client)
        self.tables[table_id] = table
        table.start()
        self._start_reaper()
        return table, tokens

    def get(self, table_id: object) -> Table:
        table = self.tables.get(table_id) if isinstance(table_id, str) else None
        if table is None:
            raise TableError("NO_TABLE", "no such table")
        return table

    def reap(self) -> None:
        """Forget the tables nobody holds that are finished (a minute after), untouched past
        the TTL, or that nobody joined within ``unjoined_ttl``."""
        now = time.monotonic()
        for table in list(self.tables.values()):
            nobody = all(s.conn is None for s in table.seats)
            if not nobody:
                continue
            idle = now - table.touched
            unjoined = (not table.ever_joined and not table.bots_only
                        and now - table.created > self.config.unjoined_ttl)
            if idle > self.config.table_ttl or unjoined or (table.state.phase == "over"
                                                            and idle > 60):
                self._drop(table)

    def _start_reaper(self) -> None:
        if self._reaper is None or self._reaper.done():
            self._reaper = asyncio.get_running_loop().create_task(self._reap_often())

    async def _reap_often(self) -> None:
        period = max(0.5, min(10.0, self.config.unjoined_ttl / 10))
        while self.tables:
            await asyncio.sleep(period)
            self.reap()

    def stats(self) -> dict[str, Any]:
        tables = list(self.tables.values())
        return {"tables": len(tables), "actions": sum(t.version for t in tables),
                "over": sum(t.state.phase == "over" for t in tables),
                "bot_tables": sum(t.bots_only and t.state.phase != "over" for t in tables),
                "bots": self.scheduler.stats()}

    async def close(self) -> None:
        if self._reaper is not None:
            self._reaper.cancel()
        for table in list(self.tables.values()):
            await table.stop()
        self.tables.clear()
        self.scheduler.shutdown()


#: The languages a table may word its bots' reasons in (a game words fewer: reason_langs).
LANGS = ("en", "zh")


#: The settings a human seat may change during a match (the ``settings`` message).
LIVE_SETTINGS = ("hints", "ai_debug", "lang", "turn_timeout", "review")


def check_settings(settings: dict[str, Any], spec: GameSpec) -> dict[str, Any]:
    """``settings`` checked (raises :class:`TableError` ``BAD_SETTINGS``) and normalised."""
    out: dict[str, Any] = {}
    for key, value in settings.items():
        if key in ("hints", "ai_debug", "review"):
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
