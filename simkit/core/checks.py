"""Checks of a library call's arguments, shared by every game's analyses and the CLI: each
failure is one :class:`UserInputError` naming the option it came from."""

from __future__ import annotations

from .errors import UserInputError


def positive_int(value, option: str) -> int:
    """``value`` as a whole number of at least 1."""
    if value is None or int(value) < 1:
        raise UserInputError(f"must be a positive whole number, got {value!r}", field=option)
    return int(value)


def ints_in(values, option: str, lo: int, hi: int) -> list[int]:
    """``values`` as whole numbers, at least one, each within [lo, hi]."""
    values = [int(v) for v in values]
    if not values or min(values) < lo or max(values) > hi:
        raise UserInputError(f"values must lie in {lo}-{hi}, got {values!r}", field=option)
    return values
