"""Options and output shared by every game's commands, so they look and behave alike.

The ``simkit`` parser is built from these helpers, so this module imports neither pandas nor
numba at module level (``tests/test_cli_parser.py``): ``simkit --help`` stays instant.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from .core.data import parse_variant_options
from .core.errors import UserInputError
from .core.checks import positive_int  # noqa: F401  (commands import it from here)


@dataclass(frozen=True)
class Command:
    """One CLI command a game offers (``simkit NAME GAME ...``): its options and a run function
    that parses them, calls the game's library analysis and prints or writes its frame."""
    help: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]
from .core.files import atomic_write, write_frame

if TYPE_CHECKING:
    import pandas as pd


def add_run_options(p: argparse.ArgumentParser, *, trials: int | None = 1_000_000,
                    helps: dict[str, str] | None = None) -> None:
    """The run flags every command shares. ``helps`` rewords a flag's help by its destination
    (``{"trials": "games per setting"}``); ``argparse.SUPPRESS`` hides it from ``--help``."""
    helps = dict(helps or {})

    def h(dest, text):
        return helps.pop(dest, text)

    p.add_argument("--trials", type=int, default=trials,
                   help=h("trials", f"trials per cell (default {trials or 0:,}); with "
                                    "--target-ci, the most to run"))
    p.add_argument("--seed", type=int, default=2026,
                   help=h("seed", "seed of the run (default 2026)"))
    p.add_argument("--threads", type=int, default=None,
                   help=h("threads", "numba threads of a local run (default: all cores)"))
    p.add_argument("--variant", action="append", default=[], metavar="NAME=CHOICE",
                   help=h("variant", "select a rule variant; repeatable (simkit variants GAME "
                                     "lists them)"))
    p.add_argument("--no-progress", action="store_true",
                   help=h("no_progress", "never show a progress bar"))
    scale = p.add_argument_group("scale-out, checkpoints, adaptive stopping")
    scale.add_argument("--workers", type=int, default=None, metavar="N",
                       help=h("workers", "run chunks on a local Dask cluster of N "
                                         "single-threaded processes (needs simkit[dask])"))
    scale.add_argument("--cluster", default=None, metavar="tcp://HOST:PORT",
                       help=h("cluster", "run chunks on the Dask scheduler at this address "
                                         "(needs simkit[dask])"))
    scale.add_argument("--run-dir", default=None, metavar="DIR",
                       help=h("run_dir", "record finished chunks and this command in DIR; "
                                         "simkit resume DIR finishes an interrupted run"))
    scale.add_argument("--target-ci", type=float, default=None, metavar="W",
                       help=h("target_ci", "add trials until every rate's 95%% interval is at "
                                           "most +/-W (--trials is then the cap)"))
    scale.add_argument("--chunk-size", type=int, default=None, metavar="N",
                       help=h("chunk_size", "trials per chunk (default: sized to run ~0.5 s)"))
    if helps:
        raise ValueError(f"add_run_options: no run flag {', '.join(helps)}")


#: the run flags' destinations that carry over unchanged to every analysis a command runs
#: (everything ``add_run_options`` declares but the trial count, the seed and the variants)
RUN_FLAGS = ("threads", "no_progress", "workers", "cluster", "run_dir", "target_ci",
             "chunk_size")


def run_options(args) -> dict:
    """The keyword arguments for ``simkit.core.runner.run`` chosen on the command line.

    Every command passes these straight through (``run(sim, n, seed, **run_options(args))``),
    so an option added to ``add_run_options`` reaches every game's long runs at once. Keys
    for the scale-out options appear only when they are given.

    ``--workers N`` / ``--cluster ADDR``: ``backend`` = the process-wide Dask backend
    (``simkit.core.backends.dask_backend``; one cluster however many runs the command does).
    ``--run-dir DIR``: ``run_dir``; the command line is saved in ``DIR/command.json`` (when
    the command came through ``simkit.cli.main``) for ``simkit resume DIR``.
    ``--target-ci W``: ``target_ci``. ``--chunk-size N``: ``chunk_size``.
    """
    opts = {"threads": getattr(args, "threads", None),
            "progress": False if getattr(args, "no_progress", False) else None}
    workers, cluster = getattr(args, "workers", None), getattr(args, "cluster", None)
    if workers is not None or cluster is not None:
        from .core import backends

        if workers is not None and cluster is not None:
            raise UserInputError("give --workers or --cluster, not both", field="--workers")
        opts["backend"] = backends.dask_backend(workers=workers, address=cluster)
    target = getattr(args, "target_ci", None)
    if target is not None:
        if not 0 < target <= 0.5:
            raise UserInputError(f"must be a half-width in (0, 0.5], got {target!r}",
                                 field="--target-ci")
        opts["target_ci"] = float(target)
    chunk = getattr(args, "chunk_size", None)
    if chunk is not None:
        opts["chunk_size"] = positive_int(chunk, "--chunk-size")
    run_dir = getattr(args, "run_dir", None)
    if run_dir:
        save_command(run_dir, getattr(args, "_argv", None))
        opts["run_dir"] = run_dir
    return opts


COMMAND_FILE = "command.json"


def save_command(run_dir, argv) -> None:
    """Record the command line in ``run_dir`` (or check it is the one already there)."""
    path = Path(run_dir) / COMMAND_FILE
    if argv is None:
        return
    argv = [str(a) for a in argv]
    if path.exists():
        saved, _ = load_command(run_dir)
        if saved != argv:
            raise UserInputError("holds a different command (" + " ".join(["simkit", *saved])
                                 + "); resume it with `simkit resume DIR` or use a new directory",
                                 where=str(run_dir), field="--run-dir")
        return
    atomic_write(path, json.dumps({"argv": argv, "cwd": os.getcwd()}, indent=1) + "\n")


def load_command(run_dir) -> tuple[list[str], str]:
    """(argv, working directory) saved by :func:`save_command`."""
    path = Path(run_dir) / COMMAND_FILE
    if not path.is_file():
        raise UserInputError("no saved command here (was it run with --run-dir?)",
                             where=str(run_dir), field=COMMAND_FILE)
    try:
        data = json.loads(path.read_text())
        argv, cwd = data["argv"], data["cwd"]
        if not (isinstance(argv, list) and all(isinstance(a, str) for a in argv)
                and isinstance(cwd, str)):
            raise TypeError
    except (ValueError, KeyError, TypeError):
        raise UserInputError("is not a saved simkit command", where=str(path)) from None
    return argv, cwd


def add_search_options(p: argparse.ArgumentParser, *, trials_budget: int = 1_000_000) -> None:
    """The flags of a build search (``simkit.core.search``, its package docstring)."""
    g = p.add_argument_group("build search")
    g.add_argument("--trials-budget", type=int, default=trials_budget,
                   help=f"candidate-trials to spend, racing and finals (default {trials_budget:,})")
    g.add_argument("--population", type=int, default=32,
                   help="new candidates per generation (default 32)")
    g.add_argument("--generations", type=int, default=None,
                   help="stop after this many generations (default: when the budget is spent)")
    g.add_argument("--min-trials", type=int, default=100,
                   help="trials of a new candidate's first race-off (default 100; the "
                        "race method's islands first screen on a third of it)")
    g.add_argument("--finalists", type=int, default=10,
                   help="builds re-run on fresh seeds for the leaderboard (default 10)")
    g.add_argument("--final-trials", type=int, default=None,
                   help="fresh trials per finalist (default: what racing left, >= 20%% of budget)")


def search_options(args) -> dict:
    """Keyword arguments for ``simkit.core.search.search`` from :func:`add_search_options`
    flags."""
    return {"trials_budget": args.trials_budget, "population": args.population,
            "generations": args.generations, "min_trials": args.min_trials,
            "finalists": args.finalists, "final_trials": args.final_trials}


def add_output_options(p: argparse.ArgumentParser, *, plot: bool = True) -> None:
    p.add_argument("--out", default=None, help="write the table to FILE.csv or FILE.parquet")
    if plot:
        p.add_argument("--plot", default=None, help="write a plot to FILE.png (or .pdf/.svg)")


def variants_from(args) -> dict[str, str]:
    return parse_variant_options(getattr(args, "variant", []))


def parse_int_range(text: str, *, option: str, lo: int = 0, hi: int = 1000) -> list[int]:
    """'0-20', '3', '1,3,5-7' -> sorted list of ints within [lo, hi]."""
    out: set[int] = set()
    for part in str(text).split(","):
        m = _RANGE.match(part)
        if not m or (m[2] is not None and int(m[2]) < int(m[1])):
            raise UserInputError(f"expected a range like 0-20 or 1,3,5-7, got {text!r}",
                                 field=option)
        a = int(m[1])
        out.update(range(a, int(m[2] if m[2] is not None else a) + 1))
    if min(out) < lo or max(out) > hi:
        raise UserInputError(f"values must lie in {lo}-{hi}, got {text!r}", field=option)
    return sorted(out)


_RANGE = re.compile(r"^\s*(\d+)\s*(?:-\s*(\d+))?\s*$")


def emit_with_extras(frame, args, *, title: str = "", columns: list[str] | None = None) -> None:
    """:func:`emit` the frame, then print each of its side tables (``attrs["extra"]``)."""
    emit(frame, args, title=title, columns=columns)
    for caption, extra in frame.attrs.get("extra", {}).items():
        print()
        emit(extra, argparse.Namespace(), title=str(caption))


def emit(frame: pd.DataFrame, args, *, title: str = "", columns: list[str] | None = None,
         float_format: str = "{:.4f}") -> None:
    """Print the frame (selected columns) and write --out if asked."""
    import pandas as pd

    show = frame[with_intervals(frame, columns)] if columns else frame
    if title:
        print(title)
    with pd.option_context("display.max_rows", 500, "display.max_columns", 50,
                           "display.width", 200):
        print(show.to_string(index=False, float_format=lambda v: float_format.format(v)))
    out = getattr(args, "out", None)
    if out:
        path = write_frame(frame, out)
        print(f"wrote {path}", file=sys.stderr)


def with_intervals(frame: pd.DataFrame, columns: list[str]) -> list[str]:
    """The columns to print, each Monte Carlo figure followed by its 95% interval
    (``<col>_lo``, ``<col>_hi``) when the frame has one: no printed estimate without it. The
    games also name intervals after the quantity: ``mean_turns`` -> ``turns_lo``, ``win_rate``
    -> ``win_lo``."""
    out: list[str] = []
    for c in columns:
        if c in out:
            continue
        out.append(c)
        stems = [c]
        if c.startswith("mean_"):
            stems.append(c[len("mean_"):])
        if c.endswith("_rate"):
            stems.append(c[:-len("_rate")])
        for stem in stems:
            lo, hi = f"{stem}_lo", f"{stem}_hi"
            if lo in frame.columns and hi in frame.columns and lo not in out:
                out += [lo, hi]
                break
    return out


def plot_path(args) -> Path | None:
    p = getattr(args, "plot", None)
    if not p:
        return None
    path = Path(p)
    if path.suffix.lower() not in (".png", ".pdf", ".svg"):
        raise UserInputError("plot must end in .png, .pdf or .svg", where=str(path), field="--plot")
    path.parent.mkdir(parents=True, exist_ok=True)
    return path
