# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, embedsignature=True
"""The native Guandan (掼蛋) rules core: two 54-bit masks per hand, play codes, every legal play.

A card type is its ``original_id`` 0..53 (``(rank - 2) * 4 + suit``, 52 = small joker, 53 =
big joker). A hand or a play is a multiset of card types with at most two copies of each,
held as two masks: ``once`` (types held at least once) and ``twice`` (types held twice,
a subset of ``once``). A reading is a play code ``kind << 12 | size << 6 | rank``. See
``src/guandan/README.md`` for the full contract.

>>> from tienlen.guandan import core
>>> five_h = 1 << 13                                  # 5♥ is original_id 13
>>> [core.code_kind(c) == core.PAIR for c in core.classify(five_h, five_h, 2)]
[True]
>>> core.count_legal_plays(five_h, five_h, 2)         # 5♥, 5♥ 5♥
2
>>> core.beats(core.make_code(core.SINGLE, 1, 2), core.make_code(core.SINGLE, 1, 14), 2)
True
"""

include "bits.pxi"
include "../common/arrays.pxi"
include "gen.pxi"
include "../common/rng.pxi"
include "deal.pxi"
include "api.pxi"
include "batch.pxi"
include "state.pxi"
include "solver.pxi"
include "match.pxi"
include "../common/threads.pxi"
include "env.pxi"
include "sampler.pxi"
include "scoring.pxi"
