"""Cars on a budget: which legal designs win a Game most often? (issue 5 section 7)

The search itself is the shared :mod:`simkit.core.search` (a genetic algorithm whose trials are
spent by successive halving on common random numbers, finalists re-run on fresh seeds); this
module supplies its two game parts:

* :func:`design_space`: one field per mount of the vehicle (p82-83), each a catalogue item
  allowed on that mount or empty; dollars (vehicle + items, the turret's own $25,000 on the
  turret field) and weight (payload, p81) are the budgets; legal when
  :func:`design.check` finds no violation and the car carries at least one weapon (Games
  Four-Six). A turret is searched with one weapon (two medium weapons in a turret are not
  searched).
* :class:`GameEvaluator`: each candidate replaces the cars of one side of a scenario and plays
  its games through the compiled engine (``engine.games_chunk``): trial ``t`` of every
  candidate draws from the same stream, so candidates race on identical games.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from ..core.errors import UserInputError
from ..core.search import IntBoxSpace, IntField, Rate, StatEvaluator
from . import engine as EG
from . import rules as R
from .design import Car, catalogue, check
from .games import _compact, _weapon_rows, load_scenario, to_arrays


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
        out[mount] = items
    return out, cat, turret


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
        dollars = [0] + [cat[k].cost + extra_cost for k in items[m]]
        weight = [0] + [cat[k].weight + extra_w for k in items[m]]
        fields.append(IntField(m, 0, len(items[m]), cost={"dollars": dollars, "weight": weight}))

    def to_car(c) -> Car:
        car = Car(vehicle, source="candidate")
        for m, v in zip(mounts, c):
            if v:
                car.mounts[m] = [items[m][v - 1]] if m == "turret" else items[m][v - 1]
        return car

    def legal(c) -> bool:
        car = to_car(c)
        if not car.mounts:
            return False
        return not check(car, budget, chosen).violations

    space = IntBoxSpace(fields, {"dollars": budget - prof.cost, "weight": prof.payload},
                        legal=legal, describe=lambda c: _compact(to_car(c)))
    space.to_car = to_car
    return space


class GameEvaluator(StatEvaluator):
    """Win rate of one side of a scenario when it drives the candidate car."""

    stats = (Rate("win", 0), Rate("draw", 1), Rate("lead_win", 2))
    objective = "win_rate"

    def __init__(self, scenario_path, side: str | None, space, chosen=None, policies=None):
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

    def _arrays_for(self, c):
        a = self.a
        car = self.space.to_car(c)
        rows, fit, groups = _weapon_rows(car, self.chosen)
        VC, LOAD, LFIT = a.VC.copy(), a.LOAD.copy(), a.LFIT.copy()
        grp = a.crit[3].copy()
        kind = list(R.VEHICLES).index(car.vehicle)
        for v in self.vehicles:
            VC[v, EG.VC_KIND] = kind
            VC[v, EG.VC_NLOAD] = 1
            LOAD[v, 0] = rows
            LFIT[v, 0] = fit
            grp[v] = groups
        return VC, LOAD, LFIT, (a.crit[0], a.crit[1], a.crit[2], grp)

    def evaluate(self, candidates, first_trial, n_trials, key):
        a = self.a
        out = np.zeros((len(candidates), self.n_stats), np.int64)
        for i, c in enumerate(candidates):
            VC, LOAD, LFIT, crit = self._arrays_for(tuple(int(x) for x in c))
            acc = EG.games_chunk(np.uint64(key), int(first_trial), int(n_trials), a.G, VC, a.VPOS,
                                 LOAD, LFIT, a.PROF, a.SKILLS, a.LAY, a.curves, a.box, crit, a.hp,
                                 a.cl_lows, a.cl_codes, a.spin_t, a.POL, np.zeros(0, np.int64))
            base = EG.ST_SIDE + self.side * EG.N_SIDE
            out[i, 0] = acc[base]
            out[i, 1] = acc[EG.ST_DRAWS]
            out[i, 2] = acc[base + 2]
        return out


def budget_search(scenario, *, vehicle="renegade", budget=50_000, side=None, include=(),
                  chosen=None, seed=2026, **search_kwargs):
    """The leaderboard of legal ``vehicle`` designs within ``budget`` for ``side`` of
    ``scenario`` (see :func:`simkit.core.search.search` for the search options)."""
    from ..core.search import search

    space = design_space(vehicle, budget, chosen)
    ev = GameEvaluator(scenario, side, space, chosen)
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


def encode(space, text, chosen=None):
    """A user's car (compact string) as a candidate of the space."""
    from .design import car_from

    car = car_from(text)
    items, _, _ = _mount_items(car.vehicle, chosen)
    c = []
    for f in space.fields:
        v = car.mounts.get(f.name)
        if v is None:
            c.append(0)
            continue
        key = (v[0] if isinstance(v, list) else v).lower()
        key = catalogue(chosen)[key].key if key in catalogue(chosen) else key
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
