"""Guandan bots: players that choose from one seat's :class:`~tienlen.guandan.game.GameView`.

=====  ====================  ==========================================================
level  class                 plays
=====  ====================  ==========================================================
L1     :class:`GreedyBot`    the plan's basic AI: leads its lowest single, beats with the
                             smallest play that beats
L2     :class:`PlanBot`      splits its hand into groups and plays by the plan, keeps bombs
                             until they matter, lets a partner's winning play stand
L3     :class:`SearchBot`    information-set Monte Carlo over the core's native playouts
=====  ====================  ==========================================================

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

import random
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .. import _guandan
from .cards import Cards
from .game import GameView, return_candidates, single_value, tribute_candidates
from .plays import Kind, Play

__all__ = ["Bot", "GreedyBot", "PlanBot", "SearchBot", "make_bot", "LEVELS", "weakest_first",
           "plan_groups", "Decision"]

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
    """A bot's choice with the reason a learner can use."""

    kind: str
    cards: object
    reason: str


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

    def explain(self, view: GameView) -> Decision:
        if view.tribute_step == "give":
            return Decision("give_tribute", self.tribute(view), "the rules make you give your highest card")
        if view.tribute_step == "return":
            return Decision("return_tribute", self.return_card(view),
                            "return a low card you do not need")
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
            return Decision("play", best, "lead your lowest card")
        if not plays:
            return Decision("pass", None, "nothing beats the play on the table")
        return Decision("play", min(plays, key=play_strength), "the smallest play that beats")


# ---------------------------------------------------------------- the L2 plan

def _rank_counts(hand: Cards, level: int, wild: int) -> tuple[list[int], int, int, int]:
    counts = [0] * 15
    wilds = js = jb = 0
    for c in hand.ids:
        if c == wild:
            wilds += 1
        elif c == 52:
            js += 1
        elif c == 53:
            jb += 1
        else:
            counts[c // 4 + 2] += 1
    return counts, wilds, js, jb


def plan_groups(hand: Cards, level: int, wild_count: int = 2) -> list[tuple[str, int, int]]:
    """A split of ``hand`` into groups (kind, top natural rank, cards), greedily: bombs,
    plates, three pairs and straights where they save groups, then triples with pairs,
    pairs and singles. Wilds are left out (they join whatever needs them at play time).

    >>> plan_groups(Cards.parse("3s 4d 5c 6h 7s 9s 9d Ks Kd Kc"), 2)
    [('straight', 7, 5), ('full_house', 13, 5)]
    """
    wild = -1 if wild_count == 0 else (level - 2) * 4 + 1
    counts, _, js, jb = _rank_counts(hand, level, wild)
    groups: list[tuple[str, int, int]] = []
    if js == 2 and jb == 2:
        groups.append(("joker_bomb", 16, 4))
        js = jb = 0
    for r in range(2, 15):
        if counts[r] >= 4:
            groups.append(("bomb", r, counts[r]))
            counts[r] = 0

    def ext(r: int) -> int:             # A sits low in runs as well
        return counts[14] if r == 1 else counts[r]

    def take(r: int, n: int) -> None:
        counts[14 if r == 1 else r] -= n

    # Plates (two consecutive triples), then three pairs, then straights that use singles.
    for top in range(14, 1, -1):
        if ext(top) >= 3 and ext(top - 1) >= 3:
            take(top, 3)
            take(top - 1, 3)
            groups.append(("plate", top, 6))
    for top in range(14, 2, -1):
        if all(1 < ext(r) < 4 and ext(r) == 2 for r in (top, top - 1, top - 2)):
            for r in (top, top - 1, top - 2):
                take(r, 2)
            groups.append(("three_pairs", top, 6))
    for top in range(14, 4, -1):
        window = range(top - 4, top + 1)
        if all(ext(r) >= 1 for r in window):
            lone = sum(1 for r in window if ext(r) == 1)
            if lone >= 3:
                for r in window:
                    take(r, 1)
                groups.append(("straight", top, 5))
    triples = [r for r in range(2, 15) if counts[r] == 3]
    pairs = [r for r in range(2, 15) if counts[r] == 2]
    for r in triples:
        counts[r] = 0
        if pairs:
            p = pairs.pop(0)
            counts[p] = 0
            groups.append(("full_house", r, 5))
        else:
            groups.append(("triple", r, 3))
    for r in range(2, 15):
        if counts[r] == 2:
            groups.append(("pair", r, 2))
        elif counts[r] == 1:
            groups.append(("single", r, 1))
    if js == 2:
        groups.append(("pair", 15, 2))
    elif js:
        groups.append(("single", 15, 1))
    if jb == 2:
        groups.append(("pair", 16, 2))
    elif jb:
        groups.append(("single", 16, 1))
    return groups


def _groups_after(hand: Cards, play: Play, level: int, wc: int) -> int:
    rest = hand - play.cards
    return len(plan_groups(rest, level, wc)) if len(rest) else 0


class PlanBot(Bot):
    """L2: plays by a split of its hand into groups, keeps bombs until they matter, and
    lets its partner's winning play stand unless beating it wins the hand for the team."""

    level = "L2"

    def choose_play(self, view: GameView) -> Decision:
        hand, level, wc = view.hand, view.level, view.config.wild_count
        plays = view.legal_plays
        before = len(plan_groups(hand, level, wc))
        # Going out now always helps the team.
        for p in plays:
            if p.size == len(hand):
                return Decision("play", p, "this play empties your hand")
        if view.pile is None:
            return self._lead(view, plays, before)
        return self._follow(view, plays, before)

    def _cost(self, view: GameView, p: Play, before: int) -> tuple[int, tuple[int, int, int, int]]:
        after = _groups_after(view.hand, p, view.level, view.config.wild_count)
        return (after - before, play_strength(p))

    def _lead(self, view: GameView, plays: Sequence[Play], before: int) -> Decision:
        plain = [p for p in plays if not p.is_bomb and not p.uses_wild] or list(plays)
        # The play that leaves the fewest groups, shedding the most cards, lowest first.
        best = min(plain, key=lambda p: (_groups_after(view.hand, p, view.level, view.config.wild_count),
                                         play_strength(p)[1], -p.size))
        return Decision("play", best, f"lead your {best.describe()}: it follows your plan and "
                                      "keeps your strong cards for later")

    def _follow(self, view: GameView, plays: Sequence[Play], before: int) -> Decision:
        if not plays:
            return Decision("pass", None, "nothing you hold beats it")
        owner = view.pile_owner
        opp_sizes = [view.hand_sizes[s] for s in range(4)
                     if s != view.seat and s != view.partner and view.hand_sizes[s]]
        danger = bool(opp_sizes) and min(opp_sizes) <= 6
        if owner == view.partner:
            return Decision("pass", None, "your partner is winning this trick: let it stand")
        plain = [p for p in plays if not p.is_bomb]
        assert view.pile is not None  # _follow answers a pile
        pile_value = play_strength(view.pile)[1]
        if not danger and pile_value < 13:
            # Keep jokers and level cards for tricks worth them.
            plain = [p for p in plain if play_strength(p)[1] < 15] or []
        fits = [p for p in plain if self._cost(view, p, before)[0] <= 0]
        if fits:
            best = min(fits, key=lambda p: self._cost(view, p, before))
            return Decision("play", best, f"{best.describe()} beats it without breaking your plan")
        if danger and plain:
            best = min(plain, key=lambda p: self._cost(view, p, before))
            return Decision("play", best, "an opponent is close to going out: beat it even "
                                          "if it breaks a group")
        bombs = [p for p in plays if p.is_bomb]
        if bombs:
            owner_left = view.hand_sizes[owner] if owner is not None else 27
            short = before <= 3
            if danger or owner_left <= 8 or short:
                best = min(bombs, key=play_strength)
                why = ("you are close to going out" if short else
                       "an opponent is close to going out")
                return Decision("play", best, f"bomb now: {why}")
        return Decision("pass", None, "keep your bombs and groups: it is too early to spend them")


# ---------------------------------------------------------------- L3

class SearchBot(Bot):
    """L3: for each candidate action (the L2 choice, a few weakest plays, pass), deal the
    unseen cards at random to the other seats (consistent with their counts) and run the
    core's greedy playouts; pick the action whose team went out first most often."""

    level = "L3"

    def __init__(self, seed: int | None = None, time_ms: int = 120, max_candidates: int = 6) -> None:
        super().__init__(seed)
        self.time_ms = time_ms
        self.max_candidates = max_candidates
        self._plan = PlanBot(seed)

    def choose_play(self, view: GameView) -> Decision:
        # The budget covers the whole decision, the plan's own choice included.
        deadline = time.perf_counter() + self.time_ms / 1000
        plays = list(view.legal_plays)
        base = self._plan.choose_play(view)
        cands: list[Play | None] = []
        if base.kind == "play":
            cands.append(base.cards)  # type: ignore[arg-type]
        for p in weakest_first(plays):
            if len(cands) >= self.max_candidates:
                break
            if p not in cands:
                cands.append(p)
        if view.can_pass:
            cands.append(None)
        if len(cands) <= 1:
            return base
        wins = [0] * len(cands)
        tries = [0] * len(cands)
        unseen = self._unseen(view)
        my_team = {view.seat, view.partner}
        rounds = 0
        while time.perf_counter() < deadline and rounds < 200:
            rounds += 1
            hands = self._sample(view, unseen)
            for i, c in enumerate(cands):
                if rounds > 1 and time.perf_counter() >= deadline:
                    break
                st = self._state(view, hands)
                if c is None:
                    st.apply(0, 0, 0)
                else:
                    st.apply(c.cards.once, c.cards.twice, c.code)
                if st.is_over:
                    order = st.finished
                else:
                    order = st.playout(0, _guandan.GREEDY)
                tries[i] += 1
                wins[i] += _hand_score(order, my_team)
        # The plan's own choice (index 0 when it plays) keeps a small edge: the sampled deals
        # are few, and a near tie is better settled by the plan than by noise.
        bonus = [0.15 if i == 0 and base.kind == "play" else 0.0 for i in range(len(cands))]
        best = max(range(len(cands)), key=lambda i: (wins[i] / max(1, tries[i]) + bonus[i], -i))
        choice = cands[best]
        rate = wins[best] / max(1, tries[best])
        if choice is None:
            return Decision("pass", None, f"passing scores {rate:+.2f} levels on simulated deals")
        return Decision("play", choice, f"{choice.describe()} scores {rate:+.2f} levels on "
                                        "simulated deals")

    def _unseen(self, view: GameView) -> Counter[int]:
        seen = Counter(view.hand.ids)
        for a in view.history:
            if a.action == "play" and a.cards is not None:
                seen.update(a.cards.ids)
        full = Counter({c: 2 for c in range(54)})
        # Tribute cards the seat saw change hands are accounted for by the hand counts only.
        return full - seen

    def _sample(self, view: GameView, unseen: Counter[int]) -> list[tuple[int, int]]:
        pool = list(unseen.elements())
        self.rng.shuffle(pool)
        out: list[tuple[int, int]] = []
        pos = 0
        for s in range(4):
            if s == view.seat:
                out.append(view.hand.masks)
                continue
            n = view.hand_sizes[s]
            ids = pool[pos:pos + n]
            pos += n
            out.append(Cards.from_ids(ids).masks if ids else (0, 0))
        return out

    def _state(self, view: GameView, hands: Sequence[tuple[int, int]]) -> _guandan.GdState:
        pile = view.pile
        flags = view.config.flags
        t0 = (1 << view.teams[0][0]) | (1 << view.teams[0][1])
        if not t0 & 1:
            t0 ^= 15
        passes = 0
        owner = view.pile_owner
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
        return _guandan.GdState.from_fields(
            hands, view.level, view.seat, flags, t0,
            (0, 0) if pile is None else pile.cards.masks, 0 if pile is None else pile.code,
            -1 if pile is None or owner is None else owner, passes, view.finished)


def _hand_score(order: tuple[int, ...], my_team: set[int]) -> int:
    """Levels the hand is worth to ``my_team`` (G7.1 with the default 3/2/1): the gain when
    its player went out first, minus the opponents' gain otherwise."""
    first = order[0]
    team = my_team if first in my_team else None
    mates = [s for s in order[1:] if (s in my_team) == (first in my_team)]
    place = order.index(mates[0]) + 1 if mates else 4
    gain = {2: 3, 3: 2, 4: 1}[place]
    return gain if team is not None else -gain


_BY_LEVEL = {"l1": GreedyBot, "l2": PlanBot, "l3": SearchBot}


def make_bot(level: str, seed: int | None = None, **options: Any) -> Bot:
    """A Guandan bot of ``level`` ("L1", "L2" or "L3", any case).

    >>> make_bot("l2", seed=4)
    <PlanBot L2 seed=4>
    """
    cls = _BY_LEVEL.get(str(level).lower())
    if cls is None:
        raise ValueError(f"unknown Guandan bot level {level!r}; choose from {', '.join(LEVELS)}")
    return cls(seed, **options)



