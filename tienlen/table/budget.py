"""A search bot's budget per decision, for every game's L3: a number of sampled deals (the
same choice on every run) or a time in milliseconds; without either, the game's default
time. A bot may take both (``both=True``): at most that many deals, cut short at the time (a
hint that must answer a person: the same choice whenever the machine has the time). Its
check and its words in the bot's name are written once here.

>>> check_budget(None, None, default_ms=50.0)
(None, 50.0)
>>> check_budget(8, None, default_ms=50.0), budget_options(8, None, default_ms=50.0)
((8, None), ['iterations=8'])
>>> check_budget(100, 400, default_ms=85.0, both=True), budget_options(100, 400.0, default_ms=85.0)
((100, 400.0), ['iterations=100', 'time_ms=400'])
>>> check_budget(None, 90_000, default_ms=85.0, top_ms=60_000)
Traceback (most recent call last):
...
ValueError: time_ms must be a number in (0, 60000]; got 90000
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["check_budget", "budget_options"]


def check_budget(iterations: object, time_ms: object, *, default_ms: float,
                 top_ms: float | None = None, both: bool = False,
                 error: Callable[[str], ValueError] = ValueError) -> tuple[int | None, float | None]:
    """``(iterations, time_ms)`` as a bot keeps them: exactly one is set, or both where the
    bot takes both (``both``: the time cuts the deals short). ``iterations`` a positive int,
    ``time_ms`` a positive number (at most ``top_ms`` when given); neither is ``default_ms``.
    Anything else is ``error(message)``."""
    if iterations is not None and time_ms is not None and not both:
        raise error("give iterations= (deterministic) or time_ms=, not both")
    if iterations is not None and (type(iterations) is not int or iterations < 1):
        raise error(f"iterations must be a positive int; got {iterations!r}")
    if time_ms is not None:
        number = not isinstance(time_ms, bool) and isinstance(time_ms, (int, float))
        if top_ms is None and not (number and time_ms > 0):  # type: ignore[operator]
            raise error(f"time_ms must be a positive number; got {time_ms!r}")
        if top_ms is not None and not (number and 0 < time_ms <= top_ms):  # type: ignore[operator]
            raise error(f"time_ms must be a number in (0, {top_ms}]; got {time_ms!r}")
    if iterations is not None:
        assert isinstance(iterations, int)
        return iterations, None if time_ms is None else float(time_ms)  # type: ignore[arg-type]
    return None, float(time_ms or default_ms)  # type: ignore[arg-type]


def budget_options(iterations: int | None, time_ms: float | None, *,
                   default_ms: float) -> list[str]:
    """The budget's words in a bot's name (``L3(iterations=8)``): none for the default."""
    if iterations is not None:
        cap = [] if time_ms is None else [f"time_ms={time_ms:g}"]
        return [f"iterations={iterations}", *cap]
    if time_ms != default_ms:
        return [f"time_ms={time_ms:g}"]
    return []
