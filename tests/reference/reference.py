"""An independent, deliberately simple model of the combination rules (RULES.md R1-R5, R11).

This module is the project's second opinion on the native core. It is written from
RULES.md alone and imports nothing from ``tienlen``, so that a misreading of the rules
has to be made twice, independently, before the differential tests stop catching it.
It favours obviousness over speed: ``classify`` counts ranks, and ``legal_moves`` tries
every subset of the hand of a size that could possibly be played.

Cards are ints 0..51 (``rank * 4 + suit``, rank 0..12 = 3 4 5 6 7 8 9 10 J Q K A 2,
suit 0..3 = spades clubs diamonds hearts) and a set of cards is a bit mask.

A ruleset is a plain ``Ruleset`` tuple (or a dict with some of its fields), typed in here
from the table in the issue, not imported: ``twos_in_sequences``, ``cuts`` (pairs ``(bomb,
target)``: a bomb of that kind beats a pile of that class whatever the tops, except that
``b == t`` means "a lower one of the same kind"), ``out_of_turn`` (the bombs a locked-out
player may still play, on what ``cuts`` says they beat) and ``instant_wins``. Every function
that depends on the rules takes ``rules=`` (default: the contract) beside the older
``twos_in_sequences`` argument, which a ``rules`` value overrides.

>>> classify(parse("J♠ Q♠ K♦ A♥ 2♣"))  # R2.7: a 2 may top a sequence
(5, 5, 49)
>>> classify(parse("A♠ 2♠ 3♠")) is None  # ... but never wrap round
True
>>> beats(parse("3♠ 3♣ 3♦ 3♥"), parse("2♠"))  # R4.1: a quad bombs a single 2
True
>>> beats(parse("3♠ 3♣ 3♦ 3♥"), parse("2♠ 2♥"))  # ... not a pair of 2s, by the contract
False
>>> beats(parse("3♠ 3♣ 3♦ 3♥"), parse("2♠ 2♥"), rules=SOUTHERN)  # R11.1: but in the South
True
"""

from __future__ import annotations

from itertools import combinations
from typing import Any, Iterable, Iterator, Mapping, NamedTuple

SINGLE = 1
PAIR = 2
TRIPLE = 3
QUAD = 4
SEQUENCE = 5
DOUBLE_SEQUENCE = 6

KIND_NAMES = {
    SINGLE: "single",
    PAIR: "pair",
    TRIPLE: "triple",
    QUAD: "quad",
    SEQUENCE: "sequence",
    DOUBLE_SEQUENCE: "double sequence",
}

RANKS = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2"]
SUITS = ["♠", "♣", "♦", "♥"]
_ASCII_SUITS = {"s": 0, "c": 1, "d": 2, "h": 3}
NUM_RANKS = 13
NUM_CARDS = 52
TWO_RANK = 12
FULL_DECK = (1 << NUM_CARDS) - 1

# --------------------------------------------------------------------- rules as data

#: The combinations that can be bombs, and their card counts: a quad and double sequences
#: of exactly 3, 4 and 5 pairs (a longer double sequence is no bomb).
BOMB_CARDS = {"quad": 4, "3ds": 6, "4ds": 8, "5ds": 10}
BOMB_KINDS = tuple(BOMB_CARDS)
#: What a bomb can cut: a single, pair or triple of 2s, or a bomb.
TARGET_KINDS = ("2", "22", "222", "quad", "3ds", "4ds", "5ds")
INSTANT_WIN_KINDS = ("four_twos", "dragon", "six_pairs", "five_pairs")


class Ruleset(NamedTuple):
    """One ruleset as plain data (hashable, so the solver can memoise on it)."""

    twos_in_sequences: bool
    cuts: frozenset[tuple[str, str]]
    out_of_turn: frozenset[str]
    instant_wins: frozenset[str]


#: RULES.md R4.1, row by row.
CONTRACT = Ruleset(
    twos_in_sequences=True,
    cuts=frozenset({("quad", "2"), ("3ds", "2"), ("4ds", "22"), ("5ds", "222")}),
    out_of_turn=frozenset(BOMB_KINDS),
    instant_wins=frozenset(),
)
#: R2.8.
NO_TWOS = CONTRACT._replace(twos_in_sequences=False)
#: R11: the chặt table row by row (R11.1), only the 4-pair double sequence out of turn
#: (R11.2), every instant win (R11.3), no 2 in a run (R11.4).
SOUTHERN = Ruleset(
    twos_in_sequences=False,
    cuts=frozenset(
        {("3ds", "2")}
        | {("quad", t) for t in ("2", "22", "3ds", "quad")}
        | {("4ds", t) for t in ("2", "22", "3ds", "quad", "4ds")}
    ),
    out_of_turn=frozenset({"4ds"}),
    instant_wins=frozenset(INSTANT_WIN_KINDS),
)
PRESETS = {"default": CONTRACT, "no-twos": NO_TWOS, "southern": SOUTHERN}


def ruleset(twos_in_sequences: bool = True, rules: Ruleset | Mapping[str, Any] | None = None) -> Ruleset:
    """The ``Ruleset`` for the arguments: ``rules`` (a Ruleset, or a dict of some fields,
    the rest from the contract), else the contract with ``twos_in_sequences``."""
    if rules is None:
        return CONTRACT._replace(twos_in_sequences=twos_in_sequences)
    if isinstance(rules, Ruleset):
        return rules
    fields = {**CONTRACT._asdict(), **dict(rules)}
    unknown = set(fields) - set(Ruleset._fields)
    if unknown:
        raise ValueError(f"unknown rules fields {sorted(unknown)}")
    return Ruleset(
        twos_in_sequences=bool(fields["twos_in_sequences"]),
        cuts=frozenset(tuple(pair) for pair in fields["cuts"]),
        out_of_turn=frozenset(fields["out_of_turn"]),
        instant_wins=frozenset(fields["instant_wins"]),
    )


def single_toggles() -> list[tuple[str, Ruleset]]:
    """Every ruleset that differs from the contract in exactly one thing: each cut pair
    added or removed, each out-of-turn bomb removed, each instant win added, and 2s barred
    from runs. ``(description, ruleset)`` pairs, 37 of them."""
    out = [("twos_in_sequences=False", NO_TWOS)]
    for b in BOMB_KINDS:
        for t in TARGET_KINDS:
            pair = (b, t)
            if pair in CONTRACT.cuts:
                out.append((f"cut {b}>{t} removed", CONTRACT._replace(cuts=CONTRACT.cuts - {pair})))
            else:
                out.append((f"cut {b}>{t} added", CONTRACT._replace(cuts=CONTRACT.cuts | {pair})))
    for b in BOMB_KINDS:
        out.append((f"{b} not out of turn", CONTRACT._replace(out_of_turn=CONTRACT.out_of_turn - {b})))
    for w in INSTANT_WIN_KINDS:
        out.append((f"instant win {w}", CONTRACT._replace(instant_wins=frozenset({w}))))
    return out


# ----------------------------------------------------------------------------- cards


def rank(card: int) -> int:
    return card // 4


def suit(card: int) -> int:
    return card % 4


def card_str(card: int) -> str:
    """``card_str(0) == '3♠'``, ``card_str(51) == '2♥'``."""
    return RANKS[rank(card)] + SUITS[suit(card)]


def cards_of(mask: int) -> list[int]:
    """The card indices in ``mask``, weakest first."""
    return [c for c in range(mask.bit_length()) if (mask >> c) & 1]


def cards_str(mask: int) -> str:
    """Readable form of a mask, weakest first: ``cards_str(0b11) == '3♠ 3♣'``."""
    if mask == 0:
        return "(none)"
    if mask >> NUM_CARDS:
        return f"<invalid mask {mask:#x}>"
    return " ".join(card_str(c) for c in cards_of(mask))


def parse(text: str) -> int:
    """Mask from card strings like ``"10♥ 2s J♣"`` (``s c d h`` stand for the suits).

    >>> cards_str(parse("2h 3s"))
    '3♠ 2♥'
    """
    mask = 0
    for token in text.split():
        face, s = token[:-1].upper(), token[-1]
        suit_index = SUITS.index(s) if s in SUITS else _ASCII_SUITS[s.lower()]
        card = RANKS.index(face) * 4 + suit_index
        if (mask >> card) & 1:
            raise ValueError(f"card {token} given twice")
        mask |= 1 << card
    return mask


def check_mask(mask: int) -> None:
    if mask < 0 or mask >> NUM_CARDS:
        raise ValueError(f"mask {mask:#x} has bits outside the 52-card deck")


def rank_counts(mask: int) -> list[int]:
    """How many cards of each rank the mask holds (a nibble of the mask per rank)."""
    return [((mask >> (4 * r)) & 0xF).bit_count() for r in range(NUM_RANKS)]


def lowest_card(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def highest_card(mask: int) -> int:
    return mask.bit_length() - 1


# ------------------------------------------------------------------------ combos (R2)


def classify(
    mask: int, twos_in_sequences: bool = True, rules: Ruleset | Mapping[str, Any] | None = None
) -> tuple[int, int, int] | None:
    """``(kind, ncards, top_card)`` of the combination ``mask`` is, or None (R2).

    >>> classify(parse("K♠ K♣ A♦ A♥ 2♠ 2♥"))
    (6, 6, 51)
    >>> classify(parse("K♠ K♣ A♦ A♥ 2♠ 2♥"), twos_in_sequences=False) is None
    True
    """
    twos_in_sequences = ruleset(twos_in_sequences, rules).twos_in_sequences
    check_mask(mask)
    if mask == 0:
        return None
    n = mask.bit_count()
    top = highest_card(mask)  # R3.2: index order is strength order
    counts = rank_counts(mask)
    ranks = [r for r in range(NUM_RANKS) if counts[r]]
    if len(ranks) == 1:
        # n is 1..4 here: a rank has only four cards.
        return ({1: SINGLE, 2: PAIR, 3: TRIPLE, 4: QUAD}[n], n, top)
    if len(ranks) < 3 or ranks[-1] - ranks[0] + 1 != len(ranks):
        return None
    # Ranks are consecutive in the linear order 3..A,2 with no wrap (R2.7), so a 2
    # in a run is necessarily its top rank; only the variant forbids it outright.
    if not twos_in_sequences and ranks[-1] == TWO_RANK:
        return None
    per_rank = {counts[r] for r in ranks}
    if per_rank == {1}:
        return (SEQUENCE, n, top)
    if per_rank == {2}:
        return (DOUBLE_SEQUENCE, n, top)
    return None


def code(mask: int, twos_in_sequences: bool = True, rules: Ruleset | Mapping[str, Any] | None = None) -> int:
    """The core's packed code ``kind << 12 | ncards << 6 | top``, 0 if not a combination."""
    combo = classify(mask, twos_in_sequences, rules)
    if combo is None:
        return 0
    kind, n, top = combo
    return kind << 12 | n << 6 | top


def describe(mask: int, twos_in_sequences: bool = True, rules: Ruleset | Mapping[str, Any] | None = None) -> str:
    """``'pair 5♦ 5♥'`` style text, for assertion messages."""
    combo = classify(mask, twos_in_sequences, rules)
    name = "not a combination" if combo is None else KIND_NAMES[combo[0]]
    return f"{name} [{cards_str(mask)}]"


def is_two_combo(mask: int) -> bool:
    """A single, pair or triple made only of 2s (rank 12, cards 48..51)."""
    return (
        0 <= mask < 1 << NUM_CARDS
        and 1 <= mask.bit_count() <= 3
        and all(rank(c) == TWO_RANK for c in cards_of(mask))
    )


def bomb_kind(mask: int, twos_in_sequences: bool = True, rules: Ruleset | Mapping[str, Any] | None = None) -> str | None:
    """``"quad"``, ``"3ds"``, ``"4ds"`` or ``"5ds"`` if ``mask`` is that bomb, else None.

    >>> bomb_kind(parse("2♠ 2♣ 2♦ 2♥")), bomb_kind(parse("3♠ 3♣ 4♠ 4♣ 5♦ 5♥"))
    ('quad', '3ds')
    >>> bomb_kind(parse("3s 3c 4s 4c 5s 5c 6s 6c 7s 7c 8s 8c")) is None  # six pairs: no bomb
    True
    """
    combo = classify(mask, twos_in_sequences, rules)
    if combo is None:
        return None
    kind, n, _ = combo
    if kind == QUAD:
        return "quad"
    if kind == DOUBLE_SEQUENCE and n in (6, 8, 10):
        return f"{n // 2}ds"
    return None


def target_kind(mask: int, twos_in_sequences: bool = True, rules: Ruleset | Mapping[str, Any] | None = None) -> str | None:
    """The class a cut table names ``mask`` by: ``"2"``, ``"22"``, ``"222"`` for 2s, else
    its bomb kind, else None (nothing can cut it across kinds)."""
    if is_two_combo(mask):
        return "2" * mask.bit_count()
    return bomb_kind(mask, twos_in_sequences, rules)


# ----------------------------------------------------------------------- beating (R3, R4)


def cuts_by_table(
    play_mask: int, pile_mask: int, twos_in_sequences: bool = True,
    rules: Ruleset | Mapping[str, Any] | None = None,
) -> bool:
    """Does the cut table (R4.1; R11.1) let ``play_mask`` beat ``pile_mask``? An entry
    ``(b, b)`` means "a lower bomb of the same kind": the play's top card must be higher.

    >>> cuts_by_table(parse("4s 4c 4d 4h"), parse("3s 3c 3d 3h"))  # same kind is R3.1, not the table
    False
    >>> cuts_by_table(parse("4s 4c 4d 4h"), parse("3s 3c 3d 3h"), rules=SOUTHERN)
    True
    """
    rs = ruleset(twos_in_sequences, rules)
    b = bomb_kind(play_mask, rules=rs)
    t = target_kind(pile_mask, rules=rs) if pile_mask else None
    if b is None or t is None or (b, t) not in rs.cuts:
        return False
    return b != t or highest_card(play_mask) > highest_card(pile_mask)


def beats(
    play_mask: int, pile_mask: int, twos_in_sequences: bool = True,
    rules: Ruleset | Mapping[str, Any] | None = None,
) -> bool:
    """May ``play_mask`` go on ``pile_mask``? ``pile_mask == 0`` is a lead: any combination.

    >>> beats(parse("5♥ 5♠"), parse("5♦ 5♣"))  # R3.2
    True
    >>> beats(parse("3♠ 3♣ 4♠ 4♣ 5♠ 5♣ 6♠ 6♣"), parse("2♥"))  # R4.2: wrong row
    False
    """
    rs = ruleset(twos_in_sequences, rules)
    play = classify(play_mask, rules=rs)
    if play is None:
        return False
    if pile_mask == 0:
        return True
    pile = classify(pile_mask, rules=rs)
    if pile is None:
        raise ValueError(f"the pile {cards_str(pile_mask)} is not a combination")
    if play[0] == pile[0] and play[1] == pile[1]:
        return play[2] > pile[2]  # R3.1; also R4.3 for bombs on the pile
    return cuts_by_table(play_mask, pile_mask, rules=rs)  # R4.1 / R4.2; R11.1


def locked_out_get_turn(
    pile_mask: int, twos_in_sequences: bool = True,
    rules: Ruleset | Mapping[str, Any] | None = None,
) -> bool:
    """R5.3 (R11.2): does a locked-out player get the turn on this pile? Yes while the pile
    is a class some out-of-turn bomb cuts by the table, whatever anyone holds.

    >>> locked_out_get_turn(parse("2♥")), locked_out_get_turn(parse("9♥"))
    (True, False)
    >>> locked_out_get_turn(parse("2♠ 2♥"), rules=SOUTHERN)  # a 4-pair run cuts a pair of 2s
    True
    >>> locked_out_get_turn(parse("3s 3c 3d 3h"), rules=SOUTHERN)  # ... and any quad
    True
    """
    rs = ruleset(twos_in_sequences, rules)
    if pile_mask == 0:
        return False
    t = target_kind(pile_mask, rules=rs)
    return any(b in rs.out_of_turn and target == t for b, target in rs.cuts)


# ------------------------------------------------------------------------- legal moves


def _playable(
    mask: int,
    pile_mask: int,
    locked_out: bool,
    must_include: int | None,
    rs: Ruleset,
) -> bool:
    if must_include is not None and not (mask >> must_include) & 1:
        return False
    if locked_out:
        # R5.2 / R11.2: a locked-out player may only play an out-of-turn bomb, and only on
        # what the cut table says it beats.
        return bomb_kind(mask, rules=rs) in rs.out_of_turn and cuts_by_table(mask, pile_mask, rules=rs)
    return beats(mask, pile_mask, rules=rs)


def _subsets_of_sizes(hand: int, sizes: Iterable[int]) -> Iterator[int]:
    bits = [1 << c for c in cards_of(hand)]
    for k in sorted(set(sizes)):
        for chosen in combinations(bits, k):
            yield sum(chosen)


def _useful_sizes(hand: int, pile_mask: int, rs: Ruleset) -> range | set[int]:
    if pile_mask == 0:
        return range(1, hand.bit_count() + 1)
    # Only the pile's own size (R3.1) or the size of a bomb the table lets cut it.
    t = target_kind(pile_mask, rules=rs)
    return {pile_mask.bit_count()} | {BOMB_CARDS[b] for b, target in rs.cuts if target == t}


def legal_moves(
    hand: int,
    pile_mask: int = 0,
    locked_out: bool = False,
    must_include: int | None = None,
    twos_in_sequences: bool = True,
    rules: Ruleset | Mapping[str, Any] | None = None,
) -> set[int]:
    """Every subset of ``hand`` that may be played now, by brute force over subsets.

    >>> sorted(cards_str(m) for m in legal_moves(parse("2♠ 2♥ 3♦"), parse("2♣")))
    ['2♥']
    """
    rs = ruleset(twos_in_sequences, rules)
    check_mask(hand)
    check_mask(pile_mask)
    return {
        m
        for m in _subsets_of_sizes(hand, _useful_sizes(hand, pile_mask, rs))
        if _playable(m, pile_mask, locked_out, must_include, rs)
    }


def combos_in(hand: int, twos_in_sequences: bool = True, rules: Ruleset | Mapping[str, Any] | None = None) -> Iterator[int]:
    """Every combination contained in ``hand``, built rank by rank instead of by brute force.

    The shapes follow R2 directly: some cards of one rank, or a window of three or more
    consecutive ranks taking one (sequence) or two (double sequence) cards from each.
    ``legal_moves_fast`` uses it; tests check it against the brute force of
    ``legal_moves``, so the game model can be quick without being trusted blindly.
    """
    twos_in_sequences = ruleset(twos_in_sequences, rules).twos_in_sequences
    by_rank = [[1 << c for c in cards_of(hand) if rank(c) == r] for r in range(NUM_RANKS)]
    for cards in by_rank:
        for k in range(1, len(cards) + 1):
            for chosen in combinations(cards, k):
                yield sum(chosen)
    top_rank = TWO_RANK if twos_in_sequences else TWO_RANK - 1
    for per_rank in (1, 2):
        options = [[sum(chosen) for chosen in combinations(cards, per_rank)] for cards in by_rank]
        for lo in range(NUM_RANKS):
            runs = [0]  # every way to pick the ranks lo..hi so far
            for hi in range(lo, top_rank + 1):
                if not options[hi]:
                    break  # a missing rank ends every run from lo
                runs = [m | o for m in runs for o in options[hi]]
                if hi - lo >= 2:
                    yield from runs


def legal_moves_fast(
    hand: int,
    pile_mask: int = 0,
    locked_out: bool = False,
    must_include: int | None = None,
    twos_in_sequences: bool = True,
    rules: Ruleset | Mapping[str, Any] | None = None,
) -> set[int]:
    """Same answer as ``legal_moves``, from ``combos_in`` (for hands of any size)."""
    rs = ruleset(twos_in_sequences, rules)
    check_mask(hand)
    check_mask(pile_mask)
    return {
        m
        for m in combos_in(hand, rules=rs)
        if _playable(m, pile_mask, locked_out, must_include, rs)
    }


# ------------------------------------------------------------------ instant wins (R11.3)


def instant_wins_of(hand: int, twos_in_sequences: bool = True, rules: Ruleset | Mapping[str, Any] | None = None) -> set[str]:
    """The instant wins (enabled by the rules) that the dealt ``hand`` holds.

    >>> sorted(instant_wins_of(parse("2s 2c 2d 2h 3s"), rules=SOUTHERN))
    ['four_twos']
    >>> sorted(instant_wins_of(parse("3s 4s 5s 6s 7s 8s 9s 10s Js Qs Ks As 2s"), rules=SOUTHERN))
    ['dragon']
    >>> instant_wins_of(parse("2s 2c 2d 2h 3s"))  # the contract has none
    set()
    """
    rs = ruleset(twos_in_sequences, rules)
    counts = rank_counts(hand)
    found = set()
    if counts[TWO_RANK] == 4:
        found.add("four_twos")
    if all(counts[r] >= 1 for r in range(TWO_RANK)):  # one of each rank 3..A
        found.add("dragon")
    if sum(c // 2 for c in counts) >= 6:  # disjoint pairs: a quad is two, a triple one
        found.add("six_pairs")
    top_rank = TWO_RANK if rs.twos_in_sequences else TWO_RANK - 1
    if any(all(counts[r] >= 2 for r in range(lo, lo + 5)) for lo in range(0, top_rank - 3)):
        found.add("five_pairs")
    return found & rs.instant_wins


# ----------------------------------------------------------- fewest-combinations split


def split_cost(groups: Iterable[int]) -> tuple[int, int]:
    """How a split is judged: ``(number of groups, number of singles below a 2)``, the
    smaller the better, compared in that order (a lone low card is the hardest thing to
    get rid of, so it only breaks ties between splits with equally few groups)."""
    groups = list(groups)
    low_singles = sum(1 for g in groups if g.bit_count() == 1 and rank(highest_card(g)) != TWO_RANK)
    return (len(groups), low_singles)


def best_split(hand: int, twos_in_sequences: bool = True, rules: Ruleset | Mapping[str, Any] | None = None) -> tuple[int, ...]:
    """A split of ``hand`` into combinations with the smallest ``split_cost``, by brute force.

    Every partition of the hand into legal combinations is tried: the card the lowest still
    free goes into some combination of the free cards holding it (each partition is reached
    exactly once that way), and so on until no card is left. Ties in cost are broken by the
    sorted tuple of group masks, smallest first, so the answer is one fixed split; only the
    cost is the property the core promises. Exponential: meant for hands of up to about ten
    cards. Only ``twos_in_sequences`` matters here (which runs are combinations).

    >>> [cards_str(g) for g in best_split(parse("3s 4c 5d 5h 9s 9c Kd 2h"))]  # masks ascending
    ['5♦', '3♠ 4♣ 5♥', '9♠ 9♣', 'K♦', '2♥']
    >>> split_cost(best_split(parse("3s 3c 4s 4c 5s 5c 5d")))  # a double run and a single
    (2, 1)
    >>> best_split(0)
    ()
    """
    rs = ruleset(twos_in_sequences, rules)
    check_mask(hand)
    memo: dict[int, tuple[tuple[int, int], tuple[int, ...]]] = {}

    def search(free: int) -> tuple[tuple[int, int], tuple[int, ...]]:
        if free == 0:
            return (0, 0), ()
        if free in memo:
            return memo[free]
        low_bit = free & -free
        best: tuple[tuple[int, int], tuple[int, ...]] | None = None
        for group in combos_in(free, rules=rs):
            if not group & low_bit:
                continue
            (n, singles), rest = search(free & ~group)
            extra = 1 if group.bit_count() == 1 and rank(highest_card(group)) != TWO_RANK else 0
            candidate = ((n + 1, singles + extra), tuple(sorted(rest + (group,))))
            if best is None or candidate < best:
                best = candidate
        assert best is not None  # the lowest card alone is always a single
        memo[free] = best
        return best

    return search(hand)[1]


def count_leads_closed_form(
    hand: int, must_include: int | None = None, twos_in_sequences: bool = True
) -> int:
    """Number of legal leads of ``hand`` from its rank counts alone (no enumeration).

    With ``c[r]`` cards of rank ``r``: sum_r C(c[r], k) n-of-a-kinds for k = 1..4, plus,
    for every window of >= 3 consecutive allowed ranks, prod c[r] sequences and
    prod C(c[r], 2) double sequences. A required card of rank r0 fixes one card of r0:
    C(c[r0]-1, k-1) n-of-a-kinds, and in windows through r0 its factor becomes 1
    (sequence) or c[r0]-1 (double sequence: the partner of the required card).
    """
    from math import comb, prod

    c = rank_counts(hand)
    top_rank = TWO_RANK if twos_in_sequences else TWO_RANK - 1
    if must_include is None:
        same_rank = sum(comb(c[r], k) for r in range(NUM_RANKS) for k in range(1, 5))
        runs = sum(
            prod(c[lo : hi + 1]) + prod(comb(x, 2) for x in c[lo : hi + 1])
            for lo in range(NUM_RANKS)
            for hi in range(lo + 2, top_rank + 1)
        )
        return same_rank + runs
    if not (hand >> must_include) & 1:
        return 0
    r0 = rank(must_include)
    same_rank = sum(comb(c[r0] - 1, k - 1) for k in range(1, 5))
    runs = 0
    for lo in range(0, r0 + 1):
        for hi in range(max(lo + 2, r0), top_rank + 1):
            others = c[lo:r0] + c[r0 + 1 : hi + 1]
            runs += prod(others) + (c[r0] - 1) * prod(comb(x, 2) for x in others)
    return same_rank + runs
