"""Rule defects of issue 15, each pinned by a test that failed on the code before its fix."""

from pathlib import Path

import numpy as np

from simkit.dark_future import engine as EG
from simkit.dark_future import games as GM
from simkit.dark_future import vehicle as VH
from test_dark_future_engine import World

ROOT = Path(__file__).resolve().parents[1]
SCEN = ROOT / "scenarios" / "dark-future"


def _turn_ends_too_early(ev, step):
    """(turn, last phase, vehicle, mph) where a vehicle's speed at the next turn's first record
    shows a speed factor above the last phase the turn played (p9, p12)."""
    last = {}
    for t, p, *_ in ev:
        if p > 0:
            last[t] = max(last.get(t, 0), p)
    bad, seen = [], set()
    for t, p, v, code, a, b, c, d, *_ in ev:
        if p != 1 or t - 1 not in last or (t, v) in seen:
            continue
        if code == EG.EV_ACTION and a == EG.A_ACCEL:
            mph = c
        elif code == EG.EV_MOVE:
            mph = d
        else:
            continue
        seen.add((t, v))
        if EG.speed_factor(mph, step) > last[t - 1]:
            bad.append((t - 1, last[t - 1], v, mph))
    return bad


def test_turn_goes_on_while_a_car_is_fast_enough_p9_p12():
    """Seeded Game One: both cars reach 100mph (speed factor 5) in phase 2 of turn 1 and must
    move in phases 4 and 5 of that turn."""
    lines, _ = GM.playthrough(SCEN / "game-1.toml", seed=2026)
    text = "\n".join(lines)
    assert "-- turn 1 phase 5" in text
    p4 = text.split("-- turn 1 phase 4")[1].split("-- turn 1 phase 5")[0]
    assert "player-1 moves" in p4 and "player-2 moves" in p4
    for name in ("game-1.toml", "game-6.toml"):
        sc = GM.load_scenario(SCEN / name)
        for trial in range(6):
            ev, _, _, sim = GM.play_one(sc, seed=7, trial=trial)
            assert _turn_ends_too_early(ev, int(sim.a.G[EG.G_SPEED_STEP])) == [], (name, trial)
