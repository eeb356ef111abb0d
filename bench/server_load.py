"""Load benchmark of `tienlen serve` (issue 27): one server process holding N bot-vs-bot
tables that play without pause, plus one table with a remote seat; the remote seat's moves
are timed from send to the server's `action` answer.

    python bench/server_load.py                 # 50 bot tables, 200 timed moves
    python bench/server_load.py --tables 100 --game guandan --moves 300

Prints the bot tables' actions per second and the remote seat's answer times (median, p90,
max). The server runs in its own process (`python -m tienlen serve`), as a user runs it;
this script is the only client. Needs the [serve] extra.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import time
import urllib.request


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def post(base: str, body: dict) -> dict:
    request = urllib.request.Request(base + "/api/tables", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def get(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=30) as response:
        return json.loads(response.read())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--game", choices=("tienlen", "guandan"), default="tienlen")
    parser.add_argument("--bots", default="L1")
    parser.add_argument("--moves", type=int, default=200)
    args = parser.parse_args()
    from websockets.sync.client import connect

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = subprocess.Popen([sys.executable, "-m", "tienlen", "serve", "--port", str(port),
                               "--bot-delay", "0", "--turn-timeout", "0"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert server.stdout is not None
        server.stdout.readline()                      # the URL: it is listening
        time.sleep(0.3)
        options = {"hands": 1000} if args.game == "tienlen" else {"max_hands": 1000}
        for i in range(args.tables):
            post(base, {"game": args.game, "seats": [args.bots] * 4, "seed": i, "options": options})
        info = post(base, {"game": "tienlen", "seats": ["remote", "L1", "L1", "L1"], "seed": 99,
                           "options": {"hands": 1000}})
        times: list[float] = []
        with connect(f"ws://127.0.0.1:{port}/ws", max_size=None) as ws:
            ws.send(json.dumps({"type": "join", "table": info["table"],
                                "token": info["tokens"]["0"], "legal": True}))
            t_start = time.monotonic()
            before = get(base + "/api/stats")
            sent_at = None
            while len(times) < args.moves:
                m = json.loads(ws.recv(timeout=60))
                if m["type"] == "state" and "legal" in m and sent_at is None:
                    legal = m["legal"]
                    action = next((a for a in legal if a["kind"] != "pass"), legal[0])
                    sent_at = time.perf_counter()
                    ws.send(json.dumps({"type": "act", "action": action}))
                elif m["type"] == "action" and m["seat"] == 0 and sent_at is not None:
                    times.append(time.perf_counter() - sent_at)
                    sent_at = None
                elif m["type"] == "error":
                    raise SystemExit(f"refused: {m}")
            elapsed = time.monotonic() - t_start
            after = get(base + "/api/stats")
        load = os.getloadavg()[0]
        ms = sorted(t * 1000 for t in times)
        print(f"{args.tables} {args.game} tables of {args.bots} bots + 1 remote seat, "
              f"{len(ms)} timed moves over {elapsed:.1f} s (load average {load:.1f}, "
              f"{os.cpu_count()} CPUs)")
        print(f"bot tables: {(after['actions'] - before['actions']) / elapsed:,.0f} actions/s "
              f"over {after['tables']} tables ({after['over']} finished)")
        print(f"answer time: median {statistics.median(ms):.1f} ms, "
              f"p90 {ms[int(len(ms) * 0.9)]:.1f} ms, max {ms[-1]:.1f} ms")
    finally:
        server.terminate()
        server.wait(10)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
