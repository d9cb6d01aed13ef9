"""Starfire's CLI commands: ``weapons`` (thin: parse, call :mod:`.analyses`, print).

Imported when the ``simkit`` parser is built, so nothing here may import numba or a kernel
module at module level (``tests/test_cli_parser.py``): the analysis is imported by the run
function.
"""

from __future__ import annotations

from ..cliutil import (Command, add_output_options, add_run_options, emit, parse_int_range,
                       plot_path, run_options, variants_from)
from .rules import FAMILIES


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
    from .analyses import plot_weapons, weapons

    path = plot_path(args)
    frame = weapons(target=args.target,
                    ranges=parse_int_range(args.ranges, option="--ranges", hi=20),
                    trials=args.trials, seed=args.seed, volley=args.volley,
                    variants=variants_from(args), tractor=args.tractor,
                    families=[w.strip() for w in args.weapons.split(",") if w.strip()],
                    **run_options(args))
    emit(frame, args, columns=frame.attrs["columns"], title=frame.attrs["title"])
    if path:
        plot_weapons(frame, path)
        print(f"wrote {path}")
    return 0


COMMANDS = {"weapons": Command("hit chance, damage and kills per weapon family and range",
                               _weapons_args, _weapons_run)}
