"""The words of Tiến Lên's terminal game, in English, the one language its screens and
reasons are worded in: one table (:class:`Words`) that the one terminal session
(:mod:`tienlen.tui.session`) and the board (:mod:`tienlen.games.tienlen.board`) read, and
any other front end can (:meth:`tienlen.games.tienlen.spec.TienlenSpec.words`).

A sentence that names the person has its own form (``You lead`` beside ``Minh leads``):
:meth:`Words.says` picks it. Cards and seats inside a sentence are fields, filled by the
board (:func:`tienlen.table.board.fill`), never found in the text.

>>> WORDS["en"].says("ev_cleared", you=True).format(who="You")
'Everyone passed: the pile is cleared and You lead.'
>>> WORDS["en"].says("ev_cleared", you=False).format(who="Lan")
'Everyone passed: the pile is cleared and Lan leads.'
>>> refusal_text(ValueError("not a card: 'zz'"), "en")
"not a card: 'zz'"
"""

from __future__ import annotations

from dataclasses import dataclass

from tienlen.table.board import TableWords
from tienlen.table.errors import IllegalActionError
from tienlen.games.tienlen.refusals import IllegalMoveError

__all__ = ["Words", "WORDS", "EN", "LANGS", "words", "refusal_text"]

#: The languages Tiến Lên is worded in.
LANGS = ("en",)


@dataclass(frozen=True, kw_only=True, slots=True)
class Words(TableWords):
    """Every sentence Tiến Lên's terminal game says, in one language (the session's words
    included, :class:`~tienlen.table.board.TableWords`). A field ending in ``_you`` is the
    person's form of the field without it."""

    title: str
    replay_title: str
    hand_n: str
    seed_n: str
    rules_n: str
    #: The deals that win at once (R11.3), in a player's words: (the game's name, words).
    instant_wins: tuple[tuple[str, str], ...]
    ev_hand: str
    ev_instant: str
    ev_instant_you: str
    ev_must_include: str
    ev_must_include_you: str
    ev_won_leads: str
    ev_won_leads_you: str
    ev_leads: str
    ev_leads_you: str
    ev_pass: str
    ev_pass_you: str
    ev_lead: str
    ev_lead_you: str
    ev_play: str
    ev_play_you: str
    ev_out: str
    ev_out_you: str
    ev_cleared: str
    ev_cleared_you: str
    ev_over: str
    won_at_once: str
    left_holding: str
    penalties: str
    pays: str
    pays_you: str
    no_penalties: str
    turn: str
    turn_lead: str
    turn_must: str
    turn_any: str
    turn_locked_none: str
    turn_nothing: str
    turn_beat: str
    turn_help: str
    hint: str
    hint_pass: str
    hint_play: str
    hint_accept: str
    no_hints_engine: str
    empty_lead: str
    empty_beat: str
    moves_title: str
    card_parse: str
    no_cards: str
    replay_verified: str
    replay_seed: str
    replay_deal_seed: str
    replay_given: str
    replay_action: str
    replay_pass: str
    replay_lead: str
    replay_play: str
    replay_out: str
    seat_n: str
    not_valid: str
    cannot_read: str

    def says(self, field: str, *, you: bool) -> str:
        """The template ``field``, in the person's form when ``you``."""
        return str(getattr(self, f"{field}_you" if you else field))

    def refusal(self, error: ValueError) -> str:
        """A refusal in these words (:func:`refusal_text`)."""
        return refusal_text(error, self.lang)


#: The English words of Tiến Lên's boards and refusals (the game's one language so far).
EN = Words(
    lang="en",
    # the session's words
    prompt_move="Your move> ", quit_confirm="The hand is not over. Quit anyway?",
    eof="End of input: leaving the game.", thanks="Thanks for playing.",
    declined="Not played: type your own move.",
    no_to_decline="there is no suggestion to decline: type cards, or h for a hint",
    no_suggestion="there is no suggestion to accept: type h for a hint first",
    hints_off="hints are off for this game (--no-hints)",
    no_play="you have no legal play: pass (p)",
    no_move="there is no move #{n}: the moves are numbered 1-{count} (m lists them)",
    no_move_one="there is no move #{n}: there is one move, #1 (m lists them)",
    bad_pick="{text!r}: after # give the number of a move from the list (m shows it)",
    pick_shown="#{n} is {action}. Type y to play it, n not to, or m to see the list.",
    no_actions="No legal play: pass (p).", moves_more="... and {n} more (#N plays any of them)",
    or_pass="or p to pass", help_title="Commands", help_headers=("type", "to"),
    help_rows=(
        ("3s 4s 5h   10h   A♠", "play these cards (ranks 3-10 J Q K A 2, suits s c d h)"),
        ("1 2 3", "play the cards with these numbers (shown under your hand)"),
        ("p, pass", "pass: you are locked out until the pile clears (Enter passes when "
                    "nothing beats the pile)"),
        ("h, hint", "suggest a move and say why; then y plays it, n declines it"),
        ("m, moves", "list your legal plays, numbered"),
        ("#N", "play move N of that list (shown first if the list is not on screen)"),
        ("?, help", "this help"),
        ("q, quit", "leave the game (asks first during a hand)"),
    ),
    saved="Replay saved to {path} (tienlen replay {path})",
    save_failed="could not save the replay to {path}: {error}",
    next_hand="Enter: next hand, q: stop ", another_hand="Play another hand?",
    replay_stops="The replay stops before the end of the hand.",
    step="Enter: next, q: stop ",
    # the board's words
    title="Tiến Lên", replay_title="{title} replay", hand_n="hand {n}", seed_n="seed {n}",
    rules_n="rules {name}",
    instant_wins=(("four_twos", "four 2s"), ("dragon", "a dragon (3 to A)"),
                  ("six_pairs", "six pairs"), ("five_pairs", "five consecutive pairs")),
    ev_hand="Hand {n}: ",
    ev_instant="{who} wins at once with {how} (instant win, R11.3): {cards}",
    ev_instant_you="{who} win at once with {how} (instant win, R11.3): {cards}",
    ev_must_include="{who} holds {card} and leads, with a play that includes it.",
    ev_must_include_you="{who} hold {card} and lead, with a play that includes it.",
    ev_won_leads="{who} won hand {n} and leads.", ev_won_leads_you="{who} won hand {n} and lead.",
    ev_leads="{who} leads.", ev_leads_you="{who} lead.",
    ev_pass="{who} passes", ev_pass_you="{who} pass",
    ev_lead="{who} leads {combo}", ev_lead_you="{who} lead {combo}",
    ev_play="{who} plays {combo}", ev_play_you="{who} play {combo}",
    ev_out="{who} is out: {place} place.", ev_out_you="{who} are out: {place} place.",
    ev_cleared="Everyone passed: the pile is cleared and {who} leads.",
    ev_cleared_you="Everyone passed: the pile is cleared and {who} lead.",
    ev_over="The hand is over: {who} finished last.",
    won_at_once="{who} won at once (instant win, R11.3), +{points}; everyone else shares "
                "last place.",
    left_holding="{who} finished last, left holding {cards}",
    penalties="Penalties (R11.5):",
    pays="  {payer} pays {payee} {amount}: ", pays_you="  {payer} pay {payee} {amount}: ",
    no_penalties="  none this hand",
    turn="Your turn: ", turn_lead="you lead", turn_must=", and your play must include {card}",
    turn_any=": play any combination", turn_locked_none="; you hold none: pass (p or Enter)",
    turn_nothing="nothing you hold beats {pile}, so pass (p or Enter)",
    turn_beat="beat {pile} or pass", turn_help="Type cards or numbers; ? for help.",
    hint="Hint: ", hint_pass="pass", hint_play="play {cards}",
    hint_accept="Type y to play it, n (or your own move) to choose yourself.",
    no_hints_engine="hints are not available in this version",
    empty_lead="Enter does nothing on a lead: type cards or their numbers (m lists your "
               "plays, h suggests one).",
    empty_beat="Enter passes only when nothing beats the pile: type p to pass, or cards to "
               "beat it (m lists your plays, h suggests one).",
    moves_title="{n} legal play{s} (type #N to play one):",
    card_parse="{error}. Type ? for help.",
    no_cards="name at least one card, or type p to pass",
    replay_verified="{file}: all {n} actions verified against the rules.",
    replay_seed="seed {seed}, hand {hand}", replay_deal_seed="deal seed {seed}",
    replay_given="given hands", replay_action="action {i}/{n}",
    replay_pass="{number:>3}. {who} passes", replay_lead="{number:>3}. {who} leads {combo}",
    replay_play="{number:>3}. {who} plays {combo}", replay_out="  and is out, {place}",
    seat_n="Seat {n}", not_valid="{path} is not a valid replay: {error}",
    cannot_read="cannot read {path}: {error}",
)

#: Tiến Lên's words by language code.
WORDS: dict[str, Words] = {"en": EN}


def words(lang: str) -> Words:
    """The words in ``lang``: English, Tiến Lên's one language, for any other."""
    return WORDS.get(lang, EN)


def refusal_text(error: ValueError, lang: str = "en") -> str:
    """A refusal as a player reads it, in ``lang`` (English): the engine's own words for a
    rule (an :class:`~tienlen.games.tienlen.refusals.IllegalMoveError` reads as its
    message alone), the message of any other refusal. A screen that names seats words an
    ``IllegalMoveError`` from its fields itself (its ``wording``)."""
    if isinstance(error, IllegalMoveError):
        return str(error.wording)
    if isinstance(error, IllegalActionError):
        return error.message
    return str(error)
