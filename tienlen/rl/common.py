"""What every game's RL envs share and no game decides: the envs' errors, the checks of
their arguments and the pieces of Gymnasium's vector conventions. They live one layer down,
in :mod:`tienlen.table.encoding`, where the games' encoders use them too; this module
re-exports every name (the same objects), as it always has.

>>> from tienlen.rl.common import IllegalActionError
>>> IllegalActionError("action 9 is outside the action mask").reason_code
'ILLEGAL_ACTION'
"""

from __future__ import annotations

from ..table.encoding import (EnvStateError, IllegalActionError, OpponentError,
                              SampleMaskError, UnknownAgentError,
                              check_render_mode, flag_arg, native_policy, num_envs_arg,
                              opponents_arg, threads_arg, vector_actions, vector_seeds)

__all__ = ["IllegalActionError", "EnvStateError", "UnknownAgentError", "SampleMaskError",
           "OpponentError", "vector_seeds", "vector_actions", "num_envs_arg", "threads_arg",
           "flag_arg", "opponents_arg", "check_render_mode", "native_policy"]
