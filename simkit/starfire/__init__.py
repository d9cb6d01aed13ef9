"""Starfire (Task Force Games, 1979): fleet combat on a hex map.

Rooms (as in every game package, docs/design.md): ``rules`` (tables and variants as arrays),
``pieces`` (the hex map and the control sheets), ``procedures`` (compiled fire resolution, and
weapon value by range built on it), ``engine`` (the compiled battle and ``BattleSim``),
``policies`` (the admirals: named policies, their parameter spaces, ``decide``), ``scenario``
(scenario files, the logged playthrough), ``reference`` (plain-Python oracle of a volley),
``analyses`` (the headline analyses), ``commands`` (the CLI). Rule coverage:
``docs/rules/starfire.md``.
"""

from __future__ import annotations

from ..core.extras import extras
from ..core.game import Game, ScenarioEngine
from .analyses import HEADLINE
from .analyses import weapons as weapon_table
from .commands import COMMANDS
from .rules import rules_data


def _policies():
    from ..core.game import Param, PolicySpace
    from .policies import COSTLY, POLICIES, SPACES

    return {name: PolicySpace(name, tuple(Param(p.name, p.kind, p.lo, p.hi, p.default)
                                          for p in SPACES[name]), costly=name in COSTLY)
            for name in POLICIES}


def _simulation(sc):
    from .engine import BattleSim

    return BattleSim(sc)


def _summarise(sc, res):
    from .engine import how_battles_were_won

    frame = res.frame
    extras(frame)["how battles were won (shares of all battles; turns and "
                                        "ships lost with 95% intervals)"] = how_battles_were_won(frame)
    return frame


def _set_params(sc, side, values):
    i = sc.sides.index(side)
    sc.side_params[i] = {**sc.side_params[i], **{k: float(v) for k, v in values.items()}}
    return sc


def _load(path, *, policies=None, variants=None):
    from .scenario import load_scenario

    return load_scenario(path, policies=policies, variants=variants)


def _interchangeable(sc):
    from .scenario import interchangeable

    return interchangeable(sc)


def _playthrough(sc, *, seed=2026, trial=0):
    from .scenario import playthrough

    return playthrough(sc, seed=seed, trial=trial)


SCENARIO = ScenarioEngine(load=_load, simulation=_simulation, sides=lambda sc: list(sc.sides),
                          policies=_policies, playthrough=_playthrough, set_params=_set_params,
                          summarise=_summarise, interchangeable=_interchangeable)

GAME = Game(
    name="starfire",
    title="Starfire (Task Force Games, 1979)",
    rules=rules_data,
    commands=COMMANDS,
    analyses={"weapons": weapon_table},
    scenario=SCENARIO,
    headline=HEADLINE,
)
