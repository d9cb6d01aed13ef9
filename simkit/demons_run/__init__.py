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
