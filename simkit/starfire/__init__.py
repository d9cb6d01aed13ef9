"""Starfire (Task Force Games, 1979): fleet combat on a hex map.

Modules: ``rules`` (tables and variants as arrays), ``sheet`` (control sheets), ``fire``
(compiled fire resolution), ``reference`` (plain-Python oracle), ``weapons`` (weapon value by
range). Rule coverage: ``docs/rules/starfire.md``.
"""

from __future__ import annotations

from ..cliutil import (add_output_options, add_run_options, emit, parse_int_range, plot_path,
                       positive_int, run_options, variants_from)
from ..core.registry import Command, Game
from ..core.runner import run
from .rules import FAMILIES, rules_data


def weapon_table(target=None, ranges=range(0, 21), trials=1_000_000, seed=2026, volley=1,
                 variants=None, tractor="none", families=FAMILIES, **run_opts):
    """Weapon value by range against ``target`` (a ship name or control sheet): a DataFrame.

    Monte Carlo figures carry 95% intervals (``*_lo``, ``*_hi``); ``*_exact`` columns hold the
    exact values where the dice tree is small enough to enumerate (NaN otherwise).
    ``run_opts`` go to ``simkit.core.runner.run`` (threads, chunk_size, progress, ...).
    """
    from .weapons import WeaponTable, resolve_target

    sheet = resolve_target(target)
    bad = [f for f in families if f not in FAMILIES]
    if bad:
        from ..core.errors import UserInputError
        raise UserInputError(f"unknown weapon family {bad[0]!r} (known: {', '.join(FAMILIES)})",
                             field="--weapons")
    sim = WeaponTable(sheet, list(ranges), positive_int(volley, "--volley"), dict(variants or {}),
                      tractor, tuple(families))
    res = run(sim, trials, seed, **run_opts)
    return res.frame


_SHOWN = ["weapon", "range", "p_hit", "p_hit_exact", "mean_damage", "mean_damage_exact",
          "mean_destroyed", "mean_destroyed_lo", "mean_destroyed_hi", "mean_destroyed_exact",
          "p_internal", "p_internal_lo", "p_internal_hi"]


def _weapons_args(p):
    p.add_argument("--target", default="wisconsin",
                   help="a named ship (wisconsin, bradley, corvette, small_freighter, discovery, "
                        "khanate_escort) or a control sheet such as 'S S A H R L I I' "
                        "(default: wisconsin, the cruiser of example 5.9)")
    p.add_argument("--ranges", default="0-20", help="ranges in hexes, e.g. 0-20 or 1,3,5-9")
    p.add_argument("--volley", type=int, default=1,
                   help="K weapons of a family fired together (Point Defense and Overload "
                        "Dampeners count per volley)")
    p.add_argument("--weapons", default=",".join(FAMILIES), help="families to include")
    p.add_argument("--tractor", default="none", choices=["none", "firer_tractoring", "firer_held"],
                   help="tractor state of the firer and target (8.3)")
    add_run_options(p)
    add_output_options(p)


def _weapons_run(args) -> int:
    frame = weapon_table(target=args.target, ranges=parse_int_range(args.ranges, option="--ranges",
                                                                    hi=20),
                         trials=positive_int(args.trials, "--trials"), seed=args.seed,
                         volley=args.volley, variants=variants_from(args), tractor=args.tractor,
                         families=[w.strip() for w in args.weapons.split(",") if w.strip()],
                         **run_options(args))
    sel = rules_data().resolve(variants_from(args))
    emit(frame, args, columns=_SHOWN,
         title=f"Starfire weapon value vs {args.target} (volley {args.volley}, "
               f"{frame['trials'].iloc[0]:,} trials/cell, seed {args.seed}; 95% intervals; "
               f"variants: {', '.join(f'{k}={v}' for k, v in sel.items())})")
    path = plot_path(args)
    if path:
        from ..core.plots import plot_by_x

        plot_by_x(frame, [("p_hit", "P(hit) per weapon"), ("mean_damage", "hit points per volley"),
                          ("mean_destroyed", "systems destroyed per volley"),
                          ("p_internal", "P(an internal system destroyed)")], path,
                  title=f"Starfire weapons vs {args.target}, volley {args.volley}")
        print(f"wrote {path}")
    return 0


def _scenario(path, **options):
    from .battles import scenario_table

    return scenario_table(path, **options)


def _playthrough(path, seed=2026, trial=0, policies=None, variants=None):
    from .battles import playthrough
    from .scenario import load_scenario

    # the logged game is one of the games the table counts: same policies and variants
    return playthrough(load_scenario(path, policies=policies, variants=variants),
                       seed=seed, trial=trial)


def _policy_names():
    from .policies import POLICIES

    return list(POLICIES)


GAME = Game(
    name="starfire",
    title="Starfire (Task Force Games, 1979)",
    rules=rules_data,
    commands={"weapons": Command("hit chance, damage and kills per weapon family and range",
                                 _weapons_args, _weapons_run)},
    analyses={"weapons": weapon_table, "scenario": _scenario, "playthrough": _playthrough,
              "policies": _policy_names()},
)
