"""Issue 36 and issue 39 (items 8 and 15): ``tienlen serve`` and ``tienlen play --connect``
say what went wrong in one line, never a traceback, and never print a URL they cannot
serve: a port out of range or in use, ``--port 0``, a loopback address other than
127.0.0.1, ``--open`` on a machine with no display, ``--platform`` with no agent seat, and a
client whose server is not there, goes away, or whose seat is taken over."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
ws_client = pytest.importorskip("websockets.sync.client")

from tienlen.cli.program import main  # noqa: E402


def _run(*argv: str, timeout: float = 60, env: dict[str, str] | None = None
         ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tienlen", *argv], capture_output=True,
                          text=True, timeout=timeout, env=env)


def _one_line_error(result: subprocess.CompletedProcess[str]) -> str:
    assert result.returncode == 2, (result.returncode, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    lines = [line for line in result.stderr.strip().splitlines() if not line.startswith("usage")]
    lines = [line for line in lines if line.strip() and not line.startswith(" ")]
    assert len(lines) == 1, result.stderr
    return lines[0]


@pytest.mark.parametrize("port", ["70000", "-1", "99999", "http"])
def test_a_port_out_of_range_is_a_usage_error(port: str, capsys) -> None:
    assert main(["serve", "--port", port]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "--port" in err
    assert "0..65535" in err or "not a port number" in err


def _start(*argv: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "tienlen", "serve", *argv],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


def _stop(proc: subprocess.Popen[str]) -> str:
    proc.send_signal(signal.SIGINT)
    try:
        _, err = proc.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        _, err = proc.communicate()
    return err


def test_port_0_prints_the_port_it_got_and_serves_it() -> None:
    proc = _start("--port", "0")
    try:
        line = proc.stdout.readline() if proc.stdout else ""
        url = line.split(" is at ")[1].split()[0]
        assert not url.endswith(":0/")
        with urllib.request.urlopen(url + "api/info", timeout=10) as answer:
            assert json.loads(answer.read())["v"] == 1
    finally:
        err = _stop(proc)
    assert "Traceback" not in err


def test_a_port_in_use_is_one_line_and_no_url() -> None:
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        result = _run("serve", "--port", str(port), timeout=30)
        assert "is in use" in _one_line_error(result)
        assert "http://" not in result.stdout
        result = _run("serve", "--platform", "--port", str(port), timeout=30)
        assert "is in use" in _one_line_error(result)
        assert "Ready for connect" not in result.stdout


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="127.0.0.0/8 is all loopback")
def test_another_loopback_address_answers_its_own_url() -> None:
    proc = _start("--host", "127.0.0.2", "--port", "0")
    try:
        line = proc.stdout.readline() if proc.stdout else ""
        url = line.split(" is at ")[1].split()[0]
        assert url.startswith("http://127.0.0.2:")
        with urllib.request.urlopen(url, timeout=10) as answer:
            assert answer.status == 200
        with urllib.request.urlopen(url + "api/info", timeout=10) as answer:
            assert answer.status == 200
    finally:
        _stop(proc)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a display is a Linux notion here")
def test_open_without_a_display_says_so() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    proc = _start("--port", "0", "--open", env=env)
    try:
        line = proc.stdout.readline() if proc.stdout else ""
        assert " is at http://" in line
        time.sleep(0.5)
    finally:
        err = _stop(proc)
    assert "--open: this machine has no display" in err and "Traceback" not in err


def test_platform_with_bots_alone_is_refused_at_once() -> None:
    t0 = time.monotonic()
    result = _run("serve", "--platform", "--seats", "L1,L1,L1,L1", "--port", "0", timeout=30)
    assert "names no agent" in _one_line_error(result)
    assert time.monotonic() - t0 < 20


def test_platform_keeps_a_model_paths_case() -> None:
    result = _run("serve", "--platform", "--seats", "agent,L1,agent,dmc:/No/Such/Model.PT",
                  "--port", "0", timeout=30)
    assert "dmc:/No/Such/Model.PT: no such file" in _one_line_error(result)


def test_platform_port_0_prints_the_real_port() -> None:
    proc = subprocess.Popen([sys.executable, "-m", "tienlen", "serve", "--platform", "--port", "0",
                             "--seats", "agent,L1,L1,L1", "--games", "1"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline() if proc.stdout else ""
        assert line.startswith("Ready for connect. ws://127.0.0.1:")
        port = int(line.split("127.0.0.1:")[1].split("/")[0])
        assert port != 0
        with ws_client.connect(f"ws://127.0.0.1:{port}/game/a", max_size=None) as ws:
            first = json.loads(ws.recv(timeout=30))
            assert first["stage"] == "beginning"
    finally:
        _stop(proc)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_connect_to_no_server_is_one_line() -> None:
    url = f"ws://127.0.0.1:{_free_port()}/ws?table=abc&token=def"
    result = _run("play", "--connect", url, timeout=60)
    assert "cannot reach the server" in _one_line_error(result)


def _server_with_table() -> tuple[subprocess.Popen[str], str, dict]:
    proc = _start("--port", "0", "--turn-timeout", "0", "--bot-delay", "0")
    line = proc.stdout.readline() if proc.stdout else ""
    base = line.split(" is at ")[1].split()[0].rstrip("/")
    from tienlen.client import open_table

    table = open_table(base, "tienlen", ["remote", "L1"], seed=3, options={"hands": 1000})
    return proc, base, table


def test_a_server_that_goes_away_mid_match_is_one_line() -> None:
    from tienlen.client import seat_url

    proc, base, table = _server_with_table()
    client = None
    try:
        url = seat_url(base, table["table"], table["tokens"]["0"])
        client = subprocess.Popen([sys.executable, "-c",
                                   "import sys, time\n"
                                   "from tienlen.cli.program import main\n"
                                   "import tienlen.client as c\n"
                                   "slow = c.first_legal\n"
                                   "def policy(v, l):\n    time.sleep(0.05); return slow(v, l)\n"
                                   "c.first_legal = policy\n"
                                   "sys.exit(main(['play', '--connect', sys.argv[1]]))\n", url],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert client.stdout is not None
        assert "seat 0 of table" in client.stdout.readline()
        time.sleep(0.5)
        proc.kill()
        _, err = client.communicate(timeout=60)
    finally:
        proc.kill()
        if client is not None:
            client.kill()
    assert client.returncode == 2 and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1
    assert "connection" in err and ("lost" in err or "server" in err)


def test_a_seat_taken_over_is_one_line() -> None:
    from tienlen.client import seat_url

    proc, base, table = _server_with_table()
    client = None
    try:
        url = seat_url(base, table["table"], table["tokens"]["0"])
        client = subprocess.Popen([sys.executable, "-c",
                                   "import sys, time\n"
                                   "from tienlen.cli.program import main\n"
                                   "import tienlen.client as c\n"
                                   "slow = c.first_legal\n"
                                   "def policy(v, l):\n    time.sleep(0.2); return slow(v, l)\n"
                                   "c.first_legal = policy\n"
                                   "sys.exit(main(['play', '--connect', sys.argv[1]]))\n", url],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert client.stdout is not None
        assert "seat 0 of table" in client.stdout.readline()
        from tienlen.client import SeatClient

        with SeatClient.from_url(url):              # takes the seat over
            _, err = client.communicate(timeout=60)
    finally:
        _stop(proc)
        if client is not None:
            client.kill()
    assert client.returncode == 2 and "Traceback" not in err
    assert "taken over by a newer connection" in err and len(err.strip().splitlines()) == 1
