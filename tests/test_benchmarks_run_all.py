"""``benchmarks/run_all.py`` works end to end (``--smoke``: tiny counts, one game), and puts its
table between the README markers without touching the rest. No time is asserted."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "benchmarks" / "run_all.py"


def _module():
    spec = importlib.util.spec_from_file_location("run_all", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize("threads", [None, "1"])
def test_smoke_run_writes_the_table(tmp_path, threads):
    """Also where numba is started with one thread (NUMBA_NUM_THREADS=1, as a user pins a
    benchmark to one core): the two-thread column then reads n/a instead of the run failing."""
    out = tmp_path / "results.md"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("NUMBA_NUM_THREADS", None)
    if threads:
        env["NUMBA_NUM_THREADS"] = threads
    proc = subprocess.run([sys.executable, str(SCRIPT), "--smoke", "--games", "starfire",
                           "--skip-search", "--out", str(out)], env=env, capture_output=True,
                          text=True, timeout=600, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    text = out.read_text()
    assert "| game | kernel | per core (/s) |" in text
    rows = [line for line in text.splitlines() if line.startswith("| starfire |")]
    assert len(rows) == 2                      # one fire family and one battle scenario
    assert "cores" in text and "numba" in text  # the machine it ran on
    assert "Traceback" not in proc.stderr
    if threads:
        assert all(row.rstrip().endswith("| n/a |") for row in rows)


def test_readme_section_is_replaced_between_markers(tmp_path):
    mod = _module()
    readme = tmp_path / "README.md"
    readme.write_text(f"# x\n\nintro\n\n## Benchmarks\n\n{mod.START}\nold\n{mod.END}\n\nafter\n")
    mod.update_readme(readme, "new table\n")
    text = readme.read_text()
    assert "old" not in text and "new table" in text
    assert text.startswith("# x\n\nintro") and text.rstrip().endswith("after")
    plain = tmp_path / "PLAIN.md"
    plain.write_text("# y\n")
    mod.update_readme(plain, "t\n")
    assert mod.START in plain.read_text() and "## Benchmarks" in plain.read_text()


def test_render_handles_missing_figures():
    mod = _module()
    info = {"date": "d", "cpu": "c", "cores": 2, "load": "1.0", "python": "3", "numba": "n",
            "numpy": "np"}
    rows = [{"game": "g", "kernel": "k", "unit": "u", "per_core": 10.0, "bare_ratio": None,
             "nojit_speedup": None, "two_thread_eff": None}]
    text = mod.render(rows, None, info, "smoke")
    assert "| g | k | 10 u | n/a | n/a | n/a |" in text and "not measured" in text


def _bench_compile():
    spec = importlib.util.spec_from_file_location("bench_compile",
                                                  ROOT / "benchmarks" / "bench_compile.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_compile_benchmark_counts_nested_compiles_once():
    """A kernel's compile includes its callees': own time subtracts the nested ones, and the
    total counts only the outermost compiles."""
    own, outer = _bench_compile().own_times([
        ("kernel", 0.0, 10.0), ("callee", 1.0, 4.0), ("leaf", 2.0, 3.0), ("other", 5.0, 6.0),
        ("second_kernel", 20.0, 22.0)])
    assert outer == 12.0
    assert own == {"kernel": 6.0, "callee": 2.0, "leaf": 1.0, "other": 1.0,
                   "second_kernel": 2.0}


def test_compile_benchmark_writes_its_readme_section(tmp_path):
    mod = _bench_compile()
    table = mod.render([{"game": "starfire", "wall": 40.0, "compile": 30.0, "compiles": 99,
                         "peak_mb": 900.0, "top": [["simkit.starfire.engine.play", 12.0]]}],
                       {"wall": 200.0, "peak_mb": 1500.0})
    assert "**200 s** wall" in table and "| starfire | 40 | 30 | 99 | 900 | `play` 12 |" in table
    readme = tmp_path / "README.md"
    readme.write_text("intro\n<!-- compile:start -->\nold\n<!-- compile:end -->\nrest\n")
    mod.update_readme(readme, table)
    text = readme.read_text()
    assert text.startswith("intro\n<!-- compile:start -->\n") and text.endswith("rest\n")
    assert "\nold\n" not in text and "**200 s** wall" in text


def test_balance_benchmark_smoke_writes_its_table(tmp_path):
    out = tmp_path / "balance.md"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "bench_balance.py"),
                           "--smoke", "--scenarios", "starfire/mirror", "--out", str(out)],
                          env=env, capture_output=True, text=True, timeout=900, cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    text = out.read_text()
    assert "| scenario | side | wall (s) |" in text
    assert sum(line.startswith("| starfire/mirror |") for line in text.splitlines()) == 2
