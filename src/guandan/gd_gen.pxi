# Legal-play generation and counting, reading-driven.
#
# A play is a (multiset, reading) pair. For a fixed reading, the multiset is a sub-multiset N
# of the hand's natural cards plus k of the held wilds, and the wilds are a card type of their
# own (the level ♥ is never natural while wilds are on). So distinct (N, k) pairs are distinct
# plays, and the generator only has to list every (N, k) that the reading accepts exactly
# once. It does so by choosing, for every rank position of the reading, *how many* natural
# cards that rank gives (s_i); the shortfall k = size - sum(s_i) is made up with wilds. Given
# the counts, N is any product of per-rank sub-multisets of size s_i (the SUBS table), and
# the counts are a function of N, so nothing is listed twice. Which natural card a wild
# "stands for" is never chosen: it is implied by the reading, which is why two plays that
# differ only in that are one play.
#
# One routine, gen_plays, counts (out.masks == NULL: closed-form products, no enumeration)
# and writes. Order: ascending kind; inside a kind, ascending size and rank of the reading
# (window top for windows), then the generator's choice order.

cdef struct Out:
    uint64_t* masks       # 2 per play: once, twice; NULL to count only
    uint32_t* codes
    int64_t n
    int64_t cap
    int overflow


cdef inline void put(Out* o, uint64_t a, uint64_t b, uint32_t code) noexcept nogil:
    cdef int64_t i
    if o.masks == NULL:
        o.n += 1
        return
    i = o.n
    if i >= o.cap:
        o.overflow = 1
        return
    o.masks[2 * i] = a
    o.masks[2 * i + 1] = b
    o.codes[i] = code
    o.n = i + 1


cdef inline int rank_shift(int r) noexcept nogil:
    return 48 if r == 1 else 4 * (r - 2)


cdef void _prod_rec(Out* o, int d, int npos, const int* sh, const int* lo, const int* hi,
                    uint64_t a, uint64_t b, uint32_t code) noexcept nogil:
    cdef int i, s = sh[d], e = hi[d]
    cdef uint8_t q
    cdef int64_t j
    cdef uint64_t* m
    if d == npos - 1:
        # The innermost choice: a straight run of writes (room was checked by the caller).
        j = o.n
        m = o.masks
        for i in range(lo[d], e):
            q = SUBS[i]
            m[2 * j] = a | ((<uint64_t>(q & 15)) << s)
            m[2 * j + 1] = b | ((<uint64_t>(q >> 4)) << s)
            o.codes[j] = code
            j += 1
        o.n = j
        return
    for i in range(lo[d], e):
        q = SUBS[i]
        _prod_rec(o, d + 1, npos, sh, lo, hi, a | ((<uint64_t>(q & 15)) << s),
                  b | ((<uint64_t>(q >> 4)) << s), code)


cdef inline void prod(Out* o, const GHand* h, int npos, const int* ranks, const int* sizes,
                      uint64_t a, uint64_t b, uint32_t code) noexcept nogil:
    """Every product of per-rank sub-multisets: rank ranks[i] gives sizes[i] natural cards;
    (a, b) are the cards every play of the group holds besides (wilds, a joker pair)."""
    cdef int sh[5]
    cdef int lo[5]
    cdef int hi[5]
    cdef int d, p
    cdef int64_t total = 1
    for d in range(npos):
        if sizes[d] > h.cnt[ranks[d]]:
            return
        p = h.pat[ranks[d]]
        lo[d] = SUB_OFF[p][sizes[d]]
        hi[d] = SUB_OFF[p][sizes[d] + 1]
        sh[d] = rank_shift(ranks[d])
        total *= hi[d] - lo[d]
    if total == 0:
        return
    if o.masks == NULL:
        o.n += total
        return
    if o.n + total > o.cap:
        o.overflow = 1
        return
    if npos == 0:
        put(o, a, b, code)
        return
    _prod_rec(o, 0, npos, sh, lo, hi, a, b, code)


cdef inline void prod1(Out* o, const GHand* h, int r, int s, uint64_t a, uint64_t b, uint32_t code) noexcept nogil:
    prod(o, h, 1, &r, &s, a, b, code)


cdef inline uint64_t wild_once(const GHand* h, int k) noexcept nogil:
    return h.wbit if k >= 1 else 0

cdef inline uint64_t wild_twice(const GHand* h, int k) noexcept nogil:
    return h.wbit if k >= 2 else 0


cdef inline bint want(uint32_t code, uint32_t pile, const GHand* h) noexcept nogil:
    return pile == 0 or c_beats(code, pile, h.level, h.flags)


cdef void gen_sets(const GHand* h, uint32_t pile, Out* o, int kind, int size) noexcept nogil:
    """Singles, pairs, triples (kind == size) and bombs of `size` cards: one natural rank
    plus wilds."""
    cdef int r, k, s
    cdef uint32_t code
    for r in range(2, 15):
        if h.cnt[r] + h.w < size:
            continue
        code = mkcode(kind, size, r)
        if not want(code, pile, h):
            continue
        for k in range(0, h.w + 1):
            s = size - k
            if s < 0:
                break
            if s == 0 and r != h.level:
                break                   # all wilds: read as level cards only
            prod1(o, h, r, s, wild_once(h, k), wild_twice(h, k), code)
    if kind == K_SINGLE:
        if h.js and want(mkcode(K_SINGLE, 1, R_SMALL_JOKER), pile, h):
            put(o, SJ_BIT, 0, mkcode(K_SINGLE, 1, R_SMALL_JOKER))
        if h.jb and want(mkcode(K_SINGLE, 1, R_BIG_JOKER), pile, h):
            put(o, BJ_BIT, 0, mkcode(K_SINGLE, 1, R_BIG_JOKER))
    elif kind == K_PAIR:
        if h.js == 2 and want(mkcode(K_PAIR, 2, R_SMALL_JOKER), pile, h):
            put(o, SJ_BIT, SJ_BIT, mkcode(K_PAIR, 2, R_SMALL_JOKER))
        if h.jb == 2 and want(mkcode(K_PAIR, 2, R_BIG_JOKER), pile, h):
            put(o, BJ_BIT, BJ_BIT, mkcode(K_PAIR, 2, R_BIG_JOKER))


cdef void gen_bombs(const GHand* h, uint32_t pile, Out* o) noexcept nogil:
    cdef int size, r, k, s
    cdef uint32_t code
    for size in range(4, 11):
        for r in range(2, 15):
            if h.cnt[r] + h.w < size:
                continue
            code = mkcode(K_BOMB, size, r)
            if not want(code, pile, h):
                continue
            for k in range(0, h.w + 1):
                s = size - k
                prod1(o, h, r, s, wild_once(h, k), wild_twice(h, k), code)


cdef void gen_full_houses(const GHand* h, uint32_t pile, Out* o) noexcept nogil:
    cdef int x, y, t, u, kx, k
    cdef int rs[2]
    cdef int ss[2]
    cdef uint32_t code
    for x in range(2, 15):
        if h.cnt[x] == 0:
            continue                    # a triple needs a natural card (at most 2 wilds)
        code = mkcode(K_FULL_HOUSE, 5, x)
        if not want(code, pile, h):
            continue
        rs[0] = x
        for t in range(1, 4):
            kx = 3 - t
            if kx > h.w or t > h.cnt[x]:
                continue
            ss[0] = t
            for y in range(2, 15):
                if y == x or h.cnt[y] == 0:
                    continue
                rs[1] = y
                for u in range(1, 3):
                    k = kx + 2 - u
                    if k > h.w:
                        continue
                    ss[1] = u
                    prod(o, h, 2, rs, ss, wild_once(h, k), wild_twice(h, k), code)
            # The pair as two natural jokers of one kind (never with a wild).
            if h.js == 2:
                prod1(o, h, x, t, SJ_BIT | wild_once(h, kx), SJ_BIT | wild_twice(h, kx), code)
            if h.jb == 2:
                prod1(o, h, x, t, BJ_BIT | wild_once(h, kx), BJ_BIT | wild_twice(h, kx), code)
            # The pair as two wilds: its rank is not part of the play, so it is listed once.
            if kx + 2 <= h.w:
                prod1(o, h, x, t, wild_once(h, kx + 2), wild_twice(h, kx + 2), code)


cdef inline int window_ranks(int top, int n, int* rs) noexcept nogil:
    """rs[0..n) = the natural ranks of a window with `top`, A (1) low as 14."""
    cdef int i, r
    for i in range(n):
        r = top - n + 1 + i
        rs[i] = 14 if r == 1 else r
    return n


cdef void gen_straights(const GHand* h, uint32_t pile, Out* o) noexcept nogil:
    cdef int top, top5, S, i, k
    cdef int rs[5]
    cdef int ss[5]
    cdef int rr[5]
    cdef int sz[5]
    cdef int npos
    cdef uint32_t code
    top5 = 13 if h.flags & F_NO_ACE_TOP else 14
    for top in range(5, top5 + 1):
        if GD_POPCOUNT(WIN5[top] & ~h.ranks) > h.w:
            continue
        code = mkcode(K_STRAIGHT, 5, top)
        if not want(code, pile, h):
            continue
        window_ranks(top, 5, rs)
        # S: the positions wilds fill; every other position gives one natural card.
        for S in range(32):
            k = GD_POPCOUNT(S)
            if k > h.w:
                continue
            npos = 0
            for i in range(5):
                if not (S >> i) & 1:
                    rr[npos] = rs[i]
                    sz[npos] = 1
                    npos += 1
            prod(o, h, npos, rr, sz, wild_once(h, k), wild_twice(h, k), code)


cdef void gen_straight_flushes(const GHand* h, uint32_t pile, Out* o) noexcept nogil:
    cdef int top, top5, s, i, k, S, present, missing
    cdef int rs[5]
    cdef uint64_t a
    cdef uint64_t bits[5]
    cdef uint32_t code
    top5 = 13 if h.flags & F_NO_ACE_TOP else 14
    for top in range(5, top5 + 1):
        if GD_POPCOUNT(WIN5[top] & ~h.ranks) > h.w:
            continue
        code = mkcode(K_STRAIGHT_FLUSH, 5, top)
        if not want(code, pile, h):
            continue
        window_ranks(top, 5, rs)
        for s in range(4):
            present = 0
            for i in range(5):
                bits[i] = (<uint64_t>1) << (rank_shift(rs[i]) + s)
                if h.once & bits[i]:
                    present |= 1 << i
            missing = 31 & ~present
            if GD_POPCOUNT(missing) > h.w:
                continue
            # Every S that covers the missing positions, with at most w wilds. The natural
            # cards all being suit s makes s a function of N: no play is listed twice.
            for S in range(32):
                if (S & missing) != missing:
                    continue
                k = GD_POPCOUNT(S)
                if k > h.w:
                    continue
                a = wild_once(h, k)
                for i in range(5):
                    if not (S >> i) & 1:
                        a |= bits[i]
                put(o, a, wild_twice(h, k), code)


cdef void gen_runs(const GHand* h, uint32_t pile, Out* o, int kind, int width, int per) noexcept nogil:
    """Three pairs (width 3, per 2) and plates (width 2, per 3)."""
    cdef int top, i, k, v, vmax, total, lowtop
    cdef int rs[3]
    cdef int ss[3]
    cdef uint32_t code
    lowtop = width
    vmax = 1
    for i in range(width):
        vmax *= per + 1
    for top in range(lowtop, 15):
        code = mkcode(kind, width * per, top)
        if not want(code, pile, h):
            continue
        window_ranks(top, width, rs)
        total = 0
        for i in range(width):
            total += h.cnt[rs[i]] if h.cnt[rs[i]] < per else per
        if width * per - total > h.w:
            continue
        # Every count vector (s_0 .. s_{width-1}), each 0..per, short by at most w.
        for v in range(vmax):
            k = width * per
            total = v
            for i in range(width):
                ss[i] = total % (per + 1)
                total //= per + 1
                k -= ss[i]
            if k > h.w:
                continue
            prod(o, h, width, rs, ss, wild_once(h, k), wild_twice(h, k), code)


cdef int64_t gen_plays(const GHand* h, uint32_t pile, Out* o) noexcept nogil:
    """Every legal play of h on `pile` (0 = lead). Counts when o.masks is NULL. Returns o.n."""
    cdef int pk = ckind(pile)
    cdef bint lead = pile == 0
    if lead or pk == K_SINGLE:
        gen_sets(h, pile, o, K_SINGLE, 1)
    if lead or pk == K_PAIR:
        gen_sets(h, pile, o, K_PAIR, 2)
    if lead or pk == K_TRIPLE:
        gen_sets(h, pile, o, K_TRIPLE, 3)
    if lead or pk == K_FULL_HOUSE:
        gen_full_houses(h, pile, o)
    if lead or pk == K_STRAIGHT:
        gen_straights(h, pile, o)
    if lead or pk == K_THREE_PAIRS:
        gen_runs(h, pile, o, K_THREE_PAIRS, 3, 2)
    if lead or pk == K_PLATE:
        gen_runs(h, pile, o, K_PLATE, 2, 3)
    gen_bombs(h, pile, o)
    if not (h.flags & F_NO_STRAIGHT_FLUSH):
        gen_straight_flushes(h, pile, o)
    if h.js == 2 and h.jb == 2 and want(mkcode(K_JOKER_BOMB, 4, R_BIG_JOKER), pile, h):
        put(o, SJ_BIT | BJ_BIT, SJ_BIT | BJ_BIT, mkcode(K_JOKER_BOMB, 4, R_BIG_JOKER))
    return o.n


cdef inline int64_t count_plays(uint64_t once, uint64_t twice, int level, uint32_t pile, int flags) noexcept nogil:
    cdef GHand h
    cdef Out o
    ghand_init(&h, once, twice, level, flags)
    o.masks = NULL
    o.codes = NULL
    o.n = 0
    o.cap = 0
    o.overflow = 0
    return gen_plays(&h, pile, &o)
