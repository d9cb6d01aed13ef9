"""Demo Derby scenarios: derbies, Figure-8 races and the combined event, as TOML files
(schema: ``scenarios/README.md``, section Demo Derby): loading, validation, the simulation a
file builds, its summary tables and the logged playthrough. The shared engine plays the files
(``simkit.demo_derby.SCENARIO.table``, ``simkit scenario run FILE``).

demo-derby.txt: Game Flow (start spots), Winning the Game (last car that can move; tie after 64
turns), Figure-8 Race (start behind the line, eight laps round the two poles, crashes not
required), Variants (several cars per player; a 4-lap race then a derby with the damage kept).
A *side* is a player: a player may field several cars (a team), and wins when one of its cars
is the last player's car that can move (or, in a race, the first to finish).

Every error names the file and the field and is a :class:`~simkit.core.errors.UserInputError`
(the CLI prints one line, exit 2); nothing in a scenario file is executed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ..core.extras import Extras
from ..core import dice
from ..core import eventlog as EL
from ..core.checks import text, whole_number
from ..core.data import read_toml
from ..core.errors import UserInputError
from ..core.stats import mean_ci, quantiles_from_histogram, rate_ci
from . import engine as D
from . import policies as P
from .pieces.arena import FACINGS, load_arena
from .rules import IMPACTS, PARTS, build_tables

LABELS = ("RECONSTRUCTED", "ORIGINAL", "RULE-TEXT", "SOURCED", "VERIFIED")
EVENTS = ("derby", "figure8", "combined")
KEYS = {"game", "name", "label", "source", "event", "laps", "crashes", "spots", "arena",
        "variants", "cars", "notes"}
CAR_KEYS = {"name", "player", "policy", "params", "spot"}
#: parameter -> (lowest, highest) accepted: the drivers' typed space
PARAM_RANGE = {k: (lo, hi) for k, (_, _, lo, hi) in P.PARAM_SPACE.items()}
SURVIVAL_ROUNDS = (1, 2, 4, 8, 12, 16, 24, 32, 48, 64, 80, 96, 112, 128)


@dataclass
class Car:
    name: str
    player: str
    policy: str
    params: dict
    spot: int          # 0-based start spot (derby spot / grid spot of the same index)


@dataclass
class Scenario:
    path: str
    name: str
    label: str
    source: str
    event: str
    laps: int
    crashes: bool
    random_spots: bool
    arena: object
    cars: list
    players: list                       # side names in file order
    variants: dict = field(default_factory=dict)

    def with_policies(self, policies: dict | None) -> "Scenario":
        """The same scenario with some players' cars driven by other policies."""
        if not policies:
            return self
        cars = [Car(c.name, c.player, c.policy, dict(c.params), c.spot) for c in self.cars]
        for side, name in policies.items():
            if side not in self.players:
                raise UserInputError(f"no player {side!r} in {Path(self.path).name} "
                                     f"(players: {', '.join(self.players)})", field="--policy")
            if name not in P.POLICIES:
                raise UserInputError(f"unknown policy {name!r} (known: {', '.join(P.POLICIES)})",
                                     field="--policy")
            for c in cars:
                if c.player == side:
                    c.policy = name
                    c.params = {}  # the file's parameters belong to the file's policy
        return Scenario(self.path, self.name, self.label, self.source, self.event, self.laps,
                        self.crashes, self.random_spots, self.arena, cars, self.players,
                        self.variants)


def load_scenario(path, *, policies=None, variants=None) -> Scenario:
    """Read and validate a Demo Derby scenario file."""
    where = str(path)
    raw = read_toml(path)
    unknown = sorted(set(raw) - KEYS)
    if unknown:
        raise UserInputError(f"unknown field (known: {', '.join(sorted(KEYS))})", where=where,
                             field=unknown[0])
    if raw.get("game") != "demo-derby":
        raise UserInputError("this loader reads game = \"demo-derby\" files", where=where,
                             field="game")
    name = text(raw.get("name"), where, "name")
    label = raw.get("label")
    if label not in LABELS:
        raise UserInputError(f"must be one of {', '.join(LABELS)}, got {label!r}", where=where,
                             field="label")
    source = text(raw.get("source"), where, "source")
    event = raw.get("event", "derby")
    if event not in EVENTS:
        raise UserInputError(f"must be one of {', '.join(EVENTS)}, got {event!r}", where=where,
                             field="event")
    laps = whole_number(raw.get("laps", 4 if event == "combined" else 8), where, "laps", 1, 8)
    if "laps" in raw and event == "derby":
        raise UserInputError("laps belong to figure8 and combined events", where=where,
                             field="laps")
    crashes = raw.get("crashes", True)
    if not isinstance(crashes, bool):
        raise UserInputError(f"must be true or false, got {crashes!r}", where=where,
                             field="crashes")
    if not crashes and event == "derby":
        raise UserInputError("a derby without crashes cannot be won (crashes = false is for "
                             "races)", where=where, field="crashes")
    spots = raw.get("spots", "random")
    if spots not in ("random", "fixed"):
        raise UserInputError(f"must be 'random' or 'fixed', got {spots!r}", where=where,
                             field="spots")
    arena_path = raw.get("arena")
    if arena_path is not None:
        arena_path = Path(where).parent / text(arena_path, where, "arena")
    arena = load_arena(arena_path)
    if event != "derby" and arena.race_starts is None:
        raise UserInputError("a race needs an arena with the Figure-8 starting grid (a-f)",
                             where=where, field="arena")
    file_variants = raw.get("variants", {})
    if not isinstance(file_variants, dict) or not all(isinstance(v, str)
                                                      for v in file_variants.values()):
        raise UserInputError("must be a table of name = \"choice\"", where=where,
                             field="variants")
    try:
        build_tables(variants=file_variants)
    except UserInputError as e:
        raise UserInputError(e.detail, where=where, field=f"variants.{e.field}") from None
    chosen = {**file_variants, **(variants or {})}
    try:
        build_tables(variants=chosen)
    except UserInputError as e:
        raise UserInputError(f"{e.field}: {e.detail}", field="--variant") from None

    cars_raw = raw.get("cars")
    if not isinstance(cars_raw, list) or not 2 <= len(cars_raw) <= 6:
        raise UserInputError("needs 2-6 [[cars]] (six start spots)", where=where, field="cars")
    placed = [isinstance(c, dict) and "spot" in c for c in cars_raw]
    if spots == "fixed" and any(placed) and not all(placed):
        k = placed.index(False)
        raise UserInputError("with spots = \"fixed\" give every car a spot, or none (cars in "
                             "file order on spots 1, 2, ...)", where=where, field=f"cars[{k}].spot")
    cars, names, used = [], set(), set()
    for k, c in enumerate(cars_raw):
        f = f"cars[{k}]"
        if not isinstance(c, dict):
            raise UserInputError("must be a table", where=where, field=f)
        bad = sorted(set(c) - CAR_KEYS)
        if bad:
            raise UserInputError(f"unknown field (known: {', '.join(sorted(CAR_KEYS))})",
                                 where=where, field=f"{f}.{bad[0]}")
        cname = text(c.get("name"), where, f"{f}.name")
        if cname in names:
            raise UserInputError(f"car {cname!r} appears twice", where=where, field=f"{f}.name")
        names.add(cname)
        player = text(c.get("player", cname), where, f"{f}.player")
        pol = c.get("policy", "hunter")
        if pol not in P.POLICIES:
            raise UserInputError(f"unknown policy {pol!r} (known: {', '.join(P.POLICIES)})",
                                 where=where, field=f"{f}.policy")
        params = c.get("params", {})
        if not isinstance(params, dict):
            raise UserInputError("must be a table such as { cruise = 6 }", where=where,
                                 field=f"{f}.params")
        for pk, pv in params.items():
            if pk not in PARAM_RANGE:
                raise UserInputError(f"unknown parameter (known: {', '.join(PARAM_RANGE)})",
                                     where=where, field=f"{f}.params.{pk}")
            whole_number(pv, where, f"{f}.params.{pk}", *PARAM_RANGE[pk])
        spot = k
        if "spot" in c:
            if spots != "fixed":
                raise UserInputError("spots are dealt at random; set spots = \"fixed\" to place "
                                     "cars", where=where, field=f"{f}.spot")
            spot = whole_number(c["spot"], where, f"{f}.spot", 1, 6) - 1
        if spot in used:
            raise UserInputError(f"start spot {spot + 1} is taken twice", where=where,
                                 field=f"{f}.spot")
        used.add(spot)
        cars.append(Car(cname, player, pol, dict(params), spot))
    players = list(dict.fromkeys(c.player for c in cars))
    if len(players) < 2:
        raise UserInputError("needs cars of at least two players", where=where, field="cars")
    sc = Scenario(where, name, label, source, event, laps, crashes, spots == "random", arena,
                  cars, players, chosen)
    return sc.with_policies(policies)


# --- simulation --------------------------------------------------------------------------------

def build_sim(sc: Scenario) -> D.EventSimulation:
    tables = build_tables(variants=sc.variants)
    params = np.stack([P.policy_params(c.policy, sc.players.index(c.player), **c.params)
                       for c in sc.cars])
    derby_lim = D.limits_vector(tables, sc.arena)
    none = np.zeros(D.N_LIM, np.int64)
    if sc.event == "derby":
        lim, lim2, pool, pool2 = derby_lim, none, sc.arena.starts, None
    else:
        lim = D.limits_vector(tables, sc.arena, laps=sc.laps, crashes=sc.crashes, dq=False)
        lim2 = derby_lim if sc.event == "combined" else none
        pool, pool2 = sc.arena.race_starts, sc.arena.starts
    if not sc.random_spots:  # car k on its own spot: the pool in car order
        order = [c.spot for c in sc.cars]
        pool = pool[order]
        pool2 = None if pool2 is None else pool2[order]
    return D.EventSimulation(tables, sc.arena, params, pool, lim, lim2, pool2, sc.random_spots,
                             name=f"demo-derby {sc.name}")


def _spot_labels(sc: Scenario):
    letters = "abcdef" if sc.event != "derby" else "123456"
    if sc.random_spots:
        return list(letters)
    return [letters[c.spot] for c in sc.cars]


def summarise(sc: Scenario, totals, n: int) -> pd.DataFrame:
    t = np.asarray(totals)
    rows = []
    for p, side in enumerate(sc.players):
        wins = int(t[D.S_WINS + p])
        lo, hi = rate_ci(wins, n)
        mine = [c for c in sc.cars if c.player == side]
        rows.append({"scenario": sc.name, "side": side,
                     "policy": "+".join(dict.fromkeys(c.policy for c in mine)),
                     "cars": ", ".join(c.name for c in mine), "trials": n, "wins": wins,
                     "win_rate": wins / n, "win_lo": float(lo), "win_hi": float(hi)})
    frame = pd.DataFrame(rows)
    frame.attrs["columns"] = ["pairing", "side", "policy", "cars", "trials", "wins", "win_rate",
                              "win_lo", "win_hi"]
    frame.attrs["extra"] = Extras(extra_tables(sc, t, n))
    return frame


def extra_tables(sc: Scenario, t, n: int) -> dict:
    race = sc.event != "derby"
    cars = []
    for i, c in enumerate(sc.cars):
        reasons = t[D.S_REASONS + 6 * i: D.S_REASONS + 6 * i + 6]
        k = int(t[D.S_CARWIN + i])
        lo, hi = rate_ci(k, n)
        row = {"car": c.name, "side": c.player, "policy": c.policy,
               "start": "dealt" if sc.random_spots else _spot_labels(sc)[i],
               "last_or_first": k / n, "lo": float(lo), "hi": float(hi),
               "in_at_end": reasons[0] / n}
        for r, name in enumerate(D.OUT_REASONS[1:], start=1):
            row[name] = reasons[r] / n
        if race:
            kr = int(t[D.S_RACEWIN + i])
            row["race_first"] = kr / n
        cars.append(row)
    went_out = []  # how cars went out, each reason with its interval
    for i, c in enumerate(sc.cars):
        reasons = t[D.S_REASONS + 6 * i: D.S_REASONS + 6 * i + 6]
        for r, name in enumerate(D.OUT_REASONS):
            k = int(reasons[r])
            lo, hi = rate_ci(k, n)
            went_out.append({"car": c.name, "side": c.player,
                             "how": "still in at the end" if r == 0 else name.replace("_", " "),
                             "games": k, "share": k / n, "lo": float(lo), "hi": float(hi)})
    spots = []
    for s, lab in enumerate(_spot_labels(sc)):
        g = int(t[D.S_SPOTN + s])
        w = int(t[D.S_SPOTWIN + s])
        lo, hi = rate_ci(w, g) if g else (np.nan, np.nan)
        spots.append({"start_spot": lab, "games": g, "wins": w,
                      "win_rate": w / g if g else np.nan, "win_lo": float(lo),
                      "win_hi": float(hi)})
    horizon = 128 if sc.event == "combined" else 64
    surv = {"round": [r for r in SURVIVAL_ROUNDS if r <= horizon]}
    for i, c in enumerate(sc.cars):
        h = t[D.S_OUTRND + (D.MAX_ROUNDS + 1) * i: D.S_OUTRND + (D.MAX_ROUNDS + 1) * (i + 1)]
        out_by = np.cumsum(h[1:])           # cars out by the end of round r (index r - 1)
        surv[c.name] = [1 - out_by[r - 1] / n for r in surv["round"]]
    ends = []
    won = int(t[D.S_WINS:D.S_WINS + D.MAXC].sum())
    for what, k in (("a player won", won), ("tie: more than one player left after 64 rounds",
                                            int(t[D.S_TIE64])),
                    ("tie: the last cars went out together", int(t[D.S_TIES]))):
        lo, hi = rate_ci(k, n)
        ends.append({"outcome": what, "games": k, "share": k / n, "lo": float(lo),
                     "hi": float(hi)})
    m, mlo, mhi = mean_ci(t[D.S_ROUNDS], t[D.S_ROUNDS_SQ], n)
    q = quantiles_from_histogram(t[D.S_HIST:D.S_HIST + D.MAX_ROUNDS + 1])[0]
    ends.append({"outcome": f"rounds played (5/50/95%: {q[0]:.0f}/{q[1]:.0f}/{q[2]:.0f})",
                 "games": n,
                 "share": float(m), "lo": float(mlo), "hi": float(mhi)})
    if sc.event == "combined":
        m, mlo, mhi = mean_ci(t[D.S_RACE_ROUNDS], t[D.S_RACE_ROUNDS_SQ], n)
        ends.append({"outcome": "rounds of the race part", "games": n, "share": float(m),
                     "lo": float(mlo), "hi": float(mhi)})
    what = {"derby": "still moving when its player won",
            "figure8": "first to finish (or still moving when its player won)",
            "combined": "still moving when its player won the derby"}[sc.event]
    return {
        f"per car ({what}: last_or_first with 95% interval; in_at_end and how cars went out)":
            pd.DataFrame(cars),
        "how cars went out (share of games, 95% Wilson)": pd.DataFrame(went_out),
        "per start spot (games with a car there; wins of that car's player; 95% Wilson)":
            pd.DataFrame(spots),
        "survival by round (share of games each car is still in after the round)":
            pd.DataFrame(surv),
        "how games end (share with 95% interval; rounds: mean with 95% interval)":
            pd.DataFrame(ends),
    }


# --- one game, logged --------------------------------------------------------------------------

def playthrough(path_or_scenario, seed=2026, trial=0):
    """Trial ``trial`` of ``seed`` exactly as the Monte Carlo plays it, as readable lines (the
    golden tests diff them): the deal of start spots, every plot, move, crash, card, lap and
    car out, the dice rolled, the final record sheets."""
    sc = (path_or_scenario if isinstance(path_or_scenario, Scenario)
          else load_scenario(path_or_scenario))
    sim = build_sim(sc)
    n = sim.n_cars
    st = dice.new_state()
    dice.seed_trial(st, dice.stream_key(seed), trial)
    dice.set_recording(st)
    rolls = np.zeros(100_000, np.int64)
    spot_of = np.zeros(sim.pool.shape[0], np.int64)
    D.deal_spots(st, rolls, sim.pool, n, 1 if sim.random_spots else 0, spot_of)
    starts = np.ascontiguousarray(sim.pool[spot_of[:n]])
    starts2 = np.ascontiguousarray(sim.pool2[spot_of[:n]])
    g = D.DerbyGame(sim.tables, sc.arena, n, starts=starts, params=sim.params, lim=sim.lim,
                    log_size=50_000)
    out = np.zeros(6, np.int64)
    D.play_event(st, rolls, sim.params, g.S, g.G, g.T,
                 D.Stages(sim.lim, sim.lim2.copy(), starts2), g.L, -1, out)
    used = int(dice.script_position(st))
    lines = render(sc, sim, g, spot_of[:n], rolls[:used],
                   race_rounds=int(out[5]) if sc.event == "combined" else -1, starts2=starts2)
    w = int(out[0])
    moving = [sc.cars[i].name for i in range(n)
              if g.cars[i, D.C_ALIVE] == 1 and sim.params[i, P.P_PLAYER] == w]
    if w < 0:
        how = "tie after 64 rounds" if out[3] else "tie: the last cars went out together"
    elif sc.event == "figure8" and D.laps_done(g.cars, int(out[2])) >= sc.laps:
        how = f"{sc.players[w]} wins ({sc.cars[int(out[2])].name} finished first)"
    elif len(moving) == 1:
        how = f"{sc.players[w]} wins ({moving[0]} is the last car moving)"
    else:  # a team: every car of the winner still moving is credited, none by its index
        how = f"{sc.players[w]} wins ({' and '.join(moving)} are the last cars moving)"
    lines.append(f"END after {int(out[1])} rounds: {how}")
    return lines, {"winner": sc.players[w] if w >= 0 else None, "rounds": int(out[1]),
                   "race_winner": sc.cars[int(out[4])].name if out[4] >= 0 and sc.event != "derby"
                   else None, "rolls": used}


def render(sc, sim, g, spot_of, rolls, race_rounds=-1, starts2=None) -> list[str]:
    names = [c.name for c in sc.cars]
    labels = "abcdef" if sc.event != "derby" else "123456"
    pool_labels = list(labels) if sc.random_spots else [labels[c.spot] for c in sc.cars]
    out = [f"# {sc.name} ({sc.label}); event {sc.event}"
           + (f", {sc.laps} laps, crashes {'on' if sc.crashes else 'off'}"
              if sc.event != "derby" else "")
           + f"; variants: {', '.join(f'{k}={v}' for k, v in sorted(sc.variants.items())) or '-'}",
           "# cars: " + ", ".join(f"{c.name} ({c.player}, {c.policy})" for c in sc.cars)]
    names = [c.name for c in sc.cars]
    for i, c in enumerate(sc.cars):
        r, col, f = (int(x) for x in g.starts[i])
        out.append(f"start   {c.name} on spot {pool_labels[spot_of[i]]} ({r},{col}) facing "
                   f"{FACINGS[f]}")
    order = sorted(range(len(sc.cars)), key=lambda i: int(g.cars[i, D.C_RANK]))
    out.append("seats   rolled (turn order clockwise from the starting player; ties go to "
               "the first): " + ", ".join(names[i] for i in order))
    log = g.event_rows(where=f"the log of {sc.name}")
    k = len(log)
    j = 0
    cards = sim.tables.card_names
    regrouped = race_rounds < 0
    while j < k:
        rnd, _phase, car, ev, a, b = (int(x) for x in log[j, :6])
        if not regrouped and rnd > race_rounds:
            regrouped = True
            out.append(f"--- the race is over after {race_rounds} rounds; the cars still in line "
                       "up for the derby with their damage:")
            for i, c in enumerate(sc.cars):
                if g.cars[i, D.C_OUTRND] == 0 or g.cars[i, D.C_OUTRND] > race_rounds:
                    r, col, f = (int(x) for x in starts2[i])
                    out.append(f"start   {c.name} on derby spot ({r},{col}) facing {FACINGS[f]}")
        tag = f"R{rnd:03d}"
        if ev == D.EV_MOVE:
            hexes = []
            while (j < k and log[j, EL.KIND] == D.EV_MOVE and log[j, EL.ACTOR] == car
                   and log[j, EL.TURN] == rnd):
                hexes.append(f"{int(log[j, EL.A])},{int(log[j, EL.B])}")
                j += 1
            out.append(f"{tag} move    {names[car]} -> {' '.join(hexes)}")
            continue
        if ev == D.EV_PLOT:
            plot = "B0" if a == 0 else (f"F{a}" if a > 0 else f"R{-a}")
            out.append(f"{tag} plot    {names[car]} {plot} ({('hunt', 'evade', 'race')[b]})")
        elif ev == D.EV_CRASH:
            out.append(f"{tag} CRASH   {names[car]} rams {names[a]} ({IMPACTS[b]})")
        elif ev == D.EV_DAMAGE:
            out.append(f"{tag} damage  {a} points to the target, {b} to the rammer")
        elif ev == D.EV_OBSTACLE:
            what = {1: "wall", 7: "light pole", 8: "Figure-8 pole"}.get(a, "wreck")
            out.append(f"{tag} hits    {names[car]} hits a {what}: {b} points")
        elif ev == D.EV_STUCK:
            out.append(f"{tag} stuck   {names[car]} in the {'mud' if a == 5 else 'ditch'}")
        elif ev == D.EV_FREE:
            out.append(f"{tag} free    {names[car]} gets out")
        elif ev == D.EV_OUT:
            out.append(f"{tag} OUT     {names[car]}: {D.OUT_REASONS[a].replace('_', ' ')}")
        elif ev == D.EV_CARD:
            out.append(f"{tag} card    {names[car]} draws {cards[a]}")
        elif ev == D.EV_BLOCKED:
            out.append(f"{tag} blocked {names[car]} stops short of {names[a]}")
        elif ev == D.EV_LAP:
            out.append(f"{tag} lap     {names[car]} completes lap {a}")
        j += 1
    for i, c in enumerate(sc.cars):
        sheet = " ".join(f"{p}={int(v)}" for p, v in zip(PARTS, g.sheets[i]) if v)
        out.append(f"sheet   {c.name}: {sheet or 'no damage'}")
    for s in range(0, len(rolls), 30):  # every roll in order (card draws pick 1-28)
        out.append("dice    " + " ".join(str(int(x)) for x in rolls[s:s + 30]))
    return out


def interchangeable(sc: Scenario) -> tuple[bool, str]:
    """Whether the two players of ``sc`` could swap seats without changing the event. Every
    car is the same stock car (the record sheet has no options), so two players with as many
    cars each are interchangeable when the start spots are dealt (``deal_spots``): the seating
    and every tie-break follow a uniform order drawn from the dice (``draw_ranks``), and the
    starting player is a uniform pick, so no player is favoured by its place in the file. Fixed
    spots are not checked for a mirror of the arena: never claimed."""
    if len(sc.players) != 2:
        return False, f"{len(sc.players)} players"
    if not sc.random_spots:
        return False, "start spots are fixed"
    counts = [sum(c.player == p for c in sc.cars) for p in sc.players]
    if counts[0] != counts[1]:
        return False, f"the players field {counts[0]} and {counts[1]} cars"
    return True, "identical stock cars, start spots dealt and turn order drawn"
