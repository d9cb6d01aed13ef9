"""Turn procedures outside movement: Hell Hole and Null escapes, Step G Fuel, Victory Points."""

from simkit.core.exact import ScriptedDice
from simkit.demons_run.pieces.board import load_board
from simkit.demons_run.builds import worked_ship
from simkit.demons_run.reference import ship_from_build
from simkit.demons_run.rules import SI, make_rules
from simkit.demons_run.reference.turn import (hell_hole_escape_turn, null_escape_turn, step_g_fuel_loss,
                                    victory_points)

R = make_rules()


def test_hell_hole_escape_204_M():
    ship = ship_from_build(worked_ship())
    assert hell_hole_escape_turn(ScriptedDice([]), R, ship, 4, 1) == (True, 1, None)
    assert hell_hole_escape_turn(ScriptedDice([]), R, ship, 6, 1)[:2] == (True, 3)
    # V3: stays and the Hell2 Hole attacks again (2d6 = 4; Levels 14 and 12 checked); by
    # default (variant hell_hole_escape=keep) the Velocity reached stays for the next attempt
    escaped, v, res = hell_hole_escape_turn(ScriptedDice([4, 1, 1]), R, ship, 3, 1)
    assert not escaped and v == 3 and res.si_loss == 4 and ship[SI] == 10


def test_hell_hole_escape_after_a_failed_attempt_variant_204_M():
    """204 M reduces Velocity to 0 on capture only; 'will not be able to leave ... until the
    ship accelerates to Velocity Level 4'. Default keep: the Velocity reached stays; variant
    reset: back to 0 after every failed attempt (then Main Engines 3 or less never escape)."""
    assert R.variants["hell_hole_escape"] == "keep" and R.hole_keeps_velocity
    reset = make_rules({"hell_hole_escape": "reset"})
    assert not reset.hole_keeps_velocity
    ship = ship_from_build(worked_ship())
    ship[SI] = 13          # a plain Hole's d6 of 1 takes Level 13: odd, no Critical Hit check
    assert hell_hole_escape_turn(ScriptedDice([1]), R, ship, 2, 0)[:2] == (False, 2)
    ship[SI] = 13
    assert hell_hole_escape_turn(ScriptedDice([1]), reset, ship, 2, 0)[:2] == (False, 0)
    assert hell_hole_escape_turn(ScriptedDice([]), reset, ship, 4, 0) == (True, 1, None)


def test_null_escape_errata():
    b = load_board()
    assert null_escape_turn(ScriptedDice([5]), R, b, 0) == (False, None)     # still lost
    escaped, facing = null_escape_turn(ScriptedDice([8, 4]), R, b, 0)       # leaves, facing S
    assert escaped and facing == 3


def test_step_g_fuel_loss():
    assert step_g_fuel_loss(R, in_null=True, fuel_leaks=0) == 5
    assert step_g_fuel_loss(R, in_null=True, fuel_leaks=2) == 15
    assert step_g_fuel_loss(R, in_null=False, fuel_leaks=0) == 0


def test_victory_points_211_B():
    # Lucifer 100 + Astaroth 70 + a Free Floater 35 + an Easy 10 + 100 of 130 Fuel + 1st 50
    assert victory_points(R, buoys=["lucifer", "astaroth", "free_floater", "easy"], fuel=130,
                          place=1) == 365
    assert victory_points(R, buoys=["easy"], fuel=40, place=None) == 50
    assert victory_points(R, buoys=["lucifer"], fuel=200, place=2, left_board=True) == 0


def test_crisis_effects_and_contradictions_210_C():
    from simkit.demons_run.reference.turn import crisis_effects, crisis_turn
    e = crisis_effects(R, [2, 12, 12])
    assert e["no_tractor"] and e["fuel_leaks"] == 2 and not e["systems_failure"]
    e = crisis_effects(R, [10, 11])            # must accelerate and must decelerate -> No. 7
    assert e["systems_failure"] and not e["must_accelerate"] and not e["must_decelerate"]
    assert crisis_turn(True) == "next" and crisis_turn(False) == "current"


def test_allocation_under_crisis_effects():
    from simkit.demons_run.builds import Allocation
    from simkit.demons_run.reference.turn import allocation_problems, crisis_effects
    ship = worked_ship()
    fire = Allocation(laser=6, screens=3, me_mode="A", me=2)          # the 203 B figure
    assert allocation_problems(R, fire, ship, crisis_effects(R, [])) == []
    probs = allocation_problems(R, fire, ship, crisis_effects(R, [4, 8, 6]))
    assert len(probs) == 3 and any("weapon" in p for p in probs) and any("Screens" in p for p in probs)
    assert allocation_problems(R, Allocation(), ship, crisis_effects(R, [7])) == []
    assert allocation_problems(R, Allocation(screens=1), ship, crisis_effects(R, [7]))
    must = crisis_effects(R, [10])
    assert allocation_problems(R, Allocation(me_mode="A", me=5), ship, must, forced_me=5) == []
    # the die (6) above the Main Engines maximum (4) is capped at 4 (203 A)
    small = worked_ship().__class__(**{**worked_ship().levels(), "me": 4})
    assert allocation_problems(R, Allocation(me_mode="A", me=4), small, must, forced_me=6) == []
    assert allocation_problems(R, Allocation(me_mode="A", me=3), small, must, forced_me=6)
