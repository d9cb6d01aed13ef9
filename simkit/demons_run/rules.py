"""Demon's Run rules data: the TOML tables loaded once, variants applied, and the plain arrays
the kernels read.

The tables are in ``data/ship.toml`` (Set Up Sheet tracks, 005/102), ``data/hazards.toml``
(205-210 and the Reference Card) and ``data/race.toml`` (204, 211, 212). :class:`Rules` is the
one object the rest of the package uses: it resolves the variant selection (defaults plus the
user's ``--variant`` choices), applies their table patches, and exposes the numbers as Python
values and numpy arrays. Nothing downstream holds a rules number as a literal.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Mapping

import numpy as np

from simkit.core.data import RulesData, load_rules

DATA = Path(__file__).parent / "data"
FILES = ("ship.toml", "hazards.toml", "race.toml")

# Ship-state columns shared by the reference procedures, the exact oracle and the kernels.
FUNCS = ("si", "fuel", "tractor", "laser", "mn", "screens", "me", "scrambler", "pi")
SI, FUEL, TRACTOR, LASER, MN, SCREENS, ME, SCRAMBLER, PI = range(len(FUNCS))
BUOYS = len(FUNCS)          # buoys carried (the last one can be cast loose, 210 C c)
SHIP_SIZE = BUOYS + 1

# Critical Hit effect codes (kernel arrays).
CRIT_CRISIS, CRIT_LOSE = 0, 1


@lru_cache(maxsize=1)
def rules_data() -> RulesData:
    """All Demon's Run tables and variants, as loaded (no variant patches applied)."""
    return load_rules(*(DATA / f for f in FILES))


@dataclass(frozen=True)
class Rules:
    """Rules with one variant selection applied."""

    data: RulesData
    variants: Mapping[str, str]

    # --- ship design -------------------------------------------------------------------------
    @property
    def function_order(self) -> list[str]:
        return list(self.data.table("functions")["order"])

    def function_row(self, name: str) -> dict:
        cols = self.data.table("functions")["columns"]
        return dict(zip(cols, self.data.table("functions")["rows"][name]))

    def max_level(self, name: str) -> int:
        return int(self.function_row(name)["max_level"])

    @property
    def si_destroyed_at(self) -> int:
        """005 L: a ship with this many SI Levels (0) or fewer is destroyed."""
        return int(self.data.table("structural_integrity")["destroyed_at"])

    def min_level(self, name: str) -> int:
        """The lowest Level a build may buy: SI above ``si_destroyed_at`` (005 L), else 0."""
        return self.si_destroyed_at + 1 if name == "si" else 0

    @property
    def budget(self) -> int:
        return int(self.data.table("budget")["points"])

    @property
    def pi_modifiers(self) -> np.ndarray:
        return np.asarray(self.data.table("pi_ladder")["rows"]["modifier"], dtype=np.int64)

    def pi_modifier(self, pi_level: int) -> int:
        return int(self.pi_modifiers[pi_level])

    @property
    def velocity_turns(self) -> np.ndarray:
        return np.asarray(self.data.table("velocity")["rows"]["turns"], dtype=np.int64)

    @property
    def max_velocity(self) -> int:
        return int(self.data.table("velocity")["max_velocity"])

    def turns_allowed(self, velocity: int) -> int:
        return int(self.velocity_turns[velocity])

    def maneuver(self, level: int) -> tuple[int, int]:
        rows = self.data.table("maneuver_engine")["rows"]
        return int(rows["per_hex"][level]), int(rows["per_turn"][level])

    # --- hazards -----------------------------------------------------------------------------
    def t(self, name: str):
        return self.data.table(name)

    @property
    def hound_card(self) -> bool:
        return self.variants["hell_hound_subtraction"] == "card"

    @property
    def fire_card(self) -> bool:
        return self.variants["hell_fire_subtraction"] == "card"

    @property
    def fire_si_damage(self) -> bool:
        """Hell Fire's result is SI damage too (variant hell_fire_damage=si, the default)."""
        return self.variants["hell_fire_damage"] == "si"

    @property
    def hole_keeps_velocity(self) -> bool:
        """A failed Hell Hole escape keeps its Velocity (variant hell_hole_escape=keep)."""
        return self.variants["hell_hole_escape"] == "keep"

    @property
    def scrambler_uses_laser(self) -> bool:
        return self.variants["scrambler_level"] == "laser"

    @property
    def fuel_excess_to_si(self) -> bool:
        return self.variants["fuel_excess"] == "si"

    def critical_rows(self) -> list[tuple[str, int | None, int]]:
        """(effect, ship column or None, amount) for 2d6 = 2..12 (index 0 = roll 2)."""
        t = self.t("critical_hit")
        out = []
        for eff, fn, amt in zip(t["effect"], t["function"], t["amount"]):
            out.append((eff, FUNCS.index(fn) if fn else None, int(amt)))
        return out

    def critical_array(self) -> np.ndarray:
        """int64[13, 3]: row = 2d6 total; columns effect code, ship column, amount."""
        arr = np.zeros((13, 3), dtype=np.int64)
        for i, (eff, col, amt) in enumerate(self.critical_rows()):
            arr[i + 2] = (CRIT_CRISIS if eff == "crisis" else CRIT_LOSE,
                          -1 if col is None else col, amt)
        return arr

    @property
    def substitute(self) -> tuple[int, int]:
        t = self.t("critical_hit")
        return FUNCS.index(t["level0_substitute_function"]), int(t["level0_substitute_amount"])

    @property
    def crit_at_least(self) -> int:
        return int(self.t("critical_check")["crit_at_least"])


def make_rules(chosen: Mapping[str, str] | None = None) -> Rules:
    """Rules with the default variants overridden by ``chosen`` (names validated)."""
    base = rules_data()
    selection = base.resolve(chosen)
    return Rules(base.with_variants(selection), selection)
