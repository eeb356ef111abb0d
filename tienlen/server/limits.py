"""What a connection may hold, bounded where connections are made: uvicorn's own settings
where it has them (keep-alive, WebSocket frame size and pings, the graceful shutdown), and
what it has not, in one HTTP protocol class of ours (uvicorn's h11 protocol, subclassed):

- at most ``max_connections`` connections at once, and ``per_client`` from one address
  (past either, a new connection is answered 503 and closed at once);
- a request's head (its request line and headers) must arrive within ``header_timeout``
  seconds of the connection or of the previous response (408, then closed);
- a connection that is closing (the server is done with it) but cannot send its last
  bytes, because its reader reads nothing, is aborted after ``linger`` seconds;
- a WebSocket send that waits longer than ``send_timeout`` for its reader gives up (the
  app's writer, :class:`tienlen.server.app.SocketConnection`), and the socket is closed,
  then aborted as above.

Every front end that listens (``tienlen serve``, ``serve --platform``, ``tienlen
tournament``) builds its uvicorn config with :func:`uvicorn_config`.

>>> limits = ConnectionLimits(max_connections=100, per_client=10)
>>> limits.header_timeout, limits.max_connections, limits.per_client
(10.0, 100, 10)
>>> ConnectionLimits(header_timeout=0)
Traceback (most recent call last):
...
ValueError: header_timeout must be seconds in (0, 3600]; got 0
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

__all__ = ["ConnectionLimits", "default_max_connections", "uvicorn_config", "guarded_http"]


def default_max_connections() -> int:
    """Connections the server holds at most by default: three quarters of the descriptors
    this process may open (the rest for files, the bot threads and the event loop), at
    most 4096."""
    try:
        import resource

        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        if soft == resource.RLIM_INFINITY:
            soft = 8192
    except (ImportError, OSError, ValueError):
        soft = 1024
    return max(16, min(4096, (max(soft, 64) - 32) * 3 // 4))


def _seconds(name: str, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= 3600:
        raise ValueError(f"{name} must be seconds in (0, 3600]; got {value!r:.20}")


@dataclass(frozen=True)
class ConnectionLimits:
    """The bounds of every connection (see the module's docstring)."""

    max_connections: int = field(default_factory=default_max_connections)
    per_client: int = 256
    header_timeout: float = 10.0
    body_timeout: float = 10.0
    send_timeout: float = 10.0
    linger: float = 5.0
    keep_alive: int = 5

    def __post_init__(self) -> None:
        for name in ("max_connections", "per_client"):
            value = getattr(self, name)
            if type(value) is not int or not 1 <= value <= 1_000_000:
                raise ValueError(f"{name} must be an int 1..1000000; got {value!r:.20}")
        for name in ("header_timeout", "body_timeout", "send_timeout", "linger", "keep_alive"):
            _seconds(name, getattr(self, name))


def _refuse(transport: Any, status: int, reason: str) -> None:
    body = (reason + "\n").encode()
    phrase = {408: "Request Timeout", 503: "Service Unavailable"}[status]
    transport.write(f"HTTP/1.1 {status} {phrase}\r\ncontent-type: text/plain; charset=utf-8\r\n"
                    f"content-length: {len(body)}\r\nconnection: close\r\n\r\n".encode() + body)
    transport.close()


class _Watch:
    """Once a second: a request head past its deadline is answered 408; a connection that
    has been closing for ``linger`` seconds is aborted."""

    def __init__(self, limits: ConnectionLimits) -> None:
        self.limits = limits
        self.connections: set[Any] | None = None
        self.handle: asyncio.TimerHandle | None = None
        self.closing: dict[int, float] = {}

    def watch(self, protocol: Any) -> None:
        self.connections = protocol.connections
        if self.handle is None:
            self.handle = protocol.loop.call_later(1.0, self.sweep, protocol.loop)

    def sweep(self, loop: asyncio.AbstractEventLoop) -> None:
        self.handle = None
        connections = self.connections
        if not connections:
            self.closing.clear()
            return
        now = loop.time()
        closing: dict[int, float] = {}
        for protocol in list(connections):
            transport = getattr(protocol, "transport", None)
            if transport is None:
                continue
            head = getattr(protocol, "_tl_head_since", None)
            if head is not None and now - head > self.limits.header_timeout \
                    and not transport.is_closing():
                protocol._tl_head_since = None
                _refuse(transport, 408, "the request's head did not arrive in time")
            if transport.is_closing():
                since = self.closing.get(id(protocol), now)
                if now - since > self.limits.linger:
                    transport.abort()
                else:
                    closing[id(protocol)] = since
        self.closing = closing
        self.handle = loop.call_later(1.0, self.sweep, loop)


def guarded_http(limits: ConnectionLimits) -> type[Any]:
    """uvicorn's h11 protocol with the bounds it lacks (a class per server: the watch is
    the server's)."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    watch = _Watch(limits)

    class GuardedH11Protocol(H11Protocol):
        _tl_head_since: float | None = None

        def connection_made(self, transport: Any) -> None:
            super().connection_made(transport)
            watch.watch(self)
            host = self.client[0] if self.client else ""
            peers: list[Any] = [getattr(c, "client", None) for c in self.connections]
            same = sum(1 for peer in peers if peer and peer[0] == host)
            if len(self.connections) > limits.max_connections:
                _refuse(transport, 503, "the server holds as many connections as it may")
            elif same > limits.per_client:
                _refuse(transport, 503, f"more than {limits.per_client} connections from "
                                        "one address")
            else:
                self._tl_head_since = self.loop.time()

        def data_received(self, data: bytes) -> None:
            if self._tl_head_since is None and self.conn.their_state is h11.IDLE \
                    and not self.transport.is_closing():
                self._tl_head_since = self.loop.time()
            super().data_received(data)
            if self.conn.their_state is not h11.IDLE:
                self._tl_head_since = None

    return GuardedH11Protocol


def uvicorn_config(app: Any, *, host: str, port: int, limits: ConnectionLimits,
                   ws_max_size: int, ws_ping_interval: float | None = 20.0,
                   ws_ping_timeout: float | None = 20.0, log_level: str = "warning",
                   **extra: Any) -> Any:
    """The uvicorn config of a server of ours: ``limits`` applied (see the module)."""
    import uvicorn

    return uvicorn.Config(app, host=host, port=port, log_level=log_level,
                          http=guarded_http(limits), ws="websockets-sansio"
                          if _has_sansio() else "auto",
                          ws_max_size=ws_max_size, ws_ping_interval=ws_ping_interval,
                          ws_ping_timeout=ws_ping_timeout,
                          timeout_keep_alive=limits.keep_alive,
                          timeout_graceful_shutdown=max(1, int(limits.linger)),
                          **extra)


def _has_sansio() -> bool:
    try:
        import uvicorn.protocols.websockets.websockets_sansio_impl  # noqa: F401
    except ImportError:
        return False
    return True
