"""tienlen.seeds: every derived seed keeps the value the landed code gave it (replays, match
files and golden deals are read back through these), and the old names are the new ones.

The expected values were printed by the code before the derivations moved into
tienlen.seeds (``main`` at 7ddead2), each from its own module; they are regression goldens,
and the two formulas are also checked against splitmix64 written out here.
"""

from __future__ import annotations

import pytest

from tienlen import seeds
from tienlen.seeds import splitmix64

MASK = (1 << 64) - 1
GAMMA = 0x9E3779B97F4A7C15


def chained(*values: int) -> int:
    z = 0
    for v in values:
        z = splitmix64((z + v) & MASK)[1]
    return z


def test_stream_is_splitmix64_of_the_seed_plus_index_gammas() -> None:
    for seed, index in ((0, 0), (5, 2), (MASK, 7), (2**63, 1003)):
        assert seeds.stream(seed, index) == splitmix64((seed + index * GAMMA) & MASK)[1]


def test_mix_is_splitmix64_chained_over_the_values() -> None:
    for values in ((1,), (9, 1, 4), (3, 0xB07, 1, 2)):
        assert seeds.mix(*values) == chained(*values)


def test_tienlen_deal_seeds_keep_their_values() -> None:
    from tienlen.games.tienlen.match import hand_seed
    assert hand_seed(5, 1) == seeds.hand_seed(5, 1) == 7134611160154358618
    assert hand_seed(MASK, 7) == 17388166129998380965


def test_guandan_seeds_keep_their_values() -> None:
    from tienlen.games.guandan.game import _mix
    from tienlen.games.guandan.match import Match
    assert _mix(5, 3) == seeds.guandan_seed(5, 3) == 4292726422858613063
    assert _mix(5, 7) == 18180438093026040609
    match = Match(seed=5)
    assert match.hand_seed(0) == seeds.guandan_hand_seed(5, 0) == 4374071662599412464
    assert match.hand_seed(3) == 16460029103053717451
    assert match.game.seed == match.hand_seed(0) and match.first_leader == 1


def test_bot_and_board_seeds_keep_their_values() -> None:
    from tienlen.games.guandan.arena import board_seed, bot_seed
    from tienlen.table.spec import bot_seed as table_bot_seed
    assert board_seed(9, 4) == seeds.board_seed(9, 4) == 2004275259402641444
    assert bot_seed(9, 4, 2) == seeds.board_bot_seed(9, 4, 2) == 15873013715121438157
    assert seeds.session_bot_seed(11, 2) == 4163019161980687117
    assert table_bot_seed(3, 1, 2) == seeds.table_bot_seed(3, 1, 2) == 3056525216063785707


def test_review_seeds_keep_their_values() -> None:
    # a review's sampled deals (issue 38): the same hand reviewed again, the same values
    assert seeds.review_seed(5, 3) == seeds.mix(0x5E71E3, 5, 3, 0) == 17287956371837847147
    assert seeds.review_seed(5, 3, seed=1) == 2834827055219605363


@pytest.mark.parametrize("bad", [None, -1, 2**64, 1.0, True])
def test_hand_seed_refuses_a_bad_seed_with_the_callers_error(bad: object) -> None:
    from tienlen.games.tienlen.match import MatchError, hand_seed
    with pytest.raises(MatchError):
        hand_seed(bad, 1)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        seeds.hand_seed(bad, 1)  # type: ignore[arg-type]
