"""The one shape of a game, as types: what the CLI, the report, sensitivity and balance call.

A game package exposes ``GAME``, a :class:`Game`. Its scenario engine is a
:class:`ScenarioEngine`: four small hooks (load a file, build the compiled simulation of a
loaded scenario, name its sides, give a side a policy with parameters) from which
:meth:`ScenarioEngine.table` plays scenarios, pairings and policy profiles the same way for
every game, on common random numbers. Policies are points of typed spaces (:class:`Param`,
:class:`PolicySpace`), so a search (``simkit balance``) can explore them without knowing the
game.

Nothing here imports numba, pandas or a game: the CLI's parser is built from these objects
without compiling anything, and the hooks import what they compute when called.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

from .data import RulesData
from .errors import UserInputError

if TYPE_CHECKING:   # pandas is imported by the calls that build frames
    import pandas as pd

KINDS = ("int", "float", "bool")


@dataclass(frozen=True)
class Param:
    """One parameter of a policy: a name, a kind, closed bounds and a default."""
    name: str
    kind: str                 # "int", "float" or "bool"
    lo: float
    hi: float
    default: float
    doc: str = ""

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"parameter {self.name}: kind must be one of {KINDS}")
        if not self.lo <= self.default <= self.hi:
            raise ValueError(f"parameter {self.name}: default {self.default} outside "
                             f"[{self.lo}, {self.hi}]")

    def check(self, value, *, where: str | None = None, field: str | None = None):
        """``value`` as this parameter's kind, or one clear error naming ``field``."""
        name = field or self.name
        if isinstance(value, str) or value is None:
            raise UserInputError(f"{self.name} must be a number, got {value!r}", where=where,
                                 field=name)
        x = float(value)
        if math.isnan(x) or not self.lo <= x <= self.hi:
            raise UserInputError(f"{self.name}={value!r} is outside [{self.lo:g}, {self.hi:g}]",
                                 where=where, field=name)
        if self.kind == "float":
            return x
        if x != int(x):
            raise UserInputError(f"{self.name} must be a whole number ({self.kind}), got "
                                 f"{value!r}", where=where, field=name)
        return int(x)

    def from_unit(self, u: float):
        """The value at ``u`` in [0, 1] of the range (for samplers working on the unit box)."""
        x = self.lo + min(max(u, 0.0), 1.0) * (self.hi - self.lo)
        if self.kind == "float":
            return x
        return int(min(self.hi, math.floor(self.lo + min(max(u, 0.0), 1.0)
                                           * (self.hi - self.lo + 1))))


@dataclass(frozen=True)
class PolicySpace:
    """A named policy and its parameter space (empty when the policy has no parameters).

    ``costly``: the policy plays many times slower than the others (a look-ahead that plays
    the game out in its head), so it is played only where it is named: ``--policies all`` and
    the balance search leave it out."""
    name: str
    params: tuple[Param, ...] = ()
    doc: str = ""
    costly: bool = False

    def defaults(self) -> dict:
        return {p.name: p.check(p.default) for p in self.params}

    def check(self, values: Mapping[str, Any] | None, *, where: str | None = None,
              field: str = "params") -> dict:
        """Defaults updated by ``values``, each checked; unknown names are errors."""
        out = self.defaults()
        known = {p.name: p for p in self.params}
        for k, v in (values or {}).items():
            if k not in known:
                raise UserInputError(f"policy {self.name} has no parameter {k!r} (it has: "
                                     f"{', '.join(known) or 'none'})", where=where,
                                     field=f"{field}.{k}")
            out[k] = known[k].check(v, where=where, field=f"{field}.{k}")
        return out

    def from_unit(self, u: Sequence[float]) -> dict:
        return {p.name: p.from_unit(x) for p, x in zip(self.params, u)}


@dataclass(frozen=True)
class Policy:
    """A point of a policy space: a policy name and parameter values (the rest at defaults)."""
    name: str
    params: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def of(cls, name: str, params: Mapping[str, Any] | None = None) -> "Policy":
        return cls(name, tuple(sorted((params or {}).items())))

    @property
    def values(self) -> dict:
        return dict(self.params)

    def label(self) -> str:
        if not self.params:
            return self.name
        return self.name + "(" + ", ".join(f"{k}={_short(v)}" for k, v in self.params) + ")"


def _short(v) -> str:
    return f"{v:.3g}" if isinstance(v, float) else str(v)


@dataclass(frozen=True)
class ScenarioEngine:
    """How a game plays its scenario files; the common parts live in the methods.

    ``load(path, *, policies=None, variants=None)`` reads and validates a file (``policies``:
    side -> policy name); ``simulation(scenario)`` is the compiled
    :class:`~simkit.core.runner.Simulation` whose frame has one row per side with ``side``,
    ``wins``, ``trials`` and ``win_rate``; ``sides(scenario)`` names the sides in file order;
    ``set_params(scenario, side, params)`` gives one side's policy the checked parameter values
    (a new scenario object or the same one changed); ``policies()`` maps every policy a side may
    be given to its :class:`PolicySpace`; ``playthrough(scenario, seed, trial)`` plays one
    game with every roll recorded and returns ``(lines, result)``; ``summarise(scenario,
    result)`` (optional) turns a run's result into the frame when ``result.frame`` is not it.
    ``interchangeable(scenario) -> (bool, why)`` (optional) says whether a loaded scenario's two
    sides could swap seats without changing the game (same pieces up to naming and a mirrored
    placement, seats dealt or initiative rolled, no seat favoured by the engine), and why or
    why not; a game without it is never claimed symmetric.
    """
    load: Callable[..., Any]
    simulation: Callable[[Any], Any]
    sides: Callable[[Any], list]
    policies: Callable[[], Mapping[str, PolicySpace]]
    playthrough: Callable[..., tuple]
    set_params: Callable[[Any, str, dict], Any] | None = None
    summarise: Callable[[Any, Any], "pd.DataFrame"] | None = None
    interchangeable: Callable[[Any], tuple] | None = None
    #: titles of extra tables kept per pairing when every pairing is played
    keep_extra: tuple[str, ...] = ()

    # --- the common engine ------------------------------------------------------------------

    def cheap_policies(self) -> dict[str, PolicySpace]:
        """The policies ``--policies all`` pairs and a balance search starts from and tries:
        every one but the :attr:`PolicySpace.costly`."""
        return {n: s for n, s in self.policies().items() if not s.costly}

    def sides_interchangeable(self, scenario) -> tuple[bool, str]:
        """(True, why) when the scenario data proves its two sides interchangeable; otherwise
        (False, why not). Conservative: what the game cannot prove counts as asymmetric."""
        if self.interchangeable is None:
            return False, "this game does not check its scenarios for interchangeable sides"
        ok, why = self.interchangeable(scenario)
        return bool(ok), str(why)

    def policy_space(self, name: str, *, where=None, field="policy") -> PolicySpace:
        spaces = self.policies()
        if name not in spaces:
            raise UserInputError(f"unknown policy {name!r} (known: {', '.join(spaces)})",
                                 where=where, field=field)
        return spaces[name]

    def load_profile(self, path, profile: Mapping[str, "Policy | str"] | None = None, *,
                     variants=None):
        """The scenario with some sides' policies (and their parameters) replaced."""
        profile = {s: (p if isinstance(p, Policy) else Policy(str(p)))
                   for s, p in (profile or {}).items()}
        sc = self.load(path, policies={s: p.name for s, p in profile.items()}, variants=variants)
        for side, pol in profile.items():
            if not pol.params:
                continue
            vals = self.policy_space(pol.name, where=str(path),
                                     field=f"sides.{side}.policy").check(
                pol.values, where=str(path), field=f"sides.{side}.params")
            if self.set_params is None:
                raise UserInputError("this game's policies take no parameters yet", where=str(path),
                                     field=f"sides.{side}.params")
            sc = self.set_params(sc, side, vals)
        return sc

    def frame(self, scenario, trials: int, seed: int, **run_opts) -> "pd.DataFrame":
        from .runner import run

        res = run(self.simulation(scenario), trials, seed, **run_opts)
        if self.summarise is not None:
            return self.summarise(scenario, res)
        return res.frame

    def table(self, path, *, trials: int = 10_000, seed: int = 2026, policies=None,
              all_policies: bool = False, variants=None, **run_opts) -> "pd.DataFrame":
        """Win rates per side (one row per side; with ``all_policies`` one block per pairing
        of the named policies, every pairing on the same seeded trials)."""
        from . import pairings

        base = self.load_profile(path, policies, variants=variants)
        if not all_policies:
            return self.frame(base, trials, seed, **run_opts)
        return pairings.table(
            lambda chosen: self.frame(self.load_profile(path, chosen, variants=variants),
                                      trials, seed, **run_opts),
            list(self.sides(base)), list(self.cheap_policies()),
            keep_extra=list(self.keep_extra))

    def log(self, path, *, seed: int = 2026, trial: int = 0, policies=None, variants=None):
        """One game of the table, logged: same policies and variants (``(lines, result)``)."""
        return self.playthrough(self.load_profile(path, policies, variants=variants),
                                seed=seed, trial=trial)


@dataclass(frozen=True)
class BuildGame:
    """What a game offers for a build metagame (:mod:`simkit.analysis.metagame`).

    ``space``: the legal builds (a ``simkit.core.search.DesignSpace``: ``sample``, ``mutate``,
    ``describe``, ``is_legal``, ``columns``). ``duel(a, b, n, seed)`` -> wins of builds (a, b)
    over ``n`` games with the seats rotated. ``start``: builds the population starts from;
    ``reference``: (name, build) rows always reported; ``note``: who flies the builds, where.
    ``extend``: ``duel`` takes a fourth argument, the first game (games ``first ..
    first+n-1``, which add up to games ``0 .. first+n-1``), so longer estimates extend
    shorter ones."""
    title: str
    space: Any
    duel: Callable[[tuple, tuple, int, int], Any]
    start: Sequence[tuple]
    reference: Sequence[tuple[str, tuple]] = ()
    note: str = ""
    extend: bool = False


@dataclass(frozen=True)
class Analysis:
    """One headline analysis of a game, as a library call: what the report shows and the
    game's CLI command prints.

    ``run(trials=N, seed=S, **options, **run_opts)`` returns a tidy frame; ``trials`` is the
    number of trials per cell (for a build search, its candidate-trial budget), ``None`` for an
    analysis that runs none (a drawing of the board). ``frame.attrs["notes"]`` (a list of
    strings), when set, says how to read it (intervals, what was exact). ``plot(frame, path)``
    draws it (optional). ``quick`` holds the options of the ~2-minute version; ``command`` is
    the ``simkit`` line that reproduces it with the default options (the report adds
    ``--trials`` and ``--seed``)."""
    name: str                        # "weapons", "hazards", "crash", "builds", "board"...
    title: str
    run: Callable[..., "pd.DataFrame"]
    trials: int | None = None        # the default count; None: no trials
    plot: Callable[["pd.DataFrame", Any], Any] | None = None
    quick: Mapping[str, Any] = field(default_factory=dict)
    command: str = ""
    trials_option: str = "--trials"  # how the command spells ``trials`` ("--trials-budget")


@dataclass(frozen=True)
class Game:
    """A game: its name, its rules data, its scenario engine and its analyses.

    ``analyses`` holds the game's library entry points by question, each a callable returning
    a tidy frame (``weapons``...; ``build_scenario`` for sensitivity, ``metagame`` for
    balance). ``headline`` lists the analyses the report shows, in order (:class:`Analysis`).
    ``commands`` are the game's CLI commands (``simkit.cliutil.Command``), declared by its
    ``commands`` module: the library never calls them.
    """
    name: str                      # CLI name, e.g. "starfire"
    title: str                     # e.g. "Starfire (Task Force Games, 1979)"
    rules: Callable[[], RulesData]  # all rules tables and variants, loaded once
    commands: Mapping[str, Any] = field(default_factory=dict)
    analyses: Mapping[str, Callable] = field(default_factory=dict)
    scenario: ScenarioEngine | None = None
    headline: Sequence[Analysis] = ()

    def policy_spaces(self) -> Mapping[str, PolicySpace]:
        return self.scenario.policies() if self.scenario is not None else {}
