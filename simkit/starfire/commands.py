"""Starfire's CLI commands: ``weapons`` (thin: parse, call, emit).

Imported when the ``simkit`` parser is built, so nothing here may import numba or a kernel
module at module level (``tests/test_cli_parser.py``): the analysis is imported by the run
function.
"""

from __future__ import annotations

from ..cliutil import (add_output_options, add_run_options, emit, parse_int_range, plot_path,
                       positive_int, run_options, variants_from)
from ..cliutil import Command
from .rules import FAMILIES, rules_data

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
    from . import weapon_table

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
        from ..plots import plot_by_x

        plot_by_x(frame, [("p_hit", "P(hit) per weapon"), ("mean_damage", "hit points per volley"),
                          ("mean_destroyed", "systems destroyed per volley"),
                          ("p_internal", "P(an internal system destroyed)")], path,
                  title=f"Starfire weapons vs {args.target}, volley {args.volley}")
        print(f"wrote {path}")
    return 0


COMMANDS = {"weapons": Command("hit chance, damage and kills per weapon family and range",
                               _weapons_args, _weapons_run)}
