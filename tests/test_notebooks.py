"""Every notebook in ``notebooks/`` runs against this checkout and says what its run says
(issue 7 section 7, issue 12 part 7).

Each notebook is executed with nbclient exactly as ``python notebooks/regenerate.py`` stores it:
its own default trial count and seed, from the notebooks folder, with ``PYTHONPATH`` at this
checkout. Then, per notebook:

* no cell raises, the last one included: it lists every figure the markdown states from the
  run and every statement it makes about the run, and fails if a figure lies outside the run's
  95% interval or a statement does not hold (``notebooks/stated.py``);
* every figure on that list is written in the markdown as listed, and every percentage the
  markdown shows (bar the "95%" of the intervals) is on the list, so the prose cannot quote a
  rate that nothing checks;
* the stored outputs are the fresh run's: the same text, every number equal up to one unit of
  its last printed digit. A code change that moves any figure fails here until the notebook is
  regenerated (``python notebooks/regenerate.py NAME``), and regenerating it runs the check of
  the stated figures against the new numbers.

A notebook runs on the pytest-xdist worker of its game's test files (``xdist_group``), so a
cold run compiles each game's kernels once into the shared numba cache, not twice at once. The
last tests run the check on a tiny notebook and show it fails for each way a notebook can stop
telling the truth.
"""

from __future__ import annotations

import difflib
import importlib.util
import re
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

ROOT = Path(__file__).resolve().parents[1]


def _load(name):
    spec = importlib.util.spec_from_file_location(f"notebooks_{name}", ROOT / "notebooks" /
                                                  f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


regenerate = _load("regenerate")
stated = _load("stated")
NOTEBOOKS = regenerate.NOTEBOOKS
GROUPS = {"starfire": "starfire", "dark-future": "dark_future", "demons-run": "demons_run",
          "demo-derby": "demo_derby"}   # notebook name prefix -> the game's xdist_group


def _group(path):
    return next((g for prefix, g in GROUPS.items() if path.stem.startswith(prefix + "-")), None)


def test_notebooks_found():
    assert len(NOTEBOOKS) >= 4
    for path in NOTEBOOKS:
        assert _group(path), f"{path.name}: name it after its game (starfire-..., ...)"


def _markdown(nb):
    """The notebook's markdown, its line breaks and runs of spaces made single spaces."""
    return " ".join(" ".join(c.source for c in nb.cells if c.cell_type == "markdown").split())


def _stated(nb):
    """The list of stated figures the notebook's last cell showed (notebooks/stated.py)."""
    found = [o["data"][stated.MIME] for c in nb.cells if c.cell_type == "code"
             for o in c.get("outputs", []) if stated.MIME in o.get("data", {})]
    assert len(found) == 1, "the last code cell must check the stated figures (stated.py)"
    assert nb.cells[-1].cell_type == "code" and stated.MIME in str(nb.cells[-1].outputs), \
        "the check of the stated figures must be the notebook's last cell"
    return found[0]


def _texts(nb):
    """Each code cell's shown text, by cell index: stdout and the plain-text form of results
    and displays (stderr is left out: warnings differ between library versions)."""
    out = {}
    for i, cell in enumerate(nb.cells):
        if cell.cell_type != "code":
            continue
        parts = []
        for o in cell.get("outputs", []):
            if o.get("output_type") == "stream" and o.get("name") == "stdout":
                parts.append(o["text"])
            elif "data" in o and "text/plain" in o["data"]:
                parts.append(o["data"]["text/plain"])
        out[i] = "".join(parts)
    return out


TOKEN = re.compile(r"-?\d[\d,]*(?:\.\d+)?(?:e[-+]?\d+)?|\S")


def _same_numbers(a: str, b: str) -> bool:
    """The same text, every number equal up to one unit of its last printed digit (a float
    summed in another order may round the other way)."""
    ta, tb = TOKEN.findall(a), TOKEN.findall(b)
    if len(ta) != len(tb):
        return False
    for x, y in zip(ta, tb):
        if x == y:
            continue
        try:
            fx, fy = float(x.replace(",", "")), float(y.replace(",", ""))
        except ValueError:
            return False
        digits = x.replace(",", "").partition("e")[0].partition(".")[2]
        if abs(fx - fy) > 1.01 * 10.0 ** -len(digits):
            return False
    return True


def check_notebook(path: Path) -> None:
    """Execute the notebook at ``path`` as regenerate.py does and check it (module docstring)."""
    stored = nbformat.read(path, as_version=4)
    code = "\n".join(c.source for c in stored.cells if c.cell_type == "code")
    assert "SIMKIT_NOTEBOOK_TRIALS" in code, "the trial count must come from the environment"
    assert "subprocess" not in code and "!simkit" not in code, "use the library, not the CLI"

    fresh = regenerate.execute(path)      # raises on a cell error, the stated-figures check too
    assert any(_texts(fresh).values()), "the notebook shows nothing"

    rows = _stated(fresh)
    markdown = _markdown(fresh)
    for r in rows:
        text = " ".join(r["text"].split())
        assert re.search(r"(?<![\w.])" + re.escape(text) + r"(?![\w%])", markdown), \
            f"{path.name}: {r['text']!r} ({r['what']}) is checked but not in the markdown"
        assert r["ok"], r
    figures = [r for r in rows if r["stated"] is not None]
    assert figures, "the notebook states no figure from its run"
    listed = {stated.NUMBER.findall(r["text"])[0] for r in figures}
    unlisted = sorted(set(re.findall(r"(?<![\w.])\d+(?:\.\d+)?%", markdown)) - listed - {"95%"})
    assert not unlisted, (f"{path.name}: percentages in the markdown that its last cell does not "
                          f"check against the run: {unlisted}")

    old, new = _texts(stored), _texts(fresh)
    stale = [i for i in new if not _same_numbers(old.get(i, ""), new[i])]
    if stale:
        i = stale[0]
        diff = "\n".join(list(difflib.unified_diff(old.get(i, "").splitlines(),
                                                    new[i].splitlines(), "stored", "fresh",
                                                    lineterm=""))[:40])
        pytest.fail(f"{path.name}: the stored outputs of cell(s) {stale} are not what the code "
                    f"gives now; run `python notebooks/regenerate.py {path.stem}` (fix the prose "
                    f"if its last cell then fails) and commit the notebook. Cell {i}:\n{diff}")


@pytest.mark.parametrize("path", [
    pytest.param(p, id=p.stem, marks=[pytest.mark.xdist_group(_group(p))] if _group(p) else [])
    for p in NOTEBOOKS])
def test_notebook_runs_and_says_what_its_run_says(path):
    check_notebook(path)


# The check itself, on a tiny notebook that needs no kernel compile: it passes when honest and
# fresh, and fails for each way a notebook can stop telling the truth.
TINY = [
    ("markdown", "**Answer.** Half of the trials: 50%."),
    ("code", "import os\nTRIALS = int(os.environ.get('SIMKIT_NOTEBOOK_TRIALS', '8'))\n"
             "half = TRIALS / 16\nprint(half)"),
    ("code", "from stated import StatedFigures\nfigures = StatedFigures()\n"
             "figures.add('50%', 'the half', half, half - 0.04, half + 0.04)\nfigures.check()"),
]


def _tiny(folder: Path, change=None) -> Path:
    """The tiny notebook, executed and stored as regenerate.py does; then ``change(nb)``, the
    edit made after its outputs were stored."""
    (folder / "stated.py").write_text((ROOT / "notebooks" / "stated.py").read_text())
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell(src) if kind == "markdown" else nbformat.v4.new_code_cell(src)
        for kind, src in TINY])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3",
                                 "language": "python"}
    path = folder / "tiny.ipynb"
    nbformat.write(nb, path)
    nbformat.write(regenerate.execute(path), path)
    if change:
        nb = nbformat.read(path, as_version=4)
        change(nb)
        nbformat.write(nb, path)
    return path


def _edit(cell, old, new):
    def change(nb):
        nb.cells[cell].source = nb.cells[cell].source.replace(old, new)
    return change


@pytest.mark.parametrize("change,error", [
    (_edit(1, "TRIALS / 16", "TRIALS / 15"), "stored outputs"),        # code moved a figure
    (_edit(0, "50%", "60%"), "not in the markdown"),                   # prose edited alone
    (lambda nb: (_edit(0, "50%", "60%")(nb), _edit(2, "'50%'", "'60%'")(nb)),
     "does not support"),                                              # prose and list: untrue
    (_edit(0, "50%.", "50%, or 70%."), "does not check"),              # a figure nobody checks
], ids=["stale-output", "prose-only", "untrue", "unchecked-percentage"])
def test_the_check_fails_a_notebook_that_stops_telling_the_truth(tmp_path, change, error):
    path = _tiny(tmp_path, change)
    failures = (AssertionError, pytest.fail.Exception, nbclient.exceptions.CellExecutionError)
    with pytest.raises(failures, match=error):
        check_notebook(path)


def test_the_check_passes_an_honest_fresh_notebook(tmp_path):
    check_notebook(_tiny(tmp_path))
