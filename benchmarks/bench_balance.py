"""How long ``simkit balance`` takes, and how far from an equilibrium it stops.

    python benchmarks/bench_balance.py [--scenarios starfire/mirror,dark-future/game-1]
                                       [--trials-budget 400000] [--seed 2026] [--threads 1]
                                       [--out benchmarks/balance.md] [--smoke] [--asymmetric]

For each scenario, one ``balance`` run at the given budget (the command's default unless
told): wall time (compiling excluded: one tiny profile is played first), games played, games per
second, and per side the default and equilibrium win rates and the exploitability with its 95%
interval (the acceptance asks for at most 0.03 at the default budget, and 10 minutes for one
scenario on a 2-core machine). The header names the machine. Times are measured here, never
asserted in a test (tests run ``--smoke``). Each run's rounds (populations, value, each side's
reply gain, games used) and why it stopped go to stderr; ``--asymmetric`` forces two
populations where a scenario's sides are interchangeable.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def measure(name: str, budget: int | None, seed: int, threads: int, smoke: bool,
            asymmetric: bool = False) -> list[dict]:
    from simkit import games, shipped
    from simkit.analysis.balance import balance

    path = shipped.resolve(name)
    eng = games.for_scenario(path).scenario
    eng.frame(eng.load_profile(path), 10, seed, threads=threads, progress=False)  # compile
    opts = dict(trials_budget=budget, seed=seed, threads=threads, progress=False,
                asymmetric=asymmetric)
    if smoke:
        opts.update(profile_trials=50, candidates=2)
    t0 = time.perf_counter()
    frame = balance(path, **{k: v for k, v in opts.items() if v is not None})
    secs = time.perf_counter() - t0
    used = int(frame["trials_used"].iloc[0])
    print(frame.attrs["rounds"].to_string(index=False, float_format="%.4f"), file=sys.stderr)
    print(f"method: {frame.attrs['method']}\nstopped: {frame.attrs['stopped']}", file=sys.stderr,
          flush=True)
    rows = []
    for r in frame.itertuples():
        rows.append({"scenario": name, "side": r.side, "seconds": secs, "games": used,
                     "games_per_s": used / secs, "default": r.default_win_rate,
                     "equilibrium": r.equilibrium_win_rate, "eq_lo": r.equilibrium_lo,
                     "eq_hi": r.equilibrium_hi, "exploit": r.exploitability,
                     "ex_lo": r.exploit_lo, "ex_hi": r.exploit_hi, "profiles": r.profiles,
                     "method": r.method})
    return rows


def render(rows, info) -> str:
    out = [f"Measured {info['date']} on {info['cpu']} ({info['cores']} cores, load "
           f"{info['load']}), one thread per run, Python {info['python']}.", "",
           "| scenario | side | wall (s) | games | games/s | default | equilibrium (95%) | "
           "exploitability (95%) | profiles | method |",
           "|---|---|---:|---:|---:|---:|---|---|---:|---|"]
    for r in rows:
        out.append(f"| {r['scenario']} | {r['side']} | {r['seconds']:.0f} | {r['games']:,} | "
                   f"{r['games_per_s']:,.0f} | {r['default']:.3f} | {r['equilibrium']:.3f} "
                   f"({r['eq_lo']:.3f}-{r['eq_hi']:.3f}) | {r['exploit']:.3f} "
                   f"({r['ex_lo']:.3f} to {r['ex_hi']:.3f}) | {r['profiles']} | {r['method']} |")
    return "\n".join(out) + "\n"


def machine() -> dict:
    """The machine the table was measured on (run_all.py's description of it)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from run_all import machine as describe

    return describe()


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--scenarios", default="starfire/mirror")
    p.add_argument("--trials-budget", type=int, default=None)
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--out", default=str(ROOT / "benchmarks" / "balance.md"))
    p.add_argument("--smoke", action="store_true", help="tiny budget: checks the script runs")
    p.add_argument("--asymmetric", action="store_true",
                   help="two populations even for interchangeable sides")
    a = p.parse_args(argv)
    budget = a.trials_budget if a.trials_budget is not None else (2000 if a.smoke else None)
    rows = []
    for name in [s.strip() for s in a.scenarios.split(",") if s.strip()]:
        print(f"balance {name} ...", file=sys.stderr, flush=True)
        rows += measure(name, budget, a.seed, a.threads, a.smoke, a.asymmetric)
    text = "# simkit balance: time and distance from equilibrium\n\n" + render(rows, machine())
    Path(a.out).write_text(text)
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
