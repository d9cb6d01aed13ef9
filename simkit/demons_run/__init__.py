"""Demon's Run (Yaquinto, 1981): ship design, hazard odds, the race, pilots and build search.

Modelled: the Set Up Sheet purchase and its variants (005, 102), the Turn's allocation
arithmetic (203 B-C), and every dice procedure of the hazards and weapons -- Buoy Recovery
(205), Laser and Scrambler fire (206), Null (206/207 errata), Hell Hounds (207), Hell Fire
(208), Hell Holes (209) and damage with Excess damage, Critical Hits and System Crises (210) --
as plain-Python references, an exact oracle and compiled kernels; the board as data, Field and
Line of Fire, one ship's movement over the board with its hex effects, Buoy and Hell Hound
movement, and the Turn procedures outside movement; the whole race as one compiled kernel
(``engine.py``) flown by parameterised pilots (``policies.py``), race scenarios (``scenario.py``) and
the race evaluator for the shared build search (``search.py``) and the Racing Season
(``season.py``). Coverage of every section:
docs/rules/demons-run.md.

Rooms (as in every game package, docs/design.md): ``rules``, ``pieces`` (board, geometry,
layout of the compiled state, Line of Fire, markers, movement), ``procedures`` (the compiled
dice procedures and the hazard/fire/recovery tables built on them), ``engine`` (the compiled
race), ``policies`` (the pilots), ``scenario`` (race files, ``RaceSim``, the logged race),
``reference`` (plain-Python twins; ``reference.oracle`` the exact oracle, ``reference.turn``
the Turn procedures), ``analyses``, ``builds`` and ``search`` (the Set Up Sheet and the build
search), ``season``, ``commands``.
"""

from ..core.game import Game, ScenarioEngine

from .analyses import HEADLINE
from .commands import COMMANDS
from .rules import rules_data



def _policies():
    from ..core.game import Param, PolicySpace
    from .policies import PARAM_SPACE, PARAMS

    return {name: PolicySpace(name, tuple(Param(k, kind, lo, hi, PARAMS[name][k], doc)
                                          for k, (kind, lo, hi, doc) in PARAM_SPACE.items()))
            for name in PARAMS}


def _load(path, *, policies=None, variants=None):
    from .scenario import load_scenario

    return load_scenario(path, policies=policies, variants=variants)


def _simulation(sc):
    from .scenario import RaceSim

    return RaceSim(sc)


def _set_params(sc, side, values):
    for s in sc.ships:
        if s.name == side:
            s.params = {**s.params, **values}
    return sc


def _playthrough(sc, *, seed=2026, trial=0):
    from .scenario import playthrough

    return playthrough(sc, seed=seed, trial=trial)


def _metagame(pilot="buoy_hunter", variants=None, budget=None, threads=None):
    """The 80-point metagame (simkit.analysis.metagame): two ships flown by the same pilot race
    from the opposite corners A and D (which the rulebook's symmetry pairs: 211 A), each build
    from each corner in half the races, on the same seeded races (``threads``: numba threads
    of each run; the wins are the same for any count)."""
    import numpy as np

    from ..core.errors import UserInputError
    from ..core.game import BuildGame
    from ..core.runner import run
    from .builds import worked_ship
    from .policies import POLICIES
    from .scenario import RaceScenario, RaceSim, ShipEntry
    from .rules import make_rules
    from .search import build_of, candidate_of, design_space

    if pilot not in POLICIES:
        raise UserInputError(f"unknown pilot {pilot!r} (known: {', '.join(POLICIES)})",
                             field="--pilot")
    rules = make_rules(variants)

    def race(x, y, lo, hi, seed):
        """Wins of x (corner A) and y (corner D) over races ``lo .. hi-1`` of the seed."""
        if hi <= lo:
            return 0, 0
        ships = [ShipEntry("x", "A", build_of(x), pilot), ShipEntry("y", "D", build_of(y), pilot)]
        sc = RaceScenario("<metagame>", "metagame duel", "ORIGINAL", "", None, ships,
                          dict(rules.variants))
        f = run(RaceSim(sc), hi - lo, seed, first=lo, progress=False,
                threads=threads).frame.set_index("side")
        return int(f.loc["x", "wins"]), int(f.loc["y", "wins"])

    def duel(a, b, n, seed, first=0):
        # games first .. first+n-1 of the pairing: game 2i+1 is race i with a in corner A,
        # game 2i race i with b there, so any even count seats each build in each corner on
        # the same races, and games 0 .. n-1 are a from A on races 0 .. n//2-1 and b from A
        # on races 0 .. n-n//2-1
        lo, hi = first, first + n
        wa, wb = race(a, b, lo // 2, hi // 2, seed)
        wb2, wa2 = race(b, a, (lo + 1) // 2, (hi + 1) // 2, seed)
        return np.array([wa + wa2, wb + wb2], np.int64)

    worked = candidate_of(worked_ship(rules))
    points = rules.budget if budget is None else budget
    return BuildGame(f"Demon's Run {points}-point ships", design_space(rules, budget), duel,
                     start=[worked], reference=[("the rulebook's worked ship", worked)],
                     extend=True,
                     note=f"two ships flown by the {pilot} pilot, corners A and D rotated")


#: the salt of the stream that deals each race's opponent from the field's mixture
_DEAL_SALT = 0x4D49585455524544


def _metagame_replies(pilot="buoy_hunter", variants=None):
    """``field -> evaluator`` for the metagame's best replies (simkit.analysis.metagame): the
    candidates raced against a *mixture* of builds, the field ``[(build, weight)]`` a strong
    player expects, by the shared build search. Search race ``t`` is race ``t // 2`` of its
    corner rotation's stream (as ``search.RaceEvaluator``: the candidate in corner A for even
    ``t``, D for odd) against the field build dealt to race ``t // 2`` by the mixture's
    weights from a stream of its own: the same opponent in both corners and for every
    candidate (common random numbers), whatever the batch or the thread count. A race scores
    2 for a win, 1 when neither ship won, 0 for a loss: the candidate's utility in
    half-points, as the metagame's payoffs count it."""
    import numpy as np

    from ..core import search as cs
    from ..core.dice import _mix64_py
    from . import engine as RK
    from .reference import ship_from_build
    from .rules import make_rules
    from .search import RaceEvaluator, ShipEntry, build_of

    rules = make_rules(variants)
    win = RK.N_GLOBAL + RK.S_WINS                 # the candidate is ship 0, the field ship 1

    class MixtureRace(cs.StatEvaluator):
        name = "demons-run race against the field's mixture"
        search_method = "race"
        stats = (cs.Rate("win", 0), cs.Mean("utility", 1, 2, scale=0.5))
        objective = "mean_utility"
        trial_scale = 0.5

        def __init__(self, field):
            w = np.asarray([x for _, x in field], float)
            self.cum = np.cumsum(w / w.sum())
            self.evs = [RaceEvaluator([ShipEntry("field", "D", build_of(b), pilot)], pilot,
                                      rules=rules) for b, _ in field]
            self._sims: dict = {}
            self._args: dict = {}

        def _race_args(self, c, o, r):
            """``race_stats`` arguments of candidate ``c`` against field build ``o`` in
            rotation ``r``. Setting up a race costs about 0.2 s CPU (its route fields and move
            tables), hundreds of races, and a search sets up thousands of candidates; of the
            candidate's build only its Screens (the Screens its pilot raises near Hell Fire
            pick its route fields) and its Levels (ship 0's row of the Start) enter, so one
            set-up per Screens Level serves every candidate, its Levels written in (the same
            arguments as a race set up for the candidate: tests/test_metagame.py)."""
            k = (tuple(int(v) for v in c), o, r)
            if k not in self._args:
                if len(self._args) > 4096:
                    self._args.clear()
                b = build_of(k[0])
                t = (o, r, b.screens)
                if t not in self._sims:
                    self._sims[t] = self.evs[o].sim(k[0], r)
                sim = self._sims[t]
                start, *rest = sim.args()
                ships = sim.ships0.copy()
                ships[0] = ship_from_build(b)
                self._args[k] = (start._replace(ships=ships), *rest)
            return self._args[k]

        def _dealt(self, key, lo, n):
            """The field build (an index) of races lo .. lo+n-1."""
            base = int(key) ^ _DEAL_SALT
            u = np.array([(_mix64_py((base + j) & 0xFFFFFFFFFFFFFFFF) >> 11) * 2.0 ** -53
                          for j in range(lo, lo + n)])
            return np.minimum(np.searchsorted(self.cum, u, side="right"), len(self.cum) - 1)

        def _runs(self, c, first, n, key):
            """(rotation, its stream, first race, races, race_stats args) of every run of
            races of search races first..first+n-1 dealt the same field build."""
            for r, rk, lo, m in self.evs[0]._spans(int(first), int(n), key):
                dealt = self._dealt(key, lo, m)
                cut = np.flatnonzero(np.diff(dealt)) + 1
                for a, b in zip(np.r_[0, cut], np.r_[cut, m]):
                    yield r, rk, lo + int(a), int(b - a), self._race_args(c, int(dealt[a]), r)

        def evaluate(self, candidates, first_trial, n_trials, key):
            cands = np.asarray(candidates, np.int64).reshape(len(candidates), -1)
            out = np.zeros((len(cands), 3), np.int64)
            for i, c in enumerate(cands):
                for _, rk, lo, m, args in self._runs(c, first_trial, n_trials, key):
                    tot = RK.race_stats(rk, lo, m, *args)
                    w0, w1 = int(tot[win]), int(tot[win + RK.N_SHIP_STATS])
                    # a race's half-points v are 2, 1 or 0, so v*v is 4, 1 or 0
                    out[i] += (w0, 2 * w0 + (m - w0 - w1), 4 * w0 + (m - w0 - w1))
            return out

        def trial_scores(self, candidates, first_trial, n_trials, key):
            cands = np.asarray(candidates, np.int64).reshape(len(candidates), -1)
            out = np.zeros((len(cands), int(n_trials)), np.int64)
            for i, c in enumerate(cands):
                for r, rk, lo, m, args in self._runs(c, first_trial, n_trials, key):
                    for j in range(lo, lo + m):
                        tot = RK.race_stats(rk, j, 1, *args)
                        w0, w1 = int(tot[win]), int(tot[win + RK.N_SHIP_STATS])
                        out[i, 2 * j + r - int(first_trial)] = 2 * w0 + (1 - w0 - w1)
            return out

    return MixtureRace


SCENARIO = ScenarioEngine(load=_load, simulation=_simulation,
                          sides=lambda sc: [s.name for s in sc.ships], policies=_policies,
                          playthrough=_playthrough, set_params=_set_params)


def _build_scenario(row, workdir):
    from .search import build_scenario

    return build_scenario(row, workdir)



GAME = Game(name="demons-run", title="Demon's Run (Yaquinto, 1981)", rules=rules_data,
            commands=COMMANDS,
            analyses={"build_scenario": _build_scenario, "metagame": _metagame},
            scenario=SCENARIO, headline=HEADLINE)
