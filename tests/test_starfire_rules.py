"""Rule defects of issue 13, one scenario each: every test here failed on the engine before its
fix (tractor designation per Primary Beam, Bases that never move, one target a turn for DataLink
members, simultaneous DataLink fire)."""

import re
from pathlib import Path

from simkit.starfire.scenario import playthrough

ROOT = Path(__file__).resolve().parent.parent
FIX = ROOT / "tests/fixtures"


def fire_lines(lines, turn, shooter):
    out = []
    for i, l in enumerate(lines):
        if l.startswith(f"T{turn:02d} fire    {shooter} ->"):
            out.append((l, lines[i + 1]))
    return out


def test_tractor_designates_a_system_for_each_primary_beam():
    """(8.3): a tractoring ship adjacent to (or in the hex of) its held target designates any
    system for each Primary Beam and hits it automatically: three beams, three systems."""
    lines, _ = playthrough(FIX / "starfire-tractor-primary.toml", seed=1)
    assert any("holder latches onto target" in l for l in lines)
    (shot, sheet), = fire_lines(lines, 3, "holder")
    assert "3 x primary_beam" in shot and "dice -" in shot  # automatic: no dice
    before = [l for l in lines if l.strip().startswith("target:")][-2]
    lost = sheet.count("x") - before.count("x")
    assert lost == 3, (shot, before, sheet)
    assert "3 points" in shot


def test_a_base_holding_a_ship_never_moves():
    """(9.1) with (8.3): a Base that tractors a bigger cruiser is neither dragged by it nor
    pulled; the link holds the cruiser (its engines shut down) and pulls it to the Base."""
    lines, _ = playthrough(FIX / "starfire-base-tractor.toml", seed=1)
    assert any("base latches onto ca" in l for l in lines)
    assert not any(re.search(r"base (dragged|pulled)", l) for l in lines), lines
    assert not any(re.search(r"mp\d +ca -> ", l) for l in lines)  # engines shut down
    assert any("ca pulled to 1010" in l for l in lines)


def test_base_hull_spaces_come_from_the_hull_chart():
    """Base 1-4 are 20/40/75/100 hull spaces (rules-data 1.5), not a count of systems."""
    from simkit.starfire.scenario import load_scenario
    sc = load_scenario(ROOT / "scenarios/starfire/base-assault.toml")
    assert {s.name: s.size for s in sc.ships}["base"] == 75
    sc = load_scenario(FIX / "starfire-base-tractor.toml")
    assert {s.name: s.size for s in sc.ships}["base"] == 20


def test_datalink_member_keeps_the_target_its_missiles_joined():
    """(5.5) with (12.2): wing's Missile joined lead's volley at the scout, so the scout is its
    one target this turn; it may not fire its Lasers at the hulk next to it afterwards."""
    lines, _ = playthrough(FIX / "starfire-datalink-one-target.toml", seed=1)
    shot = [l for l in lines if l.startswith("T01 fire    lead -> scout")]
    assert shot and "11 x missile" in shot[0]  # wing's launcher was in the volley
    assert not any(l.startswith("T01 fire    wing -> hulk") for l in lines), lines


def _one_dampener(points):
    """(7.4) with one Overload Dampener against one volley: negate 1 point, or burn out
    absorbing 4 at the cost of the dampener (worth a point); ties keep it. (landed, burnt)."""
    keep = max(0, points - 1)
    burn = max(0, points - 4)
    return (burn, True) if burn + 1 < keep else (keep, False)


def test_datalink_fire_is_one_volley_and_chains_by_three_hexes():
    """(12.2): far is 4 hexes from lead but 1 from mid, so it fires with the group; the group's
    Missiles are one volley and so are its Energy Beams, dampened once by the target's single
    Overload Dampener (7.4) instead of once per ship. The three are equal, so which opens fire
    is drawn from the dice stream: whichever does (lead and far included, 4 hexes apart), all
    three join."""
    openers = set()
    for seed in range(1, 13):
        lines, _ = playthrough(FIX / "starfire-datalink-simultaneous.toml", seed=seed)
        fires = [l for l in lines if " fire " in l]
        assert len(fires) == 2, fires  # one missile volley, one Energy Beam volley
        opener = fires[0].split()[2]
        openers.add(opener)
        assert f"{opener} -> target: 3 x missile" in fires[0]
        assert f"{opener} -> target: 3 x energy_beam" in fires[1]
        m = re.search(r"(\d+) hit, ([\d.]+) points", fires[1])
        hits, points = int(m.group(1)), float(m.group(2))
        landed, burnt = _one_dampener(hits)  # each Energy Beam hit is 1 point at range 5
        assert points == landed
        sheet = lines[lines.index(fires[1]) + 1].split()
        assert (sheet[-2] == "x") == burnt, (fires[1], sheet)
    assert {"lead", "far"} <= openers, openers


def test_primary_hit_in_the_middle_of_a_hold_run_collapses_nothing():
    """(8.1): only a hit on the first Hold in the series collapses 1d6 Holds. A Primary Beam
    die of 2 picks the second Hold of S A H H H H I (Shields and Armor are passed over); the
    first Hold is intact, so no collapse die is rolled and only that Hold is lost."""
    from simkit.starfire.procedures import Target, fire_volley
    t = Target("S A H H H H I")
    fire_volley(t, "primary_beam", 1, 1, rolls=[2])  # range 1 cannot miss: the die is N
    assert t.render() == "S A H x H H I"
    t = Target("S A H H H H I")
    fire_volley(t, "primary_beam", 1, 1, rolls=[1, 3])  # the first Hold: collapse, 3 in all
    assert t.render() == "S A x x x H I"


def test_dampeners_burnt_out_absorbing_a_volley_count_as_damage_for_damage_control():
    """(12.1) with (7.4): in turn 2 the wall's last Overload Dampener burns out absorbing the
    whole volley. It lost a system, so it was damaged in turn 2: Damage Control erases the
    turn-1 Shield hit in turn 5 (the third undamaged turn after it), not in turn 4."""
    lines, _ = playthrough(FIX / "starfire-dampener-damage-control.toml", seed=1)
    t2 = [l for l in lines if l.startswith("T02 fire    beamer -> wall")]
    assert t2 and "1 hit, 0 points" in t2[0]
    assert lines[lines.index(t2[0]) + 1].split()[1:] == "x S S x x x G I".split()
    repairs = [l[:3] for l in lines if "wall erases a Shield hit" in l]
    assert repairs == ["T05"], repairs
