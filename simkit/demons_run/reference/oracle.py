"""Exact outcome distributions of the Demon's Run hazards, by dynamic programming.

Enumerating every dice path (:func:`simkit.core.exact.distribution`) is exact but explodes on a
long Critical Hit chain: a Hell3 Hole can take 9 even SI Levels, each check branching into 1 +
9 + 2 x 11 paths. Here the chain is a Markov chain instead: the state is the ship (SI and the
Levels a Critical Hit can take), the number of checks still pending, and the counts reported;
states with the same future merge. A Function Level too high ever to reach 0 in the checks
that can still happen (each check needs an even SI Level lost, so at most pending + SI/2 more)
is replaced by a sentinel, which is what keeps the state space small.

This is an independent second implementation of 210 (written from the rule text, not from
:mod:`.reference`); the tests hold it to the reference's full path enumeration on small cases
and hold the compiled kernels to it.

Outcome tuple: ``(destroyed, si_loss, criticals, crises, effect)`` -- as ``Result.key()``.
"""

from __future__ import annotations

from fractions import Fraction

from simkit.core.exact import p_at_most, sum_distribution

from ..rules import BUOYS, FUEL, SCREENS, SI, Rules

BIG = 10**9  # a Level that cannot reach 0 in the checks left


def _conv(num, p):
    return p if num is Fraction else float(p)


def _saturate(ship, pending, max_loss):
    future = pending + ship[SI] // 2
    out = list(ship)
    for col, m in max_loss.items():
        if out[col] != BIG and out[col] > future * m:
            out[col] = BIG
    if out[BUOYS] > future:
        out[BUOYS] = BIG
    return tuple(out)


def _max_loss(rules: Rules):
    """Most Levels one Critical Hit can take from each Function (incl. the Level-0 substitute)."""
    m: dict[int, int] = {}
    for eff, col, amt in rules.critical_rows():
        if eff == "lose":
            m[col] = max(m.get(col, 0), amt)
    scol, samt = rules.substitute
    m[scol] = max(m.get(scol, 0), samt)
    return m


def _lose(rules, ship, col, amount):
    """-> (new ship list, SI hits from Excess damage)."""
    ship = list(ship)
    if ship[col] == 0:
        if ship[BUOYS] > 0:
            if ship[BUOYS] != BIG:
                ship[BUOYS] -= 1
            return ship, 0
        if col == FUEL:
            return ship, 0
        col, amount = rules.substitute
        if ship[col] == 0:
            return ship, 0
    if ship[col] == BIG:
        return ship, 0
    new = ship[col] - amount
    if new >= 0:
        ship[col] = new
        return ship, 0
    ship[col] = 0
    if col == FUEL and not rules.fuel_excess_to_si:
        return ship, 0
    return ship, -new


def _even_levels_lost(s, new):
    return s // 2 - new // 2


def chain(rules: Rules, start: dict, si0: int, num=Fraction) -> dict:
    """Run the Critical Hit chain from ``start`` = {(ship, pending, crits, crises, effect): p}
    to the outcome distribution."""
    max_loss = _max_loss(rules)
    p_none = _conv(num, p_at_most(1, 6, rules.crit_at_least - 1))
    p_crit = 1 - p_none
    table = [(eff, col, amt, _conv(num, p))
             for (eff, col, amt), (_, p) in zip(rules.critical_rows(), sum_distribution(2, 6))]
    done: dict = {}
    active: dict = {}

    def put(ship, pending, crits, crises, effect, p):
        if ship[SI] == 0 or pending == 0:
            key = (ship[SI] == 0, si0 - ship[SI], crits, crises, effect)
            done[key] = done.get(key, 0) + p
            return
        k = (_saturate(ship, pending, max_loss), pending, crits, crises, effect)
        active[k] = active.get(k, 0) + p

    for (ship, pending, crits, crises, effect), p in start.items():
        put(tuple(ship), pending, crits, crises, effect, p)
    while active:
        current, active = active, {}
        for (ship, pending, crits, crises, effect), p in current.items():
            put(ship, pending - 1, crits, crises, effect, p * p_none)
            for eff, col, amt, pr in table:
                q = p * p_crit * pr
                if eff == "crisis":
                    put(ship, pending - 1, crits + 1, crises + 1, effect, q)
                    continue
                new, excess = _lose(rules, ship, col, amt)
                extra = 0
                if excess:
                    s = new[SI]
                    new[SI] = max(0, s - excess)
                    extra = _even_levels_lost(s, new[SI]) if new[SI] > 0 else 0
                put(tuple(new), pending - 1 + extra, crits + 1, crises, effect, q)
    return done


def chain_summary(rules: Rules, start: dict, si0: int, num=Fraction, prune: float = 0.0) -> dict:
    """The reported figures of :func:`chain` without its full distribution: the counts of
    Critical Hits and crises are carried as expectations (probability-weighted sums) instead of
    state, which keeps the state space small for long chains (SI 29, four dice)."""
    max_loss = _max_loss(rules)
    p_none = _conv(num, p_at_most(1, 6, rules.crit_at_least - 1))
    p_crit = 1 - p_none
    table = [(eff, col, amt, _conv(num, p))
             for (eff, col, amt), (_, p) in zip(rules.critical_rows(), sum_distribution(2, 6))]
    zero = num(0)
    out = {"p_destroyed": zero, "mean_si_loss": zero, "mean_criticals": zero,
           "p_crisis": zero, "mean_crises": zero, "p_effect": zero}
    active: dict = {}

    def put(ship, pending, any_crisis, effect, p, e_crit, e_crisis):
        if ship[SI] == 0 or pending == 0:
            out["p_destroyed"] += p if ship[SI] == 0 else 0
            out["mean_si_loss"] += p * (si0 - ship[SI])
            out["mean_criticals"] += e_crit
            out["mean_crises"] += e_crisis
            out["p_crisis"] += p if any_crisis else 0
            out["p_effect"] += p if effect else 0
            return
        k = (_saturate(ship, pending, max_loss), pending, any_crisis, effect)
        v = active.get(k)
        if v is None:
            active[k] = [p, e_crit, e_crisis]
        else:
            v[0] += p
            v[1] += e_crit
            v[2] += e_crisis

    for (ship, pending, crits, crises, effect), p in start.items():
        put(tuple(ship), pending, crises > 0, effect, p, p * crits, p * crises)
    dropped = zero
    while active:
        current, active = active, {}
        for (ship, pending, any_crisis, effect), (p, ec, ex) in current.items():
            if prune and p < prune:
                # float mode only: a state this unlikely cannot move any reported figure by more
                # than its mass times the largest count; the total is reported as exact_error
                dropped += p
                continue
            put(ship, pending - 1, any_crisis, effect, p * p_none, ec * p_none, ex * p_none)
            for eff, col, amt, pr in table:
                q = p_crit * pr
                if eff == "crisis":
                    put(ship, pending - 1, True, effect, p * q, (ec + p) * q, (ex + p) * q)
                    continue
                new, excess = _lose(rules, ship, col, amt)
                extra = 0
                if excess:
                    s = new[SI]
                    new[SI] = max(0, s - excess)
                    extra = _even_levels_lost(s, new[SI]) if new[SI] > 0 else 0
                put(tuple(new), pending - 1 + extra, any_crisis, effect, p * q, (ec + p) * q,
                    ex * q)
    out["exact_error"] = dropped
    return out


def hazard_summary(rules: Rules, ship, hazard: str, *, velocity: int = 0,
                   screens: int | None = None, pi_modifier: int = 0, num=float,
                   prune: float = 1e-14) -> dict:
    """:func:`summary` of :func:`hazard_distribution`, computed without the full distribution
    for the hazards with a Critical Hit chain (what the ``hazards`` command shows)."""
    ship = tuple(ship)
    kind, arg = HAZARDS[hazard]
    if kind not in ("hole", "hound", "fire"):
        out = summary(hazard_distribution(rules, ship, hazard, velocity=velocity,
                                          screens=screens, pi_modifier=pi_modifier, num=num))
        out["exact_error"] = num(0)
        return out
    screens = ship[SCREENS] if screens is None else screens
    if kind == "fire":
        return chain_summary(rules, _fire_start(rules, ship, arg, velocity, screens, num),
                             ship[SI], num, prune if num is float else 0.0)
    if kind == "hole":
        hits = _dist(rules.t("hell_hole_attack")["dice"][arg], 6, num)
    else:
        t = rules.t("hell_hound_attack")
        hits = {}
        for a, p in _dist(t["dice"][t["distance"].index(arg)], 6, num).items():
            h = a - screens if rules.hound_card else screens - a
            hits[h] = hits.get(h, 0) + p
    return chain_summary(rules, _start_from_hits(ship, hits), ship[SI], num,
                         prune if num is float else 0.0)


def _start_from_hits(ship, hits_dist, crises=0):
    """Initial chain states from a distribution of SI hits."""
    start: dict = {}
    for hits, p in hits_dist.items():
        s = list(ship)
        if hits <= 0:
            key = (tuple(s), 0, 0, crises, False)
        else:
            new = max(0, s[SI] - hits)
            pending = _even_levels_lost(s[SI], new) if new > 0 else 0
            s[SI] = new
            key = (tuple(s), pending, 0, crises, True)
        start[key] = start.get(key, 0) + p
    return start


def _fire_start(rules: Rules, ship, cls, velocity, screens, num):
    """208: initial chain states of a Hell Fire attack. A result of +2 or more gives one System
    Crisis per +2 and, under variant hell_fire_damage=si, that many SI Levels lost."""
    t = rules.t("hell_fire_attack")
    start: dict = {}
    for a, p in _dist(t["dice"], 6, num).items():
        f = a + t["class_modifier"][cls] + rules.turns_allowed(velocity)
        r = f - screens if rules.fire_card else screens - f
        s = list(ship)
        if r < t["threshold"]:
            key = (tuple(s), 0, 0, 0, False)
        elif not rules.fire_si_damage:
            key = (tuple(s), 0, 0, r // t["crisis_per"], True)
        else:
            new = max(0, s[SI] - r)
            pending = _even_levels_lost(s[SI], new) if new > 0 else 0
            s[SI] = new
            key = (tuple(s), pending, 0, r // t["crisis_per"], True)
        start[key] = start.get(key, 0) + p
    return start


def _dist(n, sides, num):
    return {v: _conv(num, p) for v, p in sum_distribution(n, sides)}


def hazard_distribution(rules: Rules, ship, hazard: str, *, velocity: int = 0,
                        screens: int | None = None, pi_modifier: int = 0, num=Fraction) -> dict:
    """Exact outcome distribution of one named hazard (see :data:`HAZARDS`)."""
    ship = tuple(ship)
    screens = ship[SCREENS] if screens is None else screens
    kind, arg = HAZARDS[hazard]
    si0 = ship[SI]
    if kind == "hole":
        n = rules.t("hell_hole_attack")["dice"][arg]
        return chain(rules, _start_from_hits(ship, _dist(n, 6, num)), si0, num)
    if kind == "hound":
        t = rules.t("hell_hound_attack")
        n = t["dice"][t["distance"].index(arg)]
        hits: dict = {}
        for a, p in _dist(n, 6, num).items():
            h = a - screens if rules.hound_card else screens - a
            hits[h] = hits.get(h, 0) + p
        return chain(rules, _start_from_hits(ship, hits), si0, num)
    if kind == "fire":
        return chain(rules, _fire_start(rules, ship, arg, velocity, screens, num), si0, num)
    if kind == "null":
        t = rules.t("null_attack")
        p = _conv(num, p_at_most(t["dice"], 6, t["lost_at_most"] - pi_modifier))
        out = {(False, 0, 0, 0, True): p, (False, 0, 0, 0, False): 1 - p}
        return {k: v for k, v in out.items() if v}
    raise KeyError(hazard)


def laser_distribution(rules: Rules, ship, laser, rng, modifier, screens=None, num=Fraction):
    ship = tuple(ship)
    screens = ship[SCREENS] if screens is None else screens
    p_hit = _conv(num, p_hit_exact(rules, rng, modifier))
    out: dict = {}
    if p_hit:
        hits = laser - screens
        for k, p in chain(rules, _start_from_hits(ship, {hits: p_hit}), ship[SI], num).items():
            k = (k[0], k[1], k[2], k[3], True)  # a hit is an effect even if Screens stop it
            out[k] = out.get(k, 0) + p
    if p_hit != 1:
        out[(False, 0, 0, 0, False)] = out.get((False, 0, 0, 0, False), 0) + (1 - p_hit)
    return out


def p_hit_exact(rules: Rules, rng: int, modifier: int) -> Fraction:
    t = rules.t("fire")
    if rng < 1 or rng > t["max_range"]:
        return Fraction(0)
    return 1 - p_at_most(t["dice"], 6, rng - 1 - modifier)


def p_recovery_exact(rules: Rules, tractor: int, modifier: int) -> Fraction:
    t = rules.t("buoy_recovery")
    if tractor <= 0:
        return Fraction(0)
    return 1 - p_at_most(t["dice"], 6, t["success_at_least"] - 1 - tractor - modifier)


def p_marker_destroyed_exact(rules: Rules, laser, rng, modifier) -> Fraction:
    t = rules.t("laser_effect")
    return p_hit_exact(rules, rng, modifier) * p_at_most(t["buoy_screen_dice"], 6,
                                                          laser - t["destroy_at_least"])


def p_scrambler_exact(rules: Rules, level, rng, modifier, screens) -> Fraction:
    t = rules.t("scrambler_effect")
    if level - screens <= t["damaged_above"]:
        return Fraction(0)
    return p_hit_exact(rules, rng, modifier)


#: The hazards of ``simkit hazards demons-run``: name -> (kind, class or distance).
HAZARDS = {
    "hell_hole": ("hole", 0), "hell2_hole": ("hole", 1), "hell3_hole": ("hole", 2),
    "hell_fire": ("fire", 0), "hell2_fire": ("fire", 1), "hell3_fire": ("fire", 2),
    "hell_hound_0": ("hound", 0), "hell_hound_1": ("hound", 1), "hell_hound_2": ("hound", 2),
    "null": ("null", 0),
}


def summary(dist: dict) -> dict:
    """Reported figures of an outcome distribution."""
    p_destroyed = sum((p for k, p in dist.items() if k[0]), 0)
    return {
        "p_destroyed": p_destroyed,
        "mean_si_loss": sum((p * k[1] for k, p in dist.items()), 0),
        "mean_criticals": sum((p * k[2] for k, p in dist.items()), 0),
        "p_crisis": sum((p for k, p in dist.items() if k[3] > 0), 0),
        "mean_crises": sum((p * k[3] for k, p in dist.items()), 0),
        "p_effect": sum((p for k, p in dist.items() if k[4]), 0),
    }
