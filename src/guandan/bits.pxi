# Bit-level primitives: the hand encoding, play codes, classification (G2) and beating (G3).
# Everything here is nogil C; the Python wrappers live in api.pxi.

from libc.stdint cimport uint64_t, uint32_t, uint16_t, uint8_t, int8_t, int32_t, int64_t

cdef extern from *:
    """
    #define GD_POPCOUNT(x) __builtin_popcountll(x)
    #define GD_CTZ(x) __builtin_ctzll(x)
    """
    int GD_POPCOUNT(uint64_t x) nogil
    int GD_CTZ(uint64_t x) nogil

cdef enum:
    # Play kinds, in the order legal_plays lists them.
    K_SINGLE = 1
    K_PAIR = 2
    K_TRIPLE = 3
    K_FULL_HOUSE = 4
    K_STRAIGHT = 5
    K_THREE_PAIRS = 6
    K_PLATE = 7
    K_BOMB = 8
    K_STRAIGHT_FLUSH = 9
    K_JOKER_BOMB = 10
    # Rule flags; 0 is RuleConfig.standard() (G4).
    F_NO_STRAIGHT_FLUSH = 1     # same_suit_straight_beats_bomb=False
    F_NO_ACE_TOP = 2            # straight_extends_to_ace=False
    F_BOMB_BY_RANK = 4          # bomb_compare_priority=BY_RANK
    F_NO_WILDS = 8              # wild_count=0
    F_ALL = 15
    # Ranks: naturals 2..14 (14 = A), jokers as single/pair ranks.
    R_SMALL_JOKER = 15
    R_BIG_JOKER = 16
    SJ_ID = 52
    BJ_ID = 53
    MAX_READINGS = 16

cdef uint64_t DECK54 = (<uint64_t>1 << 54) - 1
cdef uint64_t SJ_BIT = <uint64_t>1 << 52
cdef uint64_t BJ_BIT = <uint64_t>1 << 53
cdef uint64_t NAT_MASK = (<uint64_t>1 << 52) - 1
cdef uint64_t NIB_LOW = 0x1111111111111ULL     # bit 0 of every natural rank's nibble
# SUIT_MASK[s]: every natural card of suit s.
cdef uint64_t SUIT_MASK[4]

# Rank patterns. The 4 types of one natural rank r (its suits) sit in bits 4(r-2)..4(r-2)+3 of
# both masks; a rank's *pattern* is one byte, `once` nibble low, `twice` nibble high. A pattern
# is valid when its twice nibble is a subset of its once nibble (81 of the 256 bytes).
# SUBS lists, for every valid pattern p and size s (0..8), every sub-multiset of p with s
# cards, as patterns: SUBS[SUB_OFF[p][s] : SUB_OFF[p][s + 1]]. 1296 entries in all.
cdef uint8_t SUBS[1296]
cdef uint16_t SUB_OFF[256][10]
cdef uint8_t PCNT[256]          # number of cards in a pattern (0..8)
# Window masks over rank bits (bit r for natural rank r, A = 14 also in the low windows):
# WIN5[t]: straight with top t (5..14), WIN3[t]: three pairs (3..14), WIN2[t]: plate (2..14).
cdef uint32_t WIN5[15]
cdef uint32_t WIN3[15]
cdef uint32_t WIN2[15]


cdef inline int _type_count(int p, int i) noexcept nogil:
    return ((p >> i) & 1) + ((p >> (4 + i)) & 1)


cdef void _init_tables() noexcept:
    cdef int p, q, s, i, n = 0, ok, r, t
    for s in range(4):
        SUIT_MASK[s] = 0
        for r in range(13):
            SUIT_MASK[s] |= (<uint64_t>1) << (4 * r + s)
    for p in range(256):
        PCNT[p] = GD_POPCOUNT(p)
        for s in range(10):
            SUB_OFF[p][s] = n
        if (p >> 4) & ~p & 15:
            continue                     # invalid pattern: empty lists
        for s in range(9):
            SUB_OFF[p][s] = n
            for q in range(256):
                if ((q >> 4) & ~q & 15) or GD_POPCOUNT(q) != s:
                    continue
                ok = 1
                for i in range(4):
                    if _type_count(q, i) > _type_count(p, i):
                        ok = 0
                if ok:
                    SUBS[n] = q
                    n += 1
        SUB_OFF[p][9] = n
    for t in range(15):
        WIN5[t] = 0
        WIN3[t] = 0
        WIN2[t] = 0
    for t in range(5, 15):
        for r in range(t - 4, t + 1):
            WIN5[t] |= 1 << (14 if r == 1 else r)
    for t in range(3, 15):
        for r in range(t - 2, t + 1):
            WIN3[t] |= 1 << (14 if r == 1 else r)
    for t in range(2, 15):
        for r in range(t - 1, t + 1):
            WIN2[t] |= 1 << (14 if r == 1 else r)

_init_tables()


# ---------------------------------------------------------------- play codes

cdef inline uint32_t mkcode(int kind, int size, int rank) noexcept nogil:
    return (<uint32_t>kind << 12) | (<uint32_t>size << 6) | <uint32_t>rank

cdef inline int ckind(uint32_t code) noexcept nogil:
    return code >> 12

cdef inline int csize(uint32_t code) noexcept nogil:
    return (code >> 6) & 63

cdef inline int crank(uint32_t code) noexcept nogil:
    return code & 63

cdef inline bint kind_is_bomb(int kind) noexcept nogil:
    return kind >= K_BOMB

cdef inline int wild_id(int level, int flags) noexcept nogil:
    """original_id of the wild card (the ♥ of the level rank), -1 without wilds."""
    if flags & F_NO_WILDS:
        return -1
    return (level - 2) * 4 + 1

cdef inline int single_value(int rank, int level) noexcept nogil:
    """Single-card order (G1): naturals by rank, the level rank above A, then ☆, then ★."""
    if rank == level:
        return 15
    if rank >= R_SMALL_JOKER:
        return rank + 1
    return rank

cdef inline int play_value(uint32_t code, int level) noexcept nogil:
    """The value two plays of the same kind and size compare by: windows by their top
    natural rank, everything else in single-card order."""
    cdef int k = ckind(code)
    if k == K_STRAIGHT or k == K_THREE_PAIRS or k == K_PLATE or k == K_STRAIGHT_FLUSH:
        return crank(code)
    return single_value(crank(code), level)

cdef inline int bomb_key(uint32_t code, int level, int flags) noexcept nogil:
    """Total order of the bombs (G3): BY_COUNT compares (class, value), BY_RANK (value,
    class), where class is twice the size (a straight flush is 5½ cards: 11) and the joker
    bomb is above everything."""
    cdef int k = ckind(code), cls, val
    if k == K_JOKER_BOMB:
        return 1 << 20
    if k == K_STRAIGHT_FLUSH:
        cls = 11
        val = crank(code)
    else:
        cls = 2 * csize(code)
        val = single_value(crank(code), level)
    if flags & F_BOMB_BY_RANK:
        return val * 32 + cls
    return cls * 32 + val

cdef inline bint c_beats(uint32_t play, uint32_t pile, int level, int flags) noexcept nogil:
    """G3: whether `play` may go on `pile` (pile 0: an empty pile, any play leads)."""
    cdef int ka, kb
    if play == 0:
        return False
    if pile == 0:
        return True
    ka = ckind(play)
    kb = ckind(pile)
    if kind_is_bomb(ka):
        if not kind_is_bomb(kb):
            return True
        return bomb_key(play, level, flags) > bomb_key(pile, level, flags)
    if (play >> 6) != (pile >> 6):      # kind and size
        return False
    return play_value(play, level) > play_value(pile, level)


cdef inline bint c_code_valid(uint32_t code, int level, int flags) noexcept nogil:
    """Whether `code` is a reading classify can return at `level` under `flags`."""
    cdef int k, n, r, top5
    if code >> 16:
        return False
    k = ckind(code)
    n = csize(code)
    r = crank(code)
    top5 = 13 if flags & F_NO_ACE_TOP else 14
    if k == K_SINGLE:
        return n == 1 and 2 <= r <= 16
    if k == K_PAIR:
        return n == 2 and 2 <= r <= 16
    if k == K_TRIPLE or k == K_FULL_HOUSE:
        return n == (3 if k == K_TRIPLE else 5) and 2 <= r <= 14
    if k == K_STRAIGHT:
        return n == 5 and 5 <= r <= top5
    if k == K_STRAIGHT_FLUSH:
        return n == 5 and 5 <= r <= top5 and not (flags & F_NO_STRAIGHT_FLUSH)
    if k == K_THREE_PAIRS:
        return n == 6 and 3 <= r <= 14
    if k == K_PLATE:
        return n == 6 and 2 <= r <= 14
    if k == K_BOMB:
        # 8 natural cards of a rank exist (6 of the level rank when its ♥ is wild), plus
        # up to 2 wilds.
        if r < 2 or r > 14 or n < 4:
            return False
        if flags & F_NO_WILDS:
            return n <= 8
        return n <= (8 if r == level else 10)
    if k == K_JOKER_BOMB:
        return n == 4 and r == R_BIG_JOKER
    return False


# ---------------------------------------------------------------- a hand, read for play

cdef inline uint32_t nibbles_to_bits(uint64_t x) noexcept nogil:
    """Bit 4k of x (k = 0..12, every other bit clear) to bit k, without branches: fold
    neighbouring groups together, doubling the group size each step."""
    x = (x | (x >> 3)) & 0x0303030303030303ULL
    x = (x | (x >> 6)) & 0x000F000F000F000FULL
    x = (x | (x >> 12)) & 0x000000FF000000FFULL
    x = (x | (x >> 24)) & 0xFFFFULL
    return <uint32_t>x


cdef struct GHand:
    uint64_t once         # natural cards only (the wilds removed)
    uint64_t twice
    uint64_t wbit         # the wild card's bit, 0 without wilds
    int w                 # wilds held: 0, 1 or 2
    int level
    int flags
    int js                # small jokers held: 0..2
    int jb                # big jokers held
    uint32_t ranks        # bit r set when natural rank r (2..14) is held
    uint32_t suit_ranks[4]  # bit r set when the natural card (r, suit) is held
    int maxc              # the most natural cards of one rank
    uint8_t pat[15]       # pat[r]: pattern of natural rank r; pat[1] = pat[14] (A low)
    uint8_t cnt[15]       # cards of natural rank r; cnt[1] = cnt[14]


cdef inline void ghand_init(GHand* h, uint64_t once, uint64_t twice, int level, int flags) noexcept nogil:
    cdef int wid = wild_id(level, flags), r, sh, s
    cdef uint64_t wb = 0 if wid < 0 else (<uint64_t>1) << wid
    cdef uint8_t p
    h.wbit = wb
    h.w = ((once & wb) != 0) + ((twice & wb) != 0)
    h.once = once & ~wb
    h.twice = twice & ~wb
    h.level = level
    h.flags = flags
    h.js = ((once >> SJ_ID) & 1) + ((twice >> SJ_ID) & 1)
    h.jb = ((once >> BJ_ID) & 1) + ((twice >> BJ_ID) & 1)
    h.maxc = 0
    h.pat[0] = 0
    h.cnt[0] = 0
    for r in range(2, 15):
        sh = 4 * (r - 2)
        p = <uint8_t>(((h.once >> sh) & 15) | (((h.twice >> sh) & 15) << 4))
        h.pat[r] = p
        h.cnt[r] = PCNT[p]
        h.maxc = h.maxc if h.maxc >= PCNT[p] else PCNT[p]
    h.pat[1] = h.pat[14]
    h.cnt[1] = h.cnt[14]
    for s in range(4):
        h.suit_ranks[s] = nibbles_to_bits((h.once >> s) & NIB_LOW) << 2
    h.ranks = h.suit_ranks[0] | h.suit_ranks[1] | h.suit_ranks[2] | h.suit_ranks[3]


cdef inline int ghand_size(const GHand* h) noexcept nogil:
    return GD_POPCOUNT(h.once) + GD_POPCOUNT(h.twice) + h.w


# ---------------------------------------------------------------- classify (G2)

cdef inline int _suited(uint64_t nat_once) noexcept nogil:
    """Whether every natural card lies in one suit."""
    cdef int s
    for s in range(4):
        if (nat_once & ~SUIT_MASK[s]) == 0:
            return 1
    return 0


cdef int c_classify(uint64_t once, uint64_t twice, int level, int flags, uint32_t* out) noexcept nogil:
    """Every reading of the multiset (once, twice) at `level`, ascending, into out (room for
    MAX_READINGS); returns how many (0: not a play)."""
    cdef GHand h
    cdef int n, nr, r, t, x, y, m = 0, maxc = 0, top5
    ghand_init(&h, once, twice, level, flags)
    n = ghand_size(&h)
    if n == 0:
        return 0
    nr = GD_POPCOUNT(h.ranks)
    if h.js or h.jb:
        # Jokers: never wild-substituted, never in straights or bombs of a rank.
        if n == 1:
            out[0] = mkcode(K_SINGLE, 1, R_SMALL_JOKER if h.js else R_BIG_JOKER)
            return 1
        if h.js + h.jb == n and n == 2 and (h.js == 2 or h.jb == 2):
            out[0] = mkcode(K_PAIR, 2, R_SMALL_JOKER if h.js else R_BIG_JOKER)
            return 1
        if n == 4 and h.js == 2 and h.jb == 2:
            out[0] = mkcode(K_JOKER_BOMB, 4, R_BIG_JOKER)
            return 1
        if n == 5 and (h.js + h.jb == 2) and (h.js == 2 or h.jb == 2) and nr == 1:
            # a triple (naturals of one rank plus wilds) and a natural joker pair
            x = GD_CTZ(h.ranks)
            out[0] = mkcode(K_FULL_HOUSE, 5, x)
            return 1
        return 0
    if nr == 0:
        # Only wilds: ordinary level cards.
        if n == 1:
            out[0] = mkcode(K_SINGLE, 1, level)
            return 1
        out[0] = mkcode(K_PAIR, 2, level)
        return 1
    for r in range(2, 15):
        if h.cnt[r] > maxc:
            maxc = h.cnt[r]
    if nr == 1:
        x = GD_CTZ(h.ranks)
        if n <= 3:
            out[0] = mkcode(n, n, x)       # K_SINGLE, K_PAIR, K_TRIPLE equal their sizes
            return 1
        if n == 5 and h.cnt[x] == 3:
            out[m] = mkcode(K_FULL_HOUSE, 5, x)     # X X X + a pair of wilds
            m += 1
        if n <= 10:
            out[m] = mkcode(K_BOMB, n, x)
            m += 1
        return m
    if n == 5:
        if nr == 2:
            x = GD_CTZ(h.ranks)
            y = GD_CTZ(h.ranks & (h.ranks - 1))
            if h.cnt[x] <= 3 and h.cnt[y] <= 2:
                out[m] = mkcode(K_FULL_HOUSE, 5, x)
                m += 1
            if h.cnt[y] <= 3 and h.cnt[x] <= 2:
                out[m] = mkcode(K_FULL_HOUSE, 5, y)
                m += 1
        if maxc == 1:
            top5 = 13 if flags & F_NO_ACE_TOP else 14
            for t in range(5, top5 + 1):
                if (h.ranks & ~WIN5[t]) == 0:
                    out[m] = mkcode(K_STRAIGHT, 5, t)
                    m += 1
            if not (flags & F_NO_STRAIGHT_FLUSH) and _suited(h.once):
                for t in range(5, top5 + 1):
                    if (h.ranks & ~WIN5[t]) == 0:
                        out[m] = mkcode(K_STRAIGHT_FLUSH, 5, t)
                        m += 1
        return m
    if n == 6:
        if maxc <= 2 and nr <= 3:
            for t in range(3, 15):
                if (h.ranks & ~WIN3[t]) == 0:
                    out[m] = mkcode(K_THREE_PAIRS, 6, t)
                    m += 1
        if maxc <= 3 and nr == 2:
            for t in range(2, 15):
                if (h.ranks & ~WIN2[t]) == 0:
                    out[m] = mkcode(K_PLATE, 6, t)
                    m += 1
    return m
