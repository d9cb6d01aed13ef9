"""What is each weapon worth at each range? The library entry point for every game.

>>> from simkit.analysis import weapon_table
>>> df = weapon_table("starfire", target="wisconsin", ranges=range(0, 21), trials=100_000)

Returns the tidy frame (one row per weapon x range) that ``simkit weapons GAME`` prints.
"""

from __future__ import annotations

import pandas as pd

from .. import games
from ..core.errors import UserInputError


def weapon_table(game: str, **options) -> pd.DataFrame:
    g = games.get(game)
    fn = g.analyses.get("weapons")
    if fn is None:
        raise UserInputError(f"{g.title} has no weapon-value analysis", field="game")
    return fn(**options)
