# The seeded 108-card deal (G5), drawn from the PRNG both cores share (common/rng.pxi), so a
# seed is the same deal on every platform.

cdef inline void g_shuffle(uint64_t seed, uint8_t* deck) noexcept nogil:
    """deck[0..108) = the card_ids 0..107 shuffled by Fisher-Yates (i from 107 down to 1,
    swap with a draw below i + 1)."""
    cdef Rng r
    cdef int i, j
    cdef uint8_t t
    rng_seed(&r, seed)
    for i in range(108):
        deck[i] = i
    for i in range(107, 0, -1):
        j = rng_below(&r, i + 1)
        t = deck[i]
        deck[i] = deck[j]
        deck[j] = t


cdef inline void g_deal(uint64_t seed, uint64_t* hands) noexcept nogil:
    """hands[2p], hands[2p + 1] = once, twice of seat p, who takes deck[27p : 27p + 27]."""
    cdef uint8_t deck[108]
    cdef int p, i
    cdef uint64_t bit
    g_shuffle(seed, deck)
    for p in range(4):
        hands[2 * p] = 0
        hands[2 * p + 1] = 0
        for i in range(27):
            bit = (<uint64_t>1) << (deck[27 * p + i] % 54)
            if hands[2 * p] & bit:
                hands[2 * p + 1] |= bit
            else:
                hands[2 * p] |= bit
