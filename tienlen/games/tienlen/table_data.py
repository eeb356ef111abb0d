"""Tiến Lên's cards and plays as the table protocol's data (the JSON a table sends and a
review's record holds), written once: the spec (:mod:`.spec`) and the review (:mod:`.review`)
read them from here."""

from __future__ import annotations

from typing import Any

from tienlen.games.tienlen.cards import Cards
from tienlen.games.tienlen.plays import Combo

__all__ = ["card_names", "combo_json"]


def card_names(cards: Cards) -> list[str]:
    """The ASCII names of ``cards`` (``"10h"``), lowest first."""
    return [c.ascii() for c in cards]


def combo_json(cards: Cards, combo: Combo | None) -> dict[str, Any]:
    """A play as data: its cards in the order players read them (:meth:`Combo.display_cards`,
    the order the terminal and the logs show too), and when it is a combination its kind and
    label, in English and in Chinese (``label_zh``).

    >>> from tienlen.games.tienlen.plays import classify
    >>> combo_json(Cards.parse("3s 3h"), classify(Cards.parse("3s 3h")))["combo"]
    'pair'
    """
    shown = card_names(cards) if combo is None else [c.ascii() for c in combo.display_cards()]
    out: dict[str, Any] = {"kind": "play", "cards": shown}
    if combo is not None:
        from tienlen.games.tienlen.words import describe

        out["combo"] = combo.kind.name.lower()
        out["label"] = combo.describe()
        out["label_zh"] = describe(combo, "zh")     # the room's Chinese (Guandan's key too)
    return out
