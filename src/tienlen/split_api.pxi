# The plan's hand split (plan.pxi) for Python callers: tienlen.bots.split wraps these, so the
# split search exists once, here, and the L2 bot, the hints and the PLAN playouts agree.
# Also the newer names of the batch playout functions.

# The split memo of Python-level calls. These functions never release the GIL, so one
# table serves every caller; it is opened on first use and lives as long as the module.
cdef SplitMemo _py_split_memo


cdef SplitMemo* _split_memo() except NULL:
    if _py_split_memo.slots == NULL and memo_open(&_py_split_memo) < 0:
        raise MemoryError("could not allocate the split memo")
    return &_py_split_memo


def split_score(hand, flags=0):
    """Score of a best split of `hand` (0 for no cards; lower is better): 16 per group, plus 1
    per single below a 2, over the fewest-groups splits that `plan` chooses from.

    >>> split_score(0b111), split_score(1 | 1 << 4 | 1 << 8)    # a triple; the run 3-4-5
    (16, 16)
    >>> split_score(1 | 1 << 4 | 1 << 12)                       # 3, 4, 6: three low singles
    51
    """
    cdef uint64_t h = _mask_arg(hand, "hand")
    cdef uint64_t key = split_key(h, _flags_arg(flags))
    return val_score(split_best(key, _split_memo()))


def is_control_group(mask, flags=0):
    """Whether a group of a plan is one to hold back: it holds a 2, or it is a bomb by the
    rule table of `flags` (the cards that win a pile late). The PLAN playouts and the L2 bot
    both ask this.

    >>> is_control_group(1 << 48), is_control_group(0b1111), is_control_group(0b11)
    (True, True, False)
    """
    cdef uint64_t m = _mask_arg(mask, "mask")
    cdef RuleTable rt
    rules_decode(&rt, _flags_arg(flags))
    return bool(is_control(m, c_classify(m, rt.flags), rt.cuts))


def is_bomb_group(code, flags=0):
    """Whether a play of combo `code` is a bomb to hold for a cut under the rule table of
    `flags`: its class cuts something (R4.1; R11.1 in the South), or it is a double sequence
    longer than any in the table (6+ pairs, rarely beaten). The one test the PLAN playouts,
    `is_control_group` and the bots share.

    >>> five_pairs = classify(sum(0b11 << 4 * r for r in range(5)))
    >>> is_bomb_group(classify(0b1111)), is_bomb_group(five_pairs), is_bomb_group(classify(0b11))
    (True, True, False)
    >>> is_bomb_group(five_pairs, 1 << 24)     # the table without "5 pairs cut three 2s"
    False
    """
    cdef uint64_t f = _flags_arg(flags)
    cdef uint32_t c = _code_arg(code, f, "code")
    cdef RuleTable rt
    rules_decode(&rt, f)
    return bool(is_bomb_code(c, rt.cuts))


# `random_playouts` runs any of three policies (RANDOM, GREEDY, PLAN), so its name is now
# `playouts`; the old names stay as aliases.
playouts = random_playouts
playouts_range = random_playouts_range
