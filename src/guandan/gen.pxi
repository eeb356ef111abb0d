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
# One routine, gen_plays, counts (out.masks == NULL: products of list sizes, no enumeration
# except straight flushes) and writes. Order: ascending kind; inside a kind, ascending size
# and rank of the reading (window top for windows), then the generator's choice order.
# Writers check the room for a whole group once (Out.cap) and then write without checks.

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


cdef inline void prod1(Out* o, const GHand* h, int r, int s, uint64_t a, uint64_t b, uint32_t code) noexcept nogil:
    """Every sub-multiset of s natural cards of rank r (a slice of SUBS), each with the cards
    (a, b) added: singles, pairs, triples, bombs and the triples of full houses."""
    cdef uint8_t p = h.pat[r]
    cdef int i, lo, hi, sh = rank_shift(r)
    cdef int64_t j
    cdef uint8_t q
    if s > h.cnt[r]:
        return                          # (also keeps s + 1 inside SUB_OFF's 10 columns)
    lo = SUB_OFF[p][s]
    hi = SUB_OFF[p][s + 1]
    if o.masks == NULL:
        o.n += hi - lo
        return
    j = o.n
    if j + (hi - lo) > o.cap:
        o.overflow = 1
        return
    for i in range(lo, hi):
        q = SUBS[i]
        o.masks[2 * j] = a | ((<uint64_t>(q & 15)) << sh)
        o.masks[2 * j + 1] = b | ((<uint64_t>(q >> 4)) << sh)
        o.codes[j] = code
        j += 1
    o.n = j


cdef inline uint64_t wild_once(const GHand* h, int k) noexcept nogil:
    return h.wbit if k >= 1 else 0

cdef inline uint64_t wild_twice(const GHand* h, int k) noexcept nogil:
    return h.wbit if k >= 2 else 0


cdef inline bint want(uint32_t code, uint32_t pile, const GHand* h) noexcept nogil:
    return pile == 0 or c_beats(code, pile, h.level, h.flags)


# SET_COUNT[p][size][w]: the plays of `size` cards (1..3) one natural rank of pattern p
# gives with at most w (0..2) wilds added, at least one card natural: gen_sets' count of a
# rank without enumerating its choices (the all-wild play, read as a level card only, is
# added apart). A table made once, like SUBS.
cdef uint16_t SET_COUNT[256][4][3]

cdef void _init_set_counts() noexcept:
    cdef int p, size, w, k
    for p in range(256):
        for size in range(4):
            for w in range(3):
                SET_COUNT[p][size][w] = 0
                for k in range(w + 1):
                    if size - k >= 1:
                        SET_COUNT[p][size][w] += SUB_OFF[p][size - k + 1] - SUB_OFF[p][size - k]

_init_set_counts()


cdef inline uint32_t set_wins(const GHand* h, uint32_t pile, int kind, int size) noexcept nogil:
    """Bit r set when a natural set (kind, size) of rank r may go on `pile` (want's answer
    for every rank at once, without a call per rank): all on a lead; on a set of the same
    kind and size, the ranks of higher single-card value (the level rank's is 15); none on
    anything else."""
    cdef uint32_t m = 0
    cdef int r, pv
    if pile == 0:
        return 0x7FFC
    if (pile >> 6) != ((<uint32_t>kind << 6) | <uint32_t>size):
        return 0
    pv = single_value(crank(pile), h.level)
    for r in range(2, 15):
        m |= (<uint32_t>((15 if r == h.level else r) > pv)) << r
    return m


cdef void gen_sets(const GHand* h, uint32_t pile, Out* o, int kind, int size) noexcept nogil:
    """Singles, pairs, triples (kind == size): one natural rank plus wilds. Counting reads
    every rank's count from SET_COUNT (no test of the rank's cards: a rank that cannot make
    the set counts 0), which is what listing writes."""
    cdef int r, k, s
    cdef uint32_t code, cand = 0, wins = set_wins(h, pile, kind, size)
    if o.masks == NULL:
        for r in range(2, 15):
            o.n += ((wins >> r) & 1) * (SET_COUNT[h.pat[r]][size][h.w]
                                        + (r == h.level and h.w >= size))
    else:
        # The ranks that can make the set, as bits, visited in ascending order: a test of
        # every rank's count mispredicted.
        for r in range(2, 15):
            cand |= (<uint32_t>(h.cnt[r] + h.w >= size)) << r
        while cand:
            r = GD_CTZ(cand)
            cand &= cand - 1
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


cdef void gen_sets_nth(const GHand* h, uint32_t pile, int kind, int size, int64_t i,
                       uint64_t* act) noexcept nogil:
    """Play i (0-based, below gen_sets' count) of gen_sets' list for (kind, size), found
    without writing the list: act = (once, twice, code). The same ranks, tests and order as
    the listing (a rank's plays by wilds used, then SUBS' order; the jokers last), so it is
    the play the listing puts at i (tests: the vectorised env's native seats, which pick
    sets this way, against Match and the listing)."""
    cdef int r, k, s, sh
    cdef int64_t n
    cdef uint8_t p, q
    cdef uint32_t code, wins = set_wins(h, pile, kind, size)
    for r in range(2, 15):
        # The rank holding play i, by the counts gen_sets counts with (SET_COUNT).
        p = h.pat[r]
        n = ((wins >> r) & 1) * (SET_COUNT[p][size][h.w] + (r == h.level and h.w >= size))
        if i >= n:
            i -= n
            continue
        code = mkcode(kind, size, r)
        for k in range(0, h.w + 1):
            s = size - k
            if s < 0:
                break
            if s == 0 and r != h.level:
                break                   # all wilds: read as level cards only
            if s > h.cnt[r]:
                continue                # (prod1 lists nothing)
            n = SUB_OFF[p][s + 1] - SUB_OFF[p][s]
            if i < n:
                q = SUBS[SUB_OFF[p][s] + i]
                sh = rank_shift(r)
                act[0] = wild_once(h, k) | ((<uint64_t>(q & 15)) << sh)
                act[1] = wild_twice(h, k) | ((<uint64_t>(q >> 4)) << sh)
                act[2] = code
                return
            i -= n
    act[0] = act[1] = act[2] = 0
    if kind == K_SINGLE:
        if h.js and want(mkcode(K_SINGLE, 1, R_SMALL_JOKER), pile, h):
            if i == 0:
                act[0] = SJ_BIT
                act[2] = mkcode(K_SINGLE, 1, R_SMALL_JOKER)
                return
            i -= 1
        if h.jb and want(mkcode(K_SINGLE, 1, R_BIG_JOKER), pile, h) and i == 0:
            act[0] = BJ_BIT
            act[2] = mkcode(K_SINGLE, 1, R_BIG_JOKER)
    elif kind == K_PAIR:
        if h.js == 2 and want(mkcode(K_PAIR, 2, R_SMALL_JOKER), pile, h):
            if i == 0:
                act[0] = act[1] = SJ_BIT
                act[2] = mkcode(K_PAIR, 2, R_SMALL_JOKER)
                return
            i -= 1
        if h.jb == 2 and want(mkcode(K_PAIR, 2, R_BIG_JOKER), pile, h) and i == 0:
            act[0] = act[1] = BJ_BIT
            act[2] = mkcode(K_PAIR, 2, R_BIG_JOKER)


cdef void gen_bombs(const GHand* h, uint32_t pile, Out* o) noexcept nogil:
    cdef int size, r, k, s, i, nr = 0
    cdef int rs[13]
    cdef uint32_t code
    for r in range(2, 15):
        if h.cnt[r] + h.w >= 4:
            rs[nr] = r
            nr += 1
    for size in range(4, h.maxc + h.w + 1):
        for i in range(nr):
            r = rs[i]
            if h.cnt[r] + h.w < size:
                continue
            code = mkcode(K_BOMB, size, r)
            if not want(code, pile, h):
                continue
            for k in range(0, h.w + 1):
                s = size - k
                prod1(o, h, r, s, wild_once(h, k), wild_twice(h, k), code)


cdef struct PairParts:
    # Every natural pair part of a full house, ascending by rank: two naturals of a rank (or
    # a joker pair: ranks 15, 16) in a2/b2, one natural to go with a wild in a1/b1. The
    # entries of rank r are [off[r], off[r + 1]).
    uint64_t a2[136]
    uint64_t b2[136]
    uint64_t a1[56]
    int off2[18]
    int off1[18]


cdef void _pair_parts(const GHand* h, PairParts* pp) noexcept nogil:
    cdef int y, i, n2 = 0, n1 = 0, sh
    cdef uint8_t q, p
    for y in range(2, 15):
        pp.off2[y] = n2
        pp.off1[y] = n1
        p = h.pat[y]
        sh = rank_shift(y)
        for i in range(SUB_OFF[p][2], SUB_OFF[p][3]):
            q = SUBS[i]
            pp.a2[n2] = (<uint64_t>(q & 15)) << sh
            pp.b2[n2] = (<uint64_t>(q >> 4)) << sh
            n2 += 1
        for i in range(SUB_OFF[p][1], SUB_OFF[p][2]):
            pp.a1[n1] = (<uint64_t>SUBS[i]) << sh
            n1 += 1
    pp.off2[15] = n2
    pp.off1[15] = n1
    if h.js == 2:
        pp.a2[n2] = SJ_BIT
        pp.b2[n2] = SJ_BIT
        n2 += 1
    pp.off2[16] = n2
    if h.jb == 2:
        pp.a2[n2] = BJ_BIT
        pp.b2[n2] = BJ_BIT
        n2 += 1
    pp.off2[17] = n2
    pp.off1[16] = n1
    pp.off1[17] = n1


cdef void gen_full_houses(const GHand* h, uint32_t pile, Out* o) noexcept nogil:
    """The triple's naturals (t of rank X, 3 - t wilds) times every pair part of another
    rank: two naturals (or a joker pair), one natural and a wild, or two wilds. The pair's
    rank is not part of the reading, so the two-wild pair is listed once, not once per rank
    it could stand for."""
    cdef PairParts pp
    cdef int x, t, kx, i, j, ex2lo, ex2hi, ex1lo, ex1hi, n2, n1, use1, use0, e2, e1
    cdef uint8_t q, p
    cdef int sh
    cdef int64_t per, total
    cdef uint64_t ta, tb, wa, wb
    cdef uint64_t* m
    cdef uint32_t* cs
    cdef int64_t n
    cdef uint32_t code
    cdef bint built = False
    cdef int c2[17]
    cdef int c1[17]
    cdef int tot2 = 0, tot1 = 0
    cdef uint32_t present = 0
    if o.masks == NULL:
        # Counting needs only how many pair parts each rank has, not the parts.
        for x in range(2, 15):
            p = h.pat[x]
            c2[x] = SUB_OFF[p][3] - SUB_OFF[p][2]
            c1[x] = SUB_OFF[p][2] - SUB_OFF[p][1]
            tot2 += c2[x]
            tot1 += c1[x]
            present |= (<uint32_t>(h.cnt[x] != 0)) << x
        tot2 += (h.js == 2) + (h.jb == 2)
        # The triple's ranks as bits (a test of every rank's count mispredicted), and its
        # natural cards t from 3 - w: a t above the rank's count has no sub-multiset (0).
        while present:
            x = GD_CTZ(present)
            present &= present - 1
            if pile != 0 and not want(mkcode(K_FULL_HOUSE, 5, x), pile, h):
                continue
            p = h.pat[x]
            for t in range(3 - h.w, 4):
                kx = 3 - t
                per = tot2 - c2[x]
                if kx + 1 <= h.w:
                    per += tot1 - c1[x]
                if kx + 2 <= h.w:
                    per += 1
                o.n += per * (SUB_OFF[p][t + 1] - SUB_OFF[p][t])
        return
    for x in range(2, 15):
        if h.cnt[x] == 0:
            continue                    # a triple needs a natural card (at most 2 wilds)
        code = mkcode(K_FULL_HOUSE, 5, x)
        if not want(code, pile, h):
            continue
        if not built:
            _pair_parts(h, &pp)
            built = True
        p = h.pat[x]
        sh = rank_shift(x)
        ex2lo = pp.off2[x]
        ex2hi = pp.off2[x + 1]
        ex1lo = pp.off1[x]
        ex1hi = pp.off1[x + 1]
        e2 = pp.off2[17]
        e1 = pp.off1[17]
        n2 = e2 - (ex2hi - ex2lo)
        n1 = e1 - (ex1hi - ex1lo)
        for t in range(1, 4):
            kx = 3 - t
            if kx > h.w or t > h.cnt[x]:
                continue
            use1 = kx + 1 <= h.w
            use0 = kx + 2 <= h.w
            per = n2 + (n1 if use1 else 0) + use0
            total = per * (SUB_OFF[p][t + 1] - SUB_OFF[p][t])
            if o.masks == NULL:
                o.n += total
                continue
            if o.n + total > o.cap:
                o.overflow = 1
                return
            # Room for the whole block was checked: write straight into the output.
            m = o.masks
            cs = o.codes
            n = o.n
            for i in range(SUB_OFF[p][t], SUB_OFF[p][t + 1]):
                q = SUBS[i]
                ta = (<uint64_t>(q & 15)) << sh
                tb = (<uint64_t>(q >> 4)) << sh
                wa = ta | wild_once(h, kx)
                wb = tb | wild_twice(h, kx)
                # every pair part except those of the triple's own rank
                for j in range(0, ex2lo):
                    m[2 * n] = wa | pp.a2[j]
                    m[2 * n + 1] = wb | pp.b2[j]
                    cs[n] = code
                    n += 1
                for j in range(ex2hi, e2):
                    m[2 * n] = wa | pp.a2[j]
                    m[2 * n + 1] = wb | pp.b2[j]
                    cs[n] = code
                    n += 1
                if use1:
                    wa = ta | wild_once(h, kx + 1)
                    wb = tb | wild_twice(h, kx + 1)
                    for j in range(0, ex1lo):
                        m[2 * n] = wa | pp.a1[j]
                        m[2 * n + 1] = wb
                        cs[n] = code
                        n += 1
                    for j in range(ex1hi, e1):
                        m[2 * n] = wa | pp.a1[j]
                        m[2 * n + 1] = wb
                        cs[n] = code
                        n += 1
                if use0:
                    m[2 * n] = ta | wild_once(h, kx + 2)
                    m[2 * n + 1] = tb | wild_twice(h, kx + 2)
                    cs[n] = code
                    n += 1
            o.n = n


cdef inline int window_ranks(int top, int n, int* rs) noexcept nogil:
    """rs[0..n) = the natural ranks of a window with `top`, A (1) low as 14."""
    cdef int i, r
    for i in range(n):
        r = top - n + 1 + i
        rs[i] = 14 if r == 1 else r
    return n


# The subsets of 5 positions with at most 2 members, smallest first; SMALL_SETS_UPTO[w] is
# how many have at most w members.
cdef int SMALL_SETS[16]
cdef int SMALL_SETS_UPTO[3]

cdef void _init_small_sets() noexcept:
    cdef int n = 0, k, S
    for k in range(3):
        for S in range(32):
            if GD_POPCOUNT(S) == k:
                SMALL_SETS[n] = S
                n += 1
        SMALL_SETS_UPTO[k] = n

_init_small_sets()


cdef inline uint32_t window_tops(uint32_t ranks, int w) noexcept nogil:
    """Bit t (5..14) set when the 5-rank window with top t (A low in A2345) misses at most
    `w` of the ranks in `ranks` (bit r for rank r, 2..14): every top at once, by adding the
    five shifted copies of the rank bits position by position (a bit-sliced counter)."""
    cdef uint32_t a = ranks | ((ranks >> 13) & 2)     # A also as rank 1
    cdef uint32_t b = a >> 1, c = a >> 2, d = a >> 3, e = a >> 4
    cdef uint32_t s1 = a ^ b ^ c, c1 = (a & b) | (c & (a ^ b))
    cdef uint32_t s2 = s1 ^ d ^ e, c2 = (s1 & d) | (e & (s1 ^ d))
    # At bit i (the window's low rank i): count = s2 + 2 * (c1 + c2), at most 5.
    cdef uint32_t ok
    if w == 0:
        ok = c1 & c2 & s2                   # 5
    elif w == 1:
        ok = c1 & c2                        # 4 or more
    else:
        ok = (c1 & c2) | ((c1 ^ c2) & s2)   # 3 or more
    return (ok << 4) & 0x7FE0               # low rank i -> top i + 4; tops 5..14


cdef void gen_straight_flushes(const GHand* h, uint32_t pile, Out* o) noexcept nogil:
    cdef int top, s, i, k, S, present, missing
    cdef int rs[5]
    cdef uint64_t a
    cdef uint64_t bits[5]
    cdef uint32_t code, every = 0
    cdef uint32_t tops[4]
    # The windows each suit can fill with its natural cards and the wilds held: most suits
    # of most hands fill none, and those are skipped without looking at any window.
    for s in range(4):
        tops[s] = 0
        if GD_POPCOUNT(h.suit_ranks[s]) + h.w >= 5:       # (most suits of a small hand)
            tops[s] = window_tops(h.suit_ranks[s], h.w)
        every |= tops[s]
    if h.flags & F_NO_ACE_TOP:
        every &= ~(<uint32_t>1 << 14)
    while every:
        top = GD_CTZ(every)
        every &= every - 1
        code = mkcode(K_STRAIGHT_FLUSH, 5, top)
        if not want(code, pile, h):
            continue
        window_ranks(top, 5, rs)
        for s in range(4):
            if not (tops[s] >> top) & 1:
                continue
            present = 0
            for i in range(5):
                bits[i] = (<uint64_t>1) << (rank_shift(rs[i]) + s)
                if h.once & bits[i]:
                    present |= 1 << i
            missing = 31 & ~present
            # Every S that covers the missing positions, with at most w wilds (SMALL_SETS is
            # ordered by size). The natural cards all being suit s makes s a function of N:
            # no play is listed twice.
            for i in range(SMALL_SETS_UPTO[h.w]):
                S = SMALL_SETS[i]
                if (S & missing) != missing:
                    continue
                k = GD_POPCOUNT(S)
                a = wild_once(h, k)
                for i in range(5):
                    if not (S >> i) & 1:
                        a |= bits[i]
                put(o, a, wild_twice(h, k), code)


# A window rank's choices: for every rank pattern p and cards per rank `per` (1..3), its
# natural sub-multisets of per, per - 1, ... cards, each with its deficit (the cards wilds
# must supply), sorted by deficit: CH_Q[i] (a pattern) and CH_D[i] for i in
# [CH_OFF[p][per][0], CH_OFF[p][per][w + 1]) are those with at most w deficits. Sorted by
# deficit, so a loop can stop at the first that needs more wilds than are left. A table
# made once (it depends only on the pattern), sliced per rank: nothing is built per call.
cdef enum:
    CH_ENTRIES = 256 * 50       # at most 5 + 15 + 30 choices per pattern (see WIN_PREFIX)
cdef uint8_t CH_Q[CH_ENTRIES]
cdef uint8_t CH_D[CH_ENTRIES]
cdef uint16_t CH_OFF[256][4][4]

cdef void _init_choices() noexcept:
    cdef int p, per, k, size, i, n = 0
    for p in range(256):
        for per in range(4):
            for k in range(4):
                CH_OFF[p][per][k] = n
            if per == 0:
                continue
            for k in range(3):
                CH_OFF[p][per][k] = n
                size = per - k
                if size >= 0:
                    for i in range(SUB_OFF[p][size], SUB_OFF[p][size + 1]):
                        CH_Q[n] = SUBS[i]
                        CH_D[n] = k
                        n += 1
            CH_OFF[p][per][3] = n

_init_choices()


cdef inline void _rank_polys(const GHand* h, int per, int64_t* poly) noexcept nogil:
    """poly[3 * r + k]: the sub-multisets of rank r (1 = A low) that leave k cards to wilds
    (size per - k), for k = 0..2."""
    cdef int r, k, size
    cdef uint8_t p
    for r in range(1, 15):
        p = h.pat[r]
        for k in range(3):
            size = per - k
            poly[3 * r + k] = SUB_OFF[p][size + 1] - SUB_OFF[p][size] if size >= 0 and k <= h.w else 0


cdef inline int64_t _window_count(const GHand* h, int top, int width, const int64_t* poly) noexcept nogil:
    """The number of plays of the window with `top`: the product of its ranks' polynomials
    (plays by wilds used), truncated at h.w wilds."""
    cdef int64_t w0 = 1, w1 = 0, w2 = 0, a0, a1, a2
    cdef int i, r, k
    cdef int64_t total
    for i in range(top - width + 1, top + 1):
        r = 14 if i == 1 else i
        a0 = poly[3 * r]
        a1 = poly[3 * r + 1]
        a2 = poly[3 * r + 2]
        w2 = w2 * a0 + w1 * a1 + w0 * a2
        w1 = w1 * a0 + w0 * a1
        w0 = w0 * a0
    total = w0
    if h.w >= 1:
        total += w1
    if h.w >= 2:
        total += w2
    return total


cdef enum:
    # Bounds of _window_list's buffers. A rank offers at most 5 choices in a straight (one
    # of 4 faces, or none), 15 in three pairs (10 pairs, 4 singles, none) and 30 in a plate
    # (16 triples, 10 pairs, 4 singles), so the prefixes (straights: 3 ranks, 125; three
    # pairs: 2 ranks, 225; plates: 1 rank, 30) fit WIN_PREFIX and the suffixes (straights:
    # 2 ranks, 25; the others: 1 rank) fit WIN_SUFFIX, at every step of their building.
    WIN_PREFIX = 225
    WIN_SUFFIX = 32


cdef void _window_list(Out* o, const GHand* h, const int* rs, int width, int per,
                       uint32_t code) noexcept nogil:
    """Every play of one window, into o (room was checked by the caller): the product of its
    ranks' choices, in lexicographic order of the choice indices, keeping the products with
    at most h.w deficits in all. Split in two: the products of the first ranks (the prefix,
    each with its deficit so far) and of the last one or two (the suffix), listed once per
    deficit the prefix may have used, with the wild cards that total needs already in its
    masks; every play is then one prefix entry ORed with one suffix entry, in a loop with no
    test in it."""
    cdef uint64_t pa[2][WIN_PREFIX]
    cdef uint64_t pb[2][WIN_PREFIX]
    cdef uint8_t pk[2][WIN_PREFIX]
    cdef uint64_t sa[3][WIN_SUFFIX]
    cdef uint64_t sb[3][WIN_SUFFIX]
    cdef int sn[3]
    cdef int cur = 0, n = 1, nn, d, e, i, i2, k, kk, tail, hi, lo, hi2, lo2, sh, sh2
    cdef uint8_t q, q2
    cdef uint64_t a, b, ra, rb
    cdef int64_t j = o.n
    cdef uint64_t* m = o.masks
    cdef uint32_t* cs = o.codes
    cdef const uint64_t* xa
    cdef const uint64_t* xb
    tail = 2 if per == 1 else 1
    # The prefix, breadth first: rank by rank, each entry extended by every choice of the
    # next rank its deficit allows (choices are sorted by deficit: stop at the first too many).
    pa[0][0] = 0
    pb[0][0] = 0
    pk[0][0] = 0
    for d in range(width - tail):
        lo = CH_OFF[h.pat[rs[d]]][per][0]
        hi = CH_OFF[h.pat[rs[d]]][per][h.w + 1]
        sh = rank_shift(rs[d])
        nn = 0
        for e in range(n):
            for i in range(lo, hi):
                kk = pk[cur][e] + CH_D[i]
                if kk > h.w:
                    break
                q = CH_Q[i]
                pa[1 - cur][nn] = pa[cur][e] | ((<uint64_t>(q & 15)) << sh)
                pb[1 - cur][nn] = pb[cur][e] | ((<uint64_t>(q >> 4)) << sh)
                pk[1 - cur][nn] = kk
                nn += 1
        cur = 1 - cur
        n = nn
    # The suffix, once for each deficit k the prefix may have used: its products with at most
    # h.w - k deficits of their own, with the wilds the total needs.
    lo = CH_OFF[h.pat[rs[width - tail]]][per][0]
    hi = CH_OFF[h.pat[rs[width - tail]]][per][h.w + 1]
    sh = rank_shift(rs[width - tail])
    lo2 = CH_OFF[h.pat[rs[width - 1]]][per][0]
    hi2 = CH_OFF[h.pat[rs[width - 1]]][per][h.w + 1]
    sh2 = rank_shift(rs[width - 1])
    for k in range(h.w + 1):
        sn[k] = 0
        for i in range(lo, hi):
            kk = k + CH_D[i]
            if kk > h.w:
                break
            q = CH_Q[i]
            ra = (<uint64_t>(q & 15)) << sh
            rb = (<uint64_t>(q >> 4)) << sh
            if tail == 1:
                sa[k][sn[k]] = ra | (h.wbit if kk >= 1 else 0)
                sb[k][sn[k]] = rb | (h.wbit if kk >= 2 else 0)
                sn[k] += 1
                continue
            for i2 in range(lo2, hi2):
                if kk + CH_D[i2] > h.w:
                    break
                q2 = CH_Q[i2]
                sa[k][sn[k]] = ra | ((<uint64_t>(q2 & 15)) << sh2) | (h.wbit if kk + CH_D[i2] >= 1 else 0)
                sb[k][sn[k]] = rb | ((<uint64_t>(q2 >> 4)) << sh2) | (h.wbit if kk + CH_D[i2] >= 2 else 0)
                sn[k] += 1
    for e in range(n):
        k = pk[cur][e]
        a = pa[cur][e]
        b = pb[cur][e]
        xa = sa[k]
        xb = sb[k]
        hi = sn[k]
        for i in range(hi):
            m[2 * j] = a | xa[i]
            m[2 * j + 1] = b | xb[i]
            cs[j] = code
            j += 1
    o.n = j


cdef void gen_windows(const GHand* h, uint32_t pile, Out* o, int kind, int width, int per) noexcept nogil:
    """Straights (width 5, one card per rank), three pairs (3, 2) and plates (2, 3): every
    rank position takes `per` cards, natural ones of its rank or wilds. The wilds of a play
    are a function of its natural cards, so each (N, k) comes up once."""
    cdef int top, lo, hi, r, c, short
    cdef int rs[5]
    cdef int64_t total
    cdef int64_t poly[45]
    cdef uint32_t code, ge1 = 0, ge2 = 0, ge3 = 0, w
    cdef const uint32_t* win = &WIN5[0] if width == 5 else (&WIN3[0] if width == 3 else &WIN2[0])
    _rank_polys(h, per, poly)
    # geK: bit r set when natural rank r has at least K cards. A window's shortfall (the
    # cards wilds must supply) is then per * width minus, for K = 1..per, the window's ranks
    # in geK: a few popcounts, where a test of every rank's count mispredicted.
    for r in range(2, 15):
        c = h.cnt[r]
        ge1 |= (<uint32_t>(c >= 1)) << r
        ge2 |= (<uint32_t>(c >= 2)) << r
        ge3 |= (<uint32_t>(c >= 3)) << r
    lo = width               # the lowest window starts at A: A2345 (top 5), AA2233, AAA222
    hi = 13 if (kind == K_STRAIGHT and h.flags & F_NO_ACE_TOP) else 14
    for top in range(lo, hi + 1):
        code = mkcode(kind, width * per, top)
        if not want(code, pile, h):
            continue
        w = win[top]
        short = per * width - GD_POPCOUNT(ge1 & w)
        if per >= 2:
            short -= GD_POPCOUNT(ge2 & w)
        if per >= 3:
            short -= GD_POPCOUNT(ge3 & w)
        if short > h.w:
            continue
        total = _window_count(h, top, width, poly)
        if o.masks == NULL:
            o.n += total
            continue
        if total == 0:
            continue
        if o.n + total > o.cap:
            o.overflow = 1
            return
        window_ranks(top, width, rs)
        _window_list(o, h, rs, width, per, code)


cdef enum:
    GEN_GROUPS = 10             # gen_group's groups, in listing order


cdef inline void gen_group(const GHand* h, uint32_t pile, Out* o, int g) noexcept nogil:
    """Group g (0..GEN_GROUPS - 1) of gen_plays' list: singles, pairs, triples, full houses,
    straights, three pairs, plates, bombs, straight flushes, the joker bomb. gen_plays is
    these groups one after the other; a caller that wants the i-th play only (the vectorised
    env's random seats) counts every group and lists the one that holds it."""
    cdef int pk = ckind(pile)
    cdef bint lead = pile == 0
    if g == 0:
        if lead or pk == K_SINGLE:
            gen_sets(h, pile, o, K_SINGLE, 1)
    elif g == 1:
        if lead or pk == K_PAIR:
            gen_sets(h, pile, o, K_PAIR, 2)
    elif g == 2:
        if lead or pk == K_TRIPLE:
            gen_sets(h, pile, o, K_TRIPLE, 3)
    elif g == 3:
        if lead or pk == K_FULL_HOUSE:
            gen_full_houses(h, pile, o)
    elif g == 4:
        if lead or pk == K_STRAIGHT:
            gen_windows(h, pile, o, K_STRAIGHT, 5, 1)
    elif g == 5:
        if lead or pk == K_THREE_PAIRS:
            gen_windows(h, pile, o, K_THREE_PAIRS, 3, 2)
    elif g == 6:
        if lead or pk == K_PLATE:
            gen_windows(h, pile, o, K_PLATE, 2, 3)
    elif g == 7:
        gen_bombs(h, pile, o)
    elif g == 8:
        if not (h.flags & F_NO_STRAIGHT_FLUSH):
            gen_straight_flushes(h, pile, o)
    else:
        if h.js == 2 and h.jb == 2 and want(mkcode(K_JOKER_BOMB, 4, R_BIG_JOKER), pile, h):
            put(o, SJ_BIT | BJ_BIT, SJ_BIT | BJ_BIT, mkcode(K_JOKER_BOMB, 4, R_BIG_JOKER))


cdef int64_t gen_plays(const GHand* h, uint32_t pile, Out* o) noexcept nogil:
    """Every legal play of h on `pile` (0 = lead). Counts when o.masks is NULL. Returns o.n."""
    # Written out so that each inlined gen_group folds to its one branch.
    gen_group(h, pile, o, 0)
    gen_group(h, pile, o, 1)
    gen_group(h, pile, o, 2)
    gen_group(h, pile, o, 3)
    gen_group(h, pile, o, 4)
    gen_group(h, pile, o, 5)
    gen_group(h, pile, o, 6)
    gen_group(h, pile, o, 7)
    gen_group(h, pile, o, 8)
    gen_group(h, pile, o, 9)
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
