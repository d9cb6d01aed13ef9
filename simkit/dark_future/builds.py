"""Vehicle design (dark-future.txt p81-86): costs, payload, weapon mounts, turrets, links.

A car (or bike) is written as TOML::

    vehicle = "interceptor"
    skill = 3                       # drive skill (optional, default 3)
    links = [["wing_left", "wing_right"]]
    [mounts]
    hood = "heavy_laser"
    wing_left = "mg"
    wing_right = "mg"
    turret = ["mg", "mg"]
    passive_left = "mines"

or as a compact string, ``"interceptor: hood=heavy_laser, wings=mg, turret=mg+mg,
passive_left=mines, link=wing_left+wing_right, skill=3"`` (``wings``/``sides``/``fairings``
fill both mounts of a pair). :func:`validate` checks every rule and raises one
:class:`~simkit.core.errors.UserInputError` listing every violation:

* each mount exists on the vehicle and takes one weapon of a class it accepts (p82-83: heavy
  weapons only on hood, roof, turret or side mounts; bikes only lightweight weapons and
  lightweight passives; passive mounts only passives, one each);
* a turret holds one heavy weapon or two medium ones (lightweight counting as medium, p86), no
  missile pod, and takes the roof station (see data/vehicles.toml ``mounts``); bikes have none;
* the total weight is within the payload, the cost within the budget when one is given (p81);
* linked weapons are identical, on two or more mounts, none in the turret (p83 Linking Weapons).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..core.errors import UserInputError
from ..core.data import read_toml
from . import rules as R

PAIRS = {"wings": ("wing_left", "wing_right"), "sides": ("side_left", "side_right"),
         "fairings": ("fairing_left", "fairing_right"),
         "passives": ("passive_left", "passive_right")}


@dataclass(frozen=True)
class Item:
    key: str
    name: str
    cls: str
    cost: int
    weight: int


@dataclass
class Car:
    vehicle: str
    mounts: dict = field(default_factory=dict)   # mount -> item key, or list of keys (turret)
    links: list = field(default_factory=list)    # [[mount, mount, ...], ...]
    skill: int = 3
    source: str = "car"                          # where it came from, for messages


@dataclass(frozen=True)
class Report:
    car: Car
    cost: int
    weight: int
    payload: int
    budget: int | None
    violations: tuple[str, ...]

    @property
    def valid(self) -> bool:
        return not self.violations


def catalogue(chosen=None) -> dict[str, Item]:
    """Every item that can be bought: weapons, passives, by key and by alias."""
    rules = R.rules_for(chosen)
    out = {}
    w = rules.table("weapons")
    for key, (cls, _rng, _acc, _dmg, _he, _shots, cost, weight) in w["rows"].items():
        out[key] = Item(key, w["names"][key], cls, cost, weight)
    p = rules.table("passives")
    for key, (cls, _shots, cost, weight) in p["rows"].items():
        out[key] = Item(key, key.replace("_", " "), cls, cost, weight)
    for table in (w, p):
        for alias, key in table.get("aliases", {}).items():
            out.setdefault(alias, out[key])
    return out


# --- parsing -------------------------------------------------------------------------------------
def parse_compact(text: str) -> Car:
    """``"renegade: hood=mg, passive=oil"`` -> :class:`Car` (shape only; :func:`validate` judges)."""
    where = f"car {text!r}"
    head, sep, rest = text.partition(":")
    if not sep:  # also accept "renegade; hood=mg" or "renegade hood=mg, ..."
        parts = text.replace(";", ",").split(",")
        first = parts[0].split()
        if not first:
            raise UserInputError("empty car description", where=where)
        head, rest = first[0], ",".join([" ".join(first[1:])] + parts[1:])
    car = Car(vehicle=head.strip().lower(), source=where)
    for token in (t.strip() for t in rest.replace(";", ",").split(",")):
        if not token:
            continue
        name, eq, value = token.partition("=")
        name, value = name.strip().lower(), value.strip().lower()
        if not eq or not name or not value:
            raise UserInputError(f"expected mount=weapon, got {token!r}", where=where)
        if name == "link":
            car.links.append([m.strip() for m in value.split("+")])
        elif name == "skill":
            try:
                car.skill = int(value)
            except ValueError:
                raise UserInputError(f"drive skill must be a whole number, got {value!r}",
                                     where=where, field="skill") from None
        else:
            items = [v.strip() for v in value.split("+")]
            for mount in PAIRS.get(name, (name,)):
                car.mounts[mount] = items if mount == "turret" or len(items) > 1 else items[0]
    return car


def load_car(path: str | Path) -> Car:
    path = Path(path)
    raw = read_toml(path)
    if "vehicle" not in raw:
        raise UserInputError("missing vehicle = \"renegade|interceptor|bike\"", where=str(path),
                             field="vehicle")
    mounts = raw.get("mounts", {})
    if not isinstance(mounts, dict):
        raise UserInputError("must be a table of mount = weapon", where=str(path), field="mounts")
    expanded = {}
    for name, value in mounts.items():
        for mount in PAIRS.get(name, (name,)):
            expanded[mount] = value
    skill = raw.get("skill", 3)
    if not isinstance(skill, int):
        raise UserInputError(f"drive skill must be a whole number, got {skill!r}",
                             where=str(path), field="skill")
    links = raw.get("links", [])
    if not isinstance(links, list) or not all(
            isinstance(x, list) and all(isinstance(m, str) for m in x) for x in links):
        raise UserInputError('must be a list of lists of mount names, e.g. [["wing_left", '
                             '"wing_right"]]', where=str(path), field="links")
    return Car(str(raw["vehicle"]).lower(), expanded, [list(x) for x in links], skill, str(path))


def car_from(text: str) -> Car:
    """A TOML file (``*.toml``) or a compact string."""
    return load_car(text) if str(text).endswith(".toml") else parse_compact(text)


# --- validation ----------------------------------------------------------------------------------
def check(car: Car, budget: int | None = None, chosen=None) -> Report:
    """Every violation of the design rules, collected (never raises for a bad design)."""
    rules = R.rules_for(chosen)
    cat = catalogue(chosen)
    v: list[str] = []
    mounts_table = rules.table("mounts")
    if car.vehicle not in R.VEHICLES:
        return Report(car, 0, 0, 0, budget, (f"unknown vehicle {car.vehicle!r} (known: "
                                             f"{', '.join(R.VEHICLES)})",))
    prof = R.vehicle(car.vehicle, rules)
    allowed = mounts_table[car.vehicle]
    turret = rules.table("turret")
    cost, weight = prof.cost, 0
    fitted: dict[str, list[Item]] = {}
    for mount, value in car.mounts.items():
        keys = value if isinstance(value, list) else [value]
        if mount not in allowed:
            v.append(f"{mount}: a {car.vehicle} has no such mount (mounts: {', '.join(allowed)})")
            continue
        items = []
        for k in keys:
            item = cat.get(str(k).lower())
            if item is None:
                v.append(f"{mount}: unknown weapon {k!r}")
                continue
            items.append(item)
            cost += item.cost
            weight += item.weight
            if item.cls not in allowed[mount]:
                v.append(f"{mount}: a {item.cls.replace('_', ' ')} item ({item.key}) cannot go on "
                         f"a {car.vehicle}'s {mount} (takes: {', '.join(allowed[mount])})")
        fitted[mount] = items
        if mount != "turret" and len(keys) > 1:
            v.append(f"{mount}: one weapon per mount, got {len(keys)}")
    if "turret" in car.mounts and "turret" in allowed:
        cost += turret["cost"]
        weight += turret["weight"]
        items = fitted.get("turret", [])
        heavy = sum(1 for i in items if i.cls == "heavy")
        medium = sum(1 for i in items if i.cls in ("medium", "lightweight"))
        if heavy > turret["max_heavy"] or (heavy and medium) or medium > turret["max_medium"]:
            v.append(f"turret: holds one heavy weapon or two medium weapons, got "
                     f"{', '.join(i.key for i in items)}")
        for i in items:
            if i.key in turret["forbidden"]:
                v.append(f"turret: may not mount a {i.key} (p82: no missile launcher tubes)")
        if "roof" in car.mounts:
            v.append("roof: a turret takes the roof station; fit a roof weapon or a turret")
    if weight > prof.payload:
        v.append(f"payload: weight {weight} is over the {car.vehicle}'s {prof.payload}")
    if budget is not None and cost > budget:
        v.append(f"cost: ${cost:,} is over the budget of ${budget:,}")
    used: set[str] = set()
    for link in car.links:
        name = "+".join(link)
        if len(link) < 2:
            v.append(f"link {name}: needs two or more mounts")
        for m in link:
            if m == "turret":
                v.append(f"link {name}: turret weapons cannot be linked with other weapons")
            elif m not in fitted or not fitted[m]:
                v.append(f"link {name}: nothing fitted on {m}")
            if m in used:
                v.append(f"link {name}: {m} is already in another link")
            used.add(m)
        kinds = {fitted[m][0].key for m in link if fitted.get(m) and m != "turret"}
        if len(kinds) > 1:
            v.append(f"link {name}: different weapons ({', '.join(sorted(kinds))}) cannot be linked")
        if any(fitted.get(m) and fitted[m][0].cls.endswith("passive") for m in link):
            v.append(f"link {name}: only weapons can be linked, not passives")
    if not isinstance(car.skill, int) or car.skill < 0:
        v.append(f"skill: drive skill must be 0 or more, got {car.skill!r}")
    return Report(car, cost, weight, prof.payload, budget, tuple(v))


def validate(car: Car, budget: int | None = None, chosen=None) -> Report:
    """:func:`check`, raising one UserInputError naming every violation if there is any."""
    rep = check(car, budget, chosen)
    if rep.violations:
        n = len(rep.violations)
        raise UserInputError(f"{n} design problem{'s' if n > 1 else ''}: " +
                             "; ".join(f"({i}) {x}" for i, x in enumerate(rep.violations, 1)),
                             where=car.source)
    return rep
