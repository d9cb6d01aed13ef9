"""Rule defects of issue 13, one scenario each: every test here failed on the engine before its
fix (tractor designation per Primary Beam, Bases that never move, one target a turn for DataLink
members, simultaneous DataLink fire)."""

import re
from pathlib import Path

from simkit.starfire.battles import playthrough

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
