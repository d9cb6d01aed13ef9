"""What goes on the report page: sections, and how each game contributes them.

A game contributes its headline analyses: ``GAME.headline``, a list of
:class:`simkit.core.game.Analysis`, each a library call returning a tidy frame (its caption in
``attrs["title"]``, how to read it in ``attrs["notes"]``, further tables in
``attrs["extra"]``) and, optionally, a function that draws it. The report calls each one at its
default trial count (quick: the default / ``QUICK_DIVISOR``, at least ``QUICK_MIN_TRIALS``, or
the analysis's own ``quick`` options), with the run flags the user gave, writes its frame as CSV
and its drawing as PNG beside the page. When a build search's leaderboard is written and the
game offers ``analyses["build_scenario"]`` (see :mod:`simkit.analysis.sensitivity`), the best
build's variant sensitivity follows it. Nothing here parses a command line.

The report adds, for every game, the provenance of every rules table, the variants in force,
and every scenario under ``scenarios/<game>/`` played through ``GAME.scenario`` (or one line
saying the game has no scenario engine yet).
"""

from __future__ import annotations

import shlex

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

import pandas as pd

from ..cliutil import with_intervals
from ..core.errors import UserInputError
from ..core.game import Analysis, Game
from ..shipped import name_of

#: the smallest trial count a quick run uses for any analysis
QUICK_MIN_TRIALS = 200
#: quick runs use the analysis's default trial count divided by this
QUICK_DIVISOR = 100
QUICK_SCENARIO_TRIALS = 500
#: games per variant setting in a quick sensitivity section (a scenario's default included)
QUICK_SENSITIVITY_TRIALS = 300
FULL_SCENARIO_TRIALS = 10_000


@dataclass
class Section:
    title: str
    notes: list[str] = field(default_factory=list)         # paragraphs of plain text
    tables: list[tuple[str, pd.DataFrame]] = field(default_factory=list)   # (caption, frame)
    images: list[tuple[str, str]] = field(default_factory=list)  # (caption, file in outdir)
    command: str = ""                                       # how to reproduce it
    csv: dict[int, str] = field(default_factory=dict)       # table index -> CSV already written
    error: str = ""                                         # stated on the page, not raised
    failed: bool = False                                    # an unexpected error (a bug)
    seconds: float = 0.0

    @classmethod
    def coerce(cls, obj: "Section | Mapping[str, Any]") -> "Section":
        if isinstance(obj, Section):
            return obj
        if not isinstance(obj, Mapping) or "title" not in obj:
            raise TypeError(f"a report section must be a Section or a dict with a title, "
                            f"got {type(obj).__name__}")
        s = cls(title=str(obj["title"]))
        s.notes = [str(n) for n in obj.get("notes", [])]
        s.tables = [(str(c), f) for c, f in obj.get("tables", [])]
        s.images = [(str(c), str(p)) for c, p in obj.get("images", [])]
        s.command = str(obj.get("command", ""))
        s.error = str(obj.get("error", ""))
        return s


def guarded(title: str, fn, /, *args, **kwargs) -> list[Section]:
    """Run ``fn`` (returning sections); a failure becomes a section stating it, never a crash."""
    t0 = time.perf_counter()
    try:
        out = [Section.coerce(s) for s in fn(*args, **kwargs)]
    except UserInputError as e:
        out = [Section(title, error=f"could not run: {e}")]
    except (KeyboardInterrupt, SystemExit):
        raise
    except Exception as e:  # a bug in an analysis must not hide the rest of the report
        out = [Section(title, error=f"failed: {type(e).__name__}: {e}", failed=True)]
    dt = time.perf_counter() - t0
    if len(out) == 1 and not out[0].seconds:
        out[0].seconds = dt
    return out


# --- rules provenance and variants ------------------------------------------------------------

def rules_section(game: Game) -> Section:
    rules = game.rules()
    prov = pd.DataFrame(rules.provenance(), columns=["table", "label", "source"])
    rows = []
    for v in rules.variants.values():
        for c in v.choices:
            rows.append({"variant": v.name, "choice": c,
                         "in force": "yes (default)" if c == v.default else "",
                         "what it means": v.choice_doc(c), "the dispute": v.doc})
    var = pd.DataFrame(rows, columns=["variant", "choice", "in force", "what it means",
                                      "the dispute"])
    labels = prov["label"].value_counts()
    return Section(
        "Rules tables and variants",
        notes=[f"{len(prov)} rules tables: " + ", ".join(f"{n} {k}" for k, n in labels.items())
               + ". Every analysis on this page runs with each variant at its documented "
               "default (marked 'in force')."
               + ("" if len(var) else " This game has no named variants.")],
        tables=[("Provenance of every rules table (simkit tables " + game.name + ")", prov)]
        + ([("Named rule variants (simkit variants " + game.name + ")", var)] if len(var) else []),
        command=f"simkit tables {game.name}; simkit variants {game.name}")


# --- a game's headline analyses, called through the library --------------------------------

def quick_trials(default: int | None) -> int:
    return max(QUICK_MIN_TRIALS, int(default or 0) // QUICK_DIVISOR)


def analysis_trials(a: Analysis, *, quick: bool, trials: int | None) -> int | None:
    """How many trials the report runs ``a`` with: a forced count (per cell; a build search's
    budget counts candidate-trials, so it keeps its own), else the quick rule or the default."""
    if a.trials is None:
        return None
    if trials and a.trials_option == "--trials":
        return int(trials)
    if quick:
        return int(a.quick.get("trials", quick_trials(a.trials)))
    return int(a.trials)


def _flags(options: Mapping[str, Any]) -> str:
    return " ".join(f"--{k.replace('_', '-')} {v}" for k, v in options.items())


def run_analysis(game: Game, a: Analysis, outdir: Path, *, quick: bool, seed: int,
                 trials: int | None, run_opts: Mapping[str, Any],
                 sweep: bool = True) -> list[Section]:
    """Call one headline analysis, write its frame (CSV) and drawing (PNG) into ``outdir``
    (``sweep=False``: no variant sweep of a build search's best build)."""
    n = analysis_trials(a, quick=quick, trials=trials)
    options = {k: v for k, v in (a.quick if quick else {}).items() if k != "trials"}
    kwargs = dict(options)
    if n is not None:
        kwargs.update(trials=n, seed=seed)
    frame = a.run(**kwargs, **run_opts)
    stem = f"{game.name}-{a.name}"
    shown = a.command
    if n is not None and a.trials_option in shlex.split(shown):
        # a command that names its budget: the one this run used replaces it
        parts = shlex.split(shown)
        i = parts.index(a.trials_option)
        shown = shlex.join(parts[:i] + parts[i + 2:])
    shown += f" {_flags(options)}" if options else ""
    if n is not None:
        shown += f" {a.trials_option} {n} --seed {seed}"
    s = Section(a.title, command=shown)
    if n is not None:
        s.notes.append(f"Run with {a.trials_option} {n:,}" + (
            " (quick run)" if quick and not trials else "") + f", seed {seed}.")
    caption, *more = str(frame.attrs.get("title") or f"{game.title}: {a.title}").split("\n")
    s.notes += [str(x) for x in more] + [str(x) for x in frame.attrs.get("notes", [])]
    csv = None
    if len(frame.columns):
        csv = outdir / f"{stem}.csv"
        frame.to_csv(csv, index=False)
        s.tables.append((caption, frame))
        s.csv[0] = csv.name
    for extra_caption, extra in frame.attrs.get("extra", {}).items():
        s.tables.append((str(extra_caption), extra))
    if a.plot is not None:
        png = outdir / f"{stem}.png"
        a.plot(frame, png)
        s.images.append((f"{game.title}: {a.title}", png.name))
    out = [s]
    if sweep and a.name == "builds" and csv is not None and "build_scenario" in game.analyses:
        title = "Sensitivity of the best build to the rule variants"
        out += guarded(title, _build_sensitivity, game, csv, outdir, title=title,
                       n=trials or (QUICK_SENSITIVITY_TRIALS if quick else FULL_SCENARIO_TRIALS),
                       seed=seed, run_opts=run_opts)
    return out


def _build_sensitivity(game, csv, outdir, *, title, n, seed, run_opts):
    from ..analysis.sensitivity import build_sensitivity
    from ..plots import plot_tornado

    frame = build_sensitivity(csv, game=game.name, top=1, workdir=outdir / f"{game.name}-builds",
                              variants="all", trials=n, seed=seed, **run_opts)
    png = outdir / f"{game.name}-builds-sensitivity.png"
    plot_tornado(frame, png, title=f"{game.title}: best build")
    shown = ["build", "setting", "side", "win_rate", "default_win_rate", "delta", "delta_lo",
             "delta_hi", "same_as_default"]
    return [Section(title, command=f"simkit sensitivity {csv.name} --game {game.name} --top 1 "
                                   f"--trials {n} --seed {seed}",
                    notes=[f"The leaderboard's first build played through the game's "
                           f"build_scenario hook, each variant changed alone; {n:,} games per "
                           f"setting. Intervals: {frame.attrs['interval']}."],
                    tables=[("Win-rate deltas from the default", frame[shown])],
                    images=[("Tornado: win-rate delta per variant choice", png.name)])]


# --- scenarios --------------------------------------------------------------------------------

SCENARIO_COLUMNS = ["pairing", "side", "policy", "trials", "wins", "draws", "win_rate", "win_lo",
                    "win_hi", "decisive_wins", "mean_turns", "mean_surviving_ships"]


def scenario_files(game: Game, scenarios_dir: Path | None) -> list[Path]:
    if scenarios_dir is None:
        return []
    d = scenarios_dir / game.name
    return sorted(d.glob("*.toml")) if d.is_dir() else []


def scenario_sections(game: Game, files: list[Path], outdir: Path, *, quick: bool, seed: int,
                      trials: int | None, run_opts: Mapping[str, Any], sensitivity_count: int,
                      balance_count: int = 0):
    """Sections, one by one as they finish: each scenario's win rates, the variant
    sensitivity of the first ``sensitivity_count`` scenarios and the balance (default beside
    equilibrium win rates) of the first ``balance_count``."""
    if game.scenario is None:
        where = (f"{len(files)} scenario file(s) under scenarios/{game.name}/ are not played"
                 if files else "no scenarios are played")
        yield Section("Scenarios", notes=[f"{game.title} has no scenario engine yet "
                                          f"(GAME.scenario): {where}."])
        return
    if not files:
        yield Section("Scenarios", notes=[f"No scenario files under scenarios/{game.name}/."])
        return
    n = trials or (QUICK_SCENARIO_TRIALS if quick else FULL_SCENARIO_TRIALS)
    for i, path in enumerate(files):
        title = f"Scenario {path.name}"
        yield from guarded(title, _one_scenario, game, path, outdir, title=title, n=n, seed=seed,
                           run_opts=run_opts)
        if i < sensitivity_count:
            stitle = f"Sensitivity of {path.name} to the rule variants"
            ns = trials or (QUICK_SENSITIVITY_TRIALS if quick else FULL_SCENARIO_TRIALS)
            yield from guarded(stitle, _sensitivity, path, outdir, title=stitle, n=ns, seed=seed,
                               run_opts=run_opts, stem=f"{game.name}-{path.stem}")
        if i < balance_count:
            btitle = f"Balance of {path.name}: default and equilibrium win rates"
            yield from guarded(btitle, _balance, path, outdir, title=btitle, quick=quick,
                               trials=trials, seed=seed, run_opts=run_opts,
                               stem=f"{game.name}-{path.stem}")


def _one_scenario(game, path, outdir, *, title, n, seed, run_opts):
    from ..plots import plot_win_rates

    frame = game.scenario.table(str(path), trials=n, seed=seed, policies={},
                                all_policies=False, variants={}, **run_opts)
    png = outdir / f"{game.name}-scenario-{path.stem}.png"
    plot_win_rates(frame, png)
    cols = frame.attrs.get("columns") or [c for c in SCENARIO_COLUMNS if c in frame]
    name = frame["scenario"].iloc[0] if "scenario" in frame else path.stem
    s = Section(title, command=f"simkit scenario run {name_of(path)} --trials {n} --seed {seed}",
                notes=[f"{name}: {n:,} games, seed {seed}, the policies the file names; win "
                       "rates with 95% Wilson intervals."],
                tables=[(f"{name}: win rates",
                         frame[with_intervals(frame, [c for c in cols if c in frame])])],
                images=[(f"{name}: win rates (95% intervals)", png.name)])
    for caption, extra in frame.attrs.get("extra", {}).items():
        s.tables.append((str(caption), extra))
    return [s]


#: a quick report's balance: games per profile and candidates per best-reply search (the budget
#: is then a few times what the starting profiles need: ``balance.QUICK_BUDGET_FACTOR``)
QUICK_BALANCE = {"trials_budget": None, "profile_trials": 100, "candidates": 4}


def _balance(path, outdir, *, title, quick, trials, seed, run_opts, stem):
    from ..analysis.balance import balance
    from ..plots import plot_balance

    opts = dict(QUICK_BALANCE) if quick or trials else {}
    if trials:   # a forced count is per profile here, as it is per scenario elsewhere
        opts["profile_trials"] = trials
    frame = balance(path, seed=seed, progress=False, **opts,
                    **{k: v for k, v in run_opts.items() if k not in ("progress", "run_dir",
                                                                      "target_ci")})
    png = outdir / f"{stem}-balance.png"
    plot_balance(frame, png)
    shown = ["side", "default_win_rate", "default_lo", "default_hi", "equilibrium_win_rate",
             "equilibrium_lo", "equilibrium_hi", "exploitability", "exploit_lo", "exploit_hi",
             "support"]
    flags = (" --trials-budget {0} --profile-trials {1} --candidates {2}".format(
        frame["trials_used"].iloc[0], opts["profile_trials"], opts["candidates"]) if quick else "")
    return [Section(title, command=f"simkit balance {name_of(path)} --seed {seed}{flags}",
                    notes=[f"Each side's best reply to the other's best (simkit balance): "
                           f"{frame['profiles'].iloc[0]} policy profiles, "
                           f"{frame['trials_used'].iloc[0]:,} games"
                           + (" (a quick look: small samples, few rounds of replies)"
                              if quick else "") + f". Intervals: {frame.attrs['interval']}. "
                           "Exploitability is the most a side's best reply found gains against "
                           "the final mixture; NaN when the budget ran out before it could be "
                           "measured. The support's weights are the solver's mixture, not "
                           "estimates; the payoff table holds the search's own estimates on its "
                           "seed (no intervals)."],
                    tables=[("Default and equilibrium win rates", frame[shown]),
                            ("Payoffs of the final population", frame.attrs["payoffs"])],
                    images=[("Default beside equilibrium, and the payoff matrix", png.name)])]


def _sensitivity(path, outdir, *, title, n, seed, run_opts, stem):
    from ..analysis.sensitivity import sensitivity
    from ..plots import plot_tornado

    frame = sensitivity(path, variants="all", policies=False, trials=n, seed=seed, **run_opts)
    png = outdir / f"{stem}-sensitivity.png"
    plot_tornado(frame, png, title=f"{frame['scenario'].iloc[0]}")
    shown = ["setting", "side", "win_rate", "default_win_rate", "delta", "delta_lo", "delta_hi",
             "same_as_default"]
    return [Section(title, command=f"simkit sensitivity {name_of(path)} "
                                   f"--variants all --trials {n} --seed {seed}",
                    notes=[f"Each variant changed alone from the scenario's default; {n:,} games "
                           f"per setting on the same seed. Intervals: {frame.attrs['interval']}."],
                    tables=[("Win-rate deltas from the default", frame[shown])],
                    images=[("Tornado: win-rate delta per variant choice", png.name)])]
