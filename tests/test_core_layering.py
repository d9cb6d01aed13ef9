"""The layering of issue 18: ``simkit.core`` and ``simkit.analysis`` are a library. They draw
no figures (matplotlib lives in ``simkit.plots``), build no command line (argparse and the
flags live in ``simkit.cli`` / ``simkit.cliutil``) and name no game (games register
themselves in ``simkit.games``). Checked on the source with ``ast``, so an import inside a
function, or a relative one (``from ..cliutil import``, ``from .. import plots``), counts too.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import simkit

ROOT = Path(simkit.__file__).parent
LAYERS = ("core", "analysis")
FORBIDDEN = ("matplotlib", "argparse", "simkit.cliutil", "simkit.plots", "simkit.cli",
             "simkit.starfire", "simkit.dark_future", "simkit.demons_run", "simkit.demo_derby")


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(tree: ast.AST, module: str, is_package: bool) -> set[str]:
    """Every absolute module name the source may import: for ``from X import a`` both ``X``
    and ``X.a`` (``a`` may be a submodule, as in ``from .. import plots``)."""
    package = module if is_package else module.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)]
                base = ".".join(base + ([node.module] if node.module else []))
            else:
                base = node.module
            out.add(base)
            out.update(f"{base}.{a.name}" for a in node.names)
    return out


def forbidden(names: set[str]) -> list[str]:
    """The entries of FORBIDDEN that ``names`` reach."""
    return sorted({f for n in names for f in FORBIDDEN if n == f or n.startswith(f + ".")})


def modules():
    for layer in LAYERS:
        yield from sorted((ROOT / layer).rglob("*.py"))


def test_the_check_sees_every_layer_and_the_search_parts():
    names = {module_name(p) for p in modules()}
    assert {"simkit.core", "simkit.analysis", "simkit.core.search",
            "simkit.core.search.driver", "simkit.analysis.balance"} <= names


@pytest.mark.parametrize("source, module, is_package, bad", [
    ("from ..cliutil import emit", "simkit.core.runner", False, ["simkit.cliutil"]),
    ("from ...cliutil import emit", "simkit.core.search.driver", False, ["simkit.cliutil"]),
    ("from .. import plots", "simkit.analysis.balance", False, ["simkit.plots"]),
    ("from ... import plots", "simkit.core.search.driver", False, ["simkit.plots"]),
    ("from ... import starfire", "simkit.core.search", True, ["simkit.starfire"]),
    ("def f():\n    import matplotlib.pyplot as plt", "simkit.core.stats", False,
     ["matplotlib"]),
    ("import argparse", "simkit.core", True, ["argparse"]),
    ("from .. import games, cliutil", "simkit.analysis.sensitivity", False, ["simkit.cliutil"]),
    ("from ..dice import stream_key", "simkit.core.search.driver", False, []),
    ("from .. import games", "simkit.analysis.weapons", False, []),
])
def test_the_check_resolves_relative_imports(source, module, is_package, bad):
    assert forbidden(imported(ast.parse(source), module, is_package)) == bad


@pytest.mark.parametrize("path", list(modules()), ids=lambda p: str(p.relative_to(ROOT)))
def test_core_and_analysis_import_no_cli_plot_or_game(path):
    tree = ast.parse(path.read_text(), filename=str(path))
    bad = forbidden(imported(tree, module_name(path), path.name == "__init__.py"))
    assert not bad, f"{path.relative_to(ROOT.parent)} imports {bad}"
