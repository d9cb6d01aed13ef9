"""The ``simkit <command> demons-run`` commands: thin option parsing over the package.

Imported when the ``simkit`` parser is built, so nothing here may import numba or a kernel
module at module level (``tests/test_cli_parser.py``): each run function imports what it runs.
"""

from __future__ import annotations

import argparse

from simkit import cliutil, shipped
from simkit.core.errors import UserInputError
from simkit.cliutil import Command

from .builds import check_build, cost, parse_build, worked_ship
from .rules import make_rules

#: the names of ``oracle.HAZARDS`` and ``hazards.TARGETS`` (modules that load the compiled
#: kernels), for the option choices without importing them; kept equal by
#: tests/test_cli_parser.py
HAZARD_NAMES = ("hell_hole", "hell2_hole", "hell3_hole", "hell_fire", "hell2_fire", "hell3_fire",
                "hell_hound_0", "hell_hound_1", "hell_hound_2", "null")
TARGETS = ("ship", "easy_buoy", "moving_buoy", "hell_hound")


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
    cliutil.add_search_options(p, trials_budget=20_000)
    cliutil.add_run_options(p, trials=0)
    cliutil.add_output_options(p)


LEADERBOARD = ["rank", "fuel", "si", "pi", "me", "mn", "tractor", "screens", "laser",
               "scrambler", "win_rate", "win_lo", "win_hi", "mean_vp", "vp_lo", "vp_hi",
               "destroyed_rate", "destroyed_lo", "destroyed_hi", "trials"]


def _builds_run(args) -> int:
    rules = make_rules(cliutil.variants_from(args))
    if args.check:
        build = check_build(args.check, rules, where="--check")  # invalid: one line, exit 2
        print(f"build: {build}")
        print(f"cost: {cost(build, rules)} of {rules.budget} points")
        print("valid: yes")
        return 0
    if args.metagame:
        return _metagame_run(args, rules)
    from .search import _core_search, design_space, load_field, stat_evaluator
    from .races import ShipEntry
    cs = _core_search()
    budget = rules.budget if args.budget is None else args.budget
    if not 1 <= budget <= rules.budget:
        raise UserInputError(f"must be 1-{rules.budget} (102 A)", field="--budget")
    cliutil.positive_int(args.trials_budget, "--trials-budget")
    run_opts = dict(cs.search_options(args), **cliutil.run_options(args))
    space = design_space(rules, budget)
    if args.versus:
        opp = check_build(args.versus, rules, where="--versus")
        field = [ShipEntry("versus", "D", opp, args.pilot)]
        from .search import candidate_of
        board = cs.versus(space, lambda o: stat_evaluator(field, args.pilot, rules.variants,
                                                          args.objective),
                          candidate_of(opp), seed=args.seed, **run_opts)
        title = f"strongest answers to {opp} ({args.pilot} flies both)"
    else:
        field = load_field(args.field, rules)
        board = cs.search(space, stat_evaluator(field, args.pilot, rules.variants,
                                                args.objective),
                          seed=args.seed, **run_opts)
        title = (f"Demon's Run build search: {budget} points, pilot {args.pilot}, field "
                 + ", ".join(f"{s.pilot} [{s.build}]" for s in field))
    # What the rows were raced against, so a leaderboard CSV can be replayed as scenarios
    # (simkit sensitivity LEADERBOARD.csv --game demons-run).
    board.insert(0, "game", "demons-run")
    board["pilot"] = args.pilot
    board["field"] = "" if args.versus or args.field is None else str(args.field)
    board["versus"] = str(opp) if args.versus else ""
    cliutil.emit(board, args, columns=[c for c in LEADERBOARD if c in board],
                 title=title + f"; {board.attrs.get('trials_used', '?')} races, seed {args.seed}"
                       " (finalists re-raced on fresh seeds; 95% intervals)")
    path = cliutil.plot_path(args)
    if path:
        cs.plot_leaderboard(board, path)
        print(f"wrote {path}")
    return 0


def _metagame_run(args, rules) -> int:
    from simkit.analysis.metagame import metagame

    from . import _metagame

    if args.versus or args.field:
        raise UserInputError("the metagame is its own field: drop --versus and --field",
                             field="--metagame")
    budget = rules.budget if args.budget is None else args.budget
    if not 1 <= budget <= rules.budget:
        raise UserInputError(f"must be 1-{rules.budget} (102 A)", field="--budget")
    cliutil.positive_int(args.trials_budget, "--trials-budget")
    opts = cliutil.run_options(args)
    bg = _metagame(args.pilot, cliutil.variants_from(args), budget)
    frame = metagame(bg, trials_budget=args.trials_budget, seed=args.seed,
                     run_dir=opts.get("run_dir"), progress=opts.get("progress"))
    cliutil.emit(frame, args, title=f"Demon's Run metagame, {budget} points: {bg.note}; "
                                    f"{frame['trials_used'].iloc[0]:,} races, seed {args.seed} "
                                    "(win rates against the field's mixture, 95% intervals "
                                    "from fresh seeds)")
    print()
    cliutil.emit(frame.attrs["payoffs"].round(3).reset_index(names="build"), argparse.Namespace(),
                 title="Which build beats which: the row build's win rate + half its ties "
                       "against the column build")
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


def _level_problems(build, rules, velocity, buoys) -> list[str]:
    out = []
    for name, level in build.levels().items():
        hi = rules.max_level(name)
        if not 0 <= level <= hi:
            out.append(f"{name}={level} outside 0-{hi}")
    if build.si < 1:
        out.append("si must be at least 1 (a ship at SI 0 is destroyed)")
    if not 0 <= velocity <= rules.max_velocity:
        out.append(f"velocity={velocity} outside 0-{rules.max_velocity}")
    if buoys < 0:
        out.append("buoys must be 0 or more")
    return out


def _hazards_run(args) -> int:
    from simkit.core.runner import run

    from .hazards import HAZARDS, HazardSim, ship_for

    rules = make_rules(cliutil.variants_from(args))
    base = parse_build(args.build, where="--build") if args.build else worked_ship(rules)
    build = ship_for(base, si=args.si, screens=args.screens, pi=args.pi)
    problems = _level_problems(build, rules, args.velocity, args.buoys)
    if problems:
        raise UserInputError("; ".join(problems), where="hazards demons-run")
    cliutil.positive_int(args.trials, "--trials")
    names = args.hazard or list(HAZARDS)
    sim = HazardSim(rules, build, velocity=args.velocity, buoys=args.buoys, names=names,
                    exact=not args.no_exact)
    res = run(sim, args.trials, args.seed, **cliutil.run_options(args))
    f = res.frame
    title = (f"Demon's Run hazards: SI {build.si}, Screens {build.screens}, PI {build.pi} "
             f"(modifier {sim.pi_modifier:+d}), Velocity {args.velocity}; {args.trials:,} trials, "
             f"seed {args.seed}")
    cols = ["hazard", "p_destroyed", "p_destroyed_lo", "p_destroyed_hi", "p_destroyed_exact",
            "mean_si_loss", "mean_si_loss_exact", "mean_criticals", "mean_criticals_exact",
            "p_crisis", "p_crisis_exact", "p_effect_exact"]
    cliutil.emit(f, args, title=title,
                 columns=[c for c in cols if c in f.columns])
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
    from .board import TERRAIN_NAMES, load_board, plot_board
    board = load_board(args.file)
    path = cliutil.plot_path(args)
    print(f"board: {board.columns} x {board.rows} hexes, {board.label} ({board.source})")
    counts = {n: int((board.terrain[1:, 1:] == i).sum()) for i, n in enumerate(TERRAIN_NAMES)}
    print("terrain: " + ", ".join(f"{n} {c}" for n, c in counts.items()))
    fire = [int((board.fire_class[1:, 1:] == k).sum()) for k in (1, 2, 3)]
    print(f"Hell Fire hexes (zones and wells): hell {fire[0]}, hell2 {fire[1]}, hell3 {fire[2]}")
    for h in board.holes:
        print(f"hole {h.name}: {h.cls} at {list(h.center)}, {h.rotation}, well "
              + ", ".join(f"{t}" for t in h.well_terrain.values()))
    print("corners: " + ", ".join(f"{k} {list(v)} -> finish {board.finish[k]}"
                                  for k, v in board.corners.items()))
    print("markers: " + ", ".join(f"{k} {len(v)}" for k, v in board.markers.items()))
    occupancy = None
    if args.drift is not None:
        from simkit.core.runner import run

        from .markers import DriftSim
        if not 1 <= args.drift <= rules_turns():
            raise UserInputError(f"must be 1-{rules_turns()} Turns, got {args.drift}", field="--drift")
        cliutil.positive_int(args.trials, "--trials")
        sim = DriftSim(make_rules(cliutil.variants_from(args)), board, args.drift)
        res = run(sim, args.trials, args.seed, progress=False)
        occupancy = sim.occupancy
        cliutil.emit(res.frame, args, title=f"Markers after {args.drift} Turns (no ships); "
                     f"{args.trials:,} trials, seed {args.seed}",
                     columns=["marker", "number", "start", "p_in_well", "p_in_well_lo",
                              "p_in_well_hi", "mean_hexes_from_start"])
    if path:
        plot_board(board, path, occupancy=occupancy)
        print(f"wrote {path}")
    return 0


def rules_turns() -> int:
    return int(make_rules().t("movement")["turn_limit"])


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
    from simkit.core.runner import run

    from .hazards import fire_sim, ship_for

    rules = make_rules(cliutil.variants_from(args))
    base = parse_build(args.build, where="--build") if args.build else worked_ship(rules)
    defender = ship_for(base, si=args.si, screens=args.screens)
    problems = _level_problems(defender, rules, 0, 0)
    for name in ("laser", "scrambler", "pi"):
        v, hi = getattr(args, name), rules.max_level(name)
        if not 0 <= v <= hi:
            problems.append(f"--{name} {v} outside 0-{hi}")
    if args.laser == 0 and args.scrambler == 0:
        problems.append("nothing fires: give --laser or --scrambler above 0")
    if args.target != "ship" and args.laser == 0:
        problems.append("only the Laser fires at Buoys and Hell Hounds (206 A)")
    if problems:
        raise UserInputError("; ".join(problems), where="fire demons-run")
    modifier = args.modifier
    if args.firer is not None or args.at is not None or args.facing is not None:
        shot = _board_shot(args, rules)
        if shot is None:
            return 0
        ranges, lof = shot
        modifier += lof
    else:
        ranges = cliutil.parse_int_range(args.range, option="--range", lo=1,
                                         hi=rules.t("fire")["max_range"])
    cliutil.positive_int(args.trials, "--trials")
    sim = fire_sim(rules, defender, laser=args.laser, scrambler=args.scrambler, pi=args.pi,
                   ranges=ranges, modifier=modifier, target=args.target)
    res = run(sim, args.trials, args.seed, **cliutil.run_options(args))
    f = res.frame.rename(columns={"p_effect": "p_hit", "p_effect_exact": "p_hit_exact",
                                  "p_effect_lo": "p_hit_lo", "p_effect_hi": "p_hit_hi"})
    cols = ["weapon", "range", "p_hit", "p_hit_exact", "p_destroyed", "p_destroyed_exact"]
    if args.target == "ship":
        cols += ["mean_si_loss", "mean_si_loss_exact", "mean_criticals", "mean_criticals_exact",
                 "p_crisis", "p_crisis_exact"]
    title = (f"Demon's Run fire at a {args.target}: Laser {args.laser}, Scrambler {args.scrambler}, "
             f"to-hit modifier {sim.meta[0]['modifier']:+d}; defender SI {defender.si}, Screens "
             f"{defender.screens}; {args.trials:,} trials, seed {args.seed}")
    cliutil.emit(f, args, title=title, columns=cols)
    return 0


def _hex_option(text, option, board):
    try:
        col, row = (int(v) for v in str(text).split(","))
    except ValueError:
        raise UserInputError(f"expected COL,ROW, got {text!r}", field=option) from None
    if not board.on_board(col, row):
        raise UserInputError(f"hex {col},{row} is off the {board.columns}x{board.rows} board",
                             field=option)
    return col, row


def _board_shot(args, rules):
    """(ranges, Line-of-Fire modifier) of a shot on the board, or None (printed why not)."""
    from .board import DIRECTIONS, load_board
    from .los import fire_solution
    if not (args.firer and args.at and args.facing):
        raise UserInputError("a shot on the board needs --firer, --facing and --at together",
                             field="--firer")
    board = load_board(args.board)
    firer = _hex_option(args.firer, "--firer", board)
    target = _hex_option(args.at, "--at", board)
    ok, rng, lof, hexes = fire_solution(rules, board, firer, DIRECTIONS.index(args.facing), target)
    if not ok:
        print(f"no shot from {list(firer)} facing {args.facing} at {list(target)} (range {rng}): "
              "outside the Field of Fire, beyond 12 hexes, or through Null (206 A-D)")
        return None
    print(f"Line of Fire: {' '.join(f'{c},{r}' for c, r in hexes)}; range {rng}, "
          f"terrain modifier {lof:+d}")
    return [rng], lof


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
    from simkit.core.runner import run

    from .hazards import recovery_sim

    rules = make_rules(cliutil.variants_from(args))
    problems = []
    terrains = rules.t("buoy_recovery")["terrain"]
    if args.terrain not in terrains:
        problems.append(f"--terrain {args.terrain!r} unknown (known: {', '.join(terrains)})")
    if not 0 <= args.pi <= rules.max_level("pi"):
        problems.append(f"--pi {args.pi} outside 0-{rules.max_level('pi')}")
    if not 0 <= args.velocity <= rules.max_velocity:
        problems.append(f"--velocity {args.velocity} outside 0-{rules.max_velocity}")
    if args.distance < 0 or args.attempt < 1:
        problems.append("--distance must be 0 or more and --attempt 1 or more")
    if problems:
        raise UserInputError("; ".join(problems), where="recovery demons-run")
    tractors = cliutil.parse_int_range(args.tractor, option="--tractor", lo=0,
                                       hi=rules.max_level("tractor"))
    cliutil.positive_int(args.trials, "--trials")
    sim = recovery_sim(rules, tractors=tractors, velocity=args.velocity, distance=args.distance,
                       terrain=args.terrain, pi=args.pi, attempt=args.attempt)
    res = run(sim, args.trials, args.seed, **cliutil.run_options(args))
    f = res.frame.rename(columns={c: c.replace("p_effect", "p_recover") for c in res.frame.columns})
    title = (f"Demon's Run Buoy Recovery (205): modifier {sim.meta[0]['modifier']:+d}; "
             f"{args.trials:,} trials, seed {args.seed}")
    cliutil.emit(f, args, title=title, columns=["tractor", "modifier", "p_recover", "p_recover_lo",
                                                "p_recover_hi", "p_recover_exact"])
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
