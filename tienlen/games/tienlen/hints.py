"""Hints: the move a bot would make for you, and a short reason you can learn from.

The reasons are :mod:`tienlen.games.tienlen.explain`'s (why the bot chose): they come from the L2 hand split (:mod:`tienlen.games.tienlen.bots.split`: which groups the move
keeps intact, which it breaks) and, at level L3, from the search's estimate of the average
finishing place.

>>> from tienlen.games.tienlen.game import Game
>>> game = Game.from_hands(["4s 5c 6d 9h Ks Kh 2s", "3s 8d 10c Jd Qh Ah 7c"])
>>> _ = game.play("3s")
>>> print(hint(game.view(0), level="L2"))
Play 9♥: it keeps your 4-5-6 run, your pair of Ks and your 2♠ for later
>>> _ = game.play("9h"); _ = game.play("Ah")
>>> print(hint(game.view(0), level="L2"))
Pass: your 2♠ is worth more later, when it wins the pile or stops someone going out
>>> h = hint(game.view(0), level="L3", iterations=100)
>>> h.level, 1.0 <= h.average_place <= 2.0
('L3', True)
"""

from __future__ import annotations

from dataclasses import dataclass

from tienlen.games.tienlen.bots import HeuristicBot, SearchBot, make_bot
from tienlen.games.tienlen.bots.base import PASS, BotError, Move
# group_words: imported from here before explain.py had it (issue 34), still importable.
from tienlen.games.tienlen.explain import (Explainer, forced_note, group_words,  # noqa: F401
                                           joined, search_note)
from tienlen.games.tienlen.refusals import Wording
from tienlen.games.tienlen.view import View

__all__ = ["Hint", "hint", "DEFAULT_HINT_ITERATIONS"]

#: Sampled deals per hint at level L3: enough for a stable answer in well under a second.
DEFAULT_HINT_ITERATIONS = 200

_LEVELS = ("random", "L1", "L2", "L3")


@dataclass(frozen=True, slots=True)
class Hint:
    """A suggested move with its reason. ``average_place`` is the L3 search's estimate for
    the move (1 = first out), ``None`` at other levels. ``str(hint)`` reads like
    ``"Play 7♠ 8♦ 9♣: it keeps your pair of Ks and your 2♠ for later"``.

    ``reason`` is a :class:`~tienlen.games.tienlen.refusals.Wording`: every card it names (and any seat)
    is a field, so a screen draws them its own way (:meth:`Wording.parts`) and never
    rewrites the text."""

    move: Move
    reason: str
    level: str
    average_place: float | None = None

    @property
    def is_pass(self) -> bool:
        return self.move is PASS

    def __str__(self) -> str:
        action = "Pass" if self.move is PASS else f"Play {self.move}"
        return f"{action}: {self.reason}"


def hint(view: View, level: str = "L3", *, seed: int = 0,
         iterations: int = DEFAULT_HINT_ITERATIONS, voice: str = "you",
         lang: str = "en") -> Hint:
    """The move the ``level`` bot would make in ``view``, and why.

    Deterministic: the same view, level, seed and ``iterations`` (L3 only) give the same
    hint. Raises :class:`~tienlen.games.tienlen.bots.BotError` (a ``ValueError``) if it is not the
    view's turn or the level is unknown.

    ``voice="bot"`` words the reason about the seat's own move in the third person ("it
    keeps its pair of Ks"), for a bot's move shown beside the table (the room's AI debug
    log); the default advises the person ("it keeps your pair of Ks"). ``lang`` words the
    reason in English or Chinese (:data:`~tienlen.games.tienlen.explain.REASON_LANGS`;
    a ``ValueError`` for another).

    >>> from tienlen.games.tienlen.game import Game
    >>> game = Game.from_hands(["4s 5c 6d 9h Ks Kh 2s", "3s 8d 10c Jd Qh Ah 7c"])
    >>> _ = game.play("3s")
    >>> print(hint(game.view(0), level="L2", lang="zh").reason)
    这手保留你的顺子 4-5-6、你的对子 K和你的2♠以后再出
    """
    canonical = next((name for name in _LEVELS if isinstance(level, str)
                      and name.lower() == level.lower()), None)
    if canonical is None:
        raise BotError(f"unknown hint level {level!r} (expected one of: {', '.join(_LEVELS)})")
    if not view.is_my_turn:
        raise BotError(f"no hint for seat {view.seat}: it is not its turn")
    moves = view.legal_moves()
    can_pass = view.can_pass()
    explain = Explainer(view, moves, voice, lang)
    if canonical == "L3":
        bot = SearchBot(seed, iterations=iterations)
        if len(moves) + can_pass == 1 or view.hand in moves:
            move = bot.choose(view)
            return Hint(move, Wording.concat(explain.reason(move)), canonical)
        forced = bot.forced_win(view)
        if forced is not None and forced.move is not None:  # a win's line is never empty
            # Every hand is known and the solver proves the seat goes out before everyone
            # still playing, so it takes the best place left: say how.
            move = forced.move
            return Hint(move, joined([explain.reason(move), forced_note(forced, lang)], lang), canonical,
                        float(len(view.finished) + 1))
        estimate = bot.evaluate(view)
        move = estimate.best
        return Hint(move, joined([explain.reason(move), search_note(estimate, move, lang)], lang),
                    canonical, estimate.place_of(move))
    if canonical == "L2":
        decision = HeuristicBot(seed).decide(view)
        return Hint(decision.move, Wording.concat(explain.reason(decision.move, decision)),
                    canonical)
    move = make_bot(canonical, seed=seed).choose(view)
    if canonical == "random":
        return Hint(move, Wording(explain.words.random_move), canonical)
    return Hint(move, Wording.concat(explain.reason(move)), canonical)
