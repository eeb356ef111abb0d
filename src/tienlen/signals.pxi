# Ctrl-C in native loops (tl_interrupted, _raise_pending). Included by api.pxi.

# Python runs signal handlers only in the main thread and only between bytecodes, so a loop
# that holds no GIL for minutes would ignore Ctrl-C until it ends. Long loops call
# tl_interrupted() every few milliseconds of work: on the main thread it takes the GIL for a
# moment and runs the handlers; an exception they raise (KeyboardInterrupt) is left pending,
# the loop stops, and the caller raises it with _raise_pending(). Other threads never handle
# signals, so for them the check costs nothing.

cdef extern from "Python.h":
    int PyErr_CheckSignals() noexcept
    unsigned long PyThread_get_thread_ident() noexcept nogil

import threading as _threading
cdef unsigned long _main_thread_ident = _threading.main_thread().ident

# How much work between checks, chosen so that a check comes every millisecond or so.
cdef enum:
    CHECK_PLAYOUTS = 64        # playouts (RANDOM about 5 us each, PLAN about 30 us)
    CHECK_ROWS = 2048          # rows counted in closed form (0.1 to 0.6 us each)
    CHECK_MOVES = 1 << 17      # moves written (a few ns each) ...
    CHECK_ROW_COST = 64        # ... counting each row as this many moves besides its own
    CHECK_ELEMENTS = 1 << 20   # classify / beats elements (a few ns each)
    INTERRUPTED = -2           # status of a loop stopped by tl_interrupted()

cdef inline bint tl_watch_signals() noexcept nogil:
    """Whether this thread is the one that handles signals (so loops should check)."""
    return PyThread_get_thread_ident() == _main_thread_ident

cdef bint tl_interrupted() noexcept nogil:
    """Run pending signal handlers; true if one raised (the exception is left pending)."""
    cdef int failed
    with gil:
        failed = PyErr_CheckSignals()
    return failed < 0

cdef int _raise_pending() except -1:
    """Raise the exception tl_interrupted() left pending."""
    return -1
