"""Dark Future (Games Workshop, 1988): road combat between armed cars and bikes.

What is modelled (docs/rules/dark-future.md maps every rulebook section), room by room as in
every game package:

* ``rules``: the rules tables as labelled data (``data/*.toml``) and their variants;
* ``procedures``: the compiled dice procedures: hazard rolls, panic braking, several tests in
  one move, control-loss tests, skids and spins (``procedures.hazards``); the shot: hit roll,
  damage roll, critical hits through the target matrices and result tables
  (``procedures.shooting``);
* ``reference``: the same procedures in plain Python as the rule text reads, and their exact
  oracles;
* ``pieces``: the road, its generation and random hazards (``pieces.road``) and the vehicle
  state the compiled game keeps (``pieces.vehicle``);
* ``engine``: the compiled game of cars and bikes on the road; ``policies``: its parameterised
  drivers;
* ``scenario``: Games One-Eight as scenario files (``simkit scenario run``);
* ``builds``: vehicle design and its validation; ``search``: cars on a budget;
* ``analyses``: the headline analyses as library calls; ``commands``: their CLI.
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
    from .scenario import load_scenario

    return load_scenario(path, policies=policies, variants=variants)


def _simulation(sc):
    from .scenario import GameSim

    return GameSim(sc)


def _set_params(sc, side, values):
    for s in sc.sides:
        if s.name == side:
            s.params = dict(values)
    return sc


def _playthrough(sc, *, seed=2026, trial=0):
    from .scenario import playthrough

    return playthrough(sc, seed=seed, trial=trial)


SCENARIO = ScenarioEngine(load=_load, simulation=_simulation,
                          sides=lambda sc: [s.name for s in sc.sides], policies=_policies,
                          playthrough=_playthrough, set_params=_set_params,
                          keep_extra=("win rates by role (lead car / chase car)",))


def _build_scenario(row, workdir):
    from .search import build_scenario

    return build_scenario(row, workdir)


def _metagame(scenario="dark-future/game-4", vehicle="renegade", budget=50_000, variants=None):
    """The ``$`` build metagame (simkit.analysis.metagame) of a two-sided Game."""
    from .. import shipped
    from .search import metagame_game

    return metagame_game(shipped.resolve(scenario, option="--scenario"), vehicle=vehicle,
                         budget=budget, chosen=dict(variants or {}))


GAME = Game(name="dark-future", title="Dark Future (Games Workshop, 1988)",
            rules=_rules.base_rules, commands=COMMANDS,
            analyses={"weapons": weapon_table, "build_scenario": _build_scenario,
                      "metagame": _metagame},
            scenario=SCENARIO, headline=HEADLINE)
