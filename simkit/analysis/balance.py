"""Balance that survives the best reply: equilibrium win rates over each side's policy space.

A scenario's win rates under its scripted policies say as much about the scripts as about the
game. ``balance`` asks instead what each side wins when both play their best, in the manner of
policy-space response oracles (Lanctot et al. 2017) and empirical game-theoretic analysis
(Wellman 2006):

1. **Population.** Each side starts with every named policy of the game (at its defaults) and
   the scenario file's own policy. A scenario whose game engine proves its two sides
   interchangeable (``ScenarioEngine.sides_interchangeable``: the Starfire mirror, a derby duel
   with dealt spots) is one population instead, from the named policies alone (the file's
   policy may differ by seat): every profile (p, q) is played half the games with the first
   side p and half with it q, on the same seeded trials, and each policy's utility is averaged
   over its two seats, so the payoff matrix is exactly constant-sum across its diagonal and
   both seats take the same mixture (``asymmetric`` forces two populations).
2. **Payoffs.** Every profile (one policy per side) is played ``profile_trials`` times on the
   same seeded trials (common random numbers). A side's utility is its win rate plus half the
   draw rate, so the two-sided game is constant-sum.
3. **Meta-game.** Two sides: the maximin mixture of the zero-sum matrix game, a linear program
   (``scipy.optimize.linprog``, HiGHS). More sides: fictitious play on the estimated payoff
   tensor (each side's mixture is the running average of its best replies to the others'
   mixtures; Brown 1951), an approximate equilibrium: the exploitability reported says how far.
4. **Best replies.** For each side, candidate policies are drawn from its parameter spaces by a
   scrambled Sobol sequence (``scipy.stats.qmc``) and around the current support, and raced
   against the others' mixture by successive halving on common random numbers, then polished
   one step at a time (the neighbours raced the same way). The winner joins the population
   when it gains more than ``epsilon`` over the side's equilibrium value. When no reply does,
   each reply that gained at all is measured again on ``CONFIRM`` times as many games of
   another seed (the search seed's estimate of a gain has a standard error of about 0.02 at
   1,000 games) and joins if that gain exceeds ``epsilon``; the loop stops when none does,
   after ``max_rounds``, or when the next round would not fit the budget less the report's
   share (``VALIDATION_SHARE``). ``attrs["rounds"]`` and ``attrs["stopped"]`` say how it went.
5. **Report**, from trials the search never saw (a fresh seed per profile, so the estimates are
   independent and the interval of a mixture's win rate follows from theirs), on as many games
   per profile as the budget left allows (up to ``VALIDATION_MAX`` times ``profile_trials``):
   per side (per seat, as it sits, when one population was searched) the default win rate, the
   equilibrium win rate and the exploitability (the gain of the best reply found against the
   final mixture), each with a 95% interval, the support and the ``method``.

A symmetric search may end with a final polish (``polish``: the mixture solved again on longer
estimates, the support's one-step neighbours raced against it) and a wide step after it
(``wide``: searches from scratch against the polished mixture, on a share of the budget kept
from the loop; their best finalist joins when it gains on fresh games, and the polish runs
again).

``run_dir``: every profile estimate is kept there as it finishes; a rerun with the same
arguments reads them back and so reaches the same numbers without replaying them.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Mapping, Sequence

import numpy as np
import pandas as pd
from scipy import optimize, stats
from scipy.stats import qmc

from .. import games
from ..core.errors import UserInputError
from ..core.files import atomic_write
from ..core.game import Policy, PolicySpace

#: columns of the balance frame, one row per side
COLUMNS = ["scenario", "side", "default_policy", "default_win_rate", "default_lo", "default_hi",
           "equilibrium_win_rate", "equilibrium_lo", "equilibrium_hi", "exploitability",
           "exploit_lo", "exploit_hi", "best_reply", "support", "profiles", "method",
           "trials_used"]
#: the ``method`` column: how the meta-game was searched
ONE_POPULATION = "one population, seats rotated"
TWO_POPULATIONS = "two populations"
Z = float(stats.norm.ppf(0.975))
#: ``trials_budget=None``: this many times what the starting profiles need
QUICK_BUDGET_FACTOR = 3
#: a population entry meaning "the policy the scenario file gives this side"
FILE = Policy("(file)")


# --- the meta-game solvers (pure functions, exact on small games) -----------------------------

def maximin(U: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """Equilibrium of the zero-sum game where the row player gets ``U[i, j]`` and the column
    player ``c - U[i, j]``: (row mixture, column mixture, value to the row player)."""
    U = np.asarray(U, float)
    m, n = U.shape

    def row_side(A):  # max v s.t. x @ A[:, j] >= v for all j, sum x = 1, x >= 0
        k, l = A.shape
        c = np.zeros(k + 1)
        c[-1] = -1.0
        a_ub = np.hstack([-A.T, np.ones((l, 1))])
        res = optimize.linprog(c, A_ub=a_ub, b_ub=np.zeros(l),
                               A_eq=np.append(np.ones(k), 0.0)[None, :], b_eq=[1.0],
                               bounds=[(0, None)] * k + [(None, None)], method="highs")
        if not res.success:  # pragma: no cover - a bounded feasible LP always solves
            raise RuntimeError(f"linprog failed: {res.message}")
        x = np.clip(res.x[:k], 0.0, None)
        return x / x.sum(), float(res.x[-1])

    x, v = row_side(U)
    y, _ = row_side(-U.T)   # the column player maximises -U: the same LP on the transpose
    return x, y, v


def fictitious_play(U: np.ndarray, iterations: int = 5000) -> list[np.ndarray]:
    """Mixtures of an n-player game by fictitious play; ``U[s]`` is side ``s``'s payoff tensor
    indexed by every side's policy. Deterministic: ties go to the lowest payoff index only
    when payoffs are exactly equal, which the estimated payoffs of distinct policies are not."""
    U = np.asarray(U, float)
    n = U.shape[0]
    counts = [np.zeros(U.shape[1 + s]) for s in range(n)]
    for s in range(n):
        counts[s][0] = 1.0
    for _ in range(iterations):
        mix = [c / c.sum() for c in counts]
        for s in range(n):
            counts[s][int(np.argmax(expected(U[s], mix, skip=s)))] += 1.0
    return [c / c.sum() for c in counts]


def expected(T: np.ndarray, mix: Sequence[np.ndarray], skip: int | None = None) -> np.ndarray:
    """Contract tensor ``T`` with every side's mixture but ``skip`` (a vector over ``skip``'s
    policies), or with all of them (a number) when ``skip`` is None."""
    out = T
    for s in reversed(range(len(mix))):
        if s == skip:
            continue
        out = np.tensordot(out, mix[s], axes=([s], [0]))
    return out


# --- payoff estimates on common random numbers -----------------------------------------------

@dataclass
class Estimates:
    """Wins per side of profiles played on one seed; kept in ``run_dir`` when given.

    ``extend``: ``play`` also takes ``first`` (``play(profile, n, seed, first)``: trials
    ``first .. first+n-1``). A profile asked for on more games of a seed it was already
    played on then plays only the trials it lacks and adds them to the shorter estimate:
    the halving races ask the survivors for 50, 100, 200 ... games of the same trials, and
    replaying each prefix cost nearly as much again. The totals are those of one run over all
    the trials (integer sums of per-trial streams), so only the games spent change."""
    play: Callable[..., np.ndarray]   # (profile, n, seed[, first]) -> wins per side
    n_sides: int
    run_dir: Path | None = None
    key: str = ""
    #: two seats of one population: a profile's payoff is the seat-rotated average (below)
    rotate: bool = False
    extend: bool = False
    used: int = 0
    bar: object = None
    _cache: dict = field(default_factory=dict)
    _seen: set = field(default_factory=set)
    #: per (profile, seed): the game counts held (in the cache) and counted (in this run)
    _held: dict = field(default_factory=dict)
    _counted: dict = field(default_factory=dict)

    def __post_init__(self):
        if self.run_dir is not None:
            self.run_dir.mkdir(parents=True, exist_ok=True)
            f = self.run_dir / "balance-estimates.json"
            if f.exists():
                saved = json.loads(f.read_text())
                if saved.get("key") != self.key:
                    raise UserInputError("holds a balance run with other arguments or code; "
                                         "use a new folder", where=str(self.run_dir),
                                         field="--run-dir")
                self._cache = {k: np.asarray(v, np.int64) for k, v in saved["wins"].items()}
                for k in self._cache:
                    *prof, n, seed = json.loads(k)
                    self._held.setdefault(json.dumps(prof + [seed]), set()).add(n)

    def wins(self, profile: tuple, n: int, seed: int) -> np.ndarray:
        prof = [[p.name, list(map(list, p.params))] for p in profile]
        k = json.dumps(prof + [n, seed])
        base = json.dumps(prof + [seed])
        if k not in self._cache:
            b = max((m for m in self._held.get(base, ()) if m < n), default=0) \
                if self.extend else 0
            if b:
                rest = self.play(profile, n - b, seed, b)
                self._cache[k] = self._cache[json.dumps(prof + [b, seed])] + np.asarray(
                    rest, np.int64)
            elif self.extend:
                self._cache[k] = np.asarray(self.play(profile, n, seed, 0), np.int64)
            else:
                self._cache[k] = np.asarray(self.play(profile, n, seed), np.int64)
            self._held.setdefault(base, set()).add(n)
            self._save()
        # the budget counts each estimate once per run, whether played now or read back from
        # run_dir, so a resumed run takes the same decisions as an uninterrupted one: the
        # games it would have played, counted from what this run has asked for so far
        if k not in self._seen:
            self._seen.add(k)
            counted = self._counted.setdefault(base, set())
            b = max((m for m in counted if m < n), default=0) if self.extend else 0
            counted.add(n)
            self.used += n - b
            if self.bar is not None:
                self.bar.update(n - b)
        return self._cache[k]

    def cost(self, profile: tuple, n: int, seed: int) -> int:
        """The games :meth:`wins` would add to ``used`` for this estimate now (what this run
        asked for so far, never what ``run_dir`` holds: a resumed run decides the same)."""
        prof = [[p.name, list(map(list, p.params))] for p in profile]
        if json.dumps(prof + [n, seed]) in self._seen:
            return 0
        counted = self._counted.get(json.dumps(prof + [seed]), set())
        return n - (max((m for m in counted if m < n), default=0) if self.extend else 0)

    def utility(self, profile: tuple, n: int, seed: int) -> np.ndarray:
        """Each side's utility in ``profile`` over ``n`` games on ``seed``. With ``rotate``
        (two sides, one population), half the games are played each way round on the same
        seeded trials and each policy's utility is averaged over its two seats: (p, q) and
        (q, p) read the same two estimates, so the payoff matrix is exactly constant-sum
        across the diagonal and a policy facing itself scores one half."""
        if not self.rotate:
            return utility(self.wins(profile, n, seed), n)
        h = max(1, n // 2)
        a = utility(self.wins(profile, h, seed), h)
        b = utility(self.wins(profile[::-1], h, seed), h)[::-1]
        return (a + b) / 2

    def _save(self):
        if self.run_dir is not None:
            atomic_write(self.run_dir / "balance-estimates.json",
                         json.dumps({"key": self.key, "wins": {k: v.tolist() for k, v in
                                                               self._cache.items()}}))


def utility(wins: np.ndarray, n: int) -> np.ndarray:
    """Each side's win rate plus an equal share of the games no side won."""
    wins = np.asarray(wins, float)
    return (wins + (n - wins.sum()) / len(wins)) / n


# --- the balance loop --------------------------------------------------------------------------

@dataclass
class Side:
    """One side of the meta-game: its starting population and where replies come from.

    ``spaces``: the named policies a reply may be drawn from (Sobol points of their typed
    parameters). ``propose(rng, k, population) -> [Policy]`` replaces that for strategies that
    are not points of a box, such as builds bought from a budget. ``describe(policy) -> str``
    names a strategy in the report."""
    name: str
    population: list          # Policy entries (FILE: as in the scenario file)
    spaces: Mapping[str, PolicySpace] = field(default_factory=dict)
    propose: Callable | None = None
    describe: Callable | None = None
    neighbours: Callable | None = None   # policy -> [Policy] one step away, for polishing
    #: ``moves(policy) -> [Policy]``: the final polish's neighbourhood (:func:`_polish`) when
    #: it is wider than ``neighbours`` (None: ``neighbours``); the loop keeps ``neighbours``
    moves: Callable | None = None
    #: ``oracle(field, scale, left, seed) -> (replies, games spent)`` replaces the proposals
    #: and the race: a whole search of its own for the best replies to ``field`` (the
    #: others' mixture: [(Policy, weight)]) on at most ``left`` games, ``scale`` times its
    #: usual size (a widened round); ``replies``: [(Policy, its utility against the field
    #: by the oracle's own fresh measurement)], best first, or None when ``left`` is too
    #: small for one search. It may return a third item: how many games that measurement
    #: took (then it is pooled with the loop's own into the reply's gain)
    oracle: Callable | None = None
    #: ``wide(field, left, seed) -> (finalists, games spent[, games measured])`` or None: the
    #: oracle's search from scratch (nothing carried over from the loop's searches, a seed of
    #: its own) on at most ``left`` games, for the wide step after the polish (:func:`_wide`);
    #: ``finalists``: [(Policy, its utility against the field on the search's fresh finals)],
    #: the field's own builds among them when its finals raced them
    wide: Callable | None = None


@dataclass
class Outcome:
    """Where a search ended: the populations, the final mixtures, the last best replies (each
    measured against those mixtures) and the estimates, for the reports to re-measure."""
    est: Estimates
    sides: list
    pops: list
    mix: list
    replies: list            # per side: (best reply or None, its gain on the search seed)
    seed: int
    profile_trials: int
    validation_trials: int
    rounds: list = field(default_factory=list)   # per round: populations, value, gains
    stopped: str = ""                            # why the loop stopped

    def fresh_seed(self, prof) -> int:
        """A seed of the profile's own, never the search's: validation estimates are
        independent of the search and of each other."""
        digest = hashlib.sha256(json.dumps([p.label() for p in prof]).encode()).digest()
        return self.seed + 1 + int.from_bytes(digest[:6], "little")

    def measure(self, s: int, override: Policy | None = None):
        """(win rate, utility, variance of each) of side ``s`` (playing ``override`` if given)
        against the final mixtures, from fresh trials."""
        nv = self.validation_trials
        lists = [_support(self.pops[i], self.mix[i]) for i in range(len(self.pops))]
        if override is not None:
            lists[s] = [(override, 1.0)]
        rate = util = var_r = var_u = 0.0
        for combo in _product(lists):
            w = math.prod(x for _, x in combo)
            prof = tuple(p for p, _ in combo)
            wins = self.est.wins(prof, nv, self.fresh_seed(prof))
            p = wins[s] / nv
            u = utility(wins, nv)[s]
            rate += w * p
            util += w * u
            var_r += w * w * p * (1 - p) / nv
            # a game's utility is 1, 1/k (a game no side won, shared by k sides) or 0
            k = len(wins)
            second = (wins[s] + (nv - wins.sum()) / (k * k)) / nv
            var_u += w * w * max(second - u * u, 0.0) / nv
        return rate, util, var_r, var_u


def balance_game(sides: Sequence[Side], play: Callable[[tuple, int, int], np.ndarray], *,
                 scenario: str = "", method_note: str = "", **kwargs) -> pd.DataFrame:
    """The balance loop over any game given as ``play(profile, n, seed) -> wins per side``
    (a profile is one :class:`Policy` per side, in ``sides`` order); one row per side. See
    :func:`search` for the options and the module doc for the method."""
    kwargs.setdefault("confirm", CONFIRM)
    kwargs.setdefault("widen", WIDEN)
    kwargs.setdefault("spend_left", True)
    return _report(search(sides, play, **kwargs), scenario, method_note)


#: a balance's confirmation of a reply that did not gain epsilon: this many times the games
CONFIRM = 4
#: how many times a round that found no reply may double its candidates before stopping
WIDEN = 2


def search(sides: Sequence[Side], play: Callable[[tuple, int, int], np.ndarray], *,
           trials_budget: int | None = 400_000, profile_trials: int = 1000,
           candidates: int = 16, epsilon: float = 0.02, seed: int = 2026,
           validation_trials: int | None = None, max_rounds: int = 8,
           run_dir: str | Path | None = None, key: str = "", progress: bool | None = None,
           symmetric: bool = False, rotate: bool = False, confirm: int = 0,
           widen: int = 0, spend_left: bool = False, extend: bool = False,
           archive: bool = False, polish: float = 0.0,
           polish_trials: int | None = None, wide: float = 0.0,
           wide_min: int = 0, polish_share: float = 0.0) -> Outcome:
    """Grow the populations by best replies until none gains more than ``epsilon`` or the
    budget is spent. ``symmetric``: two sides with one population (a symmetric game, e.g. two
    builds racing with seats rotated): only the first side's reply is searched, and it joins
    both. ``rotate`` (with ``symmetric``): ``play`` plays the seats as given, and the search
    rotates them itself (:meth:`Estimates.utility`); both seats then take the same mixture.
    ``confirm``: before stopping because no reply gained epsilon on the search seed, measure
    the replies again on ``confirm`` times ``profile_trials`` games of another seed (0: never),
    and search again among twice the candidates, up to ``widen`` times.
    ``spend_left``: the report's validation gets the budget the search left. ``extend``:
    ``play`` takes a first trial too, and longer estimates add to shorter ones
    (:class:`Estimates`). ``archive``: each searched side keeps an elite archive of the
    candidates its best-reply races ranked highest (:data:`ARCHIVE_SIZE`), re-proposed and
    proposed from in every later round (only for sides with their own ``propose``).
    ``polish`` (a symmetric search; 0: none): when the loop stops, the final polish of
    :func:`_polish` down to this smaller epsilon, on ``polish_trials`` games a profile
    (default :data:`POLISH_FACTOR` times ``profile_trials``); its rounds join ``rounds``
    (``phase`` "polish") and the mixture it ends on is the answer.
    ``wide`` (with ``polish``, a side with a ``wide`` search; 0: none): this share of the
    budget is kept from the loop and the polish (which then run as on the rest) for the wide
    step of :func:`_wide` after them: :data:`WIDE_STREAMS` searches from scratch against the
    polished mixture, each on an equal part of that many games and at least ``wide_min``
    (a share too small for that is not kept: the loop gets the whole budget and the step is
    skipped). ``polish_share`` (kept only with the wide step's share): this share of the
    budget too is kept from the loop for the first polish, whose budget is the loop's and
    this (a polish over a wider neighbourhood than one Level races more candidates a round
    than the loop leaves it)."""
    from tqdm.auto import tqdm

    n_s = len(sides)
    if n_s < 2:
        raise UserInputError("a balance needs at least two sides", field="sides")
    if symmetric and n_s != 2:
        raise ValueError("a symmetric search has two sides")
    if rotate and not symmetric:
        raise ValueError("seats are rotated only in a symmetric search")
    validation_trials = validation_trials or profile_trials
    pops = [list(dict.fromkeys(canonical(p, s.spaces) if s.propose is None else p
                               for p in s.population)) for s in sides]
    if symmetric:
        pops[1] = pops[0]
    n_profiles = math.prod(len(p) for p in pops)
    if trials_budget is None:   # a quick look: the starting profiles and two rounds of replies
        trials_budget = QUICK_BUDGET_FACTOR * n_profiles * profile_trials
    if trials_budget < n_profiles * profile_trials:
        raise UserInputError(f"{trials_budget:,} trials cannot estimate the {n_profiles} starting "
                             f"profiles at {profile_trials:,} games each (need at least "
                             f"{n_profiles * profile_trials:,})", field="--trials-budget")
    est = Estimates(play, n_s, Path(run_dir) if run_dir else None, key, rotate=rotate,
                    extend=extend)
    rounds: list[dict] = []
    stopped = ""
    # the wide step's share comes off the top: the loop and the polish run as they would on
    # the rest (a budget of B + share ends them where a budget of B does), and the step
    # searches against their answer
    wide_share = int(wide * trials_budget) if (
        wide > 0 and polish > 0 and symmetric and sides[0].wide is not None) else 0
    if wide_share // WIDE_STREAMS < max(1, wide_min):
        wide_share = 0
    # kept with the wide step's share only: a quick budget's loop keeps the whole budget
    polish_keep = int(polish_share * trials_budget) if wide_share else 0
    loop_budget = trials_budget - wide_share - polish_keep
    # the search stops short of the budget by the report's share, so the answer is measured
    # on enough fresh games to tell an exploitability of 0.03 from one of zero
    cap = loop_budget - (int(VALIDATION_SHARE * loop_budget) if spend_left else 0)
    rng = np.random.default_rng(seed)
    searched = [0] if symmetric else list(range(n_s))
    archives = [[] if archive and sd.propose is not None else None for sd in sides]
    with tqdm(total=trials_budget, unit="trial", unit_scale=True, leave=False,
              disable=progress is False, delay=0 if progress else 2.0,
              desc="balance") as bar:
        est.bar = bar
        U = _tensor(est, pops, profile_trials, seed)
        for rnd in range(max_rounds + 1):
            # every side replies to the same mixtures, then all replies join at once (PSRO);
            # the last round's replies are measured against the final mixtures
            mix, values = _solve(U, same=rotate)
            found = [(None, 0.0)] * n_s
            runners: list = [[] for _ in range(n_s)]   # an oracle's runners-up, with gains
            before = est.used
            first_cost = None
            confirmed = {}
            for wider in range(widen + 1):
                # no reply gaining epsilon among k candidates is weak evidence while budget is
                # left: search again among twice as many (the Sobol points extend the last
                # ones, so the best so far is among them) before stopping on it
                k_try = candidates << wider
                start = est.used
                for s in searched:
                    ex: list = []
                    r = _best_reply(est, s, sides[s], pops, mix, values[s], profile_trials,
                                    k_try, seed, rng, cap - est.used, archives[s], ex)
                    # the best of the tries, all measured on the same games against the same
                    # mixture; a try the budget cut short keeps the last one's
                    if r[0] is not None and (found[s][0] is None or r[1] > found[s][1]):
                        found[s] = r
                        runners[s] = ex
                if symmetric:
                    found[1] = found[0]
                if first_cost is None:
                    first_cost = est.used - before
                grow = [s for s in searched
                        if found[s][0] is not None and found[s][1] > epsilon
                        and found[s][0] not in pops[s]]
                confirmed = {}
                if not grow and confirm and all(found[s][0] is not None for s in searched):
                    # a reply's gain on the search seed is one estimate of profile_trials games
                    # (standard error about 0.016 at 1,000): before the loop stops on it, each
                    # reply that gained at all is measured again on games of a seed of its own,
                    # ``confirm`` times as many, the mixture on the same games; it joins when
                    # that gain exceeds epsilon
                    seed_c = seed + (1 << 49) + (rnd << 8) + wider
                    m = confirm * profile_trials
                    for s in searched:
                        r, g = found[s]
                        if g <= 0 or r in pops[s]:
                            continue
                        cost = m * _opponents(mix, s) * (1 + int((mix[s] > 1e-6).sum()))
                        if est.used + cost > cap:
                            continue
                        confirmed[s] = _gain(est, s, r, pops, mix, m, seed_c)
                        if confirmed[s] > epsilon:
                            grow.append(s)
                if (grow or any(found[s][0] is None for s in searched)
                        or est.used + 2 * (est.used - start) > cap):
                    break
            extra = sum(math.prod(len(p) for i, p in enumerate(pops) if i != s)
                        for s in grow) * profile_trials * (2 if symmetric else 1)
            # keep enough budget to measure the replies to the grown population's mixture
            reserve = first_cost
            rounds.append({"round": rnd, "population": "/".join(str(len(p)) for p in pops),
                           "value": values[0], **{f"gain_{sides[s].name}": found[s][1]
                                                  for s in range(n_s)},
                           **{f"confirmed_{sides[s].name}": confirmed.get(s, math.nan)
                              for s in range(n_s)},
                           "candidates": candidates << wider,
                           "grow": ",".join(sides[s].name for s in grow),
                           "trials_used": est.used})
            if any(found[s][0] is None for s in searched):
                stopped = f"budget: {est.used:,} of {cap:,} used, no reply could be raced"
            elif not grow:
                stopped = (f"no best reply gained more than epsilon={epsilon:g} (round {rnd}"
                           + (f"; confirmed on {confirm * profile_trials:,} more games"
                              if confirmed else "") + ")")
            elif rnd == max_rounds:
                stopped = f"max_rounds={max_rounds} reached"
            elif est.used + extra + reserve > cap:
                stopped = (f"budget: {est.used:,} used, the next round needs about "
                           f"{int(extra + reserve):,} of {cap:,}")
            if stopped:
                break
            for s in grow:
                pops[s].append(found[s][0])
                # an oracle's runners-up that gained epsilon by its own fresh measurement
                # join with its reply: other regions of a field's best replies (the islands'
                # bests), which the next mixture may need and no step from the population
                # reaches
                for p, g in runners[s][:ORACLE_EXTRAS]:
                    if g > epsilon and p not in pops[s]:
                        pops[s].append(p)
            U = _tensor(est, pops, profile_trials, seed)
        if polish > 0 and symmetric:
            n_big = polish_trials or POLISH_FACTOR * profile_trials
            mix, last, why = _polish(est, sides[0], pops, mix, U, n_big, polish, seed,
                                     loop_budget + polish_keep, profile_trials, rounds)
            if last[0] is not None:   # the polish's reply, measured on more games
                found[0] = found[1] = last
            stopped += f"; polish: {why}"
            if wide > 0 and sides[0].wide is not None:
                mix, last, why = _wide(est, sides[0], pops, mix, n_big, polish, seed,
                                       trials_budget, profile_trials, rounds, wide_share,
                                       wide_min, found[0])
                found[0] = found[1] = last
                stopped += f"; wide search: {why}"
        bar.close()
    if spend_left:
        # the budget the search left measures the answer: the report's fresh-seed estimates
        # (the mixtures, each side's reply, the file's policies) share it, up to
        # VALIDATION_MAX times profile_trials each; at profile_trials alone an exploitability
        # of zero reads anywhere up to about 0.04
        k = [int((m > 1e-6).sum()) for m in mix]
        n_val = math.prod(k) + sum(_opponents(mix, s) for s in range(n_s)) + 1
        validation_trials = max(validation_trials, min(VALIDATION_MAX * profile_trials,
                                                       (trials_budget - est.used) // n_val))
    return Outcome(est, list(sides), pops, mix, found, seed, profile_trials, validation_trials,
                   rounds, stopped)


#: the final polish (``search(polish=...)``): games a profile, in ``profile_trials``
POLISH_FACTOR = 10
#: the most polish rounds (each a precise sub-game, a race of the support's neighbours and a
#: confirmation on fresh games; a walk's step is a round)
POLISH_ROUNDS = 8
#: the most steps of a polish's walk (a side with ``moves`` only): when the best move's gain
#: on fresh games is positive but not over epsilon, the next round races the moves from it
#: (it does not join) and the walk goes on while each step's gain over the mixture on its
#: fresh games stays positive; the first step that gains more than epsilon joins. Why:
#: against seed 3's Demon's Run answer the moves of SI into Screens gained -0.001, +0.014,
#: +0.012 and +0.029 for one to four Levels (6,000 races; 3,000 others read +0.004 and
#: +0.005 for two and three), on the way to a build 0.05 better, and a polish that stops at
#: the first step under 0.01 stops there (benchmarks/balance.md, s22-meta6)
POLISH_WALK = 3
#: the population's builds (beside the support) whose payoffs the polish re-measures on
#: ``polish_trials`` games to solve the mixture: the best against the current mixture
POLISH_POOL = 5
#: the most neighbours a polish round races (a draw of them when the support has more): every
#: move of up to three Levels of most one-build Demon's Run supports (about 105-130 of
#: them, ``metagame.level_moves``)
POLISH_CANDIDATES = 128


def _validation_reserve(k, profile_trials):
    """The games the report's validation of a support of ``k + 1`` builds takes at its most:
    what the polish and the wide step keep back from the budget."""
    return ((k + 1) ** 2 + (k + 1) + 1) * VALIDATION_MAX * profile_trials


def _polish(est, side, pops, mix, U, n, epsilon, seed, budget, profile_trials, rounds,
            keep=(), stream=0):
    """The final polish of a symmetric search, after its loop stopped: (the mixture, the
    last reply with its gain, why the polish stopped); a reply that gains joins ``pops``.

    The loop's payoffs are ``profile_trials`` games each and a reply joins when it gains
    ``epsilon`` on them: it stops where a reply 0.02 better is still there (Demon's Run: two
    seeds' answers 0.02 apart on 3,000 races, benchmarks/balance.md), and the mixture is
    solved on estimates whose standard error is about that. Each polish round:

    1. re-measures the payoffs among the support and the :data:`POLISH_POOL` builds that
       score best against the mixture on ``n`` games (the search seed's, extended: common
       random numbers) and solves the mixture on that precise sub-game (a build the loop's
       noisy matrix left out may share the support);
    2. races every one-level neighbour of the support builds (up to
       :data:`POLISH_CANDIDATES`, drawn by the dice stream when more) against that mixture by
       successive halving from ``n / 16`` to ``n`` games on the search seed;
    3. measures the leader's gain over the mixture again on ``n`` games of a seed of its own
       (the race's winner is the luckiest of many) and adds it to the population when that
       gain exceeds ``epsilon``; otherwise the polish stops: no neighbour of the answer gains.

    It stops too before a round would eat into the report's share (the validation of a
    support one build larger at its most games) or after :data:`POLISH_ROUNDS`. Every
    estimate is an :class:`Estimates` entry, so a resumed run takes the same steps.

    A side with ``moves`` races those instead of its one-step neighbours, and a round whose
    leader gains over the mixture on its fresh games, but not more than ``epsilon``, is a
    step of a walk: the next round races the moves from it (it does not join), up to
    :data:`POLISH_WALK` steps while each gains; a step gaining more than ``epsilon`` joins.

    ``keep``: population indices always in the sub-game's pool (a build the wide step just
    added, whose short payoffs may not rank it among the best). ``stream``: a later polish
    (after the wide step) races and confirms on games of its own (0: the first polish's)."""
    s = 0
    # ties of the polish's races
    rng = np.random.default_rng([seed, 0x504F4C] + ([stream] if stream else []))
    tag = f"wide {stream - 1} polish " if stream else "polish "
    last = (None, 0.0)
    # the walk: moves that gained under epsilon, the next round moving on from the last
    walk = POLISH_WALK if side.moves is not None else 0
    path: list = []
    why = f"max {POLISH_ROUNDS} rounds"
    for prnd in range(POLISH_ROUNDS):
        k = int((mix[s] > 1e-6).sum())
        # the report's validation of a support one larger, at its most games
        reserve = _validation_reserve(k, profile_trials)
        cap = budget - reserve
        sup = [i for i in np.argsort(-mix[s], kind="stable") if mix[s][i] > 1e-6]
        vals = U[s] @ mix[1 - s]
        pool = sup + [int(i) for i in keep if i not in sup]
        pool += [int(i) for i in np.argsort(-vals, kind="stable") if i not in pool]
        pool = pool[:len(sup) + max(POLISH_POOL, len(keep))]
        need = sum(est.cost((pops[s][a], pops[s][b]), n, seed)
                   for a, b in itertools.combinations(pool, 2))
        if est.used + need > cap:
            why = f"budget (round {prnd}: the sub-game needs {need:,} more games)"
            break
        sub = np.full((len(pool), len(pool)), 0.5)
        for (ia, a), (ib, b) in itertools.combinations(enumerate(pool), 2):
            u = est.utility((pops[s][a], pops[s][b]), n, seed)[0]
            sub[ia, ib], sub[ib, ia] = u, 1.0 - u
        x = maximin(sub)[0]
        m = np.zeros(len(pops[s]))
        m[pool] = x
        mix = [m, m]
        support = _support(pops[s], m)
        cands: list = []
        owner: list = []     # which origin's move each candidate is
        # a walk goes on from its last step, else the moves are the support's
        origins = [(path[-1], 1.0)] if path else support
        for o, (p, _) in enumerate(origins):
            near = side.moves(p) if side.moves is not None else _neighbours(side, p)
            new = [c for c in near if c not in pops[s] and c not in cands and c not in path]
            cands += new
            owner += [o] * len(new)
        if len(cands) > POLISH_CANDIDATES:
            # more than a race affords (a support of several builds): a draw of the dice
            # stream's, never the first in list order
            draw = np.random.default_rng([seed, 0x504F4C, prnd] + ([stream] if stream else []))
            if side.moves is not None and len(set(owner)) > 1:
                # each support build's moves in proportion to its weight: seed 3's Demon's
                # Run support of three (0.68, 0.19, 0.13) drew 128 of about 360 evenly, a
                # third of its leading build's moves, and stopped on the budget without
                # seeds 1's and 2's answer, a move of that build 0.015 better against the
                # mixture (benchmarks/balance.md, s22-meta6)
                n_o = np.bincount(owner)
                prob = np.array([origins[o][1] / n_o[o] for o in owner])
                pick = draw.choice(len(cands), POLISH_CANDIDATES, replace=False,
                                   p=prob / prob.sum())
            else:
                pick = draw.choice(len(cands), POLISH_CANDIDATES, replace=False)
            cands = [cands[i] for i in sorted(pick)]
        if not cands:
            why = "no neighbour to race"
            break
        cost_per = len(support)
        # kept back: the leader on all n games, and the confirmation
        left = cap - est.used - n * cost_per * (2 + cost_per)
        leader, _, _, _, _ = _race(est, s, cands, pops, mix, n, seed, rng, left, cost_per,
                                   first=max(50, n // 16))
        if leader is None:
            why = f"budget (round {prnd}: no race of its {len(cands)} neighbours fits)"
            break
        # the race stops when one is left, maybe short of n games
        score = _value_against(est, s, leader, pops, mix, n, seed)
        own = sum(w * _value_against(est, s, p, pops, mix, n, seed) for p, w in support)
        seed_p = seed + (1 << 50) + (stream << 16) + (prnd << 8)
        fresh = _gain(est, s, leader, pops, mix, n, seed_p)
        last = (leader, fresh)
        grow = fresh > epsilon
        # under epsilon but a gain all the same: the walk goes on from it (not joining)
        step = not grow and fresh > 0 and len(path) < walk
        rounds.append({"round": f"{tag}{prnd}", "phase": "polish",
                       "population": f"{len(pops[s])}/{len(pops[s])}",
                       "support": len(support),
                       "candidates": len(cands), "gain_race": score - own,
                       "confirmed_seat 1": fresh, "grow": "seat 1" if grow else "",
                       "walk": len(path) + 1 if step else (len(path) if path else 0),
                       "trials_used": est.used})
        if step:
            path.append(leader)
            continue
        if not grow:
            why = (f"no neighbour of the support gained more than {epsilon:g} on {n:,} fresh "
                   f"games (round {prnd}" + (f"; a walk of {len(path)} moves" if path else "")
                   + ")")
            break
        path = []
        pops[s].append(leader)
        m = np.append(m, 0.0)
        mix = [m, m]
        U = _tensor(est, pops, profile_trials, seed)
    return mix, last, why


#: the most wide-step rounds (``search(wide=...)``; each its searches from scratch, the best
#: candidate's confirmation and, when it joins, a polish); the budget ends them sooner
WIDE_ROUNDS = 3
#: the searches from scratch of a wide round, each on its own stream and on an equal part of
#: the share: on Demon's Run one 300,000-race search against seed 3's polished answer found
#: a build beating it by 0.02 (stream 11, s20-meta4) and another, on another stream, ended
#: on the answer itself (s21-meta5): which far region a search climbs to is luck of its draw
WIDE_STREAMS = 2
#: the salt of the wide step's own dice stream (its searches' seeds)
WIDE_SALT = 0x57494445


def _wide(est, side, pops, mix, n, epsilon, seed, budget, profile_trials, rounds, share,
          least, last):
    """The wide step after the polish (``search(wide=...)``): (the mixture, the best reply
    found against it with its gain, why the step stopped); a reply that gains joins ``pops``.

    The loop's searches start from an archive of their own finalists and stay near it, and
    the polish looks one Level around the answer: on Demon's Run three seeds ended on local
    optima about four Levels apart, and one search from scratch against seed 3's polished
    answer found a build beating it by 0.02 (benchmarks/balance.md, s20-meta4). Each round:

    1. ``side.wide`` searches against the mixture from scratch (no archive), on
       :data:`WIDE_STREAMS` seeds drawn from this step's own stream, each on an equal part of
       at most ``share`` games (at least ``least`` each);
    2. the candidates are every search's finalists but the support's builds, each scored by
       its gain over the support on that search's finals (the same races; 0.5 for the
       support when its finals did not race all of it), pooled over the searches by their
       games; the best one's gain over the mixture is measured on ``n`` games of a seed of its
       own (the mixture on the same games: common random numbers; the finals figure is the
       best of many and so biased up);
    3. when that gain does not exceed ``epsilon`` (the polish's) and the side has ``moves``,
       it is climbed from by them (:func:`_climb`: a search from scratch lands in a far
       region, seldom on its peak); the searches breed from none of the support
       (``metagame``'s wide search: core search ``breed_include=False``);
    4. when the gain exceeds ``epsilon`` it joins the population and the
       polish (:func:`_polish`, the newcomer always in its sub-game) runs again on games of
       its own; otherwise the step stops.

    It stops too when the budget less the report's share cannot afford the searches of
    ``least`` games each, or after :data:`WIDE_ROUNDS`. ``last``: the best reply so far (the
    polish's) with its gain against ``mix``, replaced by whichever later reply gains more
    against the mixture as it then stands. The searches' games count against the budget;
    they and the estimates are read back on a resumed run, so it takes the same steps."""
    s = 0
    notes: list = []
    why = f"max {WIDE_ROUNDS} rounds"
    for wrnd in range(WIDE_ROUNDS):
        support = _support(pops[s], mix[s])
        own = {p for p, _ in support}
        k = len(support)
        # kept back: the report's validation of a support one larger at its most games, and
        # the candidate's confirmation (it and each support build against the support)
        reserve = _validation_reserve(k, profile_trials)
        left = budget - reserve - n * k * (1 + k) - est.used
        size = min(left, share) // WIDE_STREAMS
        if share <= 0 or size < least:
            why = (f"skipped: {max(left, 0):,} games left of the budget"
                   + (f" (the share kept for it {share:,})" if share else "")
                   + f", {WIDE_STREAMS} searches need {max(least, 1):,} each")
            break
        spent = 0
        pooled: dict = {}      # candidate -> [games * gain, games]
        for j in range(WIDE_STREAMS):
            sub = int(np.random.default_rng([seed, WIDE_SALT, wrnd, j]).integers(1 << 31))
            got = side.wide(support, size, sub)
            if got is None:
                continue
            rows, used = got[0], int(got[1])
            games = got[2] if len(got) > 2 else 1
            spent += used
            est.used += used
            if est.bar is not None:
                est.bar.update(used)
            u = dict(rows)
            base = (sum(w * u[p] for p, w in support) if own <= set(u) else 0.5)
            for p, x in rows:
                if p not in own:
                    acc = pooled.setdefault(p, [0.0, 0])
                    acc[0] += games * (x - base)
                    acc[1] += games
        if not pooled:
            why = "; ".join(notes + [f"round {wrnd}: no search from scratch raced a build "
                                     "outside the support"])
            break
        # the best pooled gain; ties go to a draw of the dice stream, never to list order
        cand = list(pooled)
        g = np.array([pooled[p][0] / pooled[p][1] for p in cand])
        tie = np.random.default_rng([seed, WIDE_SALT, wrnd, 0x544945]).permutation(len(cand))
        best = cand[int(np.lexsort((tie, -g))[0])]
        g_search = float(g[cand.index(best)])
        fresh = _gain(est, s, best, pops, mix, n, seed + (1 << 51) + (wrnd << 8))
        climbed = 0
        if fresh <= epsilon and side.moves is not None:
            # a search from scratch lands in a far region, seldom on its peak: climb to it
            start = best
            best, fresh, climbed = _climb(est, side, pops, mix, best, fresh, n, epsilon, seed,
                                          budget, profile_trials, rounds, wrnd)
            if climbed:
                notes.append(f"round {wrnd}: climbed {climbed} moves from "
                             f"{_label(start, side)}")
        grow = fresh > epsilon
        rounds.append({"round": f"wide {wrnd}", "phase": "wide",
                       "population": f"{len(pops[s])}/{len(pops[s])}", "support": k,
                       "candidates": len(cand), "gain_race": g_search,
                       "confirmed_seat 1": fresh, "grow": "seat 1" if grow else "",
                       "walk": climbed, "trials_used": est.used})
        if not grow:
            if last[0] is None or fresh > last[1]:
                last = (best, fresh)
            why = "; ".join(notes + [
                f"the best of {len(cand)} finalists of {WIDE_STREAMS} searches from scratch "
                f"({spent:,} games; {_label(best, side)}, {g_search:+.4f} on their finals) "
                f"gained {fresh:+.4f} on {n:,} fresh games, not more than {epsilon:g} "
                f"(round {wrnd})"])
            return mix, last, why
        if best not in pops[s]:
            pops[s].append(best)
            m = np.append(mix[s], 0.0)
            mix = [m, m]
        U = _tensor(est, pops, profile_trials, seed)
        mix, p_last, p_why = _polish(est, side, pops, mix, U, n, epsilon, seed, budget,
                                     profile_trials, rounds, keep=[pops[s].index(best)],
                                     stream=wrnd + 1)
        if p_last[0] is not None:
            last = p_last
        notes.append(f"round {wrnd}: {_label(best, side)} gained {fresh:+.4f} and joined; "
                     f"polish: {p_why}")
    return mix, last, "; ".join(notes + [why])


#: the most moves a wide round climbs from its best far candidate (a side with ``moves``)
WIDE_CLIMB = 6


def _climb(est, side, pops, mix, p, gain, n, epsilon, seed, budget, profile_trials, rounds,
           wrnd):
    """Climb from the wide step's best far candidate ``p`` (its gain over the mixture on fresh
    games ``gain``) by the polish's moves (``side.moves``): each step races the moves of the
    point reached against the mixture by successive halving on the search seed's games (as a
    polish round) and measures the leader's gain on ``n`` fresh games of its own; the climb
    moves there while that gain rises, stopping at the first point that gains more than
    ``epsilon`` or after :data:`WIDE_CLIMB` steps. Returns (the point, its gain, moves made).

    Why: against seed 1's Demon's Run answer a search breeding from none of it ended in the
    region of seed 2's answer (fuel 280, Screens 7) but on SI 5, ME 8, Laser 3: 0.474
    against it, where three moves (Laser into SI, ME into MN, ME into SI) make 0.508, 0.533
    and seed 2's answer, 0.546 (6,000 races each; benchmarks/balance.md, s22-meta6)."""
    s = 0
    rng = np.random.default_rng([seed, WIDE_SALT, wrnd, 0x434C4D42])
    support = _support(pops[s], mix[s])
    k = len(support)
    cap = budget - _validation_reserve(k, profile_trials)
    seen = [p]
    made = 0
    for step in range(WIDE_CLIMB):
        if gain > epsilon:
            break
        cands = [c for c in side.moves(p) if c not in pops[s] and c not in seen]
        if len(cands) > POLISH_CANDIDATES:
            pick = np.random.default_rng([seed, WIDE_SALT, wrnd, 0x434C4D42, step]).choice(
                len(cands), POLISH_CANDIDATES, replace=False)
            cands = [cands[i] for i in sorted(pick)]
        if not cands:
            break
        left = cap - est.used - n * k * (2 + k)
        leader, _, _, _, _ = _race(est, s, cands, pops, mix, n, seed, rng, left, k,
                                   first=max(50, n // 16))
        if leader is None:
            break
        fresh = _gain(est, s, leader, pops, mix, n, seed + (1 << 51) + (wrnd << 8) + 1 + step)
        rounds.append({"round": f"wide {wrnd} climb {step}", "phase": "climb",
                       "population": f"{len(pops[s])}/{len(pops[s])}", "support": k,
                       "candidates": len(cands), "confirmed_seat 1": fresh,
                       "grow": "", "walk": step + 1, "trials_used": est.used})
        if fresh <= gain:
            break
        p, gain, made = leader, fresh, made + 1
        seen.append(p)
    return p, gain, made


#: how many of an oracle's runners-up may join the population with its reply in a round
ORACLE_EXTRAS = 3
#: the most games per profile the leftover budget gives the report, in profile_trials
VALIDATION_MAX = 16
#: the share of the budget kept from the search for the report (with ``spend_left``)
VALIDATION_SHARE = 0.15


def _opponents(mix, s: int) -> int:
    """How many profiles of the others' supports side ``s`` plays against."""
    return math.prod(max(1, int((m > 1e-6).sum())) for i, m in enumerate(mix) if i != s)


def _gain(est, s, reply, pops, mix, n, seed) -> float:
    """Side ``s``'s gain playing ``reply`` instead of its mixture, both against the others'
    mixtures on the same ``n`` games of ``seed``."""
    own = sum(w * _value_against(est, s, p, pops, mix, n, seed)
              for p, w in _support(pops[s], mix[s]))
    return _value_against(est, s, reply, pops, mix, n, seed) - own


def _tensor(est: Estimates, pops, n: int, seed: int) -> np.ndarray:
    shape = tuple(len(p) for p in pops)
    U = np.zeros((len(pops),) + shape)
    for idx in np.ndindex(*shape):
        prof = tuple(pops[s][i] for s, i in enumerate(idx))
        U[(slice(None),) + idx] = est.utility(prof, n, seed)
    return U


def _solve(U: np.ndarray, same: bool = False):
    if U.shape[0] == 2:
        x, y, v = maximin(U[0])
        # a symmetric game: the row's maximin mixture is a maximin mixture for the column too;
        # the column LP may land on another vertex of the same optimal face, and one population
        # should answer with one mixture
        mix = [x, x] if same else [x, y]
    else:
        mix = fictitious_play(U)
    values = [float(expected(U[s], mix)) for s in range(U.shape[0])]
    return mix, values


def _support(pop, w, tol=1e-6):
    return [(p, float(x)) for p, x in zip(pop, w) if x > tol]


def _value_against(est, s, policy, pops, mix, n, seed):
    """Side ``s``'s utility playing ``policy`` against the others' mixtures (their supports)."""
    others = [_support(pops[i], mix[i]) if i != s else [(policy, 1.0)] for i in range(len(pops))]
    total = 0.0
    for combo in _product(others):
        w = math.prod(x for _, x in combo)
        prof = tuple(p for p, _ in combo)
        total += w * est.utility(prof, n, seed)[s]
    return total


def _product(lists):
    if not lists:
        yield ()
        return
    for head in lists[0]:
        for rest in _product(lists[1:]):
            yield (head,) + rest


def canonical(p: Policy, spaces: Mapping[str, PolicySpace]) -> Policy:
    """One name for one policy: parameters at their defaults are left out."""
    if p == FILE:
        return p
    sp = spaces[p.name]
    vals = sp.check(p.values)
    default = sp.defaults()
    return Policy.of(p.name, {k: v for k, v in vals.items() if v != default[k]})


def _candidates(side: Side, pops, s, k: int, seed: int, rng, elite=()):
    """Named policies at their defaults, Sobol points of every space with parameters, and
    steps around the side's current policies (in the unit box of their space); or the side's
    own proposals. ``elite`` (an archive of replies that raced well in earlier rounds) is
    raced again as it is and proposed from like the population."""
    if side.propose is not None:
        elite = [p for p in elite if p not in pops[s]]
        return list(dict.fromkeys(side.propose(rng, k, list(pops[s]) + elite) + elite))
    spaces = side.spaces
    out = [Policy(name) for name in spaces]
    param_spaces = [sp for sp in spaces.values() if sp.params]
    if param_spaces and k > 0:
        per = max(1, k // len(param_spaces))
        for j, sp in enumerate(param_spaces):
            d = len(sp.params)
            sob = qmc.Sobol(d, scramble=True, seed=np.random.default_rng([seed, s, j]))
            m = 1 << max(0, math.ceil(math.log2(per)))
            for u in sob.random(m)[:per]:
                out.append(Policy.of(sp.name, sp.from_unit(u)))
        for p in pops[s]:
            sp = spaces.get(p.name)
            if sp is None or not sp.params or p == FILE:
                continue
            vals = sp.check(p.values)
            unit = np.array([(vals[q.name] - q.lo) / ((q.hi - q.lo) or 1) for q in sp.params])
            for _ in range(2):
                out.append(Policy.of(sp.name, sp.from_unit(unit + rng.normal(0, 0.15, len(unit)))))
    return list(dict.fromkeys(canonical(p, spaces) for p in out))


def _best_reply(est, s, side, pops, mix, value, n, k, seed, rng, left, archive=None,
                extras=None):
    """Race candidates for side ``s`` against the others' mixture by successive halving on the
    same seeded trials; returns (best policy, its gain over ``value``) or (None, 0) when the
    budget cannot afford a round. ``archive`` (a list, or None for none): the elite of earlier
    rounds, proposed from and raced again; this race's last rung and its polished winner
    join it at the front (:data:`ARCHIVE_KEEP` per race), the oldest falling off.

    A side with an ``oracle`` searches instead (:func:`_oracle_reply`); ``extras`` (a list)
    then receives its runners-up that gained more than ``value`` by its own measure."""
    if side.oracle is not None:
        return _oracle_reply(est, s, side, pops, mix, value, n, k, seed, rng, left, extras)
    cands = _candidates(side, pops, s, k, seed, rng, archive or ())
    cost_per = _opponents(mix, s)
    best, _, _, spent, ranked = _race(est, s, cands, pops, mix, n, seed, rng, left, cost_per)
    if best is None:
        return None, 0.0
    full = _value_against(est, s, best, pops, mix, n, seed)
    # polish: climb to the best one-step neighbour while that improves on the same races (a
    # racing search's winner is rarely a local optimum: the builds search found the same). The
    # neighbours are raced too: a policy with fifteen parameters has thirty, and playing each
    # at full length spent nine games in ten of a Dark Future search on polishing
    for _ in range(POLISH_STEPS):
        nbrs = [c for c in _neighbours(side, best) if c != best]
        if not nbrs:
            break
        leader, score, t, used, _ = _race(est, s, nbrs, pops, mix, n, seed, rng, left - spent,
                                          cost_per)
        spent += used
        if leader is None or t < n or score <= full:
            break
        best, full = leader, score
    if archive is not None:
        # a reply to this round's mixture that lost narrowly may be the reply to a later one
        # (the field cycles), and builds far from the population are where mutations of the
        # population never go: the next rounds start from them too
        new = [best] + [c for c in ranked if c != best][:ARCHIVE_KEEP - 1]
        archive[:] = list(dict.fromkeys(new + archive))[:ARCHIVE_SIZE]
    return best, full - value


def _oracle_reply(est, s, side, pops, mix, value, n, k, seed, rng, left, extras):
    """Side ``s``'s best reply by its ``oracle``, ``k / side_k`` times its usual size; its
    games count against the budget. The reply's gain is measured as any reply's, on the
    search seed's ``n`` games against each policy of the others' support (the same games the
    payoffs are estimated on). ``replies`` are (policy, utility against the field by the
    oracle's own fresh measurement); the runners-up go to ``extras`` with their gains over
    ``value`` by that measure."""
    others = [_support(pops[i], mix[i]) for i in range(len(pops)) if i != s]
    if len(others) != 1:
        raise ValueError("a search oracle answers one other side's mixture")
    # the oracle's seed: from the dice stream, so each round (and a widened try) searches
    # on races of its own, the same in a resumed run
    sub = int(rng.integers(1 << 31))
    got = side.oracle(others[0], k, left, sub)
    if got is None:
        return None, 0.0
    replies, spent = got[0], got[1]
    measured = got[2] if len(got) > 2 else 0
    est.used += spent
    if est.bar is not None:
        est.bar.update(spent)
    best = replies[0][0]
    if extras is not None:
        extras[:] = [(p, u - value) for p, u in replies[1:]]
    gain = _value_against(est, s, best, pops, mix, n, seed) - value
    if measured:
        # two measurements of the same gain, the oracle's on its fresh finals: pooled by their
        # games (the loop's: n against each support policy, weighted; an effective n /
        # sum(w^2) games), so a reply is not dropped for one short, unlucky estimate (Demon's
        # Run: a reply 0.027 better on 3,000 fresh races read 0.0125 on the loop's 400)
        n_loop = n / sum(w * w for _, w in others[0])
        gain = (n_loop * gain + measured * (replies[0][1] - value)) / (n_loop + measured)
    return best, gain


def _race(est, s, cands, pops, mix, n, seed, rng, left, cost_per, first=None):
    """Successive halving of ``cands`` on the search seed, from a few dozen games each (or
    ``first``) up to ``n``: (leader, its score, the games it was scored on, games spent, the
    candidates of the last rung raced in their order), the leader being None when the budget
    ``left`` cannot afford the first round."""
    rounds = max(1, math.ceil(math.log2(max(2, len(cands)))))
    alive = cands
    t = max(50, n >> rounds) if first is None else min(n, first)
    spent = 0
    best, score, at = None, 0.0, 0
    ranked: list = []
    while True:
        need = len(alive) * t * cost_per
        if spent + need > left:
            break
        scores = [_value_against(est, s, c, pops, mix, t, seed) for c in alive]
        spent += need
        # ties (the same games won) go to the dice stream: a fixed permutation from the seed
        order = np.lexsort((rng.permutation(len(alive)), -np.asarray(scores)))
        # the leader so far, if the budget stops the race here
        best, score, at = alive[int(order[0])], float(scores[int(order[0])]), t
        ranked = [alive[int(i)] for i in order]
        if len(alive) == 1 or t >= n:
            break
        alive = [alive[i] for i in order[:max(1, math.ceil(len(alive) / 2))]]
        t = min(n, t * 2)
    return best, score, at, spent, ranked


#: the most one-step moves a best reply is polished by (each a race of its neighbours): at 6
#: (and a 1.5x round reserve) Dark Future Game One's search stopped for the budget after two
#: rounds with replies gaining 0.04-0.05 outside; at 2 (reserve 1x) it converged in four
POLISH_STEPS = 2
#: an elite archive (``search(archive=True)``): the candidates each best reply's race kept to
#: its last rung (its winner first) join it, this many per race, and it holds this many
ARCHIVE_KEEP = 4
ARCHIVE_SIZE = 24


def _neighbours(side: Side, p: Policy) -> list:
    """One step from ``p``: the side's own neighbours, or each parameter one step up or down
    (whole numbers by 1, real numbers by a tenth of their range, booleans flipped)."""
    if side.neighbours is not None:
        return list(side.neighbours(p))
    if p == FILE or p.name not in side.spaces:
        return []
    sp = side.spaces[p.name]
    vals = sp.check(p.values)
    out = []
    for q in sp.params:
        step = (q.hi - q.lo) / 10 if q.kind == "float" else 1
        for d in (-step, step):
            x = vals[q.name] + d
            if q.lo <= x <= q.hi:
                out.append(canonical(Policy.of(p.name, {**vals, q.name: x}), side.spaces))
    return out


def _report(out: Outcome, scenario: str, method_note: str = "") -> pd.DataFrame:
    """One row per side: the file's policies, the equilibrium and the best reply found, each
    from fresh trials. One population or two, each seat is measured as it sits (``play``
    unrotated), so an advantage of the seat itself still shows."""
    est, sides, pops, mix, nv = out.est, out.sides, out.pops, out.mix, out.validation_trials
    n_s = len(sides)
    base_prof = tuple(FILE for _ in range(n_s))
    base = est.wins(base_prof, nv, out.fresh_seed(base_prof))
    rows = []
    for s, side in enumerate(sides):
        rate, util, var_r, var_u = out.measure(s)
        br, _ = out.replies[s]
        if br is not None:
            _, br_util, _, br_var = out.measure(s, br)
            ex = br_util - util
            half = Z * math.sqrt(br_var + var_u)
        else:   # the budget ran out before a reply could be raced: not measured
            ex, half = math.nan, math.nan
        lo, hi = _wilson(int(base[s]), nv)
        half_r = Z * math.sqrt(var_r)
        rows.append({
            "scenario": scenario, "side": side.name, "default_policy": "as in the file",
            "default_win_rate": base[s] / nv, "default_lo": lo, "default_hi": hi,
            "equilibrium_win_rate": rate, "equilibrium_lo": max(0.0, rate - half_r),
            "equilibrium_hi": min(1.0, rate + half_r),
            "exploitability": max(ex, 0.0) if ex == ex else math.nan,
            "exploit_lo": ex - half, "exploit_hi": ex + half,
            "best_reply": _label(br, side) if br is not None else "",
            "support": "; ".join(f"{_label(p, side)} {w:.2f}"
                                 for p, w in _support(pops[s], mix[s])),
            "profiles": math.prod(len(p) for p in pops),
            "method": ONE_POPULATION if est.rotate else TWO_POPULATIONS,
        })
    frame = pd.DataFrame(rows, columns=COLUMNS)
    frame["trials_used"] = est.used
    frame.attrs["payoffs"] = _payoff_frame(est, sides, pops, out.profile_trials, out.seed)
    frame.attrs["interval"] = ("95%: Wilson for the default; normal for mixtures of independent "
                               "profile estimates")
    frame.attrs["method"] = (ONE_POPULATION if est.rotate else TWO_POPULATIONS) + (
        f" ({method_note})" if method_note else "")
    frame.attrs["stopped"] = out.stopped
    frame.attrs["rounds"] = pd.DataFrame(out.rounds)
    return frame


def _label(p: Policy, side: Side | None = None) -> str:
    if p == FILE:
        return "as in the file"
    if side is not None and side.describe is not None:
        return side.describe(p)
    return p.label()


def _wilson(k, n):
    from ..core.stats import rate_ci

    lo, hi = rate_ci(k, n)
    return float(lo), float(hi)


def _payoff_frame(est, sides, pops, n, seed) -> pd.DataFrame:
    """Side 0's utility for every profile of the final population (the payoff matrix when two
    sides play), from the search's own estimates."""
    rows = []
    for idx in np.ndindex(*(len(p) for p in pops)):
        prof = tuple(pops[s][i] for s, i in enumerate(idx))
        u = est.utility(prof, n, seed)
        rows.append({**{sides[s].name: _label(p, sides[s]) for s, p in enumerate(prof)},
                     **{f"utility_{sides[s].name}": float(u[s]) for s in range(len(sides))}})
    return pd.DataFrame(rows)


# --- a scenario file ---------------------------------------------------------------------------

def balance(path, *, trials_budget: int | None = 400_000, profile_trials: int = 1000,
            candidates: int = 16, epsilon: float = 0.02, seed: int = 2026,
            variants: Mapping[str, str] | None = None, run_dir: str | Path | None = None,
            progress: bool | None = None, asymmetric: bool = False,
            **run_opts) -> pd.DataFrame:
    """Default and equilibrium win rates of a scenario's sides, exploitability and support
    (one row per side; ``attrs["payoffs"]``: the estimated payoffs of the final population).

    A scenario whose game engine proves its two sides interchangeable
    (:meth:`~simkit.core.game.ScenarioEngine.sides_interchangeable`) is solved as one
    population with the seats rotated, unless ``asymmetric``: two populations, one per side,
    as for any other scenario. ``attrs["method"]`` says which, and why."""
    path = str(path)
    game = games.for_scenario(path)
    eng = game.scenario
    # a costly policy (the Starfire look-ahead admiral, hundreds of times slower) would spend
    # the budget on a few profiles: named policies only, as ``--policies all`` pairs them
    spaces = dict(eng.cheap_policies())
    if not spaces:
        raise UserInputError(f"{game.title} has no policy space to search", where=path,
                             field="game")
    for name, value in (("--trials-budget", 1 if trials_budget is None else trials_budget),
                        ("--profile-trials", profile_trials), ("--candidates", candidates)):
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise UserInputError(f"must be a positive whole number, got {value!r}", field=name)
    if not 0 <= epsilon < 1:
        raise UserInputError(f"must be in [0, 1), got {epsilon!r}", field="--epsilon")
    base = eng.load_profile(path, variants=variants)
    names = [str(s) for s in eng.sides(base)]
    # two sides start from every named policy; with more, the full tensor of named policies
    # (5**6 profiles for a six-car derby) is out of reach, so each side starts from the file's
    # policy and best replies (which try every named policy) grow the population
    start = [FILE] + [Policy(p) for p in spaces] if len(names) == 2 else [FILE]
    symmetric, why = (eng.sides_interchangeable(base) if len(names) == 2
                      else (False, f"{len(names)} sides"))
    if symmetric and asymmetric:
        symmetric, why = False, "--asymmetric: " + why
    if symmetric:
        # the file's own policy is a different strategy in each seat (a derby duel's rammer
        # against its survivor), so one population starts from the named policies alone
        start = [Policy(p) for p in spaces]
    sides = [Side(nm, list(start), spaces) for nm in names]

    def play(profile, n, s, first=0):
        chosen = {side: p for side, p in zip(names, profile) if p != FILE}
        sc = eng.load_profile(path, chosen, variants=variants)
        frame = eng.frame(sc, n, s, **{**run_opts, "progress": False, "first": first}
                          ).set_index("side")
        return np.array([int(frame.loc[nm, "wins"]) for nm in names], np.int64)

    from ..core.runner import code_identity

    key = hashlib.sha256(json.dumps(
        [Path(path).read_text(), trials_budget, profile_trials, candidates, epsilon, seed,
         dict(variants or {}), symmetric, code_identity()]).encode()).hexdigest()
    scen_name = getattr(base, "name", Path(path).stem)
    return balance_game(sides, play, trials_budget=trials_budget, profile_trials=profile_trials,
                        candidates=candidates, epsilon=epsilon, seed=seed, run_dir=run_dir,
                        key=key, progress=progress, scenario=str(scen_name),
                        symmetric=symmetric, rotate=symmetric, method_note=why, extend=True)
