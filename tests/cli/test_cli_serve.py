"""`tienlen serve`: the URL printed, the warning off loopback, the options reaching the app."""

from __future__ import annotations

import pytest

uvicorn = pytest.importorskip("uvicorn")
pytest.importorskip("starlette")

from tienlen.cli import main  # noqa: E402
from tienlen.server.run import is_loopback  # noqa: E402


@pytest.fixture
def served(monkeypatch):
    """The uvicorn config and the bound socket run_serve would serve (not served)."""
    import tienlen.server.run as run

    calls = []

    async def serve_app(config, sock):
        calls.append((config, sock.getsockname()))
    monkeypatch.setattr(run, "serve_app", serve_app)
    return calls


def test_serve_prints_the_url_and_listens_on_loopback(served, capsys):
    assert main(["serve", "--port", "0", "--turn-timeout", "12", "--fallback", "wait"]) == 0
    out, err = capsys.readouterr()
    config, (host, port) = served[0]
    assert f"http://127.0.0.1:{port}/" in out and "warning" not in err and port != 0
    assert host == "127.0.0.1" and config.host == "127.0.0.1" and config.port == port
    hub = config.app.state.hub
    assert hub.config.turn_timeout == 12 and hub.config.fallback == "wait"
    assert config.ws_max_size == hub.config.max_message_bytes


def test_serve_warns_off_loopback(served, capsys):
    assert main(["serve", "--host", "0.0.0.0", "--port", "0"]) == 0
    out, err = capsys.readouterr()
    assert "warning: listening on 0.0.0.0" in err
    assert f"http://127.0.0.1:{served[0][1][1]}/" in out


def test_serve_refuses_a_bad_fallback(served, capsys):
    assert main(["serve", "--fallback", "L9"]) == 2
    assert "--fallback" in capsys.readouterr().err
    assert served == []


@pytest.mark.parametrize("host,loop", [("127.0.0.1", True), ("localhost", True), ("::1", True),
                                       ("127.0.0.2", True), ("0.0.0.0", False),
                                       ("192.168.1.4", False), ("example.com", False)])
def test_is_loopback(host, loop):
    assert is_loopback(host) is loop
