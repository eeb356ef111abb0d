"""``tienlen sim``: the arena behind a progress bar, a results table, and the same results
as JSON."""

from __future__ import annotations

import json
import math
import re
import sys
from pathlib import Path

import pexpect
import pytest

from tienlen import arena
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
    for column in ("bot", "games", "1st place", "mean place", "loser", "ms/decision"):
        assert column in header
    assert "95% confidence interval" in out

    expected = arena.run(["L1", "random"], 40, players=2, seed=3)
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
