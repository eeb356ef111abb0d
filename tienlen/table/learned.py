"""What every game's learned bots share: the checkpoint file of a trained network, loaded the
same way for every game (``dmc:PATH`` bots), and a Q-network of (observation, action)
pairs for games whose actions are plain feature vectors.

A checkpoint is a ``torch.save`` zip of plain data: ``{"format", "version", "config",
"meta", "state_dict"}``. Loading runs no code from the file (``torch.load(weights_only=True)``
after the file's size and its zip signature are checked), and everything that can go wrong
is one :class:`ValueError` line: a missing file, a file that is not such a checkpoint (of
this format), a version this tienlen does not read, no torch. torch is imported only when
a network is built or loaded (the ``[train]`` extra).

>>> read_checkpoint(__file__, "tienlen.example.dmc", 1)   # a file, but no checkpoint
Traceback (most recent call last):
...
ValueError: '...learned.py' is not a checkpoint: not a file torch.save wrote
"""

from __future__ import annotations

import os
from typing import Any

__all__ = ["MAX_CHECKPOINT_BYTES", "import_torch", "read_checkpoint", "write_checkpoint",
           "build_pair_qnet"]

#: The largest checkpoint file read (the shipped networks are a few MB).
MAX_CHECKPOINT_BYTES = 256 << 20


def import_torch() -> Any:
    """torch, or one clear line saying how to get it (the ``[train]`` extra)."""
    try:
        import torch
    except ImportError:
        raise ValueError("a trained policy (dmc:) or the trainer needs torch, which is not "
                         "installed: pip install -e \".[train]\" in a checkout (docs/rl.md: "
                         "a CPU build is enough)") from None
    return torch


def write_checkpoint(path: str | os.PathLike[str], fmt: str, version: int,
                     config: dict[str, Any], state_dict: dict[str, Any], **meta: Any) -> None:
    """Write a checkpoint: ``state_dict``'s tensors as float32 CPU copies, ``config`` (how
    to build the network) and ``meta`` (plain data: numbers, strings, lists, dicts)."""
    torch = import_torch()
    state = {k: v.detach().to("cpu", torch.float32).clone() if v.is_floating_point()
             else v.detach().cpu().clone() for k, v in state_dict.items()}
    tmp = f"{os.fspath(path)}.tmp"
    torch.save({"format": fmt, "version": version, "config": dict(config), "meta": meta,
                "state_dict": state}, tmp)
    os.replace(tmp, path)         # a reader never sees half a file


def read_checkpoint(path: str | os.PathLike[str], fmt: str, version: int,
                    what: str = "checkpoint") -> dict[str, Any]:
    """The checkpoint at ``path`` of format ``fmt`` and ``version``, as plain data (tensors in
    ``state_dict``); one ValueError line for anything else (``what`` names the file's kind
    in it: "DMC checkpoint")."""
    path = os.fspath(path)
    if not os.path.isfile(path):
        raise ValueError(f"no {what} file {path!r}")
    size = os.path.getsize(path)
    if size > MAX_CHECKPOINT_BYTES:
        raise ValueError(f"{path!r} is not a {what}: {size:,} bytes, more than the "
                         f"{MAX_CHECKPOINT_BYTES:,} a checkpoint may have")
    with open(path, "rb") as f:
        magic = f.read(4)
    if magic != b"PK\x03\x04":       # torch.save's zip container
        raise ValueError(f"{path!r} is not a {what}: not a file torch.save wrote")
    torch = import_torch()
    try:
        data = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as error:     # a zip, pickle or truncation error: not a checkpoint
        # torch's own message advises retrying with weights_only=False, which would run
        # code from the file: it is not relayed.
        raise ValueError(f"{path!r} is not a {what}: torch cannot read it as weights "
                         f"({type(error).__name__})") from None
    if not isinstance(data, dict) or data.get("format") != fmt:
        found = data.get("format") if isinstance(data, dict) else None
        raise ValueError(f"{path!r} is not a {what} (no {fmt!r} format entry)"
                         + (f": its format is {found!r}" if isinstance(found, str) else ""))
    if data.get("version") != version:
        raise ValueError(f"{path!r}: checkpoint version {data.get('version')!r}; this "
                         f"tienlen reads version {version}")
    if not isinstance(data.get("config"), dict) or not isinstance(data.get("state_dict"), dict):
        raise ValueError(f"{path!r}: the {what} has no config or no weights")
    return data


def build_pair_qnet(obs_size: int, action_size: int, scale: Any, hidden: int = 256,
                    head: int = 128) -> Any:
    """A Q-network of (observation, action) pairs (a ``torch.nn.Module``), as DouZero's:
    ``net(obs, seg, actions)`` scores the action rows ``actions`` (uint8, R x action_size)
    of the decisions ``obs`` (uint8, B x obs_size, divided by ``scale``, each entry's
    largest value), row r belonging to decision ``seg[r]``. The first layer is computed in
    two parts, the observation's once per decision and the action's once per row:
    ``Q(o, a) = head(relu(W_o o + W_a a + b))``."""
    import_torch()
    import torch
    from torch import nn

    class PairQNet(nn.Module):  # type: ignore[misc, unused-ignore]  # (Any where torch is absent)
        def __init__(self) -> None:
            super().__init__()
            self.config = {"hidden": hidden, "head": head}
            self.register_buffer("scale", torch.as_tensor(scale, dtype=torch.float32))
            self.obs = nn.Sequential(nn.Linear(obs_size, hidden), nn.ReLU(),
                                     nn.Linear(hidden, hidden))
            self.action = nn.Linear(action_size, hidden)
            self.head = nn.Sequential(nn.ReLU(), nn.Linear(hidden, head), nn.ReLU(),
                                      nn.Linear(head, 1))

        def forward(self, obs: Any, seg: Any, actions: Any) -> Any:
            o = self.obs(obs.float() / self.scale)
            return self.head(o[seg] + self.action(actions.float())).squeeze(-1)

    return PairQNet()
