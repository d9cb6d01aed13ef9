"""Demo Derby commands for the simkit CLI (``simkit crash demo-derby ...``)."""

from __future__ import annotations

from pathlib import Path

from ..cliutil import (add_output_options, add_run_options, emit, parse_int_range, plot_path,
                       positive_int, run_options, variants_from)
from ..core.errors import UserInputError
from ..cliutil import Command
from .rules import IMPACTS, build_tables
from ..core.files import save_figure


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


def _crash_run(args) -> int:
    from .crash import crash_table  # compiled kernels load only when the command runs
    tables = build_tables(variants=variants_from(args))
    positive_int(args.trials, "--trials")
    speeds = parse_int_range(args.speeds, option="--speeds", lo=1, hi=tables.max_speed)
    impacts = []
    for name in str(args.impacts).split(","):
        name = name.strip().replace("-", "_")
        if name not in IMPACTS:
            raise UserInputError(f"unknown point of impact {name!r} (known: {', '.join(IMPACTS)})",
                                 field="--impacts")
        impacts.append(IMPACTS.index(name))
    if args.out and Path(args.out).suffix.lower() not in (".csv", ".parquet"):
        # refuse before a long run rather than after it
        raise UserInputError("output must end in .csv or .parquet", where=args.out, field="--out")
    plot = plot_path(args)
    if not 0 <= args.target_speed <= tables.max_speed:
        raise UserInputError(f"must be 0-{tables.max_speed}, got {args.target_speed}",
                             field="--target-speed")
    if args.target_speed and not tables.vector_collisions:
        raise UserInputError("the target's speed matters only with --variant collisions=vector",
                             field="--target-speed")
    res = crash_table(tables, args.trials, args.seed, speeds=speeds, impacts=impacts,
                      reverse=args.reverse, target_speed=args.target_speed, **run_options(args))
    frame = res.frame
    emit(frame, args, title=f"Demo Derby crash damage: {res.n_trials:,} trials per cell, seed "
                            f"{res.seed} (Monte Carlo beside exact; full table with 95% "
                            "intervals via --out)",
         columns=["speed", "impact", "rammer_column", "table_column",
                  "mean_damage_target", "mean_damage_target_exact",
                  "mean_damage_rammer", "mean_damage_rammer_exact",
                  "p_special_target", "p_special_target_exact",
                  "p_special_rammer", "p_special_rammer_exact",
                  "p_out_target", "p_out_target_exact", "p_out_rammer", "p_out_rammer_exact",
                  "p_stall_target", "p_stall_target_exact",
                  "p_stall_rammer", "p_stall_rammer_exact"])
    if plot:
        _plot_crash(frame, plot)
    return 0


def _plot_crash(frame, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    first = frame.drop_duplicates("speed")
    for side, style in (("target", "-o"), ("rammer", "-s")):
        m = first[f"mean_damage_{side}"]
        axes[0].errorbar(first["speed"], m, yerr=[m - first[f"mean_damage_{side}_lo"],
                                                  first[f"mean_damage_{side}_hi"] - m],
                         fmt=style, label=f"{side} (MC, 95%)")
        axes[0].plot(first["speed"], first[f"mean_damage_{side}_exact"], "k:", lw=1)
    axes[0].set(xlabel="rammer speed", ylabel="damage points", title="mean damage (dotted: exact)")
    axes[0].legend()
    for impact, g in frame.groupby("impact", sort=False):
        axes[1].plot(g["speed"], g["p_stall_target"], "-o", ms=3, label=impact)
    axes[1].set(xlabel="rammer speed", ylabel="probability",
                title="target's radiator full (stalls in two turns)")
    axes[1].legend(fontsize=8)
    fig.tight_layout()
    save_figure(fig, path, dpi=120)
    plt.close(fig)


def _board_arguments(p):
    p.add_argument("--arena", default=None, help="arena file (default: the built-in "
                                                  "RECONSTRUCTED arena)")
    add_output_options(p)


def _board_run(args) -> int:
    from .arena import load_arena, plot_arena, summary
    arena = load_arena(args.arena)
    plot = plot_path(args)
    if args.out and Path(args.out).suffix.lower() not in (".csv", ".parquet"):
        raise UserInputError("output must end in .csv or .parquet", where=args.out, field="--out")
    emit(summary(arena), args, title=f"Demo Derby arena {arena.path} ({arena.label}): "
                                     f"{arena.shape[0]} rows x {arena.shape[1]} columns")
    if plot:
        plot_arena(arena, plot)
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
    import numpy as np

    from ..core.runner import run
    from .arena import load_arena
    from .derby import DerbySimulation
    tables = build_tables(variants=variants_from(args))
    positive_int(args.trials, "--trials")
    if not 2 <= args.cars <= 6:
        raise UserInputError(f"must be 2-6 (six start spots), got {args.cars}", field="--cars")
    try:
        cruise = [int(x) for x in str(args.cruise).split(",")]
    except ValueError:
        raise UserInputError(f"expected whole numbers, got {args.cruise!r}", field="--cruise") from None
    if len(cruise) == 1:
        cruise = cruise * args.cars
    if len(cruise) != args.cars or not all(1 <= c <= tables.max_speed for c in cruise):
        raise UserInputError(f"give 1 or {args.cars} speeds, each 1-{tables.max_speed}",
                             field="--cruise")
    if args.out and Path(args.out).suffix.lower() not in (".csv", ".parquet"):
        raise UserInputError("output must end in .csv or .parquet", where=args.out, field="--out")
    arena = load_arena(args.arena)
    sim = DerbySimulation(tables, arena, np.array(cruise, np.int64).reshape(-1, 1))
    res = run(sim, args.trials, args.seed, **run_options(args))
    r = res.frame.attrs["rounds"]
    emit(res.frame, args, columns=["car", "start_spot", "policy", "cruise_speed", "p_win"],
         title=f"Demo Derby, {args.cars} hunter cars (car k on start spot k), "
               f"{res.n_trials:,} derbies, seed {res.seed}: wins per car and start spot, and "
               f"ties, with 95% intervals\nrounds: mean {r['mean']:.2f} "
               f"[{r['lo']:.2f}, {r['hi']:.2f}], 5%/50%/95%: "
               f"{r['q05']}/{r['median']}/{r['q95']}")
    import pandas as pd
    for title, table in res.frame.attrs["extra"].items():
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
