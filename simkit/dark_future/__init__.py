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

from ..core.game import Game, ScenarioEngine
from . import rules as _rules
from .analyses import HEADLINE
from .analyses import weapons as weapon_table
from .commands import COMMANDS


def _policies():
    from ..core.game import Param, PolicySpace
    from .policies import PARAM_SPACE, POLICIES, policy_vector

    kinds = {"int": "int", "bool": "bool", "bits": "int"}
    out = {}
    for name in POLICIES:
        vec = policy_vector(name)   # a named driver is a point of the one space
        out[name] = PolicySpace(name, tuple(
            Param(p, kinds[kind], lo, hi, min(max(int(vec[col]), lo), hi))
            for p, (col, kind, lo, hi, _default) in PARAM_SPACE.items()))
    return out


def _load(path, *, policies=None, variants=None):
    from .games import load_scenario

    return load_scenario(path, policies=policies, variants=variants)


def _simulation(sc):
    from .games import GameSim

    return GameSim(sc)


def _set_params(sc, side, values):
    for s in sc.sides:
        if s.name == side:
            s.params = dict(values)
    return sc


def _playthrough(sc, *, seed=2026, trial=0):
    from .games import playthrough

    return playthrough(sc, seed=seed, trial=trial)


SCENARIO = ScenarioEngine(load=_load, simulation=_simulation,
                          sides=lambda sc: [s.name for s in sc.sides], policies=_policies,
                          playthrough=_playthrough, set_params=_set_params,
                          keep_extra=("win rates by role (lead car / chase car)",))


def _build_scenario(row, workdir):
    from .budget import build_scenario

    return build_scenario(row, workdir)



GAME = Game(name="dark-future", title="Dark Future (Games Workshop, 1988)",
            rules=_rules.base_rules, commands=COMMANDS,
            analyses={"weapons": weapon_table, "build_scenario": _build_scenario},
            scenario=SCENARIO, headline=HEADLINE)
