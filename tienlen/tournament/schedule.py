"""Who plays whom: the entrants of a tournament and its matches.

An entrant is one of our bot levels (``L2``), or an outside agent given as a command:
``NAME=COMMAND`` speaks the Guandan AI platform's protocol (docs/platform.md), and
``NAME=ours:COMMAND`` speaks our protocol (docs/protocol.md). The command is run once per
seat the entrant holds in a match, with ``{url}`` (where to connect), ``{port}``, ``{seat}``
and ``{name}`` replaced.

A match is played by two entrants as the two teams of a four-seat table: in a *round robin*
every pair of entrants meets, in a *gauntlet* one entrant meets each of the others. Each
pairing plays the same boards: match ``k`` of a pairing is dealt from board ``k // 2``, the
first entrant in seats 0 and 2 when ``k`` is even and in seats 1 and 3 when it is odd, so
that the luck of a deal is played from both sides (duplicate).

>>> entrants = [parse_entrant(t) for t in ("L1", "L2", "mine=python agent.py {url}")]
>>> [(e.name, e.kind) for e in entrants]
[('L1', 'bot'), ('L2', 'bot'), ('mine', 'platform')]
>>> plan = schedule(3, matches=2)
>>> [(m.index, m.a, m.b, m.board, m.seats) for m in plan][:3]
[(0, 0, 1, 0, (0, 1, 0, 1)), (1, 0, 1, 0, (1, 0, 1, 0)), (2, 0, 2, 0, (0, 2, 0, 2))]
>>> len(plan), len(schedule(3, matches=2, gauntlet=2))
(6, 4)
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass

from tienlen.errors import TienlenError

__all__ = ["TournamentError", "Entrant", "Match", "parse_entrant", "schedule", "KINDS",
           "command_line"]

#: Entrant kinds: our bot level, an agent of the platform's protocol, one of ours.
KINDS = ("bot", "platform", "ours")
_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_.-]{0,31}")


class TournamentError(TienlenError):
    """A tournament that cannot be run as asked (entrants, schedule, results file)."""


@dataclass(frozen=True)
class Entrant:
    """One entrant: its ``name``, ``kind`` (:data:`KINDS`) and ``command`` (a bot's level,
    or the agent's command line with its ``{url}`` ... fields)."""

    name: str
    kind: str
    command: str

    def to_json(self) -> dict[str, str]:
        return {"name": self.name, "kind": self.kind, "command": self.command}


def parse_entrant(text: str) -> Entrant:
    """``L2`` (our bot), ``NAME=COMMAND`` (a platform agent) or ``NAME=ours:COMMAND``."""
    if not isinstance(text, str) or not text.strip():
        raise TournamentError("an entrant is a bot level (L2) or NAME=COMMAND")
    if "=" not in text:
        level = text.strip()
        if not _NAME.fullmatch(level):
            raise TournamentError(f"not a bot level: {level!r:.40}")
        return Entrant(level, "bot", level)
    name, command = (part.strip() for part in text.split("=", 1))
    if not _NAME.fullmatch(name):
        raise TournamentError(f"an agent's name is a letter, then letters, digits, . _ -: "
                              f"{name!r:.40}")
    kind = "platform"
    if command.startswith("ours:"):
        kind, command = "ours", command[len("ours:"):].strip()
    if not command:
        raise TournamentError(f"{name}: no command")
    try:
        shlex.split(command)
    except ValueError as error:
        raise TournamentError(f"{name}: the command does not parse ({error})") from None
    return Entrant(name, kind, command)


def command_line(entrant: Entrant, *, url: str, port: int, seat: int) -> list[str]:
    """The agent's command for one seat, its fields replaced (``{url}``, ``{port}``,
    ``{seat}``, ``{name}``; ``{{`` for a brace).

    >>> command_line(Entrant("me", "platform", "python a.py --port {port} --seat {seat}"),
    ...              url="ws://127.0.0.1:5/game/0", port=5, seat=2)
    ['python', 'a.py', '--port', '5', '--seat', '2']
    """
    try:
        text = entrant.command.format(url=url, port=port, seat=seat, name=entrant.name)
    except (KeyError, IndexError, ValueError) as error:
        raise TournamentError(f"{entrant.name}: the command has an unknown field {error} "
                              "(fields: {url} {port} {seat} {name})") from None
    return shlex.split(text)


@dataclass(frozen=True)
class Match:
    """Match ``index`` of the schedule: entrants ``a`` and ``b`` on ``board``; ``seats``
    names the entrant in each seat (``a`` in 0 and 2 when ``side`` is 0)."""

    index: int
    a: int
    b: int
    board: int
    side: int

    @property
    def seats(self) -> tuple[int, int, int, int]:
        first, second = (self.a, self.b) if self.side == 0 else (self.b, self.a)
        return (first, second, first, second)

    def team_of(self, entrant: int) -> int:
        """The team (0: seats 0 and 2) ``entrant`` plays for in this match."""
        return 0 if self.seats[0] == entrant else 1


def schedule(entrants: int, *, matches: int, gauntlet: int | None = None) -> list[Match]:
    """Every match: for each pairing (a round robin's every pair in order, or the
    gauntlet entrant against each other one), ``matches`` matches on boards 0, 0, 1, 1 ..."""
    if type(entrants) is not int or not 2 <= entrants <= 64:
        raise TournamentError(f"a tournament has 2..64 entrants; got {entrants!r:.20}")
    if type(matches) is not int or not 1 <= matches <= 100_000:
        raise TournamentError(f"--matches must be 1..100000; got {matches!r:.20}")
    if gauntlet is None:
        pairs: Sequence[tuple[int, int]] = [(a, b) for a in range(entrants)
                                            for b in range(a + 1, entrants)]
    else:
        if not 0 <= gauntlet < entrants:
            raise TournamentError("the gauntlet's entrant is not in the tournament")
        pairs = [(gauntlet, b) for b in range(entrants) if b != gauntlet]
    plan: list[Match] = []
    for a, b in pairs:
        for k in range(matches):
            plan.append(Match(len(plan), a, b, k // 2, k % 2))
    return plan
