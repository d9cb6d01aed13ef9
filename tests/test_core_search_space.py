"""IntBoxSpace: every candidate it hands out is legal (within every budget, the extra rule
holds) and, with ``fill``, maximal; a property test over random spaces."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from simkit.core.search import IntBoxSpace, IntField


@st.composite
def spaces(draw):
    n_res = draw(st.integers(1, 2))
    resources = ["points", "weight"][:n_res]
    fields = []
    for i in range(draw(st.integers(1, 5))):
        lo = draw(st.integers(0, 3))
        step = draw(st.integers(1, 3))
        n_vals = draw(st.integers(1, 7))
        vals = list(range(lo, lo + step * n_vals, step))
        cost = {}
        for r in resources:
            kind = draw(st.sampled_from(["step", "table", "none"]))
            if kind == "step":
                cost[r] = draw(st.integers(0, 4))
            elif kind == "table":  # any prices, not even increasing
                cost[r] = draw(st.lists(st.integers(0, 9), min_size=n_vals, max_size=n_vals))
        fields.append(IntField(f"f{i}", lo, vals[-1], step, cost=cost))
    # what the lowest value of every field costs: a budget below it is refused
    def first_price(f, r):
        spec = f.cost.get(r, 0)
        return spec[0] if isinstance(spec, list) else spec * -(-f.lo // f.step)

    floor = {r: sum(first_price(f, r) for f in fields) for r in resources}
    budgets = {r: floor[r] + draw(st.integers(0, 25)) for r in resources}
    return IntBoxSpace(fields, budgets, fill=draw(st.booleans()))


def within(space, c):
    spent = space.cost(c)
    return all(spent[r] <= space.budgets[r] for r in space.resources)


@settings(max_examples=100, deadline=None)
@given(spaces(), st.integers(0, 2**32 - 1))
def test_sample_mutate_crossover_never_break_a_budget(space, seed):
    rng = np.random.default_rng(seed)
    a, b = space.sample(rng), space.sample(rng)
    kids = [a, b, space.mutate(a, rng), space.crossover(a, b, rng),
            space.mutate(space.crossover(b, a, rng), rng), space.sample_focused(rng)]
    for c in kids:
        assert isinstance(c, tuple) and all(isinstance(x, int) for x in c)
        assert within(space, c) and space.is_legal(c)
        if space.fill:
            assert space.is_maximal(c)
    everything = space.enumerate()
    assert set(kids) <= set(everything)
    assert all(within(space, c) for c in everything)


@settings(max_examples=60, deadline=None)
@given(spaces())
def test_enumerate_is_brute_force(space):
    grid = itertools.product(*space.values)
    want = [c for c in grid if space.is_legal(c) and (not space.fill or space.is_maximal(c))]
    assert space.enumerate() == want


def demons_run_like():
    """The Demon's Run purchase (102 A): 80 points, PI 3 per Level, Fuel bought in tens."""
    f = [IntField("fuel", 0, 300, 10, cost=1), IntField("si", 0, 20), IntField("pi", 0, 9, cost=3)]
    f += [IntField(n, 0, 12) for n in ("me", "mn", "tractor", "screens", "laser", "scrambler")]
    return IntBoxSpace(f, 80)


def test_a_demons_run_shaped_space_spends_its_80_points():
    space = demons_run_like()
    rng = np.random.default_rng(0)
    c = space.sample(rng)
    seen = {c}
    for _ in range(300):
        if rng.random() < 0.7:
            c = space.mutate(c, rng)
        else:
            c = space.crossover(c, space.sample(rng), rng)
        seen.add(c)
        assert space.is_maximal(c)
        assert 78 <= space.cost(c)["cost"] <= 80  # only PI's 3-point steps can leave change
    assert len(seen) > 250  # mutations move
    assert space.describe((210, 14, 3, 6, 6, 10, 4, 10, 0)) == (
        "fuel=210,si=14,pi=3,me=6,mn=6,tractor=10,screens=4,laser=10,scrambler=0")
    assert space.cost((210, 14, 3, 6, 6, 10, 4, 10, 0)) == {"cost": 80}


def test_catalogue_fields_two_budgets_and_an_extra_rule():
    """Dark-Future-shaped: mounts holding catalogue items (index 0 = empty) priced in dollars
    and pounds, and a rule the budgets cannot express (never the same item twice)."""
    dollars = [0, 1000, 2500, 4000, 7000]
    weight = [0, 100, 150, 300, 500]
    mounts = [IntField(m, 0, 4, cost={"dollars": dollars, "weight": weight})
              for m in ("hood", "roof", "wing")]
    space = IntBoxSpace(mounts, {"dollars": 10_000, "weight": 700},
                        legal=lambda c: len({x for x in c if x}) == len([x for x in c if x]))
    rng = np.random.default_rng(1)
    for _ in range(200):
        c = space.sample(rng)
        c = space.mutate(c, rng)
        assert space.is_legal(c) and space.is_maximal(c)
        spent = space.cost(c)
        assert spent["dollars"] <= 10_000 and spent["weight"] <= 700
    assert not space.is_legal((4, 4, 0))
    assert (4, 4, 0) not in space.enumerate()


def test_int_prices_count_steps_from_zero():
    # a Function pinned at one Level (a reduced space) still pays for it
    space = IntBoxSpace([IntField("si", 14, 14), IntField("fuel", 0, 300, 10, cost=1),
                         IntField("pi", 0, 9, cost=3)], 80)
    assert space.cost((14, 210, 3)) == {"cost": 14 + 21 + 9}
    assert IntBoxSpace([IntField("odd", 3, 7, 2, cost=5)], 99).cost((5,)) == {"cost": 15}


def test_bad_spaces_are_refused():
    with pytest.raises(ValueError, match="lowest value"):
        IntBoxSpace([IntField("a", 5, 9, cost=lambda v: v)], 3)
    with pytest.raises(ValueError, match="prices"):
        IntBoxSpace([IntField("a", 0, 2, cost=[1, 2])], 3)
    with pytest.raises(ValueError, match="unknown resources"):
        IntBoxSpace([IntField("a", 0, 2, cost={"gold": 1})], 3)
    with pytest.raises(ValueError, match="not a point"):
        IntBoxSpace([IntField("a", 0, 2)], 3).mutate((7,), np.random.default_rng(0))
