"""The search's random streams. The racing stream is ``dice.stream_key(seed)``; every other
stream (finals, ground truth, elimination race, polish rounds, the proposals' generator) is
derived from it with its own salt, so no two parts of a search share dice. Within a stream,
trial ``t`` is the same for every candidate: common random numbers."""

from __future__ import annotations

import numpy as np

from ..dice import _mix64_py


_FINAL_SALT = 0x46494E414C5F5345  # the finals' stream: independent of the racing stream
_TRUTH_SALT = 0x5452555448534545  # efficiency(): the ground truth's stream
_GA_SALT = 0x47415F50524F504F  # proposals' numpy generator
_RACE_SALT = 0x524143455F534545   # the elimination race's stream
_POLISH_SALT = 0x504F4C4953485F53  # the polish rounds' streams (one per round)


def _derived_key(key, salt: int) -> np.uint64:
    return np.uint64(_mix64_py((int(key) ^ salt) & 0xFFFFFFFFFFFFFFFF))
