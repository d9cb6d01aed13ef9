"""Execute the notebooks top to bottom against this checkout and store their outputs.

    python notebooks/regenerate.py                      # every notebook
    python notebooks/regenerate.py demons-run-builds    # the ones named (file stems)

Run it after changing a notebook or the code a notebook calls, then commit the notebooks:
``tests/test_notebooks.py`` executes each notebook the same way (``execute`` below) and fails
while the stored outputs differ from a fresh run, or while the prose states a figure the run
does not support (each notebook's last cell, ``stated.py``). A notebook whose last cell fails is
saved all the same, with the error showing which figures to fix in its markdown.

The run is the one the prose describes: each notebook's own default trial count and seed
(``SIMKIT_NOTEBOOK_TRIALS`` is ignored here), the notebooks folder as working folder, and
``PYTHONPATH`` at this checkout so it runs these sources, not an installed copy.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
NOTEBOOKS = sorted(HERE.glob("*.ipynb"))
TIMEOUT = 900   # seconds per cell: the first run on a machine compiles the numba kernels


def environment() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "SIMKIT_NOTEBOOK_TRIALS"}
    env["PYTHONPATH"] = os.pathsep.join(
        [str(ROOT)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p])
    env["MPLBACKEND"] = "Agg"
    return env


def execute(path: Path, allow_errors: bool = False):
    """The notebook at ``path``, executed; a cell that raises raises here (nbclient's
    CellExecutionError) unless ``allow_errors``, when the error is kept in the cell's outputs."""
    import nbclient
    import nbformat

    from jupyter_client.manager import KernelManager

    nb = nbformat.read(path, as_version=4)
    # The kernel talks over Unix sockets in a folder of its own: over TCP the client picks free
    # ports and the kernel binds them later, and parallel test workers raced for the same port
    # ("Address already in use", a red CI run). IPC's default socket names sit in the working
    # folder and would collide the same way, hence the private folder.
    with tempfile.TemporaryDirectory(prefix="simkit-kernel-") as sockets:
        km = KernelManager(kernel_name="python3", transport="ipc",
                           ip=os.path.join(sockets, "kernel"))
        client = nbclient.NotebookClient(nb, km=km, timeout=TIMEOUT,
                                         allow_errors=allow_errors, record_timing=False,
                                         resources={"metadata": {"path": str(path.parent)}})
        client.execute(env=environment())
    return nb


def main(argv: list[str]) -> int:
    import nbformat

    chosen = [p for p in NOTEBOOKS if not argv or p.stem in argv]
    unknown = set(argv) - {p.stem for p in NOTEBOOKS}
    if unknown:
        print(f"regenerate: no such notebook: {', '.join(sorted(unknown))} "
              f"(have: {', '.join(p.stem for p in NOTEBOOKS)})", file=sys.stderr)
        return 2
    failed = []
    for path in chosen:
        start = time.perf_counter()
        nb = execute(path, allow_errors=True)
        errors = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
                  if o.get("output_type") == "error"]
        for cell in nb.cells:   # no timestamps: a re-run that computes the same is no change
            cell.metadata.pop("execution", None)
        nbformat.write(nb, path)
        took = time.perf_counter() - start
        why = f", FAILED: {errors[0]['evalue'].splitlines()[0]}" if errors else ""
        print(f"{path.name}: executed and stored in {took:.0f} s{why}", flush=True)
        if errors:
            failed.append(path.name)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
