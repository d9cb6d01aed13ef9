"""The Demo Derby arena: a hex map as data, its geometry, validation and a plot.

What the rules need from the board (demo-derby.txt, Game Flow, Movement, Figure-8 Race): the
outer wall and its access ramp, the mud puddle and the ditch, light poles, the six start spots
(yellow dots) and the Figure-8 area with its start/finish line and two poles. The default map
(``data/arena.toml``) is RECONSTRUCTED; any map in the same format can replace it
(``simkit board demo-derby --arena my.toml``).

Geometry: flat-topped hexes in "odd-q" offset layout (``map[row][col]``; odd columns half a hex
lower). Facings 0-5 are N, NE, SE, S, SW, NW. Kernels get the map as an int array of terrain
codes and do their own neighbour arithmetic with ``neighbour``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ...core import hexgrid
from ...core._numba import jit
from ...core.hexgrid import ODD_LOWER
from ...core.errors import UserInputError
from ...core.data import read_toml
from ...core.files import save_figure

DEFAULT = Path(__file__).parents[1] / "data" / "arena.toml"

TERRAIN = ("floor", "wall", "ramp", "figure8", "line", "mud", "ditch", "pole", "figure8_pole")
FLOOR, WALL, RAMP, FIGURE8, LINE, MUD, DITCH, POLE, F8_POLE = range(len(TERRAIN))
LEGEND = {".": FLOOR, "#": WALL, "R": RAMP, "F": FIGURE8, "S": LINE, "M": MUD, "D": DITCH,
          "P": POLE, "O": F8_POLE}
FACINGS = ("N", "NE", "SE", "S", "SW", "NW")
COLOURS = {FLOOR: "#d9d9d9", WALL: "#404040", RAMP: "#8e44ad", FIGURE8: "#e6cfa3",
           LINE: "#e74c3c", MUD: "#3b7dd8", DITCH: "#8b5a2b", POLE: "#f1c40f",
           F8_POLE: "#f39c12"}


@dataclass(frozen=True, eq=False)
class Arena:
    terrain: np.ndarray          # [row, col] terrain code
    starts: np.ndarray           # [spot 0..5, (row, col, facing)]
    label: str
    source: str
    path: str
    race_starts: np.ndarray | None = None   # [grid spot a..f, (row, col, facing)] or None

    def poles(self):
        """The two Figure-8 poles as (row, col), the left one (smaller x) first."""
        rc = sorted(zip(*np.nonzero(self.terrain == F8_POLE)), key=lambda x: (x[1], x[0]))
        return [(int(r), int(c)) for r, c in rc]

    @property
    def shape(self):
        return self.terrain.shape


# (row, col) with odd columns lower: the shared grid's ODD_LOWER, arguments in this module's order
@jit
def to_axial(row, col):
    x, _, z = hexgrid.to_cube(col, row, ODD_LOWER)
    return x, z


@jit
def to_offset(q, r):
    col, row = hexgrid.to_offset(q, r, ODD_LOWER)
    return row, col


@jit
def neighbour(row, col, facing):
    """The hex adjacent to (row, col) across hexside ``facing``."""
    c, r = hexgrid.neighbour(col, row, facing, ODD_LOWER)
    return r, c


@jit
def distance(row1, col1, row2, col2):
    return hexgrid.distance(col1, row1, col2, row2, ODD_LOWER)


def load_arena(path: str | Path | None = None) -> Arena:
    """Read and validate an arena file; errors name the file and the field."""
    path = Path(path) if path is not None else DEFAULT
    where = str(path)
    raw = read_toml(path)
    t = raw.get("table")
    t = t.get("arena") if isinstance(t, dict) else None
    if not isinstance(t, dict):
        raise UserInputError("needs a [table.arena] section", where=where, field="table.arena")
    for key in ("label", "source", "map"):
        if not t.get(key):
            raise UserInputError(f"missing {key}", where=where, field=f"table.arena.{key}")
    rows = t["map"]
    if not isinstance(rows, list) or not all(isinstance(x, str) and x for x in rows):
        raise UserInputError("must be a list of non-empty strings, one per row", where=where,
                             field="table.arena.map")
    width = len(rows[0])
    if len(rows) < 3 or width < 3:
        raise UserInputError("the map must be at least 3x3", where=where, field="table.arena.map")
    terrain = np.zeros((len(rows), width), np.int64)
    starts = {}
    grid = {}
    for r, line in enumerate(rows):
        if len(line) != width:
            raise UserInputError(f"row {r} has {len(line)} hexes, row 0 has {width}", where=where,
                                 field="table.arena.map")
        for c, ch in enumerate(line):
            if ch in "123456":
                if ch in starts:
                    raise UserInputError(f"start spot {ch} appears twice", where=where,
                                         field="table.arena.map")
                starts[ch] = (r, c)
                terrain[r, c] = FLOOR
            elif ch in "abcdef":
                if ch in grid:
                    raise UserInputError(f"starting grid spot {ch} appears twice", where=where,
                                         field="table.arena.map")
                grid[ch] = (r, c)
                terrain[r, c] = FIGURE8
            elif ch in LEGEND:
                terrain[r, c] = LEGEND[ch]
            else:
                raise UserInputError(f"unknown map symbol {ch!r} at row {r}, column {c} "
                                     f"(legend: {''.join(LEGEND)}123456abcdef)", where=where,
                                     field="table.arena.map")
    if sorted(starts) != list("123456"):
        raise UserInputError("the arena needs start spots 1-6 (the yellow dots)", where=where,
                             field="table.arena.map")
    border = np.concatenate([terrain[0], terrain[-1], terrain[:, 0], terrain[:, -1]])
    if not np.isin(border, (WALL, RAMP)).all():
        raise UserInputError("the outer wall must enclose the arena (border hexes '#' or 'R')",
                             where=where, field="table.arena.map")
    if not (terrain == RAMP).any():
        raise UserInputError("the outer wall needs an access ramp ('R')", where=where,
                             field="table.arena.map")
    if np.isin(terrain[1:-1, 1:-1], (WALL, RAMP)).any():
        raise UserInputError("wall and ramp hexes belong on the border only", where=where,
                             field="table.arena.map")
    if (terrain == F8_POLE).sum() != 2:
        raise UserInputError("the Figure-8 area needs exactly two poles ('O')", where=where,
                             field="table.arena.map")
    if not (terrain == LINE).any():
        raise UserInputError("the Figure-8 area needs a start/finish line ('S')", where=where,
                             field="table.arena.map")
    facing = t.get("start_facing", {})
    if not isinstance(facing, dict):
        raise UserInputError("must be a table of spot = facing", where=where,
                             field="table.arena.start_facing")
    out = np.zeros((6, 3), np.int64)
    for i, ch in enumerate("123456"):
        f = facing.get(ch)
        if f not in FACINGS:
            raise UserInputError(f"start spot {ch} needs a facing among {', '.join(FACINGS)}",
                                 where=where, field=f"table.arena.start_facing.{ch}")
        out[i] = (*starts[ch], FACINGS.index(f))
    race = None
    if grid:  # the Figure-8 starting grid is optional; races need all six spots
        if sorted(grid) != list("abcdef"):
            raise UserInputError("the Figure-8 starting grid needs spots a-f (or none)",
                                 where=where, field="table.arena.map")
        rf = t.get("race_facing", {})
        if not isinstance(rf, dict):
            raise UserInputError("must be a table of grid spot = facing", where=where,
                                 field="table.arena.race_facing")
        race = np.zeros((6, 3), np.int64)
        for i, ch in enumerate("abcdef"):
            f = rf.get(ch)
            if f not in FACINGS:
                raise UserInputError(f"grid spot {ch} needs a facing among {', '.join(FACINGS)}",
                                     where=where, field=f"table.arena.race_facing.{ch}")
            race[i] = (*grid[ch], FACINGS.index(f))
    return Arena(terrain, out, t["label"], t["source"], where, race)


def hex_centre(row: int, col: int, size: float = 1.0):
    x = 1.5 * size * col
    y = -np.sqrt(3) * size * (row + 0.5 * (col & 1))
    return x, y


def summary(arena: Arena):
    import pandas as pd
    counts = np.bincount(arena.terrain.ravel(), minlength=len(TERRAIN))
    return pd.DataFrame({"terrain": TERRAIN, "hexes": counts})


def plot_arena(arena: Arena, path, title: str | None = None):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch, RegularPolygon

    rows, cols = arena.shape
    fig, ax = plt.subplots(figsize=(0.42 * cols + 2, 0.5 * rows + 1))
    for r in range(rows):
        for c in range(cols):
            x, y = hex_centre(r, c)
            code = int(arena.terrain[r, c])
            ax.add_patch(RegularPolygon((x, y), 6, radius=1.0, orientation=np.pi / 6,
                                        facecolor=COLOURS[code], edgecolor="white", lw=0.6))
            if code in (POLE, F8_POLE):
                ax.plot(x, y, "o", color="black", ms=4)
    for i, (r, c, f) in enumerate(arena.starts):
        x, y = hex_centre(int(r), int(c))
        ax.plot(x, y, "o", color="#ffd700", ms=11, mec="black")
        ax.text(x, y, str(i + 1), ha="center", va="center", fontsize=7)
        nr, nc = neighbour(int(r), int(c), int(f))
        x2, y2 = hex_centre(nr, nc)
        ax.annotate("", xy=(x + 0.6 * (x2 - x), y + 0.6 * (y2 - y)), xytext=(x, y),
                    arrowprops=dict(arrowstyle="->", lw=1))
    for i, (r, c, f) in enumerate(arena.race_starts if arena.race_starts is not None else []):
        x, y = hex_centre(int(r), int(c))
        ax.plot(x, y, "s", color="white", ms=8, mec="black")
        ax.text(x, y, "abcdef"[i], ha="center", va="center", fontsize=6)
    ax.set_aspect("equal")
    ax.autoscale_view()
    ax.axis("off")
    names = {FLOOR: "floor", WALL: "outer wall", RAMP: "access ramp", FIGURE8: "Figure-8 area",
             LINE: "start/finish line", MUD: "mud puddle", DITCH: "ditch", POLE: "light pole",
             F8_POLE: "Figure-8 pole"}
    ax.legend(handles=[Patch(facecolor=COLOURS[k], label=v) for k, v in names.items()]
              + [plt.Line2D([], [], marker="o", color="w", markerfacecolor="#ffd700",
                            mec="black", ms=9, label="start spot (arrow: facing)"),
                 plt.Line2D([], [], marker="s", color="w", markerfacecolor="white",
                            mec="black", ms=8, label="Figure-8 starting grid a-f")],
              loc="upper left", bbox_to_anchor=(1.0, 1.0), fontsize=8)
    ax.set_title(title or f"Demo Derby arena ({arena.label}): {Path(arena.path).name}")
    fig.tight_layout()
    save_figure(fig, path, dpi=120)
    plt.close(fig)
