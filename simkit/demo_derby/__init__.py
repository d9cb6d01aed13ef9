"""Demo Derby: Saturday Night at the Track (Mayfair Games, 1982).

Modelled (docs/rules/demo-derby.md has the rule-by-rule coverage): the rules tables as labelled
data (``rules``; most are RECONSTRUCTED, shared/rules-data.md section 3), the record sheet and
its damage flow (``sheet``), crash damage as a compiled kernel with an exact oracle (``crash``;
``simkit crash demo-derby``), the arena as a data file (``arena``; ``simkit board demo-derby``),
whole derbies, Figure-8 races and the combined event played by parameterised driver policies
(``derby``), and scenario files for them (``scenario``; ``simkit scenario run FILE``;
``simkit derby demo-derby`` is the quick hunter-only derby).
"""

from ..core.game import Game, ScenarioEngine
from .analyses import HEADLINE
from .analyses import crash as crash_table   # not "crash": that is the crash-damage module
from .commands import COMMANDS
from .rules import rules_data


#: policy names, without importing the compiled kernels (kept equal to derby.POLICIES by a test)
POLICY_NAMES = ["hunter", "rammer", "survivor", "opportunist"]


def _policies():
    from ..core.game import Param, PolicySpace
    from .derby import DEFAULTS, PARAM_SPACE

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


def _playthrough(sc, *, seed=2026, trial=0):
    from .scenario import playthrough

    return playthrough(sc, seed=seed, trial=trial)


SCENARIO = ScenarioEngine(load=_load, simulation=_simulation, sides=lambda sc: list(sc.players),
                          policies=_policies, playthrough=_playthrough, set_params=_set_params,
                          summarise=_summarise)

GAME = Game(name="demo-derby", title="Demo Derby: Saturday Night at the Track (Mayfair, 1982)",
            rules=rules_data, commands=COMMANDS, scenario=SCENARIO, headline=HEADLINE,
            analyses={"crash": crash_table})
