"""Plain-Python reference procedures for every Demon's Run dice procedure, close to the rule text.

Each takes a dice source with ``.roll(n, sides)`` / ``.at_most(n, sides, t)`` first: a
:class:`simkit.core.exact.ScriptedDice` replays a rulebook example, and
:func:`simkit.core.exact.distribution` enumerates every dice path for an exact distribution.
The compiled kernels (:mod:`.kernels`) and the dynamic-programming oracle (:mod:`.oracle`) are
held to these.

Modelled (section numbers of demons-run.txt):

* 210 A-C damage: SI Levels lost one by one; a Critical Hit check (d6, 5-6) for each even
  Level lost, in order; the Critical Hit table; System Crisis rolls; Excess damage (a Function
  driven below 0 passes the excess to SI, which can lose further even Levels and so add checks);
  a Critical Hit against a Function at Level 0 casts loose the last Buoy, or becomes "Lose 30
  Fuel Levels" (210 C c-d). A ship whose SI reaches 0 is destroyed and nothing more is rolled.
* 209 Hell Hole attacks, 208 Hell Fire attacks, 207 Hell Hound attacks, 206/207 errata Null
  attacks, 205 Buoy Recovery, 206 E-G Laser and Scrambler fire.

A roll whose result cannot change the outcome is not made (so scripts match the narration):
a check that is certain either way is decided without dice.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..rules import BUOYS, FUEL, FUNCS, SCREENS, SHIP_SIZE, SI, Rules


@dataclass
class Result:
    """What one procedure did to the ship (and its target flag)."""

    si0: int = 0
    destroyed: bool = False
    si_loss: int = 0
    effect: bool = False            # the hazard took hold: damage done, crisis, lost, hit...
    checked_levels: list = field(default_factory=list)   # even SI Levels checked, in order
    criticals: list = field(default_factory=list)        # Critical Hit table rolls (2-12)
    crises: list = field(default_factory=list)           # System Crisis table rolls (2-12)
    buoys_lost: int = 0
    fuel_loss: int = 0
    factor: int | None = None       # the Attack / Tractor factor or fire total, when rolled

    def key(self):
        """The hashable outcome the kernels and oracle are compared on."""
        return (self.destroyed, self.si_loss, len(self.criticals), len(self.crises), self.effect)


def ship_from_build(build, buoys: int = 0) -> list[int]:
    ship = [0] * SHIP_SIZE
    for name in FUNCS:
        ship[FUNCS.index(name)] = int(getattr(build, name))
    ship[BUOYS] = buoys
    return ship


def _check(dice, n, sides, target) -> bool:
    """``n``d``sides`` <= target, rolling only if the answer is not already certain."""
    if target < n:
        return False
    if target >= n * sides:
        return True
    return dice.at_most(n, sides, target)


# --- 210 Damage -----------------------------------------------------------------------------

def _lose_si(ship, hits, res) -> list[int]:
    """Lose ``hits`` SI Levels; return the even Levels lost (empty if destroyed)."""
    s = ship[SI]
    new = max(s - hits, 0)
    ship[SI] = new
    res.si_loss += s - new
    if new == 0:
        res.destroyed = True
        return []
    return [lv for lv in range(s, new, -1) if lv % 2 == 0]


def _lose_function(rules: Rules, ship, col, amount, res) -> list[int]:
    """A Critical Hit 'Lose N Levels' (210 B-C); returns even SI Levels lost as Excess."""
    if ship[col] == 0:  # 210 C c-d
        if ship[BUOYS] > 0:
            ship[BUOYS] -= 1
            res.buoys_lost += 1
            return []
        if col == FUEL:
            return []
        col, amount = rules.substitute
        if ship[col] == 0:
            return []
    new = ship[col] - amount
    if col == FUEL:
        res.fuel_loss += min(amount, ship[col])
    if new >= 0:
        ship[col] = new
        return []
    ship[col] = 0
    if col == FUEL and not rules.fuel_excess_to_si:
        return []
    return _lose_si(ship, -new, res)


def apply_damage(dice, rules: Rules, ship, hits, res: Result) -> Result:
    """210: ``hits`` SI Levels lost, then a Critical Hit check per even Level lost."""
    if hits <= 0:
        return res
    res.effect = True
    pending = _lose_si(ship, hits, res)
    crit_table = rules.critical_rows()
    while pending and not res.destroyed:
        level = pending.pop(0)
        res.checked_levels.append(level)
        if _check(dice, 1, 6, rules.crit_at_least - 1):
            continue  # 1-4: no Critical Hit
        roll = dice.roll(2, 6)
        res.criticals.append(roll)
        effect, col, amount = crit_table[roll - 2]
        if effect == "crisis":
            res.crises.append(dice.roll(2, 6))
        else:
            pending += _lose_function(rules, ship, col, amount, res)
    return res


# --- 209 Hell Hole, 208 Hell Fire, 207 Hell Hound, Null ----------------------------------------

def hell_hole_attack(dice, rules: Rules, ship, cls: int) -> Result:
    """209: Attack Factor = 1, 2 or 3 d6 by class; each point is one SI Level; no defence."""
    res = Result(si0=ship[SI])
    res.factor = dice.roll(rules.t("hell_hole_attack")["dice"][cls], 6)
    return apply_damage(dice, rules, ship, res.factor, res)


def hell_fire_attack(dice, rules: Rules, ship, cls: int, velocity: int,
                     screens: int | None = None) -> Result:
    """208: 2d6 + class modifier + turns allowed at the Velocity, against the Screen Level;
    one System Crisis roll per +2 of the result; then, under variant hell_fire_damage=si (the
    default), the result is that many SI Levels lost with their Critical Hit checks (210)."""
    t = rules.t("hell_fire_attack")
    screens = ship[SCREENS] if screens is None else screens
    res = Result(si0=ship[SI])
    res.factor = dice.roll(t["dice"], 6) + t["class_modifier"][cls] + rules.turns_allowed(velocity)
    result = res.factor - screens if rules.fire_card else screens - res.factor
    if result >= t["threshold"]:
        res.effect = True
        for _ in range(result // t["crisis_per"]):
            res.crises.append(dice.roll(2, 6))
        if rules.fire_si_damage:
            apply_damage(dice, rules, ship, result, res)
    return res


def hell_hound_attack(dice, rules: Rules, ship, distance: int, screens: int | None = None) -> Result:
    """207 B: 4, 3 or 2 d6 at 0, 1 or 2 hexes, against the Screen Level; hits are SI Levels."""
    t = rules.t("hell_hound_attack")
    screens = ship[SCREENS] if screens is None else screens
    res = Result(si0=ship[SI])
    res.factor = dice.roll(t["dice"][t["distance"].index(distance)], 6)
    hits = res.factor - screens if rules.hound_card else screens - res.factor
    return apply_damage(dice, rules, ship, hits, res)


def null_attack(dice, rules: Rules, pi_modifier: int) -> Result:
    """206/207 errata: 2d6 + PI modifier <= 5 and the ship is lost in Null."""
    t = rules.t("null_attack")
    res = Result()
    res.effect = _check(dice, t["dice"], 6, t["lost_at_most"] - pi_modifier)
    return res


# --- 205 Buoy Recovery ------------------------------------------------------------------------

def recovery_modifier(rules: Rules, *, velocity: int, hexes_away: int, terrain: str = "plain",
                      attempt: int = 1, pi_modifier: int = 0) -> int:
    """The sum of the 205 B modifications."""
    t = rules.t("buoy_recovery")
    mod = t["per_velocity_level"] * max(0, velocity - t["per_velocity_over"])
    mod += t["per_hex_away"] * hexes_away
    mod += t["terrain"][terrain]
    mod += t["successive_attempt"] * (attempt - 1)
    return mod + pi_modifier


def buoy_recovery(dice, rules: Rules, tractor: int, modifier: int) -> Result:
    """205 C-D: d6 + Tractor Levels + modifiers >= 5 recovers the Buoy."""
    t = rules.t("buoy_recovery")
    res = Result()
    if tractor <= 0:  # 205 A: a Tractor at Level 0 may not attempt
        return res
    base = tractor + modifier
    # success iff d6 >= 5 - base, i.e. not (d6 <= 4 - base)
    res.effect = not _check(dice, t["dice"], 6, t["success_at_least"] - 1 - base)
    return res


def tractor_factor(die: int, tractor: int, modifier: int) -> int:
    return die + tractor + modifier


# --- 206 Laser and Scrambler ------------------------------------------------------------------

def fire_hits(dice, rules: Rules, rng: int, modifier: int) -> bool:
    """206 E: 2d6 + modifiers >= range hits; beyond 12 hexes no fire is possible."""
    t = rules.t("fire")
    if rng > t["max_range"] or rng < 1:
        return False
    return not _check(dice, t["dice"], 6, rng - 1 - modifier)


def laser_at_ship(dice, rules: Rules, ship, laser: int, rng: int, modifier: int,
                  screens: int | None = None) -> Result:
    """206 F: hits = Laser Level - Screen Level, each one SI Level, then Critical Hit checks."""
    screens = ship[SCREENS] if screens is None else screens
    res = Result(si0=ship[SI])
    if fire_hits(dice, rules, rng, modifier):
        apply_damage(dice, rules, ship, laser - screens, res)
        res.effect = True
    return res


def laser_at_marker(dice, rules: Rules, laser: int, rng: int, modifier: int) -> Result:
    """206 F: a Buoy's or Hell Hound's Screen Level is 2d6; 2+ hits destroy it."""
    t = rules.t("laser_effect")
    res = Result()
    if fire_hits(dice, rules, rng, modifier):
        res.effect = True
        # destroyed iff laser - screen >= 2, i.e. screen <= laser - 2
        res.destroyed = _check(dice, t["buoy_screen_dice"], 6, laser - t["destroy_at_least"])
    return res


def scrambler_at_ship(dice, rules: Rules, level: int, rng: int, modifier: int, screens: int) -> Result:
    """206 G: (Scrambler Level - Screen Level) > 2 is one System Crisis roll. ``level`` is the
    Scrambler Level, or the Laser Level under variant scrambler_level=laser."""
    t = rules.t("scrambler_effect")
    res = Result()
    if fire_hits(dice, rules, rng, modifier) and level - screens > t["damaged_above"]:
        res.effect = True
        for _ in range(t["crisis_rolls"]):
            res.crises.append(dice.roll(2, 6))
    return res


def resolve_crises(rules: Rules, rolls: list[int]) -> list[int]:
    """208 B / 210 C c: contradictory results in one Turn are replaced by result 7."""
    t = rules.t("system_crisis")
    out = list(rolls)
    for a, b in t["contradicts"]:
        if a in out and b in out:
            out = [r for r in out if r not in (a, b)]
            if t["replacement"] not in out:
                out.append(t["replacement"])
    return sorted(out)
