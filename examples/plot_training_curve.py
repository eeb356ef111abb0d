"""Draw a ``tienlen train`` run's curve (its ``OUT/curve.csv``) as a PNG, and keep a copy of
the CSV beside it: the share of first hands the greedy network won as a team against native
random and greedy (the core's playout policy closest to L1) teams at each evaluation, and,
for an ``--imitate`` run, how often its best action was the teacher's in the learner's
batches.

    python examples/plot_training_curve.py runs/bc/curve.csv --png docs/guandan_bc_curve.png

needs matplotlib (not a dependency of tienlen)."""

from __future__ import annotations

import argparse
import csv
import shutil
from pathlib import Path


def plot(csv_path: str, png: str, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    with open(csv_path, newline="") as fh:
        rows = [r for r in csv.DictReader(fh) if r.get("vs_random")]
    if not rows:
        raise SystemExit(f"{csv_path}: no evaluated rows to draw")
    minutes = [float(r["seconds"]) / 60 for r in rows]
    fig, ax = plt.subplots(figsize=(7, 4), dpi=110)
    ax.plot(minutes, [100 * float(r["vs_random"]) for r in rows], marker="o",
            label="first hands won vs random team")
    ax.plot(minutes, [100 * float(r["vs_greedy"]) for r in rows], marker="s",
            label="first hands won vs native greedy (≈ L1) team")
    if any(r.get("agree") for r in rows):
        ax.plot(minutes, [100 * float(r["agree"]) if r.get("agree") else float("nan")
                          for r in rows], marker="^", linestyle="--",
                label="best action = teacher's (training batches)")
    ax.axhline(50, color="grey", linewidth=0.8)
    ax.set_xlabel("minutes of training (wall clock)")
    ax.set_ylabel("%")
    ax.set_ylim(0, 100)
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend(loc="lower right", fontsize=8)
    fig.tight_layout()
    fig.savefig(png)
    print(f"wrote {png}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("csv", help="a run's curve.csv")
    p.add_argument("--png", required=True, help="the PNG to write (the CSV is copied beside it)")
    p.add_argument("--title", default="tienlen train --game guandan --teacher L2 --imitate")
    args = p.parse_args()
    plot(args.csv, args.png, args.title)
    copy = Path(args.png).with_suffix(".csv")
    if Path(args.csv).resolve() != copy.resolve():
        shutil.copyfile(args.csv, copy)
        print(f"wrote {copy}")


if __name__ == "__main__":
    main()
