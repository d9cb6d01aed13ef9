"""Ship builds (005, 102) and the Turn's allocation arithmetic (203 B-C)."""

import pytest

from simkit import cli, games
from simkit.core.errors import UserInputError
from simkit.demons_run.builds import (Allocation, Build, allocation_fuel, allocation_violations,
                                       check_build, cost, parse_build, velocity_after,
                                       violations, worked_ship)
from simkit.demons_run.rules import make_rules

WORKED = "fuel=210,si=14,pi=3,me=6,mn=6,tractor=10,screens=4,laser=10,scrambler=0"


@pytest.fixture
def only_demons_run(monkeypatch):
    # Only this game's commands: other game packages may be absent or half-built in a worktree.
    monkeypatch.setattr(games, "available", lambda: ["demons-run"])


def test_rulebook_worked_ship_costs_exactly_80_points():
    """102 B: 21 + 14 + 9 + 6 + 6 + 10 + 4 + 10 = 80."""
    b = parse_build(WORKED)
    assert b == worked_ship()
    assert cost(b) == 80 and violations(b) == []
    assert cost(Build(pi=3)) == 9 and cost(Build(fuel=210)) == 21


def test_every_violation_is_listed_in_one_message():
    with pytest.raises(UserInputError) as e:
        check_build("fuel=163,si=25,pi=13,laser=12,scrambler=x,warp=3")
    msg = str(e.value)
    for part in ("fuel=163 is not bought in units of 10 (use 160 or 170)",
                 "si=25 exceeds the maximum Level 20", "pi=13 exceeds the maximum Level 12",
                 "laser=12 exceeds the maximum Level 11", "scrambler='x' is not a whole number",
                 "unknown Function 'warp'", "more than the 80-point budget"):
        assert part in msg
    assert "\n" not in msg


def test_one_point_over_budget_and_si_variant():
    assert violations(parse_build(WORKED.replace("screens=4", "screens=5"))) == \
        ["costs 81 points, more than the 80-point budget"]
    assert violations(Build(si=29)) == ["si=29 exceeds the maximum Level 20"]
    assert violations(Build(si=29), make_rules({"max_si": "card"})) == []


def test_si_0_is_a_destroyed_ship_005_L(only_demons_run, capsys):
    """005 L: 'If a ship has Level 0 SI ... The ship is destroyed.' -- no legal build has it."""
    si0 = "fuel=290,si=0,pi=3,me=6,mn=6,tractor=10,screens=4,laser=10,scrambler=0"
    assert violations(parse_build(si0)) == \
        ["si=0: a ship with Level 0 SI is destroyed (005 L); buy at least Level 1"]
    assert violations(parse_build(si0.replace("si=0", "si=1"))) == []
    assert cli.main(["builds", "demons-run", "--check", si0]) == 2
    cap = capsys.readouterr()
    err = cap.err.strip()
    assert err.count("\n") == 0 and err.startswith("simkit: error: --check")
    assert "si=0" in err and "Traceback" not in cap.err + cap.out
    assert "valid: yes" not in cap.out


def test_fuel_at_most_290_005_L():
    """005 L: 'The ship may have a maximum of 290 Fuel Levels' (bought in 10s, 102 A)."""
    assert make_rules().max_level("fuel") == 290
    assert violations(Build(fuel=290, si=1)) == []
    assert violations(Build(fuel=300, si=1)) == ["fuel=300 exceeds the maximum Level 290"]
    assert violations(Build(fuel=295, si=1)) == [
        "fuel=295 exceeds the maximum Level 290",
        "fuel=295 is not bought in units of 10 (use 290 or 300)"]


def test_toml_build(tmp_path):
    p = tmp_path / "ship.toml"
    p.write_text("[build]\nfuel = 210\nsi = 14\npi = 3\nme = 6\nmn = 6\ntractor = 10\n"
                 "screens = 4\nlaser = 10\n")
    assert parse_build(str(p)) == worked_ship()
    with pytest.raises(UserInputError, match="file not found"):
        parse_build(str(tmp_path / "missing.toml"))


def test_cli_check_prints_cost_and_validity(only_demons_run, capsys):
    assert cli.main(["builds", "demons-run", "--check", WORKED]) == 0
    out = capsys.readouterr().out
    assert "cost: 80 of 80 points" in out and "valid: yes" in out


def test_cli_invalid_build_exits_2_with_one_line(only_demons_run, capsys):
    assert cli.main(["builds", "demons-run", "--check", "fuel=295,si=21,laser=12"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and err.startswith("simkit: error: --check")
    assert "fuel=295" in err and "si=21" in err and "laser=12" in err


def test_fuel_allocation_example_203_b():
    """203 B: V4 with A3 -> 7, D3 -> 1, nothing -> 4; the figure's L6, SC3, A2 -> V6."""
    assert velocity_after(4, Allocation(me_mode="A", me=3)) == 7
    assert velocity_after(4, Allocation(me_mode="D", me=3)) == 1
    assert velocity_after(4, Allocation()) == 4
    fig = Allocation(me_mode="A", me=2, laser=6, screens=3)
    assert velocity_after(4, fig) == 6
    # 203 C: 2 Fuel per acceleration Level, 1 per Laser and per Screen Level
    assert allocation_fuel(fig) == 2 * 2 + 6 + 3
    # 203 C example: 10 Screen Levels allocated, never used, still cost 10 Fuel
    assert allocation_fuel(Allocation(screens=10)) == 10
    # Tractor charged again for each successive use; Scrambler 2 per Level; turns at 1 each
    assert allocation_fuel(Allocation(tractor=4), tractor_uses=3) == 12
    assert allocation_fuel(Allocation(scrambler=3), turning_movements=2) == 8
    # 203 A example: Laser maximum 8 -> may never allocate more than 8
    assert allocation_violations(Allocation(laser=9), Build(laser=8)) == \
        ["laser allocated 9 above its maximum 8"]
    assert velocity_after(2, Allocation(me_mode="D", me=5)) == 0  # never below 0
