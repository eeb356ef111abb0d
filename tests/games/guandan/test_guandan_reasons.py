"""The Guandan bots' reasons as values (tienlen.games.guandan.explain): every reason code has an
English and a Chinese wording over the same fields, the bots build their reasons from the
codes, and the English wording is the reason text the bots always gave."""

from __future__ import annotations

import pickle
import re
import string

import pytest

from tienlen import _guandan
from tienlen.guandan import Game, classify
from tienlen.games.guandan.bots import make_bot, plan_decision
from tienlen.games.guandan.hints import hint
from tienlen.games.guandan.explain import LANGS, REASON_WORDS, Explanation

_FORMATTER = string.Formatter()
# English words a Chinese wording must not contain (card ranks like J Q K A, SJ/BJ and
# numbers are not words).
_ENGLISH_WORD = re.compile(r"[A-Za-z]{3,}")


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in _FORMATTER.parse(template) if name}


def _sample(name: str) -> object:
    """A value for a field of that name, as the bots fill it."""
    if name in ("play", "plan"):
        return classify("6s 6d", 5)[0]
    if name in ("base", "how"):
        return Explanation("DEALS_PLAN", deals=12) if name == "how" else Explanation("GO_OUT")
    if name == "deals":
        return 400
    return -0.125


@pytest.mark.parametrize("code", sorted(REASON_WORDS))
def test_every_reason_code_has_both_wordings_over_the_same_fields(code: str) -> None:
    words = REASON_WORDS[code]
    assert set(words) == set(LANGS) == {"en", "zh"}
    assert _fields(words["en"]) == _fields(words["zh"]), code
    why = Explanation(code, **{name: _sample(name) for name in _fields(words["en"])})
    en, zh = why.text("en"), why.text("zh")
    assert en and zh and en != zh
    assert re.search(r"[\u4e00-\u9fff]", zh), zh
    assert not _ENGLISH_WORD.findall(zh), (code, zh)
    assert str(why) == en
    assert pickle.loads(pickle.dumps(why)) == why


def test_every_plan_reason_of_the_core_has_a_code() -> None:
    # The core's PLAN_REASONS names are the plan's reason codes ("nothing" is NOTHING_BEATS).
    for name in _guandan.PLAN_REASONS:
        assert name in REASON_WORDS or name == "PASS_NOTHING", name


def test_an_unknown_code_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown reason code"):
        Explanation("LEAD_SOMETHING")


def test_a_pass_in_a_search_reason_is_worded_as_passing_in_each_language() -> None:
    why = Explanation("SEARCH_TAKE", play=classify("Ks", 5)[0], plan=None,
                      how=Explanation("DEALS_SOLVED", deals=7), rate=0.5, win=0.75,
                      base_rate=0.25, base_win=0.5)
    assert why.text("en") == ("single K: it takes the trick at a price worth paying. On 7 deals "
                              "of the cards you cannot see, each played out perfectly by both "
                              "teams, it wins the hand 75% of the time and scores +0.50 levels "
                              "a hand; passing 50% and +0.25")
    assert "过牌是 50% 和 +0.25 级" in why.text("zh") and "单张 K" in why.text("zh")


def test_the_bots_reasons_are_their_explanations_worded_in_english() -> None:
    game = Game(hands=["3s 3d 9s Js", "4s 5s", "6s 7s", "8s Ks"], leader=3)
    game.play("8s")
    view = game.view(0)
    plan = plan_decision(view)
    assert plan.why is not None and plan.why.code == "FOLLOW_GROUP"
    assert plan.reason == "single 9 beats it without breaking your plan" == plan.why.text("en")
    for level in ("L1", "L2", "L3"):
        d = make_bot(level, seed=1, iterations=40).explain(view) if level == "L3" else \
            make_bot(level, seed=1).explain(view)
        assert d.why is not None and d.reason == d.why.text("en")
        assert d.reason_in("zh") == d.why.text("zh") != d.reason
    h = hint(view)
    assert h.why is not None and h.why.codes()[0].startswith("SEARCH_")
    assert h.reason == h.why.text("en") and "deals of the cards you cannot see" in h.reason
    assert "你看不到的牌" in h.reason_in("zh")
