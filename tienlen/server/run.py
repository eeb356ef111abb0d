"""``tienlen serve``: start uvicorn on the app (or the v1006 platform adapter)."""

from __future__ import annotations

import argparse
import ipaddress
import sys
import threading
import webbrowser
from typing import Any

__all__ = ["add_serve", "run_serve", "is_loopback"]


def is_loopback(host: str) -> bool:
    """Whether ``host`` names this machine only.

    >>> is_loopback("127.0.0.1"), is_loopback("localhost"), is_loopback("0.0.0.0")
    (True, True, False)
    """
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _seconds(text: str) -> float:
    value = float(text)
    if not 0 <= value <= 3600:
        raise argparse.ArgumentTypeError("give seconds 0..3600")
    return value


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
    parser.add_argument("--port", type=int, default=None,
                        help="port (default: 8765; 23456 with --platform)")
    parser.add_argument("--open", action="store_true", help="open the room in a browser")
    parser.add_argument("--turn-timeout", type=_seconds, default=30.0, metavar="S",
                        help="seconds a human or remote seat may think before the fallback "
                             "plays for it; 0 for no timer (default: %(default)s)")
    parser.add_argument("--fallback", default="L1", metavar="LEVEL",
                        help="who plays a silent or disconnected seat: a bot level, or 'wait' "
                             "(default: %(default)s)")
    parser.add_argument("--bot-delay", type=_seconds, default=0.6, metavar="S",
                        help="pause before each bot move at a table with a human, so each play "
                             "can be seen (default: %(default)s)")
    parser.add_argument("--allow-origin", action="append", default=[], metavar="URL",
                        help="also accept browser pages from this origin (repeatable)")
    parser.add_argument("--platform", action="store_true",
                        help="serve the Guandan platform's v1006 protocol instead: "
                             "ws://HOST:23456/game/<name>, seats by connection order, no tokens")
    parser.add_argument("--games", type=int, default=1, metavar="N",
                        help="--platform: matches (2 to A) to play, then print each team's "
                             "wins and exit (default: %(default)s)")
    parser.add_argument("--seats", default=None, metavar="A,B,C,D",
                        help="--platform: 'agent' or a bot level per seat, e.g. "
                             "agent,L2,agent,L2 (default: four agents)")
    parser.add_argument("--seed", type=int, default=None, help="--platform: the first match's seed")
    parser.set_defaults(run=run_serve)


def run_serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn
    except ImportError:
        raise ValueError('tienlen serve needs the serve extra: pip install "tienlen[serve]"') from None
    if not is_loopback(args.host):
        print(f"warning: listening on {args.host}: anyone who can reach this machine can open "
              "the room and join tables with their tokens (and, with --platform, take any seat)",
              file=sys.stderr)
    if args.platform:
        from tienlen.games.guandan.platform import run_platform

        return run_platform(args)
    from .app import create_app
    from .tables import Hub, ServerConfig

    if args.fallback != "wait" and args.fallback.lower() not in ("random", "l1", "l2", "l3"):
        raise ValueError(f"--fallback: a bot level or 'wait'; got {args.fallback!r}")
    port = 8765 if args.port is None else args.port
    config = ServerConfig(turn_timeout=args.turn_timeout, fallback=args.fallback,
                          bot_delay=args.bot_delay)
    hub = Hub(config, log=lambda text: print(text, file=sys.stderr))
    hosts = [args.host] if not is_loopback(args.host) else []
    app = create_app(hub, hosts=hosts, origins=args.allow_origin)
    shown = f"[{args.host}]" if ":" in args.host else args.host
    url = f"http://{'127.0.0.1' if args.host in ('0.0.0.0', '::') else shown}:{port}/"
    print(f"tienlen serve: the training room is at {url}  (Ctrl-C to stop)", flush=True)
    if args.open:
        threading.Timer(0.8, webbrowser.open, (url,)).start()
    uvicorn.run(app, host=args.host, port=port, log_level="warning",
                ws_max_size=config.max_message_bytes, ws_ping_interval=20, ws_ping_timeout=20)
    return 0
