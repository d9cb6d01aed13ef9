"""Demo Derby: Saturday Night at the Track (Mayfair Games, 1982).

Modelled (docs/rules/demo-derby.md has the rule-by-rule coverage): the rules tables as labelled
data (``rules``; most are RECONSTRUCTED, shared/rules-data.md section 3), the record sheet and
its damage flow (``sheet``), crash damage as a compiled kernel with an exact oracle (``crash``;
``simkit crash demo-derby``), the arena as a data file (``arena``; ``simkit board demo-derby``)
and whole derbies played by scripted policies (``derby``; ``simkit derby demo-derby``).
Not yet: the Figure-8 race and the combined event.
"""

from ..core.registry import Game
from .commands import COMMANDS
from .rules import rules_data

GAME = Game(name="demo-derby", title="Demo Derby: Saturday Night at the Track (Mayfair, 1982)",
            rules=rules_data, commands=COMMANDS)
