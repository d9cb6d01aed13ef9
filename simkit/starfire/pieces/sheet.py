"""Ship control sheets in the rulebook's notation (starfire.txt (2.3), (8.5)).

``BRADLEY - FG1 - (2) - S S S A A A W I H W I I I I (5)`` (name, class and number, turn mode,
systems, movement points) or just the systems ``S S A H R L I I``. ``(Mn)`` is Multiplex
Tracking, one system. A system string may also be written without spaces (``SSAHRLII``).
Anything else is refused with one message naming the offending token.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from ...core.errors import UserInputError
from ..rules import CODE, HOLD, LETTERS

#: ship classes of (2.11), plus the hull chart's Starfire II classes (rules-data.md 1.5)
CLASSES = ("SD", "BB", "BC", "CA", "CL", "DD", "FG", "CT", "ES", "F1", "F2", "F3", "F4",
           "CVL", "CV", "DN", "AC", "B")
_CLASS_RE = re.compile(r"^(%s)(\d*)$" % "|".join(sorted(CLASSES, key=len, reverse=True)))
_SEP_RE = re.compile(r"\s+[-\u2013\u2014]\s+")
_TOKEN_RE = re.compile(r"\s*(?:(\(M(\d+)\))|(\((\d+)\))|(\S))")


@dataclass(frozen=True)
class Sheet:
    systems: tuple[str, ...]          # one token per system: "S", "W", "(M2)", ...
    name: str = ""
    hull_class: str = ""
    number: str = ""
    turn_mode: int | None = None
    movement: int | None = None       # the "(5)" notation, when given

    @property
    def codes(self) -> np.ndarray:
        return np.array([CODE["M"] if s.startswith("(M") else CODE[s] for s in self.systems],
                        dtype=np.int64)

    @property
    def multiplex(self) -> int:
        """Number of targets this ship may engage (8.5): n of (Mn), else 1."""
        ns = [int(s[2:-1]) for s in self.systems if s.startswith("(M")]
        return max(ns) if ns else 1

    @property
    def engines(self) -> int:
        return sum(1 for s in self.systems if s == "I")

    def count(self, letter: str) -> int:
        return sum(1 for s in self.systems if s == letter)

    def __str__(self) -> str:
        return " ".join(self.systems)


def parse_sheet(text: str, *, where: str = "control sheet") -> Sheet:
    """Parse a control sheet; raise :class:`UserInputError` naming the bad token."""
    if not isinstance(text, str) or not text.strip():
        raise UserInputError("empty control sheet", where=where)
    parts = _SEP_RE.split(text.strip())
    header, body = parts[:-1], parts[-1]
    name = hull_class = number = ""
    turn_mode = None
    for part in header:
        part = part.strip()
        m = _CLASS_RE.match(part)
        if re.fullmatch(r"\(\d+\)", part):
            turn_mode = int(part[1:-1])
        elif m and not hull_class:
            hull_class, number = m.group(1), m.group(2)
        elif not name:
            name = part
        else:
            raise UserInputError(f"unrecognised header field {part!r} (expected NAME - CLASS - "
                                 "(turn mode) - systems)", where=where, field=part)
    systems: list[str] = []
    movement = None
    pos = 0
    for m in _TOKEN_RE.finditer(body):
        if m.start() != pos and body[pos:m.start()].strip():
            break
        pos = m.end()
        if m.group(1):
            if int(m.group(2)) < 2:
                raise UserInputError("Multiplex Tracking must allow at least 2 targets",
                                     where=where, field=m.group(1))
            systems.append(f"(M{int(m.group(2))})")
        elif m.group(3):
            if body[m.end():].strip():
                raise UserInputError(f"movement points {m.group(3)} must come last",
                                     where=where, field=m.group(3))
            movement = int(m.group(4))
        else:
            tok = m.group(5)
            if tok not in CODE or tok == "M":
                known = " ".join(LETTERS[:-1]) + " (Mn)"
                raise UserInputError(f"unknown system letter {tok!r} at system {len(systems) + 1}"
                                     f" (known: {known})", where=where, field=tok)
            systems.append(tok)
    if not systems:
        raise UserInputError("no systems on the control sheet", where=where)
    sheet = Sheet(tuple(systems), name, hull_class, number, turn_mode, movement)
    if movement is not None and movement != sheet.engines:
        raise UserInputError(f"movement points ({movement}) do not match the {sheet.engines} "
                             "Ion Engines (I) on the sheet", where=where, field=f"({movement})")
    return sheet


def hold_run_ends(codes: np.ndarray) -> np.ndarray:
    """For each Hold, the index of the last Hold of its run (8.1); -1 for other systems."""
    out = np.full(len(codes), -1, dtype=np.int64)
    i = 0
    while i < len(codes):
        if codes[i] == HOLD:
            j = i
            while j + 1 < len(codes) and codes[j + 1] == HOLD:
                j += 1
            out[i:j + 1] = j
            i = j + 1
        else:
            i += 1
    return out
