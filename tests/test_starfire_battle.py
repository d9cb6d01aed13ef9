"""Starfire battles: the movement example, scripted positions for the admirals, conformance of
every scenario file, the mirror fairness check, and reproducibility."""

import re
from pathlib import Path

import numpy as np
import pytest

from simkit.core import runner
from simkit.core.errors import UserInputError
from simkit.starfire import SCENARIO
from simkit.starfire.engine import BattleSim
from simkit.starfire.scenario import playthrough
from simkit.starfire.scenario import load_scenario

ROOT = Path(__file__).resolve().parent.parent
MOVEMENT = ROOT / "tests/fixtures/starfire-movement-example.toml"
SCENARIOS = sorted((ROOT / "scenarios/starfire").glob("*.toml"))


def positions(lines, ship):
    return [m.group(1) for line in lines
            for m in [re.search(rf"{ship} -> (\d{{4}})$", line)] if m]


def test_movement_example_4_8_hex_by_hex():
    lines, _ = playthrough(MOVEMENT)
    assert positions(lines, "falkreg") == ["1619", "1519", "1418", "1417", "1416", "1415"]
    assert positions(lines, "hercules") == ["0609", "0710", "0810", "0911"]
    assert positions(lines, "jackson") == ["0708", "0709", "0809", "0910", "1010"]
    mp1 = [l for l in lines if " mp1 " in l]
    assert "falkreg" in mp1[0]  # the Khanate lost the initiative and moves first (4.6)
    assert sum("spends a point" in l and "hercules" in l for l in lines) == 2


def test_movement_example_order_alternates_point_by_point():
    lines, _ = playthrough(MOVEMENT)
    movers = [l.split()[2] for l in lines if re.match(r"T01 mp\d", l) and "turns" not in l]
    assert movers[:3] == ["falkreg", "hercules", "jackson"]  # MP1: Khanate, then Terran
    assert movers[3] == "falkreg"


def edit(tmp_path, text, **subs):
    for a, b in subs.items():
        text = text.replace(a, b)
    p = tmp_path / "s.toml"
    p.write_text(text)
    return p


def test_turn_mode_must_be_met_before_turning(tmp_path):
    base = MOVEMENT.read_text()
    ok = edit(tmp_path, base, **{'moves = ["M M LM M M"]': 'moves = ["M M LM M RM"]'})
    playthrough(ok)  # met again after two more points: legal (4.7)
    bad = edit(tmp_path, base, **{'moves = ["M M LM M M"]': 'moves = ["M LM M M M"]'})
    with pytest.raises(UserInputError, match="jackson in turn 1: turns before its turn mode"):
        playthrough(bad)
    bad2 = edit(tmp_path, base, **{"progress = 1": "progress = 0"})  # Falkreg needs the carry-over
    with pytest.raises(UserInputError, match="falkreg in turn 1"):
        playthrough(bad2)


def test_turn_in_place_spends_the_whole_allowance(tmp_path):
    p = edit(tmp_path, MOVEMENT.read_text(), **{'moves = ["M M LM M M"]': 'moves = ["P5"]'})
    lines, _ = playthrough(p)
    assert any("pivot   jackson in 0707 to face up-left" in l for l in lines)
    assert positions(lines, "jackson") == []


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_every_scenario_loads_and_plays_to_its_end(path):
    sc = load_scenario(path)
    lines, res = playthrough(path, seed=7)
    assert lines[-1].startswith("END after turn")
    assert 1 <= res["turns"] <= sc.turns
    df = SCENARIO.table(path, trials=300, seed=1, progress=False)
    assert (df.wins.sum() + df.draws.iloc[0]) == 300


def test_mirror_scenario_is_fair():
    df = SCENARIO.table(ROOT / "scenarios/starfire/mirror.toml", trials=6000, seed=11,
                        progress=False)
    blue, red = df.iloc[0], df.iloc[1]
    decided = blue.wins + red.wins
    from scipy.stats import binomtest
    assert binomtest(int(blue.wins), int(decided)).pvalue > 1e-3


def test_battles_are_bit_identical_across_threads_and_chunks():
    sim = BattleSim(load_scenario(ROOT / "scenarios/starfire/mirror.toml"))
    a = runner.run(sim, 900, seed=5, chunk_size=900, threads=1, progress=False).totals
    b = runner.run(sim, 900, seed=5, chunk_size=250, threads=2, progress=False).totals
    assert np.array_equal(a, b)


@pytest.mark.parametrize("bad,needle", [
    ('turns = 1', 'turns = 0'),
    ('hex = "0608"', 'hex = "608"'),
    ('policy = "scripted"\n[[sides.terran', 'policy = "bold"\n[[sides.terran'),
    ('(3) - S S A', '(3) - S Q A'),
    ('initiative = "terran"', 'initiative = "orion"'),
    ('facing = "0609"', 'facing = "0611"'),
    ('game = "starfire"', 'game = "starfire"\nspeed = 3'),
])
def test_malformed_scenarios_name_file_and_field(tmp_path, bad, needle):
    p = edit(tmp_path, MOVEMENT.read_text(), **{bad: needle})
    with pytest.raises(UserInputError) as e:
        load_scenario(p)
    assert str(p) in str(e.value)


def test_three_sides_and_stars(tmp_path):
    """Three-player initiative (10.1) plays; a scripted move within four hexes of a Star is
    refused (9.3), and a ship may not start there."""
    text = MOVEMENT.read_text().replace("turns = 1", "turns = 3").replace(
        'initiative = "terran"', 'initiative = "roll"')
    text += """
[sides.ophiuchi]
policy = "closer"
[[sides.ophiuchi.ships]]
name = "oph"
sheet = "ES - (2) - S A L L I I I I"
hex = "2505"
facing = "down-left"
"""
    p = tmp_path / "three.toml"
    p.write_text(text.replace('moves = ["M M M RM M M"]', 'moves = ["M M M RM M M", "S S S S S S", "S S S S S S"]')
                 .replace('moves = ["M S S LM M M"]', 'moves = ["M S S LM M M", "S S S S S S", "S S S S S S"]')
                 .replace('moves = ["M M LM M M"]', 'moves = ["M M LM M M", "S S S S S", "S S S S S"]'))
    lines, res = playthrough(p, seed=3)
    firsts = [l for l in lines if "initiative" in l]
    assert len(firsts) >= 1 and all(l.count(">") == 2 for l in firsts)  # three sides in order
    star = p.read_text().replace('[sides.terran]', '[[objects]]\nkind = "star"\nname = "sol"\nhex = "1112"\n\n[sides.terran]')
    p.write_text(star)
    with pytest.raises(UserInputError, match="moves off the map or within four hexes of a Star"):
        playthrough(p, seed=3)
    p.write_text(star.replace('hex = "1112"', 'hex = "0909"'))
    with pytest.raises(UserInputError, match="within four hexes of star sol"):
        load_scenario(p)


def test_point_defense_starts_every_volley_fresh(tmp_path):
    """Regression: Point Defense counts are per volley (7.3). Every missile volley at the ship
    makes one to-hit roll per missile plus one Point Defense roll per missile that hit (at most
    five per Point Defense), however many volleys came before it."""
    text = """
game = "starfire"
name = "pd"
label = "ORIGINAL"
source = "test"
turns = 6
initiative = "roll"
[sides.a]
policy = "scripted"
[[sides.a.ships]]
name = "target"
sheet = "S S S S S S S S S S S S S S S S S S S S D I"
hex = "1010"
moves = ["S", "S", "S", "S", "S", "S"]
[sides.b]
policy = "scripted"
"""
    for i, h in enumerate(("1013", "0713", "1307")):
        text += f"""[[sides.b.ships]]
name = "m{i}"
sheet = "S R R R I"
hex = "{h}"
moves = ["S", "S", "S", "S", "S", "S"]
"""
    p = tmp_path / "pd.toml"
    p.write_text(text)
    lines, _ = playthrough(p, seed=4)
    fires = [l for l in lines if "-> target:" in l and "missile" in l]
    assert len(fires) >= 6
    for line in fires:
        k = int(re.search(r"(\d+) x missile", line).group(1))
        hits = int(re.search(r"(\d+) hit", line).group(1))
        rolls = len(re.search(r"dice ([\d ]+)", line).group(1).split())
        assert rolls == k + min(hits, 5), line


@pytest.mark.parametrize("option", ["damage_control", "planets_block_fire", "simultaneous_movement",
                                    "restricted_field_of_fire", "unbounded_map"])
def test_each_optional_rule_plays_and_changes_only_what_it_should(tmp_path, option):
    base = (ROOT / "scenarios/starfire/mirror.toml").read_text()
    text = base.replace("[sides.blue]", f"[[objects]]\nkind = \"planet\"\nname = \"p\"\n"
                                        f"hex = \"1513\"\n\n[options]\n{option} = true\n\n[sides.blue]")
    p = tmp_path / "opt.toml"
    p.write_text(text)
    lines, res = playthrough(p, seed=9)
    assert lines[-1].startswith("END after turn")
    again, _ = playthrough(p, seed=9)
    assert again == lines  # deterministic for a seed
    df = SCENARIO.table(p, trials=200, seed=2, progress=False)
    assert (df.wins.sum() + df.draws.iloc[0]) == 200


def test_how_battles_were_won_matches_the_game_logs():
    """The victory breakdown of a scenario run (decisive and minor wins, turns of the battles
    each side won, own ships destroyed) equals what the seeded game logs of the same trials
    show, battle by battle; the intervals hold their estimates."""
    from simkit.starfire.engine import how_battles_were_won
    from simkit.starfire.scenario import load_scenario
    path = ROOT / "scenarios/starfire/escalation.toml"
    n = 40
    frame = how_battles_were_won(SCENARIO.table(path, trials=n, seed=5, progress=False))
    sides = load_scenario(path).sides
    ships = {s.name: sides[s.side] for s in load_scenario(path).ships}
    want = {side: {"decisive": 0, "minor": 0, "turns": [], "lost": 0} for side in sides}
    for trial in range(n):
        lines, res = playthrough(path, seed=5, trial=trial)
        if res["winner"] is not None:
            w = want[res["winner"]]
            w["decisive" if res["level"] == 2 else "minor"] += 1
            w["turns"].append(res["turns"])
        for line in lines:
            if " DESTROYED " in line:
                want[ships[line.split()[-1]]]["lost"] += 1
    for side in sides:
        row = frame[frame.side == side].iloc[0]
        w = want[side]
        assert round(row.decisive_rate * n) == w["decisive"]
        assert round(row.minor_rate * n) == w["minor"]
        assert row.win_rate == pytest.approx(row.decisive_rate + row.minor_rate)
        if w["turns"]:
            assert row.mean_win_turns == pytest.approx(np.mean(w["turns"]))
            assert row.win_turns_lo <= row.mean_win_turns <= row.win_turns_hi
        assert row.mean_ships_lost == pytest.approx(w["lost"] / n)
        for col in ("decisive", "minor"):
            assert row[f"{col}_lo"] <= row[f"{col}_rate"] <= row[f"{col}_hi"]
        assert row.ships_lost_lo <= row.mean_ships_lost <= row.ships_lost_hi


def test_advanced_maneuvering_lowers_the_turn_mode_by_one(tmp_path):
    """(8.7): Advanced Maneuvering reduces a ship's turn mode by one point. Jackson (turn mode
    2) may not turn after a single point (test above); with Advanced Maneuvering it may."""
    p = edit(tmp_path, MOVEMENT.read_text(), **{
        'moves = ["M M LM M M"]': 'moves = ["M LM M M M"]\nadvanced_maneuvering = true'})
    assert {s.name: s.turn_mode for s in load_scenario(p).ships}["jackson"] == 1
    lines, _ = playthrough(p)
    assert any(re.match(r"T01 mp2 +jackson turns to face down-right", line) for line in lines)
    assert positions(lines, "jackson") == ["0708", "0808", "0909", "1009", "1110"]


DATALINK = ROOT / "tests/fixtures/starfire-datalink-simultaneous.toml"


def _missile_volleys(path):
    lines, _ = playthrough(path, seed=1)
    return sorted(int(m.group(1)) for line in lines
                  for m in [re.search(r"fire    \S+ -> target: (\d+) x missile", line)] if m)


def test_datalink_works_only_between_shields_and_armor_and_within_three_hexes(tmp_path):
    """(12.2): installed between the Shields and the Armor, three members within 3 hexes of
    one another fire one volley of 3 Missiles; the same DataLink behind the Armor does not
    work, so each ship fires its own; and a member 5 hexes from every other fires alone."""
    text = DATALINK.read_text()
    assert _missile_volleys(DATALINK) == [3]
    behind = edit(tmp_path, text, **{"S S Z A R E I": "S S A Z R E I"})
    assert _missile_volleys(behind) == [1, 1, 1]
    p = tmp_path / "apart.toml"
    p.write_text(text.replace('hex = "1013"', 'hex = "1017"'))
    assert _missile_volleys(p) == [1, 2]


PIVOT = """
game = "starfire"
name = "pivot"
label = "ORIGINAL"
source = "test: (4.4) with (4.5)"
turns = 2
initiative = "a"
[sides.a]
policy = "scripted"
[[sides.a.ships]]
name = "turner"
sheet = "FG - (2) - S A I I (2)"
hex = "1010"
facing = "down"
moves = {moves}
[sides.b]
policy = "scripted"
[[sides.b.ships]]
name = "other"
sheet = "S A I I"
hex = "2020"
moves = ["S S", "S S"]
"""


def test_turning_in_place_resets_the_turn_mode_count(tmp_path):
    """(4.4) with (4.5), simkit's reading (docs/rules/starfire.md): the points of a turn spent
    pivoting were spent facing the old way, so the new facing starts from 0 points. Two points
    straight ahead carry over and allow a turn at the next turn's first point; a pivot does
    not, and the turn needs two more points in the new direction."""
    p = tmp_path / "pivot.toml"
    p.write_text(PIVOT.format(moves='["M M", "RM M"]'))
    playthrough(p)  # carried over: legal (4.4)
    p.write_text(PIVOT.format(moves='["P1", "RM M"]'))
    with pytest.raises(UserInputError, match="turner in turn 2: turns before its turn mode"):
        playthrough(p)
    p.write_text(PIVOT.format(moves='["P1", "M RM"]'))
    with pytest.raises(UserInputError, match="turner in turn 2: turns before its turn mode"):
        playthrough(p)
    p.write_text(PIVOT.format(moves='["P1", "M M"]'))
    lines, _ = playthrough(p)
    assert any("pivot   turner in 1010 to face up-right" in line for line in lines), lines
