"""``tienlen serve``: start uvicorn on the app (or a game's platform adapter, ``--platform``).

The listening socket is bound here, before anything is printed: a port in use or out of
range is one clear line, and ``--port 0`` prints the port the system gave. A game that
speaks an outside platform's protocol says so in its spec (``platform``: the module of its
adapter), so this module names no game.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import errno
import ipaddress
import os
import socket
import sys
import webbrowser
from collections.abc import Iterator
from typing import Any

__all__ = ["add_serve", "run_serve", "run_platform", "is_loopback", "port_type", "bind",
           "shown_url", "browser_note", "platform_spec", "serve_app"]


def is_loopback(host: str) -> bool:
    """Whether ``host`` names this machine only.

    >>> is_loopback("127.0.0.1"), is_loopback("localhost"), is_loopback("0.0.0.0")
    (True, True, False)
    >>> is_loopback("127.0.0.2"), is_loopback("::1")
    (True, True)
    """
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def port_type(text: str) -> int:
    """An argparse type: a TCP port 0..65535 (0: any free port).

    >>> port_type("8765"), port_type("0")
    (8765, 0)
    >>> port_type("70000")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: a port is 0..65535 (0: any free port); got 70000
    """
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a port number: {text!r:.40}") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"a port is 0..65535 (0: any free port); got {value}")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r:.40}") from None
    if not 0 <= value <= 3600:
        raise argparse.ArgumentTypeError("give seconds 0..3600")
    return value


def _count(top: int) -> Any:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not an integer: {text!r:.40}") from None
        if not 1 <= value <= top:
            raise argparse.ArgumentTypeError(f"must be 1..{top}; got {value}")
        return value
    return parse


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host``:``port``; a refusal is a ``ValueError`` in one
    line (a port in use, an address this machine does not have)."""
    try:
        infos = socket.getaddrinfo(host.strip("[]"), port, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
    except socket.gaierror as error:
        raise ValueError(f"--host {host}: not an address of this machine ({error.strerror})") from None
    family, _, _, _, address = infos[0]
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        sock.bind(address)
        sock.listen(2048)
    except OSError as error:
        sock.close()
        if error.errno == errno.EADDRINUSE:
            raise ValueError(f"--port {port}: {host}:{port} is in use by another program: "
                             "stop it, or give another --port (0: any free port)") from None
        if error.errno in (errno.EACCES, errno.EPERM):
            raise ValueError(f"--port {port}: not allowed to listen on it (ports below 1024 "
                             "need privileges): give another --port") from None
        raise ValueError(f"--host {host} --port {port}: cannot listen "
                         f"({error.strerror or error})") from None
    sock.setblocking(False)
    return sock


def shown_url(host: str, sock: socket.socket, path: str = "/") -> str:
    """The URL to print for ``sock``: its real port; ``0.0.0.0`` / ``::`` as loopback."""
    port = sock.getsockname()[1]
    if host in ("0.0.0.0", ""):
        host = "127.0.0.1"
    elif host == "::":
        host = "::1"
    shown = f"[{host.strip('[]')}]" if ":" in host else host
    return f"http://{shown}:{port}{path}"


def browser_note(url: str, environ: dict[str, str] | None = None) -> str | None:
    """Open ``url`` in a browser; None if it was, else the line to print instead (a Linux
    machine with no display, or no browser that starts)."""
    environ = dict(os.environ) if environ is None else environ
    if sys.platform.startswith("linux") and not (environ.get("DISPLAY")
                                                 or environ.get("WAYLAND_DISPLAY")):
        return (f"--open: this machine has no display (no DISPLAY or WAYLAND_DISPLAY): open "
                f"{url} in a browser yourself")
    try:
        opened = webbrowser.open(url)
    except webbrowser.Error:
        opened = False
    if not opened:
        return f"--open: no browser could be started here: open {url} in a browser yourself"
    return None


def add_serve(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "serve",
        help="serve the training room and tables in a browser (needs the [serve] extra)",
        description=(
            "Start a local game server: the training room at http://HOST:PORT/, our "
            "WebSocket protocol for remote bots (docs/protocol.md), and with --platform the "
            "Guandan AI platform's v1006 protocol (docs/platform.md). Listens on loopback "
            "unless --host says otherwise."),
    )
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default: %(default)s; anything else is "
                             "reachable from other machines)")
    parser.add_argument("--port", type=port_type, default=None,
                        help="port 0..65535, 0 for any free one (default: 8765; 23456 with "
                             "--platform)")
    parser.add_argument("--open", action="store_true", help="open the room in a browser")
    parser.add_argument("--turn-timeout", type=_seconds, default=30.0, metavar="S",
                        help="seconds a human or remote seat may think before the fallback "
                             "plays for it (with --platform: an agent's whole decision, past "
                             "which L1 plays its seat for the rest of the run); 0 for no "
                             "timer (default: %(default)s)")
    parser.add_argument("--fallback", default="L1", metavar="LEVEL",
                        help="who plays a silent or disconnected seat: a bot level, or 'wait' "
                             "(default: %(default)s)")
    parser.add_argument("--bot-delay", type=_seconds, default=0.6, metavar="S",
                        help="pause before each bot move at a table with a human, so each play "
                             "can be seen (default: %(default)s)")
    parser.add_argument("--allow-origin", action="append", default=[], metavar="URL",
                        help="also accept browser pages from this origin (repeatable)")
    parser.add_argument("--models", metavar="DIR", default=None,
                        help="offer the trained models in DIR as seats (dmc:NAME for a file "
                             "NAME of DIR, in the games that take them); no other file can "
                             "be seated")
    parser.add_argument("--bot-threads", type=_count(256), default=None, metavar="N",
                        help="threads for bots (default: two per core); a quarter of them "
                             "are kept for tables with a human seat")
    parser.add_argument("--max-tables", type=_count(100_000), default=1000, metavar="N",
                        help="tables the server holds at most (default: %(default)s)")
    parser.add_argument("--tables-per-client", type=_count(100_000), default=32, metavar="N",
                        help="tables one client address may have in play (default: "
                             "%(default)s)")
    parser.add_argument("--platform", action="store_true",
                        help="serve the Guandan platform's v1006 protocol instead: "
                             "ws://HOST:23456/game/<name>, seats by connection order, no tokens")
    parser.add_argument("--games", type=int, default=1, metavar="N",
                        help="--platform: matches (2 to A) to play, then print each team's "
                             "wins and exit (default: %(default)s)")
    parser.add_argument("--seats", default=None, metavar="A,B,C,D",
                        help="--platform: 'agent' or a bot level per seat, e.g. "
                             "agent,L2,agent,L2 (default: four agents); at least one agent")
    parser.add_argument("--seed", type=int, default=None, help="--platform: the first match's seed")
    parser.set_defaults(run=run_serve)


def _uvicorn() -> Any:
    try:
        import uvicorn
    except ImportError:
        raise ValueError('tienlen serve needs the serve extra: pip install -e ".[serve]" in a '
                         "checkout") from None
    return uvicorn


def platform_spec() -> Any:
    """The spec of the one registered game that speaks an outside platform's protocol."""
    from tienlen.table import get_spec, spec_names

    found = [get_spec(name) for name in spec_names() if getattr(get_spec(name), "platform", None)]
    if not found:
        raise ValueError("--platform: no registered game speaks a platform's protocol")
    return found[0]


async def serve_app(config: Any, sock: socket.socket) -> None:
    """Serve uvicorn ``config`` on the bound ``sock`` until it is told to stop."""
    uvicorn = _uvicorn()
    server = uvicorn.Server(config)
    await server.serve(sockets=[sock])


@contextlib.contextmanager
def _closing(sock: socket.socket) -> Iterator[socket.socket]:
    try:
        yield sock
    finally:
        sock.close()


def _models(folder: str, log: Any) -> dict[str, str]:
    """The models of ``--models DIR`` that load, each tried once now (a damaged file is
    named at start, not when a client seats it)."""
    from tienlen.table import get_spec, spec_names

    from .tables import offered_models

    specs = [get_spec(name) for name in spec_names()]
    prefixes = tuple(sorted({p for s in specs for p in getattr(s, "policy_prefixes", ())}))
    if not prefixes:
        raise ValueError("--models: no registered game seats trained models")
    found = offered_models(folder, prefixes)
    usable: dict[str, str] = {}
    for name, path in found.items():
        prefix = name.split(":", 1)[0] + ":"
        for spec in specs:
            if prefix in getattr(spec, "policy_prefixes", ()):
                try:
                    spec.make_bot(prefix + path, 0)
                except ValueError as error:
                    log(f"--models: {name} is not offered: {str(error).splitlines()[0][:200]}")
                else:
                    usable[name] = path
                break
    if not usable:
        log(f"--models {folder}: no model there can be seated")
    return usable


def run_platform(args: argparse.Namespace) -> int:
    """``tienlen serve --platform``: the game's platform codec (found through its spec) on
    a bound socket: say where, play ``--games`` matches, print the result. ``--turn-timeout``
    bounds each of an agent's decisions (0: no bound)."""
    from importlib import import_module

    from tienlen.table.decode import PLATFORM_FRAME

    from .limits import ConnectionLimits, uvicorn_config

    uvicorn = _uvicorn()
    codec = import_module(platform_spec().platform)
    seats = (args.seats or "agent,agent,agent,agent").split(",")
    runner = codec.PlatformRunner(args.games, seats, seed=args.seed,
                                  log=lambda text: print(text, file=sys.stderr, flush=True),
                                  decision_timeout=getattr(args, "turn_timeout", None) or None)
    port = codec.DEFAULT_PORT if args.port is None else args.port
    sock = bind(args.host, port)

    async def main() -> int:
        config = uvicorn_config(codec.platform_app(runner), host=args.host,
                                port=sock.getsockname()[1], limits=ConnectionLimits(per_client=64),
                                ws_max_size=PLATFORM_FRAME.max_bytes,
                                # no pings: the platform's server sends none, and an agent
                                # thinking in its message handler (ws4py's threaded client)
                                # answers none until it returns
                                ws_ping_interval=None, ws_ping_timeout=None)
        server = uvicorn.Server(config)
        loop = asyncio.get_running_loop()
        serving = loop.create_task(server.serve(sockets=[sock]))
        url = shown_url(args.host, sock, "/game/<name>").replace("http://", "ws://")
        print(f"Ready for connect. {url}, {len(runner.open_seats())} agent seat(s), "
              f"{args.games} game(s)", flush=True)
        playing = loop.create_task(runner.play())
        await asyncio.wait([serving, playing], return_when=asyncio.FIRST_COMPLETED)
        if not playing.done():                  # the server stopped first (Ctrl-C)
            playing.cancel()
            raise KeyboardInterrupt
        playing.result()
        print(runner.summary(), flush=True)
        server.should_exit = True
        await serving
        return 0

    with _closing(sock):
        return asyncio.run(main())


def run_serve(args: argparse.Namespace) -> int:
    _uvicorn()                                   # the extra, checked before any work
    from tienlen.table import get_spec, spec_names

    def log(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    if not is_loopback(args.host):
        log(f"warning: listening on {args.host}: anyone who can reach this machine can open "
            "the room and join tables with their tokens (and, with --platform, take any seat)")
    if args.platform:
        return run_platform(args)
    from .app import create_app
    from .limits import uvicorn_config
    from .tables import Hub, ServerConfig

    levels = {level.lower() for name in spec_names() for level in get_spec(name).bot_levels}
    if args.fallback != "wait" and args.fallback.lower() not in levels:
        raise ValueError(f"--fallback: a bot level ({', '.join(sorted(levels))}) or 'wait'; "
                         f"got {args.fallback!r:.40}")
    models = _models(args.models, log) if args.models else {}
    config = ServerConfig(turn_timeout=args.turn_timeout, fallback=args.fallback,
                          bot_delay=args.bot_delay, bot_threads=args.bot_threads,
                          max_tables=args.max_tables, tables_per_client=args.tables_per_client,
                          models=models)
    hub = Hub(config, log=log)
    port = 8765 if args.port is None else args.port
    with _closing(bind(args.host, port)) as sock:
        url = shown_url(args.host, sock)
        # the names the server answers to: its own address, and the one it prints
        hosts = [args.host, url.split("//", 1)[1].rsplit(":", 1)[0]]
        app = create_app(hub, hosts=hosts, origins=args.allow_origin)
        print(f"tienlen serve: the training room is at {url}  (Ctrl-C to stop)", flush=True)
        if args.open:
            note = browser_note(url)
            if note is not None:
                log(note)
        asyncio.run(serve_app(uvicorn_config(
            app, host=args.host, port=sock.getsockname()[1], limits=config.connections,
            ws_max_size=config.max_message_bytes, ws_ping_interval=20, ws_ping_timeout=20),
            sock))
    return 0
