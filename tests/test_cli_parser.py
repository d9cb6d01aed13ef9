"""The ``simkit`` parser itself: built without numba (so ``--help`` answers at once).

Nothing here runs an analysis or compiles a kernel.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

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
    from simkit.dark_future import commands as DC, shooting
    from simkit.demons_run import commands as RC, hazards, oracle

    assert DC.FACINGS == shooting.FACINGS and DC.MOUNTS == shooting.MOUNTS
    assert RC.HAZARD_NAMES == tuple(oracle.HAZARDS) and RC.TARGETS == hazards.TARGETS
