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
from tienlen import _guandan
from tienlen.games.guandan.bots import (SearchBot, _action_of, _hand_score, _Knowledge,
                                        plan_decision, sample_scores)
from tienlen.games.guandan.cards import RANKS, Card, Cards
from tienlen.games.guandan.exchange import best_return, best_tribute, split_cost
from tienlen.games.guandan.explain import Explanation
from tienlen.games.guandan.game import (GameView, return_candidates, single_value, teams_bits,
                                        tribute_candidates)
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
        if view.tribute_step == "give":
            # the suit of the top value, the only choice a tribute leaves: one when every
            # face leaves the plan the same hand (then it is forced)
            legal = len({_exchange_key(view.hand, c, view.level, view.config)
                         for c in tribute_candidates(view.hand, view.level, view.config)})
        elif view.tribute_step == "return":
            legal = len(return_candidates(view.hand, view.level, view.config))
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
    (see the module's docstring), on ``budget.deals`` deals drawn from ``seed``. A return
    (还贡) or a tribute is priced by :func:`_exchange_values`; ``[]`` when the seat has
    nothing to decide. The first entry is the first of ``actions``; each entry's ``why``
    words why it is worth its value, compared with that first action, in ``lang``; the
    entry flagged ``bot`` is what ``SearchBot(seed, iterations=budget.deals)`` plays here,
    chosen from these very rows (:meth:`SearchBot.choose_from`)."""
    assert isinstance(view, GameView)
    if view.tribute_step is not None:
        return _exchange_values(view, actions, seed, budget, lang)
    if view.phase != "play" or view.turn != view.seat:
        return []
    asked: list[Play | None] = []
    for a in actions:
        asked.append(None if a.get("kind") == "pass" else _play_of(view, a))
    bot = SearchBot(seed=seed, iterations=budget.deals, max_candidates=_CANDIDATES)
    base = plan_decision(view)
    # The bot's candidates first, in its order, then the actions asked about: each row
    # depends only on the deals and on the candidates before it (the solver's shared table),
    # so the bot's rows are the ones its own search computes.
    cands: list[Play | None] = list(bot._candidates(view, base))
    index = {_action_of(p): i for i, p in enumerate(cands)}
    mine = len(cands)
    order: list[int] = []
    for p in asked:
        key = _action_of(p)
        if key not in index:
            index[key] = len(cands)
            cands.append(p)
        if index[key] not in order:
            order.append(index[key])
    order += [i for i in range(len(cands)) if i not in order]
    deadline = None if budget.time_ms is None else time.perf_counter() + budget.time_ms / 1000
    solve = bot.solver and sum(view.hand_sizes) <= bot.solve_cards
    rows = sample_scores(view, [_action_of(p) for p in cands], bot.rng,
                         iterations=budget.deals, deadline=deadline, solve=solve,
                         solve_nodes=bot.solve_nodes, infer=bot.infer)
    choice = bot.choose_from(view, base, cands[:mine], rows, solve)
    chosen_key = (0, 0, 0) if choice.kind == "pass" else _action_of(choice.cards)  # type: ignore[arg-type]
    deals = rows.shape[1]
    how = Explanation("DEALS_SOLVED" if solve else "DEALS_PLAN", deals=deals)
    stats = [{"rate": float(r.mean()), "win": float(np.count_nonzero(r > 0)) / deals}
             for r in rows]
    from tienlen.games.guandan.table_data import play_json

    first = order[0]
    out: list[ActionValue] = []
    for i in order:
        p, r = cands[i], rows[i]
        se = float(r.std(ddof=1)) / math.sqrt(deals) if deals > 1 else math.inf
        code = ("SEARCH_BOMB" if p is not None and p.is_bomb
                else "SEARCH_LEAD" if view.pile is None else "SEARCH_TAKE")
        why = _reason(code, p, stats[i], lang, cands[first], stats[first], how)
        data = {"kind": "pass"} if p is None else play_json(p)
        out.append(ActionValue(data, stats[i]["rate"], se, stats[i]["win"], deals,
                               tuple(r.tolist()), why, bot=_action_of(p) == chosen_key))
    assert not actions or same_action(out[0].action, actions[0])
    return out


# ------------------------------------------------------------------ tribute and return


def _exchange_key(hand: Cards, card: int, level: int, config: Any) -> tuple[object, ...]:
    """What giving ``card`` away leaves: its single-card value and the plan's groups of
    the rest by kind and rank (the core's codes, no suits). Two cards with one key are one
    choice for the plan that plays the hand out (two 5s of which neither ends a straight
    flush), so they are priced once."""
    rest = hand - Cards([card])
    groups = _guandan.plan_groups(rest.once, rest.twice, level, config.flags)
    return (single_value(card, level), tuple(sorted(code for _, _, code in groups)))


def _exchange_values(view: GameView, actions: Sequence[Mapping[str, Any]], seed: int,
                     budget: Budget, lang: str) -> list[ActionValue]:
    """A return (还贡) or a tribute (进贡) priced like a play: on deals of the cards the seat
    cannot see, consistent with what it knows (the tribute it received caps its payer's
    cards at that card's value), each candidate card is handed over, the other receivers
    still to return give back the card L2 and L3 would (the plan's spare card,
    :func:`~tienlen.games.guandan.exchange.best_return`), and the hand is played out from
    its first lead by the plan, the same playout seed for every candidate; the value is the
    levels the hand is worth to the seat's team. The candidates: the allowed cards, one per
    group of cards that leave the plan the same hand (:func:`_exchange_key`; the card asked
    about stands for its group), the bot's own card (L2's and L3's choice,
    :mod:`tienlen.games.guandan.exchange`) flagged ``bot``, at most ``_CANDIDATES``.

    A tribute (进贡) is not priced (``[]``): the rules leave only the suit of the top value
    to choose, and the seat cannot know where its card goes (in a double tribute, the
    higher of the two goes to the first out) nor, from its view, who went out first in the
    last hand. ``[]`` too when every allowed card is one choice."""
    giving = view.tribute_step == "give"
    me, level, config = view.seat, view.level, view.config
    pick = tribute_candidates if giving else return_candidates
    allowed = pick(view.hand, level, config)
    choose = best_tribute if giving else best_return
    bot_card = choose(view.hand, allowed, level, config)[0]
    kind = "give_tribute" if giving else "return_tribute"
    asked: list[int] = []
    for a in actions:
        if a.get("kind") != kind:
            raise ValueError(f"{a.get('kind')!s:.20} is not a {kind} here")
        card = int(Card.parse(str(a.get("card"))))
        if card not in allowed:
            raise ValueError(f"{a.get('card')!s:.10} may not be given here")
        asked.append(card)
    # the receiver of this seat's card, and who leads once every card is exchanged
    if giving:
        return []          # the receiver is fixed only once every tribute is given
    mine = next(t for t in view.tributes if t.receiver == me and t.returned is None)
    to, leader = mine.payer, view.tributes[0].payer
    returned = {a.seat for a in view.history if a.action == "return_tribute"}
    pending = [t for t in view.tributes
               if t.receiver is not None and t.receiver != me and t.receiver not in returned]
    # one card per group: the asked ones stand for theirs, then the bot's, then the rest
    keys: dict[tuple[object, ...], int] = {}
    cards: list[int] = []
    for c in [*asked, bot_card, *sorted(allowed, key=lambda c: (split_cost(
            view.hand - Cards([c]), level, config), single_value(c, level), c))]:
        key = _exchange_key(view.hand, c, level, config)
        if key not in keys and len(cards) < max(_CANDIDATES, len(asked) + 1):
            keys[key] = len(cards)
            cards.append(c)
    bot_at = keys[_exchange_key(view.hand, bot_card, level, config)]
    if len(cards) <= 1:
        return []                 # every allowed card is the same choice: nothing to price
    known = _Knowledge(view)
    rng = random.Random(seed)
    my_team = (me, view.partner)
    gains = (config.double_down_levels, 2, 1)
    team0 = teams_bits(view.teams)
    deadline = None if budget.time_ms is None else time.perf_counter() + budget.time_ms / 1000
    columns: list[list[int]] = []
    while len(columns) < budget.deals:
        if columns and deadline is not None and time.perf_counter() >= deadline:
            break
        hands = [Cards.from_ids(ids) for ids in known.sample(rng)]
        playout_seed = rng.getrandbits(63)
        for t in pending:                     # the others' returns, as the bots make them
            r = hands[t.receiver]  # type: ignore[index]
            back = best_return(r, return_candidates(r, level, config), level, config)[0]
            hands[t.receiver] = r - Cards([back])  # type: ignore[index]
            hands[t.payer] = hands[t.payer] + Cards([back])
        column = []
        for c in cards:
            after = list(hands)
            after[me] = after[me] - Cards([c])
            after[to] = after[to] + Cards([c])
            state = _guandan.GdState(tuple(h.masks for h in after), level, leader,
                                     config.flags, team0)
            column.append(_hand_score(state.playout(playout_seed, _guandan.PLAN), my_team,
                                      gains))
        columns.append(column)
    rows = np.array(columns, dtype=np.float64).T
    deals = rows.shape[1]
    how = Explanation("DEALS_PLAN", deals=deals)
    first = rows[0]
    base_rate, base_win = float(first.mean()), float(np.count_nonzero(first > 0)) / deals
    out: list[ActionValue] = []
    for i, (c, r) in enumerate(zip(cards, rows)):
        se = float(r.std(ddof=1)) / math.sqrt(deals) if deals > 1 else math.inf
        rate, win = float(r.mean()), float(np.count_nonzero(r > 0)) / deals
        why = Explanation("SEARCH_RETURN", play=str(Card(c)), how=how, rate=rate, win=win,
                          plan=str(Card(cards[0])), base_rate=base_rate,
                          base_win=base_win).text(lang)
        out.append(ActionValue({"kind": kind, "card": Card(c).ascii(), "to": to}, rate, se,
                               win, deals, tuple(r.tolist()), why, bot=i == bot_at))
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
