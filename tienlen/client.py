"""A Python client of ``tienlen serve`` (docs/protocol.md): a program in another process, or
on another machine, takes a seat at a table and plays it.

>>> from tienlen.client import seat_url, parse_seat_url
>>> url = seat_url("http://127.0.0.1:8765", "3f9c", "s3cret")
>>> url
'ws://127.0.0.1:8765/ws?table=3f9c&token=s3cret'
>>> parse_seat_url(url)
('ws://127.0.0.1:8765/ws', '3f9c', 's3cret')

``open_table`` asks the server for a table; :class:`SeatClient` joins a seat with its token
and calls a *policy* (``(view, legal) -> action``) on each of the seat's turns, until the
match is over. The server checks every action: a refused one comes back as an error and
the policy is asked again with the same state.

Needs the ``serve`` extra (the ``websockets`` client).
"""

from __future__ import annotations

import json
import random
import time
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs, urlencode, urlsplit, urlunsplit

from tienlen.table.decode import SERVER_ANSWER, DecodeError, decode_object

__all__ = ["ClientError", "SeatClient", "open_table", "seat_url", "parse_seat_url",
           "first_legal", "random_legal", "Policy"]

#: A policy answers an action for the seat's view and its legal actions.
Policy = Callable[[dict[str, Any], list[dict[str, Any]]], dict[str, Any]]


class ClientError(ValueError):
    """The server refused the client (bad token, no such table), cannot be reached or went
    away, the seat was taken over, or the URL is wrong: one line that says which."""

#: Close codes of our protocol a client may be told, in words (docs/protocol.md).
CLOSE_WORDS = {1000: "the server closed the connection", 1001: "the server is going away",
               1008: "the server closed the connection for breaking its policy",
               1009: "a message was too big for the server", 1011: "the server failed",
               1012: "the server is restarting", 4000: "the connection was idle too long",
               4001: "the seat was taken over by a newer connection with its token",
               4002: "this client read too slowly and was dropped"}


def _closed_words(error: BaseException) -> str:
    """What a ``ConnectionClosed`` means, in one line."""
    rcvd = getattr(error, "rcvd", None)
    if rcvd is None:
        return "the connection to the server was lost (the server stopped or the network failed)"
    words = CLOSE_WORDS.get(rcvd.code, f"the server closed the connection (code {rcvd.code})")
    return words + (f": {rcvd.reason}" if rcvd.reason and rcvd.reason not in words else "")


def seat_url(base: str, table: str, token: str) -> str:
    """The ``ws://`` URL of one seat (it holds the secret token: keep it private)."""
    parts = urlsplit(base)
    scheme = {"http": "ws", "https": "wss"}.get(parts.scheme, parts.scheme)
    return urlunsplit((scheme, parts.netloc, "/ws", urlencode({"table": table, "token": token}), ""))


def parse_seat_url(url: str) -> tuple[str, str, str]:
    """``ws://HOST:PORT/ws?table=T&token=K`` -> (socket URL, table, token)."""
    parts = urlsplit(url)
    if parts.scheme not in ("ws", "wss"):
        raise ClientError(f"a seat URL starts with ws:// or wss://; got {url[:40]!r}")
    query = parse_qs(parts.query)
    table, token = query.get("table", [""])[0], query.get("token", [""])[0]
    if not table or not token:
        raise ClientError("the seat URL needs ?table=ID&token=TOKEN (what POST /api/tables answers)")
    return urlunsplit((parts.scheme, parts.netloc, parts.path or "/ws", "", "")), table, token


def open_table(base: str, game: str, seats: list[str], *, seed: int | None = None,
               options: dict[str, Any] | None = None, settings: dict[str, Any] | None = None,
               timeout: float = 10.0) -> dict[str, Any]:
    """``POST /api/tables``; returns the server's answer (table id, seed, tokens)."""
    body: dict[str, Any] = {"game": game, "seats": seats}
    for name, value in (("seed", seed), ("options", options), ("settings", settings)):
        if value is not None:
            body[name] = value
    request = urllib.request.Request(base.rstrip("/") + "/api/tables", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"}, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return decode_object(response.read(SERVER_ANSWER.max_bytes + 1), SERVER_ANSWER)
    except urllib.error.HTTPError as error:
        try:
            detail = decode_object(error.read(64 * 1024) or b"{}", SERVER_ANSWER)
        except DecodeError:
            detail = {}
        raise ClientError(f"{detail.get('error', error.code)}: {detail.get('message', '')}") from None
    except DecodeError as error:
        raise ClientError(f"the server's answer is not ours: {error}") from None
    except (urllib.error.URLError, OSError) as error:
        reason = getattr(error, "reason", error)
        raise ClientError(f"cannot reach the server at {base}: {reason} (is tienlen serve "
                          "running there?)") from None


def first_legal(view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
    """The first legal action that is not a pass (the core's lowest play), else pass."""
    return next((a for a in legal if a["kind"] != "pass"), legal[0])


def random_legal(seed: int | None = None) -> Policy:
    """A policy choosing uniformly among the legal actions, from its own seeded generator."""
    rng = random.Random(seed)

    def choose(view: dict[str, Any], legal: list[dict[str, Any]]) -> dict[str, Any]:
        return rng.choice(legal)
    return choose


class SeatClient:
    """One seat over one WebSocket (the ``websockets`` synchronous client)."""

    def __init__(self, url: str, table: str, token: str, *, timeout: float = 60.0) -> None:
        from websockets.exceptions import InvalidHandshake, InvalidURI
        from websockets.sync.client import connect

        # entered as the context manager it is (websockets warns about a bare connect())
        try:
            self._ws = connect(url, max_size=SERVER_ANSWER.max_bytes,
                               open_timeout=timeout).__enter__()
        except InvalidURI:
            raise ClientError(f"not a seat URL: {url[:80]!r}") from None
        except InvalidHandshake as error:
            raise ClientError(f"the server at {url} refused the connection: {error}") from None
        except (OSError, TimeoutError) as error:
            raise ClientError(f"cannot reach the server at {url}: "
                              f"{getattr(error, 'strerror', None) or error or 'timed out'} "
                              "(is tienlen serve running there?)") from None
        self.timeout = timeout
        self.table, self.seat = table, -1
        self.view: dict[str, Any] | None = None
        self.errors: list[dict[str, Any]] = []
        self.actions = 0
        self._send({"type": "join", "table": table, "token": token, "legal": True})
        while True:
            message = self._recv()
            if message["type"] == "error":
                self.close()
                raise ClientError(f"{message['code']}: {message['message']}")
            if message["type"] == "welcome":
                self.seat = message["seat"]
                self.game = message["game"]
                return

    @classmethod
    def from_url(cls, url: str, **kw: Any) -> SeatClient:
        ws, table, token = parse_seat_url(url)
        return cls(ws, table, token, **kw)

    def _send(self, message: dict[str, Any]) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            self._ws.send(json.dumps({"v": 1, **message}))
        except ConnectionClosed as error:
            raise ClientError(_closed_words(error)) from None

    def _recv(self) -> dict[str, Any]:
        from websockets.exceptions import ConnectionClosed

        try:
            frame = self._ws.recv(timeout=self.timeout)
        except ConnectionClosed as error:
            raise ClientError(_closed_words(error)) from None
        except TimeoutError:
            raise ClientError(f"no message from the server in {self.timeout:g} s") from None
        try:
            return decode_object(frame, SERVER_ANSWER)
        except DecodeError as error:
            raise ClientError(f"the server sent what our protocol never says: {error}") from None

    def play(self, policy: Policy, *, on_message: Callable[[dict[str, Any]], None] | None = None,
             stop_after_hand: bool = False) -> dict[str, Any]:
        """Answer every turn of this seat with ``policy`` until the match is over (or the
        first hand is, with ``stop_after_hand``); returns the last view."""
        asked = -1
        legal: list[dict[str, Any]] = []
        while True:
            message = self._recv()
            if on_message is not None:
                on_message(message)
            kind = message["type"]
            if kind == "state":
                self.view = message["view"]
                phase = self.view["phase"]
                if phase == "over" or (stop_after_hand and phase == "hand_over"):
                    return self.view
                if "legal" in message and message["version"] != asked:
                    asked, legal = message["version"], message["legal"]
                    self._act(policy(self.view, legal))
            elif kind == "error":
                self.errors.append(message)
                if len(self.errors) > 100:
                    raise ClientError(f"the server refused 100 actions; last: {message['message']}")
                if message["code"] == "RATE_LIMIT":
                    time.sleep(0.2)          # the action was not taken: slow down, send again
                if self.view is not None and self.view["turn"] == self.seat and legal:
                    self._act(policy(self.view, legal))     # ask again on the same state

    def _act(self, action: dict[str, Any]) -> None:
        self._send({"type": "act", "action": action})
        self.actions += 1

    def close(self) -> None:
        self._ws.close()

    def __enter__(self) -> SeatClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def run_connect(args: Any) -> int:
    """``tienlen play --connect URL``: play one seat with a simple policy, printing each
    hand's result."""
    name = getattr(args, "policy", "first")
    policy: Policy = first_legal if name == "first" else random_legal(getattr(args, "seed", None))
    try:
        import websockets  # noqa: F401
    except ImportError:
        raise ClientError('tienlen play --connect needs the serve extra: pip install -e ".[serve]" '
                          'in a checkout') from None

    def show(message: dict[str, Any]) -> None:
        if message["type"] == "state" and message["view"]["phase"] in ("hand_over", "over"):
            result = message["view"]["result"]
            print(f"hand {result['hand']}: places {result['places']}", flush=True)

    with SeatClient.from_url(args.connect) as client:
        print(f"seat {client.seat} of table {client.table} ({client.game})", flush=True)
        view = client.play(policy, on_message=show)
    print(f"match over after {view['hand_number']} hand(s); {client.actions} actions sent", flush=True)
    return 0
