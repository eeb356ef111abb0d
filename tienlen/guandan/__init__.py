"""Guandan (掼蛋): cards, rule options, plays, beating and legal plays (GUANDAN.md G1-G4).

Tiến Lên stays the package's default game; Guandan lives here and is imported on demand
(``import tienlen`` does not load it). Every rule is decided by the native core
:mod:`tienlen.games.guandan.core`; this package gives it noun-like Python values.

>>> from tienlen.guandan import Cards, classify, legal_plays, count_legal_plays
>>> hand = Cards.parse("5s 6s 7s 8s 9s 9h")           # level 9: the 9♥ is wild
>>> [p.describe() for p in classify("5s 6s 7s 8s 9h", 9)]
['straight 4-8', 'straight 5-9', 'straight flush 4-8', 'straight flush 5-9']
>>> count_legal_plays(hand, 9)    # 6 singles, 5 pairs (x + W), 8 straights, 8 straight flushes
27
"""

from . import core
from tienlen.games.guandan.cards import Card, Cards, deal
from tienlen.games.guandan.rules import BombOrder, RuleConfig, TeamFormation
from tienlen.games.guandan.errors import CardError, GuandanError, PlayError
from tienlen.games.guandan.plays import Kind, Play, beats, classify, count_legal_plays, legal_plays
# The game layer (issue 17): one hand, a match to A.
from tienlen.games.guandan.game import Action, Game, GameView, IllegalActionError, Tribute
from tienlen.games.guandan.match import HandResult, Match, ReplayError

__all__ = [
    "Action",
    "Game",
    "GameView",
    "HandResult",
    "IllegalActionError",
    "Match",
    "ReplayError",
    "Tribute",
    "BombOrder",
    "Card",
    "CardError",
    "Cards",
    "GuandanError",
    "Kind",
    "Play",
    "PlayError",
    "RuleConfig",
    "TeamFormation",
    "beats",
    "classify",
    "core",
    "count_legal_plays",
    "deal",
    "legal_plays",
]
