"""Exact distributions of dice procedures, by enumerating every path through their dice.

A *procedure* is plain Python that takes a dice source as its first argument and returns a
hashable outcome. :func:`distribution` runs it once per distinct path through its rolls,
branching on every possible result with the probability icepool gives for that roll (a sum of
``n`` dice, or the two-way split of "at most ``t``"), and returns the exact outcome
distribution as :class:`fractions.Fraction` weights.

This is the oracle the compiled kernels are held to (STYLE.md habit 8): the pure-Python
reference implementations of each game's procedures run on :class:`EnumeratingDice`, and the
same reference replays rulebook examples on :class:`ScriptedDice`.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Callable, Hashable

import icepool

from .errors import ScriptedDiceError


@lru_cache(maxsize=None)
def sum_distribution(n: int, sides: int) -> tuple[tuple[int, Fraction], ...]:
    """Exact distribution of the sum of ``n`` dice with ``sides`` faces (from icepool)."""
    die = n @ icepool.d(sides)
    denom = die.denominator()
    return tuple((int(v), Fraction(int(q), int(denom))) for v, q in die.items() if q)


@lru_cache(maxsize=None)
def p_at_most(n: int, sides: int, target: int) -> Fraction:
    """P(sum of n d`sides` <= target), exactly."""
    return sum((p for v, p in sum_distribution(n, sides) if v <= target), Fraction(0))


class ScriptedDice:
    """Replays a list of roll results (one per roll) in a pure-Python procedure."""

    def __init__(self, rolls):
        self.rolls = list(rolls)
        self.pos = 0

    def roll(self, n: int, sides: int) -> int:
        if self.pos >= len(self.rolls):
            raise ScriptedDiceError("scripted dice ran out of rolls")
        v = int(self.rolls[self.pos])
        if not n <= v <= n * sides:
            raise ScriptedDiceError("scripted roll is outside the range the dice can show")
        self.pos += 1
        return v

    def at_most(self, n: int, sides: int, target: int) -> bool:
        return self.roll(n, sides) <= target

    @property
    def exhausted(self) -> bool:
        return self.pos == len(self.rolls)


class RecordingDice:
    """Random dice for pure-Python procedures that remember every roll (one entry per roll),
    so the same dice can be replayed through a compiled kernel as a script: the differential
    test between a reference and its kernel. ``rng`` is a seed or a ``random.Random``."""

    def __init__(self, rng):
        import random

        self.rng = rng if isinstance(rng, random.Random) else random.Random(rng)
        self.rolls: list[int] = []

    def roll(self, n: int, sides: int) -> int:
        v = sum(self.rng.randint(1, sides) for _ in range(n))
        self.rolls.append(v)
        return v

    def at_most(self, n: int, sides: int, target: int) -> bool:
        return self.roll(n, sides) <= target


class EnumeratingDice:
    """A dice source that follows a prescribed path and records where the path branches."""

    def __init__(self, path: list[int]):
        self.path = path
        self.depth = 0
        self.prob = Fraction(1)
        self.branches: list[int] = []  # number of options at each depth visited

    def _choose(self, options):
        i = self.path[self.depth] if self.depth < len(self.path) else 0
        if self.depth >= len(self.path):
            self.path.append(0)
        self.branches.append(len(options))
        self.depth += 1
        value, p = options[i]
        self.prob *= p
        return value

    def roll(self, n: int, sides: int) -> int:
        return self._choose(sum_distribution(n, sides))

    def at_most(self, n: int, sides: int, target: int) -> bool:
        p = p_at_most(n, sides, target)
        if p == 0:
            return False
        if p == 1:
            return True
        return self._choose(((True, p), (False, 1 - p)))


def distribution(procedure: Callable[..., Hashable], *args, max_paths: int = 2_000_000,
                 **kwargs) -> dict[Hashable, Fraction]:
    """Exact outcome distribution of ``procedure(dice, *args, **kwargs)``.

    Depth-first over dice paths: run along ``path``, then advance the deepest branch that has
    options left. Raises if more than ``max_paths`` paths are needed (the procedure is too big
    to enumerate; use Monte Carlo with an interval instead).
    """
    out: dict[Hashable, Fraction] = {}
    path: list[int] = []
    n_paths = 0
    while True:
        dice = EnumeratingDice(path)
        outcome = procedure(dice, *args, **kwargs)
        out[outcome] = out.get(outcome, Fraction(0)) + dice.prob
        n_paths += 1
        if n_paths > max_paths:
            raise RuntimeError(f"more than {max_paths} dice paths; too large to enumerate")
        # advance to the next path: drop exhausted tail branches, bump the deepest open one
        del path[dice.depth:]
        while path and path[-1] + 1 >= dice.branches[len(path) - 1]:
            path.pop()
        if not path:
            break
        path[-1] += 1
    total = sum(out.values(), Fraction(0))
    if total != 1:  # the enumeration itself is wrong if this fails
        raise AssertionError(f"path probabilities sum to {total}, not 1")
    return out


def expectation(dist: dict, f: Callable = lambda x: x) -> Fraction:
    return sum((p * Fraction(f(o)) for o, p in dist.items()), Fraction(0))


def probability(dist: dict, pred: Callable) -> Fraction:
    return sum((p for o, p in dist.items() if pred(o)), Fraction(0))
