"""Task families of the reference site alone (training only: WebArena-Lite's Wikipedia tasks all need the map).

References are read from the seeded infoboxes; oracles search, open the article and read
its infobox, as a reader would.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable, Iterator
from functools import partial
from typing import TYPE_CHECKING

from ...tasks.families import TaskFamily, single_site_family, string_match_eval
from .data import year_of

if TYPE_CHECKING:
    from ...tasks.oracle import OracleContext

WIKIPEDIA = "__WIKIPEDIA__"
_family = partial(single_site_family, "wikipedia", start_url=WIKIPEDIA, require_login=False)
_answer = partial(string_match_eval, string_note="")


def infobox_years(conn: sqlite3.Connection, label: str) -> list[tuple[str, str]]:
    """(article title, year) for the listed articles whose infobox has ``label`` with a year."""
    found = conn.execute(
        "SELECT a.title, i.value FROM articles a JOIN infobox i ON i.article_id = a.id"
        " WHERE a.kind NOT IN ('', 'list') AND i.label = ? ORDER BY a.id", (label,)).fetchall()
    return [(title, year_of(value)) for title, value in found if year_of(value)]


def open_article(ctx: OracleContext, title: str) -> Iterator[str]:
    """Search for the title, then open the result named exactly so."""
    yield ctx.search("Search 'Wikipedia'", title)
    yield ctx.click(title, tag="a", exact=True)


def _founded_instances(conn):
    for title, year in infobox_years(conn, "Established") + infobox_years(conn, "Opened"):
        yield {"place": title}, _answer(must_include=[year])


def _founded_solve(ctx):
    yield from open_article(ctx, ctx.instantiation["place"])
    text = " ".join(ctx.text().split())
    match = re.search(r"(?:Established|Opened) (\d{4})", text)
    yield ctx.exit(match.group(1) if match else "unknown")


FAMILIES: list[TaskFamily] = [
    _family("founded", "In what year was {{place}} founded or opened?", "information",
            _founded_instances, _founded_solve),
]

#: The site's ``func:`` helpers (none: its tasks read answers).
FUNCTIONS: dict[str, Callable[..., str]] = {}
