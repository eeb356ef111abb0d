"""A live server for the server tests: uvicorn on a free loopback port, in a thread, with the
connection limits every front end of ours sets (tienlen.server.limits.uvicorn_config)."""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Iterator
from typing import Any


@contextlib.contextmanager
def running(app: Any, limits: Any = None, **config: Any) -> Iterator[int]:
    """Serve ``app`` on 127.0.0.1 (a free port) while the block runs; yields the port."""
    import uvicorn

    from tienlen.server.limits import ConnectionLimits, uvicorn_config

    config.setdefault("ws_max_size", 16 * 1024)
    server = uvicorn.Server(uvicorn_config(app, host="127.0.0.1", port=0,
                                           limits=limits or ConnectionLimits(),
                                           lifespan="on", **config))
    thread = threading.Thread(target=server.run, name="test-uvicorn", daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.02)
    port: int = server.servers[0].sockets[0].getsockname()[1]
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(10)


def serve_platform(runner: Any, limits: Any = None) -> tuple[threading.Thread, int]:
    """Serve a PlatformRunner's app and play it in a thread; returns (thread, port)."""
    import uvicorn

    from tienlen.games.guandan.platform import platform_app
    from tienlen.server.limits import ConnectionLimits, uvicorn_config
    from tienlen.table.decode import PLATFORM_FRAME

    holder: dict[str, Any] = {}

    async def main() -> None:
        server = uvicorn.Server(uvicorn_config(
            platform_app(runner), host="127.0.0.1", port=0, limits=limits or ConnectionLimits(),
            ws_max_size=PLATFORM_FRAME.max_bytes, ws_ping_interval=None, ws_ping_timeout=None))
        task = asyncio.get_running_loop().create_task(server.serve())
        while not server.started:
            await asyncio.sleep(0.01)
        holder["port"] = server.servers[0].sockets[0].getsockname()[1]
        try:
            await runner.play()
        finally:
            server.should_exit = True
            await task

    thread = threading.Thread(target=lambda: asyncio.run(main()), daemon=True)
    thread.start()
    while "port" not in holder:
        if not thread.is_alive():
            raise RuntimeError("the platform server did not start")
        time.sleep(0.01)
    return thread, holder["port"]
