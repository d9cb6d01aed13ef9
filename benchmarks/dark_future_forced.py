"""The drawn games the deadlock survey finds with no place to go, asked again with a wider window
(issue 15: drivers 'never deadlock').

    python benchmarks/dark_future_forced.py GAME:TRIAL[,TRIAL...] [GAME:TRIAL...]
                                           [--from SURVEY.md] [--secs 6] [--moves 60]
                                           [--seed 2026] [--out FILE.md]

``benchmarks/dark_future_deadlocks.py`` asks ``diagnostics.places_to_go`` of every drawn game:
from the last position, is there a place a stopped vehicle would go to (a shot that wins the
exchange, a race of rams it wins, a way past every enemy)? It asks within the stand-off
planner's window, ``policies.PLAN_SECS`` sections either side of the vehicle and
``PLAN_MOVES`` of the slowest moves, constants compiled into the kernels. This asks the same
question with the window widened to ``--secs`` and ``--moves``. numba reads a module's
constants when it compiles, so this script switches the compiler off
(``NUMBA_DISABLE_JIT``, before simkit is imported): the kernels run as Python, read the
constants when called, and the games replay with the same dice as ``simkit scenario run``
(a few seconds a game). With ``--from`` the games are the deadlock-kind draws (backing and
filling, stopped with a move available, repeated position) of a survey's report. For each
game it prints, per vehicle, where its widened search reaches (places, the farthest sections
either way) and the places to go found; an empty list in a window wider than the track laid
says the draw is forced: no plan of the slow moves reaches anything that changes it. Nothing
is asserted: it is a survey.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEADLOCK_KINDS = ("backing and filling", "stopped with a move available", "repeated position")


def from_survey(path: Path) -> dict[str, list[int]]:
    """The deadlock-kind draws of a ``dark_future_deadlocks.py`` report, per Game."""
    games: dict[str, list[int]] = {}
    game = None
    for line in path.read_text().splitlines():
        if line.startswith("## "):
            game = line[3:].strip()
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if game and len(cells) >= 6 and cells[0].isdigit() and cells[5] in DEADLOCK_KINDS:
            games.setdefault(game, []).append(int(cells[0]))
    return games


def parse_games(specs: list[str]) -> dict[str, list[int]] | None:
    games: dict[str, list[int]] = {}
    for spec in specs:
        m = re.fullmatch(r"([\w-]+):(\d+(?:,\d+)*)", spec)
        if not m:
            print(f"error: {spec!r}: expected GAME:TRIAL[,TRIAL...]", file=sys.stderr)
            return None
        games.setdefault(m.group(1), []).extend(int(t) for t in m.group(2).split(","))
    return games


def widen(PO, secs: int, moves: int) -> None:
    """Set the planner's window (the kernels run as Python: read when called)."""
    PO.PLAN_SECS = secs
    PO.PLAN_MOVES = moves
    PO.PLAN_N = (2 * secs + 1) * 5 * PO.PLAN_SP * 4


def reach(PO, EG, VH, board, V, hp) -> dict[int, tuple[int, int, int]]:
    """Per vehicle that can drive off: (stopped places its search reaches, lowest and highest
    section among them)."""
    T, TM, M, NM = board
    out = {}
    for v in range(V.shape[0]):
        if V[v, VH.V_STATUS] != VH.ACTIVE or V[v, VH.V_MPH] != 0 \
                or V[v, VH.V_OOC] != VH.IN_CONTROL or EG._is_out(V, v) or PO._cannot_drive(V, v):
            continue
        _dist, _first, _q, qs, tail = PO._plan_search(T, TM, M, NM, V, V.shape[0], v, -1, False,
                                                   hp[PO.HP_DODGE_OBST])
        secs = [int(qs[k, 0]) for k in range(tail) if qs[k, 4] == 0]
        out[v] = (len(secs), min(secs), max(secs))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("games", nargs="*", help="GAME:TRIAL[,TRIAL...], e.g. game-8-intercept:16,92")
    ap.add_argument("--from", dest="survey", default=None,
                    help="a dark_future_deadlocks.py report: its deadlock-kind draws")
    ap.add_argument("--secs", type=int, default=6, help="sections either side (default 6)")
    ap.add_argument("--moves", type=int, default=60, help="moves (default 60)")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--out", default=None, help="also write the report to this file")
    a = ap.parse_args(argv)
    games = parse_games(a.games)
    if games is None:
        return 2
    if a.survey:
        path = Path(a.survey)
        if not path.is_file():
            print(f"error: --from: no file {path}", file=sys.stderr)
            return 2
        for g, trials in from_survey(path).items():
            games.setdefault(g, []).extend(trials)
    if not games:
        print("error: no games: name GAME:TRIAL or give --from SURVEY.md", file=sys.stderr)
        return 2
    if a.secs < 1 or a.moves < 1:
        print("error: --secs and --moves must be at least 1", file=sys.stderr)
        return 2
    scen = ROOT / "scenarios" / "dark-future"
    for g in games:
        if not (scen / f"{g}.toml").exists():
            print(f"error: no scenario {scen / (g + '.toml')}", file=sys.stderr)
            return 2

    os.environ["NUMBA_DISABLE_JIT"] = "1"
    if "numba" in sys.modules:
        print("error: numba was imported before the compiler could be switched off",
              file=sys.stderr)
        return 2
    sys.path.insert(0, str(ROOT))
    from simkit.dark_future import diagnostics as DG
    from simkit.dark_future import engine as EG
    from simkit.dark_future import policies as PO
    from simkit.dark_future import scenario as GM
    from simkit.dark_future.pieces import road as RD
    from simkit.dark_future.pieces import vehicle as VH

    window = f"{a.secs} sections either side, {a.moves} moves"
    out = [(f"# Dark Future draws asked again in a wider window ({window}; the planner's own: "
            f"{PO.PLAN_SECS}, {PO.PLAN_MOVES}), seed {a.seed}"), "",
           ("| Game | trial | ended | turns | track laid (sections) | vehicle: stopped places "
            "reached (sections) | places to go | CPU s |"),
           "|---|---:|---|---:|---|---|---|---:|"]
    own = (PO.PLAN_SECS, PO.PLAN_MOVES)
    forced = 0
    total = 0
    for g, trials in games.items():
        sc = GM.load_scenario(scen / f"{g}.toml")
        for trial in trials:
            t0 = time.process_time()
            # the game as the drivers play it (their own window), then the question widened
            widen(PO, *own)
            _ev, res, world, sim = GM.play_one(sc, seed=a.seed, trial=trial)
            widen(PO, a.secs, a.moves)
            names = sim.a.names
            board, V, WS = world[:4], world[4], world[5]
            TM = board[1]
            go = DG.places_to_go(board, V, WS, sim.a.hp, sim.a.POL)
            where = reach(PO, EG, VH, board, V, sim.a.hp)
            total += 1
            forced += not go
            reason = EG.REASON_NAMES[int(res[EG.R_REASON])]
            laid = f"{int(TM[RD.TM_FIRST])}-{int(TM[RD.TM_NSEC]) - 1}"
            reached = ", ".join(f"{names[v]}: {k} ({lo}-{hi})" for v, (k, lo, hi) in where.items())
            places = ", ".join(f"{names[v]} {what} ({k})" for v, what, k in go) or "-"
            out.append(f"| {g} | {trial} | {reason} | {int(res[EG.R_TURNS])} | {laid} | "
                       f"{reached or '-'} | {places} | {time.process_time() - t0:.0f} |")
            print(out[-1], file=sys.stderr, flush=True)
    out += ["", f"{forced} of {total} with no place to go in the wider window."]
    text = "\n".join(out)
    print(text)
    if a.out:
        Path(a.out).write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
