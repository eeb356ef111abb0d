"""tienlen.seeds: the one Python splitmix64 equals the core's seeding, and the one seed
check is what every seeded class applies.

The core's use of splitmix64 cannot be called from Python, so it is observed through what
it decides: ``core.deal(seed)`` seeds xoshiro256** with four splitmix64 outputs of
``seed``, and ``record_playout(seed, index)`` deals from the second splitmix64 output of
``seed ^ index * 0xD1B54A32D192ED03``. A small xoshiro256** + Fisher-Yates model (the
documented algorithm, R1.4) fed by ``tienlen.seeds.splitmix64`` must give the same hands.
"""

from __future__ import annotations

import random

import pytest

from tienlen import core
from tienlen.arena import ArenaError, simulate
from tienlen.games.tienlen.bots import BotError, RandomBot
from tienlen.games.tienlen.game import Game
from tienlen.games.tienlen.match import Match
from tienlen.games.guandan.errors import GuandanError
from tienlen.games.guandan.game import Game as GuandanGame, _draw_seat, _mix
from tienlen.games.guandan.match import Match as GuandanMatch
from tienlen.seeds import SEED_LIMIT, check_players, check_seed, seed_or_fresh, splitmix64

MASK = (1 << 64) - 1
_RNG = random.Random(13)
SEEDS = [0, 1, 42, 2**32, 2**63, MASK, *(_RNG.getrandbits(64) for _ in range(20))]


def _rotl(x: int, k: int) -> int:
    return ((x << k) | (x >> (64 - k))) & MASK


def deal_from_words(words: list[int], players: int) -> tuple[int, ...]:
    """Fisher-Yates driven by xoshiro256** with state ``words`` (R1.4)."""
    s = list(words)
    deck = list(range(52))
    for i in range(51, 0, -1):
        out = (_rotl((s[1] * 5) & MASK, 7) * 9) & MASK
        t = (s[1] << 17) & MASK
        s[2] ^= s[0]
        s[3] ^= s[1]
        s[1] ^= s[2]
        s[0] ^= s[3]
        s[2] ^= t
        s[3] = _rotl(s[3], 45)
        j = ((out >> 32) * (i + 1)) >> 32
        deck[i], deck[j] = deck[j], deck[i]
    return tuple(sum(1 << c for c in deck[13 * p:13 * p + 13]) for p in range(players))


def seeded_words(seed: int) -> list[int]:
    """The xoshiro256** state the core seeds from ``seed``: four splitmix64 outputs."""
    words, state = [], seed
    for _ in range(4):
        state, out = splitmix64(state)
        words.append(out)
    return words


@pytest.mark.parametrize("seed", SEEDS)
def test_R1_4_splitmix64_seeds_the_deal_as_the_core_does(seed: int) -> None:
    for players in (2, 4):
        assert core.deal(seed, players) == deal_from_words(seeded_words(seed), players)


@pytest.mark.parametrize("seed", SEEDS[:8])
def test_splitmix64_gives_the_core_batch_stream_seeds(seed: int) -> None:
    for index in (0, 1, 7, 2**40):
        state = seed ^ ((index * 0xD1B54A32D192ED03) & MASK)
        state, _ = splitmix64(state)
        _, stream = splitmix64(state)
        hands, _, _ = core.record_playout(seed, index, players=3)
        assert hands == deal_from_words(seeded_words(stream), 3)


def test_splitmix64_steps_by_the_golden_gamma_and_wraps() -> None:
    state, _ = splitmix64(MASK)
    assert state == (MASK + 0x9E3779B97F4A7C15) % 2**64
    assert splitmix64(2**64 + 5) == splitmix64(5)


# Values a seed must refuse, and values it must take: bools and floats are not seeds.
BAD_SEEDS = [-1, 2**64, 2**70, True, False, 1.0, "1", [1]]
GOOD_SEEDS = [0, 1, 2**64 - 1]


@pytest.mark.parametrize("seed", BAD_SEEDS)
def test_check_seed_refuses_what_is_not_a_seed(seed: object) -> None:
    with pytest.raises(ValueError, match=r"seed must be an int in \[0, 2\*\*64\); got"):
        check_seed(seed)

    class Mine(ValueError):
        pass

    with pytest.raises(Mine):
        check_seed(seed, Mine)
    with pytest.raises(Mine, match="or None"):
        seed_or_fresh(seed, Mine)


@pytest.mark.parametrize("seed", GOOD_SEEDS)
def test_check_seed_takes_every_seed(seed: int) -> None:
    assert check_seed(seed) == seed_or_fresh(seed) == seed


def test_seed_or_fresh_draws_distinct_seeds_for_none() -> None:
    drawn = {seed_or_fresh(None) for _ in range(8)}
    assert len(drawn) == 8 and all(0 <= s < SEED_LIMIT for s in drawn)


# Every class that takes a seed, with the ValueError subclass it raises for a bad one.
SEEDED = [
    (lambda seed: Game(4, seed=seed), ValueError),
    (lambda seed: Match(4, seed=seed), ValueError),
    (lambda seed: RandomBot(seed), BotError),
    (lambda seed: simulate("tienlen", ["random", "random"], games=2, players=2, seed=seed),
     ArenaError),
    (lambda seed: GuandanGame(seed=seed), GuandanError),
    (lambda seed: GuandanMatch(seed), GuandanError),
]


@pytest.mark.parametrize(("make", "error"), SEEDED)
@pytest.mark.parametrize("seed", [-1, 2**64, True, 2.0])
def test_every_seeded_class_refuses_a_bad_seed_with_its_own_error(make, error, seed) -> None:
    with pytest.raises(error, match="seed must be an int in"):
        make(seed)


@pytest.mark.parametrize(("make", "error"), SEEDED)
def test_every_seeded_class_takes_the_largest_seed(make, error) -> None:
    make(2**64 - 1)


def _splitmix_output(state: int) -> int:
    """splitmix64's output for the state after ``state`` (the published algorithm, written
    out here so the Guandan helpers are checked against it, not against tienlen.seeds)."""
    z = (state + 0x9E3779B97F4A7C15) % 2**64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % 2**64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % 2**64
    return z ^ (z >> 31)


@pytest.mark.parametrize("seed", SEEDS)
def test_guandan_seed_helpers_are_splitmix64(seed: int) -> None:
    # Guandan's derived seeds (leader draw, team draw, per-hand deals) keep their values now
    # that they go through the one splitmix64: _mix(s, k) mixes s + (k-1)*gamma.
    assert _draw_seat(seed) == _splitmix_output(seed) >> 62
    for salt in (1, 3, 7, 1000, 50_000):
        assert _mix(seed, salt) == _splitmix_output((seed + (salt - 1) * 0x9E3779B97F4A7C15) % 2**64)


# Every place that takes a Tiến Lên player count, with its ValueError subclass.
COUNTED = [
    (lambda n: Game(n, seed=1), ValueError),
    (lambda n: Match(n, seed=1), ValueError),
    (lambda n: simulate("tienlen", ["random"] * 2, games=4, players=n, seed=1), ArenaError),
]


@pytest.mark.parametrize(("make", "error"), COUNTED)
@pytest.mark.parametrize("players", [1, 5, 0, True, 2.0, "4"])
def test_every_player_count_check_refuses_the_same_values(make, error, players) -> None:
    with pytest.raises(error, match=r"players must be 2, 3 or 4; got"):
        make(players)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_check_players_takes_two_to_four(players: int) -> None:
    assert check_players(players) == players
