"""One event-log layout for every game's compiled engine, with overflow detected.

A compiled game writes what happened into an :class:`EventLog`: a fixed-width ``int64`` table
whose columns are the same in every game (:data:`COLUMNS`: turn, phase, actor, kind and seven
payload fields whose meaning depends on ``kind``) and a one-cell counter. The counter keeps
counting past the table's capacity, so a log that was too small is *known* to be too small:
:meth:`EventLog.rows` refuses it with one clear message instead of returning a silently cut
game (Dark Future's own writer used to stop counting at the capacity).

Only the playthrough of one logged game writes events; the Monte Carlo runs pass a log of
capacity 0, and :func:`log_event` then costs one compare and one increment.

:func:`recorded_trial` is the other half of a playthrough every game shares: trial ``trial`` of
``seed`` exactly as the Monte Carlo plays it, with every roll recorded for the log.
"""

from __future__ import annotations

from typing import Callable, NamedTuple

import numpy as np

from . import dice
from ._numba import jit
from .errors import UserInputError

#: the columns of every game's event log, in order
COLUMNS = ("turn", "phase", "actor", "kind", "a", "b", "c", "d", "e", "f", "g")
TURN, PHASE, ACTOR, KIND, A, B, C, D, E, F, G = range(len(COLUMNS))
WIDTH = len(COLUMNS)
#: ``phase`` / ``actor`` of an event that belongs to no phase or to no single actor
NONE = -1


class EventLog(NamedTuple):
    """``rows[i]`` is event ``i`` (:data:`COLUMNS`); ``count[0]`` counts every event written,
    including those past the capacity (``rows.shape[0]``), which are dropped."""
    rows: np.ndarray     # int64[capacity, WIDTH]
    count: np.ndarray    # int64[1]

    def overflowed(self) -> bool:
        return int(self.count[0]) > self.rows.shape[0]

    def table(self, *, where: str = "the event log") -> np.ndarray:
        """The events written, oldest first; an overflowed log is an error, never a cut log."""
        n = int(self.count[0])
        if n > self.rows.shape[0]:
            raise LogOverflow(f"{where}: {n:,} events were written to a log of capacity "
                              f"{self.rows.shape[0]:,}; play it again with a larger log "
                              "(max_events)")
        return self.rows[:n]

    def frame(self, kinds: dict[int, str] | None = None, *, where: str = "the event log"):
        """The events as a pandas frame, ``kind`` named by ``kinds`` where given."""
        import pandas as pd

        df = pd.DataFrame(self.table(where=where), columns=list(COLUMNS))
        if kinds:
            df["kind"] = df["kind"].map(lambda k: kinds.get(int(k), int(k)))
        return df


class LogOverflow(UserInputError):
    """A logged game wrote more events than its log holds."""


def new_log(capacity: int) -> EventLog:
    """An empty log holding ``capacity`` events (0 for the Monte Carlo: nothing is kept)."""
    return EventLog(np.zeros((int(capacity), WIDTH), np.int64), np.zeros(1, np.int64))


@jit
def write_event(rows, count, event):
    """Write ``event`` (a tuple of the :data:`COLUMNS`' eleven values) into ``rows``; past the
    capacity only count it (the reader reports the overflow). Every game's compiled log writer
    is this call. The event is one tuple of scalars, which crosses a call for free, rather than
    eleven parameters."""
    i = count[0]
    if i < rows.shape[0]:
        r = rows[i]
        r[0] = event[0]
        r[1] = event[1]
        r[2] = event[2]
        r[3] = event[3]
        r[4] = event[4]
        r[5] = event[5]
        r[6] = event[6]
        r[7] = event[7]
        r[8] = event[8]
        r[9] = event[9]
        r[10] = event[10]
    count[0] = i + 1


@jit
def log_event(ev, event):
    """:func:`write_event` into an :class:`EventLog`."""
    write_event(ev.rows, ev.count, event)


def recorded_trial(play: Callable[[np.ndarray, np.ndarray], object], seed: int, trial: int,
                   *, max_rolls: int = 100_000):
    """Play trial ``trial`` of ``seed`` with every roll recorded: ``(result, rolls)``.

    ``play(st, rolls)`` runs the game's compiled one-game function on the dice state ``st``
    (seeded exactly as the Monte Carlo seeds that trial) with ``rolls`` as the recording
    array; ``rolls`` comes back cut to the rolls made, in order."""
    st = dice.new_state()
    dice.seed_trial(st, dice.stream_key(seed), trial)
    dice.set_recording(st)
    rolls = np.zeros(int(max_rolls), np.int64)
    result = play(st, rolls)
    return result, rolls_made(st, rolls, where=f"trial {trial} of seed {seed}")


def rolls_made(st: np.ndarray, rolls: np.ndarray, *, where: str) -> np.ndarray:
    """The rolls a recorded game made, in order (a view of ``rolls``); a recording too small for
    them is an error, never a cut list."""
    used = int(dice.script_position(st))
    if used > rolls.shape[0]:
        raise LogOverflow(f"{where} rolled {used:,} dice; the recording holds "
                          f"{rolls.shape[0]:,} (max_rolls)")
    return rolls[:used]
