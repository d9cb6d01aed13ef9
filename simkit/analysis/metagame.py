"""The build metagame: which builds a strong field would fly, and how each fares against it.

A build search against a fixed field answers "what beats *these* ships". The metagame asks what
holds when everyone picks their best: the same best-reply loop as :mod:`.balance`, over builds
instead of policies, in a symmetric two-seat game. Two builds race with the seats rotated (half
the races each way, on the same seeded races), so a build's result is never its corner's. The
population starts from the game's reference builds; each round the best reply to the current
mixture is searched among builds drawn from the game's design space -- uniform legal builds,
archetypes (the budget on a random few fields, as the core build search's islands start
from), and one to three mutations and crosses of the population and of an elite archive (the
builds earlier rounds' races ranked highest, raced again each round) -- raced by successive
halving on common random numbers and polished by one-level moves, and joins when it gains
more than ``epsilon``. A round that finds none searches again among twice the candidates, up
to ``WIDEN`` times while the budget allows.

A game that can race candidates against a mixture of builds (``replies``: Demon's Run) gets
a stronger best reply: the core build search itself (:func:`simkit.core.search.search`,
``method="race"``), run against the current mixture (each trial's opponent dealt by the
mixture's weights from the trial's own stream, the seats rotated): islands started from the
field's support and from archetypes far from it, successive halving on common random
numbers, and the leader polished to a local optimum by one-level moves; every search also
starts from an archive of the finalists of the run's earlier searches (against the weaker
fields of the first rounds the islands climb to regions a later, stronger field may be weak
against, and islands started far from a strong field do not climb there again). Its leader,
and the islands' bests that gained more than ``epsilon`` on its fresh finals, join the
population.
The proposals above reach only a few steps from what the field already flies: on Demon's
Run four times as many of them still found only replies one or two Levels from the support,
while a build far from it beat every support (benchmarks/balance.md). Dark Future has no
such evaluator yet and keeps the proposals.

With ``polish`` (Demon's Run: :data:`POLISH`), the loop is followed by a final polish
(:func:`simkit.analysis.balance._polish`): the mixture is solved again on ten times the games
among its strongest builds, and the support builds' one-level neighbours (a Level moved from
one system to another) are raced against it on common random numbers and confirmed on fresh
games, each joining while it gains more than the smaller epsilon. The loop's epsilon (0.02 on
400-game payoffs) left the answers of three seeds a neighbourhood apart.

With ``wide`` too (Demon's Run: :data:`WIDE`), a share of the budget is kept from the loop
and the polish for a wide step after them (:func:`simkit.analysis.balance._wide`): the same
search against the polished mixture from scratch -- no archive, a seed of its own -- whose
leader, when it gains more than the polish's epsilon on fresh games, joins the population
and the polish runs again. The polished answers of three seeds were local optima about four
Levels apart, and such a search found a build beating one of them by 0.02.

The polish's moves (``balance.Side.moves``, :func:`level_moves`) are wider than the loop's
one-Level neighbours: one to :data:`MOVE_LEVELS` Levels out of one field into another, the
budget still spent (a 3-point PI Level for three 1-point ones); a move that gains under the
polish's epsilon is walked on from (``balance.POLISH_WALK``), and the wide step's searches
race the support without breeding from it and climb from their best far finalist by the same
moves (``balance._climb``). Measured on Demon's Run (benchmarks/balance.md, s22-meta6):
against seed 3's answer the way to a build 0.05 better was a plateau of steps under 0.01;
against seed 1's, a valley no move crosses, whose far side a search breeding from none of the
support reached below its peak, three moves short. ``polish_share`` keeps a share of the
budget from the loop for this polish (Demon's Run: :data:`POLISH_SHARE`).

The answer: the mixture (support builds and weights), each support build's win rate against the
field (the mixture), the reference build's (e.g. the rulebook's worked ship), and the payoff
matrix of the final population (which build beats which). Win rates against the field are
re-measured on fresh seeds, one per pairing, as in :mod:`.balance`.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
from pathlib import Path

import numpy as np
import pandas as pd

from ..core.errors import UserInputError
from ..core.extras import extras
from ..core.game import BuildGame, Policy
from .balance import CONFIRM, Side, Z, search

#: the caption of the payoff matrix among the frame's side tables (``attrs["extra"]``)
PAYOFF_CAPTION = ("Which build beats which: the row build's win rate + half its ties against the "
                  "column build (the search's own estimates on its seed, no intervals; the "
                  "win rates above are re-measured on fresh seeds)")
#: how many times a round that found no reply may double its candidates before the loop stops
#: (a balance's ``WIDEN`` is 2): a try that would not fit the budget is not started, so a
#: bigger budget searches wider before it calls the field an equilibrium
WIDEN = 3
#: the races of one best-reply search (``replies``): the Demon's Run build search's default,
#: which finds far regions against one fixed field
REPLY_TRIALS = 100_000
#: how many times a round whose search found no reply searches again on twice the races
SEARCH_WIDEN = 1
#: the fewest races a best-reply search is started on (the core search's finals and
#: racing need a few thousand; a smaller remainder of the budget is left to the report)
REPLY_MIN = 4_000
#: the most of the field's support builds a best-reply search races as finalists
INCLUDE_FIELD = 3
#: the most builds the archive of earlier searches' finalists holds (the newest kept); each
#: later search starts from them (``seeds``): on Demon's Run islands started far from a
#: strong field did not climb, while the searches against the weaker fields of the first
#: rounds reach regions that a later field may be weak against
ARCHIVE = 32
#: the final polish's epsilon that Demon's Run's metagame asks for
#: (``balance.search(polish=...)``): when the loop stops at
#: ``epsilon`` (0.02, its payoffs 400 games each), the mixture is solved again on ten times
#: the games among its strongest builds and the support's one-level neighbours are raced
#: against it, a neighbour joining while it gains more than this on fresh games. Why: the
#: loop's answers from three seeds were a neighbourhood apart, one beating another 0.520
#: (0.503-0.538) on 3,000 races (benchmarks/balance.md, s19-meta3)
POLISH = 0.01
#: the share of the budget Demon's Run's metagame keeps for the wide step after the polish
#: (``balance.search(wide=...)``): searches from scratch against the polished mixture
#: (``balance.WIDE_STREAMS``, each on an equal part of at most this share and at least
#: ``reply_trials``). At the default 3,600,000 races it is 600,000, two searches of 300,000
#: (with :data:`POLISH_SHARE` the loop runs on 1,200,000 as before); a 300,000-race search
#: from scratch against seed 3's polished answer found a build beating it 0.520 (0.502-0.538)
#: where the loop's archive-started searches had not (benchmarks/balance.md, s20-meta4),
#: and one on another stream found nothing (s21-meta5)
WIDE = 1 / 6
#: the final polish's moves (``balance.Side.moves``): up to this many Levels out of one field
#: and up to this many into another, the build legal (where every build spends the budget,
#: the points balance: one 3-point Level of Demon's Run's PI for three 1-point Levels). Why:
#: raced against seed 3's polished answer (6,000 races, benchmarks/balance.md, s22-meta6) a
#: one-Level move of SI into Screens gained -0.001 and two Levels +0.014 on the way to a build
#: 0.05 better, and a PI Level cannot move one Level at a time at all (it leaves two points
#: unspent, which no legal build does)
MOVE_LEVELS = 3
#: the share of the budget Demon's Run's metagame keeps from the loop for the first polish
#: (``balance.search(polish_share=...)``; kept with the wide step's share only): the polish
#: over :data:`MOVE_LEVELS` races about 120 moves a round (and walks), where the loop left
#: about 200,000 games; what it leaves goes to the wide step's climbs and polishes
#: (``balance._climb``). At the default 3,600,000 races the loop keeps its 1,200,000 (at
#: 3,000,000, two fifths, seed 3's polish after its wide step stopped on the budget)
POLISH_SHARE = 1 / 2
COLUMNS = ["build", "weight", "win_rate", "win_lo", "win_hi", "utility", "utility_lo",
           "utility_hi", "role", "trials_used"]


def _policy(c) -> Policy:
    return Policy("build", tuple((f"f{i:02d}", int(v)) for i, v in enumerate(c)))


def _build(p: Policy) -> tuple:
    return tuple(int(v) for _, v in p.params)


def metagame(bg: BuildGame, *, trials_budget: int = 200_000, profile_trials: int = 400,
             candidates: int = 24, epsilon: float = 0.02, seed: int = 2026,
             run_dir: str | Path | None = None, progress: bool | None = None,
             key: str = "", replies=None, reply_trials: int = REPLY_TRIALS,
             search_options=None, polish: float = 0.0, wide: float = 0.0,
             polish_share: float = 0.0) -> pd.DataFrame:
    """One row per support build and per reference build (``role``); ``attrs["payoffs"]``:
    the final population's payoff matrix (row build's utility against the column build).

    ``replies`` (``field -> evaluator``, the field [(build, weight)]): the best reply is the
    core build search (:func:`simkit.core.search.search`) of ``reply_trials`` races (twice as
    many in a widened round) with that evaluator, which races each candidate against builds
    dealt from the field's mixture on common random numbers (per trial the candidate's
    utility, ``trial_scores``; its leaderboard figure ``mean_utility``); ``search_options``
    go to that search (``threads``...). ``polish``: the final polish's epsilon (0: none, the
    default; Demon's Run's metagame asks for :data:`POLISH`;
    :func:`simkit.analysis.balance._polish`). ``wide`` (with ``replies`` and ``polish``; 0:
    none, the default; Demon's Run's asks for :data:`WIDE`): the share of the budget kept
    for the wide step after the polish (:func:`simkit.analysis.balance._wide`): the same
    search against the polished mixture from scratch, no archive, a seed of its own, of at
    least ``reply_trials`` races; its leader joins when it gains more than ``polish`` on
    fresh games, and the polish runs again.
    Without it, the best reply is drawn and raced as the module doc says."""
    space = bg.space
    if not bg.start:
        raise UserInputError("the metagame needs at least one build to start from",
                             field="--metagame")
    for c in bg.start:
        if not space.is_legal(tuple(c)):
            raise UserInputError(f"illegal starting build {space.describe(tuple(c))}",
                                 field="--metagame")

    focused = getattr(space, "sample_focused", None)

    def propose(rng, k, pop):
        # fresh draws, half of them archetypes (the budget on a random few fields: the core
        # build search's islands start from them), for regions no step from the field
        # reaches: uniform draws spread the points over every field, and a far strong region
        # that leaves some empty (seed 1's Demon's Run ship: no Laser, one Screen) is rarely
        # among them. As many steps from the population and the elite archive (``pop``, the
        # population first): a best reply to a strong field is more often one to three
        # mutations from a build that raced well, or a cross of two of them
        builds = [_build(p) for p in pop]
        out = [tuple(focused(rng) if focused is not None and i % 2 else space.sample(rng))
               for i in range(k)]
        for i in range(k):
            c = builds[i % len(builds)]
            for _ in range(1 + int(rng.integers(3))):
                c = tuple(space.mutate(c, rng))
            out.append(c)
        if len(builds) > 1:
            for _ in range(k // 4):
                i, j = rng.choice(len(builds), 2, replace=False)
                out.append(tuple(space.crossover(builds[i], builds[j], rng)))
        return [_policy(c) for c in out if space.is_legal(c)]

    def describe(p):
        return space.describe(_build(p))

    def neighbours(p):
        """Every one-level move of points from one field to another that stays legal."""
        c = list(_build(p))
        vals = getattr(space, "values", None)
        if vals is None:
            return []
        out = []
        for i, j in itertools.permutations(range(len(c)), 2):
            vi, vj = vals[i], vals[j]
            pi, pj = vi.index(c[i]), vj.index(c[j])
            if pi + 1 < len(vi) and pj > 0:
                d = list(c)
                d[i], d[j] = vi[pi + 1], vj[pj - 1]
                if space.is_legal(tuple(d)):
                    out.append(_policy(tuple(d)))
        return out

    def moves(p):
        return [_policy(d) for d in level_moves(space, _build(p))]

    def play(profile, n, s, first=0):
        a, b = (_build(p) for p in profile)
        if first:
            return np.asarray(bg.duel(a, b, n, s, first), np.int64)
        return np.asarray(bg.duel(a, b, n, s), np.int64)

    from ..core.runner import code_identity

    # the code is part of the key: what the proposals and the archive are decides which
    # estimates a run asks for, and a resumed run must ask for the same
    key = key or hashlib.sha256(json.dumps([bg.title, bg.note, [list(c) for c in bg.start],
                                            trials_budget, profile_trials, candidates,
                                            epsilon, seed, code_identity(),
                                            replies is not None and reply_trials,
                                            polish, wide, polish_share,
                                            polish > 0 and MOVE_LEVELS]).encode()
                                ).hexdigest()
    oracle = wide_search = None
    if replies is not None:
        oracle, wide_search = _search_oracle(space, replies, reply_trials, candidates, run_dir, key,
                                progress, dict(search_options or {}))
    start = [_policy(tuple(c)) for c in bg.start]
    sides = [Side(name, list(start), propose=propose, describe=describe, neighbours=neighbours,
                  oracle=oracle, wide=wide_search, moves=moves if polish > 0 else None)
             for name in ("seat 1", "seat 2")]
    out = search(sides, play, trials_budget=trials_budget, profile_trials=profile_trials,
                 candidates=candidates, epsilon=epsilon, seed=seed, run_dir=run_dir, key=key,
                 progress=progress, symmetric=True, extend=bg.extend,
                 # as a scenario's balance: a reply under epsilon is confirmed on more games
                 # and searched among more candidates before the loop stops on it, and the
                 # budget the search leaves measures the answer
                 confirm=CONFIRM, widen=WIDEN if oracle is None else SEARCH_WIDEN,
                 spend_left=True,
                 # the candidates that raced best in earlier rounds are raced and bred again
                 archive=True, polish=polish, wide=wide, wide_min=reply_trials,
                 polish_share=polish_share)
    rows = []
    weights = dict(zip(out.pops[0], out.mix[1]))   # the field: the second seat's mixture
    shown = [(p, "support") for p, w in zip(out.pops[0], out.mix[0]) if w > 1e-6]
    for name, c in bg.reference:
        shown.append((_policy(tuple(c)), f"reference: {name}"))
    for p, role in shown:
        rate, util, var_r, var_u = out.measure(0, p)
        hr, hu = Z * math.sqrt(var_r), Z * math.sqrt(var_u)
        rows.append({"build": describe(p), "weight": float(weights.get(p, 0.0)),
                     "win_rate": rate, "win_lo": max(0.0, rate - hr),
                     "win_hi": min(1.0, rate + hr), "utility": util,
                     "utility_lo": max(0.0, util - hu), "utility_hi": min(1.0, util + hu),
                     "role": role})
    frame = pd.DataFrame(rows, columns=COLUMNS)
    frame["trials_used"] = out.est.used
    pop = out.pops[0]
    names = [describe(p) for p in pop]
    pay = np.zeros((len(pop), len(pop)))
    for i, a in enumerate(pop):
        for j, b in enumerate(pop):
            wins = out.est.wins((a, b), out.profile_trials, out.seed)
            n = out.profile_trials
            pay[i, j] = (wins[0] + (n - wins.sum()) / 2) / n
    frame.attrs["payoffs"] = pd.DataFrame(pay, index=names, columns=names)
    frame.attrs["note"] = bg.note
    frame.attrs["title"] = (f"{bg.title}: {bg.note}; {out.est.used:,} games, seed {seed} (win "
                            "rates against the field's mixture, 95% intervals from fresh seeds)")
    extras(frame)[PAYOFF_CAPTION] = frame.attrs["payoffs"].round(3).reset_index(names="build")
    return frame


def level_moves(space, c, levels: int | None = None) -> list[tuple]:
    """Every move of 1 .. ``levels`` Levels out of one field of build ``c`` and 1 .. ``levels``
    into another that stays legal and, from a build that spends the budget, spends it too (a
    move leaving points unbought is dominated by one that buys with them): the final polish's
    neighbourhood (``balance.Side.moves``; ``levels`` default :data:`MOVE_LEVELS`). One Level
    each way is the loop's ``neighbours`` less the builds that leave points unbought."""
    levels = MOVE_LEVELS if levels is None else levels
    c = tuple(int(v) for v in c)
    vals = getattr(space, "values", None)
    if vals is None:
        return []
    full = getattr(space, "is_maximal", None)
    full = full if full is not None and full(c) else None
    out = []
    for i, j in itertools.permutations(range(len(c)), 2):
        vi, vj = vals[i], vals[j]
        pi, pj = vi.index(c[i]), vj.index(c[j])
        for a in range(1, min(levels, pi) + 1):
            for b in range(1, min(levels, len(vj) - 1 - pj) + 1):
                d = list(c)
                d[i], d[j] = vi[pi - a], vj[pj + b]
                d = tuple(d)
                if space.is_legal(d) and (full is None or full(d)):
                    out.append(d)
    return out


def _search_oracle(space, replies, reply_trials, candidates, run_dir, key, progress, opts):
    """The metagame's best reply as the core build search against the field's mixture
    (:class:`~simkit.analysis.balance.Side` ``oracle``). Its islands start from the
    population's region (island 0 breeds from the field's support, which is also raced in
    the finals, so no reply is crowned that its own finals show worse than the field) and
    from archetypes far from it; the leader is polished to a local optimum. Every search
    also starts from an archive of the finalists of the run's earlier searches (the newest
    :data:`ARCHIVE`, the field's own builds left out; core search ``seeds``): they race in its
    merged GA and its elimination, so a region an earlier round reached against a weaker
    field is raced against every later one. Returns the leader and the islands' bests, each
    with its utility against the field on the search's fresh finals races. With ``run_dir``
    each search's answer is kept and read back, so a resumed run repeats no search, rebuilds
    the same archive and takes the same decisions. The third item returned is how many
    fresh races each reply's utility was measured on (the loop pools it with its own).

    Returned with it: the wide step's search (``Side.wide``), the same search from scratch
    (no archive) on the races it is given, kept in ``run_dir`` the same way; it answers with
    every finalist and its finals figure (the field's own builds too: the step's yardstick)."""
    from ..core import search as cs
    from ..core.files import atomic_write

    path = Path(run_dir) / "metagame-replies.json" if run_dir is not None else None
    saved = {}
    if path is not None and path.exists():
        data = json.loads(path.read_text())
        if data.get("key") == key:
            saved = data["searches"]
    archive: list = []   # finalists of this run's earlier searches, newest first

    def run(field, budget, sub, seeds, tag):
        builds = [(_build(p), float(w)) for p, w in field]
        own = {b for b, _ in builds}
        name = json.dumps(tag + [[list(b), w] for b, w in builds] + [budget, sub]
                          + [[list(c) for c in seeds]])
        if name not in saved:
            include = [b for b, _ in sorted(builds, key=lambda bw: -bw[1])][:INCLUDE_FIELD]
            try:
                # the wide step's searches race the support but breed from none of it:
                # every island that started from it ended beside it (s21-meta5)
                board = cs.search(space, replies(builds), trials_budget=budget, seed=sub,
                                  include=include, seeds=seeds, progress=progress,
                                  **({"breed_include": False} if tag else {}), **opts)
            except UserInputError:   # too few races for this search's finals
                return None
            cols = list(space.columns)
            islands = set(board.attrs.get("start_best", []))
            own_d = {space.describe(b) for b in own}
            # the leaderboard's order: the leader, then the islands' bests (the field's own
            # builds are there as a yardstick, never as replies)
            rows = {tuple(int(v) for v in r[cols]): float(r["mean_utility"])
                    for i, r in board.iterrows()
                    if i == board.index[0] or (r["build"] in islands and r["build"] not in own_d)}
            order = list(rows)
            finals = [[int(v) for v in r[cols]] for _, r in board.iterrows()
                      if r["build"] not in own_d]
            saved[name] = {"replies": [[list(c), rows[c]] for c in order],
                           "finalists": finals, "spent": int(board.attrs["trials_used"]),
                           "measured": int(board.trials.iloc[0])}
            if tag:   # the wide step pools every finalist's figure, the field's own too
                saved[name]["board"] = [[[int(v) for v in r[cols]], float(r["mean_utility"])]
                                        for _, r in board.iterrows()]
            if path is not None:
                atomic_write(path, json.dumps({"key": key, "searches": saved}))
        return saved[name]

    def answer(got):
        return ([(_policy(tuple(c)), u) for c, u in got["replies"]], got["spent"],
                got["measured"])

    def oracle(field, k, left, sub):
        budget = min(left, reply_trials * k // candidates)
        if budget < REPLY_MIN:
            return None
        own = {_build(p) for p, _ in field}
        got = run(field, budget, sub, [c for c in archive if c not in own][:ARCHIVE], [])
        if got is None:
            return None
        # kept longer than a search takes: the next field's own builds are left out of it
        archive[:] = list(dict.fromkeys([tuple(c) for c in got["finalists"]]
                                        + archive))[:2 * ARCHIVE]
        return answer(got)

    def wide(field, left, sub):
        """The same search from scratch: no archive (the loop's searches, started from it,
        stayed near it), and it leaves none."""
        if left < REPLY_MIN:
            return None
        got = run(field, left, sub, [], ["wide"])
        if got is None:
            return None
        return ([(_policy(tuple(c)), u) for c, u in got["board"]], got["spent"],
                got["measured"])

    return oracle, wide
