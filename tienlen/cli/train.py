"""``tienlen train``: the one Deep Monte Carlo trainer (:mod:`tienlen.rl.dmc`) for any game
with an RL encoder: actors on every core or on a Dask cluster, a learner, checkpoints that
resume. Needs the ``[train]`` extra (torch); the parser loads without it."""

from __future__ import annotations

import argparse
import json

from tienlen.cli.common import Subparsers

__all__ = ["add"]


def add(subparsers: Subparsers) -> None:
    from tienlen.table.registry import DEFAULT_GAME

    parser = subparsers.add_parser(
        "train",
        help="train a bot by Deep Monte Carlo self-play (needs the [train] extra)",
        description=(
            "Train a Q-network of (observation, action) pairs by Deep Monte Carlo, as "
            "DouZero and DanZero do: actor processes play the game's native tables "
            "epsilon-greedily and send each decision with its return to a learner. OUT "
            "gets checkpoint.pt (--resume goes on from it), dmc.pt (the bot: --bots "
            "dmc:OUT/dmc.pt) and curve.csv. docs/rl.md has the commands and numbers."),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=("examples:\n"
                "  tienlen train --game guandan --out runs/gd --minutes 30\n"
                "  tienlen train --game guandan --out runs/gd --actors 2 --minutes 30\n"
                "  tienlen train --game guandan --out runs/gd --scheduler local:4\n"
                "  tienlen train --game guandan --out runs/gd --resume --minutes 60\n"
                "  tienlen train --game guandan --out runs/bc --teacher L2 --imitate"))
    parser.add_argument("--game", default=DEFAULT_GAME, help="the game (default: %(default)s)")
    parser.add_argument("--out", required=True, metavar="DIR", help="where the run's files go")
    parser.add_argument("--actors", type=int, default=1, metavar="N",
                        help="actor processes on this machine (default: %(default)s)")
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help="run the actors on a Dask cluster instead: local:N (N workers on "
                             "loopback) or tcp://HOST:PORT (the [dask] extra)")
    parser.add_argument("--tables", nargs="+", default=["self:64"], metavar="KIND:N",
                        help="each actor's tables: self (every seat learns) or a native "
                             "policy (random, greedy, plan) to play against, N tables each "
                             "(default: self:64)")
    parser.add_argument("--minutes", type=float, default=None,
                        help="stop after this long (default: 10 unless --decisions)")
    parser.add_argument("--decisions", type=int, default=None,
                        help="stop after this many decisions with their returns")
    parser.add_argument("--device", default="cpu", help="the learner's torch device (cpu, "
                        "cuda, mps; default: %(default)s)")
    parser.add_argument("--resume", action="store_true",
                        help="go on from OUT/checkpoint.pt (its counters, weights, optimizer)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hidden", type=int, default=256)
    parser.add_argument("--head", type=int, default=128)
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--batch", type=int, default=512)
    parser.add_argument("--replay", type=float, default=2.0,
                        help="rows trained per row generated (default: %(default)s)")
    parser.add_argument("--eps", type=float, default=0.1, help="exploration (default: %(default)s)")
    parser.add_argument("--task-decisions", type=int, default=4096, metavar="N",
                        help="decisions an actor sends back at a time (default: %(default)s)")
    parser.add_argument("--save-every", type=float, default=60.0, metavar="S")
    parser.add_argument("--eval-every", type=float, default=120.0, metavar="S",
                        help="seconds between evaluations against native teams; 0: none")
    parser.add_argument("--eval-boards", type=int, default=100, metavar="N")
    parser.add_argument("--teacher", metavar="POLICY",
                        help="start by imitating a native policy of the game (Guandan: "
                             "random, greedy, plan or L2, the policy L2 plays): each decision takes its action "
                             "with a probability falling from 1 to 0 over --teacher-until")
    parser.add_argument("--imitate", action="store_true",
                        help="behaviour cloning instead of DMC (needs --teacher): the "
                             "network learns to rank the teacher's action first among each "
                             "decision's legal actions, on states of the teacher's and its own "
                             "play (DAgger-style; the teacher's share falls over "
                             "--teacher-until)")
    parser.add_argument("--imitate-rows", type=int, default=64, metavar="N",
                        help="--imitate: the most legal actions a decision keeps, the "
                             "teacher's and a sample of the others (default: %(default)s)")
    parser.add_argument("--teacher-until", type=float, default=0.5, metavar="FRACTION",
                        help="the part of the run the teacher fades over (default: %(default)s)")
    parser.add_argument("--quiet", action="store_true", help="no progress line")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from tienlen.rl.dmc import TrainConfig, train

    minutes = args.minutes if args.minutes is not None or args.decisions is not None else 10.0
    config = TrainConfig(
        game=args.game, out=args.out, actors=args.actors, scheduler=args.scheduler,
        tables=tuple(args.tables), minutes=minutes, decisions=args.decisions,
        task_decisions=args.task_decisions, device=args.device, seed=args.seed,
        hidden=args.hidden, head=args.head, lr=args.lr, batch=args.batch, replay=args.replay,
        eps=args.eps, save_every=args.save_every, eval_every=args.eval_every,
        eval_boards=args.eval_boards, resume=args.resume, progress=not args.quiet,
        teacher=args.teacher, teacher_until=args.teacher_until, imitate=args.imitate,
        imitate_rows=args.imitate_rows)
    summary = train(config)
    print(json.dumps(summary))
    return 0
