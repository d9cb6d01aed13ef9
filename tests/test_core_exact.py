"""The dice-path enumerator against brute force and icepool (simkit.core.exact)."""

import itertools
from fractions import Fraction

import icepool

from simkit.core import exact


def test_sum_distribution_matches_icepool_and_brute_force():
    brute = {}
    for faces in itertools.product(range(1, 7), repeat=3):
        brute[sum(faces)] = brute.get(sum(faces), 0) + 1
    dist = dict(exact.sum_distribution(3, 6))
    assert dist == {k: Fraction(v, 216) for k, v in brute.items()}
    assert exact.p_at_most(2, 6, 7) == Fraction(21, 36)
    assert exact.p_at_most(2, 6, 7) == Fraction((2 @ icepool.d6 <= 7).probability(True))


def test_enumeration_of_a_branching_procedure_is_exact():
    """Roll 2d6; on 7 or less roll a d6 and add it; brute force agrees."""

    def proc(dice):
        a = dice.roll(2, 6)
        return a + dice.roll(1, 6) if a <= 7 else a

    brute = {}
    for x, y, z in itertools.product(range(1, 7), repeat=3):
        v = x + y + z if x + y <= 7 else x + y
        brute[v] = brute.get(v, Fraction(0)) + Fraction(1, 216)
    assert exact.distribution(proc) == brute


def test_at_most_branches_two_ways_and_skips_certain_outcomes():
    def proc(dice):
        return (dice.at_most(2, 6, 12), dice.at_most(2, 6, 1), dice.at_most(1, 6, 2))

    d = exact.distribution(proc)
    assert d == {(True, False, True): Fraction(1, 3), (True, False, False): Fraction(2, 3)}


def test_scripted_dice_for_python_references():
    s = exact.ScriptedDice([5, 11, 4])
    assert s.at_most(2, 6, 10) and not s.at_most(2, 6, 10) and s.roll(1, 6) == 4
    assert s.exhausted
