"""The terminal the front end talks to: a rich console plus line input.

Two modes, picked from the streams rather than a flag, so the same command works typed by a
person and fed from a script:

- **interactive** (stdin and stdout are terminals): colour unless ``NO_COLOR`` is set,
  the board is redrawn in place, bot moves are paced so a person can follow them.
- **scripted** (anything else, such as ``tienlen play < moves.txt``): no colour codes and
  no screen clearing; each command read is echoed after its prompt, so the transcript
  reads like a session.
"""

from __future__ import annotations

import re
import sys
import time
from collections.abc import Callable, Sequence
from typing import TextIO

from rich.console import Console, RenderableType
from rich.text import Text

__all__ = ["Terminal"]

# An SGR escape sequence (colours and styles), the only kind rich puts in a prompt.
_SGR = re.compile(r"\x1b\[[0-9;]*m")


def _is_tty(stream: object) -> bool:
    try:
        return bool(stream.isatty())  # type: ignore[attr-defined]
    except (AttributeError, ValueError):  # a closed or stub stream
        return False


class Terminal:
    """Console output and line input for one command."""

    _readline = False
    #: Answers :meth:`confirm` takes besides yes and no, each with what it does before the
    #: question is asked again (the session's ``r``: the review of the hand just played).
    extra_answers: dict[str, Callable[[], None]] = {}
    #: What :meth:`confirm` says to an answer it does not take, and the word before its
    #: last key (the session's words set both: :class:`tienlen.table.board.TableWords`).
    answer_again: str = "Please answer {keys}."
    answer_or: str = "or"

    def __init__(self, stdin: TextIO | None = None, stdout: TextIO | None = None) -> None:
        self.stdin = sys.stdin if stdin is None else stdin
        stdout = sys.stdout if stdout is None else stdout
        self.interactive = _is_tty(self.stdin) and _is_tty(stdout)
        if self.interactive:
            # rich itself honours NO_COLOR (and FORCE_COLOR) from the environment.
            self.console = Console(file=stdout, highlight=False, emoji=False, markup=False)
            try:
                import readline  # noqa: F401  # line editing and history for input()
            except ImportError:  # pragma: no cover - not on every platform
                self._readline = False
            else:
                self._readline = True
        else:
            # Piped input means a script or a log: plain text only, whatever the terminal.
            self.console = Console(file=stdout, highlight=False, emoji=False, markup=False,
                                   color_system=None, force_terminal=False)

    def print(self, *objects: RenderableType | str, **kwargs: object) -> None:
        self.console.print(*objects, **kwargs)  # type: ignore[arg-type]

    def redraw(self, screen: RenderableType) -> None:
        """Show ``screen``: in place on a terminal, appended to the transcript otherwise."""
        if self.interactive:
            self.console.clear()
        else:
            self.console.print()
        self.console.print(screen)

    def pause(self, seconds: float) -> None:
        """Give a person time to read; scripts never wait."""
        if self.interactive and seconds > 0:
            time.sleep(seconds)

    def ask(self, prompt: str | Text) -> str:
        """One line of input, stripped. Raises ``EOFError`` at the end of input."""
        if isinstance(prompt, str):
            prompt = Text(prompt)
        if self.interactive:
            try:
                return input(self._input_prompt(prompt)).strip()
            except EOFError:
                # Ctrl-D leaves the cursor after the prompt: end that line first.
                self.console.print()
                raise
        self.console.print(prompt, end="")
        line = self.stdin.readline()
        if not line:
            self.console.print()
            raise EOFError
        self.console.print(Text(line.rstrip("\n")))
        return line.strip()

    def _input_prompt(self, prompt: Text) -> str:
        """``prompt`` rendered for :func:`input`. The prompt goes to ``input`` itself rather
        than being printed first: readline then knows where the line starts, and echoes the
        newline of an empty line (printed separately, two prompts ran together). Colour
        codes are marked as zero-width for readline, so that line editing keeps its place."""
        with self.console.capture() as capture:
            self.console.print(prompt, end="")
        text = capture.get()
        if self._readline:
            text = _SGR.sub(lambda m: f"\001{m[0]}\002", text)
        return text

    def discard_typeahead(self) -> None:
        """Drop keys typed before now (say, while the bots were moving), so that they do
        not become the answer to a question not yet asked. Terminals only."""
        if not self.interactive:
            return
        try:
            import termios

            termios.tcflush(self.stdin.fileno(), termios.TCIFLUSH)
        except (ImportError, OSError, ValueError, AttributeError):  # pragma: no cover
            pass  # not a POSIX terminal: nothing to discard

    def lines(self, renderable: RenderableType) -> int:
        """How many lines ``renderable`` takes on this console."""
        return len(self.console.render_lines(renderable, self.console.options, pad=False))

    def fitted(self, draw: Callable[[Sequence[Text]], RenderableType], log: Sequence[Text],
               reserve: int) -> RenderableType:
        """``draw(log)``, the oldest lines of ``log`` left out until the screen leaves
        ``reserve`` rows free below it (the prompt and an answer): on a short terminal the
        log gives way so that the board stays whole."""
        events = list(log)
        room = self.console.height - reserve
        screen = draw(events)
        while events and self.lines(screen) > room:
            events = events[1:]
            screen = draw(events)
        return screen

    def confirm(self, question: str, *, default: bool) -> bool:
        """A yes/no question; Enter takes ``default``. End of input counts as "no"."""
        hint = "[Y/n]" if default else "[y/N]"
        while True:
            try:
                answer = self.ask(f"{question} {hint} ").lower()
            except EOFError:
                return False
            if not answer:
                return default
            if answer in ("y", "yes"):
                return True
            if answer in ("n", "no", "q", "quit"):
                return False
            extra = self.extra_answers.get(answer)
            if extra is not None:           # another answer the asker takes (r: a review)
                extra()
                continue
            keys = ["y", "n", *(key for key in self.extra_answers if len(key) == 1)]
            said = f"{', '.join(keys[:-1])} {self.answer_or} {keys[-1]}"
            self.console.print(self.answer_again.format(keys=said), style="yellow")

    def wait_for_enter(self, prompt: str = "Enter: next, q: stop ") -> bool:
        """Wait for Enter; ``False`` if the reader asked to stop (``q`` or end of input)."""
        try:
            return self.ask(prompt).lower() not in ("q", "quit")
        except EOFError:
            return False
