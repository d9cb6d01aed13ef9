"""The compiled fire resolution against its exact oracle (STYLE.md habit 8).

Two independent checks: (1) differential replay -- random dice recorded while the plain-Python
reference resolves a volley, then replayed through the compiled kernel, must give the same
sheet; (2) Monte Carlo from the kernel's own random streams against the exact distribution
enumerated from the reference (G-test at a fixed seed, alpha = 1e-3).
"""

import random

import numpy as np
import pytest

from simkit.core import exact, runner, stats
from simkit.core.exact import RecordingDice
from simkit.starfire import reference
from simkit.starfire.procedures import Target, fire_volley, hit_lookup
from simkit.starfire.rules import FAMILIES, combat_tables, family_index
from simkit.starfire.pieces.sheet import parse_sheet
from simkit.starfire.procedures import HIST, WeaponTable

SHEETS = {
    "wisconsin": "S S S S S S S S S S A A H W I O P W I (M2) O W F H O D C I I I",
    "pd_ship": "S D A D H O I I",
    "dampened": "S O O E H H I I",
    "freighter": "S A H H H H B H H H H H I I",
    "bare": "H W Z I D I",
}



@pytest.mark.parametrize("sheet", sorted(SHEETS))
def test_kernel_replays_the_reference_dice_identically(sheet):
    rng = random.Random(11)
    tables = combat_tables()
    for _ in range(150):
        fam = rng.choice(FAMILIES)
        r = rng.randint(0, 20)
        k = rng.randint(1, 6)
        tractor = rng.choice(["none", "none", "firer_tractoring", "firer_held"])
        hit, eff, auto = hit_lookup(tables, family_index(fam), r, tractor)
        ship = reference.Ship(SHEETS[sheet].split())
        rec = RecordingDice(rng)
        ref = reference.volley_on(ship, rec, fam, k, hit, eff, auto)
        t = Target(SHEETS[sheet])
        got = fire_volley(t, fam, r, k, rolls=rec.rolls, tractor=tractor)
        assert (got["hits"], int(got["points"] * 2), got["stopped"]) == ref
        want = [0 if s == reference.GONE else 1 if s == reference.CIRCLED else 2 for s in ship.state]
        assert list(t.hp) == want, (fam, r, k, tractor, rec.rolls)


CASES = [  # (sheet, family, range, volley)
    ("wisconsin", "primary_beam", 4, 2),
    ("wisconsin", "force_beam", 14, 3),
    ("pd_ship", "missile", 5, 4),
    ("dampened", "energy_beam", 2, 2),
    ("freighter", "laser_beam", 3, 3),
    ("bare", "primary_beam", 12, 2),
]


@pytest.mark.parametrize("sheet,family,rng,k", CASES)
def test_monte_carlo_matches_exact_distribution(sheet, family, rng, k):
    sim = WeaponTable(parse_sheet(SHEETS[sheet]), [rng], k, families=(family,))
    n = 200_000
    res = runner.run(sim, n, seed=99, progress=False)
    tot = sim.cell_totals(res.totals)[0]
    dist = sim.exact(0)
    assert dist is not None
    n_sys = len(sim.codes)
    p_destroyed = np.zeros(n_sys + 1)
    for outcome, p in dist.items():
        p_destroyed[outcome[2]] += float(p)
    g = stats.g_test(tot[HIST:HIST + n_sys + 1], p_destroyed)
    assert g.pvalue > 1e-3, g
    # and the hit count per shot is binomial with the exact table probability
    ex_hits = float(exact.expectation(dist, lambda o: o[0]))
    frame = sim.summarise(res.totals, n)
    assert frame.p_hit_lo[0] - 1e-3 <= ex_hits / k <= frame.p_hit_hi[0] + 1e-3
    assert frame.mean_damage_lo[0] - 1e-3 <= frame.mean_damage_exact[0] <= frame.mean_damage_hi[0] + 1e-3


def test_exact_single_shot_values_by_hand():
    """Hand-checkable exact cells: Force Beam at range 4 hits on 2d6 <= 10 (33/36) for 2 points."""
    sim = WeaponTable(parse_sheet(SHEETS["wisconsin"]), [4], 1, families=("force_beam",))
    dist = sim.exact(0)
    assert exact.expectation(dist, lambda o: o[1]) == exact.Fraction(33, 36) * 4
    assert exact.probability(dist, lambda o: o[2] == 2) == exact.Fraction(33, 36)
