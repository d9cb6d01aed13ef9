"""Dark Future's headline analyses as library calls: weapon value, hazard odds, design checks
and the design search on a budget.

What ``simkit weapons|hazards|builds dark-future`` print and the report shows. Each returns a
tidy frame whose ``attrs`` carry its caption (``title``), the columns worth printing
(``columns``) and any further tables (``extra``: caption -> frame, each with its own
``name``, ``title`` and ``columns``); kernels are imported when a call runs.
"""

from __future__ import annotations

from ..core.extras import Extras
from ..core.checks import ints_in, positive_int
from ..core.errors import UserInputError
from ..core.game import Analysis
from . import rules as R

RUN_KEYS = ("threads", "progress", "backend", "chunk_size", "run_dir", "target_ci")




# --- weapons ----------------------------------------------------------------------------------

WEAPONS_COLUMNS = ["weapon", "range", "p_hit", "p_hit_exact", "mean_damage_exact",
                   "p_critical_exact", "p_hazard_exact", "p_control_loss_exact",
                   "damage_per_shot", "damage_per_shot_exact", "damage_per_kilodollar"]


def weapons(target=None, mount="hood", ranges=range(1, 31), *, trials=100_000, seed=2026,
            variants=None, **options):
    """Per weapon and range, one shot from ``mount`` at ``target``: hit chance, damage,
    criticals and the hazards a hit forces. ``options``: ``firer_mph``, ``target_mph``,
    ``smoke``, ``bike_lanes``, ``facing``, ``target_skill``, ``target_damage``,
    ``weapon_keys``, ``target_build`` (see
    :func:`simkit.dark_future.procedures.shooting.weapon_table_sim`), and ``runner.run``'s options."""
    from ..core.runner import run
    from .procedures.shooting import weapon_table_sim

    run_opts = {k: options.pop(k) for k in list(options) if k in RUN_KEYS}
    trials = positive_int(trials, "--trials")
    sim = weapon_table_sim(target, mount, ints_in(ranges, "--ranges", 1, 60),
                           chosen=dict(variants or {}), **options)
    frame = run(sim, trials, seed, **run_opts).frame
    facing = options.get("facing", "rear")
    frame.attrs["title"] = (
        f"One shot from a {mount} mount at a {sim.target_name} ({facing} facing), firer "
        f"{options.get('firer_mph', 60)}mph, target {options.get('target_mph', 60)}mph, smoke "
        f"{options.get('smoke', 0)}; {trials:,} trials, seed {seed}")
    frame.attrs["columns"] = WEAPONS_COLUMNS
    return frame


def plot_weapons(frame, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from ..core.files import save_figure

    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5))
    for w, g in frame.groupby("weapon", sort=False):
        axes[0].plot(g["range"], g["p_hit_exact"], marker=".", label=w)
        axes[1].errorbar(g["range"], g["damage_per_shot"],
                         yerr=[g["damage_per_shot"] - g["damage_per_shot_lo"],
                               g["damage_per_shot_hi"] - g["damage_per_shot"]], marker=".",
                         label=w)
    axes[0].set(xlabel="range (spaces)", ylabel="P(hit), exact")
    axes[1].set(xlabel="range (spaces)", ylabel="damage points per shot (95% CI)")
    axes[1].legend(fontsize=7, ncol=2)
    fig.tight_layout()
    save_figure(fig, path)
    plt.close(fig)


# --- hazards ----------------------------------------------------------------------------------

HAZARD_TITLE = "Hazard roll (p39): d6 + excess - optimum control"
CONTROL_LOSS_TITLE = "Control-loss test (p42, bikes p70): d6 + speed factor - adverse control"


def hazards(test="both", *, control=range(1, 7), excess=range(0, 111), step=10, braking=None,
            adverse=range(0, 7), speed_factors=range(1, 7), vehicle="both", plus_two=False,
            trials=200_000, seed=2026, variants=None, **run_opts):
    """Exact and simulated odds of the hazard roll (``test="hazard"``) and the control-loss
    test (``"control-loss"``); with ``"both"`` the control-loss table is in
    ``attrs["extra"]``. ``excess`` keeps every ``step`` mph from its lowest value."""
    from ..core.runner import run
    from .procedures.hazards import ControlLossSim, HazardSim

    if test not in ("hazard", "control-loss", "both"):
        raise UserInputError(f"must be hazard, control-loss or both, got {test!r}",
                             field="--test")
    rules = R.rules_for(variants)
    trials = positive_int(trials, "--trials")
    if step is None or step < 1:
        raise UserInputError(f"must be a positive whole number, got {step!r}", field="--step")
    if braking is not None and braking < 0:
        raise UserInputError(f"must be 0 or more mph, got {braking!r}", field="--braking")
    frames = []
    if test in ("hazard", "both"):
        controls = ints_in(control, "--control", 0, 12)
        excess = ints_in(excess, "--excess", 0, 200)
        excess = [e for e in excess if (e - excess[0]) % step == 0]
        f = run(HazardSim(excess, controls, braking, rules), trials, seed, **run_opts).frame
        f.attrs.update(name="hazard", title=HAZARD_TITLE, columns=[
            "excess_mph", "control", "p_ok", "p_ok_exact", "p_panic", "p_panic_exact",
            "p_loss", "p_loss_exact", "mean_panic_mph_exact"])
        frames.append(f)
    if test in ("control-loss", "both"):
        if vehicle not in ("car", "bike", "both"):
            raise UserInputError(f"must be car, bike or both, got {vehicle!r}", field="--vehicle")
        kinds = ("car", "bike") if vehicle == "both" else (vehicle,)
        sim = ControlLossSim(kinds, ints_in(speed_factors, "--speed-factors", 0, 12),
                             ints_in(adverse, "--adverse", 0, 12),
                             (False, True) if plus_two else (False,), rules)
        f = run(sim, trials, seed, **run_opts).frame
        f.attrs.update(name="control-loss", title=CONTROL_LOSS_TITLE, columns=[
            "vehicle", "speed_factor", "adverse_control", "no_control_plus_2",
            "p_regain_exact", "p_skid_regain_exact", "p_skid_out_exact", "p_spin_exact",
            "p_roll", "p_roll_exact"])
        frames.append(f)
    for f in frames:
        f.attrs["columns"] = [c for c in f.attrs["columns"] if c in f.columns]
    first = frames[0]
    first.attrs["extra"] = Extras({f.attrs["title"]: f for f in frames[1:]})
    return first


# --- builds -----------------------------------------------------------------------------------

def check_cars(cars, budget=None, *, variants=None):
    """Each car (a compact string or .toml file) checked against the design rules (p81-86):
    cost, weight, payload and validity, one row per car. Invalid cars raise one
    :class:`UserInputError` naming every violation of every car."""
    import pandas as pd

    from .builds import car_from, check

    chosen = dict(variants or {})
    R.selection(chosen)  # names validated before any car is read
    if budget is not None and budget < 0:
        raise UserInputError(f"must be 0 or more dollars, got {budget!r}", field="--budget")
    reports = [check(car_from(text), budget, chosen) for text in cars]
    frame = pd.DataFrame([{
        "car": r.car.source.removeprefix("car ").strip("'"), "vehicle": r.car.vehicle,
        "cost": r.cost, "weight": r.weight, "payload": r.payload, "budget": r.budget,
        "valid": r.valid, "violations": len(r.violations)} for r in reports])
    frame.attrs["title"] = "Vehicle design check (p81-86)"
    bad = [r for r in reports if not r.valid]
    if bad:
        err = UserInputError(" | ".join(
            f"{r.car.source}: " + "; ".join(f"({i}) {x}" for i, x in enumerate(r.violations, 1))
            for r in bad))
        err.frame = frame   # the checks of every car, for a caller that shows them first
        raise err
    return frame


def builds(scenario="dark-future/game-4", *, budget=50_000, vehicle="renegade", side=None,
           include=(), opponents=(), trials=200_000, seed=2026, variants=None, population=32,
           generations=None, min_trials=100, finalists=10, final_trials=None, **run_opts):
    """The best legal ``vehicle`` designs within ``budget`` dollars for ``side`` of a Game
    (a shipped scenario's name or a file), found by the shared build search with ``trials``
    candidate-games in all; finalists re-played on fresh seeds (95% intervals)."""
    from .. import shipped
    from .search import budget_search

    if budget is None:
        raise UserInputError("a search needs --budget (dollars)", field="--budget")
    chosen = dict(variants or {})
    R.selection(chosen)
    path = shipped.resolve(scenario, option="--scenario")
    board = budget_search(path, vehicle=vehicle, budget=budget, side=side, include=include,
                          chosen=chosen, seed=seed, opponents=opponents,
                          trials_budget=positive_int(trials, "--trials-budget"),
                          population=population, generations=generations,
                          min_trials=min_trials, finalists=finalists, final_trials=final_trials,
                          **run_opts)
    board.attrs["title"] = (f"Best {vehicle} designs within ${budget:,} for "
                            f"{side or 'the first side'} of {scenario} (95% intervals, fresh "
                            "seeds)")
    board.attrs["columns"] = [c for c in board.attrs["columns"] if c in board]
    return board


def metagame(scenario="dark-future/game-4", *, budget=50_000, vehicle="renegade", trials=200_000,
             seed=2026, variants=None, run_dir=None, progress=None, **_run_opts):
    """The designs a strong field would drive: best replies to best replies among legal
    ``vehicle`` designs within ``budget`` dollars, both sides of a two-sided Game driving
    searched designs with the sides swapped in half the games (:mod:`simkit.analysis.metagame`);
    which design beats which in ``attrs["payoffs"]``."""
    from .. import shipped
    from ..analysis.metagame import metagame as solve
    from .search import metagame_game

    if budget is None:
        raise UserInputError("the metagame needs --budget (dollars a car)", field="--budget")
    chosen = dict(variants or {})
    R.selection(chosen)
    path = shipped.resolve(scenario, option="--scenario")
    bg = metagame_game(path, vehicle=vehicle, budget=budget, chosen=chosen)
    return solve(bg, trials_budget=positive_int(trials, "--trials-budget"), seed=seed,
                 run_dir=run_dir, progress=progress)


def plot_builds(frame, path):
    from ..plots import plot_leaderboard

    plot_leaderboard(frame, path)


HEADLINE = (
    Analysis("weapons", "Weapon value by range (hood mount, a chase)", weapons, trials=100_000,
             plot=plot_weapons, command="simkit weapons dark-future"),
    Analysis("hazards", "Hazard rolls and control-loss tests", hazards, trials=200_000,
             command="simkit hazards dark-future"),
    Analysis("builds", "The best Renegade on $50,000 for Game Four", builds, trials=200_000,
             plot=plot_builds, trials_option="--trials-budget",
             quick={"population": 8, "min_trials": 50, "finalists": 3, "trials": 1500},
             command="simkit builds dark-future --scenario dark-future/game-4 --budget 50000 "
                     "--vehicle renegade"),
    Analysis("metagame", "The Renegades on $50,000 a strong field would drive in Game Four (the "
             "build metagame)", metagame, trials=200_000, trials_option="--trials-budget",
             quick={"trials": 2000},
             command="simkit builds dark-future --metagame --scenario dark-future/game-4 "
                     "--budget 50000"),
)
