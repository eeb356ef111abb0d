"""tienlen.Match shared between threads: dealing the next hand is one step, as a Game's
actions are, and a copy or pickle taken meanwhile is a match that was."""

from __future__ import annotations

import copy
import pickle
import sys
import threading

from tienlen.games.tienlen.game import PASS
from tienlen.games.tienlen.match import Match, MatchError, hand_seed

THREADS = 8


def finish_hand(match: Match) -> None:
    """Play the current hand out: each seat plays its first legal move, or passes."""
    game = match.game
    while not game.is_over:
        game.apply_unchecked(next(iter(game.legal_moves()), PASS))


def test_threads_racing_next_hand_deal_exactly_one_hand() -> None:
    """next_hand checked that the hand was over, then dealt: threads that all saw the same
    finished hand each dealt one, recording that hand several times and skipping numbers
    (most rounds failed under sys.setswitchinterval(1e-6)). Now exactly one thread deals."""
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        for seed in range(25):
            match = Match(3, seed=seed)
            finish_hand(match)
            barrier = threading.Barrier(THREADS)
            dealt: list[int] = []
            refused: list[str] = []

            def deal() -> None:
                barrier.wait()
                try:
                    match.next_hand()
                    dealt.append(1)
                except MatchError as error:
                    refused.append(str(error))

            threads = [threading.Thread(target=deal) for _ in range(THREADS)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            assert len(dealt) == 1 and len(refused) == THREADS - 1, seed
            assert all("hand 2 is not over yet" in text for text in refused)
            assert match.hand_number == 2 and len(match.results) == 1
            assert len(match.hand_scores) == 1
            assert match.game.seed == hand_seed(seed, 2) and not match.game.history
    finally:
        sys.setswitchinterval(interval)


def test_copy_and_pickle_of_a_match_still_work_and_are_independent() -> None:
    match = Match(3, seed=5)
    finish_hand(match)
    match.next_hand()
    for twin in (match.copy(), copy.copy(match), copy.deepcopy(match),
                 pickle.loads(pickle.dumps(match))):
        assert twin == match and twin.hand_number == 2
        finish_hand(twin)
        twin.next_hand()
        assert twin.hand_number == 3 and match.hand_number == 2
        assert not match.game.is_over and len(match.results) == 1


class _PausingList(list):  # type: ignore[type-arg]
    """A match's list of completed hands that, on each append, lets another thread read
    the match before the dealing thread goes on (and waits a little for it)."""

    def __init__(self, items: list[object], read) -> None:  # type: ignore[no-untyped-def]
        super().__init__(items)
        self.read = read
        self.readers: list[threading.Thread] = []

    def append(self, item: object) -> None:
        super().append(item)
        reader = threading.Thread(target=self.read)
        self.readers.append(reader)
        reader.start()
        reader.join(0.2)       # with the lock held by the dealer, the reader waits its turn


def test_a_reader_never_sees_a_hand_half_dealt() -> None:
    """results / hand_scores read the completed hands and then the current game: a read
    between next_hand's two updates counted the hand just finished twice (once done, once
    current), and totals could add scores and penalties of different moments. Reads now
    take the lock next_hand deals under, so they see the match before or after a deal."""
    match = Match(3, seed=8)
    finish_hand(match)
    seen: list[tuple[int, int, int]] = []

    def read() -> None:
        seen.append((len(match.results), len(match.hand_scores), sum(match.totals)))

    done = _PausingList(match._done, read)
    match._done = done  # type: ignore[assignment]
    match.next_hand()
    for reader in done.readers:
        reader.join()
    # One completed hand, worth 2 + 1 + 0 points to three players (R10.2).
    assert seen == [(1, 1, 3)]


def test_a_match_round_trips_through_json_hand_after_hand() -> None:
    """Issue 34: Tiến Lên's Match writes and reads its file as Guandan's does (schema
    tienlen.match): every hand's actions, each deal from the match seed, every action
    re-checked; a pickle of the landed release (six fields) still loads, but cannot be
    written (its earlier hands are unknown)."""
    import json
    import pickle
    import random

    import pytest

    from tienlen.errors import ReplayError
    from tienlen.games.tienlen.match import Match, MatchError
    from tienlen.games.tienlen.rules import Rules

    for players, rules in ((4, Rules()), (3, Rules.southern()), (2, Rules.no_twos())):
        match = Match(players, seed=players, rules=rules)
        rng = random.Random(players)
        for _ in range(3):
            game = match.game
            while not game.is_over:
                moves = game.legal_plays()
                if game.can_pass() and (not moves or rng.random() < 0.3):
                    game.pass_turn()
                else:
                    game.play(moves[rng.randrange(len(moves))])
            match.next_hand()
        _ = match.game.play(match.game.legal_plays()[0])
        text = match.to_json(indent=1)
        again = Match.from_json(text)
        assert again == match and again.to_json(indent=1) == text
        assert again.scores == match.scores and len(json.loads(text)["hands"]) == 4
        assert pickle.loads(pickle.dumps(match)).to_json(indent=1) == text
    record = json.loads(text)
    record["hands"][1][0] = {"seat": 9, "action": "pass"}
    with pytest.raises(ReplayError, match=r"hands\[1\]\[0\]"):
        Match.from_json(json.dumps(record))
    for bad, field in (({"schema": "tienlen.game"}, "schema"), ({"hands": []}, "hands")):
        with pytest.raises(ReplayError, match=field):
            Match.from_json(json.dumps({**json.loads(text), **bad}))
    old = Match.__new__(Match)
    old.__setstate__(match.__getstate__()[:6])          # the landed release's pickle state
    assert old == match
    with pytest.raises(MatchError, match="earlier hands are not known"):
        old.to_json()
