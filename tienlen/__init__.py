"""tienlen: a fast, correct Tiến Lên (Thirteen) engine.

>>> import tienlen
>>> hand = tienlen.Cards.parse("3s 4s 5s 5h 6d 7c")
>>> len(tienlen.legal_moves(hand))
19
>>> str(tienlen.classify(tienlen.Cards.parse("5h 6d 7c")).top)
'7♣'
"""

from tienlen import core
from tienlen.cards import Card, Cards, parse_cards
from tienlen.combos import Combo, Kind, beats, classify, count_legal_moves, legal_moves
from tienlen.errors import CardParseError, ComboError, TienlenError
from tienlen.game import PASS, Action, Game, LegalMoves
from tienlen.hints import Hint, hint
from tienlen.match import Match
from tienlen.reasons import IllegalMoveError, Reason
from tienlen.replay import ReplayError
from tienlen.rules import Rules
from tienlen.solver import Solution, SolveError, Value, solve
from tienlen.view import View

__version__ = "0.1.0"

__all__ = [
    "PASS",
    "Action",
    "Game",
    "Hint",
    "IllegalMoveError",
    "LegalMoves",
    "Match",
    "Reason",
    "ReplayError",
    "View",
    "Card",
    "CardParseError",
    "Cards",
    "Combo",
    "ComboError",
    "Kind",
    "Rules",
    "Solution",
    "SolveError",
    "Value",
    "TienlenError",
    "__version__",
    "beats",
    "classify",
    "core",
    "count_legal_moves",
    "hint",
    "legal_moves",
    "parse_cards",
    "solve",
]
