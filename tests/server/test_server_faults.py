"""Faults at one table or socket leave every other table served (issue 27): a client killed
mid-hand, a flood of garbage frames, 1 MB messages, a reader that never reads."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import time

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
ws_client = pytest.importorskip("websockets.sync.client")
from websockets.exceptions import ConnectionClosed  # noqa: E402

from server_helpers import running  # noqa: E402

from tienlen.client import SeatClient, open_table, seat_url  # noqa: E402
from tienlen.server.app import SocketConnection, create_app  # noqa: E402
from tienlen.server.tables import Hub, ServerConfig  # noqa: E402


@pytest.fixture(scope="module")
def server():
    hub = Hub(ServerConfig(turn_timeout=0, bot_delay=0, reconnect_grace=0.2, rate=100, burst=100))
    with running(create_app(hub), ws_max_size=hub.config.max_message_bytes) as port:
        yield hub, f"http://127.0.0.1:{port}", port


def _served_quickly(base: str, hub: Hub) -> float:
    """A fresh table answers a join and a ping: seconds it took."""
    t0 = time.monotonic()
    table = open_table(base, "tienlen", ["remote", "L1"], seed=1)
    with ws_client.connect(seat_url(base, table["table"], table["tokens"]["0"]).split("?")[0]) as ws:
        ws.send(json.dumps({"type": "join", "table": table["table"], "token": table["tokens"]["0"]}))
        while json.loads(ws.recv(timeout=5))["type"] != "state":
            pass
        ws.send('{"type": "ping"}')
        while json.loads(ws.recv(timeout=5))["type"] != "pong":
            pass
    return time.monotonic() - t0


def test_client_killed_mid_hand_is_replaced_by_the_fallback(server):
    hub, base, port = server
    info = open_table(base, "guandan", ["remote", "L1", "L1", "L1"], seed=4,
                      options={"max_hands": 1})
    table = hub.tables[info["table"]]
    url = seat_url(base, info["table"], info["tokens"]["0"])
    code = ("import sys, time; from tienlen.client import SeatClient, first_legal\n"
            "c = SeatClient.from_url(sys.argv[1])\n"
            "def slow(view, legal):\n    time.sleep(0.05); return first_legal(view, legal)\n"
            "c.play(slow)\n")
    proc = subprocess.Popen([sys.executable, "-c", code, url])
    deadline = time.monotonic() + 30
    while sum(1 for a in table.state.view(0)["history"] if a["seat"] == 0) < 3:
        assert time.monotonic() < deadline and proc.poll() is None
        time.sleep(0.02)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    deadline = time.monotonic() + 60
    while not table.state.is_over:
        assert time.monotonic() < deadline, "the table stopped after its client died"
        time.sleep(0.05)
    assert table.seats[0].conn is None
    assert _served_quickly(base, hub) < 2


def test_garbage_flood_is_cut_off_and_others_go_on(server):
    hub, base, port = server
    with ws_client.connect(f"ws://127.0.0.1:{port}/ws") as ws:
        closed = False
        try:
            for i in range(3000):
                ws.send(os.urandom(64) if i % 2 else "garbage{" * 10)
        except ConnectionClosed:
            closed = True
        if not closed:
            try:
                while True:
                    ws.recv(timeout=5)
            except ConnectionClosed as error:
                closed = error.rcvd is not None and error.rcvd.code == 1008
        assert closed
    assert _served_quickly(base, hub) < 2


def test_megabyte_messages_close_their_sockets_only(server):
    hub, base, port = server
    stack = contextlib.ExitStack()
    socks = [stack.enter_context(ws_client.connect(f"ws://127.0.0.1:{port}/ws", max_size=None))
             for _ in range(4)]
    for ws in socks:
        try:
            ws.send("x" * (1 << 20))
        except ConnectionClosed:
            pass
    for ws in socks:
        with pytest.raises(ConnectionClosed):
            while True:
                ws.recv(timeout=5)
    stack.close()
    assert _served_quickly(base, hub) < 2


def test_slow_reader_is_dropped_not_buffered():
    """SocketConnection keeps at most send_queue messages for a reader that does not read,
    then drops it with 4002; the table's send never waits."""

    class Stuck:
        application_state = None
        closed_with = None

        async def send_text(self, text):
            await asyncio.sleep(3600)

        async def close(self, code, reason=""):
            Stuck.closed_with = code

    async def main():
        conn = SocketConnection(Stuck(), 8)
        t0 = time.monotonic()
        for i in range(1000):
            conn.send({"type": "state", "n": i})
        assert time.monotonic() - t0 < 0.5
        assert conn.closing is not None and conn.closing[0] == 4002
        assert conn.queue.qsize() <= 8
        conn.writer.cancel()

    asyncio.run(main())


def test_a_reader_that_never_reads_does_not_stop_other_tables(server):
    hub, base, port = server
    info = open_table(base, "guandan", ["remote", "L1", "L1", "L1"], seed=8,
                      options={"max_hands": 30}, settings={"turn_timeout": 0.01})
    raw = socket.socket()
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    raw.connect(("127.0.0.1", port))
    stack = contextlib.ExitStack()
    ws = stack.enter_context(ws_client.connect(f"ws://127.0.0.1:{port}/ws", sock=raw))
    ws.send(json.dumps({"type": "join", "table": info["table"], "token": info["tokens"]["0"]}))
    # never read; the table plays on (the fallback plays our silent seat), others are served
    time.sleep(1.0)
    assert _served_quickly(base, hub) < 2
    table = hub.tables[info["table"]]
    assert table.version > 10
    conn = table.seats[0].conn
    if conn is not None:
        assert conn.queue.qsize() <= hub.config.send_queue
    stack.close()
