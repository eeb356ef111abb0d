"""The bots' bomb and cut reasoning reads the game's rule table (issue 13).

Under the contract they must decide exactly as they did when they looked at the kind only:
``tests/data/bot_decisions.json`` holds the decisions the bots (and the L1/L2 hints) made
on 600 seeded positions before the change (``tests/make_bot_decisions.py``), and every one
is replayed here. Under the Southern rules they follow the R11.1 table.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from make_bot_decisions import BOT_SEED, LEVELS, decisions, replay

FIXTURE = Path(__file__).parent / "data" / "bot_decisions.json"


def _fixture() -> dict[str, object]:
    data: dict[str, object] = json.loads(FIXTURE.read_text(encoding="utf-8"))
    return data


def test_the_fixture_was_made_under_the_contract_with_the_bot_seed() -> None:
    data = _fixture()
    assert data["rules"] == "default" and data["bot_seed"] == BOT_SEED
    positions = data["positions"]
    assert isinstance(positions, list) and len(positions) == 600
    # It exercises the bomb reasoning: the L2 bot bombs in some positions, and passes,
    # blocks and follows in others.
    rules = {p["L2_rule"] for p in positions}
    assert {"bomb", "block", "follow", "lead", "pass"} <= rules


def test_contract_decisions_are_unchanged() -> None:
    differences = []
    for index, position in enumerate(_fixture()["positions"]):  # type: ignore[attr-defined]
        game = replay(position)
        assert game.rules.name == "default"
        now = decisions(game)
        for key in (*LEVELS, "L2_rule", "hint_L1", "hint_L2"):
            if now[key] != position[key]:
                differences.append((index, key, position[key], now[key]))
    assert not differences, differences[:5]
