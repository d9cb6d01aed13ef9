"""Scripted admirals: policies chosen by name, each a compiled rule with a parameter vector.

A policy decides *where a ship wants to be* (a goal hex and a desired range from it) and
whether it uses its Tractor Beams; the battle engine turns that into legal moves hex by hex,
and picks fire targets by expected kills for every policy. Policies see the whole state: the
real game hides control sheets (2.31), so simkit's admirals know more than a player would.

* ``closer``: close on the nearest enemy to the range where this ship's weapons out-damage that
  enemy's by the most (computed from the Probability and Effect of Hit tables and both ships'
  surviving weapons, every turn). Parameters: ``tractor`` (1: latch on when possible),
  ``range_bias`` (added to the computed range).
* ``standoff``: hold ``range`` hexes from the nearest enemy. Parameters: ``range``, ``tractor``.
* ``scripted`` (not offered to ``--policy``): each ship's moves are given point by point in the
  scenario file (``moves``), for replaying rulebook examples; illegal moves are errors.
* ``objective``: go for the side's scan targets (to within ``scan_range`` hexes), then its exit
  warp point, and leave the map there. Parameters: ``scan_range``, ``tractor``.
"""

from __future__ import annotations

POLICIES = {"closer": 0, "standoff": 1, "objective": 2}
#: not a policy to choose: moves given hex by hex in the scenario file (rulebook examples, tests)
SCRIPTED = {"scripted": 3}
PARAMS = {
    "closer": {"tractor": 1.0, "range_bias": 0.0},
    "standoff": {"range": 8.0, "tractor": 0.0},
    "objective": {"scan_range": 1.0, "tractor": 0.0},
    "scripted": {"scan_range": 1.0, "tractor": 0.0},
}
N_PARAMS = 4
P_CLOSER, P_STANDOFF, P_OBJECTIVE, P_SCRIPTED = 0, 1, 2, 3


def default_params(name: str) -> dict:
    return dict(PARAMS[name])


def tractor_param_index(name: str) -> int:
    return list(PARAMS[name]).index("tractor")
