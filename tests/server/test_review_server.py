"""The review on the server (issue 38), without a browser: a human seat gets the review of
its hand when the hand ends (its decisions, in order, from the game's record), the card
tracker in its state while a hand is played (never in a bot's or between hands), the match
file on request; ``POST /api/review`` reviews a posted file, and refuses a bad or oversized
one in one line."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
httpx = pytest.importorskip("httpx")
ws_client = pytest.importorskip("websockets.sync.client")

from server_helpers import running  # noqa: E402
from test_server import CONFIG, Client, create  # noqa: E402

from tienlen.server.app import create_app  # noqa: E402
from tienlen.server.tables import Hub, ServerConfig  # noqa: E402
from tienlen.table import get_spec  # noqa: E402
from tienlen.table.decode import MATCH_FILE  # noqa: E402


@pytest.fixture(scope="module")
def server():
    hub = Hub(ServerConfig(**CONFIG))
    with running(create_app(hub), ws_max_size=hub.config.max_message_bytes) as port:
        yield hub, port


def _play_to_the_end(c: Client, hub: Hub, table_id: str) -> dict:
    """Play seat 0 by L1 until the hand ends; the tracker of each state checked on the way."""
    table = hub.tables[table_id]
    bot = table.spec.make_bot("L1", 5)
    while True:
        m = c.until(lambda m: m["type"] == "state")
        view = m["view"]
        if view["phase"] in ("hand_over", "over"):
            assert "tracker" not in m
            return m
        assert m["tracker"]["seat"] == 0
        counted = sum(r["left"] for r in m["tracker"]["ranks"]) + \
            sum(m["tracker"].get("jokers", {}).values())
        assert counted == m["tracker"]["unseen"]
        if view["turn"] == 0:
            c.send({"type": "act", "action": bot.act(table.state.bot_view(0))})


@pytest.mark.parametrize("game", ["tienlen", "guandan"])
def test_a_human_gets_the_review_of_the_hand_and_the_match_file(server, game):
    hub, port = server
    options = {"hands": 1} if game == "tienlen" else {"max_hands": 1}
    info = create(port, game, ["human", "L1", "L1", "L1"], seed=8, options=options)
    c = Client(port)
    c.join(info["table"], info["tokens"]["0"])
    _play_to_the_end(c, hub, info["table"])
    review = c.until(lambda m: m["type"] == "review", timeout=60)
    table = hub.tables[info["table"]]
    record = get_spec(game).read_record(table.state)[-1]
    assert [d["turn"] for d in review["decisions"]] == [s.turn for s in record.steps
                                                        if s.seat == 0]
    assert review["seat"] == 0 and review["record"]["steps"][0]["seat"] == record.steps[0].seat
    assert all(d["cost"] > 0 for d in review["decisions"] if d["mistake"])
    c.send({"type": "match_file", "id": 3})
    saved = c.until(lambda m: m["type"] == "match_file")
    assert saved["id"] == 3 and saved["name"].endswith(".json")
    assert get_spec(game).read_record(saved["text"].encode())[-1].steps == record.steps
    # the file posted back gives the same decisions
    response = httpx.post(f"http://127.0.0.1:{port}/api/review?seat=0", timeout=60,
                          content=saved["text"].encode(),
                          headers={"Content-Type": "application/json"})
    assert response.status_code == 200, response.text
    assert [d["turn"] for d in response.json()["decisions"]] == \
        [d["turn"] for d in review["decisions"]]
    c.close()


def test_bad_review_uploads_are_refused_in_one_line(server):
    hub, port = server
    url = f"http://127.0.0.1:{port}/api/review"
    json_type = {"Content-Type": "application/json"}
    cases = [
        (b'{"schema": "chess.game"}', 400, "BAD_FILE"),
        (b'{"schema": "tienlen.game", "version": 1}', 400, "BAD_FILE"),
        (b"[1, 2]", 400, "BAD_REQUEST"),
        (b"{" * 50 + b"}" * 50, 400, "TOO_DEEP"),
        (b'{"a": "' + b"x" * (MATCH_FILE.max_bytes + 10) + b'"}', 413, "TOO_BIG"),
    ]
    for body, status, code in cases:
        response = httpx.post(url, content=body, headers=json_type, timeout=30)
        assert response.status_code == status, (body[:40], response.text)
        answer = response.json()
        assert answer["error"] == code and "\n" not in answer["message"]
    response = httpx.post(url, content=b"{}", timeout=30)        # not application/json
    assert response.status_code == 415
    response = httpx.post(url, content=b"{}", headers={**json_type, "Origin": "http://evil.example"},
                          timeout=30)
    assert response.status_code == 403


def test_a_bot_table_gets_no_review_and_no_tracker(server):
    hub, port = server
    info = create(port, "guandan", ["L1", "L1", "L1", "L1"], seed=2, options={"max_hands": 1})
    table = hub.tables[info["table"]]
    assert table.tracker(table.seats[0]) is None
    assert table._review_task is None


def test_the_review_is_a_setting_a_player_can_turn_off(server):
    hub, port = server
    info = create(port, "tienlen", ["human", "L1", "L1", "L1"], seed=8, options={"hands": 1},
                  settings={"review": False})
    c = Client(port)
    c.join(info["table"], info["tokens"]["0"])
    _play_to_the_end(c, hub, info["table"])
    # the hand is over and no review comes in the next 8 s (with the setting on, the same
    # table's review arrives within a second or two: the test above)
    with pytest.raises(TimeoutError):
        c.until(lambda m: m["type"] == "review", timeout=8)
    assert hub.tables[info["table"]].settings["review"] is False
    c.close()
    refused = httpx.post(f"http://127.0.0.1:{port}/api/tables", timeout=10,
                         json={"game": "tienlen", "seats": ["human", "L1", "L1", "L1"],
                               "settings": {"review": "no"}})
    assert refused.status_code == 400 and "review is true or false" in refused.text
