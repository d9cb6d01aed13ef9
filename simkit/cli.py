"""The ``simkit`` command line: thin; parses options and calls analysis functions.

Commands are ``simkit COMMAND GAME [options]`` (``weapons``, ``hazards``, ``crash``, ``builds``,
``board``... as each game offers them) plus ``simkit variants GAME`` and ``simkit tables GAME``.
Bad input prints one line naming the file or option and the field, and exits with status 2.

Each game declares its commands in ``simkit/<game>/commands.py``; the commands over every game
(``scenario``, ``sensitivity``, ``report``, ``variants``, ``tables``, ``resume``) are declared
here. Building the parser imports no numba, pandas or kernel module (``--help`` answers at once;
``tests/test_cli_parser.py``): every run function imports the analysis it calls.
"""

from __future__ import annotations

import argparse
import os
import sys

from . import games, shipped
from .cliutil import (add_output_options, add_run_options, emit, emit_with_extras, plot_path,
                      positive_int, run_options, variants_from)
from .core.errors import UserInputError
from .core.files import atomic_write


#: ``simkit --help``'s first line (help text is plain: no reST markup)
DESCRIPTION = ("Monte Carlo simulation and balance analysis for Starfire, Dark Future, Demon's "
               "Run and Demo Derby. Most commands take a game: simkit COMMAND GAME [options]; "
               "simkit COMMAND GAME --help lists the options.")


def _int64(text: str) -> int:
    """``type=int`` options: whole numbers that fit the kernels' int64 (else argparse's usual
    "invalid int value" error, not an overflow deep in a kernel)."""
    value = int(text)
    if not -2**63 <= value < 2**63:
        raise ValueError(text)
    return value


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.register("type", int, _int64)   # every game's type=int options, at once

    def error(self, message):  # one line, status 2, no usage dump
        raise UserInputError(message, where=self.prog)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="simkit", description=DESCRIPTION)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    by_command: dict[str, dict] = {}
    for name in games.available():
        game = games.get(name)
        for cname, cmd in game.commands.items():
            by_command.setdefault(cname, {})[name] = (game, cmd)
    for cname in sorted(by_command):
        cp = sub.add_parser(cname, help=f"{cname} analysis for: {', '.join(by_command[cname])}")
        gsub = cp.add_subparsers(dest="game", metavar="GAME", parser_class=_Parser)
        for gname, (game, cmd) in by_command[cname].items():
            gp = gsub.add_parser(gname, help=cmd.help, description=f"{game.title}: {cmd.help}")
            cmd.add_arguments(gp)
            gp.set_defaults(_run=cmd.run)
    sp = sub.add_parser("scenario", help="play a scenario many times (who wins, how often), or "
                        "list the scenarios shipped with simkit")
    ssub = sp.add_subparsers(dest="action", metavar="ACTION", parser_class=_Parser)
    rp = ssub.add_parser("run", help="win rates per side with 95%% intervals")
    rp.add_argument("file", metavar="SCENARIO",
                    help="a shipped scenario's name (simkit scenario list), e.g. starfire/mirror, "
                         "or a scenario TOML file (its 'game' field names the game)")
    rp.add_argument("--policy", action="append", default=[], metavar="SIDE=NAME",
                    help="play SIDE with policy NAME, optionally with parameters: "
                         "SIDE=NAME:PARAM=VALUE,PARAM=VALUE; repeatable")
    rp.add_argument("--policies", choices=["all"], default=None,
                    help="'all': every pairing of policies, as a matrix")
    rp.add_argument("--log", default=None, help="write the game log of trial 0 to FILE")
    add_run_options(rp, trials=10_000)
    add_output_options(rp)
    rp.set_defaults(_run=_scenario_run)
    lp = ssub.add_parser("list", help="the shipped scenarios by name, with game and description")
    lp.add_argument("--game", default=None, choices=games.available(),
                    help="only this game's scenarios")
    lp.set_defaults(_run=_scenario_list)
    sens = sub.add_parser("sensitivity", help="win-rate deltas under every rule variant and "
                          "policy pairing, with 95%% intervals and a tornado plot")
    _sensitivity_args(sens)
    sens.set_defaults(_run=_sensitivity_run)
    bal = sub.add_parser("balance", help="equilibrium win rates over the sides' policy spaces "
                         "(the best reply to the best reply), exploitability and support")
    _balance_args(bal)
    bal.set_defaults(_run=_balance_run)
    rep = sub.add_parser("report", help="run the headline analyses of every game into a static "
                         "HTML page (tables, plots, rules provenance, variants)")
    _report_args(rep)
    rep.set_defaults(_run=_report_run)
    for meta, helptext in (("variants", "list a game's named rule variants and their defaults"),
                           ("tables", "list a game's rules tables with label and source")):
        mp = sub.add_parser(meta, help=helptext)
        mp.add_argument("game", choices=games.available())
        mp.set_defaults(_run=_variants if meta == "variants" else _tables)
    rs = sub.add_parser("resume", help="finish a run started with --run-dir DIR (same numbers)")
    rs.add_argument("dir", help="the --run-dir of the interrupted command")
    rs.set_defaults(_run=_resume)
    return parser


def scenario_game(path: str):
    """The game a scenario file is for (its ``game`` field), with errors naming the file."""
    return games.for_scenario(path)


def parse_policy(text: str, option: str = "--policy"):
    """``SIDE=NAME`` or ``SIDE=NAME:PARAM=VALUE,PARAM=VALUE`` -> (side, Policy)."""
    from .core.game import Policy

    side, sep, rest = text.partition("=")
    name, _, params = rest.partition(":")
    if not sep or not side.strip() or not name.strip():
        raise UserInputError(f"expected SIDE=NAME or SIDE=NAME:PARAM=VALUE,..., got {text!r}",
                             field=option)
    values = {}
    for item in filter(None, (x.strip() for x in params.split(","))):
        k, eq, v = item.partition("=")
        try:
            values[k.strip()] = float(v) if eq else None
        except ValueError:
            values[k.strip()] = None
        if not eq or values[k.strip()] is None:
            raise UserInputError(f"expected PARAM=NUMBER, got {item!r} in {text!r}", field=option)
        if values[k.strip()] == int(values[k.strip()]):
            values[k.strip()] = int(values[k.strip()])
    return side.strip(), Policy.of(name.strip(), values)


def _scenario_run(args) -> int:
    scen = shipped.resolve(args.file)   # a shipped scenario's name, or a file
    g = scenario_game(scen)
    policies = dict(parse_policy(opt) for opt in args.policy)
    frame = g.scenario.table(scen, trials=positive_int(args.trials, "--trials"), seed=args.seed,
                             policies=policies, all_policies=args.policies == "all",
                             variants=variants_from(args), **run_options(args))
    # A game may name its own columns and add tables (survival curves, per start spot...)
    # through the frame's attrs: "columns" and "extra" = {title: frame}.
    shown = frame.attrs.get("columns") or [
        c for c in ("pairing", "side", "policy", "trials", "wins", "draws", "win_rate",
                    "win_lo", "win_hi", "decisive_wins", "mean_turns",
                    "mean_surviving_ships", "mean_surviving_systems") if c in frame]
    emit_with_extras(frame, args, columns=[c for c in shown if c in frame],
                     title=f"{frame['scenario'].iloc[0]}: {frame['trials'].iloc[0]:,} games, "
                           f"seed {args.seed} (win rates with 95% Wilson intervals)")
    if args.log:
        lines, _ = g.scenario.log(scen, seed=args.seed, policies=policies,
                                  variants=variants_from(args))
        atomic_write(args.log, "\n".join(lines) + "\n")
        print(f"wrote {args.log}")
    path = plot_path(args)
    if path:
        from .plots import plot_win_rates

        plot_win_rates(frame, path)
        print(f"wrote {path}")
    return 0


def _scenario_list(args) -> int:
    rows = []
    for name, path in shipped.scenarios().items():
        game, desc = shipped.describe(path)
        if args.game is None or game == args.game or name.startswith(f"{args.game}/"):
            rows.append((name, game, desc))
    if not rows:
        where = shipped.scenarios_dir()
        print("no shipped scenarios" + (f" under {where}" if where else " (none installed)"),
              file=sys.stderr)
        return 0
    wn, wg = (max(len(r[i]) for r in rows + [("scenario", "game")]) for i in (0, 1))
    print(f"{'scenario':{wn}s}  {'game':{wg}s}  description")
    for name, game, desc in rows:
        print(f"{name:{wn}s}  {game:{wg}s}  {desc}")
    example = next((r[0] for r in rows if r[0] == "starfire/mirror"), rows[0][0])
    print(f"\nrun one: simkit scenario run {example}; the files are in {shipped.scenarios_dir()}")
    return 0


# --- sensitivity -------------------------------------------------------------------------------

def _sensitivity_args(p) -> None:
    from .core.pairings import MAX_PAIRINGS

    p.add_argument("file", metavar="SCENARIO",
                   help="a shipped scenario's name (simkit scenario list) or a scenario TOML "
                        "file, or a build-search leaderboard CSV")
    p.add_argument("--variants", default="all",
                   help="'all' (default), 'none', or variant names NAME,NAME "
                        "(simkit variants GAME)")
    p.add_argument("--policies", choices=["all", "none"], default="none",
                   help="'all': also every policy pairing (one side at a time beyond "
                        f"{MAX_PAIRINGS} pairings)")
    p.add_argument("--game", default=None,
                   help="leaderboard only: the game (else its 'game' column)")
    p.add_argument("--top", type=int, default=3,
                   help="leaderboard only: the best N builds (default 3)")
    p.add_argument("--scenario-dir", default=None,
                   help="leaderboard only: keep the generated build scenarios in DIR")
    add_run_options(p, trials=10_000, helps={
        "trials": "games per setting, all on the same seed (default 10,000)",
        "variant": "move the default: play it (and every setting) with NAME=CHOICE; repeatable"})
    add_output_options(p)


def _sensitivity_run(args) -> int:
    from pathlib import Path

    leaderboard = Path(args.file).suffix.lower() == ".csv"
    scen = None if leaderboard else shipped.resolve(args.file)   # a name, or a file
    from .analysis.sensitivity import SHOWN, build_sensitivity, sensitivity
    from .plots import plot_tornado

    opts = dict(variants=args.variants, policies=args.policies == "all",
                trials=positive_int(args.trials, "--trials"), seed=args.seed,
                base_variants=variants_from(args), **run_options(args))
    plot = plot_path(args)
    if leaderboard:
        frame = build_sensitivity(args.file, game=args.game, top=args.top,
                                  workdir=args.scenario_dir, **opts)
    else:
        frame = sensitivity(scen, **opts)
    what = f"{frame['scenario'].iloc[0]}" if "build" not in frame else f"top {args.top} builds"
    emit(frame, args, columns=[c for c in SHOWN if c in frame],
         title=f"{what}: win-rate deltas from the default, {args.trials:,} games per setting, "
               f"seed {args.seed} (same seed for every setting); {frame.attrs['interval']}")
    if plot:
        plot_tornado(frame, plot, title=f"{what}: sensitivity")
        print(f"wrote {plot}")
    return 0


# --- balance -----------------------------------------------------------------------------------

def _balance_args(p) -> None:
    p.add_argument("file", metavar="SCENARIO",
                   help="a shipped scenario's name (simkit scenario list) or a scenario TOML file")
    p.add_argument("--trials-budget", type=int, default=400_000,
                   help="games the search may play in all (default 400,000)")
    p.add_argument("--profile-trials", type=int, default=1000,
                   help="games per policy profile, on the same seed (default 1,000)")
    p.add_argument("--candidates", type=int, default=16,
                   help="policies drawn from each space per best-reply search (default 16)")
    p.add_argument("--epsilon", type=float, default=0.02,
                   help="stop when no best reply gains more than this in win rate "
                        "(default 0.02)")
    p.add_argument("--asymmetric", action="store_true",
                   help="search one population per side even when the scenario's sides are "
                        "interchangeable (by default those are solved as one population with "
                        "the seats rotated)")
    # the budget says how many games; --trials, --target-ci and --chunk-size mean nothing here
    add_run_options(p, trials=1, helps={
        "trials": argparse.SUPPRESS, "target_ci": argparse.SUPPRESS,
        "chunk_size": argparse.SUPPRESS,
        "run_dir": "keep every profile estimate in DIR; the same command again resumes there "
                   "and reaches the same numbers"})
    add_output_options(p)


def _balance_run(args) -> int:
    from .analysis.balance import balance as run_balance
    from .plots import plot_balance

    scen = shipped.resolve(args.file)
    opts = run_options(args)
    run_dir = opts.pop("run_dir", None)
    opts.pop("target_ci", None)
    progress = opts.pop("progress", None)
    frame = run_balance(scen, trials_budget=args.trials_budget,
                        profile_trials=args.profile_trials, candidates=args.candidates,
                        epsilon=args.epsilon, seed=args.seed, variants=variants_from(args),
                        run_dir=run_dir, progress=progress, asymmetric=args.asymmetric,
                        **opts)
    emit(frame, args, columns=[c for c in frame.columns if c != "scenario"],
         title=f"{frame['scenario'].iloc[0]}: default and equilibrium win rates, seed "
               f"{args.seed}, {frame['trials_used'].iloc[0]:,} games ({frame.attrs['interval']})")
    print(f"method: {frame.attrs['method']}")
    print(f"stopped: {frame.attrs['stopped']}")
    if frame.attrs["stopped"].startswith("budget"):
        # the mixture is only as good as the replies the budget let the search try: say so
        # where the answer is read (Dark Future Game Seven needs twice the default budget)
        print("not converged: the budget ran out before a round found no reply gaining more "
              "than epsilon; the exploitability column says how much the final mixture gives "
              "away. Run again with a larger --trials-budget for an equilibrium.")
    print()
    emit(frame.attrs["payoffs"], argparse.Namespace(),
         title="payoffs of the final population (win + share of draws): the search's own "
               "estimates on its seed, no intervals; the weights above are the solver's mixture")
    path = plot_path(args)
    if path:
        plot_balance(frame, path)
        print(f"wrote {path}")
    return 0


# --- report ------------------------------------------------------------------------------------

def _report_args(p) -> None:
    p.add_argument("--quick", action="store_true",
                   help="small trial counts, stated on the page (first-run time: README)")
    p.add_argument("--out", default="report", help="folder for index.html, PNGs, CSVs "
                                                   "(default report/)")
    p.add_argument("--games", default=None,
                   help="comma-separated games (default: every registered game)")
    p.add_argument("--scenarios", default=None,
                   help="scenario folder holding <game>/*.toml (default: the scenarios shipped "
                        "with simkit)")
    p.add_argument("--sensitivity", type=int, default=None, metavar="N",
                   help="scenarios per game shown with their variant sensitivity (default: 1 "
                        "with --quick, all otherwise; 0: none)")
    p.add_argument("--balance", type=int, default=None, metavar="N",
                   help="scenarios per game shown with their balance: default and equilibrium "
                        "win rates (default: 1 with --quick, all otherwise; 0: none)")
    p.add_argument("--jobs", type=int, default=None, metavar="N",
                   help="games run side by side in N processes, each compiling its own "
                        "kernels (default: one per core, at most one per game; 1 with --workers "
                        "or --cluster)")
    p.add_argument("--strict", action="store_true",
                   help="exit with status 1 if any analysis failed (the page is still written)")
    add_run_options(p, trials=None, helps={
        "trials": "force this many trials per cell and per scenario (default: see --quick)"})


def _report_run(args) -> int:
    from .report import build_report, run_flag_dests

    if args.variant:
        raise UserInputError("the report runs every game at its default variants; use "
                             "`simkit sensitivity` to vary them", field="--variant")
    if args.trials is not None:
        positive_int(args.trials, "--trials")
    for opt in ("sensitivity", "balance"):
        value = getattr(args, opt)
        if value is not None and value < 0:
            raise UserInputError(f"must be 0 or more, got {value}", field=f"--{opt}")
    if args.seed < 0:
        raise UserInputError(f"must be a non-negative whole number, got {args.seed}",
                             field="--seed")
    names = None
    if args.games:
        names = [n.strip() for n in args.games.split(",") if n.strip()]
        for n in names:
            try:
                games.get(n)
            except UserInputError as e:
                raise UserInputError(e.detail, field="--games") from None
        names = [games.get(n).name for n in names]
    if args.jobs is not None:
        positive_int(args.jobs, "--jobs")
    run_args = {d: getattr(args, d) for d in run_flag_dests()}
    run_args["no_progress"] = True
    _, failures = build_report(args.out, quick=args.quick, games=names, seed=args.seed,
                               trials=args.trials, scenarios_dir=args.scenarios,
                               run_args=run_args, sensitivity=args.sensitivity,
                               balance=args.balance, jobs=args.jobs)
    if failures:
        print(f"simkit: {len(failures)} analysis(es) failed; see the top of the page",
              file=sys.stderr)
        return 1 if args.strict else 0
    return 0


# --- variants, tables, resume ------------------------------------------------------------------

def _variants(args) -> int:
    rules = games.get(args.game).rules()
    for v in rules.variants.values():
        print(f"{v.name} (default: {v.default})\n    {v.doc}")
        for c in v.choices:
            print(f"    {v.name}={c}: {v.choice_doc(c)}")
    return 0


def _tables(args) -> int:
    for name, label, source in games.get(args.game).rules().provenance():
        print(f"{name:28s} {label:14s} {source}")
    return 0


def _resume(args) -> int:
    """Re-run the command saved in DIR from the directory it was started in: finished chunks
    are loaded from DIR, the rest computed, and the outputs written as if never interrupted."""
    from .cliutil import load_command

    argv, cwd = load_command(args.dir)
    if not os.path.isdir(cwd):
        raise UserInputError(f"the command's working directory {cwd} no longer exists",
                             where=args.dir, field="command.json")
    old = os.getcwd()
    os.chdir(cwd)  # its relative paths (scenario, --out, --run-dir) are relative to there
    try:
        return main(argv)
    finally:
        os.chdir(old)


def _one_line(text: str) -> str:
    """Messages quote user text (a file name, a token) that may hold line breaks."""
    return text.replace("\r", "\\r").replace("\n", "\\n")


def main(argv=None) -> int:
    try:
        parser = build_parser()
        argv = list(sys.argv[1:] if argv is None else argv)
        args = parser.parse_args(argv)
        args._argv = argv  # saved by --run-dir for `simkit resume`
        if not getattr(args, "_run", None):
            parser.print_help()
            return 2
        return int(args._run(args) or 0)
    except UserInputError as e:
        print(f"simkit: error: {_one_line(str(e))}", file=sys.stderr)
        return 2
    except OSError as e:   # a file the user named cannot be written or read: not a crash
        if isinstance(e, BrokenPipeError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return 0
        name = e.filename if e.filename is not None else ""
        print(f"simkit: error: {_one_line(f'{name}: {e.strerror or e}')}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("simkit: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
