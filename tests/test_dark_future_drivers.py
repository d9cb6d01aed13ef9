"""Drivers (issue 15, 'Drivers'): moving off when stopped, a halted spin or skid ending the
control loss (p46), in scripted positions through the policy and the engine's ``_act``."""

import numpy as np

from simkit.dark_future import engine as EG
from simkit.dark_future import policies as PO
from simkit.dark_future import vehicle as VH

from test_dark_future_engine import World


def _d(w, v, par, moves=False, n=2):
    return PO.decide(w.T, w.TM, w.M, w.NM, w.V, w.WS, n, v, moves, w.hp, par, w.tbuf)


def _act(w, st, s, v, pol, n=2, turn=1, phase=1):
    EG._act(st, s, w.T, w.TM, w.M, w.NM, w.V, w.WS, w.FIT, n, v, *w.common(), w.lim, w.oil,
            w.outc, w.tbuf, w.cl_lows, w.cl_codes, w.spin_t, pol, w.E, w.EN, turn, phase)


def test_a_car_halted_while_spinning_or_skidding_regains_control_p46():
    """A spinning car brought to a halt (by a ram: its speed set to 0 without a further spin
    roll) stops spinning and re-aligns next (p46: a spin lasts until the car comes to a
    halt); a skidding car halted square to the grid simply moves off. Before the fix both
    stayed out of control for ever (seeded Game One trials drawn at the turn limit)."""
    w = World()
    std = PO.policy_vector("standard")
    pol = np.stack([std, std])
    w.WS[:, :, VH.W_AMMO] = 0
    w.place(0, 4, 2, 0, 60, side=0, role=VH.LEAD)
    w.place(1, 1, 2, 0, 0, side=1, role=VH.CHASE)
    w.V[1, VH.V_OOC] = VH.SPINNING
    w.V[1, VH.V_ATT] = 90
    st, s = w.script([])
    _act(w, st, s, 1, pol)
    assert w.V[1, VH.V_OOC] == VH.IN_CONTROL
    assert w.V[1, VH.V_ATT] == 0 and w.V[1, VH.V_NEEDALIGN] == 0
    assert 0 < w.V[1, VH.V_MPH] <= w.G[EG.G_REALIGN]          # the re-alignment (p46)
    w.place(1, 1, 2, 0, 0, side=1, role=VH.CHASE)
    w.V[1, VH.V_OOC] = VH.OUT_OF_CONTROL
    w.V[1, VH.V_SKIDDIR] = 1
    _act(w, st, s, 1, pol)
    assert w.V[1, VH.V_OOC] == VH.IN_CONTROL and w.V[1, VH.V_SKIDDIR] == 0
    assert w.V[1, VH.V_MPH] > 0                                # moving off (p15)
