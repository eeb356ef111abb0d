"""The bench's opponents of other styles (tienlen.games.guandan.styles): each plays legally
and keeps its habit, and each differs from L2 (issue 35: a gain must not be a fit to L2)."""

from __future__ import annotations

import pytest

from tienlen.guandan import Match
from tienlen.games.guandan.bots import PlanBot, is_bot_spec, make_bot
from tienlen.games.guandan.styles import CLOSE_TO_OUT, STYLES, StyleBot, _is_control


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


def test_the_bomber_bombs_an_opponents_trick():
    for view, decision, _ in (r for seed in range(6) for r in _decisions("bomber", seed)):
        owner = view.pile_owner
        if view.pile is not None and owner not in (view.seat, view.partner) \
                and any(p.is_bomb for p in view.legal_plays):
            assert decision.kind == "play" and decision.cards.is_bomb


def test_the_hoarder_keeps_control_cards_while_no_one_is_close():
    spent = 0
    for view, decision, _ in (r for seed in range(6) for r in _decisions("hoarder", seed)):
        close = any(0 < view.hand_sizes[s] <= CLOSE_TO_OUT
                    for s in range(4) if s not in (view.seat, view.partner))
        if decision.kind == "play" and _is_control(decision.cards, view.level) and not close \
                and len(decision.cards.cards) < len(view.hand) and view.can_pass:
            spent += 1
    assert spent == 0


def test_the_longest_style_leads_its_longest_play():
    for view, decision, _ in (r for seed in range(4) for r in _decisions("longest", seed)):
        if view.pile is None:
            assert decision.cards.size == max(p.size for p in view.legal_plays)


def test_styles_are_bot_specs():
    assert all(is_bot_spec(f"style:{s}") for s in STYLES)
    assert not is_bot_spec("style:") and not is_bot_spec("style:timid")
    with pytest.raises(ValueError, match="unknown style 'timid'"):
        make_bot("style:timid")
    assert isinstance(make_bot("STYLE:Bomber", seed=2), StyleBot)
