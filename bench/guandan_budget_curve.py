"""Guandan L3's hand share against L2 as its budget per decision grows, and the plot of it
(docs/strength.md, issue 29).

For each budget, a duplicate first-hands run of L3+L3 against L2+L2 in the arena
(``tienlen.arena.simulate("guandan", ...)``; each board in both seatings): L3's share of hands won
(first out) with its 95% interval over boards, and its milliseconds per decision (wall
clock, over all of its decisions, forced ones included; one core per job), the x axis. A
budget is either ``iterations`` (``--budgets``: sampled deals a decision, deterministic, so
every such point is an exact rerun) or ``time_ms`` (``--times``: L3's own clock, as L3 plays
by default, 85 ms; such a point depends on the machine and its load). Results are appended
to a JSON file as each budget finishes; ``--plot`` draws the PNG from that file (matplotlib:
the ``bench`` extra, not a runtime dependency).

    python bench/guandan_budget_curve.py --budgets 5,20,80 --hands 400 --jobs 2 --out curve.json
    python bench/guandan_budget_curve.py --times 85 --hands 200 --jobs 2 --out curve.json
    python bench/guandan_budget_curve.py --plot curve.json --png docs/guandan-budget.png
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
import time
from pathlib import Path

from tienlen.arena import simulate
from tienlen.games.guandan.bots import make_bot


def run_budget(hands: int, seed: int, solver: bool, jobs: int, *, iterations: int | None = None,
               time_ms: float | None = None) -> dict[str, object]:
    factory = functools.partial(make_bot, "L3", iterations=iterations, time_ms=time_ms,
                                solver=solver)
    t0 = time.perf_counter()
    result = simulate("guandan", [factory, "L2"], hands, mode="hand", seed=seed, jobs=jobs)
    a = result.team(0)
    return {"iterations": iterations, "time_ms": time_ms, "solver": solver, "hands": hands,
            "seed": seed, "jobs": jobs, "boards": result.boards,
            "hand_share": a.hand_wins.value, "low": a.hand_wins.low, "high": a.hand_wins.high,
            "mean_place": a.mean_place.value, "ms_per_decision": a.ms_per_decision,
            "wall_s": time.perf_counter() - t0}


def _ms(row: dict[str, object]) -> float:
    """Milliseconds a decision (files written before the time budgets said CPU ms)."""
    return float(row.get("ms_per_decision", row.get("cpu_ms_per_decision")))  # type: ignore[arg-type]


def _label(row: dict[str, object]) -> str:
    if row.get("time_ms") is not None:
        return f"{row['time_ms']:g} ms budget"
    return f"{row['iterations']} deals"


def plot(path: Path, png: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.ticker
    import matplotlib.pyplot as plt

    rows = json.loads(path.read_text(encoding="utf-8"))
    fig, ax = plt.subplots(figsize=(6.4, 4.2), dpi=120)
    for solver, label in ((True, "L3 (endgame solver on)"), (False, "L3, solver off")):
        pts = sorted((r for r in rows if r["solver"] == solver), key=_ms)
        if not pts:
            continue
        xs = [_ms(r) for r in pts]
        ys = [100 * r["hand_share"] for r in pts]
        err = [[100 * (r["hand_share"] - r["low"]) for r in pts],
               [100 * (r["high"] - r["hand_share"]) for r in pts]]
        ax.errorbar(xs, ys, yerr=err, marker="o", capsize=3, label=label)
        for r, x, y in zip(pts, xs, ys):
            ax.annotate(_label(r), (x, y), textcoords="offset points",
                        xytext=(5, -12), fontsize=7)
    ax.axhline(50, color="grey", lw=0.8, ls="--")
    ax.set_xscale("log")
    ticks = [t for t in (1, 2, 3, 5, 10, 20, 40, 60, 100, 200) if
             min(map(_ms, rows)) / 1.5 <= t <= max(map(_ms, rows)) * 1.5]
    ax.set_xticks(ticks, [f"{t:g}" for t in ticks])
    ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    ax.set_xlabel("L3 ms per decision (all decisions, forced ones included; one core each)")
    ax.set_ylabel("hands won by L3+L3 against L2+L2 (%)")
    ax.set_title("Guandan L3 against L2: hand share by budget (first hands)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(png)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--budgets", default="", help="iterations budgets, comma-separated")
    ap.add_argument("--times", default="", help="time_ms budgets, comma-separated")
    ap.add_argument("--hands", type=int, default=400)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--solver-off", action="store_true", help="L3 with solver=False")
    ap.add_argument("--out", type=Path, default=Path("guandan_budget_curve.json"))
    ap.add_argument("--plot", type=Path, help="draw the PNG from this JSON file and stop")
    ap.add_argument("--png", type=Path, default=Path("docs/guandan-budget.png"))
    args = ap.parse_args(argv)
    if args.plot:
        plot(args.plot, args.png)
        return 0
    rows = json.loads(args.out.read_text(encoding="utf-8")) if args.out.exists() else []
    budgets: list[dict[str, float]] = [{"iterations": int(x)} for x in filter(None, args.budgets.split(","))]
    budgets += [{"time_ms": float(x)} for x in filter(None, args.times.split(","))]
    for budget in budgets:
        row = run_budget(args.hands, args.seed, not args.solver_off, args.jobs, **budget)  # type: ignore[arg-type]
        print(json.dumps(row), flush=True)
        rows.append(row)
        args.out.write_text(json.dumps(rows, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
