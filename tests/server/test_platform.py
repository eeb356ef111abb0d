"""The v1006 platform adapter (tienlen serve --platform), played by a client written from the
protocol sheet (/work/shared/guandan-platform-protocol.md), not from the server's code.

The client's own notation reader (sheet section 2-3) turns each actionList back into plays;
the test checks every actionList against our core's legal plays for the state the message
describes (hand, level, the top to beat), and the tribute/back lists against the core's
tribute rules. An invalid actIndex is refused and the game goes on.
"""

from __future__ import annotations

import asyncio
import json
import random
import threading
import time
from collections import Counter

import pytest

pytest.importorskip("starlette")
uvicorn = pytest.importorskip("uvicorn")
ws_client = pytest.importorskip("websockets.sync.client")

from tienlen.guandan import Cards, RuleConfig, classify, legal_plays  # noqa: E402
from tienlen.games.guandan.game import return_candidates, tribute_candidates  # noqa: E402
from tienlen.games.guandan.plays import Kind  # noqa: E402
from tienlen.games.guandan.platform import PlatformRunner, platform_app  # noqa: E402

# ---- the sheet's notation, written here from the sheet -------------------------------------
SHEET_RANKS = "23456789TJQKA"
SHEET_TYPES = {"Single": Kind.SINGLE, "Pair": Kind.PAIR, "Trips": Kind.TRIPLE,
               "ThreeWithTwo": Kind.FULL_HOUSE, "Straight": Kind.STRAIGHT,
               "ThreePair": Kind.THREE_PAIRS, "TwoTrips": Kind.PLATE, "Bomb": Kind.BOMB,
               "StraightFlush": Kind.STRAIGHT_FLUSH}


def our_card(text: str) -> str:
    """Sheet 'S9' 'HT' 'SB' 'HR' -> our '9s' '10h' 'SJ' 'BJ'."""
    if text == "SB":
        return "SJ"
    if text == "HR":
        return "BJ"
    suit, rank = text[0], text[1]
    return ("10" if rank == "T" else rank) + suit.lower()


def sheet_level(text: str) -> int:
    return SHEET_RANKS.index(text) + 2


def sheet_rank_of(play) -> str:
    """The sheet's rank field for one of our plays (section 3)."""
    kind = play.kind
    if kind is Kind.JOKER_BOMB:
        return "JOKER"
    width = {Kind.STRAIGHT: 5, Kind.STRAIGHT_FLUSH: 5, Kind.THREE_PAIRS: 3, Kind.PLATE: 2}.get(kind)
    rank = play.rank
    if width:
        low = rank - width + 1
        return "A" if low == 1 else SHEET_RANKS[low - 2]
    if rank == 15:
        return "B"
    if rank == 16:
        return "R"
    return SHEET_RANKS[rank - 2]


def sheet_type_of(play) -> str:
    if play.kind is Kind.JOKER_BOMB:
        return "Bomb"
    return next(t for t, k in SHEET_TYPES.items() if k is play.kind)


def key(action) -> tuple:
    return (action[0], action[1], tuple(sorted(action[2])))


def our_key(play) -> tuple:
    names = []
    for card in play.cards:
        a = card.ascii()
        if a == "SJ":
            names.append("SB")
        elif a == "BJ":
            names.append("HR")
        else:
            names.append(a[-1].upper() + ("T" if a[:-1] == "10" else a[:-1]))
    return (sheet_type_of(play), sheet_rank_of(play), tuple(sorted(names)))


def pile_of(action, level):
    """The reading of a greaterAction: the classify() reading of its cards whose type and
    rank are the action's."""
    cards = Cards.parse(" ".join(our_card(c) for c in action[2]))
    readings = [p for p in classify(cards, level)
                if (sheet_type_of(p), sheet_rank_of(p)) == (action[0], action[1])]
    assert readings, action
    return readings[0]


# ---- the platform client ---------------------------------------------------------------------

class SheetClient(threading.Thread):
    def __init__(self, url: str, seed: int, misbehave: bool) -> None:
        super().__init__(daemon=True)
        self.url, self.rng, self.misbehave = url, random.Random(seed), misbehave
        self.checked = Counter()
        self.stages = Counter()
        self.pos = None
        self.refusal_checked = False
        self.pending = None
        self.error = None
        self.result = None

    def check_list(self, m):
        hand = Cards.parse(" ".join(our_card(c) for c in m["handCards"]))
        level = sheet_level(m["curRank"])
        assert m["indexRange"] == len(m["actionList"]) - 1
        if m["stage"] == "play":
            greater = m["greaterAction"]
            following = greater is not None and greater != ["PASS", "PASS", "PASS"]
            pile = pile_of(greater, level) if following else None
            want = Counter(our_key(p) for p in legal_plays(hand, level, pile))
            got = m["actionList"]
            if following:
                assert got[0] == ["PASS", "PASS", "PASS"]
                got = got[1:]
            else:
                assert ["PASS", "PASS", "PASS"] not in got
            assert Counter(key(a) for a in got) == want
        else:
            word = m["stage"]
            pick = tribute_candidates if word == "tribute" else return_candidates
            want = sorted(c.ascii() for c in Cards.from_ids(pick(hand, level, RuleConfig())))
            assert all(a[0] == word and a[1] == word and len(a[2]) == 1 for a in m["actionList"])
            assert sorted(our_card(a[2][0]) for a in m["actionList"]) == want
        self.checked[m["stage"]] += 1

    def run(self):
        try:
            with ws_client.connect(self.url, max_size=None) as ws:
                while True:
                    m = json.loads(ws.recv(timeout=60))
                    self.stages[(m["type"], m["stage"])] += 1
                    if m["stage"] == "beginning":
                        self.pos = m["myPos"]
                        assert len(m["handCards"]) == 27
                    if m["type"] == "act":
                        self.check_list(m)
                        i = self.rng.randrange(len(m["actionList"]))
                        if self.misbehave and not self.refusal_checked and m["stage"] == "play":
                            ws.send(json.dumps({"actIndex": m["indexRange"] + 5}))
                            ws.send("garbage")
                            ws.send(json.dumps({"actIndex": -1}))
                            self.pending = m["actionList"][i]
                        ws.send(json.dumps({"actIndex": i}))
                    if m["type"] == "notify" and m["stage"] == "play" and self.pending is not None \
                            and m["curPos"] == self.pos:
                        assert m["curAction"] == self.pending   # the valid answer, not a refused one
                        self.pending = None
                        self.refusal_checked = True
                    if m["stage"] == "gameResult":
                        self.result = m
                        return
        except BaseException as error:  # reported by the test
            self.error = error


def serve(runner):
    holder = {}

    async def main():
        server = uvicorn.Server(uvicorn.Config(platform_app(runner), host="127.0.0.1", port=0,
                                               log_level="warning"))
        task = asyncio.get_running_loop().create_task(server.serve())
        while not server.started:
            await asyncio.sleep(0.01)
        holder["port"] = server.servers[0].sockets[0].getsockname()[1]
        await runner.play()
        server.should_exit = True
        await task

    thread = threading.Thread(target=lambda: asyncio.run(main()), daemon=True)
    thread.start()
    while "port" not in holder:
        time.sleep(0.01)
    return thread, holder["port"]


@pytest.mark.parametrize("seats,games", [(("agent", "L1", "agent", "L1"), 2),
                                         (("agent",) * 4, 1)])
def test_platform_clients_play_full_matches(seats, games):
    logs = []
    runner = PlatformRunner(games, seats, seed=5, log=logs.append)
    thread, port = serve(runner)
    agents = [SheetClient(f"ws://127.0.0.1:{port}/game/client{i}", seed=i, misbehave=(i == 0))
              for i in range(seats.count("agent"))]
    for a in agents:
        a.start()
        time.sleep(0.05)       # seats by connection order
    for a in agents:
        a.join(120)
        assert a.error is None, repr(a.error)
    thread.join(30)
    expected_pos = [p for p, k in enumerate(seats) if k == "agent"]
    assert [a.pos for a in agents] == expected_pos
    assert agents[0].refusal_checked
    assert any("out of range" in line for line in logs)
    for a in agents:
        assert a.checked["play"] > 50
        assert a.stages[("notify", "gameOver")] == games
        assert a.stages[("notify", "episodeOver")] >= 2 * games
        result = a.result
        assert sum(result["victoryNum"]) + sum(result["draws"]) // 2 == 2 * games
        # each team's two seats have the same wins
        v = result["victoryNum"]
        assert v[0] == v[2] and v[1] == v[3]
    assert sum(runner.team_wins) + runner.draws[0] == games
    # tribute happened somewhere and every list was checked (the first deal has none)
    assert sum(a.checked["tribute"] + a.checked["back"] for a in agents) > 0 or \
        sum(a.stages[("notify", "anti-tribute")] for a in agents) > 0


def test_cli_platform_plays_and_prints_each_teams_wins():
    """`tienlen serve --platform --games 1 --seats agent,L1,L1,L1`: one agent against our
    bots; the server says Ready for connect., plays, prints the teams' wins and exits."""
    import socket
    import subprocess
    import sys

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "tienlen", "serve", "--platform", "--games", "1",
                             "--seats", "agent,L1,L1,L1", "--port", str(port), "--seed", "2"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert "Ready for connect." in proc.stdout.readline()
        with ws_client.connect(f"ws://127.0.0.1:{port}/game/client1", max_size=None) as ws:
            while True:
                m = json.loads(ws.recv(timeout=60))
                if "actionList" in m:
                    ws.send(json.dumps({"actIndex": m["indexRange"]}))
                if m["stage"] == "gameResult":
                    break
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 0, err
    assert "team 0 (seats 0 and 2):" in out and "team 1 (seats 1 and 3):" in out
    wins = [int(part.split(": ")[1].split()[0]) for part in out.strip().splitlines()[-1].split("; ")[:2]]
    assert sum(wins) + int(m["draws"][0]) == 1
    assert wins[0] == m["victoryNum"][0] and wins[1] == m["victoryNum"][1]


def test_an_agents_first_frame_waits_until_its_handshake_is_read():
    """The last agent to connect starts the table; its first frame is not sent along with
    the handshake's end, where ws4py's threaded client would parse it from two threads and
    drop the connection (1006), as a competition rule bot did in 6 of 55 matches."""
    import base64
    import os
    import socket

    from tienlen.games.guandan.platform import SETTLE

    runner = PlatformRunner(1, ("agent", "L1", "L1", "L1"), seed=5, log=lambda text: None,
                            max_hands=1)
    thread, port = serve(runner)
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        key = base64.b64encode(os.urandom(16)).decode()
        sock.sendall(("GET /game/client0 HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                      "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                      f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        response = b""
        while b"\r\n\r\n" not in response:
            chunk = sock.recv(128)                    # as ws4py reads the handshake
            assert chunk, response
            response += chunk
        read = time.monotonic()
        assert response.startswith(b"HTTP/1.1 101")
        assert response.partition(b"\r\n\r\n")[2] == b""     # nothing after the handshake
        first = sock.recv(1)                          # the table's first frame
        waited = time.monotonic() - read
    assert first and waited >= 0.5 * SETTLE, waited
    thread.join(30)                                   # the agent left: L1 finished its seat
    assert not thread.is_alive() and runner.records[0]["gone"] == [0]
