"""The design space: what a legal candidate is (the ``DesignSpace`` protocol a game supplies)
and :class:`IntBoxSpace`, integer fields bought from one or more budgets.

A candidate is a ``tuple`` of ``int``, one per field; see :mod:`simkit.core.search` for the
protocol and the pricing rules."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Protocol, Sequence, runtime_checkable

import numpy as np


Candidate = tuple
FOCUS_KEEP = 0.5   # sample_focused: the chance a field may take points


@runtime_checkable
class DesignSpace(Protocol):
    """What the search needs from a game's design space (see the module docstring)."""

    columns: tuple[str, ...]

    def sample(self, rng: np.random.Generator) -> Candidate: ...

    def mutate(self, c: Candidate, rng: np.random.Generator) -> Candidate: ...

    def crossover(self, a: Candidate, b: Candidate, rng: np.random.Generator) -> Candidate: ...

    def describe(self, c: Candidate) -> str: ...

    def is_legal(self, c: Candidate) -> bool: ...


@dataclass(frozen=True)
class IntField:
    """One integer field: values ``lo, lo+step, ..., hi`` (or explicit ``values``), each with a
    price (see :class:`IntBoxSpace`). Later values count as "more" when the budget is filled."""

    name: str
    lo: int = 0
    hi: int = 0
    step: int = 1
    cost: Any = 1
    values: tuple | None = None

    def value_list(self) -> list[int]:
        if self.values is not None:
            vals = [int(v) for v in self.values]
            if not vals or len(set(vals)) != len(vals):
                raise ValueError(f"field {self.name!r}: values must be distinct and non-empty")
            return vals
        if self.step < 1 or self.hi < self.lo:
            raise ValueError(f"field {self.name!r}: need lo <= hi and step >= 1")
        return list(range(int(self.lo), int(self.hi) + 1, int(self.step)))


def _price_table(spec, field: IntField, values: list[int]) -> np.ndarray:
    if callable(spec):
        out = [int(spec(v)) for v in values]
    elif isinstance(spec, (int, np.integer)) and not isinstance(spec, bool):
        # an int prices every started step counted from 0, as 102 A prices Fuel by the 10
        # Levels; a field pinned to one value (lo == hi) still pays for it
        step = max(1, int(field.step))
        out = [int(spec) * -(-v // step) for v in values]
    else:
        out = [int(x) for x in spec]
        if len(out) != len(values):
            raise ValueError(f"field {field.name!r}: {len(out)} prices for {len(values)} values")
    return np.asarray(out, dtype=np.int64)


class IntBoxSpace:
    """Integer fields bought from one or more budgets; legal by construction.

    ``fields``: :class:`IntField` s. ``budgets``: ``{resource: limit}`` or an int (resource
    ``"cost"``). A field's ``cost`` is an int per step, a sequence per value, a callable of the
    value, or a dict ``{resource: ...}`` of those (a resource it does not name costs nothing).
    ``legal``: optional extra rule ``candidate -> bool``. With ``fill`` every candidate the
    space hands out is maximal: no single field can go one value up within the budgets.
    """

    def __init__(self, fields: Sequence[IntField], budgets, *, legal: Callable | None = None,
                 fill: bool = True, describe: Callable | None = None, max_tries: int = 200):
        if not fields:
            raise ValueError("an IntBoxSpace needs at least one field")
        self.fields = tuple(fields)
        self.columns = tuple(f.name for f in self.fields)
        if len(set(self.columns)) != len(self.columns):
            raise ValueError("field names must be distinct")
        if isinstance(budgets, (int, np.integer)):
            budgets = {"cost": int(budgets)}
        self.budgets = {str(k): int(v) for k, v in budgets.items()}
        self.resources = tuple(self.budgets)
        self.limit = np.array([self.budgets[r] for r in self.resources], dtype=np.int64)
        self.values = [f.value_list() for f in self.fields]
        self._pos = [{v: i for i, v in enumerate(vals)} for vals in self.values]
        # price[f] has shape (n_resources, n_values_f)
        self.price = []
        for f, vals in zip(self.fields, self.values):
            spec = f.cost if isinstance(f.cost, dict) else {self.resources[0]: f.cost}
            unknown = set(spec) - set(self.resources)
            if unknown:
                raise ValueError(f"field {f.name!r} prices unknown resources {sorted(unknown)}")
            self.price.append(np.stack([
                _price_table(spec[r], f, vals) if r in spec else np.zeros(len(vals), np.int64)
                for r in self.resources]))
        self.legal = legal
        self.fill = fill
        self._describe = describe
        self.max_tries = max_tries
        # the same prices as plain tuples: the GA's repair loops run on these, and numpy calls
        # on two-element arrays cost more than the arithmetic
        self._pv = [[tuple(int(x) for x in p[:, i]) for i in range(p.shape[1])]
                    for p in self.price]
        self._lim = tuple(int(x) for x in self.limit)
        floor = self._spent([0] * len(self.fields))
        if any(a > b for a, b in zip(floor, self._lim)):
            raise ValueError(f"even the lowest value of every field costs {floor}, "
                             f"over the budgets {self.budgets}")
        # cheapest value of each field per resource, to keep room for fields still to choose
        self._cheapest = np.stack([p.min(axis=1) for p in self.price])  # (n_fields, n_res)

    # -- positions (value indices) <-> candidates
    def _spent(self, pos) -> list[int]:
        total = [0] * len(self._lim)
        for f, i in enumerate(pos):
            for r, x in enumerate(self._pv[f][i]):
                total[r] += x
        return total

    def _to_candidate(self, pos) -> Candidate:
        return tuple(int(self.values[f][i]) for f, i in enumerate(pos))

    def _to_pos(self, c) -> list[int] | None:
        if len(c) != len(self.fields):
            return None
        try:
            return [self._pos[f][int(v)] for f, v in enumerate(c)]
        except (KeyError, TypeError, ValueError):
            return None

    def cost(self, c) -> dict[str, int]:
        """What ``c`` spends of each budget."""
        pos = self._to_pos(c)
        if pos is None:
            raise ValueError(f"{c!r} is not a point of this space")
        return dict(zip(self.resources, self._spent(pos)))

    def _fits(self, pos) -> bool:
        return all(a <= b for a, b in zip(self._spent(pos), self._lim)) and (
            self.legal is None or bool(self.legal(self._to_candidate(pos))))

    def is_legal(self, c) -> bool:
        pos = self._to_pos(c)
        return pos is not None and self._fits(pos)

    def is_maximal(self, c) -> bool:
        """No field can take its next value within the budgets (and the extra rule)."""
        pos = self._to_pos(c)
        if pos is None:
            return False
        for f in range(len(pos)):
            if pos[f] + 1 < len(self.values[f]):
                up = list(pos)
                up[f] += 1
                if self._fits(up):
                    return False
        return True

    def describe(self, c) -> str:
        if self._describe is not None:
            return self._describe(c)
        return ",".join(f"{n}={v}" for n, v in zip(self.columns, c))

    # -- repair and fill
    def _repair(self, pos, rng, keep=()) -> list[int] | None:
        """Lower random fields one value at a time until every budget holds; ``keep`` fields
        are lowered only when nothing else can help."""
        pos = list(pos)
        for _ in range(sum(len(v) for v in self.values) + 1):
            over = [r for r, (a, b) in enumerate(zip(self._spent(pos), self._lim)) if a > b]
            if not over:
                return pos
            helps = [f for f in range(len(pos)) if pos[f] > 0
                     and any(self._pv[f][pos[f] - 1][r] < self._pv[f][pos[f]][r] for r in over)]
            pick = [f for f in helps if f not in keep] or helps
            if not pick:
                return None
            pos[pick[rng.integers(len(pick))]] -= 1
        return None

    def _fill(self, pos, rng, hold=()) -> list[int]:
        """Raise random fields one value at a time while any still fits (``hold`` last)."""
        pos = list(pos)
        for held in (True, False):
            while True:
                can = []
                for f in range(len(pos)):
                    if (held and f in hold) or pos[f] + 1 >= len(self.values[f]):
                        continue
                    pos[f] += 1
                    if self._fits(pos):
                        can.append(f)
                    pos[f] -= 1
                if not can:
                    break
                pos[can[rng.integers(len(can))]] += 1
            if not hold:
                break
        return pos

    def _finish(self, pos, rng, keep=()) -> list[int] | None:
        pos = self._repair(pos, rng, keep)
        if pos is None:
            return None
        if self.fill:
            pos = self._fill(pos, rng, hold=keep)
        return pos if self._fits(pos) else None

    # -- the DesignSpace protocol
    def sample(self, rng) -> Candidate:
        n = len(self.fields)
        for _ in range(self.max_tries):
            pos = [0] * n
            spent = np.asarray(self._spent(pos), dtype=np.int64)
            for f in rng.permutation(n):
                f = int(f)
                rest = spent - self.price[f][:, 0]
                ok = np.flatnonzero(np.all(rest[:, None] + self.price[f] <= self.limit[:, None],
                                           axis=0))
                pos[f] = int(ok[rng.integers(len(ok))])
                spent = rest + self.price[f][:, pos[f]]
            pos = self._finish(pos, rng)
            if pos is not None:
                return self._to_candidate(pos)
        raise ValueError("could not sample a legal candidate: the extra `legal` rule rejects "
                         f"every one of {self.max_tries} tries")

    def sample_focused(self, rng) -> Candidate:
        """A random legal candidate that spends only on a random subset of the fields (each
        kept with chance ``FOCUS_KEEP``), the rest at their lowest value: an archetype.
        Uniform samples spread the budget over every field, so a strong region that puts
        nothing into some fields (a Demon's Run ship without Screens or weapons) is rarely
        among them."""
        n = len(self.fields)
        for _ in range(self.max_tries):
            kept = rng.random(n) < FOCUS_KEEP
            if not kept.any():
                kept[int(rng.integers(n))] = True
            pos = [0] * n
            if not self._fits(pos):
                break
            # the other fields only take what the kept ones cannot (a maximal build)
            pos = self._fill(pos, rng, hold=tuple(f for f in range(n) if not kept[f]))
            if self._fits(pos):
                return self._to_candidate(pos)
        return self.sample(rng)

    def mutate(self, c, rng) -> Candidate:
        start = self._to_pos(c)
        if start is None:
            raise ValueError(f"{c!r} is not a point of this space")
        n = len(self.fields)
        for _ in range(self.max_tries):
            pos = list(start)
            k = 1 if n == 1 or rng.random() < 0.7 else 2
            moved = [int(f) for f in rng.choice(n, size=k, replace=False)]
            for f in moved:
                m = len(self.values[f])
                if m == 1:
                    continue
                if rng.random() < 0.25:  # a jump anywhere, else a few steps
                    pos[f] = int(rng.integers(m))
                else:
                    d = int(rng.integers(1, 4)) * (1 if rng.random() < 0.5 else -1)
                    pos[f] = int(np.clip(pos[f] + d, 0, m - 1))
            pos = self._finish(pos, rng, keep=tuple(moved))
            if pos is not None and pos != start:
                return self._to_candidate(pos)
        return tuple(c)

    def crossover(self, a, b, rng) -> Candidate:
        pa, pb = self._to_pos(a), self._to_pos(b)
        if pa is None or pb is None:
            raise ValueError("crossover of a candidate that is not a point of this space")
        for _ in range(self.max_tries):
            mask = rng.random(len(pa)) < 0.5
            pos = self._finish([x if m else y for x, y, m in zip(pa, pb, mask)], rng)
            if pos is not None:
                return self._to_candidate(pos)
        return tuple(a)

    def enumerate(self, limit: int = 200_000) -> list[Candidate]:
        """Every legal candidate (only maximal ones with ``fill``), in lexicographic order."""
        n = len(self.fields)
        cheapest_rest = np.zeros((n + 1, len(self.resources)), dtype=np.int64)
        for f in range(n - 1, -1, -1):
            cheapest_rest[f] = cheapest_rest[f + 1] + self._cheapest[f]
        out: list[Candidate] = []
        pos = [0] * n

        def walk(f, spent):
            if f == n:
                if (self.legal is None or self.legal(self._to_candidate(pos))) and (
                        not self.fill or self.is_maximal(self._to_candidate(pos))):
                    out.append(self._to_candidate(pos))
                    if len(out) > limit:
                        raise ValueError(f"the space has more than {limit} candidates")
                return
            for i in range(len(self.values[f])):
                s = spent + self.price[f][:, i]
                if np.all(s + cheapest_rest[f + 1] <= self.limit):
                    pos[f] = i
                    walk(f + 1, s)
            pos[f] = 0

        walk(0, np.zeros(len(self.resources), dtype=np.int64))
        return out

    def neighbours(self, c, rng=None) -> list[Candidate]:
        """Every legal candidate one move of points away from ``c``: one field one value
        down, another one value up (then, with ``fill``, anything left over spent by raising
        fields, at random with ``rng``, else in field order). The polish of
        :func:`search` (``method="race"``) walks these."""
        start = self._to_pos(c)
        if start is None:
            raise ValueError(f"{c!r} is not a point of this space")
        out: list[Candidate] = []
        for down in range(len(start)):
            if start[down] == 0:
                continue
            for up in range(len(start)):
                if up == down or start[up] + 1 >= len(self.values[up]):
                    continue
                pos = list(start)
                pos[down] -= 1
                pos[up] += 1
                if not self._fits(pos):
                    continue
                if self.fill:
                    pos = (self._fill(pos, rng, hold=(down,)) if rng is not None
                           else self._fill_in_order(pos, hold=(down,)))
                cand = self._to_candidate(pos)
                if pos != start and cand not in out:
                    out.append(cand)
        return out

    def _fill_in_order(self, pos, hold=()) -> list[int]:
        pos = list(pos)
        for f in [f for f in range(len(pos)) if f not in hold] + list(hold):
            while pos[f] + 1 < len(self.values[f]):
                pos[f] += 1
                if not self._fits(pos):
                    pos[f] -= 1
                    break
        return pos
