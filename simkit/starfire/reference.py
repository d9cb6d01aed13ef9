"""Plain-Python reference of Starfire fire resolution: the exact oracle's engine.

Written from the rule text ((5.3)-(8.3)) independently of the compiled kernel in ``procedures.py``,
on a list of system letters and a list of damage states, with the dice passed in
(:class:`simkit.core.exact.ScriptedDice` to replay an example,
:class:`simkit.core.exact.EnumeratingDice` to get exact distributions). Tests hold the kernel to
this reference; slow, readable and obviously right is the point.
"""

from __future__ import annotations

INTACT, CIRCLED, GONE = "intact", "circled", "gone"

SKIPS = {
    "gun": set(), "missile": set(), "force_beam": set(),
    "energy_beam": {"A", "H"},          # (5.42)
    "laser_beam": {"S"},                # (5.43)
    "primary_beam": {"S", "A", "Z"},    # (5.44), (12.2)
}
PD_STOPS_ON = [5, 4, 3, 2, 1]           # (7.3)


class Ship:
    def __init__(self, systems):
        self.systems = list(systems)    # letters; (Mn) kept as its token
        self.state = [INTACT] * len(self.systems)

    def alive(self, i):
        return self.state[i] != GONE

    def outcome(self):
        destroyed = [s for s, st in zip(self.systems, self.state) if st == GONE]
        return len(destroyed), any(s not in ("S", "A") for s in destroyed)


def _hold_run(ship, i):
    """Indices of the Holds after i in its run (8.1): consecutive H on the original sheet."""
    j, out = i + 1, []
    while j < len(ship.systems) and ship.systems[j] == "H":
        out.append(j)
        j += 1
    return out


def _destroy(ship, i, dice):
    ship.state[i] = GONE
    if ship.systems[i] == "H":
        j = i - 1
        while j >= 0 and ship.systems[j] == "H":
            if ship.alive(j):
                return  # only a hit on the first Hold in the series collapses Holds (8.1)
            j -= 1
        rest = [j for j in _hold_run(ship, i) if ship.alive(j)]
        if rest:  # a collapse die only when more Holds stand in the run
            n = dice.roll(1, 6)
            for j in rest[: n - 1]:
                ship.state[j] = GONE


def _point(ship, i, half, dice):
    """One point (or half point) on system i, (5.4)."""
    if half and ship.state[i] == INTACT:
        ship.state[i] = CIRCLED
    else:
        _destroy(ship, i, dice)


def _points_from_left(ship, family, halves, dice):
    while halves > 0:
        eligible = [i for i in range(len(ship.systems))
                    if ship.alive(i) and ship.systems[i] not in SKIPS[family]]
        if not eligible:
            return
        half = halves == 1
        _point(ship, eligible[0], half, dice)
        halves -= 1 if half else 2


def volley(dice, systems, family, k, hit_number, effect_halves, auto_hit=False):
    """Resolve a volley on a fresh ship; return (hits, half points landed, destroyed, internal,
    missiles stopped)."""
    ship = Ship(systems)
    hits, landed, stopped = volley_on(ship, dice, family, k, hit_number, effect_halves, auto_hit)
    destroyed, internal = ship.outcome()
    return (hits, landed, destroyed, internal, stopped)


def volley_on(ship, dice, family, k, hit_number, effect_halves, auto_hit=False):
    """Resolve a volley on ``ship`` in place; return (hits, half points landed, stopped)."""
    if effect_halves < 0:
        return (0, 0, 0)
    hits = sum(1 for _ in range(k)
               if auto_hit or hit_number >= 12 or (hit_number >= 2 and dice.at_most(2, 6, hit_number)))
    landed = stopped = 0
    if hits and effect_halves:
        if family == "missile":
            fired = {}
            last = -1
            n = len(ship.systems)
            for _ in range(hits):
                pd = next(((last + s) % n for s in range(1, n + 1)
                           if ship.systems[(last + s) % n] == "D" and ship.alive((last + s) % n)
                           and fired.get((last + s) % n, 0) < len(PD_STOPS_ON)), None)
                if pd is not None:
                    last = pd
                    stop_on = PD_STOPS_ON[fired.get(pd, 0)]
                    fired[pd] = fired.get(pd, 0) + 1
                    if dice.at_most(1, 6, stop_on):
                        stopped += 1
                        continue
                landed += effect_halves
                _points_from_left(ship, family, effect_halves, dice)
        elif family == "energy_beam":
            total = hits * effect_halves
            dampers = [i for i, s in enumerate(ship.systems) if s == "O" and ship.alive(i)]
            k_o = len(dampers)
            # (7.4): choose how many dampeners burn out to lose the fewest systems
            options = [(max(0, total - 8 * b - 2 * (k_o - b)) + 2 * b, b) for b in range(k_o + 1)]
            _, burn = min(options)
            for i in dampers[:burn]:
                ship.state[i] = GONE
            landed = max(0, total - 8 * burn - 2 * (k_o - burn))
            _points_from_left(ship, family, landed, dice)
        elif family == "primary_beam":
            for _ in range(hits):
                n = dice.roll(1, 6)
                eligible = [i for i in range(len(ship.systems))
                            if ship.alive(i) and ship.systems[i] not in SKIPS[family]]
                if n <= len(eligible):  # (6.5): past the last system is a miss
                    landed += effect_halves
                    _point(ship, eligible[n - 1], effect_halves == 1, dice)
        else:
            for _ in range(hits):
                landed += effect_halves
                _points_from_left(ship, family, effect_halves, dice)
    return (hits, landed, stopped)
