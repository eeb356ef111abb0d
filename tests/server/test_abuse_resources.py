"""Issue 36, resources held for ever: every connection, table and thread the server gives
has a bound, and every wait a timeout. Each test reproduces a defect of the fuzzing pass:
unfinished HTTP requests held with no header timeout or connection cap; a reader that stops
reading never dropped; 1,000 unjoined tables locking every client out for an hour; 40
bot-only L3 tables making every other table's bot ~800x slower."""

from __future__ import annotations

import json
import socket
import statistics
import time

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
httpx = pytest.importorskip("httpx")
ws_client = pytest.importorskip("websockets.sync.client")

from server_helpers import running  # noqa: E402

from tienlen.server.app import create_app  # noqa: E402
from tienlen.server.limits import ConnectionLimits  # noqa: E402
from tienlen.server.tables import Hub, ServerConfig  # noqa: E402


def _raw(port: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    return sock


def _closed_within(sock: socket.socket, seconds: float) -> tuple[bool, bytes]:
    """Whether the server closes ``sock`` within ``seconds``; what it sent first."""
    sock.settimeout(0.2)
    got = b""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            data = sock.recv(65536)
        except socket.timeout:
            continue
        except (ConnectionResetError, BrokenPipeError):
            return True, got
        if not data:
            return True, got
        got += data
    return False, got


def test_an_unfinished_request_head_is_answered_408_and_closed() -> None:
    limits = ConnectionLimits(header_timeout=1.0)
    with running(create_app(Hub(ServerConfig())), limits=limits) as port:
        silent = _raw(port)                                   # sends nothing at all
        partial = _raw(port)
        partial.sendall(b"GET /api/info HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
        t0 = time.monotonic()
        for sock in (silent, partial):
            closed, got = _closed_within(sock, 5)
            assert closed and got.startswith(b"HTTP/1.1 408"), got[:60]
        assert time.monotonic() - t0 < 5
        assert httpx.get(f"http://127.0.0.1:{port}/api/info").status_code == 200


def test_a_trickled_head_does_not_reset_the_clock() -> None:
    limits = ConnectionLimits(header_timeout=1.0)
    with running(create_app(Hub(ServerConfig())), limits=limits) as port:
        sock = _raw(port)
        sock.sendall(b"GET / HTTP/1.1\r\n")
        closed = False
        for _ in range(30):                    # one header byte every 0.1 s, for 3 s
            try:
                sock.sendall(b"X")
            except OSError:
                closed = True
                break
            time.sleep(0.1)
        closed = closed or _closed_within(sock, 3)[0]
        assert closed


def test_connections_past_the_cap_are_refused_and_others_served() -> None:
    limits = ConnectionLimits(max_connections=20, per_client=10, header_timeout=30)
    with running(create_app(Hub(ServerConfig())), limits=limits) as port:
        held = [_raw(port) for _ in range(10)]
        time.sleep(0.3)
        extra = _raw(port)                  # the 11th from this address
        closed, got = _closed_within(extra, 5)
        assert closed and got.startswith(b"HTTP/1.1 503")
        for sock in held:
            sock.close()
        time.sleep(0.3)
        assert httpx.get(f"http://127.0.0.1:{port}/api/info").status_code == 200


def test_a_reader_that_stops_reading_is_dropped_and_its_socket_closed() -> None:
    """The reader joins a table whose every move it is sent, and never reads: its sends
    wait send_timeout, then the server gives the seat up and aborts the connection."""
    limits = ConnectionLimits(send_timeout=1.0, linger=1.0)
    hub = Hub(ServerConfig(turn_timeout=0.01, bot_delay=0, reconnect_grace=0.05, send_queue=100_000,
                           connections=limits))
    with running(create_app(hub), limits=limits) as port:
        info = httpx.post(f"http://127.0.0.1:{port}/api/tables",
                          json={"game": "guandan", "seats": ["remote", "L1", "L1", "L1"],
                                "seed": 8, "options": {"max_hands": 40}}).json()
        raw = socket.socket()
        raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        raw.connect(("127.0.0.1", port))
        key = "dGhlIHNhbXBsZSBub25jZQ=="
        raw.sendall(f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                    f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                    "Sec-WebSocket-Version: 13\r\n\r\n".encode())
        raw.settimeout(10)
        assert raw.recv(4096).startswith(b"HTTP/1.1 101")     # then the join, in its own frame
        join = json.dumps({"type": "join", "table": info["table"],
                           "token": info["tokens"]["0"], "legal": True}).encode()
        mask = b"\x00\x00\x00\x00"
        size = bytes([0x80 | len(join)]) if len(join) < 126 else \
            bytes([0x80 | 126]) + len(join).to_bytes(2, "big")
        raw.sendall(bytes([0x81]) + size + mask + join)
        table = hub.tables[info["table"]]
        deadline = time.monotonic() + 60
        while table.seats[0].conn is None and time.monotonic() < deadline:
            time.sleep(0.05)
        assert table.seats[0].conn is not None
        # the table plays on (the fallback plays the silent seat), filling the buffers ...
        while table.seats[0].conn is not None:
            assert time.monotonic() < deadline, "the reader that never reads was never dropped"
            time.sleep(0.1)
        # ... and the connection itself is gone, not lingering with its buffers
        gone = False
        while not gone and time.monotonic() < deadline:
            try:
                raw.setblocking(False)
                while raw.recv(1 << 20):
                    pass
                gone = True                        # EOF
            except BlockingIOError:
                time.sleep(0.1)
            except (ConnectionResetError, OSError):
                gone = True
        assert gone
        raw.close()
        assert httpx.get(f"http://127.0.0.1:{port}/api/info").status_code == 200


_HTTP = httpx.Client(timeout=10)       # one client: a new one costs ~60 ms (its SSL setup)


def _create(port: int, seats: list[str], **extra: object) -> httpx.Response:
    return _HTTP.post(f"http://127.0.0.1:{port}/api/tables",
                      json={"game": "tienlen", "seats": seats, **extra})


def test_a_flood_of_unjoined_tables_locks_nobody_out() -> None:
    hub = Hub(ServerConfig(tables_per_client=20, table_rate=5, table_burst=30, max_tables=1000))
    with running(create_app(hub)) as port:
        codes = [_create(port, ["remote", "L1"]).status_code for _ in range(300)]
        assert set(codes) <= {200, 429} and codes.count(429) > 0
        assert len(hub.tables) <= 20                # the oldest unjoined gave way
        time.sleep(0.5)                             # the bucket refills at 5 a second
        info = _create(port, ["remote", "L1"])
        assert info.status_code == 200
        table = info.json()
        with ws_client.connect(f"ws://127.0.0.1:{port}/ws") as ws:
            ws.send(json.dumps({"type": "join", "table": table["table"],
                                "token": table["tokens"]["0"]}))
            assert json.loads(ws.recv(timeout=5))["type"] == "welcome"


def test_unjoined_tables_expire_in_minutes_and_joined_ones_stay() -> None:
    hub = Hub(ServerConfig(unjoined_ttl=1.0))
    with running(create_app(hub)) as port:
        lonely = _create(port, ["remote", "L1"]).json()["table"]
        kept = _create(port, ["remote", "L1"]).json()
        with ws_client.connect(f"ws://127.0.0.1:{port}/ws") as ws:
            ws.send(json.dumps({"type": "join", "table": kept["table"],
                                "token": kept["tokens"]["0"]}))
            assert json.loads(ws.recv(timeout=5))["type"] == "welcome"
            deadline = time.monotonic() + 10
            while lonely in hub.tables:
                assert time.monotonic() < deadline
                time.sleep(0.1)
            assert kept["table"] in hub.tables


def test_tables_of_bots_alone_are_capped_and_refused_busy() -> None:
    hub = Hub(ServerConfig(bot_threads=4, bot_reserve=1, tables_per_client=100, table_burst=100))
    with running(create_app(hub)) as port:
        answers = [_create(port, ["L3", "L3"], options={"hands": 1000}) for _ in range(40)]
        ok = [a for a in answers if a.status_code == 200]
        busy = [a for a in answers if a.status_code == 503]
        assert len(ok) == hub.bot_tables == 3 and len(busy) == 37
        assert busy[0].json()["error"] == "BUSY"
        assert _create(port, ["remote", "L1"]).status_code == 200    # others still admitted


def _bot_answer_times(port: int, hub: Hub, moves: int) -> list[float]:
    """A remote seat against L1 at a batch table: seconds from our action to the bot's
    next one (the bot's thinking plus its wait for a thread)."""
    info = _create(port, ["remote", "L1"], seed=5, options={"hands": 1000}).json()
    times: list[float] = []
    with ws_client.connect(f"ws://127.0.0.1:{port}/ws", max_size=None) as ws:
        ws.send(json.dumps({"type": "join", "table": info["table"], "token": info["tokens"]["0"],
                            "legal": True}))
        sent = None
        while len(times) < moves:
            m = json.loads(ws.recv(timeout=30))
            if m["type"] == "state" and "legal" in m and sent is None:
                legal = m["legal"]
                action = next((a for a in legal if a["kind"] != "pass"), legal[0])
                ws.send(json.dumps({"type": "act", "action": action}))
                sent = time.perf_counter()
            elif m["type"] == "action" and m["seat"] == 1 and sent is not None:
                times.append(time.perf_counter() - sent)
                sent = None
            elif m["type"] == "state" and m["view"]["phase"] == "hand_over":
                ws.send(json.dumps({"type": "next_hand"}))
                sent = None
    return times


def test_tables_of_l3_bots_do_not_slow_another_tables_bot() -> None:
    """As many L3 tables as the server admits, plus L3 tables with remote agents (batch
    too, but uncapped): an interactive-free table's L1 still answers in milliseconds."""
    hub = Hub(ServerConfig(turn_timeout=0, bot_delay=0, tables_per_client=200, table_burst=200))
    with running(create_app(hub)) as port:
        idle = statistics.median(_bot_answer_times(port, hub, 30))
        for _ in range(40):
            _create(port, ["L3", "L3", "L3", "L3"], options={"hands": 1000})
        for _ in range(10):        # batch tables whose remote seats the fallback plays at once
            _create(port, ["remote", "L3", "L3", "L3"], options={"hands": 1000},
                    settings={"turn_timeout": 0.001})
        time.sleep(1.0)
        assert hub.scheduler.stats()["running"] >= 1
        loaded = statistics.median(_bot_answer_times(port, hub, 30))
    # an L1 answer is ~1 ms; 800x slower was the defect. A 2-core VM shared with other
    # work: a generous bound that the old FIFO pool (40 L3 decisions ahead) never met.
    assert loaded < max(0.25, 20 * idle), (idle, loaded)
