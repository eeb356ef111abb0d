"""The review of a hand (复盘, issue 38), for any game whose spec has the review hooks
(:mod:`tienlen.table.review`): it walks a finished hand's record, takes every decision the
chosen seat made, with the view that seat had then, asks the game's evaluator for the value
of the action chosen and of the best ones it knows (the search bot's sampled deals), and
marks a mistake where the choice was worse than the best by more than the sampling error of
the difference (``z`` standard errors, paired on the same deals) *and* by more than the
threshold.

It names no game. It is bounded in time (``time_s``: a decision the time leaves out is
reported as not evaluated) and reproducible: each decision's deals are drawn from
:func:`tienlen.seeds.review_seed` of the hand's deal seed, the decision's turn and the
review's ``seed``, so the same hand reviewed with the same deals gives the same values.

>>> from tienlen.table import get_spec
>>> spec = get_spec("tienlen")
>>> state = spec.new_match(seed=2, players=2, options={"hands": 1})
>>> bots = [spec.make_bot("L1", seed=s) for s in range(2)]
>>> while state.phase != "over":
...     seat = state.turn
...     _ = state.apply(bots[seat].act(state.bot_view(seat)), seat)
>>> record = records_of(spec, state)[-1]
>>> review = review_hand(spec, record, seat=0, deals=8)
>>> review.decisions == len([s for s in record.steps if s.seat == 0]), review.complete
(True, True)
"""

from .service import (Review, ReviewError, Reviewer, game_of_file, pick_record, records_of,
                      review_hand, reviewable, Z_MISTAKE)

__all__ = ["Review", "ReviewError", "Reviewer", "records_of", "review_hand", "reviewable",
           "pick_record", "game_of_file", "Z_MISTAKE"]
