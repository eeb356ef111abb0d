"""Train sb3-contrib's MaskablePPO on the Gymnasium env, save it, and seat it in the arena.

    pip install torch==2.13.0 --index-url https://download.pytorch.org/whl/cpu
    pip install -e ".[train]"
    nice python examples/train_maskable_ppo.py --minutes 15 --out runs/ppo_random

The policy trains against three RandomBots (``--opponents``) from the learner's seat, on
the vector part of the observation with the action mask applied by MaskablePPO. After
training it is saved (``OUT.zip``) and evaluated through the arena as the bot spec
``ppo:OUT.zip`` (the same spec ``tienlen play --bots ppo:OUT.zip`` and ``tienlen sim``
take): duplicate games, every deal in every seat rotation. Results and the command are
recorded in docs/rl.md.

``--env native`` trains on the native vectorised env instead (``tienlen.rl.sb3``: the same
encoding, native ``random`` / ``greedy`` / ``plan`` opponents), where PPO itself, not the
env, sets the pace.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path


def build_envs(opponents: list[str], n_envs: int, seed: int):
    from stable_baselines3.common.vec_env import DummyVecEnv

    from tienlen.rl import TienlenEnv, VectorObservation

    def make(k: int):
        def thunk():
            env = VectorObservation(TienlenEnv(opponents=tuple(opponents), legal_actions=False))
            env.reset(seed=seed * 1000 + k)
            return env
        return thunk

    return DummyVecEnv([make(k) for k in range(n_envs)])


def train(args: argparse.Namespace) -> Path:
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback

    torch.set_num_threads(args.torch_threads)
    if args.env == "native":
        # The native vectorised env: the same encoding, native opponents (random, greedy,
        # plan), thousands of times the Python env's steps a second.
        from tienlen.rl.sb3 import NativeVecEnv

        envs = NativeVecEnv(args.n_envs, tuple(args.opponents), seed=args.seed)
    else:
        envs = build_envs(args.opponents, args.n_envs, args.seed)
    model = MaskablePPO(
        "MlpPolicy", envs, learning_rate=args.lr, n_steps=args.n_steps, batch_size=args.batch,
        n_epochs=4, gamma=0.99, gae_lambda=0.95, ent_coef=0.01, seed=args.seed, device="cpu",
        policy_kwargs={"net_arch": [256, 256]}, verbose=0)

    deadline = time.monotonic() + args.minutes * 60

    class Budget(BaseCallback):
        """Stop at the wall-clock budget; log progress once a rollout."""

        def _on_step(self) -> bool:
            return time.monotonic() < deadline

        def _on_rollout_end(self) -> None:
            eps = [e["r"] for e in self.model.ep_info_buffer] if self.model.ep_info_buffer else []
            mean = sum(eps) / len(eps) if eps else float("nan")
            print(f"{self.num_timesteps:>9} steps  {time.monotonic() - start:7.0f} s  "
                  f"mean episode reward {mean:.3f}", flush=True)

    from stable_baselines3.common.vec_env import VecMonitor

    model.set_env(VecMonitor(envs))
    start = time.monotonic()
    model.learn(total_timesteps=args.timesteps, callback=Budget())
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    model.save(out)
    print(f"trained {model.num_timesteps} steps in {time.monotonic() - start:.0f} s; saved {out}.zip")
    return out.with_suffix(".zip") if out.suffix != ".zip" else out


def evaluate(path: Path, against: str, games: int, seed: int, jobs: int) -> dict:
    from tienlen.arena import simulate

    spec = f"ppo:{path}"
    result = simulate("tienlen", [spec, against, against, against], games, seed=seed, jobs=jobs)
    stats = result.bot(0)
    print(result.table())
    return {"against": against, "games": games, "mean_place": stats.mean_place.value,
            "interval": [stats.mean_place.low, stats.mean_place.high]}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", default="runs/ppo_random", help="where to save the policy (.zip)")
    p.add_argument("--opponents", nargs="+", default=["random"] * 3,
                   help="bot levels (gym env) or native policies random/greedy/plan (native env)")
    p.add_argument("--env", choices=("gym", "native"), default="gym",
                   help="train on the Gymnasium env against Python bots (default) or on the "
                        "native vectorised env (tienlen.rl.sb3.NativeVecEnv)")
    p.add_argument("--minutes", type=float, default=15.0, help="wall-clock training budget")
    p.add_argument("--timesteps", type=int, default=10_000_000, help="step cap")
    p.add_argument("--n-envs", type=int, default=8)
    p.add_argument("--n-steps", type=int, default=256)
    p.add_argument("--batch", type=int, default=512)
    p.add_argument("--lr", type=float, default=3e-4)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--torch-threads", type=int, default=1,
                   help="torch CPU threads (1: on a shared machine more threads only spin)")
    p.add_argument("--eval-games", type=int, default=2000, help="arena games per opponent (0: skip)")
    p.add_argument("--eval-against", nargs="+", default=["random", "L1"])
    p.add_argument("--jobs", type=int, default=1, help="arena worker processes")
    args = p.parse_args()
    path = train(args)
    results = [evaluate(path, level, args.eval_games, args.seed, args.jobs)
               for level in args.eval_against if args.eval_games]
    if results:
        Path(str(path) + ".eval.json").write_text(json.dumps(results, indent=2))
        for r in results:
            print(f"mean place vs three {r['against']}: {r['mean_place']:.3f} "
                  f"(95% {r['interval'][0]:.3f}..{r['interval'][1]:.3f}, {r['games']} games)")


if __name__ == "__main__":
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    main()
