# Legal-move generation and counting.
#
# One routine, gen_moves, both counts (out == NULL) and writes the moves. Counting is the
# closed form: for every window of ranks, the product of the per-rank choice counts, so a count
# never enumerates. Writing walks the same windows in the documented order, ascending by
# (kind, ncards, mask), so no sort is ever needed:
#   * kinds are visited in ascending order;
#   * within a kind and length, windows are visited by ascending start rank (so ascending top);
#   * inside a window, an odometer varies the lowest rank fastest, and each rank's choices are
#     listed in ascending order, which is exactly ascending mask order.

cdef enum:
    MAX_MOVES_C = 1 << 22
    # No hand of 13 cards or fewer has more than 486 legal plays (the maximum, over every
    # distribution of 13 cards into ranks, of the lead count: a lead offers a superset of
    # any other situation's moves, and adding a card never removes one). Proven by
    # exhaustive enumeration in tests/test_move_bound.py. It lets callers generate ordinary
    # hands straight into a fixed buffer, without a counting pass first.
    MAX_MOVES_13 = 486

# SUBS[nib][k][i]: the i-th submask (ascending) of the 4-bit rank group `nib` that has k bits.
cdef uint8_t SUBS[16][5][6]
cdef uint8_t NSUB[16][5]

cdef void _init_subs() noexcept:
    cdef int nib, v, k
    for nib in range(16):
        for k in range(5):
            NSUB[nib][k] = 0
        for v in range(1, 16):
            if (v & ~nib) == 0:
                k = TL_POPCOUNT(v)
                SUBS[nib][k][NSUB[nib][k]] = v
                NSUB[nib][k] += 1

_init_subs()


cdef struct Choices:
    # Per-rank lists of allowed k-card submasks for the current generation call.
    const uint8_t* ptr[13]
    int n[13]
    uint8_t own[13][6]      # storage for the ranks whose list had to be filtered
    # Fast path for the common window where every rank has exactly one choice: `first` holds
    # each rank's first choice in place, `multi` has bit 4r set where rank r has several.
    uint64_t first
    uint64_t multi


cdef inline int _filter_subs(int nib, int k, int need_bit, int above_suit, uint8_t* dst) noexcept nogil:
    """Copy the k-card submasks of nib that contain need_bit (if nonzero) and whose strongest
    card has a suit above above_suit (if >= 0)."""
    cdef int i, v, n = 0
    for i in range(NSUB[nib][k]):
        v = SUBS[nib][k][i]
        if need_bit and not (v & need_bit):
            continue
        if above_suit >= 0 and TL_TOPBIT(v) <= above_suit:
            continue
        dst[n] = v
        n += 1
    return n


cdef inline uint64_t _ranks_with(uint64_t hand, int k) noexcept nogil:
    """Bit 4r set for every rank r holding at least k cards."""
    cdef uint64_t c = nibble_counts(hand)
    if k == 2:
        return ((c >> 1) | (c >> 2)) & 0x1111111111111ULL
    if k == 3:
        return ((c & (c >> 1)) | (c >> 2)) & 0x1111111111111ULL
    return (c >> 2) & 0x1111111111111ULL


cdef inline int64_t _gen_sets(uint64_t hand, int k, int min_top, int mi, uint64_t* out) noexcept nogil:
    """k cards of one rank (single..quad) with top card > min_top (-1: any), containing card mi
    (-1: any)."""
    cdef int r, i, nib, n, tr
    cdef int64_t cnt = 0
    cdef uint64_t ranks, h
    cdef uint8_t buf[6]
    cdef const uint8_t* lst
    if k == 1:
        # Singles are just the cards, ascending.
        h = hand
        if min_top >= 0:
            h &= ~((<uint64_t>2 << min_top) - 1)
        if mi >= 0:
            h &= (<uint64_t>1) << mi
        if out == NULL:
            return TL_POPCOUNT(h)
        while h:
            out[cnt] = h & (~h + 1)
            h &= h - 1
            cnt += 1
        return cnt
    ranks = _ranks_with(hand, k)
    tr = (min_top >> 2) if min_top >= 0 else -1
    if tr >= 0:
        ranks &= ~((<uint64_t>1 << (4 * tr)) - 1)
    if mi >= 0:
        ranks &= (<uint64_t>1) << (4 * (mi >> 2))
    while ranks:
        r = TL_CTZ(ranks) >> 2
        ranks &= ranks - 1
        nib = (hand >> (4 * r)) & 15
        if mi >= 0 or r == tr:
            n = _filter_subs(nib, k, (1 << (mi & 3)) if mi >= 0 else 0,
                             (min_top & 3) if r == tr else -1, buf)
            lst = buf
        else:
            n = NSUB[nib][k]
            lst = SUBS[nib][k]
        if out != NULL:
            for i in range(n):
                out[cnt + i] = (<uint64_t>lst[i]) << (4 * r)
        cnt += n
    return cnt


cdef inline uint64_t _prepare_runs(Choices* ch, uint64_t hand, int k, int mi, int max_rank,
                                   int* runlen) noexcept nogil:
    """Per-rank choice lists for runs of k cards a rank; returns bit 4r set for every rank r
    up to max_rank that has a choice. If `runlen` is not NULL, also runlen[r]: how many
    consecutive ranks from r upwards have a choice (0 past max_rank). Only ranks that can take
    part in a run get a list; no window ever reads the others."""
    cdef int r, nib, mr = (mi >> 2) if mi >= 0 else -1
    cdef uint64_t present = (hand if k == 1 else _ranks_with(hand, 2))
    cdef uint64_t left
    present = (present | (present >> 1) | (present >> 2) | (present >> 3)) & 0x1111111111111ULL
    present &= (<uint64_t>1 << (4 * max_rank + 1)) - 1
    if runlen != NULL:
        runlen[max_rank + 1] = 0
        for r in range(max_rank, -1, -1):
            # Branch-free: whether a rank is present is data the predictor cannot learn.
            runlen[r] = (runlen[r + 1] + 1) * <int>((present >> (4 * r)) & 1)
    ch.first = 0
    ch.multi = 0
    left = present
    while left:
        r = TL_CTZ(left) >> 2
        left &= left - 1
        nib = (hand >> (4 * r)) & 15
        if r == mr:
            ch.n[r] = _filter_subs(nib, k, 1 << (mi & 3), -1, ch.own[r])
            ch.ptr[r] = ch.own[r]
        else:
            ch.n[r] = NSUB[nib][k]
            ch.ptr[r] = SUBS[nib][k]
        if runlen != NULL:      # only _gen_runs, which takes runlen, reads these
            ch.first |= (<uint64_t>ch.ptr[r][0]) << (4 * r)
            if ch.n[r] > 1:
                ch.multi |= (<uint64_t>1) << (4 * r)
    return present


cdef inline int64_t _count_lead_runs(Choices* ch, const int* runlen, int mi, int max_rank) noexcept nogil:
    """Closed-form count of every run of 3+ ranks (any length), for a lead."""
    cdef int s, e, mr = (mi >> 2) if mi >= 0 else -1
    cdef int64_t cnt = 0, prod
    for s in range(0, max_rank - 1):
        if runlen[s] < 3 or (mr >= 0 and s > mr):
            continue
        prod = ch.n[s] * ch.n[s + 1]
        for e in range(s + 2, s + runlen[s]):
            prod *= ch.n[e]
            if mr < 0 or e >= mr:
                cnt += prod
    return cnt


cdef inline int64_t _gen_runs(Choices* ch, const int* runlen, uint64_t hand, int k, int L,
                              int min_top, int mi, int max_rank, uint64_t* out) noexcept nogil:
    """Runs of exactly L ranks with k cards each (k=1 sequence, k=2 double sequence), top card
    above min_top (-1: any), containing card mi (-1: any), top rank <= max_rank."""
    cdef int r, s, e, mr, tr, tn, top_lim_n = 0
    cdef int64_t cnt = 0, prod
    cdef uint64_t below
    cdef uint8_t top_lim[6]
    cdef const uint8_t* tptr
    mr = (mi >> 2) if mi >= 0 else -1
    tr = (min_top >> 2) if min_top >= 0 else -1
    if tr > max_rank or L > max_rank + 1:
        return 0
    if tr >= 0:
        # The rank of the pile's top card, when it is the window's top rank, may only use
        # choices whose strongest card outranks the pile's top by suit.
        top_lim_n = _filter_subs((hand >> (4 * tr)) & 15, k, (1 << (mi & 3)) if tr == mr else 0,
                                 min_top & 3, top_lim)
    for s in range(max(0, tr - L + 1), max_rank - L + 2):
        if runlen[s] < L:
            continue
        e = s + L - 1
        if mr >= 0 and (mr < s or mr > e):
            continue
        if e == tr:
            tptr = top_lim
            tn = top_lim_n
            if tn == 0:
                continue
        else:
            tptr = ch.ptr[e]
            tn = ch.n[e]
        if out != NULL:
            below = ((<uint64_t>1) << (4 * e)) - ((<uint64_t>1) << (4 * s))
            if tn == 1 and not (ch.multi & below):
                # One choice per rank: the run is the window's first choices, in O(1).
                out[cnt] = (ch.first & below) | ((<uint64_t>tptr[0]) << (4 * e))
                cnt += 1
            else:
                cnt += _emit_window(ch, s, L, tptr, tn, out + cnt)
        else:
            prod = tn
            for r in range(s, e):
                prod *= ch.n[r]
            cnt += prod
    return cnt


cdef inline int64_t _gen_lead_runs(const Choices* ch, uint64_t present, uint64_t* out) noexcept nogil:
    """Every run of 3+ ranks for a free lead (no card required), in order: by length, then
    by window, then ascending mask. `present` has bit 4r set for each rank with a choice.
    The runs of a window of length L are those of the same window of length L-1 (written
    just before, in order) with each choice of the new top rank added, so every run of 4+
    ranks costs one load, one OR and one store."""
    cdef int64_t cnt = 0, m, i, start
    cdef int64_t off[13]
    cdef int64_t num[13]
    cdef int s, e, L, a, b, c, na, nb
    cdef uint64_t vc, vb, starts, w
    cdef uint64_t* src
    # Bit 4s of `starts`: ranks s .. s+L-1 all have a choice.
    starts = present & (present >> 4) & (present >> 8)
    w = starts
    while w:
        s = TL_CTZ(w) >> 2
        w &= w - 1
        off[s] = cnt
        na = ch.n[s]
        nb = ch.n[s + 1]
        for c in range(ch.n[s + 2]):
            vc = (<uint64_t>ch.ptr[s + 2][c]) << (4 * (s + 2))
            for b in range(nb):
                vb = vc | ((<uint64_t>ch.ptr[s + 1][b]) << (4 * (s + 1)))
                for a in range(na):
                    out[cnt] = vb | ((<uint64_t>ch.ptr[s][a]) << (4 * s))
                    cnt += 1
        num[s] = cnt - off[s]
    L = 4
    starts &= present >> 12
    while starts:
        w = starts
        while w:
            s = TL_CTZ(w) >> 2
            w &= w - 1
            e = s + L - 1
            src = out + off[s]
            m = num[s]
            start = cnt
            for c in range(ch.n[e]):
                vc = (<uint64_t>ch.ptr[e][c]) << (4 * e)
                for i in range(m):
                    out[cnt + i] = src[i] | vc
                cnt += m
            off[s] = start
            num[s] = cnt - start
        L += 1
        starts &= present >> (4 * (L - 1))
    return cnt


cdef inline int64_t _emit_window(Choices* ch, int s, int L, const uint8_t* tptr, int tn,
                                 uint64_t* out) noexcept nogil:
    """Write every run of the window s .. s+L-1 in ascending mask order. The list is grown one
    rank at a time, in place: adding a more significant rank with choices c_0 < c_1 < ...
    turns the sorted list A into A|c_0, A|c_1, ..., which is again sorted. Blocks are filled
    from the last down so that A (the first block) is read before it is overwritten."""
    cdef int64_t m, i, j
    cdef int r, nr, e = s + L - 1
    cdef uint64_t c
    cdef uint64_t* dst
    cdef const uint8_t* lst
    m = ch.n[s]
    lst = ch.ptr[s]
    for i in range(m):
        out[i] = (<uint64_t>lst[i]) << (4 * s)
    for r in range(s + 1, e + 1):
        if r == e:
            lst = tptr
            nr = tn
        else:
            lst = ch.ptr[r]
            nr = ch.n[r]
        for j in range(nr - 1, -1, -1):
            c = (<uint64_t>lst[j]) << (4 * r)
            dst = out + j * m
            for i in range(m):
                dst[i] = out[i] | c
        m *= nr
    return m


cdef inline int64_t _gen_same(uint64_t hand, uint32_t pile, Choices* ch, int* runlen, int max_rank,
                              int mi, uint64_t* out) noexcept nogil:
    """R3.1: the plays of the pile's own kind and size with a higher top card."""
    cdef int pk = ckind(pile), k
    if pk <= K_QUAD:
        return _gen_sets(hand, pk, ctop(pile), mi, out)
    k = 1 if pk == K_SEQUENCE else 2
    _prepare_runs(ch, hand, k, mi, max_rank, runlen)
    return _gen_runs(ch, runlen, hand, k, clen(pile) // k, ctop(pile), mi, max_rank, out)


cdef inline int64_t _gen_bombs(uint64_t hand, uint32_t pile, uint64_t bombs, int mi, int max_rank,
                        uint64_t* out) noexcept nogil:
    """The bombs that cut `pile` by the table: `bombs` has bit 8 * class set for each bomb
    class that does. Written in class order, which is (kind, number of cards) order. A bomb
    of the pile's own class must have a higher top card (the b == t entry)."""
    cdef int64_t cnt = 0
    cdef int b, cb, min_top, ct = code_class(pile)
    cdef Choices ch
    cdef int runlen[14]
    cdef bint prepared = False
    # Which bomb classes can this hand form at all? A quad needs a rank of four, a double
    # sequence of k pairs k consecutive ranks (up to max_rank) of two or more. Most hands
    # hold none, and then no run table is prepared.
    cdef uint64_t pairs = _ranks_with(hand, 2) & ((<uint64_t>1 << (4 * (max_rank + 1))) - 1)
    cdef uint64_t runs = pairs & (pairs >> 4) & (pairs >> 8)
    if not _ranks_with(hand, 4):
        bombs &= ~((<uint64_t>1) << (8 * CL_QUAD))
    for b in range(1, 4):
        if not runs:
            bombs &= ~((<uint64_t>1) << (8 * (CL_QUAD + b)))
        runs &= pairs >> (4 * (b + 2))
    if not bombs:
        return 0
    for b in range(4):
        cb = CL_QUAD + b
        if not (bombs >> (8 * cb)) & 1:
            continue
        min_top = ctop(pile) if cb == ct else -1
        if b == 0:
            cnt += _gen_sets(hand, 4, min_top, mi, (out + cnt) if out != NULL else NULL)
        else:
            if not prepared:
                _prepare_runs(&ch, hand, 2, mi, max_rank, runlen)
                prepared = True
            cnt += _gen_runs(&ch, runlen, hand, 2, b + 2, min_top, mi, max_rank,
                             (out + cnt) if out != NULL else NULL)
    return cnt


cdef int64_t _gen_lead(uint64_t hand, int mi, int max_rank, uint64_t* out) noexcept nogil:
    """A fresh lead (R7.1): every combination of `hand`. Its own function, so the lead's
    loops keep their registers apart from the follow and bomb code."""
    cdef int64_t cnt = 0
    cdef int k, L, top_run
    cdef uint64_t present
    cdef Choices ch
    cdef int runlen[14]
    for k in range(1, 5):
        cnt += _gen_sets(hand, k, -1, mi, (out + cnt) if out != NULL else NULL)
    for k in range(1, 3):
        if out != NULL and mi < 0:
            present = _prepare_runs(&ch, hand, k, mi, max_rank, NULL)
            cnt += _gen_lead_runs(&ch, present, out + cnt)
            continue
        _prepare_runs(&ch, hand, k, mi, max_rank, runlen)
        if out == NULL:
            cnt += _count_lead_runs(&ch, runlen, mi, max_rank)
            continue
        top_run = 0
        for L in range(max_rank + 1):
            if runlen[L] > top_run:
                top_run = runlen[L]
        for L in range(3, top_run + 1):
            cnt += _gen_runs(&ch, runlen, hand, k, L, -1, mi, max_rank, out + cnt)
    return cnt


cdef int64_t gen_moves(uint64_t hand, uint32_t pile, const RuleTable* rt, bint locked, int mi,
                       uint64_t* out) noexcept nogil:
    """Count (out == NULL) or write every legal play of `hand` on `pile` under the rule
    table `rt`. A locked-out hand (R5.2) may only cut by the out-of-turn table."""
    cdef int64_t cnt = 0
    cdef int max_rank, ct
    cdef uint64_t bombs, lower
    cdef Choices ch
    cdef int runlen[14]
    if mi >= 0 and not ((hand >> mi) & 1):
        return 0
    max_rank = 11 if (rt.flags & F_NO_TWOS) else 12
    if pile == 0:
        return 0 if locked else _gen_lead(hand, mi, max_rank, out)
    ct = code_class(pile)
    if not locked:
        # R3.1 first: the plays of the pile's own kind, the whole answer unless the table
        # lets some bomb cut this pile (one shift of one table word). A bomb of the pile's
        # own class beats it by R3.1 already, so it is listed once, here.
        cnt = _gen_same(hand, pile, &ch, runlen, max_rank, mi, out)
        bombs = (rt.cuts >> ct) & BOMB_COLUMN & ~((<uint64_t>1) << (8 * ct))
        if not bombs:
            return cnt
        # The list is ordered by (kind, number of cards): bombs of a class below the pile's
        # (only when the pile is itself a bomb, e.g. a quad cutting three pairs) come before
        # the R3.1 plays, so that rare case is written again in order.
        lower = bombs & (((<uint64_t>1) << (8 * ct)) - 1)
        if lower:
            cnt = _gen_bombs(hand, pile, lower, mi, max_rank, out)
            cnt += _gen_same(hand, pile, &ch, runlen, max_rank, mi,
                             (out + cnt) if out != NULL else NULL)
            bombs &= ~lower
    else:
        bombs = (rt.out_cuts >> ct) & BOMB_COLUMN
    if bombs:
        cnt += _gen_bombs(hand, pile, bombs, mi, max_rank, (out + cnt) if out != NULL else NULL)
    return cnt
