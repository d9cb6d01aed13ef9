"""Racing on paired per-trial values (``method="race"``, issue 14 item 5): successive
elimination, the leader's polish over its one-move neighbours, and the finals' paired gaps
(used by both methods)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .. import stats
from ..dice import stream_key
from ..errors import UserInputError
from .evaluate import _objective_name, evaluate_batch
from .halving import _Ledger, _race, _rungs
from .streams import _FINAL_SALT, _GA_SALT, _POLISH_SALT, _RACE_SALT, _derived_key


ENUMERATE_POOL = 2_000  # spaces this small are raced whole (no GA)
RACE_Z = 2.5            # one-sided z of every elimination and acceptance (repeated looks)
STARTS = 4              # the GA's independent starts (islands) in a big space
EXPLORE = 0.5           # the GA's share of the racing budget (islands, then merged)
MERGE = 0.5             # the merged GA's share of it
MERGE_SEEDS = 3         # each island's best that start the merged GA
ISLAND_POP = 6          # the fewest newcomers a generation an island breeds from


def _paired_sums(evaluator, candidates, n, key, chunk_size):
    """Sums of each finalist's per-trial objective and of every pair's products, over the
    finals' trials: enough for a paired interval of any difference (common random numbers
    make a difference far sharper than two independent intervals suggest)."""
    arr = np.asarray(candidates, dtype=np.int64)
    k = len(arr)
    s1 = np.zeros(k, dtype=np.int64)
    cross = np.zeros((k, k), dtype=np.int64)
    piece = max(1, chunk_size // k)
    for t in range(0, n, piece):
        m = min(piece, n - t)
        ts = np.asarray(evaluator.trial_scores(arr, t, m, key), dtype=np.int64)
        if ts.shape != (k, m):
            raise TypeError(f"{evaluator.name}: trial_scores() must return shape {(k, m)}, "
                            f"got {ts.shape}")
        s1 += ts.sum(axis=1)
        cross += ts @ ts.T
    return s1, cross


def _gaps(paired, lead, n, scale):
    """Leader minus each finalist, with a paired t interval, in per-trial objective units."""
    s1, cross = paired
    d = s1[lead] - s1
    d2 = cross[lead, lead] + np.diag(cross) - 2 * cross[lead]
    mean, lo, hi = stats.mean_ci(d, d2, n)
    return mean * scale, lo * scale, hi * scale


class _Paired:
    """Per-trial objective values of candidates on the common trials ``0..n-1`` of one stream
    (``evaluator.trial_scores``, higher is better), and the candidate-trials spent."""

    def __init__(self, evaluator, key, chunk_size, bar, spend):
        self.ev, self.key, self.chunk, self.bar, self.spend = evaluator, key, chunk_size, bar, spend
        self.x: dict = {}

    def n(self, c) -> int:
        return sum(len(a) for a in self.x.get(c, ()))

    def extend(self, cands, n_to):
        """Bring every candidate of ``cands`` to ``n_to`` trials (same trials for all)."""
        by_n: dict = {}
        for c in cands:
            have = self.n(c)
            if have < n_to:
                by_n.setdefault(have, []).append(c)
        for have, group in sorted(by_n.items()):
            arr = np.asarray(group, dtype=np.int64)
            piece = max(1, self.chunk // len(group))
            for t in range(have, n_to, piece):
                m = min(piece, n_to - t)
                ts = np.asarray(self.ev.trial_scores(arr, t, m, self.key), dtype=np.int64)
                if ts.shape != (len(group), m):
                    raise TypeError(f"{self.ev.name}: trial_scores() must return shape "
                                    f"{(len(group), m)}, got {ts.shape}")
                for c, row in zip(group, ts):
                    self.x.setdefault(c, []).append(row)
                self.spend(len(group) * m)
                if self.bar is not None:
                    self.bar.update(len(group) * m)

    def matrix(self, cands, n) -> np.ndarray:
        out = np.empty((len(cands), n), dtype=np.int64)
        for i, c in enumerate(cands):
            a = self.x[c]
            if len(a) > 1:
                self.x[c] = a = [np.concatenate(a)]
            out[i] = a[0][:n]
        return out


def _surely_better(xa, xb, z) -> bool:
    """Paired one-sided test on common trials: is ``a`` better than ``b`` beyond the noise?
    (The variance is floored at one discordant trial: two identical runs prove nothing.)"""
    d = (xa - xb).astype(np.float64)
    n = len(d)
    if n < 2:
        return False
    var = max(float(d.var(ddof=1)), 1.0 / n)
    return float(d.mean()) - z * np.sqrt(var / n) > 0


def _eliminate(paired, cands, *, keep, budget_left, start, z, grow=2.0):
    """Successive elimination for the top ``keep`` on common random numbers: every round all
    candidates still in play get the same further trials; a candidate is dropped when each of
    the ``keep`` best (by mean) beats it beyond a paired interval. Stops when ``keep`` are
    left or the budget is out. Returns (order best first, {cand: (trials, mean)}, history)."""
    alive = list(dict.fromkeys(cands))
    dropped: list = []  # rounds of dropped candidates, worst round first
    accepted: list = []  # surely in the top ``keep``: they stop racing (LUCB-style focus)
    info: dict = {}
    history = []
    n = 0
    step = max(2, int(start))
    while alive and len(alive) + len(accepted) > keep:
        k = keep - len(accepted)
        m = min(step, budget_left() // len(alive))
        if m < 1:
            break
        paired.extend(alive, n + m)
        n += m
        x = paired.matrix(alive, n)
        means = x.mean(axis=1)
        order = np.lexsort((np.arange(len(alive)), -means))
        top, rest = order[:k], order[k:]
        gone = [j for j in rest if all(_surely_better(x[t], x[j], z) for t in top)]
        for j in range(len(alive)):
            info[alive[j]] = (n, float(means[j]))
        if gone:
            dropped.append([alive[j] for j in sorted(gone, key=lambda j: -means[j])])
        gone_set = set(gone)
        still = [j for j in rest if j not in gone_set]
        sure = [t for t in top if still and all(_surely_better(x[t], x[j], z) for j in still)]
        accepted += [alive[t] for t in sure]
        sure_set = set(sure)
        alive = [alive[j] for j in order if j not in gone_set and j not in sure_set]
        history.append({"trials": n, "alive": len(alive) + len(accepted),
                        "best": (accepted + alive)[0], "best_score": float(means[order[0]])})
        step = int(np.ceil(step * grow))
    for c in alive:
        info.setdefault(c, (n, float("nan")))
    alive = sorted(accepted, key=lambda c: -info[c][1]) + sorted(alive, key=lambda c: -info[c][1])
    return alive + [c for rnd in reversed(dropped) for c in rnd], info, history


def _explore(space, evaluator, *, starts, budget, seed, racing_key, population, generations,
             min_trials, eta, max_trials, include, chunk_size, bar, per_start, seeds=()):
    """The GA with successive halving, first from ``starts`` independent starts (islands),
    then merged. The islands share ``1 - MERGE`` of ``budget`` equally, each with its own
    generator: start 0 from ``include`` and uniform samples, the others from archetypes
    (``space.sample_focused``: the budget spent on a random few fields). A single GA seeded
    with a strong reference build breeds from it and stays in its region (Demon's Run seeds
    2 and 3 at the default budget, s14-dr5); islands that never see it explore elsewhere.
    Islands alone breed too few generations to refine what they find (the synthetic
    six-field race), so a merged GA, its first generation every island's best
    ``MERGE_SEEDS``, spends the rest. ``seeds`` (earlier searches' finalists) join the
    merged GA's first generation: a region an earlier search reached is bred from again
    without an island having to climb there. Returns (used, history, [best ``per_start``
    candidates] of every island and of the merged GA)."""
    used = 0
    history: list = []
    tops = []
    focused = getattr(space, "sample_focused", None)
    island_budget = budget if starts == 1 else int(budget * (1 - MERGE)) // starts

    def run(rng, share, pop, first, sampler, rung0):
        nonlocal used
        led = _Ledger(evaluator, racing_key, _rungs(rung0, eta, max_trials), chunk_size, bar)
        hist = _race(space, evaluator, led, rng, share, pop, eta, generations, first, sampler)
        for h in hist:
            history.append({**h, "generation": len(history) + 1,
                            "trials_used": used + h["trials_used"]})
        used += led.used
        order, _ = led.standing()
        tops.append([led.cands[i] for i in order[:per_start]])

    # an island screens its newcomers on a third of min_trials: most random builds are far
    # worse than the region it looks for (Demon's Run: 100 uniform samples won 0.11 on
    # average, one 0.55), and the cheaper first look lets it see three times as many
    screen = max(1, min_trials // eta) if starts > 1 else min_trials
    for s in range(starts):
        run(np.random.default_rng([seed, _GA_SALT, 1 + s]), island_budget,
            max(2, population // starts), include if s == 0 else (), None if s == 0 else focused,
            screen)
    if starts > 1:
        first = list(dict.fromkeys(list(include) + [c for t in tops for c in t[:MERGE_SEEDS]]
                                   + list(seeds)))
        run(np.random.default_rng([seed, _GA_SALT, 0]), budget - used, population, first, None,
            min_trials)
    return used, history, tops


def _search_race(space, evaluator, *, budget, seed, population, generations, min_trials, eta,
                 max_trials, finalists, final_trials, include, keep, polish, chunk_size, bar,
                 starts=STARTS, seeds=(), breed_include=True):
    """method="race" (see :func:`search`): a pool (the whole space when small, else the GA
    with successive halving), successive elimination on paired per-trial values, the
    leader's polish over its one-move neighbours, finals on a fresh stream."""
    if not hasattr(evaluator, "trial_scores"):
        raise UserInputError(f"{evaluator.name} has no per-trial values (trial_scores): use "
                             "method='halving'", field="method")
    used = [0]

    def spend(k):
        used[0] += k

    def left(share_end):
        return lambda: max(0, share_end - used[0])

    pool = None
    enum = getattr(space, "enumerate", None)
    values = getattr(space, "values", None)
    if values is not None and np.prod([float(len(v)) for v in values]) > 50 * ENUMERATE_POOL:
        enum = None   # walking a big space only to find it too big takes minutes
    if enum is not None:
        try:
            every = enum(limit=ENUMERATE_POOL)
            if len(every) <= ENUMERATE_POOL:
                pool = list(dict.fromkeys(include + [tuple(int(v) for v in c) for c in every]))
        except (ValueError, TypeError):
            pool = None
    # islands of one or two newcomers a generation are no GA: a small population (the builds
    # notebook's 8) keeps one GA, whose first generations the islands' would only dilute
    # (there the three searched finalists fell from 0.39-0.49 to 0.08-0.15)
    starts = max(1, min(starts, population // ISLAND_POP))
    # in a big space the best of every start (and of the merged GA) is a finalist
    n_final = (finalists if pool is not None else
               max(finalists, starts + (starts > 1))) + len(include)
    if final_trials is None:
        # an eighth of the budget: the finals choose the leader, so their intervals must be
        # narrow enough to tell the finalists apart
        final_trials = max(min_trials, budget // 8 // n_final)
    # one more finals' measurement is kept back for a leader the polish moves to
    race_end = budget - (n_final + 1) * final_trials
    if race_end < 2 * min_trials * 2:
        raise UserInputError(f"{budget:,} trials leave nothing to race after {n_final} "
                             f"finalists x {final_trials:,} fresh trials", field="--trials-budget")
    racing_key = stream_key(seed)
    race_key = _derived_key(racing_key, _RACE_SALT)
    final_key = _derived_key(racing_key, _FINAL_SALT)
    rng = np.random.default_rng([seed, _GA_SALT])
    explored = 0
    ga_history: list = []
    tops: list = []
    if pool is None:
        # a big space: the GA with successive halving (the racing stream) finds the regions
        explored, ga_history, tops = _explore(
            space, evaluator, starts=starts, budget=int(race_end * EXPLORE), seed=seed,
            racing_key=racing_key, population=population, generations=generations,
            min_trials=min_trials, eta=eta, max_trials=max_trials,
            include=include if breed_include else (), chunk_size=chunk_size, bar=bar,
            per_start=-(-max(3 * finalists, 24) // starts), seeds=seeds)
        spend(explored)
        # the seeds race in the elimination too: one the merged GA's few rungs happened to
        # drop still gets its paired look against the islands' bests
        pool = list(dict.fromkeys(include + [c for top in tops for c in top] + list(seeds)))
    paired = _Paired(evaluator, race_key, chunk_size, bar, spend)
    whole = explored == 0
    # the elimination gets what polishing leaves (a whole small space needs no polish: every
    # neighbour of the leader is in the race already)
    polish_share = 0 if (whole or not polish or not hasattr(space, "neighbours")) else \
        (race_end - used[0]) // 2
    order, info, history = _eliminate(paired, pool, keep=keep,
                                      budget_left=left(race_end - polish_share),
                                      start=min_trials, z=RACE_Z)
    # The finals choose the leader. The racing's order ends on the best mean of candidates
    # picked for their means on those same trials (a winner's curse: at the Demon's Run
    # default a leader its own finals put 25 points below the field's own build); fresh
    # trials, the same for every finalist, carry no such selection. ``include`` builds
    # (e.g. the field's own) are finalists, so the search never crowns one its own finals
    # show worse than them.
    # the best of every start is a finalist: a start that found another region keeps its
    # say against one the elimination's few races happened to favour
    rank_of = {c: j for j, c in enumerate(order)}
    start_best = [min(top, key=rank_of.__getitem__) for top in tops if top]
    must = set(start_best)
    n_top = max(finalists, len(must))
    chosen = sorted(must, key=rank_of.__getitem__)
    for c in order:
        if len(chosen) >= n_top:
            break
        if c not in chosen:
            chosen.append(c)
    chosen.sort(key=rank_of.__getitem__)
    for c in include:
        if c not in chosen:
            chosen.append(c)
    final = evaluate_batch(evaluator, chosen, 0, final_trials, final_key, chunk_size, bar)
    spend(len(chosen) * final_trials)
    final_score = np.asarray(evaluator.score(final, final_trials), dtype=float)
    # ranked by every race each has run, racing and finals pooled: where the racing gave a
    # build few races (a big space, the Demon's Run default) the finals decide and its
    # selection barely counts; where it gave the contenders far more (a small space raced
    # whole) their racing order is not thrown away on the finals' fewer races
    n_r = np.array([info.get(c, (0, 0.0))[0] for c in chosen], dtype=float)
    m_r = np.array([info.get(c, (0, 0.0))[1] for c in chosen], dtype=float)
    n_r[np.isnan(m_r)] = 0.0
    m_r = np.nan_to_num(m_r)
    scale = float(getattr(evaluator, "trial_scale", 1.0))
    pooled = (n_r * m_r * scale + final_trials * final_score) / (n_r + final_trials)
    by_final = np.lexsort((np.arange(len(chosen)), -pooled))
    chosen = [chosen[j] for j in by_final]
    final, final_score = final[by_final], final_score[by_final]
    polish_rows: list = []
    local_optimum = None
    if polish_share:
        leader, local_optimum, polish_rows = _polish(
            space, evaluator, chosen[0], rng, racing_key, chunk_size, bar, spend,
            left(budget - final_trials), min_trials)
        if leader != chosen[0]:
            if leader in chosen:
                j = chosen.index(leader)
                row, sc = final[j:j + 1], final_score[j:j + 1]
                del chosen[j]
                final, final_score = np.delete(final, j, axis=0), np.delete(final_score, j)
            else:
                row = evaluate_batch(evaluator, [leader], 0, final_trials, final_key,
                                     chunk_size, bar)
                spend(final_trials)
                sc = np.asarray(evaluator.score(row, final_trials), dtype=float)
            chosen = [leader] + chosen
            final, final_score = np.vstack([row, final]), np.concatenate([sc, final_score])
    paired_f = _paired_sums(evaluator, chosen, final_trials, final_key, chunk_size)
    gaps = _gaps(paired_f, 0, final_trials, float(getattr(evaluator, "trial_scale", 1.0)))
    scale = float(getattr(evaluator, "trial_scale", 1.0))
    rows = []
    for r, c in enumerate(chosen, start=1):
        j = r - 1
        row = {"rank": r, **dict(zip(space.columns, c)), "build": space.describe(c)}
        row.update(evaluator.summarise(final[j], final_trials))
        n_c, mean_c = info.get(c, (0, float("nan")))
        row.update(trials=final_trials, search_trials=n_c, search_score=mean_c * scale,
                   included=c in include, gap=gaps[0][j], gap_lo=gaps[1][j], gap_hi=gaps[2][j])
        rows.append(row)
    board = pd.DataFrame(rows)
    prog = [{"generation": g["generation"], "trials_used": g["trials_used"],
             "candidates": g["candidates"], "best_score": g["best_score"],
             "best_build": g["best_build"], "best_trials": g["best_trials"]} for g in ga_history]
    for i, h in enumerate(history, start=len(prog) + 1):
        prog.append({"generation": i, "trials_used": explored + h["trials"],
                     "candidates": h["alive"], "best_score": h["best_score"] * scale,
                     "best_build": space.describe(h["best"]), "best_trials": h["trials"]})
    board.attrs.update(progress=pd.DataFrame(prog).to_dict("list"), seed=seed,
                       racing_key=int(racing_key), race_key=int(race_key),
                       final_key=int(final_key), trials_used=used[0], trials_budget=budget,
                       objective=_objective_name(evaluator), candidates=len(pool),
                       starts=starts if tops else 0, start_best=[space.describe(c) for c in start_best],
                       rungs=_rungs(min_trials, eta, max_trials) if explored else [],
                       method="race", keep=keep, polish=pd.DataFrame(polish_rows).to_dict("list"),
                       local_optimum=local_optimum, final_score=final_score.tolist(),
                       columns=[c for c in board.columns if c not in ("build", "included")])
    return board


def _polish(space, evaluator, leader, rng, racing_key, chunk_size, bar, spend, budget_left,
            min_trials):
    """The leader's one-move neighbours raced against it on a fresh stream per round; it
    moves while one is better beyond the paired interval. Returns (leader, local optimum:
    True when a round ended with no neighbour surely better, None when the budget ran out
    before a round could, False when the moves went round in a circle), the rounds."""
    rows: list = []
    seen = {leader}
    for rnd in range(1, 10 ** 6):
        near = [c for c in space.neighbours(leader, rng) if space.is_legal(c)]
        if not near:
            return leader, True, rows
        if budget_left() < 2 * (len(near) + 1):
            # not even two trials each: no round, and no claim either way
            return leader, None, rows
        pk = _derived_key(racing_key, _POLISH_SALT + rnd)
        pp = _Paired(evaluator, pk, chunk_size, bar, spend)
        group = [leader] + near
        # a round leaves one look at every neighbour for the next: near-equal neighbours are
        # never dropped, so a round would otherwise spend it all and a move could not be
        # checked
        # and a third of what is left at least: a round after a move checks the new
        # leader's neighbours, and with only one look each (50 trials on the synthetic
        # six-field race) it called a leader a local optimum beside a neighbour 0.022 better
        cap = max(min(budget_left() // 2, min_trials * len(group)), budget_left() // 3)
        ordr, _, _ = _eliminate(pp, group, keep=1,
                                budget_left=lambda: max(0, budget_left() - cap),
                                start=min_trials, z=RACE_Z)
        best = ordr[0]
        moved = False
        if best != leader and pp.n(best) >= 2:
            nb = min(pp.n(best), pp.n(leader))
            xb, xl = pp.matrix([best, leader], nb)
            moved = _surely_better(xb, xl, RACE_Z)
        # no neighbour surely better: a local optimum within the trials' resolution;
        # "confirmed" when every neighbour was also shown worse than the survivor
        survivors = [c for c in group if pp.n(c) == pp.n(ordr[0])]
        rows.append({"round": rnd, "leader": space.describe(leader), "neighbours": len(near),
                     "trials": pp.n(leader), "moved_to": space.describe(best) if moved else "",
                     "confirmed": (not moved) and len(survivors) == 1})
        if moved and best not in seen:
            seen.add(best)
            leader = best
            continue
        return leader, not moved, rows
    return leader, False, rows
