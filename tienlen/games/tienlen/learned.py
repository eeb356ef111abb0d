"""Trained policies as :class:`~tienlen.games.tienlen.bots.Bot` objects: the arena and ``tienlen play`` seat
``ppo:PATH`` (a MaskablePPO zip saved by ``examples/train_maskable_ppo.py``) and
``dmc:PATH`` (a Deep Monte Carlo network of ``tienlen train --game tienlen``, loaded as
Guandan's ``dmc:`` networks are: :mod:`tienlen.table.learned`).

The bot sees only its :class:`~tienlen.games.tienlen.view.View`. It rebuilds the encoder's input from it
by replaying the public history on a native game whose hidden hands are stand-ins with the
right card counts (the encoding uses only counts of other hands), so the observation is
exactly the one the Gymnasium env gave the policy in training.
"""

from __future__ import annotations

import operator
import os
from typing import Any, Callable

import numpy as np

from tienlen import _core
from tienlen.table.learned import build_pair_qnet, read_checkpoint, write_checkpoint
from tienlen.games.tienlen.bots.base import PASS, Bot, BotError, Move
from tienlen.games.tienlen.cards import Cards
from tienlen.games.tienlen.view import View

__all__ = ["PolicyBot", "observation_from_view", "load_policy", "DmcBot", "build_dmc_qnet",
           "save_dmc_checkpoint", "load_dmc_checkpoint", "action_rows", "DMC_FORMAT"]

_DECK = (1 << 52) - 1
_MODELS: dict[tuple[str, float], Any] = {}


def _game_from_view(view: View) -> _core.RLGame:
    """A native game with the view's public history replayed, the view's seat holding its
    real hand and every other seat stand-in cards of the right count."""
    n = view.players
    played_by = [0] * n
    for action in view.history:
        if action.cards is not None:
            played_by[action.seat] |= action.cards.mask
    hands = [0] * n
    hands[view.seat] = view.hand.mask | played_by[view.seat]
    # Who led the hand: R7.2 (the lowest card's holder, who must include it) while the view
    # still shows that card, else the first actor leads anything (R7.3). After the first
    # action both starts give the same public state.
    r72 = not view.history and view.must_include is not None
    leader = -1 if r72 else (view.history[0].seat if view.history else view.turn)
    assert leader is not None  # a bot decides only while the hand is on
    # Under R7.2 the stand-ins must lie above the card that decides who leads.
    lowest = int(view.must_include) if r72 and view.must_include is not None else -1
    pool = _DECK & ~view.hand.mask & ~view.played.mask & ~((1 << (lowest + 1)) - 1)
    for seat in range(n):
        if seat == view.seat:
            continue
        hands[seat] = played_by[seat]
        for _ in range(view.card_counts[seat]):
            if not pool:
                raise BotError("the view's card counts do not fit the unseen cards")
            bit = pool & -pool
            hands[seat] |= bit
            pool ^= bit
    game = _core.RLGame(n, view.rules.flags)
    game.reset_hands(hands, leader)
    for action in view.history:
        game.play_mask(0 if action.cards is None else action.cards.mask)
    return game


def observation_from_view(view: View) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(observation, action_mask, legal_moves)`` for the view's seat, as the envs encode
    them (the seat must be to act: any other view is a BotError).

    >>> from tienlen.games.tienlen.game import Game
    >>> game = Game(4, seed=3)
    >>> obs, mask, moves = observation_from_view(game.view(game.turn))
    >>> int(mask[1:].sum()) == len(game.legal_moves()), bool(mask[0]) == game.can_pass()
    (True, True)
    """
    # Checked first: the replay below assumes a hand in play at this seat's turn (a
    # finished hand failed an assert; another seat's view, a misleading card-count error).
    if not isinstance(view, View):
        raise BotError(f"expected a tienlen View; got {type(view).__name__}")
    if view.turn != view.seat:
        turn = "over" if view.turn is None else f"seat {view.turn}'s"
        raise BotError(f"the view must be of the seat to act: this is seat {view.seat}'s, "
                       f"and the turn is {turn}")
    game = _game_from_view(view)
    if game.turn != view.seat:
        raise BotError(f"the replayed game has seat {game.turn} to act, the view says {view.turn}")
    return game.observe(view.seat), game.action_mask(), game.legal_moves()


def load_policy(path: str) -> Any:
    """Load (once per file version) a MaskablePPO policy saved with ``model.save(path)``."""
    key = (os.path.abspath(path), os.path.getmtime(path))
    model = _MODELS.get(key)
    if model is None:
        from sb3_contrib import MaskablePPO

        model = MaskablePPO.load(path, device="cpu")
        _MODELS[key] = model
    return model


class PolicyBot(Bot):
    """Plays the greedy (most likely) masked action of a policy.

    ``policy`` is a path to a MaskablePPO zip or any callable ``(obs, mask) -> action``.
    """

    level = "ppo"

    def __init__(self, seed: int | None = None, policy: str | Callable[..., int] | None = None,
                 deterministic: bool = True) -> None:
        super().__init__(seed)
        if policy is None:
            raise BotError("PolicyBot needs a policy: a MaskablePPO zip path or a callable")
        if not isinstance(deterministic, (bool, np.bool_)):
            raise BotError(f"deterministic must be True or False; got {deterministic!r:.80}")
        self.deterministic = bool(deterministic)
        if isinstance(policy, (str, os.PathLike)):
            path = os.fspath(policy)
            if not os.path.exists(path) and os.path.exists(path + ".zip"):
                path += ".zip"
            if not os.path.exists(path):
                raise BotError(f"no policy file {path!r}")
            self.path: str | None = path
            self._act = self._model_act(load_policy(path))
        elif callable(policy):
            self.path = None
            self._act = policy
        else:
            # Refused here: a policy of 5 used to fail only at the first decision.
            raise BotError(f"policy must be a MaskablePPO zip path or a callable "
                           f"(obs, mask) -> action; got {policy!r:.80}")

    def _model_act(self, model: Any) -> Callable[[np.ndarray, np.ndarray], int]:
        def act(obs: np.ndarray, mask: np.ndarray) -> int:
            action, _ = model.predict(obs, action_masks=mask.astype(bool),
                                      deterministic=self.deterministic)
            return int(action)
        return act

    @property
    def name(self) -> str:
        return f"ppo:{os.path.basename(self.path)}" if self.path else "ppo"

    def choose(self, view: View) -> Move:
        self._check_turn(view)
        obs, mask, moves = observation_from_view(view)
        answer = self._act(obs, mask)
        try:
            # An int or a NumPy int; 1.0, None or True is not an action number (a float
            # index, a TypeError in the comparison, or the action 1).
            if isinstance(answer, (bool, np.bool_)):
                raise TypeError
            action = operator.index(answer)
        except TypeError:
            raise BotError(f"the policy answered {answer!r:.80}, not an action number") from None
        if not (0 <= action < len(mask)) or not mask[action]:
            raise BotError(f"the policy chose action {action}, outside the mask "
                           f"({len(moves)} legal plays, pass {'allowed' if mask[0] else 'not allowed'})")
        return PASS if action == 0 else Cards(int(moves[action - 1]))


def from_spec(spec: str, seed: int | None = None, **options: Any) -> PolicyBot:
    """The bot of a ``ppo:PATH`` spec."""
    return PolicyBot(seed, policy=spec.split(":", 1)[1], **options)


# ---------------------------------------------------------------- Deep Monte Carlo (dmc:)

#: The ``format`` entry of a Tiến Lên DMC checkpoint (``tienlen train --game tienlen``).
DMC_FORMAT = "tienlen.tienlen.dmc"
_DMC_VERSION = 1
#: An action's features: its 52 card bits, then 1 for a pass.
ACTION_FEATURES = 53
_DMC_NETS: dict[tuple[str, float], Any] = {}


def build_dmc_qnet(hidden: int = 256, head: int = 128, scale: Any = None) -> Any:
    """A fresh Q-network of (observation, action) pairs (:func:`tienlen.table.learned.build_pair_qnet`
    over Tiến Lên's 468-byte observation and 53 action features). ``scale``: each
    observation entry's largest value (the encoding's ``observation_high()``, which the
    trainer gives); a loaded network reads it from its checkpoint."""
    if scale is None:
        scale = np.ones(_core.RL_OBS_SIZE, np.float32)
    return build_pair_qnet(_core.RL_OBS_SIZE, ACTION_FEATURES, scale, hidden, head)


def action_rows(moves: np.ndarray, can_pass: bool) -> tuple[np.ndarray, np.ndarray]:
    """``(ids, features)`` of a decision's legal actions as the trainer scores them: pass
    first (id 0) where allowed, then the plays ``moves`` (card masks) as ids 1..n; each row
    its 52 card bits and a pass bit.

    >>> ids, rows = action_rows(np.array([0b1, 0b11], np.uint64), True)
    >>> ids.tolist(), rows[:, [0, 1, 52]].tolist()
    ([0, 1, 2], [[0, 0, 1], [1, 0, 0], [1, 1, 0]])
    """
    n = len(moves)
    ids = np.arange(1 - int(can_pass), n + 1, dtype=np.int64)
    rows = np.zeros((len(ids), ACTION_FEATURES), np.uint8)
    bits = np.unpackbits(np.asarray(moves, "<u8").view(np.uint8).reshape(n, 8), axis=1,
                         bitorder="little")[:, :52]
    rows[int(can_pass):, :52] = bits
    if can_pass:
        rows[0, 52] = 1
    return ids, rows


def save_dmc_checkpoint(net: Any, path: str | os.PathLike[str], **meta: Any) -> None:
    """Write ``net`` for :func:`load_dmc_checkpoint` (the ``dmc:PATH`` bot)."""
    write_checkpoint(path, DMC_FORMAT, _DMC_VERSION, net.config, net.state_dict(), **meta)


def load_dmc_checkpoint(path: str | os.PathLike[str]) -> Any:
    """The network saved at ``path`` in eval mode, read as every game's learned bots read
    theirs (no code from the file runs); one ValueError line for a missing or wrong file.

    >>> load_dmc_checkpoint(__file__)   # a file, but no checkpoint
    Traceback (most recent call last):
    ...
    ValueError: '...learned.py' is not a DMC checkpoint: not a file torch.save wrote
    """
    path = os.fspath(path)
    if not os.path.isfile(path):
        raise ValueError(f"no DMC checkpoint file {path!r}")
    key = (os.path.abspath(path), os.path.getmtime(path))
    net = _DMC_NETS.get(key)
    if net is None:
        data = read_checkpoint(path, DMC_FORMAT, _DMC_VERSION, "DMC checkpoint")
        net = build_dmc_qnet(int(data["config"]["hidden"]), int(data["config"]["head"]))
        missing, unexpected = net.load_state_dict(data["state_dict"], strict=False)
        if unexpected or missing:
            raise ValueError(f"{path!r}: the weights do not fit the network "
                             f"(missing {missing}, unexpected {unexpected})")
        net.eval()
        _DMC_NETS[key] = net
    return net


class DmcBot(Bot):
    """A Deep Monte Carlo network trained by ``tienlen train --game tienlen`` as a bot
    (spec ``dmc:PATH``): it scores every legal action of its view (pass included) and
    plays the best, as Guandan's ``dmc:`` bot does."""

    level = "dmc"

    def __init__(self, seed: int | None = None, path: str | os.PathLike[str] | None = None) -> None:
        super().__init__(seed)
        if path is None:
            raise BotError("DmcBot needs a checkpoint path (the spec dmc:PATH)")
        self.path = os.fspath(path)
        try:
            self.net = load_dmc_checkpoint(self.path)
        except ValueError as error:
            raise BotError(str(error)) from None

    @property
    def name(self) -> str:
        return f"dmc:{os.path.basename(self.path)}"

    def scores(self, view: View) -> tuple[np.ndarray, np.ndarray]:
        """``(ids, q)``: the legal action ids (0 pass) and the network's value of each."""
        import torch

        obs, mask, moves = observation_from_view(view)
        ids, rows = action_rows(moves, bool(mask[0]))
        with torch.no_grad():
            q = self.net(torch.from_numpy(obs[None]), torch.zeros(len(ids), dtype=torch.long),
                         torch.from_numpy(rows))
        return ids, q.numpy()

    def choose(self, view: View) -> Move:
        self._check_turn(view)
        ids, q = self.scores(view)
        best = int(ids[int(np.argmax(q))])
        if best == 0:
            return PASS
        moves = observation_from_view(view)[2]
        return Cards(int(moves[best - 1]))


def dmc_from_spec(spec: str, seed: int | None = None, **options: Any) -> DmcBot:
    """The bot of a ``dmc:PATH`` spec."""
    return DmcBot(seed, path=spec.split(":", 1)[1], **options)
