"""Every game's headline analyses (GAME.headline): library calls the report makes, each
reproducible by the `simkit` line it names. The report test runs them all; here, cheaply,
that each names a real command with real options and that its quick options are ones its
library call accepts."""

from __future__ import annotations

import inspect
import shlex

import pytest

from simkit import cli, games


def _all():
    return [(g.name, a) for g in games.all_games() for a in g.headline]


def test_every_game_has_headline_analyses():
    for g in games.all_games():
        names = [a.name for a in g.headline]
        assert names and len(set(names)) == len(names), g.name


@pytest.mark.parametrize("game,a", _all(), ids=lambda x: getattr(x, "name", x))
def test_the_command_a_headline_analysis_names_parses(game, a):
    argv = shlex.split(a.command)
    assert argv[0] == "simkit" and argv[2] == game
    if a.trials is not None:   # the command's default is the analysis's
        dest = a.trials_option.lstrip("-").replace("-", "_")
        assert getattr(cli.build_parser().parse_args(argv[1:]), dest) == a.trials
    for k, v in a.quick.items():
        argv += [a.trials_option if k == "trials" else "--" + k.replace("_", "-"), str(v)]
    if a.trials is not None and "trials" not in a.quick:
        argv += [a.trials_option, "10", "--seed", "3"]
    ns = cli.build_parser().parse_args(argv[1:])   # exits (a failure) on an unknown option
    if a.trials is not None:
        dest = a.trials_option.lstrip("-").replace("-", "_")
        assert getattr(ns, dest) == int(a.quick.get("trials", 10))


@pytest.mark.parametrize("game,a", _all(), ids=lambda x: getattr(x, "name", x))
def test_quick_options_are_the_library_call_s_own(game, a):
    params = inspect.signature(a.run).parameters
    for k in a.quick:
        assert k in params, (game, a.name, k)
    if a.trials is not None:
        assert params["trials"].default == a.trials and "seed" in params
