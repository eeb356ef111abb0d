"""``tienlen sim``: the arena behind a progress bar, a results table, and the same results
as JSON."""

from __future__ import annotations

import json
import math
import re
import sys
import time
from pathlib import Path

import pexpect
import pytest

from tienlen.arena import simulate
from tienlen.cli import main
from test_cli_play import child_env, strip


def sim(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["sim", *args])
    out, err = capsys.readouterr()
    return status, out, err


def row(out: str, bot: str) -> list[str]:
    """The cells of ``bot``'s row in the results table."""
    line = next(line for line in out.splitlines() if re.match(rf"│ {re.escape(bot)}\s+│", line))
    return [cell.strip() for cell in line.strip("│").split("│")]


def test_sim_prints_a_table_and_writes_the_same_results_as_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "results.json"
    status, out, err = sim(capsys, "--bots", "L1,random", "--games", "40", "--seed", "3",
                           "--json", str(path))
    assert (status, err) == (0, "")
    assert "40 games (20 deals × 2 seat rotations), seed 3" in out
    header = next(line for line in out.splitlines() if "1st place" in line)
    for column in ("bot", "games", "1st place", "mean place", "last place", "ms/decision"):
        assert column in header
    assert "95% confidence interval" in out

    expected = simulate("tienlen", ["L1", "random"], 40, seed=3)
    record = json.loads(path.read_text(encoding="utf-8"))
    assert record["schema"] == "tienlen.sim" and record["version"] == 1
    assert (record["games"], record["deals"], record["players"], record["seed"]) == (40, 20, 2, 3)
    assert record["lineup"] == ["L1", "random"] and record["rules"] == "default"
    for stats, entry in zip(expected.stats(), record["bots"], strict=True):
        assert entry["name"] == stats.name and entry["games"] == 40
        for key in ("first_rate", "mean_place", "loser_rate"):
            interval = getattr(stats, key)
            assert entry[key] == pytest.approx(
                {"value": interval.value, "low": interval.low, "high": interval.high})
        assert entry["decisions"] == stats.decisions and entry["ms_per_decision"] > 0

        cells = row(out, stats.name)
        first, place, loser = stats.first_rate, stats.mean_place, stats.loser_rate
        assert cells[1] == "40"
        assert cells[2] == f"{100 * first.value:.1f}% ± {50 * (first.high - first.low):.1f}"
        assert cells[3] == f"{place.value:.2f} ± {(place.high - place.low) / 2:.2f}"
        assert cells[4] == f"{100 * loser.value:.1f}% ± {50 * (loser.high - loser.low):.1f}"
        assert float(cells[5]) >= 0
    # With two players, the first out is never the loser: the rates add up per bot.
    l1 = record["bots"][0]
    assert l1["first_rate"]["value"] + l1["loser_rate"]["value"] == pytest.approx(1.0)


def test_sim_with_two_jobs_gives_the_same_results(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    one, two = tmp_path / "one.json", tmp_path / "two.json"
    args = ["--bots", "L1", "--players", "3", "--games", "12", "--seed", "8"]
    assert sim(capsys, *args, "--json", str(one))[0] == 0
    assert sim(capsys, *args, "--jobs", "2", "--json", str(two))[0] == 0
    a, b = (json.loads(p.read_text(encoding="utf-8")) for p in (one, two))
    assert [bot["name"] for bot in a["bots"]] == ["L1", "L1 #2", "L1 #3"]
    for x, y in zip(a["bots"], b["bots"]):
        assert x["first_rate"] == y["first_rate"] and x["mean_place"] == y["mean_place"]
        assert x["decisions"] == y["decisions"]
    assert b["jobs"] == 2


def test_sim_one_deal_has_no_interval(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "one.json"
    status, out, _ = sim(capsys, "--bots", "L1,L1", "--games", "2", "--json", str(path))
    assert status == 0
    entry = json.loads(path.read_text(encoding="utf-8"))["bots"][0]
    assert entry["first_rate"]["low"] is None and entry["first_rate"]["high"] is None
    assert math.isfinite(entry["first_rate"]["value"])
    assert "±" not in row(out, "L1")[2]


def test_sim_shows_a_progress_bar_with_rate_and_eta_in_a_terminal() -> None:
    child = pexpect.spawn(
        sys.executable, ["-m", "tienlen", "sim", "--bots", "L2,L1,L1,random", "--games", "80"],
        env=child_env(), dimensions=(30, 140), encoding="utf-8", timeout=60)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    screen = strip(child.before)
    assert re.search(r"L2 vs L1 vs L1 vs random .* 80/80 +[\d,.]+ games/s", screen), screen
    assert "ETA" in screen and "elapsed" in screen
    assert "80 games (20 deals × 4 seat rotations)" in screen


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bots", "L1,L2", "--players", "3"], "--bots names 2 levels but --players is 3"),
        (["--games", "10"], "games must be a positive multiple of players (4)"),
        (["--bots", "L7"], "unknown bot level 'L7'"),
        (["--jobs", "0", "--bots", "L1", "--games", "4"], "jobs must be a positive int"),
    ],
)
def test_sim_bad_requests_are_one_line_errors(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, err = sim(capsys, *args)
    assert status == 2 and out == ""
    assert err.startswith("tienlen: error: ") and message in err


def test_sim_refuses_an_unwritable_json_path_before_playing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 11 #1 / issue 10 #9: the path is checked before the simulation, not after it.
    def no_run(*args: object, **kwargs: object) -> None:
        raise AssertionError("the simulation ran before the output path was checked")

    from tienlen.arena.runs import Run

    monkeypatch.setattr(Run, "play", no_run)
    for path, why in [(tmp_path / "missing" / "x.json", "does not exist"),
                      (tmp_path, "is a directory")]:
        status, out, err = sim(capsys, "--bots", "L1", "--games", "4", "--json", str(path))
        assert status == 2 and out == "", err
        assert err.startswith(f"tienlen: error: --json {path}: ") and why in err


def test_sim_refuses_absurd_game_counts_with_a_clear_error(
    capsys: pytest.CaptureFixture[str]
) -> None:
    # Issue 10 #9: a trillion games was a MemoryError traceback.
    status, out, err = sim(capsys, "--bots", "L1", "--games", "1000000000000")
    assert status == 2 and out == ""
    assert "games must be at most 10,000,000 per run" in err and "Traceback" not in err


@pytest.mark.parametrize(("players", "games"), [(2, 100), (3, 99), (4, 100)])
def test_sim_default_games_fit_the_seat_rotations(
    players: int, games: int, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 11 #7: `sim --players 3` failed with its own default of 100 games.
    from tienlen.arena import runs

    asked = {}
    real_plan = runs.plan

    def plan(game, lineup, games, **kwargs):  # type: ignore[no-untyped-def]
        asked["games"] = games
        players = kwargs["players"]
        return real_plan(game, lineup, players, **kwargs)      # one deal is enough here

    monkeypatch.setattr(runs, "plan", plan)
    status, _, err = sim(capsys, "--bots", "L1", "--players", str(players))
    assert status == 0, err
    assert asked["games"] == games and games % players == 0


def test_sim_iterations_make_l3_runs_reproducible(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Issue 11 #4: the same seed and --iterations give the same results, run after run.
    outputs = []
    for name in ("a.json", "b.json"):
        path = tmp_path / name
        status, out, err = sim(capsys, "--bots", "L3,L1", "--games", "6", "--seed", "4",
                               "--iterations", "12", "--json", str(path))
        assert status == 0, err
        record = json.loads(path.read_text(encoding="utf-8"))
        assert record["iterations"] == 12 and record["lineup"] == ["L3", "L1"]
        assert record["bots"][0]["name"] == "L3(iterations=12)"
        for bot in record["bots"]:
            del bot["ms_per_decision"]  # timings are the one thing that differs
        outputs.append(record["bots"])
        # The printed table, less the timing column and the title's seconds.
        rows = [re.sub(r"│\s*[\d.]+\s*│\s*$", "", line) for line in out.splitlines()
                if line.startswith("│")]
        outputs.append(rows)
    assert outputs[0] == outputs[2] and outputs[1] == outputs[3]
    status, _, err = sim(capsys, "--bots", "L1,L2", "--games", "2", "--iterations", "5")
    assert status == 2 and "no L3 plays" in err


def test_sim_help_says_which_runs_are_reproducible(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "Reproducible: the same --seed gives the same results" in text
    assert "except when L3 plays on its default time budget" in text
    assert "give --iterations N to make L3 runs reproducible" in text


def test_sim_table_fits_60_columns_without_splitting_a_number() -> None:
    # Issue 11 #10: at 60 columns `42.5% ± 10.5` was split across lines.
    from rich.console import Console

    from tienlen.tui.sim_view import results_table

    result = simulate("tienlen", ["L2", "L1", "L1", "random"], 40, seed=1)
    console = Console(width=60, record=True, color_system=None)
    console.print(results_table(result, 1.0, width=60))
    lines = console.export_text().splitlines()
    assert max(len(line) for line in lines) <= 60
    for stats in result.stats():
        line = next(line for line in lines if line.startswith(stats.name + " "))
        for interval in (stats.first_rate, stats.loser_rate):
            half = 50 * (interval.high - interval.low)
            assert f"{100 * interval.value:.1f}% ± {half:.1f}" in line, line
        assert f"{stats.mean_place.value:.2f} ± " in line
    assert lines[0].startswith("40 games (10 deals × 4 seat rotations)")


def test_ctrl_c_stops_a_parallel_sim_at_once_and_prints_the_partial_result() -> None:
    # Issue 11 #6: Ctrl-C took 9-15 s and printed nothing; the bar sat at 0 for seconds.
    child = pexpect.spawn(
        sys.executable,
        ["-m", "tienlen", "sim", "--bots", "L3,L2", "--games", "400", "--jobs", "2"],
        env=child_env(NO_COLOR="1"), dimensions=(30, 120), encoding="utf-8", timeout=60)
    started = time.monotonic()
    # Per-game progress: the bar moves as soon as one game ends, before any chunk does.
    child.expect(r" ([1-9]\d*)/400 ")
    first = time.monotonic() - started
    assert int(child.match[1]) < 400 // 16  # less than the first chunk of deals
    workers = _children(child.pid)
    assert len(workers) >= 2
    child.expect(r" ([6-9]|[1-9]\d+)/400 ")  # a few deals in, one complete at least
    child.sendintr()
    asked = time.monotonic()
    child.expect(pexpect.EOF)
    stopped = time.monotonic() - asked
    child.close()
    out = strip(child.before)
    assert child.exitstatus == 130, out
    assert stopped < 3.0, stopped
    assert first < 15.0
    assert "Traceback" not in out
    done = re.search(r"Interrupted: (\d+) of 400 games played in complete deals", out)
    assert done and int(done[1]) > 0 and int(done[1]) % 2 == 0, out
    assert f"{done[1]} games ({int(done[1]) // 2} deals × 2 seat rotations)" in out
    assert re.search(r"│ L3\s+│\s+" + done[1] + r" │", out), out
    time.sleep(0.2)
    assert not [pid for pid in workers if Path(f"/proc/{pid}").exists()
                and "zombie" not in _state(pid)]


def _children(pid: int) -> list[int]:
    """The live child processes of ``pid`` (Linux /proc)."""
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        kids = []
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                try:
                    stat = (entry / "stat").read_text()
                except OSError:
                    continue
                if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                    kids.append(int(entry.name))
        if kids:
            return kids
        time.sleep(0.05)
    return []


def _state(pid: int) -> str:
    try:
        state = (Path(f"/proc/{pid}/stat").read_text()).rsplit(")", 1)[1].split()[0]
    except OSError:
        return "gone"
    return "zombie" if state == "Z" else state


def test_rate_and_eta_come_from_the_runs_average_so_they_do_not_jump() -> None:
    # Issue 11 #6: the ETA jumped (0:14 -> 0:51) as chunks landed. It is now the time
    # left at the average rate so far: a burst of games moves it by what it adds.
    from rich.progress import Progress

    from tienlen.tui.sim_view import _EtaColumn, _RateColumn

    now = [0.0]
    progress = Progress(get_time=lambda: now[0])
    task_id = progress.add_task("x", total=100)
    task = progress.tasks[0]
    assert _RateColumn().render(task).plain == "- games/s"
    assert _EtaColumn().render(task).plain == "-:--:--"
    now[0] = 10.0
    progress.update(task_id, completed=10)
    assert _RateColumn().render(task).plain == "1.0 games/s"
    assert _EtaColumn().render(task).plain == "0:01:30"  # 90 games at 1 a second
    now[0] = 11.0
    progress.update(task_id, completed=20)  # ten games land at once
    assert _EtaColumn().render(task).plain == "0:00:44"  # 80 games at 20 per 11 s


def test_sim_progress_line_fits_60_columns() -> None:
    # Issue 11 #10: at 60 columns the bar's line was cut into pieces.
    child = pexpect.spawn(
        sys.executable, ["-m", "tienlen", "sim", "--bots", "L1", "--games", "40"],
        env=child_env(NO_COLOR="1"), dimensions=(20, 60), encoding="utf-8", timeout=60)
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    text = strip(child.before).replace("\r", "\n")
    # Frames are redrawn in place (cursor moves, stripped here): take the last one.
    last = ("L1,L1,L1,L1" + text.split("L1,L1,L1,L1")[-1]).splitlines()[0]
    assert re.fullmatch(r"L1,L1,L1,L1 ━+ +40/40 [\d,.]+ games/s ETA 0:00:00 *", last), last
    assert len(last.rstrip()) <= 60
