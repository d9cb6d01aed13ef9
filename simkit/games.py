"""The registry of games: every game package has the same shape and is found here by name.

Each game package exposes ``GAME``, a :class:`simkit.core.registry.Game`. Packages are imported
lazily, so ``simkit weapons starfire`` does not compile another game's kernels.
"""

from __future__ import annotations

import importlib
import importlib.util

from .core.errors import UserInputError
from .core.game import Game

#: CLI name -> package
PACKAGES = {
    "starfire": "simkit.starfire",
    "dark-future": "simkit.dark_future",
    "demons-run": "simkit.demons_run",
    "demo-derby": "simkit.demo_derby",
}


def available() -> list[str]:
    """Names of the games whose packages are installed."""
    out = []
    for name, pkg in PACKAGES.items():
        spec = importlib.util.find_spec(pkg)
        if spec is not None and spec.origin is not None:  # a real package, not a data folder
            out.append(name)
    return out


def get(name: str) -> Game:
    key = name.lower().replace("_", "-").replace("'", "")
    if key not in PACKAGES or key not in available():
        raise UserInputError(f"unknown game {name!r} (available: {', '.join(available())})",
                             field="game")
    return importlib.import_module(PACKAGES[key]).GAME


def all_games() -> list[Game]:
    return [get(n) for n in available()]


def for_scenario(path) -> Game:
    """The game a scenario file is for (its ``game`` field); it must have a scenario engine.
    Errors name the file and the field."""
    from .core.data import read_toml

    raw = read_toml(path)
    name = raw.get("game")
    if not isinstance(name, str):
        raise UserInputError("missing: which game the scenario is for", where=str(path),
                             field="game")
    try:
        g = get(name)
    except UserInputError as e:
        raise UserInputError(e.detail, where=str(path), field="game") from None
    if g.scenario is None:
        raise UserInputError(f"{g.title} has no scenario engine yet", where=str(path),
                             field="game")
    return g
