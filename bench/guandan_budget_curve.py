"""Guandan L3's hand share against L2 as its budget per decision grows, and the plot of it
(docs/strength.md, issue 29).

For each budget (L3's ``iterations``, sampled deals a decision: deterministic, so every
point is an exact rerun), a duplicate first-hands run of L3+L3 against L2+L2 in the arena
(``tienlen.guandan.arena.run``; each board in both seatings): L3's share of hands won
(first out) with its 95% interval over boards, and its CPU milliseconds per decision, the
x axis. Results are appended to a JSON file as each budget finishes; ``--plot`` draws the
PNG from that file (matplotlib: the ``bench`` extra, not a runtime dependency).

    python bench/guandan_budget_curve.py --budgets 5,20,80 --hands 200 --out curve.json
    python bench/guandan_budget_curve.py --plot curve.json --png docs/guandan-budget.png
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
import time
from pathlib import Path

from tienlen.guandan import arena
from tienlen.guandan.bots import make_bot


def run_budget(iterations: int, hands: int, seed: int, solver: bool) -> dict[str, object]:
    factory = functools.partial(make_bot, "L3", iterations=iterations, solver=solver)
    t0 = time.perf_counter()
    result = arena.run(factory, "L2", hands=hands, seed=seed, jobs=1)
    a = result.team(0)
    return {"iterations": iterations, "solver": solver, "hands": hands, "seed": seed,
            "boards": result.boards, "hand_share": a.hand_wins.value,
            "low": a.hand_wins.low, "high": a.hand_wins.high,
            "mean_place": a.mean_place.value, "cpu_ms_per_decision": a.ms_per_decision,
            "wall_s": time.perf_counter() - t0}


def plot(path: Path, png: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = json.loads(path.read_text(encoding="utf-8"))
    fig, ax = plt.subplots(figsize=(6.4, 4.2), dpi=120)
    for solver, label in ((True, "L3 (endgame solver on)"), (False, "L3, solver off")):
        pts = sorted((r for r in rows if r["solver"] == solver), key=lambda r: r["cpu_ms_per_decision"])
        if not pts:
            continue
        xs = [r["cpu_ms_per_decision"] for r in pts]
        ys = [100 * r["hand_share"] for r in pts]
        err = [[100 * (r["hand_share"] - r["low"]) for r in pts],
               [100 * (r["high"] - r["hand_share"]) for r in pts]]
        ax.errorbar(xs, ys, yerr=err, marker="o", capsize=3, label=label)
        for r, x, y in zip(pts, xs, ys):
            ax.annotate(f"{r['iterations']} deals", (x, y), textcoords="offset points",
                        xytext=(5, -12), fontsize=7)
    ax.axhline(50, color="grey", lw=0.8, ls="--")
    ax.set_xscale("log")
    ax.set_xlabel("L3 CPU ms per decision (all decisions, forced ones included)")
    ax.set_ylabel("hands won by L3+L3 against L2+L2 (%)")
    ax.set_title("Guandan L3 against L2: hand share by budget (first hands)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(png)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--budgets", default="5,20,80")
    ap.add_argument("--hands", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--solver-off", action="store_true", help="L3 with solver=False")
    ap.add_argument("--out", type=Path, default=Path("guandan_budget_curve.json"))
    ap.add_argument("--plot", type=Path, help="draw the PNG from this JSON file and stop")
    ap.add_argument("--png", type=Path, default=Path("docs/guandan-budget.png"))
    args = ap.parse_args(argv)
    if args.plot:
        plot(args.plot, args.png)
        return 0
    rows = json.loads(args.out.read_text(encoding="utf-8")) if args.out.exists() else []
    for b in (int(x) for x in args.budgets.split(",")):
        row = run_budget(b, args.hands, args.seed, not args.solver_off)
        print(json.dumps(row), flush=True)
        rows.append(row)
        args.out.write_text(json.dumps(rows, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
