"""Bad input never crashes, through the command line (issue 7, section 5).

``simkit.cli.main([...])`` gets random argument lists built from the real parser: for every
``simkit COMMAND GAME`` (found by walking ``simkit.cli.build_parser()``, so a new command or
game is fuzzed without editing this file) a random subset of its real options, each with a
value that is plausible (its choices, small numbers, real files, ranges), borderline (0, -1,
huge, empty) or garbage (text for a number, a folder for a file, a mutated scenario). The
property: exit status 0, or exit status 2 with exactly one line on stderr and no traceback.

Every run is kept small: ``--trials`` is always given (a few trials, or a bad value), so a
valid combination finishes in well under a second once the kernels are compiled.

Every test here runs in its own temporary working folder: a generic value such as ``a=b``
given to an option that names a folder or file (``--run-dir``, the report's ``--out``) is a
relative path, and a valid one is written there, never into the checkout.
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import io
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simkit import cli
from test_fuzz_loaders import ROOT, mutated_documents, toml_dumps, _docs, _keys

# SIMKIT_FUZZ_EXAMPLES=500 explores further (and randomly) by hand; CI stays deterministic.
_EXPLORE = int(os.environ.get("SIMKIT_FUZZ_EXAMPLES", "0"))
CLI_FUZZ = settings(max_examples=_EXPLORE or 12, derandomize=not _EXPLORE, deadline=None,
                    database=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                           HealthCheck.data_too_large])

# Options whose values are capped because a legal but large value is a long computation, not
# bad input (e.g. the exact Critical Hit chains at Demon's Run SI 29 take tens of seconds).
CAPS = {"--si": 12, "--drift": 3, "--cars": 6, "--volley": 4}


@dataclass(frozen=True)
class Option:
    flags: tuple[str, ...]
    kind: str              # "flag", "int", "choice", "append", "str", "positional"
    choices: tuple = ()
    dest: str = ""


def _commands(parser=None, path=()):
    """(argv prefix, [Option]) for every runnable leaf of the CLI."""
    parser = parser or cli.build_parser()
    subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    if subs:
        out = []
        for name, sp in subs[0].choices.items():
            out += _commands(sp, path + (name,))
        return out
    opts = []
    for a in parser._actions:
        if isinstance(a, argparse._HelpAction):
            continue
        if not a.option_strings:
            kind = "positional"
        elif isinstance(a, (argparse._StoreTrueAction, argparse._StoreFalseAction)):
            kind = "flag"
        elif a.choices:
            kind = "choice"
        elif a.type is int:
            kind = "int"
        elif isinstance(a, argparse._AppendAction):
            kind = "append"
        else:
            kind = "str"
        opts.append(Option(tuple(a.option_strings), kind, tuple(a.choices or ()), a.dest))
    return [(path, opts)]


COMMANDS = _commands()


@pytest.fixture(autouse=True)
def _in_a_temporary_folder(tmp_path, monkeypatch):
    """Relative paths the fuzzer hands to the CLI land in ``tmp_path``, not in the repo."""
    monkeypatch.chdir(tmp_path)

# Values that look like what each string option takes, from the real files and the docs.
_WORKDIR = Path(tempfile.mkdtemp(prefix="simkit-cli-fuzz-"))
atexit.register(shutil.rmtree, _WORKDIR, ignore_errors=True)  # not left behind in /tmp
_SCENARIOS = sorted(ROOT.glob("scenarios/*/*.toml"))
_FILES = {
    "scenario": [str(p) for p in _SCENARIOS],
    "board": [str(ROOT / "simkit/demons_run/data/board.toml")],
    "arena": [str(ROOT / "simkit/demo_derby/data/arena.toml")],
    "build": [str(ROOT / "tests/fixtures/fuzz/demons-run-build.toml"),
              "fuel=210,si=14,pi=3,me=6,mn=6,tractor=10,screens=4,laser=10,scrambler=0",
              "si=12,screens=4", "si=99", "fuel=7", "banana", "si=1,si=2"],
    "car": [str(p) for p in sorted(ROOT.glob("tests/fixtures/fuzz/dark-future-*.toml"))]
    + ["renegade: hood=gl40, wings=lw_mg, passive=mines", "bike: fairings=lw_mg", "tank: hood=mg",
       "renegade: hood=mg+mg", "renegade: skill=x"],
}
_RANGES = ["0-20", "1-6", "3", "1,3,5-7", "5-1", "0-99999", "-1", "x", "", "1,,2", " 2 - 4 "]
_GENERIC = ["", "x", "-1", "0", "1.5", "nan", "9" * 25, "a=b", "--", "\u00e9\u2603", "none",
            "all", "N", "1-6"]


def _path_values(kind):
    """Real files, mutated copies, missing files, folders, files of the wrong kind."""
    base = _FILES.get(kind, [])
    docs = _docs([Path(p) for p in base if p.endswith(".toml")])
    words = sorted(set().union(set(), *(_keys(d) for d in docs)))
    out = [st.sampled_from(base)] if base else []
    if docs:
        @st.composite
        def mutated(draw):
            doc = draw(mutated_documents(docs, words))
            p = _WORKDIR / f"m{draw(st.integers(0, 9))}.toml"
            p.write_text(toml_dumps(doc), encoding="utf-8")
            return str(p)
        out.append(mutated())
    out.append(st.sampled_from([str(_WORKDIR / "missing.toml"), str(_WORKDIR), str(ROOT / "README.md"),
                                str(ROOT / "pyproject.toml")]))
    return st.one_of(out)


def _out_values(suffixes):
    d = _WORKDIR / "out"
    d.mkdir(exist_ok=True)
    (d / "taken.csv").mkdir(exist_ok=True)          # a folder where a file would go
    (d / "file").write_text("x")                     # a file where a folder would go
    return st.sampled_from([str(d / f"t{s}") for s in suffixes]
                           + [str(d / "taken.csv"), str(d / "file" / "t.csv"), str(d / "t.txt"),
                              str(d / "sub" / "t.csv"), ""])


def _variant_values(game):
    words = ["x=y", "noequals", "=", "a=", "=b"]
    try:
        from simkit import games
        rules = games.get(game).rules()
        for v in rules.variants.values():
            words += [f"{v.name}={c}" for c in v.choices] + [f"{v.name}=bogus"]
    except Exception:   # not a game (e.g. "scenario run"): generic values only
        pass
    return st.sampled_from(words)


def _value(opt: Option, path):
    name = opt.flags[0] if opt.flags else opt.dest
    game = path[1] if len(path) > 1 else ""
    if opt.choices:
        return st.one_of(st.sampled_from([str(c) for c in opt.choices]), st.sampled_from(_GENERIC))
    if name == "--trials":
        return st.sampled_from(["1", "3", "17", "0", "-5", "x", "1e3", "2.5"])
    if name == "--threads":
        return st.sampled_from(["1", "2", "0", "-1", "999", "x"])
    # Scale-out options are fuzzed only with values that must be refused: a legal --workers
    # starts a real Dask cluster (tests/test_core_scale.py covers those), and a reachable-looking
    # --cluster address waits for Dask's connect timeout.
    if name == "--workers":
        return st.sampled_from(["0", "-1", "x", "", "1.5"])
    if name == "--cluster":
        return st.sampled_from(["", "x", "tcp://", "not a url"])
    if opt.kind == "int":
        cap = CAPS.get(name, 40)
        return st.one_of(st.integers(-3, cap).map(str),
                         st.sampled_from(["x", "", "1.5", str(2**64), "-" + str(2**63)]))
    if name == "--variant":
        return _variant_values(game)
    if name in ("--out",):
        return _out_values([".csv", ".parquet"])
    if name in ("--plot",):
        return _out_values([".png"])
    if name == "--log":
        return _out_values([".log"])
    if name in ("--ranges", "--range", "--control", "--excess", "--adverse", "--speed-factors",
                "--speeds", "--tractor", "--cruise"):
        return st.sampled_from(_RANGES)
    if opt.dest == "file" or name == "--file":
        return _path_values("scenario" if path[0] == "scenario" else "board")
    if name == "--board":
        return _path_values("board")
    if name == "--arena":
        return _path_values("arena")
    if name in ("--build", "--check") and game == "demons-run":
        return _path_values("build")
    if name in ("--check", "--target-build"):
        return _path_values("car")
    if name == "--policy":
        return st.sampled_from(["terran=closer", "red=standoff", "x=y", "blue", "=", "a=b=c"])
    if name == "--target" and game == "starfire":
        return st.sampled_from(["wisconsin", "bradley", "S S A H R L I I", "SSAHRLII", "Q Q",
                                "(M1) S", "", "S S A I (3)"])
    return st.sampled_from(_GENERIC)


@st.composite
def argv_for(draw, path, opts):
    argv = list(path)
    tail = []
    for opt in opts:
        if opt.kind == "positional":
            argv.append(draw(_value(opt, path)))
            continue
        flag = opt.flags[0]
        forced = flag == "--trials"            # never a default of a million trials
        if not forced and not draw(st.integers(0, 2)) == 0:
            continue
        if opt.kind == "flag":
            tail.append(flag)
        else:
            tail += [flag, draw(_value(opt, path))]
        if opt.kind == "append" and draw(st.booleans()):
            tail += [flag, draw(_value(opt, path))]
    return argv + tail


def _run(argv):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = cli.main(argv)
    return rc, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("path,opts", COMMANDS, ids=[" ".join(p) for p, _ in COMMANDS])
def test_cli_survives_random_arguments(path, opts):
    @CLI_FUZZ
    @given(argv=argv_for(path, opts))
    def fuzz(argv):
        rc, out, err = _run(argv)
        assert rc in (0, 2), (argv, rc, err)
        assert "Traceback" not in err + out, (argv, err)
        if rc == 2:
            # a table written before a later option failed says so ("wrote FILE"), and a run
            # slow enough (a cold compile) shows a progress bar that it then clears with "\r";
            # besides those, the error is exactly one line
            shown = [x.rsplit("\r", 1)[-1].strip() for x in err.split("\n")]
            lines = [x for x in shown if x and not x.startswith("wrote ")]
            assert len(lines) == 1 and lines[0].startswith("simkit: error: "), (argv, err)

    fuzz()


@pytest.mark.parametrize("argv", [
    [], ["nope"], ["weapons"], ["weapons", "nope"], ["weapons", "starfire", "--bogus"],
    ["weapons", "starfire", "--trials"], ["scenario"], ["scenario", "run"],
    ["variants", "nope"], ["tables"], ["weapons", "starfire", "--trials", "5", "extra"],
], ids=repr)
def test_cli_structural_mistakes_exit_2_with_one_line(argv):
    rc, out, err = _run(argv)
    assert rc == 2
    if err:   # a bare `simkit` prints the help to stdout, nothing to stderr
        assert len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_every_command_is_fuzzed():
    """The walk finds every game's commands, so a new one cannot be missed."""
    from simkit import games

    found = {p[1] for p, _ in COMMANDS if len(p) == 2 and p[0] not in ("variants", "tables")}
    for g in games.all_games():
        if g.commands:
            assert g.name in found, g.name
    assert ("scenario", "run") in [p for p, _ in COMMANDS]
