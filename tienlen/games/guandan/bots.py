"""Guandan bots: players that choose from one seat's :class:`~tienlen.games.guandan.game.GameView`.

======  ====================  ==========================================================
level   class                 plays
======  ====================  ==========================================================
L1      :class:`GreedyBot`    the plan's basic AI: leads its lowest single, beats with the
                              smallest play that beats
L2      :class:`PlanBot`      splits its hand into groups and plays by the plan, keeps bombs
                              until they matter, lets a partner's winning play stand (the
                              core's plan policy, the one PLAN playouts use)
L3      :class:`SearchBot`    information-set Monte Carlo over the core's native PLAN playouts
random  :class:`RandomBot`     a uniformly random legal action (the floor)
======  ====================  ==========================================================

``dmc:PATH`` seats a trained Deep Monte Carlo network (:class:`tienlen.games.guandan.learned.DmcBot`,
torch needed: the ``[train]`` extra).

Every bot answers :meth:`Bot.decide` with an action ``(kind, cards)`` for the current phase:
``("play", Play)``, ``("pass", None)``, ``("give_tribute", card)`` or
``("return_tribute", card)``.

>>> from tienlen.guandan import Match
>>> match = Match(seed=3)
>>> bots = [make_bot(level, seed=s) for s, level in enumerate(["L2", "L1", "L2", "L1"])]
>>> while match.hand_number < 2:
...     seat = match.turn
...     kind, cards = bots[seat].decide(match.game.view(seat))
...     _ = match.act(kind, cards, seat)
>>> len(match.results)
2
"""

from __future__ import annotations

import math
import os
import random
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from tienlen import _guandan
from tienlen.table.budget import budget_options, check_budget
from tienlen.games.guandan.cards import Cards, _masks_of_ids, _wrap
from tienlen.games.guandan.rules import RuleConfig
from tienlen.games.guandan.game import GameView, return_candidates, single_value, teams_bits, tribute_candidates
from tienlen.games.guandan.plays import Kind, Play, _make
from tienlen.games.guandan.exchange import best_return, best_tribute
from tienlen.games.guandan.explain import Explanation, Weighed
from tienlen.games.guandan.race import hand_scores, match_equity

__all__ = ["Bot", "RandomBot", "GreedyBot", "PlanBot", "SearchBot", "make_bot", "LEVELS", "weakest_first",
           "plan_groups", "plan_plays", "plan_decision", "Decision", "DEFAULT_TIME_MS",
           "is_bot_spec", "POLICY_SPECS", "sample_scores", "score_outcomes"]

#: The level names, weakest first, as the CLI spells them.
LEVELS = ("L1", "L2", "L3")


def play_strength(play: Play) -> tuple[int, int, int, int]:
    """A sort key, weakest first: non-bombs before bombs, then the comparison value, then
    plays without wild cards before plays with them, then fewer cards."""
    value = _guandan.compare_value(play._code, play._level, play._flags)
    return (int(play.is_bomb), value, int(play.uses_wild), play.size)


def weakest_first(plays: Iterable[Play]) -> list[Play]:
    """Plays ordered weakest first (the 提示 button's cycle)."""
    return sorted(plays, key=play_strength)


@dataclass(frozen=True)
class Decision:
    """A bot's choice with the reason a learner can use: ``reason`` in English words and
    ``why``, the same reason as a value (:class:`~tienlen.games.guandan.explain.Explanation`) that
    words itself in any language (``why.text("zh")``)."""

    kind: str
    cards: object
    reason: str
    why: Explanation | None = None

    @classmethod
    def because(cls, kind: str, cards: object, why: Explanation) -> Decision:
        """A decision whose English ``reason`` is ``why``'s wording."""
        return cls(kind, cards, why.text("en"), why)

    def reason_in(self, lang: str) -> str:
        """The reason worded in ``lang`` (English for a decision built without ``why``)."""
        return self.reason if self.why is None else self.why.text(lang)


class Bot:
    """Base class: :meth:`choose` picks a play (None to pass); tribute and return choices
    have sensible defaults."""

    level = "?"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    @property
    def name(self) -> str:
        return self.level

    def decide(self, view: GameView) -> tuple[str, object]:
        d = self.explain(view)
        return d.kind, d.cards

    #: The reason codes of this bot's tribute and return choices.
    _GIVE_REASON, _RETURN_REASON = "GIVE_HIGHEST", "RETURN_LOW"

    def explain(self, view: GameView) -> Decision:
        if view.tribute_step == "give":
            return Decision.because("give_tribute", self.tribute(view),
                                    Explanation(self._GIVE_REASON))
        if view.tribute_step == "return":
            return Decision.because("return_tribute", self.return_card(view),
                                    Explanation(self._RETURN_REASON))
        if view.phase != "play" or view.turn != view.seat:
            raise ValueError(f"seat {view.seat} has nothing to do now")
        return self.choose_play(view)

    def choose_play(self, view: GameView) -> Decision:
        raise NotImplementedError

    def tribute(self, view: GameView) -> int:
        """Any face of the highest allowed value; keep one that completes a bomb if possible."""
        cands = tribute_candidates(view.hand, view.level, view.config)
        counts = Counter(c // 4 if c < 52 else c for c in view.hand.ids)
        return min(cands, key=lambda c: (counts[c // 4 if c < 52 else c], c))

    def return_card(self, view: GameView) -> int:
        """The allowed card that breaks the least: a lone low card first."""
        cands = return_candidates(view.hand, view.level, view.config)
        counts = Counter(c // 4 for c in view.hand.ids if c < 52)
        return min(cands, key=lambda c: (counts[c // 4] if c < 52 else 9,
                                         single_value(c, view.level), c))

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.level} seed={self.seed}>"


class GreedyBot(Bot):
    """L1: lead the lowest single; follow with the smallest play that beats (partner or not)."""

    level = "L1"

    def choose_play(self, view: GameView) -> Decision:
        plays = view.legal_plays
        if view.pile is None:
            singles = [p for p in plays if p.kind is Kind.SINGLE] or list(plays)
            best = min(singles, key=play_strength)
            return Decision.because("play", best, Explanation("LEAD_LOWEST"))
        if not plays:
            return Decision.because("pass", None, Explanation("NOTHING_BEATS_TABLE"))
        return Decision.because("play", min(plays, key=play_strength),
                                Explanation("SMALLEST_BEAT"))


# ---------------------------------------------------------------- the L2 plan

_GROUP_NAMES = {Kind.SINGLE: "single", Kind.PAIR: "pair", Kind.TRIPLE: "triple",
                Kind.FULL_HOUSE: "full_house", Kind.STRAIGHT: "straight",
                Kind.THREE_PAIRS: "three_pairs", Kind.PLATE: "plate", Kind.BOMB: "bomb",
                Kind.STRAIGHT_FLUSH: "straight_flush", Kind.JOKER_BOMB: "joker_bomb"}


def plan_plays(hand: Cards, level: int, config: RuleConfig = RuleConfig()) -> list[Play]:
    """The plan's split of ``hand`` as plays (the core's ``plan_groups``, which the PLAN
    playouts and :class:`PlanBot` use): every card, wilds included, in exactly one group.

    >>> [p.describe() for p in plan_plays(Cards.parse("3s 4d 5c 6h 7s 9s 9d Ks Kd Kc 2h"), 2)]
    ['straight 3-7', '4-card bomb of K', 'pair of 9']

    (the wild 2♥ turns the triple into a bomb: no straight of four lone cards needs it)
    """
    flags = config.flags
    return [_make(_wrap(a, b), code, level, flags)
            for a, b, code in _guandan.plan_groups(hand.once, hand.twice, level, flags)]


def plan_groups(hand: Cards, level: int, wild_count: int = 2) -> list[tuple[str, int, int]]:
    """The plan's split of ``hand`` as (kind, rank, cards) triples; see :func:`plan_plays`.

    >>> plan_groups(Cards.parse("3s 4d 5c 6h 7s 9s 9d Ks Kd Kc"), 2)
    [('straight', 7, 5), ('full_house', 13, 5)]
    """
    config = RuleConfig(wild_count=wild_count)
    return [(_GROUP_NAMES[p.kind], p.rank, p.size) for p in plan_plays(hand, level, config)]


# The core's plan reasons (PLAN_REASONS) whose wording names the play.
_PLAN_NAMES_PLAY = frozenset({"LEAD", "FOLLOW_GROUP", "FOLLOW_BREAK", "BLOCK", "TAKE_OVER",
                              "DENY_WIND"})


def _plan_reason(reason: str, play: Play | None) -> Explanation:
    """The plan's reason as an explanation; an unknown or "nothing" reason is NOTHING_BEATS."""
    if reason in _PLAN_NAMES_PLAY:
        assert play is not None
        return Explanation(reason, play=play)
    if reason in ("GO_OUT", "LEAD_FOR_PARTNER", "BOMB", "PASS_PARTNER", "PASS_KEEP"):
        return Explanation(reason)
    return Explanation("NOTHING_BEATS")


def plan_decision(view: GameView) -> Decision:
    """The plan policy's play for the seat to act in ``view`` (the core's ``plan_move``:
    the same function that plays every seat of a PLAN playout), with its reason."""
    seat, partner = view.seat, view.partner
    sizes = view.hand_sizes
    hand = view.hand
    owner = view.pile_owner
    pile_code = 0 if view.pile is None else view.pile.code
    opponents = tuple(sizes[s] for s in range(4) if s != seat and s != partner)
    flags = view.config.flags
    reason, a, b, code = _guandan.plan_move(
        hand.once, hand.twice, view.level, pile_code, flags,
        owner_partner=owner is not None and owner == partner,
        owner_left=0 if owner is None else sizes[owner], partner_left=sizes[partner],
        opponents_left=opponents)
    why = _guandan.PLAN_REASONS[reason]
    if a == 0:
        return Decision.because("pass", None, _plan_reason(why, None))
    play = _make(_wrap(a, b), code, view.level, flags)
    return Decision.because("play", play, _plan_reason(why, play))


#: How a plan-playing bot chooses its tribute and return cards: ``"plan"`` keeps the best
#: split of the rest of its hand (:mod:`tienlen.games.guandan.exchange`), ``"base"`` is
#: :class:`Bot`'s rank-count rule (kept to measure one against the other).
EXCHANGES = ("plan", "base")


class _PlanExchange(Bot):
    """Tribute and return cards chosen by the plan's split of what stays in the hand."""

    exchange = "plan"

    def _set_exchange(self, exchange: str) -> None:
        if exchange not in EXCHANGES:
            raise ValueError(f"exchange must be one of {', '.join(EXCHANGES)}; got {exchange!r}")
        self.exchange = exchange
        if exchange == "plan":
            self._GIVE_REASON, self._RETURN_REASON = "GIVE_KEEPS_SPLIT", "RETURN_KEEPS_SPLIT"

    def tribute(self, view: GameView) -> int:
        if self.exchange == "base":
            return super().tribute(view)
        cands = tribute_candidates(view.hand, view.level, view.config)
        return best_tribute(view.hand, cands, view.level, view.config)[0]

    def return_card(self, view: GameView) -> int:
        if self.exchange == "base":
            return super().return_card(view)
        cands = return_candidates(view.hand, view.level, view.config)
        return best_return(view.hand, cands, view.level, view.config)[0]


class PlanBot(_PlanExchange):
    """L2: plays by a split of its hand into groups, keeps bombs until they matter, and
    lets its partner's winning play stand unless an opponent could go out on it or beating
    it lets this seat go out first.
    The decision is the core's plan policy (:func:`plan_decision`)."""

    level = "L2"

    def __init__(self, seed: int | None = None, *, exchange: str = "plan") -> None:
        super().__init__(seed)
        self._set_exchange(exchange)

    @property
    def name(self) -> str:
        return self.level if self.exchange == "plan" else f"{self.level}(exchange={self.exchange})"

    def choose_play(self, view: GameView) -> Decision:
        return plan_decision(view)


# ---------------------------------------------------------------- L3

#: L3's default time per decision (milliseconds) when no ``iterations`` budget is given:
#: 85, so that a decision, with the work after the last sample, ends within 100 ms on one core.
DEFAULT_TIME_MS = 85.0

#: What L3 counts for winning the hand beside its levels (issue 29). Against L2, 30 sampled
#: deals a decision, 600 boards of first hands (bench/guandan_ab_vs.py): 2 won 3.0 points
#: more hands than 0 and as many levels; 100 (the hand won alone) 2.2 points, with a worse
#: mean place.
WIN_BONUS = 2.0

_Action = tuple[int, int, int]


class SearchBot(_PlanExchange):
    """L3: information-set Monte Carlo over the core's native playouts.

    Each iteration deals the cards this seat cannot see to the other seats, consistently
    with what it knows (every seat's card count, the cards played, a tribute or return card
    it gave, which the receiver still holds unless they played it, and the tribute it
    received, which caps the payer's cards at that card's value) and, unless ``infer`` is
    off, likely given the passes it saw, then plays every candidate
    action followed by a PLAN playout (:data:`~tienlen._guandan.PLAN`, every seat by the L2
    policy) on that deal, with the same playout seed for every candidate, scoring the levels
    the hand is worth to its team (+3/+2/+1 for a win by the partner's place, the opponents'
    gain as a loss; in a match, what the outcome does to the level race, ``race``) plus
    ``win_bonus`` for the hand won (minus it for the hand lost). The
    plan's own choice stands unless an alternative's mean gain over it,
    paired deal by deal, exceeds ``margin`` standard errors; the largest such gain wins.

    Candidates: the plan's choice, the groups of the plan's split (on a lead), the weakest
    variant of each reading that beats the pile and the weakest bomb (on a follow), and pass.

    Options (``make_bot("L3", seed=..., **options)``):

    - ``iterations``: sampled deals per decision; deterministic for a given seed (the
      load-independent budget for strength runs);
    - ``time_ms``: milliseconds per decision instead (default 85: a decision ends within
      100 ms on one core, issue 29); with ``iterations`` too, the time cuts the deals short
      (the room's hint: the same hint whenever the machine has the time, an answer within
      half a second when it is busy);
    - ``max_candidates``: how many actions are compared (default 10);
    - ``margin``: how many standard errors of the paired difference an alternative must
      gain over the plan's choice to replace it (default 1.0);
    - ``solver``: in the endgame (at most ``solve_cards`` cards held by all four seats
      together, default 14), score each candidate on a sampled deal by the exact endgame
      solver (:func:`tienlen._guandan.solve_after`: both teams playing perfectly on that
      deal) instead of a PLAN playout, wherever it finishes within ``solve_nodes`` nodes
      (default 2000; past it the playout's score stands). Default True;
    - ``infer``: prefer sampled deals consistent with the other seats' passes (default
      True): each seat's share of the unseen cards, if it holds cards the plan would have
      beaten an opponent's pile with where the seat passed, is kept only with probability
      ``INFER_KEEP`` (0.1) per such pass (of up to ``INFER_TRIES``, 8, draws; else the draw
      with the fewest; the core's :class:`~tienlen._guandan.DealSampler`);
    - ``win_bonus``: what winning the hand (the first out is the team's) counts beside its
      levels (default :data:`WIN_BONUS`, 2: a decision that makes the hand likelier to be won
      is worth more than the levels alone say; 0 scores the levels only);
    - ``race``: in a match (the view's :attr:`~tienlen.games.guandan.view.GameView.standing`),
      score a deal's outcome by what it does to the level race
      (:func:`tienlen.games.guandan.race.hand_scores`: the chance of winning the match from
      the position it leads to, in levels of the match's start) instead of by its levels
      (default True; a hand alone always scores its levels);
    - ``exchange``: how the tribute and return cards are chosen (:data:`EXCHANGES`; default
      ``"plan"``, as L2);
    - ``threads``: threads that draw and score the sampled deals at once, the deciding
      thread one of them (default :data:`SCORING_THREADS`, 2 where the machine has two
      cores: both cores in one decision, issue 35; 1: one core a decision, for runs that
      keep every core busy with games of their own). The choice does not depend on it with
      ``iterations``; with a time budget, more threads weigh more deals in the time.

    >>> from tienlen.guandan import Game
    >>> game = Game(seed=4)
    >>> bot = SearchBot(seed=1, iterations=8)
    >>> kind, play = bot.decide(game.view(game.turn))
    >>> game.act(kind, play).action == kind             # checked: an illegal choice raises
    True
    """

    level = "L3"

    def __init__(self, seed: int | None = None, *, iterations: int | None = None,
                 time_ms: float | None = None, max_candidates: int = 10,
                 margin: float = 1.0, solver: bool = True, solve_cards: int = 14,
                 solve_nodes: int = 2000, infer: bool = True,
                 win_bonus: float = WIN_BONUS, race: bool = True,
                 exchange: str = "plan", threads: int | None = None) -> None:
        super().__init__(seed)
        self._set_exchange(exchange)
        self.iterations, self.time_ms = check_budget(iterations, time_ms, both=True,
                                                     default_ms=DEFAULT_TIME_MS, top_ms=60_000)
        if type(max_candidates) is not int or max_candidates < 2:
            raise ValueError(f"max_candidates must be an int >= 2; got {max_candidates!r}")
        self.max_candidates = max_candidates
        if isinstance(margin, bool) or not isinstance(margin, (int, float)) or not 0 <= margin <= 10:
            raise ValueError(f"margin must be a number in [0, 10]; got {margin!r}")
        self.margin = float(margin)
        if not isinstance(solver, (bool, int)):
            raise ValueError(f"solver must be True or False; got {solver!r}")
        if type(solve_cards) is not int or not 0 <= solve_cards <= 108:
            raise ValueError(f"solve_cards must be an int in 0..108; got {solve_cards!r}")
        if type(solve_nodes) is not int or solve_nodes < 1:
            raise ValueError(f"solve_nodes must be a positive int; got {solve_nodes!r}")
        self.solver = bool(solver)
        if not isinstance(infer, (bool, int)):
            raise ValueError(f"infer must be True or False; got {infer!r}")
        self.infer = bool(infer)
        self.solve_cards = solve_cards
        self.solve_nodes = solve_nodes
        if isinstance(win_bonus, bool) or not isinstance(win_bonus, (int, float)) or \
                not 0 <= win_bonus <= 100:
            raise ValueError(f"win_bonus must be a number in [0, 100]; got {win_bonus!r}")
        self.win_bonus = float(win_bonus)
        if not isinstance(race, (bool, int)):
            raise ValueError(f"race must be True or False; got {race!r}")
        self.race = bool(race)
        if threads is not None and (type(threads) is not int or not 1 <= threads <= 16):
            raise ValueError(f"threads must be an int in 1..16; got {threads!r}")
        self.threads = threads
        if self.race:
            # the standard rules' table (about 0.1 s, once a process) is built now, not in
            # the first decision's time budget
            match_equity()

    @property
    def name(self) -> str:
        options = budget_options(self.iterations, self.time_ms, default_ms=DEFAULT_TIME_MS)
        if not self.solver:
            options.append("solver=off")
        if not self.infer:
            options.append("infer=off")
        if self.margin != 1.0:
            options.append(f"margin={self.margin:g}")
        if self.max_candidates != 10:
            options.append(f"max_candidates={self.max_candidates}")
        if self.solve_cards != 14:
            options.append(f"solve_cards={self.solve_cards}")
        if self.solve_nodes != 2000:
            options.append(f"solve_nodes={self.solve_nodes}")
        if self.win_bonus != WIN_BONUS:
            options.append(f"win_bonus={self.win_bonus:g}")
        if not self.race:
            options.append("race=off")
        if self.exchange != "plan":
            options.append(f"exchange={self.exchange}")
        if self.threads is not None:
            options.append(f"threads={self.threads}")
        return f"L3({', '.join(options)})" if options else "L3"

    def choose_play(self, view: GameView) -> Decision:
        start = time.perf_counter()
        base = plan_decision(view)
        if self._plan_stands(view, base):
            return base
        cands = self._candidates(view, base)
        if len(cands) <= 1:
            return base
        actions = [_action_of(c) for c in cands]
        deadline = None if self.time_ms is None else start + self.time_ms / 1000
        solve = self.solver and sum(view.hand_sizes) <= self.solve_cards
        rows = sample_scores(view, actions, self.rng, iterations=self.iterations,
                             deadline=deadline, solve=solve, solve_nodes=self.solve_nodes,
                             infer=self.infer, threads=self.threads)
        return self.choose_from(view, base, cands, rows, solve)

    @staticmethod
    def _plan_stands(view: GameView, base: Decision) -> bool:
        """Whether the plan's choice is played without search: it goes out (nothing is
        better)."""
        return base.kind == "play" and base.cards is not None and \
            base.cards.size == len(view.hand)  # type: ignore[attr-defined]

    def choose_from(self, view: GameView, base: Decision, cands: Sequence[Play | None],
                    rows: np.ndarray, solve: bool) -> Decision:
        """L3's choice among ``cands`` (:meth:`_candidates`: the plan's choice ``base``
        first) from their scores ``rows`` (:func:`sample_scores`, one row per candidate, the
        same deals in every row; more rows than candidates are ignored), written once: the
        search's decision and the review's "what the bot plays" (issue 38), so that the
        bot's own choice, priced on the same deals, is its best by construction."""
        if self._plan_stands(view, base) or len(cands) <= 1:
            return base
        rows = rows[:len(cands)]
        done = rows.shape[1]
        # Paired differences against the plan's choice (candidate 0) on the same deals: an
        # alternative replaces the plan only when it is better by more than `margin` standard
        # errors, so that noise over few deals does not overrule a sound default.
        # each deal's outcome scored once (race.hand_scores): in a match, what it does to
        # the level race; alone, its levels; the hand won adds win_bonus either way
        scored = score_outcomes(rows, hand_scores(view.standing if self.race else None,
                                                  _team(view), view.config, self.win_bonus))
        delta = scored - scored[0]
        diff = delta.sum(axis=1).tolist()
        diff2 = (delta * delta).sum(axis=1).tolist()
        levels = rows.sum(axis=1).tolist()           # for the explanation: levels a hand,
        wins = (rows > 0).sum(axis=1).tolist()       # and hands won (the first out the team's)
        best, best_gain = 0, 0.0
        for i in range(1, len(cands)):
            mean = diff[i] / done
            var = max(0.0, diff2[i] / done - mean * mean)
            se = math.sqrt(var / done) if done > 1 else math.inf
            if mean > self.margin * se and mean > best_gain:
                best, best_gain = i, mean
        how = Explanation("DEALS_SOLVED" if solve else "DEALS_PLAN", deals=done)
        # what it weighed, for the AI-debug panel: every candidate, the chosen one first,
        # then by mean gain over the plan's choice
        order = sorted(range(len(cands)), key=lambda i: (i != best, -diff[i]))
        weighed = tuple(Weighed(cands[i], wins[i] / done, levels[i] / done, diff[i] / done,
                                i == 0) for i in order)
        if best == 0:
            assert base.why is not None
            return Decision.because(base.kind, base.cards,
                                    Explanation("SEARCH_HELD", base=base.why, how=how,
                                                rate=levels[0] / done, win=wins[0] / done,
                                                weighed=weighed))
        choice = cands[best]
        plan = base.cards if base.kind == "play" else None
        numbers = {"how": how, "rate": levels[best] / done, "win": wins[best] / done,
                   "plan": plan, "base_rate": levels[0] / done, "base_win": wins[0] / done,
                   "weighed": weighed}
        if choice is None:
            return Decision.because("pass", None, Explanation("SEARCH_PASS", **numbers))
        code = ("SEARCH_BOMB" if choice.is_bomb else "SEARCH_LEAD" if view.pile is None
                else "SEARCH_TAKE")
        return Decision.because("play", choice, Explanation(code, play=choice, **numbers))

    def _candidates(self, view: GameView, base: Decision) -> list[Play | None]:
        """The plan's choice first, then the alternatives worth comparing."""
        cands: list[Play | None] = [base.cards if base.kind == "play" else None]  # type: ignore[list-item]
        seen = {_key(cands[0])}

        def add(p: Play | None) -> None:
            k = _key(p)
            if k not in seen and len(cands) < self.max_candidates:
                seen.add(k)
                cands.append(p)

        if view.pile is None:
            groups = plan_plays(view.hand, view.level, view.config)
            for p in sorted(groups, key=play_strength):
                add(p)
            return cands
        if view.can_pass:
            add(None)
        # The weakest variant of each reading (fewest wilds), chosen on the core's arrays: a
        # follow of a big hand can list thousands of variants (full houses), too many to
        # wrap as Play objects within the time budget.
        hand, flags = view.hand, view.config.flags
        masks, codes = _guandan.legal_plays(hand.once, hand.twice, view.level, view.pile.code, flags)
        wild = view.config.wild_card(view.level)
        wbit = 0 if wild < 0 else 1 << wild
        wilds = ((masks[:, 0] & np.uint64(wbit)) != 0).astype(np.int64) + \
            ((masks[:, 1] & np.uint64(wbit)) != 0).astype(np.int64)
        order = np.lexsort((wilds, codes))
        _, first = np.unique(codes[order], return_index=True)
        picked = [_make(_wrap(int(masks[i, 0]), int(masks[i, 1])), int(codes[i]), view.level, flags)
                  for i in order[first].tolist()]
        plain = sorted((p for p in picked if not p.is_bomb), key=play_strength)
        bombs = sorted((p for p in picked if p.is_bomb), key=play_strength)
        for p in plain[:self.max_candidates - 2]:
            add(p)
        if bombs:
            add(bombs[0])
        return cands


def _action_of(play: Play | None) -> _Action:
    """A candidate as the core's action triple (a pass is all zeros)."""
    return (0, 0, 0) if play is None else (play.cards.once, play.cards.twice, play.code)


#: Threads that draw and score L3's sampled deals at once, the deciding thread one of them
#: (:func:`tienlen._guandan.sample_values`): two, the cores of the machine the budget is set
#: for (issue 35), one on a one-core machine. The values do not depend on it; only how many
#: deals fit in the time does.
SCORING_THREADS = max(1, min(2, os.cpu_count() or 1))

#: Deals drawn a call of the core at most: a longer budget is drawn in several calls (the
#: same deals: deal k of a decision is the same whichever call draws it).
DEALS_PER_CALL = 1 << 16


def sample_scores(view: GameView, actions: Sequence[_Action], rng: random.Random, *,
                  iterations: int | None, deadline: float | None = None, solve: bool = True,
                  solve_nodes: int = 2000, infer: bool = True,
                  threads: int | None = None) -> np.ndarray:
    """The search's scoring, written once (L3's decisions and the review's,
    :mod:`tienlen.games.guandan.review`): on deals sampled consistently with ``view`` (and,
    with ``infer``, likely given the passes seen), every action of ``actions`` (the core's
    triples) followed by a PLAN playout with the same playout seed for every action, or,
    with ``solve``, scored exactly by the endgame solver wherever it finishes within
    ``solve_nodes`` nodes. Returns the levels the hand is worth to the seat's team, one row
    per action, one column per deal (never 0: one team went out first).

    Deals are drawn until ``iterations`` are done, or, without it, until ``deadline`` (a
    :func:`time.perf_counter` time) passes, at least one; with both, whichever comes first.

    The deals are drawn and scored natively (:class:`~tienlen._guandan.DealSampler`,
    :func:`~tienlen._guandan.sample_values`) on ``threads`` threads at once (default
    :data:`SCORING_THREADS`; 1: the calling thread alone), without the GIL. Deal k comes
    from one draw of ``rng`` and k alone, so with ``iterations`` the result depends on
    ``rng`` only, not on ``threads``.
    """
    if iterations is None and deadline is None:
        raise ValueError("sample_scores needs iterations= or deadline=")
    known = _Knowledge(view, infer=infer)
    base = known.template()
    workers = SCORING_THREADS if threads is None else threads
    acts = list(actions)
    seed = rng.getrandbits(64)
    parts: list[np.ndarray] = []
    done = 0
    while iterations is None or done < iterations:
        seconds = None
        if deadline is not None:
            seconds = deadline - time.perf_counter()
            if done and seconds <= 0:
                break
        want = DEALS_PER_CALL if iterations is None else min(DEALS_PER_CALL, iterations - done)
        values, _ = _guandan.sample_values(
            known.sampler, base, acts, seed, want, view.seat, None if seconds is None else
            max(0.0, seconds), view.config.double_down_levels, solve_nodes if solve else 0,
            _guandan.PLAN, workers, done)
        parts.append(values)
        done += values.shape[1]
        if values.shape[1] < want:           # the time ran out inside the call
            break
    rows: np.ndarray = np.concatenate(parts, axis=1).astype(np.float64)
    return rows


def _team(view: GameView) -> int:
    """The seat's team index: 0 for ``teams[0]`` (the index of the standing's levels)."""
    return 0 if view.seat in view.teams[0] else 1


def score_outcomes(rows: np.ndarray, scores: dict[int, float]) -> np.ndarray:
    """``rows`` of :func:`sample_scores` (each deal's outcome: the levels the hand is worth
    to the seat's team, signed) with each outcome replaced by its score in ``scores``
    (:func:`tienlen.games.guandan.race.hand_scores`)."""
    top = max(abs(k) for k in scores)
    table = np.array([scores.get(k, 0.0) for k in range(-top, top + 1)])
    out: np.ndarray = table[rows.astype(np.int64) + top]
    return out


def _key(play: Play | None) -> tuple[int, int, int]:
    return (0, 0, 0) if play is None else (play.cards.once, play.cards.twice, play.code)


def _hand_score(order: Sequence[int], my_team: tuple[int, int],
                gains: tuple[int, int, int]) -> int:
    """Levels the hand is worth to ``my_team``: the gain when one of its players went out
    first, minus the opponents' gain otherwise (the partner's place decides the gain; a
    partner not in ``order`` is last)."""
    first = order[0]
    mine = first in my_team
    mate = next((s for s in order[1:] if (s in my_team) == mine), None)
    place = 4 if mate is None else order.index(mate) + 1
    gain = gains[place - 2]
    return gain if mine else -gain


#: Inference from passes (issue 29): a seat's share of a sampled deal is kept with
#: probability INFER_KEEP per pass the plan would have replaced by a play with those cards;
#: of INFER_TRIES draws, the first kept one, else the one with the fewest such passes.
INFER_KEEP = 0.1
INFER_TRIES = 8


def _pass_evidence(view: GameView) -> dict[int, _guandan.PlanPasses]:
    """For each other seat that still holds unseen cards, its passes on an opponent's pile,
    as the core's :class:`~tienlen._guandan.PlanPasses` (a pass on the partner's pile says
    nothing: the plan always lets it stand). Each pass carries the cards the seat played
    since, the pile and the card counts then."""
    teams = view.teams

    def mate(s: int) -> int:
        team = teams[0] if s in teams[0] else teams[1]
        return team[1] if team[0] == s else team[0]

    acts = [a for a in view.history if a.action in ("play", "pass")]
    sizes = list(view.hand_sizes)
    for a in acts:
        if a.action == "play" and a.cards is not None:
            sizes[a.seat] += len(a.cards)
    events: dict[int, tuple[int, int, int, int, tuple[int, ...]]] = {}
    pile: tuple[int, int] | None = None
    for i, a in enumerate(acts):
        if a.action == "play" and a.play is not None:
            pile = (a.play.code, a.seat)
            sizes[a.seat] -= a.play.size
        elif pile is not None and a.seat != view.seat and pile[1] != mate(a.seat) \
                and pile[1] != a.seat:
            opps = tuple(sizes[s] for s in range(4) if s != a.seat and s != mate(a.seat))
            events[i] = (a.seat, pile[0], sizes[pile[1]], sizes[mate(a.seat)], opps)
    later: list[Counter[int]] = [Counter() for _ in range(4)]
    rows: dict[int, list[tuple[int, int, int, int, int, tuple[int, ...]]]] = {s: [] for s in range(4)}
    for i in range(len(acts) - 1, -1, -1):
        a = acts[i]
        if i in events:
            seat, code, owner_left, partner_left, opps = events[i]
            add = Cards.from_ids(sorted(later[seat].elements())).masks if later[seat] else (0, 0)
            rows[seat].append((add[0], add[1], code, owner_left, partner_left, opps))
        elif a.action == "play" and a.cards is not None:
            later[a.seat].update(a.cards.ids)
    flags = view.config.flags
    return {s: _guandan.PlanPasses(view.level, flags, rows[s][::-1])
            for s in range(4) if rows[s] and view.hand_sizes[s]}


class _Knowledge:
    """What a seat knows about the unseen cards, and deals consistent with it (and, with
    ``infer``, likely given the other seats' passes), drawn by the core's
    :class:`~tienlen._guandan.DealSampler` (:attr:`sampler`), built here once a decision."""

    def __init__(self, view: GameView, *, infer: bool = False) -> None:
        self.view = view
        seen = Counter(view.hand.ids)
        for a in view.history:
            if a.action == "play" and a.cards is not None:
                seen.update(a.cards.ids)
        # The cards the public exchanges put in another seat's hand, unless played since
        # (G6.11: a tribute or return card received, a big joker shown to refuse tribute).
        self.fixed: dict[int, Counter[int]] = {
            s: Counter() if s == view.seat else Counter(view.known_cards(s).ids)
            for s in range(4)}
        # A tribute caps its payer's other cards at its value (they gave their highest).
        self.cap: dict[int, int] = {}
        wild = view.config.wild_card(view.level)
        self.wild = wild
        for t in view.tributes:          # public once delivered (G6.11)
            if t.receiver is not None and t.card is not None and t.payer != view.seat:
                self.cap[t.payer] = min(self.cap.get(t.payer, 99), single_value(t.card, view.level))
        unseen = Counter({c: 2 for c in range(54)}) - seen
        for s in range(4):
            unseen -= self.fixed[s]
        self.pool = sorted(unseen.elements())
        self.need = [0 if s == view.seat else max(0, view.hand_sizes[s] - sum(self.fixed[s].values()))
                     for s in range(4)]
        self.allow_wild_tribute = view.config.can_tribute_wild
        self._state_args = self._fields()
        self.passes = {s: p for s, p in _pass_evidence(view).items() if self.need[s]} \
            if infer else {}
        caps = [None if s not in self.cap else
                sum(1 << c for c in range(54) if self._capped_ok(c, self.cap[s]))
                for s in range(4)]
        #: the core's sampler of deals consistent with all of the above (sampler.pxi)
        self.sampler = _guandan.DealSampler(
            view.seat, view.hand.masks, self.pool,
            [[] if s == view.seat else sorted(self.fixed[s].elements()) for s in range(4)],
            self.need, caps, [self.passes.get(s) for s in range(4)], INFER_KEEP, INFER_TRIES)

    def template(self) -> _guandan.GdState:
        """The view's position with the unseen cards in any consistent place (the deal
        :func:`tienlen._guandan.sample_values` replaces the hands of, deal by deal)."""
        hands: list[tuple[int, int]] = []
        pos = 0
        for s in range(4):
            if s == self.view.seat:
                hands.append(self.view.hand.masks)
                continue
            ids = list(self.fixed[s].elements()) + self.pool[pos:pos + self.need[s]]
            pos += self.need[s]
            hands.append(_masks_of_ids(ids))
        level, seat, flags, t0, pile, code, owner, passes, finished = self._state_args
        return _guandan.GdState.from_fields(hands, level, seat, flags, t0, pile, code, owner,
                                            passes, finished)

    def _fields(self) -> tuple[int, int, int, int, tuple[int, int], int, int, int, tuple[int, ...]]:
        view = self.view
        pile = view.pile
        owner = view.pile_owner
        t0 = teams_bits(view.teams)
        passes = 0
        if pile is not None:
            assert owner is not None  # a pile always has an owner
            s = owner
            while True:
                s = (s + 1) % 4
                while not view.hand_sizes[s]:
                    s = (s + 1) % 4
                if s == view.seat:
                    break
                passes += 1
        return (view.level, view.seat, view.config.flags, t0,
                (0, 0) if pile is None else pile.cards.masks, 0 if pile is None else pile.code,
                -1 if owner is None else owner, passes, view.finished)

    def _capped_ok(self, card: int, cap: int) -> bool:
        if card == self.wild and not self.allow_wild_tribute:
            return True
        return single_value(card, self.view.level) <= cap

    def sample(self, rng: random.Random) -> list[list[int]]:
        """Card ids for every seat (this seat's own hand included): a deal consistent with
        what the seat knows and, with ``infer``, likely given the passes seen (drawn by the
        core's :class:`~tienlen._guandan.DealSampler` from one draw of ``rng``)."""
        return [list(_wrap(once, twice).ids)
                for once, twice in self.sampler.hands(rng.getrandbits(64))]

    def sample_state(self, rng: random.Random) -> _guandan.GdState:
        """A sampled deal (:meth:`sample`) in the view's position."""
        hands = self.sampler.hands(rng.getrandbits(64))
        level, seat, flags, t0, pile, code, owner, passes, finished = self._state_args
        return _guandan.GdState.from_fields(hands, level, seat, flags, t0, pile, code, owner,
                                            passes, finished)


class RandomBot(Bot):
    """``random``: a uniformly random legal action (a play or, on a pile, the pass; any
    allowed tribute or return card): the floor a learned policy is measured against."""

    level = "random"

    def choose_play(self, view: GameView) -> Decision:
        plays = list(view.legal_plays)
        n = len(plays) + int(view.can_pass)
        pick = self.rng.randrange(n)
        if pick == len(plays):
            return Decision.because("pass", None, Explanation("RANDOM", play=None))
        return Decision.because("play", plays[pick], Explanation("RANDOM", play=plays[pick]))

    def tribute(self, view: GameView) -> int:
        return self.rng.choice(sorted(tribute_candidates(view.hand, view.level, view.config)))

    def return_card(self, view: GameView) -> int:
        return self.rng.choice(sorted(return_candidates(view.hand, view.level, view.config)))


_BY_LEVEL: dict[str, type[Bot]] = {"l1": GreedyBot, "l2": PlanBot, "l3": SearchBot,
                                   "random": RandomBot}
#: Prefixes of bot specs that name a trained policy file, and the module that builds it
#: (imported only when such a spec is used: it needs torch, the ``[train]`` extra).
POLICY_SPECS: dict[str, str] = {"dmc:": "tienlen.games.guandan.learned"}


#: The prefix of a bench opponent of another style (``style:bomber``), and the module that
#: holds them (:mod:`tienlen.games.guandan.styles`, which builds on this one: found by name).
STYLE_PREFIX, STYLES_MODULE = "style:", "tienlen.games.guandan.styles"


def _styles() -> tuple[str, ...]:
    from importlib import import_module

    styles: tuple[str, ...] = import_module(STYLES_MODULE).STYLES
    return styles


def is_bot_spec(spec: str) -> bool:
    """Whether ``spec`` names a Guandan bot: a level (``random``, L1..L3), ``dmc:PATH`` or
    ``style:NAME`` (an opponent of another style, :mod:`tienlen.games.guandan.styles`)."""
    low = str(spec).lower()
    if low.startswith(STYLE_PREFIX):
        return low[len(STYLE_PREFIX):] in _styles()
    return low in _BY_LEVEL or any(low.startswith(p) and len(low) > len(p) for p in POLICY_SPECS)


def _policy_bot(spec: str, prefix: str, module: str, seed: int | None,
                options: dict[str, Any]) -> Bot:
    """The bot of a trained policy file (``dmc:PATH``); every way it can fail to load is one
    ``ValueError`` in one line: no such file, no torch, a damaged or foreign file."""
    import os
    from importlib import import_module

    path = spec[len(prefix):]
    if not path or not os.path.isfile(path):
        raise ValueError(f"{spec[:240]}: no such file")
    try:
        loader = import_module(module)
        bot: Bot = loader.from_spec(spec, seed=seed, **options)
    except ValueError as error:
        # the loader's own refusals (not a checkpoint, no torch) are already one line
        raise ValueError(f"{spec[:240]}: {_detail(error, keep_kind=True)}") from None
    except (RuntimeError, KeyError, TypeError, AttributeError, IndexError, OverflowError,
            MemoryError, EOFError, OSError, ImportError) as error:
        # torch's own errors for a file that is a zip or a pickle but not our checkpoint:
        # one line, naming the spec, never torch's advice
        raise ValueError(f"{spec[:240]}: not a {prefix[:-1].upper()} checkpoint this version reads "
                         f"({_detail(error)})") from None
    return bot


def _detail(error: BaseException, keep_kind: bool = False) -> str:
    """An error's gist in one short line, without torch's advice to load files unsafely.

    >>> _detail(ValueError("'x.pt' is not a DMC checkpoint: Weights only load failed. In "
    ...                    "PyTorch 2.6, we changed the default value of the `weights_only`"))
    'Weights only load failed'
    >>> _detail(KeyError("config"))
    "KeyError: 'config'"
    """
    text = str(error).strip().splitlines()[0] if str(error).strip() else ""
    if isinstance(error, ValueError):
        if not keep_kind and " checkpoint: " in text:
            text = text.split(" checkpoint: ", 1)[-1]
    else:
        text = f"{type(error).__name__}: {text}"
    for cut in (". In PyTorch", "weights_only", ". This is an internal", ". If you"):
        text = text.split(cut)[0]
    return text.rstrip(" .,;:(`")[:160]


def make_bot(level: str, seed: int | None = None, **options: Any) -> Bot:
    """A Guandan bot of ``level`` ("random", "L1", "L2" or "L3", any case), a trained
    policy: ``"dmc:PATH"`` (a checkpoint of ``examples/train_guandan_dmc.py``; needs torch),
    or a bench opponent of another style: ``"style:bomber"``, ``"style:hoarder"``,
    ``"style:longest"`` (:mod:`tienlen.games.guandan.styles`).

    >>> make_bot("l2", seed=4)
    <PlanBot L2 seed=4>
    """
    for prefix, module in POLICY_SPECS.items():
        if isinstance(level, str) and level.lower().startswith(prefix):
            return _policy_bot(level, prefix, module, seed, options)
    if isinstance(level, str) and level.lower().startswith(STYLE_PREFIX):
        from importlib import import_module

        bot: Bot = import_module(STYLES_MODULE).StyleBot(level[len(STYLE_PREFIX):].lower(), seed,
                                                          **options)
        return bot
    cls = _BY_LEVEL.get(str(level).lower())
    if cls is None:
        raise ValueError(f"unknown Guandan bot level {level!r}; choose from random, "
                         f"{', '.join(LEVELS)}, dmc:PATH or style:NAME")
    return cls(seed, **options)



