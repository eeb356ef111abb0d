"""Tiến Lên's review hooks (issue 38, :mod:`tienlen.table.review`): a saved hand (the replay
``tienlen play --save`` writes) or a table's hand as a record, the value of a decision, and
the card tracker.

A decision is priced as L3 prices it: the search bot's sampled deals of the cards the seat
has not seen (inferred from the other seats' play so far, :class:`~tienlen.games.tienlen.bots.search.SearchBot`),
each action played out by the PLAN policy in the core, every action on the same deals. The
value is the expected points of the hand (R10.2: ``players - place``; 3 for first out of
four), with its standard error, and the share of deals in which the seat goes out first.
The candidates are L3's (the legal moves that keep the hand's best split, and the pass) and
the actions asked about. (The exact solver proves only who goes out first, not places; it
does not price a decision here.)

>>> from tienlen.games.tienlen.game import Game
>>> game = Game(4, seed=11)
>>> view = game.view(game.turn)
>>> tracker(view)["unseen"] == len(view.unseen)
True
"""

from __future__ import annotations

import math
import time
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from tienlen.games.tienlen.bots.search import SearchBot
from tienlen.games.tienlen.cards import RANKS, Cards
from tienlen.games.tienlen.game import Game
from tienlen.games.tienlen.plays import classify
from tienlen.games.tienlen.view import View
from tienlen.seeds import mix
from tienlen.table.review import ActionValue, Budget, Record, Step, same_action

__all__ = ["read_record", "evaluate", "tracker", "REVIEW_THRESHOLD", "VALUE_UNIT"]

#: A decision is a mistake only when it costs more than this many points (besides being
#: worse than the best beyond the sampling error).
REVIEW_THRESHOLD = 0.2
#: What a value counts.
VALUE_UNIT = "points"
# Deals per round of playouts: a time budget is checked between rounds.
_ROUND = 16


def _action_json(cards: Cards | None, game_rules: Any) -> dict[str, Any]:
    from tienlen.games.tienlen.table_data import combo_json

    if cards is None:
        return {"kind": "pass"}
    return combo_json(cards, classify(cards, game_rules))


def _game_of(source: object) -> tuple[Game, int | None, int | None]:
    """The hand of ``source`` (a replay's text, a Game, or a table / match holding one) and
    its match seed and number when known."""
    from tienlen.games.tienlen.match import Match
    from tienlen.games.tienlen.replay import game_from_json, replay_labels

    if isinstance(source, (bytes, bytearray, str)):
        source = bytes(source) if isinstance(source, bytearray) else source
        game = game_from_json(source)            # ReplayError (a ValueError), one line
        labels = replay_labels(source)
        return game, labels.match_seed, labels.hand
    if isinstance(source, Game):
        return source, None, None
    match = getattr(source, "match", source)
    if isinstance(match, Match):
        return match.game, match.seed, match.hand_number
    raise ValueError(f"not a Tiến Lên hand: {type(source).__name__}")


def _is_match_file(text: str | bytes | bytearray) -> bool:
    from tienlen.games.tienlen.replay_format import MATCH_SCHEMA, MAX_REPLAY_BYTES
    from tienlen.table.fileio import parse_file_json

    try:
        record = parse_file_json(text, MAX_REPLAY_BYTES, "replay")
    except ValueError:
        return False                  # the replay reader says what is wrong with it
    return isinstance(record, dict) and record.get("schema") == MATCH_SCHEMA


def read_record(source: object) -> tuple[Record, ...]:
    """The hands of ``source`` (a saved replay's or match file's text, a :class:`Game`, or
    a table or match whose current hand it is) as records, one a hand played to its end:
    every action replayed with the acting seat's view before it.

    >>> from tienlen.games.tienlen.match import Match
    >>> match = Match(2, seed=4)
    >>> while not match.game.is_over:
    ...     plays = match.game.legal_plays()
    ...     _ = match.game.play(plays[0]) if plays else match.game.pass_turn()
    >>> match.next_hand()
    >>> [record.hand for record in read_record(match.to_json())]
    [1]
    """
    if isinstance(source, (bytes, bytearray, str)) and _is_match_file(source):
        from tienlen.games.tienlen.match import Match

        match, games = Match.replayed(bytes(source) if isinstance(source, bytearray)
                                      else source)
        return tuple(record for number, game in enumerate(games, 1)
                     for record in _records_of(game, match.seed, number))
    return _records_of(*_game_of(source))


def _records_of(game: Game, match_seed: int | None, number: int | None) -> tuple[Record, ...]:
    """The record of ``game`` if it was played to its end, else none."""
    if not game.is_over:
        return ()
    if game.seed is not None:
        fresh = Game(game.players, seed=game.seed, rules=game.rules, leader=game.leader)
        seed = game.seed
    else:
        fresh = Game.from_hands(game.initial_hands, rules=game.rules, leader=game.leader)
        seed = mix(*(h.mask for h in game.initial_hands))
    steps: list[Step] = []
    for action in game.history:
        view = fresh.view(action.seat)
        legal = len(view.legal_moves()) + bool(view.can_pass())
        steps.append(Step(action.seat, len(steps), _action_json(action.cards, game.rules),
                          view, legal))
        if action.cards is None:
            fresh.pass_turn(action.seat)
        else:
            fresh.play(action.cards, action.seat)
    places = fresh.places
    assert places is not None
    return (Record(game="tienlen", match_seed=seed if match_seed is None else match_seed,
                   hand=number or 1, seed=seed, players=game.players,
                   hands=tuple(tuple(c.ascii() for c in h) for h in game.initial_hands),
                   steps=tuple(steps),
                   outcome={"places": list(places),
                            "points": [game.players - p for p in places]},
                   extra={"rules": game.rules.name}),)


def _mask_of(action: Mapping[str, Any]) -> int:
    if action.get("kind") == "pass":
        return 0
    return Cards.parse(" ".join(str(c) for c in action.get("cards", ()))).mask


#: The review's sentence for one priced action, by language (the game's ``reason_langs``).
_WHY = {
    "en": ("{what}: on {deals} deals of the cards you have not seen, each played out by "
           "the plan, it goes out first {win:.0%} of the time and scores {value:.2f} "
           "points a hand; your play {chosen_win:.0%} and {chosen:.2f}"),
    "zh": ("{what}：在你没见过的牌的 {deals} 种发法中（每种都按计划打完），它头游 {win:.0%}，"
           "每局得 {value:.2f} 分；你的出法 {chosen_win:.0%} 和 {chosen:.2f}"),
}
_PASSING = {"en": "passing", "zh": "过"}


def _why(cards: Cards | None, value: float, win: float, deals: int, chosen: float,
         chosen_win: float, lang: str = "en") -> str:
    lang = lang if lang in _WHY else "en"
    what = _PASSING[lang] if cards is None else str(cards)
    return _WHY[lang].format(what=what, deals=deals, win=win, value=value,
                             chosen_win=chosen_win, chosen=chosen)


def evaluate(view: object, actions: Sequence[Mapping[str, Any]], seed: int, budget: Budget,
             lang: str = "en") -> list[ActionValue]:
    """The value of each of ``actions`` and of L3's candidates for the seat of ``view``
    (see the module's docstring), on ``budget.deals`` deals drawn from ``seed`` (in rounds
    of 16, stopped early by ``budget.time_ms``); ``[]`` when it is not the seat's turn.
    The first entry is the first of ``actions``; the entry flagged ``bot`` is what
    ``SearchBot(seed, iterations=budget.deals)`` chooses here (with or without a time
    budget). Reasons are in ``lang`` (the game's ``reason_langs``; English otherwise)."""
    assert isinstance(view, View)
    if view.turn != view.seat:
        return []
    bot = SearchBot(seed=seed, iterations=budget.deals)
    state = view.search_state()
    asked = [_mask_of(a) for a in actions]
    legal = set(state.legal_moves().tolist()) | ({0} if state.can_pass() else set())
    for mask in asked:
        if mask not in legal:
            raise ValueError(f"{Cards(mask) if mask else 'pass'} is not a legal action here")
    start = time.perf_counter()
    # What L3 plays here with this seed and deals (its own search: the solver, racing),
    # flagged ``bot``: the review never marks it. By deals even under a time bound (a timed
    # L3 would search for as long as it is given); its time counts against the decision's,
    # and the pricing below gets what is left (one round at least).
    choice = SearchBot(seed=seed, iterations=budget.deals).choose(view)
    mine = choice.mask if isinstance(choice, Cards) else 0
    cands = list(dict.fromkeys(asked + [mine] + bot._candidates(view, state)))
    deals = bot._deals(view, state)
    deadline = None if budget.time_ms is None else start + budget.time_ms / 1000
    blocks: list[np.ndarray] = []
    done = 0
    while done < budget.deals:
        n = min(_ROUND, budget.deals - done)
        blocks.append(deals.places(cands, n, bot.rng))
        done += n
        if deadline is not None and time.perf_counter() >= deadline:
            break
    places = np.concatenate(blocks, axis=1).astype(np.float64)
    points = (view.players - 1) - places            # 0-based places: players - place
    out: list[ActionValue] = []
    first = points[0]
    first_win = float(np.count_nonzero(places[0] == 0)) / done
    for mask, row, place_row in zip(cands, points, places):
        se = float(row.std(ddof=1)) / math.sqrt(done) if done > 1 else math.inf
        win = float(np.count_nonzero(place_row == 0)) / done
        cards = Cards(mask) if mask else None
        out.append(ActionValue(_action_json(cards, view.rules), float(row.mean()), se, win,
                               done, tuple(row.tolist()),
                               _why(cards, float(row.mean()), win, done, float(first.mean()),
                                    first_win, lang), bot=mask == mine))
    assert not actions or same_action(out[0].action, actions[0])
    return out


def tracker(view: object) -> dict[str, Any]:
    """The card tracker of ``view``, from that seat's own view only: the cards it has not
    seen (in the other hands or, with fewer than four players, set aside, R1.2) by rank
    (3..2), and the four-of-a-kind bombs still possible among them. Tiến Lên has no jokers
    and no wild cards."""
    assert isinstance(view, View)
    unseen = view.unseen
    counts = [0] * 13
    for card in unseen:
        counts[card.rank] += 1
    return {"game": "tienlen", "seat": view.seat, "unseen": len(unseen),
            "ranks": [{"rank": RANKS[r], "left": counts[r]} for r in range(13)],
            "jokers": {}, "wild": None, "wilds_left": 0,
            "bombs": [{"rank": RANKS[r], "most": 4} for r in range(13) if counts[r] == 4],
            "twos_left": counts[12], "hand_sizes": list(view.card_counts)}
