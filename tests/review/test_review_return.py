"""The review of Guandan's return (还贡, issue 38): a return is priced like a play, from the
receiver's view at that moment (deals consistent with it, the hand played out by the plan
after each candidate card, equivalent cards priced once). On crafted hands a return that
breaks a bomb or a straight flush, when a lone low card was there to give back, is marked
with the better return; the bot's own return is not; a played match's returns are in the
review with their kind."""

from __future__ import annotations

import json
import random

import pytest

from tienlen.games.guandan.cards import Card
from tienlen.games.guandan.game import Game, tribute_candidates
from tienlen.review import Reviewer, pick_record, records_of
from tienlen.table import get_spec
from tienlen.table.review import Budget, Record, Step

_BOMB = "6s 6h 6c 6d 3c 8s 8h 9c 9d 10s 10h Js Jh Jd Qs Qc Kh Kd As 4s 4h 4c 5d 5c 5h 7s 7d"
_FLUSH = "5s 6s 7s 8s 9s 3c As Ks Qs Ah Kh Qh Ac Kc Qc Ad Kd Qd As Ks Qs Ah Kh Qh Ac Kc Qc"


def _return_record(mine: str, returned: str) -> Record:
    """Seat 0 went out first last hand and its partner last (seat 2): seat 3 pays it
    tribute. Seat 0 holds ``mine``; the other hands are the rest of the two decks, dealt
    from a fixed shuffle. A one-step record: seat 0 returning ``returned``."""
    rest = [Card(i).ascii() for i in range(54)] * 2
    for name in mine.split():
        rest.remove(name)
    random.Random(1).shuffle(rest)
    hands = [mine, " ".join(rest[:27]), " ".join(rest[27:54]), " ".join(rest[54:])]
    game = Game(hands=hands, level=2, previous_order=(0, 1, 3, 2))
    payer = game.view(3)
    game.give_tribute(tribute_candidates(payer.hand, 2, payer.config)[0], 3)
    view = game.view(0)
    assert view.tribute_step == "return"
    step = Step(0, 1, {"kind": "return_tribute", "card": returned, "to": 3}, view, 6)
    return Record("guandan", 1, 2, 12345, 4, tuple(tuple(h.split()) for h in hands), (step,))


@pytest.mark.parametrize("mine, broken", [(_BOMB, "6c"), (_FLUSH, "7s")],
                         ids=["bomb", "straight flush"])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_return_that_breaks_a_bomb_or_a_straight_flush_is_marked(mine: str, broken: str,
                                                                   lang: str) -> None:
    spec = get_spec("guandan")
    review = Reviewer(spec, _return_record(mine, broken), 0, deals=64, lang=lang).run()
    (decision,) = review.evaluations
    assert decision.kind == "return" and decision.evaluated
    assert decision.mistake, decision.to_json()
    assert decision.best.action == {"kind": "return_tribute", "card": "3c", "to": 3}
    assert decision.bot == decision.best.action          # the bot returns the lone 3 too
    assert decision.cost > review.threshold and decision.cost > 2 * decision.cost_error
    assert "3♣" in decision.why and ("return" in decision.why if lang == "en"
                                     else "还" in decision.why)
    line = decision.to_json()
    assert line["kind"] == "return" and line["mistake"] and line["best"]["card"] == "3c"
    json.dumps(line)


def test_the_bots_return_is_not_marked() -> None:
    spec = get_spec("guandan")
    review = Reviewer(spec, _return_record(_FLUSH, "3c"), 0, deals=64).run()
    (decision,) = review.evaluations
    assert decision.evaluated and not decision.mistake and decision.cost == 0.0
    assert decision.chosen.bot


def test_equivalent_return_cards_are_priced_once() -> None:
    # 5s 6s 8s 9s would each break the straight flush in its own way; the two low 4s of
    # _BOMB (4s 4h 4c: a triple either way) are one choice, priced once
    spec = get_spec("guandan")
    record = _return_record(_BOMB, "4s")
    values = spec.evaluate(record.steps[0].view, [dict(record.steps[0].action)], 7, Budget(8))
    cards = [v.action["card"] for v in values]
    assert cards[0] == "4s" and len(cards) == len(set(cards))
    assert not {"4h", "4c"} & set(cards)
    assert sum(v.bot for v in values) == 1


def test_a_played_matchs_returns_are_reviewed_with_their_kind() -> None:
    spec = get_spec("guandan")
    state = spec.new_match(seed=1, options={"max_hands": 2})
    bots = [spec.make_bot("L2", seed=s) for s in range(4)]
    while state.phase != "over":
        if state.phase == "hand_over":
            state.next_hand()
            continue
        seat = state.turn
        state.apply(bots[seat].act(state.bot_view(seat)), seat)
    record = pick_record(records_of(spec, state), 2)
    # a double tribute: seat 2 (the first out) returns first, seat 0 second; each is priced
    # from its own view (seat 2's with seat 0's return still to come, made as L2 makes it)
    returns = [s.seat for s in record.steps if s.action["kind"] == "return_tribute"]
    assert returns == [2, 0]
    for seat in returns:
        review = Reviewer(spec, record, seat, deals=16).run()
        kinds = [e.kind for e in review.evaluations]
        assert kinds.count("return") == 1 and set(kinds) <= {"return", "play"}
        (returned,) = [e for e in review.evaluations if e.kind == "return"]
        assert returned.evaluated and returned.to_json()["kind"] == "return"
        assert returned.bot is not None and not returned.mistake   # L2 returned as L3 would
        assert returned.bot == dict(returned.chosen.action)
