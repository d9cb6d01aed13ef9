"""203 A: allocations are secret and no player may look at a rival's Set Up Sheet. A pilot may
read of a rival only what is on the board (hex, facing, Velocity, still racing or not); what it
assumes of a rival's Screens and Laser are its own parameters. So a pilot's whole decision
(allocation, target, plan) must not change when a rival's Set Up Sheet or allocation does."""

import numpy as np
import pytest

from simkit.demons_run.pieces.layout import A_LASER, A_ME, A_SCR, A_SCREENS, A_TRACTOR, V_FACING
from simkit.demons_run.rules import FUEL, SI
from simkit.demons_run.scenario import RaceSim, decide, load_scenario, position

from test_demons_run_race import SCEN

HIDDEN_ALLOC = (A_ME, A_SCREENS, A_LASER, A_SCR, A_TRACTOR)


def _positions(sim, seed, n):
    """Ships drawn within a few hexes of each other (so rivals are in range, in the Field of
    Fire, near the same Buoys), any facing, Velocity 0-7."""
    rng = np.random.default_rng(seed)
    terrain = sim.BT.terrain
    clear = np.argwhere(terrain == 0)
    for _ in range(n):
        c0, r0 = clear[rng.integers(len(clear))]
        ships = {}
        for name in sim.sc.sides:
            while True:
                c = int(c0 + rng.integers(-4, 5))
                r = int(r0 + rng.integers(-4, 5))
                if 0 <= c < terrain.shape[0] and 0 <= r < terrain.shape[1] and terrain[c, r] == 0:
                    break
            ships[name] = {"pos": (c, r), "facing": int(rng.integers(0, 6)),
                           "velocity": int(rng.integers(0, 8))}
        yield position(sim, **ships)


def _hide(state, s, rng):
    """The same board with every rival's Set Up Sheet (Fuel, SI and every Function's Level)
    and allocation redrawn."""
    sh, sv, bu, hd = (a.copy() for a in state)
    for t in range(len(sh)):
        if t == s:
            continue
        sh[t] = rng.integers(0, 12, sh.shape[1])
        sh[t, FUEL] = rng.integers(1, 291)
        sh[t, SI] = rng.integers(1, 21)
        for a in HIDDEN_ALLOC:
            sv[t, a] = rng.integers(0, 12)
    return sh, sv, bu, hd


def _plain(d):
    return {k: (list(np.asarray(v).tolist()) if isinstance(v, np.ndarray) else v)
            for k, v in d.items()}


@pytest.mark.parametrize("scenario", ["raid.toml", "four-corners.toml"])
def test_a_pilot_never_reads_a_rivals_set_up_sheet_or_allocation_203_A(scenario):
    sim = RaceSim(load_scenario(SCEN / scenario))
    rng = np.random.default_rng(7)
    moved = 0
    for state in _positions(sim, 11, 12):
        for s, name in enumerate(sim.sc.sides):
            base = _plain(decide(sim, name, state))
            assert _plain(decide(sim, name, _hide(state, s, rng))) == base, (scenario, name)
            # what is on the board does count: a rival turned about changes some decision
            # (where its Field of Fire points), so the comparison above can see a pilot that
            # reads a rival
            sh, sv, bu, hd = (a.copy() for a in state)
            for t in range(len(sh)):
                if t != s:
                    sv[t, V_FACING] = (sv[t, V_FACING] + 3) % 6
            moved += _plain(decide(sim, name, (sh, sv, bu, hd))) != base
    assert moved > 0
