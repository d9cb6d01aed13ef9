"""The record sheet's damage flow (demo-derby.txt, Record Sheet; Movement: Flat tires).

The compiled sheet functions are held to the plain-Python reference on random damage
sequences, and both to the rule text on hand-built cases."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from simkit.demo_derby.rules import (BODY_L, BODY_R, ENGINE, HIT_PARTS, PARTS, RADIATOR,
                                     TIRE_LF, TIRE_LR, TIRE_RF, TIRE_RR, TRUNK, build_tables)
from simkit.demo_derby.pieces.sheet import (RecordSheet, apply_point, flat_tires, fresh_sheet,
                                     hexes_moved, is_out, max_speed, radiator_full)

T = build_tables()
CAP, OV = T.capacity, T.overflow


def sheet_with(**crossed):
    s = fresh_sheet()
    for part, n in crossed.items():
        s[PARTS.index(part)] = n
    return s


def hit(s, part, times=1):
    for _ in range(times):
        apply_point(s, CAP, OV, PARTS.index(part))
    return s


def test_recorded_7_with_two_flat_tires_moves_5():
    """demo-derby.txt (Movement, Flat tires): 'if the player recorded a movement of 7 and their
    car has 2 flat tires, the car can only move 5 hexes.'"""
    s = sheet_with(tire_left_front=3, tire_right_rear=3)
    assert flat_tires(s, CAP) == 2
    assert hexes_moved(7, s, CAP, T.limits["flat_tire_penalty"]) == 5
    assert RecordSheet(T, s).hexes_moved(7) == 5
    assert hexes_moved(7, sheet_with(tire_left_front=2), CAP, 1) == 7  # not yet flat
    all_flat = sheet_with(tire_left_front=3, tire_right_front=3, tire_left_rear=3, tire_right_rear=3)
    assert hexes_moved(3, all_flat, CAP, 1) == 0


def test_flat_front_tire_overflows_into_the_body_on_its_side():
    s = hit(fresh_sheet(), "tire_right_front", 4)
    assert s[TIRE_RF] == 3 and s[BODY_R] == 1 and s[BODY_L] == 0
    s = hit(fresh_sheet(), "tire_left_front", 5)
    assert s[TIRE_LF] == 3 and s[BODY_L] == 2 and s[BODY_R] == 0


def test_flat_rear_tire_overflows_into_the_trunk():
    s = hit(fresh_sheet(), "tire_left_rear", 4)
    assert s[TIRE_LR] == 3 and s[TRUNK] == 1
    s = hit(fresh_sheet(), "tire_right_rear", 3)
    assert s[TIRE_RR] == 3 and s[TRUNK] == 0


def test_full_body_side_overflows_into_the_engine_and_crosses_the_highest_box():
    s = hit(fresh_sheet(), "body_left", 6)
    assert s[BODY_L] == 6 and s[ENGINE] == 0 and max_speed(s, CAP) == 8
    hit(s, "body_left")
    assert s[ENGINE] == 1 and max_speed(s, CAP) == 7  # box 8 crossed: max speed is 7
    # a flat front tire feeding a full body side goes on into the engine
    s = sheet_with(tire_right_front=3, body_right=6)
    hit(s, "tire_right_front")
    assert s[ENGINE] == 1 and s[BODY_R] == 6


def test_full_radiator_overflows_into_the_engine():
    s = hit(fresh_sheet(), "radiator", 2)
    assert radiator_full(s, CAP) and s[ENGINE] == 0 and not is_out(s, CAP)
    hit(s, "radiator")
    assert s[RADIATOR] == 2 and s[ENGINE] == 1


def test_all_engine_or_all_trunk_boxes_put_the_car_out():
    s = hit(fresh_sheet(), "engine", 7)
    assert not is_out(s, CAP) and max_speed(s, CAP) == 1
    hit(s, "engine")
    assert is_out(s, CAP) and max_speed(s, CAP) == 0
    assert RecordSheet(T, s).out() and RecordSheet(T, s).max_speed() == 0
    s = hit(fresh_sheet(), "trunk", 9)
    assert not is_out(s, CAP)
    hit(s, "tire_left_rear", 4)  # flat rear tire's fourth point finishes the trunk
    assert is_out(s, CAP) and s[TRUNK] == 10


def test_a_point_on_a_full_engine_goes_nowhere():
    s = sheet_with(engine=8)
    assert apply_point(s, CAP, OV, ENGINE) == -1
    assert apply_point(sheet_with(body_left=6, engine=8), CAP, OV, BODY_L) == -1


start_sheets = st.tuples(*[st.integers(0, int(c)) for c in CAP[:9]])


@settings(max_examples=300, deadline=None)
@given(start=start_sheets, parts=st.lists(st.sampled_from(HIT_PARTS), max_size=40))
def test_compiled_sheet_agrees_with_the_reference(start, parts):
    s = np.array(list(start) + [0], np.int64)
    ref = RecordSheet(T, s)
    for part in parts:
        apply_point(s, CAP, OV, PARTS.index(part))
        ref.damage(part)
        assert np.array_equal(s, ref.array())
        assert is_out(s, CAP) == ref.out()
        assert max_speed(s, CAP) == ref.max_speed()
        assert flat_tires(s, CAP) == ref.flat_tires()
    # damage never uncrosses a box and never crosses past a part's boxes
    assert (s >= np.array(list(start) + [0])).all() and (s <= CAP).all()


@settings(max_examples=100, deadline=None)
@given(parts=st.lists(st.sampled_from(HIT_PARTS), min_size=1, max_size=12))
def test_final_sheet_depends_only_on_how_many_points_hit_each_part(parts):
    """Overflow is order-free: the order points arrive in cannot change where they end up
    (the kernel stops rolling once a car is out, so order matters only after that)."""
    a, b = fresh_sheet(), fresh_sheet()
    for p in parts:
        apply_point(a, CAP, OV, PARTS.index(p))
    for p in sorted(parts):
        apply_point(b, CAP, OV, PARTS.index(p))
    assert np.array_equal(a, b)
