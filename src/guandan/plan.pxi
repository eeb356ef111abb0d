# The plan policy (issue 17): each seat splits its hand into groups (wilds included), leads
# its weakest group, follows with the cheapest play that beats, keeps bombs for when they
# matter and lets its partner's winning play stand. This is the one implementation of the
# idea: the GdState playouts (policy PLAN) and the L2 bot (tienlen.guandan.bots.PlanBot,
# through plan_move) both call plan_decide, and plan_groups in Python wraps plan_split.
#
# Everything here reads only what the seat to act may know: its own hand, the pile, who made
# it and how many cards each seat holds.

cdef enum:
    PLAN_MAX_GROUPS = 40
    PLAN_STACK = 1024               # plays a follow lists into the stack buffer
    PLAN_BREAK_CODES = 8            # distinct readings tried when a follow breaks the plan
    PLAN_DANGER = 6                 # an opponent this close to out makes every trick matter
    PLAN_SPLITS = 9                 # greedy splits plan_split compares
    # A bomb is spent on a pile nothing else beats when the pile's owner holds this many
    # cards or fewer, or the seat's own hand needs this many turns or fewer (issue 29:
    # 12 and 3, were 8 and 2).
    PLAN_BOMB_OWNER = 12
    PLAN_BOMB_TURNS = 3
    # Partner play (issue 29): while the partner holds PLAN_FEED_PARTNER cards or fewer,
    # the seat fights for the lead on an opponent's pile as in danger (control cards and
    # broken groups allowed, bombs not), and a lead to a partner holding PLAN_LEAD_PARTNER
    # cards or fewer is the lowest single (was 1 card).
    PLAN_FEED_PARTNER = 12
    PLAN_LEAD_PARTNER = 2
    # Blocking (issue 29): a lead an opponent could go out on (its size is their card count,
    # at most PLAN_BLOCK_SIZE) is the last resort, and the strongest such group then; the
    # partner's play is beaten when an opponent still to act holds as many cards as it and
    # it is below an ace.
    PLAN_BLOCK_SIZE = 5
    # 接风 (issue 35, GUANDAN.md G5.6): the last play of an opponent who has gone out leads
    # to their partner if the rest of the table passes, so the seat fights for it as in
    # danger (control cards and broken groups allowed; DENY_WIND). Bombs stay under the rule
    # above, which already allows them once the owner is out (owner_left 0 <= 12): keeping
    # them until the owner's partner holds 12, 9, 6, 3 or 0 cards (or the seat needs 3
    # turns) measured no better (levels a first hand +0.001 at 12 and 9, as the rule alone,
    # down to -0.001 when never).
    # The partner's own last play is let stand (the lead comes to the seat) unless an
    # opponent could go out on it (BLOCK, unchanged: never blocking then measured -0.003
    # levels a first hand, p = 4.5e-7). New L2 against the previous, 5000 boards of first
    # hands on each of seeds 1-5: levels a hand +0.001, +0.002, 0.000, 0.000, +0.001 (hands
    # won cannot move: 接风 comes after the first player is out); the same against the three
    # styles (+0.001 each, 1000 boards); whole matches against the previous L2, 3000 boards
    # over seeds 1-3: match wins -0.05 points [-0.35, +0.25], not measurable; L3 (20 deals)
    # against L3 on the previous plan: hands +0.7 points [-2.3, +3.6] (150 boards). Leading
    # the lowest pair to a partner holding 2 cards: -0.1 to +0.3 points of first hands won
    # on seeds 1-5, mixed in whole matches (match wins +0.3, -0.5, +0.4): not kept.
    PLAN_BREAKS_BOMB = 1 << 20      # _break_cost: the play breaks a bomb of the plan
    # Why plan_decide chose its action (PLAN_REASONS in Python).
    PR_PASS_NOTHING = 0
    PR_GO_OUT = 1
    PR_LEAD = 2
    PR_LEAD_FOR_PARTNER = 3
    PR_FOLLOW_GROUP = 4
    PR_FOLLOW_BREAK = 5
    PR_BOMB = 6
    PR_PASS_PARTNER = 7
    PR_PASS_KEEP = 8
    PR_BLOCK = 9                    # beats the partner's play that an opponent could go out on
    PR_TAKE_OVER = 10               # beats the partner's play to go out on the lead it wins
    PR_DENY_WIND = 11               # beats the last play of an opponent who is out (接风)
    PR_FAILED = -1                  # a move list could not be allocated


PLAN_REASONS = ("PASS_NOTHING", "GO_OUT", "LEAD", "LEAD_FOR_PARTNER", "FOLLOW_GROUP",
                "FOLLOW_BREAK", "BOMB", "PASS_PARTNER", "PASS_KEEP", "BLOCK", "TAKE_OVER",
                "DENY_WIND")


cdef struct PGroup:
    uint64_t once
    uint64_t twice
    uint32_t code


cdef struct Plan:
    int n
    int nonbomb                      # groups that are not bombs: the turns the hand needs
    PGroup g[PLAN_MAX_GROUPS]


cdef struct PlanView:
    uint64_t once                    # the hand of the seat to act
    uint64_t twice
    int level
    int flags
    uint32_t pile_code               # 0: a lead
    int owner_partner                # the pile is the partner's play
    int owner_left                   # cards its owner still holds
    int partner_left                 # 0 once the partner is out
    int opp_min                      # fewest cards an opponent still in holds (99: none)


cdef inline int _pc(uint8_t p) noexcept nogil:
    return PCNT[p]


cdef inline int _wr(int r) noexcept nogil:
    """Window rank position to the rank index: 1 is the A below the 2."""
    return 14 if r == 1 else r


cdef inline void _take(uint8_t* pat, int r, int k, uint64_t* a, uint64_t* b) noexcept nogil:
    """Move k natural cards of rank r from pat into the masks (a, b), lowest types first."""
    cdef int i, tc, sh = 4 * (r - 2)
    cdef uint8_t p = pat[r]
    for i in range(4):
        if k <= 0:
            break
        tc = ((p >> i) & 1) + ((p >> (4 + i)) & 1)
        if tc == 0:
            continue
        if tc == 2 and k >= 2:
            a[0] |= (<uint64_t>1) << (sh + i)
            b[0] |= (<uint64_t>1) << (sh + i)
            p &= ~((1 << i) | (1 << (4 + i)))
            k -= 2
        elif tc == 2:
            a[0] |= (<uint64_t>1) << (sh + i)
            p &= ~(1 << (4 + i))
            k -= 1
        else:
            a[0] |= (<uint64_t>1) << (sh + i)
            p &= ~(1 << i)
            k -= 1
    pat[r] = p


cdef inline bint _take_type(uint8_t* pat, int r, int suit, uint64_t* a) noexcept nogil:
    """Move one card of type (r, suit) from pat into a; False if pat has none."""
    cdef uint8_t p = pat[r]
    if not (p >> suit) & 1:
        return False
    if (p >> (4 + suit)) & 1:
        p &= ~(1 << (4 + suit))
    else:
        p &= ~(1 << suit)
    pat[r] = p
    a[0] |= (<uint64_t>1) << (4 * (r - 2) + suit)
    return True


cdef inline void _add(Plan* P, uint64_t a, uint64_t b, uint32_t code) noexcept nogil:
    if P.n < PLAN_MAX_GROUPS:
        P.g[P.n].once = a
        P.g[P.n].twice = b
        P.g[P.n].code = code
        P.n += 1
        if not kind_is_bomb(ckind(code)):
            P.nonbomb += 1


cdef void _split_head(const GHand* h, int sf_lone, bint multi, Plan* P, uint8_t* pat,
                     int* jokers) noexcept nogil:
    """The first steps of one greedy split of the hand into groups, in the order that saves
    the most turns: the joker bomb and bombs; straight flushes taking at least `sf_lone`
    lone cards; plates and three pairs (unless `multi` is 0). `pat` (15 bytes) is left
    holding the natural cards not yet grouped, `jokers` the small and big jokers
    (_split_tail finishes the split)."""
    cdef int r, top, i, c, js, jb, lone, top5, ok, suit
    cdef int flags = h.flags
    cdef uint64_t a, b
    P.n = 0
    P.nonbomb = 0
    for r in range(15):
        pat[r] = h.pat[r] if r >= 2 else 0
    js = h.js
    jb = h.jb
    top5 = 13 if flags & F_NO_ACE_TOP else 14
    if js == 2 and jb == 2:
        _add(P, SJ_BIT | BJ_BIT, SJ_BIT | BJ_BIT, mkcode(K_JOKER_BOMB, 4, R_BIG_JOKER))
        js = 0
        jb = 0
    jokers[0] = js
    jokers[1] = jb
    for r in range(2, 15):
        c = _pc(pat[r])
        if c >= 4:
            a = 0
            b = 0
            _take(pat, r, c, &a, &b)
            _add(P, a, b, mkcode(K_BOMB, c, r))
    # Straight flushes of natural cards that would otherwise be mostly lone.
    if not (flags & F_NO_STRAIGHT_FLUSH):
        for suit in range(4):
            for top in range(top5, 4, -1):
                ok = 1
                lone = 0
                for i in range(5):
                    r = _wr(top - i)
                    if not (pat[r] >> suit) & 1:
                        ok = 0
                        break
                    lone += _pc(pat[r]) == 1
                if ok and lone >= sf_lone:
                    a = 0
                    for i in range(5):
                        _take_type(pat, _wr(top - i), suit, &a)
                    _add(P, a, 0, mkcode(K_STRAIGHT_FLUSH, 5, top))
    # Plates: two neighbouring triples (A also below the 2).
    for top in range(14 if multi else 0, 1, -1):
        if _pc(pat[top]) == 3 and _pc(pat[_wr(top - 1)]) == 3:
            a = 0
            b = 0
            _take(pat, top, 3, &a, &b)
            _take(pat, _wr(top - 1), 3, &a, &b)
            _add(P, a, b, mkcode(K_PLATE, 6, top))
    # Three pairs: three neighbouring pairs.
    for top in range(14 if multi else 0, 2, -1):
        if (_pc(pat[top]) == 2 and _pc(pat[top - 1]) == 2
                and _pc(pat[_wr(top - 2)]) == 2):
            a = 0
            b = 0
            for i in range(3):
                _take(pat, _wr(top - i), 2, &a, &b)
            _add(P, a, b, mkcode(K_THREE_PAIRS, 6, top))


cdef void _split_tail(const GHand* h, int st_lone, Plan* P, uint8_t* pat,
                     const int* jokers) noexcept nogil:
    """The rest of the split _split_head began (P, `pat` and `jokers` as it left them):
    straights taking at least `st_lone` % 100 cards that would otherwise be lone (from the
    top, or from the bottom when `st_lone` >= 100); wilds completing a straight of four lone
    cards or turning a triple into a bomb; then triples (with the lowest pairs as full
    houses), pairs and singles. Every card lands in exactly one group, and every group is a
    play of the hand (tests/games/guandan/test_guandan_plan.py)."""
    cdef int r, top, i, c, w, missing, lone, top5, ok, np_, nt
    cdef int js = jokers[0], jb = jokers[1], flags = h.flags, level = h.level
    cdef int pairs[13]
    cdef uint64_t a, b
    w = h.w
    top5 = 13 if flags & F_NO_ACE_TOP else 14
    # Straights that take at least three lone cards.
    for top in range(top5, 4, -1):
        if st_lone >= 100:
            top = top5 + 5 - top          # scan from the bottom
        ok = 1
        lone = 0
        for i in range(5):
            c = _pc(pat[_wr(top - i)])
            if c == 0:
                ok = 0
                break
            lone += c == 1
        if ok and lone >= st_lone % 100:
            a = 0
            b = 0
            for i in range(5):
                _take(pat, _wr(top - i), 1, &a, &b)
            _add(P, a, b, mkcode(K_STRAIGHT, 5, top))
    # Wilds: complete a straight of four lone cards, else make a triple a bomb.
    while w > 0:
        ok = 0
        for top in range(top5, 4, -1):
            missing = 0
            lone = 0
            for i in range(5):
                c = _pc(pat[_wr(top - i)])
                if c == 0:
                    missing += 1
                elif c == 1:
                    lone += 1
            if missing == 1 and lone == 4:
                a = h.wbit               # one wild: the type once (a group never needs both)
                b = 0
                for i in range(5):
                    if _pc(pat[_wr(top - i)]):
                        _take(pat, _wr(top - i), 1, &a, &b)
                _add(P, a, b, mkcode(K_STRAIGHT, 5, top))
                ok = 1
                break
        if not ok:
            for r in range(2, 15):
                if _pc(pat[r]) == 3:
                    a = h.wbit
                    b = 0
                    _take(pat, r, 3, &a, &b)
                    _add(P, a, b, mkcode(K_BOMB, 4, r))
                    ok = 1
                    break
        if not ok:
            break
        w -= 1
    # Triples with the lowest pairs as full houses, then pairs and singles.
    np_ = 0
    for r in range(2, 15):
        if _pc(pat[r]) == 2:
            pairs[np_] = r
            np_ += 1
    nt = 0
    for r in range(2, 15):
        if _pc(pat[r]) == 3:
            a = 0
            b = 0
            _take(pat, r, 3, &a, &b)
            if nt < np_:
                _take(pat, pairs[nt], 2, &a, &b)
                _add(P, a, b, mkcode(K_FULL_HOUSE, 5, r))
                nt += 1
            else:
                _add(P, a, b, mkcode(K_TRIPLE, 3, r))
    for r in range(2, 15):
        c = _pc(pat[r])
        if c:
            a = 0
            b = 0
            _take(pat, r, c, &a, &b)
            _add(P, a, b, mkcode(c, c, r))        # K_SINGLE / K_PAIR equal their sizes
    if w == 2:
        _add(P, h.wbit, h.wbit, mkcode(K_PAIR, 2, level))
    elif w == 1:
        _add(P, h.wbit, 0, mkcode(K_SINGLE, 1, level))
    if js:
        _add(P, SJ_BIT, SJ_BIT if js == 2 else 0, mkcode(js, js, R_SMALL_JOKER))
    if jb:
        _add(P, BJ_BIT, BJ_BIT if jb == 2 else 0, mkcode(jb, jb, R_BIG_JOKER))


# plan_split is a pure function of the hand, the level and the flags, and a playout asks it
# about the same hands again and again: a seat that passed splits its unchanged hand at its
# next turn, a follow prices its candidate breaks on the same rest of the hand trick after
# trick, and the playouts of one sampled deal's candidate actions start from the same three
# other hands; and the seat's own hand, the same in every sampled deal of a decision, breaks
# the same ways deal after deal. So each thread keeps the last PLAN_MEMO splits
# (direct-mapped by a hash of the key, the whole key checked on a hit): the same Plan, found
# instead of recomputed. Thread-local (a pthread key whose destructor frees it when the
# thread ends), so threads never share one. An entry holds PLAN_MEMO_GROUPS groups, not
# PLAN_MAX_GROUPS: no split of 27 cards had more than 15 in 50,000 random hands, and a
# split with more is recomputed each time, not kept (416 KiB a thread, was 1 MiB). 16384
# entries (6.5 MiB a thread) weighed no more deals in L3's 85 ms than 1024, run in turn
# (bench/guandan_l3_deals.py, issue 35).

cdef enum:
    PLAN_MEMO = 1024                  # entries a thread; a power of two
    PLAN_MEMO_GROUPS = 16


cdef struct PlanMemo:
    uint64_t once
    uint64_t twice
    uint64_t tag                    # level | flags << 8 | 1 << 40 once filled
    int n
    int nonbomb
    PGroup g[PLAN_MEMO_GROUPS]


cdef extern from *:
    """
    #if !defined(_WIN32)
    #include <pthread.h>
    #endif
    #include <stdlib.h>
    /* This thread's block of `bytes` zeroed bytes, made at its first call and freed when the
       thread ends; NULL when none can be had (the caller then works without it). (Keeping
       an ended thread's block for the next thread, L3 starting a scoring thread every
       decision, weighed fewer deals, not more: issue 35.) */
    #if defined(_WIN32)
    static void* gd_thread_block(size_t bytes) { (void)bytes; return NULL; }
    #else
    static pthread_key_t gd_block_key;
    static int gd_block_key_ok = 0;
    static pthread_once_t gd_block_once = PTHREAD_ONCE_INIT;
    static void gd_block_make_key(void) {
        gd_block_key_ok = pthread_key_create(&gd_block_key, free) == 0;
    }
    static void* gd_thread_block(size_t bytes) {
        void* p;
        pthread_once(&gd_block_once, gd_block_make_key);
        if (!gd_block_key_ok) return NULL;
        p = pthread_getspecific(gd_block_key);
        if (p == NULL) {
            p = calloc(1, bytes);
            if (p != NULL && pthread_setspecific(gd_block_key, p) != 0) {
                free(p);
                p = NULL;
            }
        }
        return p;
    }
    #endif
    """
    void* gd_thread_block(size_t bytes) nogil


cdef inline void _plan_copy(Plan* to, const Plan* frm) noexcept nogil:
    """Copy a plan's groups, not the unused rest of its array."""
    to.n = frm.n
    to.nonbomb = frm.nonbomb
    memcpy(to.g, frm.g, frm.n * sizeof(PGroup))


cdef void plan_split(uint64_t once, uint64_t twice, int level, int flags, Plan* P) noexcept nogil:
    """_plan_split (below), looked up in this thread's memo first."""
    cdef PlanMemo* memo = <PlanMemo*>gd_thread_block(PLAN_MEMO * sizeof(PlanMemo))
    cdef uint64_t tag = <uint64_t>level | (<uint64_t>flags << 8) | (<uint64_t>1 << 40)
    cdef uint64_t h
    cdef PlanMemo* e
    if memo == NULL:
        _plan_split(once, twice, level, flags, P)
        return
    h = (once * 0x9E3779B97F4A7C15ULL) ^ (twice * 0xC2B2AE3D27D4EB4FULL) ^ tag
    h ^= h >> 29
    e = &memo[h & (PLAN_MEMO - 1)]
    if e.tag == tag and e.once == once and e.twice == twice:
        P.n = e.n
        P.nonbomb = e.nonbomb
        memcpy(P.g, e.g, e.n * sizeof(PGroup))
        return
    _plan_split(once, twice, level, flags, P)
    if P.n <= PLAN_MEMO_GROUPS:
        e.once = once
        e.twice = twice
        e.tag = tag
        e.n = P.n
        e.nonbomb = P.nonbomb
        memcpy(e.g, P.g, P.n * sizeof(PGroup))


cdef extern from *:
    """
    /* The greedy splits _plan_split compares: (st_lone, sf_lone, multi) of _split_tail and
       _split_head. */
    static const int plan_variants[9][3] = {
        {3, 3, 1}, {2, 3, 1}, {4, 3, 1}, {99, 3, 1}, {3, 3, 0},
        {2, 2, 1}, {103, 3, 1}, {102, 3, 1}, {102, 2, 0}};
    """
    const int plan_variants[9][3]


cdef inline uint32_t _runs(uint32_t ranks, int length) noexcept nogil:
    """Bit j set where window positions j .. j + length - 1 are all in `ranks` (bit r: rank
    r, 2..14; position 1 is the A below the 2): the plates' and three pairs' windows (five
    ranks: gen.pxi's window_tops)."""
    cdef uint32_t m = ranks | (((ranks >> 14) & 1) << 1), run = m
    cdef int i
    for i in range(1, length):
        run &= m >> i
    return run


cdef void _plan_split(uint64_t once, uint64_t twice, int level, int flags, Plan* P) noexcept nogil:
    """The hand's split into groups with the fewest turns (non-bomb groups) among
    PLAN_SPLITS greedy splits (_split_head and _split_tail: the classic one first, then
    ones that trade straights, straight flushes, three pairs and plates against the pairs
    and triples they break); more bombs break a tie, then the earlier split (issue 29: the
    decomposition that minimises the plays to go out).

    A split's parameters only matter where the hand has what they choose between: with no
    five neighbouring ranks outside its bombs no straight is ever taken, whatever
    `st_lone`; with no five of one suit, no straight flush; with no neighbouring triples or
    three neighbouring pairs (or triples a straight flush may cut to pairs), no plate or
    three pairs. A split whose parameters differ from an earlier one's only where they do
    not matter is that split again, and would lose the tie to it: it is skipped (issue 35:
    most hands late in a playout have no straight, and took nine identical splits)."""
    cdef Plan Q
    cdef Plan heads[4]
    cdef uint8_t head_pat[4][15]
    cdef uint8_t pat[15]
    cdef int head_jokers[4][2]
    cdef GHand h
    cdef int v, u, r, c, hk, key, bkey, top5, st, sf, multi
    cdef int keys[PLAN_SPLITS]
    cdef bint have[4]
    cdef Plan* out
    cdef uint32_t pres = 0, trips = 0, pairs = 0, windows
    cdef bint straights, flushes = 0, multis
    ghand_init(&h, once, twice, level, flags)
    for r in range(2, 15):
        c = h.cnt[r]
        if 1 <= c <= 3:               # four or more are a bomb, taken before any of these
            pres |= (<uint32_t>1) << r
        if c == 3:
            trips |= (<uint32_t>1) << r
        if c == 2 or c == 3:          # a straight flush may take one of a triple
            pairs |= (<uint32_t>1) << r
    top5 = 13 if flags & F_NO_ACE_TOP else 14
    windows = (((<uint32_t>1) << (top5 + 1)) - 1) & ~(<uint32_t>0x1F)   # tops 5 .. top5
    straights = (window_tops(pres, 0) & windows) != 0
    if not (flags & F_NO_STRAIGHT_FLUSH):
        for v in range(4):
            if window_tops(h.suit_ranks[v] & pres, 0) & windows:
                flushes = 1
                break
    multis = (_runs(trips, 2) & 0x3FFE) != 0 or (_runs(pairs, 3) & 0x1FFE) != 0
    for v in range(4):
        have[v] = 0
    bkey = 0
    for v in range(PLAN_SPLITS):
        # the parameters as far as they matter for this hand (0: they do not)
        st = plan_variants[v][0] if straights else 0
        sf = plan_variants[v][1] if flushes else 0
        multi = plan_variants[v][2] if multis else 0
        keys[v] = st * 8 + sf * 2 + multi
        for u in range(v):
            if keys[u] == keys[v]:
                break
        else:
            # splits with the same sf_lone and multi (as far as they matter) share their
            # first steps: made once, copied
            hk = (sf == 2) * 2 + (multi == 0 and multis)
            if not have[hk]:
                _split_head(&h, plan_variants[v][1], plan_variants[v][2], &heads[hk],
                            head_pat[hk], head_jokers[hk])
                have[hk] = 1
            out = P if v == 0 else &Q
            _plan_copy(out, &heads[hk])
            memcpy(pat, head_pat[hk], 15)
            _split_tail(&h, plan_variants[v][0], out, pat, head_jokers[hk])
            key = out.nonbomb * 64 - (out.n - out.nonbomb)
            if v == 0:
                bkey = key
            elif key < bkey:
                bkey = key
                _plan_copy(P, &Q)


cdef inline int _lowest_value(uint32_t code, int level) noexcept nogil:
    """The value of a group's weakest card, for choosing what to lead."""
    cdef int k = ckind(code)
    if k == K_STRAIGHT or k == K_STRAIGHT_FLUSH:
        return crank(code) - 4
    if k == K_THREE_PAIRS:
        return crank(code) - 2
    if k == K_PLATE:
        return crank(code) - 1
    return single_value(crank(code), level)


cdef inline int _hand_count(uint64_t once, uint64_t twice) noexcept nogil:
    return GD_POPCOUNT(once) + GD_POPCOUNT(twice)


cdef int _break_cost(const PlanView* v, const Plan* P, uint64_t a, uint64_t b, Plan* tmp) noexcept nogil:
    """Turns (non-bomb groups) the rest of the hand needs after playing (a, b), beyond those
    of P, the hand's plan; PLAN_BREAKS_BOMB when the rest splits into fewer bombs than P.
    Such a play used to cost nothing here when it also used up a pair or a single (issue 28
    item 15: four 4s broken for 444 + 99, which the lowest full house then loses to anything,
    where the bomb itself would have won the trick): a bomb is only ever spent whole, in
    step 6."""
    cdef uint64_t o = v.once, t = v.twice
    cdef uint64_t no = (o & ~a) | (t & a & ~b), nt = t & ~a
    if no == 0:
        return -P.nonbomb
    plan_split(no, nt, v.level, v.flags, tmp)
    if tmp.n - tmp.nonbomb < P.n - P.nonbomb:
        return PLAN_BREAKS_BOMB
    return tmp.nonbomb - P.nonbomb


cdef int _beating_group(const PlanView* v, const Plan* P, uint32_t pile,
                        bint strongest) noexcept nogil:
    """The index of the strongest (or weakest) non-bomb group of P that beats `pile`, -1
    for none."""
    cdef int i, key, best = -1, bkey = 0
    cdef uint32_t code
    for i in range(P.n):
        code = P.g[i].code
        if kind_is_bomb(ckind(code)) or not c_beats(code, pile, v.level, v.flags):
            continue
        key = play_value(code, v.level)
        if best < 0 or (key > bkey if strongest else key < bkey):
            bkey = key
            best = i
    return best


cdef int _over_partner(const PlanView* v, const Plan* P, uint32_t pile, int pile_value,
                       int* out) noexcept nogil:
    """The group of the plan (no bomb) that beats the partner's winning play into out[0], or
    -1 to let it stand (issue 29); returns the reason, PR_BLOCK or PR_TAKE_OVER. Two cases:
    - an opponent could go out on it (holds as many cards as the play has, below an ace):
      the strongest group that beats it, to block;
    - the seat is one turn from out after this play and holds fewer cards than the partner:
      the weakest group that beats it, then the last group on the lead it wins.
    Measured, L2 against L2 without them (with the blocking lead above): +2.6 points of hands
    won over 5000 boards on each of two seeds."""
    if v.opp_min == csize(pile) and pile_value < 14:
        out[0] = _beating_group(v, P, pile, True)
        if out[0] >= 0:
            return PR_BLOCK
    out[0] = -1
    if P.nonbomb == 2 and v.partner_left > _hand_count(v.once, v.twice):
        out[0] = _beating_group(v, P, pile, False)
    return PR_TAKE_OVER


cdef int plan_decide(const PlanView* v, Plan* P, Plan* tmp, uint64_t* act) noexcept nogil:
    """The plan's action for the seat to act: act = (once, twice, code), zeros for a pass.
    Returns the reason (PR_*), PR_FAILED if a move list could not be allocated."""
    return _plan_decide(v, P, tmp, act, 0)


cdef int _plan_decide(const PlanView* v, Plan* P, Plan* tmp, uint64_t* act,
                      bint split_ready) noexcept nogil:
    """plan_decide; with `split_ready`, P already holds plan_split of v's hand (PlanPasses
    asks about one hand on several piles)."""
    cdef uint32_t readings[MAX_READINGS]
    cdef uint64_t sm[2 * PLAN_STACK]
    cdef uint32_t sc[PLAN_STACK]
    cdef Out o
    cdef GHand h
    cdef int i, j, n, best, bkey, key, nr, reason, cost, bcost, tried, wilds, bw
    cdef uint32_t code, pile = v.pile_code, last
    cdef bint danger = v.opp_min <= PLAN_DANGER
    # the pile of an opponent who is out: unless beaten it gives their partner the lead (接风)
    cdef bint wind = pile != 0 and v.owner_left == 0 and not v.owner_partner
    cdef bint eager = danger or 0 < v.partner_left <= PLAN_FEED_PARTNER or wind
    cdef int pile_value = 0 if pile == 0 else play_value(pile, v.level)
    act[0] = 0
    act[1] = 0
    act[2] = 0
    # Going out now always helps the team (it may even end the hand for it).
    nr = c_classify(v.once, v.twice, v.level, v.flags, readings)
    for i in range(nr):
        if c_beats(readings[i], pile, v.level, v.flags):
            act[0] = v.once
            act[1] = v.twice
            act[2] = readings[i]
            return PR_GO_OUT
    if not split_ready:
        plan_split(v.once, v.twice, v.level, v.flags, P)
    if pile == 0:
        best = -1
        bkey = 1 << 30
        if 0 < v.partner_left <= PLAN_LEAD_PARTNER and v.opp_min > 1:
            # The partner is a card or two from out: lead the lowest single.
            for i in range(P.n):
                if ckind(P.g[i].code) == K_SINGLE:
                    key = _lowest_value(P.g[i].code, v.level)
                    if key < bkey:
                        bkey = key
                        best = i
            if best >= 0:
                act[0] = P.g[best].once
                act[1] = P.g[best].twice
                act[2] = P.g[best].code
                return PR_LEAD_FOR_PARTNER
        for i in range(P.n):
            code = P.g[i].code
            if kind_is_bomb(ckind(code)):
                continue
            # weakest first, bigger groups first among equals; a group an opponent could
            # go out on (its size equals their hand) last, and then the strongest of them
            # (issue 29: the weakest such lead handed the opponent its last play; the
            # strongest gained 1.4 points of hands won, L2 against L2)
            key = _lowest_value(code, v.level) * 16 - csize(code)
            if v.opp_min <= PLAN_BLOCK_SIZE and csize(code) == v.opp_min:
                key = (1 << 12) + (64 - _lowest_value(code, v.level)) * 16 - csize(code)
            if key < bkey:
                bkey = key
                best = i
        if best < 0:
            for i in range(P.n):          # only bombs left: the weakest
                key = bomb_key(P.g[i].code, v.level, v.flags)
                if key < bkey:
                    bkey = key
                    best = i
        act[0] = P.g[best].once
        act[1] = P.g[best].twice
        act[2] = P.g[best].code
        return PR_LEAD
    if v.owner_partner:
        reason = _over_partner(v, P, pile, pile_value, &best)
        if best < 0:
            return PR_PASS_PARTNER
        act[0] = P.g[best].once
        act[1] = P.g[best].twice
        act[2] = P.g[best].code
        return reason
    # A group of the plan that beats the pile, the weakest; control cards (level, jokers)
    # are kept for tricks worth them unless an opponent is close to out.
    best = -1
    bkey = 1 << 30
    for i in range(P.n):
        code = P.g[i].code
        if kind_is_bomb(ckind(code)) or not c_beats(code, pile, v.level, v.flags):
            continue
        key = play_value(code, v.level)
        if not eager and pile_value < 13 and key >= 15:
            continue
        if key < bkey:
            bkey = key
            best = i
    if best >= 0:
        act[0] = P.g[best].once
        act[1] = P.g[best].twice
        act[2] = P.g[best].code
        return PR_DENY_WIND if wind else PR_FOLLOW_GROUP
    # Otherwise the legal plays: non-bombs that do not cost a turn (any, in danger), then bombs.
    ghand_init(&h, v.once, v.twice, v.level, v.flags)
    o.masks = sm
    o.codes = sc
    o.n = 0
    o.cap = PLAN_STACK
    o.overflow = 0
    gen_plays(&h, pile, &o)
    # A follow that overflows the buffer (full houses from a big hand can) keeps the plays
    # that fitted: all legal, the weakest readings first, which is what the plan looks at.
    n = <int>o.n
    best = -1
    bcost = 1 << 30
    tried = 0
    last = 0
    i = 0
    while i < n and tried < PLAN_BREAK_CODES:
        code = sc[i]
        if kind_is_bomb(ckind(code)):
            break
        # one variant per reading: the one with the fewest wilds
        j = i
        bw = 3
        key = i
        while j < n and sc[j] == code:
            wilds = ((sm[2 * j] & h.wbit) != 0) + ((sm[2 * j + 1] & h.wbit) != 0)
            if wilds < bw:
                bw = wilds
                key = j
            j += 1
        i = j
        if not eager and pile_value < 13 and play_value(code, v.level) >= 15:
            continue
        tried += 1
        cost = _break_cost(v, P, sm[2 * key], sm[2 * key + 1], tmp)
        if cost == PLAN_BREAKS_BOMB:
            continue
        cost = cost * 64 + play_value(code, v.level)
        if cost < bcost:
            bcost = cost
            best = key
    if best >= 0 and (bcost < 64 or eager):
        act[0] = sm[2 * best]
        act[1] = sm[2 * best + 1]
        act[2] = sc[best]
        return PR_DENY_WIND if wind else PR_FOLLOW_BREAK
    if danger or v.owner_left <= PLAN_BOMB_OWNER or P.nonbomb <= PLAN_BOMB_TURNS:
        # A bomb of the plan that beats, the weakest; else the weakest legal bomb.
        best = -1
        bkey = 1 << 30
        for i in range(P.n):
            code = P.g[i].code
            if kind_is_bomb(ckind(code)) and c_beats(code, pile, v.level, v.flags):
                key = bomb_key(code, v.level, v.flags)
                if key < bkey:
                    bkey = key
                    best = i
        if best >= 0:
            act[0] = P.g[best].once
            act[1] = P.g[best].twice
            act[2] = P.g[best].code
            return PR_BOMB
        for i in range(n):
            if kind_is_bomb(ckind(sc[i])):
                key = bomb_key(sc[i], v.level, v.flags)
                if key < bkey:
                    bkey = key
                    best = i
        if best >= 0:
            act[0] = sm[2 * best]
            act[1] = sm[2 * best + 1]
            act[2] = sc[best]
            return PR_BOMB
    return PR_PASS_KEEP if n > 0 else PR_PASS_NOTHING


cdef void plan_view_of(const GState* s, PlanView* v) noexcept nogil:
    """What the seat to act may know, read off the state for plan_decide."""
    cdef int seat = s.turn, mate = gs_partner(s, seat), p, n
    v.once = s.once[seat]
    v.twice = s.twice[seat]
    v.level = s.level
    v.flags = s.flags
    v.pile_code = s.pile_code
    v.owner_partner = s.owner >= 0 and s.owner == mate
    v.owner_left = _hand_count(s.once[s.owner], s.twice[s.owner]) if s.owner >= 0 else 0
    v.partner_left = _hand_count(s.once[mate], s.twice[mate])
    v.opp_min = 99
    for p in range(4):
        if p != seat and p != mate and s.once[p]:
            n = _hand_count(s.once[p], s.twice[p])
            if n < v.opp_min:
                v.opp_min = n


# ---------------------------------------------------------------- Python API

def plan_groups(once, twice, level, flags=0):
    """The plan's split of the hand (once, twice) at `level`: a tuple of groups
    (once, twice, code), every card in exactly one, each a play of the hand.

    >>> straight_low = sum(1 << (4 * (r - 2)) for r in (3, 4, 5, 6, 7))   # 3♠ .. 7♠
    >>> [(code_kind(c), code_rank(c)) for _, _, c in plan_groups(straight_low, 0, 9)]
    [(9, 7)]
    """
    cdef uint64_t hm[2]
    cdef Plan P
    cdef int i
    _hand_arg(once, twice, "hand", hm)
    plan_split(hm[0], hm[1], _level_arg(level), _flags_arg(flags), &P)
    return tuple((P.g[i].once, P.g[i].twice, P.g[i].code) for i in range(P.n))


def plan_splits(once, twice, level, flags=0):
    """Every greedy split the plan compares for the hand (once, twice) at `level`, in its
    order, each made in full (none skipped as the same as an earlier one): a tuple of
    PLAN_SPLITS splits, each a tuple of groups as :func:`plan_groups` gives them.
    :func:`plan_groups` is the first with the fewest non-bomb groups, then the most bombs.

    >>> hand = sum(1 << (4 * (r - 2)) for r in (3, 4, 5, 6, 7))   # 3♠ .. 7♠
    >>> splits = plan_splits(hand, 0, 9)
    >>> len(splits), plan_groups(hand, 0, 9) in splits
    (9, True)
    """
    cdef uint64_t hm[2]
    cdef GHand h
    cdef Plan P
    cdef uint8_t pat[15]
    cdef int jokers[2]
    cdef int v, i
    _hand_arg(once, twice, "hand", hm)
    ghand_init(&h, hm[0], hm[1], _level_arg(level), _flags_arg(flags))
    out = []
    for v in range(PLAN_SPLITS):
        _split_head(&h, plan_variants[v][1], plan_variants[v][2], &P, pat, jokers)
        _split_tail(&h, plan_variants[v][0], &P, pat, jokers)
        out.append(tuple((P.g[i].once, P.g[i].twice, P.g[i].code) for i in range(P.n)))
    return tuple(out)


def plan_move(once, twice, level, pile_code=0, flags=0, *, owner_partner=False,
              owner_left=27, partner_left=27, opponents_left=(27, 27)):
    """The plan policy's action for a seat holding (once, twice): ``(reason, once, twice,
    code)``, zeros for a pass; ``reason`` indexes PLAN_REASONS. The pile is `pile_code`
    (0: a lead); `owner_partner` says whether the seat's partner made it, `owner_left` how
    many cards its owner holds; `partner_left` and `opponents_left` count the cards the
    others hold (0: out). The same function chooses every move of a PLAN playout.

    >>> hand = (1 << 0) | (1 << 4)                       # 2♠ 3♠
    >>> reason, a, b, code = plan_move(hand, 0, 9)
    >>> PLAN_REASONS[reason], a == 1, code_kind(code) == SINGLE
    ('LEAD', True, True)
    """
    cdef uint64_t hm[2]
    cdef uint64_t act[3]
    cdef PlanView v
    cdef Plan P, tmp
    cdef int reason, x
    _hand_arg(once, twice, "hand", hm)
    if hm[0] == 0:
        raise ValueError("the hand is empty: an empty seat has no move")
    v.once = hm[0]
    v.twice = hm[1]
    v.level = _level_arg(level)
    v.flags = _flags_arg(flags)
    v.pile_code = _code_arg(pile_code, v.level, v.flags, "pile_code", True)
    if not isinstance(owner_partner, (bool, int)):
        raise ValueError(f"owner_partner must be a bool; got {_quote(owner_partner)}")
    v.owner_partner = bool(owner_partner) and v.pile_code != 0
    v.owner_left = _int_arg(owner_left, "owner_left", 0, 27)
    v.partner_left = _int_arg(partner_left, "partner_left", 0, 27)
    try:
        opps = tuple(opponents_left)
    except TypeError:
        raise ValueError("opponents_left must be two card counts") from None
    if len(opps) != 2:
        raise ValueError(f"opponents_left must be two card counts; got {_quote(opponents_left)}")
    v.opp_min = 99
    for o in opps:
        x = _int_arg(o, "opponents_left", 0, 27)
        if x and x < v.opp_min:
            v.opp_min = x
    with nogil:
        reason = plan_decide(&v, &P, &tmp, act)
    return reason, act[0], act[1], <uint32_t>act[2]


# ---------------------------------------------------------------- what passes say (issue 29)

cdef enum:
    PLAN_MAX_PASSES = 64            # the passes a PlanPasses keeps (the latest)


cdef struct PassEvent:
    uint64_t add_once               # the cards the seat played after this pass
    uint64_t add_twice
    uint32_t pile_code
    int owner_left
    int partner_left
    int opp_min


cdef int plan_misses(const PassEvent* ev, int n, int level, int flags, uint64_t once,
                     uint64_t twice) noexcept nogil:
    """How many of the n passes `ev` the plan would have made a play on instead, for a seat
    holding (once, twice) now (PlanPasses.misses; L3's deal sampler calls it directly)."""
    cdef PlanView v
    cdef Plan P, tmp
    cdef uint64_t act[3]
    cdef int i, reason, count = 0
    cdef const PassEvent* e
    cdef uint64_t last_once = 0, last_twice = 0
    v.level = level
    v.flags = flags
    v.owner_partner = 0
    for i in range(n):
        e = &ev[i]
        # The hand then: now's plus the cards played since, as a union of multisets
        # (saturating at two copies, so that any input stays a valid hand).
        v.once = once | e.add_once
        v.twice = (once & e.add_once) | twice | e.add_twice
        if v.once == 0:
            continue
        v.pile_code = e.pile_code
        v.owner_left = e.owner_left
        v.partner_left = e.partner_left
        v.opp_min = e.opp_min
        # Passes in a row without a play between hold the same hand: its split (in P
        # from the previous pass, when that one got as far as splitting) is reused.
        reason = _plan_decide(&v, &P, &tmp, act, v.once == last_once and v.twice == last_twice)
        if reason > 0 and act[0] != 0:
            count += 1
        if reason == PR_GO_OUT or reason == PR_FAILED:
            last_once = 0                  # P was not filled for this hand
        else:
            last_once = v.once
            last_twice = v.twice
    return count


@cython.auto_pickle(False)        # a view of one decision's history: nothing to pickle
cdef class PlanPasses:
    """The passes one seat made on its opponents' piles, as the plan policy would judge them:
    ``misses(once, twice)`` counts the passes the plan, holding that hand now (and, at each
    pass, the cards the seat has played since), would have replaced by a play. L3 uses it to
    prefer sampled deals consistent with what the table has shown (a seat that passed on a
    pair is unlikely to hold a higher pair the plan would have played).

    ``passes`` is a sequence of ``(add_once, add_twice, pile_code, owner_left, partner_left,
    opponents_left)``: the cards played since the pass (a multiset as two masks), the pile it
    passed on (a play code at ``level``), how many cards the pile's owner and the seat's
    partner held then, and the two opponents' counts (0: out). Only the latest
    PLAN_MAX_PASSES are kept. Every field is checked here, once; ``misses`` reads only them
    and its own checked hand.

    >>> pair_5 = make_code(PAIR, 2, 5)
    >>> seen = PlanPasses(9, 0, [(0, 0, pair_5, 20, 20, (20, 20))])
    >>> pair_8 = (1 << 24) | (1 << 25)              # 8♠ 8♥
    >>> lone = (1 << 4) | (1 << 40)                 # 3♠ Q♠
    >>> seen.misses(pair_8 | lone, 0), seen.misses(lone, 0), len(seen)
    (1, 0, 1)
    """

    cdef PassEvent ev[PLAN_MAX_PASSES]
    cdef int n
    cdef int level
    cdef int flags

    def __init__(self, level, flags, passes):
        cdef uint64_t hm[2]
        cdef int x
        self.level = _level_arg(level)
        self.flags = _flags_arg(flags)
        self.n = 0
        try:
            rows = list(passes)
        except TypeError:
            raise ValueError("passes must be a sequence of (add_once, add_twice, pile_code, "
                             "owner_left, partner_left, opponents_left)") from None
        for row in rows[-PLAN_MAX_PASSES:]:
            try:
                a, b, code, owner_left, partner_left, opps = row
                opps = tuple(opps)
            except (TypeError, ValueError):
                raise ValueError(f"a pass must be (add_once, add_twice, pile_code, owner_left, "
                                 f"partner_left, opponents_left); got {_quote(row)}") from None
            if len(opps) != 2:
                raise ValueError(f"opponents_left must be two card counts; got {_quote(opps)}")
            _hand_arg(a, b, "add", hm)
            self.ev[self.n].add_once = hm[0]
            self.ev[self.n].add_twice = hm[1]
            self.ev[self.n].pile_code = _code_arg(code, self.level, self.flags, "pile_code", False)
            self.ev[self.n].owner_left = <int>_int_arg(owner_left, "owner_left", 0, 27)
            self.ev[self.n].partner_left = <int>_int_arg(partner_left, "partner_left", 0, 27)
            self.ev[self.n].opp_min = 99
            for o in opps:
                x = <int>_int_arg(o, "opponents_left", 0, 27)
                if x and x < self.ev[self.n].opp_min:
                    self.ev[self.n].opp_min = x
            self.n += 1

    def __len__(self):
        return self.n

    def misses(self, once, twice):
        """How many of the passes the plan would have made a play on instead, for a seat
        holding (once, twice) now."""
        cdef uint64_t hm[2]
        cdef int count
        _hand_arg(once, twice, "hand", hm)
        with nogil:
            count = self._misses(hm[0], hm[1])
        return count

    cdef int _misses(self, uint64_t once, uint64_t twice) noexcept nogil:
        return plan_misses(self.ev, self.n, self.level, self.flags, once, twice)
