"""The board buffer ``B`` of the road engine: the track, its markers and the scratch space of one
game in one int64 array, in fixed pieces (``B_*``, and ``K_*`` inside the scratch ``K``).

Engine and drivers both take ``B`` and cut the views they read (numba counts a reference to
every array that crosses a compiled call, so one buffer is cheaper than five arrays). See
:mod:`.road` for the track and marker layouts themselves.
"""

from __future__ import annotations

import numpy as np

from . import road as RD
from ..procedures import shooting as SH

# --- the scratch buffer K -------------------------------------------------------------------------
# One buffer per game holds the shot kernel's scratch (ws), its parameters (sp) and outputs (o),
# a move's hazard list (lim, oil, outc) and the target search's (tbuf): numba counts a reference
# to every array that crosses a call, and these seven crossed nearly every call of a phase. A
# function cuts out only the pieces it reads itself.
K_WS, K_WS_END = 0, SH.SCRATCH
K_SP, K_SP_END = K_WS_END, K_WS_END + 32
K_O, K_O_END = K_SP_END, K_SP_END + 8
K_LIM, K_LIM_END = K_O_END, K_O_END + SH.MAX_TESTS
K_OIL, K_OIL_END = K_LIM_END, K_LIM_END + SH.MAX_TESTS
K_OUTC, K_OUTC_END = K_OIL_END, K_OIL_END + SH.MAX_TESTS
K_TBUF, K_TBUF_END = K_OUTC_END, K_OUTC_END + 8
K_W = K_TBUF_END


def new_scratch():
    """A zeroed scratch buffer K (the K_* pieces)."""
    return np.zeros(K_W, np.int64)


# --- the board buffer B --------------------------------------------------------------------------
# One buffer per game holds the track T, its meta cells TM, the markers M, their count NM and the
# scratch K, for the same reason as K: one reference counted per call instead of five. A
# function views the pieces it reads itself.
B_T, B_T_END = 0, RD.MAXSEC * RD.T_W
B_TM, B_TM_END = B_T_END, B_T_END + RD.TM_W
B_M, B_M_END = B_TM_END, B_TM_END + RD.MAXM * RD.MK_W
B_NM, B_NM_END = B_M_END, B_M_END + 1
B_K, B_K_END = B_NM_END, B_NM_END + K_W
B_W = B_K_END


def new_board():
    """A zeroed board buffer B (the B_* pieces)."""
    return np.zeros(B_W, np.int64)


def board_views(B):
    """The pieces of a board buffer as views: (T, TM, M, NM, K)."""
    return (B[B_T:B_T_END].reshape((RD.MAXSEC, RD.T_W)), B[B_TM:B_TM_END],
            B[B_M:B_M_END].reshape((RD.MAXM, RD.MK_W)), B[B_NM:B_NM_END], B[B_K:B_K_END])
