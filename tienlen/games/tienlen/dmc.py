"""What the one Deep Monte Carlo trainer (:mod:`tienlen.rl.dmc`) needs of Tiến Lên, found
through the spec (``get_spec("tienlen").dmc()``): tables, action feature rows, the network
and its checkpoint (:mod:`.learned`), the evaluation against native opponents.

>>> Dmc.action_size, Dmc.rewards[0]
(53, 1.0)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .encoding import VecGames, _policy, observation_high
from .learned import build_dmc_qnet, save_dmc_checkpoint

__all__ = ["Dmc"]


class Dmc:
    """What the one Deep Monte Carlo trainer (:mod:`tienlen.rl.dmc`) needs of Tiến Lên: its
    tables (four seats in self-play, or seat 0 against three native policies), every
    decision's legal actions as feature rows (52 card bits and a pass bit), the network and
    its checkpoint (the ``dmc:PATH`` bot, :mod:`tienlen.games.tienlen.learned`), and the
    evaluation against native opponents. Rewards are 1, 1/3, -1/3, -1 by place."""

    kinds = ("self", "random", "greedy", "plan")
    #: (VecGames gives no native policy's action for the learner's seat yet.)
    teachers: tuple[str, ...] = ()
    action_size = 53

    @staticmethod
    def teacher(games: Any, policy: str) -> np.ndarray:
        raise ValueError("Tiến Lên's tables have no teacher")
    rewards = (1.0, 1 / 3, -1 / 3, -1.0)

    @staticmethod
    def tables(kind: str, n: int, seed: int) -> Any:
        opponents = None if kind == "self" else (_policy(kind),) * 3
        return VecGames(n, players=4, opponents=opponents, learner_seat=0,
                        rewards=Dmc.rewards, seed=seed, legal_masks=True)

    @staticmethod
    def rows(games: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        legal = games.num_legal.astype(np.int64)
        can_pass = games.action_mask[:, 0].astype(np.int64)
        counts = legal + can_pass
        offsets = np.zeros(len(counts) + 1, np.int64)
        np.cumsum(counts, out=offsets[1:])
        env = np.repeat(np.arange(len(counts)), counts)
        ids = np.arange(offsets[-1], dtype=np.int64) - offsets[env] + 1 - can_pass[env]
        masks = np.where(ids > 0, games.legal[env, np.maximum(ids - 1, 0)], np.uint64(0))
        rows = np.zeros((len(ids), Dmc.action_size), np.uint8)
        rows[:, :52] = np.unpackbits(masks.astype("<u8").view(np.uint8).reshape(-1, 8),
                                     axis=1, bitorder="little")[:, :52]
        rows[:, 52] = ids == 0
        return offsets, ids, rows

    @staticmethod
    def build(hidden: int, head: int) -> Any:
        return build_dmc_qnet(hidden, head, observation_high())

    @staticmethod
    def score(net: Any, obs: Any, seg: Any, rows: Any) -> Any:
        return net(obs, seg, rows)

    @staticmethod
    def save(net: Any, path: Any, **meta: Any) -> None:
        save_dmc_checkpoint(net, path, **meta)

    @staticmethod
    def evaluate(choose: Callable[[Any, np.ndarray], np.ndarray], opponent: str, boards: int,
                 seed: int) -> float:
        """Share of first places of the policy ``choose(games, obs) -> actions`` at seat 0
        against three native ``opponent`` seats over ``boards`` deals (one in four by
        chance)."""
        g = VecGames(boards, players=4, opponents=(_policy(opponent),) * 3, learner_seat=0,
                     seed=seed, legal_masks=True)
        first = np.zeros(boards)
        live = np.ones(boards, bool)
        while live.any():
            g.step(choose(g, g.obs.copy()))
            done = g.terminated & live
            first[done] = g.places[done, 0] == 0
            live &= ~done
        g.close()
        return float(first.mean())
