"""Demo Derby: Saturday Night at the Track (Mayfair Games, 1982).

Modelled (docs/rules/demo-derby.md has the rule-by-rule coverage): the rules tables as labelled
data (``rules``; most are RECONSTRUCTED, shared/rules-data.md section 3), the record sheet and
its damage flow (``sheet``), crash damage as a compiled kernel with an exact oracle (``crash``;
``simkit crash demo-derby``), the arena as a data file (``arena``; ``simkit board demo-derby``),
whole derbies, Figure-8 races and the combined event played by parameterised driver policies
(``derby``), and scenario files for them (``scenario``; ``simkit scenario run FILE``;
``simkit derby demo-derby`` is the quick hunter-only derby).
"""

from ..core.registry import Game
from .commands import COMMANDS
from .rules import rules_data


def _scenario(path, **options):
    from .scenario import scenario_table

    return scenario_table(path, **options)


def _playthrough(path, seed=2026, trial=0, policies=None, variants=None):
    from .scenario import playthrough
    from .scenario import load_scenario

    # the logged game is one of the games the table counts: same policies and variants
    return playthrough(load_scenario(path, policies=policies, variants=variants),
                       seed=seed, trial=trial)


#: policy names, without importing the compiled kernels (kept equal to derby.POLICIES by a test)
POLICY_NAMES = ["hunter", "rammer", "survivor", "opportunist"]


def _policy_names():
    return list(POLICY_NAMES)


GAME = Game(name="demo-derby", title="Demo Derby: Saturday Night at the Track (Mayfair, 1982)",
            rules=rules_data, commands=COMMANDS,
            analyses={"scenario": _scenario, "playthrough": _playthrough,
                      "policies": _policy_names})
