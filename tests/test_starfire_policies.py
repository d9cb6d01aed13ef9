"""Scripted admirals in scripted positions: each policy's choice, checked against the tables."""

from pathlib import Path

import numpy as np

from simkit.starfire.battles import BattleSim, decide, expected_values
from simkit.starfire.rules import FAMILIES, combat_tables
from simkit.starfire.scenario import load_scenario

DUEL = """
game = "starfire"
name = "duel"
label = "ORIGINAL"
source = "test position"
turns = 5
initiative = "roll"
[sides.a]
policy = "{policy}"
params = {params}
[[sides.a.ships]]
name = "me"
sheet = "{mine}"
hex = "0510"
facing = "down-right"
[sides.b]
policy = "closer"
[[sides.b.ships]]
name = "near"
sheet = "{theirs}"
hex = "1010"
facing = "down-left"
[[sides.b.ships]]
name = "far"
sheet = "{theirs}"
hex = "1510"
facing = "down-left"
"""


def scenario(tmp_path, policy="closer", params="{}", mine="S S A G G G I I I I",
             theirs="S S A R R R I I I I"):
    p = tmp_path / "duel.toml"
    p.write_text(DUEL.format(policy=policy, params=params, mine=mine, theirs=theirs))
    return load_scenario(p)


def best_range(mine, theirs):
    """The range where my expected damage most exceeds theirs, from the tables directly."""
    ev = expected_values(combat_tables())
    fam = {"G": "gun", "R": "missile", "F": "force_beam", "L": "laser_beam", "E": "energy_beam"}

    def total(sheet, r):
        return sum(ev[FAMILIES.index(fam[c]), r] for c in sheet.split() if c in fam)

    scores = [total(mine, r) - total(theirs, r) for r in range(21)]
    return int(np.argmax(scores))


def test_closer_closes_to_where_its_guns_outdamage_missiles(tmp_path):
    sc = scenario(tmp_path)
    d = decide(sc, "me")
    assert d["goal"] == "1010"  # the nearest enemy
    assert d["desired_range"] == best_range("S S A G G G I I I I", "S S A R R R I I I I") == 0
    # guns against missiles: into the same hex, where a missile cannot hit at all (5.3 table: 0)


def test_closer_keeps_missiles_away_from_guns(tmp_path):
    sc = scenario(tmp_path, mine="S S A R R R I I I I", theirs="S S A G G G I I I I")
    d = decide(sc, "me")
    assert d["desired_range"] == best_range("S S A R R R I I I I", "S S A G G G I I I I")
    assert d["desired_range"] >= 11  # beyond gun range, where missiles still hit on 9


def test_standoff_holds_its_range_parameter(tmp_path):
    d = decide(scenario(tmp_path, policy="standoff", params="{ range = 7 }"), "me")
    assert d["desired_range"] == 7 and d["goal"] == "1010"


def test_target_choice_prefers_the_kill_over_the_nearest(tmp_path):
    sc = scenario(tmp_path, mine="S S A L L L I I I I")
    assert decide(sc, "me")["target"] == "near"
    # the far ship has lost all but its last engine: lasers at range 10 cannot reach (laser rows
    # end at 9), so the crippled far ship is out of range and the near one is still chosen
    assert decide(sc, "me", damage={"far": range(0, 9)})["target"] == "near"
    sc2 = scenario(tmp_path, mine="S S A R R R I I I I")
    # missiles reach both; a nearly dead far ship is worth more per shot than a fresh near one
    assert decide(sc2, "me", damage={"far": range(0, 9)})["target"] == "far"


def test_objective_goes_for_scan_targets_then_the_exit():
    root = Path(__file__).resolve().parent.parent
    sc = load_scenario(root / "scenarios/starfire/first-contact.toml")
    d = decide(sc, "discovery")
    assert d["goal"] == "2412" and d["desired_range"] == 1  # the Khanate escort first
    d2 = decide(sc, "discovery", damage={"discovery": [5]})  # Science Instruments gone
    assert d2["goal"] == "0112" and d2["desired_range"] == 0  # straight for the warp point


def test_mirror_sides_get_mirror_decisions():
    root = Path(__file__).resolve().parent.parent
    sc = load_scenario(root / "scenarios/starfire/mirror.toml")
    assert decide(sc, "blue-ca")["desired_range"] == decide(sc, "red-ca")["desired_range"]
    assert BattleSim(sc).nsides == 2
