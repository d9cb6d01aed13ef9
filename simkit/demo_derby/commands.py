"""Demo Derby commands for the simkit CLI (``simkit crash demo-derby ...``): parse the
options, call :mod:`.analyses`, print."""

from __future__ import annotations

from pathlib import Path

from ..cliutil import (Command, add_output_options, add_run_options, emit, parse_int_range,
                       plot_path, run_options, variants_from)
from ..core.errors import UserInputError
from .rules import IMPACTS, build_tables


def _crash_arguments(p):
    add_run_options(p, trials=200_000)
    add_output_options(p)
    p.add_argument("--speeds", default="1-8", help="rammer speeds, e.g. 1-8 or 2,4,6 (default 1-8)")
    p.add_argument("--impacts", default=",".join(IMPACTS),
                   help=f"points of impact on the target, comma-separated (default all: {','.join(IMPACTS)})")
    p.add_argument("--reverse", action="store_true",
                   help="the rammer rams in reverse (its damage is read in its Rear column)")
    p.add_argument("--target-speed", type=int, default=0,
                   help="the target's speed, for --variant collisions=vector (default 0)")


def _csv_or_parquet(args):
    # refuse before a long run rather than after it
    if args.out and Path(args.out).suffix.lower() not in (".csv", ".parquet"):
        raise UserInputError("output must end in .csv or .parquet", where=args.out, field="--out")


def _crash_run(args) -> int:
    from .analyses import crash, plot_crash

    _csv_or_parquet(args)
    plot = plot_path(args)
    hi = build_tables(variants=variants_from(args)).max_speed
    frame = crash(parse_int_range(args.speeds, option="--speeds", lo=1, hi=hi),
                  str(args.impacts).split(","), reverse=args.reverse,
                  target_speed=args.target_speed, trials=args.trials, seed=args.seed,
                  variants=variants_from(args), **run_options(args))
    emit(frame, args, title=frame.attrs["title"] + " (full table with intervals via --out)",
         columns=frame.attrs["columns"])
    if plot:
        plot_crash(frame, plot)
    return 0


def _board_arguments(p):
    p.add_argument("--arena", default=None, help="arena file (default: the built-in "
                                                  "RECONSTRUCTED arena)")
    add_output_options(p)


def _board_run(args) -> int:
    from .analyses import board, plot_board

    plot = plot_path(args)
    _csv_or_parquet(args)
    frame = board(args.arena)
    emit(frame, args, title=frame.attrs["title"])
    if plot:
        plot_board(frame, plot)
        print(f"wrote {plot}")
    return 0


def _derby_arguments(p):
    add_run_options(p, trials=20_000)
    add_output_options(p, plot=False)
    p.add_argument("--cars", type=int, default=6, help="cars in the derby, 2-6 (default 6)")
    p.add_argument("--cruise", default="5",
                   help="hunter policy cruise speed: one value for every car or one per car, "
                        "comma-separated (default 5)")
    p.add_argument("--arena", default=None, help="arena file (default: the built-in arena)")


def _derby_run(args) -> int:
    import pandas as pd

    from .analyses import derby

    try:
        cruise = [int(x) for x in str(args.cruise).split(",")]
    except ValueError:
        raise UserInputError(f"expected whole numbers, got {args.cruise!r}",
                             field="--cruise") from None
    _csv_or_parquet(args)
    frame = derby(args.cars, cruise, arena=args.arena, trials=args.trials, seed=args.seed,
                  variants=variants_from(args), **run_options(args))
    emit(frame, args, columns=frame.attrs["columns"], title=frame.attrs["title"])
    for title, table in frame.attrs["extra"].items():
        print(f"\n{title}")
        with pd.option_context("display.max_rows", 500, "display.width", 200):
            print(table.to_string(index=False, float_format=lambda v: f"{v:.4f}"))
    return 0


COMMANDS = {
    "derby": Command("whole derbies played by scripted hunter policies: win rates, how cars go "
                     "out, rounds", _derby_arguments, _derby_run),
    "board": Command("the arena: terrain counts, and a drawing with --plot", _board_arguments,
                     _board_run),
    "crash": Command("crash damage per rammer speed and point of impact, Monte Carlo beside exact",
                     _crash_arguments, _crash_run),
}
