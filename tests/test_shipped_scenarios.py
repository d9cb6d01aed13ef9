"""Scenarios ship with the package and are run by name from any folder.

``scenarios/<game>/*.toml`` stays at the top of the repository; ``pyproject.toml`` installs it
as ``simkit/scenarios/`` and :mod:`simkit.shipped` finds it in either place. These tests run
no game: listing and resolving names reads TOML only.
"""

from __future__ import annotations

import fnmatch
import importlib.util
import os
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

from simkit import games, shipped
from simkit.cli import main

ROOT = Path(__file__).resolve().parents[1]
FILES = sorted((ROOT / "scenarios").glob("*/*.toml"))
NAMES = sorted(f"{p.parent.name}/{p.stem}" for p in FILES)


def test_every_scenario_file_is_listed_by_name_with_its_game(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)           # the working folder plays no part
    assert main(["scenario", "list"]) == 0
    out = capsys.readouterr().out
    rows = {}
    for line in out.splitlines()[1:]:
        if line.strip() and "/" in line.split()[0]:
            rows[line.split()[0]] = line.split()[1]
    assert list(rows) == NAMES and len(NAMES) >= 20      # in name order
    for name in NAMES:
        assert rows[name] == name.split("/")[0]        # the folder is the game's CLI name
    assert {"starfire/mirror", "demons-run/duel", "dark-future/game-4"} <= set(rows)
    assert "Fairness check: identical fleets, initiative rolled every turn." in out
    assert set(n.split("/")[0] for n in NAMES) <= set(games.available())


def test_list_one_game(capsys):
    assert main(["scenario", "list", "--game", "demons-run"]) == 0
    names = [line.split()[0] for line in capsys.readouterr().out.splitlines()[1:4]]
    assert names == ["demons-run/duel", "demons-run/four-corners", "demons-run/raid"]


def test_a_name_resolves_to_the_shipped_file_from_any_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    mirror = ROOT / "scenarios" / "starfire" / "mirror.toml"
    for text in ("starfire/mirror", "starfire/mirror.toml", "scenarios/starfire/mirror.toml"):
        assert Path(shipped.resolve(text)) == mirror, text
    assert shipped.name_of(mirror) == "starfire/mirror"
    # a user's own file is taken as given, even one named like a shipped scenario
    own = tmp_path / "starfire" / "mirror.toml"
    own.parent.mkdir()
    own.write_text('game = "starfire"\n')
    assert shipped.resolve("starfire/mirror.toml") == "starfire/mirror.toml"
    assert shipped.name_of(own) == str(own)


@pytest.mark.parametrize("argv,needle", [
    (["scenario", "run", "starfire/mirorr"], "'starfire/mirorr' is neither a file nor a shipped "
                                             "scenario (closest: starfire/mirror"),
    (["scenario", "run", "no/where/demons-run/dual.toml"], "closest: demons-run/duel"),
    (["sensitivity", "dark-future/game4"], "closest: dark-future/game-4"),
    (["season", "demons-run", "demons-run/four-corner"], "closest: demons-run/four-corners"),
    (["builds", "dark-future", "--scenario", "game-4", "--budget", "50000"],
     "--scenario: 'game-4' is neither a file nor a shipped scenario"),
    (["scenario", "run", "qqqqqq"], "simkit scenario list shows the shipped ones"),
])
def test_an_unknown_name_is_one_line_with_the_closest_names_and_status_2(argv, needle, capsys,
                                                                          tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert needle in err and len(err.splitlines()) == 1 and "Traceback" not in err, err


# --- packaging: the files install with the package ----------------------------------------------

PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
SETUPTOOLS = PYPROJECT["tool"]["setuptools"]


def test_pyproject_lists_every_package_and_maps_the_scenarios():
    """The package list is explicit (the scenarios are mapped in from outside ``simkit/``), so
    a new subpackage must be added to it: this finds every one."""
    found = sorted(".".join(p.parent.relative_to(ROOT).parts)
                   for p in (ROOT / "simkit").rglob("__init__.py"))
    listed = SETUPTOOLS["packages"]
    assert sorted(p for p in listed if p != "simkit.scenarios") == found
    assert "simkit.scenarios" in listed
    assert SETUPTOOLS["package-dir"] == {"simkit.scenarios": "scenarios"}


def test_package_data_takes_every_scenario_and_rules_file():
    data = SETUPTOOLS["package-data"]
    for path in FILES + [ROOT / "scenarios" / "README.md"]:
        rel = path.relative_to(ROOT / "scenarios").as_posix()
        assert any(fnmatch.fnmatch(rel, g) for g in data["simkit.scenarios"]), rel
    for path in (ROOT / "simkit").rglob("*"):
        if path.is_file() and path.suffix not in (".py", ".pyc") and "__pycache__" not in path.parts:
            rel = path.relative_to(path.parents[1]).as_posix()   # e.g. data/combat.toml
            assert any(fnmatch.fnmatch(rel, g) for g in data["*"]), path


@pytest.mark.slow
def test_a_built_wheel_holds_every_scenario(tmp_path):
    """The real check: build the wheel (from a copy, so the tree stays clean) and look inside."""
    src = tmp_path / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        if (ROOT / name).exists():
            shutil.copy(ROOT / name, src / name)
    for folder in ("simkit", "scenarios"):
        shutil.copytree(ROOT / folder, src / folder,
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.nbi", "*.nbc"))
    cmd = [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path / "w"),
           str(src)]
    spec = importlib.util.find_spec("setuptools")
    if spec is not None:
        import setuptools
        if int(setuptools.__version__.split(".")[0]) >= 77:
            cmd.insert(4, "--no-build-isolation")       # no download when it is already here
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600,
                       env=dict(os.environ, PIP_DISABLE_PIP_VERSION_CHECK="1"))
    assert p.returncode == 0, p.stderr[-3000:]
    wheel = next((tmp_path / "w").glob("simkit-*.whl"))
    inside = set(zipfile.ZipFile(wheel).namelist())
    for path in FILES:
        assert "simkit/scenarios/" + path.relative_to(ROOT / "scenarios").as_posix() in inside
    assert "simkit/shipped.py" in inside and "simkit/starfire/data/combat.toml" in inside
