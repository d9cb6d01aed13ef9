"""A small TOML writer for the files simkit generates (scenarios made from leaderboard rows,
test inputs). Every nested table is written inline, one top-level key per line, which any TOML
reader (tomllib here) reads back to the same document. simkit reads TOML only with tomllib.
"""

from __future__ import annotations

import math
from typing import Any

_BARE = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


def _key(k: str) -> str:
    return k if k and set(k) <= _BARE else _string(k)


def _string(s: str) -> str:
    out = ['"']
    for ch in s:
        o = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif o < 0x20 or o == 0x7F:
            out.append(f"\\u{o:04x}")
        elif 0xD800 <= o <= 0xDFFF:   # lone surrogates cannot be written in TOML (or UTF-8)
            out.append("\\ufffd")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return repr(v)
    if isinstance(v, str):
        return _string(v)
    if isinstance(v, list):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_key(str(k))} = {_value(x)}" for k, x in v.items()) + "}"
    return _string(str(v))   # dates and times: written as strings


def dumps(doc: dict) -> str:
    """A TOML document for ``doc`` (every nested table written inline, one key per line)."""
    return "".join(f"{_key(str(k))} = {_value(v)}\n" for k, v in doc.items())
