"""Movement arithmetic that needs no board: Hell Hole capture and escape (204 M), Gravity Well
entry and the Gravity Whip's Velocity gain (204 L, 204 O). All thresholds come from
``race.toml`` (``movement``). The movement engine that moves ships over the board is later work.
"""

from __future__ import annotations

from .rules import Rules, make_rules


def _m(rules):
    return (rules or make_rules()).t("movement")


def hell_hole_entry(velocity: int, rules: Rules | None = None) -> str:
    """204 M: entering a Hell Hole hex at 5-8 is 'captured', at 9+ 'pass' (through, unharmed).
    Below 5 the ship does not reach the hole normally: the Gravity Well whips it first (204 L);
    the rules give no capture rule for it, so this returns 'whip'."""
    m = _m(rules)
    if velocity >= m["pass_min"]:
        return "pass"
    if m["capture_min"] <= velocity <= m["capture_max"]:
        return "captured"
    return "whip"


def well_entry(velocity: int, rules: Rules | None = None) -> str:
    """204 L: entering a Gravity Well hex at Velocity 1-4 uses the Gravity Whip, at 5+ moves on."""
    m = _m(rules)
    return "whip" if m["whip_velocity_min"] <= velocity <= m["whip_velocity_max"] else "normal"


def hell_hole_escape(velocity: int, rules: Rules | None = None) -> tuple[bool, int]:
    """204 M: a captured ship escapes on reaching Velocity 4 or more, and moves that Turn at
    Velocity - 3. Returns (escaped, Velocity for the Turn)."""
    m = _m(rules)
    if velocity < m["escape_velocity"]:
        return False, velocity
    return True, velocity - m["escape_penalty"]


def whip_velocity_next_turn(velocity: int, whip_hexes: int, rules: Rules | None = None) -> int:
    """204 O: +1 Velocity per Gravity Well hex moved in the whip, at most +4, from next Turn."""
    m = _m(rules)
    if not m["whip_hexes_min"] <= whip_hexes <= m["whip_hexes_max"]:
        raise ValueError(f"a Gravity Whip moves {m['whip_hexes_min']}-{m['whip_hexes_max']} hexes")
    return velocity + min(whip_hexes, m["whip_gain_max"])
