"""Issue 39 #13 for Tiến Lên: the AI-debug log explains a bot's own move in the third person
("it keeps its pair of Ks"), while a hint still advises the person ("your pair of Ks")."""

from __future__ import annotations

import re

from tienlen.games.tienlen.explain import _out_of_turn_words
from tienlen.games.tienlen.rules import Rules
from tienlen.table import get_spec

YOU = re.compile(r"\byou(r)?\b", re.IGNORECASE)


def test_a_bots_reasons_never_speak_to_you_over_whole_hands() -> None:
    spec = get_spec("tienlen")
    assert "bot" in spec.reason_voices
    said_you = 0
    checked = 0
    for seed in range(6):
        state = spec.new_match(seed=seed, options={"hands": 1})
        bots = [spec.make_bot("L2" if s % 2 else "L1", seed=s) for s in range(4)]
        while state.turn is not None and state.phase == "play":
            seat = state.turn
            view = state.bot_view(seat)
            action, own = bots[seat].explain(view, voice="bot")
            _, advice = bots[seat].explain(view)
            assert not YOU.search(own), own
            said_you += bool(YOU.search(advice))
            checked += 1
            state.apply(action, seat)
    assert checked > 100 and said_you > 10     # the hint's voice still speaks to you


def test_the_locked_out_words_have_both_voices() -> None:
    rules = Rules.southern()
    assert not YOU.search(_out_of_turn_words(rules, bot=True))
    if "you" in _out_of_turn_words(rules):
        assert _out_of_turn_words(rules, bot=True).startswith("it ")
