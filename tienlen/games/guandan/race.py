"""The level race (GUANDAN.md G7): what a hand's outcome is worth in the match around it.

A hand ends with the first out's team gaining 3, 2 or 1 levels by the partner's place
(G7.1); what those levels are worth depends on the match: at the team's own A a first and
fourth gains nothing and is a failed attempt (G7.3, G7.4), while a first and second or third
wins the match; when the opponents declare at their A, letting them finish first and fourth
instead of first and second is the difference between their failed attempt and the match.
:func:`outcome_values` prices each outcome of the current hand as the chance of winning the
match from the position it leads to, between two equal teams (:func:`match_equity`: each
hand won half the time, the winner's partner placed as :data:`HAND_PLACES` says), with the
levels settled by the rules' one implementation (the core's ``settle_levels``, as
:class:`~tienlen.games.guandan.match.Match` settles them).

>>> from tienlen.games.guandan.rules import RuleConfig
>>> from tienlen.games.guandan.view import Standing
>>> v = outcome_values(Standing((14, 9), 0, 12), 0, RuleConfig())
>>> v[3], v[2], round(v[1], 2)       # at our A: 1st+2nd or 1st+3rd wins, 1st+4th fails
(1.0, 1.0, 0.64)
>>> v = outcome_values(Standing((9, 14), 1, 12), 0, RuleConfig())
>>> v[-3], v[-2], round(v[-1], 2)    # at theirs: their 1st+4th is only a failed attempt
(0.0, 0.0, 0.36)
"""

from __future__ import annotations

import functools
from typing import Final

import numpy as np

from tienlen import _guandan
from tienlen.games.guandan.rules import RuleConfig
from tienlen.games.guandan.view import Standing

__all__ = ["HAND_PLACES", "match_equity", "outcome_values", "hand_scores"]

#: Where the first out's partner finishes (2nd, 3rd, 4th), between equal teams: four L2 in
#: 2,000 first hands (seeds 0-1999) gave 51.4%, 17.2% and 31.4%.
HAND_PLACES: Final = (0.514, 0.172, 0.314)

_ACE: Final = 14
_LEVELS: Final = _ACE - 1          # 2..14
# The places of one hand, first out first, for "we" = team 0 (seats 0 and 2) against team 1
# (seats 1 and 3): our win with the partner 2nd, 3rd, 4th, then theirs.
_PLACES: Final = ((0, 2, 1, 3), (0, 1, 2, 3), (0, 1, 3, 2),
                  (1, 3, 0, 2), (1, 0, 3, 2), (1, 0, 2, 3))
_TEAM0: Final = 0b0101


def _buckets(limit: int) -> int:
    """How many failed-attempt counts matter: 0..limit-1, or one when there is no limit."""
    return max(1, limit)


def _index(ours: int, theirs: int, declarer: int, f_ours: int, f_theirs: int, buckets: int) -> int:
    return (((((ours - 2) * _LEVELS + theirs - 2) * 2 + declarer) * buckets + f_ours)
            * buckets + f_theirs)


def _settle(levels: tuple[int, int], failed: tuple[int, int], declarer: int, k: int,
            double_down: int, limit: int) -> tuple[float | None, tuple[int, int, int, int, int]]:
    """Outcome ``k`` of :data:`_PLACES` settled: (1.0 or 0.0 when it wins the match for us
    or them, else None; the next state as (ours, theirs, declarer, failed, failed))."""
    lv, fa, won, _, win = _guandan.settle_levels(levels, failed, declarer, _PLACES[k], _TEAM0,
                                                 double_down, limit)
    if won:
        return (1.0 if win == 0 else 0.0), (2, 2, 0, 0, 0)
    if limit:
        fo, ft = fa
    else:
        fo = ft = 0      # no limit: the count changes nothing
    return None, (lv[0], lv[1], win, fo, ft)


def match_equity(double_down_levels: int = 3, failed_attempts_limit: int = 3,
                 places: tuple[float, float, float] = HAND_PLACES) -> np.ndarray:
    """Our chance of winning the match between two equal teams, before a hand dealt at
    ``[our level - 2, their level - 2, declarer (0 us, 1 them), our failed attempts, theirs]``
    (an array of that shape; the failed counts run 0..limit-1, one slot with no limit).

    Each hand is won by either team with probability 1/2, the partner of the first out
    placed 2nd, 3rd or 4th with probabilities ``places``; the levels are settled by the
    core's ``settle_levels`` (G7). Solved by value iteration to 1e-12.

    >>> e = match_equity()
    >>> round(float(e[0, 0, 0, 0, 0]), 3), round(float(e[12, 12, 0, 0, 0]), 3)   # (2, 2); both at A, ours
    (0.5, 0.616)
    >>> bool(e[12, 0, 0, 0, 0] > e[10, 0, 0, 0, 0] > e[0, 10, 1, 0, 0])
    True
    """
    return _equity(int(double_down_levels), int(failed_attempts_limit),
                   tuple(float(p) for p in places))


@functools.lru_cache(maxsize=8)
def _equity(double_down_levels: int, failed_attempts_limit: int,
            places: tuple[float, ...]) -> np.ndarray:
    """:func:`match_equity`, computed once per rules (its arguments normalised: a call with
    the defaults and one naming them share the table)."""
    buckets = _buckets(failed_attempts_limit)
    n = _LEVELS * _LEVELS * 2 * buckets * buckets
    weights = np.array([p / 2 for p in places] * 2)
    nxt = np.zeros((n, 6), dtype=np.int64)
    fixed = np.zeros((n, 6))
    is_fixed = np.zeros((n, 6), dtype=bool)
    for ours in range(2, _ACE + 1):
        for theirs in range(2, _ACE + 1):
            for d in (0, 1):
                for fo in range(buckets):
                    for ft in range(buckets):
                        i = _index(ours, theirs, d, fo, ft, buckets)
                        for k in range(6):
                            end, state = _settle((ours, theirs), (fo, ft), d, k,
                                                 double_down_levels, failed_attempts_limit)
                            if end is None:
                                nxt[i, k] = _index(*state, buckets)
                            else:
                                fixed[i, k], is_fixed[i, k] = end, True
    value = np.full(n, 0.5)
    for _ in range(10_000):
        new = np.where(is_fixed, fixed, value[nxt]) @ weights
        done = float(np.abs(new - value).max()) < 1e-12
        value = new
        if done:
            break
    table: np.ndarray = value.reshape(_LEVELS, _LEVELS, 2, buckets, buckets)
    table.setflags(write=False)
    return table


def outcome_values(standing: Standing, team: int, config: RuleConfig) -> dict[int, float]:
    """What each outcome of the current hand is worth to team ``team`` (0 or 1, the index
    of ``standing.levels``): its chance of winning the match from the position the outcome
    leads to (:func:`match_equity`), keyed by the hand's levels as the search scores them,
    ``+gain`` when the team's player went out first and ``-gain`` when an opponent did
    (gains 3, 2, 1 by the partner's place with the default rules, G7.1). Where two places
    give the same gain (``double_down_levels`` 1 or 2), the gain is worth the lesser value.
    """
    dd, limit = config.double_down_levels, config.failed_attempts_limit
    table = match_equity(dd, limit)
    buckets = _buckets(limit)
    other = 1 - team
    levels = (standing.levels[team], standing.levels[other])
    failed = (standing.failed_attempts[team], standing.failed_attempts[other])
    declarer = -1 if standing.declarer is None else (0 if standing.declarer == team else 1)
    gains = (dd, 2, 1)
    values: dict[int, float] = {}
    for k in range(6):
        end, (o, t, d, fo, ft) = _settle(levels, failed, declarer, k, dd, limit)
        v = end if end is not None else float(
            table[o - 2, t - 2, d, min(fo, buckets - 1), min(ft, buckets - 1)])
        key = gains[k % 3] * (1 if k < 3 else -1)
        values[key] = min(v, values.get(key, v))
    return values


def hand_scores(standing: Standing | None, team: int, config: RuleConfig,
                win_bonus: float = 0.0) -> dict[int, float]:
    """The score of each outcome of the current hand for team ``team``, keyed as
    :func:`outcome_values` (``+gain``: the team went out first, ``-gain``: an opponent did):
    L3's one scoring of a finished hand, for its playouts and its endgame solver alike.

    In a match (``standing`` given) an outcome scores its :func:`outcome_values` in levels
    of the match's start: divided by what one level is worth there (a first hand's
    ``(value(+3) - value(+1)) / 2``), so that a first hand scores about its levels and a hand
    at either team's A scores what it does to the match (a first and second at our A is worth
    many levels more than a first and fourth). A hand alone scores its levels. Either way the
    hand won adds ``win_bonus`` (and the hand lost takes it off).

    >>> from tienlen.games.guandan.rules import RuleConfig
    >>> alone = hand_scores(None, 0, RuleConfig(), win_bonus=2.0)
    >>> alone[3], alone[1], alone[-1]
    (5.0, 3.0, -3.0)
    >>> at_ace = hand_scores(Standing((14, 9), 0, 12), 0, RuleConfig())
    >>> round(at_ace[2] - at_ace[1], 1)  # 1st+3rd at our A wins the match; 1st+4th fails
    12.9
    """
    dd = config.double_down_levels
    if standing is None:
        levels = {g * sign: float(g * sign) for g in (dd, 2, 1) for sign in (1, -1)}
    else:
        start = outcome_values(Standing((2, 2), None, 0), 0, config)
        level = (start[dd] - start[1]) / max(1, dd - 1)
        shift = (start[1] + start[-1]) / 2          # an even first hand scores 0
        levels = {k: (v - shift) / level for k, v in outcome_values(standing, team, config).items()}
    return {k: v + (win_bonus if k > 0 else -win_bonus) for k, v in levels.items()}
