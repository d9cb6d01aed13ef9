"""Target facing in the road engine (p32): oblique hits and the side profile of a spun car.

'When the target is at 45 degrees to the road, where someone is firing onto or from a corner,
or where the target is in a completely different pair of lanes the shot may hit either the
rear/front, or the sides ... roll a dice ... even ... front/rear ... odd ... side. When a car
has spun through 90 degrees, critical hits are taken on the side profile.' `simkit weapons`
had both (``--facing oblique-*``, ``side``); the engine now gives them to every shot.
"""

from simkit.core import dice
from simkit.dark_future import engine as EG
from simkit.dark_future.pieces import vehicle as VH

from test_dark_future_engine import World

FRONT, REAR, SIDE = VH.F_FRONT, VH.F_REAR, VH.F_SIDE
OBL = VH.OBLIQUE


def _facing(w, v=1, u=0, base=REAR):
    return VH.hit_facing(w.T, w.V, v, u, base)


def test_facing_rules_p32():
    w = World(layout=("S", "S", "CL", "S", "S", "S", "S"))
    # both on straights with both lanes in common: plain rear (or front) facing
    w.place(0, 1, 2, 2, 60)
    w.place(1, 1, 2, 0, 60)
    assert _facing(w) == REAR and _facing(w, base=FRONT) == FRONT
    # one lane in common is still front/rear
    w.V[1, VH.V_LANE] = 3
    assert _facing(w) == REAR
    # a completely different pair of lanes (a side mount's 'beside' corridor, a turret)
    w.V[1, VH.V_LANE] = 0
    assert _facing(w) == REAR | OBL
    w.V[1, VH.V_LANE] = 2
    # spun through 90 degrees: the side profile, no roll (either way round)
    for att in (90, 270):
        w.V[0, VH.V_ATT] = att
        assert _facing(w) == SIDE, att
    # at 45 degrees to the road: oblique
    for att in (45, 135, 315):
        w.V[0, VH.V_ATT] = att
        assert _facing(w) == REAR | OBL, att
    # spun round to face the other way: a shot from behind strikes its front
    w.V[0, VH.V_ATT] = 180
    assert _facing(w) == FRONT
    w.V[0, VH.V_ATT] = 0
    # firing onto a corner, or from one: oblique
    w.place(0, 2, 2, 0, 60)
    w.place(1, 1, 2, 3, 60)
    assert _facing(w) == REAR | OBL
    w.place(0, 3, 2, 0, 60)
    w.place(1, 2, 2, 0, 60)
    assert _facing(w) == REAR | OBL
    # a turret's shot at a car level with it is a side hit already
    assert _facing(w, base=SIDE) == SIDE


def _hood_slot(w, v):
    for s in range(VH.MAXW):
        if w.WS[v, s, VH.W_KIND] == VH.WK_DIRECT and w.WS[v, s, VH.W_MOUNT] == VH.M_HOOD:
            return s
    raise AssertionError("no hood weapon")


def _shot(att, rolls):
    """The chase car's hood MG at a stationary target two spaces ahead in its lanes, turned
    ``att`` degrees: (dice used, the target's state, its fitted stations)."""
    w = World()
    w.place(0, 1, 2, 2, 0, side=0, role=VH.LEAD)
    w.place(1, 1, 2, 0, 0, side=1, role=VH.CHASE)
    w.V[0, VH.V_ATT] = att
    w.WS[1] = w.a.LOAD[1, 0]
    slot = _hood_slot(w, 1)
    st, s = w.script(rolls)
    EG._fire(st, s, w.B, w.V, w.WS, w.FIT, 2, 1, slot, w.common(),
             EG.Log(w.E, w.EN, 1, 1))
    state = w.V[0].copy()
    state[VH.V_ATT] = 0          # the set-up differs here by construction
    return int(st[dice.POS]), state, w.FIT[0].copy()


def test_engine_shots_roll_the_oblique_die_and_use_the_side_profile_p32():
    """A natural six on the damage roll is a critical (p28). On a car spun through 90 degrees
    the critical goes straight to the side matrix; on one at 45 degrees the engine rolls the
    oblique die first: odd is that same side hit, even the rear hit of a square target. Before,
    every engine shot used the corridor's front/rear facing."""
    # matrix 5: rear -> rear internal -> 4 fuel -> 5 explodes; side -> side internal -> 4
    # engine -> 5 ignition (engine disabled)
    tail = [5, 4, 5] + [3, 4, 2, 5, 1, 3, 4, 2, 5, 3, 4, 2, 3, 4, 5, 2, 3, 4, 5, 2] * 2
    n_side, v_side, f_side = _shot(90, [6, 6] + tail)
    n_obl, v_obl, f_obl = _shot(45, [6, 6, 1] + tail)
    assert n_obl == n_side + 1
    assert (v_obl == v_side).all() and (f_obl == f_side).all()
    n_rear, v_rear, f_rear = _shot(0, [6, 6] + tail)
    n_obl, v_obl, f_obl = _shot(45, [6, 6, 2] + tail)
    assert n_obl == n_rear + 1
    assert (v_obl == v_rear).all() and (f_obl == f_rear).all()
    # the side and rear matrices differ on these dice, so the facing is what changed
    assert not ((v_side == v_rear).all() and (f_side == f_rear).all())
    # no critical (damage roll 5): no oblique die either
    assert _shot(45, [6, 5] + tail)[0] == _shot(0, [6, 5] + tail)[0]
