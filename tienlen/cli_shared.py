"""What every command line front end shares (``tienlen`` and its ``--game guandan`` side):
the output-path check done before any work, and whether the terminal takes suit symbols.

It imports no game and no terminal UI, so that :mod:`tienlen.cli` and
:mod:`tienlen.guandan.cli` both import it, and not each other.

>>> import io
>>> symbols_fit(io.StringIO()), symbols_fit(io.TextIOWrapper(io.BytesIO(), encoding="ascii"))
(True, False)
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

__all__ = ["symbols_fit", "use_ascii", "writable_file"]


def symbols_fit(stream: object) -> bool:
    """Whether ``stream`` can print the suit symbols (a legacy console may not)."""
    encoding = getattr(stream, "encoding", None)
    if not encoding:  # a text buffer such as io.StringIO takes any str
        return True
    try:
        "♠♣♦♥".encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def use_ascii(args: argparse.Namespace) -> bool:
    """``--ascii``, or a standard output that cannot print the suit symbols."""
    return bool(getattr(args, "ascii", False)) or not symbols_fit(sys.stdout)


def writable_file(path: Path, option: str) -> None:
    """Refuse an output path that cannot be written, before any work is done (so that an
    hour of simulation is not lost to a typo). Creates nothing."""
    if path.is_dir():
        raise ValueError(f"{option} {path}: is a directory; give a file name")
    parent = path.parent
    if not parent.is_dir():
        raise ValueError(f"{option} {path}: the directory {parent} does not exist")
    if not os.access(parent, os.W_OK | os.X_OK) or (path.exists()
                                                    and not os.access(path, os.W_OK)):
        raise ValueError(f"{option} {path}: not writable")
