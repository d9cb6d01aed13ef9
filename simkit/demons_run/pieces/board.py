"""The Demon's Run gameboard as data (004 A, 100 B, 204 H, 211 A; rules-data.md 2.5).

No copy of the real board was found, so the default board (``data/board.toml``) is the
RECONSTRUCTED layout of shared/rules-data.md 2.5, and every coordinate in it is invented. The
format is meant for typing in the real board: a hex grid size, the Hell Holes (class, centre,
rotation, and which of their six Gravity Well hexes are Hell Fire or Null), free-standing Hell
Fire and Null hexes, the corner start/finish hexes A-D, the initial hexes of every Buoy and
Hell Hound, and the hexside numbering of the Buoy Movement diagram.

Geometry: flat-topped hexes in columns; coordinates are ``[column, row]`` counted from 1 at the
top left; columns whose number is even sit half a hex lower ("even-down"; ``layout`` in the
file). Hexside directions are N, NE, SE, S, SW, NW; the file's ``hexsides`` list gives the
diagram's number for each (default 1 = N clockwise to 6 = NW, which makes 3-5 the directions
that leave the top edge, as 204 H b implies).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from simkit.core.errors import UserInputError
from simkit.core import hexgrid
from simkit.core.data import read_toml
from simkit.core.hexgrid import EVEN_LOWER
from simkit.core.files import save_figure

from ..rules import DATA

DIRECTIONS = ("N", "NE", "SE", "S", "SW", "NW")
# terrain codes of the per-hex array
PLAIN, HELL_FIRE, NULL, WELL, HOLE = range(5)
TERRAIN_NAMES = ("plain", "hell_fire", "null", "gravity_well", "hell_hole")
CLASSES = ("hell", "hell2", "hell3")
ROTATIONS = ("cw", "ccw")
MARKERS = ("easy", "free_floater", "astaroth", "belial", "lucifer", "hell_hound")


def neighbour(col: int, row: int, direction: str) -> tuple[int, int]:
    """The hex across ``direction`` (1-based, flat-topped, even columns half a hex lower)."""
    c, r = hexgrid.neighbour(col, row, DIRECTIONS.index(direction), EVEN_LOWER)
    return int(c), int(r)


def distance(a, b) -> int:
    """Hexes between two hexes (0 = same hex)."""
    return int(hexgrid.distance(a[0], a[1], b[0], b[1], EVEN_LOWER))


@dataclass
class HellHole:
    name: str
    cls: str
    center: tuple[int, int]
    rotation: str
    well: list = field(default_factory=list)          # the six well hexes, N..NW order
    well_terrain: dict = field(default_factory=dict)  # hex -> "hell_fire" | "null" | "plain"


@dataclass
class Board:
    """A loaded, validated board."""

    columns: int
    rows: int
    label: str
    source: str
    hexsides: dict                      # direction -> diagram number
    holes: list
    terrain: np.ndarray                 # int8[columns+1, rows+1] terrain codes (index 1-based)
    fire_class: np.ndarray              # int8: 0 none, 1 Hell, 2 Hell2, 3 Hell3
    hole_of: np.ndarray                 # int16: hole index + 1 for well and hole hexes, else 0
    corners: dict                       # letter -> hex
    finish: dict                        # start letter -> finish letter
    markers: dict                       # marker kind -> list of hexes

    def on_board(self, col, row) -> bool:
        return 1 <= col <= self.columns and 1 <= row <= self.rows

    def terrain_at(self, col, row) -> str:
        return TERRAIN_NAMES[self.terrain[col, row]]


def default_board_path() -> Path:
    return DATA / "board.toml"


def load_board(path: str | Path | None = None) -> Board:
    """Load and validate a board file; every problem found is listed in one error."""
    path = Path(path) if path else default_board_path()
    where = str(path)
    raw = read_toml(path)
    b = raw.get("board")
    if not isinstance(b, dict):
        raise UserInputError("needs a [board] table", where=where, field="board")
    problems: list[str] = []

    def need(key, kind):
        v = b.get(key)
        if not isinstance(v, kind):
            problems.append(f"board.{key} missing or not a {kind.__name__}")
        return v

    label, source = need("label", str), need("source", str)
    cols, rows = need("columns", int), need("rows", int)
    if not problems and not (1 <= cols <= 200 and 1 <= rows <= 200):
        problems.append("board.columns and board.rows must be 1-200")
    if problems:
        raise UserInputError("; ".join(problems), where=where)
    if label not in ("RULE-TEXT", "VERIFIED", "SOURCED", "RECONSTRUCTED"):
        problems.append(f"board.label {label!r} is not RULE-TEXT, VERIFIED, SOURCED or RECONSTRUCTED")
    layout = b.get("layout", "flat-topped, even columns down")
    if layout != "flat-topped, even columns down":
        problems.append(f"board.layout {layout!r}: only 'flat-topped, even columns down' is supported")
    numbers = b.get("hexsides", [1, 2, 3, 4, 5, 6])
    if not isinstance(numbers, list) or sorted(map(str, numbers)) != list("123456") \
            or not all(isinstance(n, int) for n in numbers):
        problems.append("board.hexsides must number N, NE, SE, S, SW, NW with 1-6 once each")
    hexsides = dict(zip(DIRECTIONS, numbers))

    terrain = np.zeros((cols + 1, rows + 1), dtype=np.int8)
    fire_class = np.zeros((cols + 1, rows + 1), dtype=np.int8)
    hole_of = np.zeros((cols + 1, rows + 1), dtype=np.int16)
    claimed: dict = {}

    def hexes(value, what):
        out = []
        if not isinstance(value, list):
            problems.append(f"{what}: expected a list of [column, row]")
            return out
        if len(value) == 2 and all(isinstance(v, int) for v in value):
            value = [value]
        for h in value:
            if (not isinstance(h, list) or len(h) != 2 or not all(isinstance(v, int) for v in h)):
                problems.append(f"{what}: {h!r} is not [column, row]")
            elif not (1 <= h[0] <= cols and 1 <= h[1] <= rows):
                problems.append(f"{what}: hex {h} is off the {cols}x{rows} board")
            else:
                out.append((h[0], h[1]))
        return out

    def claim(h, code, what, fclass=0, hole=0):
        if h in claimed and claimed[h] != what:
            problems.append(f"hex {list(h)} is both {claimed[h]} and {what}")
            return
        claimed[h] = what
        terrain[h] = code
        fire_class[h] = fclass
        hole_of[h] = hole

    holes = []
    for i, hb in enumerate(_listed(raw, "hole", problems)):
        if not isinstance(hb, dict):
            problems.append(f"hole[{i}]: expected a table ([[hole]])")
            continue
        what = f"hole[{i}] {hb.get('name', '')}".strip()
        cls, rot = hb.get("class"), hb.get("rotation")
        if cls not in CLASSES:
            problems.append(f"{what}: class must be one of {', '.join(CLASSES)}")
            continue
        if rot not in ROTATIONS:
            problems.append(f"{what}: rotation must be cw or ccw")
            continue
        centre = hexes(hb.get("center"), f"{what}.center")
        if not centre:
            continue
        hole = HellHole(hb.get("name", f"hole{i}"), cls, centre[0], rot)
        claim(hole.center, HOLE, what, 0, i + 1)
        side_terrain = {}
        for key, t in (("fire_sides", "hell_fire"), ("null_sides", "null")):
            for s in _listed(hb, key, problems, what):
                if s not in DIRECTIONS:
                    problems.append(f"{what}.{key}: {s!r} is not one of {', '.join(DIRECTIONS)}")
                elif s in side_terrain:
                    problems.append(f"{what}: well side {s} is both {side_terrain[s]} and {t}")
                else:
                    side_terrain[s] = t
        if cls != "hell" and len(side_terrain) != 6:  # 004 A NOTE
            problems.append(f"{what}: every well hex of a {cls} hole is Hell Fire (004 A NOTE)")
        for d in DIRECTIONS:
            h = neighbour(*hole.center, d)
            if not (1 <= h[0] <= cols and 1 <= h[1] <= rows):
                problems.append(f"{what}: well hex {list(h)} ({d}) is off the board")
                continue
            t = side_terrain.get(d, "plain")
            hole.well.append(h)
            hole.well_terrain[h] = t
            # a Null well hex is 'in the Null Zone only' (004 A); Hell Fire well hexes are both
            code = NULL if t == "null" else WELL
            claim(h, code, f"{what} well", CLASSES.index(cls) + 1 if t == "hell_fire" else 0,
                  0 if t == "null" else i + 1)
        holes.append(hole)

    zones = _table(raw, "zones", problems)
    for h in hexes(zones.get("hell_fire", []), "zones.hell_fire"):
        claim(h, HELL_FIRE, "Hell Fire zone", 1)
    for h in hexes(zones.get("null", []), "zones.null"):
        claim(h, NULL, "Null zone")

    corners_raw = _table(raw, "corners", problems)
    corners = {}
    for letter in "ABCD":
        hs = hexes(corners_raw.get(letter, []), f"corners.{letter}")
        if len(hs) != 1:
            problems.append(f"corners.{letter}: needs exactly one hex (211 A)")
        else:
            corners[letter] = hs[0]
    finish = {"A": "D", "D": "A", "B": "C", "C": "B"}   # 211 A: diagonally opposite

    markers = {}
    mraw = _table(raw, "markers", problems)
    for kind in MARKERS:
        markers[kind] = hexes(mraw.get(kind, []), f"markers.{kind}")
    for kind in mraw:
        if kind not in MARKERS:
            problems.append(f"markers.{kind}: unknown marker (known: {', '.join(MARKERS)})")
    for kind, cls, where_ in (("astaroth", "hell2", "top"), ("belial", "hell2", "bottom"),
                              ("lucifer", "hell3", "")):
        if len(markers[kind]) != 1:
            problems.append(f"markers.{kind}: needs exactly one hex (004 A)")
            continue
        h = markers[kind][0]
        owner = hole_of[h] - 1 if hole_of[h] else -1
        if owner < 0 or holes[owner].cls != cls or terrain[h] != WELL:
            problems.append(f"markers.{kind}: {list(h)} is not in the Gravity Well of a {cls} hole "
                            f"(204 I: Hell2/Hell3 Buoys orbit their hole)")
    big = [h for h in holes if h.cls != "hell"]
    if sorted(h.cls for h in big) != ["hell2", "hell2", "hell3"]:
        problems.append("needs two hell2 holes and one hell3 hole (004 A NOTE)")
    elif not problems:
        top, mid, bottom = sorted(big, key=lambda h: h.center[1])
        if (top.cls, mid.cls, bottom.cls) != ("hell2", "hell3", "hell2"):
            problems.append("the central holes must run Hell2, Hell3, Hell2 from the top (004 A NOTE)")
        for kind, hole in (("astaroth", top), ("belial", bottom), ("lucifer", mid)):
            if markers[kind] and markers[kind][0] not in hole.well:
                problems.append(f"markers.{kind}: must orbit the {kind} hole "
                                f"({'top' if hole is top else 'bottom' if hole is bottom else 'Hell3'}, 004 A)")
    if problems:
        raise UserInputError("; ".join(problems), where=where)
    return Board(cols, rows, label, source, hexsides, holes, terrain, fire_class, hole_of,
                 corners, finish, markers)


def _table(raw, key, problems):
    v = raw.get(key, {})
    if not isinstance(v, dict):
        problems.append(f"{key}: expected a table")
        return {}
    return v


def _listed(raw, key, problems, what=""):
    v = raw.get(key, [])
    if not isinstance(v, list):
        problems.append(f"{what + '.' if what else ''}{key}: expected a list")
        return []
    return v


# --- plotting ------------------------------------------------------------------------------

def _centre(col, row):
    x = 1.5 * (col - 1)
    y = -np.sqrt(3) * ((row - 1) + (0.5 if col % 2 == 0 else 0.0))
    return x, y


def plot_board(board: Board, path, occupancy=None) -> None:
    """Draw the board: terrain colours as 004 A describes them, markers, corners, rotation;
    ``occupancy`` (int per hex) shades where moving markers ended up."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.collections import PatchCollection
    from matplotlib.patches import RegularPolygon

    colours = {PLAIN: "#f4f1e8", HELL_FIRE: "#9fd3f0", NULL: "#9b6fc0", WELL: "#b8b8b8",
               HOLE: "#000000"}
    fire_col = {1: "#9fd3f0", 2: "#5fb0e0", 3: "#2f7fc0"}
    patches, faces = [], []
    for c in range(1, board.columns + 1):
        for r in range(1, board.rows + 1):
            patches.append(RegularPolygon(_centre(c, r), 6, radius=1.0, orientation=np.pi / 6))
            t = board.terrain[c, r]
            faces.append(fire_col[board.fire_class[c, r]] if board.fire_class[c, r] else colours[t])
    fig, ax = plt.subplots(figsize=(board.columns * 0.42, board.rows * 0.42))
    ax.add_collection(PatchCollection(patches, facecolors=faces, edgecolors="#777777",
                                      linewidths=0.3))
    if occupancy is not None and occupancy.sum() > 0:
        occ_patches, occ_vals = [], []
        for c in range(1, board.columns + 1):
            for r in range(1, board.rows + 1):
                if occupancy[c, r]:
                    occ_patches.append(RegularPolygon(_centre(c, r), 6, radius=1.0,
                                                      orientation=np.pi / 6))
                    occ_vals.append(occupancy[c, r] / occupancy.sum())
        pc = PatchCollection(occ_patches, cmap="Reds", alpha=0.75, edgecolors="none")
        pc.set_array(np.asarray(occ_vals))
        ax.add_collection(pc)
        fig.colorbar(pc, ax=ax, shrink=0.4, label="share of moving markers' final hexes")
    style = {"easy": ("^", "red"), "free_floater": ("^", "orange"), "astaroth": ("^", "yellow"),
             "belial": ("^", "yellow"), "lucifer": ("^", "white"), "hell_hound": ("*", "gold")}
    for kind, hs in board.markers.items():
        m, col = style[kind]
        for h in hs:
            x, y = _centre(*h)
            ax.plot(x, y, marker=m, color=col, markeredgecolor="black", markersize=9)
    for hole in board.holes:
        x, y = _centre(*hole.center)
        arrow = "\u21bb" if hole.rotation == "cw" else "\u21ba"
        ax.text(x, y + 1.9, f"{hole.cls} {arrow}",
                ha="center", va="bottom", fontsize=7, color="black")
    for letter, h in board.corners.items():
        x, y = _centre(*h)
        ax.text(x, y, letter, ha="center", va="center", fontsize=11, weight="bold",
                color="darkgreen")
    ax.set_aspect("equal")
    ax.autoscale_view()
    ax.axis("off")
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch
    legend = [Patch(color=fire_col[1], label="Hell Fire"), Patch(color=fire_col[2], label="Hell2 Fire"),
              Patch(color=fire_col[3], label="Hell3 Fire"), Patch(color=colours[NULL], label="Null"),
              Patch(color=colours[WELL], label="Gravity Well"), Patch(color="black", label="Hell Hole")]
    legend += [Line2D([], [], ls="", marker=m, color=c, markeredgecolor="black", label=k.replace("_", " "))
               for k, (m, c) in style.items() if k != "belial"]
    ax.legend(handles=legend, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=6, fontsize=7,
              frameon=False)
    title = f"Demon's Run board: {board.label}"
    if board.label == "RECONSTRUCTED":
        title += " (shared/rules-data.md 2.5; the real layout is unknown)"
    ax.set_title(title, fontsize=9)
    fig.tight_layout()
    save_figure(fig, path, dpi=110)
    plt.close(fig)
