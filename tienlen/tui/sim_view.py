"""``tienlen sim``: the arena behind a progress bar, then a results table (and JSON).

The statistics are the arena's (:mod:`tienlen.arena`); this module only shows them.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Mapping, Sequence
from datetime import timedelta
from pathlib import Path
from typing import Any

from rich import box
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
)
from rich.table import Table
from rich.text import Text

from .. import arena
from ..arena import BotSpec
from ..rules import Rules
from .terminal import Terminal

__all__ = ["run_simulation", "results_table", "results_json", "progress_bar", "SCHEMA",
           "EXIT_INTERRUPTED"]

#: The schema name of ``--json`` output.
SCHEMA = "tienlen.sim"
#: The exit status of a run stopped by Ctrl-C: 128 + SIGINT, what a shell reports.
EXIT_INTERRUPTED = 130


class _RateColumn(ProgressColumn):
    """Games per second over the whole run so far: steadier than a recent-window speed
    when games take uneven time (L3 games vary by seconds)."""

    def render(self, task: Task) -> Text:
        elapsed = task.elapsed
        if not task.completed or not elapsed:
            return Text("- games/s", style="progress.data.speed")
        return Text(f"{task.completed / elapsed:,.1f} games/s", style="progress.data.speed")


class _EtaColumn(ProgressColumn):
    """Time left at the average rate so far (``-:--:--`` until the first game ends)."""

    def render(self, task: Task) -> Text:
        elapsed = task.elapsed
        if task.total is None or not task.completed or not elapsed:
            return Text("-:--:--", style="progress.remaining")
        left = max(0.0, (task.total - task.completed) * elapsed / task.completed)
        return Text(str(timedelta(seconds=round(left))), style="progress.remaining")


def _pct(interval: arena.Interval) -> str:
    if math.isnan(interval.low):
        return f"{100 * interval.value:.1f}%"
    half = 100 * (interval.high - interval.low) / 2
    return f"{100 * interval.value:.1f}% ± {half:.1f}"


def _mean(interval: arena.Interval) -> str:
    if math.isnan(interval.low):
        return f"{interval.value:.2f}"
    return f"{interval.value:.2f} ± {(interval.high - interval.low) / 2:.2f}"


def results_table(result: arena.ArenaResult, seconds: float, *, width: int = 80) -> Table:
    """Per bot: games, first-place %, mean place and last-place %, each ± the half-width of
    its 95% confidence interval, and the mean time per decision.

    Below 80 columns (``width``) the table drops its grid lines and shortens a header, so
    that a number such as ``42.5% ± 10.5`` stays on one line down to 60 columns."""
    narrow = width < 80
    table = Table(
        title=f"{result.games} games ({result.deals} deals × {result.players} seat "
              f"rotations), seed {result.seed}, {seconds:.1f} s",
        title_justify="left",
        caption="± is the half-width of the 95% confidence interval, over deals.",
        caption_justify="left",
        box=box.SIMPLE_HEAD if narrow else box.HEAVY_HEAD,
        expand=narrow,  # the full width, so that the title is not wrapped to the columns
        padding=(0, 0) if narrow else (0, 1),
        show_edge=not narrow,
    )
    # Narrow headers go over two lines; the numbers never wrap.
    sep = "\n" if narrow else " "
    table.add_column("bot", style="bold", overflow="fold")
    table.add_column("games", justify="right", no_wrap=True)
    table.add_column(f"1st{sep}place", justify="right", no_wrap=True)
    table.add_column(f"mean{sep}place", justify="right", no_wrap=True)
    table.add_column(f"last{sep}place", justify="right", no_wrap=True)
    table.add_column("ms per\nmove" if narrow else "ms/decision", justify="right",
                     no_wrap=True)
    for stats in result.stats():
        table.add_row(stats.name, str(stats.games), _pct(stats.first_rate),
                      _mean(stats.mean_place), _pct(stats.loser_rate),
                      f"{stats.ms_per_decision:.2f}")
    return table


def _interval(interval: arena.Interval) -> dict[str, float | None]:
    # JSON has no NaN: an interval that cannot be estimated (one deal) has null bounds.
    def number(x: float) -> float | None:
        return None if math.isnan(x) else x

    return {"value": number(interval.value), "low": number(interval.low),
            "high": number(interval.high)}


def results_json(result: arena.ArenaResult, *, lineup: Sequence[str], rules: Rules,
                 jobs: int, seconds: float, iterations: int | None = None) -> dict[str, Any]:
    """The same results as :func:`results_table`, as a JSON-ready dict. ``iterations`` is
    L3's fixed sample count (``null``: its time budget); ``loser_rate`` is the last-place
    rate (the key predates the wording)."""
    return {
        "schema": SCHEMA,
        "version": 1,
        "lineup": list(lineup),
        "players": result.players,
        "games": result.games,
        "deals": result.deals,
        "seed": result.seed,
        "rules": rules.name,
        "jobs": jobs,
        "iterations": iterations,
        "seconds": seconds,
        "confidence": 0.95,
        "bots": [
            {
                "name": stats.name,
                "games": stats.games,
                "first_rate": _interval(stats.first_rate),
                "mean_place": _interval(stats.mean_place),
                "loser_rate": _interval(stats.loser_rate),
                "ms_per_decision": stats.ms_per_decision,
                "decisions": stats.decisions,
            }
            for stats in result.stats()
        ],
    }


def progress_bar(terminal: Terminal) -> Progress:
    """The bar of a simulation: games done, games per second, elapsed time and ETA; no
    bar at all when the terminal is not interactive (a log). Below 80 columns the bar is
    shorter and the elapsed time left out, so that the line fits 60 columns (the caller
    writes its description compactly too)."""
    narrow = terminal.console.width < 80
    columns: list[ProgressColumn | str] = [
        TextColumn("[bold]{task.description}"),
        BarColumn(bar_width=10 if narrow else None if terminal.console.width >= 100 else 16),
        MofNCompleteColumn(),
        _RateColumn(),
    ]
    if not narrow:
        columns += [TextColumn("elapsed"), TimeElapsedColumn()]
    columns += [TextColumn("ETA"), _EtaColumn()]
    return Progress(
        *columns,
        console=terminal.console,
        transient=not terminal.interactive,
        # A log gets no bar at all rather than one frame of it.
        disable=not terminal.interactive,
    )


def run_simulation(
    terminal: Terminal,
    lineup: Sequence[BotSpec],
    *,
    games: int,
    players: int,
    seed: int,
    jobs: int,
    rules: Rules,
    json_path: Path | None = None,
    labels: Sequence[str] | None = None,
    iterations: int | None = None,
    arena_options: Mapping[str, Any] | None = None,
) -> int:
    """Run the arena with a progress bar, print the table, write ``json_path``; the exit
    status. ``labels`` name the lineup in the bar and the JSON (default: the entries,
    which must then be level names). Ctrl-C prints the completed deals' results and
    returns 130. ``arena_options`` go to :func:`tienlen.arena.run` as they are (an
    executor, unit size, results streaming: see :func:`tienlen.scale.sim_options`)."""
    labels = list(labels) if labels is not None else [str(entry) for entry in lineup]
    progress = progress_bar(terminal)
    narrow = terminal.console.width < 80
    task = progress.add_task(("," if narrow else " vs ").join(labels), total=games)

    def advance(done: int, total: int) -> None:
        progress.update(task, completed=done, total=total)

    start = time.perf_counter()
    interrupted: arena.ArenaInterrupted | None = None
    with progress:
        try:
            result: arena.ArenaResult | None = arena.run(
                lineup, games, players=players, seed=seed, jobs=jobs, rules=rules,
                progress=advance, **dict(arena_options or {}))
        except arena.ArenaInterrupted as stop:
            interrupted, result = stop, stop.result
    seconds = time.perf_counter() - start
    if rules != Rules():
        terminal.print(Text(f"Rules: {rules.name} (RULES.md R11)" if rules.name == "southern"
                            else f"Rules: {rules.name}", style="dim"))

    if interrupted is not None:
        played = 0 if result is None else result.games
        terminal.print(Text(f"Interrupted: {played} of {games} games played in complete "
                            "deals (every seat rotation); the results below are theirs.",
                            style="bold yellow"))
        if result is not None:
            terminal.print(results_table(result, seconds, width=terminal.console.width))
        if json_path is not None:
            terminal.print(Text(f"{json_path} not written: the run did not finish.",
                                style="dim"))
        return EXIT_INTERRUPTED
    assert result is not None
    terminal.print(results_table(result, seconds, width=terminal.console.width))
    if json_path is not None:
        record = results_json(result, lineup=labels, rules=rules, jobs=jobs, seconds=seconds,
                              iterations=iterations)
        try:
            json_path.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
        except OSError as error:
            raise ValueError(f"cannot write {json_path}: {error.strerror or error}") from None
        terminal.print(Text(f"Results written to {json_path}", style="dim"))
    return 0
