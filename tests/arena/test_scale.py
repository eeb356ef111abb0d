"""The arena on a Dask cluster (tienlen.arena.scale): the same results as a serial run whatever
runs the units, and the faults of a cluster (a worker killed, the client interrupted, a
bot failing on a worker, no scheduler) handled as the issue asks.

The cluster is a ``LocalCluster`` of two worker processes bound to 127.0.0.1 with no
dashboard, shared by the module (it takes a few seconds to start)."""

from __future__ import annotations

import functools
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

distributed = pytest.importorskip("distributed")

from tienlen import arena

from tienlen.arena import files  # noqa: E402
from tienlen.arena import ArenaError, Unit, simulate  # noqa: E402
from tienlen.games.tienlen.bots import RandomBot  # noqa: E402
from tienlen.cli import main  # noqa: E402
from tienlen.games.tienlen.game import PASS  # noqa: E402
from tienlen.arena.scale import (ClientExecutor, ScaleError, dask_executor, parse_scheduler,  # noqa: E402
                           unit_deals)

LINEUP = ["L1", "random", "L1", "L1"]
GAMES = 400



def run(lineup, games, *, players=4, **options):  # type: ignore[no-untyped-def]
    """Tiến Lên's arena (tienlen.arena.simulate), four players unless told."""
    return simulate("tienlen", lineup, games, players=players, **options)

def same(a: arena.ArenaResult, b: arena.ArenaResult) -> bool:
    return (a.names == b.names and a.places.shape == b.places.shape
            and bool((a.places == b.places).all()) and bool((a.decisions == b.decisions).all()))


@pytest.fixture(scope="module")
def cluster():
    # The settings of `--scheduler local:N` (tienlen.arena.scale): the kill tests below kill a
    # worker twice, about as far apart as Dask's default lost-worker-timeout (15 s), which
    # with Dask's defaults could close the restarted worker's nanny.
    import dask

    from tienlen.arena.scale import _LOCAL_CLUSTER_CONFIG

    with dask.config.set(_LOCAL_CLUSTER_CONFIG), distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
            dashboard_address=None, worker_dashboard_address=None,
            scheduler_kwargs={"dashboard_address": "127.0.0.1:0"}) as local:
        with distributed.Client(local, set_as_default=False) as client:
            yield local, client


@pytest.fixture(scope="module")
def serial() -> arena.ArenaResult:
    return run(LINEUP, GAMES, seed=21)


def _listening(pids: list[int]) -> set[str]:
    import psutil

    hosts = set()
    for pid in pids:
        for conn in psutil.Process(pid).net_connections(kind="inet"):
            if conn.status == psutil.CONN_LISTEN:
                hosts.add(conn.laddr.ip)
    return hosts


def test_local_clusters_listen_on_loopback_only(cluster) -> None:
    local, client = cluster
    assert local.scheduler_address.startswith("tcp://127.0.0.1:")
    assert all(w.startswith("tcp://127.0.0.1:") for w in client.scheduler_info()["workers"])
    # What --scheduler local:N starts: scheduler (here), nannies and workers, and their
    # HTTP endpoints, all on 127.0.0.1; and no dashboard.
    with dask_executor("local:1") as (executor, workers):
        assert workers == 1
        # ... and with Dask's housekeeping clocks slowed on the workers (docs/scale.md).
        import dask

        assert isinstance(executor, ClientExecutor)
        seen = executor._client.run(lambda: (dask.config.get("distributed.admin.tick.interval"),
                                            dask.config.get("distributed.worker.profile.enabled")))
        assert list(seen.values()) == [("1s", False)]
        import psutil

        family = [os.getpid(), *(p.pid for p in psutil.Process().children(recursive=True))]
        assert _listening(family) == {"127.0.0.1"}


def test_a_cluster_gives_the_serial_results(cluster, serial: arena.ArenaResult) -> None:
    _, client = cluster
    units: list[Unit] = []
    result = run(LINEUP, GAMES, seed=21, executor=ClientExecutor(client),
                 unit_deals=7, on_unit=units.append)
    assert same(result, serial)
    assert sorted(u.start for u in units) == list(range(0, 100, 7))
    assert same(run(LINEUP, GAMES, seed=21, jobs=2), serial)
    # Both workers took part (the units were spread, not run on one).
    assert len(client.run(os.getpid)) == 2


def test_a_killed_worker_costs_nothing_but_time(cluster, serial: arena.ArenaResult) -> None:
    _, client = cluster
    pids = client.run(os.getpid)
    victim = next(iter(pids.values()))
    after_kill: list[int] = []
    killed = False

    def on_unit(unit: Unit) -> None:
        nonlocal killed
        if not killed:
            os.kill(victim, signal.SIGKILL)    # in the middle of the run: 49 units to go
            killed = True
        else:
            after_kill.append(unit.start)

    result = run(LINEUP, GAMES, seed=21, executor=ClientExecutor(client),
                 unit_deals=2, on_unit=on_unit)
    assert killed and len(after_kill) == 49
    assert same(result, serial)
    client.wait_for_workers(2, timeout=60)    # the nanny restarts the worker
    assert victim not in client.run(os.getpid).values()


class _Cheater(RandomBot):
    def choose(self, view):
        return PASS if len(view.history) > 20 else super().choose(view)


class _Raiser(RandomBot):
    def choose(self, view):
        if len(view.history) > 10:
            raise ZeroDivisionError("the bot divided by zero")
        return super().choose(view)


def test_a_bot_failing_on_a_worker_stops_the_run_naming_it(cluster) -> None:
    _, client = cluster
    executor = ClientExecutor(client)
    with pytest.raises(ArenaError, match=r"random \(seat \d, deal \d+, rotation \d\) raised "
                                         r"ZeroDivisionError: the bot divided by zero"):
        run([_Raiser, "L1"], 40, players=2, executor=executor, unit_deals=2)
    with pytest.raises(ArenaError, match=r"random \(seat \d, deal \d+, rotation \d\) made an "
                                         r"illegal move PASS"):
        run([functools.partial(_Cheater), "L1"], 40, players=2, executor=executor, unit_deals=2)


def test_workers_with_another_tienlen_are_refused(cluster, monkeypatch) -> None:
    import tienlen

    local, _ = cluster
    real = tienlen.__version__
    monkeypatch.setattr(tienlen, "__version__", "9.9.9")    # this side only
    with pytest.raises(ScaleError, match=rf"runs tienlen {re.escape(real)}, this machine 9\.9\.9"):
        with dask_executor(local.scheduler_address):
            pytest.fail("ran on mismatched workers")


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_an_unreachable_scheduler_is_a_quick_clear_error(capsys, tmp_path: Path) -> None:
    address = f"tcp://127.0.0.1:{_closed_port()}"
    t0 = time.monotonic()
    status = main(["sim", "--bots", "L1", "--games", "8", "--scheduler", address,
                   "--out", str(tmp_path / "games.jsonl")])
    assert time.monotonic() - t0 < 10
    assert list(tmp_path.iterdir()) == []     # the run never started: no file left
    out, err = capsys.readouterr()
    assert status == 2 and out == ""
    assert err.startswith(f"tienlen: error: cannot reach the Dask scheduler at {address}")
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("suffix", [".jsonl", ".parquet"])
def test_an_unreachable_scheduler_leaves_no_guandan_file(capsys, tmp_path: Path,
                                                        suffix: str) -> None:
    address = f"tcp://127.0.0.1:{_closed_port()}"
    status = main(["sim", "--game", "guandan", "--bots", "L1,L1", "--hands", "8",
                   "--scheduler", address, "--out", str(tmp_path / f"games{suffix}")])
    assert status == 2
    assert list(tmp_path.iterdir()) == []     # the run never started: no file left
    assert capsys.readouterr().err.startswith(
        f"tienlen: error: cannot reach the Dask scheduler at {address}")


def test_scheduler_addresses_and_unit_sizes() -> None:
    assert parse_scheduler("tcp://10.1.2.3:8786") == ("address", "tcp://10.1.2.3:8786")
    assert parse_scheduler("local:3") == ("local", 3)
    for bad in ("local:0", "local:x", "http://a b", ""):
        with pytest.raises(ScaleError):
            parse_scheduler(bad)
    # Fast bots: thousands of games a unit; slow ones fewer; never fewer than a deal.
    assert unit_deals(["L1"] * 4, deals=250_000, workers=8) * 4 >= 2000
    assert unit_deals(["L3", "L1", "L1", "L1"], deals=250_000, workers=8) * 4 < 100
    assert unit_deals(["L3"] * 4, deals=1, workers=64) == 1
    # Short runs still give every worker a few units.
    assert unit_deals(["L1"] * 4, deals=1000, workers=8) * 8 * 4 <= 1000 + 8 * 4


def _units_on_file(path: Path) -> int:
    try:
        return path.read_text().count('{"unit"')
    except OSError:
        return 0


SOAK = pytest.mark.skipif(os.environ.get("TIENLEN_SOAK") != "1", reason="TIENLEN_SOAK=1 only")


@pytest.mark.parametrize("where", ["tcp", pytest.param("local:2", marks=SOAK)])
def test_an_interrupted_cli_run_resumes_to_the_serial_result(
    where: str, cluster, tmp_path: Path, capsys
) -> None:
    # The client is a `tienlen sim` process, on the module's cluster (or on a local:2 it
    # starts itself), stopped by SIGINT (Ctrl-C) once a few units are on file; resumed on
    # the module's cluster, the run must give the serial result.
    local, _ = cluster
    path, report = tmp_path / "games.jsonl", tmp_path / "result.json"
    args = ["sim", "--bots", "L1,random,L1,L1", "--games", "800", "--seed", "5",
            "--unit-games", "16", "--out", str(path), "--scheduler", local.scheduler_address]
    child_args = args[:-1] + [where] if where != "tcp" else args
    child = subprocess.Popen(
        [sys.executable, "-m", "tienlen", *child_args], stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, env={**os.environ, "TERM": "dumb"})
    try:
        deadline = time.monotonic() + 60
        while _units_on_file(path) < 3 and time.monotonic() < deadline and child.poll() is None:
            time.sleep(0.02)
        child.send_signal(signal.SIGINT)
        _, err = child.communicate(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == 130, err
    assert "games are in" in err and "--resume" in err and "Traceback" not in err
    on_file = files.read(path)
    assert 3 <= len(on_file.units) < 50 and on_file.games == 800

    # Resumed: only the missing units are played.
    status = main([*args, "--resume", "--json", str(report)])
    _, err = capsys.readouterr()
    assert status == 0 and f"resuming {path}: {on_file.played} of 800 games" in err
    expected = run(LINEUP, 800, seed=5)
    assert same(files.load(path), expected)
    record = json.loads(report.read_text())
    assert [b["decisions"] for b in record["bots"]] == expected.decisions.tolist()


@SOAK
def test_a_cluster_started_with_the_dask_commands_gives_the_serial_results(
    tmp_path: Path, capsys
) -> None:
    # What docs/scale.md tells users to run, on loopback: `dask scheduler` and `dask worker`.
    dask = Path(sys.executable).with_name("dask")
    port = _closed_port()
    address = f"tcp://127.0.0.1:{port}"
    procs = [subprocess.Popen([str(dask), "scheduler", "--host", "127.0.0.1", "--port",
                               str(port), "--no-dashboard"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)]
    try:
        procs.append(subprocess.Popen(
            [str(dask), "worker", address, "--nworkers", "2", "--nthreads", "1", "--host",
             "127.0.0.1", "--no-dashboard"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        with distributed.Client(address, timeout="30s", set_as_default=False) as client:
            client.wait_for_workers(2, timeout=60)
        path = tmp_path / "games.parquet"
        status = main(["sim", "--bots", "L1,random,L1,L1", "--games", "4000", "--seed", "9",
                       "--scheduler", address, "--out", str(path)])
        assert status == 0, capsys.readouterr().err
        assert same(files.load(path), run(LINEUP, 4000, seed=9))
    finally:
        for proc in reversed(procs):
            proc.terminate()
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()


# --- Guandan on the cluster (issue 25: the same scale-out for every game) ---------------


def _same_boards(a, b) -> bool:
    return a.games_table() == b.games_table()


@pytest.fixture(scope="module")
def guandan_serial():

    return simulate("guandan", ["L1", "L1"], 60, mode="hand", seed=21)


def test_a_cluster_plays_guandan_boards_as_a_serial_run(cluster, guandan_serial) -> None:

    _, client = cluster
    units = []
    result = simulate("guandan", ["L1", "L1"], 60, mode="hand", seed=21,
                      executor=ClientExecutor(client),
                               unit_deals=4, on_unit=units.append)
    assert _same_boards(result, guandan_serial)
    assert sorted(u.start for u in units) == list(range(0, 30, 4))


def test_a_killed_worker_loses_no_guandan_game(cluster, guandan_serial) -> None:

    _, client = cluster
    client.wait_for_workers(2, timeout=60)
    victim = next(iter(client.run(os.getpid).values()))
    after_kill: list[int] = []
    killed = False

    def on_unit(unit) -> None:
        nonlocal killed
        if not killed:
            os.kill(victim, signal.SIGKILL)    # in the middle of the run: 14 units to go
            killed = True
        else:
            after_kill.append(unit.start)

    result = simulate("guandan", ["L1", "L1"], 60, mode="hand", seed=21,
                      executor=ClientExecutor(client),
                               unit_deals=2, on_unit=on_unit)
    assert killed and len(after_kill) == 14
    assert _same_boards(result, guandan_serial)
    client.wait_for_workers(2, timeout=60)
    assert victim not in client.run(os.getpid).values()


def test_a_local_cluster_survives_a_second_death_at_the_lost_worker_deadline() -> None:
    # Found by CI: Dask closes a removed worker's nanny for good when no worker of its name
    # has registered lost-worker-timeout (15 s by default) after the removal. A worker
    # killed, restarted, and killed again just before that deadline (its replacement not
    # yet up) lost its nanny, and a `--scheduler local:N` run went on a worker short.
    from dask.utils import parse_timedelta

    with dask_executor("local:1") as (executor, workers):
        import dask

        assert isinstance(executor, ClientExecutor)
        client = executor._client
        deadline = parse_timedelta(dask.config.get("distributed.deploy.lost-worker-timeout"))
        assert deadline > 24 * 3600    # never, for a run on one machine
        [first] = _worker_pids(client)
        os.kill(first, signal.SIGKILL)
        killed_at = time.monotonic()
        deadline_then = 15.0            # Dask's default, to kill the replacement just before it
        while _worker_pids(client) in ([], [first]):
            time.sleep(0.05)            # the nanny's restart
        time.sleep(max(0.0, killed_at + deadline_then - 0.3 - time.monotonic()))
        [second] = _worker_pids(client)
        os.kill(second, signal.SIGKILL)
        time.sleep(1.0)                 # past the first removal's deadline
        give_up = time.monotonic() + 30
        while _worker_pids(client) in ([], [second]) and time.monotonic() < give_up:
            time.sleep(0.05)
        pids = _worker_pids(client)
        assert len(pids) == workers == 1 and pids[0] not in (first, second)


def _worker_pids(client) -> list[int]:
    # The live workers' pids (a worker that has just died, not yet removed, is skipped).
    return [pid for pid in client.run(os.getpid, on_error="ignore").values()
            if isinstance(pid, int)]


def test_the_fingerprint_names_every_game_s_deal() -> None:
    from tienlen.arena.scale import _fingerprint
    from tienlen.seeds import mix
    from tienlen.table import get_spec

    text = _fingerprint()
    for name in ("tienlen", "guandan"):
        hand = get_spec(name).new_match(mix(0, 1)).view(0)["hand"]
        assert len(hand) >= 13 and str(hand) in text


def _file_state(path: Path) -> object:
    """A games file's bytes, or a Parquet dataset's files' bytes by name."""
    if path.is_dir():
        return {p.name: p.read_bytes() for p in sorted(path.iterdir())}
    return path.read_bytes()


@pytest.mark.parametrize("suffix", [".jsonl", ".parquet"])
def test_guandan_sim_resumes_on_a_scheduler_to_the_serial_result(cluster, tmp_path: Path,
                                                                 capsys, suffix) -> None:

    local, _ = cluster
    out = tmp_path / f"boards{suffix}"
    args = ["sim", "--game", "guandan", "--bots", "L1,L1", "--seed", "21", "--out", str(out),
            "--unit-games", "8", "--scheduler", local.scheduler_address]
    assert main([*args, "--hands", "24"]) == 0
    assert files.load(out).games == 24
    assert main([*args, "--hands", "60", "--resume"]) == 0
    assert "resuming" in capsys.readouterr().err
    assert _same_boards(files.load(out), simulate("guandan", ["L1", "L1"], 60, mode="hand", seed=21))
    header = json.loads((out / "_run.json").read_text() if suffix == ".parquet"
                        else out.read_text().splitlines()[0])
    assert header["game"] == "guandan" and header["version"] == 2
    # another run's file is refused, untouched
    before = _file_state(out)
    assert main(["sim", "--game", "guandan", "--bots", "L2,L1", "--seed", "21", "--out",
                 str(out), "--hands", "60", "--resume"]) != 0
    assert "another run's games: its teams" in capsys.readouterr().err
    assert _file_state(out) == before
