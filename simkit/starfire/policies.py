"""Scripted admirals: policies chosen by name, each a compiled rule with a parameter vector.

A policy decides *where a ship wants to be* (a goal hex and a desired range from it) and
whether it uses its Tractor Beams; the battle engine turns that into legal moves hex by hex.
Fire targets are picked for every policy by the threat removed and the victory bought (below).
Policies read the whole state, and that is what a player keeping track can know: 2.31 hides
the control sheets from view, but every ship's sheet at the start is in the scenario both
players read, and everything that changes a sheet is done in the open (each hit and its
secondary die, Cargo Hold collapse, Point Defense and dampener results, moves, tractor
releases), so an opponent who notes it all knows each sheet as its owner does. What a player
cannot know -- the other side's plans -- no admiral reads: the look-ahead's rollouts play the
enemy as a default closer (``model`` 1) unless told otherwise. With ships built in secret (13.x,
not modelled) this would no longer hold.

Every admiral is data (DESIGN.md): ``SPACES[name]`` is its parameter space, a tuple of
:class:`Param` (name, bounds, default, kind) in the order of the compiled parameter vector, so
a search can explore it. Shared parameters keep one index across policies (``P_*`` below).

* ``closer``: close on the nearest enemy to the range with the best expected exchange over the
  next ``horizon`` turns (both ships' surviving weapons, the Probability and Effect of Hit
  tables, ranges where a weapon cannot fire count as zero; the side with the initiative fires
  first in the first turn of that exchange, and since it moves last (3.21, 4.6) it re-plans
  after the enemy has committed). Score = damage dealt - ``caution`` * damage received.
  ``fleet`` (0 to 1) blends in the whole fleets' exchange at that range (every ship of each side
  at it, each side's fire shrinking with its fleet's losses), scaled to this ship's share, so a
  swarm of small ships can close on big ones none of them could fight alone.
  Parameters: ``tractor`` (1: latch on when possible), ``range_bias`` (added to the range).
  A ship that cannot keep out of reach (the initiative fixed to its enemy, no more engines, its
  side not winning by surviving) fights only at ranges where its fire is at least ``engage`` x
  its best, taking the least bad of them: fleeing to extreme range only corners it at the map
  edge. Default 0.2, from a sweep in the mirror with the initiative fixed against the closer
  (300-500 battles each, two seeds): 0.2 won 22% [19%, 26%], 0.15 and 0.1 under 1%, 0.25-0.3
  5-10%, 0 (the least bad range anywhere, i.e. 20) 0%; the best standoff range (8) 21%.
* ``lookahead``: the closer, plus a look ahead each turn once the initiative is known (engine
  ``_look_ahead``): the closer's own plan and one range for the whole fleet (0-6, 8, 10, 12,
  15, 20) are each played out ``rollouts`` times over ``depth`` turns by the compiled engine
  itself, from a copy of the board, on the same dice for every candidate, and scored by the hull
  spaces the enemy loses less its own; a range replaces the closer's plan only when its paired
  mean gain exceeds ``margin`` standard errors. ``model`` 1 (default): the rollouts play every
  enemy as a closer with the default parameters, which is all a player can assume of an
  opponent; 0: as its own admiral (knowledge no player has: an upper bound). Hundreds of times
  slower than the others (``COSTLY``). Parameters: the closer's, then ``rollouts``, ``depth``,
  ``margin``, ``model``.
* ``standoff``: hold ``range`` hexes from the nearest enemy. Parameters: ``range``, ``tractor``.
* ``scripted`` (not offered to ``--policy``): each ship's moves are given point by point in the
  scenario file (``moves``), for replaying rulebook examples; illegal moves are errors.
* ``objective``: go for the side's scan targets (to within ``scan_range`` hexes), then its exit
  warp point, and leave the map there. Parameters: ``scan_range``, ``tractor``.

Leaving by the exit warp point (9.4), every policy but ``scripted``, where the side's objective
rewards it: a side with an ``exit`` whose objective is ``scan_and_exit`` (a ship that leaves
scores at least a minor win) or ``destroy`` (a ship that leaves is not a ship lost, and the
enemy cannot destroy every ship). A ship of such a side (not an escort, not a Base) *retreats*
-- heads for the exit, scanning nothing more, and leaves on reaching it -- once its share of
intact systems, or its side's best share of the fleets' expected exchange over the coming turns
(dealt / (dealt + received) at the best range: below 0.5 the fight is lost at every range), is
at most ``retreat`` (0: never; 1: at once). A ``scan_and_exit`` side that has no enemy left on
the map goes for its scans and then the exit whatever its policy (there is nothing left to
fight). ``survive`` sides never leave: that objective scores ships on the map. Default 0.5,
from First Contact (1000 battles, seed 5, the Terran's wins = its exits): closer 55.4% at 0,
80.3% at 0.5, 89.1% at 0.7; standoff 9.2%, 36.4%, 81.8%; objective 81.3% up to 0.6 (its
Science Instruments go before half its systems), 89.1% at 0.7, at the cost of decisive wins
(4.5% -> 2.1%); at 1 every policy leaves at once for a sure minor win.

Targets (every policy): score = ``w_threat`` * (enemy damage per turn removed: the weapons the
expected volley destroys in damage order, plus the target's whole threat times the fraction of
its systems the volley destroys) + ``w_points`` * hull spaces * that fraction. A target that can
neither shoot (no intact weapon) nor score (not a ship that must scan or exit) is not fired at
while an armed enemy is within reach.
"""

from __future__ import annotations

from typing import NamedTuple


class Param(NamedTuple):
    name: str
    lo: float
    hi: float
    default: float
    kind: str  # "int", "float" or "bool"


POLICIES = {"closer": 0, "standoff": 1, "objective": 2, "lookahead": 4}
#: hundreds of times slower than the others (it plays each turn out in its head): played where
#: named, left out of ``--policies all`` and the balance search (core.game.PolicySpace.costly)
COSTLY = ("lookahead",)
#: not a policy to choose: moves given hex by hex in the scenario file (rulebook examples, tests)
SCRIPTED = {"scripted": 3}

#: ``retreat`` defaults (measured in first-contact, docs/rules/starfire.md "Battles")
RETREAT_DEFAULT = {"closer": 0.5, "standoff": 0.5, "objective": 0.5, "lookahead": 0.5}
_TARGET = (Param("w_threat", 0.0, 10.0, 1.0, "float"),
           Param("w_points", 0.0, 10.0, 1.0, "float"))
SPACES = {
    "closer": (Param("tractor", 0, 1, 1, "bool"), Param("range_bias", -5, 5, 0, "int"))
    + _TARGET + (Param("caution", 0.0, 3.0, 1.0, "float"), Param("horizon", 1, 6, 3, "int"),
                 Param("fleet", 0.0, 1.0, 0.0, "float"), Param("engage", 0.0, 1.0, 0.2, "float"),
                 Param("retreat", 0.0, 1.0, RETREAT_DEFAULT["closer"], "float")),
    # the closer's space (same order: the engine reads it as the closer's), then the rollouts
    "lookahead": (Param("tractor", 0, 1, 1, "bool"), Param("range_bias", -5, 5, 0, "int"))
    + _TARGET + (Param("caution", 0.0, 3.0, 1.0, "float"), Param("horizon", 1, 6, 3, "int"),
                 Param("fleet", 0.0, 1.0, 0.0, "float"), Param("engage", 0.0, 1.0, 0.2, "float"),
                 Param("retreat", 0.0, 1.0, RETREAT_DEFAULT["lookahead"], "float"),
                 Param("rollouts", 2, 32, 8, "int"), Param("depth", 1, 6, 3, "int"),
                 Param("margin", 0.0, 4.0, 2.0, "float"), Param("model", 0, 1, 1, "bool")),
    "standoff": (Param("range", 0, 20, 8, "int"), Param("tractor", 0, 1, 0, "bool")) + _TARGET
    + (Param("retreat", 0.0, 1.0, RETREAT_DEFAULT["standoff"], "float"),),
    "objective": (Param("scan_range", 0, 3, 1, "int"), Param("tractor", 0, 1, 0, "bool"))
    + _TARGET + (Param("retreat", 0.0, 1.0, RETREAT_DEFAULT["objective"], "float"),),
    "scripted": (Param("scan_range", 0, 3, 1, "int"), Param("tractor", 0, 1, 0, "bool"))
    + _TARGET,
}
PARAMS = {name: {p.name: float(p.default) for p in space} for name, space in SPACES.items()}
N_PARAMS = max(len(space) for space in SPACES.values())
P_CLOSER, P_STANDOFF, P_OBJECTIVE, P_SCRIPTED, P_LOOKAHEAD = 0, 1, 2, 3, 4
#: indices in the parameter vector shared by every policy, and the closer's own
I_W_THREAT, I_W_POINTS, I_CAUTION, I_HORIZON, I_FLEET, I_ENGAGE = 2, 3, 4, 5, 6, 7
#: where ``retreat`` sits in each policy's vector (its last parameter; -1: the policy has none)
I_RETREAT = tuple(next((i for i, p in enumerate(SPACES[name]) if p.name == "retreat"), -1)
                  for name in sorted({**POLICIES, **SCRIPTED}, key={**POLICIES, **SCRIPTED}.get))
for _space in SPACES.values():
    assert (_space[I_W_THREAT].name, _space[I_W_POINTS].name) == ("w_threat", "w_points")
assert tuple(SPACES["closer"][i].name for i in (I_CAUTION, I_HORIZON, I_FLEET, I_ENGAGE)) == (
    "caution", "horizon", "fleet", "engage")
assert SPACES["lookahead"][:len(SPACES["closer"])] == SPACES["closer"]
#: the look-ahead admiral's own parameters
I_ROLLOUTS, I_DEPTH, I_MARGIN, I_MODEL = (len(SPACES["closer"]) + k for k in range(4))
assert tuple(SPACES["lookahead"][i].name for i in (I_ROLLOUTS, I_DEPTH, I_MARGIN, I_MODEL)) == (
    "rollouts", "depth", "margin", "model")


def default_params(name: str) -> dict:
    return dict(PARAMS[name])


def space(name: str) -> tuple:
    """The named, typed parameter space of policy ``name`` (order = the compiled vector)."""
    return SPACES[name]


def tractor_param_index(name: str) -> int:
    return list(PARAMS[name]).index("tractor")


# --- a policy's decision in a scripted position (for tests and for explaining choices) -------

def decide(scenario, ship: str, *, damage: dict | None = None, first: int = -1,
           moved: dict | None = None, seed: int = 0, primary_spent: tuple = ()):
    """What the side's policy wants for ``ship`` in the scenario's opening position.

    ``damage`` maps ship names to system indices already destroyed; ``moved`` maps ship names to
    hexes ("CCRR") they stand on instead; ``first``: 1 when the ship's side has the initiative
    (fires first, moves last), 0 when the enemy has it, -1 unknown. Returns
    dict(goal=CCRR, desired_range=int, target=name of the fire target it prefers or None,
    look_ahead=the range the look-ahead admiral picks for its fleet this turn, None when the
    side's admiral is another or keeps the closer's own plan).
    Ties (equally near enemies, equally worthy targets) are broken by the stream of ``seed``.
    ``primary_spent`` names ships whose Primary Beams fired last turn (6.5: not ready now).
    """
    import numpy as np

    from ..core import dice
    from .engine import (MAX_RANGE, NEVER, ON_MAP, SI_SIDE, BattleSim, State, _copy_state,
                         _fill_modes, _fill_ship_ev, _look_ahead, _modelled, _pick_target, _plan)
    from .pieces.hexmap import hex_label

    sim = BattleSim(scenario)
    a = sim.a
    n = len(scenario.ships)
    hp = np.zeros(a.codes.shape, dtype=np.int64)
    for i in range(n):
        hp[i, :a.nsys[i]] = 2
    for name, idx in (damage or {}).items():
        hp[scenario.ship_index(name), list(idx)] = 0
    status = np.array([ON_MAP if s.arrives == 1 else 0 for s in scenario.ships], dtype=np.int64)
    col = a.ship_int[:, 1].copy()
    row = a.ship_int[:, 2].copy()
    fac = a.ship_int[:, 3].copy()
    for name, h in (moved or {}).items():
        i = scenario.ship_index(name)
        col[i], row[i] = int(h[:2]), int(h[2:])
    s = scenario.ship_index(ship)
    nsides = len(scenario.sides)
    ready = np.array([0 if sh.name in primary_spent else 1 for sh in scenario.ships],
                     dtype=np.int64)

    def zeros(*shape, dtype=np.int64):
        return np.zeros(shape, dtype=dtype)

    # the battle state at the start of a turn; plans see the positions themselves (pcol, prow)
    side = int(a.ship_int[s, SI_SIDE])
    order = np.array([side] + [x for x in range(nsides) if x != side], dtype=np.int64)
    if first == 0:   # unknown (-1) reads as the side's own initiative
        order = np.roll(order, -1)
    prim_last = np.where(ready == 1, -10, 0).astype(np.int64)   # spent: fired on turn 0
    S = State(hp, status, col, row, fac, zeros(n), zeros(n, n), prim_last, zeros(n), zeros(n),
              zeros(n, 2), np.full(nsides, NEVER, dtype=np.int64),
              zeros(nsides, a.scan.shape[1]), order, col.copy(), row.copy(), zeros(n), zeros(n),
              zeros(n), zeros(3), zeros(n, MAX_RANGE + 1, dtype=np.float64),
              zeros(a.codes.shape[1]), zeros(3), zeros(n + 1), zeros(2, dtype=np.float64),
              zeros(n), np.full(nsides, -1, dtype=np.int64))
    _fill_ship_ev(a.codes, hp, a.nsys, sim.ev, S.shipev, ready)
    _fill_modes(sim.fleet, S)
    st = dice.new_state()
    dice.seed_trial(st, dice.stream_key(seed), 0)
    script = np.zeros(0, dtype=np.int64)
    _plan(sim.fleet, S, s, first, st, script)
    goal, pick = S.goal, S.pick
    t = _pick_target(sim.fleet, S, s, 0, 1, -1, st, script)
    target = scenario.ships[t].name if t >= 0 and pick[1] > 0.0 else None
    out = {"goal": hex_label(goal[0], goal[1]), "desired_range": int(goal[2]), "target": target,
           "look_ahead": None}
    if scenario.side_policy[side] == "lookahead":
        r = _look_ahead(1, sim.fleet, _modelled(sim.fleet), sim.kernel_tables, S, _copy_state(S),
                        side, st)
        out["look_ahead"] = None if r < 0 else int(r)
    return out
