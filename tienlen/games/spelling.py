"""How card text is read: one tokenizer and card-name parser for both games' decks.

Each game keeps its own deck (rank order, suit order, jokers, card ids) and its own error
class; a :class:`Spelling` built from that deck's symbols turns text into card ids the same
way for both: ranks ``2``-``10``, ``T``, ``J``, ``Q``, ``K``, ``A`` and suits as letters or
symbols in any case (an emoji's VARIATION SELECTOR-16 is accepted after a suit), cards
separated by spaces and/or commas, and the same explanation of a token that is not a card.

>>> from tienlen.errors import CardParseError
>>> deck = Spelling(("3", "4", "10"), ("♠", "♥"), ("s", "h"), error=CardParseError,
...                 expected="a rank (3, 4, 10) then a suit (s h or ♠ ♥)")
>>> deck.ids("3s, 10♥️ th"), deck.names[5], deck.ascii_names[5]
([0, 5, 5], '10♥', '10h')
>>> deck.ids("3x")
Traceback (most recent call last):
...
tienlen.errors.CardParseError: not a card: '3x' (unknown suit 'x')
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

__all__ = ["Spelling"]

# Emoji renderings of the suits append VARIATION SELECTOR-16 ("♥️" is "♥" + U+FE0F).
_VS16 = "\ufe0f"


class Spelling:
    """The spellings of one deck: card ``rank_index * len(suits) + suit_index`` for the
    natural cards, then one id per joker after them.

    ``ranks``, ``suits`` and ``ascii_suits`` are the deck's symbols in id order; ``jokers``
    gives each joker's symbol and ASCII name; ``error(message, token)`` makes the deck's
    error (a ValueError subclass); ``expected`` says in words what a card looks like.
    """

    def __init__(self, ranks: Sequence[str], suits: Sequence[str], ascii_suits: Sequence[str],
                 jokers: Sequence[tuple[str, str]] = (), *,
                 error: Callable[..., ValueError], expected: str) -> None:
        nsuits = len(suits)
        natural = len(ranks) * nsuits
        self.names: tuple[str, ...] = tuple(
            ranks[i // nsuits] + suits[i % nsuits] for i in range(natural)
        ) + tuple(symbol for symbol, _ in jokers)
        self.ascii_names: tuple[str, ...] = tuple(
            ranks[i // nsuits] + ascii_suits[i % nsuits] for i in range(natural)
        ) + tuple(name for _, name in jokers)
        self._error = error
        self._expected = expected
        # Lower-cased spellings; lookups lower-case the token once, so any case is accepted.
        self._ranks: dict[str, int] = {r.lower(): i for i, r in enumerate(ranks)}
        if "10" in ranks:
            self._ranks["t"] = list(ranks).index("10")
        self._suits: dict[str, int] = {
            **{s: i for i, s in enumerate(ascii_suits)},
            **{s: i for i, s in enumerate(suits)},
        }
        # Every accepted token maps straight to its id, so the happy path is one lookup.
        self._tokens: dict[str, int] = {
            rank + suit + vs: r * nsuits + s
            for rank, r in self._ranks.items()
            for suit, s in self._suits.items()
            for vs in ("", _VS16)
        }
        for k, (symbol, name) in enumerate(jokers):
            self._tokens[symbol] = self._tokens[name.lower()] = natural + k

    def id(self, token: str) -> int:
        """The id of one token (no whitespace), or the deck's error explaining why not."""
        index = self._tokens.get(token.lower())
        if index is None:
            raise self._token_error(token)
        return index

    def tokens(self, text: object) -> list[str]:
        """The tokens of ``text``: split on whitespace and commas. Not text: the error."""
        if not isinstance(text, str):
            raise self._error(f"expected a string of cards, got {type(text).__name__}")
        return text.replace(",", " ").split()

    def ids(self, text: object) -> list[int]:
        """The id of every token of ``text``, in order (repeats kept: each deck decides
        how many copies a set may hold)."""
        return [self.id(token) for token in self.tokens(text)]

    def one(self, text: object) -> int:
        """The id of the one card ``text`` names (surrounding whitespace ignored)."""
        if not isinstance(text, str):
            raise self._error(f"expected a card as text, got {type(text).__name__}")
        token = text.strip()
        if not token or len(token.split()) != 1:
            raise self._error(f"expected exactly one card, got {text!r}", token)
        return self.id(token)

    def _token_error(self, token: str) -> ValueError:
        """Explain why ``token`` (already known to be invalid) is not a card."""
        low = token.lower().removesuffix(_VS16)
        # The longest rank spelling at the front ("10" before "1") tells where the suit starts.
        size = next((n for n in (2, 1) if low[:n] in self._ranks), 0)
        if size:
            reason = f"unknown suit {token[size:]!r}" if low[size:] else "missing suit"
        elif low[-1:] in self._suits:
            reason = f"unknown rank {token[: len(low) - 1]!r}" if len(low) > 1 else "missing rank"
        else:
            reason = f"expected {self._expected}"
        return self._error(f"not a card: {token!r} ({reason})", token)
