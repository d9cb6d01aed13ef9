"""Every notebook in ``notebooks/`` runs top to bottom against this checkout (issue 7, section 7).

Each is executed with nbclient at a small trial count (``SIMKIT_NOTEBOOK_TRIALS``), from the
notebooks folder, with ``PYTHONPATH`` pointing at this checkout so it tests these sources and
not an installed copy. A cell that raises fails the test with the cell's error. Nothing about
the numbers is asserted here: the analyses behind them are tested in the game test files.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
TRIALS = "300"    # per cell: enough to exercise every code path, small enough for CI


def test_notebooks_found():
    assert len(NOTEBOOKS) >= 4


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs(path, monkeypatch):
    monkeypatch.setenv("SIMKIT_NOTEBOOK_TRIALS", TRIALS)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(
        [str(ROOT)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))
    monkeypatch.setenv("MPLBACKEND", "Agg")
    nb = nbformat.read(path, as_version=4)
    code = "\n".join(c.source for c in nb.cells if c.cell_type == "code")
    assert "SIMKIT_NOTEBOOK_TRIALS" in code, "the trial count must come from the environment"
    assert "subprocess" not in code and "!simkit" not in code, "use the library, not the CLI"
    client = nbclient.NotebookClient(nb, timeout=600, kernel_name="python3",
                                     resources={"metadata": {"path": str(path.parent)}})
    client.execute()
    shown = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert shown, "the notebook shows nothing"
    assert not [o for o in shown if o.get("output_type") == "error"]
