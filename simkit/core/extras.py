"""The side tables an analysis hangs on its main frame, ``frame.attrs["extra"]``.

pandas carries ``attrs`` through its operations and, when it joins frames (``pd.concat``), keeps
them only if every input's ``attrs`` compare equal with ``==``. A plain dict of DataFrames cannot
be compared that way (``DataFrame == DataFrame`` is a frame, whose truth value pandas refuses),
so concatenating two tables of scenario results raised. :class:`Extras` is that dict with an
equality pandas can use: same captions, and frames equal by ``DataFrame.equals``.
"""

from __future__ import annotations


class Extras(dict):
    """Caption -> side table, for ``frame.attrs["extra"]``."""

    def __eq__(self, other):
        if not isinstance(other, dict) or self.keys() != other.keys():
            return False
        for key, value in self.items():
            theirs = other[key]
            # frames and series by content; pandas is not imported here, so that building the
            # CLI's parser (which imports game packages, hence this module) stays light
            if hasattr(value, "equals"):
                if not (type(theirs) is type(value) and value.equals(theirs)):
                    return False
            elif value != theirs:
                return False
        return True

    def __ne__(self, other):
        return not self == other

    __hash__ = None


def extras(frame) -> Extras:
    """The frame's side tables, created empty (and attached) if it has none yet."""
    found = frame.attrs.get("extra")
    if not isinstance(found, Extras):
        found = Extras(found or {})
        frame.attrs["extra"] = found
    return found
