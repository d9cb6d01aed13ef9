"""The coverage tables (docs/rules/<game>.md) name real code and real tests.

Each row says where a rule section is implemented and which test shows it; a module renamed or
a test removed must not leave the row pointing at nothing. Checked: every backticked
``module.name`` whose module is one of the game's modules names something that module has;
no row still uses a module name the game no longer has; every backticked ``test_...`` is a
test function under tests/."""

import importlib
import pkgutil
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GAMES = {"starfire": "starfire", "dark-future": "dark_future", "demons-run": "demons_run",
         "demo-derby": "demo_derby"}
REF = re.compile(r"`([a-z_]+(?:\.[a-z_]+)*)\.([A-Za-z_][A-Za-z0-9_]*)(?:\(\))?`")
#: module names the games had before their rooms (issue 18): a row using one is out of date
FORMER = {"battle", "battles", "fire", "weapons", "hexmap", "sheet", "race", "races", "pilots",
          "kernels", "hazards", "oracle", "turn", "board", "geometry", "los", "markers",
          "movement", "layout", "games", "road", "vehicle", "design", "budget", "shooting",
          "derby", "crash", "arena"}


def _modules(pkg):
    found = set()
    base = importlib.import_module(f"simkit.{pkg}")
    for info in pkgutil.walk_packages(base.__path__, prefix=""):
        found.add(info.name)
    return found


def _test_names():
    names = set()
    for path in (ROOT / "tests").glob("test_*.py"):
        names.update(re.findall(r"^(?:async )?def (test_\w+)", path.read_text(), re.M))
    return names


@pytest.mark.parametrize("doc, pkg", sorted(GAMES.items()))
def test_module_references_resolve(doc, pkg):
    text = (ROOT / "docs" / "rules" / f"{doc}.md").read_text()
    modules = _modules(pkg)
    missing, former = set(), set()
    for m in REF.finditer(text):
        mod, attr = m.group(1), m.group(2)
        if attr in ("py", "toml", "md"):
            continue   # a file name, not an attribute
        if mod in modules:
            if not hasattr(importlib.import_module(f"simkit.{pkg}.{mod}"), attr):
                missing.add(f"{mod}.{attr}")
        elif mod.split(".")[0] in FORMER:
            former.add(f"{mod}.{attr}")
    assert not missing, f"docs/rules/{doc}.md names what its module lacks: {sorted(missing)}"
    assert not former, f"docs/rules/{doc}.md uses old module names: {sorted(former)}"


@pytest.mark.parametrize("doc", sorted(GAMES))
def test_named_tests_exist(doc):
    text = (ROOT / "docs" / "rules" / f"{doc}.md").read_text()
    named = set(re.findall(r"`(test_\w+)`", text))
    missing = named - _test_names()
    assert not missing, f"docs/rules/{doc}.md names tests that do not exist: {sorted(missing)}"
