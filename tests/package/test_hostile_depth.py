"""Standing test (issue 36): every reader of JSON that crosses into the program, fed hostile
depth and size, refuses it with one clean line (a ``ValueError``) in bounded time: never a
RecursionError, a traceback, a hang or a closed socket without a word. A new reader of
outside JSON belongs in READERS.

READERS_NOT_YET lists readers that still fail (a RecursionError escapes them): each must
still fail; a fixed one is removed from the set. It is empty: every reader here goes through
:mod:`tienlen.table.decode`."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tienlen.table.decode import (BODY, MESSAGE, PLATFORM_FRAME, RESULTS_LINE, RUN_HEADER,
                                  SERVER_ANSWER, decode_json)

pytestmark = pytest.mark.filterwarnings("ignore:Using `httpx` with `starlette.testclient`")

DEPTHS = (20, 200, 5_000, 200_000)      # all past every limit (16 at most)


def deep_list(depth: int) -> bytes:
    return b"[" * depth + b"]" * depth


def deep_object(depth: int) -> bytes:
    return b'{"a":' * depth + b"1" + b"}" * depth


def _server_message(data: bytes) -> None:
    """Our WebSocket protocol, through the app (Starlette's test client)."""
    from starlette.testclient import TestClient

    from tienlen.server.app import create_app

    from starlette.websockets import WebSocketDisconnect

    with TestClient(create_app(hosts=["testserver"])) as client, \
            client.websocket_connect("/ws") as ws:
        ws.send_text(data.decode())
        try:
            answer = ws.receive_json()
        except WebSocketDisconnect as closed:
            if closed.code == 1009:          # docs/protocol.md: too big closes the socket
                raise ValueError("TOO_BIG: closed with 1009") from None
            raise
        if answer["type"] == "error":
            raise ValueError(f"{answer['code']}: {answer['message']}")


def _server_body(data: bytes) -> None:
    from starlette.testclient import TestClient

    from tienlen.server.app import create_app

    with TestClient(create_app(hosts=["testserver"])) as client:
        response = client.post("/api/tables", content=data,
                               headers={"content-type": "application/json"})
    if response.status_code != 200:
        answer = response.json()
        raise ValueError(f"{response.status_code} {answer['error']}: {answer.get('message')}")


def _platform_frame(data: bytes) -> None:
    from tienlen.games.guandan.platform import answer_index

    answer_index(data)


def _client_message(data: bytes) -> None:
    from tienlen.client import SeatClient

    class Stub:
        def recv(self, timeout: float) -> bytes:
            return data

    client = object.__new__(SeatClient)
    client._ws = Stub()                     # type: ignore[attr-defined]
    client.timeout = 1.0
    client._recv()


def _client_answer(data: bytes, monkeypatch: Any = None) -> None:
    import io
    import urllib.request

    from tienlen.client import open_table

    real = urllib.request.urlopen
    urllib.request.urlopen = lambda *a, **k: io.BytesIO(data)  # type: ignore[assignment]
    try:
        open_table("http://127.0.0.1:1", "guandan", ["remote"] * 4)
    finally:
        urllib.request.urlopen = real


def _tienlen_replay(data: bytes) -> None:
    from tienlen.games.tienlen.game import Game

    Game.from_json(data)


def _guandan_match_file(data: bytes) -> None:
    from tienlen.games.guandan.match import Match

    Match.from_json(data)


def _results_line(data: bytes) -> None:
    from tienlen.arena.files import json_line

    json_line(data, Path("games.jsonl"), 1)


def _run_header(data: bytes, tmp: list[Path] = []) -> None:  # noqa: B006
    import tempfile

    from tienlen.arena.files import HEADER_FILE, ParquetUnits

    folder = Path(tempfile.mkdtemp()) / "games.parquet"
    folder.mkdir()
    (folder / HEADER_FILE).write_bytes(data)
    ParquetUnits(folder).header()


def _decoder(limits: Any) -> Callable[[bytes], object]:
    return lambda data: decode_json(data, limits)


READERS: dict[str, Callable[[bytes], object]] = {
    **{f"decode {limits.what}": _decoder(limits)
       for limits in (MESSAGE, BODY, PLATFORM_FRAME, SERVER_ANSWER, RESULTS_LINE, RUN_HEADER)},
    "server: a WebSocket message": _server_message,
    "server: a request body": _server_body,
    "platform: an agent's frame": _platform_frame,
    "client: a server message": _client_message,
    "client: an HTTP answer": _client_answer,
    "Tiến Lên: a replay": _tienlen_replay,
    "Guandan: a match file": _guandan_match_file,
    "arena: a results line": _results_line,
    "arena: a run header": _run_header,
}
#: Readers that still let a RecursionError out (none since the arena's files use the decoder).
READERS_NOT_YET: set[str] = set()

NEEDS_SERVER = {"server: a WebSocket message", "server: a request body", "client: a server message",
                "client: an HTTP answer"}


def _skip_missing(name: str) -> None:
    if name in NEEDS_SERVER:
        pytest.importorskip("starlette")
        pytest.importorskip("httpx")
        pytest.importorskip("websockets")


def _refuses_cleanly(read: Callable[[bytes], object], data: bytes) -> bool:
    try:
        read(data)
    except ValueError as error:
        assert "\n" not in str(error).strip(), str(error)
        return True
    except RecursionError:
        return False
    return False


@pytest.mark.parametrize("name", sorted(READERS))
def test_every_reader_refuses_hostile_depth(name: str) -> None:
    _skip_missing(name)
    read = READERS[name]
    t0 = time.monotonic()
    clean = all(_refuses_cleanly(read, shape(depth))
                for depth in DEPTHS for shape in (deep_list, deep_object))
    assert time.monotonic() - t0 < 60
    if name in READERS_NOT_YET:
        assert not clean, f"{name} is fixed: remove it from READERS_NOT_YET"
    else:
        assert clean


#: Readers of text already in memory, whose files are size-limited where they are read
#: (tienlen.table.fileio.read_limited): their size test is that one.
SIZED_ELSEWHERE = {"Tiến Lên: a replay", "Guandan: a match file"}


@pytest.mark.parametrize("name", sorted(set(READERS) - READERS_NOT_YET - SIZED_ELSEWHERE))
def test_every_reader_refuses_hostile_size(name: str) -> None:
    _skip_missing(name)
    read = READERS[name]
    huge = json.dumps({"type": "ping", "pad": "x" * (32 * 1024 * 1024)}).encode()
    t0 = time.monotonic()
    with pytest.raises(ValueError) as info:
        read(huge)
    text = str(info.value)
    assert "\n" not in text.strip() and ("TOO_BIG" in text or "larger than" in text
                                         or text.startswith("413")), text
    assert time.monotonic() - t0 < 60
