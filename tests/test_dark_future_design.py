"""Dark Future vehicle design (p81-86): costs, payload, mounts, turrets, links, CLI."""

import pandas as pd
import pytest

from simkit import cli, games
from simkit.core.errors import UserInputError
from simkit.dark_future import builds as D


@pytest.fixture
def only_dark_future(monkeypatch):
    monkeypatch.setattr(games, "PACKAGES", {"dark-future": "simkit.dark_future"})


# Game Three's Renegades (the book's own armed cars) must all be legal designs
GAME_THREE = [
    "renegade: hood=mg, passive=oil", "renegade: wings=gl20, passive=smoke",
    "renegade: wings=mg, passive=spikes", "renegade: hood=gl40, passive=smoke",
    "renegade: hood=autocannon", "renegade: hood=chain_gun",
    "renegade: hood=mg, passive=spikes", "renegade: hood=gl20, passive=mines",
    "renegade: hood=autocannon, passive=mines",
]


@pytest.mark.parametrize("text", GAME_THREE)
def test_game_three_cars_are_valid(text):
    assert D.validate(D.car_from(text)).valid


def test_costs_and_weights_p81():
    r = D.check(D.car_from("renegade: hood=mg, passive=oil"))
    assert (r.cost, r.weight, r.payload) == (35000 + 5000 + 3000, 175 + 75, 600)
    r = D.check(D.car_from("interceptor: turret=lw_mg+lw_mg, sides=heavy_laser, passives=smoke"))
    assert r.cost == 70000 + 25000 + 2 * 6000 + 2 * 18000 + 2 * 2000
    assert r.weight == 150 + 2 * 80 + 2 * 200 + 2 * 50 and r.payload == 850 and r.valid
    r = D.check(D.car_from("interceptor: turret=mg+mg, sides=heavy_laser, passives=smoke"))
    assert r.weight == 1000 and r.violations == ("payload: weight 1000 is over the interceptor's 850",)
    r = D.check(D.car_from("bike: fairings=lw_mg, passive=lw_smoke"))
    assert (r.cost, r.weight, r.valid) == (15000 + 12000 + 1500, 160 + 50, True)
    r = D.check(D.car_from("bike: fairing_left=rag"), chosen={"rag_cost": "text"})
    assert r.cost == 20000


def test_game_four_budget():
    # $50,000 for a Renegade and at least one weapon: a hood chain gun does not fit the budget
    assert D.check(D.car_from("renegade: hood=autocannon, passive=oil"), 50000).valid
    r = D.check(D.car_from("renegade: hood=chain_gun"), 50000)
    assert not r.valid and "budget" in r.violations[0]


def test_every_violation_is_listed_in_one_message():
    car = D.car_from("renegade: wings=chain_gun, turret=missile_pod, roof=mg, passive=lw_oil, "
                     "link=hood+turret, gills=mg, hood=ray_gun")
    with pytest.raises(UserInputError) as e:
        D.validate(car)
    msg = str(e.value)
    assert "\n" not in msg
    for expect in ("wing_left: a heavy item", "wing_right: a heavy item", "no missile launcher",
                   "turret takes the roof", "passive: a lightweight passive", "payload",
                   "turret weapons cannot be linked", "gills: a renegade has no such mount",
                   "unknown weapon 'ray_gun'"):
        assert expect in msg, expect
    assert msg.startswith("car 'renegade: wings=chain_gun")


@pytest.mark.parametrize("text, fragment", [
    ("renegade: turret=chain_gun+mg", "one heavy weapon or two medium"),
    ("renegade: turret=mg+mg+mg", "one heavy weapon or two medium"),
    ("interceptor: wings=mg, link=wing_left+hood", "nothing fitted on hood"),
    ("interceptor: wing_left=mg, wing_right=gl20, link=wing_left+wing_right", "different weapons"),
    ("renegade: hood=mg", None),
    ("interceptor: sides=chain_gun, link=side_left+side_right", None),
    ("bike: fairings=mg", "cannot go on a bike's fairing_left"),
    ("bike: turret=lw_mg", "no such mount"),
    ("renegade: hood=mg+mg", "one weapon per mount"),
])
def test_mount_rules(text, fragment):
    r = D.check(D.car_from(text))
    if fragment is None:
        assert r.valid, r.violations
    else:
        assert any(fragment in v for v in r.violations), r.violations


def test_toml_car(tmp_path):
    p = tmp_path / "op.toml"
    p.write_text('vehicle = "interceptor"\nskill = 4\nlinks = [["wing_left", "wing_right"]]\n'
                 '[mounts]\nhood = "heavy_laser"\nwings = "mg"\npassive_left = "mines"\n')
    car = D.car_from(str(p))
    assert car.skill == 4 and car.mounts["wing_right"] == "mg"
    assert D.validate(car).valid
    p.write_text('skill = 4\n')
    with pytest.raises(UserInputError, match="op.toml: vehicle"):
        D.car_from(str(p))


def test_builds_cli(tmp_path, only_dark_future, capsys):
    out = tmp_path / "b.csv"
    assert cli.main(["builds", "dark-future", "--check", "renegade: hood=mg, passive=oil",
                     "--budget", "50000", "--out", str(out)]) == 0
    f = pd.read_csv(out)
    assert f.iloc[0].cost == 43000 and f.iloc[0].valid
    capsys.readouterr()
    rc = cli.main(["builds", "dark-future", "--check", "renegade: wings=chain_gun"])
    cap = capsys.readouterr()
    assert rc == 2 and "79000" in cap.out and "False" in cap.out
    assert len(cap.err.strip().splitlines()) == 1 and "wing_left" in cap.err and "wing_right" in cap.err
    rc = cli.main(["builds", "dark-future", "--check", "renegade: hood"])
    assert rc == 2 and "mount=weapon" in capsys.readouterr().err
