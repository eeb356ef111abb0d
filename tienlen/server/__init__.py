"""``tienlen serve``: one local ASGI process holding many tables (issue 27).

- :mod:`.tables`: tables, seats, tokens, the bot pool and turn timers, written against the
  game-agnostic :mod:`tienlen.table` layer (no game is imported here);
- :mod:`.app`: the Starlette app: our WebSocket protocol (``docs/protocol.md``), the table
  API and the browser training room (``static/``);
- :mod:`.v1006`: the Guandan AI platform's v1006 protocol (``docs/platform.md``), off
  unless asked for.

Needs the ``serve`` extra (``pip install "tienlen[serve]"``).

>>> from tienlen.server import PROTOCOL_VERSION, ServerConfig
>>> PROTOCOL_VERSION, ServerConfig().turn_timeout, ServerConfig().fallback
(1, 30.0, 'L1')
"""

from .tables import PROTOCOL_VERSION, Hub, ServerConfig, Table

__all__ = ["PROTOCOL_VERSION", "Hub", "ServerConfig", "Table"]
