# Bit-level primitives: card masks, combo codes, classification and the beating relation.
# Everything here is nogil C; the Python wrappers live in api.pxi.

from libc.stdint cimport uint64_t, uint32_t, uint8_t, int8_t, int32_t, int64_t

cdef extern from *:
    """
    #define TL_POPCOUNT(x) __builtin_popcountll(x)
    #define TL_CTZ(x) __builtin_ctzll(x)
    #define TL_TOPBIT(x) (63 - __builtin_clzll(x))
    """
    int TL_POPCOUNT(uint64_t x) nogil
    int TL_CTZ(uint64_t x) nogil
    int TL_TOPBIT(uint64_t x) nogil

cdef enum:
    K_SINGLE = 1
    K_PAIR = 2
    K_TRIPLE = 3
    K_QUAD = 4
    K_SEQUENCE = 5
    K_DOUBLE_SEQUENCE = 6
    F_NO_TWOS = 1          # R2.8: no 2 in any sequence or double sequence
    RANK_TWO = 12
    CARD_TWO_SPADES = 48   # the weakest 2: a top card >= 48 is a 2

cdef uint64_t DECK_MASK = (<uint64_t>1 << 52) - 1
# Every rule flag bit we know (tienlen/rules.py, Rules.flags); others are rejected.
cdef extern from *:
    """
    #define TL_F_ALL ((1ULL << 37) - 1)
    """
    const uint64_t F_ALL "TL_F_ALL"
# NIB_ONES[k]: k nibbles each holding 1; used to test "every rank in a window has n cards"
# in one comparison once each nibble holds its own popcount.
cdef uint64_t NIB_ONES[14]
# The same, indexed by span & 15; spans 14 and 15 cannot occur for a real window, and their
# entry (all bits set) can never equal a nibble-count vector, which holds values <= 4.
cdef uint64_t NIB_ONES16[16]

cdef void _init_bits() noexcept:
    cdef int k
    NIB_ONES[0] = 0
    for k in range(1, 14):
        NIB_ONES[k] = (NIB_ONES[k - 1] << 4) | 1
    for k in range(16):
        NIB_ONES16[k] = NIB_ONES[k] if k < 14 else 0xFFFFFFFFFFFFFFFFULL

_init_bits()


cdef inline uint32_t mkcode(int kind, int ncards, int top) noexcept nogil:
    return (<uint32_t>kind << 12) | (<uint32_t>ncards << 6) | <uint32_t>top

cdef inline int ckind(uint32_t code) noexcept nogil:
    return code >> 12

cdef inline int clen(uint32_t code) noexcept nogil:
    return (code >> 6) & 63

cdef inline int ctop(uint32_t code) noexcept nogil:
    return code & 63

cdef inline uint64_t nibble_counts(uint64_t m) noexcept nogil:
    # SWAR popcount per 4-bit rank group: afterwards nibble r holds how many cards of rank r.
    m = m - ((m >> 1) & 0x5555555555555555ULL)
    return (m & 0x3333333333333333ULL) + ((m >> 2) & 0x3333333333333333ULL)


cdef inline uint32_t c_classify(uint64_t m, uint64_t flags) noexcept nogil:
    """Combo code of the card set m (already known to be within the deck), 0 if none."""
    cdef int n, top, low_rank, top_rank, span
    cdef uint64_t counts
    if m == 0:
        return 0
    n = TL_POPCOUNT(m)
    top = TL_TOPBIT(m)
    top_rank = top >> 2
    low_rank = TL_CTZ(m) >> 2
    if low_rank == top_rank:
        # 1-4 cards of one rank: the kind value equals the card count by construction.
        return mkcode(n, n, top)
    span = top_rank - low_rank + 1
    if span < 3:
        return 0
    if top_rank == RANK_TWO and (flags & F_NO_TWOS):
        return 0
    if n != span and n != 2 * span:
        return 0
    counts = nibble_counts(m) >> (4 * low_rank)
    if n == span:
        if counts == NIB_ONES[span]:
            return mkcode(K_SEQUENCE, n, top)
    elif counts == 2 * NIB_ONES[span]:
        return mkcode(K_DOUBLE_SEQUENCE, n, top)
    return 0


cdef inline uint32_t c_classify_flat(uint64_t m, uint64_t flags) noexcept nogil:
    """c_classify without data-dependent branches, for batch loops over shuffled inputs,
    where a mispredicted branch costs more than computing every case. Same results
    (tests/test_batch.py checks it against c_classify).

    Once each nibble holds its rank's count, shifting the window down to rank 0 and
    comparing with 1111.. (or 2222..) over `span` nibbles proves every rank in the window
    has exactly one (two) cards and that there is nothing outside it."""
    cdef int n = TL_POPCOUNT(m)
    cdef int top = TL_TOPBIT(m | 1)
    cdef int tr = top >> 2
    cdef int lr = TL_CTZ(m | (<uint64_t>1 << 63)) >> 2    # 15 for m == 0: never a combo
    cdef int span = tr - lr + 1
    cdef uint64_t counts = nibble_counts(m) >> (4 * lr)
    cdef uint64_t ones = NIB_ONES16[span & 15]
    cdef int run_ok = (span >= 3) & ((tr != RANK_TWO) | ((flags & F_NO_TWOS) == 0))
    cdef int kind = ((tr == lr) * n) | ((run_ok & (counts == ones)) * K_SEQUENCE) \
        | ((run_ok & (counts == 2 * ones)) * K_DOUBLE_SEQUENCE)
    return mkcode(kind, n, top) & (<uint32_t>0 - <uint32_t>(kind != 0))


# The batch classify on x86-64 with AVX2: the same function as c_classify_flat, four masks
# per step. GCC does not vectorise c_classify_flat by itself (popcount and bit scans have no
# AVX2 form), so this one is written without them: a byte-sum for the card count, and the
# top card from a double's exponent. Chosen at run time; everything else uses the scalar
# loop. tests/test_batch.py checks it against c_classify on every kind of input.
cdef extern from *:
    """
    #if (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
    #include <immintrin.h>
    static int tl_have_avx2(void) {
        static int have = -1;
        if (have < 0) {
            __builtin_cpu_init();
            have = __builtin_cpu_supports("avx2") ? 1 : 0;
        }
        return have;
    }
    /* Classifies masks[0 .. n & ~3) into out and returns how many it did (the caller does
       the tail). Every mask must be below 2^52. */
    __attribute__((target("avx2")))
    static int64_t tl_classify_avx2(const uint64_t* masks, uint32_t* out, int64_t n, int flags,
                                    uint64_t* seen) {
        const __m256i k55 = _mm256_set1_epi64x(0x5555555555555555LL);
        const __m256i k33 = _mm256_set1_epi64x(0x3333333333333333LL);
        const __m256i k0f = _mm256_set1_epi64x(0x0F0F0F0F0F0F0F0FLL);
        const __m256i k11 = _mm256_set1_epi64x(0x1111111111111111LL);
        const __m256i exp52 = _mm256_set1_epi64x(0x4330000000000000LL);
        const __m256i bias = _mm256_set1_epi64x(1023);
        const __m256d two52 = _mm256_set1_pd(4503599627370496.0);
        const __m256i zero = _mm256_setzero_si256();
        const __m256i one = _mm256_set1_epi64x(1);
        const __m256i seq_kind = _mm256_set1_epi64x(5);
        const __m256i dseq_kind = _mm256_set1_epi64x(6);
        const __m256i no_twos = _mm256_set1_epi64x((flags & 1) ? -1LL : 0);
        const __m256i low_halves = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
        __m256i acc = zero;
        uint64_t lanes[4];
        int64_t i = 0;
        for (; i + 4 <= n; i += 4) {
            __m256i m = _mm256_loadu_si256((const __m256i*)(masks + i));
            acc = _mm256_or_si256(acc, m);
            /* nibble r = cards of rank r */
            __m256i c = _mm256_sub_epi64(m, _mm256_and_si256(_mm256_srli_epi64(m, 1), k55));
            c = _mm256_add_epi64(_mm256_and_si256(c, k33),
                                 _mm256_and_si256(_mm256_srli_epi64(c, 2), k33));
            /* bit 4r set when rank r is present */
            __m256i p = _mm256_and_si256(
                _mm256_or_si256(c, _mm256_or_si256(_mm256_srli_epi64(c, 1), _mm256_srli_epi64(c, 2))),
                k11);
            __m256i ncards = _mm256_sad_epu8(
                _mm256_and_si256(_mm256_add_epi64(c, _mm256_srli_epi64(c, 4)), k0f), zero);
            /* m < 2^52 is exact in a double's mantissa: (2^52 + m) - 2^52 is m as a double,
               whose exponent field is 1023 + the index of the top bit */
            __m256d asdouble = _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(m, exp52)), two52);
            __m256i top = _mm256_sub_epi64(_mm256_srli_epi64(_mm256_castpd_si256(asdouble), 52), bias);
            /* present ranks as full nibbles; a run of ranks has no gap above its lowest */
            __m256i full = _mm256_sub_epi64(_mm256_slli_epi64(p, 4), p);
            __m256i lowest = _mm256_and_si256(full, _mm256_sub_epi64(zero, full));
            __m256i gapless = _mm256_cmpeq_epi64(
                _mm256_and_si256(_mm256_add_epi64(full, lowest), full), zero);
            __m256i under3 = _mm256_cmpeq_epi64(
                _mm256_and_si256(_mm256_srli_epi64(full, 8), lowest), zero);
            __m256i twos_ok = _mm256_cmpeq_epi64(
                _mm256_and_si256(_mm256_srli_epi64(m, 48), no_twos), zero);
            __m256i run = _mm256_andnot_si256(under3, _mm256_and_si256(gapless, twos_ok));
            __m256i one_rank = _mm256_cmpeq_epi64(_mm256_and_si256(p, _mm256_sub_epi64(p, one)), zero);
            __m256i seq = _mm256_and_si256(run, _mm256_cmpeq_epi64(c, p));
            __m256i dseq = _mm256_and_si256(run, _mm256_cmpeq_epi64(c, _mm256_add_epi64(p, p)));
            __m256i kind = _mm256_or_si256(_mm256_and_si256(one_rank, ncards),
                _mm256_or_si256(_mm256_and_si256(seq, seq_kind), _mm256_and_si256(dseq, dseq_kind)));
            __m256i code = _mm256_or_si256(_mm256_slli_epi64(kind, 12),
                _mm256_or_si256(_mm256_slli_epi64(ncards, 6), top));
            code = _mm256_andnot_si256(_mm256_cmpeq_epi64(kind, zero), code);
            _mm_storeu_si128((__m128i*)(out + i),
                _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(code, low_halves)));
        }
        _mm256_storeu_si256((__m256i*)lanes, acc);
        *seen |= lanes[0] | lanes[1] | lanes[2] | lanes[3];
        return i;
    }
    #else
    static int tl_have_avx2(void) { return 0; }
    static int64_t tl_classify_avx2(const uint64_t* masks, uint32_t* out, int64_t n, int flags,
                                    uint64_t* seen) {
        (void)masks; (void)out; (void)n; (void)flags; (void)seen;
        return 0;
    }
    #endif
    """
    int tl_have_avx2() nogil
    int64_t tl_classify_avx2(const uint64_t* masks, uint32_t* out, int64_t n, int flags,
                             uint64_t* seen) nogil


# Tests switch the SIMD path off to check the scalar loop that other machines run.
cdef int simd_enabled = 1


cdef inline uint64_t c_classify_array(const uint64_t* masks, uint32_t* out, int64_t n, uint64_t flags) noexcept nogil:
    """out[i] = c_classify(masks[i], flags) for i < n. Returns the OR of every mask as read
    here: each mask is read once, so a caller that validated the array beforehand can tell
    from this (bits above 51) whether another thread changed it in between; the codes of
    such masks are meaningless but computing them is memory-safe."""
    cdef int64_t i = 0
    cdef uint64_t seen = 0, m
    if simd_enabled and tl_have_avx2():
        i = tl_classify_avx2(masks, out, n, <int>(flags & F_NO_TWOS), &seen)
    while i < n:
        m = masks[i]
        seen |= m
        out[i] = c_classify_flat(m, flags)
        i += 1
    return seen


cdef inline bint c_is_two_combo(uint32_t code) noexcept nogil:
    # Singles, pairs and triples are one rank, so a top card that is a 2 means all 2s.
    return code != 0 and ckind(code) <= K_TRIPLE and ctop(code) >= CARD_TWO_SPADES


# ---------------------------------------------------------------- the rule table
# The one place the core reads a ruleset (tienlen/rules.py, Rules.flags: every bit a
# difference from the contract, so 0 is the contract). Combinations that matter to the table
# fall in eight classes, the order of rules.ALL_TARGETS:
#   0 single 2, 1 pair of 2s, 2 triple of 2s, 3 quad, 4/5/6 double sequence of 3/4/5 pairs,
#   7 anything else.
# A bomb is a class 3..6 (bomb b of rules.ALL_BOMBS is class 3 + b). The table is two
# 64-bit words with bit 8 * bomb_class + target_class set when that bomb cuts that target:
# `cuts` for a play in turn, `out_cuts` for a player locked out of the pile (R5.2, R11.2).
# So every question the rules ask is one bit test on one word. A bit whose two classes are
# equal means "beats a lower one of its own kind" (RULES13.md).

cdef enum:
    CL_QUAD = 3
    CL_NONE = 7
    FLAG_CUT_BASE = 1          # bits 1..28: cut (bomb b, target t) toggled at 1 + 7b + t
    FLAG_OUT_BASE = 29         # bits 29..32: bomb b no longer playable out of turn
    FLAG_INSTANT_BASE = 33     # bits 33..36: instant win w enabled (R11.3)

# R4.1, the contract's table: quad and 3-pair double sequence cut a single 2, four pairs
# cut a pair of 2s, five pairs cut a triple of 2s.
cdef extern from *:
    """
    #define TL_CONTRACT_CUTS_WORD ((1ULL << (8 * 3 + 0)) | (1ULL << (8 * 4 + 0)) \\
                                   | (1ULL << (8 * 5 + 1)) | (1ULL << (8 * 6 + 2)))
    """
    const uint64_t CONTRACT_CUTS_WORD "TL_CONTRACT_CUTS_WORD"
# Bit t of each bomb row: "some bomb cuts a class-t pile" is (word >> t) & BOMB_COLUMN.
# A C constant, not a module variable, so the masks built from it fold at compile time.
cdef extern from *:
    """
    #define TL_BOMB_COLUMN 0x0001010101000000ULL
    """
    const uint64_t BOMB_COLUMN "TL_BOMB_COLUMN"

# CUT_CLASS[code >> 4]: the class of a combo code. Kind and size decide it, plus, for 2s,
# the top card: code >> 4 keeps kind, size and top >> 4, which is 3 exactly for a top card
# of 48..51 (a 2). One shift and one load, no compare: this sits on every follow.
cdef uint8_t CUT_CLASS[2048]


cdef void _init_cut_classes() noexcept:
    cdef int i, k, n, hi
    for i in range(2048):
        CUT_CLASS[i] = CL_NONE
    for k in range(1, 4):
        CUT_CLASS[(((k << 6) | k) << 2) | 3] = k - 1
    for hi in range(4):
        CUT_CLASS[(((K_QUAD << 6) | 4) << 2) | hi] = CL_QUAD
        for n in range(3, 6):
            CUT_CLASS[(((K_DOUBLE_SEQUENCE << 6) | (2 * n)) << 2) | hi] = n + 1

_init_cut_classes()


cdef struct RuleTable:
    uint64_t flags             # the Rules.flags word this table was decoded from
    uint64_t cuts              # in turn: bit 8 * bomb class + target class
    uint64_t out_cuts          # out of turn: the rows of the bombs a locked-out seat may play


cdef inline void rules_decode(RuleTable* t, uint64_t flags) noexcept nogil:
    """Fill `t` from a Rules.flags word (already checked against F_ALL)."""
    # Bomb b's seven target bits move from 1 + 7b to row 3 + b (bit 24 + 8b); its
    # out-of-turn bit (29 + b, set when removed) clears that row of out_cuts.
    cdef uint64_t cuts = CONTRACT_CUTS_WORD ^ (
        (((flags >> FLAG_CUT_BASE) & 0x7F) << 24)
        | (((flags >> (FLAG_CUT_BASE + 7)) & 0x7F) << 32)
        | (((flags >> (FLAG_CUT_BASE + 14)) & 0x7F) << 40)
        | (((flags >> (FLAG_CUT_BASE + 21)) & 0x7F) << 48))
    cdef uint64_t out = (flags >> FLAG_OUT_BASE) & 0xF
    # Spread the 4 removal bits to one bit per row (bits 24, 32, 40, 48), then to full rows.
    out = ((out & 1) << 24) | ((out & 2) << 31) | ((out & 4) << 38) | ((out & 8) << 45)
    cdef uint64_t keep = 0x00FFFFFFFF000000ULL & ~(out * 0xFF)
    t.flags = flags
    t.cuts = cuts
    t.out_cuts = cuts & keep


cdef inline int code_class(uint32_t code) noexcept nogil:
    """The table class (0..7) of a valid combo code (0, the empty pile, is class 7)."""
    return CUT_CLASS[(code >> 4) & 0x7FF]


cdef inline bint c_table_cuts(uint64_t word, uint32_t play, uint32_t pile) noexcept nogil:
    """Whether the table `word` (cuts or out_cuts) lets `play` cut `pile`, the same-class
    entries counting only for a higher top card."""
    cdef int cp = code_class(play), ct = code_class(pile)
    if not (word >> (8 * cp + ct)) & 1:
        return False
    return cp != ct or ctop(play) > ctop(pile)


cdef inline bint c_beats(uint32_t play, uint32_t pile, uint64_t cuts) noexcept nogil:
    """R3.1 (same kind and size, higher top card) or a cut of the table `cuts` (R4.1;
    R11.1). Takes the cuts word by value so that batch loops keep it in a register."""
    if play == 0:
        return False
    if pile == 0:
        return True
    # Same kind and same length share the bits above the top field (R3.1).
    if (play >> 6) == (pile >> 6):
        return ctop(play) > ctop(pile)
    # Different shapes are different classes, so a same-class bit is never reached here.
    return (cuts >> (8 * code_class(play) + code_class(pile))) & 1


cdef inline bint c_locked_may_act(const RuleTable* t, uint32_t pile) noexcept nogil:
    """R5.3 generalised: whether a locked-out seat gets the turn on `pile`, that is, some
    bomb it may play out of turn cuts the pile's class (whether or not it holds one)."""
    return ((t.out_cuts >> code_class(pile)) & BOMB_COLUMN) != 0


cdef inline bint c_is_bomb(uint32_t code, uint64_t cuts) noexcept nogil:
    """Whether `code` is a bomb under the table: its class cuts something."""
    return ((cuts >> (8 * code_class(code))) & 0xFF) != 0


# ---------------------------------------------------------------- instant wins (R11.3)

cdef enum:
    IW_FOUR_TWOS = 0
    IW_DRAGON = 1
    IW_SIX_PAIRS = 2
    IW_FIVE_PAIRS = 3


cdef inline bint c_hand_has_win(uint64_t hand, int win, uint64_t flags) noexcept nogil:
    """Whether `hand` is the instant win `win` (rules.ALL_INSTANT_WINS order)."""
    cdef uint64_t c = nibble_counts(hand), two_up, four
    if win == IW_FOUR_TWOS:
        return (hand >> 48) == 0xF
    if win == IW_DRAGON:
        # One card (at least) of every rank 3..A.
        return (((c | (c >> 1) | (c >> 2)) & 0x111111111111ULL) == 0x111111111111ULL)
    two_up = ((c >> 1) | (c >> 2)) & 0x1111111111111ULL       # ranks holding a pair
    if win == IW_SIX_PAIRS:
        four = (c >> 2) & 0x1111111111111ULL                   # ... and a second pair
        return TL_POPCOUNT(two_up) + TL_POPCOUNT(four) >= 6
    # Five consecutive pairs: a double sequence of five ranks, 2s only where sequences
    # may hold them (R2.8).
    if flags & F_NO_TWOS:
        two_up &= ~(<uint64_t>0xF << (4 * RANK_TWO))
    return (two_up & (two_up >> 4) & (two_up >> 8) & (two_up >> 12) & (two_up >> 16)) != 0


cdef inline int c_instant_win(uint64_t hand, uint64_t flags) noexcept nogil:
    """The first instant win enabled by `flags` that `hand` holds, -1 for none."""
    cdef int w
    for w in range(4):
        if (flags >> (FLAG_INSTANT_BASE + w)) & 1 and c_hand_has_win(hand, w, flags):
            return w
    return -1


cdef inline bint c_code_valid(uint32_t code, uint64_t flags) noexcept nogil:
    """Whether `code` is a code that c_classify can return under `flags` (0 counts as valid)."""
    cdef int k, n, top, ranks
    if code == 0:
        return True
    if code >> 15:
        return False
    k = ckind(code)
    n = clen(code)
    top = ctop(code)
    if top >= 52 or k < K_SINGLE or k > K_DOUBLE_SEQUENCE:
        return False
    if k <= K_QUAD:
        return n == k and (top & 3) >= k - 1
    if k == K_SEQUENCE:
        ranks = n
    else:
        if n & 1:
            return False
        ranks = n // 2
    if ranks < 3 or (top >> 2) - ranks + 1 < 0:
        return False
    if k == K_DOUBLE_SEQUENCE and (top & 3) < 1:
        return False
    if (flags & F_NO_TWOS) and (top >> 2) == RANK_TWO:
        return False
    return True
