"""Demo Derby: Saturday Night at the Track (Mayfair Games, 1982).

Rooms (as in every game package, docs/design.md): ``rules`` (the rules tables as labelled data,
most RECONSTRUCTED, shared/rules-data.md section 3, and their variants), ``pieces`` (the arena
as a data file, the record sheet and its damage flow, the car state layout the kernels share),
``procedures`` (crash damage as a compiled kernel, and the crash table beside the exact figures;
``simkit crash demo-derby``), ``engine`` (whole derbies, Figure-8 races and the combined event,
compiled, and their simulations), ``policies`` (the drivers: named policies, their parameter
spaces, the compiled plotting and steering), ``scenario`` (scenario files, the logged
playthrough; ``simkit scenario run FILE``), ``reference`` (plain-Python crash and its exact
oracle), ``analyses`` (the headline analyses), ``commands`` (the CLI; ``simkit derby
demo-derby`` is the quick hunter-only derby, ``simkit board demo-derby`` the arena). Rule
coverage: ``docs/rules/demo-derby.md``.
"""

from ..core.game import Game, ScenarioEngine
from .analyses import HEADLINE
from .analyses import crash as crash_table   # not "crash": no attribute shadows a module
from .commands import COMMANDS
from .rules import rules_data


#: policy names, without importing the compiled kernels (kept equal to policies.POLICIES by a test)
POLICY_NAMES = ["hunter", "rammer", "survivor", "opportunist"]


def _policies():
    from ..core.game import Param, PolicySpace
    from .policies import DEFAULTS, PARAM_SPACE

    return {name: PolicySpace(name, tuple(Param(k, kind, lo, hi, DEFAULTS[name][k])
                                          for k, (_col, kind, lo, hi) in PARAM_SPACE.items()))
            for name in POLICY_NAMES}


def _load(path, *, policies=None, variants=None):
    from .scenario import load_scenario

    return load_scenario(path, policies=policies, variants=variants)


def _simulation(sc):
    from .scenario import build_sim

    return build_sim(sc)


def _summarise(sc, res):
    from .scenario import summarise

    return summarise(sc, res.totals, res.n_trials)


def _set_params(sc, side, values):
    for c in sc.cars:
        if c.player == side:
            c.params = {**c.params, **values}
    return sc


def _interchangeable(sc):
    from .scenario import interchangeable

    return interchangeable(sc)


def _playthrough(sc, *, seed=2026, trial=0):
    from .scenario import playthrough

    return playthrough(sc, seed=seed, trial=trial)


SCENARIO = ScenarioEngine(load=_load, simulation=_simulation, sides=lambda sc: list(sc.players),
                          policies=_policies, playthrough=_playthrough, set_params=_set_params,
                          summarise=_summarise, interchangeable=_interchangeable)

GAME = Game(name="demo-derby", title="Demo Derby: Saturday Night at the Track (Mayfair, 1982)",
            rules=rules_data, commands=COMMANDS, scenario=SCENARIO, headline=HEADLINE,
            analyses={"crash": crash_table})
