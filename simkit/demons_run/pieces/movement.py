"""Movement arithmetic that needs no board: Hell Hole capture and escape (204 M), Gravity Well
entry and the Gravity Whip's Velocity gain (204 L, 204 O). All thresholds come from
``race.toml`` (``movement``). Below them, :func:`move_ship` moves one ship over the board (the
plain-Python reference the compiled race, ``race.move_plan``, is held to).
"""

from __future__ import annotations

from ..rules import Rules, make_rules


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
    Velocity - 3. Returns (escaped, Velocity for the Turn); a failed attempt keeps the
    Velocity reached or drops to 0 by variant ``hell_hole_escape``
    (``turn.hell_hole_escape_turn``)."""
    m = _m(rules)
    if velocity < m["escape_velocity"]:
        return False, velocity if (rules or make_rules()).hole_keeps_velocity else 0
    return True, velocity - m["escape_penalty"]


def whip_velocity_next_turn(velocity: int, whip_hexes: int, rules: Rules | None = None) -> int:
    """204 O: +1 Velocity per Gravity Well hex moved in the whip, at most +4, from next Turn."""
    m = _m(rules)
    if not m["whip_hexes_min"] <= whip_hexes <= m["whip_hexes_max"]:
        raise ValueError(f"a Gravity Whip moves {m['whip_hexes_min']}-{m['whip_hexes_max']} hexes")
    return velocity + min(whip_hexes, m["whip_gain_max"])


# --- one ship's movement over the board (204 C-F, K-O), plain-Python reference ---------------

from dataclasses import dataclass, field  # noqa: E402

from .board import DIRECTIONS, HOLE, NULL, WELL, Board, distance, neighbour  # noqa: E402
from ..reference import (buoy_recovery, hell_fire_attack, hell_hole_attack,  # noqa: E402
                        hell_hound_attack, null_attack, recovery_modifier)
from ..rules import PI, SCREENS, SI  # noqa: E402


class IllegalMove(ValueError):
    """A movement plan the rules do not allow (the message says which rule)."""


@dataclass
class ShipMove:
    """A ship at the start of its movement; ``ship`` is the Function array of .rules."""

    pos: tuple
    facing: int                 # 0-5: N, NE, SE, S, SW, NW
    velocity: int
    maneuver: int               # Maneuver Engine Level (maximum, 005 E)
    screens: int                # Screen Level allocated this Turn
    pi_modifier: int
    ship: list
    events: list = field(default_factory=list)
    turning_movements: int = 0
    whip_gain: int = 0          # Velocity added next Turn (204 O)
    captured: bool = False      # by a Hell Hole (204 M)
    lost_in_null: bool = False  # 204 K, errata
    off_board: bool = False     # disqualified (211 A)
    tractor: int = 0            # Tractor Levels allocated this Turn (205 A)
    tractor_uses: int = 0       # Buoy Recovery attempts made (203 C e: Fuel per successive use)
    recovered: list = field(default_factory=list)   # kinds of Buoys recovered, in order


def _plan_tokens(plan: str):
    out, i = [], 0
    plan = plan.replace(" ", "").upper()
    while i < len(plan):
        c = plan[i]
        if c in "FLR":
            out.append(c)
            i += 1
        elif c == "W" and i + 1 < len(plan) and plan[i + 1].isdigit():
            out.append(("W", int(plan[i + 1])))
            i += 2
        elif c == "T" and i + 1 < len(plan) and plan[i + 1].isdigit():
            j = i + 1
            while j < len(plan) and plan[j].isdigit():
                j += 1
            out.append(("T", int(plan[i + 1:j])))
            i = j
        else:
            raise IllegalMove(f"plan {plan!r}: unknown step {c!r} (F forward, L/R turn, W<k> whip, "
                              f"T<n> Tractor at Buoy n)")
    return out


def move_ship(dice, rules: Rules, board: Board, s: ShipMove, plan: str, hounds=None,
              buoys=None) -> ShipMove:
    """Execute one ship's movement plan: ``F`` forward one hex, ``L``/``R`` one hexside counter-
    clockwise/clockwise, ``W<k>`` the number of Well hexes (1-6, inclusive of the one entered)
    chosen for a Gravity Whip when one happens. Hazards strike as each hex is entered: Null
    (errata), Hell Fire (208), Hell Hole capture (209, 204 M); the Gravity Whip (204 O).

    ``hounds`` (a list of Hell Hound hexes, updated in place) detonate at the ship's closest
    point of approach within two hexes (207 A): the first hex of the planned path at the
    smallest distance, after that hex's own hazards; a ship stopped earlier (Null, capture) is
    attacked when it stops, at the closest distance it reached, if that was within two hexes.

    ``buoys`` (a list of ``[hex, kind]``, a recovered Buoy replaced by None) are the targets of
    ``T<n>`` steps: a Buoy Recovery attempt at Buoy n (205), at most one per hex entered since
    the last attempt (Reference Card: move at least one hex after each attempt). Raises
    :class:`IllegalMove` for a plan the rules forbid (checked before any dice are rolled).
    """
    tokens = _plan_tokens(plan)
    dry = ShipMove(s.pos, s.facing, s.velocity, s.maneuver, s.screens, s.pi_modifier, list(s.ship),
                   tractor=s.tractor)
    path = _execute(None, rules, board, dry, tokens, None, buoys)   # validates; no dice
    targets = {}
    for h in hounds or []:
        dists = [distance(p, h) for p in path]
        best = min(dists)
        if best <= rules.t("marker_movement")["hound_attack_range"]:
            targets[h] = dists.index(best)
    return _execute(dice, rules, board, s, tokens, (targets, hounds), buoys)


def recovery_terrain_modifier(rules: Rules, board: Board, hex_) -> int:
    """205 B c-f for the Buoy's hex: its single most severe terrain modifier (as 206 E counts a
    Hell3 well hex at -6 only)."""
    terr = rules.t("buoy_recovery")["terrain"]
    mods = [terr["plain"]]
    fc = board.fire_class[hex_]
    if fc:
        mods.append(terr[("hell_fire", "hell2_fire", "hell3_fire")[fc - 1]])
    if board.terrain[hex_] == WELL:
        mods.append(terr["gravity_well"])
    return min(mods)


def _execute(dice, rules, board, s, tokens, hound_plan, buoys=None):
    """Run the plan; with ``dice`` None it is a dry run (no hazards, path returned)."""
    m = rules.t("movement")
    per_hex, per_turn = rules.maneuver(s.maneuver)
    limit = min(per_turn, rules.turns_allowed(s.velocity))   # 204 E: Velocity takes priority
    mp = s.velocity
    in_hex = 0
    whipped: set = set()
    path = [s.pos]
    i = 0
    last_attempt_at = 0
    pi0 = s.ship[PI]

    def pi_now():
        # damage is noted at once (210 A): a Critical Hit on the PI Function during the move
        # (Hell Fire, a Hell Hound) changes the modifier of the Null attacks still to come
        return s.pi_modifier if s.ship[PI] == pi0 else rules.pi_modifier(s.ship[PI])

    def hound_attacks(final=False):
        if hound_plan is None:
            return
        targets, hounds = hound_plan
        reach = rules.t("marker_movement")["hound_attack_range"]
        for h, at in list(targets.items()):
            if at == len(path) - 1 or (final and at > len(path) - 1
                                       and min(distance(p, h) for p in path) <= reach):
                d = distance(s.pos, h) if at == len(path) - 1 else min(distance(p, h) for p in path)
                res = hell_hound_attack(dice, rules, s.ship, d, screens=s.screens)
                s.events.append(("hell_hound", h, d, res.si_loss, s.pos))
                del targets[h]
                hounds.remove(h)
                if s.ship[SI] == 0:
                    return

    def enter(pos, through_whip=False):
        """Hex effects on entering ``pos``; returns True if movement stops."""
        s.pos = pos
        path.append(pos)
        t = board.terrain[pos]
        stop = False
        if t == NULL:
            if dice is not None:
                res = null_attack(dice, rules, pi_now())
                s.events.append(("null", pos, res.effect))
                if res.effect:
                    s.lost_in_null = True
                    s.velocity = 0      # allocated Functions, Velocity included, go to 0 (errata)
                    stop = True
        else:
            if board.fire_class[pos] and dice is not None:
                # Screens allocated above a maximum a Critical Hit has just lowered are lost
                res = hell_fire_attack(dice, rules, s.ship, board.fire_class[pos] - 1, s.velocity,
                                       screens=min(s.screens, s.ship[SCREENS]))
                s.events.append(("hell_fire", pos, list(res.crises)))
            if t == HOLE and not through_whip:
                # 204 M covers Velocity 5-8 (captured) and 9+ (through); a slower ship reaching
                # the hole (after a whip) is taken as captured too -- the rules are silent
                if s.velocity >= m["pass_min"]:
                    s.events.append(("hole_pass", pos))
                else:
                    if dice is not None:
                        hole = board.holes[board.hole_of[pos] - 1]
                        res = hell_hole_attack(dice, rules, s.ship, CLASS_INDEX[hole.cls])
                        s.events.append(("hole_captured", pos, res.si_loss))
                    s.captured = True
                    s.velocity = 0      # 204 M
                    stop = True
        if s.ship[SI] == 0:
            return True
        if stop:
            hound_attacks(final=True)
            return True
        hound_attacks()
        return s.ship[SI] == 0

    hound_attacks()                     # a hound already at its closest at the start hex
    while i < len(tokens):
        tok = tokens[i]
        i += 1
        if tok in ("L", "R"):
            t = board.terrain[s.pos]
            if t in (NULL, WELL):
                raise IllegalMove(f"no turning movement in a {'Null' if t == NULL else 'Gravity Well'} hex (204 E)")
            if in_hex + 1 > per_hex:
                raise IllegalMove(f"Maneuver Engines {s.maneuver} allow {per_hex} turning movements in one hex")
            if s.turning_movements + 1 > limit:
                raise IllegalMove(f"only {limit} turning movements this Turn (Velocity {s.velocity}, "
                                  f"Maneuver Engines {s.maneuver}; 204 E)")
            s.facing = (s.facing + (1 if tok == "R" else -1)) % 6
            in_hex += 1
            s.turning_movements += 1
            continue
        if isinstance(tok, tuple) and tok[0] == "T":
            if s.tractor <= 0:
                raise IllegalMove("no Tractor Levels allocated: no Buoy Recovery attempt (205 A)")
            if len(path) - 1 <= last_attempt_at:
                raise IllegalMove("one Buoy Recovery attempt per hex moved: move at least one hex "
                                  "before each attempt (205 A, Reference Card)")
            if buoys is None or not 0 <= tok[1] < len(buoys):
                raise IllegalMove(f"T{tok[1]}: no such Buoy")
            last_attempt_at = len(path) - 1
            if dice is None or buoys[tok[1]] is None:
                continue            # dry run, or that Buoy is already taken
            bhex, kind = buoys[tok[1]]
            s.tractor_uses += 1
            mod = recovery_modifier(rules, velocity=s.velocity, hexes_away=distance(s.pos, bhex),
                                    attempt=s.tractor_uses, pi_modifier=s.pi_modifier)
            mod += recovery_terrain_modifier(rules, board, bhex)
            res = buoy_recovery(dice, rules, s.tractor, mod)
            s.events.append(("recovery", tok[1], res.effect))
            if res.effect:
                s.recovered.append(kind)
                buoys[tok[1]] = None
            continue
        if isinstance(tok, tuple):
            raise IllegalMove("a W<k> step must follow the F that enters a Gravity Well at Velocity 1-4")
        if mp == 0:
            raise IllegalMove(f"Velocity {s.velocity} enters exactly {s.velocity} hexes (204 C)")
        nxt = neighbour(*s.pos, DIRECTIONS[s.facing])
        mp -= 1
        in_hex = 0
        if not board.on_board(*nxt):
            s.off_board = True          # 211 A: disqualified
            s.events.append(("off_board", nxt))
            return path if dice is None else s
        hole = board.hole_of[nxt] if board.terrain[nxt] == WELL else 0
        if hole and m["whip_velocity_min"] <= s.velocity <= m["whip_velocity_max"] and hole not in whipped:
            if i >= len(tokens) or not isinstance(tokens[i], tuple):
                raise IllegalMove(f"entering the Gravity Well at {list(nxt)} at Velocity {s.velocity} "
                                  f"whips the ship: say how many Well hexes with W1-W6 (204 O)")
            k = tokens[i][1]
            i += 1
            if not m["whip_hexes_min"] <= k <= m["whip_hexes_max"]:
                raise IllegalMove(f"a Gravity Whip moves {m['whip_hexes_min']}-{m['whip_hexes_max']} hexes")
            mp += 1                     # whip hexes cost no MP, the one entered included (204 O)
            whipped.add(hole)
            ring = board.holes[hole - 1].well
            step = 1 if board.holes[hole - 1].rotation == "cw" else -1
            j = ring.index(nxt)
            for n in range(k):
                if enter(ring[(j + step * n) % 6], through_whip=True):
                    return path if dice is None else s
            s.whip_gain = min(m["whip_gain_max"], s.whip_gain + k)
            s.events.append(("whip", k))
            continue
        if enter(nxt):
            return path if dice is None else s
    if mp > 0:
        raise IllegalMove(f"Velocity {s.velocity} must enter {s.velocity} hexes; the plan enters "
                          f"{s.velocity - mp} (204 C)")
    return path if dice is None else s


CLASS_INDEX = {"hell": 0, "hell2": 1, "hell3": 2}
