"""The endgame solver against the brute-force reference (tests/reference_solver.py).

Random tiny positions (up to six cards a hand; 2, 3 and 4 players; both rule sets; piles,
lock-outs, finished seats and first leads reached by random play in the reference model)
are solved by the core and by the reference; the values must agree, and the principal line
must be legal move by move, keep the proven value at every step and end with the right
player going out. A second differential builds positions field by field instead, so that
every field ``GameState.from_fields`` takes varies on its own (a must-include card that is
not the lowest, lock-outs, finished seats, played cards, every ruleset, 2 to 4 players).
``TIENLEN_SOAK=1`` runs 100 times more of both.
"""

from __future__ import annotations

import os
import random
import threading
import time

import pytest

import reference as ref
import reference_solver as rs
from reference_game import RefGame
from tienlen import _core

SOAK = 100 if os.environ.get("TIENLEN_SOAK") == "1" else 1
# Positions per (players, rules) cell: 6 cells, 10,200 positions in all by default.
PER_CELL = {2: 2400, 3: 1600, 4: 1100}


def random_game(rng: random.Random, players: int, max_cards: int, twos: bool) -> RefGame:
    """A tiny position reached by random play: cards drawn from a narrow band of ranks
    (so that pairs, runs, 2s and bombs are common) or from the whole deck."""
    if rng.random() < 0.75:
        low = rng.randrange(0, 11)
        pool = [c for c in range(52) if low <= c // 4 < low + rng.randint(3, 6)]
    else:
        pool = list(range(52))
    while True:
        sizes = [rng.randint(1, max_cards + 2) for _ in range(players)]
        if sum(sizes) <= len(pool):
            break
    cards = rng.sample(pool, sum(sizes))
    hands, at = [], 0
    for size in sizes:
        hands.append(sum(1 << c for c in cards[at:at + size]))
        at += size
    leader = None if rng.random() < 0.3 else rng.randrange(players)
    game = RefGame(hands, leader, twos_in_sequences=twos)
    # A few random actions, so that piles, lock-outs and finished seats occur; then cards
    # are removed at random from any hand still larger than max_cards.
    for _ in range(rng.randint(0, 6)):
        options = rs.actions(game)
        child = rs.after(game, rng.choice(options))
        if child.is_over:
            break
        game = child
    for seat in range(players):
        # Half the hands at the full size, half smaller: the brute force's cost grows
        # steeply with the card count, and small hands cover the end of every line.
        cap = max_cards if rng.random() < 0.5 else rng.randint(1, max_cards)
        while game.hands[seat].bit_count() > cap and game.hands[seat].bit_count() > 1:
            held = [c for c in range(52) if (game.hands[seat] >> c) & 1
                    and c != game.must_include]
            if not held:
                break
            game.hands[seat] &= ~(1 << rng.choice(held))
    return game


def core_state(game: RefGame) -> _core.GameState:
    return _core.GameState.from_fields(
        game.hands,
        pile_mask=game.pile,
        pile_owner=-1 if game.pile_owner is None else game.pile_owner,
        turn=game.turn,
        locked_mask=sum(1 << s for s in game.locked_seats),
        finished=game.finished,
        must_include=-1 if game.must_include is None else game.must_include,
        flags=0 if game.twos_in_sequences else _core.NO_TWOS_IN_SEQUENCES,
    )


def describe(game: RefGame, seat: int) -> str:
    hands = ", ".join(f"{s}: [{ref.cards_str(h)}]" for s, h in enumerate(game.hands))
    return (f"hands {hands}; pile [{ref.cards_str(game.pile)}] owner {game.pile_owner}; "
            f"turn {game.turn}; locked {sorted(game.locked_seats)}; finished {game.finished}; "
            f"must_include {game.must_include}; twos {game.twos_in_sequences}; seat {seat}")


def check_line(game: RefGame, seat: int, value: bool, line: tuple[int, ...], memo: dict) -> None:
    """The line is legal in the reference model, never changes the proven value and ends
    with the right player going out first."""
    assert line, "a solved position must come with a line"
    holders = {s for s in range(game.players) if game.hands[s]}
    g = game
    for i, action in enumerate(line):
        assert action in rs.actions(g), f"step {i}: {ref.cards_str(action)} is not legal"
        mover = g.turn
        g = rs.after(g, action)
        if action and g.hands[mover] == 0:
            assert i == len(line) - 1, "the line goes on after a player is out"
            assert mover in holders
            assert (mover == seat) == value, "the line's first player out contradicts the value"
            return
        assert rs.wins(g, seat, memo) == value, f"step {i} changes the value"
    pytest.fail("the line ends before anybody goes out")


@pytest.mark.parametrize("twos", [True, False], ids=["default", "no-twos"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_solver_agrees_with_brute_force(players: int, twos: bool) -> None:
    rng = random.Random(1400 + 10 * players + twos)
    wins = 0
    for _ in range(PER_CELL[players] * SOAK):
        game = random_game(rng, players, 6, twos)
        holders = [s for s in range(players) if game.hands[s]]
        seat = game.turn if rng.random() < 0.5 else rng.choice(holders)
        memo: dict = {}
        expected = rs.wins(game, seat, memo)
        state = core_state(game)
        before = state.key()
        value, line, nodes, limit = _core.solve(state, seat)
        assert limit is None and nodes >= 1
        assert state.key() == before, "solve changed its argument"
        assert value == (_core.SOLVE_WIN if expected else _core.SOLVE_LOSS), describe(game, seat)
        check_line(game, seat, expected, line, memo)
        wins += expected
    # Both answers must be common, or the agreement says little.
    n = PER_CELL[players] * SOAK
    assert 0.15 * n < wins < 0.85 * n


def test_solver_default_seat_is_the_seat_to_act() -> None:
    rng = random.Random(7)
    for _ in range(200):
        state = core_state(random_game(rng, rng.randint(2, 4), 5, True))
        assert _core.solve(state)[:2] == _core.solve(state, state.turn)[:2]


def test_solver_two_players_exactly_one_side_wins() -> None:
    # With two players left the question is the game's exact value: the side to act wins
    # exactly when the other seat, asked the same question, loses.
    rng = random.Random(8)
    for _ in range(300):
        game = random_game(rng, 2, 6, rng.random() < 0.5)
        if sum(1 for h in game.hands if h) != 2:
            continue
        state = core_state(game)
        a, b = (_core.solve(state, s)[0] for s in range(2))
        assert {a, b} == {_core.SOLVE_WIN, _core.SOLVE_LOSS}


def hard_position() -> _core.GameState:
    """Two 13-card hands that take the solver about half a million nodes (bench seed 8)."""
    return _core.GameState.from_fields((3395567122517072, 12138791371272),
                                       pile_mask=21474836480, pile_owner=1, turn=0)


def test_solver_limits_give_unknown() -> None:
    state = hard_position()
    value, line, nodes, limit = _core.solve(state, max_nodes=50)
    assert (value, line, limit) == (_core.SOLVE_UNKNOWN, (), "nodes")
    assert nodes <= 51
    start = time.perf_counter()
    value, line, nodes, limit = _core.solve(state, max_nodes=10**12, max_ms=30)
    assert time.perf_counter() - start < 2.0
    assert (value, limit) == (_core.SOLVE_UNKNOWN, "time")


@pytest.mark.parametrize("bad", [
    dict(seat=4), dict(seat=-2), dict(seat=1.0), dict(max_nodes=-1), dict(max_ms=-5),
    dict(max_nodes="many"),
])
def test_solver_bad_arguments(bad: dict) -> None:
    state = _core.GameState(_core.deal(1, 4))
    with pytest.raises(ValueError):
        _core.solve(state, **bad)


def test_solver_refuses_finished_seat_and_over_hand() -> None:
    state = _core.GameState.from_fields([0, 1 << 5, 1 << 9], turn=1, finished=(0,))
    with pytest.raises(ValueError, match="no cards"):
        _core.solve(state, 0)
    over = _core.GameState([1 << 3, 1 << 7], leader=0)
    over.apply_checked(1 << 3)
    with pytest.raises(ValueError, match="over"):
        _core.solve(over)
    with pytest.raises(ValueError):
        _core.solve("not a state")


def test_solver_releases_the_gil() -> None:
    # A long search in one thread must not stop another thread from running Python.
    state = hard_position()
    ticks = []
    done = threading.Event()

    def ticker() -> None:
        while not done.is_set():
            ticks.append(1)
            time.sleep(0.001)

    t = threading.Thread(target=ticker)
    t.start()
    try:
        start = time.perf_counter()
        _core.solve(state, max_nodes=10**12, max_ms=300)
        spent = time.perf_counter() - start
    finally:
        done.set()
        t.join()
    # The ticker sleeps 1 ms a tick; with the GIL held it would not tick at all.
    assert spent > 0.1 and len(ticks) > 20


def test_solver_ctrl_c_raises_keyboard_interrupt() -> None:
    # Two 26-card hands: far beyond any budget here, so only the interrupt can end it.
    import signal

    rng = random.Random(1)
    deck = list(range(52))
    rng.shuffle(deck)
    state = _core.GameState([sum(1 << c for c in deck[:26]), sum(1 << c for c in deck[26:])],
                            leader=0)
    timer = threading.Timer(0.2, lambda: signal.pthread_kill(threading.main_thread().ident,
                                                             signal.SIGINT))
    # Python's own handler, whatever an earlier test left installed: it raises
    # KeyboardInterrupt, which is what the search must pass on.
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    start = time.perf_counter()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            _core.solve(state, max_nodes=10**12, max_ms=60_000)
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, previous)
    assert time.perf_counter() - start < 30


# --- every field from_fields takes (issue 24) ------------------------------------------

#: Every ruleset the reference knows: the presets, then each field toggled alone.
RULESETS: list[tuple[str, ref.Ruleset]] = list(ref.PRESETS.items()) + ref.single_toggles()
#: Positions of the field-by-field differential below (about 5 s; the core before the
#: issue-24 fix gave 4 wrong answers in them, in both directions); 100 times more under
#: TIENLEN_SOAK=1.
FIELD_POSITIONS = 1000


def core_flags(rules: ref.Ruleset) -> int:
    """The core's flags word for a reference ruleset (through the library's Rules)."""
    from tienlen import Rules

    return Rules(twos_in_sequences=rules.twos_in_sequences, cuts=frozenset(rules.cuts),
                 out_of_turn=frozenset(rules.out_of_turn),
                 instant_wins=frozenset(rules.instant_wins)).flags


def random_fields(rng: random.Random) -> dict:
    """Random values for every field of GameState.from_fields, drawn independently (not
    reached by play): 2 to 4 players, finished seats, a pile of any combination and any
    owner, lock-outs on any seats, a must-include card anywhere in the leader's hand,
    played cards, any ruleset. Many draws are positions no game reaches; from_fields
    refuses those, and the caller draws again."""
    players = rng.randint(2, 4)
    name, rules = rng.choice(RULESETS)
    low = rng.randrange(0, 10)
    pool = [c for c in range(52) if low <= c // 4 < low + rng.randint(3, 5)]
    if rng.random() < 0.2:
        pool = list(range(52))
    rng.shuffle(pool)
    finished = rng.sample(range(players), rng.randint(0, players - 2))
    hands = [0] * players
    for seat in range(players):
        if seat not in finished:
            for _ in range(rng.randint(1, 5)):
                if pool:
                    hands[seat] |= 1 << pool.pop()
    holders = [s for s in range(players) if hands[s]]
    turn = rng.choice(holders)
    pile = owner = 0
    owner = -1
    if rng.random() < 0.6 and pool:
        spare = sum(1 << c for c in pool[:rng.randint(1, 8)])
        leads = sorted(ref.legal_moves_fast(spare, 0, False, None, rules=rules))
        pile = rng.choice(leads)
        owner = rng.choice([s for s in range(players) if s != turn])
    locked = 0
    if pile and rng.random() < 0.6:
        locked = sum(1 << s for s in range(players) if s != owner and rng.random() < 0.5)
    must_include = -1
    if not pile and rng.random() < 0.6:
        must_include = rng.choice([c for c in range(52) if (hands[turn] >> c) & 1])
    played = 0
    for c in range(52):
        if rng.random() < 0.1 and not any((h >> c) & 1 for h in hands) and not (pile >> c) & 1:
            played |= 1 << c
    return dict(hands=hands, pile_mask=pile, pile_owner=owner, turn=turn, locked_mask=locked,
                finished=finished, must_include=must_include, flags=core_flags(rules),
                played_mask=played, rules_name=name, rules=rules)


def reference_of(fields: dict) -> RefGame:
    """The reference's position for the same fields (played cards are not part of it: no
    rule reads them)."""
    return rs.position(
        fields["hands"], turn=fields["turn"], pile=fields["pile_mask"],
        pile_owner=None if fields["pile_owner"] < 0 else fields["pile_owner"],
        locked={s for s in range(len(fields["hands"])) if (fields["locked_mask"] >> s) & 1},
        finished=fields["finished"],
        must_include=None if fields["must_include"] < 0 else fields["must_include"],
        rules=fields["rules"])


def describe_fields(fields: dict, seat: int) -> str:
    hands = ", ".join(f"{s}: [{ref.cards_str(h)}]" for s, h in enumerate(fields["hands"]))
    mi = fields["must_include"]
    return (f"hands {hands}; pile [{ref.cards_str(fields['pile_mask'])}] owner "
            f"{fields['pile_owner']}; turn {fields['turn']}; locked {fields['locked_mask']:#b}; "
            f"finished {fields['finished']}; must_include "
            f"{ref.card_str(mi) if mi >= 0 else None}; rules {fields['rules_name']}; seat {seat}")


def test_solver_agrees_with_minimax_on_every_from_fields_field() -> None:
    # The solver against the plain minimax on positions built field by field, so that
    # every field from_fields accepts varies on its own, including combinations random
    # play from a deal rarely reaches (a must-include card that is not the lowest card,
    # lock-outs and finished seats beside it, every ruleset). Disagreements are counted in
    # each direction, and must both be zero.
    rng = random.Random(2424)
    wrong_win, wrong_loss, wins, seen = [], [], 0, {
        "must_include (asked of its holder)": 0, "must_include (asked of another seat)": 0,
        "locked": 0, "finished": 0, "played": 0, "non-default rules": 0,
        "2 players": 0, "3 players": 0, "4 players": 0}
    positions = 0
    while positions < FIELD_POSITIONS * SOAK:
        fields = random_fields(rng)
        try:
            state = _core.GameState.from_fields(
                **{k: v for k, v in fields.items() if k not in ("rules", "rules_name")})
        except ValueError:
            continue                     # a position no game reaches: draw again
        game = reference_of(fields)
        holders = [s for s in range(len(fields["hands"])) if fields["hands"][s]]
        seat = fields["turn"] if rng.random() < 0.5 else rng.choice(holders)
        memo: dict = {}
        expected = rs.wins(game, seat, memo)
        value, line, _, limit = _core.solve(state, seat)
        assert limit is None
        if value != (_core.SOLVE_WIN if expected else _core.SOLVE_LOSS):
            (wrong_loss if expected else wrong_win).append(describe_fields(fields, seat))
        elif positions % 4 == 0:
            check_line(game, seat, expected, line, memo)    # the line too, now and then
        positions += 1
        wins += expected
        if fields["must_include"] >= 0:
            seen["must_include (asked of its holder)" if seat == fields["turn"]
                 else "must_include (asked of another seat)"] += 1
        seen["locked"] += fields["locked_mask"] != 0
        seen["finished"] += bool(fields["finished"])
        seen["played"] += fields["played_mask"] != 0
        seen["non-default rules"] += fields["rules_name"] != "default"
        seen[f"{len(fields['hands'])} players"] += 1
    assert not wrong_win and not wrong_loss, (
        f"{len(wrong_win)} WIN where minimax says LOSS, {len(wrong_loss)} LOSS where it "
        f"says WIN; first: {(wrong_win + wrong_loss)[:3]}")
    # Every field was exercised, and both answers are common.
    assert min(seen.values()) >= positions // 20, seen
    assert 0.15 * positions < wins < 0.85 * positions


def test_solver_must_include_card_not_interchangeable_for_leader() -> None:
    # Issue 24: 6♠ and 6♦ have no card between them in another hand, so the symmetry cut
    # took them as twins and kept only the leads using the lower 6♠, dropping every lead
    # that must hold 6♦. Leading 6♦ 7♠ 8♦ wins (seat 1 cannot beat it, then 6♠ goes out).
    hands = [ref.parse("6♠ 6♦ 7♠ 8♦"), ref.parse("6♥ 7♣ 7♦ 8♠ 8♣")]
    must = ref.lowest_card(ref.parse("6♦"))
    state = _core.GameState.from_fields(hands, turn=0, must_include=must)
    assert rs.wins(rs.position(hands, turn=0, must_include=must), 0)
    value, line, _, _ = _core.solve(state)
    assert value == _core.SOLVE_WIN
    assert (line[0] >> must) & 1


def test_solver_must_include_card_not_interchangeable_when_asked_for_opponent() -> None:
    # Issue 24, the other direction (a WIN where minimax says LOSS): seat 0 must lead with
    # 6♦, and every lead holding 6♦ without 6♠ was cut as a twin of one with 6♠, so the
    # search saw only the pair and answered WIN for seat 1. Minimax: seat 0 leads the run
    # 4♦ 5♦ 6♦, which seat 1 (4♠ 7♦) cannot beat, then 6♠ goes out.
    hands = [ref.parse("4♦ 5♦ 6♠ 6♦"), ref.parse("4♠ 7♦")]
    must = ref.lowest_card(ref.parse("6♦"))
    state = _core.GameState.from_fields(hands, turn=0, must_include=must)
    assert not rs.wins(rs.position(hands, turn=0, must_include=must), 1)
    assert _core.solve(state, 1)[0] == _core.SOLVE_LOSS
    value, line, _, _ = _core.solve(state, 0)
    assert value == _core.SOLVE_WIN and line[0] == ref.parse("4♦ 5♦ 6♦")
