"""One card-text reader (tienlen.games.spelling) for both decks: the same spellings are accepted
and the same mistakes explained the same way, while each deck keeps its own ids and error
class. Ids below are worked out from each deck's layout (Tiến Lên: rank index * 4 + suit,
3♠ = 0, suits ♠ ♣ ♦ ♥; Guandan: (rank - 2) * 4 + suit, suits ♠ ♥ ♣ ♦, jokers 52 and 53)."""

from __future__ import annotations

import pytest

from tienlen.games.tienlen import cards as tl
from tienlen.errors import CardParseError
from tienlen.games.guandan import cards as gd
from tienlen.games.guandan.errors import CardError


@pytest.mark.parametrize(("text", "tl_id", "gd_id"), [
    ("3s", 0, 4), ("3S", 0, 4), ("10d", 7 * 4 + 2, 8 * 4 + 3), ("Td", 30, 35),
    ("t♦", 30, 35), ("A♥️", 11 * 4 + 3, 12 * 4 + 1), ("2h", 51, 1), ("Kc", 10 * 4 + 1, 11 * 4 + 2),
])
def test_both_decks_read_the_same_spellings(text: str, tl_id: int, gd_id: int) -> None:
    assert int(tl.Card.parse(text)) == tl_id
    assert int(gd.Card.parse(text)) == gd_id


def test_separators_are_spaces_and_commas_in_both() -> None:
    assert tl.Cards.parse(" 3s,4c ,  5d ") == tl.Cards.parse("3s 4c 5d")
    assert gd.Cards.parse(" 3s,4c ,  5d ").ids == (4, 10, 15)


@pytest.mark.parametrize(("token", "reason"), [
    ("3x", "unknown suit 'x'"), ("11h", "unknown rank '11'"), ("10", "missing suit"),
    ("s", "missing rank"), ("3s4c", "unknown suit 's4c'"),
])
def test_both_decks_explain_a_bad_token_alike(token: str, reason: str) -> None:
    with pytest.raises(CardParseError) as tl_info:
        tl.Cards.parse(f"4c {token}")
    with pytest.raises(CardError) as gd_info:
        gd.Cards.parse(f"4c {token}")
    assert str(tl_info.value) == str(gd_info.value) == f"not a card: {token!r} ({reason})"
    assert tl_info.value.token == gd_info.value.token == token


def test_each_deck_keeps_its_own_cards() -> None:
    # Jokers exist only in the Guandan deck; a 2 is the top rank only in Tiến Lên.
    assert gd.Cards.parse("SJ ☆ bj").ids == (52, 52, 53)
    with pytest.raises(CardParseError, match="expected a rank"):
        tl.Cards.parse("SJ")
    assert tl.Card.parse("2s") > tl.Card.parse("As") and gd.Card.parse("2s") < gd.Card.parse("As")


@pytest.mark.parametrize("bad", [None, 5, b"3s"])
def test_non_text_is_refused_by_both(bad: object) -> None:
    with pytest.raises(CardParseError, match="expected a string of cards"):
        tl.Cards.parse(bad)  # type: ignore[arg-type]
    with pytest.raises(CardError, match="expected a string of cards"):
        gd.Cards.parse(bad)  # type: ignore[arg-type]
    with pytest.raises(CardParseError, match="expected a card as text"):
        tl.Card.parse(bad)  # type: ignore[arg-type]
    with pytest.raises(CardError, match="expected a card as text"):
        gd.Card.parse(bad)  # type: ignore[arg-type]
