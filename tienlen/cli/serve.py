"""``tienlen serve``: the training room and the table server (:mod:`tienlen.server.run`).
Its run() imports the ``[serve]`` extra only when called, so the CLI loads without it."""

from __future__ import annotations

from tienlen.cli.common import Subparsers

__all__ = ["add"]


def add(subparsers: Subparsers) -> None:
    from tienlen.server.run import add_serve

    add_serve(subparsers)
