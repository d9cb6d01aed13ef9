"""The ``simkit <command> demons-run`` commands: thin option parsing over :mod:`.analyses`.

Imported when the ``simkit`` parser is built, so nothing here may import numba or a kernel
module at module level (``tests/test_cli_parser.py``): each run function imports what it runs.
"""

from __future__ import annotations

import argparse

from simkit import cliutil, shipped
from simkit.core.errors import UserInputError
from simkit.cliutil import Command

from .builds import check_build, cost
from .rules import make_rules

#: the names of ``oracle.HAZARDS`` and ``hazards.TARGETS`` (modules that load the compiled
#: kernels), for the option choices without importing them; kept equal by
#: tests/test_cli_parser.py
HAZARD_NAMES = ("hell_hole", "hell2_hole", "hell3_hole", "hell_fire", "hell2_fire", "hell3_fire",
                "hell_hound_0", "hell_hound_1", "hell_hound_2", "null")
TARGETS = ("ship", "easy_buoy", "moving_buoy", "hell_hound")
# the build search's default races: enough for finals a few points wide and a polish over
# all of the leader's one-move neighbours (about 3-4 CPU minutes; docs/rules/demons-run.md)
BUILDS_BUDGET = 100_000
# the metagame's: each round's best reply is a 100,000-race build search (a widened round
# 200,000), so four to six rounds; with the searches' archive and the pooled gains seeds 1
# and 2 used 704,741 and 912,483 races, 584 and 868 s CPU, and stopped on epsilon with
# supports whose 95% intervals against each other cover 0.5 (benchmarks/balance.md, "The
# metagame's searches start from an archive"); 800,000 would have cut seed 2 short. The final
# polish (s20-meta4) spends 100,000-170,000 of what those runs left; a whole seed costs
# 630-680 s CPU on one thread. The wide step after the polish (s21-meta5) has a third of the
# budget kept for it (metagame.WIDE: two 300,000-race searches from scratch), so the loop
# and the polish run on 1,200,000 as before. The polish over moves of up to three Levels
# and the wide step's climbs (s22-meta6) have half kept for them (metagame.POLISH_SHARE),
# the wide step's two 300,000-race searches a sixth (metagame.WIDE), so the loop still runs
# on 1,200,000 (at 3,000,000 seed 3's polish after its wide step stopped on the budget)
METAGAME_BUDGET = 3_600_000


def _or(value, default):
    return default if value is None else value


# --- builds ----------------------------------------------------------------------------------

def _builds_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--check", metavar="BUILD",
                   help="a build 'fuel=210,si=14,pi=3,...' or a .toml file: print cost and validity")
    p.add_argument("--budget", type=int, default=None,
                   help="search: points to spend (default the rules' 80)")
    p.add_argument("--field", default=None, metavar="FILE",
                   help="search: the opponents, a TOML of 1-3 [[ship]] tables (build, pilot); "
                        "default the rulebook's worked ship flown by the buoy hunter")
    p.add_argument("--pilot", default="buoy_hunter",
                   help="search: the pilot flying every candidate (safe_runner, buoy_hunter, raider)")
    p.add_argument("--objective", default="win_rate", choices=["win_rate", "mean_vp"])
    p.add_argument("--versus", default=None, metavar="BUILD",
                   help="search: the strongest answer to this build (it is the whole field)")
    p.add_argument("--metagame", action="store_true",
                   help="the builds a strong field would fly: best replies to best replies in "
                        "two-ship races with the corners rotated (simkit.analysis.metagame)")
    cliutil.add_search_options(p, trials_budget=BUILDS_BUDGET)
    # the metagame keeps its own, smaller default (it solves a game, not one search)
    p.set_defaults(trials_budget=None)
    cliutil.add_run_options(p, trials=0)
    cliutil.add_output_options(p)


def _builds_run(args) -> int:
    from .analyses import builds, metagame, plot_builds

    variants = cliutil.variants_from(args)
    if args.check:
        rules = make_rules(variants)
        build = check_build(args.check, rules, where="--check")  # invalid: one line, exit 2
        print(f"build: {build}")
        print(f"cost: {cost(build, rules)} of {rules.budget} points")
        print("valid: yes")
        return 0
    opts = cliutil.run_options(args)
    if args.metagame:
        if args.versus or args.field:
            raise UserInputError("the metagame is its own field: drop --versus and --field",
                                 field="--metagame")
        frame = metagame(budget=args.budget, pilot=args.pilot,
                         trials=_or(args.trials_budget, METAGAME_BUDGET),
                         seed=args.seed, variants=variants, run_dir=opts.get("run_dir"),
                         progress=opts.get("progress"), threads=opts.get("threads"))
        cliutil.emit_with_extras(frame, args, title=frame.attrs["title"])
        return 0
    path = cliutil.plot_path(args)
    board = builds(budget=args.budget, field=args.field, pilot=args.pilot,
                   objective=args.objective, versus=args.versus,
                   trials=_or(args.trials_budget, BUILDS_BUDGET),
                   seed=args.seed, variants=variants, population=args.population,
                   generations=args.generations, min_trials=args.min_trials,
                   finalists=args.finalists, final_trials=args.final_trials, **opts)
    cliutil.emit(board, args, columns=board.attrs["columns"], title=board.attrs["title"])
    if path:
        plot_builds(board, path)
        print(f"wrote {path}")
    return 0


# --- hazards ---------------------------------------------------------------------------------

def _hazards_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--si", type=int, default=None, help="Structural Integrity Level (default: build's)")
    p.add_argument("--screens", type=int, default=None, help="Screen Level allocated (default: build's)")
    p.add_argument("--pi", type=int, default=None, help="PI Levels bought, 0-12 (default: build's)")
    p.add_argument("--velocity", type=int, default=4, help="Velocity Level (Hell Fire; default 4)")
    p.add_argument("--build", default=None, metavar="BUILD",
                   help="the other Levels (Fuel, Tractor, Laser ... that Critical Hits take); "
                        "default: the rulebook's worked ship")
    p.add_argument("--buoys", type=int, default=0, help="Buoys carried (a Critical Hit against a "
                                                         "Level-0 Function casts one loose)")
    p.add_argument("--hazard", action="append", default=[], choices=list(HAZARD_NAMES),
                   help="only these hazards (repeatable; default all)")
    p.add_argument("--no-exact", action="store_true",
                   help="skip the exact columns (their Critical Hit chains take seconds at SI 20 "
                        "and tens of seconds at SI 29)")
    cliutil.add_run_options(p, trials=200_000)
    cliutil.add_output_options(p, plot=False)


def _hazards_run(args) -> int:
    from .analyses import hazards

    f = hazards(si=args.si, screens=args.screens, pi=args.pi, velocity=args.velocity,
                build=args.build, buoys=args.buoys, hazard=args.hazard, exact=not args.no_exact,
                trials=args.trials, seed=args.seed, variants=cliutil.variants_from(args),
                **cliutil.run_options(args))
    cliutil.emit(f, args, title=f.attrs["title"], columns=f.attrs["columns"])
    return 0


# --- board -----------------------------------------------------------------------------------

def _board_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--file", default=None, metavar="BOARD.toml",
                   help="a board file (default: the RECONSTRUCTED board of rules-data.md 2.5)")
    p.add_argument("--plot", default=None, help="draw the board to FILE.png (or .pdf/.svg)")
    p.add_argument("--drift", type=int, default=None, metavar="TURNS",
                   help="move every Buoy and Hell Hound for TURNS Turns (204 G-J, no ships) and "
                        "report where they end up; with --plot, shade the board by occupancy")
    p.add_argument("--trials", type=int, default=20_000, help="trials for --drift (default 20,000)")
    p.add_argument("--seed", type=int, default=2026, help="seed for --drift (default 2026)")
    p.add_argument("--variant", action="append", default=[], metavar="NAME=CHOICE",
                   help="select a rule variant (e.g. marker_whip=rules)")
    p.add_argument("--out", default=None, help="write the --drift table to FILE.csv or .parquet")


def _board_run(args) -> int:
    from .analyses import board, plot_board

    path = cliutil.plot_path(args)
    frame = board(args.file, drift=args.drift, trials=args.trials, seed=args.seed,
                  variants=cliutil.variants_from(args))
    for line in frame.attrs["notes"]:
        print(line)
    for table in frame.attrs["extra"].values():
        cliutil.emit(table, args, title=table.attrs["title"], columns=table.attrs["columns"])
    if path:
        plot_board(frame, path)
        print(f"wrote {path}")
    return 0


# --- fire and recovery -------------------------------------------------------------------------

def _fire_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--laser", type=int, default=10, help="Laser Level allocated by the firer (default 10)")
    p.add_argument("--scrambler", type=int, default=0, help="Scrambler Level allocated (default 0)")
    p.add_argument("--pi", type=int, default=3, help="the firer's PI Levels bought (default 3)")
    p.add_argument("--range", default="1-12", help="ranges, e.g. 1-12 or 3,5,7 (default 1-12)")
    p.add_argument("--modifier", type=int, default=0,
                   help="sum of the Line-of-Fire modifiers (206 D a-e), e.g. -6 for a Hell3 well hex")
    p.add_argument("--target", choices=TARGETS, default="ship")
    p.add_argument("--firer", default=None, metavar="COL,ROW",
                   help="fire on the board: the firer's hex (with --facing and --at); the range "
                        "and Line-of-Fire modifiers come from the board (206 A-D)")
    p.add_argument("--facing", default=None, choices=["N", "NE", "SE", "S", "SW", "NW"])
    p.add_argument("--at", default=None, metavar="COL,ROW", help="the target's hex")
    p.add_argument("--board", default=None, metavar="BOARD.toml",
                   help="board file for --firer (default: the RECONSTRUCTED board)")
    p.add_argument("--si", type=int, default=None, help="defender's SI (default: its build's)")
    p.add_argument("--screens", type=int, default=None, help="defender's Screens allocated")
    p.add_argument("--build", default=None, metavar="BUILD",
                   help="the defender's Levels (default: the rulebook's worked ship)")
    cliutil.add_run_options(p, trials=200_000)
    cliutil.add_output_options(p, plot=False)


def _fire_run(args) -> int:
    from .analyses import fire

    on_board = args.firer is not None or args.at is not None or args.facing is not None
    f = fire(laser=args.laser, scrambler=args.scrambler, pi=args.pi,
             ranges=None if on_board else cliutil.parse_int_range(args.range, option="--range",
                                                                  lo=1, hi=1000),
             modifier=args.modifier, target=args.target, firer=args.firer, facing=args.facing,
             at=args.at, board=args.board, si=args.si, screens=args.screens, build=args.build,
             trials=args.trials, seed=args.seed, variants=cliutil.variants_from(args),
             **cliutil.run_options(args))
    for line in f.attrs["notes"]:
        print(line)
    if len(f):
        cliutil.emit(f, args, title=f.attrs["title"], columns=f.attrs["columns"])
    return 0


def _recovery_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--tractor", default="1-10", help="Tractor Levels, e.g. 1-10 (default)")
    p.add_argument("--velocity", type=int, default=3, help="Velocity (-1 a Level over 3)")
    p.add_argument("--distance", type=int, default=0, help="hexes from the Buoy (-2 each)")
    p.add_argument("--terrain", default="plain", help="the Buoy's hex: plain, hell_fire, "
                                                      "hell2_fire, hell3_fire, gravity_well")
    p.add_argument("--pi", type=int, default=3, help="PI Levels bought (default 3)")
    p.add_argument("--attempt", type=int, default=1, help="attempt number this Turn (-1 each after the first)")
    cliutil.add_run_options(p, trials=100_000)
    cliutil.add_output_options(p, plot=False)


def _recovery_run(args) -> int:
    from .analyses import recovery

    f = recovery(tractor=cliutil.parse_int_range(args.tractor, option="--tractor", lo=0,
                                                 hi=1000),
                 velocity=args.velocity, distance=args.distance, terrain=args.terrain,
                 pi=args.pi, attempt=args.attempt, trials=args.trials, seed=args.seed,
                 variants=cliutil.variants_from(args), **cliutil.run_options(args))
    cliutil.emit(f, args, title=f.attrs["title"], columns=f.attrs["columns"])
    return 0


def _season_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("file", metavar="SCENARIO",
                   help="a race scenario, by its shipped name (e.g. demons-run/four-corners; "
                        "simkit scenario list) or a file: each [[ship]] is a player and its "
                        "design")
    p.add_argument("--seasons", type=int, default=50, help="seasons to play (default 50)")
    p.add_argument("--races", type=int, default=None,
                   help="races per season (default the rules' recommended 12)")
    p.add_argument("--seed", type=int, default=2026)
    cliutil.add_output_options(p, plot=False)


def _season_run(args) -> int:
    path = shipped.resolve(args.file)   # a shipped scenario's name, or a file
    from .season import season_table
    frame = season_table(path, seasons=cliutil.positive_int(args.seasons, "--seasons"),
                         races=args.races, seed=args.seed)
    cliutil.emit(frame, args, columns=["side", "policy", "seasons", "races", "team_wins",
                                       "win_rate", "win_lo", "win_hi", "mean_season_vp"],
                 title=f"Racing Season (212): {args.seasons} seasons of {frame['races'].iloc[0]} "
                       f"races, seed {args.seed} (95% intervals)")
    return 0


COMMANDS = {
    "season": Command("the Racing Season (212): seasons of races with experience and rosters",
                      _season_args, _season_run),
    "fire": Command("Laser and Scrambler fire by range (206): hit, damage, criticals, crises",
                    _fire_args, _fire_run),
    "recovery": Command("Buoy Recovery odds by Tractor Level (205)", _recovery_args,
                        _recovery_run),
    "board": Command("show (and --plot) the gameboard file; default the RECONSTRUCTED board",
                     _board_args, _board_run),
    "builds": Command("check a build's cost (--check), or search for strong 80-point ships "
                      "by racing them (102 A, 211)",
                      _builds_args, _builds_run),
    "hazards": Command("hazard odds: Hell Hole, Hell Fire, Hell Hound, Null (207-210), "
                       "Monte Carlo beside exact", _hazards_args, _hazards_run),
}
