"""Turn procedures outside movement, plain-Python references for the compiled race (race.py):
Hell Hole escape attempts (204 M, 202 B C, Reference Card), Null escape attempts (errata
206/207), the Fuel losses of Step G (Null, System Crisis 12), and Victory Points (211 B).
"""

from __future__ import annotations

from ..pieces.board import DIRECTIONS, Board
from . import Result, hell_hole_attack, null_attack
from ..rules import Rules


def hell_hole_escape_turn(dice, rules: Rules, ship, velocity_after_allocation: int, cls: int):
    """A captured ship's Turn (204 M, 202 B C): at Velocity 4 or more after its Main Engines
    allocation it escapes and moves at Velocity - 3; otherwise it stays, and the Hole attacks
    it again, keeping the Velocity it reached (variant hell_hole_escape=keep, the default) or
    back at 0 (reset). Returns (escaped, Velocity for the Turn, attack Result or None)."""
    m = rules.t("movement")
    if velocity_after_allocation >= m["escape_velocity"]:
        return True, velocity_after_allocation - m["escape_penalty"], None
    v = velocity_after_allocation if rules.hole_keeps_velocity else 0
    return False, v, hell_hole_attack(dice, rules, ship, cls)


def null_escape_turn(dice, rules: Rules, board: Board, pi_modifier: int):
    """A ship lost in Null attempts to escape (errata): the Null attack again -- if it succeeds
    the ship may not leave; if it fails the ship may leave, its facing set at random by the
    Buoy Movement diagram. Returns (escaped, facing index 0-5 or None)."""
    res: Result = null_attack(dice, rules, pi_modifier)
    if res.effect:
        return False, None
    side = dice.roll(1, 6)
    direction = next(d for d in DIRECTIONS if board.hexsides[d] == side)
    return True, DIRECTIONS.index(direction)


def step_g_fuel_loss(rules: Rules, *, in_null: bool, fuel_leaks: int) -> int:
    """Step G: 5 Fuel Levels for a ship in a Null hex, and 5 per 'Lose 5 Fuel Levels per Turn'
    System Crisis (result 12) received so far."""
    lost = rules.t("fuel_expenditure")["per_turn"]["lost_in_null"] if in_null else 0
    return lost + fuel_leaks * rules.t("system_crisis")["fuel_leak_per_turn"]


BUOY_VP = {"easy": "easy_buoy", "free_floater": "free_floater_or_high_roller",
           "high_roller": "free_floater_or_high_roller", "astaroth": "hell2_buoy",
           "belial": "hell2_buoy", "lucifer": "hell3_buoy"}


def victory_points(rules: Rules, *, buoys, fuel: int, place: int | None, left_board: bool = False,
                   destroyed: bool = False) -> int:
    """211 B: Buoys recovered, 1 per Fuel Level left (at most 100), finishing place (1-4, None
    if not finished). A ship that left the board (211 B) or was destroyed (212 C) scores 0."""
    if left_board or destroyed:
        return 0
    vp = rules.t("victory_points")
    total = sum(vp[BUOY_VP[b]] for b in buoys)
    total += min(fuel * vp["per_fuel_level"], vp["fuel_points_max"])
    if place is not None:
        total += vp["finish_place"][place - 1]
    return total


# --- System Crisis effects (210 C, 208 B, Reference Card) -------------------------------------

def crisis_effects(rules: Rules, results) -> dict:
    """What a Turn's System Crisis results (2d6 totals) forbid or force, after replacing
    contradictory results by result 7 (208 B, 210 C c). Keys: no_tractor, no_weapons,
    no_turning, no_accelerate, no_decelerate, no_screens, systems_failure (no allocation at all,
    one PI Level lost), must_accelerate, must_decelerate (bools), fuel_leaks (count of result 12,
    each 5 Fuel a Turn for the rest of the game)."""
    from . import resolve_crises
    keys = rules.t("system_crisis")["key"]
    out = {k: False for k in ("no_tractor", "no_weapons", "no_turning", "no_accelerate",
                              "no_decelerate", "no_screens", "systems_failure",
                              "must_accelerate", "must_decelerate")}
    out["fuel_leaks"] = 0
    for r in resolve_crises(rules, list(results)):
        k = keys[r - 2]
        if k == "fuel_leak":
            out["fuel_leaks"] += 1
        else:
            out[k] = True
    return out


def crisis_turn(moved_this_turn: bool) -> str:
    """210 C a-b: a crisis takes effect next Turn if the ship has moved this Turn, else now."""
    return "next" if moved_this_turn else "current"


def allocation_problems(rules: Rules, alloc, maxima, effects: dict, *, forced_me: int = 0):
    """Every way an allocation breaks 203 A or the Turn's System Crisis effects. ``maxima`` is
    the ship's current Build (maximum Levels after damage); ``forced_me`` the d6 rolled for a
    'must accelerate/decelerate' result (capped at the Main Engines maximum, 203 A)."""
    from ..builds import allocation_violations
    out = allocation_violations(alloc, maxima)
    if effects.get("systems_failure") and any((alloc.me, alloc.screens, alloc.tractor,
                                               alloc.laser, alloc.scrambler)):
        out.append("Systems Failure: no Levels may be allocated this Turn")
    if effects.get("no_tractor") and alloc.tractor:
        out.append("System Crisis: the Tractor may not be used this Turn")
    if effects.get("no_weapons") and (alloc.laser or alloc.scrambler):
        out.append("System Crisis: no weapon may be used this Turn")
    if effects.get("no_screens") and alloc.screens:
        out.append("System Crisis: the Screens may not be used this Turn")
    if effects.get("no_accelerate") and alloc.me_mode == "A" and alloc.me:
        out.append("System Crisis: may not accelerate this Turn")
    if effects.get("no_decelerate") and alloc.me_mode == "D" and alloc.me:
        out.append("System Crisis: may not decelerate this Turn")
    for key, mode in (("must_accelerate", "A"), ("must_decelerate", "D")):
        if effects.get(key):
            need = min(forced_me, maxima.me)
            if alloc.me_mode != mode or alloc.me != need:
                out.append(f"System Crisis: must {'accelerate' if mode == 'A' else 'decelerate'} "
                           f"{need} Levels this Turn (the die, within the Main Engines maximum)")
    return out
