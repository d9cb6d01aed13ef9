"""Checks of a library call's arguments and of the fields of scenario files, shared by every
game's analyses, loaders and the CLI: each failure is one :class:`UserInputError` naming the
option or field it came from."""

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


# --- scenario and build files: one way to read a field, for every game's loader ---------------
_REQUIRED = object()


def get_field(raw, key: str, types, where: str, name: str | None = None, *, default=_REQUIRED):
    """``raw[key]``, checked to be one of ``types`` (``True``/``False`` never pass for a number).
    A missing key gives ``default``, or, without one, a "missing" error. Errors name ``where``
    (the file) and ``name`` (the field as the user writes it; ``key`` by default)."""
    name = key if name is None else name
    if key not in raw:
        if default is _REQUIRED:
            raise UserInputError("missing", where=where, field=name)
        return default
    v = raw[key]
    types = types if isinstance(types, tuple) else (types,)
    if (isinstance(v, bool) and bool not in types) or not isinstance(v, types):
        raise UserInputError(f"expected {'/'.join(t.__name__ for t in types)}, got {v!r}",
                             where=where, field=name)
    return v


def known_fields(raw, allowed, where: str, prefix: str = "") -> None:
    """Refuse a key of ``raw`` not in ``allowed`` (a misspelt field is an error, not ignored)."""
    for k in raw:
        if k not in allowed:
            raise UserInputError(f"unknown field (allowed: {', '.join(sorted(allowed))})",
                                 where=where, field=f"{prefix}{k}")


def whole_number(v, where: str, name: str, lo: int, hi: int) -> int:
    """``v`` as a whole number within [lo, hi]."""
    if isinstance(v, bool) or not isinstance(v, int):
        raise UserInputError(f"must be a whole number, got {v!r}", where=where, field=name)
    if not lo <= v <= hi:
        raise UserInputError(f"must be {lo}-{hi}, got {v}", where=where, field=name)
    return v


def text(v, where: str, name: str) -> str:
    """``v`` as a non-empty string, stripped."""
    if not isinstance(v, str) or not v.strip():
        raise UserInputError(f"must be a non-empty string, got {v!r}", where=where, field=name)
    return v.strip()
