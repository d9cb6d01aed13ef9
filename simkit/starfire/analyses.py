"""Starfire's headline analyses as library calls: what ``simkit weapons starfire`` prints and
the report shows. Each returns a tidy frame whose ``attrs`` carry its caption (``title``) and
the columns worth printing (``columns``); kernels are imported when a call runs.
"""

from __future__ import annotations

from ..core.checks import positive_int
from ..core.errors import UserInputError
from ..core.game import Analysis
from .rules import FAMILIES, rules_data

#: the columns ``simkit weapons starfire`` prints (each followed by its interval)
WEAPONS_COLUMNS = ["weapon", "range", "p_hit", "p_hit_exact", "mean_damage", "mean_damage_exact",
                   "mean_destroyed", "mean_destroyed_lo", "mean_destroyed_hi",
                   "mean_destroyed_exact", "p_internal", "p_internal_lo", "p_internal_hi"]


def weapons(target="wisconsin", ranges=range(0, 21), *, trials=1_000_000, seed=2026, volley=1,
            variants=None, tractor="none", families=FAMILIES, **run_opts):
    """Weapon value by range against ``target`` (a ship name or control sheet): a DataFrame.

    Monte Carlo figures carry 95% intervals (``*_lo``, ``*_hi``); ``*_exact`` columns hold the
    exact values where the dice tree is small enough to enumerate (NaN otherwise).
    ``run_opts`` go to ``simkit.core.runner.run`` (threads, chunk_size, progress, ...).
    """
    from ..core.runner import run
    from .procedures import WeaponTable, resolve_target

    target = "wisconsin" if target is None else target
    sheet = resolve_target(target)
    families = tuple(families)
    bad = [f for f in families if f not in FAMILIES]
    if bad:
        raise UserInputError(f"unknown weapon family {bad[0]!r} (known: {', '.join(FAMILIES)})",
                             field="--weapons")
    sim = WeaponTable(sheet, list(ranges), positive_int(volley, "--volley"), dict(variants or {}),
                      tractor, families)
    frame = run(sim, positive_int(trials, "--trials"), seed, **run_opts).frame
    sel = rules_data().resolve(dict(variants or {}))
    frame.attrs["title"] = (
        f"Starfire weapon value vs {target} (volley {volley}, {frame['trials'].iloc[0]:,} "
        f"trials/cell, seed {seed}; 95% intervals; variants: "
        f"{', '.join(f'{k}={v}' for k, v in sel.items())})")
    frame.attrs["columns"] = WEAPONS_COLUMNS
    frame.attrs["plot_title"] = f"Starfire weapons vs {target}, volley {volley}"
    return frame


def plot_weapons(frame, path):
    from ..plots import plot_by_x

    plot_by_x(frame, [("p_hit", "P(hit) per weapon"), ("mean_damage", "hit points per volley"),
                      ("mean_destroyed", "systems destroyed per volley"),
                      ("p_internal", "P(an internal system destroyed)")], path,
              title=frame.attrs.get("plot_title", "Starfire weapons"))


HEADLINE = (
    Analysis("weapons", "Weapon value by range (vs the cruiser of example 5.9)", weapons,
             trials=1_000_000, plot=plot_weapons, command="simkit weapons starfire"),
)
