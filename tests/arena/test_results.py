"""Arena games streamed to disk (tienlen.arena.files) and the work-unit seam of a run:
unit boundaries, interruptions and resumes never change the results."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path

import pytest

from tienlen import arena
from tienlen.arena import ArenaError, Unit, simulate
from tienlen.arena.files import GamesFile, ResultsError, RunHeader, load, read
from tienlen.games.tienlen.bots import RandomBot
from tienlen.games.tienlen.match import hand_seed
from tienlen.games.tienlen.rules import Rules


def run(lineup, games, *, players=4, **options):  # type: ignore[no-untyped-def]
    """Tiến Lên's arena (tienlen.arena.simulate), four players unless told."""
    return simulate("tienlen", lineup, games, players=players, **options)

LINEUP = ["L1", "random", "L1"]
PLAYERS = 3


def _formats() -> list[str]:
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        return ["jsonl"]
    return ["jsonl", "parquet"]


FORMATS = pytest.mark.parametrize("suffix", _formats())


def same(a: arena.ArenaResult, b: arena.ArenaResult) -> bool:
    """Equal results, timings aside (the places of every game and the move counts)."""
    return (a.names == b.names and a.places.shape == b.places.shape
            and bool((a.places == b.places).all()) and bool((a.decisions == b.decisions).all()))


@pytest.fixture(scope="module")
def serial() -> arena.ArenaResult:
    return run(LINEUP, 120, players=PLAYERS, seed=7)


class _Stop(Exception):
    pass


def header(seed: int = 7, lineup: list[str] = LINEUP, rules: Rules = Rules()) -> RunHeader:
    return RunHeader.of(lineup, len(lineup), seed=seed, rules=rules)


def test_unit_boundaries_never_change_the_results(serial: arena.ArenaResult) -> None:
    seen: list[tuple[int, int]] = []
    for size in (1, 3, 7, 16):     # 120 games of 3 players: 40 deals
        result = run(LINEUP, 120, players=PLAYERS, seed=7, unit_deals=size,
                     on_unit=lambda u: seen.append((u.start, u.stop)))
        assert same(result, serial)
    # Units start on multiples of their size, and each is reported once (in order, here).
    assert seen[-3:] == [(0, 16), (16, 32), (32, 40)]
    assert seen[:40] == [(d, d + 1) for d in range(40)]
    assert (3, 6) in seen and (35, 40) in seen and seen.count((35, 40)) == 1
    with pytest.raises(ArenaError, match="unit_deals"):
        run(LINEUP, 12, players=PLAYERS, unit_deals=0)


def test_per_game_counts_add_up_to_the_totals(serial: arena.ArenaResult) -> None:
    units: list[Unit] = []
    run(LINEUP, 120, players=PLAYERS, seed=7, unit_deals=9, on_unit=units.append)
    assert sum(u.decisions.sum() for u in units) == serial.decisions.sum()
    # Everyone moves at least once a game (the first out plays all 13 cards).
    for unit in units:
        assert (unit.decisions >= 1).all() and (unit.seconds >= 0).all()
        assert unit.games == (unit.stop - unit.start) * PLAYERS


@FORMATS
def test_a_streamed_file_rebuilds_the_result(tmp_path: Path, suffix: str,
                                            serial: arena.ArenaResult) -> None:
    path = tmp_path / f"games.{suffix}"
    with GamesFile.open(path, header(), games=120) as out:
        result = run(LINEUP, 120, players=PLAYERS, seed=7, unit_deals=11, on_unit=out.write)
    loaded = load(path)
    assert same(loaded, serial) and same(loaded, result)
    # The file keeps the timings exactly (floats round-trip), so the tables agree too.
    assert (loaded.seconds == result.seconds).all()
    assert loaded.table().splitlines()[4:] == result.table().splitlines()[4:]
    found = read(path)
    assert found.header == header() and found.games == 120 and [u.start for u in found.units] == list(range(0, 40, 11))


def test_json_lines_rows_describe_each_game(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    with GamesFile.open(path, header(), games=12) as out:
        result = run(LINEUP, 12, players=PLAYERS, seed=7, on_unit=out.write)
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert lines[0]["schema"] == "tienlen.games" and lines[0]["names"] == ["L1", "random", "L1 #2"]
    rows = [row for row in lines[1:] if "deal" in row]
    assert len(rows) == 12
    for row in rows:
        d, r = row["deal"], row["rotation"]
        assert row["seats"] == [(e + r) % PLAYERS for e in range(PLAYERS)]
        assert row["places"] == result.places[d, r].tolist()
        assert sorted(row["places"]) == [1, 2, 3]
    assert lines[-1] == {"unit": [0, 4], "games": 12}


@FORMATS
def test_an_interrupted_run_resumes_to_the_serial_result(
    tmp_path: Path, suffix: str, serial: arena.ArenaResult
) -> None:
    path = tmp_path / f"games.{suffix}"
    written = []

    def stop_after_three(unit: Unit) -> None:
        out.write(unit)
        written.append(unit.start)
        if len(written) == 3:
            raise KeyboardInterrupt

    with GamesFile.open(path, header(), games=120) as out:
        with pytest.raises(KeyboardInterrupt):
            run(LINEUP, 120, players=PLAYERS, seed=7, unit_deals=5, on_unit=stop_after_three)
    assert [u.start for u in read(path).units] == [0, 5, 10]
    with pytest.raises(ResultsError, match="45 of the run's 120 games.*resume"):
        load(path)

    played: list[int] = []
    with GamesFile.open(path, header(), games=120, resume=True) as out:
        assert out.played == 3 * 5 * PLAYERS
        result = run(LINEUP, 120, players=PLAYERS, seed=7, unit_deals=5, done=out.units,
                     on_unit=lambda u: (out.write(u), played.append(u.start)))
    assert 0 not in played and 10 not in played and 15 in played    # no replays
    assert same(result, serial) and same(load(path), serial)


@pytest.mark.parametrize("signame", ["SIGINT", "SIGTERM"])
def test_a_stop_signal_while_a_unit_lands_waits_for_its_write(tmp_path: Path,
                                                               signame: str) -> None:
    """Ctrl-C (or SIGTERM, which the command line takes as Ctrl-C) that arrives between a
    unit joining the result and its write on file: both happen, then the run stops. Seen in
    CI as "154 hands played" over a file that held 104."""
    from tienlen.arena.engine import ArenaInterrupted
    from tienlen.cli.common import sigterm_as_ctrl_c

    path = tmp_path / "games.jsonl"
    written: list[int] = []

    def signal_then_write(unit: Unit) -> None:
        if unit.start == 5:
            os.kill(os.getpid(), getattr(signal, signame))
        for _ in range(1000):          # bytecodes, where Python runs a signal's handler
            pass
        out.write(unit)
        written.append(unit.start)

    with sigterm_as_ctrl_c(), GamesFile.open(path, header(), games=120) as out:
        with pytest.raises(ArenaInterrupted) as stop:
            run(LINEUP, 120, players=PLAYERS, seed=7, unit_deals=5, on_unit=signal_then_write)
    assert written == [0, 5]
    assert stop.value.result.games == 10 * PLAYERS == sum(u.games for u in read(path).units)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_second_ctrl_c_while_a_unit_lands_stops_at_once(tmp_path: Path) -> None:
    written: list[int] = []

    def press_twice(unit: Unit) -> None:
        os.kill(os.getpid(), signal.SIGINT)
        for _ in range(1000):
            pass
        os.kill(os.getpid(), signal.SIGINT)
        for _ in range(1000):
            pass
        written.append(unit.start)

    with pytest.raises(KeyboardInterrupt):
        run(LINEUP, 120, players=PLAYERS, seed=7, unit_deals=5, on_unit=press_twice)
    assert written == []
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler


def test_a_torn_json_lines_tail_is_ignored_then_cut_off(
    tmp_path: Path, serial: arena.ArenaResult
) -> None:
    path = tmp_path / "games.jsonl"
    with GamesFile.open(path, header(), games=120) as out:
        run(LINEUP, 30, players=PLAYERS, seed=7, unit_deals=5, on_unit=out.write)
    whole = path.read_bytes()
    # A crash in the middle of a unit: some of its rows, the last one cut short.
    last_unit = whole[: whole.rindex(b'{"unit"')]
    torn = last_unit[: len(last_unit) - 30]
    path.write_bytes(torn)
    assert [u.start for u in read(path).units] == [0]
    with GamesFile.open(path, header(), games=120, resume=True) as out:
        result = run(LINEUP, 120, players=PLAYERS, seed=7, unit_deals=5, done=out.units,
                     on_unit=out.write)
    assert same(result, serial) and same(load(path), serial)
    assert path.read_bytes().startswith(whole[: whole.index(b"\n", whole.index(b'{"unit"')) + 1])


@FORMATS
def test_resume_refuses_a_file_of_another_run(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"games.{suffix}"
    with GamesFile.open(path, header(), games=12) as out:
        run(LINEUP, 12, players=PLAYERS, seed=7, on_unit=out.write)
    with pytest.raises(ResultsError, match="already exists.*--resume"):
        GamesFile.open(path, header(), games=12)
    cases = [
        (header(seed=8), "seed is 7, this run's is 8"),
        (header(lineup=["L1", "L1", "random"]), "lineup is L1,random,L1"),
        (header(lineup=["L1", "random"]), "lineup"),
        (header(rules=Rules(twos_in_sequences=False)), "rules is default, this run's is no-twos"),
    ]
    for other, message in cases:
        with pytest.raises(ResultsError, match=message):
            GamesFile.open(path, other, games=12, resume=True)
    # Another tienlen version may play other games: refused too.
    newer = RunHeader(*(getattr(header(), f) for f in
                        ("lineup", "names", "players", "seed", "rules")), engine="99.0")
    with pytest.raises(ResultsError, match="tienlen version is .*, this run's is 99.0"):
        GamesFile.open(path, newer, games=12, resume=True)
    # ... and the file is untouched by the refusals.
    assert same(load(path), run(LINEUP, 12, players=PLAYERS, seed=7))


def test_bad_files_are_clear_errors(tmp_path: Path) -> None:
    with pytest.raises(ResultsError, match=r"\.jsonl .*\.parquet"):
        GamesFile.open(tmp_path / "games.csv", header(), games=12)
    with pytest.raises(ResultsError, match="no such file"):
        read(tmp_path / "absent.jsonl")
    junk = tmp_path / "junk.jsonl"
    junk.write_text('{"hello": 1}\n')
    with pytest.raises(ResultsError, match="not a tienlen games file"):
        read(junk)
    # A unit whose rows were edited: a game twice, or places that are not 1..players.
    path = tmp_path / "games.jsonl"
    with GamesFile.open(path, header(), games=6) as out:
        run(LINEUP, 6, players=PLAYERS, seed=7, on_unit=out.write)
    lines = path.read_text().splitlines()
    twice = lines[:3] + [lines[2]] + lines[4:]     # header, games, then rows
    path.write_text("\n".join(twice) + "\n")
    with pytest.raises(ResultsError, match="twice"):
        read(path)
    row = json.loads(lines[2])
    row["places"] = [1, 1, 3]
    path.write_text("\n".join(lines[:2] + [json.dumps(row)] + lines[3:]) + "\n")
    with pytest.raises(ResultsError, match="places 1..3"):
        read(path)


def test_done_units_are_checked() -> None:
    whole = run(LINEUP, 6, players=PLAYERS, seed=7)
    units: list[Unit] = []
    run(LINEUP, 6, players=PLAYERS, seed=7, unit_deals=1, on_unit=units.append)
    with pytest.raises(ArenaError, match="outside this run's deals"):
        run(LINEUP, 3, players=PLAYERS, seed=7, done=units)
    with pytest.raises(ArenaError, match="overlap"):
        run(LINEUP, 6, players=PLAYERS, seed=7, done=[units[0], units[0]])
    with pytest.raises(ArenaError, match="shape"):
        run(["L1", "L1"], 4, players=2, seed=7, done=[units[0]])
    # Every unit already done: nothing is played, and the result is the same.
    assert same(run(LINEUP, 6, players=PLAYERS, seed=7, done=units,
                    on_unit=lambda u: pytest.fail("replayed")), whole)


class _Raiser(RandomBot):
    def choose(self, view):
        raise RuntimeError("out of ideas")


def test_a_bot_that_raises_is_named_with_its_game() -> None:
    with pytest.raises(ArenaError, match=r"random \(seat \d, deal 0, rotation 0\) raised "
                                         r"RuntimeError: out of ideas"):
        run([_Raiser, "L1"], 2, players=2)


def test_the_deals_on_file_are_the_seeded_deals(tmp_path: Path) -> None:
    # Independent of the arena: deal d's cards come from hand_seed(seed, d + 1), so a
    # reader can rebuild any game from its row. Check one against the core's deal.
    from tienlen import core

    path = tmp_path / "games.jsonl"
    seen = []

    class Peek(RandomBot):
        def choose(self, view):
            if not view.history:
                seen.append(view.hand.mask)
            return super().choose(view)

    with GamesFile.open(path, RunHeader.of([Peek, Peek], 2, seed=3), games=2) as out:
        run([Peek, Peek], 2, players=2, seed=3, on_unit=out.write)
    assert seen[0] in core.deal(hand_seed(3, 1), 2)
    assert read(path).header.lineup[0].endswith("Peek")


@FORMATS
def test_discard_removes_only_a_file_this_run_created_empty(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"games.{suffix}"
    GamesFile.open(path, header(), games=12).discard()
    assert list(tmp_path.iterdir()) == []
    with GamesFile.open(path, header(), games=12) as out:
        run(LINEUP, 6, players=PLAYERS, seed=7, on_unit=out.write)
    # Reopened to resume, or holding games: discarding keeps it.
    GamesFile.open(path, header(), games=12, resume=True).discard()
    assert read(path).played == 6


# --- hostile values (issue 24) --------------------------------------------------------


def _jsonl_lines(tmp_path: Path) -> tuple[Path, list[str]]:
    """A finished 6-game file and its lines: header, games, three rows, the unit line."""
    path = tmp_path / "games.jsonl"
    with GamesFile.open(path, header(), games=6) as out:
        run(LINEUP, 6, players=PLAYERS, seed=7, unit_deals=2, on_unit=out.write)
    return path, path.read_text().splitlines()


def _edited(line: str, **changes: object) -> str:
    record = json.loads(line)
    for key, value in changes.items():
        if isinstance(value, tuple):      # (index, value): one entry of a list field
            record[key][value[0]] = value[1]
        else:
            record[key] = value
    return json.dumps(record)


HOSTILE_JSONL = {
    # name: (line index, the edit); the unit line is index 8 (header, games, 6 rows).
    "unit-5": (8, {"unit": 5}),
    "unit-null": (8, {"unit": None}),
    "unit-three-numbers": (8, {"unit": [0, 2, 3]}),
    "unit-float": (8, {"unit": [0, 2.0]}),
    "places-300": (2, {"places": (0, 300)}),
    "places-float": (2, {"places": (0, 1.0)}),
    "decisions-2**40": (2, {"decisions": (0, 2**40)}),
    "decisions-negative": (2, {"decisions": (0, -1)}),
    "rotation-2**70": (2, {"rotation": 2**70}),
    "rotation-true": (2, {"rotation": True}),
    "deal-text": (2, {"deal": "0"}),
    "seconds-nan": (2, {"seconds": (0, float("nan"))}),
    "seconds-text": (2, {"seconds": (0, "1")}),
    "seats-list": (2, {"seats": (0, [0])}),
    "header-seed-infinity": (0, {"seed": float("inf")}),
    "header-seed-float": (0, {"seed": 7.0}),
    "header-players-text": (0, {"players": "3"}),
}


@pytest.mark.parametrize("name", HOSTILE_JSONL)
def test_hostile_jsonl_value_is_results_error(tmp_path: Path, name: str) -> None:
    # Issue 24: these gave a TypeError or OverflowError traceback, or (a float or text)
    # were converted silently; each field is now checked once, where it is read.
    path, lines = _jsonl_lines(tmp_path)
    at, edit = HOSTILE_JSONL[name]
    lines[at] = _edited(lines[at], **edit)
    path.write_text("\n".join(lines) + "\n")
    # NaN and Infinity are not JSON: the one decoder refuses them before any field is read.
    refused = (r"games\.jsonl:\d+: (.*(bad|unit|header)"
               r"|not a JSON line: (NaN|Infinity|-Infinity) is not a JSON number)")
    with pytest.raises(ResultsError, match=refused):
        read(path)
    with pytest.raises(ResultsError):
        GamesFile.open(path, header(), games=6, resume=True)


def _parquet_unit_with(path: Path, column: str, values: list[int]) -> None:
    """Rewrite the dataset's first unit with ``column`` as int64 lists of ``values`` (the
    first entry of each game) — a file no run writes, but any Parquet writer can."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    unit = sorted(path.glob("unit-*.parquet"))[0]
    table = pq.read_table(unit)
    flat = table.column(column).combine_chunks().flatten().to_numpy().astype("int64")
    flat[0::PLAYERS][:len(values)] = values
    lists = pa.FixedSizeListArray.from_arrays(pa.array(flat, pa.int64()), PLAYERS)
    table = table.set_column(table.schema.get_field_index(column), column, lists)
    pq.write_table(table, unit)


@pytest.mark.parametrize("column, values", [
    ("places", [257, 258]),              # read as int8: 1 and 2, a valid game's places
    ("decisions", [2**32 + 10]),         # read as int32: 10
    ("seats", [256]),
    ("places", [-255]),
], ids=["places-257-258", "decisions-2**32+10", "seats-256", "places-negative"])
def test_hostile_parquet_value_is_results_error_not_wrapped(tmp_path: Path, column: str,
                                                           values: list[int]) -> None:
    pytest.importorskip("pyarrow")
    path = tmp_path / "games.parquet"
    with GamesFile.open(path, header(), games=6) as out:
        run(LINEUP, 6, players=PLAYERS, seed=7, unit_deals=2, on_unit=out.write)
    _parquet_unit_with(path, column, values)
    with pytest.raises(ResultsError, match=f"unit-.*{column} holds a value outside"):
        read(path)


def test_parquet_header_seed_infinity_is_results_error(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    path = tmp_path / "games.parquet"
    with GamesFile.open(path, header(), games=6) as out:
        run(LINEUP, 6, players=PLAYERS, seed=7, on_unit=out.write)
    record = json.loads((path / "_run.json").read_text())
    record["seed"] = float("inf")
    (path / "_run.json").write_text(json.dumps(record))
    with pytest.raises(ResultsError, match="_run.json: not a JSON line: Infinity is not a "
                                           "JSON number"):
        read(path)


def test_sim_resume_header_seed_infinity_is_clear_error(tmp_path: Path) -> None:
    # Issue 24: `tienlen sim --resume` on such a file printed an OverflowError traceback.
    import subprocess
    import sys

    path = tmp_path / "games.jsonl"
    with GamesFile.open(path, RunHeader.of(["random", "random"], 2, seed=0), games=4) as out:
        run(["random", "random"], 2, players=2, seed=0, on_unit=out.write)
    lines = path.read_text().splitlines()
    lines[0] = lines[0].replace('"seed": 0', '"seed": Infinity')
    assert "Infinity" in lines[0]
    path.write_text("\n".join(lines) + "\n")
    done = subprocess.run([sys.executable, "-m", "tienlen", "sim", "--bots", "random",
                           "--players", "2", "--games", "4", "--seed", "0", "--out", str(path),
                           "--resume"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert "games.jsonl:1: not a JSON line: Infinity is not a JSON number" in done.stderr


# --- one writer per file (issue 24) -----------------------------------------------------


@FORMATS
def test_second_writer_of_same_file_is_refused(tmp_path: Path, suffix: str) -> None:
    # Issue 24: two `sim --out FILE --resume` at once both wrote (.jsonl: at the same
    # offsets, leaving a file no later resume reads; .parquet: the same temporary unit).
    path = tmp_path / f"games.{suffix}"
    with GamesFile.open(path, header(), games=12) as first:
        with pytest.raises(ResultsError, match="being written by another run"):
            GamesFile.open(path, header(), games=12, resume=True)
        run(LINEUP, 12, players=PLAYERS, seed=7, unit_deals=2, on_unit=first.write)
    # Released at close: the next resume opens it, and the file is whole.
    with GamesFile.open(path, header(), games=12, resume=True) as again:
        assert again.played == 12
    assert load(path).games == 12
    assert not (tmp_path / f"games.{suffix}.lock").exists()    # the holder removed it


@FORMATS
def test_refused_second_writer_changes_nothing(tmp_path: Path, suffix: str) -> None:
    path = tmp_path / f"games.{suffix}"
    with GamesFile.open(path, header(), games=12):
        for resume in (False, True):
            with pytest.raises(ResultsError, match="another run"):
                GamesFile.open(path, header(), games=12, resume=resume)
    assert read(path).units == [] and read(path).games == 12


_HOLD = """
import sys, time
from tienlen.arena.files import GamesFile, RunHeader
out = GamesFile.open(sys.argv[1], RunHeader.of({lineup!r}, {players}, seed=7), games=12,
                     resume=True)
print("locked", flush=True)
time.sleep(120)
"""


@FORMATS
def test_lock_of_killed_writer_does_not_block_resume(tmp_path: Path, suffix: str) -> None:
    # Issue 24: a lock must not outlive a killed run. A real process takes the lock and
    # is killed with SIGKILL (no cleanup runs); the next writer takes the lock at once.
    import signal
    import subprocess
    import sys

    if not hasattr(signal, "SIGKILL"):
        pytest.skip("no SIGKILL here")
    path = tmp_path / f"games.{suffix}"
    holder = subprocess.Popen([sys.executable, "-c", _HOLD.format(lineup=LINEUP, players=PLAYERS),
                               str(path)], stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        with pytest.raises(ResultsError, match=rf"another run \(process {holder.pid}\)"):
            GamesFile.open(path, header(), games=12, resume=True)
        holder.send_signal(signal.SIGKILL)
        holder.wait(timeout=30)
    finally:
        holder.kill()
        holder.wait()
    assert (tmp_path / f"games.{suffix}.lock").exists()     # left behind, but not locked
    with GamesFile.open(path, header(), games=12, resume=True) as out:
        run(LINEUP, 12, players=PLAYERS, seed=7, on_unit=out.write)
    assert load(path).games == 12
