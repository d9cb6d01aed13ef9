"""Starfire (Task Force Games, 1979): fleet combat on a hex map.

Modules: ``rules`` (tables and variants as arrays), ``sheet`` (control sheets), ``fire``
(compiled fire resolution), ``reference`` (plain-Python oracle), ``weapons`` (weapon value by
range). Rule coverage: ``docs/rules/starfire.md``.
"""

from __future__ import annotations

from ..core.game import Game, ScenarioEngine
from .commands import COMMANDS
from .rules import FAMILIES, rules_data


def weapon_table(target=None, ranges=range(0, 21), trials=1_000_000, seed=2026, volley=1,
                 variants=None, tractor="none", families=FAMILIES, **run_opts):
    """Weapon value by range against ``target`` (a ship name or control sheet): a DataFrame.

    Monte Carlo figures carry 95% intervals (``*_lo``, ``*_hi``); ``*_exact`` columns hold the
    exact values where the dice tree is small enough to enumerate (NaN otherwise).
    ``run_opts`` go to ``simkit.core.runner.run`` (threads, chunk_size, progress, ...).
    """
    from ..cliutil import positive_int
    from ..core.runner import run
    from .weapons import WeaponTable, resolve_target

    sheet = resolve_target(target)
    bad = [f for f in families if f not in FAMILIES]
    if bad:
        from ..core.errors import UserInputError
        raise UserInputError(f"unknown weapon family {bad[0]!r} (known: {', '.join(FAMILIES)})",
                             field="--weapons")
    sim = WeaponTable(sheet, list(ranges), positive_int(volley, "--volley"), dict(variants or {}),
                      tractor, tuple(families))
    res = run(sim, trials, seed, **run_opts)
    return res.frame


def _policies():
    from ..core.game import Param, PolicySpace
    from .policies import POLICIES, SPACES

    return {name: PolicySpace(name, tuple(Param(p.name, p.kind, p.lo, p.hi, p.default)
                                          for p in SPACES[name]))
            for name in POLICIES}


def _simulation(sc):
    from .battles import BattleSim

    return BattleSim(sc)


def _summarise(sc, res):
    from .battles import how_battles_were_won

    frame = res.frame
    frame.attrs.setdefault("extra", {})["how battles were won (shares of all battles; turns and "
                                        "ships lost with 95% intervals)"] = how_battles_were_won(frame)
    return frame


def _set_params(sc, side, values):
    i = sc.sides.index(side)
    sc.side_params[i] = {**sc.side_params[i], **{k: float(v) for k, v in values.items()}}
    return sc


def _load(path, *, policies=None, variants=None):
    from .scenario import load_scenario

    return load_scenario(path, policies=policies, variants=variants)


def _playthrough(sc, *, seed=2026, trial=0):
    from .battles import playthrough

    return playthrough(sc, seed=seed, trial=trial)


SCENARIO = ScenarioEngine(load=_load, simulation=_simulation, sides=lambda sc: list(sc.sides),
                          policies=_policies, playthrough=_playthrough, set_params=_set_params,
                          summarise=_summarise)

GAME = Game(
    name="starfire",
    title="Starfire (Task Force Games, 1979)",
    rules=rules_data,
    commands=COMMANDS,
    analyses={"weapons": weapon_table},
    scenario=SCENARIO,
)
