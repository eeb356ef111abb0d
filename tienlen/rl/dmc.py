"""One Deep Monte Carlo trainer for every game (DouZero / DanZero's method), over a game's
encoder and its ``dmc`` part (the spec's ``dmc()``: tables, action rows, network, checkpoint, evaluation).

Actors and a learner:

- **actors** run in worker processes, on every core of this machine (a process pool) or on
  every worker of a Dask cluster (``scheduler``: ``local:N`` on loopback, or the address of
  a scheduler whose workers run this tienlen, through the arena's
  :func:`tienlen.arena.scale.dask_executor`: no cluster code of our own). Each actor keeps
  its native vectorised tables in its process between tasks; a task carries the learner's
  current weights, plays ε-greedy until ``task_decisions`` decisions have their return
  (every legal action of every table scored in one forward pass, the tables stepped in C)
  and hands them back as arrays: each decision's observation, the chosen action's feature
  row and the Monte Carlo return of the seat that took it (its episode's reward,
  undiscounted). As in DouZero, the unit is a process and results travel as arrays, not as
  per-decision objects;
- the **learner** (this process, on ``device``) keeps a replay buffer, fits Q to the returns
  (MSE, Adam) at ``replay`` rows trained per row generated, and gives each new task the
  weights of that moment;
- a **teacher** (``teacher``: a native policy of the game, such as Guandan's ``plan``, the
  policy L2 plays) may start the run: each decision takes the teacher's action with a
  probability that falls from 1 to 0 over the first ``teacher_until`` of the run, so Q first
  learns the returns of the teacher's play (a warm start by imitation), then of its own;
- with ``imitate`` the run is **behaviour cloning** instead (DAgger-style): every decision
  is labelled with the teacher's action, the tables are played by the teacher with the
  probability above and by the learner (ε-greedy) otherwise, so the states come from both,
  and the learner trains Q as the logits of a softmax over each decision's legal actions
  (cross-entropy, the teacher's action the target; at most ``imitate_rows`` rows a
  decision: the teacher's and a uniform sample of the others). A later run without
  ``imitate`` may ``resume`` from it as self-play DMC.

A run writes ``OUT/checkpoint.pt`` (network, optimizer, counters and settings: ``resume``
goes on from it, loaded with ``torch.load(weights_only=True)``, so no code from the file
runs), ``OUT/dmc.pt`` (the game's ``dmc:PATH`` bot) and ``OUT/curve.csv`` (decisions,
decisions per second, loss, and the greedy policy's share won against native teams).

>>> TrainConfig(game="guandan", out="/tmp/x", tables=("self:64", "greedy:32")).table_groups()
[('self', 64), ('greedy', 32)]
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import csv
import dataclasses
import json
import multiprocessing
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..table.learned import import_torch, read_checkpoint, write_checkpoint
from .games import dmc as game_dmc, encoder

__all__ = ["TrainConfig", "train", "collect", "imitation_loss", "CHECKPOINT_FORMAT"]

#: The ``format`` entry of a trainer's resumable checkpoint (``OUT/checkpoint.pt``).
CHECKPOINT_FORMAT = "tienlen.rl.dmc.checkpoint"
_CHECKPOINT_VERSION = 1
#: The settings a resumed run must share with the run it resumes (the network's shape).
_FIXED = ("game", "hidden", "head")


@dataclasses.dataclass(frozen=True)
class TrainConfig:
    """A run's settings (``tienlen train``'s options; docs/rl.md)."""

    game: str
    out: str
    actors: int = 1
    scheduler: str | None = None
    tables: tuple[str, ...] = ("self:64",)
    minutes: float | None = 10.0
    decisions: int | None = None
    task_decisions: int = 4096
    device: str = "cpu"
    seed: int = 1
    hidden: int = 256
    head: int = 128
    lr: float = 3e-4
    batch: int = 512
    replay: float = 2.0
    buffer: int = 200_000
    eps: float = 0.1
    save_every: float = 60.0
    eval_every: float = 120.0
    eval_boards: int = 100
    resume: bool = False
    progress: bool = True
    teacher: str | None = None
    teacher_until: float = 0.5
    imitate: bool = False
    imitate_rows: int = 64

    def table_groups(self) -> list[tuple[str, int]]:
        """Each actor's tables: ``KIND:N`` groups (``self``: every seat learns; a native
        policy's name: the learner's seats against it)."""
        kinds = game_dmc(self.game).kinds
        groups = []
        for spec in self.tables:
            kind, _, n = str(spec).partition(":")
            if kind not in kinds:
                raise ValueError(f"tables: {kind!r} is not one of {', '.join(kinds)}")
            try:
                count = int(n or 64)
            except ValueError:
                raise ValueError(f"tables: {spec!r} is not KIND:N") from None
            if not 1 <= count <= 65536:
                raise ValueError(f"tables: {spec!r}: N must be 1..65536")
            groups.append((kind, count))
        if not groups:
            raise ValueError("tables: name at least one KIND:N group")
        return groups

    def check(self) -> None:
        """Refuse settings that cannot run, before anything starts (one line each)."""
        ints = {"actors": (self.actors, 1, 1024), "task_decisions": (self.task_decisions, 1, 1 << 24),
                "hidden": (self.hidden, 1, 1 << 14), "head": (self.head, 1, 1 << 14),
                "batch": (self.batch, 1, 1 << 20), "buffer": (self.buffer, 1, 1 << 26),
                "eval_boards": (self.eval_boards, 0, 1 << 16),
                "imitate_rows": (self.imitate_rows, 2, 1 << 12)}
        for name, (value, lo, hi) in ints.items():
            if type(value) is not int or not lo <= value <= hi:
                raise ValueError(f"{name} must be an int {lo}..{hi}; got {value!r:.40}")
        if self.minutes is None and self.decisions is None:
            raise ValueError("give minutes or decisions: a run needs an end")
        for name in ("lr", "replay", "eps", "save_every", "eval_every"):
            value = getattr(self, name)
            if not isinstance(value, (int, float)) or not 0 <= value < float("inf"):
                raise ValueError(f"{name} must be a number >= 0; got {value!r:.40}")
        if not 0 <= self.eps <= 1:
            raise ValueError(f"eps must be in [0, 1]; got {self.eps!r}")
        if self.teacher is not None and self.teacher not in game_dmc(self.game).teachers:
            teachers = ", ".join(game_dmc(self.game).teachers) or "none"
            raise ValueError(f"teacher: {self.teacher!r} is not one of this game's teachers "
                             f"({teachers})")
        if self.imitate and self.teacher is None:
            raise ValueError("imitate needs a teacher (--teacher POLICY) to imitate")
        if not 0 < self.teacher_until <= 1:
            raise ValueError(f"teacher_until must be in (0, 1]; got {self.teacher_until!r}")
        self.table_groups()


def _choose_rows(q: np.ndarray, offsets: np.ndarray, eps: float,
                rng: np.random.Generator) -> np.ndarray:
    """The row chosen for each decision: its best-scored row (``q`` over every decision's
    rows ``offsets[i]:offsets[i + 1]``), or with probability ``eps`` a uniform one. Private:
    its arrays come from the network and the core, never from a caller.

    >>> _choose_rows(np.array([0.1, 0.9, 0.5, 0.2]), np.array([0, 2, 4]), 0.0,
    ...              np.random.default_rng(0)).tolist()
    [1, 2]
    """
    counts = np.diff(offsets)
    seg = np.repeat(np.arange(len(counts)), counts)
    order = np.lexsort((-q, seg))            # each decision's rows, best first
    rows: np.ndarray = order[offsets[:-1]]
    if eps > 0:
        explore = rng.random(len(counts)) < eps
        if explore.any():
            rows[explore] = offsets[:-1][explore] + (
                rng.random(int(explore.sum())) * counts[explore]).astype(np.int64)
    return rows


def _policy(dmc: Any, net: Any, torch: Any, eps: float, rng: np.random.Generator
            ) -> Callable[[Any, np.ndarray], tuple[np.ndarray, np.ndarray, np.ndarray,
                                                   np.ndarray]]:
    """``act(tables, obs) -> (ids, rows, offsets, chosen)``: every decision's legal action
    ids and feature rows (``offsets``), and the row ε-greedy chose for each."""
    device = next(net.parameters()).device

    def act(tables: Any, obs: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                   np.ndarray]:
        offsets, ids, rows = dmc.rows(tables)
        seg = np.repeat(np.arange(len(offsets) - 1), np.diff(offsets))
        with torch.no_grad():
            q = dmc.score(net, torch.from_numpy(obs).to(device), torch.from_numpy(seg).to(device),
                          torch.from_numpy(rows).to(device)).cpu().numpy()
        return ids, rows, offsets, _choose_rows(q, offsets, eps, rng)
    return act


def _greedy(dmc: Any, net: Any, torch: Any) -> Callable[[Any, np.ndarray], np.ndarray]:
    """The network's greedy policy as ``choose(tables, obs) -> action ids`` (evaluation)."""
    act = _policy(dmc, net, torch, 0.0, np.random.default_rng(0))

    def choose(tables: Any, obs: np.ndarray) -> np.ndarray:
        ids, _, _, chosen = act(tables, obs)
        actions: np.ndarray = ids[chosen].astype(np.int64)
        return actions
    return choose


# ---------------------------------------------------------------- actors (worker processes)

class _Actor:
    """A worker process's actor: its tables, kept between tasks, and each table's decisions
    (observation, chosen row, seat) waiting for their episode's return. A process makes one
    actor per run, seeded by the first task it runs (every task's seed is new), so two
    processes never play the same deals."""

    def __init__(self, game: str, groups: Sequence[tuple[str, int]], seed: int) -> None:
        self.dmc = game_dmc(game)
        self.tables = [self.dmc.tables(kind, n, seed + 100_003 * k)
                       for k, (kind, n) in enumerate(groups)]
        self.pending: list[list[list[tuple[np.ndarray, np.ndarray, int]]]] = [
            [[] for _ in range(t.num_envs)] for t in self.tables]
        self.rng = np.random.default_rng(seed)
        self.net: Any = None
        self.shape: tuple[int, int] | None = None


_ACTORS: dict[str, _Actor] = {}


def collect(task: dict[str, Any]) -> dict[str, Any]:
    """One actor task, in a worker process: play ε-greedy with the task's weights until at
    least ``task["decisions"]`` decisions have their return; hand them back as arrays
    (``obs``, ``rows`` the chosen action's features, ``target``) with the decisions taken,
    the episodes ended and the task's CPU seconds."""
    torch = import_torch()
    torch.set_num_threads(1)
    cpu0 = time.process_time()
    actor = _ACTORS.get(task["run"])
    if actor is None:
        actor = _ACTORS[task["run"]] = _Actor(task["game"], task["groups"], task["seed"])
    shape = (task["hidden"], task["head"])
    if actor.net is None or actor.shape != shape:
        actor.net, actor.shape = actor.dmc.build(*shape), shape
        actor.net.eval()
    actor.net.load_state_dict({k: torch.from_numpy(v) for k, v in task["weights"].items()},
                              strict=False)
    act = _policy(actor.dmc, actor.net, torch, task["eps"], actor.rng)
    teacher, share = task.get("teacher"), float(task.get("teacher_share", 0.0))
    if task.get("imitate"):
        return _collect_imitation(actor, task, act, cpu0)
    obs_out: list[np.ndarray] = []
    rows_out: list[np.ndarray] = []
    target_out: list[float] = []
    taken = episodes = 0
    ended: np.ndarray
    while len(target_out) < task["decisions"]:
        for tables, pending in zip(actor.tables, actor.pending):
            obs = tables.obs.copy()
            seats = tables.seat.copy()
            ids, rows, offsets, chosen = act(tables, obs)
            if teacher is not None and share > 0:
                # Imitation first: with probability `share` a decision takes the teacher's
                # action (a native policy's), whose row is found by its id (a decision's
                # ids are consecutive from its first row's).
                follow = actor.rng.random(tables.num_envs) < share
                if follow.any():
                    taught = actor.dmc.teacher(tables, teacher)
                    first = offsets[:-1]
                    chosen = np.where(follow, first + taught - ids[first], chosen)
            actions = ids[chosen].astype(np.int64)
            for i in range(tables.num_envs):
                pending[i].append((obs[i], rows[chosen[i]], int(seats[i])))
            tables.step(actions)
            taken += tables.num_envs
            truncated = getattr(tables, "truncated", None)
            ended = tables.terminated if truncated is None else tables.terminated | truncated
            for j in np.flatnonzero(ended):
                final = tables.final_rewards[j]
                for ob, row, seat in pending[j]:
                    obs_out.append(ob)
                    rows_out.append(row)
                    target_out.append(float(final[seat]))
                pending[j] = []
                episodes += 1  # (one per ended table)
    return {"obs": np.stack(obs_out), "rows": np.stack(rows_out),
            "target": np.asarray(target_out, np.float32), "taken": taken,
            "episodes": episodes, "cpu": time.process_time() - cpu0}


def _teacher_rows(dmc: Any, tables: Any, teacher: str, ids: np.ndarray,
                  offsets: np.ndarray) -> np.ndarray:
    """The row of the teacher's action in each decision's rows (a decision's ids are
    consecutive from its first row's)."""
    taught = dmc.teacher(tables, teacher)
    first = offsets[:-1]
    rows: np.ndarray = first + taught - ids[first]
    if not (np.all(rows >= first) and np.all(rows < offsets[1:])
            and np.array_equal(ids[rows], taught)):
        raise RuntimeError("a teacher's action is not among its decision's legal actions")
    return rows


def _keep_rows(offsets: np.ndarray, teacher_rows: np.ndarray, cap: int,
               rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Which rows an imitation decision keeps: the teacher's first, then up to ``cap - 1``
    of the others drawn uniformly; ``(kept rows in order, each decision's count)``.

    >>> keep, counts = _keep_rows(np.array([0, 3, 4, 9]), np.array([2, 3, 5]), 2,
    ...                           np.random.default_rng(0))
    >>> counts.tolist(), keep[[0, 2, 3]].tolist()
    ([2, 1, 2], [2, 3, 5])
    """
    counts = np.diff(offsets)
    seg = np.repeat(np.arange(len(counts)), counts)
    key = rng.random(len(seg))
    key[teacher_rows] = -1.0                 # the teacher's row sorts first in its decision
    order = np.lexsort((key, seg))
    position = np.arange(len(seg)) - offsets[seg[order]]
    keep: np.ndarray = order[position < cap]
    return keep, np.minimum(counts, cap)


def _collect_imitation(actor: _Actor, task: dict[str, Any], act: Callable[..., Any],
                       cpu0: float) -> dict[str, Any]:
    """An imitation task (``imitate``): every decision with a choice (two or more legal
    actions) is labelled with the teacher's action; a table follows the teacher with
    probability ``teacher_share`` and the learner's ε-greedy choice otherwise. Hands back
    ``obs`` (n, obs), ``rows`` (the kept rows, the teacher's first in each decision),
    ``counts`` (rows per decision) and ``follow`` (whether the learner's greedy choice was
    the teacher's: its agreement)."""
    teacher, share, cap = task["teacher"], float(task["teacher_share"]), int(task["imitate_rows"])
    obs_out: list[np.ndarray] = []
    rows_out: list[np.ndarray] = []
    counts_out: list[np.ndarray] = []
    agree_out: list[np.ndarray] = []
    taken = episodes = decisions = 0
    while decisions < task["decisions"]:
        for tables in actor.tables:
            obs = tables.obs.copy()
            ids, rows, offsets, chosen = act(tables, obs)
            taught = _teacher_rows(actor.dmc, tables, teacher, ids, offsets)
            choice = np.diff(offsets) > 1
            if choice.any():
                keep, counts = _keep_rows(offsets, taught, cap, actor.rng)
                seg = np.repeat(np.arange(len(counts)), counts)
                kept = choice[seg]
                obs_out.append(obs[choice])
                rows_out.append(rows[keep[kept]])
                counts_out.append(counts[choice])
                agree_out.append((chosen == taught)[choice])
                decisions += int(choice.sum())
            follow = actor.rng.random(tables.num_envs) < share
            tables.step(ids[np.where(follow, taught, chosen)].astype(np.int64))
            taken += tables.num_envs
            truncated = getattr(tables, "truncated", None)
            ended = tables.terminated if truncated is None else tables.terminated | truncated
            episodes += int(np.count_nonzero(ended))
    return {"obs": np.concatenate(obs_out), "rows": np.concatenate(rows_out),
            "counts": np.concatenate(counts_out), "agree": np.concatenate(agree_out),
            "taken": taken, "episodes": episodes, "cpu": time.process_time() - cpu0}


# ---------------------------------------------------------------- the learner

class _Buffer:
    """The replay buffer: a ring of the latest ``capacity`` decisions."""

    def __init__(self, capacity: int, obs_size: int, row_size: int) -> None:
        self.obs = np.zeros((capacity, obs_size), np.uint8)
        self.rows = np.zeros((capacity, row_size), np.uint8)
        self.target = np.zeros(capacity, np.float32)
        self.capacity, self.size, self.at = capacity, 0, 0

    def add(self, obs: np.ndarray, rows: np.ndarray, target: np.ndarray) -> None:
        n = len(target)
        if n > self.capacity:
            obs, rows, target = obs[-self.capacity:], rows[-self.capacity:], target[-self.capacity:]
            n = self.capacity
        idx = (self.at + np.arange(n)) % self.capacity
        self.obs[idx], self.rows[idx], self.target[idx] = obs, rows, target
        self.at = (self.at + n) % self.capacity
        self.size = min(self.capacity, self.size + n)

    def sample(self, rng: np.random.Generator, n: int) -> tuple[np.ndarray, ...]:
        idx = rng.integers(0, self.size, n)
        return self.obs[idx], self.rows[idx], self.target[idx]


class _Decisions:
    """The imitation replay buffer: the latest ``capacity`` labelled decisions (about), as
    the chunks the actors sent (each: ``obs``, its decisions' rows, the teacher's first, and
    their ``counts``); the oldest chunks go first."""

    def __init__(self, capacity: int) -> None:
        self.capacity = capacity
        self.chunks: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
        self.size = 0

    def add(self, obs: np.ndarray, rows: np.ndarray, counts: np.ndarray) -> None:
        offsets = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
        self.chunks.append((obs, rows, counts.astype(np.int64), offsets))
        self.size += len(counts)
        while len(self.chunks) > 1 and self.size - len(self.chunks[0][2]) >= self.capacity:
            self.size -= len(self.chunks.pop(0)[2])

    def sample(self, rng: np.random.Generator, n: int) -> tuple[np.ndarray, np.ndarray,
                                                               np.ndarray]:
        """``n`` decisions drawn uniformly: ``(obs, rows, counts)``, each decision's rows
        together and the teacher's first."""
        sizes = np.array([len(c[2]) for c in self.chunks])
        picks = rng.integers(0, self.size, n)
        which = np.searchsorted(np.cumsum(sizes), picks, side="right")
        obs, rows, counts = [], [], []
        for k in np.unique(which):
            o, r, c, off = self.chunks[k]
            local = picks[which == k] - (sizes[:k].sum() if k else 0)
            cnt = c[local]
            starts = np.repeat(off[local], cnt)
            inner = np.arange(int(cnt.sum())) - np.repeat(np.cumsum(cnt) - cnt, cnt)
            obs.append(o[local])
            rows.append(r[starts + inner])
            counts.append(cnt)
        return np.concatenate(obs), np.concatenate(rows), np.concatenate(counts)


def imitation_loss(torch: Any, q: Any, counts: Any) -> tuple[Any, Any]:
    """The cross-entropy of each decision's softmax over its rows' scores ``q`` (a
    decision's ``counts[i]`` rows together, the teacher's first) with the teacher's action
    as the target, and the share of decisions whose best-scored row is the teacher's.

    >>> import torch
    >>> loss, agree = imitation_loss(torch, torch.tensor([2.0, 0.0, 0.0, 5.0, 1.0]),
    ...                              torch.tensor([3, 2]))
    >>> round(float(loss), 4), float(agree)
    (0.1288, 1.0)
    """
    n, width = len(counts), int(counts.max())
    seg = torch.repeat_interleave(torch.arange(n, device=q.device), counts)
    starts = torch.cumsum(counts, 0) - counts
    pos = torch.arange(len(q), device=q.device) - starts[seg]
    logits = torch.full((n, width), float("-inf"), device=q.device, dtype=q.dtype)
    logits[seg, pos] = q
    target = torch.zeros(n, dtype=torch.long, device=q.device)
    loss = torch.nn.functional.cross_entropy(logits, target)
    agree = (logits.argmax(1) == 0).float().mean()
    return loss, agree


@contextlib.contextmanager
def _executor(config: TrainConfig) -> Iterator[tuple[cf.Executor, int]]:
    """Where the actors run: a pool of ``actors`` processes here, or a Dask cluster (one
    actor per worker thread)."""
    if config.scheduler is None:
        context = multiprocessing.get_context("spawn")     # no fork of a torch process
        with cf.ProcessPoolExecutor(config.actors, mp_context=context) as pool:
            yield pool, config.actors
        return
    from ..arena.scale import dask_executor

    with dask_executor(config.scheduler) as (executor, workers):
        yield executor, workers


class _Progress:
    """One line on standard error, rewritten at most once a second (``progress=False``:
    silent)."""

    def __init__(self, on: bool) -> None:
        self.on, self.last = on and sys.stderr.isatty(), 0.0
        self.plain = on and not self.on

    def show(self, text: str, force: bool = False) -> None:
        now = time.monotonic()
        if not (self.on or self.plain) or (now - self.last < (1.0 if self.on else 30.0)
                                             and not force):
            return
        self.last = now
        if self.on:
            print(f"\r\033[K{text}", end="", file=sys.stderr, flush=True)
        else:
            print(text, file=sys.stderr, flush=True)

    def close(self) -> None:
        if self.on:
            print(file=sys.stderr, flush=True)


def train(config: TrainConfig) -> dict[str, Any]:
    """Run the trainer (docs/rl.md): actors on ``config.actors`` processes or a Dask
    cluster, the learner here; returns the run's summary (also ``OUT/summary.json``)."""
    config.check()
    torch = import_torch()
    torch.set_num_threads(1)
    enc = encoder(config.game)
    dmc = game_dmc(config.game)
    out = Path(config.out)
    out.mkdir(parents=True, exist_ok=True)
    try:
        device = torch.device(config.device)
        torch.zeros(1, device=device)
    except (RuntimeError, ValueError, AssertionError) as error:   # (no CUDA: an assert)
        raise ValueError(f"device {config.device!r} cannot be used here: "
                         f"{str(error).splitlines()[0]}") from None
    net = dmc.build(config.hidden, config.head).to(device)
    opt = torch.optim.Adam(net.parameters(), lr=config.lr)
    state: dict[str, Any] = {"decisions": 0, "taken": 0, "episodes": 0, "updates": 0,
                             "seconds": 0.0, "tasks": 0}
    rng = np.random.default_rng(config.seed)
    torch.manual_seed(config.seed)
    checkpoint = out / "checkpoint.pt"
    if config.resume:
        data = read_checkpoint(checkpoint, CHECKPOINT_FORMAT, _CHECKPOINT_VERSION,
                               "trainer checkpoint")
        for name in _FIXED:
            if data["config"].get(name) != getattr(config, name):
                raise ValueError(f"resume: {checkpoint} was trained with {name}="
                                 f"{data['config'].get(name)!r}, not {getattr(config, name)!r}")
        net.load_state_dict(data["state_dict"], strict=False)
        opt.load_state_dict(data["meta"]["optimizer"])
        state.update(data["meta"]["counters"])
        rng = np.random.default_rng([config.seed, int(state["tasks"])])
    groups = config.table_groups()
    buffer = _Buffer(1 if config.imitate else config.buffer, enc.obs_size, dmc.action_size)
    labelled = _Decisions(config.buffer // 4)       # (imitate: a decision keeps many rows)
    curve = out / "curve.csv"
    fields = ["seconds", "decisions", "decisions_per_s", "episodes", "updates", "loss",
              "vs_random", "vs_greedy", "agree"]
    if not (config.resume and curve.exists()):
        with open(curve, "w", newline="") as fh:
            csv.writer(fh).writerow(fields)
    progress = _Progress(config.progress)
    losses: list[float] = []
    agrees: list[float] = []
    last_loss: float | None = None
    start = time.perf_counter() - float(state["seconds"])
    last_save = last_eval = time.perf_counter()
    added = run_updates = 0          # rows generated and updates made by this process

    run_id = f"{time.time_ns()}"         # this run's actors, apart from an earlier run's

    def weights() -> dict[str, np.ndarray]:
        return {k: v.detach().cpu().numpy() for k, v in net.state_dict().items()}

    def seconds() -> float:
        return time.perf_counter() - start

    def save() -> None:
        state["seconds"] = seconds()
        meta = dict(counters=dict(state), optimizer=opt.state_dict(),
                    settings=dataclasses.asdict(config))
        write_checkpoint(checkpoint, CHECKPOINT_FORMAT, _CHECKPOINT_VERSION,
                         {name: getattr(config, name) for name in _FIXED},
                         net.state_dict(), **meta)
        dmc.save(net, out / "dmc.pt", game=config.game, decisions=state["decisions"],
                 seconds=state["seconds"])

    def evaluate() -> None:
        nonlocal losses, agrees
        net.eval()
        choose = _greedy(dmc, net, torch)
        shares = [dmc.evaluate(choose, opponent, config.eval_boards, 10_000_000)
                  if config.eval_boards else float("nan") for opponent in ("random", "greedy")]
        net.train()
        secs = seconds()
        row = [round(secs, 1), state["decisions"], round(state["decisions"] / max(secs, 1e-9)),
               state["episodes"], state["updates"],
               round(float(np.mean(losses)), 5) if losses else "", *(round(s, 4) for s in shares),
               round(float(np.mean(agrees)), 4) if agrees else ""]
        losses, agrees = [], []
        with open(curve, "a", newline="") as fh:
            csv.writer(fh).writerow(row)
        progress.show(json.dumps(dict(zip(fields, row))), force=True)

    def done() -> bool:
        if config.decisions is not None and state["decisions"] >= config.decisions:
            return True
        return config.minutes is not None and seconds() >= config.minutes * 60

    def teacher_share() -> float:
        """1 at the start, falling linearly to 0 at ``teacher_until`` of the run."""
        if config.teacher is None:
            return 0.0
        done_part = max(
            state["decisions"] / config.decisions if config.decisions else 0.0,
            seconds() / (config.minutes * 60) if config.minutes else 0.0)
        return max(0.0, 1.0 - done_part / config.teacher_until)

    def task(slot: int) -> dict[str, Any]:
        state["tasks"] += 1
        return {"run": f"{config.game}:{config.seed}:{groups}:{run_id}", "game": config.game,
                "groups": groups, "seed": config.seed * 1_000_003 + state["tasks"] * 7919,
                "weights": weights(), "hidden": config.hidden, "head": config.head,
                "eps": config.eps, "decisions": config.task_decisions,
                "teacher": config.teacher, "teacher_share": teacher_share(),
                "imitate": config.imitate, "imitate_rows": config.imitate_rows}

    with _executor(config) as (executor, workers):
        slots = max(config.actors if config.scheduler is None else workers, 1)
        running = {executor.submit(collect, task(k)): k for k in range(slots)}
        try:
            while running:
                finished, _ = cf.wait(running, return_when=cf.FIRST_COMPLETED)
                for future in finished:
                    slot = running.pop(future)
                    result = future.result()
                    if config.imitate:
                        labelled.add(result["obs"], result["rows"], result["counts"])
                        got = len(result["counts"])
                    else:
                        buffer.add(result["obs"], result["rows"], result["target"])
                        got = len(result["target"])
                    state["decisions"] += got
                    state["taken"] += result["taken"]
                    state["episodes"] += result["episodes"]
                    added += got
                    # The learner keeps its updates near `replay` rows per row generated.
                    while (labelled if config.imitate else buffer).size >= config.batch and \
                            run_updates * config.batch < config.replay * added:
                        if config.imitate:
                            o, r, c = labelled.sample(rng, config.batch)
                            counts_t = torch.from_numpy(c).to(device)
                            q = dmc.score(net, torch.from_numpy(o).to(device),
                                          torch.repeat_interleave(
                                              torch.arange(config.batch, device=device),
                                              counts_t),
                                          torch.from_numpy(r).to(device))
                            loss, agree = imitation_loss(torch, q, counts_t)
                            agrees.append(float(agree))
                        else:
                            o, r, t = buffer.sample(rng, config.batch)
                            q = dmc.score(net, torch.from_numpy(o).to(device),
                                          torch.arange(config.batch, device=device),
                                          torch.from_numpy(r).to(device))
                            loss = torch.mean((q - torch.from_numpy(t).to(device)) ** 2)
                        opt.zero_grad()
                        loss.backward()
                        torch.nn.utils.clip_grad_norm_(net.parameters(), 10.0)
                        opt.step()
                        state["updates"] += 1
                        run_updates += 1
                        losses.append(float(loss.item()))
                        last_loss = losses[-1]
                    secs = seconds()
                    progress.show(f"{config.game}: {state['decisions']:,} decisions "
                                  f"({state['decisions'] / max(secs, 1e-9):,.0f}/s), "
                                  f"{state['updates']:,} updates, loss "
                                  f"{np.mean(losses[-50:]) if losses else float('nan'):.4f}, "
                                  f"{secs:,.0f} s")
                    if config.save_every and time.perf_counter() - last_save >= config.save_every:
                        save()
                        last_save = time.perf_counter()
                    if config.eval_every and time.perf_counter() - last_eval >= config.eval_every:
                        evaluate()
                        last_eval = time.perf_counter()
                    if not done():
                        running[executor.submit(collect, task(slot))] = slot
        except BaseException:
            for future in running:
                future.cancel()
            save()                    # Ctrl-C: what was learned so far is kept
            progress.close()
            raise
    save()
    if config.eval_every:
        evaluate()
    progress.close()
    secs = seconds()
    summary = {"game": config.game, "seconds": round(secs, 1), **{k: v for k, v in state.items()
               if k != "seconds"}, "decisions_per_s": round(state["decisions"] / max(secs, 1e-9)),
               "workers": slots, "last_loss": last_loss}
    (out / "summary.json").write_text(json.dumps(summary, indent=1))
    return summary
