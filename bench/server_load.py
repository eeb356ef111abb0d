"""Load benchmark of `tienlen serve` (issues 27 and 36): one server process holding N busy
Guandan tables plus one human table, as a user runs it (`python -m tienlen serve`, its
defaults: bots paced 0.6 s at a table with a human).

A busy table is a bot author's harness: one remote seat played by an agent of this script
that answers at once (a single on the lead, a pass when following, the first tribute
choice), against L2 and L3 bots; it plays without pause (a *batch* table, docs/protocol.md).
The human table is `human` against L3, L2, L3; this script plays the human the same way and
times, over --moves of its actions:

- the human's answer: from sending an action to the server's `action` message for it;
- its bots' moves: from the end of the 0.6 s pace to the bot's `action` message (the gap
  between two consecutive actions, minus the pace), per level, against the level's budget
  (L3: 85 ms a decision);
- its hints (with ``--hints``, one asked before each of its actions): from sending `hint`
  to the server's answer, against the half second a person waits (issue 35: the hint is
  L3 on 300 sampled deals, cut short at 300 ms);

and the busy tables' actions per second (`/api/stats`). `--busy bots` makes the busy tables
bots alone instead (the server admits 3 on 2 cores and refuses the rest: 503 BUSY).

    python bench/server_load.py                       # 50 busy tables, 60 human moves
    python bench/server_load.py --tables 0            # the human table alone
    python bench/server_load.py --busy bots --tables 40
    python bench/server_load.py --tables 0 --hints    # the room's hint, alone and loaded

Needs the [serve] extra.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import time
import urllib.error
import urllib.request
from typing import Any

PACE = 0.6          # tienlen serve's default --bot-delay
L3_BUDGET = 0.085   # Guandan L3's default time per decision


def post(base: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    request = urllib.request.Request(base + "/api/tables", data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"}, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


def get(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(url, timeout=30) as response:
        return json.loads(response.read())


def choose(view: dict[str, Any]) -> dict[str, Any] | None:
    """A cheap legal action from the view alone (no legal list to parse)."""
    if view["turn"] != view["seat"]:
        return None
    if view.get("tribute_step"):
        kind = "give_tribute" if view["tribute_step"] == "give" else "return_tribute"
        return {"kind": kind, "card": view["tribute_choices"][0]}
    if view["can_pass"]:
        return {"kind": "pass"}
    return {"kind": "play", "cards": [view["hand"][0]]}


async def agent(url: str, table: str, token: str, stop: asyncio.Event, human: bool = False,
                record: dict[str, Any] | None = None) -> None:
    from websockets.asyncio.client import connect

    async with connect(url, max_size=None) as ws:
        await ws.send(json.dumps({"type": "join", "table": table, "token": token}))
        version = -1
        sent_at: float | None = None
        last_action = time.perf_counter()
        seats: dict[int, str] = {}
        hint_sent_at: float | None = None
        held: dict[str, Any] | None = None     # the action sent once its hint is answered
        while not stop.is_set():
            try:
                m = json.loads(await asyncio.wait_for(ws.recv(), 60))
            except asyncio.TimeoutError:
                continue
            now = time.perf_counter()
            kind = m["type"]
            if kind == "welcome":
                seats = {s["seat"]: s["name"] for s in m["seats"]}
            elif kind in ("hint", "error") and hint_sent_at is not None and held is not None:
                assert record is not None
                if kind == "hint":
                    record["hints"].append(now - hint_sent_at)
                hint_sent_at = None
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "act", "action": held}))
                held = None
            elif kind == "action" and record is not None:
                if m["seat"] == 0 and sent_at is not None:
                    record["answers"].append(now - sent_at)
                    sent_at = None
                elif m["seat"] != 0 and m["by"] == "bot":
                    record["bots"].setdefault(seats.get(m["seat"], "?"), []).append(
                        now - last_action - PACE)
                last_action = now
            elif kind == "state":
                view = m["view"]
                if view["phase"] == "over":
                    return
                if view["phase"] == "hand_over":
                    if human:
                        await ws.send(json.dumps({"type": "next_hand"}))
                        last_action = time.perf_counter()      # the new hand's pace starts
                    continue
                action = choose(view)
                if action is not None and m["version"] != version:
                    version = m["version"]
                    if record is not None:
                        if len(record["answers"]) >= record["moves"]:
                            stop.set()
                            return
                        if record.get("ask_hints"):
                            held, hint_sent_at = action, time.perf_counter()
                            await ws.send(json.dumps({"type": "hint", "id": version}))
                            continue
                        sent_at = time.perf_counter()
                    await ws.send(json.dumps({"type": "act", "action": action}))


async def run(base: str, args: argparse.Namespace) -> dict[str, Any]:
    ws_url = base.replace("http://", "ws://") + "/ws"
    stop = asyncio.Event()
    tasks = []
    refused = 0
    loop = asyncio.get_running_loop()
    for i in range(args.tables):
        seats = (["remote", "L2", "L3", "L2"] if i % 2 else ["remote", "L3", "L2", "L3"]) \
            if args.busy == "remote" else (["L2", "L3", "L2", "L3"])
        while True:
            status, info = await loop.run_in_executor(None, post, base, {
                "game": "guandan", "seats": seats, "seed": i, "options": {"max_hands": 1000}})
            if status != 429:
                break
            await asyncio.sleep(0.3)                     # the per-address creation rate
        if status != 200:
            refused += 1
            continue
        if args.busy == "remote":
            tasks.append(asyncio.ensure_future(agent(ws_url, info["table"], info["tokens"]["0"],
                                                     stop)))
    await asyncio.sleep(2.0)                             # the busy tables under way
    status, info = await loop.run_in_executor(None, post, base, {
        "game": "guandan", "seats": ["human", "L3", "L2", "L3"], "seed": 99,
        "options": {"max_hands": 1000}})
    assert status == 200, info
    record: dict[str, Any] = {"answers": [], "bots": {}, "moves": args.moves, "hints": [],
                              "ask_hints": args.hints}
    before = await loop.run_in_executor(None, get, base + "/api/stats")
    t0 = time.monotonic()
    await agent(ws_url, info["table"], info["tokens"]["0"], stop, human=True, record=record)
    elapsed = time.monotonic() - t0
    after = await loop.run_in_executor(None, get, base + "/api/stats")
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    record.update(elapsed=elapsed, refused=refused,
                  busy_actions=(after["actions"] - before["actions"]) / elapsed,
                  tables=after["tables"], bots_stats=after["bots"])
    return record


def ms(values: list[float]) -> str:
    v = sorted(x * 1000 for x in values)
    if not v:
        return "-"
    return f"median {statistics.median(v):.1f} ms, p90 {v[int(len(v) * 0.9)]:.1f} ms, max {v[-1]:.1f} ms"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50, help="busy tables (default: 50)")
    parser.add_argument("--busy", choices=("remote", "bots"), default="remote")
    parser.add_argument("--moves", type=int, default=60, help="the human's timed actions")
    parser.add_argument("--hints", action="store_true",
                        help="the human asks a hint before each action (timed)")
    args = parser.parse_args()
    server = subprocess.Popen([sys.executable, "-m", "tienlen", "serve", "--port", "0",
                               "--turn-timeout", "0", "--tables-per-client", "1000",
                               "--max-tables", "1000"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert server.stdout is not None
        base = server.stdout.readline().split(" is at ")[1].split()[0].rstrip("/")
        load0 = os.getloadavg()[0]
        result = asyncio.run(run(base, args))
        load1 = os.getloadavg()[0]
    finally:
        server.terminate()
        server.wait(10)
    print(f"{args.tables} busy Guandan tables ({args.busy} + L2/L3 bots; {result['refused']} "
          f"refused) + 1 human table (L3, L2, L3), {len(result['answers'])} human actions over "
          f"{result['elapsed']:.1f} s; {os.cpu_count()} CPUs, load average {load0:.1f} -> {load1:.1f}")
    print(f"busy tables: {result['busy_actions']:,.0f} actions/s; bot threads "
          f"{result['bots_stats']['threads']} (reserve {result['bots_stats']['reserve']})")
    print(f"human's answer: {ms(result['answers'])}")
    if args.hints:
        hints = result["hints"]
        within = sum(t <= 0.5 for t in hints) / max(1, len(hints))
        print(f"human's hints ({len(hints)}): {ms(hints)}; within 0.5 s: {within:.0%}")
    for level, times in sorted(result["bots"].items()):
        note = ""
        if level == "L3" and times:
            within = sum(t <= 2 * L3_BUDGET for t in times) / len(times)
            note = f"; within 2x its {L3_BUDGET * 1000:.0f} ms budget: {within:.0%}"
        print(f"human table's {level} moves (after the {PACE} s pace): {ms(times)}{note}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
