"""Starfire scenarios as TOML (schema: ``scenarios/README.md``), validated into kernel arrays.

Every error names the file and the field (``sides.terran.ships[1].hex``) and is raised as
:class:`~simkit.core.errors.UserInputError`, so the CLI prints one line and exits 2. Nothing in a
scenario file is executed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..core.errors import UserInputError
from ..core.checks import get_field, known_fields
from ..core.data import read_toml
from ..core import dice
from .pieces.hexmap import distance, hex_label, parse_facing, parse_hex
from .pieces.sheet import hold_run_ends, parse_sheet
from .policies import N_PARAMS, POLICIES, SCRIPTED, SPACES, default_params
from .rules import CODE, DATALINK, FAMILIES, rules_data

MAX_SYS = 64
OBJECT_KINDS = {"star": 0, "planet": 1, "warp_point": 2}
OBJECTIVES = {"destroy": 0, "scan_and_exit": 1, "survive": 2}
OPTIONS = ("damage_control", "planets_block_fire", "simultaneous_movement",
           "restricted_field_of_fire", "star_approach", "unbounded_map")
LABELS = ("RECONSTRUCTED", "ORIGINAL", "RULE-TEXT", "SOURCED", "VERIFIED")


@dataclass
class Ship:
    name: str
    side: int
    sheet: object
    col: int
    row: int
    facing: int
    arrives: int
    datalink: int
    base: bool
    size: int
    turn_mode: int
    progress: int = 0
    escort: bool = False
    moves: list = field(default_factory=list)   # per turn: tokens per movement point


@dataclass
class Scenario:
    path: str
    name: str
    label: str
    source: str
    turns: int
    initiative: int                       # -1: roll each turn; else the side that always has it
    columns: int
    rows: int
    sides: list                           # side names in file order
    side_policy: list                     # policy name per side
    side_params: list                     # parameter vector per side
    objective: list
    holds_fire: list                      # 1: may fire only a full turn after being fired upon
    exit_object: list                     # object index of the warp point to leave by, or -1
    scan_targets: list                    # per side: list of (kind, index) 0 object / 1 ship
    ships: list
    objects: list                         # (kind, name, col, row)
    options: dict
    variants: dict = field(default_factory=dict)

    def ship_index(self, name):
        for i, s in enumerate(self.ships):
            if s.name == name:
                return i
        return -1


def load_scenario(path: str | Path, *, policies: dict | None = None,
                  variants: dict | None = None) -> Scenario:
    """Read and validate a Starfire scenario; ``policies`` overrides side policies by name."""
    path = Path(path)
    where = str(path)
    raw = read_toml(path)
    known_fields(raw, {"game", "name", "label", "source", "notes", "turns", "initiative", "map",
                 "objects", "sides", "options", "variants"}, where, "")
    if raw.get("game") != "starfire":
        raise UserInputError(f"expected game = \"starfire\", got {raw.get('game')!r}",
                             where=where, field="game")
    name = str(raw.get("name", path.stem))
    label = raw.get("label", "")
    if label not in LABELS:
        raise UserInputError(f"must be one of {', '.join(LABELS)}", where=where, field="label")
    source = raw.get("source")
    if not isinstance(source, str) or not source.strip():
        raise UserInputError("every scenario must say where it comes from", where=where,
                             field="source")
    turns = get_field(raw, "turns", int, where, "turns")
    if not 1 <= turns <= 500:
        raise UserInputError("must be 1-500", where=where, field="turns")
    mp = raw.get("map", {})
    if not isinstance(mp, dict):
        raise UserInputError("must be a table", where=where, field="map")
    known_fields(mp, {"columns", "rows"}, where, "map.")
    columns = mp.get("columns", 30)
    rows = mp.get("rows", 24)
    if not (isinstance(columns, int) and isinstance(rows, int) and 2 <= columns <= 99
            and 2 <= rows <= 99):
        raise UserInputError("columns and rows must be whole numbers 2-99", where=where,
                             field="map")
    opts = raw.get("options", {})
    if not isinstance(opts, dict):
        raise UserInputError("must be a table", where=where, field="options")
    known_fields(opts, set(OPTIONS), where, "options.")
    for k, v in opts.items():
        if not isinstance(v, bool):
            raise UserInputError("must be true or false", where=where, field=f"options.{k}")
    options = {k: bool(opts.get(k, False)) for k in OPTIONS}
    var = dict(raw.get("variants", {}))
    var.update(variants or {})
    rules_data().resolve(var, where=where)

    objects = []
    names = {}
    for i, o in enumerate(raw.get("objects", [])):
        f = f"objects[{i}]"
        if not isinstance(o, dict):
            raise UserInputError("must be a table", where=where, field=f)
        known_fields(o, {"kind", "name", "hex"}, where, f + ".")
        kind = _name(o.get("kind"))
        if kind not in OBJECT_KINDS:
            raise UserInputError(f"kind must be one of {', '.join(OBJECT_KINDS)}", where=where,
                                 field=f + ".kind")
        oname = str(o.get("name", f"{kind}{i}"))
        c, r = parse_hex(get_field(o, "hex", str, where, f + ".hex"), where=where,
                         field=f + ".hex")
        _on_map(c, r, columns, rows, options, where, f + ".hex")
        names[oname] = ("object", len(objects))
        objects.append((OBJECT_KINDS[kind], oname, c, r))

    sides_raw = raw.get("sides")
    if not isinstance(sides_raw, dict) or not 2 <= len(sides_raw) <= 3:
        raise UserInputError("two or three sides are needed", where=where, field="sides")
    side_names = list(sides_raw)
    ships: list[Ship] = []
    side_policy, side_params, objective, holds, exit_obj, scan_raw = [], [], [], [], [], []
    hulls = rules_data().table("hulls")["rows"]
    for si, sname in enumerate(side_names):
        sd = sides_raw[sname]
        f = f"sides.{sname}"
        if not isinstance(sd, dict):
            raise UserInputError("must be a table", where=where, field=f)
        known_fields(sd, {"policy", "params", "objective", "scan", "exit", "holds_fire", "ships"},
                     where, f + ".")
        pol = _name((policies or {}).get(sname, sd.get("policy", "closer")))
        if pol not in POLICIES and not (pol in SCRIPTED and sname not in (policies or {})):
            raise UserInputError(f"unknown policy {pol!r} (known: {', '.join(POLICIES)})",
                                 where=where if sname not in (policies or {}) else "--policy",
                                 field=f + ".policy")
        params = default_params(pol)
        if not isinstance(sd.get("params", {}), dict):
            raise UserInputError("must be a table of name = number", where=where,
                                 field=f + ".params")
        # the file's parameters belong to the file's policy: a side given another policy (a
        # pairing, a balance search) starts from that policy's defaults
        overridden = _name(sd.get("policy", "closer")) != pol
        for k, v in ({} if overridden else (sd.get("params", {}) or {})).items():
            if k not in params:
                raise UserInputError(f"unknown parameter for policy {pol} (known: "
                                     f"{', '.join(params)})", where=where, field=f"{f}.params.{k}")
            if not isinstance(v, (int, float)) or isinstance(v, bool):
                raise UserInputError("must be a number", where=where, field=f"{f}.params.{k}")
            spec = {q.name: q for q in SPACES[pol]}[k]
            if not spec.lo <= v <= spec.hi or (spec.kind != "float" and v != int(v)):
                raise UserInputError(f"must be {spec.kind} in [{spec.lo}, {spec.hi}]",
                                     where=where, field=f"{f}.params.{k}")
            params[k] = float(v)
        side_policy.append(pol)
        side_params.append(params)
        obj = _name(sd.get("objective", "destroy"))
        if obj not in OBJECTIVES:
            raise UserInputError(f"must be one of {', '.join(OBJECTIVES)}", where=where,
                                 field=f + ".objective")
        objective.append(OBJECTIVES[obj])
        hf = sd.get("holds_fire", "never")
        if hf not in ("never", "until_fired_upon"):
            raise UserInputError("must be 'never' or 'until_fired_upon'", where=where,
                                 field=f + ".holds_fire")
        holds.append(1 if hf == "until_fired_upon" else 0)
        exit_obj.append(None if sd.get("exit") is None else _name(sd["exit"]))
        if not isinstance(sd.get("scan", []), list):
            raise UserInputError("must be a list of names", where=where, field=f + ".scan")
        scan_raw.append([_name(t) for t in sd.get("scan", [])])
        ships_raw = sd.get("ships")
        if not isinstance(ships_raw, list) or not ships_raw:
            raise UserInputError("each side needs at least one ship ([[...ships]])", where=where,
                                 field=f + ".ships")
        for j, sh in enumerate(ships_raw):
            g = f"{f}.ships[{j}]"
            if not isinstance(sh, dict):
                raise UserInputError("must be a table", where=where, field=g)
            known_fields(sh, {"name", "sheet", "hex", "facing", "arrives", "warp", "datalink",
                              "base", "advanced_maneuvering", "progress", "moves", "escort"},
                         where, g + ".")
            sheet = parse_sheet(get_field(sh, "sheet", str, where, g + ".sheet"),
                                where=f"{where}: {g}.sheet")
            if len(sheet.systems) > MAX_SYS:
                raise UserInputError(f"at most {MAX_SYS} systems", where=where, field=g + ".sheet")
            shname = str(sh.get("name", sheet.name or f"{sname}{j + 1}")).lower()
            if shname in names:
                raise UserInputError(f"name {shname!r} is used twice", where=where,
                                     field=g + ".name")
            arrives = sh.get("arrives", 1)
            if not isinstance(arrives, int) or not 1 <= arrives <= turns:
                raise UserInputError(f"must be a turn 1-{turns}", where=where, field=g + ".arrives")
            if "warp" in sh:
                wn = _name(sh["warp"])
                if names.get(wn, ("", -1))[0] != "object" or objects[names[wn][1]][0] != 2:
                    raise UserInputError(f"no warp point named {wn!r}", where=where,
                                         field=g + ".warp")
                c, r = objects[names[wn][1]][2:4]
            else:
                c, r = parse_hex(get_field(sh, "hex", str, where, g + ".hex"), where=where,
                                 field=g + ".hex")
            _on_map(c, r, columns, rows, options, where, g + ".hex")
            facing = parse_facing(sh.get("facing", 0), c, r, where=where, field=g + ".facing")
            base = bool(sh.get("base", sheet.hull_class == "B"))
            dl = sh.get("datalink", 0)
            if not isinstance(dl, int) or dl < 0:
                raise UserInputError("must be a group number >= 1 (0: none)", where=where,
                                     field=g + ".datalink")
            if dl and CODE["Z"] not in sheet.codes:
                raise UserInputError("a DataLink group member needs a DataLink (Z) system",
                                     where=where, field=g + ".datalink")
            tm = sheet.turn_mode
            if tm is None:
                tm = int(hulls[sheet.hull_class][2]) if sheet.hull_class in hulls else 2
            if sh.get("advanced_maneuvering", False):
                tm = max(0, tm - 1)  # (8.7)
            hull_key = sheet.hull_class
            if sheet.hull_class == "B":  # Bases: size from the hull chart, Base 1-4 (rules-data 1.5)
                hull_key = "B" + sheet.number
                if hull_key not in hulls:
                    raise UserInputError(f"unknown Base class {hull_key!r} (the hull chart has "
                                         "B1-B4)", where=where, field=g + ".sheet")
            # hull spaces (13.5) from the hull chart; a sheet without a class counts its systems
            size = (int(hulls[hull_key][0]) if hull_key in hulls else len(sheet.systems))
            prog = sh.get("progress", 0)
            if not isinstance(prog, int) or prog < 0:
                raise UserInputError("must be a whole number >= 0 (turn-mode points already "
                                     "spent facing this way, 4.4)", where=where,
                                     field=g + ".progress")
            moves = _parse_moves(sh.get("moves", []), where, g + ".moves", pol == "scripted")
            if len(moves) > turns:
                raise UserInputError(f"{len(moves)} turns of moves for a {turns}-turn scenario",
                                     where=where, field=g + ".moves")
            names[shname] = ("ship", len(ships))
            escort = sh.get("escort", False)
            if not isinstance(escort, bool):
                raise UserInputError("must be true or false", where=where, field=g + ".escort")
            ships.append(Ship(shname, si, sheet, c, r, facing, arrives, dl, base, size, tm, prog,
                              escort, moves))
    for gid in {s.datalink for s in ships if s.datalink}:
        members = [s for s in ships if s.datalink == gid]
        if not 2 <= len(members) <= 3 or len({s.side for s in members}) != 1:
            raise UserInputError(f"DataLink group {gid} must be 2-3 ships of one side (12.2)",
                                 where=where, field="datalink")
    exit_idx = []
    scans = []
    for si, sname in enumerate(side_names):
        e = exit_obj[si]
        if e is None:
            exit_idx.append(-1)
        elif names.get(e, ("", -1))[0] == "object" and objects[names[e][1]][0] == 2:
            exit_idx.append(names[e][1])
        else:
            raise UserInputError(f"no warp point named {e!r}", where=where,
                                 field=f"sides.{sname}.exit")
        lst = []
        for k, t in enumerate(scan_raw[si] or []):
            if t not in names:
                raise UserInputError(f"nothing named {t!r} to scan", where=where,
                                     field=f"sides.{sname}.scan[{k}]")
            lst.append((0 if names[t][0] == "object" else 1, names[t][1]))
        scans.append(lst)
        if objective[si] == 1 and exit_idx[si] < 0:
            raise UserInputError("objective scan_and_exit needs an exit warp point",
                                 where=where, field=f"sides.{sname}.exit")
    ini = _name(raw.get("initiative", "roll"))
    if ini == "roll":
        initiative = -1
    elif ini in side_names:
        initiative = side_names.index(ini)
    else:
        raise UserInputError(f"must be 'roll' or a side name ({', '.join(side_names)})",
                             where=where, field="initiative")
    if not options["star_approach"]:
        for s in ships:
            for kind, oname, c, r in objects:
                if kind == 0 and distance(s.col, s.row, c, r) <= 4:
                    raise UserInputError(f"starts within four hexes of star {oname} (9.3)",
                                         where=where, field=f"ship {s.name}")
    return Scenario(where, name, label, source, turns, initiative, columns, rows, side_names,
                    side_policy, side_params, objective, holds, exit_idx, scans, ships, objects,
                    options, var)


def _name(value):
    """A name from the file, as a string (a list or table given as a name cannot match one)."""
    return value if isinstance(value, str) else repr(value)


def _on_map(c, r, columns, rows, options, where, fld):
    if not options.get("unbounded_map") and not (1 <= c <= columns and 1 <= r <= rows):
        raise UserInputError(f"hex {c:02d}{r:02d} is off the {columns}x{rows} map", where=where,
                             field=fld)


@dataclass
class Arrays:
    """The scenario as plain arrays for the battle kernel."""

    codes: np.ndarray
    nsys: np.ndarray
    run_end: np.ndarray
    ship_int: np.ndarray      # per ship: side, col, row, facing, arrives, datalink, base, size, tm, z_ok
    obj: np.ndarray           # per object: kind, col, row
    side_int: np.ndarray      # per side: objective, holds_fire, exit object, policy id
    side_par: np.ndarray      # per side: policy parameters
    scan: np.ndarray          # per side, per target slot: kind, index (-1 padded)
    opt: np.ndarray           # options flags + map size + turns + initiative
    moves: np.ndarray         # scripted moves [ship, turn, movement point]


SHIP_FIELDS = ("side", "col", "row", "facing", "arrives", "datalink", "base", "size", "tm", "z_ok",
               "progress", "escort")
MAX_MP = 16
_MOVE_CODES = {"M": 1, "S": 2, "RM": 3, "LM": 4, "RS": 5, "LS": 6}


def _parse_moves(raw, where, fld, scripted):
    """Scripted moves: one string per turn, one token per movement point: M (move ahead),
    S (spend in place), RM/LM (turn right/left one hexside, then move), RS/LS (turn, then spend
    in place), or P<facing 0-5> alone to turn in place for the whole turn (4.5)."""
    if raw and not scripted:
        raise UserInputError("moves are only read for a side with policy = \"scripted\"",
                             where=where, field=fld)
    if not isinstance(raw, list):
        raise UserInputError("must be a list of strings, one per turn", where=where, field=fld)
    out = []
    for t, text in enumerate(raw):
        if not isinstance(text, str):
            raise UserInputError("must be a string of move tokens", where=where,
                                 field=f"{fld}[{t}]")
        toks = text.split()
        codes = []
        for tok in toks:
            if tok in _MOVE_CODES:
                codes.append(_MOVE_CODES[tok])
            elif len(tok) == 2 and tok[0] == "P" and tok[1] in "012345" and len(toks) == 1:
                codes.append(10 + int(tok[1]))
            else:
                raise UserInputError(f"unknown move token {tok!r} (M, S, RM, LM, RS, LS, or P0-P5 "
                                     "alone)", where=where, field=f"{fld}[{t}]")
        if len(codes) > MAX_MP:
            raise UserInputError(f"at most {MAX_MP} movement points", where=where,
                                 field=f"{fld}[{t}]")
        out.append(codes)
    return out


def to_arrays(sc: Scenario) -> Arrays:
    n = len(sc.ships)
    codes = np.full((n, MAX_SYS), -1, dtype=np.int64)
    run_end = np.full((n, MAX_SYS), -1, dtype=np.int64)
    nsys = np.zeros(n, dtype=np.int64)
    ship_int = np.zeros((n, len(SHIP_FIELDS)), dtype=np.int64)
    moves = np.zeros((n, sc.turns + 1, MAX_MP), dtype=np.int64)
    for i, s in enumerate(sc.ships):
        c = s.sheet.codes
        codes[i, :len(c)] = c
        run_end[i, :len(c)] = hold_run_ends(c)
        nsys[i] = len(c)
        ship_int[i] = (s.side, s.col, s.row, s.facing, s.arrives, s.datalink, int(s.base),
                       s.size, s.turn_mode, int(_datalink_functional(c)), s.progress,
                       int(s.escort))
        for t, codes_t in enumerate(s.moves):
            moves[i, t + 1, :len(codes_t)] = codes_t
    obj = np.array([(k, c, r) for k, _, c, r in sc.objects] or np.zeros((0, 3)),
                   dtype=np.int64).reshape(-1, 3)
    ids = {**POLICIES, **SCRIPTED}
    side_int = np.array([(sc.objective[i], sc.holds_fire[i], sc.exit_object[i],
                          ids[sc.side_policy[i]]) for i in range(len(sc.sides))],
                        dtype=np.int64)
    side_par = np.zeros((len(sc.sides), N_PARAMS), dtype=np.float64)
    for i, p in enumerate(sc.side_params):
        side_par[i, :len(p)] = list(p.values())
    width = max([len(x) for x in sc.scan_targets] + [1])
    scan = np.full((len(sc.sides), width, 2), -1, dtype=np.int64)
    for i, lst in enumerate(sc.scan_targets):
        for j, (k, idx) in enumerate(lst):
            scan[i, j] = (k, idx)
    o = sc.options
    opt = np.array([int(o[k]) for k in OPTIONS] + [sc.columns, sc.rows, sc.turns, sc.initiative],
                   dtype=np.int64)
    return Arrays(codes, nsys, run_end, ship_int, obj, side_int, side_par, scan, opt, moves)


def _datalink_functional(codes) -> bool:
    """(12.2): DataLink works only when installed between the Shields and the Armor."""
    z = [i for i, c in enumerate(codes) if c == DATALINK]
    if not z:
        return False
    s_last = max([i for i, c in enumerate(codes) if c == CODE["S"]], default=-1)
    a_first = min([i for i, c in enumerate(codes) if c == CODE["A"]], default=len(codes))
    return any(s_last < i < a_first for i in z)


FACING_NAMES = ("up", "up-right", "down-right", "down", "down-left", "up-left")


# --- one game, logged -------------------------------------------------------------------------

def playthrough(path_or_scenario, seed=2026, trial=0, *, max_events=20_000):
    """Play trial ``trial`` of ``seed`` with every roll recorded; return (lines, result)."""
    from .engine import (FAULT_ILLEGAL_HEX, FAULT_NO_MOVE, FAULT_TURN_MODE, LOG_W, RES_FAULT,
                         RES_FAULT_SHIP, RES_FAULT_TURN, SIDE_OUT_W, BattleSim, Log, looks_of,
                         play)

    sc = path_or_scenario if isinstance(path_or_scenario, Scenario) else load_scenario(path_or_scenario)
    sim = BattleSim(sc)
    st = dice.new_state()
    dice.seed_trial(st, dice.stream_key(seed), trial)
    dice.set_recording(st)
    rolls = np.zeros(200_000, dtype=np.int64)
    log = np.zeros((max_events, LOG_W), dtype=np.int64)
    logn = np.zeros(1, dtype=np.int64)
    hpsnap = np.zeros((max_events, sim.a.codes.shape[1]), dtype=np.int64)
    result = np.zeros(6, dtype=np.int64)
    side_out = np.zeros((sim.nsides, SIDE_OUT_W), dtype=np.int64)
    play(sim.fleet, sim.kernel_tables, st, rolls, result, side_out, Log(log, logn, hpsnap),
         looks_of(sim.fleet))
    if result[RES_FAULT]:
        from ..core.errors import UserInputError
        why = {FAULT_NO_MOVE: "no move given for a movement point",
               FAULT_TURN_MODE: "turns before its turn mode is met (4.4)",
               FAULT_ILLEGAL_HEX: "moves off the map or within four hexes of a Star",
               }[int(result[RES_FAULT])]
        raise UserInputError(f"{sc.ships[result[RES_FAULT_SHIP]].name} in turn "
                             f"{result[RES_FAULT_TURN]}: {why}",
                             where=sc.path, field="moves")
    from ..core.eventlog import EventLog, rolls_made

    where = f"{sc.path}, trial {trial} of seed {seed}"
    rolls_made(st, rolls, where=where)   # a recording too small is an error, not a cut log
    lines = render(sc, EventLog(log, logn).table(where=where), hpsnap, rolls)
    return lines, {"winner": sc.sides[result[0]] if result[0] >= 0 else None,
                   "level": int(result[1]), "turns": int(result[2])}


def render(sc: Scenario, log, hpsnap, rolls) -> list[str]:
    """The log of one battle as the lines the golden tests diff."""
    from .engine import (EV_ARRIVE, EV_DESTROYED, EV_DRAG, EV_END, EV_EXIT, EV_FIRE, EV_MOVE,
                         EV_PIVOT, EV_PULL, EV_RELEASE, EV_REPAIR, EV_SCAN, EV_STAY,
                         EV_TRACTOR, EV_TURN, EV_TURNFACE)

    names = [s.name for s in sc.ships]
    sheets = [list(s.sheet.systems) for s in sc.ships]
    out = [f"# {sc.name} ({sc.label}); sides: {', '.join(sc.sides)}; "
           f"policies: {', '.join(f'{a}={b}' for a, b in zip(sc.sides, sc.side_policy))}"]
    for i, ev in enumerate(log):
        turn, _phase, a, kind, b, c, d, e, f, g, extra = (int(x) for x in ev)
        if kind == EV_TURN:
            order = [sc.sides[x] for x in (a, b, c) if x >= 0 and x < len(sc.sides)]
            out.append(f"T{turn:02d} initiative: {order[0]} (fire order {' > '.join(order)})")
        elif kind == EV_ARRIVE:
            out.append(f"T{turn:02d} arrive  {names[a]} at {hex_label(b, c)} facing {FACING_NAMES[d]}")
        elif kind == EV_PIVOT:
            out.append(f"T{turn:02d} pivot   {names[a]} in {hex_label(b, c)} to face {FACING_NAMES[d]} (4.5)")
        elif kind == EV_TURNFACE:
            out.append(f"T{turn:02d} mp{e}   {names[a]} turns to face {FACING_NAMES[d]}")
        elif kind == EV_MOVE:
            out.append(f"T{turn:02d} mp{e}   {names[a]} -> {hex_label(b, c)}")
        elif kind == EV_STAY:
            out.append(f"T{turn:02d} mp{e}   {names[a]} spends a point in {hex_label(b, c)}")
        elif kind == EV_DRAG:
            out.append(f"T{turn:02d}         {names[a]} dragged by {names[e]} -> {hex_label(b, c)}")
        elif kind == EV_PULL:
            out.append(f"T{turn:02d} pull    {names[a]} pulled to {hex_label(b, c)}")
        elif kind == EV_EXIT:
            out.append(f"T{turn:02d} exit    {names[a]} leaves by the warp point at {hex_label(b, c)}")
        elif kind == EV_SCAN:
            tgt = sc.objects[c][1] if b == 0 else names[c]
            out.append(f"T{turn:02d} scan    {names[a]} scans {tgt}")
        elif kind == EV_FIRE:
            r0, r1 = divmod(extra, 1000)
            dice_txt = " ".join(str(int(x)) for x in rolls[r0:r1]) or "-"
            snap = " ".join(_sys_char(sheets[b][j], hpsnap[i, j]) for j in range(len(sheets[b])))
            out.append(f"T{turn:02d} fire    {names[a]} -> {names[b]}: {d} x {FAMILIES[c]}, "
                       f"{e} hit, {f / 2:g} points, {g} stopped; dice {dice_txt}")
            out.append(f"            {names[b]}: {snap}")
        elif kind == EV_DESTROYED:
            out.append(f"T{turn:02d} DESTROYED {names[a]}")
        elif kind == EV_TRACTOR:
            out.append(f"T{turn:02d} tractor {names[a]} latches onto {names[b]} at range {c}")
        elif kind == EV_RELEASE:
            out.append(f"T{turn:02d} release {names[a]} releases {names[b]} (8.3)")
        elif kind == EV_REPAIR:
            out.append(f"T{turn:02d} repair  {names[a]} erases a Shield hit (12.1)")
        elif kind == EV_END:
            who = sc.sides[a] if a >= 0 else "nobody (draw)"
            lvl = {2: "decisive", 1: "minor", 0: ""}[b]
            out.append(f"END after turn {turn}: {who} wins {lvl}".rstrip())
    return out


def _sys_char(tok, h):
    if h == 0:
        return "x"
    return ("[" + tok + "]") if h == 1 else tok


def interchangeable(sc: Scenario) -> tuple[bool, str]:
    """Whether the two sides of ``sc`` could swap seats without changing the battle: the same
    ships (sheets, arrival, DataLink group, base, turn mode, escort, no scripted moves) in the
    same order, each placed at the left-right mirror of its partner and facing its mirror way,
    on a map the mirror maps onto itself (odd column count, or unbounded), with mirrored
    objects, equal objectives and the initiative rolled each turn (ties re-rolled, 10.1).

    The mirror is column c -> k - c with k even: the layout shifts even columns half a hex
    down, so only a mirror that keeps a column's parity keeps hexes on hexes, and a bounded
    map maps onto itself only when k = columns + 1 (the edge behind a side that keeps away
    matters: 4.1 forbids leaving the map). The engine orders nothing by side index but by the
    initiative roll (fire order, movement order 4.6), so a rolled initiative leaves no seat
    favoured."""
    if len(sc.sides) != 2:
        return False, f"{len(sc.sides)} sides"
    if sc.initiative >= 0:
        return False, f"the initiative is fixed to {sc.sides[sc.initiative]}"
    if sc.objective[0] != sc.objective[1] or sc.holds_fire[0] != sc.holds_fire[1]:
        return False, "the sides' objectives differ"
    if sc.exit_object[0] >= 0 or sc.exit_object[1] >= 0 or sc.scan_targets[0] or sc.scan_targets[1]:
        return False, "a side has an exit or scan targets (not checked for a mirror)"
    fleets = [[s for s in sc.ships if s.side == k] for k in (0, 1)]
    if len(fleets[0]) != len(fleets[1]):
        return False, "the fleets differ in size"
    first = fleets[0][0], fleets[1][0]
    k = first[0].col + first[1].col
    if k % 2:
        return False, "the set-ups are not mirrored (the mirror would change column parity)"
    if not sc.options.get("unbounded_map") and k != sc.columns + 1:
        return False, (f"the {sc.columns}-column map is not its own mirror under the one that "
                       "maps the set-ups onto each other")

    def same_ship(a, b):
        return ((a.sheet.systems, a.sheet.hull_class, a.sheet.number, a.sheet.turn_mode,
                 a.sheet.movement, a.arrives, a.datalink, a.base, a.size, a.turn_mode,
                 a.progress, a.escort) ==
                (b.sheet.systems, b.sheet.hull_class, b.sheet.number, b.sheet.turn_mode,
                 b.sheet.movement, b.arrives, b.datalink, b.base, b.size, b.turn_mode,
                 b.progress, b.escort))

    for a, b in zip(*fleets):
        if a.moves or b.moves:
            return False, "scripted moves"
        if not same_ship(a, b):
            return False, f"{a.name} and {b.name} differ"
        if (b.col, b.row, b.facing) != (k - a.col, a.row, (6 - a.facing) % 6):
            return False, f"{b.name} is not placed at the mirror of {a.name}"
    objs = sorted((kind, c, r) for kind, _, c, r in sc.objects)
    if objs != sorted((kind, k - c, r) for kind, c, r in objs):
        return False, "the map's objects are not mirrored"
    return True, ("identical fleets mirrored left-right on a mirrored map, initiative rolled "
                  "each turn")
