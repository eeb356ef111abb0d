# The action mask and the legal-action card vectors of an RLG, and the legality test every
# step and the mask agree on. Included by env.pxi.

cdef inline void rl_mask(const RLG* g, int8_t* m) noexcept nogil:
    """int8 action mask: [pass allowed, one 1 per legal play, zeros]."""
    memset(m, 0, RL_ACTIONS)
    if g.s.turn < 0:
        return
    m[0] = g.s.pile_code != 0
    memset(m + 1, 1, g.nmoves)


cdef inline void rl_action_cards(const RLG* g, int8_t* out) noexcept nogil:
    """Row a of out[487][52]: the cards of action a (row 0, pass, and unused rows are 0)."""
    cdef int i
    memset(out, 0, RL_ACTIONS * 52)
    for i in range(g.nmoves):
        rl_bits(<uint8_t*>out + (i + 1) * 52, g.moves[i])


cdef inline bint rl_legal(const RLG* g, int64_t a) noexcept nogil:
    if g.s.turn < 0 or a < 0 or a > g.nmoves:
        return False
    return a > 0 or g.s.pile_code != 0


cdef str _rl_legal_text(const RLG* g):
    if g.s.turn < 0:
        return "the hand is over"
    # With no play legal the only action is pass: say so rather than "actions 1..0".
    plays = (f"{g.nmoves} legal plays (actions 1..{g.nmoves})" if g.nmoves > 1 else
             "1 legal play (action 1)" if g.nmoves == 1 else "no legal play")
    return (plays + (", and pass (action 0)" if g.s.pile_code != 0
                     else "; pass (action 0) is not allowed on a lead"))
