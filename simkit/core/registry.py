"""What every game offers, in one small shape (DESIGN.md "Layers"; STYLE.md habit 5).

A game is a name, its rules data (tables with provenance, named variants) and a set of
*commands*: ``weapons``, ``hazards``, ``crash``, ``builds``, ``board``... Each command adds its
own options to the CLI and runs an analysis that returns a tidy pandas frame; the CLI prints it
and writes ``--out``/``--plot``. Analyses reach games only through this shape, so a fifth game
touches no analysis or CLI code.

Building the ``simkit`` parser imports every game package and its commands, so a game's
``__init__`` and ``commands`` modules import no numba, pandas or kernel module at module level:
``add_arguments`` only declares options, and ``run`` and the ``analyses`` import what they
compute when called (``tests/test_cli_parser.py`` holds ``simkit --help`` to that).
"""


from __future__ import annotations

import argparse
from dataclasses import dataclass, field
from typing import Callable, Mapping

from .data import RulesData


@dataclass(frozen=True)
class Command:
    help: str
    add_arguments: Callable[[argparse.ArgumentParser], None]
    run: Callable[[argparse.Namespace], int]


@dataclass(frozen=True)
class Game:
    name: str                      # CLI name, e.g. "starfire"
    title: str                     # e.g. "Starfire (Task Force Games, 1979)"
    rules: Callable[[], RulesData]  # all rules tables and variants, loaded once
    commands: Mapping[str, Command] = field(default_factory=dict)
    #: library entry points by question, all callables, e.g. {"weapons": fn(**options) ->
    #: DataFrame, "policies": fn() -> list of policy names}
    analyses: Mapping[str, Callable] = field(default_factory=dict)
