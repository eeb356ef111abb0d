"""``tienlen review FILE``: the review (复盘) of a saved hand or match of any game whose spec
has the review hooks (:mod:`tienlen.review`): every decision of one seat, priced by the
game's search bot from what that seat knew, the mistakes marked with the better play, the
reason and the cost. ``--json`` writes one object per decision (one a line), so that a
review can be scripted and checked. The file's ``schema`` names its game
(:func:`tienlen.cli.replay.game_of_file`); a bad file is a one-line error, status 2."""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from tienlen.cli.common import Subparsers, count_type, seed_type

__all__ = ["add", "run"]

#: The longest file read (a whole Guandan match is well under this).
MAX_FILE_BYTES = 1 << 20


def _number(text: str) -> float:
    """A number >= 0 given on the command line (``--threshold``, ``--time``).

    >>> _number("0.5")
    0.5
    >>> _number("-1")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: must be a number >= 0; got '-1'
    """
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r:.40}") from None
    if not value == value or value < 0:
        raise argparse.ArgumentTypeError(f"must be a number >= 0; got {text!r:.40}")
    return value


def add(subparsers: Subparsers) -> None:
    parser = subparsers.add_parser(
        "review",
        help="review a saved hand: the mistakes marked, with the better play and the cost",
        description=(
            "Review every decision of one seat in a hand saved by tienlen play --save or by "
            "the room (either game): the search bot prices the action chosen and the best "
            "one from what the seat knew then (sampled deals of the unseen cards; the "
            "endgame solver where it reaches). A decision worse than the best beyond the "
            "sampling error and by more than the threshold is a mistake."),
    )
    parser.add_argument("file", type=Path, metavar="FILE", help="the saved hand or match")
    parser.add_argument("--seat", type=int, default=0, metavar="N",
                        help="the seat to review (default 0, the person's seat in "
                             "tienlen play)")
    parser.add_argument("--hand", type=count_type, default=None, metavar="N",
                        help="the hand of a match file to review (default: the last one "
                             "played to its end)")
    parser.add_argument("--json", action="store_true",
                        help="one JSON object per decision, one a line")
    parser.add_argument("--threshold", type=_number, default=None, metavar="X",
                        help="the least cost of a mistake, in the game's unit (default: "
                             "the game's: 0.2 points in Tiến Lên, 0.25 levels in Guandan)")
    parser.add_argument("--seed", type=seed_type, default=0, metavar="S",
                        help="mixed into each decision's sampled deals (default 0): the "
                             "same seed gives the same review")
    parser.add_argument("--deals", type=count_type, default=None, metavar="N",
                        help="sampled deals per decision (default: the game's: 512 in Tiến Lên, "
                             "64 in Guandan)")
    parser.add_argument("--time", type=_number, default=None, metavar="S",
                        help="bound the whole review to S seconds, the file's reading "
                             "included (decisions left over are reported as not evaluated)")
    parser.add_argument("--lang", choices=("en", "zh"), default="en",
                        help="the language of the reasons (where the game words them)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """``tienlen review``: read the file, review the seat, print the decisions."""
    from tienlen.cli.replay import game_of_file
    from tienlen.review import Reviewer, pick_record, records_of
    from tienlen.table import get_spec
    from tienlen.table.fileio import read_limited

    start = time.perf_counter()      # --time counts the file's reading and replay too
    game = game_of_file(args.file)
    spec = get_spec(game)
    try:
        data = read_limited(args.file, MAX_FILE_BYTES)
    except OSError as error:
        raise ValueError(f"{args.file}: {error.strerror or error}") from None
    try:
        record = pick_record(records_of(spec, data), args.hand)
        reviewer = Reviewer(spec, record, args.seat, threshold=args.threshold, seed=args.seed,
                            deals=args.deals,
                            time_s=None if args.time is None else
                            max(args.time - (time.perf_counter() - start), 0.001),
                            lang=args.lang)
    except ValueError as error:
        raise ValueError(f"{args.file}: {error}") from None
    out = sys.stdout
    if args.json:
        for evaluation in reviewer.run().evaluations:
            out.write(json.dumps(evaluation.to_json(), ensure_ascii=False) + "\n")
        return 0
    from tienlen.review.text import review_lines

    review = reviewer.run()
    for _, text in review_lines(review, str(getattr(spec, "title", game)), args.lang):
        print(text)
    return 0
