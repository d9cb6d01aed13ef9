"""The scenario files that ship with simkit, found by name from any folder.

The repository keeps them at its top level, ``scenarios/<game>/<stem>.toml``; an install puts
the same tree inside the package as ``simkit/scenarios/`` (``pyproject.toml`` maps the package
``simkit.scenarios`` to that folder). A shipped scenario's *name* is ``<game>/<stem>``
(``starfire/mirror``, ``demons-run/duel``, ``dark-future/game-4``): ``simkit scenario list``
shows them and every command that reads a scenario file takes a name or a path
(:func:`resolve`).

This module imports nothing heavy: the ``simkit`` parser and ``scenario list`` use it.
"""

from __future__ import annotations

import difflib
import os
import re
from pathlib import Path

from .core.data import read_toml
from .core.errors import UserInputError

_PACKAGE = Path(__file__).resolve().parent


def scenarios_dir() -> Path | None:
    """The folder of the shipped scenarios: inside the installed package, else the checkout's
    top-level ``scenarios/`` (a source tree or an editable install); None if neither."""
    installed = _PACKAGE / "scenarios"
    if installed.is_dir():
        return installed
    checkout = _PACKAGE.parent
    if (checkout / "scenarios").is_dir() and (checkout / "pyproject.toml").is_file():
        return checkout / "scenarios"
    return None


def scenarios() -> dict[str, Path]:
    """Every shipped scenario, name -> file, sorted by name."""
    root = scenarios_dir()
    if root is None:
        return {}
    return dict(sorted((f"{p.parent.name}/{p.stem}", p) for p in root.glob("*/*.toml")))


def name_of(path: str | Path) -> str:
    """How a user types ``path``: its shipped name if it is a shipped file, else the path."""
    p = Path(path)
    root = scenarios_dir()
    try:
        if root is not None and p.resolve().parent.parent == root.resolve():
            return f"{p.parent.name}/{p.stem}"
    except OSError:
        pass
    return str(path)


def _key(text: str) -> str:
    """A typed name, as the names are written: ``scenarios/starfire/mirror.toml`` and
    ``starfire\\mirror`` both mean ``starfire/mirror``."""
    key = text.strip().replace("\\", "/")
    key = key.removeprefix("./").removeprefix("scenarios/")
    return key.removesuffix(".toml")


def resolve(text: str | Path, *, option: str | None = None) -> str:
    """The file a scenario argument means: a path that exists is returned as given (the user's
    own file, or a shipped one by path); otherwise a shipped scenario's name gives its file.
    Anything else is a :class:`UserInputError` naming it and the closest shipped names."""
    text = str(text)
    if os.path.exists(text):
        return text
    known = scenarios()
    key = _key(text)
    if key in known:
        return str(known[key])
    close = difflib.get_close_matches(key, list(known), n=3)
    if not close and "/" in key:   # a path elsewhere: compare its last two parts
        close = difflib.get_close_matches("/".join(key.split("/")[-2:]), list(known), n=3)
    hint = (f"closest: {', '.join(close)}" if close else
            "simkit scenario list shows the shipped ones")
    raise UserInputError(f"{text!r} is neither a file nor a shipped scenario ({hint})",
                         field=option)


def describe(path: str | Path) -> tuple[str, str]:
    """(game, one-line description) of a scenario file: its ``game`` field, and its
    ``description`` field or else the first sentence of the comment that opens the file (or
    its ``name``). Unreadable files say so instead of failing the listing."""
    p = Path(path)
    try:
        raw = read_toml(p)
        text = p.read_text(encoding="utf-8")
    except (UserInputError, OSError, UnicodeDecodeError) as e:
        return "?", f"(unreadable: {getattr(e, 'detail', None) or type(e).__name__})"
    game = raw.get("game") if isinstance(raw.get("game"), str) else "?"
    desc = raw.get("description")
    if not isinstance(desc, str) or not desc.strip():
        lines = []
        for line in text.splitlines():
            if not line.startswith("#"):
                break
            lines.append(line.lstrip("#").strip())
        desc = " ".join(x for x in lines if x)
        m = re.match(r"(.+?[.!?])(\s|$)", desc)
        desc = m[1] if m else desc
        if not desc:
            desc = str(raw.get("name", "")) if isinstance(raw.get("name"), str) else ""
    return game, _one_line(desc)


def _one_line(text: str, width: int = 100) -> str:
    text = " ".join(text.split())
    if len(text) <= width:
        return text
    return text[:width - 3].rsplit(" ", 1)[0] + "..."
