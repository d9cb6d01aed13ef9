"""Demo Derby rules data: the TOML tables validated and turned into the arrays kernels read.

Covers the Damage Table and Hit Location Table (demo-derby.txt, Crash Damage), the record
sheet (Record Sheet), the special damage deck (Special Damage Cards), the optional phased
moves, vector collisions and extended damage table. Most numbers are RECONSTRUCTED
(shared/rules-data.md section 3); every table keeps its label and source, and cells the rulebook
prints are listed in ``src_cells``. The engine never holds a table literal: swap a data file and
the kernels follow.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Mapping

import numpy as np

from ..core.data import RulesData, load_rules
from ..core.errors import UserInputError

DATA = Path(__file__).parent / "data"
FILES = ("damage.toml", "car.toml", "special_damage.toml", "phased_moves.toml", "arena.toml")

# --- record sheet layout: one int per part = boxes crossed off --------------------------------
PARTS = ("tire_left_front", "tire_right_front", "tire_left_rear", "tire_right_rear",
         "body_left", "body_right", "engine", "trunk", "radiator", "laps")
(TIRE_LF, TIRE_RF, TIRE_LR, TIRE_RR, BODY_L, BODY_R, ENGINE, TRUNK, RADIATOR, LAPS) = range(10)
N_PARTS = len(PARTS)
TIRES = (TIRE_LF, TIRE_RF, TIRE_LR, TIRE_RR)
#: parts a hit-location roll may name (laps are not damage)
HIT_PARTS = PARTS[:LAPS]

IMPACTS = ("front", "front_left", "front_right", "rear_left", "rear_right", "rear")
FRONT, FRONT_LEFT, FRONT_RIGHT, REAR_LEFT, REAR_RIGHT, REAR = range(6)

# --- special damage cards ---------------------------------------------------------------------
LIGHTS = ("none", "green", "red")
EFFECTS = ("none", "no_move", "straight_only", "forward_only", "fenders_locked",
           "skip_next_move", "max_speed")
ON_DRAW = ("none", "cross_radiator", "flat_random_tire")
ON_DRAW_NONE, ON_DRAW_CROSS_RADIATOR, ON_DRAW_FLAT_RANDOM_TIRE = range(3)

_CELL = re.compile(r"^(?:ND|(\d+)(S2|S)?)$")

# --- what the rulebook prints (demo-derby.txt), which every replacement table must keep ----------
#: Damage Table: rows 0 and 1 at speeds 1-8, row 2 at speeds 1-4; row 5 at speed 4 is "2 - S"
#: from the worked example (Crash Damage). {(row, speed): cell}
PRINTED_DAMAGE = {
    **{(r, s): c for r in (0, 1)
       for s, c in zip(range(1, 9), ("ND", "ND", "1", "2", "3", "4", "5", "6"))},
    **{(2, s): c for s, c in zip(range(1, 5), ("ND", "1", "2", "2"))},
    (5, 4): "2S",
}
#: Hit Location Table: rows 1-3 and row 4 Front as printed; row 4 Front Right (right front tire)
#: from the worked example. {(row, column): part}
PRINTED_HIT = {
    **{(1, c): p for c, p in zip(IMPACTS, ("engine", "engine", "engine", "tire_left_rear",
                                           "tire_right_rear", "tire_left_rear"))},
    **{(2, c): p for c, p in zip(IMPACTS, ("body_left", "body_left", "body_right",
                                           "tire_left_rear", "tire_right_rear",
                                           "tire_right_rear"))},
    **{(3, c): p for c, p in zip(IMPACTS, ("tire_left_front", "body_left", "body_right", "trunk",
                                           "trunk", "trunk"))},
    (4, "front"): "tire_right_front",
    (4, "front_right"): "tire_right_front",
}
#: Extended Damage Table (Vector Collisions): row 0, columns 0- to 11. {(row, column): cell}
PRINTED_EXTENDED = {(0, c): v for c, v in zip(
    ("0-", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11"),
    ("ND", "ND", "ND", "1", "2", "3", "4", "5", "6", "7", "8S", "9S"))}


def parse_cell(text, *, where: str, field: str) -> tuple[int, int]:
    """A damage-table cell ('ND', '3', '2S', '12S2') -> (damage points, special cards)."""
    m = _CELL.match(str(text).strip())
    if not m:
        raise UserInputError(f"bad damage cell {text!r} (expected ND, N, NS or NS2)",
                             where=where, field=field)
    if m[1] is None:
        return 0, 0
    return int(m[1]), {None: 0, "S": 1, "S2": 2}[m[2]]


@dataclass(frozen=True, eq=False)  # identity hash: oracles cache per Tables object
class Tables:
    """Arrays built from the rules data (read-only by convention; kernels take them as args)."""

    damage: np.ndarray        # [roll 0..6, speed 0..8] damage points (speed 0 column: ND)
    special: np.ndarray       # [roll 0..6, speed 0..8] special damage cards to draw
    hit: np.ndarray           # [d6 1..6 (row 0 unused), impact] part index
    capacity: np.ndarray      # [part] boxes
    overflow: np.ndarray      # [part] part that takes damage when full, -1 none
    deck: np.ndarray          # [card] card-type index, canonical order (count copies each)
    card_names: tuple[str, ...]
    card_die: np.ndarray      # [type, face 0..6] 1 if the face ends the card
    card_light: np.ndarray    # [type] index in LIGHTS
    card_effect: np.ndarray   # [type] index in EFFECTS
    card_param: np.ndarray    # [type]
    card_on_draw: np.ndarray  # [type] index in ON_DRAW
    ext_damage: np.ndarray    # [roll 0..6, col] col 0 = '0-', col s = speed s (1..16)
    ext_special: np.ndarray
    phases: np.ndarray        # [speed 0..8, phase 0..15] 1 if that speed moves in that phase
    limits: Mapping[str, int]
    rammer_same_column: bool  # variant rammer_hit_column == same_as_target
    vector_collisions: bool   # variant collisions == vector
    vec_sign: np.ndarray      # [impact] +1 / -1 (Vector Collisions)
    vec_div: np.ndarray       # [impact] 1 or 2
    phased_moves: bool        # variant moves == phased

    @property
    def max_speed(self) -> int:
        return int(self.damage.shape[1] - 1)

    def vector_column(self, rammer_speed: int, impact: int, target_speed: int) -> int:
        """Extended-table column of a Vector Collision (0 is the '0-' column)."""
        s = rammer_speed + int(self.vec_sign[impact]) * (target_speed // int(self.vec_div[impact]))
        return int(min(max(s, 0), self.ext_damage.shape[1] - 1))

    def as_vector(self) -> "Tables":
        """The same tables with the extended damage table in place of the basic one."""
        import dataclasses
        return dataclasses.replace(self, damage=self.ext_damage, special=self.ext_special)


def rammer_column(tables: Tables, impact: int, reverse: bool = False) -> int:
    """The hit-location column of the rammer's damage (``procedures``, step 4): its own front,
    its rear when it rams in reverse, or the target's column under the variant
    ``rammer_hit_column=same_as_target``."""
    if tables.rammer_same_column:
        return impact
    return REAR if reverse else FRONT


@lru_cache(maxsize=None)
def rules_data() -> RulesData:
    return load_rules(*(DATA / f for f in FILES))


def _where(rules: RulesData, table: str) -> str:
    for f in rules.files:
        if table in open(f, encoding="utf-8").read():
            return f
    return "demo-derby rules"


def build_tables(rules: RulesData | None = None, variants: Mapping[str, str] | None = None
                 ) -> Tables:
    """Validate the rules data and build the kernel arrays (variants applied)."""
    rules = rules or rules_data()
    selection = rules.resolve(variants)
    rules = rules.with_variants(variants)

    limits = dict(rules.table("car_limits").data)
    max_speed = int(limits["max_speed"])

    # damage table
    t = rules.table("damage")
    w = _where(rules, "table.damage")
    speeds = list(t["speeds"])
    if speeds != list(range(1, max_speed + 1)):
        raise UserInputError(f"speeds must be 1..{max_speed}", where=w, field="table.damage.speeds")
    rows = t["rows"]
    if sorted(rows, key=int) != [str(r) for r in range(7)]:
        raise UserInputError("rows must be '0'..'6'", where=w, field="table.damage.rows")
    damage = np.zeros((7, max_speed + 1), np.int64)
    special = np.zeros((7, max_speed + 1), np.int64)
    for r in range(7):
        row = rows[str(r)]
        if len(row) != max_speed:
            raise UserInputError(f"row {r} needs {max_speed} cells", where=w,
                                 field=f"table.damage.rows.{r}")
        for s, cell in enumerate(row, start=1):
            damage[r, s], special[r, s] = parse_cell(cell, where=w, field=f"table.damage.rows.{r}")

    _check_printed(rules, "damage", PRINTED_DAMAGE,
                   lambda r, s: parse_cell(rows[str(r)][s - 1], where=w, field="")
                   == parse_cell(PRINTED_DAMAGE[(r, s)], where=w, field=""))

    # hit location table
    t = rules.table("hit_location")
    w = _where(rules, "table.hit_location")
    if list(t["columns"]) != list(IMPACTS):
        raise UserInputError(f"columns must be {', '.join(IMPACTS)}", where=w,
                             field="table.hit_location.columns")
    hit = np.full((7, len(IMPACTS)), -1, np.int64)
    for d in range(1, 7):
        row = t["rows"].get(str(d))
        if row is None or len(row) != len(IMPACTS):
            raise UserInputError(f"row {d} needs {len(IMPACTS)} cells", where=w,
                                 field=f"table.hit_location.rows.{d}")
        for c, part in enumerate(row):
            if part not in HIT_PARTS:
                raise UserInputError(f"unknown part {part!r} (parts: {', '.join(HIT_PARTS)})",
                                     where=w, field=f"table.hit_location.rows.{d}")
            hit[d, c] = PARTS.index(part)
    _check_printed(rules, "hit_location", PRINTED_HIT,
                   lambda r, c: PARTS[hit[r, IMPACTS.index(c)]] == PRINTED_HIT[(r, c)])

    # record sheet
    t = rules.table("record_sheet")
    w = _where(rules, "table.record_sheet")
    boxes = t["boxes"]
    capacity = np.zeros(N_PARTS, np.int64)
    for i, part in enumerate(PARTS):
        v = boxes.get(part)
        if not isinstance(v, int) or v < 1:
            raise UserInputError("needs a positive box count", where=w,
                                 field=f"table.record_sheet.boxes.{part}")
        capacity[i] = v
    if capacity[ENGINE] != max_speed:
        raise UserInputError(f"engine boxes are numbered 1..max_speed ({max_speed})", where=w,
                             field="table.record_sheet.boxes.engine")
    if any(capacity[TRUNK] <= capacity[i] for i in range(LAPS) if i != TRUNK):
        raise UserInputError("the trunk must have the most boxes (demo-derby.txt, Trunk)",
                             where=w, field="table.record_sheet.boxes.trunk")
    overflow = np.full(N_PARTS, -1, np.int64)
    for src, dst in rules.table("damage_overflow")["into"].items():
        overflow[PARTS.index(src)] = PARTS.index(dst)

    # special damage deck
    t = rules.table("special_damage_deck")
    w = _where(rules, "table.special_damage_deck")
    names, die, light, effect, param, on_draw, deck = [], [], [], [], [], [], []
    for key, card in t["cards"].items():
        f = f"table.special_damage_deck.cards.{key}"
        names.append(card.get("name", key))
        mask = [0] * 7
        for face in card.get("die", []):
            if not isinstance(face, int) or not 1 <= face <= 6:
                raise UserInputError(f"die results must be 1-6, got {face!r}", where=w, field=f)
            mask[face] = 1
        for value, allowed, field in ((card.get("light", "none"), LIGHTS, "light"),
                                      (card.get("effect", "none"), EFFECTS, "effect"),
                                      (card.get("on_draw", "none"), ON_DRAW, "on_draw")):
            if value not in allowed:
                raise UserInputError(f"unknown {field} {value!r} (known: {', '.join(allowed)})",
                                     where=w, field=f"{f}.{field}")
        if any(mask) != (card.get("light", "none") != "none"):
            raise UserInputError("a card with die results needs a green or red light, and only "
                                 "such a card", where=w, field=f"{f}.light")
        die.append(mask)
        light.append(LIGHTS.index(card.get("light", "none")))
        effect.append(EFFECTS.index(card.get("effect", "none")))
        param.append(int(card.get("param", 0)))
        on_draw.append(ON_DRAW.index(card.get("on_draw", "none")))
        count = card.get("count")
        if not isinstance(count, int) or count < 1:
            raise UserInputError("needs a positive count", where=w, field=f"{f}.count")
        deck += [len(names) - 1] * count
    if len(deck) != int(t["size"]):
        raise UserInputError(f"the deck holds {len(deck)} cards, not {t['size']}", where=w,
                             field="table.special_damage_deck.size")

    # extended damage table (optional vector collisions)
    t = rules.table("extended_damage")
    w = _where(rules, "table.extended_damage")
    ncol = len(t["speeds"])
    ext_damage = np.zeros((7, ncol), np.int64)
    ext_special = np.zeros((7, ncol), np.int64)
    for r in range(7):
        for c, cell in enumerate(t["rows"][str(r)]):
            ext_damage[r, c], ext_special[r, c] = parse_cell(
                cell, where=w, field=f"table.extended_damage.rows.{r}")

    ext_speeds = [str(x) for x in t["speeds"]]
    _check_printed(rules, "extended_damage", PRINTED_EXTENDED,
                   lambda r, c: (c in ext_speeds and
                                 (ext_damage[r, ext_speeds.index(c)],
                                  ext_special[r, ext_speeds.index(c)])
                                 == parse_cell(PRINTED_EXTENDED[(r, c)], where="", field="")))

    vec = rules.table("vector_collisions")["impacts"]
    for i in IMPACTS:
        if i not in vec or vec[i].get("sign") not in (1, -1) or vec[i].get("divisor", 0) < 1:
            raise UserInputError("needs sign +1/-1 and a divisor >= 1",
                                 where=_where(rules, "table.vector_collisions"),
                                 field=f"table.vector_collisions.impacts.{i}")
    if ext_damage.shape[1] != 2 * max_speed + 1:
        raise UserInputError(f"needs columns 0- and 1..{2 * max_speed}",
                             where=_where(rules, "table.extended_damage"),
                             field="table.extended_damage.speeds")

    # phased moves
    t = rules.table("phased_moves")
    n_phases = int(t["phases"])
    phases = np.zeros((max_speed + 1, n_phases + 1), np.int64)
    for s, ph in t["rows"].items():
        for p in ph:
            phases[int(s), int(p)] = 1

    return Tables(damage, special, hit, capacity, overflow, np.asarray(deck, np.int64),
                  tuple(names), np.asarray(die, np.int64), np.asarray(light, np.int64),
                  np.asarray(effect, np.int64), np.asarray(param, np.int64),
                  np.asarray(on_draw, np.int64), ext_damage, ext_special, phases,
                  {k: v for k, v in limits.items()},
                  selection["rammer_hit_column"] == "same_as_target",
                  selection["collisions"] == "vector",
                  np.array([vec[i]["sign"] for i in IMPACTS], np.int64),
                  np.array([vec[i]["divisor"] for i in IMPACTS], np.int64),
                  selection["moves"] == "phased")


def _check_printed(rules: RulesData, name: str, printed: dict, agrees) -> None:
    """The loader's re-check of the rule text: a table's ``src_cells`` must list exactly the
    cells the rulebook prints (``printed``), and each of those cells must hold the printed value
    (``agrees(row, column)``), so a replacement table can change only reconstructed cells."""
    w = _where(rules, f"table.{name}")
    listed = {(int(r), c) for r, c in rules.table(name).get("src_cells", [])}
    if listed != set(printed):
        extra = sorted(listed - set(printed), key=str)
        missing = sorted(set(printed) - listed, key=str)
        raise UserInputError(f"src_cells must list the cells the rulebook prints; not printed: "
                             f"{extra}, printed but not listed: {missing}", where=w,
                             field=f"table.{name}.src_cells")
    for r, c in sorted(printed, key=str):
        if not agrees(r, c):
            raise UserInputError(f"row {r}, column {c} is printed in demo-derby.txt as "
                                 f"{printed[(r, c)]!r}; a table may change only reconstructed "
                                 "cells", where=w, field=f"table.{name}.rows.{r}")


def src_cells(table: str) -> list:
    """The cells of a table that are RULE-TEXT (printed in the rulebook or fixed by an example)."""
    return [tuple(c) for c in rules_data().table(table).get("src_cells", [])]
