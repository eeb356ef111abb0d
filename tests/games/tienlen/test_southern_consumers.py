"""Everything above the core under every preset (issue 13): bots, hints, the arena, results
files, replays, the RL envs and the command line, with whole seeded games under
``Rules.southern()`` checked move by move against the game.

Expected outcomes of the command-line positions are reasoned from RULES.md (R4, R5, R11);
the comments give the reasoning. Cases that need the core to read the Southern flags are
skipped until it does; the rest (the contract with a penalty table has core flags 0) run on
any core.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from tienlen import _core
from tienlen.games.tienlen.bots import make_bot
from tienlen.games.tienlen.cards import Cards
from tienlen.cli import main
from tienlen.games.tienlen.plays import Kind, classify
from tienlen.games.tienlen.game import PASS, Game
from tienlen.games.tienlen.hints import hint
from tienlen.games.tienlen.replay import ReplayError, game_from_json, game_to_json
from tienlen.arena.files import GamesFile, ResultsError, RunHeader, load
from tienlen.games.tienlen.rules import Penalties, Rules

SOUTH = Rules.southern()
TWOS = 0xF << 48


def _core_reads_southern() -> bool:
    try:
        _core.classify(1, SOUTH.flags)
    except ValueError:
        return False
    return True


needs_southern_core = pytest.mark.skipif(
    not _core_reads_southern(), reason="the core does not read Rules.southern() yet")


def _no_two_in_a_run(mask: int) -> bool:
    """R11.4, checked with the contract's classifier: a run (single or double) holding a 2
    is no Southern play."""
    combo = classify(Cards(mask))
    return not (combo is not None and combo.kind in (Kind.SEQUENCE, Kind.DOUBLE_SEQUENCE)
                and mask & TWOS)


def _play_checked(game: Game, choose) -> int:
    """Play ``game`` out with ``choose(game, seat)``; every move must be one the game lists
    (or a pass it allows). Returns the number of actions."""
    actions = 0
    while not game.is_over:
        seat = game.turn
        assert seat is not None
        move = choose(game, seat)
        if move is PASS:
            assert game.can_pass()
        else:
            assert move in list(game.legal_moves()), (str(move), seat)
            assert _no_two_in_a_run(move.mask)
        game.act(move)
        actions += 1
        assert actions < 500
    return actions


# --- bots and hints -------------------------------------------------------------------------


@needs_southern_core
@pytest.mark.parametrize("level", ["random", "L1", "L2"])
def test_bots_play_whole_southern_games_legally(level: str) -> None:
    for seed in range(6):
        bots = [make_bot(level, seed=seed * 4 + seat) for seat in range(4)]
        game = Game(4, seed=seed, rules=SOUTH)
        _play_checked(game, lambda g, seat: bots[seat].choose(g.view(seat)))
        assert sorted(game.finished) == [0, 1, 2, 3] or not game.history


@needs_southern_core
def test_l3_plays_a_southern_game_legally() -> None:
    bots = [make_bot("L3", seed=seat, iterations=6) for seat in range(3)]
    game = Game(3, seed=9, rules=SOUTH)
    _play_checked(game, lambda g, seat: bots[seat].choose(g.view(seat)))


@needs_southern_core
@pytest.mark.parametrize("level", ["L1", "L2"])
def test_hints_suggest_legal_southern_moves(level: str) -> None:
    rng = random.Random(4)

    def choose(game: Game, seat: int):
        h = hint(game.view(seat), level, seed=1)
        if h.move is not PASS:
            assert h.move in list(game.legal_moves())
        # The reason never quotes the contract's lock-out under other rules.
        assert "bomb on 2s" not in h.reason
        options = list(game.legal_moves()) + ([PASS] if game.can_pass() else [])
        return rng.choice(options[:3])

    for seed in range(4):
        _play_checked(Game(4, seed=seed, rules=SOUTH), choose)


@needs_southern_core
def test_hint_for_a_locked_out_player_names_the_southern_bomb() -> None:
    # Seat 1 passes on 9♦ and is locked out; seat 2 plays 2♥. Seat 1 holds a quad and a
    # 3-pair run but no 4-pair run: under R11.2 only a 4-pair run may be played out of
    # turn, yet the turn comes to seat 1 (a single 2 is a 4-pair run's target).
    game = Game.from_hands(["9d 3c", "5s 5c 5d 5h 7s 7c 8s 8c 9s 9c Kd", "2h 4c 6d"],
                           leader=0, rules=SOUTH)
    game.play("9d")
    game.pass_turn()
    game.play("2h")
    assert game.turn == 0
    game.pass_turn()
    assert game.turn == 1 and not list(game.legal_moves())
    h = hint(game.view(1), "L2")
    assert h.move is PASS
    assert h.reason == ("you passed on this pile, so only a 4-pair double run on what it "
                        "cuts could be played")


# --- arena and results ------------------------------------------------------------------------


@needs_southern_core
def test_arena_runs_southern_and_is_deterministic() -> None:
    from tienlen.arena import simulate

    lineup = ["L1", "random", "L2", "random"]
    first = simulate("tienlen", lineup, 16, seed=3, rules=SOUTH)
    again = simulate("tienlen", lineup, 16, seed=3, rules=SOUTH)
    assert first.places.tolist() == again.places.tolist()
    contract = simulate("tienlen", lineup, 16, seed=3)
    assert first.places.shape == contract.places.shape


def test_run_header_round_trips_every_rules_field(tmp_path: Path) -> None:
    custom = Rules(penalties=Penalties(quad=9, cut_pays=False))
    for rules in (Rules(), Rules.no_twos(), SOUTH, custom):
        header = RunHeader.of(["L1", "random"], 2, seed=5, rules=rules)
        again = RunHeader.from_json(json.loads(json.dumps(header.to_json())), "test")
        assert again == header and again.rules == rules


def test_resume_refuses_a_file_of_other_rules_even_a_penalty(tmp_path: Path) -> None:
    from tienlen.arena import simulate

    path = tmp_path / "games.jsonl"
    plain = Rules(penalties=Penalties())
    with GamesFile.open(path, RunHeader.of(["L1", "random"], 2, seed=5, rules=plain),
                        games=8) as out:
        simulate("tienlen", ["L1", "random"], 8, players=2, seed=5, unit_deals=2,
                 on_unit=out.write, rules=plain)
    other = Rules(penalties=Penalties(red_two=3))
    with pytest.raises(ResultsError, match="rules"):
        GamesFile.open(path, RunHeader.of(["L1", "random"], 2, seed=5, rules=other), games=8,
                       resume=True)
    assert load(path).places.shape[0] == 4


def test_results_file_from_before_rules_were_data_still_reads(tmp_path: Path) -> None:
    header = RunHeader.of(["L1", "random"], 2, seed=5).to_json()
    header["rules"] = "default"            # how older files wrote it
    assert RunHeader.from_json(header, "old").rules == Rules()


# --- replays --------------------------------------------------------------------------------


def test_replay_carries_every_rules_field() -> None:
    rules = Rules(penalties=Penalties(black_two=5))
    game = Game.from_hands(["3s 4s", "5s 9h"], rules=rules)
    game.play("3s")
    record = json.loads(game_to_json(game))
    assert record["rules"] == rules.to_dict() and record["rules"]["name"] == "custom"
    assert game_from_json(game_to_json(game)).rules == rules


def test_replay_without_rules_loads_as_the_contract_and_a_bare_name_loads() -> None:
    game = Game.from_hands(["3s 4s", "5s 9h"], rules=Rules.no_twos())
    game.play("3s")
    record = json.loads(game_to_json(game))
    record["rules"] = "no-twos"
    assert game_from_json(json.dumps(record)).rules == Rules.no_twos()
    del record["rules"]
    assert game_from_json(json.dumps(record)).rules == Rules()


@pytest.mark.parametrize("value, words", [
    ({"name": "default", "colour": 1}, "unknown field"),
    ({"name": "southern", "twos_in_sequences": True}, "do not match the preset"),
    ({"cuts": [["quad", "ace"]]}, "unknown entry"),
    ({"cuts": [[["quad"]]]}, ""),
    ({"penalties": {"quad": -1}}, "int >= 0"),
    ({"penalties": {"cut_pays": 1}}, "bool"),
    ([1], "preset name or an object"),
])
def test_replay_with_bad_rules_is_refused_naming_the_field(value: object, words: str) -> None:
    game = Game.from_hands(["3s 4s", "5s 9h"])
    record = json.loads(game_to_json(game))
    record["rules"] = value
    with pytest.raises(ReplayError) as caught:
        game_from_json(json.dumps(record))
    assert caught.value.field == "rules" and words in str(caught.value)


@needs_southern_core
def test_replay_actions_are_rechecked_under_the_files_rules() -> None:
    # J-Q-K-A-2 is a run in the contract and nothing in the South (R11.4): the same actions
    # relabelled "southern" are refused at that action.
    game = Game.from_hands(["Js Qs Ks As 2s 3c", "4d 5d"], leader=0)
    game.play("Js Qs Ks As 2s")
    record = json.loads(game_to_json(game))
    record["rules"] = "southern"
    with pytest.raises(ReplayError) as caught:
        game_from_json(json.dumps(record))
    assert caught.value.field == "actions[0]"


@needs_southern_core
def test_southern_game_round_trips_through_a_replay() -> None:
    bots = [make_bot("L1", seed=seat) for seat in range(4)]
    game = Game(4, seed=21, rules=SOUTH)
    _play_checked(game, lambda g, seat: bots[seat].choose(g.view(seat)))
    again = game_from_json(game_to_json(game))
    assert again == game and again.rules == SOUTH


# --- the RL envs ----------------------------------------------------------------------------


def _legal_actions(mask) -> list[int]:
    return [int(a) for a in mask.nonzero()[0]]


@needs_southern_core
def test_gym_env_plays_southern_games_legally() -> None:
    pytest.importorskip("gymnasium")
    from tienlen.rl import TienlenEnv

    env = TienlenEnv(opponents=("random", "L1", "random"), rules="southern")
    assert env.rules == SOUTH
    rng = random.Random(2)
    for seed in range(8):
        obs, _ = env.reset(seed=seed)
        done = not obs["action_mask"].any()
        while not done:
            table = env._table
            assert table is not None and table.rules == SOUTH
            actions = _legal_actions(obs["action_mask"])
            # Every action in the mask is a move the game allows, and nothing more.
            legal = {m.mask for m in table.legal_moves()}
            masks = {env.game.action_mask_of(a) for a in actions}
            assert masks - {0} == legal and ((0 in masks) == table.can_pass())
            assert all(_no_two_in_a_run(m) for m in legal)
            obs, _, done, _, _ = env.step(rng.choice(actions))
    env.close()


@needs_southern_core
def test_aec_env_plays_southern_games_legally() -> None:
    pytest.importorskip("pettingzoo")
    from tienlen.rl import env as make_env

    e = make_env(players=4, rules="southern")
    rng = random.Random(5)
    for seed in range(4):
        e.reset(seed=seed)
        steps = 0
        for agent in e.agent_iter():
            obs, _, terminated, truncated, _ = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            actions = _legal_actions(obs["action_mask"])
            assert actions
            for a in actions:
                mask = e.unwrapped.game.action_mask_of(a)
                assert _no_two_in_a_run(mask)
            e.step(rng.choice(actions))
            steps += 1
            assert steps < 500
    e.close()


@needs_southern_core
def test_vector_env_reads_the_southern_rules() -> None:
    pytest.importorskip("gymnasium")
    from tienlen.rl import TienlenVectorEnv

    env = TienlenVectorEnv(4, rules="southern", legal_masks=True)
    obs, _ = env.reset(seed=[7, 8, 9, 10])
    rng = random.Random(1)
    for _ in range(60):
        for i in range(4):
            st = env.games.game_state(i)
            assert st.flags == SOUTH.flags
            legal = sorted(int(m) for m in st.legal_moves())
            # Action a >= 1 plays the cards obs["legal_moves"][i][a - 1]: exactly the
            # game's legal moves, each a Southern play.
            offered = sorted(int(obs["legal_moves"][i][a - 1])
                             for a in _legal_actions(obs["action_mask"][i]) if a)
            assert offered == legal
            assert all(_no_two_in_a_run(m) for m in legal)
        actions = [rng.choice(_legal_actions(obs["action_mask"][i])) for i in range(4)]
        obs, *_ = env.step(__import__("numpy").array(actions))
    env.close()


@needs_southern_core
def test_policy_bot_plays_southern_in_the_arena() -> None:
    pytest.importorskip("gymnasium")
    from functools import partial

    import numpy as np

    from tienlen.arena import simulate
    from tienlen.games.tienlen.learned import PolicyBot

    last_legal = lambda obs, mask: int(np.flatnonzero(mask)[-1])  # noqa: E731
    result = simulate("tienlen", [partial(PolicyBot, policy=last_legal), "random", "L1", "random"],
                      8, rules=SOUTH)
    assert result.bot(0).games == 8


# --- the command line -------------------------------------------------------------------------


def test_every_tienlen_command_takes_the_same_rules_option() -> None:
    from tienlen.cli import build_parser

    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    for name in ("play", "moves", "sim", "solve"):
        rules = next(a for a in sub.choices[name]._actions if a.dest == "rules")
        assert tuple(rules.choices) == Rules.NAMES and rules.default == "default"
    # The replay reads its rules from the file.
    assert not any(a.dest == "rules" for a in sub.choices["replay"]._actions)


def test_rules_with_guandan_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["moves", "3s", "--game", "guandan", "--rules", "southern"]) == 2
    assert "Tiến Lên ruleset" in capsys.readouterr().err


def test_tienlen_rules_shows_R11_5(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    assert "R11.5" in out and "cóng" in out.lower()


@needs_southern_core
def test_moves_under_southern(capsys: pytest.CaptureFixture[str]) -> None:
    # R11.4: J-Q-K-A-2 holds no run with the 2. Runs of J Q K A: J-Q-K, Q-K-A, J-Q-K-A (3),
    # plus 5 singles: 8. The contract adds K-A-2, Q-K-A-2, J-Q-K-A-2: 11.
    assert main(["moves", "Js Qs Ks As 2s", "--ascii"]) == 0
    assert "total: 11 legal plays" in capsys.readouterr().out
    assert main(["moves", "Js Qs Ks As 2s", "--ascii", "--rules", "southern"]) == 0
    out = capsys.readouterr().out
    assert "total: 8 legal plays" in out and "rules: southern" in out
    # R11.1: a quad cuts a 3-pair double sequence; in the contract it beats nothing there.
    args = ["moves", "5s 5c 5d 5h 9h", "--pile", "6s 6c 7s 7c 8s 8c", "--ascii"]
    assert main(args) == 0 and "no legal plays: pass" in capsys.readouterr().out
    assert main([*args, "--rules", "southern"]) == 0
    out = capsys.readouterr().out
    assert "5s 5c 5d 5h" in out and "total: 1 legal play" in out
    # R11.2: locked out on a single 2, only a 4-pair run may be played; the 3-pair run and
    # the quad that cut a 2 in turn may not (in the contract both may, R5.2).
    args = ["moves", "3s 3c 4s 4c 5s 5c 9d 9c 9h 9s", "--pile", "2h", "--locked-out",
            "--ascii"]
    assert main(args) == 0 and "total: 2 legal plays" in capsys.readouterr().out
    assert main([*args, "--rules", "southern"]) == 0
    assert "no legal plays: pass" in capsys.readouterr().out


@needs_southern_core
def test_solve_under_southern(capsys: pytest.CaptureFixture[str]) -> None:
    # Seat 0 holds only a quad; seat 1 owns a 3-pair run on the pile and holds 9♦. In the
    # South the quad cuts the run and seat 0 is out first; in the contract seat 0 must
    # pass and seat 1 leads 9♦ and goes out.
    args = ["solve", "--hands", "5s 5c 5d 5h", "9d", "--pile", "6s 6c 7s 7c 8s 8c",
            "--owner", "1", "--turn", "0", "--ascii"]
    assert main(args) == 0 and "seat 0 loses by force" in capsys.readouterr().out
    assert main([*args, "--rules", "southern"]) == 0
    assert "seat 0 wins by force" in capsys.readouterr().out


@needs_southern_core
def test_sim_under_southern(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "sim.json"
    assert main(["sim", "--rules", "southern", "--bots", "L1,random", "--games", "8",
                 "--seed", "2", "--json", str(out)]) == 0
    assert json.loads(out.read_text())["rules"] == "southern"
    assert "Rules: southern" in capsys.readouterr().out


@needs_southern_core
def test_play_under_southern_shows_rules_and_penalties() -> None:
    import subprocess
    import sys

    from test_cli_play import child_env

    done = subprocess.run(
        [sys.executable, "-m", "tienlen", "play", "--seed", "11", "--bots", "L1", "--rules",
         "southern", "--ascii"], input="m\n#1\np\n" * 40, capture_output=True, text=True,
        encoding="utf-8", env=child_env(), timeout=120)
    assert done.returncode == 0, done.stderr
    assert "rules southern" in done.stdout
    assert "Penalties (R11.5):" in done.stdout and "penalties" in done.stdout


def test_play_screen_shows_penalties_at_hand_end(monkeypatch: pytest.MonkeyPatch) -> None:
    # Any ruleset with a penalty table: the contract's bombs plus Penalties() runs on any core.
    import io

    from tienlen.table.board import PlaySettings, Style
    from tienlen.tui.session import play
    from tienlen.tui.terminal import Terminal

    out = io.StringIO()
    term = Terminal(stdin=io.StringIO("m\n#1\np\n" * 40 + "n\n"), stdout=out)
    settings = PlaySettings(seat=0, levels=("L1",) * 3, seed=11, hints=True,
                            style=Style(ascii=True), save=None, fast=True, iterations=None,
                            options={"players": 4, "rules": Rules(penalties=Penalties())})
    assert play("tienlen", settings, term) == 0
    text = out.getvalue()
    assert "Penalties (R11.5):" in text and "rules custom" in text
    assert "penalties" in text and "total" in text


def test_replay_view_shows_the_rules_and_the_hands_penalties(tmp_path: Path) -> None:
    import io

    from tienlen.table.board import ReplaySettings, Style
    from tienlen.tui.session import replay
    from tienlen.tui.terminal import Terminal

    rules = Rules(penalties=Penalties())
    game = Game.from_hands(["2h 3c", "5s 5c 5d 5h 4c", "9s 9c 9d 9h 6c"], rules=rules,
                           leader=0)
    for move in ("2h", "5s 5c 5d 5h", "9s 9c 9d 9h", None, None, "6c", None, None, "3c"):
        game.pass_turn() if move is None else game.play(move)
    path = tmp_path / "hand.json"
    path.write_text(game.to_json(), encoding="utf-8")
    out = io.StringIO()
    assert replay("tienlen", path, ReplaySettings(style=Style(ascii=True), fast=True),
                  Terminal(stdin=io.StringIO(), stdout=out)) == 0
    text = out.getvalue()
    # The chain 2h, quad of 5s, quad of 9s: seat 1 (cut last) pays seat 2, 2 + 4 = 6.
    assert "rules custom" in text
    assert "Seat 1 pays Seat 2 6: cut: 2h then 5s 5c 5d 5h (6)" in text


@needs_southern_core
def test_play_screen_of_an_instant_win() -> None:
    # Match seed 177: seat 0 (you) is dealt six pairs (see test_match_penalties); Minh,
    # Lan and Hoa keep 2♠ (1), 2♣ 2♦ (3) and 2♥ (2) and pay you; you score 3 points.
    import subprocess
    import sys

    from test_cli_play import child_env

    done = subprocess.run(
        [sys.executable, "-m", "tienlen", "play", "--seed", "177", "--bots", "L1", "--rules",
         "southern", "--ascii"], input="n\n", capture_output=True, text=True,
        encoding="utf-8", env=child_env(), timeout=120)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "You win at once with six pairs (instant win, R11.3)" in out
    assert "You won at once (instant win, R11.3), +3" in out
    for line in ("Minh pays You 1: left 2s (1)", "Lan pays You 3: left 2c 2d (3)",
                 "Hoa pays You 2: left 2h (2)"):
        assert line in out


@needs_southern_core
def test_rl_envs_skip_a_deal_won_at_once() -> None:
    # Seed 60 deals seat 0 four 2s (checked by hand in _core.deal(60, 4)), an instant win
    # under the Southern rules: no seat would have a decision, so the envs deal again.
    pytest.importorskip("pettingzoo")
    import numpy as np

    from tienlen.rl import TienlenEnv
    from tienlen.rl import env as make_env

    assert Cards(_core.deal(60, 4)[0]).mask & TWOS == TWOS
    gym = TienlenEnv(opponents=("random",) * 3, rules="southern")
    first, _ = gym.reset(seed=60)
    assert first["action_mask"].any() and not gym.game.is_over
    assert gym.game.hands[0] & TWOS != TWOS          # another deal
    again, _ = gym.reset(seed=60)
    assert np.array_equal(first["observation"], again["observation"])   # deterministic
    # Under the contract the same seed is played as dealt.
    contract = TienlenEnv(opponents=("random",) * 3)
    contract.reset(seed=60)
    assert contract.game.hands[0] & TWOS == TWOS
    aec = make_env(players=4, rules="southern")
    aec.reset(seed=60)
    obs, *_ = aec.last()
    assert obs["action_mask"].any()


@needs_southern_core
def test_replay_of_an_instant_win(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Seed 112: seat 3 wins at once with six pairs; seat 2 keeps 2♠ 2♥ (1 + 2) and pays 3.
    game = Game(4, seed=112, rules=SOUTH)
    path = tmp_path / "instant.json"
    path.write_text(game.to_json(), encoding="utf-8")
    assert game_from_json(path.read_text(encoding="utf-8")) == game
    assert main(["replay", str(path), "--fast", "--ascii"]) == 0
    out = capsys.readouterr().out
    assert "Seat 3 won at once (instant win, R11.3)" in out
    assert "Seat 2 pays Seat 3 3: left 2s 2h (3)" in out
