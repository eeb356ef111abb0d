# The observation encoder (docs/rl.md): one seat's view of an RLG as uint8 bytes, every
# per-seat field indexed by seat relative to the observer. Included by env.pxi.

# RL_EXPAND[b] = the 8 bits of b as 8 bytes of 0/1, lowest bit first: six lookups and a
# four-byte tail turn a 52-bit mask into its 52 observation bytes, on any byte order.
cdef uint8_t RL_EXPAND[256][8]

cdef void _rl_init_expand() noexcept:
    cdef int b, i
    for b in range(256):
        for i in range(8):
            RL_EXPAND[b][i] = (b >> i) & 1

_rl_init_expand()


cdef inline void rl_bits(uint8_t* o, uint64_t m) noexcept nogil:
    cdef int k
    for k in range(6):
        memcpy(o + 8 * k, RL_EXPAND[(m >> (8 * k)) & 0xFF], 8)
    memcpy(o + 48, RL_EXPAND[(m >> 48) & 0x0F], 4)


cdef inline int rl_rel(int seat, int observer, int n) noexcept nogil:
    return seat - observer if seat >= observer else seat - observer + n


cdef void rl_encode(const RLG* g, int obs_seat, uint8_t* o) noexcept nogil:
    """The observation of seat `obs_seat` (docs/rl.md): its own hand and public facts only,
    every per-seat field indexed by seat relative to the observer (0 = itself)."""
    cdef const State* s = &g.s
    cdef int n = s.players, p, r, k, base
    memset(o, 0, RL_OBS)
    rl_bits(o + RL_O_HAND, s.hands[obs_seat])
    rl_bits(o + RL_O_PLAYED, s.played)
    rl_bits(o + RL_O_PILE, s.pile_mask)
    o[RL_O_KIND + ckind(s.pile_code)] = 1
    o[RL_O_PILE_LEN] = clen(s.pile_code)
    for p in range(n):
        r = rl_rel(p, obs_seat, n)
        o[RL_O_LEFT + r] = TL_POPCOUNT(s.hands[p])
        o[RL_O_LOCKED + r] = (s.locked >> p) & 1
        o[RL_O_OUT + r] = s.hands[p] == 0
    if s.pile_owner >= 0:
        o[RL_O_OWNER + rl_rel(s.pile_owner, obs_seat, n)] = 1
    if s.turn >= 0:
        o[RL_O_TURN + rl_rel(s.turn, obs_seat, n)] = 1
    if g.leader >= 0:
        o[RL_O_LEADER + rl_rel(g.leader, obs_seat, n)] = 1
    if s.must_include >= 0:
        o[RL_O_MUST + s.must_include] = 1
    for k in range(g.nhist):
        base = RL_O_HIST + k * RL_HIST_STRIDE
        rl_bits(o + base, g.hist[k])
        if g.hist[k] == 0:
            o[base + 52] = 1
        o[base + 53 + rl_rel(g.hist_seat[k], obs_seat, n)] = 1
