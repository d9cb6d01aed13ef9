"""Demon's Run (Yaquinto, 1981): ship design, hazard odds, the race, pilots and build search.

Modelled: the Set Up Sheet purchase and its variants (005, 102), the Turn's allocation
arithmetic (203 B-C), and every dice procedure of the hazards and weapons -- Buoy Recovery
(205), Laser and Scrambler fire (206), Null (206/207 errata), Hell Hounds (207), Hell Fire
(208), Hell Holes (209) and damage with Excess damage, Critical Hits and System Crises (210) --
as plain-Python references, an exact oracle and compiled kernels; the board as data, Field and
Line of Fire, one ship's movement over the board with its hex effects, Buoy and Hell Hound
movement, and the Turn procedures outside movement; the whole race as one compiled kernel
(``race.py``) flown by parameterised pilots (``pilots.py``), race scenarios (``races.py``) and
the race evaluator for the shared build search (``search.py``) and the Racing Season
(``season.py``). Coverage of every section:
docs/rules/demons-run.md.
"""

from simkit.core.registry import Game

from .commands import COMMANDS
from .rules import rules_data



def _scenario(path, **options):
    from .races import scenario_table

    return scenario_table(path, **options)


def _playthrough(path, seed=2026, trial=0, policies=None, variants=None):
    from .races import playthrough
    from .races import load_scenario

    # the logged game is one of the games the table counts: same policies and variants
    return playthrough(load_scenario(path, policies=policies, variants=variants),
                       seed=seed, trial=trial)


def _policy_names():
    from .pilots import POLICIES

    return list(POLICIES)


def _build_scenario(row, workdir):
    from .search import build_scenario

    return build_scenario(row, workdir)



def _report_args(quick):
    """Extra arguments for the report's run of each command (simkit.report): a small build
    search when quick (races cost ~30 ms each), the full default otherwise."""
    if quick:
        return {"builds": ["--population", "8", "--min-trials", "40", "--finalists", "3",
                           "--trials-budget", "900"]}
    return {}


GAME = Game(name="demons-run", title="Demon's Run (Yaquinto, 1981)", rules=rules_data,
            commands=COMMANDS,
            analyses={"scenario": _scenario, "playthrough": _playthrough,
                      "policies": _policy_names, "build_scenario": _build_scenario,
                      "report_args": _report_args})
