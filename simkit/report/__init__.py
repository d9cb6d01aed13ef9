"""``simkit report``: the headline analyses of every registered game on one static HTML page.

For each game in ``simkit.games`` the page shows: its headline analyses (the game's own
``GAME.headline``: weapon tables, hazard tables, crash tables, a build search where one exists,
each a library call -- see :mod:`simkit.report.sections`), every scenario under ``scenarios/<game>/`` with its win rates
(the scenarios shipped with simkit, ``simkit.shipped``, or another folder given as
``scenarios_dir``; or a line saying the game has no scenario engine yet), the sensitivity of
the first scenario to the rule variants, the provenance (name, label, source) of every rules
table and the variants in force. Every table is also written as CSV and every plot as PNG
beside ``index.html``. The command's options are declared in ``simkit.cli``.

``--quick`` divides each analysis's default trial count by 100 (at least 200 trials per cell),
plays scenarios 500 times and each variant setting of a sensitivity 300 times; the page states
the counts. Nothing on the page needs a
network or a script to display.

>>> from simkit.report import build_report
>>> build_report("report", quick=True)          # doctest: +SKIP
"""

from __future__ import annotations

import argparse
import datetime as _dt
import os
import platform
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Mapping

from .. import games as _games
from ..core.errors import UserInputError
from .html import _slug, page, write_page
from .sections import (FULL_SCENARIO_TRIALS, QUICK_DIVISOR, QUICK_MIN_TRIALS,
                       QUICK_SCENARIO_TRIALS, QUICK_SENSITIVITY_TRIALS, Section, guarded,
                       rules_section, run_analysis, scenario_files, scenario_sections)

__all__ = ["Section", "build_report", "run_flag_dests"]


def default_scenarios_dir() -> Path | None:
    """The scenarios that ship with simkit (``simkit.shipped``), wherever it is run from."""
    from ..shipped import scenarios_dir

    return scenarios_dir()


def run_flag_dests() -> list[str]:
    """The run flags of ``cliutil.add_run_options`` that carry over to every command as given
    (threads, progress, and whatever scale-out flags are added there later)."""
    from ..cliutil import RUN_FLAGS

    return list(RUN_FLAGS)


def build_report(outdir: str | Path = "report", *, quick: bool = False,
                 games: list[str] | None = None, seed: int = 2026, trials: int | None = None,
                 scenarios_dir: str | Path | None = None,
                 run_args: Mapping[str, Any] | None = None, sensitivity: int | None = None,
                 balance: int | None = None, jobs: int | None = None, log=sys.stderr) -> tuple[Path, list[str]]:
    """Write ``outdir/index.html`` (+ PNGs and CSVs); return its path and the failures.

    ``run_args``: run flags by argparse name as ``simkit`` would parse them (``threads``,
    ``no_progress``...); they reach every command and analysis unchanged. ``sensitivity``: how
    many scenarios per game get a variant-sensitivity section (default 1 quick, all otherwise);
    ``balance``: how many get a balance section (default the same).
    ``jobs``: games run side by side in worker processes (default: one per core, at most one
    per game; 1 runs them here, in order); the page is the same either way.
    """
    from ..cliutil import run_options

    t_start = time.perf_counter()
    outdir = Path(outdir)
    if outdir.exists() and not outdir.is_dir():
        raise UserInputError("exists and is not a folder", where=str(outdir), field="--out")
    outdir.mkdir(parents=True, exist_ok=True)
    names = games if games else _games.available()
    chosen = [_games.get(n) for n in names]
    sdir = Path(scenarios_dir) if scenarios_dir is not None else default_scenarios_dir()
    if sdir is not None and not sdir.is_dir():
        raise UserInputError("not a folder", where=str(sdir), field="--scenarios")
    run_args = {d: None for d in run_flag_dests()} | {"no_progress": True} | dict(run_args or {})
    run_opts = run_options(argparse.Namespace(**run_args))
    n_sens = sensitivity if sensitivity is not None else (1 if quick else 10_000)
    n_bal = balance if balance is not None else (1 if quick else 10_000)

    part = dict(outdir=outdir, quick=quick, seed=seed, trials=trials, sdir=sdir,
                run_args=run_args, n_sens=n_sens, n_bal=n_bal, t_start=t_start)
    jobs = _jobs(jobs, chosen, run_opts)
    if jobs > 1:
        results = _parts_side_by_side([g.name for g in chosen], part, jobs)
    else:
        results = [_game_part(g, log=log, **part) for g in chosen]
    blocks, failures = [], []
    for game, (page_secs, failed) in zip(chosen, results):
        blocks.append((game.name, game.title, page_secs))
        failures += failed

    elapsed = time.perf_counter() - t_start
    cmdline = " ".join(["simkit report"] + (["--quick"] if quick else [])
                       + ([f"--games {','.join(names)}"] if games else [])
                       + ([f"--trials {trials}"] if trials else [])
                       + ([f"--seed {seed}"] if seed != 2026 else [])
                       + ([f"--sensitivity {sensitivity}"] if sensitivity is not None else [])
                       + ([f"--balance {balance}"] if balance is not None else [])
                       + [f"--out {outdir}"])
    header = [
        f"Generated {_dt.datetime.now(_dt.timezone.utc):%Y-%m-%d %H:%M} UTC by `{cmdline}` "
        f"in {elapsed:.0f} s on {platform.node() or 'this machine'} "
        f"({os.cpu_count()} cores, Python {platform.python_version()}); simkit "
        f"{_version()}{_commit()}.",
        ("Quick run: each analysis at its default trial count / "
         f"{QUICK_DIVISOR} (at least {QUICK_MIN_TRIALS:,} trials per cell), scenarios "
         f"{QUICK_SCENARIO_TRIALS:,} games each, variant sensitivity {QUICK_SENSITIVITY_TRIALS:,} "
         "games per setting: figures are rough, their 95% intervals say how rough."
         if quick and not trials else
         f"Trials forced to {trials:,} per cell and per scenario." if trials else
         f"Full run: each analysis at its default trial count, scenarios "
         f"{FULL_SCENARIO_TRIALS:,} games each.") + f" Seed {seed}; every figure has its 95% "
        "interval (Wilson for rates, t for means); exact values stand beside Monte Carlo where "
        "the dice allow.",
        "Every analysis runs with each rule variant at its documented default; each game's "
        "variants and the provenance of its rules tables are listed at the end of its part.",
    ]
    text = page("simkit report: " + ", ".join(g.title.split(" (")[0] for g in chosen),
                header, blocks, failures)
    path = write_page(outdir / "index.html", text)
    print(f"wrote {path} ({elapsed:.0f} s)", file=log)
    return path, failures



#: Expected cold cost, most first, so the longest game starts first when games run side by side.
_COST_ORDER = ("dark-future", "starfire", "demons-run", "demo-derby")


def _jobs(jobs: int | None, chosen: list, run_opts: Mapping[str, Any]) -> int:
    """How many games to run side by side: compiling kernels is single-threaded numba work, so
    a cold first run is as fast as the cores compiling it. Games stay in this process when a
    Dask backend (``--workers``, ``--cluster``) is in use, which cannot cross into a worker
    process, or when a game is not one a worker can import by name (a game made at run time)."""
    if "backend" in run_opts or not all(_importable(g) for g in chosen):
        return 1
    if jobs is None:
        jobs = os.cpu_count() or 1
    return max(1, min(jobs, len(chosen)))


def _importable(game) -> bool:
    pkg = _games.PACKAGES.get(game.name)
    return pkg is not None and getattr(sys.modules.get(pkg), "GAME", None) is game


def _parts_side_by_side(names: list[str], part: dict, jobs: int) -> list:
    """Each game's part in a worker process; its kernels compile there, into the shared on-disk
    cache (``NUMBA_CACHE_DIR``), while another game compiles beside it."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    order = sorted(names, key=lambda n: _COST_ORDER.index(n) if n in _COST_ORDER else -1)
    # spawn, not fork: a forked numba thread pool is not safe to use. One game per worker
    # process: compiled kernels stay in memory for the life of a process, so a worker that
    # went on to a second game would hold both games' compilations at once.
    with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn"),
                             max_tasks_per_child=1) as ex:
        futures = {n: ex.submit(_game_part, n, log=None, **part) for n in order}
        return [futures[n].result() for n in names]


def _game_part(game, *, outdir: Path, quick: bool, seed: int, trials: int | None,
               sdir: Path | None, run_args: Mapping[str, Any], n_sens: int, t_start: float,
               n_bal: int = 0, log=None) -> tuple[list, list[str]]:
    """One game's sections with their CSV files, and its failures. ``game``: the game, or its
    name (in a worker process); ``log=None``: progress to this process's stderr (a worker's
    stderr is the command's)."""
    from ..cliutil import run_options

    log = sys.stderr if log is None else log
    game = _games.get(game) if isinstance(game, str) else game
    run_opts = run_options(argparse.Namespace(**run_args))
    secs: list[Section] = []
    failures: list[str] = []

    def add(new: list[Section]):
        for s in new:
            s.title = s.title[:1].upper() + s.title[1:]
            print(f"[{time.perf_counter() - t_start:6.1f}s] {game.name}: {s.title}"
                  + (f" -- {s.error}" if s.error else ""), file=log, flush=True)
            if s.failed:
                failures.append(f"{game.title}: {s.title}: {s.error}")
        secs.extend(new)

    if not game.headline:
        add([Section("Headline analyses", notes=[f"{game.title} offers no headline analyses "
                                                 "yet (GAME.headline is empty)."])])
    for a in game.headline:
        add(guarded(a.title, run_analysis, game, a, outdir, quick=quick, seed=seed,
                    trials=trials, run_opts=run_opts, sweep=n_sens > 0))
    if not any(a.name == "builds" for a in game.headline):
        add([Section("Build search", notes=[f"{game.title} offers no build search yet."])])
    for s in scenario_sections(game, scenario_files(game, sdir), outdir, quick=quick,
                               seed=seed, trials=trials, run_opts=run_opts,
                               sensitivity_count=n_sens, balance_count=n_bal):
        add([s])
    add(guarded("Rules tables and variants", lambda g=game: [rules_section(g)]))
    page_secs = []
    for s in secs:
        csvs = []
        for i, (caption, frame) in enumerate(s.tables):
            if i in s.csv:
                csvs.append(s.csv[i])
                continue
            fname = f"{game.name}-{_slug(s.title)}-{i}.csv"
            frame.to_csv(outdir / fname, index=False)
            csvs.append(fname)
        page_secs.append((s, csvs))
    return page_secs, failures


def _version() -> str:
    try:
        from importlib.metadata import version

        return version("simkit")
    except Exception:
        return "(not installed)"


def _commit() -> str:
    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                             text=True, timeout=5, cwd=Path(__file__).parent)
        return f", commit {out.stdout.strip()}" if out.returncode == 0 and out.stdout else ""
    except (OSError, subprocess.SubprocessError):
        return ""
