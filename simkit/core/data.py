"""Rules tables as data: TOML files loaded into typed numpy arrays, with provenance and variants.

File layout (one file per subject, next to the game package)::

    source = "what the file as a whole is transcribed from"

    [table.probability_of_hit]
    label = "VERIFIED"                      # RULE-TEXT | VERIFIED | SOURCED | RECONSTRUCTED
    source = "starfire.txt (5.3); recovered: <url>"
    ...table fields (rows, columns, values)...

    [variant.missile_max_range]
    doc = "what the dispute is"
    default = "twenty"
    [variant.missile_max_range.choice.twenty]
    doc = "..."
    [variant.missile_max_range.choice.seventeen]
    doc = "..."
    patch = [{ table = "probability_of_hit", row = "missile", from = 18, value = -1 }]

Every table must carry a ``label`` from the four allowed and a non-empty ``source``; the loader
refuses the file otherwise. A variant's choice may patch table cells (``index`` for one cell,
``from`` for a tail, ``values`` for a whole row) and/or simply be read by the engine as a rule
switch. Patches are applied to a copy; the loaded tables are never mutated.
"""

from __future__ import annotations

import copy
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from .errors import UserInputError

LABELS = ("RULE-TEXT", "VERIFIED", "SOURCED", "RECONSTRUCTED")


@dataclass(frozen=True)
class Table:
    name: str
    label: str
    source: str
    data: Mapping[str, Any]
    notes: str = ""
    row_labels: Mapping[str, str] = field(default_factory=dict)

    def __getitem__(self, key):
        return self.data[key]

    def get(self, key, default=None):
        return self.data.get(key, default)


@dataclass(frozen=True)
class Variant:
    name: str
    doc: str
    default: str
    choices: Mapping[str, Mapping[str, Any]]

    def choice_doc(self, choice: str) -> str:
        return self.choices[choice].get("doc", "")


@dataclass(frozen=True)
class RulesData:
    """Tables and variants of one game (possibly merged from several files)."""

    tables: Mapping[str, Table]
    variants: Mapping[str, Variant]
    files: tuple[str, ...] = ()

    def table(self, name: str) -> Table:
        return self.tables[name]

    def resolve(self, chosen: Mapping[str, str] | None = None, *, where: str = "--variant"):
        """Full variant selection: defaults overridden by ``chosen`` (names validated)."""
        chosen = dict(chosen or {})
        out = {name: v.default for name, v in self.variants.items()}
        for name, choice in chosen.items():
            if name not in self.variants:
                known = ", ".join(sorted(self.variants)) or "none"
                raise UserInputError(f"unknown variant {name!r} (known: {known})",
                                     where=where, field=name)
            if choice not in self.variants[name].choices:
                known = ", ".join(sorted(self.variants[name].choices))
                raise UserInputError(f"unknown choice {choice!r} (choices: {known})",
                                     where=where, field=name)
            out[name] = choice
        return out

    def with_variants(self, chosen: Mapping[str, str] | None = None) -> "RulesData":
        """Tables with the patches of the selected variant choices applied."""
        selection = self.resolve(chosen)
        tables = {k: Table(t.name, t.label, t.source, copy.deepcopy(dict(t.data)), t.notes,
                           t.row_labels) for k, t in self.tables.items()}
        for vname, choice in selection.items():
            patches = self.variants[vname].choices[choice].get("patch", [])
            for patch in patches if isinstance(patches, list) else [patches]:
                _apply_patch(tables, patch, f"{', '.join(self.files) or 'rules'}: variant "
                                            f"{vname}={choice}")
        return RulesData(tables, self.variants, self.files)

    def provenance(self):
        """Rows (table, label, source) for reports."""
        return [(t.name, t.label, t.source) for t in self.tables.values()]


def _apply_patch(tables, patch, where):
    if not isinstance(patch, Mapping):
        raise UserInputError("a patch must be a table {table=, row=, ...}", where=where,
                             field="patch")
    tname = patch.get("table")
    if not isinstance(tname, str) or tname not in tables:
        raise UserInputError(f"patch names unknown table {tname!r}", where=where, field="table")
    data = tables[tname].data
    rows = data.get("rows")
    row = patch.get("row")
    if not isinstance(rows, Mapping) or not isinstance(row, str) or row not in rows:
        raise UserInputError(f"patch names unknown row {row!r}", where=where, field="row")
    try:
        if "values" in patch:
            rows[row] = list(patch["values"])
        elif "index" in patch:
            rows[row][int(patch["index"])] = patch["value"]
        elif "from" in patch:
            start = int(patch["from"])
            rows[row][start:] = [patch["value"]] * (len(rows[row]) - start)
        else:
            raise UserInputError("patch needs 'values', 'index' or 'from'", where=where,
                                 field="patch")
    except UserInputError:
        raise
    except (TypeError, ValueError, IndexError, KeyError) as e:   # a cell the row does not have
        raise UserInputError(f"patch cannot be applied to row {row!r} ({e})", where=where,
                             field="patch") from None


def read_toml(path: str | Path) -> dict:
    """Read a user's TOML file; every failure is one :class:`UserInputError` naming the file.

    Only parses: nothing in the file is executed.
    """
    path = Path(path)
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise UserInputError("file not found", where=str(path)) from None
    except IsADirectoryError:
        raise UserInputError("is a folder, not a file", where=str(path)) from None
    except PermissionError:
        raise UserInputError("cannot be read (permission denied)", where=str(path)) from None
    except UnicodeDecodeError:
        raise UserInputError("not a UTF-8 text file", where=str(path)) from None
    except tomllib.TOMLDecodeError as e:
        raise UserInputError(f"not valid TOML ({e})", where=str(path)) from None


def load_rules(*paths: str | Path) -> RulesData:
    """Load and validate one or more rules-data TOML files into a :class:`RulesData`."""
    tables: dict[str, Table] = {}
    variants: dict[str, Variant] = {}
    for path in paths:
        path = Path(path)
        raw = read_toml(path)
        for section in ("table", "variant"):
            if not isinstance(raw.get(section, {}), dict):
                raise UserInputError("must be a TOML table", where=str(path), field=section)
        for name, body in raw.get("table", {}).items():
            tables[name] = _table(path, name, body)
        for name, body in raw.get("variant", {}).items():
            variants[name] = _variant(path, name, body)
    return RulesData(tables, variants, tuple(str(p) for p in paths))


def _table(path: Path, name: str, body: Mapping[str, Any]) -> Table:
    where = str(path)
    if not isinstance(body, Mapping):
        raise UserInputError("a table must be a TOML table", where=where, field=f"table.{name}")
    label = body.get("label")
    if label not in LABELS:
        raise UserInputError(
            f"missing or unknown label {label!r}: every table needs one of {', '.join(LABELS)}",
            where=where, field=f"table.{name}.label")
    source = body.get("source")
    if not isinstance(source, str) or not source.strip():
        raise UserInputError("missing source: every table must say where it comes from",
                             where=where, field=f"table.{name}.source")
    row_labels = body.get("row_labels", {})
    if not isinstance(row_labels, Mapping):
        raise UserInputError("must be a table of row = label", where=where,
                             field=f"table.{name}.row_labels")
    for row, rl in row_labels.items():
        if rl not in LABELS:
            raise UserInputError(f"unknown label {rl!r}", where=where,
                                 field=f"table.{name}.row_labels.{row}")
    data = {k: v for k, v in body.items() if k not in ("label", "source", "notes", "row_labels")}
    return Table(name, label, source, data, body.get("notes", ""), row_labels)


def _variant(path: Path, name: str, body: Mapping[str, Any]) -> Variant:
    where = str(path)
    if not isinstance(body, Mapping):
        raise UserInputError("a variant must be a TOML table", where=where,
                             field=f"variant.{name}")
    choices = body.get("choice", {})
    default = body.get("default")
    if (not isinstance(choices, Mapping) or not isinstance(default, str) or default not in choices
            or not all(isinstance(c, Mapping) for c in choices.values())):
        raise UserInputError("a variant needs choices and a default among them",
                             where=where, field=f"variant.{name}")
    if not body.get("doc"):
        raise UserInputError("a variant must document the dispute", where=where,
                             field=f"variant.{name}.doc")
    return Variant(name, body["doc"], default, choices)


def parse_variant_options(options, where: str = "--variant") -> dict[str, str]:
    """``["name=choice", ...]`` from the command line into a dict, with clear errors."""
    out = {}
    for opt in options or ():
        name, sep, choice = opt.partition("=")
        if not sep or not name or not choice:
            raise UserInputError(f"expected name=choice, got {opt!r}", where=where)
        out[name.strip()] = choice.strip()
    return out
