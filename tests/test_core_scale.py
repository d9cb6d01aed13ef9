"""Scale-out and robustness of the runner: Dask backend, checkpoints + resume, adaptive stopping,
atomic outputs. One local Dask cluster (2 single-threaded worker processes) serves the module."""

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import psutil  # noqa: E402  (a dependency of distributed)
import pytest  # noqa: E402

from simkit import cli  # noqa: E402
from simkit.core import backends, files, runner  # noqa: E402
from simkit.core.errors import UserInputError  # noqa: E402
from simkit.starfire.pieces.sheet import parse_sheet  # noqa: E402
from simkit.starfire.procedures import WeaponTable  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
distributed = pytest.importorskip("distributed")


def table(ranges=(1, 3, 9)):
    return WeaponTable(parse_sheet("S S A D O H H H E I I"), list(ranges), 3,
                       families=("missile", "energy_beam", "primary_beam", "force_beam"))


@pytest.fixture(scope="module")
def dask2():
    """The CLI's --workers 2 backend, started once for the module."""
    b = backends.dask_backend(workers=2)
    yield b
    b.close()
    backends._DASK.pop((2, None), None)


# --- Dask ------------------------------------------------------------------------------------

def test_dask_gives_the_local_totals_bit_for_bit(dask2):
    local = runner.run(table(), 40_000, seed=11, chunk_size=7_777, progress=False)
    cut = runner.run(table(), 40_000, seed=11, chunk_size=3_000, backend=dask2, progress=False)
    auto = runner.run(table(), 40_000, seed=11, backend=dask2, progress=False)  # calibrated cuts
    assert np.array_equal(cut.totals, local.totals)
    assert np.array_equal(auto.totals, local.totals)
    assert len(cut.chunks) == 14
    pd.testing.assert_frame_equal(cut.frame, local.frame)


def test_a_local_cluster_leaves_the_default_http_port_alone(recwarn):
    """The scheduler serves HTTP even without its dashboard, on port 8787 unless told: a second
    run (or a parallel test) found it taken and warned. Hold the port and start a cluster."""
    held = socket.socket()
    try:
        held.bind(("", 8787))
        held.listen()
    except OSError:
        pass                                     # someone else holds it: the same test
    try:
        b = backends.DaskBackend(workers=1)
        assert b.client.submit(int, "7").result() == 7
        b.close()
    finally:
        held.close()
    assert not [w for w in recwarn if "already in use" in str(w.message)]


def test_dask_workers_run_numba_single_threaded(dask2):
    views = dask2.worker_threads()
    assert len(views) == 2
    for v in views.values():  # the environment arrived before numba was imported
        assert v["env"] == "1" and v["config"] == 1 and v["pool"] == 1, v


def test_the_cli_keeps_numba_out_of_its_import_chain():
    """multiprocessing re-imports the main module (the `simkit` script imports simkit.cli) in
    every Dask worker before the worker's environment is applied: importing numba there would
    fix its pool at all cores before NUMBA_NUM_THREADS=1 arrives."""
    code = "import sys, simkit.cli; sys.exit(int('numba' in sys.modules))"
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT,
                          env=dict(os.environ, PYTHONPATH=str(ROOT))).returncode == 0


class KillOnce:
    """A real simulation whose chunk starting at ``first == at`` kills its own worker process
    (SIGKILL, no cleanup) the first time it runs; the marker file is the side channel that
    records the kill, so the retry computes normally."""

    def __init__(self, sim, at, marker, parent_pid):
        self.sim, self.at, self.marker, self.parent = sim, at, str(marker), parent_pid
        self.name, self.n_stats = sim.name, sim.n_stats

    def chunk(self, key, first, n):
        if first == self.at and os.getpid() != self.parent and not os.path.exists(self.marker):
            with open(self.marker, "w") as f:
                f.write(str(os.getpid()))
            os.kill(os.getpid(), signal.SIGKILL)
        return self.sim.chunk(key, first, n)

    def summarise(self, totals, n):
        return self.sim.summarise(totals, n)


def test_a_killed_worker_is_retried_and_the_result_is_unchanged(dask2, tmp_path):
    marker = tmp_path / "killed"
    before = {v["pid"] for v in dask2.worker_threads().values()}
    local = runner.run(table(), 30_000, seed=3, chunk_size=5_000, progress=False)
    sim = KillOnce(table(), 10_000, marker, os.getpid())
    res = runner.run(sim, 30_000, seed=3, chunk_size=5_000, backend=dask2, progress=False)
    assert np.array_equal(res.totals, local.totals)
    victim = int(marker.read_text())
    assert victim in before  # it was one of the cluster's worker processes...
    try:  # ...and it is dead (or a zombie its nanny has not reaped yet)
        assert psutil.Process(victim).status() == psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        pass


def test_cli_workers_flag_reaches_the_runner(dask2, tmp_path, capsys):
    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    base = ["weapons", "starfire", "--ranges", "1-3", "--trials", "20000", "--no-progress"]
    assert cli.main(base + ["--out", str(a)]) == 0
    assert cli.main(base + ["--workers", "2", "--out", str(b)]) == 0  # the fixture's cluster
    assert a.read_bytes() == b.read_bytes()


def test_dask_flags_without_dask_installed_give_one_clear_line(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed -> ImportError
    monkeypatch.setattr(backends, "_DASK", {})
    for flags in (["--workers", "2"], ["--cluster", "tcp://127.0.0.1:8786"]):
        assert cli.main(["weapons", "starfire", "--trials", "100", *flags]) == 2
        err = capsys.readouterr().err.strip()
        assert "\n" not in err and "simkit[dask]" in err and flags[0] in err, err


@pytest.mark.parametrize("flags, field", [
    (["--workers", "0"], "--workers"),
    (["--workers", "2", "--cluster", "tcp://h:1"], "--workers"),
    (["--cluster", "localhost"], "--cluster"),
    (["--target-ci", "0"], "--target-ci"),
    (["--target-ci", "0.7"], "--target-ci"),
    (["--chunk-size", "0"], "--chunk-size"),
])
def test_bad_scale_flags_exit_2_naming_the_option(flags, field, capsys):
    assert cli.main(["weapons", "starfire", "--trials", "100", *flags]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and field in err, err


# --- checkpoints and resume ------------------------------------------------------------------

def test_real_kill_then_resume_writes_the_uninterrupted_bytes(tmp_path):
    run_dir, out, full = tmp_path / "run", tmp_path / "out.csv", tmp_path / "full.csv"
    args = ["weapons", "starfire", "--ranges", "1-6", "--trials", "300000", "--chunk-size",
            "10000", "--seed", "7", "--no-progress"]
    proc = subprocess.Popen([sys.executable, "-m", "simkit.cli", *args, "--run-dir", str(run_dir),
                             "--out", str(out)], cwd=ROOT, stdout=subprocess.DEVNULL,
                            env=dict(os.environ, PYTHONPATH=str(ROOT)))
    try:
        deadline = time.time() + 120
        while len(list(run_dir.glob("*/chunk-*.npy"))) < 3 and time.time() < deadline:
            assert proc.poll() is None, "the run ended before it could be killed"
            time.sleep(0.02)
        proc.send_signal(signal.SIGKILL)
        assert proc.wait() == -signal.SIGKILL
    finally:
        if proc.poll() is None:
            proc.kill()
    [sub] = run_dir.glob("*/manifest.json")
    plan = json.loads(sub.read_text())["plan"]
    survivors = {p: p.stat().st_mtime_ns for p in run_dir.glob("*/chunk-*.npy")}
    assert 3 <= len(survivors) < len(plan) == 30 and not out.exists()
    assert cli.main(["resume", str(run_dir)]) == 0
    assert cli.main([*args, "--out", str(full)]) == 0
    assert out.read_bytes() == full.read_bytes()
    # the resumed run reused the killed run's chunks (same simulation hash in a new process)
    assert len(list(run_dir.glob("*/manifest.json"))) == 1
    assert all(p.stat().st_mtime_ns == t for p, t in survivors.items())
    assert len(list(run_dir.glob("*/chunk-*.npy"))) == 30
    assert not list(run_dir.rglob("*.tmp"))


def test_each_simulation_of_a_command_has_its_own_subdirectory(tmp_path):
    a = runner.run(table((1,)), 8_000, seed=2, chunk_size=3_000, progress=False, run_dir=tmp_path)
    b = runner.run(table((3, 9)), 8_000, seed=2, chunk_size=3_000, progress=False,
                   run_dir=tmp_path)
    subs = sorted(p.name for p in tmp_path.iterdir())
    assert len(subs) == 2 and all(s.startswith("starfire-weapons-") for s in subs)
    for p in tmp_path.glob("*/chunk-000000003000-*.npy"):
        p.unlink()  # lose a chunk of each
    assert np.array_equal(runner.run(table((1,)), 8_000, seed=2, progress=False,
                                     run_dir=tmp_path).totals, a.totals)
    assert np.array_equal(runner.run(table((3, 9)), 8_000, seed=2, progress=False,
                                     run_dir=tmp_path).totals, b.totals)
    with pytest.raises(UserInputError, match="seed differ"):
        runner.run(table((1,)), 8_000, seed=3, progress=False, run_dir=tmp_path)


def test_a_longer_run_reuses_the_chunks_of_a_shorter_one(tmp_path):
    """Chunk statistics depend only on (simulation, seed, first, n)."""
    runner.run(table((1,)), 6_000, seed=4, chunk_size=2_000, progress=False, run_dir=tmp_path)
    old = {p: p.stat().st_mtime_ns for p in tmp_path.glob("*/chunk-*.npy")}
    longer = runner.run(table((1,)), 10_000, seed=4, chunk_size=2_000, progress=False,
                        run_dir=tmp_path)
    assert np.array_equal(longer.totals,
                          runner.run(table((1,)), 10_000, seed=4, progress=False).totals)
    assert len(old) == 3 and all(p.stat().st_mtime_ns == t for p, t in old.items())
    assert len(list(tmp_path.glob("*/chunk-*.npy"))) == 5


def test_fingerprint_tells_simulations_apart_and_ignores_object_addresses():
    """(Stability across processes is shown by the kill-and-resume test: the resumed run, in
    another interpreter with another hash seed, finds the killed run's subdirectory.)"""
    assert runner.fingerprint(table()) == runner.fingerprint(table())
    assert runner.fingerprint(table((1, 3))) != runner.fingerprint(table())
    assert runner.fingerprint(KillOnce(table(), 1, "m", 1)) != runner.fingerprint(
        KillOnce(table(), 2, "m", 1))


def test_resume_refuses_what_it_cannot_resume(tmp_path, capsys):
    assert cli.main(["resume", str(tmp_path)]) == 2
    assert "command.json" in capsys.readouterr().err
    base = ["weapons", "starfire", "--ranges", "1", "--trials", "2000", "--no-progress",
            "--run-dir", str(tmp_path)]
    assert cli.main(base) == 0
    assert cli.main(base + ["--seed", "1"]) == 2  # another command in the same run dir
    assert "different command" in capsys.readouterr().err
    (tmp_path / "command.json").write_text("{not json")
    assert cli.main(["resume", str(tmp_path)]) == 2


# --- adaptive stopping -----------------------------------------------------------------------

def test_target_ci_stops_when_every_rate_is_tight_enough_reproducibly(dask2):
    a = runner.run(table(), 1_000_000, seed=5, target_ci=0.005, progress=False)
    b = runner.run(table(), 1_000_000, seed=5, target_ci=0.005, chunk_size=4_321, threads=1,
                   progress=False)
    c = runner.run(table(), 1_000_000, seed=5, target_ci=0.005, backend=dask2, progress=False)
    assert a.target_met and a.n_trials < 1_000_000 and a.half_width <= 0.005
    assert b.n_trials == c.n_trials == a.n_trials
    assert np.array_equal(a.totals, b.totals) and np.array_equal(a.totals, c.totals)
    f = a.frame
    for col in ("p_hit", "p_internal"):
        assert ((f[f"{col}_hi"] - f[f"{col}_lo"]) / 2).max() <= 0.005
    # it stopped at the first checkpoint that met the target: the one before did not
    checks = [runner._first_check(0.005, 10**6)]
    while checks[-1] < a.n_trials:
        prev = runner.run(table(), checks[-1], seed=5, progress=False)
        hw = runner.max_rate_half_width(table(), prev.frame)
        assert hw > 0.005
        checks.append(runner._next_check(checks[-1], hw, 0.005, 10**6))
    assert checks[-1] == a.n_trials


def test_target_ci_stops_at_the_cap_and_says_so(capsys):
    res = runner.run(table((1,)), 5_000, seed=1, target_ci=0.001, progress=False)
    assert res.n_trials == 5_000 and res.target_met is False and res.half_width > 0.001
    assert res.frame.attrs["target_ci"]["met"] is False
    assert "--target-ci" in capsys.readouterr().err


def test_target_ci_resumes_from_a_run_dir(tmp_path):
    full = runner.run(table(), 10**6, seed=8, target_ci=0.01, chunk_size=2_000, progress=False)
    runner.run(table(), 10**6, seed=8, target_ci=0.01, chunk_size=2_000, progress=False,
               run_dir=tmp_path)
    chunks = sorted(tmp_path.glob("*/chunk-*.npy"))
    for p in chunks[len(chunks) // 2:]:
        p.unlink()
    res = runner.run(table(), 10**6, seed=8, target_ci=0.01, progress=False, run_dir=tmp_path)
    assert res.n_trials == full.n_trials and np.array_equal(res.totals, full.totals)


class Means:
    name, n_stats = "means only", 2

    def chunk(self, key, first, n):
        return np.array([n, n], dtype=np.int64)

    def summarise(self, totals, n):
        return pd.DataFrame({"mean_x": [1.0], "mean_x_lo": [0.9], "mean_x_hi": [1.1]})


def test_which_columns_are_rates():
    frame = pd.DataFrame({"win_rate": [0.5], "win_lo": [0.4], "win_hi": [0.6],
                          "p_hit": [0.5], "p_hit_lo": [0.45], "p_hit_hi": [0.55],
                          "p_hit_exact": [0.5], "mean_damage": [3.0], "mean_damage_lo": [1.0],
                          "mean_damage_hi": [5.0], "p_cond": [np.nan], "p_cond_lo": [np.nan],
                          "p_cond_hi": [np.nan]})
    assert [c for c, _, _ in runner.rate_columns(Means(), frame)] == ["win_rate", "p_hit", "p_cond"]
    assert runner.max_rate_half_width(Means(), frame) == pytest.approx(0.1)  # NaN rows ignored
    named = Means()
    named.reported_rates = ["p_hit"]
    assert runner.max_rate_half_width(named, frame) == pytest.approx(0.05)
    with pytest.raises(UserInputError, match="reports no rates"):
        runner.run(Means(), 10_000, target_ci=0.01, progress=False)


# --- atomic outputs --------------------------------------------------------------------------

def test_a_failed_write_leaves_the_old_file_and_no_half_file(tmp_path, monkeypatch):
    out = tmp_path / "t.csv"
    frame = pd.DataFrame({"a": range(1000)})
    files.write_frame(frame, out)
    good = out.read_bytes()

    def half_then_crash(self, path, **kw):
        Path(path).write_text("a\n0\n1\n")
        raise OSError("disk full")

    monkeypatch.setattr(pd.DataFrame, "to_csv", half_then_crash)
    with pytest.raises(OSError):
        files.write_frame(pd.DataFrame({"a": [5]}), out)
    with pytest.raises(OSError):
        files.write_frame(frame, tmp_path / "new.csv")
    assert out.read_bytes() == good and not (tmp_path / "new.csv").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.csv"]  # no temporary left


def test_a_failed_plot_leaves_the_old_file_and_no_half_file(tmp_path, monkeypatch):
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    fig, ax = plt.subplots()
    ax.plot([1, 2], [3, 4])
    files.save_figure(fig, tmp_path / "ok.png")
    good = (tmp_path / "ok.png").read_bytes()
    assert good[:4] == b"\x89PNG"

    def half_then_crash(self, fname, **kw):
        with open(fname, "wb") as f:
            f.write(good[:100])
        raise OSError("disk full")

    monkeypatch.setattr(FigureCanvasAgg, "print_png", half_then_crash)
    for name in ("ok.png", "new.png"):
        with pytest.raises(OSError):
            files.save_figure(fig, tmp_path / name)
    plt.close(fig)
    assert (tmp_path / "ok.png").read_bytes() == good
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ok.png"]
