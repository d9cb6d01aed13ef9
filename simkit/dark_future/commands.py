"""Dark Future's CLI commands: ``hazards``, ``weapons`` and ``builds`` (thin: parse, call, emit)."""

from __future__ import annotations

import sys
from pathlib import Path

from .. import cliutil
from ..core.errors import UserInputError
from ..core.registry import Command
from ..core.runner import run, write_frame
from . import rules as R


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
        res = run(sim, args.trials, args.seed, threads=args.threads,
                  progress=not args.no_progress and None)
        frames.append(("hazard", res.frame, [
            "excess_mph", "control", "p_ok", "p_ok_exact", "p_panic", "p_panic_exact",
            "p_loss", "p_loss_exact", "mean_panic_mph_exact"]))
    if args.test in ("control-loss", "both"):
        kinds = ("car", "bike") if args.vehicle == "both" else (args.vehicle,)
        sim = ControlLossSim(kinds, _int_list(args.speed_factors, "--speed-factors", 0, 12),
                             _int_list(args.adverse, "--adverse", 0, 12),
                             (False, True) if args.plus_two else (False,), rules)
        res = run(sim, args.trials, args.seed, threads=args.threads,
                  progress=not args.no_progress and None)
        frames.append(("control-loss", res.frame, [
            "vehicle", "speed_factor", "adverse_control", "no_control_plus_2",
            "p_regain_exact", "p_skid_regain_exact", "p_skid_out_exact", "p_spin_exact",
            "p_roll", "p_roll_exact"]))
    for i, (what, frame, cols) in enumerate(frames):
        cols = [c for c in cols if c in frame.columns]
        title = ("Hazard roll (p39): d6 + excess - optimum control" if what == "hazard" else
                 "Control-loss test (p42, bikes p70): d6 + speed factor - adverse control")
        cliutil.emit(frame, argparse_ns_without_out(args), title=title, columns=cols)
        if args.out:
            path = Path(args.out)
            if len(frames) > 1 and i > 0:
                path = path.with_name(f"{path.stem}-{what}{path.suffix}")
            print(f"wrote {write_frame(frame, path)}", file=sys.stderr)
    return 0


def argparse_ns_without_out(args):
    import argparse
    ns = argparse.Namespace(**vars(args))
    ns.out = None
    return ns


COMMANDS = {
    "hazards": Command("exact and simulated odds of hazard rolls and control-loss tests",
                       _hazards_args, _hazards_run),
}
