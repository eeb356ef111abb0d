"""The one bounded decoder (tienlen.table.decode): size, depth and type, refused in one
line, whatever the input; no RecursionError, no UnicodeDecodeError, no hang."""

from __future__ import annotations

import json
import time

import pytest
from hypothesis import given, settings, strategies as st

from tienlen.table.decode import (BODY, MESSAGE, PLATFORM_FRAME, RESULTS_LINE, RUN_HEADER,
                                  SERVER_ANSWER, DecodeError, Limits, decode_json,
                                  decode_object, json_depth)

ALL = [MESSAGE, BODY, PLATFORM_FRAME, SERVER_ANSWER, RESULTS_LINE, RUN_HEADER]


def _nested(depth: int, open_: str = "[", close: str = "]") -> str:
    return open_ * depth + close * depth


@pytest.mark.parametrize("limits", ALL, ids=lambda l: l.what)
@pytest.mark.parametrize("depth", [0, 1, "limit", "limit+1", 1000, 100_000])
def test_depth_is_refused_past_the_limit_only(limits: Limits, depth: object) -> None:
    n = {"limit": limits.max_depth, "limit+1": limits.max_depth + 1}.get(depth, depth)
    assert isinstance(n, int)
    for text in ([_nested(n)] if n else []) + ['{"a":' * n + "1" + "}" * n]:
        if len(text) > limits.max_bytes:
            with pytest.raises(DecodeError) as info:
                decode_json(text, limits)
            assert info.value.code == "TOO_BIG"
        elif n > limits.max_depth:
            with pytest.raises(DecodeError) as info:
                decode_json(text, limits)
            assert info.value.code == "TOO_DEEP" and "\n" not in str(info.value)
        else:
            assert decode_json(text, limits) == json.loads(text)


@pytest.mark.parametrize("limits", ALL, ids=lambda l: l.what)
def test_size_is_refused_before_parsing(limits: Limits) -> None:
    text = '"' + "x" * limits.max_bytes + '"'
    t0 = time.monotonic()
    for data in (text, text.encode(), bytearray(text.encode()), memoryview(text.encode())):
        with pytest.raises(DecodeError) as info:
            decode_json(data, limits)
        assert info.value.code == "TOO_BIG"
    # a multi-byte character counts its bytes
    wide = "é" * (limits.max_bytes // 2 + 1)
    with pytest.raises(DecodeError, match="TOO_BIG"):
        decode_json(json.dumps(wide, ensure_ascii=False), limits)
    assert time.monotonic() - t0 < 5


def test_strings_hide_brackets_and_escaped_quotes_do_not_end_them() -> None:
    assert json_depth(b'["]]]]", "[[[["]') == 1
    assert json_depth(b'["\\"[[[[[[[[[[", 1]') == 1
    assert json_depth(b'["\\\\", [[[1]]]]') == 4       # an escaped backslash, then a real quote
    deep_in_string = json.dumps(["[" * 10_000])
    assert decode_json(deep_in_string, RESULTS_LINE) == ["[" * 10_000]


def test_quadratic_inputs_are_linear() -> None:
    """Many escaped quotes and no closing one: a regex would backtrack for each."""
    text = '"' + '\\"' * 400_000
    t0 = time.monotonic()
    with pytest.raises(DecodeError, match="BAD_JSON"):
        decode_json(text, RESULTS_LINE)
    assert time.monotonic() - t0 < 2


@pytest.mark.parametrize("text, code", [
    ("", "BAD_JSON"), ("{", "BAD_JSON"), ("NaN", "BAD_JSON"), ("[Infinity]", "BAD_JSON"),
    ("1e999", "BAD_JSON"), ("9" * 5000, "BAD_JSON"), ('{"a": 1} x', "BAD_JSON"),
])
def test_not_json(text: str, code: str) -> None:
    with pytest.raises(DecodeError) as info:
        decode_json(text, MESSAGE)
    assert info.value.code == code and "\n" not in str(info.value)


def test_bytes_that_are_not_utf8_and_lone_surrogates() -> None:
    with pytest.raises(DecodeError, match="BAD_TEXT"):
        decode_json(b'{"a": "\xff"}', MESSAGE)
    with pytest.raises(DecodeError, match="BAD_TEXT"):
        decode_json('{"a": "\ud800"}', MESSAGE)
    with pytest.raises(DecodeError, match="BAD_TYPE"):
        decode_json(12, MESSAGE)                           # type: ignore[arg-type]


@pytest.mark.parametrize("value, word", [([1], "a list"), ("x", "a string"), (None, "null"),
                                          (3, "a number"), (True, "a boolean")])
def test_decode_object_wants_an_object(value: object, word: str) -> None:
    with pytest.raises(DecodeError, match=f"expected a JSON object; got {word}"):
        decode_object(json.dumps(value), BODY)
    assert decode_object('{"a": [1, {"b": null}]}', BODY) == {"a": [1, {"b": None}]}


def test_errors_are_the_package_errors_and_pickle() -> None:
    import pickle

    from tienlen.errors import TienlenError

    error = DecodeError("TOO_DEEP", "message: nested deeper than 8 levels")
    assert isinstance(error, TienlenError) and isinstance(error, ValueError)
    again = pickle.loads(pickle.dumps(error))
    assert (again.code, again.message, str(again)) == (error.code, error.message, str(error))


@pytest.mark.parametrize("bad", [dict(max_bytes=0, max_depth=1), dict(max_bytes=1, max_depth=0),
                                 dict(max_bytes=1.5, max_depth=1), dict(max_bytes=1, max_depth=999)])
def test_limits_are_checked(bad: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        Limits(what="x", **bad)  # type: ignore[arg-type]


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300) | st.text(max_size=300))
def test_any_input_is_a_value_or_a_decode_error(data: bytes | str) -> None:
    try:
        value = decode_json(data, MESSAGE)
    except DecodeError as error:
        assert "\n" not in str(error)
    else:
        assert value == json.loads(data)


@settings(max_examples=200, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                    lambda inner: st.lists(inner, max_size=3)
                    | st.dictionaries(st.text(max_size=3), inner, max_size=3), max_leaves=30))
def test_depth_matches_the_structure(value: object) -> None:
    def depth(v: object) -> int:
        if isinstance(v, list):
            return 1 + max((depth(x) for x in v), default=0)
        if isinstance(v, dict):
            return 1 + max((depth(x) for x in v.values()), default=0)
        return 0
    text = json.dumps(value)
    assert json_depth(text.encode()) == depth(value)
