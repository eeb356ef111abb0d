"""The one trainer (issue 37, tienlen.rl.dmc / ``tienlen train``): both games' encoders, actor
processes and a learner, files that resume, a Dask cluster on loopback, and the bot it
writes playing in each game's arena. Short runs: a few thousand decisions each."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from paths import REPO

torch = pytest.importorskip("torch")

from tienlen.rl.dmc import CHECKPOINT_FORMAT, TrainConfig, collect, train  # noqa: E402
from tienlen.rl.games import dmc as game_dmc, encoder  # noqa: E402
from tienlen.table.learned import read_checkpoint  # noqa: E402

SMALL = dict(hidden=32, head=16, task_decisions=1500, eval_every=0, save_every=0,
             progress=False, minutes=None, batch=128)


@pytest.mark.parametrize("game", ["tienlen", "guandan"])
def test_a_task_returns_every_decision_with_its_episodes_return(game: str) -> None:
    dmc = game_dmc(game)
    net = dmc.build(32, 16)
    weights = {k: v.detach().numpy() for k, v in net.state_dict().items()}
    task = {"run": f"test:{game}", "game": game, "groups": [("self", 16)], "seed": 3,
            "weights": weights, "hidden": 32, "head": 16, "eps": 0.2, "decisions": 400}
    result = collect(task)
    n = len(result["target"])
    assert n >= 400 and result["episodes"] > 0 and result["taken"] >= n
    assert result["obs"].shape == (n, encoder(game).obs_size)
    assert result["rows"].shape == (n, dmc.action_size)
    # Every return is a seat's reward of its episode: a place's (Tiến Lên) or +-(hand + level
    # gain) (Guandan), never the 0 of an unfinished one.
    assert np.all(result["target"] != 0) and np.isfinite(result["target"]).all()
    again = collect(task)                      # the same actor goes on with its tables
    assert len(again["target"]) >= 400         # (decisions of the first task among them)


@pytest.mark.parametrize("game", ["tienlen", "guandan"])
def test_train_writes_a_bot_that_plays_and_a_checkpoint_that_resumes(game: str, tmp_path: Path) -> None:
    out = tmp_path / game
    first = train(TrainConfig(game=game, out=str(out), decisions=3000, **SMALL))
    assert first["decisions"] >= 3000 and first["updates"] > 0
    for name in ("checkpoint.pt", "dmc.pt", "curve.csv", "summary.json"):
        assert (out / name).is_file()
    data = read_checkpoint(out / "checkpoint.pt", CHECKPOINT_FORMAT, 1)   # weights_only
    assert data["meta"]["counters"]["decisions"] == first["decisions"]
    second = train(TrainConfig(game=game, out=str(out), decisions=6000, resume=True, **SMALL))
    assert second["decisions"] >= 6000 and second["updates"] > first["updates"]
    assert second["seconds"] > first["seconds"] and second["tasks"] > first["tasks"]
    with pytest.raises(ValueError, match="hidden"):
        train(TrainConfig(game=game, out=str(out), decisions=1, resume=True,
                          **{**SMALL, "hidden": 64}))
    # The bot loads the way every game's learned bots do, and plays the game's arena.
    if game == "tienlen":
        from tienlen.games.tienlen import arena

        assert arena.run([f"dmc:{out / 'dmc.pt'}", "L1", "L1", "L1"], 4).bot(0).games == 4
    else:
        from tienlen.games.guandan import arena as gd_arena

        result = gd_arena.run(f"dmc:{out / 'dmc.pt'}", "random", hands=2, seed=1)
        assert result.boards == 1 and result.games == 2


def test_two_actor_processes_and_a_dask_cluster_train(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    two = train(TrainConfig(game="guandan", out=str(tmp_path / "two"), actors=2,
                            decisions=4000, **SMALL))
    assert two["workers"] == 2 and two["decisions"] >= 4000
    dask = train(TrainConfig(game="tienlen", out=str(tmp_path / "dask"), scheduler="local:2",
                             decisions=4000, **SMALL))
    assert dask["workers"] == 2 and dask["decisions"] >= 4000


def test_bad_settings_are_one_line_each(tmp_path: Path) -> None:
    for bad, match in ((dict(tables=("chess:4",)), "tables"), (dict(actors=0), "actors"),
                       (dict(eps=2.0), "eps"), (dict(minutes=None, decisions=None), "an end"),
                       (dict(device="cuda:99"), "device")):
        with pytest.raises(ValueError, match=match):
            train(TrainConfig(**{"game": "guandan", "out": str(tmp_path), "decisions": 10,
                                 **{k: v for k, v in SMALL.items() if k not in bad}, **bad}))
    with pytest.raises(ValueError, match="no trainer checkpoint file"):
        train(TrainConfig(game="guandan", out=str(tmp_path / "none"), decisions=10,
                          resume=True, **SMALL))


def test_a_checkpoint_that_would_run_code_is_refused(tmp_path: Path) -> None:
    """torch.load(weights_only=True): a file whose pickle names a callable is refused
    before it runs, in one line, without torch's advice to load it unsafely."""
    evil = tmp_path / "checkpoint.pt"
    torch.save({"format": CHECKPOINT_FORMAT, "version": 1, "config": {},
                "state_dict": {}, "meta": {"x": subprocess.Popen}}, evil)
    with pytest.raises(ValueError, match="torch cannot read it as weights") as error:
        read_checkpoint(evil, CHECKPOINT_FORMAT, 1)
    assert "weights_only" not in str(error.value)


def test_the_cli_trains_in_one_command(tmp_path: Path) -> None:
    run = subprocess.run([sys.executable, "-m", "tienlen", "train", "--game", "tienlen",
                          "--out", str(tmp_path), "--decisions", "2000", "--hidden", "32",
                          "--head", "16", "--task-decisions", "1000", "--eval-every", "2",
                          "--eval-boards", "8", "--quiet"], cwd=tmp_path, capture_output=True,
                         text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    summary = json.loads(run.stdout.strip().splitlines()[-1])
    assert summary["decisions"] >= 2000
    rows = (tmp_path / "curve.csv").read_text().splitlines()
    assert rows[0].startswith("seconds,decisions") and len(rows) >= 2


def test_a_teacher_share_of_one_plays_exactly_the_teachers_actions() -> None:
    """With the teacher's share at 1 every decision is the native policy's (a warm start by
    imitation): two different networks then collect the very same decisions, which they
    do not without the teacher."""
    dmc = game_dmc("guandan")

    def run(net_seed: int, teacher: str | None, key: str) -> dict[str, np.ndarray]:
        torch.manual_seed(net_seed)
        net = dmc.build(32, 16)
        weights = {k: v.detach().numpy() for k, v in net.state_dict().items()}
        return collect({"run": key, "game": "guandan", "groups": [("greedy", 8)], "seed": 5,
                        "weights": weights, "hidden": 32, "head": 16, "eps": 0.0,
                        "decisions": 200, "teacher": teacher, "teacher_share": 1.0})

    a, b = run(1, "plan", "teacher-a"), run(2, "plan", "teacher-b")
    assert all(np.array_equal(a[k], b[k]) for k in ("obs", "rows", "target"))
    c, d = run(1, None, "alone-c"), run(2, None, "alone-d")
    assert not (np.array_equal(c["rows"][:200], d["rows"][:200]))
    with pytest.raises(ValueError, match="teacher"):
        TrainConfig(game="tienlen", out="x", teacher="plan").check()
    with pytest.raises(ValueError, match="teacher"):
        TrainConfig(game="guandan", out="x", teacher="L9").check()


# ---------------------------------------------------------------- imitation (--imitate)

def _agreement(weights: dict[str, np.ndarray], key: str) -> float:
    """The share of fresh decisions (the teacher playing every table, no exploration) on
    which the network's best-scored action is L2's."""
    result = collect({"run": key, "game": "guandan", "groups": [("self", 32)], "seed": 99,
                      "weights": weights, "hidden": 32, "head": 16, "eps": 0.0,
                      "decisions": 1500, "teacher": "L2", "teacher_share": 1.0,
                      "imitate": True, "imitate_rows": 64})
    return float(result["agree"].mean())


def test_an_imitation_task_labels_every_decision_with_the_teachers_action() -> None:
    dmc = game_dmc("guandan")
    net = dmc.build(32, 16)
    weights = {k: v.detach().numpy() for k, v in net.state_dict().items()}
    result = collect({"run": "imitate-task", "game": "guandan", "groups": [("self", 16)],
                      "seed": 4, "weights": weights, "hidden": 32, "head": 16, "eps": 0.1,
                      "decisions": 500, "teacher": "plan", "teacher_share": 0.5,
                      "imitate": True, "imitate_rows": 8})
    counts = result["counts"]
    assert len(counts) >= 500 and len(result["obs"]) == len(counts) == len(result["agree"])
    assert counts.min() >= 2 and counts.max() <= 8         # only decisions with a choice
    assert len(result["rows"]) == counts.sum()
    assert result["rows"].shape[1] == dmc.action_size
    # Each decision's kept rows are distinct legal actions (the teacher's first).
    starts = np.cumsum(counts) - counts
    for s, c in zip(starts[:50], counts[:50]):
        assert len({r.tobytes() for r in result["rows"][s:s + c]}) == c


def test_imitation_learns_resumes_and_writes_a_bot_loaded_as_weights(tmp_path: Path) -> None:
    """A tiny --imitate run: the network agrees with L2 far more often than it did
    untrained; the run resumes (as imitation, then as self-play DMC), and its files load
    with torch.load(weights_only=True)."""
    from tienlen.games.guandan.learned import load_checkpoint

    torch.manual_seed(1)
    fresh = game_dmc("guandan").build(32, 16)
    before = _agreement({k: v.detach().numpy() for k, v in fresh.state_dict().items()},
                        "agree-before")
    out = tmp_path / "bc"
    small = {**SMALL, "batch": 64}
    first = train(TrainConfig(game="guandan", out=str(out), decisions=20000, teacher="L2",
                              imitate=True, **small))
    assert first["decisions"] >= 20000 and first["updates"] > 0
    net = load_checkpoint(out / "dmc.pt")                       # weights_only
    after = _agreement({k: v.detach().numpy() for k, v in net.state_dict().items()},
                       "agree-after")
    assert after > before + 0.1, (before, after)
    data = read_checkpoint(out / "checkpoint.pt", CHECKPOINT_FORMAT, 1)
    assert data["meta"]["settings"]["imitate"] is True
    second = train(TrainConfig(game="guandan", out=str(out), decisions=24000, teacher="L2",
                               imitate=True, resume=True, **small))
    assert second["decisions"] >= 24000 and second["updates"] > first["updates"]
    third = train(TrainConfig(game="guandan", out=str(out), decisions=28000, resume=True,
                              **small))                         # then self-play DMC
    assert third["decisions"] >= 28000 and third["updates"] > second["updates"]
    rows = (out / "curve.csv").read_text().splitlines()
    assert rows[0].endswith(",agree")


def test_imitation_needs_a_teacher() -> None:
    with pytest.raises(ValueError, match="imitate needs a teacher"):
        TrainConfig(game="guandan", out="x", imitate=True).check()
    with pytest.raises(ValueError, match="imitate_rows"):
        TrainConfig(game="guandan", out="x", imitate=True, teacher="L2", imitate_rows=1).check()
