# The seeded PRNG both cores draw from: xoshiro256** seeded through splitmix64, a bounded
# draw by multiply-shift, and independent per-game streams. One implementation: a seed means
# the same deal on every platform and every NumPy version, in Tiến Lên (R1.4) and in Guandan
# (G5), and the two cores cannot drift apart.

# Chosen over NumPy's generators so that a seed means the same deal on every platform and
# every NumPy version; seeded through splitmix64 as its authors recommend.

cdef struct Rng:
    uint64_t s[4]

cdef inline uint64_t splitmix64(uint64_t* x) noexcept nogil:
    x[0] += 0x9E3779B97F4A7C15ULL
    cdef uint64_t z = x[0]
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)

cdef inline void rng_seed(Rng* r, uint64_t seed) noexcept nogil:
    cdef uint64_t x = seed
    r.s[0] = splitmix64(&x)
    r.s[1] = splitmix64(&x)
    r.s[2] = splitmix64(&x)
    r.s[3] = splitmix64(&x)

cdef inline uint64_t rotl(uint64_t x, int k) noexcept nogil:
    return (x << k) | (x >> (64 - k))

cdef inline uint64_t rng_next(Rng* r) noexcept nogil:
    cdef uint64_t result = rotl(r.s[1] * 5, 7) * 9
    cdef uint64_t t = r.s[1] << 17
    r.s[2] ^= r.s[0]
    r.s[3] ^= r.s[1]
    r.s[1] ^= r.s[2]
    r.s[0] ^= r.s[3]
    r.s[2] ^= t
    r.s[3] = rotl(r.s[3], 45)
    return result

cdef inline uint32_t rng_below(Rng* r, uint32_t n) noexcept nogil:
    # Multiply-shift on the high 32 bits: portable (no 128-bit ints) and bias below 2^-32 * n.
    return <uint32_t>(((rng_next(r) >> 32) * <uint64_t>n) >> 32)

cdef inline uint64_t stream_seed(uint64_t seed, uint64_t index) noexcept nogil:
    # Independent per-game streams, so game i of a batch does not depend on chunking/threads.
    cdef uint64_t x = seed ^ (index * 0xD1B54A32D192ED03ULL)
    splitmix64(&x)
    return splitmix64(&x)
