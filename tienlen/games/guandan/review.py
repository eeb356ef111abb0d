"""Guandan's review hooks (issue 38, :mod:`tienlen.table.review`): a saved match or a table's
match as records of its hands, the value of a decision for the seat's team, and the card
tracker (记牌器).

A decision is priced as L3 prices it (:func:`tienlen.games.guandan.bots.sample_scores`): on
deals of the cards the seat cannot see, consistent with what it knows (card counts, the cards
played, the tributes it gave or took) and likely given the passes it saw, each action is
played out by the plan, or solved exactly by the endgame solver once few cards are left;
the value is the levels the hand is worth to the seat's team (+3/+2/+1 for a win, the
opponents' gain as a loss), with its standard error, and the share of deals the team wins.
The candidates are L3's own (the plan's choice, the plan's groups on a lead, the weakest
reading of each kind that beats the pile, the weakest bomb, the pass) and the actions asked
about.

>>> from tienlen.games.guandan.game import Game
>>> game = Game(seed=4)
>>> view = game.view(game.turn)
>>> tracker(view)["unseen"] == sum(view.hand_sizes) - len(view.hand)
True
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from tienlen.table.review import ActionValue, Budget, Record, Step, same_action
from tienlen.games.guandan.bots import (SearchBot, _action_of, plan_decision, sample_scores)
from tienlen.games.guandan.cards import RANKS, Card, Cards
from tienlen.games.guandan.explain import Explanation
from tienlen.games.guandan.game import GameView, return_candidates, tribute_candidates
from tienlen.games.guandan.match import Match
from tienlen.games.guandan.plays import Play, classify

__all__ = ["read_record", "evaluate", "tracker", "REVIEW_THRESHOLD", "VALUE_UNIT",
           "SOLVE_CARDS"]

#: A decision is a mistake only when it costs more than this many levels (besides being
#: worse than the best beyond the sampling error).
REVIEW_THRESHOLD = 0.25
#: What a value counts.
VALUE_UNIT = "levels"
#: The endgame solver prices a decision once the four hands hold at most this many cards.
SOLVE_CARDS = 14
# Candidates compared per decision (L3's own, then the actions asked about).
_CANDIDATES = 10


def _wild(level: int, flags: int) -> int:
    """The wild card's id at ``level`` (the core's), -1 when the rules have none."""
    from tienlen import _guandan

    return -1 if flags & _guandan.NO_WILDS else _guandan.wild_card(level, flags)


def _wild_name(level: int, flags: int) -> str | None:
    wild = _wild(level, flags)
    return None if wild < 0 else Card(wild).ascii()


def _rank_text(rank: int) -> str:
    return RANKS[rank - 2] if rank <= 14 else ("SJ" if rank == 15 else "BJ")


# ------------------------------------------------------------------ records


def _match_of(source: object) -> Match:
    if isinstance(source, Match):
        return source
    inner = getattr(source, "match", None)
    if isinstance(inner, Match):
        return inner
    if isinstance(source, (bytes, bytearray, str)):
        return Match.from_json(bytes(source) if isinstance(source, bytearray) else source)       # ReplayError (a ValueError) names the bad field
    raise ValueError(f"not a Guandan match: {type(source).__name__}")


def read_record(source: object) -> tuple[Record, ...]:
    """The hands of a match (a :class:`~tienlen.games.guandan.match.Match`, a table that
    wraps one, or a saved match file's text) played to their end, as records: every
    action replayed from the seed, with the acting seat's view before it."""
    from tienlen.games.guandan.table_data import card_names, play_json

    match = _match_of(source)
    replay = Match(match.seed, match.config, max_hands=match.max_hands)
    records: list[Record] = []
    steps: list[Step] = []
    game = replay.game
    for hand, action in match.history:
        if not steps:
            game = replay.game
        view = game.view(action.seat)
        if view.tribute_step is not None:
            pick = tribute_candidates if view.tribute_step == "give" else return_candidates
            legal = len(pick(view.hand, view.level, view.config))
        else:
            legal = len(view.legal_plays) + bool(view.can_pass)
        data: dict[str, Any]
        if action.action == "play":
            assert action.play is not None
            data = play_json(action.play)
        elif action.action == "pass":
            data = {"kind": "pass"}
        else:
            assert action.cards is not None
            data = {"kind": action.action, "card": Card(action.cards.ids[0]).ascii(),
                    "to": action.to}
        steps.append(Step(action.seat, len(steps), data, view, legal))
        done = len(replay.results)
        replay.act(action.action, action.play if action.play is not None else action.cards,
                   action.seat)
        if len(replay.results) > done:
            r = replay.results[-1]
            records.append(Record(
                game="guandan", match_seed=match.seed, hand=hand + 1,
                seed=replay.hand_seed(hand), players=4,
                hands=tuple(tuple(card_names(h, game.level)) for h in game.initial_hands),
                steps=tuple(steps),
                outcome={"places": list(r.places), "winner_team": r.winner, "gain": r.gain,
                         "levels": [_rank_text(x) for x in r.levels]},
                extra={"level": _rank_text(game.level), "teams": [list(t) for t in game.teams],
                       "wild": _wild_name(game.level, game.config.flags)}))
            steps = []
    return tuple(records)


# ------------------------------------------------------------------ evaluation


def _play_of(view: GameView, action: Mapping[str, Any]) -> Play:
    """The reading of ``action`` (a play's dict) in ``view``: the one it names, else the
    first legal one. ``ValueError`` if it is no legal play there."""
    cards = Cards.parse(" ".join(str(c) for c in action.get("cards", ())))
    wanted = action.get("reading")
    masks, codes = view.legal_plays._listed()  # type: ignore[attr-defined]
    once, twice = cards.masks
    legal = set(codes[(masks[:, 0] == np.uint64(once)) & (masks[:, 1] == np.uint64(twice))].tolist())
    for p in classify(cards, view.level, view.config):
        if (wanted is None or p.code == wanted) and p.code in legal:
            return p
    raise ValueError(f"{cards} is not a legal play here")


def _reason(code: str, play: Play | None, values: dict[str, float], lang: str,
            chosen: Play | None, chosen_values: dict[str, float], how: Explanation) -> str:
    from tienlen.games.guandan.words import explanation_text

    numbers = {"how": how, "rate": values["rate"], "win": values["win"], "plan": chosen,
               "base_rate": chosen_values["rate"], "base_win": chosen_values["win"]}
    if play is None:
        return explanation_text(Explanation("SEARCH_PASS", **numbers), lang)
    return explanation_text(Explanation(code, play=play, **numbers), lang)


def evaluate(view: object, actions: Sequence[Mapping[str, Any]], seed: int, budget: Budget,
             lang: str = "en") -> list[ActionValue]:
    """The value of each of ``actions`` and of L3's candidates for the seat of ``view``
    (see the module's docstring), on ``budget.deals`` deals drawn from ``seed``; ``[]``
    outside the play phase (a tribute is not priced). The first entry is the first of
    ``actions``; each entry's ``why`` words why it is worth its value, compared with that
    first action, in ``lang``."""
    assert isinstance(view, GameView)
    if view.phase != "play" or view.tribute_step is not None or view.turn != view.seat:
        return []
    asked: list[Play | None] = []
    for a in actions:
        asked.append(None if a.get("kind") == "pass" else _play_of(view, a))
    bot = SearchBot(seed=seed, iterations=budget.deals, max_candidates=_CANDIDATES)
    base = plan_decision(view)
    cands: list[Play | None] = list(asked)
    keys = {_action_of(p) for p in cands}
    for p in bot._candidates(view, base):
        if _action_of(p) not in keys:
            keys.add(_action_of(p))
            cands.append(p)
    deadline = None if budget.time_ms is None else time.perf_counter() + budget.time_ms / 1000
    solve = sum(view.hand_sizes) <= SOLVE_CARDS
    rows = sample_scores(view, [_action_of(p) for p in cands], random.Random(seed),
                         iterations=budget.deals, deadline=deadline, solve=solve)
    deals = rows.shape[1]
    how = Explanation("DEALS_SOLVED" if solve else "DEALS_PLAN", deals=deals)
    stats = [{"rate": float(r.mean()), "win": float(np.count_nonzero(r > 0)) / deals}
             for r in rows]
    from tienlen.games.guandan.table_data import play_json

    out: list[ActionValue] = []
    for i, (p, r) in enumerate(zip(cands, rows)):
        se = float(r.std(ddof=1)) / math.sqrt(deals) if deals > 1 else math.inf
        code = ("SEARCH_BOMB" if p is not None and p.is_bomb
                else "SEARCH_LEAD" if view.pile is None else "SEARCH_TAKE")
        why = _reason(code, p, stats[i], lang, cands[0], stats[0], how)
        data = {"kind": "pass"} if p is None else play_json(p)
        out.append(ActionValue(data, stats[i]["rate"], se, stats[i]["win"], deals,
                               tuple(r.tolist()), why))
    assert not actions or same_action(out[0].action, actions[0])
    return out


# ------------------------------------------------------------------ the tracker


def tracker(view: object) -> dict[str, Any]:
    """The card tracker (记牌器) of ``view``, from that seat's own view only: the cards in
    the other hands (the double deck minus the seat's hand and every card played), by rank
    (2..A in natural order), the jokers and the wild cards among them, and the bombs the
    other hands may still hold: each rank of which they hold four or more counting the wild
    cards, the joker bomb when all four jokers are out there, and how many straight flushes
    they could still make (at most: a wild card counted once for each); and ``known``, the
    cards another seat is known to hold from the public exchanges (G6.11, the view's
    :meth:`~tienlen.games.guandan.view.GameView.known_cards`), seat by seat.

    >>> from tienlen.games.guandan.game import Game
    >>> g = Game(hands=["3s 4s", "5s 6s", "7s 8s", "9s Ks"], previous_order=(0, 1, 2, 3))
    >>> _ = g.give_tribute("Ks"); _ = g.return_tribute("4s")
    >>> tracker(g.view(1))["known"]
    [{'seat': 0, 'cards': ['Ks']}, {'seat': 3, 'cards': ['4s']}]
    """
    from tienlen.games.guandan.table_data import card_names

    assert isinstance(view, GameView)
    left = Counter({c: 2 for c in range(54)})
    left.subtract(view.hand.ids)
    for a in view.history:
        if a.action == "play" and a.cards is not None:
            left.subtract(a.cards.ids)
    wild = _wild(view.level, view.config.flags)
    wilds = left[wild] if wild >= 0 else 0
    ranks = []
    for rank in range(2, 15):
        ranks.append({"rank": RANKS[rank - 2],
                      "left": sum(left[(rank - 2) * 4 + s] for s in range(4))})
    bombs = []
    for rank in range(2, 15):
        natural = sum(left[(rank - 2) * 4 + s] for s in range(4)
                      if (rank - 2) * 4 + s != wild)
        most = natural + wilds
        if most >= 4:
            bombs.append({"rank": RANKS[rank - 2], "most": most})
    flushes = 0
    for suit in range(4):
        for low in range(1, 11):              # A2345 (the ace low) .. 10JQKA
            run = [((14 if r == 1 else r) - 2) * 4 + suit for r in range(low, low + 5)]
            missing = sum(1 for c in run if left[c] <= 0 or c == wild)
            if missing <= wilds:
                flushes += 1
    return {"game": "guandan", "seat": view.seat,
            "unseen": sum(max(0, n) for n in left.values()),
            "ranks": ranks, "jokers": {"SJ": left[52], "BJ": left[53]},
            "wild": _wild_name(view.level, view.config.flags), "wilds_left": wilds,
            "level": _rank_text(view.level),
            "bombs": bombs, "joker_bomb": left[52] + left[53] == 4,
            "straight_flushes": flushes,
            "known": [{"seat": s, "cards": card_names(known, view.level)}
                      for s in range(4) if s != view.seat
                      for known in [view.known_cards(s)] if len(known)],
            "hand_sizes": list(view.hand_sizes)}
