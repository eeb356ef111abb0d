"""Reading and writing the files of every game: a size-limited read (so that a huge file
or a device that never ends is refused, not read into memory) and the JSON writers' one
check of ``indent`` (results files: :mod:`tienlen.arena.files`). Tiến Lên's replays (:mod:`tienlen.games.tienlen.replay`) and Guandan's match files
(:mod:`tienlen.games.guandan.match`) both go through here; it imports no game.

>>> check_indent(2), check_indent(None)
(2, None)
>>> check_indent(10**9)
Traceback (most recent call last):
...
ValueError: indent must be None or an int in 0..32; got 1000000000
"""

from __future__ import annotations

import os
from typing import Any, Final

from .decode import DecodeError, Limits, decode_json
from .errors import ReplayError

__all__ = ["MAX_INDENT", "FILE_DEPTH", "check_indent", "read_limited", "parse_file_json"]

#: The widest ``indent=`` the JSON writers take (replays and Guandan match files).
MAX_INDENT: Final = 32

#: How deeply a game's file may nest ``[]`` and ``{}``: a match file of either game needs
#: five levels (the file, its hands or actions, an action, its cards).
FILE_DEPTH: Final = 8


def _quote(value: object, limit: int = 80) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "..."


def check_indent(indent: object, error: type[ValueError] = ValueError) -> int | None:
    """``indent`` if it is None (one line) or an int of spaces in 0..:data:`MAX_INDENT`;
    otherwise raise ``error``. The JSON writers' one check: ``json.dumps`` raises
    TypeError for a float, takes a bool as a number, and builds lines as wide as a huge
    indent asks, until memory runs out."""
    if indent is not None and (type(indent) is not int or not 0 <= indent <= MAX_INDENT):
        raise error(f"indent must be None or an int in 0..{MAX_INDENT}; got {_quote(indent)}")
    return indent


def read_limited(path: str | bytes | os.PathLike[str], limit: int,
                 error: type[ReplayError] = ReplayError, note: str = "") -> bytes:
    """The bytes of the file ``path``, reading at most ``limit`` + 1: a longer file raises
    ``error`` ("larger than ``limit`` bytes: not a replay", then ``note``). ``OSError``
    passes through. A file descriptor (an int) is refused: open() would read, then close,
    stdin."""
    if not isinstance(path, (str, bytes, os.PathLike)):
        raise error(f"a replay file is given by its path; got {_quote(path)}")
    if type(limit) is not int or limit < 0:
        raise ValueError(f"limit must be an int >= 0; got {_quote(limit)}")
    with open(path, "rb") as file:
        data = file.read(limit + 1)
    if len(data) > limit:
        raise error(f"the file is larger than {limit} bytes: not a replay{note}")
    return data


def parse_file_json(text: object, limit: int, what: str,
                    error: type[ReplayError] = ReplayError) -> Any:
    """The JSON value of a game file's text (``str`` or UTF-8 ``bytes``), parsed by the one
    decoder (:func:`tienlen.table.decode.decode_json`) within ``limit`` bytes and
    :data:`FILE_DEPTH` levels; anything else raises ``error`` with one line that names
    ``what`` the file was meant to be.

    >>> parse_file_json('{"schema": "x"}', 1000, "replay")
    {'schema': 'x'}
    >>> parse_file_json("[" * 50 + "]" * 50, 1000, "replay")
    Traceback (most recent call last):
    ...
    tienlen.errors.ReplayError: not a JSON replay: nested deeper than 8 levels
    >>> parse_file_json(b"x" * 2000, 1000, "match")
    Traceback (most recent call last):
    ...
    tienlen.errors.ReplayError: the text is larger than 1000 bytes: not a match
    """
    if not isinstance(text, (str, bytes, bytearray)):
        raise error(f"a {what} is JSON text (str or bytes), got {type(text).__name__}")
    try:
        return decode_json(text, Limits(limit, FILE_DEPTH, what))
    except DecodeError as refused:
        if refused.code == "TOO_BIG":
            raise error(f"the text is larger than {limit} bytes: not a {what}") from None
        detail = refused.message.removeprefix(f"{what}: ")
        raise error(f"not a JSON {what}: {detail}") from None
