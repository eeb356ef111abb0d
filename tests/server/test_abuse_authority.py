"""Issue 36, authority: a client seats only what the server offers (levels, and the models of
the folder its operator names with ``--models``); nothing a client sends chooses a file.
And a trained policy that cannot be loaded (damaged, foreign, missing, torch absent) is one
clear line wherever it is named."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from tienlen.games.guandan.bots import make_bot

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
httpx = pytest.importorskip("httpx")

from server_helpers import running  # noqa: E402

from tienlen.server.app import create_app  # noqa: E402
from tienlen.server.tables import Hub, ServerConfig, offered_models  # noqa: E402

REPO = Path(__file__).resolve().parents[2]


def _post(port: int, seats: list[str]) -> httpx.Response:
    return httpx.post(f"http://127.0.0.1:{port}/api/tables",
                      json={"game": "guandan", "seats": seats, "seed": 1})


@pytest.fixture(scope="module")
def plain_server():
    hub = Hub(ServerConfig())
    with running(create_app(hub)) as port:
        yield hub, port


@pytest.mark.parametrize("name", [f"dmc:{REPO / 'README.md'}", "dmc:README.md", "dmc:/dev/zero",
                                  "dmc:../../etc/passwd", "DMC:/etc/passwd", "dmc:"])
def test_a_client_cannot_seat_a_file_path(plain_server, name: str, monkeypatch) -> None:
    hub, port = plain_server
    loaded: list[str] = []
    import tienlen.games.guandan.bots as bots

    monkeypatch.setattr(bots, "_policy_bot", lambda *a, **k: loaded.append(a[0]))
    answer = _post(port, ["human", name, "L1", "L1"])
    assert answer.status_code == 400 and answer.json()["error"] == "BAD_SEATS"
    assert "offers" in answer.json()["message"]
    assert loaded == []                     # nothing was opened


def test_info_lists_what_can_be_seated(plain_server) -> None:
    hub, port = plain_server
    info = httpx.get(f"http://127.0.0.1:{port}/api/info").json()
    games = {g["name"]: g for g in info["games"]}
    assert games["guandan"]["models"] == [] and games["tienlen"]["models"] == []


def test_the_models_folder_lists_plain_files_only(tmp_path: Path) -> None:
    (tmp_path / "best.pt").write_bytes(b"x")
    (tmp_path / ".hidden.pt").write_bytes(b"x")
    (tmp_path / "sub").mkdir()
    (tmp_path / "bad name.pt").write_bytes(b"x")
    found = offered_models(tmp_path)
    assert list(found) == ["dmc:best.pt"] and found["dmc:best.pt"] == str(tmp_path / "best.pt")
    with pytest.raises(ValueError, match="not a folder"):
        offered_models(tmp_path / "best.pt")




def _checkpoint(folder: Path, name: str = "net.pt") -> Path:
    from tienlen.games.guandan.learned import build_qnet, save_checkpoint

    path = folder / name
    save_checkpoint(build_qnet(16, 8), path)
    return path


def test_an_offered_model_is_seated_by_its_name_only(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    _checkpoint(tmp_path)
    hub = Hub(ServerConfig(models=offered_models(tmp_path), bot_delay=0))
    with running(create_app(hub)) as port:
        info = httpx.get(f"http://127.0.0.1:{port}/api/info").json()
        assert {g["name"]: g["models"] for g in info["games"]} == \
            {"guandan": ["dmc:net.pt"], "tienlen": []}
        ok = _post(port, ["human", "dmc:net.pt", "L1", "L1"])
        assert ok.status_code == 200, ok.text
        assert ok.json()["seats"][1]["name"] == "dmc:net.pt"
        for name in (f"dmc:{tmp_path / 'net.pt'}", "dmc:NET.PT", "dmc:./net.pt"):
            assert _post(port, ["human", name, "L1", "L1"]).json()["error"] == "BAD_SEATS"
        tienlen = httpx.post(f"http://127.0.0.1:{port}/api/tables",
                             json={"game": "tienlen", "seats": ["human", "dmc:net.pt"]})
        assert tienlen.json()["error"] == "BAD_SEATS"


def _damaged(folder: Path) -> dict[str, Path]:
    import torch

    from tienlen.rl.guandan_dmc import FORMAT, build_qnet

    good = _checkpoint(folder, "good.pt")
    state = build_qnet(16, 8).state_dict()
    out: dict[str, Path] = {}

    def save(name: str, obj: object) -> None:
        out[name] = folder / name
        torch.save(obj, out[name])

    save("no-config.pt", {"format": FORMAT, "version": 1, "state_dict": {}})
    save("text-config.pt", {"format": FORMAT, "version": 1, "config": {"hidden": "x", "head": 8},
                            "state_dict": state})
    save("list-config.pt", {"format": FORMAT, "version": 1, "config": [1], "state_dict": {}})
    save("wrong-shape.pt", {"format": FORMAT, "version": 1, "config": {"hidden": 32, "head": 8},
                            "state_dict": state})
    save("weights-not-a-dict.pt", {"format": FORMAT, "version": 1,
                                   "config": {"hidden": 16, "head": 8}, "state_dict": [1, 2]})
    save("negative.pt", {"format": FORMAT, "version": 1, "config": {"hidden": -5, "head": 8},
                         "state_dict": state})
    out["truncated.pt"] = folder / "truncated.pt"
    out["truncated.pt"].write_bytes(good.read_bytes()[:500])
    out["random.pt"] = folder / "random.pt"
    out["random.pt"].write_bytes(os.urandom(2000))
    out["README.md"] = REPO / "README.md"
    return out


def test_damaged_checkpoints_are_one_clear_line(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    for name, path in _damaged(tmp_path).items():
        with pytest.raises(ValueError) as info:
            make_bot(f"dmc:{path}", seed=1)
        text = str(info.value)
        assert "\n" not in text and len(text) < 400, (name, text)
        assert str(path) in text and "checkpoint" in text, (name, text)
        assert "weights_only" not in text and "PyTorch 2.6" not in text, (name, text)


def test_a_damaged_model_in_the_folder_is_named_at_start_and_not_offered(tmp_path: Path,
                                                                         capsys) -> None:
    pytest.importorskip("torch")
    _checkpoint(tmp_path, "good.pt")
    (tmp_path / "bad.pt").write_bytes(b"not a checkpoint")
    from tienlen.server.run import _models

    lines: list[str] = []
    usable = _models(str(tmp_path), lines.append)
    assert list(usable) == ["dmc:good.pt"]
    assert len(lines) == 1 and lines[0].startswith("--models: dmc:bad.pt is not offered")


def test_dmc_without_torch_is_one_clear_line(tmp_path: Path, monkeypatch) -> None:
    import zipfile

    path = tmp_path / "net.pt"
    with zipfile.ZipFile(path, "w") as z:     # looks like torch.save's zip: torch is asked for
        z.writestr("data.pkl", b"")
    monkeypatch.setitem(sys.modules, "torch", None)          # import torch fails
    with pytest.raises(ValueError, match="needs torch, which is not installed") as info:
        make_bot(f"dmc:{path}", seed=1)
    assert "\n" not in str(info.value)
    with pytest.raises(ValueError, match="no such file"):   # a missing file says so first
        make_bot(f"dmc:{tmp_path / 'missing.pt'}", seed=1)


def test_the_cli_says_it_in_one_line_too(tmp_path: Path, capsys) -> None:
    from tienlen.cli.program import main

    bad = tmp_path / "bad.pt"
    bad.write_bytes(b"junk")
    status = main(["sim", "--game", "guandan", "--bots", f"dmc:{bad},L1", "--hands", "2"])
    err = capsys.readouterr().err
    assert status == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1
