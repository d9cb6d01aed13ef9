"""Starfire tables against shared/rules-data.md 1.2-1.4, variants, and control sheets."""

import pytest

from simkit.core.errors import UserInputError
from simkit.starfire.rules import FAMILIES, combat_tables, family_index, rules_data
from simkit.starfire.pieces.sheet import hold_run_ends, parse_sheet


def row(tables, fam, what):
    f = family_index(fam)
    arr = tables.hit_number if what == "hit" else tables.effect_halves
    return [int(v) for v in arr[f]]


def test_probability_of_hit_spot_checks():
    t = combat_tables()
    assert row(t, "gun", "hit")[:11] == [11, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2]
    assert row(t, "gun", "hit")[11] == -1
    assert row(t, "missile", "hit")[0] == 0 and row(t, "missile", "hit")[20] == 6
    assert row(t, "missile", "hit")[3] == row(t, "gun", "hit")[3]  # (5.9): equal at range 3
    assert row(t, "laser_beam", "hit")[17] == 5 and row(t, "laser_beam", "hit")[18] == -1


def test_effect_of_hit_spot_checks_in_half_points():
    t = combat_tables()
    assert row(t, "force_beam", "eff")[:5] == [10, 8, 6, 6, 4]  # (5.9): 4 at r1, 3 at r3, 2 at r4
    assert row(t, "energy_beam", "eff")[:4] == [-1, 10, 8, 6]  # starts at range 1
    assert row(t, "energy_beam", "eff")[10] == 1
    assert row(t, "primary_beam", "eff")[14] == 1 and row(t, "primary_beam", "eff")[15] == -1
    assert row(t, "laser_beam", "eff")[9] == 1 and row(t, "laser_beam", "eff")[10] == -1


def test_every_table_is_labelled_and_sourced():
    for name, label, source in rules_data().provenance():
        assert label in ("RULE-TEXT", "VERIFIED", "SOURCED", "RECONSTRUCTED") and source


@pytest.mark.parametrize("variant,check", [
    ({"energy_beam_range0": "five_hits"}, lambda t: row(t, "energy_beam", "eff")[0] == 10),
    ({"missile_max_range": "seventeen"}, lambda t: row(t, "missile", "hit")[17:] == [8, -1, -1, -1]),
    ({"laser_alignment": "range1"}, lambda t: row(t, "laser_beam", "eff")[:2] == [-1, 4]
     and row(t, "laser_beam", "eff")[10] == 1),
    ({"primary_alignment": "range1"}, lambda t: row(t, "primary_beam", "eff")[15] == 1),
])
def test_variants_change_exactly_their_cells(variant, check):
    assert check(combat_tables(variant))
    assert not check(combat_tables())
    assert combat_tables(variant).variants[next(iter(variant))] == next(iter(variant.values()))


def test_default_energy_beam_cannot_fire_at_range_0():
    t = combat_tables()
    assert not t.can_fire(family_index("energy_beam"), 0)
    assert all(t.can_fire(family_index(f), 1) for f in FAMILIES)


def test_control_sheet_full_notation():
    s = parse_sheet("BRADLEY - FG1 - (2) - S S S A A A W I H W I I I I (5)")
    assert (s.name, s.hull_class, s.number, s.turn_mode, s.movement) == ("BRADLEY", "FG", "1", 2, 5)
    assert s.systems[:4] == ("S", "S", "S", "A") and len(s.systems) == 14 and s.engines == 5


def test_control_sheet_bare_compact_and_multiplex():
    assert parse_sheet("SSAHRLII").systems == tuple("SSAHRLII")
    s = parse_sheet("ES \u2013 (2) \u2013 S A G R R (M3) I I I I (4)")
    assert s.hull_class == "ES" and s.multiplex == 3 and "(M3)" in s.systems


@pytest.mark.parametrize("text,token", [
    ("S S A H R L l I", "'l'"),  # the transcription's lower-case l
    ("S S Q I", "'Q'"),
    ("S S I I (3)", "(3)"),
    ("S (M1) I", "(M1)"),
    ("NAME - FG - OTHER - S I", "OTHER"),
])
def test_bad_control_sheets_name_the_token(text, token):
    with pytest.raises(UserInputError) as e:
        parse_sheet(text, where="--target")
    assert token in str(e.value) and str(e.value).startswith("--target")


def test_hold_runs_end_at_bulkheads():
    s = parse_sheet("H H B H H H I H")
    assert list(hold_run_ends(s.codes)) == [1, 1, -1, 5, 5, 5, -1, 7]
