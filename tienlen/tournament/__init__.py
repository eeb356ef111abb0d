"""Tournaments of outside agents and our bots (issue 36): the schedule (round robin or
gauntlet, each pairing on the same boards with sides swapped), the matches file (JSON lines
or Parquet, one writer, ``--resume``) and the ratings (Bradley-Terry with bootstrap
intervals). Playing a match (a table on the server, the agents' processes) is the server's:
:mod:`tienlen.server.matches`; the command is ``tienlen tournament``
(:mod:`tienlen.cli.tournament`, docs/tournament.md).

>>> from tienlen.tournament import rate
>>> [round(r.rating) for r in rate(2, [(0, 1, 1.0)] * 3, replicates=10)]
[1669, 1331]
"""

from .ratings import Rating, fit, rate

__all__ = ["Rating", "fit", "rate"]
