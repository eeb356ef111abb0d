"""guandan.Game and Match as values: copies are independent, pickles replay through the
checked path (a tampered one is refused), views hide other seats' cards."""

from __future__ import annotations

import copy
import pickle

import pytest

from tienlen.guandan import Cards, Game, GuandanError, IllegalActionError, Match
from tienlen.games.guandan.game import _game_from_actions


def test_copy_is_independent_and_equal():
    g = Game(seed=3)
    c = g.copy()
    assert c == g and copy.deepcopy(g) == g
    c.play(c.legal_plays()[0])
    assert c != g and len(g.history) == 0 and g.hand(g.turn) != c.hand(g.turn)


def test_pickle_mid_tribute_and_mid_play():
    g = Game(hands=["3s 4s", "5s 6s", "7s 8s", "9s Ks"], level=3, previous_order=(0, 1, 2, 3))
    assert pickle.loads(pickle.dumps(g)) == g
    g.give_tribute("Ks")
    assert pickle.loads(pickle.dumps(g)) == g
    g.return_tribute("4s")
    g.play("9s")
    h = pickle.loads(pickle.dumps(g))
    assert h == g and h.turn == g.turn and h.history == g.history


def test_tampered_pickle_is_refused():
    g = Game(seed=3, leader=0)
    play = g.legal_plays()[0]
    g.play(play)
    fn, args = g.__reduce__()
    args = list(args)
    args[7] = ((1, "play", args[7][0][2], args[7][0][3]),)   # seat 1 claims seat 0's play
    with pytest.raises(IllegalActionError):
        fn(*args)
    with pytest.raises((GuandanError, ValueError)):
        _game_from_actions(3, 2, {"wild_count": 3}, ((0, 2), (1, 3)), None, 0, args[6], ())


def test_match_copy_pickle_and_replay_equal():
    m = Match(8)
    for _ in range(30):
        g = m.game
        m.play(g.legal_plays()[-1]) if not g.can_pass() else m.pass_turn()
    assert m.copy() == m and pickle.loads(pickle.dumps(m)) == m
    assert Match.from_json(m.to_json()) == m


def test_view_shows_only_what_the_seat_may_know():
    g = Game(seed=6, leader=1)
    v = g.view(0)
    assert v.hand == g.hand(0) and v.hand_sizes == (27, 27, 27, 27)
    assert not hasattr(v, "hands") and len(v.legal_plays) == 0     # not its turn
    assert v.partner == 2 and v.turn == 1 and v.can_pass is False
    assert len(g.view(1).legal_plays) > 0


def test_replay_refusals_name_the_field():
    from tienlen.guandan import ReplayError

    m = Match(2)
    text = m.to_json()
    with pytest.raises(ReplayError, match="schema"):
        Match.from_json(text.replace("tienlen.guandan.match", "other"))
    with pytest.raises(ReplayError, match="larger"):
        Match.from_json(" " * (9 << 20))
    with pytest.raises(ReplayError, match="not JSON"):
        Match.from_json("{")
    with pytest.raises(ReplayError, match="levels"):
        Match.from_json(text.replace('"levels": [2, 2]', '"levels": [3, 2]'))


def test_cards_given_as_text_choose_a_reading():
    # 7 7 7 + two wilds reads as a full house or a 5-card bomb: without a reading the
    # non-bomb one is played, with reading= the bomb.
    hands = ["7s 7d 7c 2h 2h 3s", "4s", "5s", "6s"]
    g = Game(hands=hands, leader=0)
    a = g.play("7s 7d 7c 2h 2h")
    assert a.play.kind.name == "FULL_HOUSE"
    g2 = Game(hands=hands, leader=0)
    from tienlen.guandan import Kind

    assert g2.play(Cards.parse("7s 7d 7c 2h 2h"), reading=Kind.BOMB).play.is_bomb
    with pytest.raises(IllegalActionError):
        Game(hands=hands, leader=0).play("7s 7d 7c 2h 2h", reading=Kind.STRAIGHT)


def test_legal_plays_indexing_is_a_sequence_of_the_core_listing():
    # Indexing one play reads the core's arrays directly (a lead lists hundreds); every way
    # of reading the sequence must agree with the core's (masks, codes), in its order.
    import numpy as np

    g = Game(seed=11)
    for _ in range(30):
        if g.is_over:
            break
        plays = g.legal_plays()
        masks, codes = g.state.legal_plays()
        n = len(plays)
        assert n == len(codes)
        whole = list(plays)
        assert [(p.cards._once, p.cards._twice, p._code) for p in whole] == \
            [(int(a), int(b), int(c)) for (a, b), c in zip(masks, codes)]
        for i in {0, n // 2, n - 1, -1, -n} if n else set():
            assert plays[i] == whole[i]
        if n:
            assert plays[np.int64(0)] == whole[0]
        if n > 1:
            assert plays[True] == whole[1]          # a bool indexes like 1, as in a list
            assert plays[1:3] == whole[1:3] and plays[::-1] == whole[::-1]
        for bad in (n, -n - 1, 2**70):
            with pytest.raises(IndexError):
                plays[bad]
        with pytest.raises(TypeError):
            plays["0"]  # type: ignore[index]
        with pytest.raises(TypeError):
            plays[1.0]  # type: ignore[index]
        g.pass_turn() if g.can_pass() else g.play(plays[n // 2])


BAD_SEATS = (4, -1, "0", 1.0, True, object())


@pytest.mark.parametrize("seat", BAD_SEATS)
def test_can_with_a_malformed_seat_raises_as_tienlen_does(seat):
    """Issue 24, item 13: guandan's can_* answered False for a malformed seat, where Tiến
    Lên's raise: a malformed argument is the caller's error, not a refused action. Both games
    now raise (here IllegalActionError BAD_SEAT, what the actions raise), in every phase,
    and the game is unchanged; a seat equal to the turn but not an int (True, 1.0) was even
    accepted by play when seat 1 was to act."""
    tribute = Game(hands=["3s 4s", "5s 6s", "7s 8s", "9s Ks"], level=3, previous_order=(0, 1, 2, 3))
    play = Game(hands=["3s 4s", "5s 6s", "7s 8s", "9s Ks"], leader=1)
    over = Game(hands=["3s", "4s", "5s", "6s"], leader=0)
    over.play("3s"), over.pass_turn(), over.play("5s")
    assert over.is_over
    for game in (tribute, play, over):
        before = game.__reduce__()
        calls = [lambda: game.can_play("5s", seat), lambda: game.can_pass(seat),
                 lambda: game.can_give_tribute("Ks", seat),
                 lambda: game.can_return_tribute("3s", seat),
                 lambda: game.verify_play("5s", seat), lambda: game.play("5s", seat),
                 lambda: game.verify_pass(seat), lambda: game.pass_turn(seat),
                 lambda: game.give_tribute("Ks", seat)]
        for call in calls:
            with pytest.raises(IllegalActionError, match="seat must be 0..3") as info:
                call()
            assert info.value.detail == "BAD_SEAT"
        assert game.__reduce__() == before
    match = Match(seed=5, max_hands=1)
    for call in (lambda: match.can_play("3s", seat), lambda: match.can_pass(seat),
                 lambda: match.can_give_tribute("3s", seat),
                 lambda: match.can_return_tribute("3s", seat)):
        with pytest.raises(IllegalActionError, match="seat must be 0..3"):
            call()


def test_can_answers_false_for_a_well_formed_seat_that_may_not_act():
    game = Game(hands=["3s 4s", "5s 6s", "7s 8s", "9s Ks"], leader=1)
    assert game.can_play("5s", 1) and not game.can_play("3s", 0) and not game.can_pass(1)
    assert not game.can_give_tribute("5s", 1) and not game.can_return_tribute("5s", 1)
    match = Match(seed=5)
    seat = match.turn
    assert not match.can_pass(seat) and not match.can_pass((seat + 1) % 4)


def test_hands_that_are_not_the_seeds_deal_are_refused():
    """Issue 24, item 13: Game(seed=, hands=) did not check the hands against the seed: the
    game kept a seed whose deal it was not (and a Match replay or a view reports it). The
    hands must now be the seed's deal, or come without a seed."""
    from tienlen.guandan import deal

    dealt = deal(7)
    same = Game(seed=7, hands=dealt, leader=1)
    assert same == Game(seed=7, leader=1) and same.seed == 7
    moved = Cards([next(c for c in dealt[0].ids if dealt[3].count(c) == 0)])
    one_card_moved = [dealt[0] - moved, dealt[1], dealt[2], dealt[3] + moved]
    for hands in (deal(8), dealt[1:] + dealt[:1], ["3s", "4s", "5s", "6s"], one_card_moved):
        with pytest.raises(GuandanError, match="not the deal of seed 7"):
            Game(seed=7, hands=hands)
    assert Game(hands=deal(8), leader=0).seed is None      # hands alone: a position, no seed
    g = Game(seed=7, level=4, previous_order=(0, 1, 2, 3))  # copies and pickles pass both
    assert pickle.loads(pickle.dumps(g)) == g


def test_tribute_payers_are_the_cores_even_under_anti_tribute():
    """Issue 34: the platform adapter announced anti-tribute's refusers with its own rule,
    which named the first out's partner after a 1st+4th hand (seed 0, places 0, 1, 3, 2);
    the game now says who pays, or would have paid (G6.2: the losing team's lower-placed
    player, the 3rd), from the core."""
    import itertools

    anti = Game(seed=0, previous_order=(0, 1, 3, 2))
    assert anti.anti_tribute and anti.tribute_payers == (3,)
    assert Game(seed=0, previous_order=(0, 2, 1, 3)).tribute_payers == (1, 3)
    assert Game(seed=0).tribute_payers == ()
    for seed, order in itertools.product(range(20), itertools.permutations(range(4))):
        g = Game(seed=seed, previous_order=order)
        if not g.anti_tribute:
            assert g.tribute_payers == tuple(t.payer for t in g.tributes)
        assert order[0] not in g.tribute_payers and len(g.tribute_payers) in (1, 2)


def test_a_hand_round_trips_through_json_with_every_action_checked():
    """Issue 34, one vocabulary: Guandan's Game has to_json / from_json as Tiến Lên's does
    (schema tienlen.guandan.game), tribute hands included."""
    import json

    from tienlen.errors import ReplayError

    for g in (Game(seed=4), Game(seed=7, level=9, previous_order=(0, 1, 3, 2)),
              Game.from_hands(["3s 3d", "4s", "5s", "6s"], leader=0)):
        while g.phase == "play" and len(g.history) < 12:
            plays = g.legal_plays()
            g.play(plays[-1].cards, None, plays[-1]) if plays else g.pass_turn()
        text = g.to_json(indent=1)
        assert Game.from_json(text) == g and Game.from_json(text.encode()) == g
        assert json.loads(text)["schema"] == "tienlen.guandan.game"
    record = json.loads(Game(seed=4).to_json())
    bad = [({**record, "version": 2}, "version"), ({**record, "seed": -1}, "seed"),
           ({**record, "hands": ["3s"]}, "hands"), ({**record, "teams": [[0, 1]]}, "teams"),
           ({**record, "actions": [{"seat": 9, "action": "pass"}]}, r"actions\[0\]"),
           ({**record, "extra": 1}, "extra")]
    for data, field in bad:
        with pytest.raises(ReplayError, match=field):
            Game.from_json(json.dumps(data))
