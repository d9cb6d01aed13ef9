"""The Demo Derby record sheet and its damage flow (demo-derby.txt, Record Sheet).

A sheet is an int64 array of boxes crossed off per part (layout ``rules.PARTS``). One damage
point aimed at a part is crossed off there; when that part is already full it flows on as the
rule text says (``damage_overflow`` table): a flat front tire into the body on its side, a flat
rear tire into the trunk, a full body side or a full radiator into the engine. Engine damage
crosses the highest-numbered box, so the highest uncrossed box is the maximum speed. All engine
boxes or all trunk boxes crossed puts the car out; a full radiator lets it move two more turns,
then it stalls (counted by the round engine, not here). Each flat tire costs one hex of movement.

Two implementations with one meaning: compiled functions for kernels, and :class:`RecordSheet`,
a plain-Python reference written close to the rule text, which the tests hold them to.
"""

from __future__ import annotations

import numpy as np

from ...core._numba import jit
from ..rules import (ENGINE, LAPS, N_PARTS, PARTS, RADIATOR, TIRES, TRUNK, Tables)


def fresh_sheet() -> np.ndarray:
    return np.zeros(N_PARTS, np.int64)


@jit
def is_out(sheet, capacity):
    """All engine boxes or all trunk boxes crossed: the car cannot move and is out."""
    return sheet[ENGINE] >= capacity[ENGINE] or sheet[TRUNK] >= capacity[TRUNK]


@jit
def apply_point(sheet, capacity, overflow, part):
    """Cross off one damage point aimed at ``part``, following overflow; returns the part hit
    (-1 if the point fell on an engine or trunk already full, i.e. on a car already out)."""
    p = part
    while True:
        if sheet[p] < capacity[p]:
            sheet[p] += 1
            return p
        nxt = overflow[p]
        if nxt < 0:
            return -1
        p = nxt


@jit
def flat_tires(sheet, capacity):
    n = 0
    for t in range(4):  # TIRES are parts 0..3
        if sheet[t] >= capacity[t]:
            n += 1
    return n


@jit
def max_speed(sheet, capacity):
    """The highest uncrossed engine box (engine damage crosses the highest box first)."""
    return capacity[ENGINE] - sheet[ENGINE]


@jit
def radiator_full(sheet, capacity):
    return sheet[RADIATOR] >= capacity[RADIATOR]


@jit
def hexes_moved(recorded, sheet, capacity, penalty):
    """Hexes a car moves for a recorded speed: one fewer per flat tire (never below zero)."""
    n = recorded - penalty * flat_tires(sheet, capacity)
    return n if n > 0 else 0


class RecordSheet:
    """Plain-Python reference of the record sheet, phrased as the rulebook phrases it."""

    FRONT_TIRE_SIDE = {"tire_left_front": "body_left", "tire_right_front": "body_right"}
    REAR_TIRES = ("tire_left_rear", "tire_right_rear")

    def __init__(self, tables: Tables, crossed=None):
        self.boxes = {p: int(tables.capacity[i]) for i, p in enumerate(PARTS)}
        self.crossed = {p: 0 for p in PARTS}
        if crossed is not None:
            for i, p in enumerate(PARTS):
                self.crossed[p] = int(crossed[i])

    def array(self) -> np.ndarray:
        return np.array([self.crossed[p] for p in PARTS], np.int64)

    def full(self, part) -> bool:
        return self.crossed[part] >= self.boxes[part]

    def damage(self, part: str) -> None:
        """One point of damage to ``part``."""
        if part.startswith("tire_") and self.full(part):
            # "When a tire is flat, any additional damage to a rear tire is crossed off in the
            # trunk, and any additional damage to a front tire is marked on the body on the same
            # side as that tire."
            part = "trunk" if part in self.REAR_TIRES else self.FRONT_TIRE_SIDE[part]
        if part.startswith("body_") and self.full(part):
            part = "engine"  # "Any additional damage to that side of the body ... in the engine."
        if part == "radiator" and self.full(part):
            part = "engine"  # "Any additional damage to the radiator is crossed off in the engine"
        if not self.full(part):
            self.crossed[part] += 1

    def out(self) -> bool:
        return self.full("engine") or self.full("trunk")

    def flat_tires(self) -> int:
        return sum(self.full(t) for t in ("tire_left_front", "tire_right_front",
                                          "tire_left_rear", "tire_right_rear"))

    def max_speed(self) -> int:
        # "The car's maximum speed is the uncrossed engine box with the highest number."
        uncrossed = [b for b in range(1, self.boxes["engine"] + 1)
                     if b <= self.boxes["engine"] - self.crossed["engine"]]
        return max(uncrossed, default=0)

    def hexes_moved(self, recorded: int) -> int:
        return max(0, recorded - self.flat_tires())


assert TIRES == (0, 1, 2, 3) and LAPS == 9  # the compiled loops rely on this layout
