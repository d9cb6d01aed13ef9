"""Ship builds: the 80-point Set Up Sheet purchase (005, 102) and the Turn's allocation
arithmetic (203 B-C).

A build is written ``fuel=210,si=14,pi=3,me=6,mn=6,tractor=10,screens=4,laser=10,scrambler=0``
on the command line, or as TOML (top-level keys or a ``[build]`` table with the same names).
Omitted Functions are Level 0 (102 A: "Players are not required to purchase Levels in any
Function"). PI is the number of PI Levels bought (box 1 carries the -2 modifier, see
``pi_ladder``). :func:`validate` lists every violation in one :class:`UserInputError`.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from pathlib import Path

from simkit.core.errors import UserInputError
from simkit.core.data import read_toml

from .rules import Rules, make_rules

ALIASES = {"f": "fuel", "sc": "screens", "t": "tractor", "l": "laser",
           "s": "scrambler", "scr": "scrambler", "maneuver": "mn", "main": "me"}


@dataclass(frozen=True)
class Build:
    fuel: int = 0
    si: int = 0
    pi: int = 0
    me: int = 0
    mn: int = 0
    tractor: int = 0
    screens: int = 0
    laser: int = 0
    scrambler: int = 0

    def levels(self) -> dict[str, int]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    def __str__(self) -> str:
        return ",".join(f"{k}={v}" for k, v in self.levels().items())


FUNCTION_NAMES = tuple(f.name for f in fields(Build))


def parse_build(text: str, *, where: str = "--check") -> Build:
    """A build from ``key=value,...`` or from a ``.toml`` file path; every problem in one error."""
    build, problems, where = _parse(text, where)
    if problems:
        raise UserInputError("; ".join(problems), where=where)
    return build


def check_build(text: str, rules: Rules | None = None, *, where: str = "--check") -> Build:
    """Parse and validate: every parse problem and every 102 A violation in one error."""
    rules = rules or make_rules()
    build, problems, where = _parse(text, where)
    problems += violations(build, rules)
    if problems:
        raise UserInputError(f"invalid build {build} (cost {cost(build, rules)} of "
                             f"{rules.budget} points): " + "; ".join(problems), where=where)
    return build


def _parse(text, where):
    text = str(text).strip()
    if text.lower().endswith(".toml"):
        path = Path(text)
        raw = read_toml(path)
        body = raw.get("build", raw)
        if not isinstance(body, dict):
            raise UserInputError("[build] must be a table", where=str(path), field="build")
        return _from_pairs([(str(k).lower(), v) for k, v in body.items()], []) + (str(path),)
    problems: list[str] = []
    pairs = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, sep, val = part.partition("=")
        if not sep:
            problems.append(f"{part!r} is not name=level")
            continue
        pairs.append((key.strip().lower(), val.strip()))
    return _from_pairs(pairs, problems) + (where,)


def _from_pairs(pairs, problems):
    """Known, whole-number Levels into a Build (the rest reported, treated as 0)."""
    out: dict[str, int] = {}
    for key, val in pairs:
        name = ALIASES.get(key, key)
        if name not in FUNCTION_NAMES:
            problems.append(f"unknown Function {key!r} (known: {', '.join(FUNCTION_NAMES)})")
            continue
        if name in out:
            problems.append(f"{name} given twice")
            continue
        try:
            if isinstance(val, bool) or (isinstance(val, float) and not val.is_integer()):
                raise ValueError
            out[name] = int(val) if isinstance(val, (int, float)) else int(str(val).strip())
        except (ValueError, TypeError):
            problems.append(f"{name}={val!r} is not a whole number")
    return Build(**out), problems


def cost(build: Build, rules: Rules | None = None) -> int:
    """Points spent (102 A): 1 per Level, PI 3 per Level, Fuel 1 per 10 Levels."""
    rules = rules or make_rules()
    total = 0
    for name, level in build.levels().items():
        row = rules.function_row(name)
        # a part-bought unit (Fuel 163) is priced as the next whole unit; validate refuses it
        total += -(-max(level, 0) // int(row["levels_per_purchase"])) * int(row["points_per_purchase"])
    return total


def violations(build: Build, rules: Rules | None = None) -> list[str]:
    """Every way the build breaks 102 A (empty list = legal)."""
    rules = rules or make_rules()
    out = []
    for name, level in build.levels().items():
        row = rules.function_row(name)
        unit = int(row["levels_per_purchase"])
        if level < 0:
            out.append(f"{name}={level} is below Level 0")
        elif level < rules.min_level(name):
            out.append(f"{name}={level}: a ship with Level {rules.si_destroyed_at} SI is "
                       f"destroyed (005 L); buy at least Level {rules.min_level(name)}")
        if level > row["max_level"]:
            out.append(f"{name}={level} exceeds the maximum Level {row['max_level']}")
        if unit > 1 and level % unit:
            lo = level // unit * unit
            out.append(f"{name}={level} is not bought in units of {unit} (use {lo} or {lo + unit})")
    points = cost(build, rules)
    if points > rules.budget:
        out.append(f"costs {points} points, more than the {rules.budget}-point budget")
    return out


def validate(build: Build, rules: Rules | None = None, *, where: str = "build") -> Build:
    rules = rules or make_rules()
    problems = violations(build, rules)
    if problems:
        raise UserInputError(f"invalid build {build} (cost {cost(build, rules)} of "
                             f"{rules.budget} points): " + "; ".join(problems), where=where)
    return build


def worked_ship(rules: Rules | None = None) -> Build:
    """The rulebook's example ship (102 B)."""
    rules = rules or make_rules()
    return parse_build(rules.t("worked_ship")["build"], where="worked_ship")


# --- 203 B-C: one Turn's allocation ---------------------------------------------------------

@dataclass(frozen=True)
class Allocation:
    """Levels allocated for one Turn (203 A); ``me_mode`` 'A' accelerate, 'D' decelerate."""
    me_mode: str = ""
    me: int = 0
    screens: int = 0
    tractor: int = 0
    laser: int = 0
    scrambler: int = 0


def velocity_after(velocity: int, alloc: Allocation, rules: Rules | None = None) -> int:
    """Velocity after the Main Engines allocation (203 B b): +ME on 'A', -ME on 'D', clamped
    to the track (0 .. max_velocity)."""
    rules = rules or make_rules()
    if alloc.me_mode == "A":
        velocity += alloc.me
    elif alloc.me_mode == "D":
        velocity -= alloc.me
    return max(0, min(rules.max_velocity, velocity))


def allocation_fuel(alloc: Allocation, rules: Rules | None = None, *, turning_movements: int = 0,
                    tractor_uses: int = 1) -> int:
    """Fuel Levels expended by an allocation (203 C): charged even if a Function is unused;
    Tractor charged again per successive use; turning movements at the end of the Turn."""
    rules = rules or make_rules()
    per = rules.t("fuel_expenditure")["per_level"]
    fuel = 0
    if alloc.me_mode == "A":
        fuel += per["acceleration"] * alloc.me
    elif alloc.me_mode == "D":
        fuel += per["deceleration"] * alloc.me
    fuel += per["screens"] * alloc.screens + per["laser"] * alloc.laser
    fuel += per["scrambler"] * alloc.scrambler
    fuel += per["tractor"] * alloc.tractor * max(1, tractor_uses) if alloc.tractor else 0
    fuel += per["turning_movement"] * turning_movements
    return fuel


def allocation_violations(alloc: Allocation, build: Build) -> list[str]:
    """203 A: no allocated Level may exceed the Function's current maximum."""
    out = []
    for name in ("me", "screens", "tractor", "laser", "scrambler"):
        if getattr(alloc, name) > getattr(build, name):
            out.append(f"{name} allocated {getattr(alloc, name)} above its maximum {getattr(build, name)}")
        if getattr(alloc, name) < 0:
            out.append(f"{name} allocated below 0")
    if alloc.me_mode not in ("", "A", "D"):
        out.append(f"Main Engines marker must be 'A' or 'D', got {alloc.me_mode!r}")
    return out
