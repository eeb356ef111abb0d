"""Deep Monte Carlo for Guandan: the Q-network of ``examples/train_guandan_dmc.py``, its
checkpoint format and :class:`DmcBot`, the bot a checkpoint becomes (spec ``dmc:PATH`` in
``tienlen sim --game guandan`` and ``tienlen play --game guandan``).

The network scores one (observation, action) pair, as DouZero's and DanZero's do: the
observation (747 bytes, ``docs/rl.md``) and the action's features (its 2 × 54 card vector
and its reading: kind, rank, size, wild cards) from the one native encoder. It is an MLP
over their concatenation whose first layer is computed in two parts, the observation's once
per decision and the action's once per legal action, so that scoring all ~700 plays of a
27-card lead costs one small matrix product per play: ``Q(o, a) = head(relu(W_o o + W_a
a + b))``. torch is imported only when a network is built or loaded (the ``[train]``
extra); nothing else in :mod:`tienlen` needs it.

A bot's view encodes to the env's observation (:func:`view_observation`):

>>> from tienlen.guandan import Match
>>> match = Match(seed=5)
>>> obs = view_observation(match.game.view(match.turn))
>>> obs.shape, bool((obs == _guandan.GdTable(seed=5).observe(match.turn)).all())
((747,), True)
"""

from __future__ import annotations

import os
from typing import Any

import numpy as np

from tienlen import _guandan
from tienlen.table.learned import import_torch, read_checkpoint, write_checkpoint
from tienlen.games.guandan.bots import Bot, Decision
from tienlen.games.guandan.cards import Cards
from tienlen.games.guandan.game import GameView
from tienlen.games.guandan.explain import Explanation

__all__ = ["FORMAT", "build_qnet", "obs_scale", "save_checkpoint", "load_checkpoint",
           "view_fields", "view_observation", "view_action_features", "DmcBot", "from_spec"]

#: The ``format`` entry of a checkpoint file written by :func:`save_checkpoint`.
FORMAT = "tienlen.guandan.dmc"
_VERSION = 1
_KINDS = 13            # reading kinds: 0 pass, 1..10 plays, 11 tribute, 12 return
_RANKS = 17            # reading ranks 0..16
_NETS: dict[tuple[str, float], Any] = {}


def obs_scale() -> np.ndarray:
    """The per-entry divisor that brings an observation into 0..1 (its Box maximum)."""
    from .encoding import gd_observation_high

    return gd_observation_high().astype(np.float32)


def build_qnet(hidden: int = 256, head: int = 128) -> Any:
    """A fresh Q-network (a ``torch.nn.Module``): ``net(obs, seg, cards, reading)`` scores
    the action rows ``cards`` (uint8, R × 108) and ``reading`` (uint8, R × 4) of the
    decisions ``obs`` (uint8, B × 747), row r belonging to decision ``seg[r]``."""
    import_torch()         # one clear line where torch is missing
    import torch
    from torch import nn

    class QNet(nn.Module):  # type: ignore[misc, unused-ignore]  # (Any where torch is absent)
        def __init__(self) -> None:
            super().__init__()
            self.config = {"hidden": hidden, "head": head}
            self.register_buffer("scale", torch.from_numpy(obs_scale()))
            self.obs = nn.Sequential(nn.Linear(_guandan.GR_OBS_SIZE, hidden), nn.ReLU(),
                                     nn.Linear(hidden, hidden))
            self.cards = nn.Linear(_guandan.GR_CARD_FEATURES, hidden)
            self.kind = nn.Embedding(_KINDS, hidden)
            self.rank = nn.Embedding(_RANKS, hidden)
            self.size_wilds = nn.Linear(2, hidden, bias=False)
            self.head = nn.Sequential(nn.ReLU(), nn.Linear(hidden, head), nn.ReLU(),
                                      nn.Linear(head, 1))

        def forward(self, obs: Any, seg: Any, cards: Any, reading: Any) -> Any:
            o = self.obs(obs.float() / self.scale)
            r = reading.long()
            a = (self.cards(cards.float()) + self.kind(r[:, 0]) + self.rank(r[:, 1])
                 + self.size_wilds(reading[:, 2:].float() * 0.1))
            return self.head(o[seg] + a).squeeze(-1)

    return QNet()


def save_checkpoint(net: Any, path: str | os.PathLike[str], **meta: Any) -> None:
    """Write ``net`` (float32 weights, its config and ``meta``) for :func:`load_checkpoint`."""
    write_checkpoint(path, FORMAT, _VERSION, net.config,
                     {k: v for k, v in net.state_dict().items() if k != "scale"}, **meta)


def load_checkpoint(path: str | os.PathLike[str]) -> Any:
    """The network saved at ``path`` in eval mode (cached per file version), read as every
    game's learned bots read theirs (:func:`tienlen.table.learned.read_checkpoint`: no code
    from the file runs). A missing file, a file that is not such a checkpoint, or no torch
    is a ValueError of one line.

    >>> load_checkpoint(__file__)   # a file, but no checkpoint
    Traceback (most recent call last):
    ...
    ValueError: '...learned.py' is not a DMC checkpoint: not a file torch.save wrote
    """
    path = os.fspath(path)
    if not os.path.isfile(path):
        raise ValueError(f"no DMC checkpoint file {path!r}")
    key = (os.path.abspath(path), os.path.getmtime(path))
    net = _NETS.get(key)
    if net is not None:
        return net
    data = read_checkpoint(path, FORMAT, _VERSION, "DMC checkpoint")
    config = data["config"]
    net = build_qnet(int(config["hidden"]), int(config["head"]))
    missing, unexpected = net.load_state_dict(data["state_dict"], strict=False)
    if unexpected or [k for k in missing if k != "scale"]:
        raise ValueError(f"{path!r}: the weights do not fit the network "
                         f"(missing {missing}, unexpected {unexpected})")
    net.eval()
    _NETS[key] = net
    return net


# ---------------------------------------------------------------- a view, encoded

def view_fields(view: GameView) -> dict[str, Any]:
    """The arguments of :func:`tienlen._guandan.observe_fields` for ``view``'s seat, read
    from the view: what each seat played this hand, and the trick's leader, replayed from
    its history (a trick ends when every other seat still holding cards has passed)."""
    played: list[list[int]] = [[], [], [], []]
    left = [27, 27, 27, 27]
    owner = leader = -1
    passes = 0
    for action in view.history:
        if action.action == "play" and action.cards is not None:
            if owner < 0:
                leader = action.seat
            owner, passes = action.seat, 0
            played[action.seat].extend(action.cards.ids)
            left[action.seat] -= len(action.cards)
        elif action.action == "pass" and owner >= 0:
            passes += 1
            if passes >= sum(1 for p in range(4) if p != owner and left[p] > 0):
                owner = leader = -1
    pile = view.pile
    return {"seat": view.seat, "hand": view.hand.masks, "cards_left": list(view.hand_sizes),
            "played": [Cards.from_ids(ids).masks for ids in played],
            "pile": (0, 0) if pile is None else pile.cards.masks,
            "pile_code": 0 if pile is None else pile._code,
            "pile_owner": -1 if view.pile_owner is None else view.pile_owner,
            "trick_leader": leader if pile is not None else -1,
            "turn": -1 if view.turn is None else view.turn, "finished": list(view.finished),
            "level": view.level, "levels": (view.level, view.level), "declarer": -1,
            "failed_attempts": (0, 0),
            "tributes": [(t.payer, -1 if t.receiver is None else t.receiver)
                         for t in view.tributes],
            "flags": view.config.flags}


def view_observation(view: GameView) -> np.ndarray:
    """The observation of ``view``'s seat in the play phase, encoded by the one native
    encoder (:func:`tienlen._guandan.observe_fields`, ``GdTable.observe``'s) from what the
    view shows. What a :class:`~tienlen.games.guandan.game.GameView` of one hand does not hold is
    filled in as in a match's first hand: both teams at the hand's level, no declarer, no
    failed attempts at A."""
    if view.phase != "play":
        raise ValueError(f"an observation is encoded in the play phase; this view is in {view.phase!r}")
    return _guandan.observe_fields(**view_fields(view))


def view_action_features(view: GameView) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(ids, cards, reading)`` of the view's legal plays as the envs list them (pass
    first on a pile), from the native encoder (:func:`tienlen._guandan.legal_action_features`)."""
    once, twice = view.hand.masks
    code = 0 if view.pile is None else view.pile._code
    if once == 0:
        raise ValueError("the view's hand is empty: it has no plays")
    return _guandan.legal_action_features(once, twice, view.level, code, view.config.flags)


class DmcBot(Bot):
    """A trained DMC network as a Guandan bot: in the play phase it scores every legal
    action (pass included) and plays the best; tribute and return use the base
    :class:`~tienlen.games.guandan.bots.Bot`'s rules (the first hands the arena's hand mode plays
    have none)."""

    level = "dmc"

    def __init__(self, seed: int | None = None, path: str | os.PathLike[str] | None = None) -> None:
        super().__init__(seed)
        if path is None:
            raise ValueError("DmcBot needs a checkpoint path (the spec dmc:PATH)")
        self.path = os.fspath(path)
        self.net = load_checkpoint(self.path)

    @property
    def name(self) -> str:
        return f"dmc:{os.path.basename(self.path)}"

    def scores(self, view: GameView) -> tuple[np.ndarray, np.ndarray]:
        """``(ids, q)``: the legal action ids (0 pass) and the network's value of each."""
        import torch

        obs = view_observation(view)
        ids, cards, reading = view_action_features(view)
        with torch.no_grad():
            q = self.net(torch.from_numpy(obs[None]), torch.zeros(len(ids), dtype=torch.long),
                         torch.from_numpy(cards), torch.from_numpy(reading))
        return ids, q.numpy()

    def choose_play(self, view: GameView) -> Decision:
        ids, q = self.scores(view)
        row = int(np.argmax(q))
        best, value = int(ids[row]), float(q[row])
        if best == 0:
            return Decision.because("pass", None, Explanation("POLICY_VALUE", play=None, value=value))
        play = view.legal_plays[best - 1]
        return Decision.because("play", play, Explanation("POLICY_VALUE", play=play, value=value))


def from_spec(spec: str, seed: int | None = None, **options: Any) -> DmcBot:
    """The bot of a ``dmc:PATH`` spec."""
    return DmcBot(seed, path=spec.split(":", 1)[1], **options)
