"""A small agent of the Guandan AI platform's protocol (docs/platform.md), written here from
the protocol sheet: it stands in for the competition's agents in `tienlen tournament`'s
tests and docs, and shows the shape of one.

    python examples/platform_agent.py ws://127.0.0.1:23456/game/client0 [--policy last]

It reads every message and answers each `act` with an index into its `actionList`:
`first` (index 0: a pass when following), `last` (the last listed play, often the biggest)
or `random` (seeded). For tests of the tournament's failure rule it can misbehave after N
decisions: `--die-after N` (exits), `--hang-after N` (stops answering), `--bad-after N`
(answers out of range). Needs the websockets package (the [serve] extra).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("url")
    parser.add_argument("--policy", choices=("first", "last", "random"), default="random")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--die-after", type=int, default=None, metavar="N")
    parser.add_argument("--hang-after", type=int, default=None, metavar="N")
    parser.add_argument("--bad-after", type=int, default=None, metavar="N")
    args = parser.parse_args()
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    rng = random.Random(args.seed)
    decisions = 0
    try:
        with connect(args.url, max_size=None, open_timeout=30) as ws:
            while True:
                message = json.loads(ws.recv())
                if message.get("type") != "act":
                    continue
                decisions += 1
                if args.die_after is not None and decisions > args.die_after:
                    os._exit(3)                           # a crash: no goodbye
                if args.hang_after is not None and decisions > args.hang_after:
                    time.sleep(3600)
                count = len(message["actionList"])
                if args.bad_after is not None and decisions > args.bad_after:
                    index = count + 7
                elif args.policy == "first":
                    index = 0
                elif args.policy == "last":
                    index = count - 1
                else:
                    index = rng.randrange(count)
                ws.send(json.dumps({"actIndex": index}))
    except ConnectionClosed:
        return 0                                          # the server closes at the end
    except OSError as error:
        print(f"platform_agent: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    raise SystemExit(main())
