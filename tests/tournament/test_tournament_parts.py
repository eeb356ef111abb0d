"""The tournament's parts that need no server: entrants and schedule, the matches file
(both formats, one writer, a torn tail, resume only of the same run) and the ratings."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from tienlen.tournament.files import ROW_DEFAULTS, MatchesFile
from tienlen.tournament.ratings import fit, rate
from tienlen.tournament.schedule import (TournamentError, command_line, parse_entrant,
                                         schedule)

HEADER = {"game": "guandan", "entrants": ["a", "b"], "matches": 4, "seed": 1}


def _row(i: int, **kw: object) -> dict[str, object]:
    return dict(ROW_DEFAULTS, match=i, a=0, b=1, winner=i % 2, hands=3, **kw)


@pytest.mark.parametrize("text", ["", "=cmd", "1x=cmd", "me=", "me=ours:", "me=python 'a",
                                  "L 2"])
def test_bad_entrants_are_refused(text: str) -> None:
    with pytest.raises(TournamentError):
        parse_entrant(text)


def test_commands_fill_their_fields_and_only_those() -> None:
    entrant = parse_entrant("me=ours:python a.py {url} --x {{literal}}")
    assert entrant.kind == "ours"
    assert command_line(entrant, url="U", port=1, seat=3) == ["python", "a.py", "U", "--x",
                                                              "{literal}"]
    with pytest.raises(TournamentError, match="unknown field"):
        command_line(parse_entrant("me=python {host}"), url="U", port=1, seat=0)


def test_every_pairing_plays_the_same_boards_from_both_sides() -> None:
    plan = schedule(4, matches=4)
    assert len(plan) == 6 * 4 and [m.index for m in plan] == list(range(24))
    for k in range(0, len(plan), 4):
        a, b, c, d = plan[k:k + 4]
        assert (a.board, b.board, c.board, d.board) == (0, 0, 1, 1)
        assert a.seats == (a.a, a.b, a.a, a.b) and b.seats == (b.b, b.a, b.b, b.a)
    gauntlet = schedule(4, matches=2, gauntlet=3)
    assert {(m.a, m.b) for m in gauntlet} == {(3, 0), (3, 1), (3, 2)}
    for bad in (dict(entrants=1, matches=1), dict(entrants=3, matches=0),
                dict(entrants=3, matches=1, gauntlet=5)):
        with pytest.raises(TournamentError):
            schedule(**bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("suffix", [".jsonl", ".parquet"])
def test_the_file_keeps_every_match_once_and_resumes(tmp_path: Path, suffix: str) -> None:
    if suffix == ".parquet":
        pytest.importorskip("pyarrow")
    path = tmp_path / f"t{suffix}"
    with MatchesFile.open(path, HEADER) as out:
        out.write(_row(0))
        out.write(_row(2, failed=5, forfeit=1))
        with pytest.raises(TournamentError, match="on file already"):
            out.write(_row(2))
    with pytest.raises(TournamentError, match="exists"):
        MatchesFile.open(path, HEADER)
    with MatchesFile.open(path, HEADER, resume=True) as out:
        assert out.done == {0, 2} and out.rows[2]["failed"] == 5
        out.write(_row(1))
    with MatchesFile.open(path, HEADER, resume=True) as out:
        assert out.done == {0, 1, 2}
    with pytest.raises(TournamentError, match="another run: its seed differ"):
        MatchesFile.open(path, dict(HEADER, seed=2), resume=True)


def test_one_writer_at_a_time(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    with MatchesFile.open(path, HEADER):
        with pytest.raises(TournamentError, match="being written by another run"):
            MatchesFile.open(path, HEADER, resume=True)


def test_a_torn_tail_is_cut_and_a_bad_line_refused(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    with MatchesFile.open(path, HEADER) as out:
        out.write(_row(0))
    with path.open("ab") as stream:
        stream.write(b'{"match": 1, "a": 0')              # cut mid-line by a crash
    with MatchesFile.open(path, HEADER, resume=True) as out:
        assert out.done == {0}
        out.write(_row(1))
    with MatchesFile.open(path, HEADER, resume=True) as out:
        assert out.done == {0, 1}
    with path.open("ab") as stream:
        stream.write(b"[" * 10_000 + b"]" * 10_000 + b"\n")
    with pytest.raises(TournamentError, match="nested deeper"):
        MatchesFile.open(path, HEADER, resume=True)


@pytest.mark.parametrize("line", [b'{"match": -1}', b'{"match": 1, "a": true}',
                                  b'{"match": 3, "a": 0, "b": 1, "board": 0, "side": 0, '
                                  b'"winner": 0, "team_won": 0, "hands": 1, "hands_a": 0, '
                                  b'"hands_b": 1, "failed": 0, "forfeit": 0, "seconds": NaN}'])
def test_a_bad_row_is_refused_in_one_line(tmp_path: Path, line: bytes) -> None:
    path = tmp_path / "t.jsonl"
    with MatchesFile.open(path, HEADER):
        pass
    with path.open("ab") as stream:
        stream.write(line + b"\n")
    with pytest.raises(TournamentError) as info:
        MatchesFile.open(path, HEADER, resume=True)
    assert "\n" not in str(info.value)


@pytest.mark.skipif(sys.platform == "win32", reason="symbolic links")
def test_the_file_is_not_written_through_a_link(tmp_path: Path) -> None:
    victim = tmp_path / "victim"
    victim.write_text("keep")
    os.symlink(victim, tmp_path / "t.jsonl")
    with pytest.raises((TournamentError, OSError)):
        MatchesFile.open(tmp_path / "t.jsonl", HEADER)
    assert victim.read_text() == "keep"


def test_ratings_order_the_entrants_and_bound_them() -> None:
    games = [(0, 1, 1.0)] * 8 + [(0, 1, 0.0)] * 2 + [(1, 2, 1.0)] * 8 + [(1, 2, 0.0)] * 2
    table = rate(3, games, replicates=200, seed=3)
    assert table[0].rating > table[1].rating > table[2].rating
    assert abs(sum(r.rating for r in table) / 3 - 1500) < 1e-6
    for r in table:
        assert r.interval[0] <= r.rating <= r.interval[1]
    assert rate(3, games, replicates=50, seed=3) == rate(3, games, replicates=50, seed=3)
    # who plays whom changes nothing: swapping the sides of every game mirrors the result
    mirrored = fit(3, [(b, a, 1 - s) for a, b, s in games])
    assert abs(mirrored - fit(3, games)).max() < 1e-6
    # everything won still gives finite ratings (the prior)
    assert all(abs(x) < 5000 for x in fit(2, [(0, 1, 1.0)] * 50))
    assert list(fit(3, [])) == [1500.0, 1500.0, 1500.0]
