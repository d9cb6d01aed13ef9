"""Race scenarios through `simkit scenario run`, the loader's errors (one line, exit 2), a
hypothesis fuzz of the loader (no tracebacks), and the build-search evaluator's common random
numbers."""

from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simkit.cli import main
from simkit.core.errors import UserInputError
from simkit.demons_run.scenario import load_scenario

ROOT = Path(__file__).resolve().parent.parent
DUEL = ROOT / "scenarios/demons-run/duel.toml"


def test_scenario_run_prints_rates_with_intervals(capsys, tmp_path):
    out = tmp_path / "duel.csv"
    assert main(["scenario", "run", str(DUEL), "--trials", "300", "--seed", "3",
                 "--out", str(out), "--no-progress"]) == 0
    text = capsys.readouterr().out
    assert "win_rate" in text and "finish_rate" in text and "mean_vp" in text
    import pandas as pd
    f = pd.read_csv(out)
    for col in ("win_rate", "win_lo", "win_hi", "finish_rate", "finish_rate_lo",
                "destroyed_rate", "destroyed_rate_hi", "mean_vp", "mean_vp_lo", "mean_vp_hi"):
        assert col in f
    assert (f["win_lo"] <= f["win_rate"]).all() and (f["win_rate"] <= f["win_hi"]).all()
    assert f["wins"].sum() <= 300 and list(f["side"]) == ["worked", "runner"]


def test_scenario_policy_override_and_bad_input(capsys, tmp_path):
    assert main(["scenario", "run", str(DUEL), "--trials", "100", "--no-progress",
                 "--policy", "runner=raider"]) == 0
    assert "raider" in capsys.readouterr().out
    bad = tmp_path / "bad.toml"
    bad.write_text('game = "demons-run"\n[[ship]]\ncorner = "A"\nbuild = "fuel=900"\n'
                   '[[ship]]\ncorner = "D"\nbuild = "si=3"\n')
    assert main(["scenario", "run", str(bad), "--trials", "10"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "ship[0].build" in err and "fuel=900" in err
    assert main(["scenario", "run", str(DUEL), "--policy", "nobody=raider"]) == 2


@pytest.mark.parametrize("extra, field, says", [
    ('colour = "red"\n', "colour", "unknown field"),
    ('name = 7\n', "name", "expected str, got 7"),
    ('variants = "strict"\n', "variants", "expected dict"),
])
def test_loader_refuses_misspelt_and_mistyped_top_level_fields(tmp_path, extra, field, says):
    """The loader reads every field through core.checks, as the other games' loaders do: a
    misspelt key is an error, not ignored, and a wrong type names what it expected."""
    bad = tmp_path / "bad.toml"
    text = DUEL.read_text().replace('name = "duel"\n', "")
    bad.write_text(text.replace('game = "demons-run"\n', 'game = "demons-run"\n' + extra))
    with pytest.raises(UserInputError) as e:
        load_scenario(bad)
    assert e.value.field == field and says in e.value.detail and str(bad) in str(e.value)


def test_loader_names_a_ship_field_of_the_wrong_type(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('game = "demons-run"\n[[ship]]\ncorner = "A"\npilot = 3\n'
                   'build = "fuel=200,si=10,me=5,mn=5"\n[[ship]]\ncorner = "D"\n'
                   'build = "fuel=200,si=10,me=5,mn=5"\n[ship.params]\nrisk = "high"\n')
    with pytest.raises(UserInputError) as e:
        load_scenario(bad)
    assert e.value.field == "ship[0].pilot" and "expected str, got 3" in e.value.detail


_scalar = st.one_of(st.integers(-5, 400), st.text(max_size=12), st.booleans(),
                    st.floats(allow_nan=True), st.none().map(lambda _: "x"))
_ship = st.dictionaries(st.sampled_from(["name", "corner", "build", "pilot", "params", "facing",
                                         "other"]),
                        st.one_of(_scalar, st.sampled_from(["A", "B", "C", "D", "raider",
                                                            "fuel=200,si=10", "SE"]),
                                  st.dictionaries(st.sampled_from(["risk", "cruise", "bogus",
                                                                   "fuel", "si"]), _scalar,
                                                  max_size=3)),
                        max_size=6)
_doc = st.fixed_dictionaries({"game": st.sampled_from(["demons-run", "starfire", 3])},
                             optional={"name": _scalar, "label": st.sampled_from(["ORIGINAL", "X"]),
                                       "board": st.sampled_from(["default", "nofile.toml", 4]),
                                       "variants": st.dictionaries(st.sampled_from(
                                           ["max_si", "nope"]), st.sampled_from(["card", "zzz", 1])),
                                       "ship": st.lists(_ship, max_size=5)})


def _val(v):
    import json
    import math
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        return "nan" if math.isnan(v) else ("inf" if v == math.inf else "-inf" if v == -math.inf
                                             else repr(v))
    if isinstance(v, int):
        return str(v)
    if isinstance(v, dict):
        return "{" + ", ".join(f"{json.dumps(k)} = {_val(x)}" for k, x in v.items()) + "}"
    return json.dumps(str(v))


def _toml(doc):
    """A minimal TOML writer for the fuzz documents (top-level scalars and tables, [[ship]])."""
    lines = [f"{k} = {_val(v)}" for k, v in doc.items() if k != "ship"]
    for sh in doc.get("ship", []):
        lines.append("[[ship]]")
        lines += [f"{k} = {_val(v)}" for k, v in sh.items()]
    return "\n".join(lines) + "\n"


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(doc=_doc)
def test_fuzz_scenario_loader_raises_only_user_errors(tmp_path, doc):
    p = tmp_path / "fuzz.toml"
    p.write_text(_toml(doc))
    try:
        load_scenario(p)
    except UserInputError as e:
        assert str(e)


def test_search_evaluator_common_random_numbers():
    from simkit.demons_run.search import evaluate
    from simkit.demons_run.builds import worked_ship
    strong = "fuel=250,si=12,pi=3,me=6,mn=8,tractor=6,screens=10,laser=0,scrambler=0"
    a = evaluate([strong, worked_ship()], 0, 200, 9)
    b = evaluate([worked_ship(), strong], 0, 200, 9)
    assert a.dtype == np.int64 and a.shape == (2, 5)
    assert np.array_equal(a[::-1], b)            # order of candidates changes nothing
    parts = evaluate([strong], 0, 120, 9) + evaluate([strong], 120, 80, 9)
    assert np.array_equal(parts[0], a[0])         # any cut of the trials, same sums


def test_builds_search_command(capsys, tmp_path):
    import importlib.util
    if importlib.util.find_spec("simkit.core.search") is None:
        # the shared search has not landed in this checkout: one line, exit 2, says why
        assert main(["builds", "demons-run", "--trials-budget", "100"]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "simkit.core.search" in err
        return
    out = tmp_path / "board.csv"
    assert main(["builds", "demons-run", "--trials-budget", "300", "--population", "4",
                 "--min-trials", "20", "--finalists", "2", "--seed", "1",
                 "--out", str(out), "--no-progress"]) == 0
    import pandas as pd
    f = pd.read_csv(out)
    for col in ("rank", "fuel", "si", "pi", "me", "mn", "tractor", "screens", "laser",
                "scrambler", "win_rate", "win_lo", "win_hi", "mean_vp", "vp_lo", "vp_hi",
                "destroyed_rate", "trials"):
        assert col in f


def test_design_space_hands_out_legal_full_builds():
    import importlib.util
    if importlib.util.find_spec("simkit.core.search") is None:
        pytest.skip("simkit.core.search not in this checkout")
    from simkit.demons_run.builds import cost, violations
    from simkit.demons_run.search import build_of, design_space, reduced_space
    space = design_space()
    rng = np.random.default_rng(3)
    for _ in range(300):
        b = build_of(space.sample(rng))
        assert not violations(b) and cost(b) >= 78, b   # legal and (almost) the whole budget
        assert b.si >= 1, b
    si = next(f for f in space.fields if f.name == "si")
    assert min(si.value_list()) == 1                    # 005 L: SI 0 is a destroyed ship
    small = reduced_space().enumerate()
    assert len(small) == 41 and all(cost(build_of(c)) == 80 for c in small)


def test_racing_season_212(capsys):
    from simkit.demons_run.season import play_season
    from simkit.demons_run.builds import cost
    sc = load_scenario(DUEL)
    log = []
    pv, rosters = play_season(sc, races=5, seed=4, season=0, entries_log=log)
    assert len(log) == 5
    for prev, now in zip(log, log[1:]):          # 212 D: no ship races twice in a row
        assert not set(prev) & set(now)
    for i, roster in enumerate(rosters):
        assert sum(s.vp_total for s in roster) == pv[i]
        for s in roster:
            if s.vp_total >= 75 and not s.destroyed:  # 212 A-B: experience beyond 80 points
                assert cost(s.build) > cost(sc.ships[i].build)
    assert main(["season", "demons-run", str(DUEL), "--seasons", "2", "--races", "3"]) == 0
    assert "team_wins" in capsys.readouterr().out


def test_racing_season_carries_pi_damage_212_C(monkeypatch):
    """212 C: PI Levels lost stay lost; one is repaired per later race the ship finishes.
    The race results are scripted so only the season's bookkeeping is under test."""
    from simkit.demons_run import season as S
    from simkit.demons_run.pieces.layout import FINISHED, OFF_BOARD
    from simkit.demons_run.engine import RES_W

    sc = load_scenario(DUEL)
    log = []              # the season's (player, ship number) entries per race
    entered = []          # PI that player 0's ship number 1 entered each of its races with
    # player 0's ship 1, its k-th race: (status, PI Levels lost in it); every other ship
    # finishes unharmed
    script = [(FINISHED, 2), (FINISHED, 0), (OFF_BOARD, 0), (FINISHED, 1), (FINISHED, 0)]

    def fake_play_one(sim, seed, trial):
        res = np.zeros((len(sim.sc.ships), RES_W), np.int64)
        for i, ship in enumerate(sim.sc.ships):
            status, lost = FINISHED, 0
            if log[-1][i] == (0, 1):
                status, lost = script[len(entered)]
                entered.append(ship.build.pi)
            res[i, 0], res[i, 6] = status, ship.build.pi - lost
        return None, res, 0, None

    monkeypatch.setattr(S, "play_one", fake_play_one)
    S.play_season(sc, races=9, seed=1, season=0, entries_log=log)
    base = sc.ships[0].build.pi
    assert base >= 2 and len(entered) == len(script)
    assert entered == [base,
                       base - 2,      # both Levels lost in its first race are still lost
                       base - 1,      # its second race was finished: one Level repaired
                       base - 1,      # its third was not finished: no repair
                       base - 1]      # one repaired, one more lost in its fourth


def test_leaderboard_rows_replay_as_scenarios_for_sensitivity(tmp_path, capsys):
    """A build-search leaderboard row becomes a race against the field it was searched against
    (the build_scenario hook), so `simkit sensitivity LEADERBOARD.csv` works for Demon's Run."""
    import pandas as pd

    from simkit.demons_run.search import build_scenario

    strong = "fuel=250,si=12,pi=3,me=6,mn=8,tractor=6,screens=10,laser=0,scrambler=0"
    worked = "fuel=210,si=14,pi=3,me=6,mn=6,tractor=10,screens=4,laser=10,scrambler=0"
    sc = load_scenario(build_scenario({"rank": 1, "build": strong, "pilot": "safe_runner",
                                       "field": "", "versus": ""}, tmp_path))
    assert [str(s.build) for s in sc.ships] == [strong, worked]      # the default field
    assert [s.pilot for s in sc.ships] == ["safe_runner", "buoy_hunter"]
    sc = load_scenario(build_scenario({"rank": 2, "build": worked, "pilot": "raider",
                                       "versus": strong}, tmp_path))
    assert [str(s.build) for s in sc.ships] == [worked, strong]
    assert [s.pilot for s in sc.ships] == ["raider", "raider"]
    with pytest.raises(UserInputError, match="build"):
        build_scenario({"rank": 1, "pilot": "raider"}, tmp_path)
    board = tmp_path / "board.csv"
    pd.DataFrame([{"game": "demons-run", "rank": 1, "build": strong, "pilot": "safe_runner",
                   "field": "", "versus": ""}]).to_csv(board, index=False)
    capsys.readouterr()
    assert main(["sensitivity", str(board), "--variants", "none", "--policies", "none",
                 "--trials", "20", "--no-progress"]) == 0
    assert "candidate" in capsys.readouterr().out
