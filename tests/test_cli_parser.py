"""The ``simkit`` parser itself: built without numba (so ``--help`` answers at once), its help
text plain (no reST markup), and every option the README shows really there.

Nothing here runs an analysis or compiles a kernel.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from simkit import cli

ROOT = Path(__file__).resolve().parents[1]

#: modules a parser build or a --help must not import: the kernels' compiler, and the heavy
#: libraries the analyses use (each costs a large part of a second to import)
HEAVY = ("numba", "llvmlite", "pandas", "scipy", "matplotlib", "icepool", "tqdm", "dask")

_PROBE = r"""
import contextlib, io, json, sys
from simkit import cli
cli.build_parser()
for argv in ARGVS:
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
        try:
            cli.main(argv)
        except SystemExit:
            pass
print(json.dumps(sorted(sys.modules)))
"""


def _modules_after(argvs) -> list[str]:
    """The modules loaded by a fresh interpreter that builds the parser and runs ``argvs``."""
    code = _PROBE.replace("ARGVS", repr(argvs))
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                       env=env, timeout=120)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout.strip().splitlines()[-1])


def _imports_numba(module: str) -> bool:
    """A simkit module that imports numba itself (a kernel module, or one that loads kernels)."""
    path = ROOT / (module.replace(".", "/") + ".py")
    if not path.is_file():
        path = ROOT / module.replace(".", "/") / "__init__.py"
    text = path.read_text() if path.is_file() else ""
    return bool(re.search(r"^\s*(import numba|from numba|from [.\w]*_numba import)", text, re.M))


def test_building_the_parser_and_help_import_no_kernel():
    loaded = _modules_after([["--help"], ["weapons", "--help"], ["scenario", "--help"],
                             ["scenario", "run", "--help"], ["report", "--help"],
                             ["sensitivity", "--help"], ["weapons", "starfire", "--help"],
                             ["weapons", "dark-future", "--help"], ["builds", "demons-run", "--help"],
                             ["crash", "demo-derby", "--help"], ["scenario", "list"]])
    heavy = sorted(m for m in loaded if m.split(".")[0] in HEAVY)
    assert heavy == [], heavy
    simkit_modules = [m for m in loaded if m == "simkit" or m.startswith("simkit.")]
    assert "simkit.starfire.commands" in simkit_modules      # the probe did build every game
    kernels = [m for m in simkit_modules if _imports_numba(m)]
    assert kernels == [], kernels


def test_the_kernel_check_would_see_a_kernel_module():
    assert _imports_numba("simkit.core.runner") or _imports_numba("simkit.core.dice")
    assert _imports_numba("simkit.core._numba") or _imports_numba("simkit.core.dice")
    assert not _imports_numba("simkit.cli")


def test_choices_copied_beside_the_parser_match_the_kernels_own():
    """Option choices kept in the light command modules equal the compiled modules' tuples."""
    from simkit.dark_future import commands as DC
    from simkit.dark_future.procedures import shooting
    from simkit.demons_run import commands as RC
    from simkit.demons_run.procedures import tables as hazards
    from simkit.demons_run.reference import oracle

    assert DC.FACINGS == shooting.FACINGS and DC.MOUNTS == shooting.MOUNTS
    assert RC.HAZARD_NAMES == tuple(oracle.HAZARDS) and RC.TARGETS == hazards.TARGETS


# --- the parser tree --------------------------------------------------------------------------

def _walk(parser, path=()):
    """(path, parser) for every parser of the CLI, the root included."""
    yield path, parser
    for a in parser._actions:
        if isinstance(a, argparse._SubParsersAction):
            for name, sp in a.choices.items():
                yield from _walk(sp, path + (name,))


PARSER = cli.build_parser()
PARSERS = dict(_walk(PARSER))


def _help_texts(parser):
    yield parser.description or ""
    yield parser.epilog or ""
    for a in parser._actions:
        yield a.help or ""
        if isinstance(a, argparse._SubParsersAction):
            for c in a._choices_actions:
                yield c.help or ""
    for g in parser._action_groups:
        yield g.title or ""
        yield g.description or ""


@pytest.mark.parametrize("path", list(PARSERS), ids=lambda p: " ".join(("simkit",) + p))
def test_help_text_has_no_rest_backticks(path):
    parser = PARSERS[path]
    for text in list(_help_texts(parser)) + [parser.format_help()]:
        assert "`" not in text, (path, text)


# --- every option the README shows exists -------------------------------------------------------

README = (ROOT / "README.md").read_text()
_OPTION = re.compile(r"(?<![\w-])--[a-z][a-z0-9-]*")


def _leaf(tokens: list[str]):
    """The parser a ``simkit ...`` token list reaches, and the path to it."""
    parser, path = PARSER, ()
    for tok in tokens:
        subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if not subs or tok not in subs[0].choices:
            break
        parser, path = subs[0].choices[tok], path + (tok,)
    return parser, path


def _check(segment: str, where: str, problems: list[str], parser=None, path=()):
    """Every --option of ``segment`` (and every choice shown as a|b|c) is the parser's."""
    if parser is None:
        tokens = segment.split()
        tokens = tokens[tokens.index("simkit") + 1:]
        parser, path = _leaf(tokens)
        assert path, (where, segment)
    options = {s: a for a in parser._actions for s in a.option_strings}
    shown = " ".join(("simkit",) + path)
    for m in _OPTION.finditer(segment):
        opt = m[0]
        if opt not in options:
            problems.append(f"{where}: {shown} has no {opt}")
            continue
        action = options[opt]
        value = re.match(r"""\s+["']?([\w.,-]+(?:\|[\w.,-]+)+)""", segment[m.end():])
        if value and action.choices:
            bad = [v for v in value[1].split("|") if v not in action.choices]
            if bad:
                problems.append(f"{where}: {shown} {opt} does not take {', '.join(bad)}")


def _run_options_parser():
    from simkit.cliutil import add_run_options

    p = argparse.ArgumentParser(add_help=False)
    add_run_options(p)
    return p


def _readme_usage_block() -> list[str]:
    """The lines of the code block under "## Using it", continuation lines joined."""
    section = README.split("## Using it", 1)[1]
    block = section.split("```", 2)[1]
    lines: list[str] = []
    for raw in block.splitlines():
        if not raw.strip():
            continue
        if raw.startswith((" ", "\t")) and lines and not raw.strip().startswith(("#", "simkit")):
            lines[-1] += " " + raw.strip()
        elif raw.startswith("#") and raw.lstrip("# ").startswith("--") and lines:
            lines[-1] += " " + raw          # a comment continued on the next line
        else:
            lines.append(raw)
    return lines


def test_every_option_in_the_readme_usage_block_exists():
    problems: list[str] = []
    lines = _readme_usage_block()
    assert len(lines) > 10
    for line in lines:
        code, _, comment = line.partition("#")
        for segment in code.split(";"):
            if "simkit " in segment:
                _check(segment, "README usage", problems)
        if _OPTION.search(comment):   # "every long command also takes: --workers N ..."
            _check(comment, "README usage comment", problems, _run_options_parser(),
                   ("<run options>",))
    assert problems == []


def test_every_option_in_the_readme_prose_exists():
    """Inline code in the README's paragraphs: ``simkit CMD ...`` spans, and option spans such
    as ``--games a,b`` that follow one in the same paragraph (they belong to that command)."""
    problems: list[str] = []
    text = re.sub(r"```.*?```", "", README, flags=re.S)
    checked = 0
    for para in re.split(r"\n\s*\n", text):
        current = None
        for span in re.findall(r"`([^`]+)`", para):
            if re.match(r"\s*simkit [a-z]", span):
                parser, path = _leaf(span.split()[1:])
                current = (parser, path) if path else None
                if current:
                    _check(span, "README prose", problems, *current)
                    checked += 1
            elif _OPTION.match(span.strip()) and current:
                _check(span, "README prose", problems, *current)
                checked += 1
    assert checked >= 8       # the report and sensitivity paragraphs at least
    assert problems == []


def test_readme_check_catches_a_missing_option():
    problems: list[str] = []
    _check("simkit weapons starfire --no-such-option 3", "t", problems)
    _check("simkit weapons starfire --tractor none|towing", "t", problems)
    assert problems == ["t: simkit weapons starfire has no --no-such-option",
                        "t: simkit weapons starfire --tractor does not take towing"]


def test_run_flags_named_once():
    """RUN_FLAGS (what the report hands every analysis) is every flag add_run_options declares
    but the trial count, the seed and the variants: a flag added there reaches the report."""
    from simkit.cliutil import RUN_FLAGS, add_run_options

    p = argparse.ArgumentParser()
    add_run_options(p)
    assert sorted(RUN_FLAGS) == sorted(set(vars(p.parse_args([]))) - {"trials", "seed",
                                                                       "variant"})
    with pytest.raises(ValueError):
        add_run_options(argparse.ArgumentParser(), helps={"no_such_flag": "x"})
