"""``tienlen serve``: one local ASGI process holding many tables (issue 27).

- :mod:`.tables`: tables, seats, tokens, the table limits and turn timers, written against
  the game-agnostic :mod:`tienlen.table` layer (no game is imported here);
- :mod:`.scheduler`: bot work scheduled fairly across tables (threads and the event loop);
- :mod:`.limits`: the bounds of every connection (uvicorn, configured and subclassed);
- :mod:`.app`: the Starlette app: our WebSocket protocol (``docs/protocol.md``), the table
  API and the browser training room (``static/``);
- :mod:`.run`: ``tienlen serve``, and ``--platform``: a game's platform adapter (the
  Guandan AI platform's v1006 protocol, ``docs/platform.md``), found through its spec;
- :mod:`.matches`: one match of ``tienlen tournament`` (``docs/tournament.md``).

Needs the ``serve`` extra (``pip install -e ".[serve]"`` in a checkout).

>>> from tienlen.server import PROTOCOL_VERSION, ServerConfig
>>> PROTOCOL_VERSION, ServerConfig().turn_timeout, ServerConfig().fallback
(1, 30.0, 'L1')
"""

from .tables import PROTOCOL_VERSION, Hub, ServerConfig, Table

__all__ = ["PROTOCOL_VERSION", "Hub", "ServerConfig", "Table"]
