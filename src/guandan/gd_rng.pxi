# The seeded 108-card deal (G5): our own PRNG, so a seed is the same deal on every platform.
#
# The generator is the one src/state.pxi uses for Tiến Lên (xoshiro256** seeded through
# splitmix64, multiply-shift for a bounded draw); the two cores are separate extension
# modules, so it is repeated here rather than shared through a header.

cdef struct GRng:
    uint64_t s[4]

cdef inline uint64_t g_splitmix64(uint64_t* x) noexcept nogil:
    x[0] += 0x9E3779B97F4A7C15ULL
    cdef uint64_t z = x[0]
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)

cdef inline void g_rng_seed(GRng* r, uint64_t seed) noexcept nogil:
    cdef uint64_t x = seed
    r.s[0] = g_splitmix64(&x)
    r.s[1] = g_splitmix64(&x)
    r.s[2] = g_splitmix64(&x)
    r.s[3] = g_splitmix64(&x)

cdef inline uint64_t g_rotl(uint64_t x, int k) noexcept nogil:
    return (x << k) | (x >> (64 - k))

cdef inline uint64_t g_rng_next(GRng* r) noexcept nogil:
    cdef uint64_t result = g_rotl(r.s[1] * 5, 7) * 9
    cdef uint64_t t = r.s[1] << 17
    r.s[2] ^= r.s[0]
    r.s[3] ^= r.s[1]
    r.s[1] ^= r.s[2]
    r.s[0] ^= r.s[3]
    r.s[2] ^= t
    r.s[3] = g_rotl(r.s[3], 45)
    return result

cdef inline uint32_t g_rng_below(GRng* r, uint32_t n) noexcept nogil:
    return <uint32_t>(((g_rng_next(r) >> 32) * <uint64_t>n) >> 32)


cdef inline void g_shuffle(uint64_t seed, uint8_t* deck) noexcept nogil:
    """deck[0..108) = the card_ids 0..107 shuffled by Fisher-Yates (i from 107 down to 1,
    swap with a draw below i + 1)."""
    cdef GRng r
    cdef int i, j
    cdef uint8_t t
    g_rng_seed(&r, seed)
    for i in range(108):
        deck[i] = i
    for i in range(107, 0, -1):
        j = g_rng_below(&r, i + 1)
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
