"""simkit report: the real command over every registered game, opened in headless Chromium.

The page must load and every <img> must render (naturalWidth > 0); a deliberately broken image
must make the same check fail. Registry hooks and the generic fallback are exercised with small
test-only games, so a game that gains analyses later needs no edit of the report.
"""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import subprocess
import types
from pathlib import Path

import pandas as pd
import pytest

from simkit import games
from simkit.cli import main
from simkit.core.data import RulesData, Table, Variant
from simkit.core.game import Analysis, Game
from simkit.report import build_report

ROOT = Path(__file__).resolve().parents[1]
#: the test forces this many trials per cell and per scenario (the page says so)
TRIALS = "100"


# --- headless Chromium -------------------------------------------------------------------------

_PROBE = """<script>
window.addEventListener("load", function () {
  var imgs = Array.prototype.slice.call(document.images);
  var broken = imgs.filter(function (i) { return !i.complete || i.naturalWidth === 0; })
                   .map(function (i) { return i.getAttribute("src"); });
  var out = document.createElement("pre");
  out.id = "simkit-image-check";
  out.textContent = JSON.stringify({title: document.title, images: imgs.length,
                                    broken: broken});
  document.body.appendChild(out);
});
</script>"""


def chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        if shutil.which(name):
            return shutil.which(name)
    return None


def browser_check(page: Path) -> dict:
    """Open ``page`` in headless Chromium; after its load event, which <img>s did not render.

    A copy of the page with a small probe script sits beside it (same folder, so relative image
    paths resolve the same); ``--dump-dom`` prints the DOM once the page has loaded.
    """
    exe = chromium()
    if exe is None:
        if os.environ.get("SIMKIT_REQUIRE_CHROMIUM"):
            pytest.fail("chromium is not on PATH (.ci/run installs it)")
        pytest.skip("chromium is not installed (apt-get install chromium)")
    probe = page.with_name("_probe_" + page.name)
    probe.write_text(page.read_text(encoding="utf-8").replace("</body>", _PROBE + "</body>"),
                     encoding="utf-8")
    try:
        p = subprocess.run([exe, "--headless", "--no-sandbox", "--disable-gpu",
                            "--disable-dev-shm-usage", "--no-first-run",
                            "--virtual-time-budget=15000", "--dump-dom", probe.as_uri()],
                           capture_output=True, text=True, timeout=120)
    finally:
        probe.unlink()
    m = re.search(r'<pre id="simkit-image-check">(.*?)</pre>', p.stdout, re.S)
    assert m, f"the page did not finish loading in Chromium:\n{p.stderr[-2000:]}"
    return json.loads(html.unescape(m.group(1)))


# --- the real command --------------------------------------------------------------------------

# session scope: xdist interleaves other modules' tests between these on their worker, and a
# module fixture was torn down and the report built again in between (195 s each time)
@pytest.fixture(scope="session")
def report_dir(tmp_path_factory):
    out = tmp_path_factory.mktemp("report") / "report"
    # --sensitivity 0: a variant sweep re-loads a scenario once per choice, which some engines
    # make slow; the report's sensitivity sections are tested with the toy games below
    assert main(["report", "--quick", "--trials", TRIALS, "--sensitivity", "0",
                 "--out", str(out), "--scenarios", str(ROOT / "scenarios"),
                 "--threads", "2"]) == 0
    return out


@pytest.mark.xdist_group("report")  # one worker builds the report once
def test_report_page_loads_and_every_image_renders_in_chromium(report_dir):
    page = report_dir / "index.html"
    text = page.read_text()
    n_img = text.count("<img ")
    assert n_img >= len(games.available())          # every game draws at least one plot
    got = browser_check(page)
    assert got["title"].startswith("simkit report")
    assert got["images"] == n_img and got["broken"] == []


@pytest.mark.xdist_group("report")  # one worker builds the report once
def test_a_broken_image_fails_the_browser_check(report_dir, tmp_path):
    bad = tmp_path / "bad"
    shutil.copytree(report_dir, bad)
    victim = sorted(bad.glob("*.png"))[0]
    victim.write_bytes(b"\x89PNG\r\n\x1a\nthis is not an image")       # corrupt bytes
    page = bad / "index.html"
    page.write_text(page.read_text().replace(
        "</body>", '<img src="no-such-plot.png" alt="missing"></body>'))
    got = browser_check(page)
    assert set(got["broken"]) >= {victim.name, "no-such-plot.png"}


@pytest.mark.xdist_group("report")  # one worker builds the report once
def test_report_covers_every_game_its_rules_and_its_scenarios(report_dir):
    text = html.unescape((report_dir / "index.html").read_text())
    assert f"Trials forced to {int(TRIALS):,}" in text and "--sensitivity 0" in text
    assert "Sensitivity of" not in text
    for name in games.available():
        g = games.get(name)
        assert g.title in text
        rules = g.rules()
        for table, label, source in rules.provenance():
            assert table in text and source in text, (name, table)
        for v in rules.variants.values():
            assert v.name in text and v.doc in text
        files = sorted((ROOT / "scenarios" / name).glob("*.toml"))
        if g.scenario is not None:
            for f in files:
                assert f"Scenario {f.name}" in text
            # quick: the first scenario's balance, default beside equilibrium
            assert f"Balance of {files[0].name}: default and equilibrium win rates" in text
            assert f"{name}-{files[0].stem}-balance.png" in text
        else:
            assert f"{g.title} has no scenario engine yet" in text
    # every image and every CSV the page links to is there, and the CSVs read back
    for src in re.findall(r'<img src="([^"]+)"', text):
        assert (report_dir / src).stat().st_size > 1000, src
    links = re.findall(r'<a href="([^"]+\.csv)">', text)
    assert links and all(len(pd.read_csv(report_dir / c).columns) for c in links)


@pytest.mark.parametrize("argv,needle", [
    (["report", "--games", "chess"], "--games: unknown game 'chess'"),
    (["report", "--trials", "0"], "--trials"),
    (["report", "--variant", "a=b"], "--variant"),
    (["report", "--scenarios", "/no/such/folder"], "--scenarios"),
    (["report", "--sensitivity", "-1"], "--sensitivity"),
])
def test_bad_input_is_one_line_and_status_2(argv, needle, capsys, tmp_path):
    assert main(argv + ["--out", str(tmp_path / "r")]) == 2
    err = capsys.readouterr().err.strip()
    assert needle in err and len(err.splitlines()) == 1 and "Traceback" not in err


def test_out_must_be_a_folder(tmp_path, capsys):
    f = tmp_path / "file"
    f.write_text("x")
    assert main(["report", "--out", str(f), "--games", "starfire"]) == 2
    assert "--out" in capsys.readouterr().err


# --- registry hooks and the generic fallback, with test-only games -----------------------------

def _rules():
    return RulesData(
        {"speed": Table("speed", "RULE-TEXT", "toy.txt (1.1)", {"rows": {"a": [1, 2]}}),
         "armour": Table("armour", "RECONSTRUCTED", "reconstructed: toy reason <&>", {})},
        {"gravity": Variant("gravity", "book vs card", "book",
                            {"book": {"doc": "as printed"}, "card": {"doc": "the card's"}})})


def _plot(path):
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(3, 2))
    ax.plot([0, 1], [1, 0])
    fig.savefig(path)
    plt.close(fig)


def _fake_games(monkeypatch):
    seen = {}

    def weapons(*, trials, seed, reach=1, **run_opts):
        seen["weapons"] = (trials, seed, reach, sorted(run_opts))
        f = pd.DataFrame({"weapon": ["ray"], "p_hit": [0.5]})
        f.attrs["title"] = f"Toy weapons, {trials:,} trials/cell\nsecond line of the caption"
        f.attrs["notes"] = ["read the ray as a laser"]
        f.attrs["extra"] = {"toy extra table": pd.DataFrame({"x": [1, 2], "rate": [0.5, 0.25]})}
        return f

    def builds(*, trials, seed, budget=None, population=32, **run_opts):
        seen["builds"] = (trials, budget, population)
        return pd.DataFrame({"rank": [1, 2], "build": ["fast", "slow"], "speed": [9, 3]})

    def board(**run_opts):
        return pd.DataFrame({"terrain": ["sand"], "hexes": [7]})

    def broken(**kw):
        raise RuntimeError("kernel exploded")

    def scenario(path, *, trials, seed, policies, all_policies, variants, **run_opts):
        from simkit.core.data import read_toml

        raw = read_toml(path)
        # a toy engine: the build's speed and the gravity variant move the win rate
        wins = int(trials * (0.3 + 0.05 * raw.get("speed", 4)
                             - (0.1 if variants.get("gravity") == "card" else 0)))
        lo, hi = wins / trials - 0.02, wins / trials + 0.02
        return pd.DataFrame({"scenario": raw.get("name", "duel"), "side": ["a", "b"],
                             "policy": "p", "trials": trials, "wins": [wins, trials - wins],
                             "win_rate": [wins / trials, 1 - wins / trials],
                             "win_lo": [lo, 1 - hi], "win_hi": [hi, 1 - lo]})

    def build_scenario(row, workdir):
        path = Path(workdir) / f"{row['build']}.toml"
        path.write_text(f'game = "plain"\nname = "{row["build"]}"\nspeed = {row["speed"]}\n')
        return path

    headline = (
        Analysis("weapons", "Toy weapon value", weapons, trials=50_000,
                 plot=lambda frame, path: _plot(path), command="simkit weapons plain"),
        Analysis("builds", "Toy build search", builds, trials=100_000,
                 trials_option="--trials-budget", quick={"population": 4},
                 command="simkit builds plain --budget 80"),
        Analysis("board", "Toy board", board, plot=lambda frame, path: _plot(path)),
    )
    fakes = {
        "broken": Game("broken", "Broken (Toy, 2002)", _rules,
                       headline=(Analysis("weapons", "Exploding weapons", broken, trials=10),)),
        "plain": Game("plain", "Plain (Toy, 2003)", _rules, {},
                      {"build_scenario": build_scenario},
                      scenario=types.SimpleNamespace(table=scenario), headline=headline),
        "bare": Game("bare", "Bare (Toy, 2004)", _rules),
    }
    monkeypatch.setattr(games, "available", lambda: list(fakes))
    monkeypatch.setattr(games, "get", lambda n: fakes[n])
    return seen


def test_games_contribute_their_headline_analyses(tmp_path, monkeypatch):
    seen = _fake_games(monkeypatch)
    scen = tmp_path / "scenarios"
    for game in ("plain", "bare"):
        (scen / game).mkdir(parents=True)
        (scen / game / "duel.toml").write_text(f'game = "{game}"\nname = "Duel"\n')
    out = tmp_path / "rep"
    # balance=0: the toy engine has no policy space (the real report test checks the section)
    page, failures = build_report(out, quick=True, seed=7, scenarios_dir=scen, balance=0,
                                  run_args={"threads": 1}, log=open(os.devnull, "w"))
    text = html.unescape(page.read_text())
    # quick = default / 100 (at least 200), the seed and the run flags passed on; a search
    # keeps its own quick options
    assert seen["weapons"] == (500, 7, 1, ["progress", "threads"])
    assert seen["builds"] == (1000, None, 4)
    assert "simkit weapons plain --trials 500 --seed 7" in text
    assert "simkit builds plain --budget 80 --population 4 --trials-budget 1000 --seed 7" in text
    # the frame's caption, notes and extra tables; its CSV and its drawing
    assert "Toy weapons, 500 trials/cell" in text and "second line of the caption" in text
    assert "read the ray as a laser" in text and "toy extra table" in text
    assert pd.read_csv(out / "plain-weapons.csv").shape == (1, 2)
    assert (out / "plain-weapons.png").exists() and (out / "plain-board.png").exists()
    # a failing analysis is stated on the page, and the rest of the report is still there
    assert failures == ["Broken (Toy, 2002): Exploding weapons: failed: RuntimeError: "
                        "kernel exploded"]
    assert "failed: RuntimeError: kernel exploded" in text and "Plain (Toy, 2003)" in text
    assert "Bare (Toy, 2004) offers no headline analyses yet" in text
    assert "Bare (Toy, 2004) offers no build search yet" in text
    # the best build of the leaderboard, through build_scenario, under each variant choice
    assert "Sensitivity of the best build to the rule variants" in text
    sens = pd.read_csv(next(out.glob("plain-sensitivity-of-the-best-build-*.csv")))
    row = sens[sens.setting == "gravity=card"].set_index("side")
    assert row.loc["a", "delta"] == pytest.approx(-0.1) and (sens.build == "fast").all()
    assert (out / "plain-builds" / "fast.toml").exists()
    # scenarios: played by the game's engine, or one clear line when it has none
    assert "Scenario duel.toml" in text and (out / "plain-scenario-duel.png").exists()
    assert "Sensitivity of duel.toml to the rule variants" in text
    assert ("Bare (Toy, 2004) has no scenario engine yet (GAME.scenario): "
            "1 scenario file(s) under scenarios/bare/ are not played.") in text
    assert "Broken (Toy, 2002) has no scenario engine yet" in text
    # provenance and variants of every game (text escaped properly)
    assert "reconstructed: toy reason <&>" in text and "yes (default)" in text
    assert "&lt;&amp;&gt;" in page.read_text()
    # the page itself renders in a browser
    got = browser_check(page)
    assert got["images"] >= 4 and got["broken"] == []


def test_strict_exit_status_when_an_analysis_fails(tmp_path, monkeypatch, capsys):
    _fake_games(monkeypatch)
    args = ["report", "--quick", "--out", str(tmp_path / "r"), "--scenarios", str(tmp_path)]
    assert main(args) == 0
    assert main(args + ["--strict"]) == 1
    assert "1 analysis(es) failed" in capsys.readouterr().err
    assert (tmp_path / "r" / "index.html").exists()
