"""``tienlen sim``: the arena behind a progress bar, then a results table (and JSON).

The statistics are the arena's (:mod:`tienlen.arena`); this module only shows them.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Executor, Future
from pathlib import Path
from typing import Any

from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from .. import arena
from ..rules import Rules
from .terminal import Terminal

__all__ = ["run_simulation", "results_table", "results_json", "SCHEMA"]

#: The schema name of ``--json`` output.
SCHEMA = "tienlen.sim"


class _OnDemandFuture(Future):
    """A future that runs its call in the thread that first asks for the result."""

    def __init__(self, call: Callable[[], Any]) -> None:
        super().__init__()
        self._call: Callable[[], Any] | None = call

    def result(self, timeout: float | None = None) -> Any:
        call, self._call = self._call, None
        if call is not None:
            try:
                self.set_result(call())
            except Exception as error:  # KeyboardInterrupt is not caught: it stops all
                self.set_exception(error)
        return super().result(timeout)


class _OnDemandExecutor(Executor):
    """Runs nothing ahead: each submitted call runs when its result is needed."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future:
        return _OnDemandFuture(lambda: fn(*args, **kwargs))


class _RateColumn(ProgressColumn):
    """Games per second, from rich's own speed estimate."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        if speed is None:
            return Text("- games/s", style="progress.data.speed")
        return Text(f"{speed:,.1f} games/s", style="progress.data.speed")


def _pct(interval: arena.Interval) -> str:
    if math.isnan(interval.low):
        return f"{100 * interval.value:.1f}%"
    half = 100 * (interval.high - interval.low) / 2
    return f"{100 * interval.value:.1f}% ± {half:.1f}"


def _mean(interval: arena.Interval) -> str:
    if math.isnan(interval.low):
        return f"{interval.value:.2f}"
    return f"{interval.value:.2f} ± {(interval.high - interval.low) / 2:.2f}"


def results_table(result: arena.ArenaResult, seconds: float) -> Table:
    """Per bot: games, first-place %, mean place and loser %, each ± the half-width of
    its 95% confidence interval, and the mean time per decision."""
    table = Table(
        title=f"{result.games} games ({result.deals} deals × {result.players} seat "
              f"rotations), seed {result.seed}, {seconds:.1f} s",
        title_justify="left",
        caption="± is the half-width of the 95% confidence interval, over deals.",
        caption_justify="left",
    )
    table.add_column("bot", style="bold")
    table.add_column("games", justify="right")
    table.add_column("1st place", justify="right")
    table.add_column("mean place", justify="right")
    table.add_column("loser", justify="right")
    table.add_column("ms/decision", justify="right")
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
                 jobs: int, seconds: float) -> dict[str, Any]:
    """The same results as :func:`results_table`, as a JSON-ready dict."""
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


def run_simulation(
    terminal: Terminal,
    lineup: Sequence[str],
    *,
    games: int,
    players: int,
    seed: int,
    jobs: int,
    rules: Rules,
    json_path: Path | None = None,
    arena_options: Mapping[str, Any] | None = None,
) -> int:
    """Run the arena with a progress bar, print the table, write ``json_path``; the exit
    status. ``arena_options`` go to :func:`tienlen.arena.run` as they are (an executor,
    unit size, results streaming: see :func:`tienlen.scale.sim_options`)."""
    progress = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        _RateColumn(),
        TextColumn("elapsed"),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=terminal.console,
        transient=not terminal.interactive,
        # A log gets no bar at all rather than one frame of it.
        disable=not terminal.interactive,
    )
    task = progress.add_task(" vs ".join(lineup), total=games)

    def advance(done: int, total: int) -> None:
        progress.update(task, completed=done, total=total)

    start = time.perf_counter()
    options = dict(arena_options or {})
    with progress:
        if "executor" in options:
            result = arena.run(lineup, games, players=players, seed=seed, jobs=jobs,
                               rules=rules, progress=advance, **options)
        elif jobs == 1:
            # The arena reports progress per chunk of deals, and it makes chunks only when
            # it is given an executor. This one plays each chunk in this thread when its
            # result is asked for: the bar moves between chunks, and Ctrl-C stops at once.
            # The results do not depend on who plays the chunks.
            result = arena.run(lineup, games, players=players, seed=seed, jobs=1,
                               rules=rules, executor=_OnDemandExecutor(), progress=advance,
                               **options)
        else:
            result = arena.run(lineup, games, players=players, seed=seed, jobs=jobs,
                               rules=rules, progress=advance, **options)
    seconds = time.perf_counter() - start

    terminal.print(results_table(result, seconds))
    if json_path is not None:
        record = results_json(result, lineup=lineup, rules=rules, jobs=jobs, seconds=seconds)
        try:
            json_path.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
        except OSError as error:
            raise ValueError(f"cannot write {json_path}: {error.strerror or error}") from None
        terminal.print(Text(f"Results written to {json_path}", style="dim"))
    return 0
