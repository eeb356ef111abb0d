"""Differential tests of rules as data (issue 13): the core against the reference, under
every preset and under every field of ``Rules`` toggled alone.

The reference (tests/reference*.py) learns the fields from the issue's table, written apart
from the core; here both answer the same questions: classify, beats, legal moves (lead,
follow, locked out), whole games through ``Game`` against ``RefGame`` (turn order with
lock-outs and out-of-turn bombs), instant wins on dealt hands, the solver on tiny positions,
and the hand split against a brute-force fewest-combinations split. Every case comes from a
fixed seed; ``TIENLEN_SOAK=1`` runs 100 times more. Failures print the position in cards.
"""

from __future__ import annotations

import os
import random

import pytest

import reference as ref
import reference_solver as rs
from reference import DOUBLE_SEQUENCE, FULL_DECK, QUAD, TWO_RANK
from reference_game import RefGame
from tienlen import Cards, Game, Rules, _core

SOAK = 100 if os.environ.get("TIENLEN_SOAK") == "1" else 1

#: The presets, each beside the reference's own copy of it.
PRESETS: list[tuple[str, Rules, ref.Ruleset]] = [
    ("default", Rules(), ref.CONTRACT),
    ("no-twos", Rules.no_twos(), ref.NO_TWOS),
    ("southern", Rules.southern(), ref.SOUTHERN),
]


def core_rules(rules: ref.Ruleset) -> Rules:
    """The library's ``Rules`` with the same four fields as a reference ruleset."""
    return Rules(twos_in_sequences=rules.twos_in_sequences, cuts=frozenset(rules.cuts),
                 out_of_turn=frozenset(rules.out_of_turn), instant_wins=frozenset(rules.instant_wins))


#: Every preset, then every field toggled alone from the contract (37 rulesets).
ALL: list[tuple[str, Rules, ref.Ruleset]] = PRESETS + [
    (name, core_rules(rules), rules) for name, rules in ref.single_toggles()]
ALL_IDS = [name.replace(" ", "_").replace(">", "-") for name, _, _ in ALL]
PRESET_IDS = [name for name, _, _ in PRESETS]


def budget(name: str, presets: int) -> int:
    """Cases for one ruleset: ``presets`` for a preset, a fifth of it for a single toggle
    (37 of them; each differs from the contract in one entry, which the bomb-rich
    generators below reach quickly), times 100 under TIENLEN_SOAK=1."""
    return (presets if name in PRESET_IDS else max(1, presets // 5)) * SOAK


def seed_of(name: str) -> int:
    return ALL_IDS.index(name.replace(" ", "_").replace(">", "-"))


# ------------------------------------------------------------------------- the data


def test_presets_have_the_reference_fields() -> None:
    for name, rules, mine in PRESETS:
        assert (rules.twos_in_sequences, rules.cuts, rules.out_of_turn, rules.instant_wins) == tuple(mine), name
        assert rules.name == name


def test_each_toggle_is_one_flag_bit() -> None:
    # The layout of issue 13 (RULES13.md), recomputed here: bit 0 no 2s in runs; bit
    # 1 + 7b + t the cut (bomb b, target t) toggled; 29 + b bomb b not out of turn;
    # 33 + w instant win w on. Each single toggle sets exactly its own bit.
    bombs, targets, wins = ref.BOMB_KINDS, ref.TARGET_KINDS, ref.INSTANT_WIN_KINDS
    expected_bits = [0]
    expected_bits += [1 + 7 * bombs.index(b) + targets.index(t) for b in bombs for t in targets]
    expected_bits += [29 + i for i in range(4)] + [33 + i for i in range(4)]
    got = [core_rules(rules).flags for _, rules in ref.single_toggles()]
    assert got == [1 << bit for bit in expected_bits]


# ------------------------------------------------------------------------- generators


def pairs_mask(rng: random.Random, lo: int, length: int, free: int = FULL_DECK) -> int | None:
    """Two cards of each rank lo..lo+length-1 from ``free``, or None."""
    mask = 0
    for r in range(lo, lo + length):
        here = [c for c in range(4 * r, 4 * r + 4) if (free >> c) & 1]
        if len(here) < 2:
            return None
        mask |= sum(1 << c for c in rng.sample(here, 2))
    return mask


def random_bomb(rng: random.Random, free: int = FULL_DECK, twos: bool = True) -> int | None:
    """A quad or a double sequence of 3-5 pairs (sometimes 6) from ``free``, or None."""
    for _ in range(20):
        kind = rng.choice(["quad", "3", "4", "4", "5", "6"])
        if kind == "quad":
            r = rng.randrange(13)
            if (free >> (4 * r)) & 15 == 15:
                return 15 << (4 * r)
            continue
        length = int(kind)
        top = TWO_RANK if twos else TWO_RANK - 1
        m = pairs_mask(rng, rng.randint(0, top - length + 1), length, free)
        if m is not None:
            return m
    return None


def random_twos(rng: random.Random, free: int = FULL_DECK, n: int | None = None) -> int | None:
    here = [c for c in range(48, 52) if (free >> c) & 1]
    n = rng.randint(1, 3) if n is None else n
    if len(here) < n:
        return None
    return sum(1 << c for c in rng.sample(here, n))


def random_combo(rng: random.Random, free: int = FULL_DECK, twos: bool = True) -> int | None:
    """A pile: 2-combos and bombs half the time, else any combination of the free cards."""
    r = rng.random()
    if r < 0.3:
        return random_twos(rng, free)
    if r < 0.6:
        return random_bomb(rng, free, twos)
    options = [m for m in ref.combos_in(free & sum(1 << c for c in rng.sample(ref.cards_of(free), min(14, free.bit_count()))),
                                        twos_in_sequences=twos)]
    return rng.choice(options) if options else None


def random_hand(rng: random.Random, size: int, free: int = FULL_DECK, twos: bool = True) -> int:
    """A hand of up to ``size`` cards from ``free``, often holding a bomb and some 2s."""
    hand = 0
    if rng.random() < 0.7:
        bomb = random_bomb(rng, free, twos) or 0
        hand |= bomb if bomb.bit_count() <= size else 0
    if rng.random() < 0.5:
        twos_held = random_twos(rng, free & ~hand) or 0
        hand |= twos_held if (hand | twos_held).bit_count() <= size else 0
    rest = ref.cards_of(free & ~hand)
    need = max(0, size - hand.bit_count())
    hand |= sum(1 << c for c in rng.sample(rest, min(need, len(rest))))
    return hand


# ------------------------------------------------------------ classify and beats


@pytest.mark.parametrize("name, rules, mine", ALL, ids=ALL_IDS)
def test_classify_and_beats_agree(name: str, rules: Rules, mine: ref.Ruleset) -> None:
    rng = random.Random(1300 + seed_of(name))
    flags = rules.flags
    for _ in range(budget(name, 600)):
        pile = random_combo(rng, twos=mine.twos_in_sequences) or 0
        r = rng.random()
        if r < 0.4:
            play = random_bomb(rng, FULL_DECK & ~pile, mine.twos_in_sequences) or 0
        elif r < 0.6:
            play = random_twos(rng, FULL_DECK & ~pile) or 0
        else:
            play = random_combo(rng, FULL_DECK & ~pile, mine.twos_in_sequences) or 0
        if r > 0.95:  # any set of cards, mostly no combination
            play = rng.getrandbits(52) & rng.getrandbits(52) & rng.getrandbits(52)
        if not play:
            continue
        want_code = ref.code(play, rules=mine)
        assert _core.classify(play, flags) == want_code, (
            f"{name}: classify [{ref.cards_str(play)}]: core {_core.classify(play, flags)}, reference {want_code}")
        pile_code = ref.code(pile, rules=mine)
        if want_code == 0 or (pile and pile_code == 0):
            continue
        want = ref.beats(play, pile, rules=mine)
        got = bool(_core.beats(want_code, pile_code, flags))
        assert got == want, (
            f"{name}: beats({ref.describe(play, rules=mine)} on "
            f"{ref.describe(pile, rules=mine) if pile else 'an empty pile'}): core {got}, reference {want}")


# ------------------------------------------------------------------- legal moves


def check_moves(name: str, rules: Rules, mine: ref.Ruleset, hand: int, pile: int, locked: bool,
                must: int | None) -> set[int]:
    pile_code = ref.code(pile, rules=mine)
    got = {int(m) for m in _core.legal_moves(hand, pile_code, rules.flags, locked,
                                              -1 if must is None else must).tolist()}
    moves = ref.legal_moves if hand.bit_count() <= 11 else ref.legal_moves_fast
    want = moves(hand, pile, locked, must, rules=mine)
    assert got == want, (
        f"{name}: legal moves of [{ref.cards_str(hand)}] on "
        f"{ref.describe(pile, rules=mine) if pile else 'an empty pile (lead)'}, locked_out={locked}, "
        f"must_include={must}\n  only core: {sorted(ref.cards_str(m) for m in got - want)}\n"
        f"  only reference: {sorted(ref.cards_str(m) for m in want - got)}")
    return want


@pytest.mark.parametrize("name, rules, mine", ALL, ids=ALL_IDS)
def test_legal_moves_agree(name: str, rules: Rules, mine: ref.Ruleset) -> None:
    rng = random.Random(2600 + seed_of(name))
    locked_plays = follows = 0
    for _ in range(budget(name, 200)):
        pile = 0 if rng.random() < 0.1 else (random_combo(rng, twos=mine.twos_in_sequences) or 0)
        hand = random_hand(rng, rng.randint(1, 12), FULL_DECK & ~pile, mine.twos_in_sequences)
        if pile and rng.random() < 0.4:
            # A hand that can follow: some cards that beat the pile (a higher combination
            # of its shape, or a bomb) put into it.
            spare = ref.cards_of(FULL_DECK & ~pile & ~hand)
            some = sum(1 << c for c in rng.sample(spare, min(12, len(spare))))
            options = [m for m in ref.combos_in(some, rules=mine)
                       if m.bit_count() == pile.bit_count() and ref.beats(m, pile, rules=mine)]
            if options:
                hand |= rng.choice(options)
        if not hand:
            continue
        locked = pile != 0 and rng.random() < 0.5
        must = rng.choice(ref.cards_of(hand)) if pile == 0 and rng.random() < 0.3 else None
        moves = check_moves(name, rules, mine, hand, pile, locked, must)
        locked_plays += locked and bool(moves)
        follows += bool(pile) and bool(moves)
    # The generator must reach the rules under test, not only empty answers.
    if name in PRESET_IDS:
        assert follows > 25 * SOAK and locked_plays > 2 * SOAK, (follows, locked_plays)


# ------------------------------------------------------------------- whole games


def deal_hands(rng: random.Random, players: int, twos: bool) -> list[int]:
    """Short hands rich in bombs and 2s (and sometimes full deals), so that cuts, cuts of
    cuts and out-of-turn bombs come up in most games."""
    if rng.random() < 0.2:
        deck = list(range(52))
        rng.shuffle(deck)
        return [sum(1 << c for c in deck[13 * s:13 * s + 13]) for s in range(players)]
    free = FULL_DECK
    hands = []
    for _ in range(players):
        h = random_hand(rng, rng.randint(4, 11), free, twos)
        free &= ~h
        hands.append(h)
    return hands


def game_state(game: Game) -> tuple:
    return (game.turn, tuple(h.mask for h in game.hands),
            0 if game.pile is None else game.pile.cards.mask, game.pile_owner,
            frozenset(game.locked_seats), tuple(game.finished), game.is_over)


def ref_state(g: RefGame) -> tuple:
    return (g.turn, tuple(g.hands), g.pile, g.pile_owner, frozenset(g.locked_seats),
            tuple(g.finished), g.is_over)


def is_bomb(mask: int, mine: ref.Ruleset) -> bool:
    combo = ref.classify(mask, rules=mine)
    return combo is not None and combo[0] in (QUAD, DOUBLE_SEQUENCE)


def play_game(rng: random.Random, name: str, rules: Rules, mine: ref.Ruleset, players: int,
              tally: dict[str, int]) -> None:
    hands = deal_hands(rng, players, mine.twos_in_sequences)
    leader = None if rng.random() < 0.4 else rng.randrange(players)
    game = Game.from_hands([Cards(h) for h in hands], rules=rules, leader=leader)
    g = RefGame(list(hands), leader=leader, rules=mine)
    log: list[str] = []

    def where() -> str:
        seats = "; ".join(f"{s}: [{ref.cards_str(h)}]" for s, h in enumerate(hands))
        return (f"{name}, Game.from_hands(leader={leader}) with {seats}\n  actions: "
                + " / ".join(log[-20:]))

    while True:
        assert game_state(game) == ref_state(g), (
            f"state differs: Game {game_state(game)}, reference {ref_state(g)}\n{where()}")
        if g.is_over:
            break
        want = g.legal_plays()
        got = {c.mask for c in game.legal_moves()}
        assert got == want, (
            f"legal moves differ for seat {g.turn}: only Game "
            f"{sorted(ref.cards_str(m) for m in got - want)}, only reference "
            f"{sorted(ref.cards_str(m) for m in want - got)}\n{where()}")
        assert game.can_pass() == g.can_pass(), where()
        seat = g.turn
        if seat in g.locked_seats:
            tally["locked_turns"] += 1
        ordered = sorted(want)
        bombs = [m for m in ordered if is_bomb(m, mine)]
        r = rng.random()
        if bombs and (r < 0.6 or seat in g.locked_seats and r < 0.9):
            move = rng.choice(bombs)
        elif g.can_pass() and (not ordered or r < 0.35):
            move = 0
        else:
            move = rng.choice(ordered)
        if move == 0:
            log.append(f"{seat} passes")
            game.pass_turn()
            g.pass_turn()
        else:
            log.append(f"{seat} plays [{ref.cards_str(move)}]")
            if g.pile and not ref.classify(move, rules=mine)[:2] == ref.classify(g.pile, rules=mine)[:2]:
                tally["cuts"] += 1
            if g.pile and is_bomb(g.pile, mine) and is_bomb(move, mine):
                tally["cut_of_cut"] += 1
            tally["locked_plays"] += seat in g.locked_seats
            game.play(Cards(move))
            g.play(move)
    tally["games"] += 1


@pytest.mark.parametrize("name, rules, mine", ALL, ids=ALL_IDS)
def test_games_agree(name: str, rules: Rules, mine: ref.Ruleset) -> None:
    rng = random.Random(3900 + seed_of(name))
    tally = {"games": 0, "cuts": 0, "cut_of_cut": 0, "locked_turns": 0, "locked_plays": 0}
    games = budget(name, 80)
    for i in range(games):
        play_game(rng, name, rules, mine, 2 + i % 3, tally)
    assert tally["games"] == games
    # The random games must reach the rules that matter (R4, R5.2-R5.4; R11.1, R11.2), or
    # their agreement says little.
    if name in PRESET_IDS:
        assert tally["cuts"] > 10 * SOAK and tally["locked_turns"] > 15 * SOAK, tally
        assert tally["cut_of_cut"] > 2 * SOAK and tally["locked_plays"] > 2 * SOAK, tally


# ------------------------------------------------------------ instant wins at the deal


INSTANT = [(n, r, m) for n, r, m in ALL if m.instant_wins]


@pytest.mark.parametrize("name, rules, mine", INSTANT, ids=[n.replace(" ", "_") for n, _, _ in INSTANT])
def test_instant_wins_on_dealt_hands(name: str, rules: Rules, mine: ref.Ruleset) -> None:
    wins = 0
    for seed in range(2000 * SOAK):
        players = 2 + seed % 3
        leader = None if seed % 5 else seed % players
        plain = Game(players, seed=seed, leader=leader)          # the contract: no instant win
        hands = [h.mask for h in plain.hands]
        game = Game(players, seed=seed, rules=rules, leader=leader)
        assert [h.mask for h in game.hands] == hands, "the deal must not depend on the rules"
        g = RefGame.dealt(hands, leader=leader, rules=mine)
        where = f"{name}, seed {seed}, {players} players, leader {leader}: " + "; ".join(
            f"{s}: [{ref.cards_str(h)}]" for s, h in enumerate(hands))
        if g.instant_winner is None:
            assert game.instant_win is None, where
            assert game_state(game) == game_state(plain), where
            continue
        wins += 1
        seat = g.instant_winner
        assert game.instant_win is not None, f"no instant win in the core; reference: seat {seat}\n{where}"
        got_seat, got_name = game.instant_win
        assert got_seat == seat and got_name in ref.instant_wins_of(hands[seat], rules=mine), (
            f"core {game.instant_win}, reference seat {seat} with "
            f"{sorted(ref.instant_wins_of(hands[seat], rules=mine))}\n{where}")
        assert game.is_over and game.turn is None and game.finished[0] == seat, where
        assert not game.legal_moves(), where
    # About one 13-card hand in a hundred holds one of them (six pairs the most often).
    assert wins > 0, name


def shaped_hand(rng: random.Random) -> int:
    """13 cards, often close to an instant win: many pairs (few ranks), a dragon with one
    rank missing or not, four 2s or three, five pairs in a row reaching the 2s or not."""
    style = rng.randrange(5)
    if style == 0:  # pairs: cards from 6-8 ranks
        lo = rng.randrange(0, 6)
        pool = list(range(4 * lo, 4 * (lo + rng.randint(6, 8))))
        return sum(1 << c for c in rng.sample(pool, 13))
    if style == 1:  # one card of each of 11 or 12 ranks below the 2, plus others
        ranks = rng.sample(range(12), rng.choice([11, 12, 12]))
        hand = sum(1 << (4 * r + rng.randrange(4)) for r in ranks)
    elif style == 2:  # three or four 2s
        hand = sum(1 << c for c in rng.sample(range(48, 52), rng.choice([3, 4, 4])))
    elif style == 3:  # pairs of 5 consecutive ranks, often ending at the 2s
        lo = 8 if rng.random() < 0.4 else rng.randrange(0, 9)
        hand = pairs_mask(rng, lo, 5) or 0
    else:
        hand = 0
    rest = [c for c in range(52) if not (hand >> c) & 1]
    return hand | sum(1 << c for c in rng.sample(rest, 13 - hand.bit_count()))


@pytest.mark.parametrize("name, rules, mine", INSTANT, ids=[n.replace(" ", "_") for n, _, _ in INSTANT])
def test_instant_win_of_a_hand(name: str, rules: Rules, mine: ref.Ruleset) -> None:
    # The core's hand test reports the first of ALL_INSTANT_WINS the hand holds, or -1.
    rng = random.Random(7100 + seed_of(name))
    found = 0
    for _ in range(3000 * SOAK):
        hand = shaped_hand(rng)
        want = ref.instant_wins_of(hand, rules=mine)
        index = next((i for i, w in enumerate(ref.INSTANT_WIN_KINDS) if w in want), -1)
        got = _core.instant_win(hand, rules.flags)
        assert got == index, f"{name}: [{ref.cards_str(hand)}]: core {got}, reference {sorted(want)}"
        found += index >= 0
    assert found > 30 * SOAK
    # The same hands under the contract never win at once.
    assert _core.instant_win(shaped_hand(rng), 0) == -1


def test_instant_wins_are_not_checked_on_given_hands() -> None:
    # R11.3: positions set up with Game.from_hands are not deals.
    four_twos = Cards.parse("2s 2c 2d 2h 3s")
    game = Game.from_hands([four_twos, Cards.parse("4s 5s")], rules=Rules.southern())
    assert game.instant_win is None and not game.is_over and game.turn == 0


# ------------------------------------------------------------------------- solver


@pytest.mark.parametrize("name, rules, mine", PRESETS, ids=PRESET_IDS)
def test_solver_agrees_with_brute_force(name: str, rules: Rules, mine: ref.Ruleset) -> None:
    rng = random.Random(5200 + PRESET_IDS.index(name))
    wins = positions = 0
    for _ in range(80 * SOAK):
        players = rng.choice([2, 3, 3, 4])
        free = FULL_DECK
        hands = []
        for _ in range(players):
            h = random_hand(rng, rng.randint(1, 6), free, mine.twos_in_sequences)
            if not h:
                break
            hands.append(h)
            free &= ~h
        if len(hands) < players:
            continue
        game = RefGame(hands, leader=rng.randrange(players), rules=mine)
        for _ in range(rng.randint(0, 4)):
            child = rs.after(game, rng.choice(rs.actions(game)))
            if child.is_over:
                break
            game = child
        holders = [s for s in range(players) if game.hands[s]]
        seat = game.turn if rng.random() < 0.5 else rng.choice(holders)
        expected = rs.wins(game, seat)
        state = _core.GameState.from_fields(
            game.hands, pile_mask=game.pile,
            pile_owner=-1 if game.pile_owner is None else game.pile_owner, turn=game.turn,
            locked_mask=sum(1 << s for s in game.locked_seats), finished=game.finished,
            must_include=-1 if game.must_include is None else game.must_include,
            flags=rules.flags)
        value = _core.solve(state, seat)[0]
        assert value == (_core.SOLVE_WIN if expected else _core.SOLVE_LOSS), (
            f"{name}: solver says {value}, reference {'win' if expected else 'loss'} for seat {seat}: "
            f"hands {[ref.cards_str(h) for h in game.hands]}, pile [{ref.cards_str(game.pile)}] "
            f"owner {game.pile_owner}, turn {game.turn}, locked {sorted(game.locked_seats)}, "
            f"finished {game.finished}")
        wins += expected
        positions += 1
    assert 0.1 * positions < wins < 0.9 * positions


# ------------------------------------------------------------------------- the split


@pytest.mark.parametrize("name, rules, mine", PRESETS, ids=PRESET_IDS)
def test_core_split_is_a_fewest_combinations_split(name: str, rules: Rules, mine: ref.Ruleset) -> None:
    # The core promises (src/api.pxi ``plan``): a best split, fewest combinations, then
    # fewest singles below a 2. The brute force finds the least (groups, low singles) over
    # every partition of the hand into combinations of this ruleset.
    from tienlen.games.tienlen.bots.split import split_masks

    rng = random.Random(6500 + PRESET_IDS.index(name))
    for _ in range(300 * SOAK):
        lo = rng.randrange(0, 10)
        pool = [c for c in range(52) if lo <= c // 4 < lo + rng.randint(3, 6)] + list(range(48, 52))
        hand = sum(1 << c for c in rng.sample(sorted(set(pool)), rng.randint(1, 10)))
        best = ref.split_cost(ref.best_split(hand, rules=mine))
        for what, groups in (("core plan", _core.plan(hand, rules.flags)),
                             ("split_masks", tuple(split_masks(hand, rules.flags)))):
            where = f"{name}: {what} of [{ref.cards_str(hand)}] = {[ref.cards_str(g) for g in groups]}"
            assert sum(groups) == hand and sum(g.bit_count() for g in groups) == hand.bit_count(), where
            assert all(ref.classify(g, rules=mine) for g in groups), where
            assert ref.split_cost(groups) == best, f"{where}: cost {ref.split_cost(groups)}, brute force {best}"
