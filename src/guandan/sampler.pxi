# Deals consistent with what one seat knows: L3's sampled deals (issue 17), drawn natively so
# that they can be drawn on every core with no GIL (issue 35).
#
# What the seat knows is built in Python (tienlen.games.guandan.bots._Knowledge: the cards
# seen, those a tribute or return put in another hand, a tribute payer's cap, the passes
# each seat made) and handed over once a decision; every deal is then drawn here, from its
# own seed, as the deliberately simple Python sampler in tests/reference/guandan_sampler.py
# draws it (the same steps, so the same distribution: tests/games/guandan/test_deal_sampler.py):
#   1. the unseen cards shuffled; each capped seat (a tribute payer, whose other cards are at
#      most the tribute's value) takes its share from those it may hold, the rest reshuffled;
#      then every other seat takes its share in seat order. If the caps cannot all be met
#      (never, in a consistent history) the shuffled cards are dealt in seat order instead.
#   2. with passes on record (inference, issue 29): the uncapped seats' shares are dealt
#      again, seat by seat, most passes first: a share is drawn from the cards not yet given
#      and kept with probability keep ** misses (misses: the passes the plan would have
#      replaced by a play holding it, plan_misses) of up to `tries` draws, else the draw with
#      the fewest; the seat before the last is judged on both its passes and the last seat's
#      (the rest is the last seat's hand), and the last seat takes the rest.

from libc.math cimport pow as c_pow
from libc.string cimport memmove

cdef enum:
    SP_MAX_HAND = 28                # 27 cards, and a tribute received before the return
    SP_MAX_POOL = 108


cdef struct SamplerSeat:
    int need                        # unseen cards to deal to the seat
    int capped
    uint64_t cap_ok                 # faces a capped seat may hold
    int nfixed
    uint8_t fixed[SP_MAX_HAND]      # faces known to be in the hand
    int npass
    PassEvent ev[PLAN_MAX_PASSES]


cdef struct Sampler:
    int me
    uint64_t my_once
    uint64_t my_twice
    int npool
    uint8_t pool[SP_MAX_POOL]
    int level                       # of the passes (PlanPasses' own)
    int flags
    double keep
    int tries
    int infer                       # some seat has passes on record
    SamplerSeat seat[4]


cdef inline void _sp_shuffle(uint8_t* a, int n, Rng* r) noexcept nogil:
    cdef int i, j
    cdef uint8_t t
    for i in range(n - 1, 0, -1):
        j = <int>rng_below(r, <uint32_t>(i + 1))
        t = a[i]
        a[i] = a[j]
        a[j] = t


cdef inline void _sp_masks(const uint8_t* a, int n, const uint8_t* b, int m,
                           uint64_t* once, uint64_t* twice) noexcept nogil:
    """The multiset of faces a[:n] + b[:m] as (once, twice)."""
    cdef int i
    cdef uint64_t bit
    once[0] = 0
    twice[0] = 0
    for i in range(n + m):
        bit = (<uint64_t>1) << (a[i] if i < n else b[i - n])
        if once[0] & bit:
            twice[0] |= bit
        else:
            once[0] |= bit


cdef inline double _sp_unit(Rng* r) noexcept nogil:
    return <double>(rng_next(r) >> 11) * (1.0 / 9007199254740992.0)


cdef inline int _sp_remove(uint8_t* rest, int n, const uint8_t* taken, int k) noexcept nogil:
    """Remove one copy of each of taken[:k] from rest[:n] (keeping the order); the new n."""
    cdef int i, j, w
    cdef bint gone
    for i in range(k):
        gone = False
        w = 0
        for j in range(n):
            if not gone and rest[j] == taken[i]:
                gone = True
                continue
            rest[w] = rest[j]
            w += 1
        n = w
    return n


cdef void _sp_draw(const Sampler* S, Rng* r, uint8_t share[4][SP_MAX_HAND]) noexcept nogil:
    """Step 1: each other seat's share of the unseen cards, consistent with the caps."""
    cdef uint8_t pool[SP_MAX_POOL]
    cdef uint8_t rest[SP_MAX_POOL]
    cdef int order[4]
    cdef int no = 0, nrest, s, i, k, need, pos
    cdef bint ok = True
    memcpy(pool, S.pool, S.npool)
    _sp_shuffle(pool, S.npool, r)
    memcpy(rest, pool, S.npool)
    nrest = S.npool
    for k in range(2):              # the capped seats first, each group in seat order
        for s in range(4):
            if s != S.me and (S.seat[s].capped != 0) == (k == 0):
                order[no] = s
                no += 1
    for k in range(no):
        s = order[k]
        need = S.seat[s].need
        if S.seat[s].capped:
            i = 0
            pos = 0
            while pos < nrest and i < need:
                if (S.seat[s].cap_ok >> rest[pos]) & 1:
                    share[s][i] = rest[pos]
                    i += 1
                pos += 1
            if i < need:
                ok = False
                break
            nrest = _sp_remove(rest, nrest, share[s], need)
            _sp_shuffle(rest, nrest, r)
        else:
            memcpy(share[s], rest, need)
            nrest -= need
            memmove(rest, rest + need, nrest)
    if not ok:
        pos = 0
        for s in range(4):
            if s != S.me:
                memcpy(share[s], pool + pos, S.seat[s].need)
                pos += S.seat[s].need


cdef int _sp_misses(const Sampler* S, int s, const uint8_t* cards, int n) noexcept nogil:
    cdef uint64_t once, twice
    if S.seat[s].npass == 0:
        return 0
    _sp_masks(S.seat[s].fixed, S.seat[s].nfixed, cards, n, &once, &twice)
    return plan_misses(S.seat[s].ev, S.seat[s].npass, S.level, S.flags, once, twice)


cdef void _sp_infer(const Sampler* S, Rng* r, uint8_t share[4][SP_MAX_HAND]) noexcept nogil:
    """Step 2: the uncapped seats' shares dealt again, likely given their passes."""
    cdef int free[4]
    cdef uint8_t rest[SP_MAX_POOL]
    cdef uint8_t best[SP_MAX_HAND]
    cdef int nfree = 0, nrest = 0, s, i, j, t, need, last, misses, fewest
    cdef bint judge_last
    for s in range(4):
        if s != S.me and S.seat[s].need and not S.seat[s].capped:
            free[nfree] = s
            nfree += 1
    if nfree < 2:
        return
    # most passes first (a stable insertion sort: seat order among equals)
    for i in range(1, nfree):
        t = free[i]
        j = i - 1
        while j >= 0 and S.seat[free[j]].npass < S.seat[t].npass:
            free[j + 1] = free[j]
            j -= 1
        free[j + 1] = t
    for i in range(nfree):
        s = free[i]
        memcpy(rest + nrest, share[s], S.seat[s].need)
        nrest += S.seat[s].need
    last = free[nfree - 1]
    for i in range(nfree - 1):
        s = free[i]
        need = S.seat[s].need
        judge_last = i == nfree - 2
        _sp_shuffle(rest, nrest, r)
        memcpy(best, rest, need)
        if S.seat[s].npass or (judge_last and S.seat[last].npass):
            fewest = -1
            for t in range(S.tries):
                if t:
                    _sp_shuffle(rest, nrest, r)
                misses = _sp_misses(S, s, rest, need)
                if judge_last:
                    misses += _sp_misses(S, last, rest + need, nrest - need)
                if fewest < 0 or misses < fewest:
                    memcpy(best, rest, need)
                    fewest = misses
                if misses == 0 or _sp_unit(r) < c_pow(S.keep, misses):
                    memcpy(best, rest, need)
                    break
        memcpy(share[s], best, need)
        nrest = _sp_remove(rest, nrest, best, need)
    memcpy(share[last], rest, nrest)


cdef void sampler_hands(const Sampler* S, Rng* r, uint64_t* once, uint64_t* twice) noexcept nogil:
    """One deal: every seat's hand as (once[4], twice[4]), the deciding seat's its own."""
    cdef uint8_t share[4][SP_MAX_HAND]
    cdef int s
    _sp_draw(S, r, share)
    if S.infer:
        _sp_infer(S, r, share)
    for s in range(4):
        if s == S.me:
            once[s] = S.my_once
            twice[s] = S.my_twice
        else:
            _sp_masks(S.seat[s].fixed, S.seat[s].nfixed, share[s], S.seat[s].need,
                      &once[s], &twice[s])


cdef inline void sampler_seed(Rng* r, uint64_t seed, int64_t k) noexcept nogil:
    """Deal k's own stream of a decision's seed (rng.pxi's stream_seed, as a batch's games
    get theirs): the same deal whichever thread draws it. (Seeding with seed + k * golden
    would give deals k and k + 1 three of their four state words in common, shifted.)"""
    rng_seed(r, stream_seed(seed, <uint64_t>k))


@cython.auto_pickle(False)        # one decision's knowledge: nothing to pickle
cdef class DealSampler:
    """Deals consistent with what one seat knows, drawn natively (see the comment at the top
    of sampler.pxi for the steps). Built once a decision from:

    - ``seat`` and its ``hand`` (once, twice);
    - ``pool``: the faces (0..53) of the unseen cards that no public exchange placed, one
      entry a card;
    - ``fixed``: for each seat, the faces known to be in its hand (a tribute or return card
      it received and has not played), one entry a card;
    - ``need``: for each seat, how many of the pool's cards it holds (its own: 0);
    - ``caps``: for each seat, None, or a mask of the faces it may hold (a tribute payer);
    - ``passes``: for each seat, None or its :class:`PlanPasses` (inference from passes);
    - ``keep`` and ``tries``: a draw is kept with probability ``keep ** misses``, of up to
      ``tries`` draws.

    ``hands(seed, k=0)`` is deal ``k`` of ``seed``: the same deal on any thread and in any
    order (each deal has its own stream). Every field is checked here: the pool must hold
    at least the cards the seats need (more when the game was dealt fewer than 108: the
    cards left over are in nobody's hand), no face may appear more than twice over the hand, the
    fixed cards and the pool, and a seat's hand holds at most 28 cards (27, and a tribute
    received before its return).

    >>> sampler = DealSampler(0, ((1 << 4), 0), [0, 8, 12], [[], [], [], []], [0, 1, 1, 1],
    ...                       [None, None, None, None], [None, None, None, None])
    >>> hands = sampler.hands(7)
    >>> hands[0], sorted(o for o, t in hands[1:]) == [1 << 0, 1 << 8, 1 << 12]
    ((16, 0), True)
    """
    cdef Sampler S

    def __init__(self, seat, hand, pool, fixed, need, caps, passes, keep=0.1, tries=8):
        cdef uint64_t hm[2]
        cdef int counts[54]
        cdef int s, i, c, total = 0
        cdef int me = _int_arg(seat, "seat", 0, 3)
        cdef double kp
        memset(&self.S, 0, sizeof(Sampler))
        memset(counts, 0, sizeof(counts))
        if not _is_pair(hand):
            raise ValueError(f"hand must be (once, twice); got {_quote(hand)}")
        _hand_arg(hand[0], hand[1], "hand", hm)
        try:
            kp = float(keep)
        except (TypeError, ValueError):
            raise ValueError(f"keep must be a probability; got {_quote(keep)}") from None
        if not 0.0 <= kp <= 1.0:
            raise ValueError(f"keep must be a probability; got {_quote(keep)}")
        tr = _int_arg(tries, "tries", 1, 1000)
        try:
            pool_l = [int(_as_int(c)) for c in pool]
            fixed_l = [[int(_as_int(c)) for c in f] for f in fixed]
            need_l = [int(_as_int(n)) for n in need]
            caps_l = list(caps)
            passes_l = list(passes)
        except (TypeError, OverflowError):
            raise ValueError("pool, fixed, need, caps and passes must be sequences of card "
                             "faces, counts, masks and PlanPasses") from None
        if not (len(fixed_l) == len(need_l) == len(caps_l) == len(passes_l) == 4):
            raise ValueError("fixed, need, caps and passes must give one entry a seat")
        if len(pool_l) > SP_MAX_POOL:
            raise ValueError(f"pool has {len(pool_l)} cards; at most {SP_MAX_POOL}")
        for face in pool_l:
            if not 0 <= face <= 53:
                raise ValueError(f"pool holds {face}: a card face is 0..53")
            counts[face] += 1
        for i in range(54):
            counts[i] += ((hm[0] >> i) & 1) + ((hm[1] >> i) & 1)
        self.S.me = me
        self.S.my_once = hm[0]
        self.S.my_twice = hm[1]
        self.S.npool = len(pool_l)
        for i in range(self.S.npool):
            self.S.pool[i] = <uint8_t>pool_l[i]
        self.S.keep = kp
        self.S.tries = tr
        self.S.level = 2
        level = None
        for s in range(4):
            n = need_l[s]
            if s == me and (n or fixed_l[s]):
                raise ValueError(f"seat {s} is the sampling seat: it needs no cards and has "
                                 f"none fixed")
            if n < 0 or n + len(fixed_l[s]) > SP_MAX_HAND:
                raise ValueError(f"seat {s} would hold {n + len(fixed_l[s])} cards; at most "
                                 f"{SP_MAX_HAND}")
            self.S.seat[s].need = n
            total += n
            self.S.seat[s].nfixed = len(fixed_l[s])
            for i, face in enumerate(fixed_l[s]):
                if not 0 <= face <= 53:
                    raise ValueError(f"fixed[{s}] holds {face}: a card face is 0..53")
                counts[face] += 1
                self.S.seat[s].fixed[i] = <uint8_t>face
            if caps_l[s] is not None:
                self.S.seat[s].capped = 1
                self.S.seat[s].cap_ok = <uint64_t>_int_arg(caps_l[s], f"caps[{s}]", 0,
                                                           <int64_t>((<uint64_t>1 << 54) - 1))
            p = passes_l[s]
            if p is not None:
                if not isinstance(p, PlanPasses):
                    raise ValueError(f"passes[{s}] must be None or a PlanPasses; got {_quote(p)}")
                if level is not None and ((<PlanPasses>p).level, (<PlanPasses>p).flags) != level:
                    raise ValueError("every seat's PlanPasses must be at one level and flags")
                level = ((<PlanPasses>p).level, (<PlanPasses>p).flags)
                self.S.level = (<PlanPasses>p).level
                self.S.flags = (<PlanPasses>p).flags
                self.S.seat[s].npass = (<PlanPasses>p).n
                memcpy(self.S.seat[s].ev, (<PlanPasses>p).ev, (<PlanPasses>p).n * sizeof(PassEvent))
                if self.S.seat[s].npass and n:
                    self.S.infer = 1
        if total > self.S.npool:
            raise ValueError(f"the seats need {total} cards and the pool holds {self.S.npool}")
        for i in range(54):
            if counts[i] > 2:
                raise ValueError(f"face {i} appears {counts[i]} times over the hand, the fixed "
                                 f"cards and the pool; there are two")

    def hands(self, seed, k=0):
        """Deal ``k`` of ``seed``: every seat's hand as four (once, twice), the sampling seat's
        its own."""
        return self.deal(seed, k)[0]

    def deal(self, seed, k=0):
        """Deal ``k`` of ``seed`` as :func:`sample_values` draws it: ``(hands, playout_seed)``,
        the hands as :meth:`hands` gives them and the seed of the deal's playouts (the next
        draw of the deal's stream)."""
        cdef uint64_t sd = _seed_arg(seed)
        cdef int64_t kk = _int_arg(k, "k", 0, <int64_t>1 << 50)
        cdef Rng r
        cdef uint64_t once[4]
        cdef uint64_t twice[4]
        cdef uint64_t playout
        with nogil:
            sampler_seed(&r, sd, kk)
            sampler_hands(&self.S, &r, once, twice)
            playout = rng_next(&r)
        return [(once[s], twice[s]) for s in range(4)], playout


cdef bint _is_pair(object x):
    try:
        return len(x) == 2
    except TypeError:
        return False
