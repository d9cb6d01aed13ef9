"""Golden playthroughs: one seeded game per Starfire scenario, as a readable log (turn, phase,
moves, shots with their dice, damage, sheets), diffed against tests/golden/. After a deliberate
rules or policy change, regenerate with SIMKIT_UPDATE_GOLDEN=1 and review the diff."""

import difflib
import os
from pathlib import Path

import pytest

from simkit.starfire.scenario import playthrough

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests/golden"
SCENARIOS = sorted((ROOT / "scenarios/starfire").glob("*.toml"))


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_golden_playthrough(path):
    lines, _ = playthrough(path, seed=2026, trial=0)
    text = "\n".join(lines) + "\n"
    gold = GOLDEN / f"starfire-{path.stem}.log"
    if os.environ.get("SIMKIT_UPDATE_GOLDEN") or not gold.exists():
        gold.parent.mkdir(parents=True, exist_ok=True)
        gold.write_text(text)
        if not os.environ.get("SIMKIT_UPDATE_GOLDEN"):
            pytest.fail(f"{gold} did not exist; written now -- review and commit it")
    want = gold.read_text()
    if text != want:
        diff = "".join(difflib.unified_diff(want.splitlines(True), text.splitlines(True),
                                            str(gold), "this run", n=2))
        pytest.fail("game log changed:\n" + diff[:4000])


def test_a_battle_log_too_small_is_refused_not_cut():
    """The log counts every event, kept or not (core.eventlog): a battle that overflows its log
    is an error naming the battle, never a silently shortened playthrough."""
    from simkit.core.eventlog import LogOverflow

    path = ROOT / "scenarios/starfire/mirror.toml"
    with pytest.raises(LogOverflow, match="mirror.toml, trial 0 of seed 2026: .* capacity 5"):
        playthrough(path, seed=2026, trial=0, max_events=5)
