"""How long the review (复盘, issue 38) of a typical Guandan hand takes, alone and on a busy
server whose other tables keep playing.

1. **Alone**: ``--hands`` Guandan hands (seat 0 played by L2 against L2 bots, seeds 1..N)
   (with ``--least N``, only those in which seat 0 has N decisions or more that are a
   choice) are reviewed for seat 0 in this process, as ``tienlen review`` does (64 sampled deals a
   decision, no time bound): the time per hand, its priced decisions, and the time scaled to
   25 decisions (the issue's typical hand).
2. **Loaded**: a ``tienlen serve`` process with ``--tables`` busy Guandan tables (a remote
   agent of bench/server_load.py answering at once against L2/L3 bots) and one human table
   (L3, L2, L3, paced 0.6 s) whose human this script plays; while it plays, each hand of
   step 1 is posted to ``POST /api/review`` in turn. Reported: each review's round trip and
   whether it was complete within the server's 10 s bound, and the human's answer time and
   its bots' moves (as bench/server_load.py measures them), for ``--baseline`` seconds
   before the reviews and while they run.

    python bench/review_speed.py                      # 8 hands, 20 busy tables
    python bench/review_speed.py --tables 0           # the server otherwise idle
    python bench/review_speed.py --tables 1 --yes     # one busy table, one core burnt by `yes`

``--yes`` runs ``yes > /dev/null`` (one core kept busy) while the reviews are posted;
``--no-alone`` skips step 1's untimed reviews.

Needs the [serve] extra for step 2.
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
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))


def hands(count: int, least: int = 0) -> list[tuple[int, bytes]]:
    """``count`` saved one-hand Guandan matches (seeds 1, 2, ...), seat 0 played by L2, of
    those in which seat 0 has at least ``least`` decisions that are a choice."""
    from tienlen.review import pick_record, records_of
    from tienlen.table import bot_seed, get_spec

    spec = get_spec("guandan")
    out: list[tuple[int, bytes]] = []
    seed = 0
    while len(out) < count:
        seed += 1
        if seed > 100 * count:
            raise SystemExit(f"fewer than {count} of {seed - 1} hands have {least} choices")
        state = spec.new_match(seed, options={"max_hands": 1})
        bots = [spec.make_bot("L2", bot_seed(seed, s)) for s in range(4)]
        while state.phase not in ("hand_over", "over"):
            seat = state.turn
            state.apply(bots[seat].act(state.bot_view(seat)), seat)
        data = spec.match_file(state)[1].encode()
        record = pick_record(records_of(spec, data))
        if sum(1 for s in record.steps if s.seat == 0 and s.legal > 1) >= least:
            out.append((seed, data))
    return out


def alone(files: list[tuple[int, bytes]]) -> list[tuple[int, int, float]]:
    """(seed, priced decisions, seconds) of each file's review here."""
    from tienlen.review import Reviewer, pick_record, records_of
    from tienlen.table import get_spec

    spec = get_spec("guandan")
    out = []
    for seed, data in files:
        record = pick_record(records_of(spec, data))
        reviewer = Reviewer(spec, record, 0)
        t0 = time.perf_counter()
        review = reviewer.run()
        seconds = time.perf_counter() - t0
        out.append((seed, sum(e.evaluated for e in review.evaluations), seconds))
    return out


def post_review(base: str, data: bytes) -> tuple[int, dict[str, Any], float]:
    request = urllib.request.Request(base + "/api/review?seat=0", data=data,
                                     headers={"Content-Type": "application/json"}, method="POST")
    t0 = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=120) as response:
            return response.status, json.loads(response.read()), time.perf_counter() - t0
    except urllib.error.HTTPError as error:
        body = error.read()
        try:
            answer = json.loads(body or b"{}")
        except ValueError:
            answer = {"body": body[:200].decode("utf-8", "replace")}
        print(f"  HTTP {error.code}: {answer}")
        return error.code, answer, time.perf_counter() - t0


async def loaded(base: str, files: list[tuple[int, bytes]], tables: int,
                 baseline: float) -> dict[str, Any]:
    from server_load import agent, post

    ws_url = base.replace("http://", "ws://") + "/ws"
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    tasks = []
    for i in range(tables):
        seats = ["remote", "L2", "L3", "L2"] if i % 2 else ["remote", "L3", "L2", "L3"]
        while True:
            status, info = await loop.run_in_executor(None, post, base, {
                "game": "guandan", "seats": seats, "seed": i, "options": {"max_hands": 1000}})
            if status != 429:
                break
            await asyncio.sleep(0.3)
        if status == 200:
            tasks.append(asyncio.ensure_future(agent(ws_url, info["table"], info["tokens"]["0"],
                                                     stop)))
    await asyncio.sleep(2.0)
    status, info = await loop.run_in_executor(None, post, base, {
        "game": "guandan", "seats": ["human", "L3", "L2", "L3"], "seed": 99,
        "options": {"max_hands": 1000}})
    assert status == 200, info
    record: dict[str, Any] = {"answers": [], "bots": {}, "moves": 10**6}
    human = asyncio.ensure_future(agent(ws_url, info["table"], info["tokens"]["0"], stop,
                                        human=True, record=record))
    await asyncio.sleep(1.0)
    # the human table without reviews first, then while the reviews run
    quiet0 = (len(record["answers"]), {k: len(v) for k, v in record["bots"].items()})
    await asyncio.sleep(baseline)
    quiet1 = (len(record["answers"]), {k: len(v) for k, v in record["bots"].items()})
    reviews = []
    load0 = os.getloadavg()[0]
    for seed, data in files:
        code, answer, seconds = await loop.run_in_executor(None, post_review, base, data)
        priced = sum(d["evaluated"] for d in answer.get("decisions", []))
        choices = sum(not d["forced"] for d in answer.get("decisions", []))
        deals = [d["deals"] for d in answer.get("decisions", []) if d["evaluated"]]
        reviews.append((seed, code, priced, answer.get("complete"), seconds, choices, deals))
    load1 = os.getloadavg()[0]
    stop.set()
    for task in [*tasks, human]:
        task.cancel()
    await asyncio.gather(*tasks, human, return_exceptions=True)
    def part(values: list[float], a: int, b: int | None) -> list[float]:
        return values[a:b]

    answers = record["answers"]
    return {"reviews": reviews, "busy": len(tasks), "load": (load0, load1),
            "quiet": {"answers": part(answers, quiet0[0], quiet1[0]),
                      **{k: part(v, quiet0[1].get(k, 0), quiet1[1].get(k, 0))
                         for k, v in record["bots"].items()}},
            "reviewing": {"answers": part(answers, quiet1[0], None),
                          **{k: part(v, quiet1[1].get(k, 0), None)
                             for k, v in record["bots"].items()}}}


def ms(values: list[float]) -> str:
    v = sorted(x * 1000 for x in values)
    if not v:
        return "-"
    return (f"median {statistics.median(v):.1f} ms, p90 {v[int(len(v) * 0.9)]:.1f} ms, "
            f"max {v[-1]:.1f} ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=8, help="hands reviewed (default 8)")
    parser.add_argument("--tables", type=int, default=20, help="busy tables (default 20)")
    parser.add_argument("--baseline", type=float, default=30.0,
                        help="seconds the human table is timed before the reviews (default 30)")
    parser.add_argument("--no-server", action="store_true", help="step 1 only")
    parser.add_argument("--no-alone", action="store_true", help="step 2 only")
    parser.add_argument("--least", type=int, default=0, metavar="N",
                        help="review only hands in which seat 0 has at least N decisions "
                             "that are a choice (the issue's typical hand: about 25)")
    parser.add_argument("--server-log", metavar="FILE", default=None,
                        help="write the server's standard error to FILE")
    parser.add_argument("--yes", action="store_true",
                        help="keep one core busy (yes > /dev/null) during step 2")
    args = parser.parse_args()
    files = hands(args.hands, args.least)
    if args.no_alone:
        return loaded_step(args, files)
    rows = alone(files)
    print(f"alone ({os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}): "
          f"{len(rows)} Guandan hands, 64 deals a decision")
    for seed, priced, seconds in rows:
        print(f"  seed {seed}: {priced} priced decisions in {seconds:.2f} s "
              f"({seconds / max(priced, 1) * 25:.2f} s for 25)")
    per25 = [s / max(p, 1) * 25 for _, p, s in rows]
    print(f"  per hand: median {statistics.median(s for *_, s in rows):.2f} s, max "
          f"{max(s for *_, s in rows):.2f} s; scaled to 25 decisions: median "
          f"{statistics.median(per25):.2f} s, max {max(per25):.2f} s")
    if args.no_server:
        return 0
    return loaded_step(args, files)


def loaded_step(args: argparse.Namespace, files: list[tuple[int, bytes]]) -> int:
    """Step 2 (see the module's docstring)."""
    burner = subprocess.Popen(["yes"], stdout=subprocess.DEVNULL) if args.yes else None
    server = subprocess.Popen([sys.executable, "-m", "tienlen", "serve", "--port", "0",
                               "--turn-timeout", "0", "--tables-per-client", "1000",
                               "--max-tables", "1000"],
                              stdout=subprocess.PIPE, text=True,
                              stderr=open(args.server_log, "w") if args.server_log  # noqa: SIM115
                              else subprocess.DEVNULL)
    try:
        assert server.stdout is not None
        base = server.stdout.readline().split(" is at ")[1].split()[0].rstrip("/")
        result = asyncio.run(loaded(base, files, args.tables, args.baseline))
    finally:
        server.terminate()
        server.wait(10)
        if burner is not None:
            burner.terminate()
            burner.wait(10)
    print(f"on a server with {result['busy']} busy Guandan tables + 1 human table"
          f"{' + yes > /dev/null' if args.yes else ''} (load "
          f"average {result['load'][0]:.1f} -> {result['load'][1]:.1f}):")
    for seed, code, priced, complete, seconds, choices, deals in result["reviews"]:
        spread = f" (deals a decision: {min(deals)}..{max(deals)})" if deals else ""
        print(f"  seed {seed}: HTTP {code}, {priced} of {choices} decisions priced{spread}, "
              f"complete={complete}, {seconds:.2f} s")
    times = [r[4] for r in result["reviews"] if r[1] == 200]
    if times:
        print(f"  round trip: median {statistics.median(times):.2f} s, max {max(times):.2f} s; "
              f"{sum(1 for r in result['reviews'] if r[3])} of {len(times)} complete, "
              f"{sum(r[2] for r in result['reviews'])} of "
              f"{sum(r[5] for r in result['reviews'])} decisions priced")
    for phase, title in (("quiet", f"the human table before the reviews ({args.baseline:g} s)"),
                         ("reviewing", "the human table while the reviews ran")):
        times = result[phase]
        print(f"  {title}: its answer {ms(times['answers'])}")
        for level, values in sorted((k, v) for k, v in times.items() if k != "answers"):
            print(f"    its {level} moves (after the 0.6 s pace): {ms(values)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
