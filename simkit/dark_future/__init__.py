"""Dark Future (Games Workshop, 1988): road combat between armed cars and bikes.

What is modelled (docs/rules/dark-future.md maps every rulebook section): rules tables as data
(``data/*.toml``); the hazard roll, panic braking, several tests in one move, control-loss
tests, skids and spins (:mod:`.hazards`); the shot: hit roll, damage roll, critical hits through
the target matrices and result tables (:mod:`.shooting`); vehicle design validation
(:mod:`.design`); the road, its generation and random hazards (:mod:`.road`); the compiled game
of cars on the road (:mod:`.engine`, :mod:`.vehicle`) played by parameterised drivers
(:mod:`.policies`); Games One-Eight as scenario files run by ``simkit scenario run``
(:mod:`.games`).
"""

from __future__ import annotations

from ..core.registry import Game
from . import rules as _rules
from .commands import COMMANDS


def _scenario(path, **options):
    from .games import scenario_table

    return scenario_table(path, **options)


def _playthrough(path, seed=2026, trial=0, policies=None, variants=None):
    from .games import playthrough
    from .games import load_scenario

    # the logged game is one of the games the table counts: same policies and variants
    return playthrough(load_scenario(path, policies=policies, variants=variants),
                       seed=seed, trial=trial)


def _policy_names():
    from .policies import POLICIES

    return list(POLICIES)


def _build_scenario(row, workdir):
    from .budget import build_scenario

    return build_scenario(row, workdir)



def _report_args(quick):
    """Extra arguments for the report's run of each command (simkit.report): the headline
    budget question (a $50,000 Renegade for Game Four), small when quick."""
    args = ["--budget", "50000", "--vehicle", "renegade",
            "--scenario", "dark-future/game-4"]
    if quick:
        args += ["--population", "8", "--min-trials", "50", "--finalists", "3",
                 "--trials-budget", "1500"]
    return {"builds": args}


GAME = Game(name="dark-future", title="Dark Future (Games Workshop, 1988)",
            rules=_rules.base_rules, commands=COMMANDS,
            analyses={"scenario": _scenario, "playthrough": _playthrough,
                      "policies": _policy_names, "build_scenario": _build_scenario,
                      "report_args": _report_args})
