"""The genetic proposal: new candidates from the current standing by binary tournament,
crossover and mutation (the space's own operators), with a share of fresh random samples."""

from __future__ import annotations

from .space import Candidate


IMMIGRANTS = 0.1  # share of fresh random samples among proposals (keeps diversity)
CROSSOVER = 0.5


def _propose(space, led, rng, m, include, sampler=None):
    """``m`` candidates never raced before: ``include`` first, then GA children; fresh
    samples (the first generation's, and immigrants) come from ``sampler(rng)``, by default
    ``space.sample``."""
    sampler = sampler or space.sample
    out: list[Candidate] = []
    seen = set(led.index)
    for c in include:
        if c not in seen and c not in out:
            out.append(c)
    parents, _ = led.standing()
    parents = [led.cands[i] for i in parents[:m]]

    def pick():
        a, b = rng.integers(len(parents), size=2)
        return parents[min(a, b)]  # binary tournament on the standing

    tries = 0
    while len(out) < m and tries < 20 * m:
        tries += 1
        u = rng.random()
        if not parents or u < IMMIGRANTS:
            child = sampler(rng)
        elif u < IMMIGRANTS + CROSSOVER and len(parents) > 1:
            child = space.crossover(pick(), pick(), rng)
            if rng.random() < 0.5:
                child = space.mutate(child, rng)
        else:
            child = space.mutate(pick(), rng)
        child = tuple(int(x) for x in child)
        if child not in seen and child not in out:
            out.append(child)
    return out
