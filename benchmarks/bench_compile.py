"""Cold compile time: what a newcomer's first run costs, per game and for README command 1.

    python benchmarks/bench_compile.py [--games starfire,dark-future,...] [--no-first-run]
                                       [--out benchmarks/compile.md] [--no-readme]

Every measurement runs in a fresh process with an empty numba cache directory (a new
``NUMBA_CACHE_DIR``), so nothing compiled before counts:

* per game: ``simkit report --quick --games GAME`` with numba's event API
  (``numba.core.event``, the ``numba:compile`` event) recording every compilation: the wall
  time of the run, the time spent compiling (outermost compilations, so nested ones are not
  counted twice), how many specialisations were compiled, the process's peak memory, and the
  functions that cost most (their own time, callees' compilations subtracted);
* the first run: README command 1 without its install step (``simkit report --quick``, every
  game), wall time and the peak memory of the whole process tree (the report compiles games
  side by side in worker processes, so the peak is the sum of their resident sets, sampled).

Times are measured, never asserted. The table replaces the README's section between
``<!-- compile:start -->`` and ``<!-- compile:end -->`` unless ``--no-readme``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from run_all import GAMES, chosen_games, log, machine  # noqa: E402

START, END = "<!-- compile:start -->", "<!-- compile:end -->"


def own_times(recs: list[tuple[str, float, float]]) -> tuple[dict[str, float], float]:
    """Own compile time per function (each compile minus the compiles nested directly inside
    it: a kernel's compile includes its callees'), and the total of the outermost compiles."""
    stack: list[tuple[str, float, float]] = []
    own: dict[str, float] = {}
    outer = 0.0
    for name, a, b in sorted(recs, key=lambda r: (r[1], -r[2])):
        while stack and stack[-1][2] <= a:
            stack.pop()
        if stack:
            own[stack[-1][0]] = own.get(stack[-1][0], 0.0) - (b - a)
        else:
            outer += b - a
        own[name] = own.get(name, 0.0) + (b - a)
        stack.append((name, a, b))
    return own, outer


def _child(game: str | None, out_json: str, outdir: str) -> int:
    """In the measured process: record every compile, run the report, write the numbers."""
    import resource

    from numba.core import event

    recs = []

    class Recorder(event.Listener):
        def __init__(self):
            self.started = {}

        def on_start(self, ev):
            self.started[id(ev.data)] = time.perf_counter()

        def on_end(self, ev):
            t0 = self.started.pop(id(ev.data), None)
            fn = getattr(ev.data.get("dispatcher"), "py_func", None)
            name = f"{getattr(fn, '__module__', '?')}.{getattr(fn, '__qualname__', '?')}"
            if t0 is not None:
                recs.append((name, t0, time.perf_counter()))

    event.register("numba:compile", Recorder())
    from simkit.cli import main

    argv = ["report", "--quick", "--out", outdir, "--jobs", "1"]
    if game:
        argv += ["--games", game]
    t0 = time.perf_counter()
    rc = main(argv)
    wall = time.perf_counter() - t0
    own, outer = own_times(recs)
    top = sorted(own.items(), key=lambda kv: -kv[1])[:5]
    Path(out_json).write_text(json.dumps({
        "rc": rc, "wall": wall, "compile": outer, "compiles": len(recs),
        "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "top": top}))
    return 0


def _tree_rss_mb(pid: int) -> float:
    """Resident memory of ``pid`` and all its descendants (Linux /proc), in MB."""
    kids: dict[int, list[int]] = {}
    rss: dict[int, int] = {}
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            stat = (d / "stat").read_text()
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            for line in (d / "status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    rss[int(d.name)] = int(line.split()[1])
            kids.setdefault(ppid, []).append(int(d.name))
        except (OSError, ValueError, IndexError):
            continue
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        total += rss.get(p, 0)
        todo.extend(kids.get(p, []))
    return total / 1024


def _env(cache: str) -> dict:
    env = dict(os.environ, NUMBA_CACHE_DIR=cache, MPLBACKEND="Agg")
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT)] + [p for p in env.get(
        "PYTHONPATH", "").split(os.pathsep) if p])
    return env


def per_game(game: str, log) -> dict:
    with tempfile.TemporaryDirectory(prefix="simkit-compile-") as tmp:
        out = Path(tmp) / "result.json"
        log(f"{game}: cold report --quick --games {game}")
        subprocess.run([sys.executable, __file__, "--child", game, str(out), f"{tmp}/report"],
                       env=_env(f"{tmp}/cache"), check=True, stdout=subprocess.DEVNULL)
        r = json.loads(out.read_text())
    r["game"] = game
    return r


def first_run(log) -> dict:
    """README command 1 (after its install) on an empty cache: wall time and tree peak memory."""
    with tempfile.TemporaryDirectory(prefix="simkit-first-run-") as tmp:
        log("first run: simkit report --quick (every game, empty cache)")
        t0 = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "simkit.cli", "report", "--quick",
                                 "--out", f"{tmp}/report"], env=_env(f"{tmp}/cache"),
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        peak = 0.0
        while proc.poll() is None:
            peak = max(peak, _tree_rss_mb(proc.pid))
            time.sleep(0.5)
        wall = time.perf_counter() - t0
        if proc.returncode != 0:
            raise SystemExit(f"simkit report --quick failed with status {proc.returncode}")
    return {"wall": wall, "peak_mb": peak}


def render(rows: list[dict], first: dict | None) -> str:
    info = machine()
    lines = [f"Measured {info['date']} with `python benchmarks/bench_compile.py` on "
             f"{info['cpu']}, {info['cores']} cores (load average {info['load']} when it ran); "
             f"Python {info['python']}, numba {info['numba']}, numpy {info['numpy']}. "
             "Every figure starts from an empty numba cache.", ""]
    if first:
        lines += [f"**First run** (README command 1 after `pip install .`, every game, the "
                  f"report compiling games side by side): **{first['wall']:.0f} s** wall, peak "
                  f"memory {first['peak_mb']:,.0f} MB (all processes).", ""]
    if rows:
        lines += ["| game | report --quick, wall (s) | compiling (s) | specialisations | "
                  "peak memory (MB) | costliest compiles (own s) |", "|---|---:|---:|---:|---:|---|"]
        for r in rows:
            top = ", ".join(f"`{n.rsplit('.', 1)[-1]}` {s:.0f}" for n, s in r["top"][:3])
            lines.append(f"| {r['game']} | {r['wall']:.0f} | {r['compile']:.0f} | "
                         f"{r['compiles']} | {r['peak_mb']:,.0f} | {top} |")
        lines += ["", "One process per game (`--jobs 1`), so a game's row is its whole cold cost "
                  "on one core; *compiling* counts the outermost compilations only."]
    return "\n".join(lines) + "\n"


def update_readme(readme: Path, table: str) -> None:
    text = readme.read_text(encoding="utf-8")
    if START not in text or END not in text:
        raise SystemExit(f"{readme}: no {START} ... {END} section to replace")
    head, rest = text.split(START, 1)
    _, tail = rest.split(END, 1)
    tmp = readme.with_name(readme.name + ".tmp")
    tmp.write_text(f"{head}{START}\n{table}{END}{tail}", encoding="utf-8")
    os.replace(tmp, readme)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--child"]:
        return _child(argv[1], argv[2], argv[3])
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default=",".join(GAMES), help="comma-separated subset ('' none)")
    ap.add_argument("--no-first-run", action="store_true", help="skip the whole first run")
    ap.add_argument("--out", default=str(HERE / "compile.md"), help="markdown file to write")
    ap.add_argument("--no-readme", action="store_true", help="do not update README.md")
    args = ap.parse_args(argv)
    games = chosen_games(ap, args.games)
    first = None if args.no_first_run else first_run(log)
    rows = [per_game(g, log) for g in games]
    table = render(rows, first)
    Path(args.out).write_text("# simkit cold compile\n\n" + table, encoding="utf-8")
    print(table)
    if not args.no_readme:
        update_readme(ROOT / "README.md", table)
        log("updated README.md (first-run section)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
