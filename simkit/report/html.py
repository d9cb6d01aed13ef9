"""The report as one static HTML page: no scripts, no external files besides its PNGs and CSVs."""

from __future__ import annotations

import html
import re
from pathlib import Path

import numpy as np
import pandas as pd

from .sections import Section

#: rows shown per table on the page; the CSV beside it holds them all
MAX_ROWS = 60

CSS = """
body { font-family: system-ui, sans-serif; margin: 1.5em auto; max-width: 78em; padding: 0 1em;
       color: #222; line-height: 1.4; }
h1 { margin-bottom: 0.2em; } h2 { border-bottom: 2px solid #446; margin-top: 2em; }
h3 { margin-top: 1.6em; color: #335; }
.meta { color: #555; font-size: 0.9em; }
.error { color: #a00; font-weight: bold; } .failed { background: #fee; padding: 0.5em; }
.table { overflow-x: auto; margin: 0.5em 0 1em 0; }
.long { max-height: 30em; overflow-y: auto; }
table { border-collapse: collapse; font-size: 0.82em; }
th, td { border: 1px solid #ccc; padding: 2px 6px; text-align: right; vertical-align: top; }
th { background: #eef; } td.text { text-align: left; }
caption { text-align: left; font-style: italic; padding: 2px 0; }
img { max-width: 100%; border: 1px solid #ddd; margin: 0.3em 0; }
figure { margin: 0.5em 0 1.2em 0; } figcaption { font-size: 0.85em; color: #444; }
pre { background: #f6f6f6; padding: 0.5em; overflow-x: auto; font-size: 0.8em; }
code { background: #f2f2f2; padding: 0 3px; }
"""


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "x"


def _fmt(v) -> str:
    if v is None or (isinstance(v, float) and np.isnan(v)):
        return ""
    if isinstance(v, (bool, np.bool_)):
        return "yes" if v else "no"
    if isinstance(v, (float, np.floating)):
        return f"{v:.4f}" if abs(v) < 1e6 else f"{v:.4g}"
    if isinstance(v, (int, np.integer)):
        return f"{v:,}" if abs(v) >= 10_000 else str(v)
    return str(v)


def table_html(frame: pd.DataFrame, caption: str, csv_name: str | None) -> str:
    shown = frame.head(MAX_ROWS)
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in shown.columns)
    body = []
    for row in shown.itertuples(index=False):
        cells = []
        for v in row:
            cls = ' class="text"' if isinstance(v, str) else ""
            cells.append(f"<td{cls}>{html.escape(_fmt(v))}</td>")
        body.append("<tr>" + "".join(cells) + "</tr>")
    more = (f" Showing {MAX_ROWS} of {len(frame):,} rows." if len(frame) > MAX_ROWS else "")
    link = f' <a href="{html.escape(csv_name)}">CSV</a>' if csv_name else ""
    cls = "table long" if len(shown) > 20 else "table"
    return (f'<div class="{cls}"><table><caption>{html.escape(caption)}{more}{link}</caption>'
            f"<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table></div>")


def section_html(s: Section, csv_names: list[str | None]) -> str:
    parts = [f'<h3 id="{_slug(s.title)}">{html.escape(s.title)}</h3>']
    if s.command:
        parts.append(f'<p class="meta">Reproduce: <code>{html.escape(s.command)}</code>'
                     f" ({s.seconds:.1f} s here)</p>")
    if s.error:
        cls = "error failed" if s.failed else "error"
        parts.append(f'<p class="{cls}">{html.escape(s.error)}</p>')
    for note in s.notes:
        if "\n" in note:
            parts.append(f"<pre>{html.escape(note)}</pre>")
        else:
            parts.append(f"<p>{html.escape(note)}</p>")
    for caption, img in s.images:
        parts.append(f'<figure><img src="{html.escape(img)}" alt="{html.escape(caption)}">'
                     f"<figcaption>{html.escape(caption)}</figcaption></figure>")
    for (caption, frame), csv in zip(s.tables, csv_names):
        parts.append(table_html(frame, caption, csv))
    return "\n".join(parts)


def page(title: str, header_notes: list[str], games: list[tuple[str, str, list]],
         failures: list[str]) -> str:
    """``games``: (game name, title, [(Section, csv names)]) in page order."""
    toc = "".join(f'<li><a href="#{_slug(name)}">{html.escape(gt)}</a></li>'
                  for name, gt, _ in games)
    body = []
    for name, gt, secs in games:
        body.append(f'<h2 id="{_slug(name)}">{html.escape(gt)}</h2>')
        body += [section_html(s, csvs) for s, csvs in secs]
    fail = ""
    if failures:
        fail = ('<div class="failed"><p class="error">Some analyses failed (details in their '
                "sections):</p><ul>" + "".join(f"<li>{html.escape(f)}</li>" for f in failures)
                + "</ul></div>")
    notes = "".join(f'<p class="meta">{html.escape(n)}</p>' for n in header_notes)
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f"<title>{html.escape(title)}</title><style>{CSS}</style></head>\n<body>\n"
            f"<h1>{html.escape(title)}</h1>\n{notes}\n{fail}\n<ul>{toc}</ul>\n"
            + "\n".join(body) + "\n</body></html>\n")


def write_page(path: Path, text: str) -> Path:
    tmp = path.with_name("." + path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)
    return path
