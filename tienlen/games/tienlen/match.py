"""A match: hand after hand, with a scoreboard (R10) and, under house rules, penalties (R11.5).

The first hand follows the first-hand rule (R7.2); every later hand is led by the previous
hand's winner, with any combination (R7.3). Hand *n* (1-based) is dealt from the seed
:func:`hand_seed` derives from the match seed, so a match seed fixes every deal.

>>> match = Match(3, seed=7)
>>> match.hand_number, match.game.seed == hand_seed(7, 1)
(1, True)
>>> from tienlen.games.tienlen.game import PASS
>>> while not match.game.is_over:      # everyone plays their first legal move, or passes
...     _ = match.game.apply_unchecked(next(iter(match.game.legal_moves()), PASS))
>>> winner = match.game.finished[0]
>>> match.next_hand(); match.hand_number, match.game.turn == winner
(2, True)
>>> sum(match.scores), len(match.results)     # 2 + 1 + 0 points for the first hand
(3, 1)

When the rules carry a penalty table (``Rules.penalties``, the Southern preset's R11.5),
every finished hand is also scored as payments between seats: :func:`score_hand` says who
pays whom and why, and :attr:`Match.penalties` adds them up (they always sum to zero).

>>> from tienlen.games.tienlen.game import Game
>>> from tienlen.games.tienlen.rules import Penalties, Rules
>>> game = Game.from_hands(["3s", "4s 2s 2h"], rules=Rules(penalties=Penalties()))
>>> _ = game.play("3s")                # seat 0 goes out; seat 1 never played (cóng)
>>> score = score_hand(game)
>>> score.points, score.net, [str(p) for p in score.payments]
((1, 0), (6, -6), ['seat 1 pays seat 0 6: left 2♠ 2♥ (3), cóng x2'])
"""

from __future__ import annotations

import functools
from array import array
from dataclasses import dataclass
from typing import Final, Literal

from tienlen.games.tienlen.cards import Cards
from tienlen.games.tienlen.plays import Combo, Kind
from tienlen.errors import TienlenError
from tienlen.games.tienlen.game import _STEPPING, Game
from tienlen.games.tienlen.refusals import Wording
from tienlen.games.tienlen.replay_format import match_record_json, read_match_record, replay_hand
from tienlen.errors import ReplayError
from tienlen.games.tienlen.rules import Bomb, Penalties, Rules
from tienlen import seeds as _seeds
from tienlen.seeds import check_players, seed_or_fresh
from tienlen.table.match import MatchDriver

__all__ = ["Match", "MatchError", "hand_seed", "HandScore", "Payment", "CutChain",
           "finishing_places", "score_hand", "cut_chains", "unplayed_bombs", "bomb_kind"]

_DEFAULT_RULES: Final = Rules()
_TWO_RANK: Final = 12
# Card suits are 0-3 as ♠ ♣ ♦ ♥: the first two are black.
_RED_SUITS: Final = frozenset({2, 3})
# Double sequences that can be bombs, by number of cards.
_DOUBLE_SEQUENCE_BOMBS: Final[dict[int, Bomb]] = {6: "3ds", 8: "4ds", 10: "5ds"}


class MatchError(TienlenError):
    """A match asked to do something out of order, such as dealing before a hand ends."""


def hand_seed(match_seed: int, number: int) -> int:
    """The deal seed of hand ``number`` (1-based) of the match seeded ``match_seed``
    (:func:`tienlen.seeds.hand_seed`; :class:`MatchError` on bad arguments).

    It is one splitmix64 step from ``match_seed + number * 0x9E3779B97F4A7C15`` (mod
    2**64), so consecutive hands, and matches with nearby seeds, get unrelated deals.

    >>> hand_seed(0, 1), hand_seed(0, 2)
    (16294208416658607535, 7960286522194355700)
    """
    return _seeds.hand_seed(match_seed, number, MatchError)


# --- R11.5: what cards are worth -----------------------------------------------------------


def _bombs_of(rules: Rules) -> frozenset[Bomb]:
    """The ruleset's bombs: the kinds that cut something in its table."""
    return frozenset(bomb for bomb, _ in rules.cuts)


def _shape(combo: Combo) -> Bomb | None:
    """The bomb shape of ``combo`` (a quad, or a double sequence of 3, 4 or 5 pairs),
    whatever the rules make of it."""
    kind = combo.kind
    if kind is Kind.QUAD:
        return "quad"
    if kind is Kind.DOUBLE_SEQUENCE:
        return _DOUBLE_SEQUENCE_BOMBS.get(len(combo))
    return None


def bomb_kind(combo: Combo, rules: Rules = _DEFAULT_RULES) -> Bomb | None:
    """The bomb kind of ``combo`` under ``rules`` (``"quad"``, ``"3ds"``, ``"4ds"`` or
    ``"5ds"``), or ``None`` when it is not one of the ruleset's bombs.

    >>> from tienlen.games.tienlen.plays import classify
    >>> bomb_kind(classify("5s 5c 6s 6c 7s 7c")), bomb_kind(classify("5s 5c"))
    ('3ds', None)
    >>> bomb_kind(classify("5s 5c 6s 6c 7s 7c 8s 8c 9s 9c"), Rules.southern()) is None
    True
    """
    if not isinstance(combo, Combo):
        raise ValueError(f"combo must be a Combo, got {type(combo).__name__}")
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a Rules, got {type(rules).__name__}")
    bomb = _shape(combo)
    return bomb if bomb in _bombs_of(rules) else None


def _cut_kind(top: Combo, rules: Rules) -> Bomb | Literal["2"] | None:
    """What a bomb played on ``top`` cuts: ``"2"`` for a 2-combo, the bomb kind for one of
    the ruleset's bombs or a shape its table lists as a target; ``None``: no cut."""
    if all(card.rank == _TWO_RANK for card in top.cards):
        return "2"
    shape = _shape(top)
    if shape is not None and (shape in _bombs_of(rules)
                              or any(target == shape for _, target in rules.cuts)):
        return shape
    return None


def _bomb_value(bomb: Bomb, penalties: Penalties) -> int:
    if bomb == "quad":
        return penalties.quad
    if bomb == "3ds":
        return penalties.three_pairs
    if bomb == "4ds":
        return penalties.four_pairs
    return penalties.five_pairs


def _twos_value(cards: Cards, penalties: Penalties) -> int:
    return sum(penalties.red_two if card.suit in _RED_SUITS else penalties.black_two
               for card in cards if card.rank == _TWO_RANK)


def unplayed_bombs(cards: Cards, rules: Rules) -> tuple[Bomb, ...]:
    """The bombs the loser pays for in ``cards`` (R11.5): of the ruleset's bombs, the set
    of disjoint ones, built from the cards other than 2s (a 2 is paid for as a 2), that is
    worth the most under the penalty table (``Penalties()`` when the rules have none). In
    order from the lowest rank; the value is what is paid, and of two sets worth the same
    either may be listed.

    >>> south = Rules.southern()
    >>> unplayed_bombs(Cards.parse("7s 7c 7d 7h 9s 9c 10s 10c Js Jc 2h"), south)
    ('quad', '3ds')
    >>> # A 4-pair run (6) is worth more than the quad of 7s it would break (4).
    >>> unplayed_bombs(Cards.parse("5s 5c 6s 6c 7s 7c 7d 7h 8s 8c"), south)
    ('4ds',)
    """
    if not isinstance(cards, Cards):
        raise ValueError(f"cards must be Cards, got {type(cards).__name__}")
    if not isinstance(rules, Rules):
        raise ValueError(f"rules must be a Rules, got {type(rules).__name__}")
    penalties = rules.penalties or Penalties()
    counts = [0] * _TWO_RANK
    for card in cards:
        if card.rank < _TWO_RANK:
            counts[card.rank] += 1
    values = tuple((bomb, _bomb_value(bomb, penalties)) for bomb in sorted(_bombs_of(rules)))
    return _best_bombs(tuple(counts), values)[1]


@functools.lru_cache(maxsize=4096)
def _best_bombs(counts: tuple[int, ...],
                values: tuple[tuple[Bomb, int], ...]) -> tuple[int, tuple[Bomb, ...]]:
    """(value, bombs) of the most valuable disjoint bombs in per-rank ``counts``. Suits never
    matter: a quad takes a rank's four cards, a double sequence two cards of each rank."""
    rank = next((r for r, count in enumerate(counts) if count >= 2), None)
    if rank is None:
        return 0, ()
    # Either the lowest usable rank joins no (further) bomb...
    rest = list(counts)
    rest[rank] = 0
    best = _best_bombs(tuple(rest), values)
    # ...or it starts one: a quad, or a double sequence of 3, 4 or 5 ranks from it.
    for bomb, value in values:
        need = 4 if bomb == "quad" else int(bomb[0])
        ranks = range(rank, rank + 1) if bomb == "quad" else range(rank, rank + need)
        take = 4 if bomb == "quad" else 2
        if ranks.stop > _TWO_RANK or any(counts[r] < take for r in ranks):
            continue
        rest = list(counts)
        for r in ranks:
            rest[r] -= take
        sub_value, sub_bombs = _best_bombs(tuple(rest), values)
        if sub_value + value > best[0]:
            best = (sub_value + value, (bomb, *sub_bombs))
    return best


# --- R11.5: cuts --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CutChain:
    """Consecutive cuts on one pile (chặt, chặt chồng): each play a bomb on a 2-combo or on
    a bomb. ``cut`` is the last player cut, who pays ``cutter`` (the last to cut) for every
    combination in ``combos`` (the 2-combo or bomb first cut, then each bomb cut after it).
    """

    cutter: int
    cut: int
    combos: tuple[Combo, ...]

    def value(self, rules: Rules) -> int:
        """What the chain is worth under ``rules``' penalty table (``Penalties()`` if none)."""
        penalties = rules.penalties or Penalties()
        total = 0
        for combo in self.combos:
            kind = _cut_kind(combo, rules)
            if kind == "2":
                total += _twos_value(combo.cards, penalties)
            elif kind is not None:
                total += _bomb_value(kind, penalties)
        return total


def cut_chains(game: Game) -> tuple[CutChain, ...]:
    """Every chain of cuts in ``game`` so far, oldest first, read from its history (each
    play replayed on a copy of the deal to see the pile it landed on). A play is a cut when
    it is one of the ruleset's bombs (:func:`bomb_kind`) and the pile top it beats is a
    2-combo or such a bomb; the seat that owns that pile top is the one cut. A chain ends
    when its pile clears.

    >>> game = Game.from_hands(["2h 3c", "5s 5c 5d 5h 4c", "9s 9c 9d 9h 6c"], leader=0)
    >>> for move in ("2h", "5s 5c 5d 5h", "9s 9c 9d 9h"):
    ...     _ = game.play(move)
    >>> chain, = cut_chains(game)
    >>> chain.cutter, chain.cut, [str(c.cards) for c in chain.combos]
    (2, 1, ['2♥', '5♠ 5♣ 5♦ 5♥'])
    """
    _check_game(game)
    rules = game.rules
    replay = Game.from_hands(game.initial_hands, rules=rules, leader=game.leader)
    chains: list[CutChain] = []
    cut_combos: list[Combo] = []   # what the open chain has cut so far
    cutter = cut = -1
    chain_top = Cards()            # the open chain's last bomb, the pile top while it is open
    for action in game.history:
        combo = action.combo
        if combo is not None:
            top, owner = replay.pile, replay.pile_owner
            is_cut = (top is not None and owner is not None
                      and bomb_kind(combo, rules) is not None
                      and _cut_kind(top, rules) is not None)
            # A chain goes on only while each play cuts the one before it on the same pile;
            # any other play (a lead after the pile cleared, say) closes it.
            if cut_combos and not (is_cut and top is not None
                                   and top.cards == chain_top and owner == cutter):
                chains.append(CutChain(cutter, cut, tuple(cut_combos)))
                cut_combos = []
            if is_cut and top is not None and owner is not None:
                cut_combos.append(top)
                cutter, cut = action.seat, owner
                chain_top = combo.cards
        replay.apply_unchecked(action.move)
    if cut_combos:
        chains.append(CutChain(cutter, cut, tuple(cut_combos)))
    return tuple(chains)


# --- R10.2 and R11.5: a hand's score ---------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Payment:
    """Penalty points ``payer`` gives ``payee`` (R11.5). ``reason`` is ``"left"`` (unplayed
    2s and bombs, times the cóng multiplier when it applies) or ``"cut"`` (a chain of cuts);
    ``detail`` says what was paid for, in words: a :class:`~tienlen.games.tienlen.refusals.Wording` whose
    fields hold the cards it names, for a screen to draw."""

    payer: int
    payee: int
    amount: int
    reason: Literal["left", "cut"]
    detail: str

    def __str__(self) -> str:
        return f"seat {self.payer} pays seat {self.payee} {self.amount}: {self.detail}"


@dataclass(frozen=True, slots=True)
class HandScore:
    """One finished hand on the scoreboard.

    ``places`` gives each seat's place (1 = first out; after an instant win every other
    seat shares last place), ``points`` each seat's R10.2 points (``players - place``), and
    ``payments`` the R11.5 penalties (empty when the rules have no penalty table).
    """

    places: tuple[int, ...]
    points: tuple[int, ...]
    payments: tuple[Payment, ...]
    instant_win: bool

    @property
    def net(self) -> tuple[int, ...]:
        """Per seat, the penalty points received minus those paid; they sum to zero."""
        net = [0] * len(self.places)
        for payment in self.payments:
            net[payment.payer] -= payment.amount
            net[payment.payee] += payment.amount
        return tuple(net)


def _left_payment(game: Game, payer: int, payee: int, penalties: Penalties,
                  cong: bool) -> Payment | None:
    """What ``payer`` owes for the 2s and bombs left in its hand, or ``None`` if nothing."""
    left = game.hand(payer)
    twos = Cards(card for card in left if card.rank == _TWO_RANK)
    bombs = unplayed_bombs(left, game.rules)
    base = _twos_value(twos, penalties) + sum(_bomb_value(b, penalties) for b in bombs)
    amount = base * penalties.cong_multiplier if cong else base
    if amount <= 0:
        return None
    # A Wording, so that a screen draws the 2s its own way (ASCII or Unicode suits).
    what: list[str] = [Wording("left {cards}", cards=twos)] if twos else []
    if bombs:
        what += [" and "] if what else []
        what.append(f"{len(bombs)} unplayed bomb{'s' if len(bombs) > 1 else ''} "
                    f"({', '.join(bombs)})")
    what.append(f" ({base})" + (f", cóng x{penalties.cong_multiplier}" if cong else ""))
    return Payment(payer, payee, amount, "left", Wording.concat(*what))


def _check_game(game: object) -> None:
    if not isinstance(game, Game):
        raise ValueError(f"expected a tienlen Game, got {type(game).__name__}")


def finishing_places(game: Game) -> tuple[int, ...]:
    """Per seat, its place in a finished hand (1 = first out, R9): :attr:`Game.places`, so
    that after an instant win (R11.3) every seat but the winner shares last place. Raises
    :class:`MatchError` while the hand is in play.

    >>> game = Game.from_hands(["3s", "4s", "5s"])
    >>> _ = game.play("3s"); _ = game.play("4s")
    >>> finishing_places(game)
    (1, 2, 3)
    """
    _check_game(game)
    places = game.places
    if places is None:
        raise MatchError("the hand is not over yet: it has no places")
    return places


def score_hand(game: Game) -> HandScore:
    """The score of a finished hand: R10.2 points and, under a penalty table, the R11.5
    payments. Raises :class:`MatchError` while the hand is in play.

    - The loser (last place) pays the winner (first out) for each 2 and each bomb left in
      hand (:func:`unplayed_bombs`); a loser who played no card (cóng) pays
      ``cong_multiplier`` times that.
    - After an instant win (R11.3, :attr:`Game.instant_win`) the others share last
      place; each pays the winner for its own 2s and bombs, not multiplied (no one had a
      turn to play).
    - With ``cut_pays``, each chain of cuts (:func:`cut_chains`) is paid by the last seat
      cut to the last seat that cut, for every combination cut in the chain.
    """
    places = finishing_places(game)
    players = game.players
    winner = game.finished[0]
    instant = game.instant_win is not None
    points = tuple(players - place for place in places)
    penalties = game.rules.penalties
    payments: list[Payment] = []
    if penalties is not None:
        losers = [seat for seat in range(players) if places[seat] == players]
        played = {action.seat for action in game.history if action.cards is not None}
        for loser in losers:
            payment = _left_payment(game, loser, winner, penalties,
                                    cong=not instant and loser not in played)
            if payment is not None:
                payments.append(payment)
        if penalties.cut_pays:
            for chain in cut_chains(game):
                value = chain.value(game.rules)
                if value > 0:
                    pieces: list[str] = ["cut: "]
                    for i, combo in enumerate(chain.combos):
                        pieces += [" then "] if i else []
                        pieces.append(Wording("{cards}", cards=combo.cards))
                    payments.append(Payment(chain.cut, chain.cutter, value, "cut",
                                            Wording.concat(*pieces, f" ({value})")))
    return HandScore(places, points, tuple(payments), instant)


class Match(MatchDriver[Game, "tuple[tuple[int, ...], HandScore]"]):
    """A series of hands between the same seats, with a scoreboard (R10, R11.5), on the
    one match driver (:class:`tienlen.table.match.MatchDriver`): a finished hand stays the
    current one until :meth:`next_hand` deals the next.

    A seat in place *p* (1 = first out) scores ``players - p`` points (R10.2): 3, 2, 1, 0
    with four players. :attr:`results` lists the finishing order of every completed hand,
    including the current one once it is over; :attr:`hand_scores` the full score of each
    (points, places and, under a penalty table, the payments).

    >>> match = Match(4, seed=1)
    >>> match.next_hand()
    Traceback (most recent call last):
    ...
    tienlen.games.tienlen.match.MatchError: hand 1 is not over yet: finish it before dealing the next

    Dealing takes the lock a :class:`~tienlen.games.tienlen.game.Game` acts under, so threads sharing a
    match deal each hand once: of two threads calling :meth:`next_hand` on a finished hand,
    one deals and the other is refused.
    """

    __slots__ = ("_players", "_seed", "_rules", "_game", "_number", "_done", "_scored", "_before")

    _LOCK = _STEPPING
    _STATE_ERROR = MatchError

    def __init__(
        self,
        players: int = 4,
        *,
        seed: int | None = None,
        rules: Rules = _DEFAULT_RULES,
    ) -> None:
        check_players(players)
        if not isinstance(rules, Rules):
            raise ValueError(f"rules must be a Rules; got {rules!r}")
        seed = seed_or_fresh(seed)
        game = Game(players, seed=hand_seed(seed, 1), rules=rules)
        self._players = players
        self._seed = seed
        self._rules = rules
        self._number = 1
        self._done: list[tuple[tuple[int, ...], HandScore]] = []
        self._scored: tuple[Game, HandScore] | None = None
        self._game = game
        # The actions of the finished hands before the current one (for to_json), each hand
        # packed as (seat, mask) pairs in an int64 array, -1 for a pass: ~1.4 KB a hand of
        # random play, where keeping the Games cost ~7 KB. None when unknown (a match
        # unpickled from a release that did not keep them).
        self._before: list[array[int]] | None = []

    @property
    def players(self) -> int:
        """Number of seats."""
        return self._players

    @property
    def seed(self) -> int:
        """The match seed, from which every hand's deal seed derives (:func:`hand_seed`)."""
        return self._seed

    @property
    def rules(self) -> Rules:
        """The ruleset of every hand."""
        return self._rules

    @property
    def hand_number(self) -> int:
        """The current hand's number, 1 for the first."""
        return self._number

    def next_hand(self) -> None:
        """Deal the next hand, led by the winner of the one just finished (R7.3, R10.1).
        Raises :class:`MatchError` (a ``ValueError``) while the current hand is in play."""
        super().next_hand()

    # --- the match driver's hooks ----------------------------------------------------------

    def _not_over_message(self) -> str:
        return f"hand {self._number} is not over yet: finish it before dealing the next"

    def _settle(self, hand: Game) -> tuple[tuple[int, ...], HandScore]:
        score = self._current_score()
        assert score is not None
        return hand.finished, score

    def _record(self, result: tuple[tuple[int, ...], HandScore]) -> None:
        self._done.append(result)

    def _next_deal(self, hand: Game, result: tuple[tuple[int, ...], HandScore]) -> Game:
        if self._before is not None:
            self._before.append(array("q", [v for a in hand.history for v in (
                a.seat, -1 if a.cards is None else a.cards.mask)]))
        game = Game(self._players, seed=hand_seed(self._seed, self._number + 1),
                    rules=self._rules, leader=result[0][0])
        self._number += 1
        return game

    def _current_score(self) -> HandScore | None:
        """The current hand's score once it is over (computed once per hand)."""
        game = self._game
        if not game.is_over:
            return None
        if self._scored is None or self._scored[0] is not game:
            self._scored = (game, score_hand(game))
        return self._scored[1]

    @property
    def results(self) -> list[tuple[int, ...]]:
        """The finishing order of every completed hand, oldest first (a new list)."""
        with _STEPPING:   # the completed hands and the current one of one moment
            results = [finished for finished, _ in self._done]
            if self._game.is_over:
                results.append(self._game.finished)
            return results

    @property
    def hand_scores(self) -> list[HandScore]:
        """The score of every completed hand, oldest first, the current one included once
        it is over (a new list)."""
        with _STEPPING:   # not between next_hand's updates (the hand counted twice)
            scores = [score for _, score in self._done]
            current = self._current_score()
            if current is not None:
                scores.append(current)
            return scores

    @property
    def place_counts(self) -> tuple[tuple[int, ...], ...]:
        """Per seat, how many times it finished in each place: ``place_counts[seat][0]`` is
        its number of wins. After an instant win the other seats each count a last place."""
        counts = [[0] * self._players for _ in range(self._players)]
        for score in self.hand_scores:
            for seat, place in enumerate(score.places):
                counts[seat][place - 1] += 1
        return tuple(tuple(row) for row in counts)

    @property
    def scores(self) -> tuple[int, ...]:
        """Per seat, its points over the completed hands (R10.2)."""
        totals = [0] * self._players
        for score in self.hand_scores:
            for seat, points in enumerate(score.points):
                totals[seat] += points
        return tuple(totals)

    @property
    def penalties(self) -> tuple[int, ...]:
        """Per seat, its net penalty points over the completed hands (R11.5): received
        minus paid, so they sum to zero. All zero when the rules have no penalty table."""
        totals = [0] * self._players
        for score in self.hand_scores:
            for seat, net in enumerate(score.net):
                totals[seat] += net
        return tuple(totals)

    @property
    def totals(self) -> tuple[int, ...]:
        """Per seat, R10.2 points plus net R11.5 penalty points."""
        with _STEPPING:   # both sums over the same hands
            return tuple(p + q for p, q in zip(self.scores, self.penalties))

    # --- copies and equality (as the Guandan Match): a copy plays on independently -----------

    def copy(self) -> Match:
        """An independent copy: playing on it (or dealing its next hand) leaves this match
        as it was.

        >>> match = Match(3, seed=2)
        >>> other = match.copy()
        >>> _ = other.game.play(other.game.legal_moves()[0])
        >>> other == match, len(match.game.history)
        (False, 0)
        """
        other = Match.__new__(Match)
        with _STEPPING:     # not half-way through another thread's deal or action
            other._players = self._players
            other._seed = self._seed
            other._rules = self._rules
            other._number = self._number
            other._done = list(self._done)    # (finishing order, frozen HandScore) pairs
            other._scored = None
            other._game = self._game.copy()
            other._before = None if self._before is None else list(self._before)
        return other

    __copy__ = copy

    def __deepcopy__(self, memo: dict[int, object]) -> Match:
        return self.copy()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Match):
            return NotImplemented
        return (self._players == other._players and self._seed == other._seed
                and self._rules == other._rules and self._number == other._number
                and self._done == other._done and self._game == other._game)

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __getstate__(self) -> tuple[object, ...]:
        # The cached score of the current hand is not state: a copy computes its own. The
        # lock is module-wide, never an attribute, so nothing unpicklable is held.
        with _STEPPING:
            return (self._players, self._seed, self._rules, self._number, list(self._done),
                    self._game.copy(), None if self._before is None else list(self._before))

    def __setstate__(self, state: tuple[object, ...]) -> None:
        (self._players, self._seed, self._rules, self._number, self._done,
         self._game) = state[:6]  # type: ignore[assignment]
        # A pickle of a release that did not keep the earlier hands has six fields.
        self._before = state[6] if len(state) > 6 else None  # type: ignore[assignment]
        self._scored = None

    def to_json(self, *, indent: int | None = None) -> str:
        """The match as versioned JSON (schema ``tienlen.match``): its players, rules and
        seed, and every hand's actions (each deal derives from the seed), the current hand
        last. Raises :class:`MatchError` for a match unpickled from a release that did not
        keep its earlier hands.

        >>> match = Match(2, seed=4)
        >>> _ = match.game.play(match.game.legal_plays()[0])
        >>> Match.from_json(match.to_json()) == match
        True
        """
        with _STEPPING:
            if self._before is None:
                raise MatchError("this match's earlier hands are not known (it was unpickled "
                                 "from an older release): it cannot be written")
            histories = [[(packed[i], None if packed[i + 1] < 0 else Cards(packed[i + 1]))
                          for i in range(0, len(packed), 2)] for packed in self._before]
            histories.append([(a.seat, a.cards) for a in self._game.history])
        return match_record_json(players=self._players, rules=self._rules, seed=self._seed,
                                 hands=histories, indent=indent)

    @classmethod
    def from_json(cls, text: str | bytes) -> Match:
        """Rebuild a match written by :meth:`to_json`, replaying every hand's actions
        through the checked path and dealing each next hand as play did; the first bad
        field or action raises :class:`~tienlen.errors.ReplayError` naming it
        (``hands[1][4]``: hand 2's fifth action)."""
        return cls.replayed(text)[0]

    @classmethod
    def replayed(cls, text: str | bytes) -> tuple[Match, list[Game]]:
        """:meth:`from_json`, and a copy of every hand's game as it stood when its last
        action was replayed (the current hand last): what a review of the file walks."""
        players, rules, seed, hands = read_match_record(text)
        match = cls(players, seed=seed, rules=rules)
        games: list[Game] = []
        for number, actions in enumerate(hands):
            if number:
                if not match.game.is_over:
                    raise ReplayError(f"hand {number} is not over, yet another follows",
                                      f"hands[{number}]")
                match.next_hand()
            replay_hand(match.game, actions, players, f"hands[{number}]")
            games.append(match.game.copy())
        return match, games

    def __repr__(self) -> str:
        return (f"<Match players={self._players} hand={self._number} "
                f"scores={self.scores}>")
