"""Who wins a Starfire scenario, and how often? Battles over trials, and readable game logs.

:class:`BattleSim` runs the compiled battle (``battle.py``) trial by trial for the runner and
summarises per side: wins, draws, win rate with a 95% Wilson interval, decisive wins, mean turns,
mean surviving ships and systems (t intervals), and how the battles were won
(:func:`how_battles_were_won`: decisive and minor win rates, turns of won battles, own ships
lost, with intervals). :func:`playthrough` plays one seeded game with
every roll recorded and renders the log the golden tests diff.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..core import dice, pairings, stats
from ..core.runner import run
from .battle import (EV_ARRIVE, EV_DESTROYED, EV_DRAG, EV_END, EV_EXIT, EV_FIRE, EV_MOVE,
                     EV_PIVOT, EV_PULL, EV_RELEASE, EV_REPAIR, EV_SCAN, EV_STAY, EV_TRACTOR,
                     EV_TURN, EV_TURNFACE, G_DRAWS, G_HIST, G_TURNS, G_TURNS_SQ, LOG_W,
                     N_SIDE_STATS, S_DECISIVE, S_KILLS, S_LOST, S_LOST_SQ, S_SHIPS, S_SHIPS_SQ,
                     S_SYS, S_SYS_SQ, S_WIN_TURNS, S_WIN_TURNS_SQ, S_WINS, SIDE_OUT_W,
                     battles_kernel, play)
from .hexmap import hex_label
from .policies import POLICIES
from .rules import FAMILIES, combat_tables
from .scenario import Scenario, load_scenario, to_arrays

FACING_NAMES = ("up", "up-right", "down-right", "down", "down-left", "up-left")


def expected_values(tables) -> np.ndarray:
    """ev[family, range]: expected half points of one weapon, no defences (for the policies)."""
    from ..core.exact import p_at_most

    ev = np.zeros(tables.hit_number.shape, dtype=np.float64)
    for f in range(ev.shape[0]):
        for r in range(ev.shape[1]):
            h, e = tables.hit_number[f, r], tables.effect_halves[f, r]
            if h >= 0 and e >= 0:
                p = 1.0 if h >= 12 else float(p_at_most(2, 6, int(h))) if h >= 2 else 0.0
                ev[f, r] = p * e
    return ev


@dataclass
class BattleSim:
    scenario: Scenario
    name: str = "starfire battles"
    #: the rates --target-ci aims at (the victory breakdown's rates ride along)
    reported_rates = ("win_rate",)

    def __post_init__(self):
        sc = self.scenario
        self.tables = combat_tables(sc.variants)
        self.a = to_arrays(sc)
        self.mult = np.array([s.sheet.multiplex for s in sc.ships], dtype=np.int64)
        self.ev = expected_values(self.tables)
        self.nsides = len(sc.sides)
        self.n_glob = G_HIST + sc.turns + 1
        self.n_stats = self.n_glob + self.nsides * N_SIDE_STATS

    def _args(self):
        a, t = self.a, self.tables
        return (a.ship_int, a.side_int, a.side_par, a.codes, a.nsys, a.run_end, self.mult, a.obj,
                a.scan, a.opt, self.ev, t.hit_number, t.effect_halves, t.skip, t.nth, t.intercept,
                t.od_negate_halves, t.od_burnout_halves, a.moves)

    def chunk(self, key, first, n):
        return battles_kernel(*self._args(), np.uint64(key), first, n)

    def summarise(self, totals, n_trials):
        tot = np.asarray(totals)
        sc = self.scenario
        n = n_trials
        turns, t_lo, t_hi = stats.mean_ci(tot[G_TURNS], tot[G_TURNS_SQ], n)
        rows = []
        for i, side in enumerate(sc.sides):
            b = self.n_glob + i * N_SIDE_STATS
            wins = int(tot[b + S_WINS])
            lo, hi = stats.rate_ci(wins, n)
            ships, s_lo, s_hi = stats.mean_ci(tot[b + S_SHIPS], tot[b + S_SHIPS_SQ], n)
            syst, y_lo, y_hi = stats.mean_ci(tot[b + S_SYS], tot[b + S_SYS_SQ], n)
            rows.append({
                "scenario": sc.name, "side": side, "policy": sc.side_policy[i], "trials": n,
                "wins": wins, "draws": int(tot[G_DRAWS]), "win_rate": wins / n,
                "win_lo": float(lo), "win_hi": float(hi),
                "decisive_wins": int(tot[b + S_DECISIVE]),
                "draw_rate": tot[G_DRAWS] / n,
                "mean_turns": float(turns), "turns_lo": float(t_lo), "turns_hi": float(t_hi),
                "mean_surviving_ships": float(ships), "ships_lo": float(s_lo),
                "ships_hi": float(s_hi),
                "mean_surviving_systems": float(syst), "systems_lo": float(y_lo),
                "systems_hi": float(y_hi),
                "mean_enemy_hull_destroyed": tot[b + S_KILLS] / n,
                **_how_won(tot, b, wins, n),
            })
        return pd.DataFrame(rows)

    def turn_distribution(self, totals, n_trials):
        h = np.asarray(totals)[G_HIST:G_HIST + self.scenario.turns + 1]
        return pd.DataFrame({"turns": np.arange(len(h)), "games": h, "share": h / n_trials})


def _how_won(tot, b, wins, n):
    """How a side's battles were won: decisive and minor wins as shares of all battles (Wilson
    intervals), the turns its won battles lasted and its own ships destroyed per battle (t
    intervals; turns NaN when it won none)."""
    dec = int(tot[b + S_DECISIVE])
    d_lo, d_hi = stats.rate_ci(dec, n)
    m_lo, m_hi = stats.rate_ci(wins - dec, n)
    if wins > 0:
        wt, wt_lo, wt_hi = stats.mean_ci(tot[b + S_WIN_TURNS], tot[b + S_WIN_TURNS_SQ], wins)
    else:
        wt = wt_lo = wt_hi = float("nan")
    lost, l_lo, l_hi = stats.mean_ci(tot[b + S_LOST], tot[b + S_LOST_SQ], n)
    return {"decisive_rate": dec / n, "decisive_lo": float(d_lo), "decisive_hi": float(d_hi),
            "minor_rate": (wins - dec) / n, "minor_lo": float(m_lo), "minor_hi": float(m_hi),
            "mean_win_turns": float(wt), "win_turns_lo": float(wt_lo),
            "win_turns_hi": float(wt_hi),
            "mean_ships_lost": float(lost), "ships_lost_lo": float(l_lo),
            "ships_lost_hi": float(l_hi)}


#: the columns of :func:`how_battles_were_won`, beside side and policy
HOW_WON_COLUMNS = ("win_rate", "win_lo", "win_hi", "decisive_rate", "decisive_lo", "decisive_hi",
                   "minor_rate", "minor_lo", "minor_hi", "draw_rate", "mean_win_turns",
                   "win_turns_lo", "win_turns_hi", "mean_ships_lost", "ships_lost_lo",
                   "ships_lost_hi")


def how_battles_were_won(frame: pd.DataFrame) -> pd.DataFrame:
    """How each side's battles were won, from a scenario frame (:func:`scenario_table` or
    ``BattleSim.summarise``): win rate, decisive and minor wins (shares of all battles), the
    turns its won battles lasted and its own ships destroyed per battle, each with its 95%
    interval. One row per side (per pairing with ``--policies all``)."""
    keys = [c for c in ("scenario", "pairing", "side", "policy", "trials") if c in frame.columns]
    return frame[keys + list(HOW_WON_COLUMNS)].reset_index(drop=True)


def scenario_table(path, *, trials=10_000, seed=2026, policies=None, all_policies=False,
                   variants=None, **run_opts):
    """Win rates per side (one row per side; with ``all_policies`` one block per pairing)."""
    base = load_scenario(path, policies=policies, variants=variants)
    if not all_policies:
        return run(BattleSim(base), trials, seed, **run_opts).frame
    return pairings.table(
        lambda chosen: run(BattleSim(load_scenario(path, policies=chosen, variants=variants)),
                           trials, seed, **run_opts).frame,
        base.sides, POLICIES)


# --- one game, logged -------------------------------------------------------------------------

def playthrough(path_or_scenario, seed=2026, trial=0, *, max_events=20_000):
    """Play trial ``trial`` of ``seed`` with every roll recorded; return (lines, result)."""
    sc = path_or_scenario if isinstance(path_or_scenario, Scenario) else load_scenario(path_or_scenario)
    sim = BattleSim(sc)
    st = dice.new_state()
    dice.seed_trial(st, dice.stream_key(seed), trial)
    dice.set_recording(st)
    rolls = np.zeros(200_000, dtype=np.int64)
    log = np.zeros((max_events, LOG_W), dtype=np.int64)
    logn = np.zeros(1, dtype=np.int64)
    hpsnap = np.zeros((max_events, sim.a.codes.shape[1]), dtype=np.int64)
    result = np.zeros(6, dtype=np.int64)
    side_out = np.zeros((sim.nsides, SIDE_OUT_W), dtype=np.int64)
    play(*sim._args(), st, rolls, result, side_out, log, logn, hpsnap)
    if result[3]:
        from ..core.errors import UserInputError
        why = {1: "no move given for a movement point", 2: "turns before its turn mode is met (4.4)",
               3: "moves off the map or within four hexes of a Star"}[int(result[3])]
        raise UserInputError(f"{sc.ships[result[4]].name} in turn {result[5]}: {why}",
                             where=sc.path, field="moves")
    lines = render(sc, log[:min(logn[0], max_events)], hpsnap, rolls)
    return lines, {"winner": sc.sides[result[0]] if result[0] >= 0 else None,
                   "level": int(result[1]), "turns": int(result[2])}


def render(sc: Scenario, log, hpsnap, rolls) -> list[str]:
    names = [s.name for s in sc.ships]
    sheets = [list(s.sheet.systems) for s in sc.ships]
    out = [f"# {sc.name} ({sc.label}); sides: {', '.join(sc.sides)}; "
           f"policies: {', '.join(f'{a}={b}' for a, b in zip(sc.sides, sc.side_policy))}"]
    for i, ev in enumerate(log):
        kind, turn, a, b, c, d, e, f, g, extra = (int(x) for x in ev)
        if kind == EV_TURN:
            order = [sc.sides[x] for x in (a, b, c) if x >= 0 and x < len(sc.sides)]
            out.append(f"T{turn:02d} initiative: {order[0]} (fire order {' > '.join(order)})")
        elif kind == EV_ARRIVE:
            out.append(f"T{turn:02d} arrive  {names[a]} at {hex_label(b, c)} facing {FACING_NAMES[d]}")
        elif kind == EV_PIVOT:
            out.append(f"T{turn:02d} pivot   {names[a]} in {hex_label(b, c)} to face {FACING_NAMES[d]} (4.5)")
        elif kind == EV_TURNFACE:
            out.append(f"T{turn:02d} mp{e}   {names[a]} turns to face {FACING_NAMES[d]}")
        elif kind == EV_MOVE:
            out.append(f"T{turn:02d} mp{e}   {names[a]} -> {hex_label(b, c)}")
        elif kind == EV_STAY:
            out.append(f"T{turn:02d} mp{e}   {names[a]} spends a point in {hex_label(b, c)}")
        elif kind == EV_DRAG:
            out.append(f"T{turn:02d}         {names[a]} dragged by {names[e]} -> {hex_label(b, c)}")
        elif kind == EV_PULL:
            out.append(f"T{turn:02d} pull    {names[a]} pulled to {hex_label(b, c)}")
        elif kind == EV_EXIT:
            out.append(f"T{turn:02d} exit    {names[a]} leaves by the warp point at {hex_label(b, c)}")
        elif kind == EV_SCAN:
            tgt = sc.objects[c][1] if b == 0 else names[c]
            out.append(f"T{turn:02d} scan    {names[a]} scans {tgt}")
        elif kind == EV_FIRE:
            r0, r1 = divmod(extra, 1000)
            dice_txt = " ".join(str(int(x)) for x in rolls[r0:r1]) or "-"
            snap = " ".join(_sys_char(sheets[b][j], hpsnap[i, j]) for j in range(len(sheets[b])))
            out.append(f"T{turn:02d} fire    {names[a]} -> {names[b]}: {d} x {FAMILIES[c]}, "
                       f"{e} hit, {f / 2:g} points, {g} stopped; dice {dice_txt}")
            out.append(f"            {names[b]}: {snap}")
        elif kind == EV_DESTROYED:
            out.append(f"T{turn:02d} DESTROYED {names[a]}")
        elif kind == EV_TRACTOR:
            out.append(f"T{turn:02d} tractor {names[a]} latches onto {names[b]} at range {c}")
        elif kind == EV_RELEASE:
            out.append(f"T{turn:02d} release {names[a]} releases {names[b]} (8.3)")
        elif kind == EV_REPAIR:
            out.append(f"T{turn:02d} repair  {names[a]} erases a Shield hit (12.1)")
        elif kind == EV_END:
            who = sc.sides[a] if a >= 0 else "nobody (draw)"
            lvl = {2: "decisive", 1: "minor", 0: ""}[b]
            out.append(f"END after turn {turn}: {who} wins {lvl}".rstrip())
    return out


def _sys_char(tok, h):
    if h == 0:
        return "x"
    return ("[" + tok + "]") if h == 1 else tok


# --- a policy's decision in a scripted position (for tests and for explaining choices) -------

def decide(scenario: Scenario, ship: str, *, damage: dict | None = None, first: int = -1,
           moved: dict | None = None, seed: int = 0, primary_spent: tuple = ()):
    """What the side's policy wants for ``ship`` in the scenario's opening position.

    ``damage`` maps ship names to system indices already destroyed; ``moved`` maps ship names to
    hexes ("CCRR") they stand on instead; ``first``: 1 when the ship's side has the initiative
    (fires first, moves last), 0 when the enemy has it, -1 unknown. Returns
    dict(goal=CCRR, desired_range=int, target=name of the fire target it prefers or None).
    Ties (equally near enemies, equally worthy targets) are broken by the stream of ``seed``.
    ``primary_spent`` names ships whose Primary Beams fired last turn (6.5: not ready now).
    """
    from .battle import ON_MAP, _fill_ship_ev, _pick_target, _plan

    sim = BattleSim(scenario)
    a = sim.a
    n = len(scenario.ships)
    hp = np.zeros(a.codes.shape, dtype=np.int64)
    for i in range(n):
        hp[i, :a.nsys[i]] = 2
    for name, idx in (damage or {}).items():
        hp[scenario.ship_index(name), list(idx)] = 0
    status = np.array([ON_MAP if s.arrives == 1 else 0 for s in scenario.ships], dtype=np.int64)
    col = a.ship_int[:, 1].copy()
    row = a.ship_int[:, 2].copy()
    fac = a.ship_int[:, 3].copy()
    for name, h in (moved or {}).items():
        i = scenario.ship_index(name)
        col[i], row[i] = int(h[:2]), int(h[2:])
    s = scenario.ship_index(ship)
    scanned = np.zeros((len(scenario.sides), a.scan.shape[1]), dtype=np.int64)
    goal = np.zeros(3, dtype=np.int64)
    shipev = np.zeros((n, 21), dtype=np.float64)
    ready = np.array([0 if sh.name in primary_spent else 1 for sh in scenario.ships],
                     dtype=np.int64)
    _fill_ship_ev(a.codes, hp, a.nsys, sim.ev, shipev, ready)
    st = dice.new_state()
    dice.seed_trial(st, dice.stream_key(seed), 0)
    script = np.zeros(0, dtype=np.int64)
    _plan(a.ship_int, a.side_int, a.side_par, a.codes, hp, a.nsys, shipev, a.obj, a.scan,
          scanned, status, col, row, s, goal, first, a.opt, st, script)
    link = np.zeros((n, n), dtype=np.int64)
    chosen = np.zeros(n + 1, dtype=np.int64)
    pick = np.zeros(2, dtype=np.float64)
    t = _pick_target(a.ship_int, a.side_int, a.side_par, a.opt, a.obj, status, col, row, fac,
                     a.codes, hp, a.nsys, sim.ev, link, s, chosen, 0, 1, -1, st, script, pick)
    target = scenario.ships[t].name if t >= 0 and pick[1] > 0.0 else None
    return {"goal": hex_label(goal[0], goal[1]), "desired_range": int(goal[2]), "target": target}
