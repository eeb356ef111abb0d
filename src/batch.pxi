# Batch API: NumPy arrays in and out, one validation pass, then a nogil loop.
#
# Validation happens before any output is written, so a bad element leaves a caller's `out`
# array untouched. Arrays must already have the exact dtype and be C-contiguous: silently
# converting would hide a copy of the caller's data on every call.

cdef object _array_arg(object arr, object dtype, str name, int ndim=1):
    if not isinstance(arr, np.ndarray):
        raise ValueError(f"{name} must be a numpy.ndarray of {np.dtype(dtype).name}; got {type(arr).__name__}")
    if arr.dtype != dtype:
        raise ValueError(f"{name} must have dtype {np.dtype(dtype).name}; got {arr.dtype}")
    if arr.ndim != ndim:
        raise ValueError(f"{name} must be {ndim}-dimensional; got shape {arr.shape}")
    if not arr.flags.c_contiguous:
        raise ValueError(f"{name} must be C-contiguous (use numpy.ascontiguousarray)")
    return arr


cdef object _out_arg(object out, object dtype, tuple shape, str name="out"):
    if out is None:
        return np.empty(shape, dtype)
    _array_arg(out, dtype, name, len(shape))
    if out.shape != shape:
        raise ValueError(f"{name} must have shape {shape}; got {out.shape}")
    if not out.flags.writeable:
        raise ValueError(f"{name} is read-only")
    return out


cdef int _check_masks(const uint64_t[::1] m, str name) except -1:
    cdef Py_ssize_t i, n = m.shape[0]
    cdef uint64_t acc = 0
    with nogil:
        for i in range(n):
            acc |= m[i]
    if acc >> 52:
        for i in range(n):
            if m[i] >> 52:
                raise ValueError(f"{name}[{i}] has bits above 51: {m[i]:#x}")
    return 0


cdef int _check_codes(const uint32_t[::1] c, int flags, str name) except -1:
    cdef Py_ssize_t i, n = c.shape[0], bad = -1
    with nogil:
        for i in range(n):
            if not c_code_valid(c[i], flags):
                bad = i
                break
    if bad >= 0:
        raise ValueError(f"{name}[{bad}] is not a valid combo code: {c[bad]}")
    return 0


def classify_many(masks, flags=0, out=None):
    """Combo codes (uint32) of a uint64 array of masks; 0 where not a combination.

    >>> import numpy as np
    >>> codes = classify_many(np.array([0b1, 0b11, 0b1 | 1 << 8], dtype=np.uint64))
    >>> [code_kind(int(c)) for c in codes]                # single, pair, nothing
    [1, 2, 0]
    """
    cdef int f = _flags_arg(flags)
    _array_arg(masks, np.uint64, "masks")
    cdef const uint64_t[::1] m = masks
    _check_masks(m, "masks")
    res = _out_arg(out, np.uint32, (m.shape[0],))
    cdef uint32_t[::1] o = res
    cdef Py_ssize_t i
    if m.shape[0]:
        with nogil:
            c_classify_array(&m[0], &o[0], m.shape[0], f)
    return res


def _simd(enabled=None):
    """Whether the batch classify uses its SIMD path (AVX2 on x86-64, if the CPU has it);
    `enabled=False` forces the scalar loop (for tests). Returns the previous setting."""
    global simd_enabled
    previous = bool(simd_enabled and tl_have_avx2())
    if enabled is not None:
        simd_enabled = 1 if enabled else 0
    return previous


def beats_many(play_codes, pile_codes, flags=0, out=None):
    """Element-wise beats(play_codes[i], pile_codes[i]) as a bool array.

    >>> import numpy as np
    >>> plays = classify_many(np.array([1 << 51, 0b1111], dtype=np.uint64))
    >>> piles = classify_many(np.array([1 << 48, 1 << 47], dtype=np.uint64))
    >>> beats_many(plays, piles).tolist()
    [True, False]
    """
    cdef int f = _flags_arg(flags)
    _array_arg(play_codes, np.uint32, "play_codes")
    _array_arg(pile_codes, np.uint32, "pile_codes")
    if play_codes.shape != pile_codes.shape:
        raise ValueError(f"play_codes and pile_codes differ in length: {play_codes.shape[0]} != {pile_codes.shape[0]}")
    cdef const uint32_t[::1] a = play_codes
    cdef const uint32_t[::1] b = pile_codes
    _check_codes(a, f, "play_codes")
    _check_codes(b, f, "pile_codes")
    res = _out_arg(out, np.bool_, (a.shape[0],))
    cdef uint8_t[::1] o = res.view(np.uint8)
    cdef Py_ssize_t i
    with nogil:
        for i in range(a.shape[0]):
            o[i] = c_beats(a[i], b[i])
    return res


cdef tuple _moves_args(hands, pile_codes, int f, locked_out, must_include):
    _array_arg(hands, np.uint64, "hands")
    cdef Py_ssize_t n = hands.shape[0]
    if pile_codes is None:
        pile_codes = np.zeros(n, np.uint32)
    _array_arg(pile_codes, np.uint32, "pile_codes")
    if pile_codes.shape[0] != n:
        raise ValueError(f"pile_codes has length {pile_codes.shape[0]}, hands has {n}")
    if locked_out is None:
        locked_out = np.zeros(n, np.bool_)
    _array_arg(locked_out, np.bool_, "locked_out")
    if locked_out.shape[0] != n:
        raise ValueError(f"locked_out has length {locked_out.shape[0]}, hands has {n}")
    if must_include is None:
        must_include = np.full(n, -1, np.int8)
    _array_arg(must_include, np.int8, "must_include")
    if must_include.shape[0] != n:
        raise ValueError(f"must_include has length {must_include.shape[0]}, hands has {n}")
    if n and (must_include.min() < -1 or must_include.max() > 51):
        raise ValueError("must_include values must be card indices 0..51 or -1")
    _check_masks(hands, "hands")
    _check_codes(pile_codes, f, "pile_codes")
    return hands, pile_codes, locked_out.view(np.uint8), must_include


def count_legal_moves_many(hands, pile_codes=None, flags=0, locked_out=None, must_include=None, out=None):
    """count_legal_moves for every row: hands (uint64), pile_codes (uint32, None = all leads),
    locked_out (bool, optional), must_include (int8 card or -1, optional). Returns int64.

    >>> import numpy as np
    >>> count_legal_moves_many(np.array([0b1111, 0b1], dtype=np.uint64)).tolist()
    [15, 1]
    """
    cdef int f = _flags_arg(flags)
    hands, pile_codes, locked_out, must_include = _moves_args(hands, pile_codes, f, locked_out, must_include)
    cdef const uint64_t[::1] h = hands
    cdef const uint32_t[::1] p = pile_codes
    cdef const uint8_t[::1] lo = locked_out
    cdef const int8_t[::1] mi = must_include
    res = _out_arg(out, np.int64, (h.shape[0],))
    cdef int64_t[::1] o = res
    cdef Py_ssize_t i
    with nogil:
        for i in range(h.shape[0]):
            o[i] = gen_moves(h[i], p[i], f, lo[i], mi[i], NULL)
    return res


def legal_moves_many(hands, pile_codes=None, flags=0, locked_out=None, must_include=None):
    """Legal moves of many hands in CSR layout: `(offsets, moves)`, where the moves of row i
    are `moves[offsets[i]:offsets[i + 1]]`, each row in the order of legal_moves().

    One generation pass, straight into the output: hands of up to 13 cards cannot have more
    than MAX_MOVES_13_CARDS moves, so a row is written whenever that much room is left
    (larger hands are counted first), into a buffer reserved for the worst case that is
    then copied to the exact size.

    >>> import numpy as np
    >>> offsets, moves = legal_moves_many(np.array([0b11, 0, 0b1], dtype=np.uint64))
    >>> offsets.tolist(), moves.tolist()
    ([0, 3, 3, 4], [1, 2, 3, 1])
    """
    cdef int f = _flags_arg(flags)
    hands, pile_codes, locked_out, must_include = _moves_args(hands, pile_codes, f, locked_out, must_include)
    cdef Py_ssize_t n = hands.shape[0]
    cdef Py_ssize_t done = 0
    cdef int64_t need
    offsets = np.empty(n + 1, np.int64)
    offsets[0] = 0
    cdef int64_t cap = max(64 * n, 4 * MAX_MOVES_13)
    moves = np.empty(cap, np.uint64)
    while True:
        done, need = _fill_rows(hands, pile_codes, locked_out, must_include, f, offsets, moves, done)
        if done == n:
            break
        if need > MAX_MOVES_C:
            raise ValueError(f"hands[{done}] has more than MAX_MOVES={MAX_MOVES_C} legal moves")
        cap = max(2 * cap, offsets[done] + need)
        grown = np.empty(cap, np.uint64)
        grown[:offsets[done]] = moves[:offsets[done]]
        moves = grown
    # A copy of the exact size, not an in-place shrink: shrinking returns the tail of the
    # big buffer to the allocator in a way that made every later call page-fault its buffer
    # afresh (345 faults a call on 4,000 hands); a same-size buffer freed each call is
    # reused, and the copy costs far less than the faults did.
    return offsets, moves[:offsets[n]].copy()


cdef tuple _fill_rows(const uint64_t[::1] h, const uint32_t[::1] p, const uint8_t[::1] lo,
                      const int8_t[::1] mi, int f, int64_t[::1] off, uint64_t[::1] mv,
                      Py_ssize_t i):
    """Write rows from i on until the output lacks room for the next one. Returns the first
    unwritten row and the room it needs."""
    cdef Py_ssize_t n = h.shape[0]
    cdef int64_t total = off[i], cap = mv.shape[0], need = 0
    cdef uint64_t* base = &mv[0]
    with nogil:
        while i < n:
            if TL_POPCOUNT(h[i]) <= 13:
                need = MAX_MOVES_13
            else:
                need = gen_moves(h[i], p[i], f, lo[i], mi[i], NULL)
                if need > MAX_MOVES_C:
                    break
            if total + need > cap:
                break
            total += gen_moves(h[i], p[i], f, lo[i], mi[i], base + total)
            i += 1
            off[i] = total
    return i, need


def random_playouts(n, players=4, seed=0, flags=0, policy=P_RANDOM, out=None):
    """Play `n` hands from fresh deals by `policy` (RANDOM: uniform over the legal moves plus
    pass when allowed; GREEDY; PLAN: every seat plays its best split) and return the
    finishing orders as an (n, players) int8 array.

    Game i uses its own stream derived from (seed, i), so results do not depend on how the
    work is chunked or threaded: random_playouts(10, seed=s)[5:] equals the games 5..9 of any
    other split with the same seed (see `first`).

    >>> order = random_playouts(3, 4, seed=1)
    >>> order.shape, sorted(order[0].tolist())
    ((3, 4), [0, 1, 2, 3])
    """
    return random_playouts_range(0, n, players, seed, flags, policy, out)


def random_playouts_range(first, n, players=4, seed=0, flags=0, policy=P_RANDOM, out=None):
    """Games first .. first+n-1 of the stream `random_playouts` draws from `seed`."""
    cdef int f = _flags_arg(flags)
    cdef int pol = _policy_arg(policy)
    cdef uint64_t s0 = _seed_arg(seed)
    cdef int players_ = _small_int_arg(players, "players", 2, 4)
    cdef Py_ssize_t first_ = _count_arg(first, "first")
    cdef Py_ssize_t n_ = _count_arg(n, "n")
    res = _out_arg(out, np.int8, (n_, players_))
    cdef int8_t[:, ::1] o = res
    cdef Py_ssize_t i
    cdef int p, failed = 0
    cdef uint64_t hands[4]
    cdef State st
    cdef Rng r
    cdef SplitMemo m
    _memo_for(&m, pol)
    with nogil:
        for i in range(n_):
            rng_seed(&r, stream_seed(s0, <uint64_t>(first_ + i)))
            deal_cards(&r, players_, hands, 13)
            st_init(&st, hands, players_, -1, f)
            if run_playout(&st, &r, pol, &m) < 0:
                failed = 1
                break
            for p in range(players_):
                o[i, p] = st.order[p]
        memo_close(&m)
    if failed:
        raise MemoryError("playout could not allocate a move buffer")
    return res


def record_playout(seed, index, players=4, flags=0, policy=P_RANDOM):
    """Game `index` of `random_playouts(..., seed=seed)`, recorded: `(hands, actions, order)`
    with the dealt masks, every action in turn (0 = pass) and the finishing order. Lets tests
    replay native playouts through tienlen.Game."""
    cdef int f = _flags_arg(flags)
    cdef int pol = _policy_arg(policy)
    cdef Rng r
    cdef uint64_t hands[4]
    cdef State st
    cdef int n = _small_int_arg(players, "players", 2, 4)
    rng_seed(&r, stream_seed(_seed_arg(seed), <uint64_t>_count_arg(index, "index")))
    deal_cards(&r, n, hands, 13)
    st_init(&st, hands, n, -1, f)
    actions = _record_steps(&st, &r, pol)
    return (tuple(hands[p] for p in range(n)), actions,
            tuple(st.order[p] for p in range(st.nfinished)))
