"""``tienlen sim``: the arena behind a progress bar, then the results tables (and JSON),
for every game: one screen for seat rotations and team seatings alike.

The run comes checked from the arena (:class:`tienlen.arena.runs.Run`), its statistics are
the arena's (:mod:`tienlen.arena.stats`); this module only plays it (:func:`run_sim`: the
bar, Ctrl-C, the tables, ``--json``) and shows them. It imports no game.
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

from tienlen.arena import stats as arena
from tienlen.arena.engine import ArenaInterrupted
from .terminal import Terminal

if TYPE_CHECKING:
    from tienlen.arena.runs import Run

__all__ = ["run_sim", "run_simulation", "results_table", "results_json", "team_json",
           "progress_bar", "stats_table", "print_table", "print_results", "duplicate_tables",
           "MIN_BOARDS_FOR_P", "SCHEMA", "EXIT_INTERRUPTED"]

#: The schema name of ``--json`` output.
SCHEMA = "tienlen.sim"
#: The exit status of a run stopped by Ctrl-C: 128 + SIGINT, what a shell reports.
EXIT_INTERRUPTED = 130


def _played_here(task: Task) -> float:
    """Games this run has played: a resumed run's bar starts at the games already on file
    (the task's ``resumed`` field), which took none of this run's time."""
    return task.completed - float(task.fields.get("resumed", 0))


class _RateColumn(ProgressColumn):
    """Games (hands, matches: ``noun``) per second over the whole run so far: steadier than
    a recent-window speed when games take uneven time (L3 games vary by seconds). Only the
    games played in this run count: a resumed run's games on file took no time here."""

    def __init__(self, noun: str = "games") -> None:
        super().__init__()
        self.noun = noun

    def render(self, task: Task) -> Text:
        elapsed, played = task.elapsed, _played_here(task)
        if played <= 0 or not elapsed:
            return Text(f"- {self.noun}/s", style="progress.data.speed")
        return Text(f"{played / elapsed:,.1f} {self.noun}/s", style="progress.data.speed")


class _EtaColumn(ProgressColumn):
    """Time left at this run's average rate so far (``-:--:--`` until its first game ends)."""

    def render(self, task: Task) -> Text:
        elapsed, played = task.elapsed, _played_here(task)
        if task.total is None or played <= 0 or not elapsed:
            return Text("-:--:--", style="progress.remaining")
        left = max(0.0, (task.total - task.completed) * elapsed / played)
        return Text(str(timedelta(seconds=round(left))), style="progress.remaining")


def _estimable(interval: arena.Interval) -> bool:
    """Whether the interval says anything: not with one deal (nan bounds), nor when every
    deal gave the same value (zero width: no spread to estimate one from, which is not
    certainty; "100.0% ± 0.0" read as such)."""
    return not math.isnan(interval.low) and interval.high > interval.low


def _pct(interval: arena.Interval) -> str:
    if not _estimable(interval):
        return f"{100 * interval.value:.1f}%"
    half = 100 * (interval.high - interval.low) / 2
    return f"{100 * interval.value:.1f}% ± {half:.1f}"


def _mean(interval: arena.Interval) -> str:
    if not _estimable(interval):
        return f"{interval.value:.2f}"
    return f"{interval.value:.2f} ± {(interval.high - interval.low) / 2:.2f}"


def _caption(deal: str, intervals: Sequence[arena.Interval]) -> str:
    """The tables' caption: what ± is, and why a value has none (``deal``: what the
    independent units are called)."""
    text = f"± is the half-width of the 95% confidence interval, over {deal}s."
    if any(not _estimable(i) for i in intervals):
        text += (f" A value without ± has no interval to show: it comes from a single "
                 f"{deal}, or was the same on every {deal}.")
    return text


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
    every = [i for s in result.stats() for i in (s.first_rate, s.mean_place, s.loser_rate)]
    return stats_table(
        f"{result.games} games ({result.deals} deals × {result.players} seat rotations), "
        f"seed {result.seed}, {seconds:.1f} s",
        _caption("deal", every),
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


def duplicate_tables(result: arena.DuplicateResult, levels: Sequence[str] | None = None,
                     seconds: float = 0.0, *, width: int = 80,
                     title: str | None = None) -> list[RenderableType]:
    """The results of a team run (``sim --game guandan``) as :func:`stats_table` draws
    them, for :func:`print_results`: how the seats were assigned, the table per team (match
    wins only when boards are matches), then the paired comparisons A - B, whose z and p
    are left out below :data:`MIN_BOARDS_FOR_P` boards (a note says why). ``title`` names
    the game; ``levels`` is unused (the teams are named in the result)."""
    a, b = result.names
    match = result.mode == "match"
    heading = Text(f"{title + ' duplicate' if title else 'Duplicate'}: team A = {a}, team B = "
                   f"{b}; each board played twice, A in seats 0 and 2, then 1 and 3.\n"
                   f"{result.title()}, {seconds:.1f} s", style="bold")
    teams = result.teams()
    every = [i for s in teams for i in ((s.match_wins,) if match else ()) +
             (s.hand_wins, s.mean_place, s.levels)]
    headers = (("team", "team"),) + ((("match wins", "match\nwins"),) if match else ()) + (
        ("hand wins", "hand\nwins"), ("mean place", "mean\nplace"),
        ("levels/game", "levels\n/game"), ("ms/decision", "ms per\nmove"))
    table = stats_table(
        None, _caption("board", every), headers,
        [(f"{label} {stats.name}",) + ((_pct(stats.match_wins),) if match else ()) +
         (_pct(stats.hand_wins), _mean(stats.mean_place), _mean(stats.levels),
          f"{stats.ms_per_decision:.2f}")
         for label, stats in zip(("A", "B"), teams)],
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
    return [heading, table, comparisons, note]


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


def results_json(result: arena.ArenaResult, *, lineup: Sequence[str], rules: Any,
                 jobs: int, seconds: float, iterations: int | None = None,
                 game: str | None = None) -> dict[str, Any]:
    """The same results as :func:`results_table`, as a JSON-ready dict. ``iterations`` is
    L3's fixed sample count (``null``: its time budget); ``loser_rate`` is the last-place
    rate (the key predates the wording). ``game`` names the registered game played (the
    first game when None); ``rules`` are its rules, recorded by name (``"rules": null`` for
    a game without)."""
    if game is None:
        from tienlen.table.registry import DEFAULT_GAME

        game = DEFAULT_GAME
    return {
        "schema": SCHEMA,
        "version": 1,
        "game": game,
        "lineup": list(lineup),
        "players": result.players,
        "games": result.games,
        "deals": result.deals,
        "seed": result.seed,
        "rules": None if rules is None else getattr(rules, "name", None),
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


def progress_bar(terminal: Terminal, noun: str = "games") -> Progress:
    """The bar of a simulation: games done, games per second, elapsed time and ETA; no
    bar at all when the terminal is not interactive (a log). Below 80 columns the bar is
    shorter and the elapsed time left out, so that the line fits 60 columns (the caller
    writes its description compactly too)."""
    narrow = terminal.console.width < 80
    columns: list[ProgressColumn | str] = [
        TextColumn("[bold]{task.description}"),
        BarColumn(bar_width=10 if narrow else None if terminal.console.width >= 100 else 16),
        MofNCompleteColumn(),
        _RateColumn(noun),
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


def team_json(result: arena.DuplicateResult, *, game: str, lineup: Sequence[str], jobs: int,
              seconds: float, iterations: int | None = None) -> dict[str, Any]:
    """A team run's results as a JSON-ready dict (``schema`` ``tienlen.guandan.sim``, as
    since issue 17): the result's own, and the run's game, lineup (as asked), jobs, L3's
    iterations and seconds."""
    return {**result.to_json(), "game": game, "lineup": list(lineup), "jobs": jobs,
            "iterations": iterations, "seconds": seconds}


#: What a seating's deals are called when a run is interrupted.
_COMPLETE = {"rotations": "deals (every seat rotation)", "teams": "boards (both seatings)"}


def run_sim(terminal: Terminal, run: Run, *, jobs: int, json_path: Path | None = None,
            iterations: int | None = None, options: Mapping[str, Any] | None = None,
            out: Path | str | None = None) -> int:
    """Play ``run`` (any game, either seating) with a progress bar, print its tables,
    write ``json_path``; the exit status. Ctrl-C prints the completed deals' results and
    returns 130. ``options`` go to :meth:`~tienlen.arena.runs.Run.play` as they are (an
    executor, a unit size, the units on file and the file's writer:
    :func:`tienlen.arena.scale.options_for`); ``out`` is the file they write."""
    options = dict(options or {})
    # A resumed run starts from the units on file: the bar shows them as done, and its
    # rate and ETA count only the games played from here (_played_here).
    done_units = list(options.get("done", ()))
    if done_units:
        options["done"] = done_units
    resumed = sum(unit.games for unit in done_units)
    progress = progress_bar(terminal, run.noun)
    narrow = terminal.console.width < 80
    shown = run.labels if run.seating == "rotations" else run.names
    task = progress.add_task(("," if narrow else " vs ").join(shown), total=run.games,
                             completed=resumed, resumed=resumed)

    def advance(done: int, total: int) -> None:
        progress.update(task, completed=done, total=total)

    start = time.perf_counter()
    interrupted = False
    result: arena.ArenaResult | arena.DuplicateResult | None
    with progress:
        try:
            result = run.play(jobs=jobs, progress=advance, **options)
        except ArenaInterrupted as stop:
            interrupted, result = True, stop.result
    seconds = time.perf_counter() - start
    if run.note is not None:
        terminal.print(Text(run.note, style="dim"))
    if interrupted:
        played = 0 if result is None else result.games
        terminal.print(Text(f"Interrupted: {played} of {run.games} {run.noun} played in "
                            f"complete {_COMPLETE[run.seating]}; the results below are "
                            "theirs.", style="bold yellow"), soft_wrap=True)
    if result is not None:
        _print_result(terminal, run, result, seconds)
    if interrupted:
        # (how much of the file is written, and how to resume: the file's setup says so)
        if json_path is not None:
            terminal.print(Text(f"{json_path} not written: the run did not finish.",
                                style="dim"), soft_wrap=True)
        return EXIT_INTERRUPTED
    assert result is not None
    if out is not None:
        terminal.print(Text(f"Games written to {Path(out)}", style="dim"), soft_wrap=True)
    if json_path is not None:
        if isinstance(result, arena.ArenaResult):
            record = results_json(result, lineup=run.labels, rules=run.work.rules, jobs=jobs,
                                  seconds=seconds, iterations=iterations, game=run.game)
        else:
            record = team_json(result, game=run.game, lineup=run.labels, jobs=jobs,
                               seconds=seconds, iterations=iterations)
        try:
            json_path.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
        except OSError as error:
            raise ValueError(f"cannot write {json_path}: {error.strerror or error}") from None
        terminal.print(Text(f"Results written to {json_path}", style="dim"), soft_wrap=True)
    return 0


def _print_result(terminal: Terminal, run: Run,
                  result: arena.ArenaResult | arena.DuplicateResult, seconds: float) -> None:
    width = terminal.console.width
    if isinstance(result, arena.ArenaResult):
        print_table(terminal, results_table(result, seconds, width=width))
    else:
        print_results(terminal, duplicate_tables(result, run.labels, seconds, width=width,
                                                 title=run.title))


def run_simulation(
    terminal: Terminal,
    lineup: Sequence[Any],
    *,
    games: int,
    players: int,
    seed: int,
    jobs: int,
    rules: Any,
    json_path: Path | None = None,
    labels: Sequence[str] | None = None,
    iterations: int | None = None,
    arena_options: Mapping[str, Any] | None = None,
    game: str | None = None,
) -> int:
    """:func:`run_sim` of the run of ``game`` (the first game when None) between
    ``lineup`` (checked by :func:`tienlen.arena.plan`); ``arena_options`` as ``options``.
    ``labels`` name the lineup in the bar and the JSON (default: the entries, which must
    then be level names)."""
    from tienlen.arena.runs import plan
    from tienlen.table.registry import DEFAULT_GAME

    run = plan(DEFAULT_GAME if game is None else game, lineup, games, players=players,
               seed=seed, rules=rules, labels=labels)
    return run_sim(terminal, run, jobs=jobs, json_path=json_path, iterations=iterations,
                   options=arena_options)
