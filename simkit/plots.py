"""Plots shared by the analyses (matplotlib, no display needed)."""

from __future__ import annotations

from pathlib import Path

import matplotlib

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
