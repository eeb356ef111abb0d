# Batch API: NumPy arrays in and out, one validation pass, then a nogil loop.
#
# Validation happens before any output is written, so a bad element leaves a caller's `out`
# array untouched. Arrays must already have the exact dtype and be C-contiguous: silently
# converting would hide a copy of the caller's data on every call.
#
# Every array enters through arrays.pxi (src/README.md, "How an array enters a native
# loop"): its length, dtype and layout come from the buffer it exports, never from `.shape`
# or any other Python attribute an ndarray subclass can override. Each input element is
# read once: the loops read private copies (array_in), made while the caller's buffer is
# held and validated afterwards (the copy is what is checked and what is used), and never
# size a buffer on one read and fill it from another. classify_many, the one loop where a
# copy would cost as much as the work, instead holds the caller's masks (array_view) and
# checks every mask in the same read that classifies it (c_classify_array), raising if a
# mask changed after validation. `out=` is held (array_out) with its real shape checked.

cdef cnp.ndarray _private_copy(object arr, int typenum, str name, ByteRange* span=NULL):
    """A private copy of the caller's 1-D C-contiguous array (arrays.pxi's array_in)."""
    return array_in(arr, name, typenum, 1, -1, -1, AR_CONTIGUOUS, span)


cdef int _refuse_overlap(HeldBuffer o, const ByteRange* spans, int k, str name="out") except -1:
    """`out` may not share memory with an input of this call (its results would overwrite
    what is still to be read, in classify_many; elsewhere the inputs are copies, but one
    rule for every out= is simpler to state): the byte ranges meet, which for contiguous
    arrays is exactly numpy.shares_memory."""
    cdef int j
    for j in range(k):
        if o.overlaps(&spans[j]):
            raise ValueError(f"{name} shares memory with an input array: results would "
                             "overwrite what is still to be read")
    return 0


cdef int _check_masks(const uint64_t* m, Py_ssize_t n, str name) except -1:
    cdef Py_ssize_t i
    cdef uint64_t acc = 0
    with nogil:
        for i in range(n):
            acc |= m[i]
    if acc >> 52:
        for i in range(n):
            if m[i] >> 52:
                raise ValueError(f"{name}[{i}] has bits above 51: {m[i]:#x}")
    return 0


cdef int _check_codes(const uint32_t* c, Py_ssize_t n, uint64_t flags, str name) except -1:
    cdef Py_ssize_t i, bad = -1
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
    cdef uint64_t f = _flags_arg(flags)
    cdef HeldBuffer mv = array_view(masks, "masks", cnp.NPY_UINT64)
    cdef Py_ssize_t n = mv.shape[0], i, step
    cdef const uint64_t* m = <const uint64_t*>mv.data
    cdef ByteRange span
    span.lo = mv.data
    span.hi = mv.data + mv.nbytes
    # Into the caller's `out`, the masks are checked first (a refused call writes nothing
    # there); into a new array, the classify pass itself collects the OR of every mask and a
    # bad one is found after it: each mask is read once, and the array is thrown away.
    if out is not None:
        _check_masks(m, n, "masks")
    cdef HeldBuffer o = array_out(out, "out", cnp.NPY_UINT32, n)
    _refuse_overlap(o, &span, 1)
    cdef uint32_t* res = <uint32_t*>o.data
    cdef uint64_t seen = 0
    cdef bint watch = tl_watch_signals(), stopped = False
    with nogil:
        i = 0
        while i < n:
            step = min(n - i, <Py_ssize_t>CHECK_ELEMENTS)
            seen |= c_classify_array(m + i, res + i, step, f)
            i += step
            if watch and i < n and tl_interrupted():
                stopped = True
                break
    if stopped:
        _raise_pending()
    if seen >> 52:
        if out is None:
            _check_masks(m, n, "masks")    # names the first bad mask, if it is still there
        raise ValueError("masks changed while classify_many read them: a mask now has bits "
                         "above 51 (another thread wrote the array)")
    o.release()
    mv.release()
    return o.array


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
    cdef uint64_t f = _flags_arg(flags)
    cdef ByteRange spans[2]
    cdef cnp.ndarray pa = _private_copy(play_codes, cnp.NPY_UINT32, "play_codes", &spans[0])
    cdef cnp.ndarray pb = _private_copy(pile_codes, cnp.NPY_UINT32, "pile_codes", &spans[1])
    cdef Py_ssize_t n = cnp.PyArray_DIM(pa, 0), i
    if cnp.PyArray_DIM(pb, 0) != n:
        raise ValueError(f"play_codes and pile_codes differ in length: {n} != {cnp.PyArray_DIM(pb, 0)}")
    cdef const uint32_t* a = <const uint32_t*>cnp.PyArray_DATA(pa)
    cdef const uint32_t* b = <const uint32_t*>cnp.PyArray_DATA(pb)
    _check_codes(a, n, f, "play_codes")
    _check_codes(b, n, f, "pile_codes")
    cdef HeldBuffer res = array_out(out, "out", cnp.NPY_BOOL, n)
    _refuse_overlap(res, spans, 2)
    cdef uint8_t* o = <uint8_t*>res.data
    cdef bint watch = tl_watch_signals(), stopped = False
    cdef RuleTable rt
    rules_decode(&rt, f)
    cdef uint64_t cuts = rt.cuts
    with nogil:
        for i in range(n):
            o[i] = c_beats(a[i], b[i], cuts)
            if watch and (i & (CHECK_ELEMENTS - 1)) == CHECK_ELEMENTS - 1 and tl_interrupted():
                stopped = True
                break
    if stopped:
        _raise_pending()
    res.release()
    return res.array


cdef tuple _moves_args(hands, pile_codes, uint64_t f, locked_out, must_include,
                       ByteRange* spans=NULL):
    """Private copies of the four row arrays (see the top of this file), checked; `spans`
    (4 entries, if given) receives the bytes each caller's array spans."""
    cdef Py_ssize_t n, i
    cdef ByteRange none[4]
    if spans == NULL:
        spans = none
    for i in range(4):
        spans[i].lo = spans[i].hi = NULL
    hands = _private_copy(hands, cnp.NPY_UINT64, "hands", &spans[0])
    n = cnp.PyArray_DIM(<cnp.ndarray>hands, 0)
    pile_codes = (np.zeros(n, np.uint32) if pile_codes is None
                  else _private_copy(pile_codes, cnp.NPY_UINT32, "pile_codes", &spans[1]))
    if cnp.PyArray_DIM(<cnp.ndarray>pile_codes, 0) != n:
        raise ValueError(f"pile_codes has length {cnp.PyArray_DIM(<cnp.ndarray>pile_codes, 0)}, hands has {n}")
    locked_out = (np.zeros(n, np.bool_) if locked_out is None
                  else _private_copy(locked_out, cnp.NPY_BOOL, "locked_out", &spans[2]))
    if cnp.PyArray_DIM(<cnp.ndarray>locked_out, 0) != n:
        raise ValueError(f"locked_out has length {cnp.PyArray_DIM(<cnp.ndarray>locked_out, 0)}, hands has {n}")
    must_include = (np.full(n, -1, np.int8) if must_include is None
                    else _private_copy(must_include, cnp.NPY_INT8, "must_include", &spans[3]))
    if cnp.PyArray_DIM(<cnp.ndarray>must_include, 0) != n:
        raise ValueError(f"must_include has length {cnp.PyArray_DIM(<cnp.ndarray>must_include, 0)}, hands has {n}")
    cdef const int8_t* mi = <const int8_t*>cnp.PyArray_DATA(<cnp.ndarray>must_include)
    for i in range(n):
        if mi[i] < -1 or mi[i] > 51:
            raise ValueError(f"must_include[{i}] must be a card index 0..51 or -1; got {mi[i]}")
    _check_masks(<const uint64_t*>cnp.PyArray_DATA(<cnp.ndarray>hands), n, "hands")
    _check_codes(<const uint32_t*>cnp.PyArray_DATA(<cnp.ndarray>pile_codes), n, f, "pile_codes")
    return hands, pile_codes, locked_out, must_include


def count_legal_moves_many(hands, pile_codes=None, flags=0, locked_out=None, must_include=None, out=None):
    """count_legal_moves for every row: hands (uint64), pile_codes (uint32, None = all leads),
    locked_out (bool, optional), must_include (int8 card or -1, optional). Returns int64.

    >>> import numpy as np
    >>> count_legal_moves_many(np.array([0b1111, 0b1], dtype=np.uint64)).tolist()
    [15, 1]
    """
    cdef uint64_t f = _flags_arg(flags)
    cdef ByteRange spans[4]
    args = _moves_args(hands, pile_codes, f, locked_out, must_include, spans)
    cdef Py_ssize_t n = cnp.PyArray_DIM(<cnp.ndarray>args[0], 0), i
    cdef const uint64_t* h = <const uint64_t*>cnp.PyArray_DATA(<cnp.ndarray>args[0])
    cdef const uint32_t* p = <const uint32_t*>cnp.PyArray_DATA(<cnp.ndarray>args[1])
    cdef const uint8_t* lo = <const uint8_t*>cnp.PyArray_DATA(<cnp.ndarray>args[2])
    cdef const int8_t* mi = <const int8_t*>cnp.PyArray_DATA(<cnp.ndarray>args[3])
    cdef HeldBuffer res = array_out(out, "out", cnp.NPY_INT64, n)
    _refuse_overlap(res, spans, 4)
    cdef int64_t* o = <int64_t*>res.data
    cdef bint watch = tl_watch_signals(), stopped = False
    cdef RuleTable rt
    rules_decode(&rt, f)
    with nogil:
        for i in range(n):
            o[i] = gen_moves(h[i], p[i], &rt, lo[i] != 0, mi[i], NULL)
            if watch and (i & (CHECK_ROWS - 1)) == CHECK_ROWS - 1 and tl_interrupted():
                stopped = True
                break
    if stopped:
        _raise_pending()
    res.release()
    return res.array


def legal_moves_many(hands, pile_codes=None, flags=0, locked_out=None, must_include=None):
    """Legal moves of many hands in CSR layout: `(offsets, moves)`, where the moves of row i
    are `moves[offsets[i]:offsets[i + 1]]`, each row in the order of legal_moves().

    One generation pass, straight into the output: hands of up to 13 cards cannot have more
    than MAX_MOVES_13_CARDS moves, so a row is written whenever that much room is left
    (larger hands are counted first), into a buffer reserved for the worst case that is
    then copied to the exact size. The rows are read from private copies of the inputs, so
    the room reserved for a row is the room its moves take.

    >>> import numpy as np
    >>> offsets, moves = legal_moves_many(np.array([0b11, 0, 0b1], dtype=np.uint64))
    >>> offsets.tolist(), moves.tolist()
    ([0, 3, 3, 4], [1, 2, 3, 1])
    """
    cdef uint64_t f = _flags_arg(flags)
    h, p, lo, mi = _moves_args(hands, pile_codes, f, locked_out, must_include)
    cdef Py_ssize_t n = cnp.PyArray_DIM(<cnp.ndarray>h, 0)
    cdef Py_ssize_t done = 0
    cdef int64_t need
    offsets = np.empty(n + 1, np.int64)
    offsets[0] = 0
    cdef int64_t cap = max(64 * n, 4 * MAX_MOVES_13)
    moves = np.empty(cap, np.uint64)
    while True:
        done, need = _fill_rows(h, p, lo, mi, f, offsets, moves, done)
        if done == n:
            break
        if need == INTERRUPTED:
            _raise_pending()
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


cdef tuple _fill_rows(object hands, object piles, object locked, object must,
                      uint64_t f, object offsets, object moves, Py_ssize_t i):
    """Write rows from i on until the output lacks room for the next one. Returns the first
    unwritten row and the room it needs (INTERRUPTED if a signal handler raised). The four
    row arrays are the private copies, so a row's moves are exactly the room counted for it."""
    cdef Py_ssize_t n = cnp.PyArray_DIM(<cnp.ndarray>hands, 0)
    cdef const uint64_t* h = <const uint64_t*>cnp.PyArray_DATA(<cnp.ndarray>hands)
    cdef const uint32_t* p = <const uint32_t*>cnp.PyArray_DATA(<cnp.ndarray>piles)
    cdef const uint8_t* lo = <const uint8_t*>cnp.PyArray_DATA(<cnp.ndarray>locked)
    cdef const int8_t* mi = <const int8_t*>cnp.PyArray_DATA(<cnp.ndarray>must)
    cdef int64_t* off = <int64_t*>cnp.PyArray_DATA(<cnp.ndarray>offsets)
    cdef uint64_t* base = <uint64_t*>cnp.PyArray_DATA(<cnp.ndarray>moves)
    cdef int64_t total = off[i], cap = cnp.PyArray_DIM(<cnp.ndarray>moves, 0), need = 0
    cdef bint watch = tl_watch_signals()
    cdef int64_t work = 0, wrote
    cdef RuleTable rt
    rules_decode(&rt, f)
    with nogil:
        while i < n:
            if TL_POPCOUNT(h[i]) <= 13:
                need = MAX_MOVES_13
            else:
                need = gen_moves(h[i], p[i], &rt, lo[i] != 0, mi[i], NULL)
                if need > MAX_MOVES_C:
                    break
            if total + need > cap:
                break
            wrote = gen_moves(h[i], p[i], &rt, lo[i] != 0, mi[i], base + total)
            total += wrote
            i += 1
            off[i] = total
            # Work, not rows: one row of a 30-card hand writes as many moves as thousands
            # of 13-card rows.
            work += wrote + CHECK_ROW_COST
            if watch and work >= CHECK_MOVES and i < n:
                work = 0
                if tl_interrupted():
                    need = INTERRUPTED
                    break
    return i, need


def random_playouts(n, players=4, seed=0, flags=0, policy=P_RANDOM, out=None):
    """Play `n` hands from fresh deals by `policy` (RANDOM: uniform over the legal moves plus
    pass when allowed; GREEDY; PLAN: every seat plays its best split) and return the
    finishing orders as an (n, players) int8 array. `policy` is one of the module's RANDOM
    (the default), GREEDY or PLAN.

    Game i uses its own stream derived from (seed, i), so results do not depend on how the
    work is chunked or threaded: random_playouts(10, seed=s)[5:] equals the games 5..9 of any
    other split with the same seed (see `random_playouts_range`).

    >>> order = random_playouts(3, 4, seed=1)
    >>> order.shape, sorted(order[0].tolist())
    ((3, 4), [0, 1, 2, 3])
    """
    return random_playouts_range(0, n, players, seed, flags, policy, out)


# More games than this in one call is refused up front (ValueError): about a billion games,
# hours of work and 4 GB of results at four players. Larger runs go in chunks
# (random_playouts_range).
MAX_GAMES = 1 << 30


def random_playouts_range(first, n, players=4, seed=0, flags=0, policy=P_RANDOM, out=None):
    """Games first .. first+n-1 of the stream `random_playouts` draws from `seed`."""
    cdef uint64_t f = _flags_arg(flags)
    cdef int pol = _policy_arg(policy)
    cdef uint64_t s0 = _seed_arg(seed)
    cdef int players_ = _small_int_arg(players, "players", 2, 4)
    cdef Py_ssize_t first_ = _count_arg(first, "first")
    cdef Py_ssize_t n_ = _int_arg(n, "n", 0, MAX_GAMES)
    cdef HeldBuffer res = array_out(out, "out", cnp.NPY_INT8, n_, players_)
    cdef int8_t* o = <int8_t*>res.data
    cdef Py_ssize_t i
    cdef int p, failed = 0
    cdef bint watch = tl_watch_signals()
    cdef uint64_t hands[4]
    cdef State st
    cdef Rng r
    cdef SplitMemo m
    _memo_for(&m, pol)
    with nogil:
        for i in range(n_):
            if watch and (i & (CHECK_PLAYOUTS - 1)) == CHECK_PLAYOUTS - 1 and tl_interrupted():
                failed = INTERRUPTED
                break
            rng_seed(&r, stream_seed(s0, <uint64_t>(first_ + i)))
            deal_cards(&r, players_, hands, 13)
            st_init(&st, hands, players_, -1, f)
            # R11.3: a dealt instant win ends the hand before any play.
            if st_deal_instant_win(&st) < 0 and run_playout(&st, &r, pol, &m) < 0:
                failed = 1
                break
            for p in range(players_):
                o[i * players_ + p] = st.order[p]
        memo_close(&m)
    if failed == INTERRUPTED:
        _raise_pending()
    if failed:
        raise MemoryError("playout could not allocate a move buffer")
    res.release()
    return res.array


def record_playout(seed, index, players=4, flags=0, policy=P_RANDOM):
    """Game `index` of `random_playouts(..., seed=seed)`, recorded: `(hands, actions, order)`
    with the dealt masks, every action in turn (0 = pass) and the finishing order. Lets tests
    replay native playouts through tienlen.Game."""
    cdef uint64_t f = _flags_arg(flags)
    cdef int pol = _policy_arg(policy)
    cdef Rng r
    cdef uint64_t hands[4]
    cdef State st
    cdef int n = _small_int_arg(players, "players", 2, 4)
    rng_seed(&r, stream_seed(_seed_arg(seed), <uint64_t>_count_arg(index, "index")))
    deal_cards(&r, n, hands, 13)
    st_init(&st, hands, n, -1, f)
    st_deal_instant_win(&st)
    actions = _record_steps(&st, &r, pol)
    return (tuple(hands[p] for p in range(n)), actions,
            tuple(st.order[p] for p in range(st.nfinished)))
