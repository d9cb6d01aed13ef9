"""What a notebook's prose states, checked against the notebook's own run.

A notebook's last code cell lists every figure its markdown quotes from the run, written
exactly as in the markdown ("53%", "0.95", "15,000"), with the value the run computed and its
95% interval (a count or an exact value: the value itself as both ends), and the statements
it makes about the run, quoted as written, with whether the run bears them out::

    figures = StatedFigures()
    figures.add("53%", "#1's win rate", top.win_rate, top.win_lo, top.win_hi)
    figures.fact("The top three's intervals overlap", top.win_lo.max() < top.win_hi.min())
    figures.check()

``check`` shows the list, and raises if a figure lies outside its interval (widened by half a
unit of the figure's last digit, the rounding of the prose) or a statement does not hold: a
notebook whose code now computes something else fails when it is re-executed, until its prose
is brought up to date. The list is also shown as JSON (``application/vnd.simkit.stated+json``)
for ``tests/test_notebooks.py``, which checks that each text is in the markdown and that every
percentage the markdown shows (bar the "95%" of the intervals) is a listed figure.
"""

from __future__ import annotations

import math
import re

MIME = "application/vnd.simkit.stated+json"
NUMBER = re.compile(r"-?\d+(?:,\d{3})*(?:\.\d+)?%?")


def parse(text: str) -> tuple[float, float]:
    """The number a stated text means, and half a unit of its last digit (its rounding)."""
    found = NUMBER.findall(text)
    if len(found) != 1:
        raise ValueError(f"a stated figure holds exactly one number: {text!r}")
    token = found[0]
    pct = token.endswith("%")
    digits = token.rstrip("%").replace(",", "")
    decimals = len(digits.partition(".")[2])
    scale = 0.01 if pct else 1.0
    return float(digits) * scale, 0.5 * 10.0 ** -decimals * scale


class StatedFigures:
    def __init__(self):
        self.rows: list[dict] = []

    def add(self, text: str, what: str, run: float, lo: float, hi: float) -> None:
        """``text``: the figure as the markdown writes it; ``what``: what it measures;
        ``run``, ``lo``, ``hi``: this run's value and 95% interval."""
        value, half = parse(text)
        run, lo, hi = float(run), float(lo), float(hi)
        slack = half + 1e-9 * max(1.0, abs(value))   # the prose's rounding, and float noise
        ok = all(map(math.isfinite, (run, lo, hi))) and lo - slack <= value <= hi + slack
        self.rows.append(dict(text=text, what=what, stated=value, run=run, lo=lo, hi=hi, ok=ok))

    def fact(self, text: str, holds: bool) -> None:
        """A statement of the markdown, quoted as written there, that this run bears out
        (``holds``: computed from the run, e.g. which scenarios are even within their
        intervals)."""
        self.rows.append(dict(text=text, what="(statement)", stated=None, run=None, lo=None,
                              hi=None, ok=bool(holds)))

    def lines(self) -> list[str]:
        out = []
        for r in self.rows:
            mark = "ok" if r["ok"] else "NOT SUPPORTED"
            if r["stated"] is None:
                out.append(f"{mark}: \"{r['text']}\"")
            elif r["lo"] == r["hi"]:
                out.append(f"{mark}: {r['text']} ({r['what']}): run {_num(r['run'])}")
            else:
                out.append(f"{mark}: {r['text']} ({r['what']}): run {_num(r['run'])}, "
                           f"95% interval {_num(r['lo'])} to {_num(r['hi'])}")
        return out

    def check(self) -> None:
        from IPython.display import display

        lines = self.lines()
        display({MIME: self.rows, "text/plain": "\n".join(lines)}, raw=True)
        bad = [line for line, r in zip(lines, self.rows) if not r["ok"]]
        if bad:
            raise AssertionError(
                "the markdown states what this run does not support (a figure outside its 95% "
                "interval, or a statement that does not hold); fix the prose, then regenerate "
                "the notebook (python notebooks/regenerate.py NAME):\n" + "\n".join(bad))


def _num(x: float) -> str:
    return f"{x:,.4f}".rstrip("0").rstrip(".")
