"""The Guandan DMC baseline (issue 26): the core's field encoder is the tables' encoder, a
bot's view encodes to exactly what the env gave the network, the random bot, and a
training smoke run whose checkpoint plays in the arena as ``dmc:PATH``.

``TIENLEN_TRAIN_FULL=1`` runs the documented 20-minute training instead of the smoke run
and checks docs/rl.md's required result (≥ 75% of first hands won against a random team,
400 boards in both seatings)."""

from __future__ import annotations

from paths import REPO

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tienlen import _guandan as core
from tienlen.arena import simulate
from tienlen.games.guandan.bots import RandomBot, is_bot_spec, make_bot
from tienlen.games.guandan.match import Match

ROOT = REPO
SCRIPT = ROOT / "examples" / "train_guandan_dmc.py"
HAVE_TORCH = importlib.util.find_spec("torch") is not None


def _count(once: int, twice: int) -> int:
    return bin(once).count("1") + bin(twice).count("1")


def _fields(t: core.GdTable, seat: int) -> dict[str, object]:
    return dict(seat=seat, hand=t.hands[seat], cards_left=[_count(*h) for h in t.hands],
                played=t.played, pile=t.pile, pile_code=t.pile_code, pile_owner=t.pile_owner,
                trick_leader=t.trick_leader, turn=t.turn, finished=t.finished, level=t.level,
                levels=t.levels, declarer=t.declarer, failed_attempts=t.failed_attempts,
                tributes=[(p, r) for p, r, _, _ in t.tributes])


def test_observe_fields_is_the_tables_encoder() -> None:
    """Every play-phase state of random matches (tribute hands, finished seats, levels):
    observe_fields from the table's own fields equals GdTable.observe, for all 4 seats."""
    rng = np.random.default_rng(3)
    states = 0
    for seed in range(6):
        t = core.GdTable(seed=seed)
        for _ in range(1500):
            if t.is_over:
                break
            if t.phase == "hand_over":
                t.next_hand()
                continue
            if t.phase == "play":
                states += 1
                for seat in range(4):
                    got = core.observe_fields(**_fields(t, seat))
                    assert np.array_equal(got, t.observe(seat)), (seed, seat)
            ids, _, _ = t.action_features()
            t.step(int(rng.choice(ids)))
    assert states > 3000


@pytest.mark.parametrize("change, message", [
    (dict(seat=4), "seat"),
    (dict(cards_left=[27, 27, 27]), "cards_left"),
    (dict(cards_left=[27, 26, 27, 27]), "cards_left"),
    (dict(played=[(0, 0)] * 3), "played"),
    (dict(played=[(1, 2)] * 4), "twice"),
    (dict(pile=(1, 0)), "pile"),
    (dict(level=15), "level"),
    (dict(levels=(2, 1)), "levels"),
    (dict(turn=7), "turn"),
    (dict(finished=(0, 1, 2, 3, 0)), "finished"),
    (dict(tributes=[(0, 1)] * 3), "tributes"),
])
def test_observe_fields_refuses_bad_fields(change: dict[str, object], message: str) -> None:
    t = core.GdTable(seed=5)
    fields = _fields(t, 1) | change
    with pytest.raises(ValueError, match=message):
        core.observe_fields(**fields)


def _act(match: Match, t: core.GdTable, a: int) -> None:
    masks, _ = t.legal_actions()
    if t.phase == "play":
        if a == 0:
            match.pass_turn()
        else:
            match.play(match.game.legal_plays()[a - 1])
    elif t.phase == "tribute":
        match.give_tribute(int(masks[a - 1, 0]).bit_length() - 1)
    else:
        match.return_tribute(int(masks[a - 1, 0]).bit_length() - 1)


def test_a_views_encoding_is_the_envs() -> None:
    """Match(seed) and GdTable(seed) fed the same random actions: at every play decision
    the acting seat's view encodes (tienlen.games.guandan.learned) to the table's observation
    (in later hands except the match fields a hand's view does not hold) and lists the
    table's action features."""
    from tienlen.games.guandan.learned import view_action_features, view_observation

    match_only = np.zeros(core.GR_OBS_SIZE, bool)
    for name, at, n in core.GR_FIELDS:
        if name in ("team_levels", "declarer", "attempts"):
            match_only[at:at + n] = True
    rng = np.random.default_rng(8)
    checked = later = 0
    for seed in (21, 22):
        match, t = Match(seed), core.GdTable(seed=seed)
        for _ in range(900):
            if t.is_over:
                break
            if t.phase == "hand_over":
                t.next_hand()
                continue
            if t.phase == "play":
                view = match.game.view(t.turn)
                got, want = view_observation(view), t.observe(t.turn)
                same = got == want
                if t.hand_index == 0:
                    assert same.all(), np.flatnonzero(~same)
                else:
                    later += 1
                    assert same[~match_only].all(), np.flatnonzero(~same)
                for a, b in zip(view_action_features(view), t.action_features()):
                    assert np.array_equal(a, b)
                checked += 1
            ids, _, _ = t.action_features()
            a = int(rng.choice(ids))
            _act(match, t, a)
            t.step(a)
    assert checked > 500 and later > 100


def test_random_bot_plays_legal_hands_and_is_a_spec() -> None:
    assert is_bot_spec("random") and is_bot_spec("dmc:x.pt") and not is_bot_spec("dmc:")
    assert isinstance(make_bot("Random", seed=1), RandomBot)
    result = simulate("guandan", ["random", "L1"], mode="hand", games=8, seed=2)
    assert result.games == 8
    # L1 beats random over these boards; a random bot that passed forever would stall
    assert result.teams()[1].hand_wins.value > result.teams()[0].hand_wins.value


def test_a_dmc_spec_without_torch_or_file_is_a_clear_error() -> None:
    with pytest.raises((ValueError, ImportError)):
        make_bot("dmc:/nonexistent/dmc.pt")


@pytest.mark.skipif(not HAVE_TORCH, reason="torch not installed (the [train] extra)")
def test_training_smoke_loss_falls_and_checkpoint_plays(tmp_path: Path) -> None:
    """A few hundred actor steps on small tables: the network's loss on the replay buffer
    ends below its first batches', and the checkpoint seats as dmc:PATH in the arena,
    playing legal hands (the arena refuses an illegal action)."""
    out = tmp_path / "run"
    full = os.environ.get("TIENLEN_TRAIN_FULL") == "1"
    args = (["--minutes", "20"] if full else
            ["--steps", "300", "--tables", "self:8", "greedy:8", "--eval-every", "0",
             "--batch", "256", "--lr", "1e-3", "--loss-trace"])
    env = dict(os.environ, OMP_NUM_THREADS="1")
    subprocess.run([sys.executable, str(SCRIPT), "--out", str(out), *args], check=True,
                   env=env, cwd=ROOT, timeout=None if full else 300)
    summary = json.loads((out / "summary.json").read_text())
    assert summary["decisions"] > 0 and summary["updates"] > 20
    if not full:
        assert summary["loss_trace"] < summary["first_loss"]
    spec = f"dmc:{out / ('dmc-best.pt' if full else 'dmc.pt')}"
    bot = make_bot(spec, seed=0)
    assert bot.name == "dmc:dmc.pt"
    boards = 400 if full else 2
    result = simulate("guandan", [spec, "random"], mode="hand", games=2 * boards, seed=1,
                      jobs=2 if full else 1)
    assert result.games == 2 * boards
    if full:
        assert result.teams()[0].hand_wins.value >= 0.75
    _plays_in_the_training_mode(spec)


def _plays_in_the_training_mode(spec: str) -> None:
    """``tienlen play --game guandan --bots dmc:PATH``: the session seats the checkpoint as
    the three AIs, and they play (the person's input scripted: pass, 提示, play it)."""
    import io

    from tienlen.games.guandan.board import GuandanBoard
    from tienlen.table.board import PlaySettings
    from tienlen.tui.session import Session
    from tienlen.tui.terminal import Terminal

    class Scripted(Terminal):
        def __init__(self) -> None:
            super().__init__(stdin=io.StringIO(), stdout=io.StringIO())
            self.lines = iter(["p", "t", "y"] * 40)

        def ask(self, prompt: object) -> str:
            line = next(self.lines, None)
            if line is None:
                raise EOFError
            return line

    board = GuandanBoard.play(PlaySettings(seed=0, levels=(spec,) * 3, lang="en"))
    Session(board, Scripted()).run()
    plays = [a for _, a in board.match.history if a.seat != 0 and a.action == "play"]
    assert plays


@pytest.mark.skipif(not HAVE_TORCH, reason="torch not installed (the [train] extra)")
@pytest.mark.parametrize("name", ["guandan_dmc.pt", "guandan_bc.pt"])
def test_the_committed_checkpoint_loads_and_plays(name: str) -> None:
    """docs/rl.md's checkpoints (DMC, and imitation of L2: issue 37): a DmcBot whose every
    choice in two arena hands is legal (the arena refuses an illegal one), and a file that
    is not a checkpoint is refused."""
    path = ROOT / "examples" / "checkpoints" / name
    result = simulate("guandan", [f"dmc:{path}", "L1"], mode="hand", games=2, seed=4)
    assert result.games == 2
    with pytest.raises(ValueError, match="not a DMC checkpoint"):
        make_bot(f"dmc:{SCRIPT}")


@pytest.mark.skipif(not HAVE_TORCH, reason="torch not installed (the [train] extra)")
def test_the_committed_imitation_checkpoint_beats_l1() -> None:
    """issue 37: examples/checkpoints/guandan_bc.pt beats an L1 team on duplicate boards
    (docs/rl.md: 94.1% of 800 first hands, seed 1). 40 first hands here (20 boards, both
    seatings, deterministic): the lower end of its interval is above 55%."""
    path = ROOT / "examples" / "checkpoints" / "guandan_bc.pt"
    result = simulate("guandan", [f"dmc:{path}", "L1"], mode="hand", games=40, seed=1)
    wins = result.team(0).hand_wins
    assert result.games == 40 and wins.low > 0.55, wins


# ---------------------------------------------------------------- bad dmc: specs (issue 39 #8)

def test_a_dmc_spec_that_is_not_a_checkpoint_is_one_clear_line(tmp_path: Path) -> None:
    """A missing file, a text file and a zip that is not torch's are one ValueError line
    each, whether or not torch is installed, and never relay torch's advice to load with
    weights_only=False (it would run code from the file)."""
    import zipfile

    with pytest.raises(ValueError, match="no such file"):
        make_bot(f"dmc:{tmp_path / 'missing.pt'}")
    with pytest.raises(ValueError, match="not a file torch.save wrote") as text:
        make_bot(f"dmc:{REPO / 'README.md'}")
    fake = tmp_path / "fake.pt"
    with zipfile.ZipFile(fake, "w") as z:
        z.writestr("data.pkl", b"\x80\x04c__builtin__\neval\nq\x00.")
    messages = [str(text.value)]
    if HAVE_TORCH:
        with pytest.raises(ValueError, match="is not a DMC checkpoint") as zipped:
            make_bot(f"dmc:{fake}")
        messages.append(str(zipped.value))
    for message in messages:
        assert "\n" not in message and "weights_only" not in message


def test_a_dmc_spec_without_torch_says_how_to_get_it(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    import zipfile

    fake = tmp_path / "net.pt"
    with zipfile.ZipFile(fake, "w") as z:
        z.writestr("data.pkl", b"")
    monkeypatch.setitem(sys.modules, "torch", None)      # import torch -> ImportError
    with pytest.raises(ValueError, match=r"needs torch.*\[train\]"):
        make_bot(f"dmc:{fake}")


def test_the_cli_refuses_a_bad_dmc_spec_in_one_line(tmp_path: Path) -> None:
    # Run outside the checkout, so that the tienlen under test is the installed one (the
    # wheel job's), not the source tree's (which has no built cores).
    run = subprocess.run([sys.executable, "-m", "tienlen", "sim", "--game", "guandan",
                          "--bots", f"dmc:{REPO / 'README.md'},L1", "--hands", "2"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 2
    assert run.stderr.strip().count("\n") == 0 and "not a DMC checkpoint" in run.stderr
    assert "Traceback" not in run.stderr and "weights_only" not in run.stderr
