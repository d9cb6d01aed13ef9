"""Nothing in a user file is executed or unpickled (issue 7, section 5).

A source scan (by syntax tree, so comments and docstrings do not count) of every module under
``simkit/``: no ``eval``/``exec``/``compile``, no pickle/marshal/shelve/dill/cloudpickle loads,
no ``yaml.load``, no ``numpy.load(allow_pickle=True)``, no ``pandas.read_pickle``, no shell;
TOML is parsed in exactly one place (``simkit.core.data.read_toml``, with ``tomllib``), and
every loader of a user file goes through it. Plus a behavioural check: a scenario, build, board
and arena whose every string is Python code that would leave a mark if run leaves none.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from simkit.core.errors import UserInputError

ROOT = Path(__file__).resolve().parents[1]
SOURCES = sorted((ROOT / "simkit").rglob("*.py"))

FORBIDDEN_CALLS = {
    "eval", "exec", "compile", "__import__", "execfile", "input",
    "pickle.load", "pickle.loads", "pickle.Unpickler", "marshal.load", "marshal.loads",
    "shelve.open", "dill.load", "dill.loads", "cloudpickle.load", "cloudpickle.loads",
    "yaml.load", "yaml.unsafe_load", "yaml.full_load", "yaml.load_all",
    "pd.read_pickle", "pandas.read_pickle", "os.system", "os.popen",
    "joblib.load", "torch.load",
}
FORBIDDEN_IMPORTS = {"pickle", "marshal", "shelve", "dill", "cloudpickle", "yaml", "joblib"}
# import_module with a name from a fixed table of the project's own packages is not user input
ALLOWED = {("simkit/games.py", "importlib.import_module")}
TOML_READER = "simkit/core/data.py"


def _dotted(node) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = _dotted(node.value)
        return f"{inner}.{node.attr}" if inner else node.attr
    return ""


def _findings(path: Path) -> list[str]:
    rel = path.relative_to(ROOT).as_posix()
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=rel)
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = _dotted(node.func)
            if (rel, name) in ALLOWED:
                continue
            if name in FORBIDDEN_CALLS or name.endswith(".import_module"):
                out.append(f"{rel}:{node.lineno}: calls {name}")
            kw = {k.arg: k.value for k in node.keywords}
            if name.endswith("load") and isinstance(kw.get("allow_pickle"), ast.Constant) \
                    and kw["allow_pickle"].value:
                out.append(f"{rel}:{node.lineno}: {name}(allow_pickle=True)")
            if isinstance(kw.get("shell"), ast.Constant) and kw["shell"].value:
                out.append(f"{rel}:{node.lineno}: {name}(shell=True)")
            if name.startswith("tomllib.") and rel != TOML_READER:
                out.append(f"{rel}:{node.lineno}: parses TOML itself ({name}); use read_toml")
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            mods = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module or ""]
            for m in mods:
                if m.split(".")[0] in FORBIDDEN_IMPORTS:
                    out.append(f"{rel}:{node.lineno}: imports {m}")
                if m.split(".")[0] == "tomllib" and rel != TOML_READER:
                    out.append(f"{rel}:{node.lineno}: imports tomllib; use read_toml")
    return out


def test_sources_found():
    assert len(SOURCES) > 20 and (ROOT / TOML_READER) in SOURCES


def test_no_code_execution_or_unpickling_in_simkit():
    findings = [f for p in SOURCES for f in _findings(p)]
    assert not findings, "\n".join(findings)


def test_the_scanner_catches_what_it_forbids(tmp_path):
    """The scan is not vacuous: a module doing each forbidden thing is reported."""
    bad = tmp_path / "simkit" / "evil.py"
    bad.parent.mkdir()
    bad.write_text("import pickle\nimport tomllib\nimport numpy as np\nimport yaml\n"
                   "def f(p):\n    eval(p)\n    pickle.loads(p)\n    np.load(p, allow_pickle=True)\n"
                   "    yaml.load(p)\n    tomllib.loads(p)\n    __import__(p)\n")
    global ROOT
    saved, ROOT = ROOT, tmp_path
    try:
        found = "\n".join(_findings(bad))
    finally:
        ROOT = saved
    for what in ("imports pickle", "calls eval", "calls pickle.loads", "allow_pickle=True",
                 "calls yaml.load", "parses TOML itself", "calls __import__", "imports tomllib"):
        assert what in found, what


def test_user_loaders_read_through_read_toml():
    """Every module that loads a user's TOML file does it with read_toml (tomllib only)."""
    loaders = [p for p in SOURCES if ("def load_" in p.read_text(encoding="utf-8")
                                      or "def _parse(" in p.read_text(encoding="utf-8"))
               and ".toml" in p.read_text(encoding="utf-8")]
    assert len(loaders) >= 4
    for p in loaders:
        assert "read_toml" in p.read_text(encoding="utf-8"), p


PAYLOAD = "__import__('pathlib').Path({mark!r}).write_text('ran')"


def _code_strings(text: str, mark: Path) -> str:
    """Replace the file's string values that are free text by code that leaves ``mark``."""
    code = PAYLOAD.format(mark=str(mark))
    return text.replace('name = "', f'name = "{code}').replace('notes = "', f'notes = "{code}')


@pytest.mark.parametrize("kind", ["starfire-scenario", "demons-run-build", "demons-run-board",
                                  "demo-derby-arena", "dark-future-car"])
def test_strings_in_user_files_are_never_run(kind, tmp_path):
    mark = tmp_path / "MARK"
    sources = {
        "starfire-scenario": ROOT / "scenarios/starfire/convoy.toml",
        "demons-run-build": ROOT / "tests/fixtures/fuzz/demons-run-build.toml",
        "demons-run-board": ROOT / "simkit/demons_run/data/board.toml",
        "demo-derby-arena": ROOT / "simkit/demo_derby/data/arena.toml",
        "dark-future-car": ROOT / "tests/fixtures/fuzz/dark-future-interceptor.toml",
    }
    text = _code_strings(sources[kind].read_text(encoding="utf-8"), mark)
    text += f'\nevil = "{PAYLOAD.format(mark=str(mark))}"\n'.replace("\\", "\\\\")
    path = tmp_path / "user.toml"
    path.write_text(text, encoding="utf-8")
    try:
        if kind == "starfire-scenario":
            from simkit.starfire.scenario import load_scenario
            load_scenario(path)
        elif kind == "demons-run-build":
            from simkit.demons_run.builds import check_build
            check_build(str(path))
        elif kind == "demons-run-board":
            from simkit.demons_run.pieces.board import load_board
            load_board(path)
        elif kind == "demo-derby-arena":
            from simkit.demo_derby.pieces.arena import load_arena
            load_arena(path)
        else:
            from simkit.dark_future.builds import car_from, validate
            validate(car_from(str(path)))
    except UserInputError:
        pass    # refusing the extra field is fine; running it is not
    assert not mark.exists()
