"""How the files beside this script were written: by the landed code (main at 7ddead2),
extracted with ``git archive main tienlen | tar -x -C /tmp/tplay-main`` and the built cores
copied into it, so that the worktree's editable install is bypassed. Run:
``python tests/data/landed/make_landed.py tests/data/landed`` (not collected by pytest)."""
import sys
sys.meta_path = [f for f in sys.meta_path if "editable" not in repr(f).lower() and "meson" not in repr(f).lower()]
sys.path.insert(0, "/tmp/tplay-main")
import sys, pathlib
out = pathlib.Path(sys.argv[1])
from tienlen.games.guandan.match import Match
from tienlen.games.guandan.bots import make_bot
from tienlen.games.guandan.rules import RuleConfig
m = Match(seed=11)
bots = [make_bot("L1", seed=s) for s in range(4)]
while not m.is_over and len(m.results) < 3:
    seat = m.turn
    m.act(*bots[seat].decide(m.game.view(seat)), seat=seat)
(out / "guandan_match_v1.json").write_text(m.to_json(indent=1) + "\n")
m = Match(seed=4, max_hands=1)
while not m.is_over:
    seat = m.turn
    m.act(*bots[seat].decide(m.game.view(seat)), seat=seat)
(out / "guandan_match_v1_capped.json").write_text(m.to_json() + "\n")
from tienlen.games.tienlen.match import Match as TMatch
from tienlen.games.tienlen.replay import ReplayLabels, game_to_json_with_labels
from tienlen.games.tienlen.bots import make_bot as tmake
tm = TMatch(3, seed=21)
tb = [tmake("L1", seed=s) for s in range(3)]
for hand in (1, 2):
    g = tm.game
    while not g.is_over:
        g.act(tb[g.turn].choose(g.view(g.turn)), seat=g.turn)
    labels = ReplayLabels(("You", "Minh", "Lan"), tm.seed, tm.hand_number)
    (out / f"tienlen_match_hand{hand}_v1.json").write_text(game_to_json_with_labels(g, labels, indent=1) + "\n")
    tm.next_hand()
print("ok")
