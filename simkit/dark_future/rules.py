"""Dark Future rules data: the TOML tables under ``data/`` turned into plain values and arrays.

Every number the engines use comes from here (STYLE.md habit 1): vehicle profiles (p83
Summary Table), the speed factor (p12), the hazard roll and control-loss tables (p38-42), the
weapons (p25-28, p81-86), the target matrices and critical results (p32-35, p68-69). Variants
(``simkit variants dark-future``) are applied by :func:`rules_for`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from ..core.data import RulesData, load_rules
from ..core.errors import UserInputError

DATA_DIR = Path(__file__).with_name("data")
FILES = ("vehicles.toml", "weapons.toml", "hazards.toml", "criticals.toml", "track.toml",
         "engine.toml")

VEHICLES = ("renegade", "interceptor", "bike")


@lru_cache(maxsize=None)
def base_rules() -> RulesData:
    """All Dark Future tables and variants, loaded once."""
    return load_rules(*(DATA_DIR / f for f in FILES))


def _key(chosen):
    return tuple(sorted((chosen or {}).items()))


@lru_cache(maxsize=64)
def _rules_for(key) -> tuple[RulesData, tuple]:
    base = base_rules()
    selection = base.resolve(dict(key))
    return base.with_variants(selection), tuple(sorted(selection.items()))


def rules_for(chosen: dict | None = None) -> RulesData:
    """The tables with the chosen variants applied (defaults for the rest)."""
    return _rules_for(_key(chosen))[0]


def selection(chosen: dict | None = None) -> dict[str, str]:
    return dict(_rules_for(_key(chosen))[1])


# --- vehicles ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Profile:
    name: str
    damage: int
    armour: int
    speed: int
    acc: int
    braking: int
    handling: int
    increments: tuple[int, ...]
    cost: int
    payload: int

    @property
    def is_bike(self) -> bool:
        return self.name == "bike"


def vehicle(name: str, rules: RulesData | None = None, *, option: str = "vehicle") -> Profile:
    rules = rules or base_rules()
    rows = rules.table("vehicle_profiles")["rows"]
    key = str(name).lower()
    if key not in rows:
        raise UserInputError(f"unknown vehicle {name!r} (known: {', '.join(rows)})", field=option)
    d, a, s, acc, b, h = rows[key]
    cost, payload = rules.table("vehicle_costs")["rows"][key]
    inc = tuple(rules.table("damage_increments")["rows"][key])
    return Profile(key, d, a, s, acc, b, h, inc, cost, payload)


def speed_factor(mph: int, rules: RulesData | None = None) -> int:
    """Speed factor of a speed (p12): the row of the table holding it; 0 when stationary."""
    rules = rules or base_rules()
    if mph <= 0:
        return 0
    for lo, hi, sf in rules.table("speed_factor")["rows"]:
        if lo <= mph <= hi:
            return sf
    # past the printed table (no vehicle goes faster than 120mph) the rule text still applies
    return math.ceil(mph / rules.table("speed_factor")["mph_per_factor"])


def speed_range(profile: Profile, mph: int) -> tuple[int, int]:
    """Slowest and fastest speed one phase's brake or accelerate action can reach (p12, p15-16)."""
    return max(0, mph - profile.braking), min(profile.speed, mph + profile.acc)


def optimum_control(handling: int, skill: int) -> int:
    return max(handling, skill)


def adverse_control(handling: int, skill: int) -> int:
    return min(handling, skill)


# --- hazard roll and control loss -------------------------------------------------------------
@dataclass(frozen=True)
class HazardParams:
    die: int
    mph_per_point: int
    ok_max: int
    loss_min: int
    panic_mph_per_point: int

    def as_array(self) -> np.ndarray:
        return np.array([self.die, self.mph_per_point, self.ok_max, self.loss_min,
                         self.panic_mph_per_point], dtype=np.int64)


def hazard_params(rules: RulesData | None = None) -> HazardParams:
    t = (rules or base_rules()).table("hazard_roll")
    return HazardParams(t["die"], t["mph_per_point"], t["ok_max"], t["loss_min"],
                        t["panic_mph_per_point"])


def excess_modifier(speed: int, limit: int, rules: RulesData | None = None) -> int:
    """+1 per 10mph, or part of 10mph, over the safety limit (p39); 0 at or below it."""
    step = hazard_params(rules).mph_per_point
    return 0 if speed <= limit else -(-(speed - limit) // step)


def optimum_speed(limit: int, optimum: int, rules: RulesData | None = None) -> int:
    """Fastest speed at which even the worst hazard roll is only a panic brake (p41)."""
    hp = hazard_params(rules)
    best_excess_points = (hp.loss_min - 1) - hp.die + optimum
    if best_excess_points < 0:
        return limit  # even at the limit (no roll) you are safe; one mph over risks loss
    return limit + hp.mph_per_point * best_excess_points


CONTROL_OUTCOMES = ("regain", "skid_regain", "skid_out", "spin", "roll")


def control_loss_table(kind: str, rules: RulesData | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(lowest scores, outcome codes) for ``kind`` = car|bike; codes index CONTROL_OUTCOMES."""
    rules = rules or base_rules()
    rows = rules.table(f"control_loss_{kind}")["rows"]
    lows = np.array([r[0] for r in rows], dtype=np.int64)
    codes = np.array([CONTROL_OUTCOMES.index(r[1]) for r in rows], dtype=np.int64)
    return lows, codes


def control_loss_penalty(rules: RulesData | None = None) -> int:
    return (rules or base_rules()).table("control_loss_car")["zero_handling_or_no_driver"]


def safety_limit(name: str, rules: RulesData | None = None) -> int:
    return (rules or base_rules()).table("safety_limits")["limits"][name]
