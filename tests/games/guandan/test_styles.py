"""The bench's opponents of other styles (tienlen.games.guandan.styles): each plays legally
and keeps its habit, and each differs from L2 (issue 35: a gain must not be a fit to L2)."""

from __future__ import annotations

import pytest

from tienlen.guandan import Match
from tienlen.games.guandan.bots import PlanBot, is_bot_spec, make_bot
from tienlen.games.guandan.bots import plan_plays
from tienlen.games.guandan.styles import BOMB_WHEN, LATE, STYLES, StyleBot, _is_control


def _decisions(style: str, seed: int, hands: int = 2):
    """(view, the style's decision, L2's) at every play decision of the style's seats in a
    match of two style seats against two L2 seats, played by the checked path."""
    match = Match(seed=seed)
    bots = [make_bot(f"style:{style}" if s % 2 == 0 else "L2", seed=s) for s in range(4)]
    plan = PlanBot(seed=0)
    out = []
    while not match.is_over and match.hand_number < hands:
        seat = match.turn
        view = match.game.view(seat)
        decision = bots[seat].explain(view)
        if seat % 2 == 0 and view.tribute_step is None:
            out.append((view, decision, plan.explain(view)))
        match.act(decision.kind, decision.cards, seat)     # checked: illegal would raise
    return out


@pytest.mark.parametrize("style", STYLES)
def test_each_style_plays_legally_and_differs_from_L2(style):
    rows = [r for seed in range(4) for r in _decisions(style, seed)]
    differ = sum((d.kind, d.cards) != (p.kind, p.cards) for _, d, p in rows)
    assert len(rows) > 40 and differ >= 3


def test_the_bomber_bombs_an_opponents_trick_early():
    bombed = 0
    for view, decision, _ in (r for seed in range(6) for r in _decisions("bomber", seed)):
        owner = view.pile_owner
        if view.pile is not None and owner not in (view.seat, view.partner) \
                and view.hand_sizes[owner] <= BOMB_WHEN \
                and any(p.is_bomb for p in view.legal_plays):
            assert decision.kind == "play" and decision.cards.is_bomb
            bombed += 1
    assert bombed > 0


def test_the_hoarder_keeps_control_cards_until_late():
    kept = 0
    for view, decision, plan in (r for seed in range(6) for r in _decisions("hoarder", seed)):
        late = len(view.hand) <= LATE or any(0 < view.hand_sizes[s] <= LATE
                                             for s in range(4) if s not in (view.seat, view.partner))
        if view.pile is not None and not late and view.can_pass:
            assert not (decision.kind == "play" and _is_control(decision.cards, view.level))
            kept += plan.kind == "play" and _is_control(plan.cards, view.level)
    assert kept > 0                  # L2 would have spent one where the hoarder passed


def test_the_longest_style_leads_its_plans_longest_group():
    for view, decision, _ in (r for seed in range(4) for r in _decisions("longest", seed)):
        groups = [p for p in plan_plays(view.hand, view.level) if not p.is_bomb]
        if view.pile is None and groups and decision.kind == "play" and not decision.cards.is_bomb:
            assert decision.cards.size == max(p.size for p in groups)


def test_styles_are_bot_specs():
    assert all(is_bot_spec(f"style:{s}") for s in STYLES)
    assert not is_bot_spec("style:") and not is_bot_spec("style:timid")
    with pytest.raises(ValueError, match="unknown style 'timid'"):
        make_bot("style:timid")
    assert isinstance(make_bot("STYLE:Bomber", seed=2), StyleBot)
