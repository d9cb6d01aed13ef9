"""Which 80-point ships are strong? The race evaluator for the shared build search.

A candidate is the nine Function Levels of a ship (``FIELDS`` order). :class:`RaceEvaluator`
races every candidate, flown by the chosen pilot, against a *field* of ships (a scenario-like
TOML of ``[[ship]]`` tables; default: the rulebook's worked ship flown by the buoy hunter) on
common random numbers. Seats rotate (issue 14 item 5): with ``k`` ships in the race the corners
are those of 100 B (two: A, D; three: A, B, D; four: A-D), and search race ``t`` puts the
candidate in corner ``seats[t % k]`` and field ship ``i`` in ``seats[(t + 1 + i) % k]``, so
every candidate meets every seat equally often and a corner's advantage cannot pass for a
build's strength. Race ``t`` is race ``t // k`` of the rotation's own stream, derived from
``(key, t % k)``: the same for every candidate (common random numbers). Statistics per
candidate (int64 sums): wins, VP, VP squared, destroyed, finished; ``trial_scores`` gives the
objective race by race, which the shared search's ``method="race"`` pairs across candidates.

The search itself (proposals, racing, polish, finals, leaderboard, plot, efficiency) is the
shared :mod:`simkit.core.search`; :func:`design_space` describes the legal builds to it.
:func:`evaluate` is the plain function form ``evaluate(builds, first, n, seed) -> int64``.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np

from simkit.core import dice
from simkit.core.data import read_toml
from simkit.core.errors import UserInputError

from . import engine as RK
from .builds import Build, check_build, parse_build, violations, worked_ship
from .scenario import RaceScenario, RaceSim, ShipEntry, scenario_from_raw
from .policies import POLICIES
from .rules import Rules, make_rules

FIELDS = ("fuel", "si", "pi", "me", "mn", "tractor", "screens", "laser", "scrambler")
E_WIN, E_VP, E_VP2, E_DESTROYED, E_FINISHED = range(5)
N_EVAL = 5
FIELD_CORNERS = "DBC"
SEATS = {2: "AD", 3: "ABD", 4: "ABCD"}   # 100 B: the corners by number of players
_SEAT_SALT = 0x5345415453414C54


def build_of(c) -> Build:
    return Build(**{k: int(v) for k, v in zip(FIELDS, c)})


def candidate_of(b: Build) -> tuple:
    return tuple(int(getattr(b, k)) for k in FIELDS)


def load_field(path=None, rules: Rules | None = None) -> list[ShipEntry]:
    """The opponents: ``[[ship]]`` tables (build, pilot, optional name/params), 1-3 ships."""
    rules = rules or make_rules()
    if path is None:
        return [ShipEntry("worked", "D", worked_ship(rules), "buoy_hunter")]
    where = str(path)
    raw = read_toml(path)
    ships = raw.get("ship")
    if not isinstance(ships, list) or not 1 <= len(ships) <= 3:
        raise UserInputError("needs 1-3 [[ship]] tables (the candidate is the fourth ship)",
                             where=where, field="ship")
    # reuse the scenario loader's validation: a synthetic scenario with the candidate slot
    body = {"game": "demons-run", "name": "field", "ship": []}
    for i, s in enumerate(ships):
        if not isinstance(s, dict):
            raise UserInputError("must be a table", where=where, field=f"ship[{i}]")
        s = dict(s)
        s["corner"] = FIELD_CORNERS[i]
        s.setdefault("name", f"field{i + 1}")
        body["ship"].append(s)
    # the candidate's slot, so the loader checks the field exactly as a race
    body["ship"].append({"name": "candidate slot", "corner": "A",
                         "build": str(worked_ship(rules)), "pilot": "safe_runner"})
    return scenario_from_raw(body, where).ships[:-1]


class RaceEvaluator:
    """Races candidates against a field on common random numbers, seats in rotation (see
    the module doc)."""

    name = "demons-run race"
    n_stats = N_EVAL
    search_method = "race"   # the shared search pairs races (trial_scores) and polishes

    def __init__(self, field=None, pilot="buoy_hunter", variants=None, board_path=None,
                 rules: Rules | None = None, objective="win_rate"):
        if pilot not in POLICIES:
            raise UserInputError(f"unknown pilot {pilot!r} (known: {', '.join(POLICIES)})",
                                 field="--pilot")
        self.rules = rules or make_rules(variants)
        self.field = list(field) if field is not None else load_field(None, self.rules)
        self.pilot = pilot
        self.variants = dict(self.rules.variants)
        self.board_path = board_path
        self.objective = objective
        self.seats = SEATS[1 + len(self.field)]
        self._sims: dict = {}

    def scenario(self, build: Build, rotation: int = 0) -> RaceScenario:
        k = len(self.seats)
        ships = [ShipEntry("candidate", self.seats[rotation % k], build, self.pilot)] + [
            replace(s, corner=self.seats[(rotation + 1 + i) % k])
            for i, s in enumerate(self.field)]
        return RaceScenario("<search>", "build search", "ORIGINAL", "", self.board_path, ships,
                            self.variants)

    def sim(self, c, rotation: int = 0) -> RaceSim:
        c = (tuple(int(v) for v in c), rotation)
        if c not in self._sims:
            if len(self._sims) > 256:
                self._sims.clear()
            self._sims[c] = RaceSim(self.scenario(build_of(c[0]), rotation))
        return self._sims[c]

    def _spans(self, first, n, key):
        """(rotation, its stream key, first, count): search races first..first+n-1 split by
        seat rotation (race t is race t // k of rotation t % k)."""
        k = len(self.seats)
        out = []
        for r in range(k):
            lo = -(-(first - r) // k)                 # smallest j with j*k + r >= first
            hi = -(-(first + n - r) // k)
            if hi > lo:
                out.append((r, np.uint64(dice._mix64_py(int(key) ^ (_SEAT_SALT + r))), lo,
                            hi - lo))
        return out

    def evaluate(self, candidates, first_trial, n_trials, key):
        cands = np.asarray(candidates, np.int64).reshape(-1, len(FIELDS))
        out = np.zeros((len(cands), N_EVAL), np.int64)
        spans = self._spans(int(first_trial), int(n_trials), key)
        for i, c in enumerate(cands):
            for r, rk, lo, m in spans:
                tot = RK.race_stats(rk, lo, m, *self.sim(c, r).args())
                o = RK.N_GLOBAL          # the candidate is ship 0
                out[i, E_WIN] += tot[o + RK.S_WINS]
                out[i, E_VP] += tot[o + RK.S_VP]
                out[i, E_VP2] += tot[o + RK.S_VP2]
                out[i, E_DESTROYED] += tot[o + RK.S_DESTROYED]
                out[i, E_FINISHED] += tot[o + RK.S_FINISHED]
        return out

    def trial_scores(self, candidates, first_trial, n_trials, key) -> np.ndarray:
        """The objective race by race (win 0/1, or VP), the same races as ``evaluate``."""
        cands = np.asarray(candidates, np.int64).reshape(-1, len(FIELDS))
        col = {"win_rate": RK.S_WINS, "mean_vp": RK.S_VP}.get(self.objective.lstrip("-"))
        if col is None:
            raise ValueError(f"no per-race values for objective {self.objective!r}")
        sign = -1 if self.objective.startswith("-") else 1
        k = len(self.seats)
        out = np.zeros((len(cands), int(n_trials)), np.int64)
        o = RK.N_GLOBAL + col
        for i, c in enumerate(cands):
            for r, rk, lo, m in self._spans(int(first_trial), int(n_trials), key):
                args = self.sim(c, r).args()
                for j in range(lo, lo + m):
                    out[i, j * k + r - int(first_trial)] = sign * RK.race_stats(rk, j, 1,
                                                                                *args)[o]
        return out


def evaluate(builds, first, n, seed, *, field=None, pilot="buoy_hunter") -> np.ndarray:
    """int64[len(builds), 5]: wins, VP, VP^2, destroyed, finished of each build over races
    first..first+n-1 of ``seed`` (common random numbers: the same races for every build)."""
    ev = RaceEvaluator(field, pilot)
    cands = [candidate_of(b if isinstance(b, Build) else parse_build(str(b))) for b in builds]
    return ev.evaluate(np.asarray(cands, np.int64), first, n, dice.stream_key(int(seed)))


# --- the design space for simkit.core.search ---------------------------------------------------

def _core_search():
    try:
        from simkit.core import search as core_search
    except ImportError:
        raise UserInputError("the build search needs simkit.core.search, which is not in this "
                             "checkout yet (use --check BUILD to price a build)",
                             field="--trials-budget") from None
    return core_search


def design_space(rules: Rules | None = None, budget: int | None = None, *, fixed=None):
    """Every legal build of at most ``budget`` points (102 A), as the shared search's
    IntBoxSpace (maximal builds: no Function can go one Level up within the budget);
    ``fixed`` {function: level or tuple of levels} narrows Functions (a reduced space)."""
    cs = _core_search()
    rules = rules or make_rules()
    budget = rules.budget if budget is None else int(budget)
    fixed = dict(fixed or {})
    fields = []
    for name in FIELDS:
        row = rules.function_row(name)
        step = int(row["levels_per_purchase"])
        hi = int(row["max_level"]) // step * step
        pts = int(row["points_per_purchase"])
        if name in fixed:
            vals = fixed[name] if isinstance(fixed[name], tuple) else (int(fixed[name]),)
            fields.append(cs.IntField(name, min(vals), max(vals), step=step,
                                      cost=[v // step * pts for v in vals], values=tuple(vals)))
        else:
            lo = -(-rules.min_level(name) // step) * step   # SI 0 is a destroyed ship (005 L)
            fields.append(cs.IntField(name, lo, hi, step=step, cost=pts))

    def legal(c):
        return not violations(build_of(c), rules)

    return cs.IntBoxSpace(fields, budget, legal=legal, fill=True,
                          describe=lambda c: str(build_of(c)))


def stat_evaluator(field=None, pilot="buoy_hunter", variants=None, objective="win_rate"):
    """:class:`RaceEvaluator` dressed as the shared search's StatEvaluator."""
    cs = _core_search()

    class _Eval(cs.StatEvaluator, RaceEvaluator):
        name = "demons-run race"
        stats = (cs.Rate("win", E_WIN), cs.Mean("vp", E_VP, E_VP2),
                 cs.Rate("destroyed", E_DESTROYED), cs.Rate("finish", E_FINISHED))

        def __init__(self):
            RaceEvaluator.__init__(self, field, pilot, variants, objective=objective)

        def evaluate(self, candidates, first_trial, n_trials, key):
            return RaceEvaluator.evaluate(self, candidates, first_trial, n_trials, key)

        def trial_scores(self, candidates, first_trial, n_trials, key):
            return RaceEvaluator.trial_scores(self, candidates, first_trial, n_trials, key)

    return _Eval()


#: the reduced design space of the efficiency measurement: the worked ship's PI, engines,
#: Tractor and weapons, with SI (8-20 by 2) and Screens (0-10 by 2) chosen and Fuel taking the
#: rest of the 80 points: 41 builds (SI 8 with no Screens would need Fuel 310), few enough
#: to race them all for a ground truth
REDUCED_FIXED = {"si": (8, 10, 12, 14, 16, 18, 20), "screens": (0, 2, 4, 6, 8, 10), "pi": 3,
                 "me": 6, "mn": 6, "tractor": 10, "laser": 10, "scrambler": 0}


def reduced_space(rules: Rules | None = None):
    return design_space(rules, fixed=REDUCED_FIXED)


def build_scenario(row: dict, workdir) -> Path:
    """A race scenario in which a leaderboard row's build meets the field it was searched
    against (the sensitivity hook ``analyses["build_scenario"]``).

    The row names its build (``build``, or the nine Function columns), and, as written by
    ``simkit builds demons-run``, the ``pilot`` that flew it and its opponents: ``versus`` (one
    ship of that build, same pilot) or ``field`` (a field file; empty = the default field).
    """
    rules = make_rules()
    where = "leaderboard row"
    if row.get("build"):
        build = check_build(str(row["build"]), rules, where=where)
    elif all(row.get(k) is not None for k in FIELDS):
        build = build_of([row[k] for k in FIELDS])
    else:
        raise UserInputError("names no build (a 'build' column or the nine Function columns)",
                             where=where, field="build")
    pilot = str(row.get("pilot") or "buoy_hunter")
    if pilot not in POLICIES:
        raise UserInputError(f"unknown pilot {pilot!r} (known: {', '.join(POLICIES)})",
                             where=where, field="pilot")
    if row.get("versus"):
        field = [ShipEntry("versus", "D", check_build(str(row["versus"]), rules, where=where),
                           pilot)]
    else:
        field = load_field(row.get("field") or None, rules)
    ships = [("candidate", "A", build, pilot)] + [
        (s.name, FIELD_CORNERS[i], s.build, s.pilot) for i, s in enumerate(field)]
    rank = row.get("rank")
    name = f"build search rank {int(rank)}" if rank is not None else "build search candidate"
    lines = ['game = "demons-run"', f"name = {_toml_str(name)}", 'label = "ORIGINAL"',
             'source = "simkit: a build-search leaderboard row against the field it was searched'
             ' against"', 'board = "default"']
    for sname, corner, b, p in ships:
        lines += ["", "[[ship]]", f"name = {_toml_str(sname)}", f'corner = "{corner}"',
                  f'build = "{b}"', f"pilot = {_toml_str(p)}"]
    out = Path(workdir) / f"demons-run-build-{int(rank) if rank is not None else 0}.toml"
    out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out


def _toml_str(text: str) -> str:
    """A TOML basic string (JSON's escapes are valid TOML escapes for these characters)."""
    import json

    return json.dumps(str(text), ensure_ascii=False)
