"""Why a Guandan action was refused (the room Tiến Lên calls
:mod:`tienlen.games.tienlen.refusals`): the plan's reason codes (:data:`REASONS`, G8), the
core's finer reasons under each, and the refusal the game raises for a core reason code
(:func:`refusal_from_core`). The refusal is the package's one
:class:`~tienlen.errors.IllegalActionError` (``reason`` one of :data:`REASONS`, ``detail``
the core's finer reason, ``code`` the reason's number). The core decides legality; this
module only names its answer and words it. Why a *bot* chose a play is
:mod:`tienlen.games.guandan.explain`.

>>> error = refusal_from_core(_guandan.GS_REASON_NAMES.index("DOES_NOT_BEAT"))
>>> error.reason, error.detail, error.code, error.message
('INVALID_CARDS', 'DOES_NOT_BEAT', 1, 'that does not beat the play on the table')
"""

from __future__ import annotations

from typing import Final

from tienlen import _guandan
from tienlen.errors import NUMBERED_REASONS, IllegalActionError

__all__ = ["REASONS", "IllegalActionError", "refusal_from_core"]

#: The plan's error codes (G8), the reasons every refusal carries (numbered 1-8 in this
#: order: :attr:`IllegalActionError.code <tienlen.errors.IllegalActionError.code>`).
REASONS: Final = NUMBERED_REASONS

# The words for the core's finer reasons (GS_REASON_NAMES); any other is its name, lowered.
_NATIVE_MESSAGES: Final = {
    "NOT_A_PLAY": "these cards are not a combination",
    "NOT_A_READING": "these cards cannot be read that way",
    "DOES_NOT_BEAT": "that does not beat the play on the table",
    "CARD_NOT_FOUND": "you do not hold these cards",
    "CANNOT_PASS": "the leader must play; passing is only allowed on someone's play",
    "GAME_OVER": "the hand is over",
}


def refusal_from_core(code: int) -> IllegalActionError:
    """The refusal for the core's reason ``code`` (an index in ``GS_REASON_NAMES``): its
    plan reason (``GS_REASON_BASE``), its words, and the core's name as ``detail``."""
    name = _guandan.GS_REASON_NAMES[code]
    base = REASONS[_guandan.GS_REASON_BASE[code] - 1]
    return IllegalActionError(base, _NATIVE_MESSAGES.get(name, name.lower()), name)
