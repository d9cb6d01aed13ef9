"""Demon's Run's headline analyses as library calls: weapon fire, hazards, Buoy Recovery, the
80-point build search and metagame, and the board.

What ``simkit fire|hazards|recovery|builds|board demons-run`` print and the report shows. Each
returns a tidy frame whose ``attrs`` carry its caption (``title``), the columns worth printing
(``columns``), lines that say how to read it (``notes``) and any further tables (``extra``:
caption -> frame); kernels are imported when a call runs.
"""

from __future__ import annotations

from ..core.extras import Extras
from ..core.checks import ints_in, positive_int
from ..core.errors import UserInputError
from ..core.game import Analysis
from .builds import parse_build, worked_ship
from .commands import METAGAME_BUDGET
from .rules import make_rules

#: the columns a build-search leaderboard prints
LEADERBOARD = ["rank", "fuel", "si", "pi", "me", "mn", "tractor", "screens", "laser",
               "scrambler", "win_rate", "win_lo", "win_hi", "mean_vp", "vp_lo", "vp_hi",
               "destroyed_rate", "destroyed_lo", "destroyed_hi", "trials"]




def level_problems(build, rules, velocity, buoys) -> list[str]:
    """What is out of range in a ship's Levels, its velocity and Buoys carried."""
    out = []
    for name, level in build.levels().items():
        hi = rules.max_level(name)
        if not 0 <= level <= hi:
            out.append(f"{name}={level} outside 0-{hi}")
    if build.si < 1:
        out.append("si must be at least 1 (a ship at SI 0 is destroyed)")
    if not 0 <= velocity <= rules.max_velocity:
        out.append(f"velocity={velocity} outside 0-{rules.max_velocity}")
    if buoys < 0:
        out.append("buoys must be 0 or more")
    return out


def _base(build, rules):
    if build is None:
        return worked_ship(rules)
    return parse_build(build, where="--build") if isinstance(build, str) else build


# --- hazards ----------------------------------------------------------------------------------

def hazards(*, si=None, screens=None, pi=None, velocity=4, build=None, buoys=0, hazard=(),
            exact=True, trials=200_000, seed=2026, variants=None, **run_opts):
    """Hell Hole, Hell Fire, Hell Hound and Null odds (207-210) against one ship (default the
    rulebook's worked ship, with ``si``/``screens``/``pi`` replaced when given): Monte Carlo
    beside exact (``exact=False`` skips the exact Critical Hit chains)."""
    from ..core.runner import run
    from .procedures.tables import HAZARDS, HazardSim, ship_for

    rules = make_rules(variants)
    ship = ship_for(_base(build, rules), si=si, screens=screens, pi=pi)
    problems = level_problems(ship, rules, velocity, buoys)
    if problems:
        raise UserInputError("; ".join(problems), where="hazards demons-run")
    trials = positive_int(trials, "--trials")
    names = list(hazard) or list(HAZARDS)
    unknown = [n for n in names if n not in HAZARDS]
    if unknown:
        raise UserInputError(f"unknown hazard {unknown[0]!r} (known: {', '.join(HAZARDS)})",
                             field="--hazard")
    sim = HazardSim(rules, ship, velocity=velocity, buoys=buoys, names=names, exact=exact)
    f = run(sim, trials, seed, **run_opts).frame
    f.attrs["title"] = (f"Demon's Run hazards: SI {ship.si}, Screens {ship.screens}, PI "
                        f"{ship.pi} (modifier {sim.pi_modifier:+d}), Velocity {velocity}; "
                        f"{trials:,} trials, seed {seed}")
    cols = ["hazard", "p_destroyed", "p_destroyed_lo", "p_destroyed_hi", "p_destroyed_exact",
            "mean_si_loss", "mean_si_loss_exact", "mean_criticals", "mean_criticals_exact",
            "p_crisis", "p_crisis_exact", "p_effect_exact"]
    f.attrs["columns"] = [c for c in cols if c in f.columns]
    return f


# --- fire -------------------------------------------------------------------------------------

def fire(*, laser=10, scrambler=0, pi=3, ranges=range(1, 13), modifier=0, target="ship",
         firer=None, facing=None, at=None, board=None, si=None, screens=None, build=None,
         trials=200_000, seed=2026, variants=None, **run_opts):
    """Laser and Scrambler fire by range (206): hit, damage, criticals, crises. With
    ``firer``, ``facing`` and ``at`` (hexes ``(col, row)`` on ``board``) the range and the
    Line-of-Fire modifiers come from the board; a shot the rules forbid gives an empty frame
    whose title says why."""
    from ..core.runner import run
    from .procedures.tables import fire_sim, ship_for

    rules = make_rules(variants)
    defender = ship_for(_base(build, rules), si=si, screens=screens)
    problems = level_problems(defender, rules, 0, 0)
    for name, v in (("laser", laser), ("scrambler", scrambler), ("pi", pi)):
        hi = rules.max_level(name)
        if not 0 <= v <= hi:
            problems.append(f"--{name} {v} outside 0-{hi}")
    if laser == 0 and scrambler == 0:
        problems.append("nothing fires: give --laser or --scrambler above 0")
    if target != "ship" and laser == 0:
        problems.append("only the Laser fires at Buoys and Hell Hounds (206 A)")
    if problems:
        raise UserInputError("; ".join(problems), where="fire demons-run")
    notes = []
    if firer is not None or at is not None or facing is not None:
        shot = _board_shot(rules, firer, facing, at, board)
        if isinstance(shot, str):
            import pandas as pd

            empty = pd.DataFrame()
            empty.attrs.update(title=shot, columns=[], notes=[shot])
            return empty
        ranges, lof, line = shot
        modifier += lof
        notes.append(line)
    else:
        ranges = ints_in(ranges, "--range", 1, rules.t("fire")["max_range"])
    trials = positive_int(trials, "--trials")
    sim = fire_sim(rules, defender, laser=laser, scrambler=scrambler, pi=pi, ranges=ranges,
                   modifier=modifier, target=target)
    res = run(sim, trials, seed, **run_opts)
    f = res.frame.rename(columns={"p_effect": "p_hit", "p_effect_exact": "p_hit_exact",
                                  "p_effect_lo": "p_hit_lo", "p_effect_hi": "p_hit_hi"})
    cols = ["weapon", "range", "p_hit", "p_hit_exact", "p_destroyed", "p_destroyed_exact"]
    if target == "ship":
        cols += ["mean_si_loss", "mean_si_loss_exact", "mean_criticals", "mean_criticals_exact",
                 "p_crisis", "p_crisis_exact"]
    f.attrs["title"] = (f"Demon's Run fire at a {target}: Laser {laser}, Scrambler {scrambler}, "
                        f"to-hit modifier {sim.meta[0]['modifier']:+d}; defender SI "
                        f"{defender.si}, Screens {defender.screens}; {trials:,} trials, "
                        f"seed {seed}")
    f.attrs["columns"] = cols
    f.attrs["notes"] = notes
    return f


def _hex(h, option, board):
    try:
        col, row = (int(v) for v in (str(h).split(",") if isinstance(h, str) else h))
    except (TypeError, ValueError):
        raise UserInputError(f"expected COL,ROW, got {h!r}", field=option) from None
    if not board.on_board(col, row):
        raise UserInputError(f"hex {col},{row} is off the {board.columns}x{board.rows} board",
                             field=option)
    return col, row


def _board_shot(rules, firer, facing, at, board_file):
    """``([range], Line-of-Fire modifier, the line of fire as text)`` of a shot on the board,
    or the text saying why there is no shot."""
    from .pieces.board import DIRECTIONS, load_board
    from .pieces.los import fire_solution

    if not (firer and at and facing):
        raise UserInputError("a shot on the board needs --firer, --facing and --at together",
                             field="--firer")
    if facing not in DIRECTIONS:
        raise UserInputError(f"must be one of {', '.join(DIRECTIONS)}, got {facing!r}",
                             field="--facing")
    board = load_board(board_file)
    a = _hex(firer, "--firer", board)
    b = _hex(at, "--at", board)
    ok, rng, lof, hexes = fire_solution(rules, board, a, DIRECTIONS.index(facing), b)
    if not ok:
        return (f"no shot from {list(a)} facing {facing} at {list(b)} (range {rng}): outside "
                "the Field of Fire, beyond 12 hexes, or through Null (206 A-D)")
    return [rng], lof, (f"Line of Fire: {' '.join(f'{c},{r}' for c, r in hexes)}; range {rng}, "
                        f"terrain modifier {lof:+d}")


# --- recovery ---------------------------------------------------------------------------------

def recovery(*, tractor=range(1, 11), velocity=3, distance=0, terrain="plain", pi=3, attempt=1,
             trials=100_000, seed=2026, variants=None, **run_opts):
    """Buoy Recovery odds by Tractor Level (205), Monte Carlo beside exact."""
    from ..core.runner import run
    from .procedures.tables import recovery_sim

    rules = make_rules(variants)
    problems = []
    terrains = rules.t("buoy_recovery")["terrain"]
    if terrain not in terrains:
        problems.append(f"--terrain {terrain!r} unknown (known: {', '.join(terrains)})")
    if not 0 <= pi <= rules.max_level("pi"):
        problems.append(f"--pi {pi} outside 0-{rules.max_level('pi')}")
    if not 0 <= velocity <= rules.max_velocity:
        problems.append(f"--velocity {velocity} outside 0-{rules.max_velocity}")
    if distance < 0 or attempt < 1:
        problems.append("--distance must be 0 or more and --attempt 1 or more")
    if problems:
        raise UserInputError("; ".join(problems), where="recovery demons-run")
    tractors = ints_in(tractor, "--tractor", 0, rules.max_level("tractor"))
    trials = positive_int(trials, "--trials")
    sim = recovery_sim(rules, tractors=tractors, velocity=velocity, distance=distance,
                       terrain=terrain, pi=pi, attempt=attempt)
    res = run(sim, trials, seed, **run_opts)
    f = res.frame.rename(columns={c: c.replace("p_effect", "p_recover")
                                  for c in res.frame.columns})
    f.attrs["title"] = (f"Demon's Run Buoy Recovery (205): modifier "
                        f"{sim.meta[0]['modifier']:+d}; {trials:,} trials, seed {seed}")
    f.attrs["columns"] = ["tractor", "modifier", "p_recover", "p_recover_lo", "p_recover_hi",
                          "p_recover_exact"]
    return f


# --- builds -----------------------------------------------------------------------------------

def _budget(rules, budget):
    budget = rules.budget if budget is None else budget
    if not 1 <= budget <= rules.budget:
        raise UserInputError(f"must be 1-{rules.budget} (102 A)", field="--budget")
    return budget


def builds(*, budget=None, field=None, pilot="buoy_hunter", objective="win_rate", versus=None,
           trials=100_000, seed=2026, variants=None, population=32, generations=None,
           min_trials=100, finalists=10, final_trials=None, **run_opts):
    """Strong ships within ``budget`` points (default the rules' 80), found by racing them:
    against ``field`` (a TOML of 1-3 [[ship]] tables; default the rulebook's worked ship
    flown by the buoy hunter), or, with ``versus``, the strongest answers to that build.
    ``trials`` is the search's budget of candidate-races; finalists re-raced on fresh seeds."""
    from .builds import check_build
    from .scenario import ShipEntry
    from .search import _core_search, candidate_of, design_space, load_field, stat_evaluator

    cs = _core_search()
    rules = make_rules(variants)
    budget = _budget(rules, budget)
    opts = dict(trials_budget=positive_int(trials, "--trials-budget"), population=population,
                generations=generations, min_trials=min_trials, finalists=finalists,
                final_trials=final_trials, **run_opts)
    space = design_space(rules, budget)
    if versus:
        opp = check_build(versus, rules, where="--versus")
        ships = [ShipEntry("versus", "D", opp, pilot)]
        board = cs.versus(space, lambda o: stat_evaluator(ships, pilot, rules.variants,
                                                          objective),
                          candidate_of(opp), seed=seed, **opts)
        title = f"strongest answers to {opp} ({pilot} flies both)"
    else:
        ships = load_field(field, rules)
        # the field's own builds are always finalists: the search may not crown a ship its
        # finals show weaker than the ships it was raced against
        own = list(dict.fromkeys(candidate_of(s.build) for s in ships))
        board = cs.search(space, stat_evaluator(ships, pilot, rules.variants, objective),
                          seed=seed, include=[c for c in own if space.is_legal(c)], **opts)
        title = (f"Demon's Run build search: {budget} points, pilot {pilot}, field "
                 + ", ".join(f"{s.pilot} [{s.build}]" for s in ships))
    # What the rows were raced against, so a leaderboard CSV can be replayed as scenarios
    # (simkit sensitivity LEADERBOARD.csv --game demons-run).
    board.insert(0, "game", "demons-run")
    board["pilot"] = pilot
    board["field"] = "" if versus or field is None else str(field)
    board["versus"] = str(opp) if versus else ""
    board.attrs["title"] = (title + f"; {board.attrs.get('trials_used', '?')} races, seed {seed}"
                            " (finalists re-raced on fresh seeds; 95% intervals)")
    board.attrs["columns"] = [c for c in LEADERBOARD if c in board]
    return board


def plot_builds(frame, path):
    from ..plots import plot_leaderboard

    plot_leaderboard(frame, path)


def metagame(*, budget=None, pilot="buoy_hunter", trials=METAGAME_BUDGET, seed=2026,
             variants=None, run_dir=None, progress=None, threads=None, **_run_opts):
    """The builds a strong field would fly: best replies to best replies in two-ship races
    with the corners rotated (:mod:`simkit.analysis.metagame`); which build beats which in
    ``attrs["payoffs"]``."""
    from ..analysis.metagame import POLISH, POLISH_SHARE, WIDE
    from ..analysis.metagame import metagame as solve
    from . import _metagame, _metagame_replies

    rules = make_rules(variants)
    budget = _budget(rules, budget)
    bg = _metagame(pilot, variants, budget, threads)
    # the best reply is the build search itself, raced against the field's mixture
    return solve(bg, trials_budget=positive_int(trials, "--trials-budget"), seed=seed,
                 run_dir=run_dir, progress=progress,
                 replies=_metagame_replies(pilot, variants),
                 search_options={"threads": threads},
                 # the loop's answers from three seeds were a neighbourhood apart, and the
                 # polished ones local optima a search from scratch could beat
                 polish=POLISH, wide=WIDE, polish_share=POLISH_SHARE)


# --- board ------------------------------------------------------------------------------------

def board(file=None, *, drift=None, trials=20_000, seed=2026, variants=None, **_run_opts):
    """The gameboard file (default the RECONSTRUCTED board of rules-data.md 2.5): hexes per
    terrain, with what the board holds in ``attrs["notes"]``. With ``drift`` Turns, every
    Buoy and Hell Hound moves that long (204 G-J, no ships) over ``trials`` boards; where they
    end up is in ``attrs["extra"]`` and the occupancy per hex in ``attrs["occupancy"]``."""
    import pandas as pd

    from .pieces.board import TERRAIN_NAMES, load_board

    b = load_board(file)
    counts = {n: int((b.terrain[1:, 1:] == i).sum()) for i, n in enumerate(TERRAIN_NAMES)}
    fire_hexes = [int((b.fire_class[1:, 1:] == k).sum()) for k in (1, 2, 3)]
    notes = [f"board: {b.columns} x {b.rows} hexes, {b.label} ({b.source})",
             "terrain: " + ", ".join(f"{n} {c}" for n, c in counts.items()),
             f"Hell Fire hexes (zones and wells): hell {fire_hexes[0]}, hell2 {fire_hexes[1]}, "
             f"hell3 {fire_hexes[2]}"]
    notes += [f"hole {h.name}: {h.cls} at {list(h.center)}, {h.rotation}, well "
              + ", ".join(f"{t}" for t in h.well_terrain.values()) for h in b.holes]
    notes.append("corners: " + ", ".join(f"{k} {list(v)} -> finish {b.finish[k]}"
                                         for k, v in b.corners.items()))
    notes.append("markers: " + ", ".join(f"{k} {len(v)}" for k, v in b.markers.items()))
    frame = pd.DataFrame({"terrain": list(counts), "hexes": list(counts.values())})
    frame.attrs.update(title=notes[0], notes=notes, file=None if file is None else str(file),
                       extra={})
    if drift is not None:
        from ..core.runner import run
        from .pieces.markers import DriftSim

        turns = int(make_rules().t("movement")["turn_limit"])
        if not 1 <= drift <= turns:
            raise UserInputError(f"must be 1-{turns} Turns, got {drift}", field="--drift")
        trials = positive_int(trials, "--trials")
        sim = DriftSim(make_rules(variants), b, drift)
        res = run(sim, trials, seed, progress=False)
        d = res.frame
        d.attrs.update(title=f"Markers after {drift} Turns (no ships); {trials:,} trials, seed "
                             f"{seed}",
                       columns=["marker", "number", "start", "p_in_well", "p_in_well_lo",
                                "p_in_well_hi", "mean_hexes_from_start"])
        frame.attrs["extra"] = Extras({d.attrs["title"]: d})
        frame.attrs["occupancy"] = sim.occupancy
    return frame


def plot_board(frame, path):
    from .pieces.board import load_board, plot_board as draw

    draw(load_board(frame.attrs.get("file")), path, occupancy=frame.attrs.get("occupancy"))


HEADLINE = (
    Analysis("fire", "Laser and Scrambler fire by range (206)", fire, trials=200_000,
             command="simkit fire demons-run"),
    Analysis("hazards", "Hell Holes, Hell Fire, Hell Hounds and Null (207-210)", hazards,
             trials=200_000, command="simkit hazards demons-run"),
    Analysis("recovery", "Buoy Recovery by Tractor Level (205)", recovery, trials=100_000,
             command="simkit recovery demons-run"),
    Analysis("builds", "80-point ships raced against the rulebook's worked ship", builds,
             trials=100_000, plot=plot_builds, trials_option="--trials-budget",
             quick={"population": 8, "min_trials": 40, "finalists": 3, "trials": 900},
             # the budget named: the CLI's --trials-budget defaults differ with --metagame
             command="simkit builds demons-run --trials-budget 100000"),
    Analysis("metagame", "The 80-point ships a strong field would fly (the build metagame)",
             metagame, trials=METAGAME_BUDGET, trials_option="--trials-budget",
             quick={"trials": 2000},
             command=f"simkit builds demons-run --metagame --trials-budget {METAGAME_BUDGET}"),
    Analysis("board", "The board (RECONSTRUCTED)", board, plot=plot_board,
             command="simkit board demons-run"),
)
