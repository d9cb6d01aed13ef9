"""Demo Derby: Saturday Night at the Track (Mayfair Games, 1982).

Modelled so far (see docs/rules/demo-derby.md for the rule-by-rule coverage): the rules tables
as labelled data (``rules``), the record sheet and its damage flow (``sheet``), and crash damage
as a compiled kernel with an exact oracle (``crash``; ``simkit crash demo-derby``).
"""

from ..core.registry import Game
from .commands import COMMANDS
from .rules import rules_data

GAME = Game(name="demo-derby", title="Demo Derby: Saturday Night at the Track (Mayfair, 1982)",
            rules=rules_data, commands=COMMANDS)
