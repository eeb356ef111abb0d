"""L3 with some options against L3 with others, in the duplicate arena (first hands, both
seatings per board), in one process: the A/B of an L3 change that has an option to turn it
off (issue 29).

    python bench/guandan_ab_l3.py --a iterations=30 --b iterations=30,infer=0 --hands 400

Options are ``name=value`` (ints, floats; 0/1 for switches). Prints the arena table with the
paired A - B differences (hands won, mean place, levels per hand). L3 on ``iterations`` is
deterministic, so the numbers are exact reruns.
"""

from __future__ import annotations

import argparse
import functools

from tienlen.arena import simulate
from tienlen.games.guandan.bots import SearchBot


def options(text: str) -> dict[str, object]:
    """"iterations=30,infer=0" -> {"iterations": 30, "infer": 0}."""
    out: dict[str, object] = {}
    for item in filter(None, text.split(",")):
        key, _, value = item.partition("=")
        out[key] = float(value) if "." in value else int(value)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--a", required=True, help="team A's L3 options")
    ap.add_argument("--b", required=True, help="team B's L3 options")
    ap.add_argument("--hands", type=int, default=400)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    result = simulate("guandan", [functools.partial(SearchBot, **options(args.a)),
                                  functools.partial(SearchBot, **options(args.b))],
                      args.hands, mode="hand", seed=args.seed)
    print(result)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
