"""A run directory's identity includes what computed its chunks (issue 12, part 5): after the
kernel code, the rules data or the compiler changed, a resume is refused with one clear
message, never merged with the old chunks. Unchanged code resumes to the uninterrupted numbers.

The simkit files the identity hashes are moved to an editable copy (``runner._CODE_ROOT``), so
an edit there is what a new process would see after a code change; the kernels that run are
the checkout's, already compiled."""

import importlib
import json
import shutil
import sys
from pathlib import Path

import numpy as np
import pytest

from simkit import cli
from simkit.core import runner
from simkit.core.errors import UserInputError
from simkit.starfire.pieces.sheet import parse_sheet
from simkit.starfire.procedures import WeaponTable

CHANGED = "the code or rules data changed since the run started"


def table(ranges=(1, 3, 9)):
    return WeaponTable(parse_sheet("S S A D O H H H E I I"), list(ranges), 3,
                       families=("missile", "energy_beam", "primary_beam", "force_beam"))


def forget_code():
    """Drop the once-per-process source digests, as a new process starts without them."""
    cached = getattr(runner, "_package_files", None)
    if cached is not None:
        cached.cache_clear()


def files_in(d: Path) -> dict:
    return {p.relative_to(d).as_posix(): p.read_bytes() for p in sorted(d.rglob("*"))
            if p.is_file()}


def interrupt(d: Path, keep: int):
    """As if the run had died after ``keep`` chunks."""
    for p in sorted(d.glob("*/chunk-*.npy"))[keep:]:
        p.unlink()


@pytest.fixture
def simkit_copy(tmp_path, monkeypatch):
    """An editable copy of the simkit sources and rules data, standing for the checkout."""
    root = tmp_path / "src" / "simkit"
    shutil.copytree(Path(runner.__file__).resolve().parents[1], root,
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.nbi", "*.nbc"))
    monkeypatch.setattr(runner, "_CODE_ROOT", root, raising=False)
    forget_code()
    yield root
    forget_code()


# --- a simulation outside simkit whose chunk code changes under the same names ----------------

SIM_SOURCE = '''
import numpy as np
import pandas as pd


class Counter:
    """Pure Python (nothing to compile): statistics of trial numbers modulo {mod}."""

    name, n_stats = "counter", 2

    def chunk(self, key, first, n):
        t = np.arange(first, first + n, dtype=np.int64)
        return np.array([n, int((t % {mod}).sum())], dtype=np.int64)

    def summarise(self, totals, n):
        return pd.DataFrame({{"trials": [n], "sum": [int(totals[1])]}})
'''


@pytest.fixture
def counter(tmp_path, monkeypatch):
    """``counter(mod)`` writes ``resume_counter.py`` with that chunk body, imports it afresh
    and returns a ``Counter``: each version has the same module, class and qualified name."""
    src = tmp_path / "code"
    src.mkdir()
    monkeypatch.syspath_prepend(str(src))
    monkeypatch.setattr(sys, "dont_write_bytecode", True)  # no stale .pyc between versions

    def load(mod: int):
        (src / "resume_counter.py").write_text(SIM_SOURCE.format(mod=mod))
        sys.modules.pop("resume_counter", None)
        importlib.invalidate_caches()
        return importlib.import_module("resume_counter").Counter()

    yield load
    sys.modules.pop("resume_counter", None)


def test_a_changed_chunk_function_is_refused_not_merged(tmp_path, counter):
    d = tmp_path / "run"
    old = counter(7)
    full = runner.run(old, 10_000, seed=1, chunk_size=2_000, progress=False)
    runner.run(old, 10_000, seed=1, chunk_size=2_000, progress=False, run_dir=d)
    interrupt(d, keep=2)
    new = counter(5)  # another chunk body under the same names and attributes
    assert type(new).__qualname__ == type(old).__qualname__ and type(new) is not type(old)
    assert runner.fingerprint(new) == runner.fingerprint(old)  # the inputs cannot tell
    before = files_in(d)
    with pytest.raises(UserInputError) as err:
        runner.run(new, 10_000, seed=1, progress=False, run_dir=d)
    msg = str(err.value)
    assert msg.startswith(f"{d}: ") and CHANGED in msg and "module resume_counter" in msg
    assert "start a new run dir" in msg and "\n" not in msg
    assert files_in(d) == before  # nothing computed, nothing written
    # the code that started the run, imported again, resumes it to the uninterrupted numbers
    again = runner.run(counter(7), 10_000, seed=1, progress=False, run_dir=d)
    assert np.array_equal(again.totals, full.totals)


# --- simkit's own kernels and rules data --------------------------------------------------------

EDITS = {
    "kernel code": ("starfire/procedures.py",
                    lambda s: s + "\n\ndef _later_edit():\n    return 1\n"),
    "rules data": ("starfire/data/combat.toml",  # an erratum: a missile to-hit number
                   lambda s: s.replace("missile = [ 0,  4,  7,", "missile = [ 0,  5,  7,", 1)),
}


@pytest.mark.parametrize("what", list(EDITS))
def test_a_changed_kernel_or_rules_file_is_refused(tmp_path, simkit_copy, what):
    rel, edit = EDITS[what]
    d = tmp_path / "run"
    full = runner.run(table(), 12_000, seed=3, chunk_size=3_000, progress=False)
    runner.run(table(), 12_000, seed=3, chunk_size=3_000, progress=False, run_dir=d)
    interrupt(d, keep=2)
    f = simkit_copy / rel
    original = f.read_text()
    assert edit(original) != original
    f.write_text(edit(original))
    forget_code()
    before = files_in(d)
    with pytest.raises(UserInputError) as err:
        runner.run(table(), 12_000, seed=3, progress=False, run_dir=d)
    msg = str(err.value)
    assert msg.startswith(f"{d}: ") and CHANGED in msg and f"simkit/{rel}" in msg, msg
    # a run dir is one code version: another simulation may not start beside the old chunks
    with pytest.raises(UserInputError, match=CHANGED):
        runner.run(table((1,)), 3_000, seed=3, progress=False, run_dir=d)
    assert files_in(d) == before
    f.write_text(original)  # the change undone: the run resumes, bit-identical
    forget_code()
    assert np.array_equal(runner.run(table(), 12_000, seed=3, progress=False,
                                     run_dir=d).totals, full.totals)


def test_cli_resume_after_a_rules_change_exits_2_with_one_line(tmp_path, simkit_copy, capsys):
    d = tmp_path / "run"
    args = ["weapons", "starfire", "--ranges", "1-2", "--trials", "6000", "--chunk-size",
            "2000", "--seed", "2", "--no-progress", "--run-dir", str(d)]
    assert cli.main(args) == 0
    interrupt(d, keep=1)
    rel, edit = EDITS["rules data"]
    (simkit_copy / rel).write_text(edit((simkit_copy / rel).read_text()))
    forget_code()
    capsys.readouterr()
    before = files_in(d)
    assert cli.main(["resume", str(d)]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and str(d) in err and CHANGED in err and rel in err, err
    assert "start a new run dir" in err
    assert files_in(d) == before


def test_a_compiler_upgrade_is_a_code_change(tmp_path, monkeypatch):
    d = tmp_path / "run"
    runner.run(table((1,)), 4_000, seed=1, chunk_size=2_000, progress=False, run_dir=d)
    numba = sys.modules["numba"]
    monkeypatch.setattr(numba, "__version__", "99.0.0")
    with pytest.raises(UserInputError, match=rf"{CHANGED} \(numba .* -> 99\.0\.0\)"):
        runner.run(table((1,)), 4_000, seed=1, progress=False, run_dir=d)


def test_a_run_dir_from_before_code_identities_is_refused(tmp_path):
    d = tmp_path / "run"
    runner.run(table((1,)), 4_000, seed=1, chunk_size=2_000, progress=False, run_dir=d)
    [m] = d.glob("*/manifest.json")
    saved = json.loads(m.read_text())
    del saved["ident"]["code"], saved["files"]  # the manifest an older simkit wrote
    m.write_text(json.dumps(saved))
    with pytest.raises(UserInputError, match="did not record its code"):
        runner.run(table((1,)), 4_000, seed=1, progress=False, run_dir=d)
    with pytest.raises(UserInputError, match="did not record its code"):  # nor join it
        runner.run(table((3,)), 4_000, seed=1, progress=False, run_dir=d)
    assert len(list(d.iterdir())) == 1


def test_chunks_without_a_manifest_are_recomputed_not_trusted(tmp_path):
    """The manifest (with the code identity) is written before the first chunk; chunk files
    in a subdirectory without one came from unknown code."""
    d = tmp_path / "run"
    full = runner.run(table((1,)), 6_000, seed=2, chunk_size=2_000, progress=False)
    runner.run(table((1,)), 6_000, seed=2, chunk_size=2_000, progress=False, run_dir=d)
    [m] = d.glob("*/manifest.json")
    m.unlink()
    stray = sorted(d.glob("*/chunk-*.npy"))[0]
    np.save(stray, np.load(stray) + 1)  # what other code might have computed
    res = runner.run(table((1,)), 6_000, seed=2, chunk_size=2_000, progress=False, run_dir=d)
    assert np.array_equal(res.totals, full.totals) and m.exists()


def test_the_identity_is_the_files_content_not_their_place_or_caches(tmp_path, simkit_copy):
    forget_code()
    here = runner.code_identity(table())
    (simkit_copy / "starfire" / "__pycache__").mkdir(exist_ok=True)
    (simkit_copy / "starfire" / "__pycache__" / "weapons.cpython-311.pyc").write_bytes(b"x")
    (simkit_copy / ".hidden").write_text("editor state")
    forget_code()
    copy = runner.code_identity(table())
    assert copy == here  # relative paths, caches and hidden files left out
    assert copy["modules"] == {}  # simkit's own modules are in the package digest
    assert copy["numba"] == sys.modules["numba"].__version__
    files = runner._package_files(str(simkit_copy))
    assert "simkit/core/runner.py" in files and "simkit/starfire/data/combat.toml" in files
