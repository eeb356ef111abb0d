"""What every game's PettingZoo AEC env shares and no game decides: agents named by seat,
the order checks of ``step`` / ``observe`` / ``last``, the dead agents' steps, the render
modes and ``close``. :class:`~tienlen.rl.aec.TienlenAECEnv` and
:class:`~tienlen.rl.guandan_aec.GuandanAECEnv` add their game: reset, observe, the step's
rewards, the board's text.

>>> from tienlen.rl import GuandanAECEnv
>>> e = GuandanAECEnv()
>>> e.step(0)
Traceback (most recent call last):
...
tienlen.table.encoding.EnvStateError: call reset() before step()
>>> e.reset(seed=1)
>>> e.observe("player_9")
Traceback (most recent call last):
...
tienlen.table.encoding.UnknownAgentError: "no agent 'player_9' (agents: player_0, player_1, player_2, player_3)"
"""

from __future__ import annotations

from typing import Any

from pettingzoo import AECEnv

from .common import EnvStateError, UnknownAgentError

__all__ = ["SeatAECEnv"]


# PettingZoo ships no type information: AECEnv is Any to mypy, which cannot check a class
# built on it (should a release add types, the ignore becomes unused, hence that code too).
class SeatAECEnv(AECEnv):  # type: ignore[misc, unused-ignore]
    """An AEC env whose agents ``player_0`` .. ``player_{n-1}`` are the seats; a game's env
    sets :attr:`possible_agents`, :attr:`agent_name_mapping`, :attr:`render_mode` and
    :attr:`_closed`, and writes :meth:`_text` (the board, as :meth:`render` shows it)."""

    possible_agents: list[str]
    agent_name_mapping: dict[str, int]
    render_mode: str | None
    _closed: bool

    def _agent_to_step(self, action: int | None) -> str | None:
        """The start of every ``step``: refused (:class:`EnvStateError`) once closed or before
        the first reset; a terminated or truncated agent's step taken (PettingZoo's dead
        step: None returned); else the agent to act for."""
        if self._closed:
            raise EnvStateError("this env is closed: make a new one")
        self._check_reset("step")
        agent: str = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return None
        return agent

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """PettingZoo's ``last()``: before the first reset an :class:`EnvStateError`, as
        for :meth:`step` and :meth:`observe` (it was an AttributeError)."""
        self._check_reset("last")
        return super().last(observe)  # type: ignore[no-any-return]

    def _check_reset(self, what: str) -> None:
        if "agent_selection" not in self.__dict__:
            raise EnvStateError(f"call reset() before {what}()")

    def render(self) -> str | None:
        """A text picture of the table (:meth:`_text`), returned (``render_mode="ansi"``)
        or printed (``"human"``); nothing without a render mode."""
        if self.render_mode is None:
            return None
        if self.render_mode == "human":
            print(self._text())
            return None
        return self._text()

    def _text(self) -> str:
        raise NotImplementedError

    def close(self) -> None:
        """End the env: later steps and resets raise EnvStateError. Idempotent."""
        self._closed = True

    def _seat_of(self, agent: object) -> int:
        try:
            return self.agent_name_mapping[agent]  # type: ignore[index]
        except (KeyError, TypeError):   # TypeError: an unhashable name
            raise UnknownAgentError(f"no agent {agent!r:.80} (agents: "
                                    f"{', '.join(self.possible_agents)})") from None
