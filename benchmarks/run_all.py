"""Every kernel and game engine measured in one command, written as one markdown table.

    python benchmarks/run_all.py [--quick | --smoke] [--games starfire,dark-future,...]
                                 [--out benchmarks/results.md] [--no-readme]

For each kernel (from the per-game ``benchmarks/bench_<game>.py`` modules, whose ``*rows``
functions do the measuring) the table gives:

* throughput per core: procedures per second with numba on one thread, after compilation;
* the ratio to the bare random-number bound measured in the same run: a loop that seeds the
  same per-trial streams and draws the same number of dice, and nothing else (1.00 would mean
  the rules cost nothing beyond their dice);
* the speed-up over the same Python code under ``NUMBA_DISABLE_JIT=1`` (a small N run in a
  subprocess);
* two-thread efficiency: the 2-thread rate over twice the 1-thread rate (1.00 = perfect);

and, when ``simkit/core/search/`` exists, the build search's efficiency on its synthetic race
with an exact answer: the trials the search needs to put the true top 3 in its top 3 against
the trials of evaluating every candidate equally. The header names the machine (CPU model,
cores, load, date, Python/numba/numpy versions). Unless ``--no-readme`` (or ``--smoke``), the
table also replaces the README's Benchmarks section between ``<!-- bench:start -->`` and
``<!-- bench:end -->``. Times are measured, never asserted: tests only run ``--smoke``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import importlib
import importlib.util
import os
import platform
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))
# the no-JIT subprocesses the bench modules start must import this checkout's simkit
os.environ["PYTHONPATH"] = os.pathsep.join([str(ROOT)] + [p for p in os.environ.get(
    "PYTHONPATH", "").split(os.pathsep) if p])

START, END = "<!-- bench:start -->", "<!-- bench:end -->"
GAMES = ("starfire", "dark-future", "demons-run", "demo-derby")

# trial counts per size: (full, quick, smoke)
SIZES = {
    "starfire_fire": (5_000_000, 500_000, 20_000),
    "starfire_nojit": (20_000, 5_000, 200),
    "starfire_battles": (2_000, 300, 10),
    "dark_future": (200_000, 50_000, 2_000),
    "demons_run": (1_000_000, 100_000, 2_000),
    "demons_run_nojit": (3_000, 1_000, 50),
    "demons_run_races": (3_000, 300, 20),
    "demons_run_races_nojit": (3, 1, 1),
    "demo_derby": (200_000, 20_000, 500),
    "demo_derby_nojit": (20, 5, 1),
}


def _size(name, mode):
    return SIZES[name][{"full": 0, "quick": 1, "smoke": 2}[mode]]


def _bench(module):
    return importlib.import_module(module)


def measure(games, mode, log=print):
    """All rows for the chosen games (dicts with game, kernel, unit, per_core, bare_ratio,
    nojit_speedup, two_thread_eff)."""
    rows = []
    if "starfire" in games:
        b = _bench("bench_starfire")
        fams = b.FAMILIES if mode != "smoke" else b.FAMILIES[:1]
        log("starfire: fire resolution")
        rows += b.fire_rows(_size("starfire_fire", mode), _size("starfire_nojit", mode), fams)
        log("starfire: battles")
        paths = sorted((ROOT / "scenarios" / "starfire").glob("*.toml"))
        rows += b.battle_rows(_size("starfire_battles", mode),
                              paths if mode != "smoke" else paths[:1])
    if "dark-future" in games:
        log("dark-future: hazard and shot kernels")
        rows += _bench("bench_dark_future").rows(_size("dark_future", mode))
    if "demons-run" in games:
        log("demons-run: hazard kernels")
        rows += _bench("bench_demons_run").rows(_size("demons_run", mode),
                                                _size("demons_run_nojit", mode))
        log("demons-run: whole races")
        rows += _bench("bench_demons_run").race_rows(_size("demons_run_races", mode),
                                                     _size("demons_run_races_nojit", mode))
    if "demo-derby" in games:
        log("demo-derby: crash kernel and derbies")
        rows += _bench("bench_demo_derby").rows(_size("demo_derby", mode),
                                                _size("demo_derby_nojit", mode))
    return rows


def search_efficiency(mode):
    """The build search on its synthetic race (exact answer known), or None without it."""
    if importlib.util.find_spec("simkit.core.search") is None:
        return None
    from simkit.core import search as S

    space = S.IntBoxSpace([S.IntField(n, 0, 10, 2, cost=2) for n in "abcd"], 20)
    ev = S.ToyRace(S.toy_table(4, 11, seed=0), need=3)
    cands = space.enumerate()
    truth = ev.exact(cands)["win_rate"].to_numpy()
    budgets = {"full": [50_000, 100_000, 200_000, 400_000, 800_000, 1_600_000],
               "quick": [100_000, 400_000, 1_600_000], "smoke": [20_000]}[mode]
    t = time.perf_counter()
    frame = S.efficiency(space, ev, budgets=budgets, top=3, truth=truth,
                         repeats=1 if mode == "smoke" else 3, seed=1, progress=False,
                         method="race")   # the racing method the build searches use
    summary = frame.attrs["summary"]
    return {"candidates": frame.attrs["candidates"], "top": frame.attrs["top"],
            "search": summary.get("search"), "exhaustive": summary.get("exhaustive"),
            "budgets": budgets, "seconds": time.perf_counter() - t,
            "repeats": int(frame["repeat"].max()) + 1}


def machine() -> dict:
    import numba
    import numpy as np

    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    try:
        load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:
        load = "n/a"
    return {"cpu": cpu, "cores": os.cpu_count(), "load": load,
            "date": dt.datetime.now(dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            "python": platform.python_version(), "numba": numba.__version__,
            "numpy": np.__version__, "platform": platform.platform(terse=True)}


def _fmt(x, spec, suffix=""):
    return "n/a" if x is None else f"{x:{spec}}{suffix}"


def render(rows, eff, info, mode, note="") -> str:
    lines = [
        f"Measured {info['date']} with `python benchmarks/run_all.py"
        f"{'' if mode == 'full' else ' --' + mode}` on {info['cpu']}, {info['cores']} cores "
        f"(load average {info['load']} when it ran{note}); Python {info['python']}, "
        f"numba {info['numba']}, numpy {info['numpy']}.",
        "",
        "| game | kernel | per core (/s) | vs bare RNG bound | vs no-JIT | 2-thread efficiency |",
        "|---|---|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(f"| {r['game']} | {r['kernel']} | {r['per_core']:,.0f} {r['unit']} | "
                     f"{_fmt(r.get('bare_ratio'), '.2f')} | "
                     f"{_fmt(r.get('nojit_speedup'), ',.0f', 'x')} | "
                     f"{_fmt(r.get('two_thread_eff'), '.2f')} |")
    lines += ["", "*vs bare RNG bound*: kernel throughput over a loop seeding the same per-trial "
              "streams and drawing the same dice (1.00 = the rules cost nothing beyond their "
              "dice; n/a where no such loop exists yet). *vs no-JIT*: speed-up over "
              "`NUMBA_DISABLE_JIT=1` (small N, subprocess). *2-thread efficiency*: 2-thread "
              "rate / (2 x 1-thread rate); on a shared, busy machine it mostly measures the "
              "other load."]
    lines.append("")
    if eff is None:
        lines.append("Build-search efficiency: not measured (skipped, or `simkit/core/search/` "
                     "is not in this checkout yet).")
    else:
        ratio = (f"{eff['exhaustive'] / eff['search']:.1f}x fewer trials"
                 if eff["search"] and eff["exhaustive"] else "ratio n/a within these budgets")
        lines.append(
            f"Build-search efficiency (synthetic race with an exact answer, "
            f"{eff['candidates']} candidates, true top {eff['top']} wanted in the top "
            f"{eff['top']} in all {eff['repeats']} repeats, budgets "
            f"{', '.join(f'{b:,}' for b in eff['budgets'])}): search needs "
            f"{_fmt(eff['search'], ',')} trials, evaluating every candidate equally needs "
            f"{_fmt(eff['exhaustive'], ',')} ({ratio}; {eff['seconds']:.0f} s).")
    return "\n".join(lines) + "\n"


def update_readme(readme: Path, table: str) -> None:
    text = readme.read_text(encoding="utf-8")
    block = f"{START}\n{table}{END}"
    if START in text and END in text:
        head, rest = text.split(START, 1)
        _, tail = rest.split(END, 1)
        text = head + block + tail
    else:
        text = (text.rstrip("\n") + "\n\n## Benchmarks\n\nOne command measures every kernel "
                "and game engine: `python benchmarks/run_all.py` (`--quick` for a shorter run).\n"
                "\n" + block + "\n")
    tmp = readme.with_name(readme.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, readme)


def chosen_games(ap: argparse.ArgumentParser, text: str) -> list[str]:
    """The games of a ``--games a,b`` option, each checked against :data:`GAMES`."""
    games = [g.strip() for g in text.split(",") if g.strip()]
    bad = [g for g in games if g not in GAMES]
    if bad:
        ap.error(f"unknown game {bad[0]!r} (known: {', '.join(GAMES)})")
    return games


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    size = ap.add_mutually_exclusive_group()
    size.add_argument("--quick", action="store_true", help="about ten times fewer trials")
    size.add_argument("--smoke", action="store_true",
                      help="tiny counts, one family and one scenario: checks the command works")
    ap.add_argument("--games", default=",".join(GAMES), help="comma-separated subset")
    ap.add_argument("--out", default=str(HERE / "results.md"), help="markdown file to write")
    ap.add_argument("--no-readme", action="store_true", help="do not update README.md")
    ap.add_argument("--skip-search", action="store_true", help="do not measure the build search")
    ap.add_argument("--note", default="; the machine is shared with other busy workers",
                    help="appended to the machine line of the table header")
    args = ap.parse_args(argv)
    mode = "smoke" if args.smoke else "quick" if args.quick else "full"
    games = chosen_games(ap, args.games)
    info = machine()
    rows = measure(games, mode, log)
    eff = None
    if not args.skip_search:
        log("build search efficiency")
        eff = search_efficiency(mode)
    table = render(rows, eff, info, mode, args.note)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("# simkit benchmarks\n\n" + table, encoding="utf-8")
    print(table)
    log(f"wrote {out}")
    if not (args.no_readme or args.smoke):
        update_readme(ROOT / "README.md", table)
        log("updated README.md (Benchmarks section)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
