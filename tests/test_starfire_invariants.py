"""Starfire rules as invariants over many seeded games (issue 13, Evidence): every turn of every
logged game of every shipped scenario keeps the sequence of play (3.1), the firing order (5.1),
one target a turn (5.5, 8.5), fire once a turn (5.8), Primary Beams every other turn (6.5),
Bases that never move and are never tractored (9.1), and warp-point arrivals and exits (9.4).
Golden logs only guard against change; these assertions say what must hold in any game."""

import re
from pathlib import Path

import pytest

from simkit.starfire.scenario import playthrough
from simkit.starfire.scenario import load_scenario

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = sorted((ROOT / "scenarios/starfire").glob("*.toml"))
GAMES = 12  # seeded games per scenario: each test below sees every scenario's 12


_CACHE = {}


def games(path):
    if path not in _CACHE:
        _CACHE[path] = [playthrough(path, seed=31, trial=t)[0] for t in range(GAMES)]
    return _CACHE[path]


def turns(lines):
    """{turn: [lines of that turn]} (the END line left out)."""
    out = {}
    for line in lines[1:]:
        m = re.match(r"T(\d\d) ", line)
        if m:
            out.setdefault(int(m.group(1)), []).append(line)
    return out


PHASE = {"initiative:": 0, "arrive": 1, "pivot": 2, "mp": 2, "": 2, "pull": 2, "exit": 2,
         "scan": 3, "fire": 4, "DESTROYED": 4, "release": 5, "tractor": 5, "repair": 6}


def phase(line):
    word = line[4:].split(" ", 1)[0]
    if re.fullmatch(r"mp\d+", word):
        word = "mp"
    return PHASE[word]


def fires(turn_lines):
    """[(shooter, target, family)] of one turn, in order."""
    out = []
    for line in turn_lines:
        m = re.match(r"T\d\d fire    (\S+) -> (\S+): \d+ x (\w+),", line)
        if m:
            out.append(m.groups())
    return out


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_sequence_of_play_and_firing_order_in_every_turn(path):
    """(3.1) initiative, arrivals (9.4), movement, combat, tractor beams, record keeping, in that
    order every turn; (3.23, 5.1) the initiative winner opens fire when it fires at all, and
    the sides alternate one ship at a time: a side fires two ships running only when the other
    has no ship left to fire that turn; (5.8) a ship fires in one block of lines a turn."""
    sc = load_scenario(path)
    side_of = {s.name: sc.sides[s.side] for s in sc.ships}
    for lines in games(path):
        for turn, tl in turns(lines).items():
            ranks = [phase(line) for line in tl if not line.startswith("            ")]
            assert ranks == sorted(ranks), (path.stem, turn, tl)
            assert tl[0].startswith(f"T{turn:02d} initiative: ")
            first = tl[0].split()[2]
            blocks = []  # shooters in firing order, one entry per ship's block
            for shooter, _, _ in fires(tl):
                if not blocks or blocks[-1] != shooter:
                    assert shooter not in blocks, (path.stem, turn, shooter)  # (5.8)
                    blocks.append(shooter)
            sides = [side_of[b] for b in blocks]
            if sides:
                assert sides[0] == first or first not in sides, (path.stem, turn, sides)
            for i in range(1, len(sides)):
                if sides[i] == sides[i - 1]:
                    assert all(x == sides[i] for x in sides[i:]), (path.stem, turn, sides)


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_one_target_a_turn_and_primary_beams_every_other_turn(path):
    """(5.5) a ship without Multiplex Tracking or Tractor Beams fires at one ship a turn,
    (8.5) one with (Mn) at no more than n; (6.5) no ship fires Primary Beams in two turns
    running."""
    sc = load_scenario(path)
    sheets = {s.name: s.sheet for s in sc.ships}
    for lines in games(path):
        primary = {}
        for turn, tl in turns(lines).items():
            targets = {}
            for shooter, target, fam in fires(tl):
                targets.setdefault(shooter, set()).add(target)
                if fam == "primary_beam":
                    assert turn - primary.get(shooter, -10) >= 2, (path.stem, shooter, turn)
                    primary[shooter] = turn
            for shooter, ts in targets.items():
                sheet = sheets[shooter]
                if "T" in sheet.systems:
                    continue
                assert len(ts) <= max(1, sheet.multiplex), (path.stem, turn, shooter, ts)


def test_primary_beams_fire_in_the_games_that_carry_them():
    """The every-other-turn check above is not vacuous: Primary Beams do fire, more than once
    per ship in some game."""
    path = ROOT / "scenarios/starfire/base-assault.toml"
    counts = [sum(" x primary_beam," in line for line in lines) for lines in games(path)]
    assert max(counts) >= 2, counts


@pytest.mark.parametrize("stem", ["base-assault", "escalation"])
def test_bases_never_move_and_are_never_tractored(stem):
    """(9.1): a Base fires and is fired on like a ship, but it cannot move, and no Tractor
    Beam may be used against it."""
    path = ROOT / f"scenarios/starfire/{stem}.toml"
    bases = [s.name for s in load_scenario(path).ships if s.base]
    assert bases
    fired_on = 0
    for lines in games(path):
        for b in bases:
            assert not any(re.search(rf"(mp\d+ +{b} (->|turns)|pivot +{b} |{b} dragged|"
                                     rf"{b} pulled|latches onto {b} )", line)
                           for line in lines), (stem, b)
            fired_on += sum(f"-> {b}:" in line for line in lines)
    assert fired_on > 0


def _warp_hexes(text, names=None):
    """Hexes of the scenario's warp points (all, or those named)."""
    found = re.findall(r'kind = "warp_point"\s*\nname = "(\w+)"\s*\nhex = "(\d{4})"', text)
    return {h for n, h in found if names is None or n in names}


@pytest.mark.parametrize("stem", ["escalation", "convoy", "first-contact"])
def test_warp_points_arrivals_and_exits(stem):
    """(9.4): a ship due through a warp point is placed on a warp point's hex at the start of
    the movement phase of its turn (before any ship moves); a ship leaves the map only from
    the hex of its side's exit warp point, and never moves or fires again."""
    path = ROOT / f"scenarios/starfire/{stem}.toml"
    text = path.read_text()
    warp_of = dict(re.findall(r'name = "(\w+)"\s*\nsheet = "[^"]*"\s*\nwarp = "(\w+)"', text))
    exit_hexes = _warp_hexes(text, set(re.findall(r'exit = "(\w+)"', text)))
    arrivals = exits_seen = 0
    for lines in games(path):
        gone = {}
        for turn, tl in turns(lines).items():
            for i, line in enumerate(tl):
                m = re.match(r"T\d\d arrive  (\S+) at (\d{4})", line)
                if m:
                    arrivals += 1
                    if m.group(1) in warp_of:
                        assert {m.group(2)} == _warp_hexes(text, {warp_of[m.group(1)]}), line
                    assert not any(re.match(r"T\d\d (mp\d+|pivot) ", x) for x in tl[:i]), line
                m = re.match(r"T\d\d exit    (\S+) leaves by the warp point at (\d{4})", line)
                if m:
                    exits_seen += 1
                    assert m.group(2) in exit_hexes, (stem, line)
                    gone[m.group(1)] = (turn, i)
                for ship, (t, j) in gone.items():
                    if (turn, i) > (t, j) and re.match(rf"T\d\d (mp\d+|fire|pivot) +{ship} ",
                                                       line):
                        raise AssertionError((stem, ship, line))
    assert arrivals + exits_seen > len(warp_of) and (warp_of or exits_seen), stem
