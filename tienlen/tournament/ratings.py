"""Bradley-Terry ratings of a tournament's entrants, with bootstrap intervals.

The model: entrant i beats entrant j with probability ``s_i / (s_i + s_j)``. The strengths
are fitted by Hunter's MM algorithm (2004) on the match results (a draw is half a win to
each), with a weak prior (half a win and half a loss against every opponent met) so that an
entrant that won or lost everything still gets a finite rating. Ratings are on the Elo
scale (``400 log10 s``), their mean 1500. The interval of each rating is the 2.5 and 97.5
percentiles of the ratings refitted on matches resampled with replacement (a seeded
bootstrap).

Why our own fit: ``choix`` (the Bradley-Terry library that is kept up) fits the same model
but gives no intervals and needs scipy; the fit is twenty lines of numpy, and the bootstrap
around it is ours in either case.

>>> games = [(0, 1, 1.0)] * 7 + [(0, 1, 0.0)] * 3 + [(1, 2, 1.0)] * 6 + [(1, 2, 0.0)] * 4
>>> table = rate(3, games, replicates=100, seed=1)
>>> [round(r.rating) for r in table], table[0].rating > table[1].rating > table[2].rating
([1610, 1477, 1413], True)
>>> low, high = table[0].interval
>>> low < table[0].rating < high
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

__all__ = ["Rating", "fit", "rate"]

#: Half a win and half a loss against each opponent met.
PRIOR = 0.5


@dataclass(frozen=True)
class Rating:
    """One entrant's rating (Elo scale) and its 95% bootstrap interval."""

    rating: float
    interval: tuple[float, float]

    def __str__(self) -> str:
        low, high = self.interval
        return f"{self.rating:.0f} [{low:.0f}, {high:.0f}]"


def _wins(n: int, games: Sequence[tuple[int, int, float]]) -> np.ndarray:
    wins = np.zeros((n, n))
    for a, b, score in games:
        wins[a, b] += score
        wins[b, a] += 1.0 - score
    return wins


def fit(n: int, games: Sequence[tuple[int, int, float]], *, iterations: int = 500,
        tolerance: float = 1e-10) -> np.ndarray:
    """The Elo-scale ratings (mean 1500) of ``n`` entrants from ``games``: ``(a, b, score)``
    with score 1 when a won, 0 when b won, 0.5 for a draw. An entrant that played nobody
    gets 1500."""
    wins = _wins(n, games)
    met = (wins + wins.T) > 0
    wins = wins + PRIOR * met
    played = wins + wins.T                    # matches between i and j (prior included)
    total = wins.sum(axis=1)
    strength = np.ones(n)
    for _ in range(iterations):
        denominator = (played / (strength[:, None] + strength[None, :])).sum(axis=1)
        new = np.where(denominator > 0, total / np.where(denominator > 0, denominator, 1), 1.0)
        new /= np.exp(np.log(new).mean())
        if np.abs(new - strength).max() < tolerance:
            strength = new
            break
        strength = new
    ratings = 400 * np.log10(strength)
    return np.asarray(ratings - ratings.mean() + 1500)


def rate(n: int, games: Sequence[tuple[int, int, float]], *, replicates: int = 200,
         seed: int = 0) -> list[Rating]:
    """Each entrant's fitted rating and its bootstrap interval (``replicates`` resamplings
    of the games, from ``seed``)."""
    point = fit(n, games)
    if not games:
        return [Rating(float(r), (float(r), float(r))) for r in point]
    rng = np.random.default_rng(seed)
    draws = np.empty((replicates, n))
    for k in range(replicates):
        pick = rng.integers(0, len(games), len(games))
        draws[k] = fit(n, [games[i] for i in pick])
    low, high = np.percentile(draws, [2.5, 97.5], axis=0)
    return [Rating(float(point[i]), (float(min(low[i], point[i])), float(max(high[i], point[i]))))
            for i in range(n)]
