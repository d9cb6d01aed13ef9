"""Plain-Python twins of Demo Derby's crash damage (``procedures``): the readable reference
``crash_reference``, which runs on simkit.core.exact's dice objects (``ScriptedDice`` to
replay an example, ``EnumeratingDice`` for exact distributions), and the exact oracle
``crash_exact``, which merges identical record sheets after every point (the outcome depends
on the order of points only through the sheet), fast enough to sit beside every Monte Carlo
figure. Neither shares code with the compiled kernel: the record sheet here is
``pieces.sheet.RecordSheet``, the plain-Python one."""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from .pieces.sheet import RecordSheet, fresh_sheet
from .rules import (ENGINE, ON_DRAW, ON_DRAW_CROSS_RADIATOR, ON_DRAW_FLAT_RANDOM_TIRE, PARTS,
                    RADIATOR, TRUNK, Tables, rammer_column)


# ---------------------------------------------------------------------------------------------
# readable reference (runs on ScriptedDice / EnumeratingDice)
# ---------------------------------------------------------------------------------------------
class Deck:
    """A freshly shuffled deck: drawing the top card = picking one of the undrawn cards."""

    def __init__(self, tables: Tables):
        self.cards = [int(c) for c in tables.deck]
        self.n = len(self.cards)

    def draw(self, dice_) -> int:
        i = dice_.roll(1, self.n) - 1 if self.n > 1 else 0
        self.cards[i], self.cards[self.n - 1] = self.cards[self.n - 1], self.cards[i]
        self.n -= 1
        return self.cards[self.n]


def _reference_damage(dice_, tables: Tables, row, speed, column, sheet: RecordSheet, deck: Deck):
    points = int(tables.damage[row, speed])
    cards_due = int(tables.special[row, speed])
    for _ in range(points):
        if sheet.out():
            break
        d = dice_.roll(1, 6)  # one hit-location roll per damage point
        sheet.damage(PARTS[tables.hit[d, column]])
    drawn = 0
    for _ in range(cards_due):
        if sheet.out() or deck.n == 0:
            break
        card = deck.draw(dice_)
        drawn += 1
        effect = int(tables.card_on_draw[card])
        if effect == ON_DRAW_CROSS_RADIATOR:
            sheet.crossed["radiator"] = sheet.boxes["radiator"]
        elif effect == ON_DRAW_FLAT_RANDOM_TIRE and sheet.flat_tires() < 4:
            tire = PARTS[dice_.roll(1, 4) - 1]
            sheet.crossed[tire] = sheet.boxes[tire]
    return (points, int(cards_due > 0), int(sheet.out()), int(sheet.full("radiator")),
            sheet.flat_tires(), sheet.crossed["engine"], drawn)


def crash_reference(dice_, tables: Tables, speed: int, impact: int, reverse: bool = False,
                    sheet_t=None, sheet_r=None, return_sheets: bool = False):
    """One crash as the rulebook narrates it; returns (target outcome, rammer outcome)
    (and the two record sheets as arrays when ``return_sheets``)."""
    target = RecordSheet(tables, sheet_t)
    rammer = RecordSheet(tables, sheet_r)
    deck = Deck(tables)
    rammer_roll = dice_.roll(1, 6)
    t = _reference_damage(dice_, tables, rammer_roll, speed, impact, target, deck)
    target_roll = dice_.roll(1, 6)
    r = _reference_damage(dice_, tables, target_roll - 1, speed,
                          rammer_column(tables, impact, reverse), rammer, deck)
    if return_sheets:
        return t, r, target.array(), rammer.array()
    return t, r


# ---------------------------------------------------------------------------------------------
# exact oracle: dice paths merged by record sheet
# ---------------------------------------------------------------------------------------------
def _apply(tables, sheet: tuple, part: int) -> tuple:
    # through the plain-Python reference sheet, so the oracle shares no code with the kernel
    s = RecordSheet(tables, sheet)
    s.damage(PARTS[part])
    return tuple(s.crossed[p] for p in PARTS)


def _out(tables, s) -> bool:
    return s[ENGINE] >= tables.capacity[ENGINE] or s[TRUNK] >= tables.capacity[TRUNK]


class _Oracle:
    """Dynamic programme over record sheets. ``num`` is Fraction (exact; tests) or float
    (the same enumeration with float weights, ~1e-15 rounding; the analysis table)."""

    def __init__(self, tables: Tables, num=Fraction):
        self.t = tables
        self.num = num
        self.sixth = num(1) / 6
        self.cap = [int(x) for x in tables.capacity]

    @lru_cache(maxsize=None)
    def after_points(self, sheet: tuple, column: int, k: int):
        """Distribution of the sheet after ``k`` hit-location rolls in ``column``."""
        if k == 0:
            return {sheet: self.num(1)}
        out: dict = {}
        for s, p in self.after_points(sheet, column, k - 1).items():
            if _out(self.t, s):
                out[s] = out.get(s, 0) + p
                continue
            for d in range(1, 7):
                s2 = self.apply(s, int(self.t.hit[d, column]))
                out[s2] = out.get(s2, 0) + p * self.sixth
        return out

    @lru_cache(maxsize=None)
    def apply(self, sheet: tuple, part: int) -> tuple:
        return _apply(self.t, sheet, part)

    def _flats(self, s):
        return sum(s[i] >= self.cap[i] for i in range(4))

    def _project(self, s):
        """What of a sheet can still matter once the hit locations are done: cards touch only
        the radiator and the tires, and cannot put a car out."""
        return (int(_out(self.t, s)), int(s[RADIATOR] >= self.cap[RADIATOR]),
                tuple(int(s[i] >= self.cap[i]) for i in range(4)), int(s[ENGINE]))

    @lru_cache(maxsize=None)
    def car(self, sheet: tuple, column: int, speed: int, rows: tuple, deck: tuple):
        """{(outcome, deck left by on_draw class): p} for damage rows equally likely."""
        res: dict = {}
        w = self.num(1) / len(rows)
        for row in rows:
            dmg = int(self.t.damage[row, speed])
            ns = int(self.t.special[row, speed])
            states: dict = {}
            for s, p in self.after_points(sheet, column, dmg).items():
                key = (self._project(s), 0, deck)
                states[key] = states.get(key, 0) + p * w
            for _ in range(ns):
                nxt: dict = {}
                for (k, drawn, dk), p in states.items():
                    n = sum(dk)
                    if k[0] or n == 0:  # out: no card is drawn
                        nxt[(k, drawn, dk)] = nxt.get((k, drawn, dk), 0) + p
                        continue
                    for c, cnt in enumerate(dk):
                        if not cnt:
                            continue
                        q = p * (self.num(cnt) / n)
                        dk2 = dk[:c] + (cnt - 1,) + dk[c + 1:]
                        for k2, q2 in self._on_draw(k, c):  # c is the on_draw class
                            key = (k2, drawn + 1, dk2)
                            nxt[key] = nxt.get(key, 0) + q * q2
                states = nxt
            for (k, drawn, dk), p in states.items():
                o = (dmg, int(ns > 0), k[0], k[1], sum(k[2]), k[3], drawn)
                key = (o, dk)
                res[key] = res.get(key, 0) + p
        return res

    def _on_draw(self, k, eff):
        # the deck is tracked by on_draw class: a card matters to a crash only through it
        out_, rad, flats, eng = k
        if eff == ON_DRAW_CROSS_RADIATOR:
            return [((out_, 1, flats, eng), self.num(1))]
        if eff == ON_DRAW_FLAT_RANDOM_TIRE and sum(flats) < 4:
            res = []
            for t in range(4):
                f2 = flats[:t] + (1,) + flats[t + 1:]
                res.append(((out_, rad, f2, eng), self.num(1) / 4))
            return res
        return [(k, self.num(1))]


def _deck_classes(tables: Tables) -> tuple:
    """Cards per on_draw class: all the exact oracle needs to know about the deck."""
    codes = tables.card_on_draw[tables.deck]
    return tuple(int((codes == k).sum()) for k in range(len(ON_DRAW)))


@lru_cache(maxsize=None)
def _oracle(tables: Tables, num=Fraction) -> _Oracle:
    return _Oracle(tables, num)


def crash_exact(tables: Tables, speed: int, impact: int, reverse: bool = False,
                sheet_t=None, sheet_r=None, num=Fraction) -> dict:
    """Exact joint distribution {(target outcome, rammer outcome): probability} of one crash."""
    orc = _oracle(tables, num)
    st = tuple(int(x) for x in (fresh_sheet() if sheet_t is None else sheet_t))
    sr = tuple(int(x) for x in (fresh_sheet() if sheet_r is None else sheet_r))
    deck0 = _deck_classes(tables)
    rcol = rammer_column(tables, impact, reverse)
    out: dict = {}
    for (ot, dk), p in orc.car(st, impact, speed, (1, 2, 3, 4, 5, 6), deck0).items():
        for (orr, _), q in orc.car(sr, rcol, speed, (0, 1, 2, 3, 4, 5), dk).items():
            key = (ot, orr)
            out[key] = out.get(key, 0) + p * q
    return out
