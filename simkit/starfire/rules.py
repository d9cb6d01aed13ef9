"""Starfire rules data as typed arrays for the kernels (starfire.txt (5.3)-(8.5)).

Loads ``data/combat.toml`` (tables with label and source, named variants) and turns the
selected tables into the arrays the compiled fire-resolution code reads. Hits are counted in
*half points* everywhere (the Effect of Hit table has .5 entries, (5.4)), so every statistic
stays an integer.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from ..core.data import RulesData, load_rules

DATA = Path(__file__).parent / "data"

#: weapon families in kernel order
FAMILIES = ("gun", "missile", "force_beam", "energy_beam", "primary_beam", "laser_beam")
GUN, MISSILE, FORCE, ENERGY, PRIMARY, LASER = range(6)

#: system letters in code order; "M" is Multiplex Tracking, written (Mn) on a sheet
LETTERS = "SAHBWGRFPLEDOTCXIZM"
CODE = {c: i for i, c in enumerate(LETTERS)}
SHIELD, ARMOR, HOLD, BULKHEAD = CODE["S"], CODE["A"], CODE["H"], CODE["B"]
POINT_DEFENSE, DAMPENER, ENGINE, DATALINK = CODE["D"], CODE["O"], CODE["I"], CODE["Z"]

NO_ENTRY = -1


@lru_cache(maxsize=1)
def rules_data() -> RulesData:
    return load_rules(DATA / "combat.toml", DATA / "ships.toml")


@dataclass(frozen=True)
class CombatTables:
    """Arrays for the kernels, for one selection of variants."""

    hit_number: np.ndarray      # int64[family, range]: hit if 2d6 <= n; -1 no entry
    effect_halves: np.ndarray   # int64[family, range]: half points per hit; -1 no entry
    skip: np.ndarray            # bool[family, code]: hits pass over these systems
    nth: np.ndarray             # bool[family]: Primary-style random Nth-system allocation
    launchers: dict             # family -> letters of the systems that fire it
    intercept: np.ndarray       # int64[k]: Point Defense stops its (k+1)-th missile on d6 <= v
    od_negate_halves: int
    od_burnout_halves: int
    tractor_shift: dict         # "firer_tractoring"/"firer_held" -> range shift (hit table)
    variants: dict              # the full selection in force
    max_range: int

    def can_fire(self, family: int, rng: int) -> bool:
        """The weapon has a table entry at this range (it may still need a lucky roll)."""
        return (rng <= self.max_range and self.hit_number[family, rng] != NO_ENTRY
                and self.effect_halves[family, rng] != NO_ENTRY)


@lru_cache(maxsize=64)
def _tables_cached(selection: tuple) -> CombatTables:
    rules = rules_data().with_variants(dict(selection))
    hit_t = rules.table("probability_of_hit")
    eff_t = rules.table("effect_of_hit")
    fam_t = rules.table("weapon_families")["families"]
    ranges = hit_t["ranges"]
    n_r = len(ranges)
    hit = np.full((len(FAMILIES), n_r), NO_ENTRY, dtype=np.int64)
    eff = np.full((len(FAMILIES), n_r), NO_ENTRY, dtype=np.int64)
    skip = np.zeros((len(FAMILIES), len(LETTERS)), dtype=np.bool_)
    nth = np.zeros(len(FAMILIES), dtype=np.bool_)
    launchers = {}
    for f, name in enumerate(FAMILIES):
        spec = fam_t[name]
        hit[f] = hit_t["rows"][spec["hit_row"]]
        for r, v in enumerate(eff_t["rows"][name]):
            eff[f, r] = NO_ENTRY if v == NO_ENTRY else int(round(2 * v))
        for letter in spec["skip"]:
            skip[f, CODE[letter]] = True
        nth[f] = spec["allocation"] == "nth"
        launchers[name] = tuple(spec["launchers"])
    pd = rules.table("point_defense")
    od = rules.table("overload_dampener")
    tr = rules.table("tractor_range_shift")
    return CombatTables(
        hit_number=hit, effect_halves=eff, skip=skip, nth=nth, launchers=launchers,
        intercept=np.asarray(pd["intercept"], dtype=np.int64),
        od_negate_halves=2 * int(od["negate_points"]),
        od_burnout_halves=2 * int(od["burnout_points"]),
        tractor_shift={k: int(tr[k]) for k in ("firer_tractoring", "firer_held")},
        variants=rules_data().resolve(dict(selection)), max_range=n_r - 1)


def combat_tables(variants: dict | None = None) -> CombatTables:
    """Tables with the named variants applied (defaults where not chosen)."""
    selection = rules_data().resolve(variants)
    return _tables_cached(tuple(sorted(selection.items())))


def family_index(name: str) -> int:
    return FAMILIES.index(name)
