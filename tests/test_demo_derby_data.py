"""Demo Derby rules data: every table against the rulebook and shared/rules-data.md section 3.

Cells the rulebook prints are checked against demo-derby.txt; reconstructed cells against the
rules-data.md tables they were copied from; and each reconstruction against the constraints
rules-data.md quotes for it, so a replacement that breaks a rule is caught."""

import shutil

import numpy as np
import pytest

from simkit.core.data import load_rules
from simkit.core.errors import UserInputError
from simkit.demo_derby import rules
from simkit.demo_derby.rules import (BODY_L, BODY_R, ENGINE, IMPACTS, PARTS, RADIATOR, TIRE_RF, TRUNK, build_tables, parse_cell)

T = build_tables()


def cell(row, speed):
    return int(T.damage[row, speed]), int(T.special[row, speed])


def test_every_table_has_a_label_and_a_source_and_reconstructions_say_so():
    data = rules.rules_data()
    for name, label, source in data.provenance():
        assert source
        if label == "RECONSTRUCTED":
            assert source.startswith("reconstructed: shared/rules-data.md 3"), name
    assert data.table("damage").label == "RECONSTRUCTED"
    assert data.table("damage_overflow").label == "RULE-TEXT"


def test_damage_table_printed_rows_match_the_rulebook():
    # demo-derby.txt (Damage Table): rows 0 and 1 "ND ND 1 2 3 4 5 6", row 2 "ND 1 2 2"
    for row in (0, 1):
        assert [cell(row, s) for s in range(1, 9)] == [(0, 0), (0, 0)] + [(d, 0) for d in range(1, 7)]
    assert [cell(2, s)[0] for s in range(1, 5)] == [0, 1, 2, 2]
    # the worked example: speed 4, roll 5 -> "2 - S"
    assert cell(5, 4) == (2, 1)
    src = set(rules.src_cells("damage"))
    assert (5, 4) in src and (2, 4) in src and (3, 4) not in src and len(src) == 21


def test_damage_table_reconstruction_is_rules_data_3_1():
    expected = {  # shared/rules-data.md 3.1, rows 2-6
        2: "ND 1 2 2 3 4 5 6", 3: "ND 1 2 2 3 4 5 6S", 4: "1 1 2 2 3 4S 5S 6S",
        5: "1 1 2 2S 3S 4S 5S 6S", 6: "1 2 2S 3S 4S 5S 6S 7S"}
    for row, text in expected.items():
        cells = [parse_cell(c, where="t", field="f") for c in text.split()]
        assert [cell(row, s) for s in range(1, 9)] == cells, row


def test_damage_never_falls_as_the_roll_or_the_speed_rises():
    # a property of the printed rows that the reconstruction keeps
    assert (np.diff(T.damage[:, 1:], axis=0) >= 0).all()
    assert (np.diff(T.damage[:, 1:], axis=1) >= 0).all()
    assert (np.diff(T.special[:, 1:], axis=0) >= 0).all()


def test_hit_location_printed_rows_and_example():
    col = {c: i for i, c in enumerate(IMPACTS)}
    # demo-derby.txt (Hit Location Table), rows 1-3 and row 4 Front, as printed
    assert [PARTS[T.hit[1, i]] for i in range(6)] == [
        "engine", "engine", "engine", "tire_left_rear", "tire_right_rear", "tire_left_rear"]
    assert [PARTS[T.hit[2, i]] for i in range(6)] == [
        "body_left", "body_left", "body_right", "tire_left_rear", "tire_right_rear",
        "tire_right_rear"]
    assert [PARTS[T.hit[3, i]] for i in range(6)] == [
        "tire_left_front", "body_left", "body_right", "trunk", "trunk", "trunk"]
    assert T.hit[4, col["front"]] == TIRE_RF
    # the example: Front Right, rolls 2 and 4 -> Body Right and Right Front Tire
    assert T.hit[2, col["front_right"]] == BODY_R and T.hit[4, col["front_right"]] == TIRE_RF


def test_hit_location_reconstruction_is_rules_data_3_2_and_meets_its_constraints():
    assert [PARTS[T.hit[d, 0]] for d in (4, 5, 6)] == ["tire_right_front", "body_right", "radiator"]
    assert [PARTS[T.hit[d, 1]] for d in (4, 5, 6)] == ["tire_left_front", "tire_left_front", "radiator"]
    assert [PARTS[T.hit[d, 2]] for d in (4, 5, 6)] == ["tire_right_front", "tire_right_front", "radiator"]
    assert [PARTS[T.hit[d, 3]] for d in (4, 5, 6)] == ["body_left", "body_left", "trunk"]
    assert [PARTS[T.hit[d, 4]] for d in (4, 5, 6)] == ["body_right", "body_right", "trunk"]
    assert [PARTS[T.hit[d, 5]] for d in (4, 5, 6)] == ["trunk", "trunk", "trunk"]
    assert (T.hit[1:] == RADIATOR).any()  # the radiator must be reachable
    counts = np.bincount(T.hit[1:].ravel(), minlength=len(PARTS))
    assert counts[TRUNK] == counts.max()  # the trunk takes the most damage


def test_record_sheet_box_counts():
    assert dict(zip(PARTS, T.capacity.tolist())) == {
        "tire_left_front": 3, "tire_right_front": 3, "tire_left_rear": 3, "tire_right_rear": 3,
        "body_left": 6, "body_right": 6, "engine": 8, "trunk": 10, "radiator": 2, "laps": 8}
    labels = rules.rules_data().table("record_sheet").row_labels
    assert labels["engine"] == labels["radiator"] == labels["laps"] == "RULE-TEXT"
    assert labels["trunk"] == "RECONSTRUCTED"


def test_overflow_follows_the_rule_text():
    ov = dict(zip(PARTS, T.overflow.tolist()))
    assert ov["tire_left_front"] == BODY_L and ov["tire_right_front"] == BODY_R
    assert ov["tire_left_rear"] == TRUNK and ov["tire_right_rear"] == TRUNK
    assert ov["body_left"] == ov["body_right"] == ov["radiator"] == ENGINE
    assert ov["engine"] == ov["trunk"] == -1


def test_special_damage_deck_is_28_cards_with_fenders_locked():
    assert len(T.deck) == 28
    names = list(T.card_names)
    counts = {n: int((T.deck == i).sum()) for i, n in enumerate(names)}
    assert counts == {"Fenders Locked": 2, "Stalled": 6, "Jammed Steering": 4, "Stuck in Gear": 3,
                      "Engine Fire": 3, "Radiator Burst": 3, "Blown Tire": 3, "Driver Dazed": 2,
                      "Hood Up": 2}
    fl = names.index("Fenders Locked")
    assert T.card_die[fl].tolist() == [0, 0, 0, 0, 0, 1, 1]
    assert rules.LIGHTS[T.card_light[fl]] == "green"
    assert rules.EFFECTS[T.card_effect[fl]] == "fenders_locked"
    ef = names.index("Engine Fire")
    assert rules.LIGHTS[T.card_light[ef]] == "red" and T.card_die[ef, 1] == 1
    assert T.card_param[names.index("Hood Up")] == 3
    # every card with die results has a light, and only those
    assert ((T.card_die.sum(axis=1) > 0) == (T.card_light > 0)).all()


def test_phased_moves_meet_every_constraint_of_rules_data_3_5():
    ph = T.phases
    assert ph[8, 1::2].all() and not ph[8, 2::2].any()  # printed: speed 8 on odd phases
    assert sorted(np.flatnonzero(ph[:, 1])) == [7, 8]
    assert sorted(np.flatnonzero(ph[:, 8])) == [1, 3, 5, 7]
    for s in range(1, 9):
        assert ph[s].sum() == s
        assert (ph[s, 1:] == ph[s, 1:][::-1]).all()  # symmetric about phase 8


def test_extended_table_matches_basic_table_and_the_3_6_rule():
    assert (T.ext_damage[:, 0] == 0).all() and (T.ext_special[:, 0] == 0).all()  # 0- is ND
    assert (T.ext_damage[:, 1:9] == T.damage[:, 1:]).all()
    assert (T.ext_special[:, 1:9] == T.special[:, 1:]).all()
    # printed row 0 up to speed 11
    assert T.ext_damage[0, :12].tolist() == [0, 0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
    assert T.ext_special[0, :12].tolist() == [0] * 10 + [1, 1]
    for r in range(7):
        for s in range(9, 17):
            assert T.ext_damage[r, s] == T.damage[r, 8] + s - 8
            flag = 2 if s + r >= 14 else 1 if s + r >= 10 else T.special[r, 8]
            assert T.ext_special[r, s] == flag, (r, s)


def test_vector_collision_speeds_are_as_printed():
    imp = rules.rules_data().table("vector_collisions")["impacts"]
    assert imp["rear"] == {"sign": -1, "divisor": 1} and imp["front"] == {"sign": 1, "divisor": 1}
    assert imp["rear_left"] == imp["rear_right"] == {"sign": -1, "divisor": 2}
    assert imp["front_left"] == imp["front_right"] == {"sign": 1, "divisor": 2}


def test_variant_switches_the_rammer_column():
    assert not T.rammer_same_column
    assert build_tables(variants={"rammer_hit_column": "same_as_target"}).rammer_same_column
    with pytest.raises(UserInputError, match="unknown choice"):
        build_tables(variants={"rammer_hit_column": "sideways"})


@pytest.fixture
def data_copy(tmp_path):
    for f in rules.FILES:
        shutil.copy(rules.DATA / f, tmp_path / f)
    return tmp_path


def _load(path):
    return build_tables(load_rules(*(path / f for f in rules.FILES)))


@pytest.mark.parametrize("file, old, new, field", [
    ("damage.toml", '"2S", "3S", "4S", "5S", "6S"]', '"2X", "3S", "4S", "5S", "6S"]',
     "table.damage.rows.5"),
    ("damage.toml", '"radiator",         "radiator"', '"carburettor",      "radiator"',
     "table.hit_location.rows.6"),
    ("car.toml", "trunk = 10", "trunk = 5", "table.record_sheet.boxes.trunk"),
    ("special_damage.toml", "count = 6", "count = 5", "table.special_damage_deck.size"),
    ("special_damage.toml", 'light = "red"', 'light = "amber"', "light"),
    # the loader re-checks the printed cells: a printed value changed, a printed cell unlisted
    ('damage.toml', '"0" = ["ND", "ND", "1",', '"0" = ["ND", "ND", "2",', "table.damage.rows.0"),
    ("damage.toml", "[2, 4], [5, 4]]", "[2, 4]]", "table.damage.src_cells"),
    ("damage.toml", '"5" = ["1",  "1",  "2",  "2S",', '"5" = ["1",  "1",  "2",  "3S",',
     "table.damage.rows.5"),
    ("damage.toml", '"3" = ["tire_left_front",', '"3" = ["tire_right_front",',
     "table.hit_location.rows.3"),
    ("damage.toml", '[4, "front"], [4, "front_right"]]', '[4, "front"]]',
     "table.hit_location.src_cells"),
    ("damage.toml", '"8S"   , "9S"   , "10S"  , "11S"  , "12S2"',
     '"8"    , "9S"   , "10S"  , "11S"  , "12S2"', "table.extended_damage.rows.0"),
])
def test_a_broken_data_file_is_refused_naming_file_and_field(data_copy, file, old, new, field):
    p = data_copy / file
    text = p.read_text()
    assert old in text
    p.write_text(text.replace(old, new, 1))
    with pytest.raises(UserInputError) as e:
        _load(data_copy)
    assert file in str(e.value) and field in str(e.value)


def test_a_replacement_table_flows_into_the_arrays_without_code_changes(data_copy):
    p = data_copy / "damage.toml"
    p.write_text(p.read_text().replace('"6" = ["1",  "2",  "2S",', '"6" = ["1",  "3S", "2S",'))
    t = _load(data_copy)
    assert (t.damage[6, 2], t.special[6, 2]) == (3, 1)


def test_fenders_locked_is_labelled_by_what_is_invented():
    """Only the card's effect is rule text (demo-derby.txt, Special Damage Cards, Note); its
    count and die faces are reconstructed (rules-data.md 3.4) and labelled so in the data."""
    card = rules.rules_data().table("special_damage_deck")["cards"]["fenders_locked"]
    assert card["label"].startswith("RECONSTRUCTED")
    assert set(card["rule_text"]) == {"name", "effect"}
    assert set(card["reconstructed"]) == {"count", "die", "light"}
