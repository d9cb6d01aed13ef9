"""Cars on a budget: which legal designs win a Game most often? (issue 5 section 7)

The search itself is the shared :mod:`simkit.core.search` (a genetic algorithm whose trials are
spent by successive halving on common random numbers, finalists re-run on fresh seeds); this
module supplies its two game parts:

* :func:`design_space`: one field per mount of the vehicle (p82-83), each a catalogue item
  allowed on that mount or empty; dollars (vehicle + items, the turret's own $25,000 on the
  turret field) and weight (payload, p81) are the budgets; legal when
  :func:`builds.check` finds no violation and the car carries at least one weapon (Games
  Four-Six). The turret field holds one weapon or two medium ones (p83: 'one heavy weapon or
  two medium weapons'); a ``link`` field (0/1) links every set of identical fixed weapons
  (p83: linking is free, identical weapons only, never the turret's).
* :class:`GameEvaluator`: each candidate replaces the cars of one side of a scenario and plays
  its games through the compiled engine (``engine.games_chunk``): trial ``t`` of every
  candidate draws from the same stream, so candidates race on identical games. With
  ``opponents`` (cars for the other side) trial ``t`` faces opponent ``(t // 16) mod k``, the
  same one for every candidate, so a design must beat a field, not one fixed car.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..core.errors import UserInputError
from ..core.search import IntBoxSpace, IntField, Rate, StatEvaluator
from . import engine as EG
from . import rules as R
from .builds import Car, car_from, catalogue, check
from .scenario import _compact, _weapon_rows, load_scenario, to_arrays


def _mount_items(vehicle, chosen):
    rules = R.rules_for(chosen)
    allowed = rules.table("mounts")[vehicle]
    cat = catalogue(chosen)
    keys = []
    for k, item in cat.items():
        if k == item.key and k not in keys:
            keys.append(k)
    turret = rules.table("turret")
    out = {}
    for mount, classes in allowed.items():
        items = [k for k in keys if cat[k].cls in classes]
        if mount == "turret":
            items = [k for k in items if k not in turret["forbidden"]]
            # two medium (or lightweight) weapons, unordered, as 'a+b' (p83)
            two = [k for k in items if cat[k].cls in ("medium", "lightweight")]
            items = items + [f"{a}+{b}" for i, a in enumerate(two) for b in two[i:]]
        out[mount] = items
    return out, cat, turret


def _turret_keys(key):
    return key.split("+")


def _link_all(car):
    """Link every set of two or more identical fixed weapons (p83)."""
    groups = {}
    for m, k in car.mounts.items():
        if m != "turret" and not isinstance(k, list):
            groups.setdefault(k, []).append(m)
    cat = catalogue()
    car.links = [ms for k, ms in groups.items()
                 if len(ms) > 1 and not cat[k].cls.endswith("passive")]


def design_space(vehicle: str, budget: int, chosen=None) -> IntBoxSpace:
    rules = R.rules_for(chosen)
    prof = R.vehicle(vehicle, rules, option="--vehicle")
    if budget < prof.cost:
        raise UserInputError(f"a {vehicle} alone costs ${prof.cost:,}; the budget is "
                             f"${budget:,}", field="--budget")
    items, cat, turret = _mount_items(vehicle, chosen)
    mounts = list(items)
    fields = []
    for m in mounts:
        extra_cost = turret["cost"] if m == "turret" else 0
        extra_w = turret["weight"] if m == "turret" else 0
        dollars = [0] + [sum(cat[x].cost for x in _turret_keys(k)) + extra_cost
                         for k in items[m]]
        weight = [0] + [sum(cat[x].weight for x in _turret_keys(k)) + extra_w
                        for k in items[m]]
        fields.append(IntField(m, 0, len(items[m]), cost={"dollars": dollars, "weight": weight}))
    # linking is free (p83); with the space's fill a design whose fixed weapons include
    # identical ones is searched linked (the field goes up whenever a link is possible)
    fields.append(IntField("link", 0, 1, cost={"dollars": [0, 0], "weight": [0, 0]}))

    def to_car(c) -> Car:
        car = Car(vehicle, source="candidate")
        for m, v in zip(mounts, c):
            if v:
                k = items[m][v - 1]
                car.mounts[m] = _turret_keys(k) if m == "turret" else k
        if c[len(mounts)]:
            _link_all(car)
        return car

    def legal(c) -> bool:
        car = to_car(c)
        if not car.mounts:
            return False
        if c[len(mounts)] and not car.links:
            return False   # the link field on with nothing to link: the same car twice
        return not check(car, budget, chosen).violations

    space = IntBoxSpace(fields, {"dollars": budget - prof.cost, "weight": prof.payload},
                        legal=legal, describe=lambda c: _compact(to_car(c)))
    space.to_car = to_car
    return space


OPP_BLOCK = 16   # consecutive trials against one opponent of the field


class GameEvaluator(StatEvaluator):
    """Win rate of one side of a scenario when it drives the candidate car."""

    stats = (Rate("win", 0), Rate("draw", 1), Rate("lead_win", 2))
    objective = "win_rate"

    def __init__(self, scenario_path, side: str | None, space, chosen=None, policies=None,
                 opponents=()):
        self.sc = load_scenario(scenario_path, policies=policies, variants=chosen)
        names = [s.name for s in self.sc.sides]
        if side is None:
            side = names[0]
        if side not in names:
            raise UserInputError(f"no side named {side!r} (sides: {', '.join(names)})",
                                 field="--side")
        self.side = names.index(side)
        if any(len(loads) > 1 for loads in self.sc.sides[self.side].cars):
            raise UserInputError("the searched side must list its cars (not a car table)",
                                 field="--side")
        self.space = space
        self.chosen = chosen
        self.a = to_arrays(self.sc)
        self.vehicles = [v for v in range(self.a.G[EG.G_NV]) if self.a.VC[v, EG.VC_SIDE] == self.side]
        self.name = f"dark-future {self.sc.name} ({side})"
        # the opposing field: each a car (compact string or Car) driving every vehicle of the
        # other side; checked legal within the other side's budget
        self.opponents = []
        other = [v for v in range(self.a.G[EG.G_NV]) if v not in self.vehicles]
        osc = self.sc.sides[1 - self.side]
        for text in opponents:
            car = car_from(text) if isinstance(text, str) else text
            per_car = osc.budget if osc.budget_scope == "car" else None
            rep = check(car, per_car, chosen)
            bad = list(rep.violations)
            if osc.budget is not None and osc.budget_scope == "side" \
                    and rep.cost * len(other) > osc.budget:
                bad.append(f"{len(other)} of them cost ${rep.cost * len(other):,}, over the "
                           f"side's budget of ${osc.budget:,}")
            if bad:
                raise UserInputError(f"opponent {_compact(car)}: " + "; ".join(bad),
                                     field="--opponent")
            self.opponents.append(self._rows(car, other, self.a.VC, self.a.LOAD, self.a.LFIT,
                                             self.a.crit[3]))

    def _rows(self, car, vehicles, VC, LOAD, LFIT, grp):
        rows, fit, groups = _weapon_rows(car, self.chosen)
        VC, LOAD, LFIT, grp = VC.copy(), LOAD.copy(), LFIT.copy(), grp.copy()
        kind = list(R.VEHICLES).index(car.vehicle)
        for v in vehicles:
            VC[v, EG.VC_KIND] = kind
            VC[v, EG.VC_NLOAD] = 1
            LOAD[v, 0] = rows
            LFIT[v, 0] = fit
            grp[v] = groups
        return VC, LOAD, LFIT, grp

    def _arrays_for(self, c, opponent=None):
        a = self.a
        base = (a.VC, a.LOAD, a.LFIT, a.crit[3]) if opponent is None else opponent
        VC, LOAD, LFIT, grp = self._rows(self.space.to_car(c), self.vehicles, *base)
        return VC, LOAD, LFIT, (a.crit[0], a.crit[1], a.crit[2], grp)

    def _play(self, arrays, key, first, n):
        a = self.a
        VC, LOAD, LFIT, crit = arrays
        return EG.games_chunk(np.uint64(key), int(first), int(n), a.G, VC, a.VPOS, LOAD, LFIT,
                              a.PROF, a.SKILLS, a.LAY, a.curves, a.box, crit, a.hp, a.cl_lows,
                              a.cl_codes, a.spin_t, a.POL, np.zeros(0, np.int64))

    def evaluate(self, candidates, first_trial, n_trials, key):
        out = np.zeros((len(candidates), self.n_stats), np.int64)
        base = EG.ST_SIDE + self.side * EG.N_SIDE
        for i, c in enumerate(candidates):
            c = tuple(int(x) for x in c)
            if not self.opponents:
                acc = self._play(self._arrays_for(c), key, first_trial, n_trials)
            else:
                # trial t faces opponent (t // OPP_BLOCK) mod k, whatever the candidate (common
                # random numbers); blocks keep the compiled calls few
                k = len(self.opponents)
                acc = np.zeros(EG.N_STATS, np.int64)
                arrays = [self._arrays_for(c, o) for o in self.opponents]
                t = int(first_trial)
                end = t + int(n_trials)
                while t < end:
                    stop = min(end, (t // OPP_BLOCK + 1) * OPP_BLOCK)
                    acc += self._play(arrays[(t // OPP_BLOCK) % k], key, t, stop - t)
                    t = stop
            out[i, 0] = acc[base]
            out[i, 1] = acc[EG.ST_DRAWS]
            out[i, 2] = acc[base + 2]
        return out


def budget_search(scenario, *, vehicle="renegade", budget=50_000, side=None, include=(),
                  chosen=None, seed=2026, opponents=(), **search_kwargs):
    """The leaderboard of legal ``vehicle`` designs within ``budget`` for ``side`` of
    ``scenario`` (see :func:`simkit.core.search.search` for the search options), against the
    scenario's own opponents or, with ``opponents``, against that field of cars in turn."""
    from ..core.search import search

    space = design_space(vehicle, budget, chosen)
    ev = GameEvaluator(scenario, side, space, chosen, opponents=opponents)
    inc = []
    for text in include:
        inc.append(encode(space, text, chosen))
    board = search(space, ev, seed=seed, include=tuple(inc), **search_kwargs)
    # What the rows were played in, so a leaderboard CSV can be replayed as scenarios
    # (simkit sensitivity LEADERBOARD.csv --game dark-future).
    board.insert(0, "game", "dark-future")
    board["scenario"] = str(scenario)
    board["side"] = ev.sc.sides[ev.side].name
    board.attrs["columns"] = ["rank", "build", "win_rate", "win_lo", "win_hi", "draw_rate",
                              "trials", "included"]
    return board


def metagame_game(scenario, *, vehicle="renegade", budget=50_000, chosen=None):
    """The ``$`` build metagame of a two-sided Game (:mod:`simkit.analysis.metagame`): both
    sides drive designs of ``vehicle`` within ``budget`` dollars a car, and a pairing of builds
    plays the Game with the builds' sides swapped in half the games, on the same seeded games
    (trial ``t`` of each half draws the same dice), so a build's result is never its side's.
    The population starts from the scenario's own cars that fit the space; they are also the
    reference rows."""
    from ..core.dice import stream_key
    from ..core.game import BuildGame

    space = design_space(vehicle, budget, chosen)
    ev = GameEvaluator(scenario, None, space, chosen)
    if len(ev.sc.sides) != 2:
        raise UserInputError(f"the metagame needs a Game of two sides ({ev.sc.name} has "
                             f"{len(ev.sc.sides)})", field="--scenario")
    if any(len(loads) > 1 for loads in ev.sc.sides[1].cars):
        raise UserInputError("both sides must list their cars (not a car table)",
                             field="--scenario")
    a = ev.a
    first = ev.vehicles
    second = [v for v in range(a.G[EG.G_NV]) if v not in first]
    base = (a.VC, a.LOAD, a.LFIT, a.crit[3])

    def play(x, y, key, lo, hi):
        """Wins of the builds driving the first side (x) and the second (y), trials lo..hi-1."""
        if hi <= lo:
            return 0, 0
        rows = ev._rows(space.to_car(x), first, *base)
        VC, LOAD, LFIT, grp = ev._rows(space.to_car(y), second, *rows)
        acc = ev._play((VC, LOAD, LFIT, (a.crit[0], a.crit[1], a.crit[2], grp)), key, lo,
                       hi - lo)
        return int(acc[EG.ST_SIDE]), int(acc[EG.ST_SIDE + EG.N_SIDE])

    def duel(x, y, n, seed, start=0):
        # games start .. start+n-1 of the pairing: game 2i+1 is trial i with x on the first
        # side, game 2i trial i with y there, so games 0 .. n-1 are x first on trials
        # 0 .. n//2-1 and y first on trials 0 .. n-n//2-1
        key = stream_key(int(seed))
        lo, hi = start, start + n
        wx, wy = play(x, y, key, lo // 2, hi // 2)
        wy2, wx2 = play(y, x, key, (lo + 1) // 2, (hi + 1) // 2)
        return np.array([wx + wx2, wy + wy2], np.int64)

    start, reference = [], []
    for side in ev.sc.sides:
        car = side.cars[0][0]
        try:
            c = encode(space, _compact(car), chosen)
        except UserInputError:
            continue   # another vehicle, or a design this budget cannot pay for
        if c not in start:
            start.append(c)
            reference.append((f"{ev.sc.name}'s {side.name} car", c))
    if not start:
        raise UserInputError(f"no car of {ev.sc.name} is a {vehicle} within ${budget:,} to "
                             "start the metagame from", field="--scenario")
    return BuildGame(f"Dark Future {vehicle} designs within ${budget:,}", space, duel,
                     start=start, reference=reference, extend=True,
                     note=f"{ev.sc.name}, the builds' sides swapped in half the games, each "
                          "side's cars driven by its scenario policy")


def encode(space, text, chosen=None):
    """A user's car (compact string) as a candidate of the space."""
    from .builds import car_from

    car = car_from(text)
    items, _, _ = _mount_items(car.vehicle, chosen)
    c = []
    cat = catalogue(chosen)
    for f in space.fields:
        if f.name == "link":
            c.append(1 if car.links else 0)
            continue
        v = car.mounts.get(f.name)
        if v is None:
            c.append(0)
            continue
        keys = [str(x).lower() for x in (v if isinstance(v, list) else [v])]
        keys = [cat[k].key if k in cat else k for k in keys]
        key = "+".join(keys)
        if key not in items[f.name] and "+".join(reversed(keys)) in items[f.name]:
            key = "+".join(reversed(keys))
        if key not in items[f.name]:
            raise UserInputError(f"{f.name}: {key} cannot be searched on this mount",
                                 field="--include")
        c.append(items[f.name].index(key) + 1)
    c = tuple(c)
    if not space.is_legal(c):
        raise UserInputError(f"{text!r} is not a legal design within the budget", field="--include")
    return c


def build_scenario(row: dict, workdir) -> Path:
    """The scenario a leaderboard row was searched in, with the row's design driving every car
    of its side (the sensitivity hook ``analyses["build_scenario"]``). The row names its
    ``build`` (a compact car), ``scenario`` (the file) and ``side``, as
    ``simkit builds dark-future --budget ...`` writes them."""
    from ..core.data import read_toml
    from ..core.tomlw import dumps

    where = "leaderboard row"
    for key in ("build", "scenario", "side"):
        if not row.get(key):
            raise UserInputError(f"needs a {key!r} column (as written by simkit builds "
                                 "dark-future --budget)", where=where, field=key)
    doc = read_toml(str(row["scenario"]))
    sides = doc.get("side")
    match = [s for s in sides if isinstance(s, dict) and s.get("name") == row["side"]] \
        if isinstance(sides, list) else []
    if not match or not isinstance(match[0].get("cars"), list):
        raise UserInputError(f"the scenario has no side {row['side']!r} listing its cars",
                             where=str(row["scenario"]), field="side")
    match[0]["cars"] = [str(row["build"])] * len(match[0]["cars"])
    rank = row.get("rank")
    doc["name"] = f"{doc.get('name', 'scenario')}, build search rank {int(rank) if rank else '?'}"
    out = Path(workdir) / f"dark-future-build-{int(rank) if rank else 0}.toml"
    out.write_text(dumps(doc), encoding="utf-8")
    return out
