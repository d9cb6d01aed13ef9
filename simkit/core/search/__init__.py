"""Build search: which designs are strong, found by a genetic algorithm whose trials are spent
by successive halving on common random numbers, with finalists re-run on fresh seeds.

Shared by every "spend a budget" question (issue 4 section 5: Demon's Run 80-point ships;
issue 5 section 7: Dark Future cars on a budget). Game-agnostic: a game supplies a *design
space* (what a legal candidate is) and an *evaluator* (a compiled kernel that plays trials);
this package proposes candidates, spends trials, and returns a leaderboard with intervals.

The parts, by role: ``space`` (the design space), ``evaluate`` (evaluators and batched
evaluation), ``streams`` (the stream keys), ``propose`` (the genetic proposal), ``halving``
(successive halving), ``racing`` (``method="race"`` and the finals' paired gaps), ``driver``
(:func:`search`, the leaderboard, :func:`versus`), ``bench`` (:func:`efficiency`) and ``toy``
(:class:`ToyRace`). This package re-exports the API below.

Public API
==========

Candidates
----------
A candidate is a ``tuple`` of ``int`` (one per field of the space, e.g. the nine Function
Levels of a Demon's Run ship, or one catalogue index per Dark Future mount). Evaluators get a
batch of candidates as an ``int64`` array of shape ``(k, n_fields)``.

``DesignSpace`` (protocol; supplied by the game, or use :class:`IntBoxSpace`)
    ``columns: tuple[str, ...]``            names of the candidate fields (leaderboard columns)
    ``sample(rng) -> tuple``                a random LEGAL candidate (``rng``: numpy Generator)
    ``mutate(c, rng) -> tuple``             a legal neighbour of ``c``
    ``crossover(a, b, rng) -> tuple``       a legal child mixing ``a`` and ``b``
    ``describe(c) -> str``                  how a user writes it (``"fuel=210,si=14,..."``)
    ``is_legal(c) -> bool``                 (used on ``include=`` candidates and in tests)
    optional ``enumerate() -> list[tuple]`` every candidate (small spaces; :func:`efficiency`)

``IntBoxSpace(fields, budgets, *, legal=None, fill=True, describe=None)``
    Integer fields, each ``IntField(name, lo, hi, step=1, cost=...)``; its allowed values are
    ``lo, lo+step, ..., hi`` or an explicit ``values=(...)`` tuple (e.g. catalogue indices).
    ``cost`` is the price of a VALUE: an int is the price of every started ``step`` counted
    from 0 (``cost * ceil(value / step)``: ``cost=3`` PI at 3 points per Level; Fuel
    ``step=10, cost=1``; a field pinned with ``lo == hi`` pays for its value), a sequence
    aligned with the values, a callable ``value -> int``, or a dict ``{resource: any of
    those}`` when there are several budgets
    (Dark Future: ``{"dollars": ..., "weight": ...}``). ``budgets`` is ``{resource: limit}``
    (or one int for a single resource named ``"cost"``). ``legal(c) -> bool`` is an optional
    extra rule (turret combinations, links...). Sampling, mutation and crossover repair every
    child back inside the budgets (lowering random fields) and, with ``fill=True``, then raise
    random fields while any still fits, so candidates spend the budget ("maximal" builds).
    ``IntBoxSpace.cost(c) -> dict``; ``enumerate()`` lists every legal (maximal if ``fill``)
    candidate for small spaces; ``sample_focused(rng)`` is an archetype: the budget spent
    on a random subset of the fields (each kept with chance ``FOCUS_KEEP``), the others at
    their lowest value.

``Evaluator`` (protocol; supplied by the game)
    ``name: str``; ``n_stats: int``
    ``evaluate(candidates, first_trial, n_trials, key) -> int64 array (k, n_stats)``
        integer statistics summed over trials ``first_trial .. first_trial+n_trials-1`` for
        every candidate (counts, integer sums and sums of squares: never floats, so results
        are bit-identical for any thread count and chunking). ``key`` is a ``np.uint64``
        stream key: trial ``t`` of EVERY candidate must draw from
        ``dice.seed_trial(st, key, t)`` (common random numbers: candidates are compared on
        identical races; never mix the candidate index into the stream).
    ``summarise(totals_row, n_trials) -> dict[str, float]``  figures with 95% intervals
    ``score(totals, n_trials) -> float array (k,)``           what the search maximises
    optional ``trial_scores(candidates, first_trial, n_trials, key) -> int64 (k, n_trials)``
        the objective's value in every single trial (same streams as ``evaluate``; its mean
        times optional ``trial_scale`` (default 1) is ``score``). With it the leaderboard
        gains ``gap, gap_lo, gap_hi``: the leader's score minus each row's, with a PAIRED
        95% interval over the finals' common trials (DESIGN.md: comparisons use common
        random numbers; report paired intervals for differences).

``StatEvaluator`` (base class implementing ``summarise`` and ``score``)
    Subclass it, set ``name``, ``stats`` and ``objective``, implement ``evaluate``::

        class RaceEvaluator(StatEvaluator):
            name = "demons-run race"
            stats = (Rate("win", 0), Mean("vp", 1, 2), Rate("destroyed", 3))
            objective = "win_rate"            # or "mean_vp"
            def evaluate(self, candidates, first_trial, n_trials, key): ...

    ``Rate(name, column)`` gives ``<name>_rate, <name>_lo, <name>_hi`` (Wilson interval,
    ``stats.rate_ci``); ``Mean(name, sum_column, sq_column, scale=1.0)`` gives
    ``mean_<name>, <name>_lo, <name>_hi`` (t interval, ``stats.mean_ci``; ``scale`` turns
    integer units such as half-points into the reported unit). ``n_stats`` is derived.

Search
------
``search(space, evaluator, *, trials_budget, seed=0, population=32, generations=None,
min_trials=100, eta=3, max_trials=None, finalists=10, final_trials=None, include=(),
seeds=(), breed_include=True, progress=None, threads=None, chunk_size=None, **run_opts)
-> pandas.DataFrame``

    * proposals: a small genetic algorithm (tournament selection among the current leaders,
      crossover, mutation; every proposal new, legal by construction); ``population`` new
      candidates per generation; ``include`` = candidates always raced (a user's own build).
    * racing: successive halving on common random numbers (asynchronous, ASHA-style). Rung
      ``r`` = racing trials ``0 .. min_trials*eta**r - 1`` of the racing stream; a candidate
      is promoted to rung ``r+1`` while it is in the top ``1/eta`` of all candidates that
      reached rung ``r``, compared on exactly the same trials. Rungs stop at ``max_trials``.
      When the space runs dry (every candidate raced, nobody left to promote), every rung
      promotes ``2/eta`` instead once (a second look for candidates one unlucky rung
      dropped); after that the racing stops and the finals get the rest of the budget.
    * racing stops when its share of ``trials_budget`` (candidate-trials, racing AND
      finals) is spent, after ``generations``, or when the space has run dry (above).
    * finals: the ``finalists`` best (deepest rung, then score) are re-run for
      ``final_trials`` trials each on a FRESH stream (a key independent of the racing key;
      trial ``t`` the same for every finalist), and the leaderboard reports those figures.
      Unset, ``final_trials`` is whatever the racing left of the budget shared out equally
      (at least 20% of the budget is kept for it).
    * ``method="race"`` (``keep=3``, ``polish=True``; the default when the evaluator sets
      ``search_method = "race"``; needs ``trial_scores``): the pool is the whole space when
      it has at most ``ENUMERATE_POOL`` candidates, else the best the GA with successive
      halving finds with ``EXPLORE`` (half) of the racing budget, from several starts:
      ``starts`` (``STARTS``, 4; fewer when ``population`` gives an island under
      ``ISLAND_POP`` 6 newcomers a generation) islands share half of it, each its own
      generator, island 0 bred from ``include`` and uniform samples, the others from
      archetypes (``space.sample_focused``), newcomers screened on a third of
      ``min_trials``; then a GA started from every island's best spends the other half.
      ``breed_include=False``: the ``include`` builds are raced (the elimination's pool and
      the finals) but bred from by no island nor the merged GA (the metagame's wide step:
      islands bred from the field's answer ended beside it). ``seeds`` (candidates an
      earlier search found, e.g. the metagame's archive) join
      the merged GA's first generation and the elimination's pool (finalists only if they
      race there among the best). Every island's and the merged GA's best are finalists
      (``attrs["start_best"]``); the pool is raced by successive elimination on paired
      per-trial values (every round the same further trials for all still in play;
      dropped when each of the top ``keep`` beats it beyond a one-sided paired interval of
      z ``RACE_Z``, accepted when it beats every outsider so); the finalists
      (the racing's best ``finalists`` plus ``include``) are then re-run on the finals'
      fresh stream (an eighth of the budget) and ranked by it (those the racing showed
      surely in its top ``keep`` stay above the rest), and the finals' leader is
      polished: its one-move neighbours (``space.neighbours``) raced against it on a fresh
      stream per round (half of what the GA leaves of the racing budget; a round leaves one
      look at every neighbour for the next), moving while one is better beyond the interval
      (``attrs["local_optimum"]``: True, or None when the budget could not start a round;
      ``attrs["polish"]``). A leader the polish moves to is raced on the finals' trials and
      ranked first; ``gap`` = paired to rank 1.
    * deterministic given ``seed``: the same leaderboard, bit for bit, for any thread count
      and any ``chunk_size`` (candidate-trials per ``evaluate`` call; it only cuts work).
    * ``**run_opts`` are the CLI run flags (``cliutil.run_options(args)``); ``threads`` and
      ``progress`` are used, unknown flags left at ``None`` are ignored.

    Returns the leaderboard, one row per finalist, best first: ``rank``, the space's
    ``columns``, ``build`` (``space.describe``), the evaluator's figures (with
    ``StatEvaluator`` e.g. ``win_rate, win_lo, win_hi, mean_vp, vp_lo, vp_hi,
    destroyed_rate, destroyed_lo, destroyed_hi``), ``trials`` (final trials, fresh seeds),
    ``search_trials`` and ``search_score`` (racing trials and score on the racing stream),
    ``included`` (True for ``include=`` rows, which are always in the finals).
    ``board.attrs`` (plain data only: pandas compares attrs when it concatenates or groups
    frames, and a DataFrame there makes that raise): ``"progress"`` (a dict of lists, one
    entry per generation: ``generation, trials_used, candidates, best_score, best_build,
    best_trials, best_lo, best_hi``; ``progress_frame(board)`` gives it as a DataFrame),
    ``"seed"``, ``"racing_key"``, ``"final_key"``, ``"trials_used"``, ``"trials_budget"``,
    ``"objective"``, ``"candidates"`` (how many were raced), ``"rungs"``; with
    ``method="race"`` in a big space also ``"starts"`` and ``"start_best"``.

    ``"columns"``: the columns to print (``cliutil.emit(board, args, columns=...)``).

``progress_frame(board) -> DataFrame``   the search's progress, one row per generation.

The command-line flags every ``simkit builds GAME`` search shares (``--trials-budget``,
``--population``, ...) and the matching keyword arguments for :func:`search` are
``simkit.cliutil.add_search_options`` / ``search_options`` (core builds no parser)::

    board = search(space, ev, seed=args.seed, **cliutil.search_options(args),
                   **cliutil.run_options(args))

``versus(space, evaluator_against, opponent, **search_kwargs) -> DataFrame``
    The strongest answer to a given build: ``evaluator_against(opponent)`` must return an
    evaluator racing each candidate against the fixed ``opponent`` (the game writes that
    kernel); this runs :func:`search` on it, includes the mirror match (``opponent`` itself,
    when legal in ``space``) as a reference row, and sets ``board.attrs["versus"]``.

The leaderboard's figure is ``simkit.plots.plot_leaderboard(board, path)`` (core draws
nothing).

``efficiency(space, evaluator, *, budgets, top=5, truth_trials=..., repeats=3, seed=0,
truth=None, success=1.0, progress=False, **search_kwargs) -> DataFrame``
    On a small space whose every candidate can be evaluated (``space.enumerate()``), the
    ground truth is every candidate evaluated with ``truth_trials`` trials on its own stream
    (or ``truth``: exact scores aligned with ``enumerate()``). For each trials budget, rows
    for ``method="search"`` (this module) and ``method="exhaustive"`` (every candidate given
    budget//len(space) trials, ranked by that): ``method, trials_budget, repeat,
    trials_used, top_recall`` (share of the true top ``top`` in the method's top ``top``),
    ``found_all`` (bool), ``best_found`` (true best is ranked first). ``attrs["summary"]``:
    ``{method: smallest budget from which on (at it and every larger budget tried) a share
    ``success`` of the repeats found the whole true top, or None}``, ``attrs["success"]``;
    ``attrs["true_top"]`` (their descriptions), ``attrs["truth_scores"]``.

Helpers
-------
``evaluate_batch(evaluator, candidates, first, n, key, chunk_size=100_000, bar=None)``
    ``evaluate`` over many candidates, cut into calls of ~``chunk_size`` candidate-trials.
``ToyRace(table, need=2)`` and ``toy_table(n_fields, levels, seed=, rough=)``
    a synthetic evaluator whose exact answer is known (``ToyRace.exact(candidates)``); it is
    also the model of a game evaluator: ``prange`` over (candidate, block of trials) pairs,
    ``dice.seed_trial(st, key, t)`` per trial whatever the candidate, per-block sums kept in
    local variables and stored once (threads writing neighbouring rows of one array every
    trial share cache lines: 10x slower on two threads), merged in a fixed order.
    In a whole race, a candidate's different choices shift every later roll of a single
    stream, and the common random numbers drift apart; giving each independent source of
    chance its own stream (e.g. one dice state per ship or per hazard, seeded from ``key``
    mixed with the source's number) keeps the races comparable for longer.
"""

# stream_key, _derived_key and _TRUTH_SALT are re-exported for the tests that check which
# stream a search or efficiency() used
from ..dice import stream_key
from .bench import efficiency
from .driver import progress_frame, search, versus
from .evaluate import DEFAULT_CHUNK, Evaluator, Mean, Rate, StatEvaluator, evaluate_batch
from .racing import ENUMERATE_POOL, RACE_Z, STARTS
from .space import Candidate, DesignSpace, IntBoxSpace, IntField
from .streams import _TRUTH_SALT, _derived_key
from .toy import ToyRace, toy_table

__all__ = ["DesignSpace", "IntField", "IntBoxSpace", "Evaluator", "Rate", "Mean",
           "StatEvaluator", "search", "progress_frame", "versus", "efficiency",
           "evaluate_batch", "ToyRace", "toy_table", "Candidate", "DEFAULT_CHUNK",
           "ENUMERATE_POOL", "RACE_Z", "STARTS", "stream_key", "_TRUTH_SALT", "_derived_key"]
