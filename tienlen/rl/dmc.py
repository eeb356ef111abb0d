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
  learns the returns of the teacher's play (a warm start by imitation), then of its own.

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

__all__ = ["TrainConfig", "train", "collect", "CHECKPOINT_FORMAT"]

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
                "eval_boards": (self.eval_boards, 0, 1 << 16)}
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
    buffer = _Buffer(config.buffer, enc.obs_size, dmc.action_size)
    curve = out / "curve.csv"
    fields = ["seconds", "decisions", "decisions_per_s", "episodes", "updates", "loss",
              "vs_random", "vs_greedy"]
    if not (config.resume and curve.exists()):
        with open(curve, "w", newline="") as fh:
            csv.writer(fh).writerow(fields)
    progress = _Progress(config.progress)
    losses: list[float] = []
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
        nonlocal losses
        net.eval()
        choose = _greedy(dmc, net, torch)
        shares = [dmc.evaluate(choose, opponent, config.eval_boards, 10_000_000)
                  if config.eval_boards else float("nan") for opponent in ("random", "greedy")]
        net.train()
        secs = seconds()
        row = [round(secs, 1), state["decisions"], round(state["decisions"] / max(secs, 1e-9)),
               state["episodes"], state["updates"],
               round(float(np.mean(losses)), 5) if losses else "", *(round(s, 4) for s in shares)]
        losses = []
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
                "teacher": config.teacher, "teacher_share": teacher_share()}

    with _executor(config) as (executor, workers):
        slots = max(config.actors if config.scheduler is None else workers, 1)
        running = {executor.submit(collect, task(k)): k for k in range(slots)}
        try:
            while running:
                finished, _ = cf.wait(running, return_when=cf.FIRST_COMPLETED)
                for future in finished:
                    slot = running.pop(future)
                    result = future.result()
                    buffer.add(result["obs"], result["rows"], result["target"])
                    state["decisions"] += len(result["target"])
                    state["taken"] += result["taken"]
                    state["episodes"] += result["episodes"]
                    added += len(result["target"])
                    # The learner keeps its updates near `replay` rows per row generated.
                    while buffer.size >= config.batch and \
                            run_updates * config.batch < config.replay * added:
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
               "workers": slots, "last_loss": losses[-1] if losses else None}
    (out / "summary.json").write_text(json.dumps(summary, indent=1))
    return summary
