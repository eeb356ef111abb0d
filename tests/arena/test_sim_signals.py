"""``tienlen sim --jobs N`` stopped from outside (issue 24): SIGTERM, as a batch system or a
service manager sends it, and SIGKILL of the parent. No worker process may outlive the run
by more than a few seconds, and the results file stays resumable. Real subprocesses, real
signals; the children are found with psutil (installed with the test extra, via dask)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tienlen.arena import files

psutil = pytest.importorskip("psutil")
pytestmark = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="POSIX signals")

#: How long a worker may outlive its run.
GRACE = 10.0
#: Small, quick games: 600 of them in 30 units, so that a unit lands within a second or two
#: and the run is still going when the signal comes.
TIENLEN = ["--bots", "random", "--players", "4", "--games", "600", "--unit-games", "20",
           "--seed", "3"]


def start(args: list[str], logs: Path) -> subprocess.Popen[str]:
    """The run, its output to files (a pipe would stay open while any worker lives)."""
    # A session of its own: a signal to its process group reaches the run, not pytest.
    return subprocess.Popen([sys.executable, "-m", "tienlen", "sim", *args],
                            stdout=(logs / "out.txt").open("w"),
                            stderr=(logs / "err.txt").open("w"), text=True,
                            start_new_session=True)


def ended(run: subprocess.Popen[str], logs: Path) -> tuple[str, str]:
    """Wait for the run's own process; its stdout and stderr."""
    run.wait(timeout=60)
    return (logs / "out.txt").read_text(), (logs / "err.txt").read_text()


def wait_for_units(path: Path, process: subprocess.Popen[str], units: int) -> None:
    """Until ``units`` closing lines are on file (the run is mid-way), or fail."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"the run ended first, status {process.returncode}")
        if path.exists() and path.read_bytes().count(b'"unit"') >= units:
            return
        time.sleep(0.05)
    pytest.fail("no unit landed in 120 s")


def workers(process: subprocess.Popen[str]) -> list:
    """The run's worker processes (every descendant), once both have started."""
    parent = psutil.Process(process.pid)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        children = parent.children(recursive=True)
        if len(children) >= 2:
            return children
        time.sleep(0.05)
    pytest.fail("the run never had two workers")


def alive(procs: list) -> list:
    """Those still running (a zombie waiting to be reaped has exited)."""
    out = []
    for p in procs:
        try:
            if p.is_running() and p.status() != psutil.STATUS_ZOMBIE:
                out.append(p)
        except psutil.NoSuchProcess:
            pass
    return out


def assert_all_exit(procs: list) -> None:
    deadline = time.monotonic() + GRACE
    while alive(procs) and time.monotonic() < deadline:
        time.sleep(0.1)
    left = alive(procs)
    for p in left:          # do not leave them running after a failure
        p.kill()
    assert not left, f"{len(left)} worker(s) outlived the run by {GRACE} s: {left}"


def resume_and_check(path: Path) -> None:
    done = subprocess.run([sys.executable, "-m", "tienlen", "sim", *TIENLEN, "--jobs", "2",
                           "--out", str(path), "--resume"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "resuming" in done.stderr
    loaded = files.load(path)
    assert loaded.games == 600 and loaded.places.shape[0] == 150


@pytest.mark.parametrize("to_group", [False, True], ids=["parent", "process-group"])
def test_sim_jobs_sigterm_leaves_no_worker_and_resumes(tmp_path: Path, to_group: bool) -> None:
    # Issue 24: SIGTERM killed the parent at once and left both workers blocked on the
    # pool's queue for ever. Now SIGTERM is Ctrl-C: the completed units are kept, the
    # workers stop, and the exit status is Ctrl-C's. A service manager may signal the
    # whole group (the workers then die at once; the units on file are kept all the same).
    path = tmp_path / "games.jsonl"
    run = start([*TIENLEN, "--jobs", "2", "--out", str(path)], tmp_path)
    try:
        wait_for_units(path, run, 2)
        children = workers(run)
        if to_group:
            os.killpg(run.pid, signal.SIGTERM)
        else:
            run.send_signal(signal.SIGTERM)
        _, err = ended(run, tmp_path)
    finally:
        run.kill()
    assert run.returncode == 130, err
    assert "--resume" in err and "Traceback" not in err
    assert_all_exit(children)
    on_file = files.read(path).played
    assert 0 < on_file < 600
    resume_and_check(path)


def test_sim_jobs_parent_killed_leaves_no_worker_and_resumes(tmp_path: Path) -> None:
    # SIGKILL runs no handler in the parent: the workers notice its death themselves
    # (PR_SET_PDEATHSIG on Linux, a watch on the parent elsewhere), and the file's lock
    # dies with them, so the resume starts at once.
    path = tmp_path / "games.jsonl"
    run = start([*TIENLEN, "--jobs", "2", "--out", str(path)], tmp_path)
    try:
        wait_for_units(path, run, 2)
        children = workers(run)
        run.send_signal(signal.SIGKILL)
        run.wait(timeout=60)
    finally:
        run.kill()
    assert_all_exit(children)
    resume_and_check(path)


def test_guandan_sim_jobs_sigterm_leaves_no_worker(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    run = start(["--game", "guandan", "--bots", "L1,L1", "--hands", "400", "--seed", "2",
                 "--jobs", "2", "--out", str(path)], tmp_path)
    try:
        wait_for_units(path, run, 1)
        children = workers(run)
        run.send_signal(signal.SIGTERM)
        out, err = ended(run, tmp_path)
    finally:
        run.kill()
    assert run.returncode == 130, err
    assert "Interrupted" in out and "Traceback" not in err
    assert_all_exit(children)
    assert 0 < files.load(path).games < 400


def test_guandan_sim_jobs_parent_killed_leaves_no_worker(tmp_path: Path) -> None:
    path = tmp_path / "g.jsonl"
    run = start(["--game", "guandan", "--bots", "L1,L1", "--hands", "400", "--seed", "2",
                 "--jobs", "2", "--out", str(path)], tmp_path)
    try:
        wait_for_units(path, run, 1)
        children = workers(run)
        os.kill(run.pid, signal.SIGKILL)
        run.wait(timeout=60)
    finally:
        run.kill()
    assert_all_exit(children)
    assert files.load(path).games > 0


def test_an_idle_pool_worker_outlasts_sigterm_quietly(capfd) -> None:
    # The race behind a process-group SIGTERM's stray traceback: a worker between tasks,
    # waiting on the pool's queue, raised the parent's KeyboardInterrupt out of the pool's
    # worker loop (a traceback), and one that died broke the pool under the parent's
    # cancelled futures. Idle, it now ignores SIGTERM; inside a task SIGTERM still stops
    # the task as Ctrl-C does.
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    from tienlen.arena import engine as table_arena

    context = multiprocessing.get_context("fork")
    pool = ProcessPoolExecutor(1, mp_context=context, initializer=table_arena._init_worker,
                               initargs=(context.SimpleQueue(), context.Event(), os.getpid()))
    try:
        worker = pool.submit(os.getpid).result(timeout=60)
        os.kill(worker, signal.SIGTERM)
        time.sleep(0.5)
        assert pool.submit(os.getpid).result(timeout=60) == worker    # alive, same worker
        busy = pool.submit(_sigterm_self_in_a_task)
        with pytest.raises(KeyboardInterrupt):
            busy.result(timeout=60)
        assert pool.submit(os.getpid).result(timeout=60) == worker    # and still serving
    finally:
        pool.shutdown(wait=True)
    assert "Traceback" not in capfd.readouterr().err


def _sigterm_self_in_a_task() -> None:
    from tienlen.arena import engine as table_arena

    # what _play_chunk marks around a task
    table_arena._BUSY = True
    try:
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(5)                  # the handler interrupts this
    finally:
        table_arena._BUSY = False
