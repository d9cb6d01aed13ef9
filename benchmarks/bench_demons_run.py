"""Throughput of the Demon's Run hazard kernels (run: ``python benchmarks/bench_demons_run.py``).

For each hazard of ``simkit hazards demons-run`` (worked ship, Velocity 4) it prints:

* procedures/s on one core (numba threads = 1), best of a few repeats after a warm-up;
* the bare random-number bound: a loop that seeds each trial's stream and makes the same number
  of dice rolls per trial (the hazard's mean roll count, as 2d6 rolls), in the same run; the
  ratio says how close the kernel is to the cost of its dice alone;
* the speed-up over the same kernel with ``NUMBA_DISABLE_JIT=1`` (a small N in a subprocess).

Then, for each race scenario in ``scenarios/demons-run/``, whole races (``race.race_stats``):

* races/s on one core, after a warm-up, by the process's CPU time (best of two);
* the bare random-number bound for the same mean number of rolls per race (counted by
  replaying recorded races), in the same run;
* the speed-up over the same races with ``NUMBA_DISABLE_JIT=1`` (the route fields, which are
  built once per board and pilot, are handed to the child precomputed; only races are timed);
* the share of issue 14's target of 2,000 races/s per core on the four-corners race, and the
  CPU time per ship-Turn (the pilots' allocation and plan search dominate it).

Issue 14 (one core, CPU time, same shared machine; 76 -> 315 when measured back to back
under load): four-corners 87 races/s before (every Main
Engines setting searched move by move, every order of turning movements enumerated), 454
after (dominance-pruned, branch-and-bound plan search with the route field as the bound,
settings shortlisted by the route field, the allocation's plan reused in the ship's phase,
Hell Fire prices and in-reach hounds computed once per plan). Since the route-field fix
(float64 search; field, plan and allocation priced alike) the allocation searches every
setting whose route-field bound can still beat its best plan instead of a shortlist of two:
four-corners 643 -> 306 races/s, duel 1,400 -> 784 (one thread, back to back, shared machine).
Then, with the same choices (seeded totals and race logs bit-identical): the reach bound scans a
per-board table (least cost-to-go over facings, and over the Velocities a whip adds) a column's
run of rows at a time; the plan search works in a scratch allocated once per race (per-depth
state, each ship's Hell Fire prices kept by Velocity and Screens, recovery chances by closest
approach, a dominance table stamped per search instead of cleared) and prices hexes without
passing arrays (numba counts references of every array a call takes): four-corners 277-305 ->
517-528 races/s, duel 654-660 -> 1,367-1,448, raid 376-390 -> 710-746 (CPU time, one thread,
alternated twice on a machine loaded 3-5 on 2 cores). What is left: the plan search itself
(~55% of a race), reference counting at its entry (~12%), the reach bound (~6%); about 172
plan searches a four-corners race, ~190 nodes each.
Then (2026-12-02, same choices again: seeded totals of 3,000 races per scenario and 150
logged races per scenario bit-identical, golden logs unchanged) three exact cuts: the attack
bonus counted in a setting's bound and in the plan search's only when a rival can be within 8
hexes of the move's end; a setting without a Gravity Whip bounded by the ends its turning
limits reach (``engine.move_ends``: ~17 hex-and-facing ends at Velocity 7, not 169 hexes at
any facing), which replaces the reach scan there; the dominance table's slot taken by a hash
of the state (the key's own low bits put nearly every state in 16 slots). Plan searches a
four-corners race 162 -> 124, nodes ~34,000 -> ~27,000 (counted with NUMBA_DISABLE_JIT over
20 races). Main against this, alternated three times, 1,500 races each, CPU time, one
thread, load 3.4-3.6 on 2 cores: four-corners 487/458/461 -> 616/558/558 races/s, duel
1,331/1,230/1,331 -> 1,472/1,390/1,434, raid 694/645/657 -> 923/883/884; again, six
alternations of 800 races under load 5-6.5: medians four-corners 482 -> 618 (this ahead in
6 of 6 pairs), duel 1,296 -> 1,428 (5 of 6). Still under a third of issue 14's 2,000. Where a race's time goes now (perf, four corners): the plan
search 43%, numba's reference counting 15%, the ends bound 8% (its field reads miss the
cache: the field is laid out hex-major), the allocation 5%, the reach scan 3%. Tried and
dropped: the same ends bound at every node of the plan search (20% fewer nodes, no faster:
each node reads up to 27 field entries), a dry-run twin of ``_enter`` without arrays
(within noise).
Then (2026-12-03, s17-drspeed, same choices: seeded totals of 3,000 races per scenario and
150 logged races per scenario bit-identical, golden logs unchanged). Profiled with perf on
code loaded from the numba cache (symbols from the cached objects), and numba's reference
counts attributed to their callers with a gdb breakpoint on ``NRT_incref``/``NRT_decref``
(40,000 hits): ``_enter`` made 45% of them and ``_hounds`` 21% (each call takes the race's
tuples), and the compiled plan search called ``dist``/``nbr`` (four calls deep into
``markers`` and ``hexgrid``) and numba's ``min``/``max`` at every node -- LLVM inlined
none of them -- while the Field of Fire's ``atan2`` and float remainder took 7%. Cuts:
``nbr``, ``dist`` and ``in_field_of_fire`` as inlined integer arithmetic (the 60-degree cone
in cube coordinates, held to los.py for every hex of the board); the route field also kept
Velocity first (``Fields.fields_v``, ``policies.by_velocity``) for the plan search and the
ends bound; a plain hex (no Null, Hell Fire, Hell Hole, Finish or striking hound) entered
in ``move_plan`` without calling ``_enter``; no dry run for the hounds when no live hound is
within the plan's hexes plus the attack range; ``_end_bound`` given its two tables instead
of the fields tuple. Main (c719b95) against this, alternated five times, 2,000 races each,
CPU time (``time.process_time``), one thread, load 3.5-4.5 on 2 cores: four-corners
692/539/601/506/534 -> 977/707/800/684/800 races/s (median 539 -> 800, this ahead in 5 of
5 pairs), duel median 1,664 -> 2,094 (4 of 5), raid median 998 -> 1,321 (5 of 5). Still
0.4 of issue 14's 2,000. Where a four-corners race's time goes now (perf): the plan search
52% (~27,000 nodes a race, unchanged), the allocation 7%, reference counting 13% (calls
that take the race's tuples: ``best_plan`` 38% of the counts, ``move_plan`` 24%,
``_end_bound`` 8%, ``allocate`` 8%), the ends bound 6%, the reach scan 3%. Compiled code
differs with the numba cache's history: a cache filled under ``NUMBA_ENABLE_PROFILING=1``
inlined less (142 symbols instead of 63) and ran with twice the reference counting, so
caches for timing are filled without it. Cold compile of the race kernel (fresh cache, one
race, CPU time, one run each): 73.9 s on main, 78.4 s here (the inlined geometry).
Then (2026-12-03, s17-drspeed2, same choices, same bit-identity check) two exact cuts of
the plan search's bound: the Buoy bonus allowed is the largest recovery chance at any
closest approach less what the partial plan has already earned (it was the whole bonus on
top of it), and no whip allowance at a Velocity outside the whip range. Nodes a
four-corners race 32,229 -> 30,976 (the Buoy cut) -> 28,352 (both), counted with
NUMBA_DISABLE_JIT over 10 races of seed 2026. Main (dede642) against this, alternated five
times, 2,000 races each, CPU time, one thread, load 4.2-4.9 on 2 cores: four-corners
727/695/642/644/633 -> 750/791/666/615/701 races/s (median 644 -> 701, this ahead in 4 of
5), duel median 1,809 -> 2,029 (4 of 5), raid median 1,099 -> 1,219 (5 of 5); after the
Buoy cut alone, under load 2-3, four-corners median 890 -> 997 (4 of 5, one by 1 race/s). The
reference counting at the ``best_plan``/``move_plan`` calls is untouched.

Then (2026-12-03, s18-drspeed3, same choices: seeded totals of 3,000 races and 150 logged
races per scenario bit-identical, golden logs unchanged). Measured first: seeding the plan
search's bound with its own optimum (the most an incumbent plan priced before the search
could do) saves 3.8% of its nodes -- 81% of a search's nodes come after its best plan is
found, proving it -- and the 20,000-node cap never binds (0 of 1,430 searches, 10 races,
NUMBA_DISABLE_JIT), so no incumbent seeding. Cuts: the plan search indexes its per-depth
scratch and dominance table in place (no row views) and reads a dominance slot in one cache
line ([slot, key/cost/stamp]); ``_fire_tab`` takes the fire cache alone and returns scalars
(reference counts a search ~85 -> ~58, gdb on ``NRT_incref``/``NRT_decref``); the bound allows
a whip's Velocity and its refunded MP (the old extra 1/V) only when a Well hex is within V of
the start, else just the float32 field's rounding (nodes a four-corners race 28,352 -> 24,779,
NUMBA_DISABLE_JIT, 10 races); the allocation takes its crisis tests and the field's view once,
not per setting; ``_hounds`` is called only when a hound is set to strike, and a whip's plain
Well hexes are entered without ``_enter``; ``race_stats``'s blocks share one planning scratch
(``engine.play_race_in``: no 130 kB cleared and no Hell Fire prices recomputed each race), and
the search reads the prices it keeps without a call. Main (c398e3c) against all of it,
alternated ten times, 2,000 races each, CPU time, one thread, load 3.1-3.6 on 2 cores:
four-corners median 742 -> 838 races/s (this ahead in 8 of 10), duel 1,917 -> 2,453 (10 of
10), raid 1,169 -> 1,399 (9 of 10); six alternations before the last two cuts, load 2.1-2.6:
four-corners 941 -> 1,102 (5 of 6), duel 2,560 -> 2,882, raid 1,478 -> 1,614. Still about
half of issue 14's 2,000 on four-corners. What changing choices would buy (measured, not done; 10
races, NUMBA_DISABLE_JIT): on this branch a node cap of 300 a search leaves 87% of the nodes
and finds its best plan too late in 30 of 1,430 searches, a cap of 200 leaves 72% and misses 79;
on main 71% of the allocation's bounded searches (623 of 871) find nothing below the best
setting's cost, and they are 38% of all nodes.

Then (2026-12-03, s19-drspeed4, same choices: seeded totals of 3,000 races and 150 logged
races per scenario bit-identical with main, golden logs unchanged). Profiled first (perf, with
the compiled functions' addresses read from an in-process build): numba's atomic reference
counts were ~23% of a four-corners race's samples, more than the 12-15% the gdb count had
suggested. Cuts: the race's hot functions (``allocate``, ``ship_phase``, ``move_plan``,
``best_plan``, the hazard, hound and pricing helpers) are compiled with ``_nrt=False`` --
they make and return no arrays (the allocation's per-setting bounds, the pilot's per-Turn
parameters and the hounds' dry run now live in the planning scratch), so no reference is
counted for the arrays they take (counts down to ~3-4% of the samples; a test checks that
races free every array they allocate); the plan search's Buoy allowance is that of the
closest approach the MPs left can make, and its attack allowance needs a rival within the MPs
left + 8 (when no Gravity Whip can be made); a setting none of whose move's ends
(``move_ends``) has a rival in its Field of Fire neither allows the attack bonus in its bound
nor in its plan search. Nodes a four-corners race 24,840 -> 18,514, plan searches 143 ->
138 (300 races of seed 2026, counted by the planning scratch: ``--nodes``). Main (6e84ee8)
against this, alternated five times, 2,000 races each, CPU time (``time.process_time``), one
thread, load 3.6-4.6 on 2 cores: four-corners 1,028/1,028/993/1,003/960 ->
1,473/1,463/1,426/1,435/1,442 races/s (median 1,003 -> 1,442, x1.44, this ahead in 5 of 5),
duel median 2,627 -> 3,940 (x1.50, 5 of 5), raid median 1,623 -> 2,259 (x1.39, 5 of 5).
Four-corners is at 0.72 of issue 14's 2,000. Where its time goes now (perf samples of the
compiled code, functions LLVM did not inline): the plan search 58%, the allocation 8%, its
ends bound (``_end_bound``) 6% and reach scan 5.5%, ``exposure`` 2%, reference counts 4%
(``play_race_in`` and the functions that still allocate), the ship's phase 2%.

Not proving what need not be proved (``plan_tol``, a pilot parameter, 0-1 Turns, default 0):
a partial plan is dropped unless its bound beats the best by more than plan_tol, and the
allocation stops weighing settings likewise, so a plan within plan_tol of the best counts as
as good. It saves fewer nodes than the proving share suggested (the bound is loose by more
than a small tolerance): every pilot at 0.1, nodes a race four-corners 18,514 -> 16,022, duel
6,006 -> 5,242, raid 11,977 -> 9,626 (``--nodes 300 --tol 0.1``); 0.3 and 1.0 Turns cut
four-corners' nodes by 21% and 52% before the last cut (same build, load ~5: races/s 1,668 at
0 against 1,813 at 0.1 and 2,023 at 0.5, medians of three). Pilot against pilot (``--pilot-check
4000 --tol 0.1``: per seat 4,000 races with that seat at 0.1 and the others exact, against
the same 4,000 all exact; the share of the two arms' wins at those seats):
duel 0.502 (95% 0.496-0.507), four-corners 0.503 (0.495-0.512), but raid 0.489
(0.482-0.495): the raider wins 713 races at 0.1 against 854 exact (and 1,406 against 1,674
of 8,000 at 0.02 already; the plan search alone, the allocation kept exact, 1,385): near-equal
plans by its prices are not equal for it. At 0.3 four-corners falls to 0.483 (0.474-0.492,
its Lucifer hunter tan 886 against 1,061) and at 0.5 to 0.464. Every pilot but the raider at
0.1 gained 2% on four-corners and 5% on the duel (medians of three, same build), not worth their
changed choices, so every named pilot keeps plan_tol 0: the races are the exact pilots'. The
knob stays in the typed space for a search to explore.

Then (2026-12-03, s19-drspeed5, same choices: seeded totals of 3,000 races and 150 logged
races per scenario bit-identical with main, golden logs unchanged) the plan search takes the
table of where a move without a whip can end (``engine.move_ends``, as ``best_plan_in``): a
partial plan kept only by the attack bonus is dropped when no end the rest of its move can
reach has a rival within 8 hexes in its Field of Fire (asked only where the answer prunes:
~470 times a four-corners race, 207 of them a cut), and the root's children are bounded by
the least cost-to-go at those ends; the Buoy allowance's largest chance is read at 0 and 98
hexes (monotone) instead of 99 calls a search. Nodes a race (``--nodes 300``): four-corners
18,514 -> 16,152 (the attack cut) -> 15,414 (the ends bound at the root's children; at the
first three depths 14,644, timed no faster; at every depth 14,492), raid 11,977 -> 9,925, duel 6,006 -> 5,726. Speed barely moved:
main (a150355) against this, alternated five times, 2,000 races each, CPU time, one thread,
load 3.2-3.9 on 2 cores: four-corners 1,337/1,348/1,269/1,346/1,363 ->
1,366/1,393/1,329/1,330/1,368 races/s (median 1,346 -> 1,367, +1.5%, ahead in 4 of 5), raid
median 2,075 -> 2,133 (+2.8%, 5 of 5), duel 3,716 -> 3,655 (2 of 5: no change). A cut node
is cheap (~25 ns of plan search a node) and the checks cost about what they save: perf put
the plain ``ends_attack`` at 4.7% of a race and ``end_bound`` at 5.5%, before
``ends_attack`` was rewritten in cube offsets. Four-corners is at ~0.68 of issue 14's 2,000
at this load (main itself measured 1,346 here against 1,003 under load ~4 the run before:
the machine's load moves the figure more than this change). What is left is the cost of a
node, not the number of nodes: 17% fewer nodes bought 1.5%.

Then (2026-12-03, s20-drspeed6, same choices: seeded totals of 3,000 races and 150 logged
races per scenario bit-identical with main, golden logs unchanged). Measured first: a
four-corners race's plan searches timed one by one (400 searches captured from races, each
run 300 times from a compiled loop) cost ~1.8 us each, ~0.5 us fixed plus 12-15 ns a node;
in the race perf puts them at ~40% more (the repeated search trains the branch predictor
and keeps its data cached). 63% of the nodes were in the 43 searches a race with a Gravity
Whip in reach (V 1-4 near a Well), which bounded every node with the whip's Velocity and
refunded MP allowed and the Buoy, attack and ends tests off. Cuts: in such a search a node
from which no unwhipped hole's centre is within the MPs left + 1 is bounded as a move
without a whip (its Velocity gain so far, the near tests on), the holes found by their
centres (7 distances a search, not 42); ``engine.move_ends`` keeps the fewest turning
movements to each end and ``end_bound`` charges them (``turn_cost``) at the root's children
and, to skip a setting that cannot win, in the allocation -- which still orders its settings
by the bound without them, so that a tie between settings goes as before; the race's Turns
run in ``engine._race_turns``, compiled ``_nrt=False`` (``play_race_in`` only makes the
race's arrays: numba's reference counts drop from ~4.6% of the samples to under 0.1%), with
``markers.kernel_marker_path`` keeping the holes whipped as bits instead of an array made
for every moving marker every Turn; the plan search sets only its root's row. Nodes a race
(``--nodes 300``): four-corners 15,414 -> 10,574, duel 5,726 -> 3,359, raid 9,925 -> 6,361; plan searches
four-corners 138.2 -> 131.5. Main (2d187b6) against this, alternated five times, 2,000 races
each, CPU time (``time.process_time``), one thread, load 3.9-4.5 on 2 cores: four-corners
1,465/1,507/1,570/1,513/1,580 -> 1,686/1,779/1,707/1,725/1,863 races/s (median 1,513 ->
1,725, x1.14, this ahead in 5 of 5), duel median 4,262 -> 5,329 (x1.25, 5 of 5), raid median
2,396 -> 2,949 (x1.23, 5 of 5); the same before the last commit (settings only reordered by
the charged bound, which could move a tie), load 3.1-3.7: four-corners median 1,505 -> 1,725.
Four-corners is at ~0.86 of issue 14's 2,000 at this load, not there. Where its time goes
now (perf samples of the compiled code): the plan search 52%, the allocation's own code 10%,
``end_bound`` 7%, ``_reach_scan`` 6% (a whip's reach, scanned hex by hex), ``ends_attack``
4.5%, the Turns' loop 3%, the ship's phase 2.4%. Timed and dropped (alternated with this,
2,000 four-corners races, load ~3.5): a 1,024-slot dominance table (1,657/1,633 against
1,647/1,624 races/s: the table's 48 kB do not matter), the reach scan's rows read as a
``min`` under fastmath (no NaN, so exact; 1,651/1,665 against 1,746/1,671). Not tried, for
want of time: an incumbent for the plan search (s18-drspeed3 measured 3.8% of its nodes at
most), a board table for the allocation's Hell Fire look-round ((2V + 3)^2 hexes read per
allocation), the field read at V + g after a whip in place of the whip allowance (the field
never passes an already whipped Well, so that bound needs its own proof).

Then (2026-12-03, s21-drspeed7, same choices: seeded totals of 3,000 races and 150 logged
races per scenario bit-identical with main, golden logs unchanged, nodes a race unchanged --
four-corners 10,574). Measured first: the README table's four-corners 1,519 (``run_all.py
--quick``) against 1,725 in s20-drspeed6's pairs was wall time -- this module timed races by
``perf_counter``, so another process's turns on the 2 shared cores counted as the races'
(main's code: 1,650-1,700 races/s by wall time at load ~2, 387 in a whole ``run_all`` at load
~7, 1,700-1,770 by CPU time); the table's 300 races in 32 blocks against one block, the
first 300 races against 2,000 and the warm-up changed nothing (within 3%). The race rows now
time the process's CPU time (best of two, as before; the two-thread efficiency still compares
wall times). Cuts: the allocation's ends bound and reach scan kept in the planning scratch by
their whole arguments (``engine._end_bound_kept``, ``_reach_scan_kept``: direct-mapped, 4,096
slots, the bound computed afresh), with ``race_stats``'s blocks on one thread sharing one
scratch per call (a quick run's block is 9 races; over 20 races 58% of the allocation's ends
bounds and 50% of its reach scans repeat an earlier call); its look round for Hell Fire from
the board's sums (``Fields.fire_sum``); its next setting by a plain first-least loop;
``ends_attack``'s Field of Fire turn written out and asked before the board test;
``cube_z``/``offset_row`` halving by a shift; and ``best_plan_in``, ``end_bound`` and
``ends_attack`` compiled without numba's negative-index wraparound (``jit(wraparound=False)``,
``simkit.core._numba``; a test compiles them from their source with bounds checks to show they
never index negatively): about 7% of a race alone. Main (ca030f4) against this, alternated
five times, 2,000 races each, CPU time (``time.process_time``), one thread, load 3.7-4.7 on 2
cores: four-corners 1,751/1,868/1,918/1,957/1,835 -> 2,095/2,285/2,147/2,250/2,118 races/s
(median 1,868 -> 2,147, x1.15, this ahead in 5 of 5), duel median 5,914 -> 6,814 (x1.15, 5 of
5), raid median 3,215 -> 3,600 (x1.12, 5 of 5); the same before the last two commits with the
whole test suite running on both cores (load 4.8-5.7): four-corners median 1,763 -> 1,957. The
table's own measure (``race_rows(300, 1)`` as ``run_all.py --quick`` runs it, by CPU time on
both codes, alternated): at load 2.5-2.7 four-corners 1,773/1,727 -> 2,080/2,022, duel
5,379/5,185 -> 6,827/6,396, raid 2,914/3,013 -> 3,515/3,432; at load 4.7-6.3 (final code)
four-corners 1,861/1,904/1,843 -> 2,174/1,945/1,937, duel 5,537/5,539/5,535 ->
6,769/6,197/6,419, raid 3,115/3,116/2,967 -> 3,606/3,153/3,341. Issue 14's 2,000 on
four-corners is met on the table's measure, by 1-9% where the load left it measurable (under
load 5-6 one of three runs was 2,174, two 1,937-1,945); main's own table code, wall time,
gave 978 at load 5.3. The machine's figures drift by more than 5% within the hour (main's
median 1,763 then 1,868). Tried and dropped:
the reach itself kept likewise (its lookups cost what the ``_reach_radius`` calls they saved
did), 16,384 memo slots (no faster). Where a four-corners race's time goes now (perf): the plan
search 58%, the allocation's own code 10%, ``ends_attack`` 5%, the kept ends bound 4%, the
Turns' loop 4%, the ship's phase 3%.

Options: ``--trials N`` (default 2,000,000), ``--nojit-trials N`` (default 3,000), ``--races N``
(default 3,000), ``--nojit-races N`` (default 3), ``--skip-hazards``; ``--nodes N`` (plan
searches and nodes a race over N races, at plan_tol 0 and ``--tol``), ``--pilot-check N``
(pilots at ``--tol`` against exact ones, N races per seat and arm), ``--tol X`` (default 0.1).
Times are reported, never asserted.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def _setup():
    from simkit.demons_run.procedures import kernels as K
    from simkit.demons_run.builds import worked_ship
    from simkit.demons_run.procedures.tables import HAZARDS, hazard_specs
    from simkit.demons_run.reference import ship_from_build
    from simkit.demons_run.rules import make_rules

    rules = make_rules()
    build = worked_ship(rules)
    ship = np.asarray(ship_from_build(build), dtype=np.int64)
    specs = hazard_specs(list(HAZARDS), screens=build.screens, velocity=4,
                         pi_modifier=rules.pi_modifier(build.pi))
    return K, list(HAZARDS), specs, ship, K.kernel_arrays(rules)


def _time(fn, repeats=3, clock=time.perf_counter):
    """Best of ``repeats`` by ``clock`` (wall time unless told)."""
    best = float("inf")
    for _ in range(repeats):
        t = clock()
        fn()
        best = min(best, clock() - t)
    return best


def _cpu_time(fn, repeats=3):
    """Best of ``repeats`` by this process's CPU time: what one thread's races cost, whatever
    else the shared machine runs (wall time counted the other processes' turns on the cores:
    the 2026-12-03 table's four-corners 1,519 races/s against 1,700-1,750 by CPU time in the
    same week, and 387 under load 7). Only for one thread: with two, CPU time adds the threads'."""
    return _time(fn, repeats, clock=time.process_time)


def nojit_child(n):
    """Runs under NUMBA_DISABLE_JIT=1: seconds per procedure for each hazard."""
    from simkit.core.dice import stream_key
    K, names, specs, ship, (crit, par, vturns) = _setup()
    out = {}
    for h, name in enumerate(names):
        t = time.perf_counter()
        K.hazard_stats(stream_key(1), 0, n, specs[h:h + 1], ship, crit, par, vturns)
        out[name] = (time.perf_counter() - t) / n
    print(json.dumps(out))


def _race_sims():
    from simkit.demons_run.scenario import RaceSim, load_scenario
    return [(p.stem, RaceSim(load_scenario(p)))
            for p in sorted((ROOT / "scenarios/demons-run").glob("*.toml"))]


def nojit_race_child(n, fields_file):
    """Runs under NUMBA_DISABLE_JIT=1: seconds per race for each scenario (fields preloaded)."""
    import pickle

    from simkit.core.dice import stream_key
    from simkit.demons_run import engine as RK
    from simkit.demons_run import scenario as races
    with open(fields_file, "rb") as f:
        races._FIELD_CACHE.update(pickle.load(f))
    out = {}
    for name, sim in _race_sims():
        t = time.perf_counter()
        RK.race_stats(stream_key(1), 0, n, *sim.args())
        out[name] = (time.perf_counter() - t) / n
    print(json.dumps(out))


def race_rows(n, nojit_n, *, two_thread=True):
    """One row per race scenario: races/s on one core, the bare random-number bound for the
    same mean rolls per race, speed-up over NUMBA_DISABLE_JIT=1 (route fields handed to the
    child precomputed, so only races are timed) and two-thread efficiency."""
    import pickle
    import tempfile

    import numba

    from simkit.core.dice import stream_key
    from simkit.demons_run import engine as RK
    from simkit.demons_run import scenario as races
    from simkit.demons_run.procedures import kernels as K

    old = numba.get_num_threads()
    numba.set_num_threads(1)
    sims = _race_sims()
    with tempfile.NamedTemporaryFile("wb", suffix=".pkl", delete=False) as f:
        pickle.dump(races._FIELD_CACHE, f)
        fields_file = f.name
    try:
        env = dict(os.environ, NUMBA_DISABLE_JIT="1")
        child = subprocess.run([sys.executable, __file__, "--_nojit-races", str(nojit_n),
                                "--_fields", fields_file], env=env, capture_output=True,
                               text=True, check=True)
        nojit = json.loads(child.stdout.strip().splitlines()[-1])
        key = stream_key(2026)
        out = []
        for name, sim in sims:
            RK.race_stats(key, 0, 20, *sim.args())            # warm-up / load cache
            t = _cpu_time(lambda: RK.race_stats(key, 0, n, *sim.args()), repeats=2)
            rolls = np.mean([len(races.play_one(sim, 2026, i)[3]) for i in range(30)])
            per = max(1, int(round(rolls)))
            K.bare_rng(key, 0, 100, per)
            tb = _cpu_time(lambda: K.bare_rng(key, 0, n, per))
            eff = None
            if two_thread and numba.config.NUMBA_NUM_THREADS >= 2:
                # the efficiency compares wall times (two threads' CPU time is their sum)
                t1 = _time(lambda: RK.race_stats(key, 0, n, *sim.args()), repeats=2)
                numba.set_num_threads(2)
                t2 = _time(lambda: RK.race_stats(key, 0, n, *sim.args()), repeats=2)
                numba.set_num_threads(1)
                eff = t1 / (2 * t2)
            speed = n / t
            out.append({"game": "demons-run", "name": f"race:{name}", "kernel": f"race: {name}",
                        "unit": "races", "per_core": speed, "seconds": t, "bare_seconds": tb,
                        "bare_ratio": tb / t, "nojit_speedup": nojit[name] * speed,
                        "two_thread_eff": eff})
        return out
    finally:
        os.unlink(fields_file)
        numba.set_num_threads(old)


def bench_races(args):
    import pickle
    import tempfile

    import numba

    from simkit.core.dice import stream_key
    from simkit.demons_run import engine as RK
    from simkit.demons_run import scenario as races
    from simkit.demons_run.procedures import kernels as K

    numba.set_num_threads(1)
    sims = _race_sims()
    with tempfile.NamedTemporaryFile("wb", suffix=".pkl", delete=False) as f:
        pickle.dump(races._FIELD_CACHE, f)
        fields_file = f.name
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    child = subprocess.run([sys.executable, __file__, "--_nojit-races", str(args.nojit_races),
                            "--_fields", fields_file], env=env, capture_output=True, text=True,
                           check=True)
    nojit = json.loads(child.stdout.strip().splitlines()[-1])
    os.unlink(fields_file)
    key, n = stream_key(2026), args.races
    print(f"\nDemon's Run whole races, one core, {n:,} races each")
    print(f"{'scenario':14s} {'races/s':>10s} {'rolls/race':>10s} {'kernel/bare':>11s} "
          f"{'vs no-JIT':>10s} {'of target':>9s} {'us/ship-turn':>12s}")
    for name, sim in sims:
        RK.race_stats(key, 0, 20, *sim.args())            # warm-up / load cache
        t = _cpu_time(lambda: RK.race_stats(key, 0, n, *sim.args()), repeats=2)
        plays = [races.play_one(sim, 2026, i) for i in range(30)]
        rolls = np.mean([len(p[3]) for p in plays])
        # ship-Turns: each ship's Turns until it left the race (finished, destroyed, off)
        ship_turns = np.mean([_ship_turns(p[0], len(sim.sc.ships)) for p in plays])
        per = max(1, int(round(rolls)))
        K.bare_rng(key, 0, 100, per)
        tb = _cpu_time(lambda: K.bare_rng(key, 0, n, per))
        speed = n / t
        print(f"{name:14s} {speed:10,.0f} {rolls:10.1f} {t / tb:11.1f} "
              f"{nojit[name] * speed:9.0f}x {speed / TARGET:9.2f} "
              f"{1e6 * t / n / ship_turns:12.1f}")


TARGET = 2_000      # races/s per core on four-corners (issue 14 item 4)


def _ship_turns(log, n_ships):
    """Ship-Turns moved in one race log: the EV_MOVE rows (the shared layout's kind column;
    reading the phase column counted none, so the column showed microseconds per race)."""
    from simkit.core import eventlog
    from simkit.demons_run import engine as RK
    kind = eventlog.COLUMNS.index("kind")
    return max(1, int(np.sum(log[:, kind] == RK.EV_MOVE))) if len(log) else n_ships


def nodes(names, n, tols):
    """Plan-search nodes and searches per race (the planning scratch counts them: independent
    of the machine's load), for each ``plan_tol`` in ``tols`` given to every pilot."""
    from simkit.core import dice
    from simkit.demons_run import engine as RK
    from simkit.demons_run.policies import PARAM_NAMES
    from simkit.demons_run.scenario import RaceSim, load_scenario
    print(f"\nPlan-search nodes per race ({n:,} races of seed 2026, every pilot's plan_tol)")
    print(f"{'scenario':14s} {'plan_tol':>8s} {'searches':>9s} {'nodes':>9s}")
    for name in names:
        sc = load_scenario(ROOT / f"scenarios/demons-run/{name}.toml")
        for tol in tols:
            base = RaceSim(sc)
            pv = base.pilots.copy()
            pv[:, PARAM_NAMES.index("plan_tol")] = tol
            sim = RaceSim(sc, pilot_vectors=list(pv))
            P = RK.plans(len(sc.ships), sim.hd0.shape[0])
            L = RK.Log(np.zeros((0, RK.LOG_W), np.int64), np.zeros(1, np.int64))
            res = np.zeros((len(sc.ships), RK.RES_W), np.int64)
            st = dice.new_state()
            for i in range(n):
                dice.seed_trial(st, dice.stream_key(2026), i)
                RK.play_race_in(st, dice.NO_SCRIPT, *sim.args(), L, res, P)
            g = P.tab.gen
            print(f"{name:14s} {tol:8.2f} {g[0] / n:9.1f} {g[1] / n:9,.0f}")


def pilot_check(names, n, tol):
    """The pilot with ``plan_tol`` = ``tol`` against the exact pilot (``plan_tol`` 0), same
    ships: for each seat, ``n`` races with that seat's pilot given the tolerance and every
    other exact, against the same ``n`` races (same seed) all exact. The tolerant pilots'
    share of the two arms' wins at their seats, W_tol / (W_tol + W_exact) summed over seats,
    is 0.5 when the tolerance costs nothing; its 95% interval by the delta method on the
    per-seat win counts (binomial, taken as independent: the common seed only narrows it)."""
    from simkit.core.dice import stream_key
    from simkit.demons_run import engine as RK
    from simkit.demons_run.policies import PARAM_NAMES
    from simkit.demons_run.scenario import RaceSim, load_scenario
    col = PARAM_NAMES.index("plan_tol")
    key = stream_key(2026)
    print(f"\nPilot against pilot: plan_tol {tol} against 0, {n:,} races per seat and arm")
    print(f"{'scenario':14s} {'seat':>4s} {'wins tol':>9s} {'wins exact':>10s}")
    for name in names:
        sc = load_scenario(ROOT / f"scenarios/demons-run/{name}.toml")
        exact = RaceSim(sc)
        pv0 = exact.pilots.copy()
        pv0[:, col] = 0.0
        exact = RaceSim(sc, pilot_vectors=list(pv0))
        tot0 = np.asarray(RK.race_stats(key, 0, n, *exact.args()))
        a = b = va = vb = 0.0
        for k in range(len(sc.ships)):
            pv = pv0.copy()
            pv[k, col] = tol
            sim = RaceSim(sc, pilot_vectors=list(pv))
            tot = np.asarray(RK.race_stats(key, 0, n, *sim.args()))
            o = RK.N_GLOBAL + k * RK.N_SHIP_STATS + RK.S_WINS
            wa, wb = float(tot[o]), float(tot0[o])
            print(f"{name:14s} {sc.ships[k].name:>4s} {wa:9.0f} {wb:10.0f}")
            a, b = a + wa, b + wb
            va += wa * (1 - wa / n)
            vb += wb * (1 - wb / n)
        share = a / (a + b)
        se = np.sqrt(b * b * va + a * a * vb) / (a + b) ** 2
        print(f"{name:14s} share of wins to plan_tol {tol}: {share:.3f} "
              f"(95% {share - 1.96 * se:.3f}-{share + 1.96 * se:.3f})")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--trials", type=int, default=2_000_000)
    ap.add_argument("--nojit-trials", type=int, default=3_000)
    ap.add_argument("--races", type=int, default=3_000)
    ap.add_argument("--nojit-races", type=int, default=3)
    ap.add_argument("--skip-hazards", action="store_true")
    ap.add_argument("--nodes", type=int, default=0, metavar="N",
                    help="plan-search nodes per race over N races, at plan_tol 0 and default")
    ap.add_argument("--pilot-check", type=int, default=0, metavar="N",
                    help="pilots at --tol against exact ones, N races per seat and arm")
    ap.add_argument("--tol", type=float, default=0.1,
                    help="plan_tol for --nodes and --pilot-check (default 0.1)")
    ap.add_argument("--_nojit-child", type=int, default=None, help=argparse.SUPPRESS)
    ap.add_argument("--_nojit-races", type=int, default=None, help=argparse.SUPPRESS)
    ap.add_argument("--_fields", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args._nojit_child:
        return nojit_child(args._nojit_child)
    if args._nojit_races:
        return nojit_race_child(args._nojit_races, args._fields)
    if args.nodes or args.pilot_check:
        import numba
        numba.set_num_threads(1)
        names = [p.stem for p in sorted((ROOT / "scenarios/demons-run").glob("*.toml"))]
        if args.nodes:
            nodes(names, args.nodes, sorted({0.0, args.tol}))
        if args.pilot_check:
            pilot_check(names, args.pilot_check, args.tol)
        return
    if not args.skip_hazards:
        bench_hazards(args)
    bench_races(args)


def bench_hazards(args):
    n = args.trials
    print(f"Demon's Run hazard kernels, one core, {n:,} procedures each "
          f"(worked ship, Velocity 4)")
    print(f"{'hazard':14s} {'proc/s':>12s} {'rolls/proc':>10s} {'bare rolls/s':>13s} "
          f"{'kernel/bare':>11s} {'vs no-JIT':>10s}")
    for r in rows(n, args.nojit_trials):
        print(f"{r['name']:14s} {r['per_core']:12,.0f} {r['rolls']:10.2f} "
              f"{r['bare_rolls_per_s']:13,.0f} {r['seconds'] / r['bare_seconds']:11.2f} "
              f"{r['nojit_speedup']:9.0f}x")


def rows(n, nojit_trials, *, two_thread=True):
    """One row per hazard: procedures/s on one core, the bare random-number bound, speed-up over
    NUMBA_DISABLE_JIT=1, and two-thread efficiency (2-thread rate / twice the 1-thread rate)."""
    import numba
    from simkit.core.dice import stream_key

    K, names, specs, ship, (crit, par, vturns) = _setup()
    old = numba.get_num_threads()
    numba.set_num_threads(1)
    key = stream_key(2026)
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    child = subprocess.run([sys.executable, __file__, "--_nojit-child", str(nojit_trials)],
                           env=env, capture_output=True, text=True, check=True)
    nojit = json.loads(child.stdout.strip().splitlines()[-1])
    out = []
    try:
        for h, name in enumerate(names):
            sp = specs[h:h + 1]
            K.hazard_stats(key, 0, 1000, sp, ship, crit, par, vturns)  # warm-up / load cache
            t = _time(lambda: K.hazard_stats(key, 0, n, sp, ship, crit, par, vturns))
            rolls = K.count_rolls(key, 0, 200_000, specs[h], ship, crit, par, vturns) / 200_000
            per = max(1, int(round(rolls)))
            K.bare_rng(key, 0, 1000, per)
            tb = _time(lambda: K.bare_rng(key, 0, n, per))
            eff = None
            if two_thread and numba.config.NUMBA_NUM_THREADS >= 2:
                numba.set_num_threads(2)
                t2 = _time(lambda: K.hazard_stats(key, 0, n, sp, ship, crit, par, vturns))
                numba.set_num_threads(1)
                eff = t / (2 * t2)
            speed = n / t
            out.append({"game": "demons-run", "name": name, "kernel": f"hazard: {name}",
                        "unit": "procedures", "per_core": speed, "rolls": rolls,
                        "seconds": t, "bare_seconds": tb, "bare_rolls_per_s": n * per / tb,
                        "bare_ratio": tb / t, "nojit_speedup": nojit[name] * speed,
                        "two_thread_eff": eff})
    finally:
        numba.set_num_threads(old)
    return out


if __name__ == "__main__":
    main()
