"""Dark Future's CLI commands: ``hazards``, ``weapons`` and ``builds`` (thin: parse, call
:mod:`.analyses`, print).

Imported when the ``simkit`` parser is built, so nothing here may import numba or a kernel
module at module level (``tests/test_cli_parser.py``): each run function imports what it runs.
"""

from __future__ import annotations

import sys
from pathlib import Path

from .. import cliutil
from ..core.errors import UserInputError
from ..core.files import write_frame
from ..cliutil import Command
from . import rules as R

#: ``procedures.shooting.FACINGS`` and ``procedures.shooting.MOUNTS`` (the compiled module), for the option choices
#: without importing it; kept equal by tests/test_cli_parser.py
FACINGS = ("front", "rear", "side", "floor", "roof")
MOUNTS = ("hood", "wing", "side", "roof", "turret", "fairing")


def _int_list(text, option, lo, hi):
    return cliutil.parse_int_range(text, option=option, lo=lo, hi=hi)


# --- hazards -----------------------------------------------------------------------------------
def _hazards_args(p):
    p.add_argument("--test", choices=("hazard", "control-loss", "both"), default="both",
                   help="which procedure to tabulate (default both)")
    p.add_argument("--control", default="1-6",
                   help="optimum control values for the hazard roll (default 1-6)")
    p.add_argument("--excess", default="0-110",
                   help="mph over the safety limit, a range such as 0-110 (default 0-110)")
    p.add_argument("--step", type=int, default=10,
                   help="keep every STEP mph of --excess, from its lowest value (default 10)")
    p.add_argument("--braking", type=int, default=None,
                   help="braking allowance left in the phase, mph (default: not limiting)")
    p.add_argument("--adverse", default="0-6",
                   help="adverse control values for the control-loss test (default 0-6)")
    p.add_argument("--speed-factors", default="1-6", help="speed factors (default 1-6)")
    p.add_argument("--vehicle", choices=("car", "bike", "both"), default="both",
                   help="control-loss table to use (default both)")
    p.add_argument("--plus-two", action="store_true",
                   help="also tabulate tests with zero handling or no driver (+2)")
    cliutil.add_run_options(p, trials=200_000)
    cliutil.add_output_options(p, plot=False)


def _hazards_run(args) -> int:
    from .analyses import hazards

    first = hazards(args.test, control=_int_list(args.control, "--control", 0, 12),
                    excess=_int_list(args.excess, "--excess", 0, 200), step=args.step,
                    braking=args.braking, adverse=_int_list(args.adverse, "--adverse", 0, 12),
                    speed_factors=_int_list(args.speed_factors, "--speed-factors", 0, 12),
                    vehicle=args.vehicle, plus_two=args.plus_two, trials=args.trials,
                    seed=args.seed, variants=cliutil.variants_from(args),
                    **cliutil.run_options(args))
    frames = [first, *first.attrs["extra"].values()]
    for i, frame in enumerate(frames):
        cliutil.emit(frame, _without_out(args), title=frame.attrs["title"],
                     columns=frame.attrs["columns"])
        if args.out:
            path = Path(args.out)
            if i > 0:
                path = path.with_name(f"{path.stem}-{frame.attrs['name']}{path.suffix}")
            print(f"wrote {write_frame(frame, path)}", file=sys.stderr)
    return 0


def _without_out(args):
    import argparse
    ns = argparse.Namespace(**vars(args))
    ns.out = None
    return ns


# --- weapons -----------------------------------------------------------------------------------
def _weapons_args(p):
    p.add_argument("--target", default=None, choices=R.VEHICLES,
                   help="target vehicle (default renegade, or the --target-build's)")
    p.add_argument("--target-build", default=None, metavar="CAR",
                   help="arm the target (compact string or .toml) so weapons criticals can "
                        "strike its weapons (default: it carries none)")
    p.add_argument("--mount", default="hood", choices=MOUNTS,
                   help="firer's mount: hood/turret +1 to hit; wings take no heavy weapons, "
                        "turrets no missile pods, bike fairings only lightweight weapons")
    p.add_argument("--firer-mph", type=int, default=60, help="firer's speed (81+: -1 to hit)")
    p.add_argument("--target-mph", type=int, default=60,
                   help="target's speed (81+: -1 to hit; sets which hazard rolls a hit forces)")
    p.add_argument("--smoke", type=int, default=0, help="smoke markers in the fire corridor")
    p.add_argument("--ranges", default="1-30", help="ranges in spaces (default 1-30)")
    p.add_argument("--bike-lanes", type=int, default=2,
                   help="bike target: its lanes inside the fire corridor, 2 (-1) or 1 (-2)")
    p.add_argument("--facing", default="rear",
                   choices=(*FACINGS, "oblique-front", "oblique-rear"),
                   help="facing the criticals strike (default rear: a chase)")
    p.add_argument("--target-skill", type=int, default=None,
                   help="target driver's drive skill (default 3, or the --target-build's)")
    p.add_argument("--target-damage", type=int, default=None,
                   help="target's damage points left (default: undamaged)")
    p.add_argument("--weapons", default=None, help="comma-separated weapon keys (default all)")
    cliutil.add_run_options(p, trials=100_000)
    cliutil.add_output_options(p)


def _weapons_run(args) -> int:
    from .analyses import plot_weapons, weapons

    keys = [k.strip() for k in args.weapons.split(",")] if args.weapons else None
    plot = cliutil.plot_path(args)
    frame = weapons(args.target, args.mount, _int_list(args.ranges, "--ranges", 1, 60),
                    trials=args.trials, seed=args.seed, variants=cliutil.variants_from(args),
                    firer_mph=args.firer_mph, target_mph=args.target_mph, smoke=args.smoke,
                    bike_lanes=args.bike_lanes, facing=args.facing,
                    target_skill=args.target_skill, target_damage=args.target_damage,
                    weapon_keys=keys, target_build=args.target_build,
                    **cliutil.run_options(args))
    cliutil.emit(frame, args, title=frame.attrs["title"], columns=frame.attrs["columns"])
    if plot:
        plot_weapons(frame, plot)
        print(f"wrote {plot}", file=sys.stderr)
    return 0


# --- builds ------------------------------------------------------------------------------------
def _builds_args(p):
    p.add_argument("--check", action="append", default=[], metavar="CAR",
                   help="a car as a compact string ('renegade: hood=mg, passive=oil') or a "
                        ".toml file; repeatable")
    p.add_argument("--budget", type=int, default=None, help="spending limit in dollars")
    p.add_argument("--scenario", default=None, metavar="SCENARIO",
                   help="search legal designs for a side of this Game: a shipped scenario's name "
                        "(e.g. dark-future/game-4; simkit scenario list) or a scenario file")
    p.add_argument("--vehicle", default="renegade", help="vehicle searched (default renegade)")
    p.add_argument("--side", default=None, help="the side that drives the searched car "
                                                "(default: the scenario's first side)")
    p.add_argument("--include", action="append", default=[], metavar="CAR",
                   help="a design always raced and shown on the leaderboard; repeatable")
    p.add_argument("--opponent", action="append", default=[], metavar="CAR",
                   help="a car driving every vehicle of the other side; repeat for a field of "
                        "opponents faced in turn (default: the scenario's own cars)")
    p.add_argument("--metagame", action="store_true",
                   help="with --scenario and --budget: the designs a strong field would drive, "
                        "best replies to best replies with both sides searched and swapped "
                        "(simkit.analysis.metagame)")
    cliutil.add_search_options(p, trials_budget=200_000)
    cliutil.add_run_options(p, trials=0)   # --seed, --threads, --variant, --no-progress
    cliutil.add_output_options(p, plot=True)


def _builds_run(args) -> int:
    from .analyses import builds, check_cars, metagame, plot_builds

    chosen = cliutil.variants_from(args)
    if args.metagame:
        if args.scenario is None:
            raise UserInputError("the metagame is played in a Game: give --scenario (e.g. "
                                 "dark-future/game-4) and --budget", field="--metagame")
        if args.opponent or args.include or args.side:
            raise UserInputError("the metagame is its own field: drop --opponent, --include "
                                 "and --side", field="--metagame")
        opts = cliutil.run_options(args)
        frame = metagame(args.scenario, budget=args.budget, vehicle=args.vehicle,
                         trials=args.trials_budget, seed=args.seed, variants=chosen,
                         run_dir=opts.get("run_dir"), progress=opts.get("progress"))
        cliutil.emit_with_extras(frame, args, title=frame.attrs["title"])
        return 0
    if args.scenario is not None:
        plot = cliutil.plot_path(args)
        board = builds(args.scenario, budget=args.budget, vehicle=args.vehicle, side=args.side,
                       include=args.include, opponents=args.opponent, seed=args.seed,
                       variants=chosen, trials=args.trials_budget, population=args.population,
                       generations=args.generations, min_trials=args.min_trials,
                       finalists=args.finalists, final_trials=args.final_trials,
                       **cliutil.run_options(args))
        cliutil.emit(board, args, columns=board.attrs["columns"], title=board.attrs["title"])
        if plot:
            plot_builds(board, plot)
            print(f"wrote {plot}", file=sys.stderr)
        return 0
    if not args.check:
        raise UserInputError("give --check CAR (a design check) or --scenario FILE --budget $ "
                             "(a design search)", field="--check")
    try:
        frame = check_cars(args.check, args.budget, variants=chosen)
    except UserInputError as e:
        # the table first, then one line naming every violation of every car (exit 2)
        if getattr(e, "frame", None) is not None:
            cliutil.emit(e.frame, args, title="Vehicle design check (p81-86)")
        raise
    cliutil.emit(frame, args, title=frame.attrs["title"])
    return 0


COMMANDS = {
    "builds": Command("check a car against the design rules, or search the best designs on a "
                      "budget for a Game",
                      _builds_args, _builds_run),
    "weapons": Command("per weapon and range: hit chance, damage, criticals, forced hazards",
                       _weapons_args, _weapons_run),
    "hazards": Command("exact and simulated odds of hazard rolls and control-loss tests",
                       _hazards_args, _hazards_run),
}
