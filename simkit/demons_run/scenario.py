"""Demon's Run races: scenario files, the runner simulation, readable race logs.

A race scenario (``scenarios/demons-run/*.toml``, schema in ``scenarios/README.md``) names the
board, 2-4 ships (a build, a starting corner, a pilot) and optional rule variants.
:func:`load_scenario` validates it (every error names the file and the field);
:class:`RaceSim` runs the compiled race (``engine.py``) for the runner and reports per ship the
win, finish, destruction and off-board rates (95% Wilson intervals) and the mean Victory
Points (95% t interval); :func:`playthrough` plays one seeded race with every roll recorded and
renders the log the golden test diffs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from collections import OrderedDict
from functools import lru_cache
from pathlib import Path

import numpy as np
import pandas as pd

from simkit.core import dice, eventlog, stats
from simkit.core.data import read_toml
from simkit.core.checks import get_field, known_fields, text
from simkit.core.errors import UserInputError
from simkit.core.runner import run

from . import engine as RK
from .pieces.board import DIRECTIONS, HOLE, NULL, WELL, Board, distance, load_board
from .builds import Build, _parse, cost, violations
from .pieces.layout import (BU_SIZE, RACING, RP_WHIP_GAIN, STATUS_NAMES, SV_SIZE, V_COL,
                     V_FACING, V_FIN_COL, V_FIN_FIELD, V_FIN_ROW, V_FORCED, V_PILOT, V_ROW,
                     V_STATUS, V_TARGET, VP_EASY, VP_HELL2, VP_HELL3, VP_MOVING, race_arrays)
from .pieces.markers import EASY, FREE, ORBIT_ONLY
from .policies import (NV, PARAM_NAMES, PARAM_SPACE, POLICIES, PP_PLAN_TOL, PP_SCREENS_HAZ,
                       by_velocity, param_vector, route_field)
from .reference import ship_from_build
from .rules import make_rules, rules_data
from ..core.extras import Extras

CORNERS = "ABCD"
LABELS = ("ORIGINAL", "RECONSTRUCTED", "RULE-TEXT", "SOURCED", "VERIFIED")


@dataclass
class ShipEntry:
    name: str
    corner: str
    build: Build
    pilot: str
    params: dict = field(default_factory=dict)
    facing: int | None = None


@dataclass
class RaceScenario:
    path: str
    name: str
    label: str
    source: str
    board_path: str | None
    ships: list
    variants: dict = field(default_factory=dict)

    @property
    def sides(self):
        return [s.name for s in self.ships]


def load_scenario(path, *, policies=None, variants=None) -> RaceScenario:
    """Read and validate a race scenario; ``policies`` {ship name: pilot} override the file."""
    return scenario_from_raw(read_toml(path), str(path), policies=policies, variants=variants)


def scenario_from_raw(raw: dict, where: str, *, policies=None, variants=None) -> RaceScenario:
    """Validate an already-parsed scenario table (``where`` names it in errors)."""
    if raw.get("game") != "demons-run":
        raise UserInputError("must be 'demons-run'", where=where, field="game")
    known_fields(raw, {"game", "name", "label", "source", "notes", "board", "variants", "ship"},
                 where)
    name = text(get_field(raw, "name", str, where, default=Path(where).stem), where, "name")
    label = get_field(raw, "label", str, where, default="ORIGINAL")
    if label not in LABELS:
        raise UserInputError(f"must be one of {', '.join(LABELS)}", where=where, field="label")
    source = get_field(raw, "source", str, where, default="")
    get_field(raw, "notes", str, where, default="")
    board = get_field(raw, "board", str, where, default="default")
    board_path = None
    if board != "default":
        bp = Path(board)
        if not bp.is_absolute():
            bp = Path(where).parent / bp
        if not bp.exists():
            raise UserInputError(f"board file {board!r} not found", where=where, field="board")
        board_path = str(bp)
    chosen = get_field(raw, "variants", dict, where, default={})
    for k, v in chosen.items():
        get_field(chosen, k, str, where, f"variants.{k}")
    chosen = {str(k): v for k, v in chosen.items()}
    chosen.update(variants or {})
    try:
        sel = rules_data().resolve(chosen)
    except UserInputError as e:
        raise UserInputError(e.detail, where=where, field="variants") from None
    rules = make_rules(sel)
    ships_raw = get_field(raw, "ship", list, where)
    if not 2 <= len(ships_raw) <= 4:
        raise UserInputError(f"needs 2-4 [[ship]] tables (100 A), got {len(ships_raw)}",
                             where=where, field="ship")
    ships, corners = [], set()
    for i, sr in enumerate(ships_raw):
        f = f"ship[{i}]"
        if not isinstance(sr, dict):
            raise UserInputError("must be a table", where=where, field=f)
        known_fields(sr, {"name", "corner", "build", "pilot", "params", "facing"}, where, f + ".")
        nm = text(get_field(sr, "name", str, where, f"{f}.name", default=f"ship{i + 1}"),
                  where, f"{f}.name")
        if nm in [s.name for s in ships]:
            raise UserInputError(f"ship name {nm!r} is used twice", where=where, field=f"{f}.name")
        corner = get_field(sr, "corner", str, where, f"{f}.corner").upper()
        if corner not in CORNERS or corner in corners:
            raise UserInputError("must be one of A, B, C, D, each used once (211 A)", where=where,
                                 field=f"{f}.corner")
        corners.add(corner)
        b = get_field(sr, "build", (str, dict), where, f"{f}.build")
        if isinstance(b, dict):
            build, problems, _ = _from_table(b)
        else:
            try:
                build, problems, _ = _parse(b, f"{f}.build")
            except UserInputError as e:
                raise UserInputError(e.detail, where=where, field=f"{f}.build") from None
        problems = problems + violations(build, rules)
        if problems:
            raise UserInputError(f"invalid build {build} (cost {cost(build, rules)}): "
                                 + "; ".join(problems), where=where, field=f"{f}.build")
        pilot = (policies or {}).get(nm) or get_field(sr, "pilot", str, where, f"{f}.pilot",
                                                      default="safe_runner")
        if pilot not in POLICIES:
            raise UserInputError(f"unknown pilot {pilot!r} (known: {', '.join(POLICIES)})",
                                 where=where, field=f"{f}.pilot")
        params = get_field(sr, "params", dict, where, f"{f}.params", default={})
        known_fields(params, PARAM_NAMES, where, f"{f}.params.")
        for k in params:
            v = get_field(params, k, (int, float), where, f"{f}.params.{k}")
            if not np.isfinite(v) or abs(v) > 1e6:
                raise UserInputError("must be a finite number", where=where, field=f"{f}.params.{k}")
            kind, lo, hi, _ = PARAM_SPACE[k]
            if not lo <= v <= hi or (kind == "int" and int(v) != v):
                raise UserInputError(f"must be {'an integer' if kind == 'int' else 'a number'} "
                                     f"in {lo}-{hi}", where=where, field=f"{f}.params.{k}")
        facing = get_field(sr, "facing", str, where, f"{f}.facing", default=None)
        if facing is not None:
            if facing.upper() not in DIRECTIONS:
                raise UserInputError(f"must be one of {', '.join(DIRECTIONS)}", where=where,
                                     field=f"{f}.facing")
            facing = DIRECTIONS.index(facing.upper())
        ships.append(ShipEntry(nm, corner, build, pilot, dict(params), facing))
    for k in (policies or {}):
        if k not in [s.name for s in ships]:
            raise UserInputError(f"no ship named {k!r} (ships: {', '.join(s.name for s in ships)})",
                                 field="--policy")
    sc = RaceScenario(where, name, label, source, board_path, ships, dict(sel))
    try:
        _board(board_path)
    except UserInputError as e:
        raise UserInputError(e.detail, where=where, field="board") from None
    return sc


def _from_table(b):
    from .builds import _from_pairs
    return _from_pairs([(str(k).lower(), v) for k, v in b.items()], []) + ("",)


@lru_cache(maxsize=4)
def _board(path):
    return load_board(path)


# --- route fields (cached per board and pilot) --------------------------------------------------

def field_goals(board: Board):
    """[(goal mask, vlo, vhi, label)]: the four Finish corners, each Easy Buoy, each hole's ring."""
    shape = board.terrain.shape
    out = []
    for letter in CORNERS:
        m = np.zeros(shape, np.bool_)
        m[board.corners[letter]] = True
        out.append((m, 1, 1, f"finish {letter}"))
    for h in board.markers["easy"]:
        m = np.zeros(shape, np.bool_)
        for c in range(1, shape[0]):
            for r in range(1, shape[1]):
                if distance((c, r), h) <= 1 and board.terrain[c, r] not in (NULL, HOLE):
                    m[c, r] = True
        out.append((m, 1, 3, f"easy buoy {h}"))
    for hole in board.holes:
        m = np.zeros(shape, np.bool_)
        for c in range(1, shape[0]):
            for r in range(1, shape[1]):
                if distance((c, r), hole.center) == 2 and board.terrain[c, r] not in (NULL, HOLE, WELL):
                    m[c, r] = True
        out.append((m, 1, 4, f"ring of {hole.name}"))
    return out


#: the route fields of the last pilots flown, most recent last: a policy search (simkit balance)
#: flies hundreds of pilot vectors, each ~10 MB of fields, so the cache is bounded
_FIELD_CACHE: "OrderedDict" = OrderedDict()
FIELD_CACHE_SIZE = 16


def _remember(key, value):
    _FIELD_CACHE[key] = value
    _FIELD_CACHE.move_to_end(key)
    while len(_FIELD_CACHE) > FIELD_CACHE_SIZE:
        _FIELD_CACHE.popitem(last=False)
    return value


def field_vector(pp) -> np.ndarray:
    """``pp`` with the parameters the route fields do not read set to 0 (``plan_tol`` says how
    hard the plan search works, not what it prices): pilots that differ only in those share
    their fields, in memory and on disk."""
    v = np.array(pp, np.float64)
    v[PP_PLAN_TOL] = 0.0
    return v


def route_fields(board_path, variants_key, pp: np.ndarray, screens: int = 0):
    """(fields float32[nf, cols+1, rows+1, 6, NV], fin_from float64[nf, 4]) for one pilot
    flying a ship that meets Hell Fire behind ``screens``."""
    pp = field_vector(pp)
    key = (board_path, variants_key, tuple(np.round(pp, 9)), int(screens))
    if key in _FIELD_CACHE:
        _FIELD_CACHE.move_to_end(key)
        return _FIELD_CACHE[key]
    disk = _field_file(board_path, variants_key, pp, screens)
    if disk is not None and disk.exists():
        try:
            with np.load(disk) as z:
                return _remember(key, (z["fields"], z["fin_from"]))
        except (OSError, ValueError, KeyError):
            pass
    board = _board(board_path)
    rules = make_rules(dict(variants_key))
    ra = race_arrays(rules, board)
    goals = field_goals(board)
    fields = np.zeros((len(goals),) + ra.board.terrain.shape + (6, NV), np.float32)
    for i, (m, lo, hi, _) in enumerate(goals):
        fields[i] = route_field(m, lo, hi, NV - 1, i < 4, ra.board, ra.tables, pp, int(screens))
    fin_from = np.zeros((len(goals), len(goals)), np.float64)
    for i, (m, lo, hi, _) in enumerate(goals):
        for j in range(4):
            fin_from[i, j] = float(fields[j][m][:, :, lo:hi + 1].min())
    _remember(key, (fields, fin_from))
    # only the named pilots' fields are kept on disk: a policy search flies hundreds of other
    # pilot vectors, ~10 MB of fields each, that no later run is likely to ask for again
    if disk is not None and _named_pilot(pp):
        try:
            disk.parent.mkdir(parents=True, exist_ok=True)
            tmp = disk.with_suffix(".tmp.npz")
            np.savez(tmp, fields=fields, fin_from=fin_from)
            tmp.replace(disk)
        except OSError:
            pass
    return fields, fin_from


_REACH_CACHE: "OrderedDict" = OrderedDict()


def reach_tables(board_path, variants_key, pp, screens, whip_gain):
    """``engine.reach_table`` of :func:`route_fields` (the allocation's reach bound reads it
    every setting it weighs; computed once per board and pilot, kept as the fields are)."""
    pp = field_vector(pp)
    key = (board_path, variants_key, tuple(np.round(pp, 9)), int(screens), int(whip_gain))
    if key in _REACH_CACHE:
        _REACH_CACHE.move_to_end(key)
        return _REACH_CACHE[key]
    fields, _ = route_fields(board_path, variants_key, pp, screens)
    _REACH_CACHE[key] = RK.reach_table(fields, int(whip_gain))
    while len(_REACH_CACHE) > FIELD_CACHE_SIZE:
        _REACH_CACHE.popitem(last=False)
    return _REACH_CACHE[key]


FIELD_VERSION = "5"   # bump when route_field or its costs change


def _named_pilot(pp) -> bool:
    from .policies import PARAMS, param_vector

    return any(np.array_equal(np.asarray(pp, np.float64), param_vector(name)) for name in PARAMS)


def _field_file(board_path, variants_key, pp, screens=0):
    """Where the fields of (board, variants, pilot) are kept between runs (they take seconds to
    build and never change for the same inputs): ~/.cache/simkit/demons-run-fields/<hash>.npz,
    or $SIMKIT_FIELD_CACHE; None (no disk cache) if that is set to an empty string."""
    import hashlib
    import os
    root = os.environ.get("SIMKIT_FIELD_CACHE", str(Path.home() / ".cache/simkit/demons-run-fields"))
    if not root:
        return None
    from . import policies
    h = hashlib.sha1()
    board_file = Path(board_path) if board_path else (Path(__file__).parent / "data/board.toml")
    for part in (FIELD_VERSION, str(int(screens)), board_file.read_bytes(),
                 repr(variants_key).encode(),
                 np.asarray(pp, np.float64).tobytes(), Path(policies.__file__).read_bytes(),
                 *(p.read_bytes() for p in sorted((Path(__file__).parent / "data").glob("*.toml")))):
        h.update(part if isinstance(part, bytes) else part.encode())
    return Path(root) / f"{h.hexdigest()[:20]}.npz"


# Races set up with the same board, variants and pilot slots share these arrays (read only:
# no kernel writes to them). A build search sets up hundreds of races whose ships differ only in
# their Levels; each copy of a four-ship race's arrays is ~57 MB and ~0.4 s of stacking and
# Python loops, so a quick report's build search of 116 set-ups took 2.6 GB and 17 s of its 20.
_SLOT_CACHE: "OrderedDict" = OrderedDict()
SLOT_CACHE_SIZE = 8


def _slot_arrays(board_path, variants_key, slot_keys, whip_gain):
    """(fields, fields_v, fin_from, reach) of a race whose pilot slots are ``slot_keys``
    (field vector, Screens) in slot order: :func:`route_fields` and :func:`reach_tables`
    stacked, and the fields Velocity first (:func:`by_velocity`)."""
    key = (board_path, variants_key, slot_keys, whip_gain)
    if key in _SLOT_CACHE:
        _SLOT_CACHE.move_to_end(key)
        return _SLOT_CACHE[key]
    fl, ff, rl = [], [], []
    for fv, scr in slot_keys:
        pv = np.asarray(fv, np.float64)
        f, fin = route_fields(board_path, variants_key, pv, scr)
        fl.append(f)
        ff.append(fin)
        rl.append(reach_tables(board_path, variants_key, pv, scr, whip_gain))
    fields = np.ascontiguousarray(np.stack(fl))
    out = (fields, by_velocity(fields), np.ascontiguousarray(np.stack(ff)),
           np.ascontiguousarray(np.stack(rl)))
    _SLOT_CACHE[key] = out
    while len(_SLOT_CACHE) > SLOT_CACHE_SIZE:
        _SLOT_CACHE.popitem(last=False)
    return out


@lru_cache(maxsize=8)
def _move_ends(vturns, max_limit, max_per_hex):
    """``engine.move_ends``, once per rules (a pure-Python enumeration of ~50 ms)."""
    return RK.move_ends(np.asarray(vturns, np.int64), max_limit, max_per_hex)


@lru_cache(maxsize=4)
def _field_labels(board_path):
    return [g[3] for g in field_goals(_board(board_path))]


# --- the runner simulation ----------------------------------------------------------------------

class RaceSim:
    """Races of one scenario for :func:`simkit.core.runner.run`."""

    name = "demons-run races"

    def __init__(self, sc: RaceScenario, pilot_vectors=None):
        self.sc = sc
        self.rules = make_rules(sc.variants)
        self.board = _board(sc.board_path)
        self.ra = race_arrays(self.rules, self.board)
        self.vkey = tuple(sorted(sc.variants.items()))
        ns = len(sc.ships)
        pvs = pilot_vectors or [param_vector(s.pilot, s.params) for s in sc.ships]
        self.pilots = np.asarray(pvs, np.float64)
        # one field set per distinct pilot vector and the Screens it raises near Hell Fire
        slots: dict = {}
        self.slot = []
        for pv, entry in zip(self.pilots, sc.ships):
            scr = int(round(entry.build.screens * pv[PP_SCREENS_HAZ]))
            k = (tuple(field_vector(pv)), scr)
            if k not in slots:
                slots[k] = len(slots)
            self.slot.append(slots[k])
        (self.fields, self.fields_v, self.fin_from,
         self.reach) = _slot_arrays(sc.board_path, self.vkey, tuple(slots),
                                    int(self.ra.tables.rp[RP_WHIP_GAIN]))
        self.ends = _move_ends(tuple(int(v) for v in self.ra.tables.vturns[:NV]),
                               int(self.ra.tables.mn_turn.max()), int(self.ra.tables.mn_hex.max()))
        b = self.board
        self.field_labels = _field_labels(sc.board_path)
        ne = len(b.markers["easy"])
        bu, easy_field = [], []
        for j, h in enumerate(b.markers["easy"]):
            bu.append((h[0], h[1], EASY, VP_EASY, 0))
            easy_field.append(4 + j)
        for kind, mk, vp in (("free_floater", FREE, VP_MOVING), ("astaroth", ORBIT_ONLY, VP_HELL2),
                             ("belial", ORBIT_ONLY, VP_HELL2), ("lucifer", ORBIT_ONLY, VP_HELL3)):
            for h in b.markers[kind]:
                bu.append((h[0], h[1], mk, vp, 0))
                easy_field.append(-1)
        self.buoy_labels = ([f"easy {h}" for h in b.markers["easy"]]
                            + [f"{k} {h}" for k in ("free_floater", "astaroth", "belial", "lucifer")
                               for h in b.markers[k]])
        self.bu0 = np.asarray(bu, np.int64).reshape(-1, BU_SIZE)
        self.easy_field = np.asarray(easy_field, np.int64)
        self.ring_field = np.arange(4 + ne, 4 + ne + len(b.holes), dtype=np.int64)
        self.hd0 = np.asarray([(h[0], h[1], 1) for h in b.markers["hell_hound"]],
                              np.int64).reshape(-1, 3)
        self.ships0 = np.asarray([ship_from_build(s.build) for s in sc.ships], np.int64)
        sv = np.zeros((ns, SV_SIZE), np.int64)
        finish = {"A": "D", "D": "A", "B": "C", "C": "B"}
        for i, s in enumerate(sc.ships):
            c, r = b.corners[s.corner]
            fc = finish[s.corner]
            fi = CORNERS.index(fc)
            sv[i, V_COL], sv[i, V_ROW] = c, r
            sv[i, V_FIN_COL], sv[i, V_FIN_ROW] = b.corners[fc]
            sv[i, V_FIN_FIELD] = fi
            sv[i, V_TARGET] = fi
            sv[i, V_FORCED] = -1
            sv[i, V_PILOT] = self.slot[i]
            sv[i, V_STATUS] = RACING
            if s.facing is None:   # 204 A: any hexside; the pilot takes the best for its route
                # over every Velocity: at the start Velocity alone a corner hex can be a dead end
                # in every facing (cost INF), and argmin then picked facing 0, off the board
                sv[i, V_FACING] = int(np.argmin(self.fields[self.slot[i], fi, c, r].min(axis=1)))
            else:
                sv[i, V_FACING] = s.facing
        self.sv0 = sv
        self.RT = self.ra.tables
        self.BT = self.ra.board
        self.fire_sum = RK.fire_sums(self.BT.fire_class)
        self.n_stats = RK.N_GLOBAL + ns * RK.N_SHIP_STATS

    def args(self):
        """The arguments of ``engine.race_stats`` after its (key, first, n)."""
        return (RK.Start(self.ships0, self.sv0, self.bu0, self.hd0, self.pilots),
                RK.Fields(self.fields, self.easy_field, self.ring_field, self.reach,
                          self.fin_from, *self.ends, self.fields_v, self.fire_sum), self.RT,
                self.BT)

    def chunk(self, key, first, n):
        return RK.race_stats(np.uint64(key), first, n, *self.args())

    def summarise(self, totals, n_trials):
        tot = np.asarray(totals)
        n = n_trials
        rows = []
        turns, t_lo, t_hi = stats.mean_ci(tot[RK.G_TURNS], tot[RK.G_TURNS2], n)
        for i, s in enumerate(self.sc.ships):
            o = RK.N_GLOBAL + i * RK.N_SHIP_STATS
            g = lambda k: int(tot[o + k])  # noqa: E731
            row = {"scenario": self.sc.name, "side": s.name, "policy": s.pilot,
                   "corner": s.corner, "build": str(s.build), "trials": n, "wins": g(RK.S_WINS)}
            for key, k in (("win", RK.S_WINS), ("finish", RK.S_FINISHED),
                           ("destroyed", RK.S_DESTROYED), ("off_board", RK.S_OFF)):
                lo, hi = stats.rate_ci(g(k), n)
                name = "win_rate" if key == "win" else f"{key}_rate"
                row[name] = g(k) / n
                row[f"{key}_lo" if key == "win" else f"{name}_lo"] = float(lo)
                row[f"{key}_hi" if key == "win" else f"{name}_hi"] = float(hi)
            m, lo, hi = stats.mean_ci(g(RK.S_VP), g(RK.S_VP2), n)
            row.update(mean_vp=float(m), mean_vp_lo=float(lo), mean_vp_hi=float(hi))
            row["mean_buoys"] = g(RK.S_BUOYS) / n
            for p in range(4):
                row[f"place_{p + 1}"] = g(RK.S_PLACE1 + p) / n
            fin = g(RK.S_FINISHED)
            row["mean_finish_turn"] = g(RK.S_FIN_TURN) / fin if fin else float("nan")
            row["no_winner_rate"] = int(tot[RK.G_NO_WINNER]) / n
            row.update(mean_turns=float(turns), turns_lo=float(t_lo), turns_hi=float(t_hi))
            for j, cname in enumerate(RK.COUNT_NAMES):
                m, lo, hi = stats.mean_ci(g(RK.S_COUNT0 + j), g(RK.S_COUNT0 + RK.N_COUNTS + j), n)
                # counts are never negative: the t interval is cut at 0
                row.update({cname: float(m), f"{cname}_lo": max(0.0, float(lo)),
                            f"{cname}_hi": float(hi)})
            rows.append(row)
        f = pd.DataFrame(rows)
        f.attrs["extra"] = Extras({"What each side did, per race (95% intervals: Wilson for rates, t for "
                            "means)": mechanics_table(f)})
        f.attrs["columns"] = ["pairing", "side", "policy", "corner", "trials", "wins", "win_rate",
                              "win_lo", "win_hi",
                              "finish_rate", "destroyed_rate", "off_board_rate", "mean_vp",
                              "mean_buoys", "mean_turns"]
        return f


MECHANICS = (("finish", "finish_rate"), ("destroyed", "destroyed_rate"),
             ("off_board", "off_board_rate")) + tuple((c, c) for c in RK.COUNT_NAMES)


def mechanics_table(frame: pd.DataFrame) -> pd.DataFrame:
    """Tidy per-side table of what the ships did (from a :class:`RaceSim` summary frame): one
    row per side and measure -- finish, destroyed and off-board rates, then per race the
    Gravity Whips, Hell Fire hexes entered, Laser/Scrambler shots fired and hits, and Buoys
    recovered by class -- with its 95% interval (Wilson for the rates, t for the means)."""
    rows = []
    for _, r in frame.iterrows():
        for measure, col in MECHANICS:
            lo = r[f"{col}_lo"]
            hi = r[f"{col}_hi"]
            rows.append({"scenario": r["scenario"], "side": r["side"], "policy": r["policy"],
                         "measure": measure, "kind": "rate" if col.endswith("_rate") else "per race",
                         "value": float(r[col]), "lo": float(lo), "hi": float(hi),
                         "trials": int(r["trials"])})
    return pd.DataFrame(rows)


def race_mechanics(path, *, trials=2_000, seed=2026, policies=None, variants=None, **run_opts):
    """:func:`mechanics_table` of a scenario's races (the same races as
    ``SCENARIO.table`` with the same seed)."""
    sim = RaceSim(load_scenario(path, policies=policies, variants=variants))
    return mechanics_table(run(sim, trials, seed, **run_opts).frame)


# --- one race, logged ------------------------------------------------------------------------

def play_one(sim: RaceSim, seed=2026, trial=0, *, script=None, cap=20_000):
    """Play one race (trial ``trial`` of ``seed``, or a dice ``script``); return
    (log rows, result rows, turns, rolls)."""
    st = dice.new_state()
    rolls = np.zeros(200_000, np.int64)
    if script is None:
        dice.seed_trial(st, dice.stream_key(seed), trial)
        dice.set_recording(st)
        scr = rolls
    else:
        dice.set_scripted(st)
        scr = dice.as_script(script)
    log = np.zeros((cap, RK.LOG_W), np.int64)
    logn = np.zeros(1, np.int64)
    res = np.zeros((len(sim.sc.ships), RK.RES_W), np.int64)
    turns = RK.play_race(st, scr, *sim.args(), RK.Log(log, logn), res)
    where = f"{sim.sc.name}, trial {trial} of seed {seed}"
    made = eventlog.rolls_made(st, rolls, where=where) if script is None else scr
    return eventlog.EventLog(log, logn).table(where=where), res, int(turns), made


def playthrough(path_or_scenario, seed=2026, trial=0):
    sc = path_or_scenario if isinstance(path_or_scenario, RaceScenario) else load_scenario(path_or_scenario)
    sim = RaceSim(sc)
    log, res, turns, rolls = play_one(sim, seed, trial)
    lines = render(sim, log, res, turns)
    info = {"turns": turns, "rolls": len(rolls),
            "winner": next((sc.ships[i].name for i in range(len(sc.ships)) if res[i, 5]), None),
            "vp": {s.name: int(res[i, 1]) for i, s in enumerate(sc.ships)}}
    return lines, info


CRISIS_TEXT = None


def render(sim: RaceSim, log, res, turns) -> list[str]:
    sc = sim.sc
    names = [s.name for s in sc.ships]
    keys = sim.rules.t("system_crisis")["key"]
    out = [f"# {sc.name} ({sc.label}); board {sim.board.label}; "
           + "; ".join(f"{s.name}={s.pilot} at {s.corner} [{s.build}]" for s in sc.ships)]
    dn = DIRECTIONS
    for ev in log:
        t, _phase, s, kind, a, b, c, d, e = (int(x) for x in ev[:9])
        who = names[s] if 0 <= s < len(names) else ""
        T = f"T{t:02d}"
        if kind == RK.EV_TURN:
            order = [names[x] for x in (a, b, c, d) if x >= 0]
            out.append(f"{T} initiative: {' > '.join(order)}")
        elif kind == RK.EV_ALLOC:
            if e == -1:
                out.append(f"{T} alloc   {who}: Systems Failure, nothing allocated, PI -1")
            elif e == -2:
                out.append(f"{T} alloc   {who}: no Fuel, nothing allocated")
            else:
                me = f"A{a}" if a > 0 else (f"D{-a}" if a < 0 else "-")
                out.append(f"{T} alloc   {who}: ME {me}, screens {b}, laser {c}, tractor {d}, scrambler {e}")
        elif kind == RK.EV_FIRE:
            out.append(f"{T} laser   {who} -> {names[a]} at range {b}: "
                       + (f"hit, SI -{d}" if c else "miss"))
        elif kind == RK.EV_SCRAMBLE:
            out.append(f"{T} scramb  {who} -> {names[a]} at range {b}: "
                       + (f"{d} crisis roll(s)" if c else "no effect"))
        elif kind == RK.EV_BUOY_SHOT:
            out.append(f"{T} laser   {who} -> buoy {sim.buoy_labels[a]} at range {b}: "
                       + ("destroyed" if d else ("hit, undamaged" if c else "miss")))
        elif kind == RK.EV_HOUND_SHOT:
            out.append(f"{T} laser   {who} -> hell hound {a + 1} at range {b}: "
                       + ("destroyed" if d else ("hit, undamaged" if c else "miss")))
        elif kind == RK.EV_NULL:
            out.append(f"{T} null    {who} enters Null at {a},{b}: " + ("LOST" if c else "passes"))
        elif kind == RK.EV_FIRE_HEX:
            out.append(f"{T} fire    {who} enters Hell Fire class {c} at {a},{b}: {d} crisis roll(s)")
        elif kind == RK.EV_HOLE:
            out.append(f"{T} hole    {who} captured by the Hell Hole at {a},{b}: SI -{c}")
        elif kind == RK.EV_HOLE_PASS:
            out.append(f"{T} hole    {who} passes through the Hell Hole at {a},{b}")
        elif kind == RK.EV_HOUND:
            out.append(f"{T} hound   hell hound {a + 1} detonates at {b} hexes from {who}: SI -{c}")
        elif kind == RK.EV_HOUND_F:
            out.append(f"{T} step F  hell hound {a + 1} moves to {d},{e} and detonates at {b} hexes "
                       f"from {who}: SI -{c}")
        elif kind == RK.EV_RECOVER:
            out.append(f"{T} tractor {who} at buoy {sim.buoy_labels[a]} ({c} hexes, modifier {d}): "
                       + ("RECOVERED" if b else "fails"))
        elif kind == RK.EV_WHIP:
            out.append(f"{T} whip    {who} whipped {a} Well hexes to {b},{c}")
        elif kind == RK.EV_MOVE:
            if a <= -1000:
                out.append(f"{T} move    {who}: illegal plan {a + 1000}")
            else:
                out.append(f"{T} move    {who} -> {a},{b} facing {dn[c]}, velocity {d}, {e} turning movement(s)")
        elif kind == RK.EV_DESTROYED:
            out.append(f"{T} DESTROYED {who} at {a},{b}")
        elif kind == RK.EV_FINISH:
            out.append(f"{T} FINISH  {who} finishes, place {a}")
        elif kind == RK.EV_OFF:
            out.append(f"{T} OFF     {who} leaves the board at {a},{b}: disqualified")
        elif kind == RK.EV_NULL_ESC:
            out.append(f"{T} null    {who} " + (f"escapes Null facing {dn[b]}" if a else "stays lost in Null"))
        elif kind == RK.EV_HOLE_ESC:
            out.append(f"{T} hole    {who} " + (f"escapes the Hell Hole at velocity {b}" if a
                                                else f"fails to escape the Hell Hole: SI -{b}"))
        elif kind == RK.EV_CRISIS:
            out.append(f"{T} crisis  {who}: System Crisis {a} ({keys[a - 2]}), "
                       + ("next Turn" if b else "this Turn"))
        elif kind == RK.EV_LOOSE:
            out.append(f"{T} loose   {who} casts loose buoy {sim.buoy_labels[a]} at {b},{c}")
        elif kind == RK.EV_STEP_G:
            out.append(f"{T} step G  {who} loses {a} Fuel (now {b})")
        elif kind == RK.EV_END:
            pass
    out.append(f"END after turn {turns}: "
               + ", ".join(f"{names[i]} {STATUS_NAMES[res[i, 0]]} {res[i, 1]} VP"
                           + (f" (place {res[i, 2]})" if res[i, 2] else "")
                           + f", {res[i, 3]} buoys" for i in range(len(names))))
    win = [names[i] for i in range(len(names)) if res[i, 5]]
    out.append(f"WINNER: {win[0] if win else 'nobody (tie)'}")
    return out


# --- a pilot in a scripted position (tests, explaining choices) ---------------------------------

TOKEN_TEXT = {0: "F", 1: "L", 2: "R"}


def plan_text(tokens) -> str:
    out = []
    for t in tokens:
        t = int(t)
        out.append(TOKEN_TEXT.get(t) or (f"W{t - 10}" if t < 100 else f"T{t - 100}"))
    return "".join(out)


def position(sim: RaceSim, **ships):
    """State arrays for a scripted position: ``ships`` maps a ship name to a dict of any of
    pos=(col, row), facing (0-5), velocity, fuel, si, status, alloc=dict(screens=, tractor=,
    laser=, scrambler=). Returns (ships, sv, bu, hd) copies to pass to :func:`decide`."""
    from .pieces.layout import A_LASER, A_SCR, A_SCREENS, A_TRACTOR, V_VEL
    from .rules import FUEL, SI
    sh, sv, bu, hd = sim.ships0.copy(), sim.sv0.copy(), sim.bu0.copy(), sim.hd0.copy()
    for name, st in ships.items():
        i = sim.sc.sides.index(name)
        if "pos" in st:
            sv[i, V_COL], sv[i, V_ROW] = st["pos"]
        for key, col in (("facing", V_FACING), ("velocity", V_VEL), ("status", V_STATUS)):
            if key in st:
                sv[i, col] = st[key]
        if "fuel" in st:
            sh[i, FUEL] = st["fuel"]
        if "si" in st:
            sh[i, SI] = st["si"]
        for key, col in (("screens", A_SCREENS), ("tractor", A_TRACTOR), ("laser", A_LASER),
                         ("scrambler", A_SCR)):
            if key in st.get("alloc", {}):
                sv[i, col] = st["alloc"][key]
    return sh, sv, bu, hd


def decide(sim: RaceSim, ship: str, state, *, turn=1):
    """The pilot of ``ship`` allocates in ``state`` (from :func:`position`) and plans its move.
    Returns dict(me, velocity, screens, laser, scrambler, tractor, target, plan, fuel)."""
    from .pieces.layout import A_LASER, A_ME, A_SCR, A_SCREENS, A_TRACTOR, V_VEL
    from .policies import (MAX_PLAN, PlanSpec, add_recovery_attempts, best_plan, plan_scratch,
                           plan_view)
    from .rules import FUEL, MN, PI
    sh, sv, bu, hd = (a.copy() for a in state)
    s = sim.sc.sides.index(ship)
    st = dice.new_state()
    dice.seed_trial(st, dice.stream_key(0), 0)
    plan = np.zeros(MAX_PLAN, np.int64)
    S = RK.race_state(sh, sv, bu, hd)
    _, FD, RT, BT = sim.args()
    P = RK.Plans(plan, np.zeros(MAX_PLAN, np.int64),
                 np.full((len(sh), RK.K_PLAN + MAX_PLAN), -1, np.int64), plan_scratch(len(hd)))
    RK.allocate(st, dice.NO_SCRIPT, RK.Mover(True, s, turn), S, FD, sim.pilots[s], P, RT, BT,
                RK.Log(np.zeros((0, RK.LOG_W), np.int64), np.zeros(1, np.int64)))
    V = int(sv[s, V_VEL])
    ra = sim.ra
    limit = min(ra.mn_turn[sh[s, MN]], ra.vturns[min(V, len(ra.vturns) - 1)], int(sh[s, FUEL]))
    tb = int(sv[s, V_FORCED])
    q = PlanSpec(s, V, limit, ra.mn_hex[sh[s, MN]], sv[s, A_TRACTOR],
                 min(sv[s, A_SCREENS], sh[s, 5]), ra.pi_mod[sh[s, PI]], tb, sh[s, FUEL], 1e30)
    W = plan_view(S, BT, RT)
    c, n = best_plan(q, W, sim.fields_v[sv[s, V_PILOT], sv[s, V_TARGET]], plan, sim.pilots[s],
                     plan_scratch(len(hd)))
    plan2 = np.zeros(MAX_PLAN, np.int64)
    m = add_recovery_attempts(q, plan, n, plan2, W, sim.pilots[s])
    return {"me": int(sv[s, A_ME]), "velocity": V, "screens": int(sv[s, A_SCREENS]),
            "laser": int(sv[s, A_LASER]), "scrambler": int(sv[s, A_SCR]),
            "tractor": int(sv[s, A_TRACTOR]), "target": sim.field_labels[sv[s, V_TARGET]],
            "target_buoy": tb, "plan": plan_text(plan2[:m]), "fuel": int(sh[s, FUEL]),
            "cost": float(c)}
