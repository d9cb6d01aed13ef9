"""Plots shared by the analyses (matplotlib, no display needed).

Every figure lives here, apart from the computations it draws: ``simkit.core`` and
``simkit.analysis`` never import matplotlib (tests/test_core_layering.py), so the library
runs without it being loaded."""

from __future__ import annotations

from pathlib import Path

import matplotlib
import numpy as np
import pandas as pd

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from .core.files import save_figure  # noqa: E402


def plot_by_x(frame, figures, path: str | Path, *, x: str = "range", group: str = "weapon",
              title: str = "") -> Path:
    """One panel per figure: a line per group over ``x`` with its 95% band (``<fig>_lo/_hi``)
    and the exact value (``<fig>_exact``) as open markers where it exists."""
    n = len(figures)
    cols = min(n, 2)
    rows = (n + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(6.5 * cols, 4.0 * rows), squeeze=False)
    for ax, (col, label) in zip(axes.flat, figures):
        for name, g in frame.groupby(group, sort=False):
            g = g.sort_values(x)
            line, = ax.plot(g[x], g[col], marker=".", label=str(name))
            if f"{col}_lo" in g and f"{col}_hi" in g:
                ax.fill_between(g[x], g[f"{col}_lo"], g[f"{col}_hi"], alpha=0.25,
                                color=line.get_color(), linewidth=0)
            if f"{col}_exact" in g and g[f"{col}_exact"].notna().any():
                ax.plot(g[x], g[f"{col}_exact"], linestyle="none", marker="o",
                        markerfacecolor="none", color=line.get_color(), markersize=5)
        ax.set_xlabel(x)
        ax.set_ylabel(label)
        ax.grid(alpha=0.3)
    for ax in list(axes.flat)[n:]:
        ax.axis("off")
    axes.flat[0].legend(fontsize=8)
    if title:
        fig.suptitle(title + "\nlines: Monte Carlo with 95% band; open circles: exact")
    fig.tight_layout()
    path = Path(path)
    save_figure(fig, path, dpi=110)
    plt.close(fig)
    return path


def plot_win_rates(frame, path: str | Path) -> Path:
    """Win rate per side (per pairing when present) with 95% interval bars."""
    labels = [(f"{r.pairing}\n" if "pairing" in frame else "") + f"{r.side} ({r.policy})"
              for r in frame.itertuples()]
    fig, ax = plt.subplots(figsize=(8, 0.45 * len(frame) + 1.5))
    y = range(len(frame))
    err = [frame.win_rate - frame.win_lo, frame.win_hi - frame.win_rate]
    ax.barh(list(y), frame.win_rate, xerr=err, capsize=3, color="tab:blue", alpha=0.7)
    ax.set_yticks(list(y), labels, fontsize=7)
    ax.set_xlim(0, 1)
    ax.set_xlabel("win rate (95% interval)")
    ax.set_title(f"{frame.scenario.iloc[0]}: {int(frame.trials.iloc[0]):,} games per pairing")
    ax.invert_yaxis()
    fig.tight_layout()
    path = Path(path)
    save_figure(fig, path, dpi=110)
    plt.close(fig)
    return path


def plot_leaderboard(board: pd.DataFrame, path, *, figure: str | None = None,
                     title: str = "") -> Path:
    """Each finalist's objective with its 95% interval (fresh trials), the paired gap to the
    leader when the board has one, and the search's progress (the leader's racing score)."""
    # the search package imports numba: only load it when a leaderboard is drawn
    from .core.search import progress_frame

    figure = figure or board.attrs.get("objective", "score")
    name = figure[:-5] if figure.endswith("_rate") else figure.removeprefix("mean_")
    lo, hi = f"{name}_lo", f"{name}_hi"
    prog = progress_frame(board)
    panels = 3 if "gap" in board else 2
    fig, axes = plt.subplots(1, panels, figsize=(5 * panels + 2, 0.38 * len(board) + 2.5),
                             gridspec_kw={"width_ratios": [3] + [2] * (panels - 1)})
    ax = axes[0]
    y = np.arange(len(board))
    included = board.get("included", pd.Series(False, index=board.index)).to_numpy(bool)
    colors = np.where(included, "tab:orange", "tab:blue")

    def dots(ax, v, l, h):
        # points and bars, not bars from zero: the builds differ by a few points in the
        # third decimal, which bars from zero would hide
        for yi, vi, li, hi_, col in zip(y, v, l, h, colors):
            ax.errorbar(vi, yi, xerr=[[vi - li], [hi_ - vi]], fmt="o", color=col, capsize=3,
                        markersize=4)

    val = board[figure].to_numpy(float)
    if lo in board and hi in board:
        dots(ax, val, board[lo].to_numpy(float), board[hi].to_numpy(float))
    else:
        dots(ax, val, val, val)
    ax.set_yticks(y, [f"{r}. {b}" for r, b in zip(board["rank"], board["build"])], fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel(f"{figure}: 95% interval, {int(board['trials'].iloc[0]):,} fresh trials each"
                  + (" (orange: given builds)" if included.any() else ""), fontsize=8)
    ax.grid(axis="x", alpha=0.3)
    if panels == 3:
        axg = axes[1]
        dots(axg, board["gap"].to_numpy(float), board["gap_lo"].to_numpy(float),
             board["gap_hi"].to_numpy(float))
        axg.axvline(0, color="grey", linewidth=0.8)
        axg.set_yticks(y, [str(r) for r in board["rank"]], fontsize=7)
        axg.invert_yaxis()
        axg.set_xlabel(f"leader's {figure} minus this build's\n(paired 95% interval, "
                       "same trials)", fontsize=8)
        axg.grid(axis="x", alpha=0.3)
    ax2 = axes[-1]
    if len(prog):
        ax2.plot(prog["trials_used"], prog["best_score"], marker=".", color="tab:blue")
        if "best_lo" in prog:
            ax2.fill_between(prog["trials_used"], prog["best_lo"], prog["best_hi"], alpha=0.25,
                             color="tab:blue", linewidth=0)
        ax2.set_xlabel("racing trials spent", fontsize=8)
        ax2.set_ylabel(f"leader's {figure} (racing stream, 95% band)", fontsize=8)
        ax2.grid(alpha=0.3)
    else:
        ax2.axis("off")
    vs = board.attrs.get("versus")
    fig.suptitle(title or ("strongest builds" + (f" against {vs}" if vs else "")
                           + f": {board.attrs.get('candidates', '?')} candidates raced, "
                           f"{board.attrs.get('trials_used', 0):,} trials"))
    fig.tight_layout()
    path = Path(path)
    save_figure(fig, path, dpi=110)
    plt.close(fig)
    return path


def plot_balance(frame: pd.DataFrame, path, *, title: str | None = None) -> None:
    """Default beside equilibrium win rate per side (95% intervals), and the payoff matrix."""
    pay = frame.attrs.get("payoffs")
    two = pay is not None and len(frame) == 2
    fig, axes = plt.subplots(1, 2 if two else 1, figsize=(11 if two else 6, 4.2))
    ax = axes[0] if two else axes
    x = np.arange(len(frame))
    for off, col, lab in ((-0.18, "default", "default policies"),
                          (0.18, "equilibrium", "equilibrium")):
        r = frame[f"{col}_win_rate"].to_numpy()
        err = np.vstack([r - frame[f"{col}_lo"].to_numpy(), frame[f"{col}_hi"].to_numpy() - r])
        ax.bar(x + off, r, 0.36, yerr=np.clip(err, 0, None), capsize=3, label=lab)
    ax.set_xticks(x, frame["side"])
    ax.set_ylabel("win rate")
    ax.set_ylim(0, 1)
    ax.legend()
    ax.set_title(title or str(frame["scenario"].iloc[0]))
    if two:
        a, b = frame["side"]
        m = pay.pivot_table(index=a, columns=b, values=f"utility_{a}", sort=False)
        im = axes[1].imshow(m.to_numpy(), vmin=0, vmax=1, cmap="RdBu")
        axes[1].set_xticks(range(m.shape[1]), [str(c)[:18] for c in m.columns], rotation=60,
                           ha="right", fontsize=7)
        axes[1].set_yticks(range(m.shape[0]), [str(c)[:18] for c in m.index], fontsize=7)
        axes[1].set_xlabel(f"policy of {b}")
        axes[1].set_ylabel(f"policy of {a}")
        axes[1].set_title(f"payoff to {a} (win + draw/2)")
        fig.colorbar(im, ax=axes[1])
    fig.tight_layout()
    save_figure(fig, path)
    plt.close(fig)


def plot_tornado(frame: pd.DataFrame, path: str | Path, *, top: int = 30,
                 title: str = "") -> Path:
    """One panel per side: each setting's win-rate delta with its 95% interval, biggest first."""
    f = frame[frame["kind"] != "default"].copy()
    lab = (f["build"].astype(str) + ": " if "build" in f else "") + f["setting"].astype(str)
    f["label"] = lab
    all_sides = list(dict.fromkeys(frame["side"]))
    sides = all_sides[:9]
    if f.empty:
        order = []
    else:
        size = f.assign(a=f["delta"].abs()).groupby("label", sort=False)["a"].max()
        order = list(size.sort_values(ascending=False, kind="stable").index[:top])
    n = max(len(order), 1)
    ncols = min(len(sides), 3)
    nrows = -(-len(sides) // ncols)
    fig, axes = plt.subplots(nrows, ncols, figsize=(4.2 * ncols + 2.5, nrows * (0.32 * n + 1.4)
                                                    + 0.6), sharey=True, squeeze=False)
    for ax in axes.flat[len(sides):]:
        ax.axis("off")
    for ax, side in zip(axes.flat, sides):
        g = f[f["side"] == side].set_index("label").reindex(order)
        y = np.arange(len(order))
        d = g["delta"].to_numpy(dtype=float)
        err = np.vstack([d - g["delta_lo"].to_numpy(dtype=float),
                         g["delta_hi"].to_numpy(dtype=float) - d])
        colors = ["tab:red" if v < 0 else "tab:blue" for v in np.nan_to_num(d)]
        if len(order):
            ax.barh(y, d, xerr=err, color=colors, alpha=0.75, capsize=2,
                    error_kw={"elinewidth": 0.8})
            ax.set_yticks(y, order, fontsize=7)
        else:
            ax.text(0.5, 0.5, "no settings besides the default", ha="center",
                    transform=ax.transAxes)
        ax.axvline(0, color="black", linewidth=0.8)
        base = frame[(frame["kind"] == "default") & (frame["side"] == side)]["win_rate"]
        ax.set_title(f"{side} (default {float(base.iloc[0]):.3f})" if len(base) else str(side),
                     fontsize=9)
        ax.set_xlabel("win-rate delta from default")
        ax.grid(axis="x", alpha=0.3)
    axes.flat[0].invert_yaxis()
    if len(all_sides) > len(sides):
        title = f"{title} (first {len(sides)} of {len(all_sides)} sides; all in the table)"
    fig.suptitle((title + "\n" if title else "") + "bars: delta; whiskers: 95% Newcombe interval "
                 "(conservative under common random numbers)", fontsize=9)
    fig.tight_layout()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
