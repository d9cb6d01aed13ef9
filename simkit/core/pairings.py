"""Policy pairings: the policy combinations a scenario is played under.

``simkit scenario run --policies all`` and ``simkit sensitivity`` both ask the same question
(how do the win rates move when the sides are driven differently?) for every game, so the
choice of pairings, their labels and the stacking of one frame per pairing live here once.

Every combination of policies over the sides is tried when there are at most
:data:`MAX_PAIRINGS`; beyond that (a six-car derby with four drivers is 4,096 games) each side in
turn tries every policy while the others keep theirs, which still shows each side's sensitivity.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Callable, Mapping, Sequence
from .extras import Extras

if TYPE_CHECKING:   # pandas is imported where frames are stacked: the CLI parser reads
    import pandas as pd   # MAX_PAIRINGS without it

MAX_PAIRINGS = 64


def pairings(sides: Sequence[str], names: Sequence[str],
             default: Mapping[str, str] | None = None,
             cap: int = MAX_PAIRINGS) -> list[dict[str, str]]:
    """The pairings to play, in a fixed order.

    With ``default`` (every side's policy as the scenario has it) each pairing is complete and
    the default pairing itself is left out, since it is the baseline. Without it, a pairing
    from the one-side-at-a-time fallback names only the side that changes.
    """
    if len(names) ** len(sides) <= cap:
        combos = [dict(zip(sides, c)) for c in itertools.product(names, repeat=len(sides))]
    elif default is None:
        combos = [{s: n} for s in sides for n in names]
    else:
        combos = [{**default, s: n} for s in sides for n in names]
    if default is None:
        return combos
    out, seen = [], {tuple(dict(default).items())}
    for c in combos:
        key = tuple(c.items())
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out


def label(pairing: Mapping[str, str], n_sides: int | None = None) -> str:
    """``a=x vs b=y``; a pairing naming fewer sides than the scenario has says so."""
    text = " vs ".join(f"{s}={p}" for s, p in pairing.items())
    if n_sides is not None and len(pairing) < n_sides:
        text += " (others as in the file)"
    return text


def table(frame_of: Callable[[dict[str, str]], pd.DataFrame], sides: Sequence[str],
          names: Sequence[str], *, keep_extra: Sequence[str] = ()) -> pd.DataFrame:
    """One block of rows per pairing, with a ``pairing`` column.

    ``frame_of(pairing)`` plays the scenario under that pairing and returns its usual frame.
    The printed columns (``attrs["columns"]``) are the first frame's; of each frame's extra
    tables only those titled in ``keep_extra`` are kept, under ``"<pairing>: <title>"`` (all of
    them for every pairing would bury the table).
    """
    import pandas as pd

    frames, extra, columns = [], {}, None
    for chosen in pairings(sides, names):
        f = frame_of(chosen)
        name = label(chosen, len(sides))
        f.insert(1, "pairing", name)
        columns = columns or f.attrs.get("columns")
        for title in keep_extra:
            if title in f.attrs.get("extra", {}):
                extra[f"{name}: {title}"] = f.attrs["extra"][title]
        f.attrs = {}   # frames holding frames in attrs cannot be concatenated
        frames.append(f)
    out = pd.concat(frames, ignore_index=True)
    if columns and "pairing" not in columns:
        columns = ["pairing", *columns]
    if columns:
        out.attrs["columns"] = columns
    if extra:
        out.attrs["extra"] = Extras(extra)
    return out
