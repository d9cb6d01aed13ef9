"""Game-agnostic analyses: each asks a game (through ``simkit.games``) for its simulation."""

from .weapons import weapon_table

__all__ = ["weapon_table"]
