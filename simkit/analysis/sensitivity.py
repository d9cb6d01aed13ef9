"""How robust is a balance claim? Win rates under every rule variant and every policy pairing.

``sensitivity(scenario)`` plays a scenario at its own settings (the *default*: the rules'
variant defaults, overridden by the scenario file's ``[variants]`` table, and the policies the
file names), then again with **one** thing changed at a time:

* every other choice of every named rule variant (``games.get(game).rules().variants``); a
  variant that does not touch the scenario still gets its row (its delta is ~0, usually exactly);
* every policy pairing over ``GAME.scenario.policies()`` (all pairings when there are at most
  :data:`simkit.core.pairings.MAX_PAIRINGS`; beyond that, one side's policy changed at a time, so a six-car derby
  costs 6 x (policies - 1) runs instead of policies^6).

The result is one row per (setting, side): the side's win rate under that setting, the default
win rate and their difference ``delta`` with a 95% interval ``delta_lo, delta_hi``.

How the interval is computed. Every run uses the same seed, so trial *i* of each setting
replays the same random stream (common random numbers, DESIGN.md): the two win rates are
positively correlated and their difference is far less noisy than either figure. The exact
paired interval needs per-trial outcomes (the discordant pairs), but the runner returns only
summed statistics. So the interval here is Newcombe's hybrid score interval for the difference
of two *independent* proportions (method 10 of Newcombe 1998, built from the two Wilson
intervals that ``simkit.core.stats.rate_ci`` gets from scipy). Under positive correlation it is
**conservative** (too wide, never too narrow): a delta it calls significant is significant; a
delta it does not may still be real. Equal totals are flagged (``same_as_default``): with
common random numbers they almost always mean the setting changed nothing.

Build leaderboards (``simkit builds GAME --budget ...``) plug in through one hook a game may
offer: ``GAME.analyses["build_scenario"](row: dict, workdir: Path) -> path`` writes a scenario
file in which the leaderboard row's build plays the game's reference field, and returns its
path; :func:`build_sensitivity` runs :func:`sensitivity` on it for each of the top builds.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Mapping

import numpy as np
import pandas as pd

from .. import games
from ..core import pairings as PR, stats
from ..core.data import read_toml
from ..core.errors import UserInputError
from ..core.game import Game

#: above this many pairings, policies change one side at a time

COLUMNS = ["scenario", "kind", "factor", "setting", "side", "policy", "trials", "wins",
           "win_rate", "win_lo", "win_hi", "default_win_rate", "delta", "delta_lo", "delta_hi",
           "same_as_default"]


def scenario_game(path: str | Path) -> Game:
    """The game a scenario file is for (its ``game`` field); it must have a scenario engine."""
    return games.for_scenario(path)


def delta_ci(k1, n1, k0, n0, level: float = stats.LEVEL):
    """Newcombe's hybrid score interval for ``k1/n1 - k0/n0`` (independent samples).

    Vectorised. Conservative for positively correlated (common-random-number) runs.
    """
    k1, n1, k0, n0 = (np.asarray(a, dtype=np.int64) for a in np.broadcast_arrays(k1, n1, k0, n0))
    p1, p0 = k1 / n1, k0 / n0
    l1, u1 = stats.rate_ci(k1, n1, level)
    l0, u0 = stats.rate_ci(k0, n0, level)
    d = p1 - p0
    lo = d - np.sqrt((p1 - l1) ** 2 + (u0 - p0) ** 2)
    hi = d + np.sqrt((u1 - p1) ** 2 + (p0 - l0) ** 2)
    return np.maximum(lo, -1.0), np.minimum(hi, 1.0)


def select_variants(game: Game, variants) -> list[str]:
    """``"all"``, ``None``/``"none"``, a comma string or a list of names -> validated names."""
    known = list(game.rules().variants)
    if variants is None or variants == "none":
        return []
    if variants == "all":
        return known
    names = [v.strip() for v in (variants.split(",") if isinstance(variants, str) else variants)]
    names = [n for n in names if n]
    for n in names:
        if n not in known:
            raise UserInputError(f"unknown variant {n!r} for {game.name} (known: "
                                 f"{', '.join(known) or 'none'})", field="--variants")
    if not names:
        raise UserInputError("name at least one variant, or 'all' or 'none'", field="--variants")
    return names


def _file_variants(game: Game, raw: Mapping, where: str) -> dict[str, str]:
    """The variant selection the scenario file itself makes (its ``[variants]`` table)."""
    chosen = raw.get("variants", {})
    if not isinstance(chosen, Mapping):
        raise UserInputError("must be a table of NAME = \"CHOICE\"", where=where, field="variants")
    for k, v in chosen.items():
        if not isinstance(v, str):
            raise UserInputError(f"must be a choice name in quotes, got {v!r}", where=where,
                                 field=f"variants.{k}")
    return game.rules().resolve({str(k): v for k, v in chosen.items()}, where=where)


def sensitivity(path: str | Path, *, variants="all", policies: bool = False,
                trials: int = 10_000, seed: int = 2026,
                base_variants: Mapping[str, str] | None = None,
                **run_opts) -> pd.DataFrame:
    """Win-rate deltas from the scenario's default under each variant choice and policy pairing.

    ``variants``: "all", None/"none", or names; ``policies``: also try policy pairings.
    ``base_variants`` ({name: choice}) moves the default itself (over the file's own choices).
    ``run_opts`` go untouched to the game's scenario analysis (and so to ``runner.run``).
    """
    path = str(path)
    game = scenario_game(path)
    raw = read_toml(path)
    names = select_variants(game, variants)
    play = game.scenario.table
    base_over = dict(base_variants or {})
    game.rules().resolve(base_over)  # names and choices checked (--variant)
    base_sel = {**_file_variants(game, raw, path), **base_over}

    def run_one(var=None, pol=None) -> pd.DataFrame:
        frame = play(path, trials=trials, seed=seed, policies=dict(pol or {}), all_policies=False,
                     variants={**base_over, **(var or {})}, **run_opts)
        missing = {"side", "policy", "wins", "trials", "win_rate"} - set(frame.columns)
        if missing:  # a game breaking the scenario contract is a bug, not user input
            raise RuntimeError(f"{game.name} scenario frame lacks {sorted(missing)}")
        return frame.reset_index(drop=True)

    base = run_one()
    settings: list[tuple[str, str, str, pd.DataFrame]] = [("default", "", "default", base)]
    for v in names:
        for choice in game.rules().variants[v].choices:
            if choice != base_sel[v]:
                settings.append(("variant", v, f"{v}={choice}", run_one(var={v: choice})))
    if policies:
        pnames = [n for n, sp in game.policy_spaces().items() if not sp.costly]
        if not pnames:
            raise UserInputError(f"{game.title} names no policies to compare", field="--policies")
        sides = [str(s) for s in base["side"]]
        default = dict(zip(sides, (str(p) for p in base["policy"])))
        for pairing in PR.pairings(sides, pnames, default):
            settings.append(("policies", "policies", PR.label(pairing), run_one(pol=pairing)))
    return _deltas(base, settings, scenario=str(base["scenario"].iloc[0])
                   if "scenario" in base else Path(path).stem)


def _deltas(base: pd.DataFrame, settings, scenario: str) -> pd.DataFrame:
    b = base.set_index("side")
    rows = []
    for kind, factor, setting, frame in settings:
        same = _same_totals(base, frame)
        for r in frame.itertuples(index=False):
            side = r.side
            if side not in b.index:
                raise RuntimeError(f"setting {setting!r} produced an unknown side {side!r}")
            k0, n0 = int(b.loc[side, "wins"]), int(b.loc[side, "trials"])
            k1, n1 = int(r.wins), int(r.trials)
            lo1, hi1 = stats.rate_ci(k1, n1)
            row = {"scenario": scenario, "kind": kind, "factor": factor, "setting": setting,
                   "side": side, "policy": r.policy, "trials": n1, "wins": k1,
                   "win_rate": k1 / n1, "win_lo": float(lo1), "win_hi": float(hi1),
                   "default_win_rate": k0 / n0}
            if kind == "default":
                row.update(delta=0.0, delta_lo=np.nan, delta_hi=np.nan, same_as_default=True)
            else:
                dlo, dhi = delta_ci(k1, n1, k0, n0)
                row.update(delta=k1 / n1 - k0 / n0, delta_lo=float(dlo), delta_hi=float(dhi),
                           same_as_default=same)
            rows.append(row)
    out = pd.DataFrame(rows, columns=COLUMNS)
    out.attrs["interval"] = ("95% Newcombe hybrid score interval for a difference of independent "
                             "proportions; conservative for these common-random-number runs")
    return out


def _same_totals(a: pd.DataFrame, b: pd.DataFrame) -> bool:
    """Every numeric figure equal (policies excepted: a pairing names them differently)."""
    cols = [c for c in a.columns if c in b.columns and pd.api.types.is_numeric_dtype(a[c])]
    if len(a) != len(b) or not cols:
        return False
    return bool(np.array_equal(a[cols].to_numpy(dtype=float), b[cols].to_numpy(dtype=float),
                               equal_nan=True))


# --- build leaderboards -----------------------------------------------------------------------

def read_leaderboard(path: str | Path, *, top: int) -> pd.DataFrame:
    """The ``top`` best rows of a leaderboard CSV (by ``rank`` when it has one, else file order)."""
    p = Path(path)
    try:
        frame = pd.read_csv(p)
    except FileNotFoundError:
        raise UserInputError("file not found", where=str(p)) from None
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError,
            IsADirectoryError, PermissionError) as e:
        raise UserInputError(f"not a readable CSV leaderboard ({type(e).__name__})",
                             where=str(p)) from None
    if frame.empty:
        raise UserInputError("holds no builds", where=str(p))
    if "rank" in frame:
        if not pd.api.types.is_numeric_dtype(frame["rank"]):
            raise UserInputError("must be numbers", where=str(p), field="rank")
        frame = frame.sort_values("rank", kind="stable")
    return frame.head(top).reset_index(drop=True)


def build_sensitivity(path: str | Path, *, game: str | None = None, top: int = 3,
                      workdir: str | Path | None = None, **options) -> pd.DataFrame:
    """:func:`sensitivity` for each of the ``top`` builds of a leaderboard CSV.

    The game is ``game`` or the CSV's ``game`` column; it must offer
    ``analyses["build_scenario"](row, workdir) -> scenario path``. Generated scenario files are
    written to ``workdir`` (kept) or to a temporary folder (removed afterwards).
    """
    if top < 1:
        raise UserInputError(f"must be a positive whole number, got {top!r}", field="--top")
    board = read_leaderboard(path, top=top)
    if game is None:
        if "game" not in board or board["game"].nunique() != 1:
            raise UserInputError("name the game with --game (the leaderboard has no single "
                                 "'game' column value)", where=str(path), field="game")
        game = str(board["game"].iloc[0])
    g = games.get(game)
    hook = g.analyses.get("build_scenario")
    if hook is None:
        raise UserInputError(f"{g.title} offers no build_scenario hook, so its builds cannot be "
                             "played in a scenario yet", where=str(path), field="game")
    with tempfile.TemporaryDirectory(prefix="simkit-builds-") as tmp:
        wd = Path(workdir) if workdir is not None else Path(tmp)
        wd.mkdir(parents=True, exist_ok=True)
        frames = []
        for i, row in board.iterrows():
            label = str(row["build"]) if "build" in board else f"rank {i + 1}"
            scen = hook({k: (None if pd.isna(v) else v) for k, v in row.items()}, wd)
            f = sensitivity(scen, **options)
            f.insert(0, "build", label)
            f.insert(1, "build_rank", i + 1)
            frames.append(f)
    out = pd.concat(frames, ignore_index=True)
    out.attrs.update(frames[0].attrs)
    return out



#: the columns ``simkit sensitivity`` prints (its options and run are in ``simkit.cli``)
SHOWN = ["build", "kind", "setting", "side", "policy", "win_rate", "delta", "delta_lo",
         "delta_hi", "same_as_default"]
