"""Shared pieces of the forum's task families: task dicts, queries, oracle navigation."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from functools import partial
from typing import TYPE_CHECKING, Any

from ....sites.reddit.queries import SORTS, post_path
from ....tasks.families import single_site_family

if TYPE_CHECKING:
    from ....tasks.oracle import OracleContext

REDDIT = "__REDDIT__"
USER = "MarvelsGrantMan136"

# -- task dicts --------------------------------------------------------------------------


#: ``family(name, template, kind, instances, solve)``: a forum family; ``instances(conn)`` yields
#: (instantiation, eval[, start_url]).
family = partial(single_site_family, "reddit", start_url=REDDIT)


# -- queries -----------------------------------------------------------------------------


def unique_first(rows: list[tuple], column: int) -> tuple | None:
    """The first row when its value in ``column`` beats the second row's (no tie at the top)."""
    if not rows or (len(rows) > 1 and rows[0][column] == rows[1][column]):
        return None
    return rows[0]


def post_url(row: tuple) -> str:
    return REDDIT + post_path(row[5], row[0], row[1])


def voted_by_user(conn: sqlite3.Connection) -> set[int]:
    return {r[0] for r in conn.execute(
        "SELECT submission_id FROM submission_votes v JOIN users u ON u.id = v.user_id WHERE u.username = ?", (USER,))}


def subscribed_forums(conn: sqlite3.Connection) -> set[str]:
    return {r[0] for r in conn.execute(
        "SELECT f.name FROM forums f JOIN subscriptions s ON s.forum_id = f.id JOIN users u ON u.id = s.user_id"
        " WHERE u.username = ?", (USER,))}


def newest_post_url(page: Any, username: str) -> str:
    """URL of ``username``'s newest post in the episode's world (where a "post ..." task's post lands)."""
    if page.world is None:
        return ""
    row = page.world.connection("reddit").execute(
        "SELECT s.id, s.title, f.name FROM submissions s JOIN forums f ON f.id = s.forum_id"
        " JOIN users u ON u.id = s.user_id WHERE u.username = ? ORDER BY s.created_at DESC, s.id DESC LIMIT 1",
        (username,),
    ).fetchone()
    base = page.site_urls.get("reddit", "")
    return base + post_path(row[2], row[0], row[1]) if row else base


# -- oracle helpers ----------------------------------------------------------------------


def open_forum(ctx: OracleContext, forum: str, sort: str | None = None) -> Iterator[str]:
    """Front page -> Forums -> (next pages) -> the forum -> optionally a sort tab."""
    yield ctx.click("Forums", tag="a", exact=True)
    while not ctx.find_all(forum, tag="a", exact=True):
        yield ctx.click("Next page", tag="a", exact=True)
    yield ctx.click(forum, tag="a", exact=True)
    if sort:
        yield ctx.click(SORTS[sort][0], tag="a", exact=True)


#: One post of a listing as the observation shows it: title, author, forum (absent on a forum's own page),
#: comment count, upvote button, score, downvote button.
LISTING_ROW = re.compile(
    r'<h2><a id="(?P<title>\d+)">[^\n]*?</h2>\s*<p>Submitted by <a id="(?P<author>\d+)">[^<]*</a>'
    r'(?: in <a id="(?P<forum>\d+)">[^<]*</a>)?[^\n]*</p>\s*<p><a id="\d+">(?P<comments>\d+) comments?</a></p>'
    r'.*?<button id="(?P<up>\d+)"[^>]*aria-label="Upvote"></button> (?P<score>-?\d+) points? '
    r'<button id="(?P<down>\d+)"',
    re.S,
)


def listing(ctx: OracleContext) -> list[dict[str, Any]]:
    """The posts of a listing page: title, author and forum elements, vote buttons, comment count, score."""
    rows = []
    for match in LISTING_ROW.finditer(ctx.page.text):
        element = {key: ctx.page.element(int(match[key])) if match[key] else None
                   for key in ("title", "author", "forum", "up", "down")}
        rows.append(element | {"comments": int(match["comments"]), "score": int(match["score"])})
    return rows


def open_user_of(ctx: OracleContext, forum: str, user: str) -> Iterator[str]:
    """Front page -> the forum's newest posts, page by page until ``user`` shows -> their profile."""
    yield from open_forum(ctx, forum, "new")
    while not ctx.find_all(user, tag="a", exact=True):
        yield ctx.click("Next page", tag="a", exact=True)
    yield ctx.click(user, tag="a", exact=True)


def open_post(ctx: OracleContext, title: str) -> Iterator[str]:
    yield ctx.search("Search query", title)
    yield ctx.click(title, tag="a", exact=True)
