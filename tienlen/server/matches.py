"""One tournament match, played on a server of ours: the table, the agents' processes, the
time limit and the stated rule for an agent that fails (docs/tournament.md).

- Platform agents (:mod:`tienlen.tournament.schedule`, kind ``platform``) play on the
  game's platform adapter (found through its spec: ``platform``), served on a port of its
  own for the match; the agents are started one by one in seat order, each when the one
  before has connected (the platform seats by connection order).
- Agents of our protocol (kind ``ours``) and our bots play a table of the match's
  :class:`~tienlen.server.tables.Hub`, served on one port for the whole run.

**The rule for a failing agent**: an agent that does not connect within the connect time,
exits or disconnects, or does not answer a decision validly within the decision time
limit, is *gone*: its process is stopped and L1 plays its seat for the rest of the match.
With ``on_failure="forfeit"`` (the default) the match is then lost by the failing agent's
entrant (a draw if both entrants failed); with ``"replace"`` it counts as played. Either
way the row records which seats failed, and the run goes on.

Everything is bounded: each decision by the time limit, each match by the game's hand cap,
each agent's start by the connect time; processes are stopped (SIGTERM, then SIGKILL) when
their match ends, however it ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import import_module
from pathlib import Path
from typing import Any

from tienlen.seeds import mix
from tienlen.table import bot_seed, get_spec
from tienlen.tournament.files import ROW_DEFAULTS
from tienlen.tournament.schedule import Entrant, Match, TournamentError, command_line

__all__ = ["MatchJob", "play_match", "play_match_blocking", "run_matches", "board_seed",
           "ON_FAILURE"]

#: What a failing agent's match counts as (see the module).
ON_FAILURE = ("forfeit", "replace")


def board_seed(seed: int, board: int) -> int:
    """The seed of board ``board``: every pairing plays the same boards.

    >>> board_seed(0, 1) == board_seed(0, 1) != board_seed(0, 2)
    True
    """
    return mix(seed, 0xB0A2D, board)


@dataclass(frozen=True)
class MatchJob:
    """Everything one match needs (it travels to a Dask worker as it is)."""

    match: Match
    entrants: tuple[Entrant, ...]
    game: str
    seed: int
    max_hands: int | None = None
    decision_timeout: float = 10.0
    connect_timeout: float = 30.0
    on_failure: str = "forfeit"
    logs: str | None = None

    @property
    def seats(self) -> list[Entrant]:
        return [self.entrants[e] for e in self.match.seats]


@dataclass
class _Agents:
    """The processes of one match's agents, stopped however the match ends."""

    job: MatchJob
    procs: dict[int, asyncio.subprocess.Process] = field(default_factory=dict)

    async def start(self, seat: int, entrant: Entrant, url: str, port: int) -> None:
        argv = command_line(entrant, url=url, port=port, seat=seat)
        out: Any = subprocess.DEVNULL
        if self.job.logs:
            name = f"match{self.job.match.index:05d}-seat{seat}-{entrant.name}.log"
            out = open(Path(self.job.logs) / name, "ab")  # noqa: SIM115 (closed below)
        try:
            self.procs[seat] = await asyncio.create_subprocess_exec(
                *argv, stdin=subprocess.DEVNULL, stdout=out, stderr=out,
                start_new_session=True)
        except OSError as error:
            raise TournamentError(f"{entrant.name}: cannot start {argv[0]!r}: "
                                  f"{error.strerror or error}") from None
        finally:
            if out is not subprocess.DEVNULL:
                out.close()

    def exited(self, seat: int) -> bool:
        proc = self.procs.get(seat)
        return proc is not None and proc.returncode is not None

    async def stop(self, seat: int | None = None) -> None:
        seats = list(self.procs) if seat is None else [seat]
        procs = [self.procs[s] for s in seats if s in self.procs]
        for proc in procs:
            if proc.returncode is None:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(proc.pid, signal.SIGTERM)
        for proc in procs:
            try:
                await asyncio.wait_for(proc.wait(), 3)
            except asyncio.TimeoutError:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(proc.pid, signal.SIGKILL)
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(proc.wait(), 3)


def _row(job: MatchJob, team_won: int | None, hands: int, hands_won: list[int],
         failed: set[int], seconds: float) -> dict[str, Any]:
    """The match's row, the failure rule applied."""
    m = job.match
    forfeit = 0
    if failed and job.on_failure == "forfeit":
        teams = {seat % 2 for seat in failed}
        forfeit = 1
        team_won = None if len(teams) == 2 else 1 - teams.pop()
    winner = -1 if team_won is None else m.seats[team_won]
    return dict(ROW_DEFAULTS, match=m.index, a=m.a, b=m.b, board=m.board, side=m.side,
                winner=winner, team_won=-1 if team_won is None else team_won, hands=hands,
                hands_a=hands_won[m.team_of(m.a)], hands_b=hands_won[m.team_of(m.b)],
                failed=sum(1 << s for s in failed), forfeit=forfeit, seconds=round(seconds, 3))


async def _play_platform(job: MatchJob, log: Callable[[str], None]) -> dict[str, Any]:
    from tienlen.table.decode import PLATFORM_FRAME

    from .limits import ConnectionLimits, uvicorn_config
    from .run import bind, platform_spec

    import uvicorn

    spec = platform_spec()
    if spec.name != job.game:
        raise TournamentError(f"platform agents play {spec.name}, not {job.game}")
    codec = import_module(spec.platform)
    kinds = ["agent" if e.kind == "platform" else e.command for e in job.seats]
    lines: list[str] = []
    runner = codec.PlatformRunner(1, kinds, seed=board_seed(job.seed, job.match.board),
                                  log=lines.append, decision_timeout=job.decision_timeout,
                                  **({} if job.max_hands is None else {"max_hands": job.max_hands}))
    sock = bind("127.0.0.1", 0)
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn_config(
        codec.platform_app(runner), host="127.0.0.1", port=port,
        limits=ConnectionLimits(per_client=16), ws_max_size=PLATFORM_FRAME.max_bytes,
        ws_ping_interval=None, ws_ping_timeout=None))
    agents = _Agents(job)
    t0 = time.monotonic()
    serving = asyncio.get_running_loop().create_task(server.serve(sockets=[sock]))
    playing: asyncio.Task[None] | None = None
    try:
        while not server.started:
            if serving.done():
                serving.result()
                raise TournamentError("the match's server did not start")
            await asyncio.sleep(0.01)
        playing = asyncio.get_running_loop().create_task(runner.play())
        for seat, entrant in enumerate(job.seats):
            if entrant.kind != "platform":
                continue
            url = f"ws://127.0.0.1:{port}/game/seat{seat}"
            await agents.start(seat, entrant, url, port)
            deadline = time.monotonic() + job.connect_timeout
            while seat not in runner.agents:
                if agents.exited(seat) or time.monotonic() > deadline:
                    runner.abandon(seat)
                    await agents.stop(seat)
                    break
                await asyncio.sleep(0.02)
        while not playing.done():
            for seat in list(agents.procs):
                agent = runner.agents.get(seat)
                if agent is not None and agent.gone and not agents.exited(seat):
                    await agents.stop(seat)            # gone for the match: stopped
            await asyncio.sleep(0.05)
        playing.result()
    finally:
        if playing is not None and not playing.done():
            playing.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await playing
        await agents.stop()
        server.should_exit = True
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await asyncio.wait_for(serving, 10)
        sock.close()
    for line in lines:
        if "L1 plays" in line or "did not answer" in line:
            log(f"match {job.match.index}: {line}")
    record = runner.records[0]
    failed = set(record["gone"])
    return _row(job, record["winner"], record["hands"], record["hands_won"], failed,
                time.monotonic() - t0)


async def _play_table(job: MatchJob, hub: Any, base: str | None,
                      log: Callable[[str], None]) -> dict[str, Any]:
    """A match at a table of ``hub`` (agents of our protocol join it at ``base``)."""
    from tienlen.client import seat_url

    from .tables import TableError

    seats = ["remote" if e.kind == "ours" else e.command for e in job.seats]
    options = None if job.max_hands is None else {"max_hands": job.max_hands}
    try:
        table, tokens = hub.create(job.game, seats, seed=board_seed(job.seed, job.match.board),
                                   options=options, client="tournament",
                                   settings={"turn_timeout": job.decision_timeout,
                                             "fallback": "wait"})
    except TableError as error:
        raise TournamentError(f"match {job.match.index}: {error.message}") from None
    spec = get_spec(job.game)
    agents = _Agents(job)
    failed: set[int] = set()
    t0 = time.monotonic()

    def replace(seat: int, why: str) -> None:
        if seat in failed:
            return
        failed.add(seat)
        table.seats[seat].bot = spec.make_bot("L1", bot_seed(job.seed, seat, 0xFA11))
        table.poke()
        log(f"match {job.match.index}: seat {seat} ({job.seats[seat].name}) {why}: "
            "L1 plays it for the rest of the match")

    try:
        for seat, entrant in enumerate(job.seats):
            if entrant.kind == "ours":
                assert base is not None
                url = seat_url(base, table.id, tokens[seat])
                await agents.start(seat, entrant, url, int(base.rsplit(":", 1)[1]))
        deadline = time.monotonic() + job.connect_timeout
        for seat in agents.procs:
            while not table.seats[seat].ever_joined:
                if agents.exited(seat) or time.monotonic() > deadline:
                    replace(seat, "did not connect in time")
                    break
                await asyncio.sleep(0.02)
        table.settings["fallback"] = "L1"
        table.poke()
        while not table.state.is_over:
            for seat in agents.procs:
                if seat in failed:
                    continue
                if table.fallback_moves.get(seat):
                    replace(seat, f"did not answer within {job.decision_timeout:g} s")
                elif agents.exited(seat) or (table.seats[seat].conn is None
                                             and table.seats[seat].ever_joined):
                    replace(seat, "went away")
            for seat in failed:
                if not agents.exited(seat):
                    await agents.stop(seat)
            await asyncio.sleep(0.05)
    finally:
        await agents.stop()
        hub.tables.pop(table.id, None)
        await table.stop()
    outcome = table.state.outcome() or {}
    results = table.results
    team_won = outcome.get("match_winner")
    if team_won not in (0, 1):
        team_won = None
    hands_won = [0, 0]
    for result in results:
        first = result.get("winner_team", result.get("places", [0])[0] % 2)
        if first in (0, 1):
            hands_won[first] += 1
    return _row(job, team_won, len(results), hands_won, failed, time.monotonic() - t0)


async def play_match(job: MatchJob, *, hub: Any = None, base: str | None = None,
                     log: Callable[[str], None] = lambda text: None) -> dict[str, Any]:
    """Play ``job``'s match; its row (:data:`tienlen.tournament.files.ROW_FIELDS`). Agents
    of our protocol need ``hub`` served at ``base``; without them a hub of its own is
    made (and served if an agent needs it)."""
    kinds = {e.kind for e in job.seats}
    if "platform" in kinds and "ours" in kinds:
        raise TournamentError("a match's agents speak one protocol")
    if "platform" in kinds:
        return await _play_platform(job, log)
    if hub is not None:
        return await _play_table(job, hub, base, log)
    async with serving_hub(needs_port="ours" in kinds) as (own, own_base):
        return await _play_table(job, own, own_base, log)


def play_match_blocking(job: MatchJob) -> dict[str, Any]:
    """:func:`play_match` in a loop of its own (a Dask worker's task)."""
    return asyncio.run(play_match(job))


@contextlib.asynccontextmanager
async def serving_hub(*, needs_port: bool, parallel: int = 1):  # type: ignore[no-untyped-def]
    """A hub for tournament tables (bots alone admitted up to ``parallel``), served on a
    loopback port when agents must reach it; yields ``(hub, base URL or None)``."""
    from .app import create_app
    from .limits import ConnectionLimits, uvicorn_config
    from .run import bind
    from .tables import Hub, ServerConfig

    import uvicorn

    hub = Hub(ServerConfig(turn_timeout=10.0, bot_delay=0.0, reconnect_grace=1.0,
                           bot_tables=parallel + 1, tables_per_client=parallel + 4,
                           table_rate=1000.0, table_burst=1000.0, unjoined_ttl=3600.0))
    if not needs_port:
        try:
            yield hub, None
        finally:
            await hub.close()
        return
    sock = bind("127.0.0.1", 0)
    port = sock.getsockname()[1]
    server = uvicorn.Server(uvicorn_config(create_app(hub), host="127.0.0.1", port=port,
                                           limits=ConnectionLimits(), ws_max_size=16 * 1024,
                                           lifespan="on"))
    serving = asyncio.get_running_loop().create_task(server.serve(sockets=[sock]))
    try:
        while not server.started:
            if serving.done():
                serving.result()
                raise TournamentError("the tournament's server did not start")
            await asyncio.sleep(0.01)
        yield hub, f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await asyncio.wait_for(serving, 10)
        await hub.close()
        sock.close()


async def run_matches(jobs: list[MatchJob], *, parallel: int,
                      on_row: Callable[[dict[str, Any]], None],
                      log: Callable[[str], None] = lambda text: None) -> None:
    """Play ``jobs``, ``parallel`` at a time, in this process; ``on_row`` each row as its
    match ends. Cancelled (Ctrl-C), the matches under way stop their agents and write
    nothing."""
    needs_port = any(e.kind == "ours" for job in jobs for e in job.seats)
    async with serving_hub(needs_port=needs_port, parallel=parallel) as (hub, base):
        gate = asyncio.Semaphore(parallel)

        async def one(job: MatchJob) -> None:
            async with gate:
                row = await play_match(job, hub=hub, base=base, log=log)
            on_row(row)

        tasks = [asyncio.ensure_future(one(job)) for job in jobs]
        try:
            for done in asyncio.as_completed(tasks):
                await done
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
