"""The Guandan duplicate arena (issue 17): every board in both seatings with the same cards,
statistics per team over boards, determinism whatever ``jobs`` is, Ctrl-C, games files and
``tienlen sim --game guandan``."""

from __future__ import annotations

import functools
import json
import math
import subprocess
import sys
from typing import Any

import numpy as np
import pytest

from tienlen.arena import (ArenaError, ArenaInterrupted, DuplicateResult, TeamUnit, files,
                           plan, simulate)
from tienlen.arena.files import ResultsError, TeamHeader
from tienlen.arena.stats import paired_test
from tienlen.cli import main
from tienlen.guandan import Match
from tienlen.games.guandan.arena import SCHEMA, board_seed, bot_seed
from tienlen.games.guandan.bots import GreedyBot
from tienlen.games.guandan.rules import RuleConfig


def run(team_a: Any, team_b: Any, *, matches: int | None = None, hands: int | None = None,
        config: RuleConfig | None = None, **options: Any) -> Any:
    """The duplicate arena (:func:`tienlen.arena.simulate` of Guandan): ``matches`` whole
    matches or ``hands`` first hands."""
    mode = "match" if matches is not None else "hand"
    return simulate("guandan", [team_a, team_b], matches if matches is not None else hands,
                    mode=mode, rules=config, **options)


def GamesWriter(path: Any, *, teams: list[str], mode: str, seed: int, hand_cap: int, games: int,
                resume: bool = False) -> files.GamesFile:
    """A Guandan games file (:class:`tienlen.arena.files.GamesFile`) of a team run's header."""
    header = TeamHeader((teams[0], teams[1]), mode, seed, hand_cap, RuleConfig(), "guandan",
                        SCHEMA)
    return files.GamesFile.open(path, header, games=games, resume=resume)


def load(path: Any) -> Any:
    """A Guandan games file's result."""
    return files.load(path, schema=SCHEMA)

# --- duplicate mirroring ---------------------------------------------------------------

SEEN: list[tuple[str, int, int, int, tuple[int, ...]]] = []


class _Spy(GreedyBot):
    """L1, noting (team tag, bot seed, seat, order, hand) at its first decision: which
    team sat where, with which cards and seed. The arena makes new bots for every game,
    and in hand mode a game is one hand, in which every seat acts."""

    def __init__(self, tag: str, seed: int | None = None) -> None:
        super().__init__(seed)
        self.tag = tag
        self.noted = False

    def decide(self, view: Any) -> tuple[str, object]:
        if not self.noted:
            self.noted = True
            SEEN.append((self.tag, self.seed or 0, view.seat, len(SEEN),
                         tuple(view.hand.ids)))
        return super().decide(view)


def test_both_seatings_deal_the_same_cards_with_the_teams_swapped():
    SEEN.clear()
    # hand mode: one hand per game, so each bot notes its hand once per game
    run(functools.partial(_Spy, "A"), functools.partial(_Spy, "B"), hands=4, seed=9)
    assert len(SEEN) == 4 * 4         # 2 boards x 2 seatings x 4 seats
    for board in range(2):
        games = [SEEN[(2 * board + s) * 4:(2 * board + s + 1) * 4] for s in (0, 1)]
        by_seat = [{seat: (tag, seed, hand) for tag, seed, seat, _, hand in g} for g in games]
        assert set(by_seat[0]) == set(by_seat[1]) == {0, 1, 2, 3}
        # Dealt from the board's seed: the match the arena plays is Match(board_seed(...)).
        dealt = Match(board_seed(9, board)).game.initial_hands
        for seat in range(4):
            (tag0, seed0, hand0), (tag1, seed1, hand1) = by_seat[0][seat], by_seat[1][seat]
            assert hand0 == hand1 == dealt[seat].ids       # the same cards in that seat
            assert seed0 == seed1 == bot_seed(9, board, seat)   # the same bot seed
            assert {tag0, tag1} == {"A", "B"}               # the other team sits there
        # Seating 0: team A at seats 0 and 2; seating 1: at 1 and 3.
        assert [by_seat[0][s][0] for s in range(4)] == ["A", "B", "A", "B"]
        assert [by_seat[1][s][0] for s in range(4)] == ["B", "A", "B", "A"]


@pytest.mark.parametrize("kind", ["hands", "matches"])
def test_equal_teams_mirror_exactly(kind):
    # The same bots with the same seeds in the same seats play the same game: what team A
    # scores in one seating, team B scores in the other, so every board is exactly even.
    result = run("L1", "L1", seed=4, **{kind: 6})
    u = result.unit
    assert (u.a_seats[:, 0] == [0, 2]).all() and (u.a_seats[:, 1] == [1, 3]).all()
    for name in ("match_wins", "hand_wins", "place_sums", "levels"):
        values = getattr(u, name)
        assert (values[:, 1] == values[:, 0, ::-1]).all(), name
    assert (u.hands[:, 0] == u.hands[:, 1]).all()
    for stat in ("places", "hand_wins", "levels", "match_wins"):
        cmp = result.compare(stat)
        assert cmp.diff.value == 0.0 and cmp.p_value == 1.0
    assert result.team("A").mean_place.value == 2.5


def test_matches_are_whole_matches_and_the_cap_draws():
    result = run("L2", "L1", matches=4, seed=2)
    u = result.unit
    # A finished match has one winner and more than one hand (a team needs 12+ levels).
    assert (u.match_wins.sum(axis=2) == 1).all()
    assert (u.hands >= 4).all()
    # Every hand counted: one first out per hand, places 1+2+3+4 = 10 per hand.
    assert (u.hand_wins.sum(axis=2) == u.hands).all()
    assert (u.place_sums.sum(axis=2) == 10 * u.hands).all()
    capped = run("L2", "L1", matches=4, seed=2, hand_cap=1)
    assert capped.capped == 4 and (capped.unit.match_wins == 0).all()
    assert (capped.unit.hands == 1).all()


# --- determinism -----------------------------------------------------------------------


@pytest.mark.parametrize("kind, games", [("hands", 6), ("matches", 4)])
def test_same_result_whatever_jobs(kind, games):
    # Matches capped at 4 hands: tribute and levels are in play, at a test's cost.
    one = run("L2", "L1", seed=7, jobs=1, hand_cap=4, **{kind: games})
    two = run("L2", "L1", seed=7, jobs=2, hand_cap=4, **{kind: games})
    assert one.games_table() == two.games_table()
    if kind == "hands":
        other = run("L2", "L1", seed=8, jobs=1, hand_cap=4, hands=games)
        assert other.games_table() != one.games_table()   # the seed matters


# --- statistics on hand-made samples ---------------------------------------------------


def _unit(match_a: list[tuple[int, int]], hands: list[tuple[int, int]],
          places_a: list[tuple[int, int]]) -> TeamUnit:
    """Boards where team A won the matches ``match_a[b]`` (per seating), with ``hands``
    hands and A's place sums ``places_a``; B gets the rest (10 places per hand)."""
    n = len(match_a)
    u = TeamUnit.empty(0, n)
    for b in range(n):
        for s in (0, 1):
            u.match_wins[b, s] = (match_a[b][s], 1 - match_a[b][s])
            u.hands[b, s] = hands[b][s]
            u.place_sums[b, s] = (places_a[b][s], 10 * hands[b][s] - places_a[b][s])
            u.hand_wins[b, s] = (hands[b][s], 0)
    return u


def test_statistics_by_hand():
    # Per board, A's match wins: 1, 1, 0.5, 1 -> B's 0, 0, 0.5, 0; A - B: 1, 1, 0, 1.
    u = _unit([(1, 1), (1, 1), (1, 0), (1, 1)], [(1, 1), (2, 1), (1, 1), (1, 1)],
              [(3, 3), (8, 3), (5, 5), (3, 4)])
    r = DuplicateResult(("A", "B"), "match", 0, 100, [u])
    a = r.team("A").match_wins
    # mean 7/8, sd of (1, 1, .5, 1) = .25, half = 1.96 * .25 / 2; the top is clipped at 1
    assert a.value == pytest.approx(0.875)
    assert a.low == pytest.approx(0.875 - 1.959964 * 0.25 / 2, abs=1e-6) and a.high == 1.0
    cmp = r.compare("match_wins")
    # diffs 1, 1, 0, 1: mean .75, sd .5, z = .75 / (.5 / 2) = 3, p = erfc(3 / sqrt 2)
    assert cmp.diff.value == pytest.approx(0.75)
    assert cmp.z == pytest.approx(3.0)
    assert cmp.p_value == pytest.approx(0.0026998, abs=1e-6)
    # Mean place per board = A's place sums / (2 players x hands over both seatings):
    # (3+3)/4, (8+3)/6, (5+5)/4, (3+4)/4.
    places = [6 / 4, 11 / 6, 10 / 4, 7 / 4]
    assert r.team("A").mean_place.value == pytest.approx(sum(places) / 4)
    assert r.team("B").mean_place.value == pytest.approx(5 - sum(places) / 4)
    assert r.compare("places").diff.value == pytest.approx(sum(2 * p - 5 for p in places) / 4)
    assert r.capped == 0 and r.hands == 9 and r.games == 8 and r.boards == 4


def test_capped_matches_are_won_by_neither():
    u = _unit([(1, 0), (1, 1)], [(3, 3), (3, 3)], [(15, 15), (15, 15)])
    u.match_wins[0, 1] = 0          # board 0, seating 1: the cap stopped it
    r = DuplicateResult(("A", "B"), "match", 0, 3, [u])
    assert r.capped == 1
    assert r.team("A").match_wins.value == pytest.approx((0.5 + 1) / 2)
    assert r.team("B").match_wins.value == pytest.approx(0.0)


def test_results_of_units_with_gaps_and_overlaps():
    a = _unit([(1, 1)], [(1, 1)], [(3, 3)])
    b = _unit([(0, 0), (0, 1)], [(1, 1), (1, 1)], [(7, 7), (7, 3)])
    late = TeamUnit(5, 7, *(getattr(b, name) for name in TeamUnit._ARRAYS))
    r = DuplicateResult(("A", "B"), "match", 0, 100, [late, a])   # any order, a gap
    assert r.board_ids.tolist() == [0, 5, 6] and r.boards == 3
    assert [row[0] for row in r.games_table()] == [0, 0, 5, 5, 6, 6]
    assert r.team("A").match_wins.value == pytest.approx((1 + 0 + 0.5) / 3)
    with pytest.raises(ArenaError, match="two units"):
        DuplicateResult(("A", "B"), "match", 0, 100, [late, late])
    with pytest.raises(ArenaError, match="at least one board"):
        DuplicateResult(("A", "B"), "match", 0, 100, [])


def test_paired_test_by_hand():
    interval, z, p = paired_test(np.array([2.0, 0.0]))      # mean 1, sd sqrt 2, se 1
    assert (interval.value, z) == (1.0, pytest.approx(1.0))
    assert p == pytest.approx(math.erfc(1 / math.sqrt(2)))
    assert interval.low == pytest.approx(1 - 1.959964, abs=1e-6)
    assert paired_test(np.zeros(5))[1:] == (0.0, 1.0)
    assert paired_test(np.full(3, -0.5))[1:] == (-math.inf, 0.0)
    _, z, p = paired_test(np.array([1.0]))
    assert math.isnan(z) and math.isnan(p)


# --- bad requests ----------------------------------------------------------------------


@pytest.mark.parametrize("kwargs, words", [
    ({"games": 3}, "matches must be a positive even number"),
    ({"games": 0, "mode": "hand"}, "hands must be a positive even number"),
    ({"games": True, "mode": "hand"}, "even"),
    ({"mode": "board"}, "mode must be 'match'"),
    ({"seed": -1}, "seed"),
    ({"hand_cap": 0}, "hand_cap"),
    ({"rules": "standard"}, "RuleConfig"),
    ({"players": 3}, "played by four"),
])
def test_bad_requests_are_refused_with_a_reason(kwargs, words):
    request = {"games": 2, **kwargs}
    with pytest.raises(ArenaError, match=words):
        plan("guandan", ["L2", "L1"], **request)
    with pytest.raises(ArenaError, match="two teams"):
        plan("guandan", ["L2", "L1", "L1"], 2)
    with pytest.raises(ArenaError, match="jobs"):
        simulate("guandan", ["L2", "L1"], 2, jobs=0)


def test_bad_teams_are_refused():
    with pytest.raises(ArenaError, match="L9"):
        run("L9", "L1", hands=2)
    with pytest.raises(ArenaError, match="bot factory"):
        run(3, "L1", hands=2)   # type: ignore[arg-type]
    with pytest.raises(ArenaError, match="not a Guandan Bot"):
        run(lambda seed: object(), "L1", hands=2)   # type: ignore[arg-type,return-value]


# --- Ctrl-C ----------------------------------------------------------------------------


class _Stopper(GreedyBot):
    """L1 that presses Ctrl-C at its 150th decision in this process (a hand takes an L1
    team 40 to 80 decisions, so that is within the third board)."""

    calls = 0

    def decide(self, view: Any) -> tuple[str, object]:
        type(self).calls += 1
        if type(self).calls == 150:
            raise KeyboardInterrupt
        return super().decide(view)


def test_ctrl_c_keeps_the_completed_boards():
    _Stopper.calls = 0
    with pytest.raises(ArenaInterrupted) as stop:
        run(_Stopper, "L2", hands=20, seed=3)
    partial = stop.value.result
    assert stop.value.games == 20
    assert partial is not None and 0 < partial.boards < 10
    # The completed boards are exactly those of a full run (_Stopper plays as L1).
    full = run("L1", "L2", hands=2 * partial.boards, seed=3)
    assert partial.games_table() == full.games_table()


# --- games files -----------------------------------------------------------------------


def test_games_file_reads_back(tmp_path):
    path = tmp_path / "g.jsonl"
    with GamesWriter(path, teams=["L2+L2", "L1+L1"], mode="hand", seed=5, hand_cap=100,
                     games=6) as out:
        result = run("L2", "L1", hands=6, seed=5, on_unit=out.write, jobs=2)
    back = load(path)
    assert back.games_table() == result.games_table()
    assert back.names == ("L2+L2", "L1+L1") and back.seed == 5 and back.mode == "hand"
    lines = path.read_text().splitlines()
    assert json.loads(lines[0])["schema"] == "tienlen.guandan.games"
    assert sum(1 for line in lines if '"board"' in line) == 6
    with pytest.raises(ArenaError, match="exists"):
        GamesWriter(path, teams=["a", "b"], mode="match", seed=5, hand_cap=100, games=6)
    # Units land in completion order, each as its game lines then a closing line. A file
    # cut inside a unit (a crash) gives the complete units only.
    first = next(i for i, line in enumerate(lines) if json.loads(line).get("unit") == [0, 1])
    other = next(i for i, line in enumerate(lines)
                 if '"board"' in line and json.loads(line)["board"] != 0)
    torn = tmp_path / "torn.jsonl"
    torn.write_text("\n".join([lines[0], *lines[first - 2:first + 1], lines[other]]) + "\n")
    assert load(torn).games_table() == result.games_table()[:2]
    torn.write_text("\n".join([lines[0], lines[other]]) + "\n")
    with pytest.raises(ArenaError, match="no complete unit"):
        load(torn)
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"schema": "something else"}\n')
    with pytest.raises(ArenaError, match="not a Guandan games file"):
        load(bad)


# --- tienlen sim --game guandan --------------------------------------------------------


def sim(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tienlen", "sim", "--game", "guandan", *args],
                          capture_output=True, text=True, timeout=300, encoding="utf-8")


def test_sim_cli_small_seeded_run(tmp_path):
    out, summary = tmp_path / "games.jsonl", tmp_path / "summary.json"
    done = sim("--bots", "L2,L1", "--hands", "6", "--seed", "11", "--jobs", "2",
               "--out", str(out), "--json", str(summary))
    assert done.returncode == 0, done.stderr
    assert "team A = L2+L2, team B = L1+L1" in done.stdout
    assert "6 hands (3 boards x 2 seatings), seed 11" in done.stdout
    assert "A - B over 3 boards" in done.stdout and "│ places" in done.stdout
    expected = run("L2", "L1", hands=6, seed=11)
    assert load(out).games_table() == expected.games_table()
    record = json.loads(summary.read_text())
    assert [t["name"] for t in record["teams"]] == ["L2+L2", "L1+L1"]
    assert record["teams"][0]["mean_place"]["value"] == pytest.approx(
        expected.team("A").mean_place.value)


@pytest.mark.parametrize("args, words", [
    (["--hands", "3"], "even"),
    (["--bots", "L1,L2,L3"], "two teams"),
    (["--bots", "L7"], "unknown Guandan level"),
    (["--hands", "2", "--matches", "2"], "not both"),
    (["--games", "4"], "--matches N or --hands N"),
    (["--hands", "2", "--iterations", "5"], "no team is L3"),
    (["--hands", "2", "--players", "3"], "--players"),
    (["--hands", "2", "--rules", "southern"], "Tiến Lên ruleset"),
    (["--hands", "2", "--jobs", "0"], "jobs"),
])
def test_sim_cli_refuses_bad_arguments(args, words, capsys, tmp_path):
    summary = tmp_path / "s.json"
    assert main(["sim", "--game", "guandan", *args, "--json", str(summary)]) == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err
    assert not summary.exists()


def test_sim_cli_out_refuses_to_overwrite(tmp_path, capsys):
    out = tmp_path / "games.jsonl"
    out.write_text("precious\n")
    assert main(["sim", "--game", "guandan", "--hands", "2", "--out", str(out)]) == 2
    assert "already exists" in capsys.readouterr().err
    assert out.read_text() == "precious\n"
    other = tmp_path / "games.txt"
    assert main(["sim", "--game", "guandan", "--hands", "2", "--out", str(other)]) == 2
    assert ".jsonl" in capsys.readouterr().err and not other.exists()
    # A request refused before the run leaves no games file behind.
    fresh = tmp_path / "fresh.jsonl"
    assert main(["sim", "--game", "guandan", "--hands", "3", "--out", str(fresh)]) == 2
    assert not fresh.exists()


def test_a_results_repr_counts_hands_or_matches():
    assert repr(run("L1", "L1", hands=2, seed=1)) == "<DuplicateResult 2 hands: L1+L1 vs L1+L1>"
    assert (repr(run("L1", "L1", matches=2, seed=1, hand_cap=50))
            == "<DuplicateResult 2 matches: L1+L1 vs L1+L1>")


def test_sim_cli_ctrl_c_prints_the_completed_boards_and_exits_130(tmp_path):
    import re
    import time

    import pexpect

    from test_cli_play import child_env, strip

    out = tmp_path / "games.jsonl"
    child = pexpect.spawn(
        sys.executable,
        ["-m", "tienlen", "sim", "--game", "guandan", "--bots", "L2,L1", "--hands", "400",
         "--jobs", "2", "--seed", "3", "--out", str(out)],
        env=child_env(NO_COLOR="1"), dimensions=(30, 120), encoding="utf-8", timeout=120)
    child.expect(r" ([1-9]\d*)/400 ")           # the bar moves per game
    child.expect(r" (1[6-9]|[2-9]\d|\d{3})/400 ")  # a few boards in
    child.sendintr()
    asked = time.monotonic()
    child.expect(pexpect.EOF)
    stopped = time.monotonic() - asked
    child.close()
    text = strip(child.before)
    assert child.exitstatus == 130, text
    assert stopped < 10.0, stopped
    assert "Traceback" not in text
    assert " hands/s " in text and "games/s" not in text     # a --hands run counts hands
    done = re.search(r"Interrupted: (\d+) of 400 hands played in complete boards", text)
    assert done and 0 < int(done[1]) < 400 and int(done[1]) % 2 == 0, text
    assert f"{done[1]} hands ({int(done[1]) // 2} boards x 2 seatings), seed 3" in text
    # The games file holds exactly the boards in the table (the workers' chunks may leave
    # gaps), each the same as in an uncut run.
    back = load(out)
    assert back.games == int(done[1])
    first = 0
    while first < back.boards and back.board_ids[first] == first:
        first += 1
    if first:
        assert back.games_table()[:2 * first] == run("L2", "L1", hands=2 * first,
                                                     seed=3).games_table()


# --- hostile values in a games file (issue 24) ------------------------------------------


@pytest.fixture(scope="module")
def match_file_lines(tmp_path_factory) -> list[str]:
    """A finished 4-match file's lines: header, then per board two games and a unit line."""
    path = tmp_path_factory.mktemp("gd") / "g.jsonl"
    with GamesWriter(path, teams=["L1+L1", "L1+L1"], mode="match", seed=5, hand_cap=100,
                     games=4) as out:
        run("L1", "L1", matches=4, seed=5, on_unit=out.write, hand_cap=100)
    return path.read_text().splitlines()


HOSTILE_GUANDAN = {
    # name: (which line: "header", "game" (the first) or "unit" (the first), the edit)
    "seed-infinity": ("header", {"seed": float("inf")}),
    "seed-float": ("header", {"seed": 5.0}),
    "hand_cap-infinity": ("header", {"hand_cap": float("inf")}),
    "hand_cap-0": ("header", {"hand_cap": 0}),
    "teams-not-text": ("header", {"teams": [1, 2]}),
    "hands-2**70": ("game", {"hands": 2**70}),
    "hands-over-cap": ("game", {"hands": 101}),
    "decisions-2**70": ("game", {"decisions": [2**70, 0]}),
    "decisions-float": ("game", {"decisions": [1.5, 0]}),
    "board-infinity": ("game", {"board": float("inf")}),
    "seating-2": ("game", {"seating": 2}),
    "levels-300": ("game", {"levels": [300, 2]}),
    "seconds-nan": ("game", {"seconds": [float("nan"), 0.0]}),
    "a_seats-same": ("game", {"a_seats": [0, 0]}),
    "match_won-both": ("game", {"match_won": [1, 1]}),
    "unit-infinity": ("unit", {"unit": [0, float("inf")]}),
    "unit-5": ("unit", {"unit": 5}),
    "unit-three-numbers": ("unit", {"unit": [0, 1, 2]}),
}


@pytest.mark.parametrize("name", HOSTILE_GUANDAN)
def test_hostile_guandan_value_is_results_error(tmp_path, match_file_lines, name) -> None:
    # Issue 24: Infinity and 2**70 raised OverflowError from int() or a numpy store, and
    # impossible values (levels [300, 2]) were loaded; each field is checked once now.

    lines = list(match_file_lines)
    where, edit = HOSTILE_GUANDAN[name]
    at = {"header": 0, "game": 1,
          "unit": next(i for i, line in enumerate(lines) if '"unit"' in line)}[where]
    record = json.loads(lines[at])
    record.update(edit)
    lines[at] = json.dumps(record)
    path = tmp_path / "g.jsonl"
    path.write_text("\n".join(lines) + "\n")
    # NaN and Infinity are not JSON: the one decoder refuses them before any field is read.
    refused = (r"g\.jsonl:\d+: (a bad (header|unit)"
               r"|not a JSON line: (NaN|Infinity|-Infinity) is not a JSON number)")
    with pytest.raises(ResultsError, match=refused) as caught:
        load(path)
    assert isinstance(caught.value, ArenaError)


#: The hostile values a Parquet unit can hold (Arrow has no int of 2**70; a unit's span
#: is its file name).
HOSTILE_GUANDAN_PARQUET = [name for name, (where, _) in HOSTILE_GUANDAN.items()
                           if where != "unit" and "2**70" not in name]


@pytest.fixture(scope="module")
def match_dataset(tmp_path_factory):
    """The same 4-match run as ``match_file_lines``, as a Parquet dataset."""
    pytest.importorskip("pyarrow")
    path = tmp_path_factory.mktemp("gdp") / "g.parquet"
    with GamesWriter(path, teams=["L1+L1", "L1+L1"], mode="match", seed=5, hand_cap=100,
                     games=4) as out:
        run("L1", "L1", matches=4, seed=5, on_unit=out.write, hand_cap=100)
    return path


@pytest.mark.parametrize("name", [*HOSTILE_GUANDAN_PARQUET, "unit-backwards", "no-header",
                                  "not-parquet"])
def test_hostile_guandan_parquet_value_is_results_error(tmp_path, match_dataset, name) -> None:
    import shutil

    import pyarrow
    import pyarrow.parquet as pq


    path = tmp_path / "g.parquet"
    shutil.copytree(match_dataset, path)
    first = sorted(path.glob("unit-*.parquet"))[0]
    if name == "unit-backwards":
        first.rename(path / "unit-0000000005-0000000003.parquet")
    elif name == "no-header":
        (path / "_run.json").unlink()
    elif name == "not-parquet":
        first.write_bytes(b"PAR1 not really")
    elif HOSTILE_GUANDAN[name][0] == "header":
        record = json.loads((path / "_run.json").read_text())
        record.update(HOSTILE_GUANDAN[name][1])
        (path / "_run.json").write_text(json.dumps(record))
    else:
        rows = pq.read_table(first).to_pylist()
        rows[0].update(HOSTILE_GUANDAN[name][1])
        pq.write_table(pyarrow.Table.from_pylist(rows), first)
    with pytest.raises(ResultsError, match=r"g\.parquet(/_run\.json)?: (a bad header|no readable"
                       r"|not a JSON line: (NaN|Infinity) is not a JSON number)"
                       r"|unit-\d+-\d+\.parquet: (a bad|not a readable) unit") as caught:
        load(path)
    assert isinstance(caught.value, ArenaError)
    assert load(match_dataset).boards == 2      # the checks accept what a run writes


def test_hostile_guandan_file_untouched_loads(tmp_path, match_file_lines) -> None:
    # The checks accept every file a run writes.
    path = tmp_path / "g.jsonl"
    path.write_text("\n".join(match_file_lines) + "\n")
    assert load(path).boards == 2


def test_guandan_writer_holds_writer_lock(tmp_path) -> None:
    # Issue 24: one writer per games file, the same lock as Tiến Lên's (tienlen.arena.lockfile):
    # held while the writer is open, released at close.
    from tienlen.arena.lockfile import WriterLock

    path = tmp_path / "g.jsonl"
    with GamesWriter(path, teams=["a", "b"], mode="hand", seed=5, hand_cap=100, games=2):
        with pytest.raises(ArenaError, match="being written by another run"):
            WriterLock.acquire(path, ArenaError)
    with WriterLock.acquire(path, ArenaError) as lock:
        assert lock.held
    # A refused writer (the file exists) leaves the lock free.
    with pytest.raises(ArenaError, match="exists"):
        GamesWriter(path, teams=["a", "b"], mode="hand", seed=5, hand_cap=100, games=2)
    WriterLock.acquire(path, ArenaError).release()


def test_an_interrupted_games_file_resumes_to_the_whole_run(tmp_path) -> None:
    """Issue 25: a Guandan games file cut anywhere resumes (its torn tail cut off) and ends
    as the file of the uninterrupted run; the units on file are not played again."""

    path = tmp_path / "g.jsonl"
    with GamesWriter(path, teams=["L1+L1", "L1+L1"], mode="hand", seed=3, hand_cap=100,
                           games=12) as out:
        run("L1", "L1", hands=12, seed=3, unit_deals=2, on_unit=out.write)
    whole = load(path)
    data = path.read_bytes()
    cut = data[:data.index(b'{"unit": [2, 4]}') + 5]           # inside unit 2..4's line
    path.write_bytes(cut)
    assert load(path).boards == 2
    played = []
    with GamesWriter(path, teams=["L1+L1", "L1+L1"], mode="hand", seed=3, hand_cap=100,
                           games=16, resume=True) as out:
        assert [u.start for u in out.units] == [0] and out.played == 4
        result = run("L1", "L1", hands=16, seed=3, unit_deals=2, done=out.units,
                           on_unit=lambda u: (played.append(u.start), out.write(u)))
    assert played == [2, 4, 6]
    again = load(path)
    assert again.games_table() == result.games_table()
    assert again.games_table()[:len(whole.games_table())] == whole.games_table()
    with pytest.raises(ResultsError, match="its seed is 3, this run's is 4"):
        GamesWriter(path, teams=["L1+L1", "L1+L1"], mode="hand", seed=4, hand_cap=100,
                          games=16, resume=True)


# --- Parquet games files (issue 25: every format Tiến Lên's sim writes) ----------------


def _snapshot(path) -> dict[str, bytes]:
    """Every file of a Parquet dataset, by name: to tell that a refusal left it untouched."""
    return {p.name: p.read_bytes() for p in sorted(path.iterdir())}


def test_a_parquet_games_file_holds_the_games_of_the_jsonl_file(tmp_path) -> None:
    pa = pytest.importorskip("pyarrow")
    import pyarrow.dataset


    paths = {}
    for suffix in (".jsonl", ".parquet"):
        paths[suffix] = path = tmp_path / f"g{suffix}"
        with GamesWriter(path, teams=["L2+L2", "L1+L1"], mode="hand", seed=5,
                               hand_cap=100, games=10) as out:
            run("L2", "L1", hands=10, seed=5, unit_deals=2, jobs=2, on_unit=out.write)
    jsonl, parquet = (load(paths[s]) for s in (".jsonl", ".parquet"))
    assert parquet.games_table() == jsonl.games_table()
    assert (parquet.names, parquet.mode, parquet.seed) == (("L2+L2", "L1+L1"), "hand", 5)
    header = json.loads((paths[".parquet"] / "_run.json").read_text())
    assert header["game"] == "guandan" and header["version"] == 2 and header["games"] == 10
    # The dataset reads as one table, with the JSON lines' game rows (but the seconds
    # spent deciding, which differ from run to run).
    table = pa.dataset.dataset(paths[".parquet"], format="parquet").to_table()
    rows = [json.loads(line) for line in paths[".jsonl"].read_text().splitlines()[1:]
            if '"board"' in line]

    def games(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        assert all(len(r.pop("seconds")) == 2 for r in rows)
        return sorted(rows, key=lambda r: (r["board"], r["seating"]))

    assert len(rows) == 10 and games(table.to_pylist()) == games(rows)
    # A Tiến Lên dataset is not a Guandan one, and the other way round.
    tienlen_file = tmp_path / "t.parquet"
    tienlen_run = plan("tienlen", ["L1", "random"], 4, seed=5)
    with files.GamesFile.open(tienlen_file, tienlen_run.header, games=4) as out:
        tienlen_run.play(unit_deals=2, on_unit=out.write)
    with pytest.raises(ResultsError, match="not a Guandan games file"):
        load(tienlen_file)
    with pytest.raises(ResultsError, match="not a tienlen games file"):
        files.load(paths[".parquet"], schema=files.SCHEMA)
    with pytest.raises(ArenaError, match="exists"):
        GamesWriter(paths[".parquet"], teams=["a", "b"], mode="hand", seed=5,
                          hand_cap=100, games=10)


def test_an_interrupted_parquet_file_resumes_to_the_whole_run(tmp_path) -> None:
    pytest.importorskip("pyarrow")

    path = tmp_path / "g.parquet"
    teams = ["L1+L1", "L1+L1"]
    with GamesWriter(path, teams=teams, mode="hand", seed=3, hand_cap=100,
                           games=12) as out:
        run("L1", "L1", hands=12, seed=3, unit_deals=2, on_unit=out.write)
    whole = load(path)
    # An interruption: the last two units gone, one of them caught half-written.
    units = sorted(p for p in path.iterdir() if p.name.startswith("unit-"))
    assert len(units) == 3
    units[2].unlink()
    units[1].rename(path / f".{units[1].name}.tmp")
    assert load(path).boards == 2
    # Another run's resume is refused, the dataset untouched (its torn unit too).
    before = _snapshot(path)
    with pytest.raises(ResultsError, match="its seed is 3, this run's is 4"):
        GamesWriter(path, teams=teams, mode="hand", seed=4, hand_cap=100, games=16,
                          resume=True)
    assert _snapshot(path) == before
    played = []
    with GamesWriter(path, teams=teams, mode="hand", seed=3, hand_cap=100, games=16,
                           resume=True) as out:
        assert [u.start for u in out.units] == [0] and out.played == 4
        result = run("L1", "L1", hands=16, seed=3, unit_deals=2, done=out.units,
                           on_unit=lambda u: (played.append(u.start), out.write(u)))
    assert played == [2, 4, 6]
    assert not list(path.glob(".*.tmp"))
    again = load(path)
    assert again.games_table() == result.games_table()
    assert again.games_table()[:len(whole.games_table())] == whole.games_table()
    assert json.loads((path / "_run.json").read_text())["games"] == 16
    # A run shorter than the games on file is refused, untouched.
    before = _snapshot(path)
    with pytest.raises(ResultsError, match="ask for at least 16 hands"):
        GamesWriter(path, teams=teams, mode="hand", seed=3, hand_cap=100, games=8,
                          resume=True)
    assert _snapshot(path) == before
    # A unit holding a value no run writes is refused by the JSON lines' checks.
    import pyarrow.parquet as pq

    first = sorted(path.glob("unit-*.parquet"))[0]
    table = pq.read_table(first)
    pq.write_table(table.set_column(3, "hands", pa_array([0] * table.num_rows)), first)
    with pytest.raises(ResultsError, match="a bad unit.*hands"):
        load(path)


@pytest.mark.parametrize("suffix", [".jsonl", ".parquet"])
def test_discard_removes_only_a_games_file_this_writer_created_empty(tmp_path, suffix) -> None:
    if suffix == ".parquet":
        pytest.importorskip("pyarrow")
    path = tmp_path / f"g{suffix}"
    kwargs: dict[str, Any] = dict(teams=["L1+L1", "L1+L1"], mode="hand", seed=3, hand_cap=100,
                                  games=4)
    GamesWriter(path, **kwargs).discard()
    assert list(tmp_path.iterdir()) == []
    with GamesWriter(path, **kwargs) as out:
        run("L1", "L1", hands=4, seed=3, on_unit=out.write)
    # Reopened to resume, or holding games: discarding keeps it.
    GamesWriter(path, **kwargs, resume=True).discard()
    assert load(path).games == 4
    with GamesWriter(path, **{**kwargs, "games": 8}, resume=True) as out:
        out.discard()
    assert load(path).games == 4


def pa_array(values: list[int]) -> Any:
    import pyarrow

    return pyarrow.array(values, pyarrow.int32())


def test_sim_cli_writes_and_resumes_parquet(tmp_path, capsys) -> None:
    pytest.importorskip("pyarrow")
    out, summary = tmp_path / "games.parquet", tmp_path / "summary.json"
    args = ["sim", "--game", "guandan", "--bots", "L1,L1", "--seed", "11", "--out", str(out),
            "--unit-games", "4"]
    assert main([*args, "--hands", "8"]) == 0
    assert load(out).games == 8
    assert main([*args, "--hands", "12", "--resume", "--json", str(summary)]) == 0
    assert "resuming" in capsys.readouterr().err
    assert load(out).games_table() == run("L1", "L1", hands=12, seed=11).games_table()
    record = json.loads(summary.read_text())
    assert record["game"] == "guandan" and "rules" not in record
    before = _snapshot(out)
    assert main(["sim", "--game", "guandan", "--bots", "L2,L1", "--seed", "11", "--out",
                 str(out), "--hands", "12", "--resume"]) != 0
    assert "another run's games: its teams" in capsys.readouterr().err
    assert _snapshot(out) == before
    assert main(["sim", "--game", "guandan", "--hands", "4", "--out",
                 str(tmp_path / "g.csv")]) != 0
    assert "name a .jsonl (JSON lines) or .parquet" in capsys.readouterr().err
