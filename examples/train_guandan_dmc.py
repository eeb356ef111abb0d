"""Deep Monte Carlo (DouZero / DanZero) for Guandan on the native vectorised env.

One Q-network (:func:`tienlen.games.guandan.learned.build_qnet`) scores (observation, action)
pairs for all four seats (observations are relative to the seat, so one net serves both
teams). ε-greedy actors play on ``tienlen._guandan.GdVecGames`` tables: at every step the
legal actions of every table are scored in one forward pass, one action per table is
chosen, and the tables step in C. When a hand ends, each of its decisions gets the acting
seat's Monte Carlo return (the hand's reward, undiscounted) and goes to a replay buffer;
the learner fits Q to those returns (MSE). Tables of several kinds share the network:
``self`` (all four seats learn) and tables where the learner holds seats 0 and 2 against
the core's native ``random``, ``greedy`` (≈ L1) or ``plan`` (≈ L2) policies.

Every ``--eval-every`` seconds the greedy policy plays ``--eval-boards`` first hands of
fixed deals in both seatings against native ``random`` and ``greedy`` teams; the shares of
hands won go to ``OUT/curve.csv`` and the network to ``OUT/dmc.pt`` (the bot spec
``dmc:OUT/dmc.pt``; ``OUT/dmc-best.pt`` is the best of them against random, then greedy).
``--plot`` draws the curve (matplotlib) from a finished run.

    OMP_NUM_THREADS=1 python examples/train_guandan_dmc.py --minutes 20 --out /tmp/dmc
    python examples/train_guandan_dmc.py --plot /tmp/dmc/curve.csv --png docs/guandan_dmc_curve.png
    tienlen sim --game guandan --bots dmc:/tmp/dmc/dmc-best.pt,random --hands 800 --seed 1
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

from tienlen import _guandan
from tienlen.games.guandan.learned import build_qnet, save_checkpoint

POLICIES = {"random": _guandan.RANDOM, "greedy": _guandan.GREEDY, "plan": _guandan.PLAN}
OBS, CARDS, READ = _guandan.GR_OBS_SIZE, _guandan.GR_CARD_FEATURES, _guandan.GR_READING_FEATURES
PLAY = _guandan.GR_PHASES.index("play")


def make_games(kind: str, n: int, seed: int, reward: tuple[float, float, float]) -> _guandan.GdVecGames:
    if kind == "self":
        seats, pol = (0, 1, 2, 3), (0, 0, 0, 0)
    else:
        p = POLICIES[kind]
        seats, pol = (0, 2), (p, p, p, p)
    games = _guandan.GdVecGames(n, learner_seats=seats, policies=pol, seed=0, episode="hand",
                                reward_weights=reward)
    games.reset(np.arange(n, dtype=np.uint64) + np.uint64(seed))
    return games


class Scorer:
    """Scores every legal action of every table of some GdVecGames in one forward pass."""

    def __init__(self, net: object) -> None:
        self.net = net

    def features(self, games: _guandan.GdVecGames, envs: np.ndarray
                 ) -> tuple[list[np.ndarray], np.ndarray, np.ndarray, np.ndarray]:
        feats = [games.action_features(int(i)) for i in envs]
        ids = [f[0] for f in feats]
        cards = np.concatenate([f[1] for f in feats])
        reading = np.concatenate([f[2] for f in feats])
        counts = np.fromiter((len(x) for x in ids), np.int64, len(ids))
        return ids, cards, reading, counts

    def choose(self, torch: object, obs: np.ndarray, ids: list[np.ndarray], cards: np.ndarray,
               reading: np.ndarray, counts: np.ndarray, eps: float,
               rng: np.random.Generator) -> np.ndarray:
        """The row chosen for each decision (index into the concatenated rows)."""
        import torch as T

        seg = np.repeat(np.arange(len(ids)), counts)
        with T.no_grad():
            q = self.net(T.from_numpy(obs), T.from_numpy(seg), T.from_numpy(cards),
                         T.from_numpy(reading)).numpy()
        starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
        # per-segment argmax: sort by (segment, -q), take each segment's first row
        order = np.lexsort((-q, seg))
        rows = order[starts]
        if eps > 0:
            explore = rng.random(len(ids)) < eps
            if explore.any():
                rows[explore] = starts[explore] + (rng.random(int(explore.sum()))
                                                   * counts[explore]).astype(np.int64)
        return rows


class Buffer:
    def __init__(self, capacity: int) -> None:
        self.obs = np.zeros((capacity, OBS), np.uint8)
        self.cards = np.zeros((capacity, CARDS), np.uint8)
        self.reading = np.zeros((capacity, READ), np.uint8)
        self.target = np.zeros(capacity, np.float32)
        self.capacity, self.size, self.at, self.added = capacity, 0, 0, 0

    def add(self, obs: np.ndarray, cards: np.ndarray, reading: np.ndarray, target: np.ndarray) -> None:
        n = len(target)
        idx = (self.at + np.arange(n)) % self.capacity
        self.obs[idx], self.cards[idx], self.reading[idx], self.target[idx] = obs, cards, reading, target
        self.at = (self.at + n) % self.capacity
        self.size = min(self.capacity, self.size + n)
        self.added += n

    def sample(self, rng: np.random.Generator, n: int) -> tuple[np.ndarray, ...]:
        idx = rng.integers(0, self.size, n)
        return self.obs[idx], self.cards[idx], self.reading[idx], self.target[idx]


class Actor:
    """Tables of one kind, with each running hand's decisions kept until the hand ends."""

    def __init__(self, kind: str, n: int, seed: int, reward: tuple[float, float, float]) -> None:
        self.kind, self.games = kind, make_games(kind, n, seed, reward)
        self.n = n
        self.pending: list[list[tuple[int, np.ndarray, np.ndarray, np.ndarray]]] = [[] for _ in range(n)]
        self.hands = 0

    def step(self, torch: object, scorer: Scorer, eps: float, rng: np.random.Generator,
             buffer: Buffer) -> int:
        g = self.games
        envs = np.arange(self.n)
        obs = g.obs.copy()
        seats = g.seat.copy()
        ids, cards, reading, counts = scorer.features(g, envs)
        rows = scorer.choose(torch, obs, ids, cards, reading, counts, eps, rng)
        starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
        flat_ids = np.concatenate(ids)
        actions = flat_ids[rows].astype(np.int64)
        for i in range(self.n):
            r = rows[i]
            self.pending[i].append((int(seats[i]), obs[i], cards[r], reading[r]))
        del starts
        g.step(actions)
        done = np.flatnonzero(g.terminated | g.truncated)
        if len(done):
            fin = g.final_rewards
            o, c, rd, t = [], [], [], []
            for i in done:
                for seat, ob, ca, re in self.pending[i]:
                    o.append(ob), c.append(ca), rd.append(re), t.append(fin[i, seat])
                self.pending[i] = []
            buffer.add(np.stack(o), np.stack(c), np.stack(rd), np.asarray(t, np.float32))
            self.hands += len(done)
        return self.n


def evaluate(torch: object, scorer: Scorer, opponent: str, boards: int, seed: int) -> float:
    """Share of first hands won by the greedy policy against a native team, over `boards`
    deals each played in both seatings (the learner at seats 0, 2 then 1, 3)."""
    won = 0.0
    for seats in ((0, 2), (1, 3)):
        p = POLICIES[opponent]
        g = _guandan.GdVecGames(boards, learner_seats=seats, policies=(p,) * 4, seed=0,
                                episode="hand", reward_weights=(1.0, 0.0, 0.0))
        g.reset(np.arange(boards, dtype=np.uint64) + np.uint64(seed))
        result = np.full(boards, np.nan)
        live = np.ones(boards, bool)
        rng = np.random.default_rng(0)
        while live.any():
            ids, cards, reading, counts = scorer.features(g, np.arange(boards))
            rows = scorer.choose(torch, g.obs.copy(), ids, cards, reading, counts, 0.0, rng)
            g.step(np.concatenate(ids)[rows].astype(np.int64))
            done = (g.terminated | g.truncated) & live
            for i in np.flatnonzero(done):
                result[i] = float(g.final_rewards[i, seats[0]] > 0)
            live &= ~done
        won += float(np.mean(result))
        g.close()
    return won / 2


def train(args: argparse.Namespace) -> None:
    import torch

    torch.set_num_threads(1)
    torch.manual_seed(args.seed)
    rng = np.random.default_rng(args.seed)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    net = build_qnet(args.hidden, args.head)
    opt = torch.optim.Adam(net.parameters(), lr=args.lr)
    scorer = Scorer(net)
    reward = (1.0, args.level_weight, 0.0)
    actors = []
    for j, spec in enumerate(args.tables):
        kind, _, n = spec.partition(":")
        if kind not in ("self", *POLICIES):
            raise SystemExit(f"--tables: {kind!r} is not self, random, greedy or plan")
        actors.append(Actor(kind, int(n or 32), args.seed * 1_000_003 + j * 100_000, reward))
    buffer = Buffer(args.buffer)
    curve = out / "curve.csv"
    fields = ["seconds", "decisions", "hands", "updates", "loss", "vs_random", "vs_greedy"]
    with open(curve, "w", newline="") as fh:
        csv.writer(fh).writerow(fields)
    start = time.perf_counter()
    decisions = updates = 0
    losses: list[float] = []
    next_eval = 0.0
    budget = args.minutes * 60 if args.steps is None else float("inf")
    step = 0
    first_loss = last_loss = None
    best = [(-1.0, -1.0)]

    def log_eval() -> None:
        nonlocal losses
        secs = time.perf_counter() - start
        vr = evaluate(torch, scorer, "random", args.eval_boards, 10_000_000)
        vg = evaluate(torch, scorer, "greedy", args.eval_boards, 10_000_000)
        loss = float(np.mean(losses)) if losses else float("nan")
        losses = []
        hands = sum(a.hands for a in actors)
        row = [round(secs, 1), decisions, hands, updates, round(loss, 5), round(vr, 4), round(vg, 4)]
        with open(curve, "a", newline="") as fh:
            csv.writer(fh).writerow(row)
        meta = dict(seconds=secs, decisions=decisions, hands=hands, tables=list(args.tables),
                    seed=args.seed, vs_random=vr, vs_greedy=vg)
        save_checkpoint(net, out / "dmc.pt", **meta)
        # The policy's strength swings as its Q estimates do: keep the best network on the
        # curve's fixed deals as well (the arena then measures it on other deals).
        if (vr, vg) > best[0]:
            best[0] = (vr, vg)
            save_checkpoint(net, out / "dmc-best.pt", **meta)
        print(json.dumps(dict(zip(fields, row))), flush=True)

    while True:
        elapsed = time.perf_counter() - start
        if elapsed >= budget or (args.steps is not None and step >= args.steps):
            break
        if args.eval_every > 0 and elapsed >= next_eval:
            log_eval()
            next_eval = (time.perf_counter() - start) + args.eval_every
        eps = args.eps
        for actor in actors:
            decisions += actor.step(torch, scorer, eps, rng, buffer)
        step += 1
        # the learner: keep the rows trained near replay-ratio x the rows generated
        while buffer.size >= args.batch and updates * args.batch < args.replay * buffer.added:
            o, c, r, t = buffer.sample(rng, args.batch)
            seg = torch.arange(args.batch)
            q = net(torch.from_numpy(o), seg, torch.from_numpy(c), torch.from_numpy(r))
            loss = torch.mean((q - torch.from_numpy(t)) ** 2)
            opt.zero_grad()
            loss.backward()
            torch.nn.utils.clip_grad_norm_(net.parameters(), 10.0)
            opt.step()
            updates += 1
            value = loss.item()
            losses.append(value)
            if first_loss is None:
                first_loss = value
            last_loss = value
    if args.eval_every > 0:
        log_eval()
    else:
        save_checkpoint(net, out / "dmc.pt", decisions=decisions, seed=args.seed)
    summary = {"seconds": round(time.perf_counter() - start, 1), "decisions": decisions,
               "hands": sum(a.hands for a in actors), "updates": updates,
               "first_loss": first_loss, "last_loss": last_loss,
               "loss_trace": args.loss_trace and _trace(net, buffer, rng, torch)}
    (out / "summary.json").write_text(json.dumps(summary, indent=1))
    print(json.dumps(summary), flush=True)


def _trace(net: object, buffer: Buffer, rng: np.random.Generator, torch: object) -> float:
    """The final network's loss on the whole buffer (for the smoke test's 'loss goes down')."""
    import torch as T

    n = buffer.size
    with T.no_grad():
        q = net(T.from_numpy(buffer.obs[:n]), T.arange(n), T.from_numpy(buffer.cards[:n]),
                T.from_numpy(buffer.reading[:n]))
        return float(T.mean((q - T.from_numpy(buffer.target[:n])) ** 2))


def plot(csv_path: str, png: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    with open(csv_path) as fh:
        rows = list(csv.DictReader(fh))
    minutes = [float(r["seconds"]) / 60 for r in rows]
    fig, ax = plt.subplots(figsize=(7, 4), dpi=110)
    ax.plot(minutes, [100 * float(r["vs_random"]) for r in rows], marker="o", label="vs random team")
    ax.plot(minutes, [100 * float(r["vs_greedy"]) for r in rows], marker="s", label="vs native greedy (≈ L1) team")
    ax.axhline(50, color="grey", lw=0.8, ls=":")
    ax.axhline(75, color="tab:blue", lw=0.8, ls="--")
    ax.set_xlabel("training time (minutes, one torch thread, shared 2-core machine)")
    ax.set_ylabel("first hands won (%)")
    ax.set_ylim(0, 100)
    ax.set_title("Guandan DMC: greedy policy, fixed deals, both seatings")
    ax.legend(loc="center right")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(png)
    print(f"wrote {png}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", default="/tmp/guandan_dmc")
    p.add_argument("--minutes", type=float, default=17.0)
    p.add_argument("--steps", type=int, default=None, help="stop after this many actor steps")
    p.add_argument("--tables", nargs="+", default=["random:64", "greedy:48"],
                   help="KIND:N groups of tables: self, random, greedy, plan")
    p.add_argument("--hidden", type=int, default=256)
    p.add_argument("--head", type=int, default=128)
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--batch", type=int, default=512)
    p.add_argument("--replay", type=float, default=2.0, help="rows trained per row generated")
    p.add_argument("--buffer", type=int, default=200_000)
    p.add_argument("--eps", type=float, default=0.1)
    p.add_argument("--level-weight", type=float, default=0.5,
                   help="reward per level gained besides 1 for the hand (reward_weights)")
    p.add_argument("--eval-every", type=float, default=120.0, help="seconds; 0: no evaluation")
    p.add_argument("--eval-boards", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--loss-trace", action="store_true")
    p.add_argument("--plot", metavar="CSV")
    p.add_argument("--png", default="docs/guandan_dmc_curve.png")
    args = p.parse_args(argv)
    if args.plot:
        plot(args.plot, args.png)
        return 0
    train(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
