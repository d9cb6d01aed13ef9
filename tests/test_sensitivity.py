"""simkit sensitivity: deltas from a scenario's default under each variant and policy pairing.

The Starfire ``mirror`` scenario is the workhorse (two identical fleets, fast battles); build
leaderboards are exercised through a test-only ``build_scenario`` hook on a Starfire-backed
game, since no game offers the hook yet.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from simkit import games
from simkit.analysis import sensitivity as S
from simkit.cli import main
from simkit.plots import plot_tornado

ROOT = Path(__file__).resolve().parents[1]
MIRROR = ROOT / "scenarios" / "starfire" / "mirror.toml"
N = 300


# --- the interval ------------------------------------------------------------------------------

@pytest.mark.parametrize("k1,n1,k0,n0,lo,hi", [
    # Newcombe (1998), Statistics in Medicine 17:873-890, Table II, method 10
    (56, 70, 48, 80, 0.0524, 0.3339),
    (9, 10, 3, 10, 0.1705, 0.8090),
    (5, 56, 0, 29, -0.0381, 0.1926),
    (10, 10, 0, 10, 0.6075, 1.0000),
])
def test_delta_interval_matches_newcombes_published_values(k1, n1, k0, n0, lo, hi):
    got = S.delta_ci(k1, n1, k0, n0)
    assert got[0] == pytest.approx(lo, abs=6e-5) and got[1] == pytest.approx(hi, abs=6e-5)


def test_delta_interval_covers_about_95_percent_for_independent_samples():
    rng = np.random.default_rng(7)
    p1, p0, n = 0.45, 0.52, 400
    k1, k0 = rng.binomial(n, p1, 1000), rng.binomial(n, p0, 1000)
    lo, hi = S.delta_ci(k1, n, k0, n)
    cover = np.mean((lo <= p1 - p0) & (p1 - p0 <= hi))
    assert 0.93 <= cover <= 0.975


def test_delta_interval_is_conservative_under_common_random_numbers():
    # both settings read the same uniforms per trial, as seeded runs do: positive correlation
    rng = np.random.default_rng(8)
    p1, p0, n = 0.45, 0.52, 400
    u = rng.random((300, n))
    k1, k0 = (u < p1).sum(axis=1), (u < p0).sum(axis=1)
    lo, hi = S.delta_ci(k1, n, k0, n)
    assert np.mean((lo <= p1 - p0) & (p1 - p0 <= hi)) > 0.99
    assert np.mean(hi - lo) > 4 * np.std(k1 / n - k0 / n)   # wider than the paired spread


# --- variants ----------------------------------------------------------------------------------

def test_every_variant_choice_gets_a_row_and_the_default_matches_scenario_run(capsys):
    frame = S.sensitivity(MIRROR, trials=N, seed=11, progress=False)
    variants = games.get("starfire").rules().variants
    expect = {f"{v}={c}" for v, var in variants.items() for c in var.choices if c != var.default}
    got = frame[frame.kind == "variant"]
    assert set(got.setting) == expect                      # untouched variants appear too
    assert set(frame.side) == {"blue", "red"} and len(frame) == 2 * (1 + len(expect))
    base = games.get("starfire").scenario.table(str(MIRROR), trials=N, seed=11,
                                                      progress=False)
    d = frame[frame.kind == "default"].set_index("side")
    assert (d.loc[base.side, "wins"].to_numpy() == base.wins.to_numpy()).all()
    np.testing.assert_allclose(frame.delta, frame.win_rate - frame.default_win_rate)
    ch = got.dropna(subset=["delta_lo"])
    assert ((ch.delta_lo <= ch.delta) & (ch.delta <= ch.delta_hi)).all() and len(ch) == len(got)
    # a choice that changes nothing has exactly the default's figures, flagged as such
    same = got[got.same_as_default]
    assert (same.delta == 0).all()


def test_a_scenarios_own_variant_choice_is_its_default(tmp_path):
    text = MIRROR.read_text() + '\n[variants]\nmissile_max_range = "seventeen"\n'
    path = tmp_path / "pinned.toml"
    path.write_text(text)
    frame = S.sensitivity(path, variants="missile_max_range", trials=N, seed=3, progress=False)
    assert list(frame[frame.kind == "variant"].setting.unique()) == ["missile_max_range=twenty"]
    # --variant moves the default again, for the default run and every setting
    moved = S.sensitivity(path, variants="missile_max_range,laser_alignment", trials=N, seed=3,
                          progress=False, base_variants={"laser_alignment": "range1",
                                                         "missile_max_range": "twenty"})
    assert set(moved[moved.kind == "variant"].setting) == {"missile_max_range=seventeen",
                                                           "laser_alignment=range0"}
    play = games.get("starfire").scenario.table
    ref = play(str(path), trials=N, seed=3, progress=False,
               variants={"laser_alignment": "range1", "missile_max_range": "twenty"})
    assert list(moved[moved.kind == "default"].wins) == list(ref.wins)


# --- policies ----------------------------------------------------------------------------------

def test_every_policy_pairing_replays_scenario_run_with_those_policies():
    frame = S.sensitivity(MIRROR, variants="none", policies=True, trials=N, seed=5,
                          progress=False)
    # every named policy but a costly one (the look-ahead admiral, played only where named)
    pol = list(games.get("starfire").scenario.cheap_policies())
    assert "lookahead" in games.get("starfire").scenario.policies() and "lookahead" not in pol
    pairs = frame[frame.kind == "policies"]
    assert pairs.setting.nunique() == len(pol) ** 2 - 1      # the default pairing is the base
    assert not pairs.setting.str.contains("lookahead").any()
    assert "blue=closer vs red=closer" not in set(pairs.setting)
    one = pairs[pairs.setting == "blue=standoff vs red=closer"].set_index("side")
    ref = games.get("starfire").scenario.table(
        str(MIRROR), trials=N, seed=5, policies={"blue": "standoff", "red": "closer"},
        progress=False).set_index("side")
    assert (one.loc[["blue", "red"], "wins"].to_numpy() == ref.loc[["blue", "red"], "wins"]).all()
    assert one.loc["blue", "policy"] == "standoff"


# --- the command -------------------------------------------------------------------------------

def test_command_writes_table_and_tornado(tmp_path, capsys):
    csv, png = tmp_path / "s.csv", tmp_path / "t.png"
    assert main(["sensitivity", str(MIRROR), "--variants", "laser_alignment,missile_max_range",
                 "--trials", str(N), "--seed", "2", "--out", str(csv), "--plot", str(png),
                 "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "Newcombe" in out and "laser_alignment=range1" in out
    df = pd.read_csv(csv)
    assert list(df.columns) == S.COLUMNS
    assert set(df.setting) == {"default", "laser_alignment=range1", "missile_max_range=seventeen"}
    assert png.stat().st_size > 5_000


@pytest.mark.parametrize("argv,needle", [
    (["sensitivity", "nosuch.toml"], "'nosuch.toml' is neither a file nor a shipped scenario"),
    (["sensitivity", str(MIRROR), "--variants", "warp_speed"], "--variants: unknown variant"),
    (["sensitivity", str(MIRROR), "--variants", ","], "--variants"),
    (["sensitivity", str(MIRROR), "--trials", "0"], "--trials"),
    (["sensitivity", str(MIRROR), "--variant", "laser_alignment=range9"], "unknown choice"),
    (["sensitivity", str(MIRROR), "--plot", "x.gif"], "--plot"),
    (["sensitivity", str(MIRROR), "--policies", "some"], "invalid choice"),
])
def test_bad_input_is_one_line_and_status_2(argv, needle, capsys):
    assert main(argv + ["--no-progress"]) == 2
    err = capsys.readouterr().err.strip()
    assert needle in err and len(err.splitlines()) == 1 and "Traceback" not in err


def test_bad_scenario_files_are_one_line(tmp_path, capsys, monkeypatch):
    cases = {"nogame.toml": 'name = "x"\n', "badgame.toml": 'game = "chess"\n',
             "broken.toml": 'game = "starfire\n',
             "badvar.toml": MIRROR.read_text() + '\n[variants]\nmissile_max_range = "ten"\n',
             "engineless.toml": 'game = "starfire"\n'}
    for name, text in cases.items():
        (tmp_path / name).write_text(text)
    real = games.get
    engineless = dataclasses.replace(real("starfire"), scenario=None)
    for name in cases:
        if name == "engineless.toml":
            monkeypatch.setattr(games, "get", lambda n: engineless)
        assert main(["sensitivity", str(tmp_path / name), "--no-progress"]) == 2, name
        err = capsys.readouterr().err.strip()
        assert str(tmp_path / name) in err and len(err.splitlines()) == 1, err
    assert "no scenario engine yet" in err


# --- build leaderboards ------------------------------------------------------------------------

def _build_game(monkeypatch):
    """Starfire plus a test-only build_scenario hook: the build is blue's one ship vs red's CA."""
    real = games.get("starfire")

    def build_scenario(row, workdir):
        path = Path(workdir) / f"build-{row['rank']}.toml"
        path.write_text(f"""game = "starfire"
name = "build {row['build']}"
label = "ORIGINAL"
source = "test"
turns = 30
initiative = "roll"
[sides.blue]
policy = "closer"
[[sides.blue.ships]]
name = "blue-1"
sheet = "{row['sheet']}"
hex = "0512"
facing = "down-right"
[sides.red]
policy = "closer"
[[sides.red.ships]]
name = "red-ca"
sheet = "CA - (3) - S S S S A A H R W F L E D O I I I I I I (6)"
hex = "2512"
facing = "down-left"
""")
        return path

    game = dataclasses.replace(real, analyses={**real.analyses, "build_scenario": build_scenario})
    monkeypatch.setattr(games, "get", lambda n: game if n == "starfire" else None)
    return game


def test_top_builds_of_a_leaderboard_through_the_build_scenario_hook(tmp_path, monkeypatch):
    _build_game(monkeypatch)
    board = tmp_path / "board.csv"
    pd.DataFrame({
        "rank": [3, 1, 2], "build": ["pinnace", "cruiser", "escort"],
        "sheet": ["ES - (1) - S I I (2)", "CA - (3) - S S S S A A H R W F L E D O I I I I I I (6)",
                  "DD - (2) - S S A A G R L F I I I I I I (6)"],
        "game": "starfire"}).to_csv(board, index=False)
    keep = tmp_path / "scen"
    frame = S.build_sensitivity(board, top=2, workdir=keep, variants="laser_alignment",
                                trials=N, seed=9, progress=False)
    assert list(frame.build.unique()) == ["cruiser", "escort"]      # by rank, top 2
    assert sorted(p.name for p in keep.iterdir()) == ["build-1.toml", "build-2.toml"]
    base = frame[(frame.kind == "default") & (frame.side == "blue")].set_index("build")
    # the hook really plays each row's build: a destroyer loses more to a cruiser than a mirror
    assert base.loc["escort", "win_rate"] < base.loc["cruiser", "win_rate"]
    assert set(frame[frame.kind == "variant"].setting) == {"laser_alignment=range1"}
    png = plot_tornado(frame, tmp_path / "t.png")
    assert png.stat().st_size > 5_000


def test_leaderboard_errors_are_one_line(tmp_path, capsys, monkeypatch):
    board = tmp_path / "board.csv"
    pd.DataFrame({"rank": [1], "build": ["x"]}).to_csv(board, index=False)
    assert main(["sensitivity", str(board), "--no-progress"]) == 2
    assert "--game" in capsys.readouterr().err
    assert main(["sensitivity", str(board), "--game", "starfire", "--no-progress"]) == 2
    assert "no build_scenario hook" in capsys.readouterr().err
    (tmp_path / "empty.csv").write_text("")
    assert main(["sensitivity", str(tmp_path / "empty.csv"), "--game", "starfire"]) == 2
    assert "empty.csv" in capsys.readouterr().err
    assert main(["sensitivity", str(board), "--game", "starfire", "--top", "0"]) == 2
    assert "--top" in capsys.readouterr().err


# --- fuzz: the loaders of user input here raise UserInputError, nothing else ---------------------

from hypothesis import HealthCheck, example, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from simkit.core.errors import UserInputError  # noqa: E402

_toml_value = st.recursive(
    st.one_of(st.text(max_size=12), st.integers(), st.booleans(), st.floats(allow_nan=False),
              st.sampled_from(["starfire", "laser_alignment", "range1", "twenty", "seventeen"])),
    lambda inner: st.one_of(st.lists(inner, max_size=3),
                            st.dictionaries(st.text(max_size=8), inner, max_size=3)),
    max_leaves=8)


def _toml(d) -> str:
    import json

    # JSON strings and numbers are valid TOML values; tables become inline tables
    def val(v):
        if isinstance(v, dict):
            return "{" + ", ".join(f"{json.dumps(k)} = {val(x)}" for k, x in v.items()) + "}"
        if isinstance(v, list):
            return "[" + ", ".join(val(x) for x in v) + "]"
        if isinstance(v, bool):
            return "true" if v else "false"
        return json.dumps(v)
    return "\n".join(f"{json.dumps(k)} = {val(v)}" for k, v in d.items()) + "\n"


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(game=st.one_of(st.none(), st.sampled_from(["starfire", "chess", ""]), st.integers()),
       variants=st.one_of(st.none(), _toml_value,
                          st.dictionaries(st.sampled_from(["laser_alignment", "x", "missile_max_range"]),
                                          _toml_value, max_size=2)),
       names=st.one_of(st.text(max_size=30), st.lists(st.text(max_size=10), max_size=3)))
@example(game="starfire", variants={"laser_alignment": [1]}, names="")  # was a TypeError
def test_fuzz_scenario_header_and_variant_names(tmp_path, game, variants, names):
    raw = {} if game is None else {"game": game}
    if variants is not None:
        raw["variants"] = variants
    path = tmp_path / "fuzz.toml"
    path.write_text(_toml(raw))
    try:
        g = S.scenario_game(path)
        S._file_variants(g, raw, str(path))
    except UserInputError as e:
        assert str(path) in str(e) and "\n" not in str(e)
    try:
        S.select_variants(games.get("starfire"), names)
    except UserInputError as e:
        assert "--variants" in str(e)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.one_of(st.binary(max_size=200), st.text(max_size=200).map(str.encode),
                      st.lists(st.lists(st.sampled_from(["rank", "build", "game", "1", "x", "",
                                                         "starfire", '"', ","]), max_size=4),
                               max_size=4).map(lambda rows: "\n".join(",".join(r) for r in rows)
                                               .encode())),
       top=st.integers(-2, 5))
def test_fuzz_leaderboard_csv(tmp_path, data, top):
    path = tmp_path / "board.csv"
    path.write_bytes(data)
    try:
        S.build_sensitivity(path, top=top, trials=10)
    except UserInputError as e:
        assert "\n" not in str(e)
