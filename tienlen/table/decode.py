"""The one bounded decoder of every JSON input that crosses into the program: WebSocket
messages, HTTP bodies, the Guandan platform agents' frames, results files and their run
headers. Size first (bytes, before anything is parsed), then depth (nesting counted by a
linear scan, before the parser recurses), then the parse itself (strict JSON: no ``NaN``,
no ``Infinity``, no number that overflows a float), then the type at the top. Whatever
fails is one :class:`DecodeError`: a ``ValueError`` and a ``TienlenError`` with a ``code``
and a one-line message; nothing else escapes (no ``RecursionError``, no
``UnicodeDecodeError``).

Each kind of input has its :class:`Limits`, named here so that a reader of the code finds
every bound in one place:

>>> decode_json('{"type": "ping"}', MESSAGE)
{'type': 'ping'}
>>> decode_json("[" * 100 + "]" * 100, MESSAGE)
Traceback (most recent call last):
...
tienlen.table.decode.DecodeError: TOO_DEEP: message: nested deeper than 8 levels
>>> decode_json(b"x" * 20_000, MESSAGE)
Traceback (most recent call last):
...
tienlen.table.decode.DecodeError: TOO_BIG: message: larger than 16384 bytes
>>> decode_object("[1, 2]", BODY)
Traceback (most recent call last):
...
tienlen.table.decode.DecodeError: BAD_TYPE: request body: expected a JSON object; got a list
>>> decode_json('{"a": NaN}', MESSAGE)
Traceback (most recent call last):
...
tienlen.table.decode.DecodeError: BAD_JSON: message: not JSON (NaN is not a JSON number)

Brackets inside strings are text, not nesting:

>>> decode_json('["[[[[[[[[[[[[[[[[[["]', MESSAGE)
['[[[[[[[[[[[[[[[[[[']
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Final

import numpy as np

from ..errors import TienlenError

__all__ = ["DecodeError", "Limits", "decode_json", "decode_object", "json_depth", "MESSAGE",
           "BODY", "PLATFORM_FRAME", "RESULTS_LINE", "RUN_HEADER", "SERVER_ANSWER",
           "MATCH_FILE"]


class DecodeError(TienlenError):
    """Input refused by :func:`decode_json`: ``code`` is ``TOO_BIG``, ``TOO_DEEP``,
    ``BAD_TEXT`` (not UTF-8), ``BAD_JSON`` or ``BAD_TYPE``; the text is one line."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.code, self.message))


@dataclass(frozen=True)
class Limits:
    """The bounds of one kind of input: at most ``max_bytes`` bytes (UTF-8) nested at most
    ``max_depth`` levels (``[]`` and ``{}`` each count one); ``what`` names it in errors."""

    max_bytes: int
    max_depth: int
    what: str

    def __post_init__(self) -> None:
        if type(self.max_bytes) is not int or self.max_bytes < 1:
            raise ValueError(f"max_bytes must be a positive int; got {self.max_bytes!r:.40}")
        if type(self.max_depth) is not int or not 1 <= self.max_depth <= 256:
            raise ValueError(f"max_depth must be an int in 1..256; got {self.max_depth!r:.40}")


#: A message of our WebSocket protocol (docs/protocol.md): ``{"type": "act", "action":
#: {"kind": "play", "cards": [...]}}`` is three levels deep.
MESSAGE: Final = Limits(16 * 1024, 8, "message")
#: An HTTP request body (``POST /api/tables``).
BODY: Final = Limits(8 * 1024, 8, "request body")
#: A saved hand or match sent to be reviewed (``POST /api/review``): the file that
#: ``tienlen play --save`` writes (a whole Guandan match is a few hundred KB at most).
MATCH_FILE: Final = Limits(1024 * 1024, 8, "match file")
#: One frame from a Guandan platform agent (``{"actIndex": 3}``).
PLATFORM_FRAME: Final = Limits(64 * 1024, 8, "platform frame")
#: A message from our server, read by the client (a view with its legal actions: a
#: Guandan lead lists hundreds of plays).
SERVER_ANSWER: Final = Limits(8 * 1024 * 1024, 16, "server message")
#: One line of a JSON-lines results file (``tienlen sim --out``).
RESULTS_LINE: Final = Limits(16 * 1024 * 1024, 16, "results line")
#: The run header of a Parquet results dataset (``_run.json``).
RUN_HEADER: Final = Limits(1024 * 1024, 16, "run header")

_OPEN: Final = (ord("["), ord("{"))
_CLOSE: Final = (ord("]"), ord("}"))


def json_depth(data: bytes) -> int:
    """How deeply ``data`` nests ``[]`` and ``{}`` outside its strings, in one linear pass
    (no recursion, whatever the input). Text that is not JSON gets a number too; the
    parser then refuses it.

    >>> json_depth(b'{"a": [1, {"b": "]]]"}]}'), json_depth(b'"\\\\"[["'), json_depth(b"")
    (3, 0, 0)
    """
    codes = np.frombuffer(data, dtype=np.uint8)
    if codes.size == 0:
        return 0
    quote = codes == ord('"')
    backslash = codes == ord("\\")
    if quote.any() and backslash.any():
        # a quote is escaped when an odd run of backslashes stands just before it
        index = np.arange(codes.size, dtype=np.int64)
        last_plain = np.where(backslash, -1, index)
        np.maximum.accumulate(last_plain, out=last_plain)
        run = np.zeros(codes.size, dtype=np.int64)
        run[1:] = index[:-1] - last_plain[:-1]
        quote &= run % 2 == 0
    inside = (np.cumsum(quote, dtype=np.int64) & 1).astype(bool)
    step = ((codes == _OPEN[0]) | (codes == _OPEN[1])).astype(np.int64)
    step -= (codes == _CLOSE[0]) | (codes == _CLOSE[1])
    step[inside] = 0
    return int(np.cumsum(step).max(initial=0))


def _constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _finite(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise ValueError(f"{text[:20]} overflows a float")
    return value


_DECODER: Final = json.JSONDecoder(parse_constant=_constant, parse_float=_finite)


def _type_name(value: object) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean",
            type(None): "null", int: "a number", float: "a number"}.get(type(value),
                                                                        type(value).__name__)


def decode_json(data: str | bytes | bytearray | memoryview, limits: Limits) -> Any:
    """``data`` (text, or UTF-8 bytes) parsed as one JSON value within ``limits``; raises
    :class:`DecodeError` otherwise."""
    what = limits.what
    if isinstance(data, str):
        if len(data) > limits.max_bytes:         # a character is one byte or more
            raise DecodeError("TOO_BIG", f"{what}: larger than {limits.max_bytes} bytes")
        try:
            raw = data.encode("utf-8")
        except UnicodeEncodeError:
            raise DecodeError("BAD_TEXT", f"{what}: not UTF-8 text (a lone surrogate)") from None
    elif isinstance(data, (bytes, bytearray, memoryview)):
        raw = bytes(data[: limits.max_bytes + 1])
    else:
        raise DecodeError("BAD_TYPE", f"{what}: expected text or bytes; got "
                                      f"{type(data).__name__}")
    if len(raw) > limits.max_bytes:
        raise DecodeError("TOO_BIG", f"{what}: larger than {limits.max_bytes} bytes")
    depth = json_depth(raw)
    if depth > limits.max_depth:
        raise DecodeError("TOO_DEEP", f"{what}: nested deeper than {limits.max_depth} levels")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise DecodeError("BAD_TEXT", f"{what}: not UTF-8 text (byte {error.start})") from None
    try:
        return _DECODER.decode(text)
    except json.JSONDecodeError as error:
        raise DecodeError("BAD_JSON", f"{what}: not JSON ({error.msg}: line {error.lineno} "
                                      f"column {error.colno})") from None
    except (ValueError, RecursionError) as error:     # a constant, an overflow, 4300 digits
        raise DecodeError("BAD_JSON", f"{what}: not JSON ({str(error)[:80]})") from None


def decode_object(data: str | bytes | bytearray | memoryview, limits: Limits) -> dict[str, Any]:
    """:func:`decode_json`, and the value must be a JSON object."""
    value = decode_json(data, limits)
    if not isinstance(value, dict):
        raise DecodeError("BAD_TYPE", f"{limits.what}: expected a JSON object; got "
                                      f"{_type_name(value)}")
    return value
