"""Seeds: what a seed is, and splitmix64, the one mixing function behind every derived seed.

Every seed Python derives from another is derived here, by one of two formulas, and each
derivation has a name (the values are fixed: replays, match files and golden deals depend on
them, ``tests/test_seed_derivations.py``):

- :func:`stream`: the ``k``-th splitmix64 output after ``seed`` (the state ``seed + k·γ``),
  for a sequence of seeds from one seed: a Tiến Lên match's deals (:func:`hand_seed`), a
  Guandan match's deals, first leader and drawn partners (:func:`guandan_seed`,
  :func:`guandan_hand_seed`);
- :func:`mix`: splitmix64 chained over a tuple of ints, for a seed named by several
  coordinates: the terminal session's bots (:func:`session_bot_seed`), a table's bots
  (:func:`table_bot_seed`), a duplicate run's boards and their bots (:func:`board_seed`,
  :func:`board_bot_seed`), an arena's per-game bots, a review's sampled deals
  (:func:`review_seed`).

A seed is an int in [0, 2**64): :func:`check_seed` is the one check of that, for every
class that takes a seed; :func:`check_players` is the one check of a deal's player count. The core seeds its PRNG (xoshiro256**) with splitmix64 outputs
(``src/state.pxi``, R1.4); :func:`splitmix64` is the same step in Python, for the seeds
Python derives from a seed: a match's deal seeds (:func:`tienlen.games.tienlen.match.hand_seed`) and an
arena's per-game bot seeds (:func:`mix`). ``tests/test_seeds.py`` holds it to the core's
deals.

>>> splitmix64(0)                       # the first output of the reference generator
(11400714819323198485, 16294208416658607535)
>>> mix(1, 2) == splitmix64((splitmix64(1)[1] + 2) & (SEED_LIMIT - 1))[1]
True
>>> check_seed(2**64)
Traceback (most recent call last):
...
ValueError: seed must be an int in [0, 2**64); got 18446744073709551616
>>> check_players(5)
Traceback (most recent call last):
...
ValueError: players must be 2, 3 or 4; got 5
"""

from __future__ import annotations

import secrets
from typing import Final

__all__ = ["SEED_LIMIT", "check_players", "check_seed", "mix", "seed_or_fresh", "splitmix64",
           "stream", "hand_seed", "guandan_seed", "guandan_hand_seed", "session_bot_seed",
           "table_bot_seed", "board_seed", "board_bot_seed", "review_seed"]

#: Seeds are ints in [0, SEED_LIMIT).
SEED_LIMIT: Final = 1 << 64
_MASK64: Final = SEED_LIMIT - 1
#: splitmix64's increment: 2**64 divided by the golden ratio, made odd.
GOLDEN_GAMMA: Final = 0x9E3779B97F4A7C15


def splitmix64(state: int) -> tuple[int, int]:
    """One splitmix64 step from ``state`` (taken mod 2**64): ``(next state, output)``."""
    state = (state + GOLDEN_GAMMA) & _MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    return state, z ^ (z >> 31)


def mix(*values: int) -> int:
    """A 64-bit seed from a tuple of ints: each value is added to the running output and
    one splitmix64 step taken, so every value, and its position, changes the result.
    NumPy ints are taken exactly (as Python ints: their own arithmetic would wrap); anything
    that is not an int is a ValueError.

    >>> mix(1, 2) == mix(1, 2) != mix(2, 1)
    True
    >>> mix(1, 2.0)
    Traceback (most recent call last):
    ...
    ValueError: mix takes ints; got 2.0
    """
    z = 0
    for value in values:
        if type(value) is not int:
            if isinstance(value, bool) or not hasattr(value, "__index__"):
                raise ValueError(f"mix takes ints; got {value!r:.80}")
            try:
                value = value.__index__()
            except TypeError:       # a NumPy array of several elements, say
                raise ValueError(f"mix takes ints; got {value!r:.80}") from None
        z = splitmix64((z + value) & _MASK64)[1]
    return z


def check_seed(seed: object, error: type[ValueError] = ValueError, *,
               or_none: bool = False) -> int:
    """``seed`` if it is an int in [0, 2**64); otherwise raise ``error`` (a ValueError
    subclass, so each caller raises its own kind) saying so, and with ``or_none`` that
    ``None`` was allowed too. Bools and floats are refused: ``True`` or ``1.0`` as a seed
    is a mistake, not a request for seed 1."""
    if type(seed) is not int or not 0 <= seed < SEED_LIMIT:
        allowed = "an int in [0, 2**64) or None" if or_none else "an int in [0, 2**64)"
        raise error(f"seed must be {allowed}; got {seed!r}")
    return seed


def check_players(players: object, error: type[ValueError] = ValueError) -> int:
    """``players`` if it is 2, 3 or 4 (a Tiến Lên deal's player count); otherwise raise
    ``error`` (a ValueError subclass) saying so. Bools are refused like any non-int.

    >>> check_players(3)
    3
    """
    if type(players) is not int or not 2 <= players <= 4:
        raise error(f"players must be 2, 3 or 4; got {players!r}")
    return players


def seed_or_fresh(seed: object, error: type[ValueError] = ValueError) -> int:
    """:func:`check_seed`, except that ``None`` draws a fresh seed from :mod:`secrets`.

    >>> seed_or_fresh(None) < SEED_LIMIT, seed_or_fresh(7)
    (True, 7)
    >>> seed_or_fresh(1.0)
    Traceback (most recent call last):
    ...
    ValueError: seed must be an int in [0, 2**64) or None; got 1.0
    """
    return secrets.randbits(64) if seed is None else check_seed(seed, error, or_none=True)


def stream(seed: int, index: int) -> int:
    """Output ``index`` (0-based) of the splitmix64 stream that starts at ``seed``: one
    step from the state ``seed + index * GOLDEN_GAMMA`` (mod 2**64). Consecutive indices,
    and nearby seeds, give unrelated values. Exact ints only (checked by the callers)."""
    return splitmix64((seed + index * GOLDEN_GAMMA) % SEED_LIMIT)[1]


def hand_seed(match_seed: int, number: int, error: type[ValueError] = ValueError) -> int:
    """The deal seed of hand ``number`` (1-based) of a Tiến Lên match seeded
    ``match_seed``: :func:`stream` output ``number - 1``. Bad arguments raise ``error``.

    >>> hand_seed(0, 1), hand_seed(0, 2)
    (16294208416658607535, 7960286522194355700)
    """
    # Exact ints only: NumPy ints would wrap in their own arithmetic (another deal).
    check_seed(match_seed, error)
    if type(number) is not int or number < 1:
        raise error(f"number must be a hand number, an int >= 1; got {number!r:.80}")
    return stream(match_seed, number - 1)


def guandan_seed(seed: int, salt: int) -> int:
    """A Guandan match's seed for ``salt`` (1-based: salt 3 draws the first leader, 7 the
    partners, 1000 + i deals hand i): :func:`stream` output ``salt - 1``."""
    return stream(seed, salt - 1)


def guandan_hand_seed(seed: int, index: int) -> int:
    """The deal seed of hand ``index`` (0-based) of a Guandan match seeded ``seed``."""
    return guandan_seed(seed, 1000 + index)


def session_bot_seed(match_seed: int, seat: int) -> int:
    """The seed of the bot in ``seat`` of a terminal session (``tienlen play``, either
    game) on the match seeded ``match_seed``."""
    return mix(match_seed, seat)


def table_bot_seed(table_seed: int, seat: int, hand: int = 0) -> int:
    """The seed of the bot in ``seat`` for hand ``hand`` of a table (the server): the same
    table seed gives the same bots everywhere."""
    return mix(table_seed, 0xB07, seat, hand)


def board_seed(seed: int, board: int) -> int:
    """The match seed of board ``board`` (0-based) of a duplicate run with ``seed``."""
    return mix(seed, 1, board)


def board_bot_seed(seed: int, board: int, seat: int) -> int:
    """The seed of the bot in ``seat`` on ``board`` of a duplicate run: the same in both
    seatings, so that equal teams play the two games of a board identically."""
    return mix(seed, 2, board, seat)


def review_seed(deal_seed: int, turn: int, seed: int = 0) -> int:
    """The seed of the sampled deals that price the decision at turn ``turn`` (the count of
    actions before it in the hand) of the hand dealt from ``deal_seed``, in a review asked
    with ``seed`` (0 unless the person gives one): the same hand reviewed again gives the
    same values.

    >>> review_seed(5, 3) == review_seed(5, 3) != review_seed(5, 3, seed=1)
    True
    """
    return mix(0x5E71E3, deal_seed, turn, seed)
