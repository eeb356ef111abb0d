"""This tree's L1 and L2 against the same bots as an earlier commit wrote them: a duplicate
arena per level and ruleset, to check that a change to the bots did not cost strength.

    python bench/bots_vs_commit.py --commit 2fc7907 --games 4000

``--commit`` names the git commit whose ``tienlen/bots/{base,greedy,heuristic}.py`` are the
"old" bots (2fc7907: main before issue 13's rule-aware bomb reasoning). They are read with
``git show`` into a temporary package and run against this tree's core, splits and views.
Four players, lineup [new, old, new, old], every deal in every seat rotation, fixed seed;
for each level and each ruleset (the contract, the Southern rules) it prints the paired
mean-place difference new - old (negative: the new bots finish higher) and CPU seconds,
then how many decisions differ: over ``--deals`` seeded deals played by four copies of the
new bot, how often the old one, asked the same view, would have chosen otherwise.
Decisions are deterministic, so the numbers are exact reruns, not timings.
"""

from __future__ import annotations

import argparse
import importlib
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from tienlen.arena import simulate
from tienlen.games.tienlen.bots import Bot, GreedyBot, HeuristicBot
from tienlen.games.tienlen.game import Game
from tienlen.games.tienlen.rules import Rules

ROOT = Path(__file__).resolve().parent.parent


def _old_bots(commit: str, where: Path) -> tuple[type, type]:
    """The commit's GreedyBot and HeuristicBot, as subclasses of this tree's Bot (the
    arena's type check), their own is_bomb kept."""
    package = where / "oldbots"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    for name in ("base", "greedy", "heuristic"):
        text = subprocess.run(["git", "show", f"{commit}:tienlen/bots/{name}.py"], cwd=ROOT,
                              check=True, capture_output=True, text=True).stdout
        text = text.replace("from .. import ", "from tienlen import ")
        text = text.replace("from ..", "from tienlen.")
        text = text.replace("from .split import", "from tienlen.games.tienlen.bots.split import")
        if name != "base":
            # Bot, PASS and the protocol from this tree; is_bomb from the commit's base.
            text = text.replace("from .base import ", "from tienlen.games.tienlen.bots.base import ")
            text += "\nfrom oldbots.base import is_bomb  # noqa: E402,F811\n"
            text = text.replace('level = "L1"', 'level = "L1old"').replace(
                'level = "L2"', 'level = "L2old"')
        (package / f"{name}.py").write_text(text, encoding="utf-8")
    sys.path.insert(0, str(where))
    greedy = importlib.import_module("oldbots.greedy")
    heuristic = importlib.import_module("oldbots.heuristic")
    return greedy.GreedyBot, heuristic.HeuristicBot


def _differing(new: Bot, old: Bot, rules: Rules, deals: int) -> tuple[int, int]:
    """(decisions where ``old`` would choose otherwise, decisions) over ``deals`` seeded
    deals played by ``new`` in every seat."""
    differ = total = 0
    for seed in range(deals):
        game = Game(4, seed=seed, rules=rules)
        while not game.is_over:
            view = game.view(game.turn)  # type: ignore[arg-type]
            move = new.choose(view)
            differ += move != old.choose(view)
            total += 1
            game.act(move)
    return differ, total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--commit", default="2fc7907")
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--deals", type=int, default=300)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        old_greedy, old_heuristic = _old_bots(args.commit, Path(tmp))
        for level, new, old in (("L1", GreedyBot, old_greedy), ("L2", HeuristicBot, old_heuristic)):
            for rules in (Rules(), Rules.southern()):
                start = time.process_time()
                result = simulate("tienlen", [new, old, new, old], args.games, seed=args.seed,
                                  rules=rules)
                comparison = result.compare([0, 2], [1, 3])
                print(f"{level} {rules.name}: {comparison} "
                      f"(cpu {time.process_time() - start:.1f} s)", flush=True)
                differ, total = _differing(new(seed=1), old(seed=1), rules, args.deals)
                print(f"  {differ} of {total} decisions differ over {args.deals} deals",
                      flush=True)


if __name__ == "__main__":
    main()
