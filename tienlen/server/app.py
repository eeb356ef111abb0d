"""The ASGI app of ``tienlen serve``: the table API, our WebSocket protocol and the room.

Routes (docs/protocol.md has every message):

- ``GET /``: the training room (``static/index.html``), ``/static/...`` its files;
- ``GET /api/info``: protocol version, games, bot levels; ``GET /api/stats``: how busy;
- ``POST /api/tables``: a new table; answers its id and the tokens of its human and remote
  seats (a JSON body, so a cross-site form cannot post it; the Origin is checked too);
- ``POST /api/review``: the review (复盘) of a saved hand or match posted as the body
  (:mod:`tienlen.server.reviews`: background threads, bounded queue and time);
- ``WS /ws``: our protocol; the first message joins a seat with its token.

Safety: Host and Origin are checked against the server's own names (no cross-site
WebSocket hijacking, no DNS rebinding); every message and body passes the one bounded
decoder (:mod:`tienlen.table.decode`: size, depth, type); every socket has a size, rate and
idle limit; a slow reader is dropped rather than let its queue grow or a send wait for
ever; a bad message gets an ``error`` and changes nothing. Connections themselves are
bounded where they are made (:mod:`tienlen.server.limits`).

>>> guard = Guard(hosts=())
>>> guard.host_ok("127.0.0.1:8765"), guard.host_ok("evil.example:8765")
(True, False)
>>> guard.origin_ok("http://127.0.0.1:8765", "127.0.0.1:8765"), guard.origin_ok("http://evil.example", "127.0.0.1:8765")
(True, False)
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
import time
from collections.abc import AsyncIterator, Callable, Iterable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from ..table import IllegalActionError, get_spec, spec_names
from ..table.decode import BODY, MATCH_FILE, MESSAGE, DecodeError, Limits, decode_object
from .tables import (LIVE_SETTINGS, PROTOCOL_VERSION, Hub, Seat, ServerConfig, Table,
                     TableError, check_settings)

__all__ = ["create_app", "STATIC", "LOOPBACK_NAMES"]

#: The folder of the browser room's HTML, CSS and JavaScript, shipped in the package.
STATIC = Path(__file__).with_name("static")
#: Host names taken as loopback: anything else gets a warning when the server listens on it.
LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "::1", "[::1]"})
#: Close codes (RFC 6455 4000-4999 are the application's).
CLOSE_POLICY, CLOSE_TOO_BIG, CLOSE_IDLE, CLOSE_SLOW = 1008, 1009, 4000, 4002
MAX_BODY = BODY.max_bytes


if sys.version_info >= (3, 11):
    _deadline = asyncio.timeout
else:                                            # pragma: no cover (3.10)
    class _Timeout:
        """``asyncio.timeout`` for 3.10: cancel the task at the deadline, raise TimeoutError."""

        def __init__(self, seconds: float | None) -> None:
            self.seconds = seconds
            self.handle: asyncio.TimerHandle | None = None
            self.fired = False

        task: asyncio.Task[Any] | None = None

        def _fire(self, task: asyncio.Task[Any] | None) -> None:
            self.fired = True
            if task is not None:
                task.cancel()

        def reschedule(self, when: float | None) -> None:
            if self.handle is not None:
                self.handle.cancel()
            task = asyncio.current_task() if self.task is None else self.task
            loop = asyncio.get_running_loop()
            self.handle = None if when is None else loop.call_at(when, self._fire, task)

        async def __aenter__(self) -> _Timeout:
            self.task = asyncio.current_task()
            loop = asyncio.get_running_loop()
            if self.seconds is not None:
                self.reschedule(loop.time() + self.seconds)
            return self

        async def __aexit__(self, kind: Any, error: Any, tb: Any) -> None:
            if self.handle is not None:
                self.handle.cancel()
            if kind is asyncio.CancelledError and self.fired:
                raise asyncio.TimeoutError

    def _deadline(seconds: float | None) -> _Timeout:
        return _Timeout(seconds)


def _host_name(host: str) -> str:
    """``host[:port]`` -> host (IPv6 in brackets kept whole)."""
    if host.startswith("["):
        return host.split("]")[0] + "]"
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


class Guard:
    """Which Host and Origin headers the server answers: its own names only."""

    def __init__(self, hosts: Iterable[str], origins: Iterable[str] = ()) -> None:
        self.hosts = {h.lower() for h in hosts} | LOOPBACK_NAMES
        self.origins = {o.lower().rstrip("/") for o in origins}

    def host_ok(self, host: str | None) -> bool:
        return host is not None and _host_name(host.lower()) in self.hosts

    def origin_ok(self, origin: str | None, host: str | None) -> bool:
        """A browser's Origin must be this server itself (or one allowed by name); a
        client that sends none is not a browser page and must hold a token anyway."""
        if origin is None:
            return True
        origin = origin.lower().rstrip("/")
        if origin in self.origins:
            return True
        return host is not None and origin in (f"http://{host.lower()}", f"https://{host.lower()}")


class SocketConnection:
    """A WebSocket with an outbound queue, so a table never waits for a reader: a reader
    ``limit`` messages behind, or one whose socket takes nothing for ``send_timeout``
    seconds, is dropped (4002; the connection is then aborted where it was made)."""

    def __init__(self, ws: WebSocket, limit: int, send_timeout: float = 10.0) -> None:
        self.ws = ws
        self.send_timeout = send_timeout
        self.queue: asyncio.Queue[dict[str, Any] | None] = asyncio.Queue(limit)
        self.closing: tuple[int, str] | None = None
        #: the deadline of the session's read under way: expired by the writer when it
        #: gives up, so that the session ends at once rather than at its idle timeout
        self.reading: Any = None
        self.writer = asyncio.get_running_loop().create_task(self._write())

    def send(self, message: dict[str, Any]) -> None:
        if self.closing is not None:
            return
        try:
            self.queue.put_nowait(message)
        except asyncio.QueueFull:
            self.close(CLOSE_SLOW, "too slow to read: messages piled up")

    def close(self, code: int, reason: str) -> None:
        if self.closing is None:
            self.closing = (code, reason)
            while not self.queue.empty():       # drop what a slow reader has not read
                self.queue.get_nowait()
            self.queue.put_nowait(None)

    async def _write(self) -> None:
        try:
            while True:
                message = await self.queue.get()
                if message is None:
                    break
                async with _deadline(self.send_timeout):
                    await self.ws.send_text(json.dumps(message, separators=(",", ":")))
        except asyncio.TimeoutError:
            self.closing = (CLOSE_SLOW, "too slow to read: a send waited "
                                        f"{self.send_timeout:g} s")
        except Exception:
            pass
        finally:
            if self.closing is None:
                self.closing = (1011, "")
            code, reason = self.closing
            if self.reading is not None:
                self.reading.reschedule(asyncio.get_running_loop().time())
            try:
                if self.ws.application_state != WebSocketState.DISCONNECTED:
                    async with _deadline(self.send_timeout):
                        await self.ws.close(code, reason)
            except (Exception, asyncio.TimeoutError):
                pass


class Bucket:
    """A token bucket: ``rate`` messages a second, ``burst`` at once."""

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


def _error(code: str, message: str, ref: object = None,
           text: str | None = None) -> dict[str, Any]:
    """An error frame: its code, the English ``message``, and ``text``, the refusal in the
    room's language from the game's words, where there is a table to word it."""
    out: dict[str, Any] = {"v": PROTOCOL_VERSION, "type": "error", "code": code, "message": message}
    if text is not None:
        out["text"] = text
    if isinstance(ref, (str, int)) and not isinstance(ref, bool):
        out["id"] = ref
    return out


MESSAGE_TYPES = ("join", "act", "hint", "next_hand", "settings", "ping", "match_file")


async def _receive(ws: WebSocket, idle: float, conn: SocketConnection) -> str | bytes | None:
    """The next frame's text (or bytes, for a binary frame); None when the peer is gone.
    Raises ``asyncio.TimeoutError`` after ``idle`` seconds of silence, or at once when the
    connection's writer gave up."""
    await asyncio.sleep(0)        # let the writer and the tables run between two messages
    if conn.closing is not None:
        return None
    try:
        async with _deadline(idle) as deadline:
            conn.reading = deadline
            message = await ws.receive()
    finally:
        conn.reading = None
    if message["type"] == "websocket.disconnect":
        return None
    text = message.get("text")
    if text is not None:
        return str(text)
    data = message.get("bytes")
    return bytes(data) if data is not None else b""


async def _session(ws: WebSocket, hub: Hub) -> None:
    """One socket: join a seat, then act for it, until it closes."""
    config = hub.config
    conn = SocketConnection(ws, config.send_queue, config.connections.send_timeout)
    bucket = Bucket(config.rate, config.burst)
    limits = Limits(config.max_message_bytes, MESSAGE.max_depth, MESSAGE.what)
    table: Table | None = None
    seat: Seat | None = None
    strikes = 0
    try:
        while conn.closing is None:
            try:
                frame = await _receive(ws, config.idle_timeout, conn)
            except asyncio.TimeoutError:
                conn.close(CLOSE_IDLE, f"idle for {config.idle_timeout:g} s")
                break
            if frame is None:
                break
            if not bucket.take():
                strikes += 1
                conn.send(_error("RATE_LIMIT", f"more than {config.rate:g} messages a second"))
                if strikes >= 20:
                    conn.close(CLOSE_POLICY, "flooding")
                continue
            if isinstance(frame, bytes):
                conn.send(_error("BAD_FRAME", "send JSON text frames, not binary"))
                continue
            try:
                message = decode_object(frame, limits)
            except DecodeError as error:
                if error.code == "TOO_BIG":
                    conn.close(CLOSE_TOO_BIG, "message too big")
                    break
                code = {"BAD_TYPE": "BAD_MESSAGE", "TOO_DEEP": "TOO_DEEP"}.get(error.code,
                                                                             "BAD_JSON")
                conn.send(_error(code, error.message))
                continue
            kind, ref = message.get("type"), message.get("id")
            if kind not in MESSAGE_TYPES:
                conn.send(_error("UNKNOWN_TYPE", f"type must be one of {', '.join(MESSAGE_TYPES)}; "
                                                 f"got {kind!r:.40}", ref))
                continue
            version = message.get("v", PROTOCOL_VERSION)
            if version != PROTOCOL_VERSION:
                conn.send(_error("BAD_VERSION", f"this server speaks protocol v{PROTOCOL_VERSION}",
                                 ref))
                continue
            if kind == "ping":
                conn.send({"v": PROTOCOL_VERSION, "type": "pong", "id": ref}
                          if ref is not None else {"v": PROTOCOL_VERSION, "type": "pong"})
                continue
            if kind == "join":
                if seat is not None:
                    conn.send(_error("ALREADY_JOINED", "this socket holds a seat already", ref))
                    continue
                try:
                    table = hub.get(message.get("table"))
                    seat = table.seat_for_token(message.get("token"))
                except TableError as error:
                    conn.send(_error(error.code, error.message, ref))
                    continue
                table.attach(seat, conn, bool(message.get("legal", False)))
                continue
            if table is None or seat is None:
                conn.send(_error("NOT_JOINED", "join a seat first", ref))
                continue
            try:
                if kind == "act":
                    await table.step(lambda: _act(table, seat, conn, message.get("action")))
                elif kind == "next_hand":
                    if seat.kind != "human" and table.has_human:
                        raise IllegalActionError("NOT_ALLOWED", "the human seats deal the next hand")
                    await table.step(table.next_hand)
                elif kind == "hint":
                    hint = await table.hint(seat.index, message.get("lang"))
                    conn.send({"v": PROTOCOL_VERSION, "type": "hint", "id": ref, **hint})
                elif kind == "settings":
                    _apply_settings(table, seat, message)
                elif kind == "match_file":
                    conn.send({"v": PROTOCOL_VERSION, "type": "match_file", "id": ref,
                               **table.match_file()})
            except IllegalActionError as error:
                conn.send(_error(error.reason_code, error.message, ref,
                                 table.refusal_text(error)))
    except WebSocketDisconnect:
        pass
    except RuntimeError:                  # receive after the peer vanished mid-frame
        pass
    finally:
        if table is not None and seat is not None:
            table.detach(seat, conn)
        conn.close(conn.closing[0] if conn.closing else 1000, "")
        await conn.writer


def _act(table: Table, seat: Seat, conn: SocketConnection, action: object) -> None:
    """An action of the seat that ``conn`` holds (checked again when it is applied: at a
    batch table it may have waited in the lane while a newer socket took the seat)."""
    if seat.conn is not conn:
        raise IllegalActionError("NOT_JOINED", "this socket no longer holds the seat")
    table.act(seat.index, action)


def _apply_settings(table: Table, seat: Seat, message: dict[str, Any]) -> None:
    """A human seat changes the table's settings mid-match (the room's settings dialog):
    checked by the same rules as a new table's settings, all before any is applied, so a
    refusal changes nothing. A new turn timer restarts the clock of the turn under way."""
    if seat.kind != "human":
        raise IllegalActionError("NOT_ALLOWED", "only a human seat changes the table's settings")
    asked = {key: message[key] for key in LIVE_SETTINGS if key in message}
    if not asked:
        raise IllegalActionError("BAD_SETTINGS", "settings takes " + ", ".join(LIVE_SETTINGS))
    try:
        checked = check_settings(asked, table.spec)
    except TableError as error:
        raise IllegalActionError(error.code, error.message) from None
    table.settings.update(checked)
    frame: dict[str, Any] = {"v": PROTOCOL_VERSION, "type": "settings",
                             "settings": table.public_settings()}
    if "lang" in checked:
        frame["words"] = table.room_words()     # the game's words in the new language
    for s in table.seats:
        if s.conn is not None:
            s.conn.send(frame)
    if "turn_timeout" in checked:
        table.turn_started = time.monotonic()
        table.broadcast_state()         # the clock each seat shows
        table.poke()                    # the driver's fallback deadline moved


def create_app(hub: Hub | None = None, *, hosts: Iterable[str] = (),
               origins: Iterable[str] = (), extra_routes: list[Any] | None = None) -> Starlette:
    """The app; ``hosts`` are the names it is reached by besides the loopback ones."""
    hub = hub or Hub(ServerConfig())
    guard = Guard(hosts, origins)

    def guarded(handler: Callable[[Request], Any]) -> Callable[[Request], Any]:
        async def run(request: Request) -> Response:
            if not guard.host_ok(request.headers.get("host")):
                return JSONResponse({"error": "BAD_HOST"}, status_code=421)
            result: Response = await handler(request)
            result.headers["X-Content-Type-Options"] = "nosniff"
            result.headers["Referrer-Policy"] = "no-referrer"
            return result
        return run

    async def index(request: Request) -> Response:
        response = FileResponse(STATIC / "index.html")
        response.headers["Content-Security-Policy"] = (
            "default-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data:; "
            "frame-ancestors 'none'")
        return response

    async def info(request: Request) -> Response:
        games = []
        for name in spec_names():
            spec = get_spec(name)
            games.append({"name": name, "title": getattr(spec, "title", name),
                          "players": list(spec.player_counts),
                          "levels": list(spec.bot_levels), "hint_level": spec.hint_level,
                          "models": hub.offered(spec),
                          "room": dict(getattr(spec, "room", {}))})
        return JSONResponse({"v": PROTOCOL_VERSION, "games": games,
                             "defaults": {"turn_timeout": hub.config.turn_timeout,
                                          "fallback": hub.config.fallback}})

    async def stats(request: Request) -> Response:
        """How busy the server is (no table ids, no tokens)."""
        return JSONResponse({"v": PROTOCOL_VERSION, **hub.stats()})

    async def read_body(request: Request, limits: Limits) -> tuple[bytes, dict[str, Any]] | Response:
        """A JSON object posted from our own pages: the Origin, the content type, the size
        (read no further than ``limits`` allow), the time it takes to arrive, then the one
        decoder; the raw bytes and the object, or the refusal."""
        if not guard.origin_ok(request.headers.get("origin"), request.headers.get("host")):
            return JSONResponse({"error": "BAD_ORIGIN", "message": "cross-site request"},
                                status_code=403)
        if request.headers.get("content-type", "").split(";")[0].strip() != "application/json":
            return JSONResponse({"error": "BAD_REQUEST", "message": "send application/json"},
                                status_code=415)
        body = bytearray()
        try:
            async with _deadline(hub.config.connections.body_timeout):
                async for chunk in request.stream():
                    body += chunk
                    if len(body) > limits.max_bytes:
                        return JSONResponse({"error": "TOO_BIG", "message": "the body is larger "
                                             f"than {limits.max_bytes} bytes"}, status_code=413)
        except asyncio.TimeoutError:
            return JSONResponse({"error": "TIMEOUT", "message": "the body did not arrive in "
                                 f"{hub.config.connections.body_timeout:g} s"}, status_code=408)
        try:
            data = decode_object(bytes(body), limits)
        except DecodeError as error:
            code = {"BAD_TYPE": "BAD_REQUEST", "TOO_BIG": "TOO_BIG"}.get(error.code, "BAD_JSON")
            if error.code == "TOO_DEEP":
                code = "TOO_DEEP"
            return JSONResponse({"error": code, "message": error.message},
                                status_code=413 if code == "TOO_BIG" else 400)
        return bytes(body), data

    async def create(request: Request) -> Response:
        read = await read_body(request, BODY)
        if isinstance(read, Response):
            return read
        _, data = read
        client = request.client.host if request.client else ""
        try:
            table, tokens = hub.create(data.get("game"), data.get("seats"), seed=data.get("seed"),
                                       options=data.get("options"), settings=data.get("settings"),
                                       client=client)
        except TableError as error:
            return JSONResponse({"error": error.code, "message": error.message},
                                status_code=error.status)
        return JSONResponse({"v": PROTOCOL_VERSION, "table": table.id, "seed": table.seed,
                             "game": table.state.game, "seats": table.seat_info(),
                             "tokens": {str(k): v for k, v in tokens.items()}, "ws": "/ws"})

    async def review(request: Request) -> Response:
        """``POST /api/review?seat=N&hand=N&lang=zh``: the review of a saved hand or match
        (the file's JSON as the body, at most :data:`~tienlen.table.decode.MATCH_FILE`'s
        size), computed on the bot threads as batch work, bounded in time."""
        from tienlen.review import ReviewError, game_of_file

        from .reviews import ReviewBusy, review_message

        read = await read_body(request, MATCH_FILE)
        if isinstance(read, Response):
            return read
        body, _ = read
        query = request.query_params
        try:
            seat = int(query.get("seat", "0"))
            hand = int(query["hand"]) if query.get("hand") else None
        except ValueError:
            return JSONResponse({"error": "BAD_REQUEST", "message": "seat and hand are ints"},
                                status_code=400)
        lang = query.get("lang", "en")
        try:
            spec = get_spec(game_of_file(body))
            if lang not in getattr(spec, "reason_langs", ("en",)):
                lang = "en"
            done = await hub.reviews.review(("review-upload", request.client.host
                                             if request.client else ""),
                                            spec, body, seat, hand=hand, lang=lang)
        except ReviewBusy as error:
            return JSONResponse({"error": "BUSY", "message": str(error)}, status_code=503)
        except (ReviewError, ValueError) as error:
            return JSONResponse({"error": "BAD_FILE", "message": str(error)[:300]},
                                status_code=400)
        return JSONResponse({"v": PROTOCOL_VERSION, **review_message(done)})

    async def socket(ws: WebSocket) -> None:
        host = ws.headers.get("host")
        if not guard.host_ok(host) or not guard.origin_ok(ws.headers.get("origin"), host):
            await ws.close(CLOSE_POLICY)        # before accepting: the handshake fails (403)
            return
        await ws.accept()
        await _session(ws, hub)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        await hub.close()

    routes: list[Any] = [
        Route("/", guarded(index)),
        Route("/api/info", guarded(info)),
        Route("/api/stats", guarded(stats)),
        Route("/api/tables", guarded(create), methods=["POST"]),
        Route("/api/review", guarded(review), methods=["POST"]),
        WebSocketRoute("/ws", socket),
        Mount("/static", app=StaticFiles(directory=STATIC), name="static"),
    ]
    routes.extend(extra_routes or [])
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.hub = hub
    return app
