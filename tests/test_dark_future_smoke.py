"""Smoke in the fire corridor (p30) and firing out of a double hit of smoke (p31), in the road
engine: which markers a shot counts, and that the count reaches the hit roll."""

from simkit.dark_future import engine as EG
from simkit.dark_future.pieces import road as RD
from simkit.dark_future.pieces import vehicle as VH

from test_dark_future_engine import World


def _smoke(w, sec, sp, lane=2):
    RD._add_marker(w.M, w.NM, RD.SMOKE, sec, lane, lane + 1, RD.rear_x(w.T, sec, lane, sp),
                   RD.front_x(w.T, sec, lane, sp), 1, 1)


def _count(w, v=0, u=1):
    assert VH.find_target(w.T, w.V, 2, v, VH.M_HOOD, w.tbuf) == u
    return VH.smoke_in_fire(w.T, w.V, w.M, w.NM, v, u, w.tbuf[3], w.tbuf[4], w.tbuf[5],
                            w.tbuf[6])


def _world():
    """A straight road; car 0 on lanes 2-3 of section 0, space 0; car 1 four spaces ahead in
    the same lanes (section 1, space 1; three spaces a section)."""
    w = World(layout=("S", "S", "S"))
    w.place(0, 0, 2, 0, 60)
    w.place(1, 1, 2, 1, 60)
    assert RD.pair_spaces(w.T, 0, 2) == 3
    return w


def test_smoke_underneath_the_target_counts_p30():
    """'When working out how much smoke there is in a fire corridor, shooters count any smoke
    marker which is actually underneath the target model' (p30). The engine used to count only
    markers between the two cars."""
    w = _world()
    assert _count(w) == 0
    _smoke(w, 1, 1)                       # under the target
    assert _count(w) == 1
    _smoke(w, 1, 0)                       # in between, as well
    assert _count(w) == 2
    _smoke(w, 1, 2)                       # beyond the target: not in the corridor
    assert _count(w) == 2
    _smoke(w, 1, 1, lane=0)               # under no one and outside the corridor's lanes
    assert _count(w) == 2


def test_firing_out_of_a_double_hit_of_smoke_is_minus_one_p31():
    """p31, Double Hits, Smoke: 'If the car chooses to fire out from the smoke, it does so with
    only a minus one to hit for the two markers underneath the model.' Markers underneath the
    firer count once (a lone one too: the reading in dark-future.md); others add as usual."""
    w = _world()
    _smoke(w, 0, 0)
    assert _count(w) == 1
    _smoke(w, 0, 0)                       # the double hit: two markers on one spot
    assert _count(w) == 1
    _smoke(w, 0, 2)                       # and one in the corridor ahead
    assert _count(w) == 2


def _hit(rolls, markers, at=(3, 0)):
    """The chase car's hood MG at a stationary target at ``at`` (section, space; the firer is at
    1, 0), with smoke markers at ``markers`` (section, space); whether the scripted roll hits."""
    w = World()
    w.place(0, at[0], 2, at[1], 0, side=0, role=VH.LEAD)
    w.place(1, 1, 2, 0, 0, side=1, role=VH.CHASE)
    w.WS[1] = w.a.LOAD[1, 0]
    slot = next(s for s in range(VH.MAXW) if w.WS[1, s, VH.W_KIND] == VH.WK_DIRECT
                and w.WS[1, s, VH.W_MOUNT] == VH.M_HOOD)
    for sec, sp in markers:
        _smoke(w, sec, sp)
    st, s = w.script(rolls)
    EG._fire(st, s, w.B, w.V, w.WS, w.FIT, 2, 1, slot, w.common(), EG.Log(w.E, w.EN, 1, 1))
    # event rows: (turn, phase, actor, kind, target, weapon, range, hit, ...)
    shots = [e for e in w.E[:w.EN[0]] if e[3] == EG.EV_SHOT]
    assert len(shots) == 1 and shots[0][4] == 0
    return int(shots[0][7])


def test_the_smoke_count_reaches_the_hit_roll_p30():
    """The lowest die that hits in the clear misses with the target sitting on smoke, and with
    the firer sitting on two markers, and a die one higher hits again."""
    tail = [1] * 40
    lowest = next(r for r in range(1, 7) if _hit([r] + tail, []) == 1)
    assert lowest > 1 and _hit([lowest - 1] + tail, []) == 0
    assert _hit([lowest] + tail, [(3, 0)]) == 0             # underneath the target
    assert _hit([lowest + 1] + tail, [(3, 0)]) == 1
    assert _hit([lowest] + tail, [(1, 0), (1, 0)]) == 0     # two underneath the firer
    assert _hit([lowest + 1] + tail, [(1, 0), (1, 0)]) == 1
