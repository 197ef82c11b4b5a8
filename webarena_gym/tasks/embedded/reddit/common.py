"""Shared pieces of the forum's task families: task dicts, queries, oracle navigation."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from ....evaluators.functions import register_function
from ....sites.reddit.queries import SORTS, post_path
from ...families import PristineData, TaskFamily

if TYPE_CHECKING:
    from ...oracle import OracleContext

REDDIT = "__REDDIT__"
USER = "MarvelsGrantMan136"

# -- task dicts --------------------------------------------------------------------------


def fill(template: str, values: dict[str, Any]) -> str:
    for key, value in values.items():
        template = template.replace("{{" + key + "}}", str(value))
    return template


def family(name: str, template: str, kind: str, instances: Callable[[sqlite3.Connection], Iterable[tuple]],
            solve: Callable[[OracleContext], Iterator[str]]) -> TaskFamily:
    """A family whose ``instances(conn)`` yields (instantiation, eval[, start_url]) tuples."""

    def instantiate(pristine: PristineData) -> list[dict[str, Any]]:
        tasks = []
        for values, evaluation, *start in instances(pristine("reddit")):
            tasks.append({
                "sites": ["reddit"], "require_login": True, "storage_state": "./.auth/reddit_state.json",
                "start_url": start[0] if start else REDDIT, "geolocation": None,
                "intent": fill(template, values), "instantiation_dict": values, "eval": evaluation,
            })
        return tasks

    return TaskFamily(name=f"reddit.{name}", sites=("reddit",), intent_template=template,
                      instantiate=instantiate, solve=solve, kind=kind)


def answer(**answers: Any) -> dict[str, Any]:
    return {"eval_types": ["string_match"], "reference_answers": answers, "reference_url": "", "program_html": []}


def url(reference: str, note: str = "EXACT") -> dict[str, Any]:
    return {"eval_types": ["url_match"], "reference_answers": None, "reference_url": reference,
            "url_note": note, "program_html": []}


def program(*targets: tuple[str, str, dict[str, Any]], reference_url: str = "", note: str = "") -> dict[str, Any]:
    evaluation = {
        "eval_types": (["url_match"] if reference_url else []) + ["program_html"],
        "reference_answers": None, "reference_url": reference_url,
        "program_html": [{"url": u, "locator": loc, "required_contents": req} for u, loc, req in targets],
    }
    if note:
        evaluation["url_note"] = note
    return evaluation


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


@register_function("reddit_newest_post_url")
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


def listing(ctx: OracleContext) -> list[dict[str, Any]]:
    """The posts of a listing page: title and author elements, comment count, score."""
    text = ctx.page.text
    titles = [ctx.page.element(int(i)) for i in re.findall(r'<h2><a id="(\d+)">', text)]
    authors = [ctx.page.element(int(i)) for i in re.findall(r'Submitted by <a id="(\d+)">', text)]
    comments = [int(n) for n in re.findall(r">(\d+) comments?</a>", text)]
    scores = [int(n) for n in re.findall(r"^(-?\d+) points?$", text, re.M)]
    return [{"title": t, "author": a, "comments": c, "score": s} for t, a, c, s in zip(titles, authors, comments, scores, strict=True)]


def open_post(ctx: OracleContext, title: str) -> Iterator[str]:
    yield ctx.search("Search query", title)
    yield ctx.click(title, tag="a", exact=True)
