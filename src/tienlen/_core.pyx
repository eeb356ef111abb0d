# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, embedsignature=True
"""The native core of tienlen: masks, combo codes, legal moves, game state and playouts.

A card is ``rank * 4 + suit`` (3♠ = 0, 2♥ = 51), a hand is a 52-bit mask and a combination is a
packed code ``kind << 12 | ncards << 6 | top`` (0 = not a combination / empty pile). See
``src/README.md`` for the full contract (this core: ``src/tienlen/``).

>>> from tienlen import core
>>> code = core.classify(0b1110 << 8)          # 5♣ 5♦ 5♥
>>> core.code_kind(code) == core.TRIPLE, core.code_len(code), core.code_top(code)
(True, 3, 11)
>>> core.beats(core.classify(1 << 51), core.classify(1 << 48))   # 2♥ on 2♠
True
>>> len(core.legal_moves(0b111))              # 3♠ 3♣ 3♦: 3 singles, 3 pairs, 1 triple
7
"""

include "bits.pxi"
include "../common/arrays.pxi"
include "gen.pxi"
include "../common/rng.pxi"
include "state.pxi"
include "plan.pxi"
include "masktable.pxi"
include "api.pxi"
include "state_api.pxi"
include "playouts_api.pxi"
include "solver.pxi"
include "batch.pxi"
include "search.pxi"
include "../common/threads.pxi"
include "env.pxi"
include "split_api.pxi"
