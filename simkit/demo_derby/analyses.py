"""Demo Derby's headline analyses as library calls: crash damage, whole derbies, the arena.

What ``simkit crash|derby|board demo-derby`` print and the report shows. Each returns a tidy
frame whose ``attrs`` carry its caption (``title``), the columns worth printing (``columns``)
and any further tables (``extra``: caption -> frame); kernels are imported when a call runs.
"""

from __future__ import annotations

from ..core.checks import positive_int
from ..core.errors import UserInputError
from ..core.game import Analysis
from .rules import IMPACTS, build_tables

CRASH_COLUMNS = ["speed", "impact", "rammer_column", "table_column",
                 "mean_damage_target", "mean_damage_target_exact",
                 "mean_damage_rammer", "mean_damage_rammer_exact",
                 "p_special_target", "p_special_target_exact",
                 "p_special_rammer", "p_special_rammer_exact",
                 "p_out_target", "p_out_target_exact", "p_out_rammer", "p_out_rammer_exact",
                 "p_stall_target", "p_stall_target_exact",
                 "p_stall_rammer", "p_stall_rammer_exact"]



def crash(speeds=None, impacts=None, *, reverse=False, target_speed=0, trials=200_000,
          seed=2026, variants=None, **run_opts):
    """Crash damage per rammer speed (default every speed) and point of impact (names of
    ``rules.IMPACTS``; default all): Monte Carlo with 95% intervals beside the exact figures."""
    from .procedures import crash_table  # compiled kernels load only when an analysis runs

    tables = build_tables(variants=variants)
    trials = positive_int(trials, "--trials")
    speeds = list(speeds) if speeds is not None else list(range(1, tables.max_speed + 1))
    bad = [s for s in speeds if not 1 <= int(s) <= tables.max_speed]
    if bad or not speeds:
        raise UserInputError(f"speeds must lie in 1-{tables.max_speed}, got {speeds!r}",
                             field="--speeds")
    idx = []
    for name in (IMPACTS if impacts is None else impacts):
        name = str(name).strip().replace("-", "_")
        if name not in IMPACTS:
            raise UserInputError(f"unknown point of impact {name!r} (known: "
                                 f"{', '.join(IMPACTS)})", field="--impacts")
        idx.append(IMPACTS.index(name))
    if not 0 <= target_speed <= tables.max_speed:
        raise UserInputError(f"must be 0-{tables.max_speed}, got {target_speed}",
                             field="--target-speed")
    if target_speed and not tables.vector_collisions:
        raise UserInputError("the target's speed matters only with --variant collisions=vector",
                             field="--target-speed")
    res = crash_table(tables, trials, seed, speeds=speeds, impacts=idx, reverse=reverse,
                      target_speed=target_speed, **run_opts)
    frame = res.frame
    frame.attrs["title"] = (f"Demo Derby crash damage: {res.n_trials:,} trials per cell, seed "
                            f"{res.seed} (Monte Carlo beside exact; 95% intervals)")
    frame.attrs["columns"] = CRASH_COLUMNS
    return frame


def plot_crash(frame, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from ..core.files import save_figure

    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    first = frame.drop_duplicates("speed")
    for side, style in (("target", "-o"), ("rammer", "-s")):
        m = first[f"mean_damage_{side}"]
        axes[0].errorbar(first["speed"], m, yerr=[m - first[f"mean_damage_{side}_lo"],
                                                  first[f"mean_damage_{side}_hi"] - m],
                         fmt=style, label=f"{side} (MC, 95%)")
        axes[0].plot(first["speed"], first[f"mean_damage_{side}_exact"], "k:", lw=1)
    axes[0].set(xlabel="rammer speed", ylabel="damage points", title="mean damage (dotted: exact)")
    axes[0].legend()
    for impact, g in frame.groupby("impact", sort=False):
        axes[1].plot(g["speed"], g["p_stall_target"], "-o", ms=3, label=impact)
    axes[1].set(xlabel="rammer speed", ylabel="probability",
                title="target's radiator full (stalls in two turns)")
    axes[1].legend(fontsize=8)
    fig.tight_layout()
    save_figure(fig, path, dpi=120)
    plt.close(fig)


def derby(cars=6, cruise=5, *, arena=None, trials=20_000, seed=2026, variants=None, **run_opts):
    """Whole derbies of ``cars`` hunter cars (car k on start spot k), each cruising at
    ``cruise`` (one speed, or one per car): wins per car and start spot and ties, with 95%
    intervals; how cars went out and how games end in ``attrs["extra"]``."""
    import numpy as np

    from ..core.runner import run
    from .pieces.arena import load_arena
    from .engine import DerbySimulation

    tables = build_tables(variants=variants)
    trials = positive_int(trials, "--trials")
    if not 2 <= int(cars) <= 6:
        raise UserInputError(f"must be 2-6 (six start spots), got {cars}", field="--cars")
    cruise = [cruise] if np.isscalar(cruise) else list(cruise)
    try:
        cruise = [int(c) for c in cruise]
    except (TypeError, ValueError):
        raise UserInputError(f"expected whole numbers, got {cruise!r}", field="--cruise") from None
    if len(cruise) == 1:
        cruise = cruise * cars
    if len(cruise) != cars or not all(1 <= c <= tables.max_speed for c in cruise):
        raise UserInputError(f"give 1 or {cars} speeds, each 1-{tables.max_speed}",
                             field="--cruise")
    sim = DerbySimulation(tables, load_arena(arena), np.array(cruise, np.int64).reshape(-1, 1))
    res = run(sim, trials, seed, **run_opts)
    frame = res.frame
    r = frame.attrs["rounds"]
    frame.attrs["title"] = (
        f"Demo Derby, {cars} hunter cars (car k on start spot k), {res.n_trials:,} derbies, "
        f"seed {res.seed}: wins per car and start spot, and ties, with 95% intervals\n"
        f"rounds: mean {r['mean']:.2f} [{r['lo']:.2f}, {r['hi']:.2f}], 5%/50%/95%: "
        f"{r['q05']}/{r['median']}/{r['q95']}")
    frame.attrs["columns"] = ["car", "start_spot", "policy", "cruise_speed", "p_win"]
    return frame


def board(arena=None, **_ignored):
    """The arena file (default: the built-in RECONSTRUCTED arena): hexes per terrain."""
    from .pieces.arena import load_arena, summary

    a = load_arena(arena)
    frame = summary(a)
    frame.attrs["title"] = (f"Demo Derby arena {a.path} ({a.label}): {a.shape[0]} rows x "
                            f"{a.shape[1]} columns")
    frame.attrs["arena"] = None if arena is None else str(arena)
    return frame


def plot_board(frame, path):
    from .pieces.arena import load_arena, plot_arena

    plot_arena(load_arena(frame.attrs.get("arena")), path)


HEADLINE = (
    Analysis("crash", "Crash damage by rammer speed and point of impact", crash,
             trials=200_000, plot=plot_crash, command="simkit crash demo-derby"),
    Analysis("derby", "Whole derbies: six hunter cars", derby, trials=20_000,
             command="simkit derby demo-derby"),
    Analysis("board", "The arena", board, plot=plot_board, command="simkit board demo-derby"),
)
