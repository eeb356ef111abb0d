"""``tienlen replay FILE``: a saved hand shown action by action, drawn like ``play``.

The file is read by :meth:`Game.from_json`, which checks every field and replays every
action through the rules; a corrupt or tampered file stops there with the engine's
:class:`~tienlen.games.tienlen.replay.ReplayError`. Only a file that replays cleanly is then shown, by
playing its recorded actions again on a fresh game.
"""

from __future__ import annotations

from pathlib import Path

from rich.text import Text

from tienlen.games.tienlen.game import Game
from tienlen.games.tienlen.match import score_hand
from tienlen.games.tienlen.rules import Rules
from tienlen.games.tienlen.refusals import Wording
from tienlen.games.tienlen.replay import ReplayError, ReplayLabels, read_replay_file, replay_labels
from tienlen.games.tienlen.board import (SeatInfo, Style, board, cards_text, combo_text, finishing_table, ordinal,
                     prose_text)
from .common import REPLAY_PAUSE as _REPLAY_PAUSE
from .terminal import Terminal

__all__ = ["load_replay", "replay_file", "REPLAY_PAUSE"]

#: Seconds between two actions on an interactive terminal without ``--step``.
REPLAY_PAUSE = _REPLAY_PAUSE


def load_replay(path: Path) -> tuple[Game, ReplayLabels]:
    """The game recorded in ``path``, every action verified, and the replay's labels.
    Raises ``ValueError`` (a :class:`ReplayError` for a bad replay) with the file's name in
    the message."""
    try:
        # At most MAX_REPLAY_BYTES are read: a huge file or /dev/zero is a ReplayError.
        text = read_replay_file(path)
    except OSError as error:
        raise ValueError(f"cannot read {path}: {error.strerror or error}") from None
    try:
        return Game.from_json(text), replay_labels(text)
    except ReplayError as error:
        raise ReplayError(f"{path} is not a valid replay: {error}") from None


def _fresh(recorded: Game) -> Game:
    """The recorded game before its first action: same deal, rules and leader."""
    if recorded.seed is not None:
        return Game(recorded.players, seed=recorded.seed, rules=recorded.rules,
                    leader=recorded.leader)
    return Game.from_hands(recorded.initial_hands, rules=recorded.rules,
                           leader=recorded.leader)


def replay_file(terminal: Terminal, path: Path, *, style: Style, step: bool = False,
                fast: bool = False) -> int:
    """Verify ``path``, then show it action by action; the exit status."""
    recorded, labels = load_replay(path)
    game = _fresh(recorded)
    names = labels.names or tuple(f"Seat {seat}" for seat in range(game.players))
    seats = [SeatInfo(name) for name in names]
    history = recorded.history
    sep = "-" if style.ascii else "·"
    if labels.match_seed is not None:
        # The seed the user typed: tienlen play --seed S deals this hand as hand n.
        seed = f"seed {labels.match_seed}, hand {labels.hand}"
    elif recorded.seed is not None:
        seed = f"deal seed {recorded.seed}"
    else:
        seed = "given hands"
    log: list[Text] = []

    def show(number: int) -> None:
        title = (f"{style.title} replay {sep} {path.name} {sep} {seed} {sep} "
                 f"action {number}/{len(history)}")
        if game.rules != Rules():
            title += f" {sep} rules {game.rules.name}"
        # Everything is public in a replay: every hand is shown, and the seat about to
        # act (last place, at the end; the winner of an instant win) gets the large hand.
        focus = game.turn if game.turn is not None else game.loser
        if focus is None or game.instant_win is not None:
            focus = game.finished[0]
        screen = board(game.view(focus), seats, style, title=title, hands=game.hands,
                       focus=focus, events=log[-6:] if terminal.interactive else ())
        terminal.redraw(screen)

    verified = Text(f"{path.name}: all {len(history)} actions verified against the rules.",
                    style="green")
    terminal.print(verified)
    show(0)
    for number, recorded_action in enumerate(history, start=1):
        if step and not terminal.wait_for_enter():
            return 0
        if not step:
            terminal.pause(0 if fast else REPLAY_PAUSE)
        had_pile = game.pile is not None
        action = game.act(recorded_action.move, seat=recorded_action.seat)
        name = seats[action.seat].name
        line = Text(f"{number:>3}. {name} ")
        if action.combo is None:
            line.append("passes", style="italic")
        else:
            line.append("plays " if had_pile else "leads ")
            line.append_text(combo_text(action.combo, style))
        if action.cards is not None and action.seat in game.finished:
            line.append(f"  and is out, {ordinal(game.finished.index(action.seat) + 1)}",
                        style="green")
        log.append(line)
        if not terminal.interactive:
            terminal.print(line)
        if terminal.interactive or number == len(history):
            show(number)

    terminal.print()
    if game.is_over:
        score = score_hand(game)
        if score.instant_win:
            terminal.print(Text(f"{seats[game.finished[0]].name} won at once (instant win, "
                                "R11.3); everyone else shares last place.", style="bold"))
        else:
            terminal.print(finishing_table(game.finished, seats, style))
        for seat, place in enumerate(score.places):
            if place == game.players:
                end = Text(f"{seats[seat].name} finished last, left holding ", style="bold")
                end.append_text(cards_text(game.hand(seat), style))
                terminal.print(end)
        if game.rules.penalties is not None:
            terminal.print(Text("Penalties (R11.5):", style="bold"))
            for payment in score.payments:
                terminal.print(prose_text(Wording.concat(
                    f"  {seats[payment.payer].name} pays {seats[payment.payee].name} "
                    f"{payment.amount}: ", payment.detail), style))
            if not score.payments:
                terminal.print(Text("  none this hand", style="dim"))
    else:
        terminal.print(Text("The replay stops before the end of the hand.", style="yellow"))
    return 0
