"""`tienlen serve`: the URL printed, the warning off loopback, the options reaching the app."""

from __future__ import annotations

import pytest

uvicorn = pytest.importorskip("uvicorn")
pytest.importorskip("starlette")

from tienlen.cli import main  # noqa: E402
from tienlen.server.run import is_loopback  # noqa: E402


@pytest.fixture
def served(monkeypatch):
    calls = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: calls.append((app, kw)))
    return calls


def test_serve_prints_the_url_and_listens_on_loopback(served, capsys):
    assert main(["serve", "--port", "9123", "--turn-timeout", "12", "--fallback", "wait"]) == 0
    out, err = capsys.readouterr()
    assert "http://127.0.0.1:9123/" in out and "warning" not in err
    app, kw = served[0]
    assert kw["host"] == "127.0.0.1" and kw["port"] == 9123
    hub = app.state.hub
    assert hub.config.turn_timeout == 12 and hub.config.fallback == "wait"
    assert kw["ws_max_size"] == hub.config.max_message_bytes


def test_serve_warns_off_loopback(served, capsys):
    assert main(["serve", "--host", "0.0.0.0"]) == 0
    out, err = capsys.readouterr()
    assert "warning: listening on 0.0.0.0" in err
    assert "http://127.0.0.1:8765/" in out


def test_serve_refuses_a_bad_fallback(served, capsys):
    assert main(["serve", "--fallback", "L9"]) == 2
    assert "--fallback" in capsys.readouterr().err
    assert served == []


@pytest.mark.parametrize("host,loop", [("127.0.0.1", True), ("localhost", True), ("::1", True),
                                       ("127.0.0.2", True), ("0.0.0.0", False),
                                       ("192.168.1.4", False), ("example.com", False)])
def test_is_loopback(host, loop):
    assert is_loopback(host) is loop
