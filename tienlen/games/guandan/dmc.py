"""What the one Deep Monte Carlo trainer (:mod:`tienlen.rl.dmc`) needs of Guandan, found
through the spec (``get_spec("guandan").dmc()``): tables, action feature rows, the network
and its checkpoint (:mod:`.learned`), the evaluation against native teams.

>>> Dmc.action_size, Dmc.kinds
(112, ('self', 'random', 'greedy', 'plan'))
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from tienlen import _guandan

from .encoding import GdVecGames, gd_policy
from .learned import build_qnet, save_checkpoint

__all__ = ["Dmc"]


class Dmc:
    """What the one Deep Monte Carlo trainer (:mod:`tienlen.rl.dmc`) needs of Guandan: its
    tables (self-play, or seats 0 and 2 against a native policy), every decision's legal
    actions as feature rows (2 x 54 cards and the 4-byte reading), the network and its
    checkpoint (the ``dmc:PATH`` bot, :mod:`tienlen.games.guandan.learned`), and the
    evaluation against a native team."""

    kinds = ("self", "random", "greedy", "plan")
    teachers = ("random", "greedy", "plan", "L2")
    #: A teacher named by the bot level whose choices it makes (L2 plays the core's plan).
    teacher_levels = {"L2": "plan"}
    action_size = _guandan.GR_CARD_FEATURES + _guandan.GR_READING_FEATURES

    @staticmethod
    def teacher(games: Any, policy: str) -> np.ndarray:
        """The action ids native ``policy`` would take now at every table."""
        policy = Dmc.teacher_levels.get(policy, policy)
        return games.policy_actions(gd_policy(policy))  # type: ignore[no-any-return]

    @staticmethod
    def tables(kind: str, n: int, seed: int) -> Any:
        seats: tuple[int, ...] = (0, 1, 2, 3)
        pol = (0, 0, 0, 0)
        if kind != "self":
            p = gd_policy(kind)
            seats, pol = (0, 2), (p, p, p, p)
        games = GdVecGames(n, learner_seats=seats, policies=pol, seed=0, episode="hand",
                           reward_weights=(1.0, 0.5, 0.0))
        games.reset(np.arange(n, dtype=np.uint64) + np.uint64(seed))
        return games

    @staticmethod
    def rows(games: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        offsets, ids, cards, reading = games.legal_features()
        return offsets, ids, np.concatenate([cards, reading], axis=1)

    @staticmethod
    def build(hidden: int, head: int) -> Any:
        return build_qnet(hidden, head)

    @staticmethod
    def score(net: Any, obs: Any, seg: Any, rows: Any) -> Any:
        cut = _guandan.GR_CARD_FEATURES
        return net(obs, seg, rows[:, :cut], rows[:, cut:])

    @staticmethod
    def save(net: Any, path: Any, **meta: Any) -> None:
        save_checkpoint(net, path, **meta)

    @staticmethod
    def evaluate(choose: Callable[[Any, np.ndarray], np.ndarray], opponent: str, boards: int,
                 seed: int) -> float:
        """Share of first hands won by the policy ``choose(games, obs) -> actions`` as a
        team against a native ``opponent`` team, over ``boards`` deals in both seatings."""
        won = 0.0
        for seats in ((0, 2), (1, 3)):
            p = gd_policy(opponent)
            g = GdVecGames(boards, learner_seats=seats, policies=(p,) * 4, seed=0,
                           episode="hand", reward_weights=(1.0, 0.0, 0.0))
            g.reset(np.arange(boards, dtype=np.uint64) + np.uint64(seed))
            result = np.zeros(boards)
            live = np.ones(boards, bool)
            while live.any():
                g.step(choose(g, g.obs.copy()))
                done = (g.terminated | g.truncated) & live
                result[done] = g.final_rewards[done, seats[0]] > 0
                live &= ~done
            won += float(result.mean())
            g.close()
        return won / 2
