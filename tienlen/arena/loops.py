"""The games' loops in the arena: what a game gives the arena (its spec's ``arena``
attribute), how the arena finds it, and the loop of a game that gives none.

A game keeps only its per-game loop: one game of one deal (a seat rotation, or a team
seating) between bots, played through its own ``Game`` or ``Match`` as fast as it can be,
writing the game's numbers where the engine says. Everything else, the seatings, the deal
and unit bookkeeping, progress, Ctrl-C, workers, statistics and files, is the arena's,
written once. The arena never imports a game: it asks the registry for the spec
(:func:`tienlen.table.get_spec`) and the spec for its loop, imported on first use.

A game whose spec has no ``arena`` is played through the table protocol
(:class:`TableLoop`: each deal a match from the spec, every seat rotation), so that a new
game gets the arena, ``tienlen sim``, results files and Dask without writing a loop.

>>> loop_of("tienlen").seating, loop_of("guandan").seating
('rotations', 'teams')
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

import numpy as np

from tienlen.arena.engine import Pace
from tienlen.arena.seatings import ROTATIONS, TEAMS, TeamUnit
from tienlen.seeds import mix

__all__ = ["GameLoop", "RotationLoop", "TeamLoop", "TableLoop", "loop_of", "title_of"]


class GameLoop(Protocol):
    """What every game's loop declares (a game's ``spec.arena``; its own module defines
    it and imports nothing of the arena's)."""

    @property
    def seating(self) -> str:
        """:data:`~tienlen.arena.seatings.ROTATIONS` or :data:`~tienlen.arena.seatings.TEAMS`."""

    @property
    def max_games(self) -> int:
        """The most games one run may play."""

    def entry_name(self, entry: Any) -> str:
        """The name of a lineup entry (a level name, or a factory of the game's bots) in
        results: its bot's name, or for a team its partners'. Raises ValueError for an entry
        that makes no bot."""

    def label(self, entry: Any) -> str:
        """The entry as stable text in a results file's header (a level name, or a
        factory's qualified name and arguments; never an object's address)."""

    def rules(self, value: Any) -> Any:
        """The rules a run plays under: ``value`` checked (None: the game's default). A
        game without rules of its own takes only None. Raises ValueError."""

    def rules_to_json(self, rules: Any) -> Any:
        """The rules as a results file's header holds them."""

    def rules_from_json(self, value: Any) -> Any:
        """The rules from a results file's header. Raises ValueError."""

    def rules_note(self, rules: Any) -> str | None:
        """A line ``tienlen sim`` prints about the rules played, or None (the default)."""


class RotationLoop(GameLoop, Protocol):
    """A game played in every seat rotation (:class:`~tienlen.arena.seatings.Rotations`)."""

    def check_players(self, players: object) -> int:
        """``players`` if the game is played by that many; else ValueError saying so."""

    def play_rotation(self, work: Any, deal: int, rotation: int, pace: Pace | None,
                      places: np.ndarray, decisions: np.ndarray, seconds: np.ndarray) -> None:
        """Play game ``rotation`` of ``deal`` of ``work`` (a
        :class:`tienlen.arena.runs.RotationWork`: its ``lineup``, ``players``, ``seed``,
        ``rules`` and ``seating``), writing each lineup entry's finishing place, decisions
        and seconds spent deciding at its index. After each decision, ``if pace is not
        None and pace.due(now): pace.poll(now)`` (which raises to stop the run). A bot that
        raises or makes an illegal action is ``work.bot_raised(...)`` /
        ``work.illegal(...)``, raised."""


class TeamLoop(GameLoop, Protocol):
    """A game of two teams played in both team seatings
    (:class:`~tienlen.arena.seatings.TeamSeatings`)."""

    @property
    def schema(self) -> str:
        """The schema of its results files (a team file names its game's rows)."""

    @property
    def default_hand_cap(self) -> int:
        """The hand cap of a match when a run gives none."""

    @property
    def max_hand_cap(self) -> int:
        """The largest hand cap a run may give."""

    @property
    def max_gain(self) -> int:
        """The most levels one won hand can gain under any of its rules."""

    def play_seating(self, work: Any, board: int, seating: int, pace: Pace | None,
                     unit: TeamUnit, i: int) -> None:
        """Play seating ``seating`` of ``board`` of ``work`` (a
        :class:`tienlen.arena.runs.TeamWork`: its ``teams``, ``mode``, ``seed``,
        ``hand_cap``, ``rules`` and ``seating``), writing the game's numbers at
        ``[i, seating]`` of ``unit``'s arrays; the pace and the errors as for
        :meth:`RotationLoop.play_rotation`."""


def loop_of(game: str) -> RotationLoop | TeamLoop:
    """The loop of the registered ``game``: its spec's own, else :class:`TableLoop`.
    Raises :class:`tienlen.table.registry.UnknownGameError` for a name not registered."""
    from tienlen.table.registry import get_spec

    own = getattr(get_spec(game), "arena", None)
    if own is None:
        return TableLoop(game)
    if getattr(own, "seating", None) not in (ROTATIONS, TEAMS):
        raise ValueError(f"{game}'s arena loop seats {getattr(own, 'seating', None)!r:.40}, "
                         f"not {ROTATIONS!r} or {TEAMS!r}")
    loop: RotationLoop | TeamLoop = own
    return loop


def title_of(game: str) -> str:
    """The game's name as players write it (its spec's ``title``, else its name)."""
    from tienlen.table.registry import get_spec

    return str(getattr(get_spec(game), "title", game))


# --- a game with no loop of its own: the table protocol --------------------------------------


@dataclass(frozen=True, slots=True)
class TableLoop:
    """Any registered game (``game``) in every seat rotation, through the table protocol:
    each deal is a match with the spec's default options, from ``new_match(deal seed)``,
    and its places are the last ``outcome()``'s. ``lineup`` entries are the spec's bot
    levels. Slower than a game's own loop (actions travel as dicts); what a game gains by a
    loop of its own is in bench/README.md."""

    game: str
    seating: ClassVar[str] = ROTATIONS
    max_games: ClassVar[int] = 10_000_000

    def check_players(self, players: object) -> int:
        from tienlen.table.registry import get_spec

        spec = get_spec(self.game)
        counts = tuple(spec.player_counts)
        if not isinstance(players, int) or players not in counts:
            raise ValueError(f"{getattr(spec, 'title', self.game)} is played by "
                             f"{', '.join(map(str, counts))}; got players={players!r:.20}")
        return players

    def entry_name(self, entry: Any) -> str:
        from tienlen.table.registry import get_spec

        if not isinstance(entry, str):
            raise ValueError(f"a lineup entry of {self.game} is one of its bot levels; "
                             f"got {entry!r:.40}")
        return str(get_spec(self.game).make_bot(entry, 0).name)

    def label(self, entry: Any) -> str:
        return str(entry)

    def rules(self, value: Any) -> Any:
        if value is not None:
            raise ValueError(f"{self.game} has no rules to choose; got rules={value!r:.40}")
        return None

    def rules_to_json(self, rules: Any) -> Any:
        return None

    def rules_from_json(self, value: Any) -> Any:
        if value is not None:
            raise ValueError(f"rules must be null for {self.game}; got {value!r:.40}")
        return None

    def rules_note(self, rules: Any) -> str | None:
        return None

    def play_rotation(self, work: Any, deal: int, rotation: int, pace: Pace | None,
                      places: np.ndarray, decisions: np.ndarray, seconds: np.ndarray) -> None:
        from tienlen.table.registry import get_spec

        spec = get_spec(self.game)
        entry_at: Sequence[int] = work.seating.entry_at(rotation)
        seed, lineup = work.seed, work.lineup
        bots = [spec.make_bot(lineup[e], work.seating.bot_seed(seed, deal, rotation, e))
                for e in entry_at]
        state = spec.new_match(mix(seed, 0xDEA1, deal), players=work.players)
        clock = time.perf_counter
        where = f"deal {deal}, rotation {rotation}"
        while not state.is_over:
            seat = state.turn
            if seat is None:
                state.next_hand()
                continue
            e = entry_at[seat]
            t0 = clock()
            try:
                action = bots[seat].act(state.bot_view(seat))
            except Exception as error:
                raise work.bot_raised(bots[seat].name, seat, where, error) from error
            t1 = clock()
            seconds[e] += t1 - t0
            decisions[e] += 1
            try:
                state.apply(action, seat)
            except ValueError as error:
                raise work.illegal(bots[seat].name, seat, where, repr(action), error) from error
            if pace is not None and pace.due(t1):
                pace.poll(t1)
        outcome = state.outcome()
        assert outcome is not None
        for seat, place in enumerate(outcome["places"]):
            places[entry_at[seat]] = place
