"""tienlen.client and `tienlen play --connect`: agents in other processes take seats."""

from __future__ import annotations

import subprocess
import sys

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

from server_helpers import running  # noqa: E402

from tienlen.client import (ClientError, SeatClient, first_legal, open_table,  # noqa: E402
                            random_legal, seat_url)
from tienlen.server.app import create_app  # noqa: E402
from tienlen.server.tables import Hub, ServerConfig  # noqa: E402


@pytest.fixture(scope="module")
def server():
    hub = Hub(ServerConfig(turn_timeout=0, bot_delay=0, reconnect_grace=5))
    with running(create_app(hub)) as port:
        yield hub, f"http://127.0.0.1:{port}"


@pytest.mark.parametrize("game", ["tienlen", "guandan"])
def test_a_client_plays_a_whole_match_against_bots(server, game):
    hub, base = server
    options = {"hands": 2} if game == "tienlen" else {"max_hands": 2}
    table = open_table(base, game, ["remote", "L1", "L1", "L1"], seed=3, options=options)
    with SeatClient.from_url(seat_url(base, table["table"], table["tokens"]["0"])) as client:
        view = client.play(random_legal(1))
    state = hub.tables[table["table"]].state
    assert view["phase"] == "over" and state.is_over
    assert client.errors == [] and client.actions > 5
    # every action of seat 0 was sent by the client (no fallback played it)
    seat0 = [a for a in state.view(0)["history"] if a["seat"] == 0]
    assert seat0


def test_client_refused_with_a_bad_token(server):
    hub, base = server
    table = open_table(base, "tienlen", ["remote", "L1"])
    with pytest.raises(ClientError, match="BAD_TOKEN"):
        SeatClient.from_url(seat_url(base, table["table"], "wrong"))
    with pytest.raises(ClientError, match="BAD_SEATS"):
        open_table(base, "tienlen", ["remote"] * 5)


def test_four_processes_play_one_table(server):
    """`tienlen play --connect URL` in four processes, one seat each."""
    hub, base = server
    table = open_table(base, "tienlen", ["remote"] * 4, seed=9, options={"hands": 1})
    procs = [subprocess.Popen([sys.executable, "-m", "tienlen", "play", "--connect",
                               seat_url(base, table["table"], table["tokens"][str(s)]),
                               "--policy", "random" if s % 2 else "first"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for s in range(4)]
    outs = [p.communicate(timeout=120) for p in procs]
    for p, (out, err) in zip(procs, outs):
        assert p.returncode == 0, err
        assert "match over after 1 hand(s)" in out
    assert hub.tables[table["table"]].state.is_over
    assert first_legal({}, [{"kind": "pass"}, {"kind": "play", "cards": ["3s"]}])["kind"] == "play"
