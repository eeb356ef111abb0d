"""guandan.Match's length safeguard, ``max_hands``: a match that reaches it ends cleanly, with
no winner, and refuses every later action without changing; and Match's actions are
serialised across threads.

A match is won only at A (G7.3), and a hand gains at most ``double_down_levels`` (3 by
default) levels, so a match from level 2 cannot be won in its first four hands: a cap of
four or fewer hands is always reached without a winner.
"""

from __future__ import annotations

import copy
import io
import json
import pickle
import sys
import threading

import pytest

from tienlen.guandan import GuandanError, IllegalActionError, Match, ReplayError
from tienlen.games.guandan.bots import make_bot
from tienlen.games.guandan.match import DEFAULT_MAX_HANDS


def play_out(match: Match, hands: int | None = None) -> None:
    """Seat L1 bots and play until the match is over (or ``hands`` hands are done)."""
    bots = [make_bot("L1", seed=seat) for seat in range(4)]
    while not match.is_over and (hands is None or len(match.results) < hands):
        seat = match.turn
        assert seat is not None
        kind, cards = bots[seat].decide(match.game.view(seat))
        match.act(kind, cards, seat)


@pytest.mark.parametrize("cap", [1, 3])
def test_a_match_reaching_max_hands_is_over_with_no_winner(cap: int) -> None:
    match = Match(seed=11, max_hands=cap)
    assert match.max_hands == cap and not match.capped and not match.is_over
    play_out(match)               # used to raise GuandanError when the last hand ended
    assert len(match.results) == cap
    assert match.is_over and match.capped and match.winner is None
    assert match.turn is None
    assert not any(r.match_won for r in match.results)
    # The current game stays the last hand played, and hand_number names it.
    assert match.game.is_over and match.hand_number == cap - 1
    assert match.results[-1].places == match.game.places


def test_a_won_match_is_not_capped() -> None:
    # Seed 6 with L1 everywhere is a short match (a handful of hands) won at A.
    match = Match(seed=6)
    play_out(match)
    assert match.winner is not None and not match.capped and match.is_over
    assert match.results[-1].match_won and len(match.results) < DEFAULT_MAX_HANDS


def test_every_action_after_the_cap_is_refused_and_changes_nothing() -> None:
    match = Match(seed=3, max_hands=1)
    play_out(match)
    before, text = match.copy(), match.to_json()
    game = match.game
    tries = [
        lambda: match.pass_turn(),
        lambda: match.pass_turn(0),
        lambda: match.play("3s"),
        lambda: match.act("pass", None, 1),
        lambda: match.give_tribute("Ks", 2),
        lambda: match.return_tribute("3s", 3),
        lambda: match.apply_unchecked(None),
        lambda: match.verify_pass(),
    ]
    for attempt in tries:
        with pytest.raises(IllegalActionError, match="max_hands=1") as caught:
            attempt()
        assert caught.value.reason == "GAME_OVER" and isinstance(caught.value, ValueError)
    assert not match.can_pass() and not match.can_play("3s")
    assert match == before and match.to_json() == text and match.game is game
    assert len(match.history) == len(before.history)


@pytest.mark.parametrize("bad", [0, -1, True, False, 1.0, "3", None, -2**70])
def test_max_hands_must_be_a_positive_int(bad: object) -> None:
    with pytest.raises(GuandanError, match="max_hands"):
        Match(seed=1, max_hands=bad)  # type: ignore[arg-type]


def test_a_capped_match_survives_copy_pickle_and_its_replay() -> None:
    match = Match(seed=8, max_hands=2)
    play_out(match)
    assert match.capped
    data = json.loads(match.to_json())
    assert data["max_hands"] == 2 and data["winner"] is None
    for twin in (match.copy(), copy.deepcopy(match), pickle.loads(pickle.dumps(match)),
                 Match.from_json(match.to_json())):
        assert twin == match
        assert twin.capped and twin.is_over and twin.winner is None and twin.max_hands == 2
        with pytest.raises(IllegalActionError, match="max_hands"):
            twin.pass_turn()


def test_the_cap_is_part_of_a_match() -> None:
    # Same seed, same actions, different caps: not the same match (one is over).
    short, long = Match(seed=8, max_hands=1), Match(seed=8, max_hands=5)
    play_out(short)
    play_out(long, hands=1)
    assert short.history == long.history and short.results == long.results
    assert short.capped and not long.is_over and short != long


def test_a_default_match_file_is_unchanged_and_a_file_may_name_its_cap() -> None:
    match = Match(seed=2)
    assert "max_hands" not in json.loads(match.to_json())    # as files were before the cap
    capped = Match(seed=2, max_hands=1)
    play_out(capped)
    data = json.loads(capped.to_json())
    # A replay that goes on past its cap is refused where it does.
    more = Match(seed=2, max_hands=2)
    play_out(more, hands=2)
    data_more = json.loads(more.to_json())
    data_more["max_hands"] = 1
    first = len(data["actions"])
    with pytest.raises(ReplayError, match=rf"actions\[{first}\].*after the end"):
        Match.from_json(json.dumps(data_more))
    for bad in (0, -3, True, "1", None, 1.5):
        data["max_hands"] = bad
        with pytest.raises(ReplayError, match="max_hands"):
            Match.from_json(json.dumps(data))


def test_the_training_mode_replay_ends_a_capped_match_with_its_reason() -> None:
    from tienlen.games.guandan.board import GuandanBoard
    from tienlen.table.board import ReplaySettings, Style
    from tienlen.tui.session import Session
    from tienlen.tui.terminal import Terminal

    match = Match(seed=4, max_hands=2)
    play_out(match)
    out = io.StringIO()
    board = GuandanBoard.replay_of(match, ReplaySettings(lang="en", style=Style(ascii=True),
                                                         fast=True))
    replay = Session(board, Terminal(stdin=io.StringIO(""), stdout=out), replay=True, fast=True)
    assert replay.run() == 0
    text = out.getvalue()
    assert "The match stopped after 2 hands with no winner" in text
    assert "win the match" not in text and "Hand 3" not in text
    assert board.match == match


# ------------------------------------------------------------------- threads


def test_threads_acting_on_one_match_keep_its_history_in_order() -> None:
    """Match.play acted on the game (under the game's lock) and then recorded the action in
    the match: two threads could record their actions in the other order, and the match
    file no longer replayed. Actions on a match are now serialised as a Game's are."""
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    broken: list[int] = []
    try:
        for seed in range(6):
            match = Match(seed=seed, max_hands=2)
            barrier = threading.Barrier(3)

            def worker(k: int) -> None:
                bot = make_bot("L1", seed=k)
                barrier.wait()
                for _ in range(4000):
                    if match.is_over:
                        return
                    seat = match.turn
                    if seat is None:
                        return
                    try:
                        kind, cards = bot.decide(match.game.view(seat))
                        match.act(kind, cards, seat)
                    except ValueError:    # another thread moved first: a refusal is fine
                        pass

            threads = [threading.Thread(target=worker, args=(k,)) for k in range(3)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            try:
                if Match.from_json(match.to_json()) != match:
                    broken.append(seed)
            except ReplayError:
                broken.append(seed)
    finally:
        sys.setswitchinterval(interval)
    assert broken == []


def _act_fast(match: Match) -> bool:
    """One action of the match: the first tribute or return candidate, else the last legal
    play (or a pass): hands end quickly, so the match spends much of its time in tribute.
    Whether the action was a tribute or a return."""
    from tienlen.games.guandan.game import return_candidates, tribute_candidates

    game = match.game
    if game.phase == "tribute":
        seat = match.turn
        assert seat is not None
        hand = game.hand(seat)
        if any(t.card is None for t in game.tributes):
            match.give_tribute(tribute_candidates(hand, game.level, game.config)[0], seat)
        else:
            match.return_tribute(return_candidates(hand, game.level, game.config)[0], seat)
        return True
    plays = game.legal_plays()
    if len(plays):
        match.play(plays[-1])      # the last listed: a big combination, the hand goes faster
    else:
        match.pass_turn()
    return False


def _check_reads(match: Match) -> None:
    """Every public read of a match and its game, each value one a consistent state has."""
    seats = (None, 0, 1, 2, 3)
    assert match.turn in seats
    levels, failed = match.levels, match.failed_attempts
    assert len(levels) == 2 and all(type(v) is int and 2 <= v <= 14 for v in levels), levels
    assert len(failed) == 2 and all(type(v) is int and 0 <= v < 3 for v in failed), failed
    assert match.hand_number >= 0 and isinstance(match.is_over, bool)
    assert match.capped is False and match.winner in (None, 0, 1)
    assert isinstance(match.results, tuple) and isinstance(match.history, tuple)
    assert isinstance(match.can_pass(), bool)
    game = match.game
    assert game.turn in seats and game.phase in ("tribute", "play", "over")
    assert isinstance(game.can_pass(), bool) and len(game.legal_plays()) >= 0
    assert game.leader in seats and game.pile_owner in seats
    hands = game.hands
    assert len(hands) == 4 and sum(len(h) for h in hands) <= 108
    for t in game.tributes:
        assert t.returned is None or (t.card is not None and t.receiver is not None), t
    places, pile, state = game.places, game.pile, game.state     # each read once
    assert places is None or sorted(places) == [0, 1, 2, 3]
    assert game.winning_team in (None, (0, 2), (1, 3))
    assert len(game.finished) <= 4 and isinstance(game.history, tuple)
    assert pile is None or len(pile.cards) > 0
    assert state is None or state.turn in (-1, 0, 1, 2, 3)
    try:
        game.verify_pass()
    except IllegalActionError:
        pass
    view = game.view(0)                     # one moment: its fields agree with each other
    if view.phase == "over":
        assert view.turn is None
    else:
        assert view.turn in (0, 1, 2, 3)
        if view.phase == "play":
            assert view.hand_sizes[view.turn] > 0
    assert len(view.hand) == view.hand_sizes[0]


def test_reads_while_another_thread_acts_during_tribute_see_a_consistent_match() -> None:
    """Issue 24, item 11: Match.turn, Game.turn and Game.can_pass() read while another thread
    acted during tribute raised AssertionError ("the play phase has not begun", or bare) and
    TypeError ('NoneType' object is not subscriptable): an action changes the tribute list,
    the phase, the native state and the hands one after another, and a read between two of
    them saw a game no action leaves. Every public read now takes the actions' lock."""
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    errors: list[str] = []
    reads, exchanges = [0], [0]
    done = threading.Event()
    current = [Match(seed=0)]

    def reader() -> None:
        while not done.is_set():
            try:
                _check_reads(current[0])
                reads[0] += 1
            except Exception as error:    # noqa: BLE001 (any exception is the defect)
                errors.append(f"{type(error).__name__}: {error}")
                if len(errors) > 50:
                    return

    def actor() -> None:
        try:
            seed = 0
            while not done.is_set():
                match = current[0]
                if match.is_over:
                    seed += 1
                    current[0] = Match(seed=seed)
                    continue
                exchanges[0] += _act_fast(match)
        except Exception as error:        # noqa: BLE001
            errors.append(f"actor: {type(error).__name__}: {error}")

    threads = [threading.Thread(target=actor)] + [threading.Thread(target=reader)
                                                  for _ in range(3)]
    try:
        for thread in threads:
            thread.start()
        done.wait(2.0)
    finally:
        done.set()
        for thread in threads:
            thread.join()
        sys.setswitchinterval(interval)
    assert errors == []
    assert reads[0] > 100 and exchanges[0] > 20   # many reads, during many tributes
