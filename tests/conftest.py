"""Suite wiring for pytest-xdist: the README and .ci/run use ``-n auto --dist loadgroup``.

Compiling the numba kernels is most of a cold run's time. Each game's test files are kept on one
worker (an ``xdist_group`` per game), so a game's kernels are compiled once, by one process,
while the other workers (one per core) compile other games'; the remaining files are shared out
freely. Without xdist the marks do nothing.

The report's tests build the whole report, which compiles every game's kernels in its own
processes. They are collected last, so the scheduler hands them out after every game's group:
by then the games' kernels are in the shared on-disk cache and the report loads them instead of
compiling them a second time.
"""

import pytest

_GAMES = ("starfire", "dark_future", "demo_derby", "demons_run")


@pytest.hookimpl(tryfirst=True)  # before xdist reads the marks to build its groups
def pytest_collection_modifyitems(config, items):
    for item in items:
        name = item.path.name
        game = next((g for g in _GAMES if name.startswith(f"test_{g}")), None)
        if game is not None:
            item.add_marker(pytest.mark.xdist_group(game))
    last = [it for it in items if it.get_closest_marker("xdist_group") is not None
            and it.get_closest_marker("xdist_group").args[:1] == ("report",)]
    if last:
        keep = [it for it in items if it not in last]
        items[:] = keep + last
