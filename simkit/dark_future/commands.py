"""Dark Future's CLI commands: ``hazards``, ``weapons`` and ``builds`` (thin: parse, call, emit).

Imported when the ``simkit`` parser is built, so nothing here may import numba or a kernel
module at module level (``tests/test_cli_parser.py``): each run function imports what it runs.
"""

from __future__ import annotations

import sys
from pathlib import Path

from .. import cliutil, shipped
from ..core.errors import UserInputError
from ..core.files import save_figure, write_frame
from ..cliutil import Command
from . import rules as R

#: ``shooting.FACINGS`` and ``shooting.MOUNTS`` (the compiled module), for the option choices
#: without importing it; kept equal by tests/test_cli_parser.py
FACINGS = ("front", "rear", "side", "floor", "roof")
MOUNTS = ("hood", "wing", "side", "roof", "turret", "fairing")


def _rules(args):
    return R.rules_for(cliutil.variants_from(args))


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
    from ..core.runner import run
    from .hazards import ControlLossSim, HazardSim

    rules = _rules(args)
    cliutil.positive_int(args.trials, "--trials")
    if args.step is None or args.step < 1:
        raise UserInputError(f"must be a positive whole number, got {args.step!r}", field="--step")
    if args.braking is not None and args.braking < 0:
        raise UserInputError(f"must be 0 or more mph, got {args.braking!r}", field="--braking")
    frames = []
    if args.test in ("hazard", "both"):
        controls = _int_list(args.control, "--control", 0, 12)
        excess = _int_list(args.excess, "--excess", 0, 200)
        excess = [e for e in excess if (e - excess[0]) % args.step == 0]
        sim = HazardSim(excess, controls, args.braking, rules)
        res = run(sim, args.trials, args.seed, **cliutil.run_options(args))
        frames.append(("hazard", res.frame, [
            "excess_mph", "control", "p_ok", "p_ok_exact", "p_panic", "p_panic_exact",
            "p_loss", "p_loss_exact", "mean_panic_mph_exact"]))
    if args.test in ("control-loss", "both"):
        kinds = ("car", "bike") if args.vehicle == "both" else (args.vehicle,)
        sim = ControlLossSim(kinds, _int_list(args.speed_factors, "--speed-factors", 0, 12),
                             _int_list(args.adverse, "--adverse", 0, 12),
                             (False, True) if args.plus_two else (False,), rules)
        res = run(sim, args.trials, args.seed, **cliutil.run_options(args))
        frames.append(("control-loss", res.frame, [
            "vehicle", "speed_factor", "adverse_control", "no_control_plus_2",
            "p_regain_exact", "p_skid_regain_exact", "p_skid_out_exact", "p_spin_exact",
            "p_roll", "p_roll_exact"]))
    for i, (what, frame, cols) in enumerate(frames):
        cols = [c for c in cols if c in frame.columns]
        title = ("Hazard roll (p39): d6 + excess - optimum control" if what == "hazard" else
                 "Control-loss test (p42, bikes p70): d6 + speed factor - adverse control")
        cliutil.emit(frame, _without_out(args), title=title, columns=cols)
        if args.out:
            path = Path(args.out)
            if len(frames) > 1 and i > 0:
                path = path.with_name(f"{path.stem}-{what}{path.suffix}")
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
    from ..core.runner import run
    from .shooting import weapon_table_sim

    chosen = cliutil.variants_from(args)
    cliutil.positive_int(args.trials, "--trials")
    keys = [k.strip() for k in args.weapons.split(",")] if args.weapons else None
    sim = weapon_table_sim(args.target, args.mount, _int_list(args.ranges, "--ranges", 1, 60),
                           firer_mph=args.firer_mph, target_mph=args.target_mph, smoke=args.smoke,
                           bike_lanes=args.bike_lanes, facing=args.facing,
                           target_skill=args.target_skill, target_damage=args.target_damage,
                           weapon_keys=keys, chosen=chosen, target_build=args.target_build)
    plot = cliutil.plot_path(args)
    res = run(sim, args.trials, args.seed, **cliutil.run_options(args))
    frame = res.frame
    cliutil.emit(frame, args, title=(
        f"One shot from a {args.mount} mount at a {sim.target_name} ({args.facing} facing), firer "
        f"{args.firer_mph}mph, target {args.target_mph}mph, smoke {args.smoke}; "
        f"{args.trials:,} trials, seed {args.seed}"),
        columns=["weapon", "range", "p_hit", "p_hit_exact", "mean_damage_exact", "p_critical_exact",
                 "p_hazard_exact", "p_control_loss_exact", "damage_per_shot",
                 "damage_per_shot_exact", "damage_per_kilodollar"])
    if plot:
        _plot_weapons(frame, plot)
    return 0


def _plot_weapons(frame, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
    for w, g in frame.groupby("weapon", sort=False):
        axes[0].plot(g["range"], g["p_hit_exact"], marker=".", label=w)
        axes[1].errorbar(g["range"], g["damage_per_shot"],
                         yerr=[g["damage_per_shot"] - g["damage_per_shot_lo"],
                               g["damage_per_shot_hi"] - g["damage_per_shot"]], marker=".", label=w)
    axes[0].set(xlabel="range (spaces)", ylabel="P(hit), exact")
    axes[1].set(xlabel="range (spaces)", ylabel="damage points per shot (95% CI)")
    axes[1].legend(fontsize=7, ncol=2)
    fig.tight_layout()
    save_figure(fig, path)
    plt.close(fig)
    print(f"wrote {path}", file=sys.stderr)


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
    cliutil.add_search_options(p, trials_budget=200_000)
    cliutil.add_run_options(p, trials=0)   # --seed, --threads, --variant, --no-progress
    cliutil.add_output_options(p, plot=True)


def _search_run(args, chosen) -> int:
    if args.budget is None:
        raise UserInputError("a search needs --budget (dollars)", field="--budget")
    scenario = shipped.resolve(args.scenario, option="--scenario")
    from ..core.search import plot_leaderboard
    from .budget import budget_search

    board = budget_search(scenario, vehicle=args.vehicle, budget=args.budget, side=args.side,
                          include=args.include, chosen=chosen, seed=args.seed,
                          opponents=args.opponent, **cliutil.search_options(args), **cliutil.run_options(args))
    cliutil.emit(board, args, columns=[c for c in board.attrs["columns"] if c in board],
                 title=f"Best {args.vehicle} designs within ${args.budget:,} for "
                       f"{args.side or 'the first side'} of {args.scenario} (95% intervals, fresh seeds)")
    path = cliutil.plot_path(args)
    if path:
        plot_leaderboard(board, path)
        print(f"wrote {path}", file=sys.stderr)
    return 0


def _builds_run(args) -> int:
    import pandas as pd

    from .design import car_from, check

    chosen = cliutil.variants_from(args)
    if args.scenario is not None:
        R.selection(chosen)
        return _search_run(args, chosen)
    if not args.check:
        raise UserInputError("give --check CAR (a design check) or --scenario FILE --budget $ "
                             "(a design search)", field="--check")
    R.selection(chosen)  # names validated before any car is read
    if args.budget is not None and args.budget < 0:
        raise UserInputError(f"must be 0 or more dollars, got {args.budget!r}", field="--budget")
    reports = [check(car_from(text), args.budget, chosen) for text in args.check]
    frame = pd.DataFrame([{
        "car": r.car.source.removeprefix("car ").strip("'"), "vehicle": r.car.vehicle,
        "cost": r.cost, "weight": r.weight, "payload": r.payload, "budget": r.budget,
        "valid": r.valid, "violations": len(r.violations)} for r in reports])
    cliutil.emit(frame, args, title="Vehicle design check (p81-86)")
    bad = [r for r in reports if not r.valid]
    if bad:
        # one line, every violation of every car (the CLI exits 2)
        raise UserInputError(" | ".join(
            f"{r.car.source}: " + "; ".join(f"({i}) {x}" for i, x in enumerate(r.violations, 1))
            for r in bad))
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
