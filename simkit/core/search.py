"""Build search: which designs are strong, found by a genetic algorithm whose trials are spent
by successive halving on common random numbers, with finalists re-run on fresh seeds.

Shared by every "spend a budget" question (issue 4 section 5: Demon's Run 80-point ships;
issue 5 section 7: Dark Future cars on a budget). Game-agnostic: a game supplies a *design
space* (what a legal candidate is) and an *evaluator* (a compiled kernel that plays trials);
this module proposes candidates, spends trials, and returns a leaderboard with intervals.

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
    ``cost`` is the price of a VALUE: an int per step above ``lo`` (``cost=3``: PI at 3 points
    per Level; Fuel ``step=10, cost=1``), a sequence aligned with the values, a callable
    ``value -> int``, or a dict ``{resource: any of those}`` when there are several budgets
    (Dark Future: ``{"dollars": ..., "weight": ...}``). ``budgets`` is ``{resource: limit}``
    (or one int for a single resource named ``"cost"``). ``legal(c) -> bool`` is an optional
    extra rule (turret combinations, links...). Sampling, mutation and crossover repair every
    child back inside the budgets (lowering random fields) and, with ``fill=True``, then raise
    random fields while any still fits, so candidates spend the budget ("maximal" builds).
    ``IntBoxSpace.cost(c) -> dict``; ``enumerate()`` lists every legal (maximal if ``fill``)
    candidate for small spaces.

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
progress=None, threads=None, chunk_size=None, **run_opts) -> pandas.DataFrame``

    * proposals: a small genetic algorithm (tournament selection among the current leaders,
      crossover, mutation; every proposal new, legal by construction); ``population`` new
      candidates per generation; ``include`` = candidates always raced (a user's own build).
    * racing: successive halving on common random numbers (asynchronous, ASHA-style). Rung
      ``r`` = racing trials ``0 .. min_trials*eta**r - 1`` of the racing stream; a candidate
      is promoted to rung ``r+1`` while it is in the top ``1/eta`` of all candidates that
      reached rung ``r``, compared on exactly the same trials. Rungs stop at ``max_trials``.
    * stops when ``trials_budget`` (candidate-trials, racing AND finals) is spent, after
      ``generations``, or when the space is exhausted and nothing is left to promote.
    * finals: the ``finalists`` best (deepest rung, then score) are re-run for
      ``final_trials`` trials each (default: 20% of the budget shared out) on a FRESH stream
      (a key independent of the racing key), and the leaderboard reports those figures.
    * deterministic given ``seed``: the same leaderboard, bit for bit, for any thread count
      and any ``chunk_size`` (candidate-trials per ``evaluate`` call; it only cuts work).
    * ``**run_opts`` are the CLI run flags (``cliutil.run_options(args)``); ``threads`` and
      ``progress`` are used, unknown flags left at ``None`` are ignored.

    Returns the leaderboard, one row per finalist, best first: ``rank``, the space's
    ``columns``, ``build`` (``space.describe``), the evaluator's figures (with
    ``StatEvaluator`` e.g. ``win_rate, win_lo, win_hi, mean_vp, vp_lo, vp_hi,
    destroyed_rate, destroyed_lo, destroyed_hi``), ``trials`` (final trials, fresh seeds),
    ``search_trials`` and ``search_score`` (racing trials and score on the racing stream).
    ``board.attrs``: ``"progress"`` (a DataFrame, one row per generation: ``generation,
    trials_used, candidates, best_score, best_build, best_trials``), ``"seed"``,
    ``"racing_key"``, ``"final_key"``, ``"trials_used"``, ``"objective"``, ``"candidates"``.

``versus(space, evaluator_against, opponent, **search_kwargs) -> DataFrame``
    The strongest answer to a given build: ``evaluator_against(opponent)`` must return an
    evaluator racing each candidate against the fixed ``opponent`` (the game writes that
    kernel); this runs :func:`search` on it, includes the mirror match (``opponent`` itself,
    when legal in ``space``) as a reference row, and sets ``board.attrs["versus"]``.

``plot_leaderboard(board, path, *, figure=None) -> Path``
    Left: the leaderboard's objective with 95% interval bars per build; right: the search's
    best-so-far score against trials spent (``board.attrs["progress"]``).

``efficiency(space, evaluator, *, budgets, top=5, truth_trials=..., repeats=3, seed=0,
truth=None, **search_kwargs) -> DataFrame``
    On a small space whose every candidate can be evaluated (``space.enumerate()``), the
    ground truth is every candidate evaluated with ``truth_trials`` trials on its own stream
    (or ``truth``: exact scores aligned with ``enumerate()``). For each trials budget, rows
    for ``method="search"`` (this module) and ``method="exhaustive"`` (every candidate given
    budget/len(space) trials, same rules for finals): ``method, trials_budget, repeat,
    trials_used, top_recall`` (share of the true top ``top`` in the method's top ``top``),
    ``found_all`` (bool), ``best_found`` (true best is ranked first). ``attrs["summary"]``:
    per method the smallest budget at which every repeat found the whole true top.
"""
