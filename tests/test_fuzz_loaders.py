"""Bad input never crashes (issue 7, section 5): property-based fuzzing of every user loader.

Every loader and parser that reads a user's file or string is listed ONCE in ``LOADERS`` below
(a new game's scenario loader is one more line). Each gets, deterministically
(``derandomize=True``, so CI sees the same examples every run):

* structured mutations of its real sample files: one field dropped, replaced by a value of
  another type, or retyped (``3`` -> ``"3"``, ``"x"`` -> ``["x"]``), nested anywhere;
* random TOML documents whose keys come from the real files' vocabulary (so validation, not
  just parsing, is reached), random text and random bytes;
* for string parsers (control sheets, build strings, compact car strings), token-level
  mutations of real strings and random strings over their alphabet.

The property: the loader returns, or raises :class:`UserInputError` whose message names the
file (or the option) and a field. Any other exception is a crash and fails the test.
"""

from __future__ import annotations

import json
import math
import os
import tempfile
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simkit.core.errors import UserInputError

ROOT = Path(__file__).resolve().parents[1]

# Moderate example counts: the whole fuzz suite must stay well under a minute on 2 busy cores.
# SIMKIT_FUZZ_EXAMPLES=2000 explores further (and randomly) by hand; CI stays deterministic.
_EXPLORE = int(os.environ.get("SIMKIT_FUZZ_EXAMPLES", "0"))
FUZZ = settings(max_examples=_EXPLORE or 60, derandomize=not _EXPLORE, deadline=None,
                database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much,
                                       HealthCheck.data_too_large])

# Whole-file problems: the file itself is the field, so only the file must be named.
FILE_LEVEL = ("not valid TOML", "not a UTF-8 text file", "file not found", "is a folder",
              "cannot be read")


from simkit.core.tomlw import dumps as toml_dumps  # noqa: E402


# --- strategies ---------------------------------------------------------------------------

def _scalars(words):
    return st.one_of(
        st.integers(-3, 40), st.integers(-2**63, 2**63 - 1), st.booleans(),
        st.floats(allow_nan=True, allow_infinity=True), st.sampled_from(words),
        st.text(max_size=12), st.just(""), st.sampled_from(["0608", "1-6", "S S A I", "N",
                                                            "none", "all", "-1", "1e9"]))


def _values(words):
    return st.recursive(_scalars(words),
                        lambda inner: st.one_of(
                            st.lists(inner, max_size=5),
                            st.dictionaries(st.sampled_from(words) | st.text(max_size=6), inner,
                                            max_size=4)),
                        max_leaves=12)


def _paths(doc, prefix=()):
    """Every (path) to a value in a nested dict/list document."""
    items = doc.items() if isinstance(doc, dict) else enumerate(doc)
    for k, v in items:
        yield prefix + (k,)
        if isinstance(v, (dict, list)):
            yield from _paths(v, prefix + (k,))


def _keys(doc) -> set[str]:
    out = set()
    for p in _paths(doc):
        out.update(str(k) for k in p if isinstance(k, str))
    return out


def _retype(v):
    """The same content in another TOML type."""
    if isinstance(v, bool):
        return int(v)
    if isinstance(v, int):
        return [str(v), float(v) + 0.5, [v], {"value": v}][abs(v) % 4]
    if isinstance(v, float):
        return int(v) if math.isfinite(v) else str(v)
    if isinstance(v, str):
        return [v] if len(v) % 2 else {"value": v}
    if isinstance(v, list):
        return {str(i): x for i, x in enumerate(v)} if v else ""
    if isinstance(v, dict):
        return list(v.values()) or 0
    return str(v)


def _token_text(tokens, max_size):
    """Strings made of whole tokens (letters, keywords, separators) of a format."""
    return st.lists(st.sampled_from(tokens), max_size=max_size).map("".join)


@st.composite
def mutated_documents(draw, sample_docs, words):
    """A real file's document with one field dropped, replaced or retyped."""
    doc = json.loads(json.dumps(draw(st.sampled_from(sample_docs)), default=str))
    paths = list(_paths(doc))
    if not paths:
        return doc
    path = draw(st.sampled_from(paths))
    parent = doc
    for k in path[:-1]:
        parent = parent[k]
    last = path[-1]
    op = draw(st.sampled_from(["drop", "replace", "retype", "duplicate_list_item", "extra_key"]))
    if op == "drop":
        del parent[last]
    elif op == "replace":
        parent[last] = draw(_values(words))
    elif op == "retype":
        parent[last] = _retype(parent[last])
    elif op == "duplicate_list_item" and isinstance(parent, list):
        parent.append(json.loads(json.dumps(parent[last])))
    elif op == "extra_key" and isinstance(parent[last], dict):
        parent[last][draw(st.sampled_from(words) | st.text(min_size=1, max_size=6))] = \
            draw(_values(words))
    else:
        parent[last] = draw(_values(words))
    return doc


@st.composite
def toml_files(draw, sample_docs, words):
    """File content (bytes): mostly mutations of the real files, also random documents,
    random text that may or may not be TOML, and raw bytes."""
    kind = draw(st.sampled_from(["mutate"] * 6 + ["random_doc"] * 2 + ["text", "bytes"]))
    if kind == "mutate":
        return toml_dumps(draw(mutated_documents(sample_docs, words))).encode("utf-8")
    if kind == "random_doc":
        doc = draw(st.dictionaries(st.sampled_from(words), _values(words), max_size=6))
        return toml_dumps(doc).encode("utf-8")
    if kind == "text":
        return draw(_token_text(list("[]{}=\"'.,#\n ab1-_") + words, 40)).encode("utf-8")
    return draw(st.binary(max_size=40))


@st.composite
def mutated_strings(draw, samples, alphabet, separators=(" ",)):
    """A real string with a token dropped, duplicated or replaced, or a random string."""
    if draw(st.booleans()):
        return draw(_token_text(alphabet, 30))
    s = draw(st.sampled_from(samples))
    sep = draw(st.sampled_from(separators))
    toks = s.split(sep)
    i = draw(st.integers(0, max(0, len(toks) - 1)))
    op = draw(st.sampled_from(["drop", "dup", "replace", "insert_garbage"]))
    if op == "drop" and toks:
        toks.pop(i)
    elif op == "dup" and toks:
        toks.insert(i, toks[i])
    elif op == "replace" and toks:
        toks[i] = draw(_token_text(alphabet, 4))
    else:
        toks.insert(i, draw(st.text(max_size=4)))
    return sep.join(toks)


# --- the loaders ----------------------------------------------------------------------------

@dataclass(frozen=True)
class FileLoader:
    """A loader of a user's TOML file: ``load(path)`` returns or raises UserInputError."""

    name: str
    load: Callable[[Path], Any]
    samples: Callable[[], list[Path]]     # real files to mutate (at least one)
    suffix: str = ".toml"


@dataclass(frozen=True)
class StringLoader:
    """A parser of a user's string: ``load(text)`` returns or raises UserInputError naming
    ``where`` (the option or source the string came from)."""

    name: str
    load: Callable[[str], Any]
    samples: tuple[str, ...]
    alphabet: tuple[str, ...]
    where: str
    separators: tuple[str, ...] = (" ",)


def _starfire_scenario(path):
    from simkit.starfire.engine import BattleSim
    from simkit.starfire.scenario import load_scenario

    return BattleSim(load_scenario(path))      # validated and turned into kernel arrays


def _demons_run_build_file(path):
    from simkit.demons_run.builds import check_build

    return check_build(str(path), where=str(path))


def _demons_run_board(path):
    from simkit.demons_run.pieces.board import load_board

    return load_board(path)


def _demo_derby_arena(path):
    from simkit.demo_derby.pieces.arena import load_arena

    return load_arena(path)


def _dark_future_car(path):
    from simkit.dark_future.builds import car_from, validate

    return validate(car_from(str(path)))


def _rules_file(path):
    from simkit.core.data import load_rules

    rules = load_rules(path)
    return rules.with_variants({})            # defaults applied: patches are read too


def _read_toml(path):
    from simkit.core.data import read_toml

    return read_toml(path)


def _glob(pattern):
    return lambda: sorted(ROOT.glob(pattern))


def _demons_run_build_samples():
    return [ROOT / "tests" / "fixtures" / "fuzz" / "demons-run-build.toml",
            ROOT / "tests" / "fixtures" / "fuzz" / "demons-run-build-top.toml"]


def _starfire_sheet(text):
    from simkit.starfire.pieces.sheet import parse_sheet

    return parse_sheet(text, where="--target")


def _demons_run_build_string(text):
    from simkit.demons_run.builds import check_build

    if text.strip().lower().endswith(".toml"):   # a path, not a build string: another loader
        text = text + "x"
    return check_build(text, where="--check")


def _dark_future_compact(text):
    from simkit.dark_future.builds import parse_compact, validate

    if text.strip().lower().endswith(".toml"):
        text = text + "x"
    return validate(parse_compact(text))


def _variant_options(text):
    from simkit import games
    from simkit.core.data import parse_variant_options

    chosen = parse_variant_options(text.split(";"))      # as from repeated --variant options
    for g in games.all_games():
        try:
            g.rules().resolve(chosen)
        except UserInputError as e:
            if "unknown variant" not in str(e):
                raise
    return chosen


def _variant_samples():
    from simkit import games

    out = []
    for g in games.all_games():
        for v in g.rules().variants.values():
            out.append(";".join(f"{v.name}={c}" for c in list(v.choices)[:1]))
    return tuple(out) or ("x=y",)


FILE_LOADERS = [
    FileLoader("core.read_toml", _read_toml, _glob("scenarios/*/*.toml")),
    FileLoader("core.load_rules", _rules_file, _glob("simkit/*/data/*.toml")),
    FileLoader("starfire.scenario", _starfire_scenario,
               lambda: sorted(ROOT.glob("scenarios/starfire/*.toml"))
               + [ROOT / "tests" / "fixtures" / "starfire-movement-example.toml"]),
    FileLoader("demons-run.build", _demons_run_build_file, _demons_run_build_samples),
    FileLoader("demons-run.board", _demons_run_board, _glob("simkit/demons_run/data/board.toml")),
    FileLoader("demo-derby.arena", _demo_derby_arena, _glob("simkit/demo_derby/data/arena.toml")),
    FileLoader("dark-future.car", _dark_future_car, _glob("tests/fixtures/fuzz/dark-future-*.toml")),
    # New loaders (a game's scenario files, ...): one line here, with real sample files.
]

_SHEET_LETTERS = tuple("SAHRLIWBFGDPCVTZEOXQMN") + ("(M2)", "(M3)", "(6)", "(M1)", "-", " - ",
                                                    "(2)", "DD", "CL", "FG1", "B", "  ", "\u2013")
STRING_LOADERS = [
    StringLoader("starfire.sheet", _starfire_sheet,
                 ("BRADLEY - FG1 - (2) - S S S A A A W I H W I I I I (5)",
                  "F3 - (4) - S S S S A A H H H H B H H H H B H H H H I I I",
                  "CL - (3) - S S S A A F F L L G I I I I I I (6)", "S S A H R L I I", "SSAHRLII",
                  "DD - (2) - S S A A W W D I I I I I I (6)", "S (M2) A I"),
                 _SHEET_LETTERS, "--target", (" ", " - ")),
    StringLoader("demons-run.build-string", _demons_run_build_string,
                 ("fuel=210,si=14,pi=3,me=6,mn=6,tractor=10,screens=4,laser=10,scrambler=0",
                  "f=100,si=20,l=10,sc=4", "si=20"),
                 tuple("=,0123456789 -.") + ("fuel", "si", "pi", "me", "mn", "tractor", "screens",
                                             "laser", "scrambler", "f", "sc", "1e3", "0x1"),
                 "--check", (",", "=")),
    StringLoader("dark-future.compact-car", _dark_future_compact,
                 ("interceptor: hood=combat_laser, wings=lw_mg, turret=lw_mg, passive_left=mines, "
                  "link=wing_left+wing_right, skill=3", "renegade: hood=mg, passive=oil",
                  "renegade: hood=gl40, wings=lw_mg, passive=mines", "bike: fairings=lw_mg",
                  "renegade hood=mg"),
                 tuple(":=,+; ") + ("renegade", "interceptor", "bike", "hood", "wings", "turret",
                                    "roof", "mg", "heavy_laser", "link", "skill", "mines", "-1",
                                    "99999999999999999999", "wing_left", "passive_left"),
                 "car", (",", "=", ":", "+")),
    StringLoader("core.variant-options", _variant_options, _variant_samples(),
                 tuple("=;_ ") + ("missile_max_range", "twenty", "seventeen", "x", "==", "-"),
                 "--variant", (";", "=")),
    # New string parsers: one line here.
]


def _docs(paths):
    return [tomllib.loads(p.read_text(encoding="utf-8")) for p in paths]


@pytest.fixture(scope="module")
def workdir():
    with tempfile.TemporaryDirectory(prefix="simkit-fuzz-") as d:
        yield Path(d)


def _check_error(e: UserInputError, where: str, doc_keys: set[str]):
    msg = str(e)
    assert where in msg, f"error does not name {where!r}: {msg}"
    assert "\n" not in msg, f"error is not one line: {msg!r}"
    if any(s in e.detail for s in FILE_LEVEL):
        return
    named = bool(e.field) or any(k and k in msg for k in doc_keys)
    assert named, f"error names no field: {msg}"


@pytest.mark.parametrize("loader", FILE_LOADERS, ids=lambda x: x.name)
def test_file_loader_survives_fuzz(loader, workdir):
    samples = loader.samples()
    assert samples, f"{loader.name}: no sample files to mutate"
    docs = _docs(samples)
    words = sorted(set().union(*(_keys(d) for d in docs)) | {"game", "name", "label", "source",
                                                             "table", "variant", "choice"})
    target = workdir / f"{loader.name.replace('.', '-')}{loader.suffix}"
    # the pristine samples load (else the harness mutates broken files and proves nothing)
    for p in samples:
        loader.load(p)

    @FUZZ
    @given(content=toml_files(docs, words))
    def fuzz(content):
        target.write_bytes(content)
        try:
            doc = tomllib.loads(content.decode("utf-8"))
        except (UnicodeDecodeError, tomllib.TOMLDecodeError):
            doc = {}
        try:
            loader.load(target)
        except UserInputError as e:
            _check_error(e, str(target), _keys(doc) | set(words))

    fuzz()


@pytest.mark.parametrize("loader", STRING_LOADERS, ids=lambda x: x.name)
def test_string_loader_survives_fuzz(loader):
    for s in loader.samples:
        loader.load(s)

    @FUZZ
    @given(text=mutated_strings(list(loader.samples), list(loader.alphabet), loader.separators))
    def fuzz(text):
        try:
            loader.load(text)
        except UserInputError as e:
            msg = str(e)
            assert loader.where in msg, f"error does not name {loader.where!r}: {msg}"
            assert "\n" not in msg and "\r" not in msg, f"error is not one line: {msg!r}"

    fuzz()


def test_missing_and_unreadable_files_name_the_file(workdir):
    from simkit.core.data import read_toml

    for path in (workdir / "nope.toml", workdir):
        with pytest.raises(UserInputError) as e:
            read_toml(path)
        assert str(path) in str(e.value)
    bad = workdir / "latin1.toml"
    bad.write_bytes(b'name = "\xe9"\n')
    with pytest.raises(UserInputError, match="UTF-8"):
        read_toml(bad)


def test_toml_writer_round_trips():
    """The harness's own writer: what it writes, tomllib reads back unchanged."""
    for p in ROOT.glob("scenarios/*/*.toml"):
        doc = tomllib.loads(p.read_text(encoding="utf-8"))
        assert tomllib.loads(toml_dumps(doc)) == doc
    odd = {"a b": ['x"y\\z\n\x7f', -0.0, 1e300], "k": {"\u00e9": True, "n": [[1], []]}}
    assert tomllib.loads(toml_dumps(odd)) == odd
