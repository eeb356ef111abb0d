"""Guandan's cards and plays as the table protocol's data (the JSON a table sends and a
review's record holds), written once: the spec (:mod:`.spec`), the review (:mod:`.review`)
and the platform adapter read them from here."""

from __future__ import annotations

from typing import Any

from tienlen.games.guandan.cards import RANKS, Card, Cards
from tienlen.games.guandan.game import single_value
from tienlen.games.guandan.plays import Play
from tienlen.games.guandan.words import play_label

__all__ = ["card_names", "play_json", "sort_key"]

# Every card's ASCII name, by original_id.
_ASCII = tuple(Card(i).ascii() for i in range(54))


def _rank_text(rank: int) -> str:
    return RANKS[rank - 2] if rank <= 14 else ("SJ" if rank == 15 else "BJ")


def sort_key(card: int, level: int) -> tuple[int, int]:
    """A hand's display order: by single-card value (the level rank after A, jokers last),
    then suit."""
    return (single_value(card, level), card & 3 if card < 52 else 0)


def card_names(cards: Cards, level: int) -> list[str]:
    """The ASCII names of ``cards``, one per copy, in display order."""
    return [Card(c).ascii() for c in sorted(cards.ids, key=lambda c: sort_key(c, level))]


def play_json(play: Play) -> dict[str, Any]:
    """A play as data: its cards in the order players read them (a full house KKK22, the
    straight A2345: :meth:`Play.display_cards`), its reading (the core's code) and its
    names in both languages, the jokers named as the cards are (SJ BJ, 小王 大王), from the
    game's words (:func:`tienlen.games.guandan.words.play_label`).

    >>> from tienlen.guandan import classify
    >>> data = play_json(classify("2s 2d Ks Kh Kc", 5)[0])
    >>> data["cards"], data["label"], data["label_zh"]
    (['Ks', 'Kh', 'Kc', '2s', '2d'], 'full house of K', '三带二 K')
    """
    return {"kind": "play", "cards": [_ASCII[c] for c in play.display_ids()],
            "reading": play.code, "combo": play.kind.name.lower(),
            "label": play_label(play, "en", ascii=True), "label_zh": play_label(play, "zh"),
            "bomb": play.is_bomb}
