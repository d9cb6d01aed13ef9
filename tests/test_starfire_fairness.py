"""Fairness of the Starfire admirals (issue 13, Evidence): identical fleets are interchangeable
whatever their side names or list order, and the initiative (3.21: move last, fire first) is
worth something. Seeded battles, judged with statistical tolerances."""

import re
from pathlib import Path

import pytest
from scipy.stats import binomtest, fisher_exact

from simkit.starfire import SCENARIO

ROOT = Path(__file__).resolve().parent.parent
MIRROR = (ROOT / "scenarios/starfire/mirror.toml").read_text()
TRIALS = 3000


def _swap_sides(text):
    """The same battle with the red side listed first (its ships first in the arrays)."""
    head, rest = text.split("[sides.blue]", 1)
    blue, red = rest.split("[sides.red]", 1)
    return head + "[sides.red]" + red.rstrip() + "\n\n[sides.blue]" + blue


def _rename(text):
    return text.replace("blue", "alpha").replace("red", "zulu")


def _swap_ships(text):
    """Each side lists its destroyer before its cruiser."""
    def swap(block):
        parts = block.split("[[sides.")
        return parts[0] + "[[sides." + parts[2].rstrip() + "\n[[sides." + parts[1].rstrip() + "\n\n"
    head, rest = text.split("[sides.blue]", 1)
    blue, red = rest.split("[sides.red]", 1)
    return head + "[sides.blue]" + swap(blue) + "[sides.red]" + swap(red)


def _west_wins(tmp_path, text, name):
    """(wins of the side starting at column 05, decided games)."""
    p = tmp_path / f"{name}.toml"
    p.write_text(text)
    df = SCENARIO.table(p, trials=TRIALS, seed=7, progress=False)
    west = re.search(r'\[sides\.(\w+)\]\s*\npolicy = "closer"\s*\n\[\[sides\.\1\.ships\]\]\s*\n'
                     r'name = "[\w-]+"\s*\nsheet = "[^"]*"\s*\nhex = "05', text).group(1)
    row = df[df.side == west].iloc[0]
    other = df[df.side != west].iloc[0]
    return int(row.wins), int(row.wins + other.wins)


@pytest.mark.parametrize("variant", ["swap_sides", "rename", "swap_ships"])
def test_identical_fleets_are_interchangeable(tmp_path, variant):
    text = {"swap_sides": _swap_sides, "rename": _rename, "swap_ships": _swap_ships}[variant](
        MIRROR)
    assert text != MIRROR
    w0, n0 = _west_wins(tmp_path, MIRROR, "mirror")
    w1, n1 = _west_wins(tmp_path, text, variant)
    # each is an even fight, and the relabelled one does not differ from the original
    assert binomtest(w0, n0).pvalue > 1e-3
    assert binomtest(w1, n1).pvalue > 1e-3
    assert fisher_exact([[w0, n0 - w0], [w1, n1 - w1]])[1] > 1e-3


@pytest.mark.parametrize("side", ["blue", "red"])
def test_initiative_is_worth_something(tmp_path, side):
    """With the initiative fixed to one side every turn, that side wins at least half its
    decided battles (the whole Wilson interval at or above 50%). Issue 13 saw 45% before."""
    p = tmp_path / "init.toml"
    p.write_text(MIRROR.replace('initiative = "roll"', f'initiative = "{side}"'))
    df = SCENARIO.table(p, trials=1000, seed=3, progress=False)
    row = df[df.side == side].iloc[0]
    assert row.win_lo >= 0.5, df


# --- ties never follow list order (DESIGN.md): equal choices are drawn from the dice stream ---

TIE = """
game = "starfire"
name = "ties"
label = "ORIGINAL"
source = "test position"
turns = 1
initiative = "a"
[sides.a]
policy = "{policy}"
[[sides.a.ships]]
name = "one"
sheet = "S S A G G G I"
hex = "0910"
facing = "down-right"
{moves}
[[sides.a.ships]]
name = "two"
sheet = "S S A G G G I"
hex = "0910"
facing = "down-right"
{moves}
[sides.b]
policy = "{policy}"
[[sides.b.ships]]
name = "near"
sheet = "S S S S S S S S A R I"
hex = "1010"
facing = "down-left"
{moves}
[[sides.b.ships]]
name = "far"
sheet = "S S S S S S S S A R I"
hex = "1010"
facing = "down-left"
{moves}
"""
SEEDS = range(60)


def _tie_scenario(tmp_path, policy="closer"):
    from simkit.starfire.scenario import load_scenario
    p = tmp_path / "tie.toml"
    p.write_text(TIE.format(policy=policy, moves='moves = ["S"]' if policy == "scripted" else ""))
    return p, load_scenario(p)


def _even(counts):
    """Every option drawn, and no evidence against an even draw."""
    assert all(c > 0 for c in counts.values()), counts
    k = list(counts.values())[0]
    assert binomtest(k, sum(counts.values())).pvalue > 1e-3, counts


def test_equal_targets_are_drawn_by_the_dice_not_list_order(tmp_path):
    """Two identical enemy ships in one hex are worth the same shot: each seed's stream picks
    one, the first listed no more often than the second."""
    from simkit.starfire.policies import decide
    _, sc = _tie_scenario(tmp_path)
    counts = {"near": 0, "far": 0}
    for seed in SEEDS:
        counts[decide(sc, "one", seed=seed)["target"]] += 1
    _even(counts)


def test_equally_near_enemies_are_drawn_by_the_dice_not_list_order(tmp_path):
    """Two enemy ships 5 hexes from ``one``, in different hexes: the one it closes on is drawn."""
    from simkit.starfire.policies import decide
    _, sc = _tie_scenario(tmp_path)
    counts = {"1510": 0, "1005": 0}
    for seed in SEEDS:
        d = decide(sc, "one", seed=seed, moved={"one": "1010", "near": "1510", "far": "1005"})
        counts[d["goal"]] += 1
    _even(counts)


def test_equal_ships_fire_in_an_order_drawn_by_the_dice(tmp_path):
    """(5.1): a side fires one ship at a time, its player choosing which; two identical ships
    with identical shots open fire equally often, whichever is listed first."""
    from simkit.starfire.scenario import playthrough
    p, _ = _tie_scenario(tmp_path, policy="scripted")
    counts = {"one": 0, "two": 0}
    for seed in SEEDS:
        lines, _ = playthrough(p, seed=seed)
        first = next(line for line in lines if " fire " in line)
        counts[first.split()[2]] += 1
    _even(counts)


def test_without_the_initiative_the_closer_fights_where_it_can_hurt(tmp_path):
    """With the initiative fixed to blue every turn, red's closer at engage = 0 took the least
    bad range anywhere (20 hexes), fled into the map edge and was caught at range 1: it won
    almost never. At the default engage it fights where its fire counts and wins clearly more
    (measured 22%, docs/rules/starfire.md), yet the initiative side still wins most battles."""
    text = MIRROR.replace('initiative = "roll"', 'initiative = "blue"')
    head, red = text.split("[sides.red]")
    wins = {}
    for engage in (0.0, None):
        p = tmp_path / "engage.toml"
        par = "" if engage is None else f"\nparams = {{ engage = {engage} }}"
        p.write_text(head + "[sides.red]" + red.replace('policy = "closer"',
                                                        'policy = "closer"' + par, 1))
        df = SCENARIO.table(p, trials=400, seed=13, progress=False)
        wins[engage] = int(df[df.side == "red"].iloc[0].wins)
    assert fisher_exact([[wins[None], 400 - wins[None]], [wins[0.0], 400 - wins[0.0]]],
                        alternative="greater")[1] < 1e-3, wins
    assert wins[None] < 200, wins
