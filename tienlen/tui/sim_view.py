"""``tienlen sim``: the arena behind a progress bar, then a results table (and JSON).

The statistics are the arena's (:mod:`tienlen.games.tienlen.arena`); this module only shows them.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Mapping, Sequence
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

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
from rich.console import RenderableType
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

# The engine's results, not a game's arena: the Guandan sim loads no Tiến Lên module, and
# the Tiến Lên sim never loads Guandan.
from tienlen.arena import engine as arena
from .terminal import Terminal

if TYPE_CHECKING:
    from tienlen.games.tienlen.arena import BotSpec
    from tienlen.games.guandan.arena import DuplicateResult
    from tienlen.games.tienlen.rules import Rules

__all__ = ["run_simulation", "results_table", "results_json", "progress_bar", "stats_table",
           "print_table", "print_results", "duplicate_tables", "MIN_BOARDS_FOR_P", "SCHEMA", "EXIT_INTERRUPTED"]

#: The schema name of ``--json`` output.
SCHEMA = "tienlen.sim"
#: The exit status of a run stopped by Ctrl-C: 128 + SIGINT, what a shell reports.
EXIT_INTERRUPTED = 130


def _played_here(task: Task) -> float:
    """Games this run has played: a resumed run's bar starts at the games already on file
    (the task's ``resumed`` field), which took none of this run's time."""
    return task.completed - float(task.fields.get("resumed", 0))


class _RateColumn(ProgressColumn):
    """Games per second over the whole run so far: steadier than a recent-window speed
    when games take uneven time (L3 games vary by seconds). Only the games played in this
    run count: a resumed run's games on file took no time here."""

    def render(self, task: Task) -> Text:
        elapsed, played = task.elapsed, _played_here(task)
        if played <= 0 or not elapsed:
            return Text("- games/s", style="progress.data.speed")
        return Text(f"{played / elapsed:,.1f} games/s", style="progress.data.speed")


class _EtaColumn(ProgressColumn):
    """Time left at this run's average rate so far (``-:--:--`` until its first game ends)."""

    def render(self, task: Task) -> Text:
        elapsed, played = task.elapsed, _played_here(task)
        if task.total is None or played <= 0 or not elapsed:
            return Text("-:--:--", style="progress.remaining")
        left = max(0.0, (task.total - task.completed) * elapsed / played)
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


def stats_table(title: str | None, caption: str | None, headers: Sequence[tuple[str, str]],
                rows: Sequence[Sequence[str]], *, width: int = 80) -> Table:
    """The sims' results table (Tiến Lên's per bot, Guandan's per team): a name column, then
    right-aligned numbers. ``headers`` are (wide, narrow) pairs, the narrow one for below 80
    columns (``width``), where the table also drops its grid lines, so that a number such as
    ``42.5% ± 10.5`` stays on one line down to 60 columns. Nothing in it ever wraps: a name
    such as ``L3(iterations=1000)`` is one word (:func:`print_table` widens a log to fit)."""
    narrow = width < 80
    table = Table(
        title=title,
        title_justify="left",
        caption=caption,
        caption_justify="left",
        box=box.SIMPLE_HEAD if narrow else box.HEAVY_HEAD,
        expand=narrow,  # the full width, so that the title is not wrapped to the columns
        padding=(0, 0) if narrow else (0, 1),
        show_edge=not narrow,
    )
    for i, (wide, short) in enumerate(headers):
        if i == 0:
            table.add_column(short if narrow else wide, style="bold", no_wrap=True)
        else:
            table.add_column(short if narrow else wide, justify="right", no_wrap=True)
    for row in rows:
        table.add_row(*row)
    return table


def print_table(terminal: Terminal, table: Table) -> None:
    """Print a results table. On a terminal it fits the width (the narrow layout below 80
    columns); a log (a pipe or a file) has no width, so there the table gets the columns
    it needs rather than wrapping or cutting a bot's name."""
    console = terminal.console
    if terminal.interactive:
        console.print(table)
        return
    needed = Measurement.get(console, console.options.update_width(10_000), table).maximum
    width = console.width
    console.width = max(width, needed)
    try:
        console.print(table)
    finally:
        console.width = width


def results_table(result: arena.ArenaResult, seconds: float, *, width: int = 80) -> Table:
    """Per bot: games, first-place %, mean place and last-place %, each ± the half-width of
    its 95% confidence interval, and the mean time per decision (:func:`stats_table`)."""
    return stats_table(
        f"{result.games} games ({result.deals} deals × {result.players} seat rotations), "
        f"seed {result.seed}, {seconds:.1f} s",
        "± is the half-width of the 95% confidence interval, over deals.",
        (("bot", "bot"), ("games", "games"), ("1st place", "1st\nplace"),
         ("mean place", "mean\nplace"), ("last place", "last\nplace"),
         ("ms/decision", "ms per\nmove")),
        [(stats.name, str(stats.games), _pct(stats.first_rate), _mean(stats.mean_place),
          _pct(stats.loser_rate), f"{stats.ms_per_decision:.2f}")
         for stats in result.stats()],
        width=width)


#: The fewest boards (independent paired differences) for which ``sim --game guandan`` gives
#: a z and a p-value. The z-test takes the mean difference as normally distributed, which
#: the central limit theorem makes fair from about 30 observations; per-board differences
#: of Guandan results are lumpy (whole levels, whole matches), so on 4-6 boards a p-value
#: such as 0.0027 means nothing.
MIN_BOARDS_FOR_P = 30


def duplicate_tables(result: DuplicateResult, levels: Sequence[str], seconds: float, *,
                     width: int = 80) -> list[RenderableType]:
    """The results of ``sim --game guandan`` as the Tiến Lên sim draws its own
    (:func:`stats_table`), for :func:`print_results`: how the seats were assigned, the table
    per team, then the paired comparisons A - B, whose z and p are left out below
    :data:`MIN_BOARDS_FOR_P` boards (a note says why)."""
    a, b = levels
    match = result.mode == "match"
    heading = Text(f"Guandan duplicate: team A = {a}+{a}, team B = {b}+{b}; each board "
                   f"played twice, A in seats 0 and 2, then 1 and 3.\n{result.title()}, "
                   f"{seconds:.1f} s", style="bold")
    teams = stats_table(
        None, "± is the half-width of the 95% confidence interval, over boards.",
        (("team", "team"), ("match wins", "match\nwins"), ("hand wins", "hand\nwins"),
         ("mean place", "mean\nplace"), ("levels/game", "levels\n/game"),
         ("ms/decision", "ms per\nmove")),
        [(f"{label} {stats.name}", _pct(stats.match_wins) if match else "-",
          _pct(stats.hand_wins), _mean(stats.mean_place), _mean(stats.levels),
          f"{stats.ms_per_decision:.2f}")
         for label, stats in zip(("A", "B"), result.teams())],
        width=width)
    tested = result.boards >= MIN_BOARDS_FOR_P
    statistics = ("match_wins", "places", "hand_wins", "levels") if match else \
        ("places", "hand_wins", "levels")
    rows = []
    for statistic in statistics:
        c = result.compare(statistic)
        p = ("< 1e-300" if c.p_value == 0.0 else f"{c.p_value:.2g}") if tested else "-"
        rows.append((statistic.replace("_", " "), _mean(c.diff),
                     f"{c.z:.2f}" if tested else "-", p))
    comparisons = stats_table(
        f"A - B over {result.boards} boards", None,
        (("statistic", "statistic"), ("A - B", "A - B"), ("z", "z"), ("p", "p")),
        rows, width=width)
    note = Text("Paired by board; a negative places difference means A finishes higher.",
                style="dim")
    if not tested:
        note.append(f" No z or p-value below {MIN_BOARDS_FOR_P} boards (this run has "
                    f"{result.boards}): the z-test needs the mean difference to be close to "
                    f"normal, which takes about {MIN_BOARDS_FOR_P} boards; play more boards "
                    "to test.")
    return [heading, teams, comparisons, note]


def print_results(terminal: Terminal, parts: Sequence[RenderableType]) -> None:
    """Print results: tables by :func:`print_table`, text as lines (unwrapped in a log)."""
    for part in parts:
        if isinstance(part, Table):
            print_table(terminal, part)
        else:
            terminal.print(part, soft_wrap=not terminal.interactive)


def _interval(interval: arena.Interval) -> dict[str, float | None]:
    # JSON has no NaN: an interval that cannot be estimated (one deal) has null bounds.
    def number(x: float) -> float | None:
        return None if math.isnan(x) else x

    return {"value": number(interval.value), "low": number(interval.low),
            "high": number(interval.high)}


def results_json(result: arena.ArenaResult, *, lineup: Sequence[str], rules: Rules | None,
                 jobs: int, seconds: float, iterations: int | None = None,
                 game: str = "tienlen") -> dict[str, Any]:
    """The same results as :func:`results_table`, as a JSON-ready dict. ``iterations`` is
    L3's fixed sample count (``null``: its time budget); ``loser_rate`` is the last-place
    rate (the key predates the wording). ``game`` names the registered game played; a
    game other than Tiến Lên has no ruleset here (``"rules": null``)."""
    return {
        "schema": SCHEMA,
        "version": 1,
        "game": game,
        "lineup": list(lineup),
        "players": result.players,
        "games": result.games,
        "deals": result.deals,
        "seed": result.seed,
        "rules": None if rules is None else rules.name,
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
    rules: Rules | None,
    json_path: Path | None = None,
    labels: Sequence[str] | None = None,
    iterations: int | None = None,
    arena_options: Mapping[str, Any] | None = None,
    game: str = "tienlen",
) -> int:
    """Run the arena with a progress bar, print the table, write ``json_path``; the exit
    status. ``labels`` name the lineup in the bar and the JSON (default: the entries,
    which must then be level names). Ctrl-C prints the completed deals' results and
    returns 130. ``arena_options`` go to :func:`tienlen.games.tienlen.arena.run` as they are (an
    executor, unit size, results streaming: see :func:`tienlen.arena.scale.sim_options`).
    ``game``: another registered game, played by :func:`tienlen.arena.engine.run_table`
    (``lineup`` its bot levels; ``rules`` unused)."""
    labels = list(labels) if labels is not None else [str(entry) for entry in lineup]
    options = dict(arena_options or {})
    # A resumed run starts from the units on file: the bar shows them as done, and its
    # rate and ETA count only the games played from here (_played_here).
    done_units = list(options.get("done", ()))
    if done_units:
        options["done"] = done_units
    resumed = players * sum(unit.stop - unit.start for unit in done_units)
    progress = progress_bar(terminal)
    narrow = terminal.console.width < 80
    task = progress.add_task(("," if narrow else " vs ").join(labels), total=games,
                             completed=resumed, resumed=resumed)

    def advance(done: int, total: int) -> None:
        progress.update(task, completed=done, total=total)

    start = time.perf_counter()
    interrupted: arena.ArenaInterrupted | None = None
    with progress:
        try:
            result: arena.ArenaResult | None
            if rules is not None:            # (a ruleset: Tiến Lên's own arena)
                from tienlen.games.tienlen.arena import run

                result = run(lineup, games, players=players, seed=seed, jobs=jobs,
                             rules=rules, progress=advance, **options)
            else:
                from tienlen.arena.engine import run_table

                result = run_table(game, [str(e) for e in lineup], games, players=players,
                                   seed=seed, jobs=jobs, progress=advance, **options)
        except arena.ArenaInterrupted as stop:
            interrupted, result = stop, stop.result
    seconds = time.perf_counter() - start
    if rules is not None and rules.name != "default":
        terminal.print(Text(f"Rules: {rules.name} (RULES.md R11)" if rules.name == "southern"
                            else f"Rules: {rules.name}", style="dim"))

    if interrupted is not None:
        played = 0 if result is None else result.games
        terminal.print(Text(f"Interrupted: {played} of {games} games played in complete "
                            "deals (every seat rotation); the results below are theirs.",
                            style="bold yellow"), soft_wrap=True)
        if result is not None:
            print_table(terminal, results_table(result, seconds, width=terminal.console.width))
        if json_path is not None:
            terminal.print(Text(f"{json_path} not written: the run did not finish.",
                                style="dim"), soft_wrap=True)
        return EXIT_INTERRUPTED
    assert result is not None
    print_table(terminal, results_table(result, seconds, width=terminal.console.width))
    if json_path is not None:
        record = results_json(result, lineup=labels, rules=rules, jobs=jobs, seconds=seconds,
                              iterations=iterations, game=game)
        try:
            json_path.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
        except OSError as error:
            raise ValueError(f"cannot write {json_path}: {error.strerror or error}") from None
        terminal.print(Text(f"Results written to {json_path}", style="dim"), soft_wrap=True)
    return 0
