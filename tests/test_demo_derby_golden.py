"""Golden playthroughs (STYLE.md habit 7): one seeded game per Demo Derby scenario file, as a
readable log (spot deal, plots, moves, crashes with their damage, cards, laps, cars out, final
record sheets and every die rolled), diffed against tests/golden/demo-derby-*.log. After a
deliberate rules, table or policy change, regenerate with SIMKIT_UPDATE_GOLDEN=1 and review the
diff; an unintended diff is a regression."""

import difflib
import os
from pathlib import Path

import pytest

from simkit.demo_derby.scenario import playthrough

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests/golden"
SCENARIOS = sorted((ROOT / "scenarios/demo-derby").glob("*.toml"))


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_golden_playthrough(path):
    lines, info = playthrough(path, seed=2026, trial=0)
    text = "\n".join(lines) + "\n"
    gold = GOLDEN / f"demo-derby-{path.stem}.log"
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


def test_playthrough_is_trial_t_of_the_monte_carlo():
    """The logged game is the one the Monte Carlo plays as trial t: same deal, same winner,
    same number of rounds (for a derby and for the combined event)."""
    import numpy as np

    from simkit.core.dice import stream_key
    from simkit.demo_derby import engine as D
    from simkit.demo_derby.scenario import build_sim, load_scenario

    for name in ("six-car-derby", "combined-event"):
        sc = load_scenario(ROOT / f"scenarios/demo-derby/{name}.toml")
        sim = build_sim(sc)
        for trial in range(3):
            _, info = playthrough(sc, seed=11, trial=trial)
            t = sim.chunk(stream_key(11), trial, 1)
            won = np.flatnonzero(t[D.S_WINS:D.S_WINS + D.MAXC])
            assert (sc.players[won[0]] if len(won) else None) == info["winner"]
            assert int(t[D.S_ROUNDS]) == info["rounds"]
            if name == "combined-event":
                assert 0 < int(t[D.S_RACE_ROUNDS]) <= info["rounds"]
