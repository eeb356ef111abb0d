"""The core writes hands of up to 13 cards straight into a buffer of MAX_MOVES_13_CARDS
moves, without counting first. That is only memory-safe if no such hand has more moves, so
this test proves the bound by exhaustion.

The number of plays depends only on how many cards the hand holds of each rank (choices at a
rank are subsets of its cards, whatever their suits), a lead offers every play any other
situation offers (following, locked out or bound to a card only filters the lead's set), and
adding a card never removes a play. So the maximum over all hands of at most 13 cards is the
maximum lead count over the 3,598,180 ways to spread exactly 13 cards over 13 ranks.
"""

import numpy as np

from tienlen import core


def _rank_distributions(cards: int = 13) -> np.ndarray:
    masks: list[int] = []

    def spread(rank: int, left: int, mask: int) -> None:
        if rank == 13:
            if left == 0:
                masks.append(mask)
            return
        if left > 4 * (13 - rank):
            return
        for count in range(min(4, left) + 1):
            spread(rank + 1, left - count, mask | (((1 << count) - 1) << (4 * rank)))

    spread(0, cards, 0)
    return np.array(masks, dtype=np.uint64)


def test_no_hand_of_13_cards_has_more_moves_than_the_buffer_bound() -> None:
    hands = _rank_distributions()
    assert len(hands) == 3_598_180
    for flags in (0, core.NO_TWOS_IN_SEQUENCES):
        counts = core.count_legal_moves_many(hands, None, flags)
        assert int(counts.max()) <= core.MAX_MOVES_13_CARDS
    # The bound is tight under the contract rules: some hand reaches it exactly.
    assert int(core.count_legal_moves_many(hands).max()) == core.MAX_MOVES_13_CARDS


def test_following_and_locked_out_never_offer_more_than_the_lead() -> None:
    rng = np.random.default_rng(2)
    for seed in range(300):
        hand = core.deal(seed)[0] | (core.deal(seed)[1] & int(rng.integers(0, 1 << 52)))
        lead = set(core.legal_moves(hand).tolist())
        pile = core.classify(1 << 48) if seed % 2 else core.classify(0b11 << 48)
        for locked in (False, True):
            assert set(core.legal_moves(hand, pile, 0, locked).tolist()) <= lead
