"""R1.1: one 52-card deck, no jokers, and 2 to 4 players."""

import pytest

from tienlen import Cards, Game, core

FULL_DECK = (1 << 52) - 1


@pytest.mark.parametrize("players", [2, 3, 4])
def test_R1_1_every_deal_comes_from_one_52_card_deck(players: int) -> None:
    for seed in range(200):
        hands = core.deal(seed, players)
        union = 0
        for hand in hands:
            assert union & hand == 0, "a card was dealt twice"
            union |= hand
        # Only the 52 real cards exist: nothing above 2♥ (index 51), no jokers.
        assert union & ~FULL_DECK == 0
        assert len(Cards(union)) == 13 * players


@pytest.mark.parametrize("players", [0, 1, 5, 6])
def test_R1_1_only_two_to_four_players_may_sit_down(players: int) -> None:
    with pytest.raises(ValueError):
        Game(players, seed=1)
    with pytest.raises(ValueError):
        core.deal(1, players)


def test_R1_1_a_four_player_deal_uses_the_whole_deck() -> None:
    hands = Game(4, seed=9).hands
    assert Cards(sum(h.mask for h in hands)) == Cards(FULL_DECK)
