"""Dark Future (Games Workshop, 1988): road combat between armed cars and bikes.

What is modelled so far (docs/rules/dark-future.md maps every rulebook section):
rules tables as data (``data/*.toml``); the hazard roll, panic braking, several tests in one move,
control-loss tests, skids and spins (:mod:`.hazards`); the shot: hit roll, damage roll, critical
hits through the target matrices and result tables (:mod:`.shooting`); vehicle design
validation (:mod:`.design`).
"""

from __future__ import annotations

from ..core.registry import Game
from . import rules as _rules
from .commands import COMMANDS

GAME = Game(name="dark-future", title="Dark Future (Games Workshop, 1988)",
            rules=_rules.base_rules, commands=COMMANDS)
