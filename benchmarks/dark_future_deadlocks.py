"""Every seeded game of every shipped Dark Future Game, checked for drivers that deadlock
(issue 15: drivers 'never deadlock').

    python benchmarks/dark_future_deadlocks.py [--trials 5000] [--seed 2026] [--first 0]
                                               [--games game-1,game-8-intercept,...]
                                               [--longer 200] [--out FILE.md]

Each game is replayed with its log (``scenario.play_one``, the same dice as
``simkit scenario run``) and read by ``simkit.dark_future.diagnostics``. For each Game it
prints the draws by kind, the most shuttles in any game (a vehicle coming forward onto a
space it had reversed onto) and the CPU time taken; then every drawn game, with its shuttle
count and kind, and every game that was not drawn but shuttled more than the property test
allows (``SHUTTLES``). A shuttling draw (``KIND_SHUTTLE``) is the deadlock the issue forbids.
For every drawn game it asks the stand-off planner's own search, from the last position, for a
place a vehicle stopped there would go to (``diagnostics.places_to_go``: a shot it wins the
exchange from, a race of rams it wins, a way past every enemy) and counts the draws of the
deadlock kinds (backing and filling, stopped with a move available, repeated position) that
have one: none means each is
forced within the planner's window, whatever the drivers' gates (``dark_future_forced.py`` asks
again in a wider one). Every draw at the turn limit (the scenario's, not the book's: the
book's games have none) is played again, the same dice, with the limit raised to ``--longer``
turns (0: not), and its row says how it ended then: a fight that ends is the limit's draw, and
backing and filling that ends was a driver still trying its ways round; a game still going at
the raised limit is a driver going round in circles, or a fight neither side can finish.
Nothing is asserted: it is a survey, run before and after a driver change.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from simkit.core.errors import UserInputError  # noqa: E402
from simkit.core.stats import rate_ci  # noqa: E402
from simkit.dark_future import diagnostics as DG  # noqa: E402
from simkit.dark_future import engine as EG  # noqa: E402
from simkit.dark_future import scenario as GM  # noqa: E402

SCEN = ROOT / "scenarios" / "dark-future"
SHUTTLES = DG.SHUTTLES
# the kinds a driver's deadlock would show as (the others: a fight, a stalemate, the verdict)
DEADLOCK = (DG.KIND_SHUTTLE, DG.KIND_WAITING, DG.KIND_FROZEN)
KINDS = (DG.KIND_SHUTTLE, DG.KIND_WAITING, DG.KIND_SHUT, DG.KIND_RUNNING, DG.KIND_FROZEN,
         DG.KIND_STALEMATE, DG.KIND_OTHER)


def shipped_games():
    return sorted(p.stem for p in SCEN.glob("*.toml"))


def games_arg(text):
    """The Games a ``--games`` list names, or None (with a message) when one is not shipped."""
    games = [g.strip() for g in text.split(",") if g.strip()]
    for g in games:
        if not (SCEN / f"{g}.toml").exists():
            print(f"error: --games: no scenario {SCEN / (g + '.toml')}", file=sys.stderr)
            return None
    return games


def played_on(sc, seed, trial, longer):
    """(winning side's name or None, ``EG.REASON_*``, turns) of seeded game ``trial`` of scenario
    ``sc`` played with its turn limit raised to ``longer``: the same dice, so the same game up
    to the old limit."""
    ev, res, world, sim = GM.play_one(replace(sc, max_turns=longer), seed=seed, trial=trial)
    w = int(res[EG.R_WINNER])
    return sc.sides[w].name if w >= 0 else None, int(res[EG.R_REASON]), int(res[EG.R_TURNS])


def survey(name, trials, seed, first=0, log=print, longer=0):
    """(draws, shuttlers, summary) for ``trials`` seeded games of Game ``name``: the
    ``diagnostics.Draw`` of every drawn game, of every other game shuttling over ``SHUTTLES``,
    and a dict of totals and CPU seconds. With ``longer`` (turns), ``summary['longer']`` holds
    :func:`played_on` for every draw at the turn limit."""
    sc = GM.load_scenario(SCEN / f"{name}.toml")
    draws, shuttlers = [], []
    go = {}
    most, most_trial = 0, -1
    t0, w0 = time.process_time(), time.perf_counter()
    names = None
    for trial in range(first, first + trials):
        ev, res, world, sim = GM.play_one(sc, seed=seed, trial=trial)
        names = sim.a.names
        d = DG.examine(ev, res, world[4], trial, board=(world[0], world[1], world[2], world[3]))
        if d.shuttles > most:
            most, most_trial = d.shuttles, trial
        if DG.is_draw(res):
            draws.append(d)
            go[trial] = DG.places_to_go(world[:4], world[4], world[5], sim.a.hp, sim.a.POL)
        elif d.shuttles > SHUTTLES:
            shuttlers.append(d)
    later = {d.trial: played_on(sc, seed, d.trial, longer) for d in draws
             if longer > sc.max_turns and d.reason == EG.REASON_NAMES[EG.REASON_TIME]}
    summary = {"game": name, "trials": trials, "draws": len(draws), "longer": later,
               "raised": longer,
               "kinds": {k: sum(d.kind == k for d in draws) for k in KINDS},
               "most": most, "most_trial": most_trial, "names": names, "go": go,
               "stuck_go": sum(1 for d in draws if d.kind in DEADLOCK and go[d.trial]),
               "cpu": time.process_time() - t0, "wall": time.perf_counter() - w0}
    return draws, shuttlers, summary


def render(results, trials, seed, first):
    out = [f"# Dark Future deadlock survey: {trials:,} seeded games of each Game "
           f"(seed {seed}, trials {first}-{first + trials - 1})", "",
           "| Game | draws | draw rate (95%) | " + " | ".join(KINDS)
           + " | of those three kinds, with a place to go | drawn at the limit, given more turns "
           "| most shuttles (trial) | CPU s |",
           "|---|---:|---|" + "---:|" * len(KINDS) + "---:|---|---|---:|"]
    for draws, shuttlers, s in results:
        lo, hi = rate_ci(s["draws"], s["trials"])
        out.append(f"| {s['game']} | {s['draws']} | "
                   f"{s['draws'] / s['trials']:.4f} ({lo:.4f}-{hi:.4f}) | "
                   + " | ".join(str(s["kinds"][k]) for k in KINDS)
                   + f" | {s['stuck_go']} of {sum(s['kinds'][k] for k in DEADLOCK)}"
                   + f" | {_later_summary(s)}"
                   + f" | {s['most']}" + (f" ({s['most_trial']})" if s["most"] else "")
                   + f" | {s['cpu']:.0f} |")
    out.append("")
    for draws, shuttlers, s in results:
        names = s["names"] or []
        if not draws and not shuttlers:
            continue
        out.append(f"## {s['game']}")
        out.append("")
        out.append("| trial | ended | turns | shuttles (vehicle) | waiting (shut in) | kind "
                   "| a place to go (moves) | given more turns |")
        out.append("|---:|---|---:|---|---|---|---|---|")
        rows = [(d, d.kind) for d in draws] + [(d, f"not drawn: over {SHUTTLES} shuttles")
                                               for d in shuttlers]
        for d, kind in sorted(rows, key=lambda r: r[0].trial):
            who = f" ({names[d.shuttler]})" if d.shuttles and 0 <= d.shuttler < len(names) else ""
            waits = ", ".join([names[v] for v in d.waiting]
                              + [f"({names[v]})" for v in d.shut]) or "-"
            go = ", ".join(f"{names[v]} {what} ({k})" for v, what, k in s["go"].get(d.trial, ()))
            out.append(f"| {d.trial} | {d.reason} | {d.turns} | {d.shuttles}{who} | "
                       f"{waits} | {kind} | {go or '-'} | {_later_row(s, d.trial)} |")
        out.append("")
    return "\n".join(out)


def _later_row(s, trial):
    if trial not in s["longer"]:
        return "-"
    who, why, turns = s["longer"][trial]
    if who is None:
        return f"drawn in turn {turns} ({EG.REASON_NAMES[why]})"
    return f"{who} won in turn {turns}"


def _later_summary(s):
    """'N of M ended by turn L (side a, side b, drawn c), K still going' for a Game's draws
    at its turn limit, played on to ``s['raised']`` turns; '-' when not asked."""
    later = s["longer"]
    if not later:
        return "-"
    going = sum(1 for who, why, t in later.values() if why == EG.REASON_TIME)
    counts = {}
    for who, why, t in later.values():
        if why != EG.REASON_TIME:
            key = who if who is not None else "drawn"
            counts[key] = counts.get(key, 0) + 1
    parts = ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
    return (f"{len(later) - going} of {len(later)} ended by turn {s['raised']}"
            + (f" ({parts})" if parts else "") + f", {going} still going")


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--trials", type=int, default=5000)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--games", default=",".join(shipped_games()))
    ap.add_argument("--longer", type=int, default=200,
                    help="play each draw at the turn limit on to this many turns "
                         "(0: not; at most 500, the scenarios' own bound)")
    ap.add_argument("--out", default=None, help="also write the report to this file")
    a = ap.parse_args(argv)
    games = games_arg(a.games)
    if games is None:
        return 2
    if a.trials < 1 or a.first < 0:
        print("error: --trials must be at least 1 and --first at least 0", file=sys.stderr)
        return 2
    if not 0 <= a.longer <= 500:
        print(f"error: --longer must be 0-500, got {a.longer}", file=sys.stderr)
        return 2
    results = []
    try:
        for g in games:
            r = survey(g, a.trials, a.seed, a.first, longer=a.longer)
            s = r[2]
            print(f"{g}: {s['draws']} draws, {s['kinds'][DG.KIND_SHUTTLE]} shuttling, most "
                  f"shuttles {s['most']} (trial {s['most_trial']}), {s['cpu']:.0f} CPU s",
                  file=sys.stderr, flush=True)
            results.append(r)
    except UserInputError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    text = render(results, a.trials, a.seed, a.first)
    print(text)
    if a.out:
        Path(a.out).write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
