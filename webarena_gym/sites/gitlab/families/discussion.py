"""Merge request discussion families with WebArena-Lite's own templates (program_html).

Both read the last entry of the page's ``#notes-list`` with Lite's own locator (typo
included: a browser closes the unclosed attribute selector, and so does our interpreter).
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator

from ....tasks.families import TaskFamily, program_html_eval
from ....tasks.oracle import OracleContext, OracleError
from .common import (
    GITLAB,
    USER,
    Instances,
    element_matching,
    family,
    open_section,
    projects,
    repo_name,
    rng_for,
    unique_titles,
)

#: Lite's locator for the newest note's text.
LAST_NOTE = "document.querySelector('[id=\"notes-list\"').lastElementChild.querySelector('.timeline-discussion-body').outerText"

#: Short comments people post on merge requests.
COMMENTS = (
    "Good idea", "lgtm", "Thanks for working on this!", "Please add a test", "Nice, ship it",
    "Can you rebase on main?", "Looks good to me", "Let's discuss this on Monday", "Approved", "Great work",
)


def _topic(title: str) -> str:
    """How an intent names a merge request: its title, lowercased, without a Draft prefix."""
    return re.sub(r"^draft:\s*", "", title, flags=re.IGNORECASE).lower()


# -- post a comment on a merge request (Lite template 348) ---------------------------------


def _instances_mr_comment(conn: sqlite3.Connection) -> Instances:
    rng, out = rng_for("mr_comment"), []
    for pid, ns, path in projects(conn):
        mrs = [m for m in unique_titles(conn, "merge_requests", pid) if not m[1].lower().startswith("draft:")]
        if mrs:
            iid, title, *_ = rng.choice(mrs)
            content = COMMENTS[len(out) % len(COMMENTS)]
            out.append(({"content": content, "mr": _topic(title), "repo": repo_name(ns, path)}, program_html_eval(
                (f"{GITLAB}/{ns}/{path}/-/merge_requests/{iid}", LAST_NOTE, {"exact_match": content}),
            )))
    return out


def _solve_mr_comment(ctx: OracleContext) -> Iterator[str]:
    topic = ctx.instantiation["mr"]
    yield from open_section(ctx, ctx.instantiation["repo"], "Merge requests")
    yield ctx.click_element(element_matching(ctx, r"All \d+"))
    yield ctx.search("Search merge requests", topic)
    yield ctx.click_element(next(e for e in ctx.find_all(tag="a") if e.text.strip().lower() == topic))
    yield ctx.type("Comment", ctx.instantiation["content"])
    yield ctx.click("Comment", tag="button", exact=True)
    yield ctx.exit("")


# -- answer the author of a merge request I review (Lite template 360) ---------------------


def _instances_review_reply(conn: sqlite3.Connection) -> Instances:
    rows = conn.execute(
        "SELECT m.id, m.iid, m.title, p.namespace, p.path, au.username, (SELECT n.author_id FROM notes n"
        " WHERE n.noteable_type = 'merge_request' AND n.noteable_id = m.id AND n.system = 0"
        " ORDER BY n.created_at DESC, n.id DESC LIMIT 1) = m.author_id AS responded"
        " FROM merge_requests m JOIN mr_reviewers r ON r.mr_id = m.id JOIN users u ON u.id = r.user_id"
        " JOIN projects p ON p.id = m.project_id JOIN users au ON au.id = m.author_id"
        " WHERE u.username = ? AND m.state = 'opened' AND m.author_id != u.id ORDER BY m.id",
        (USER,),
    ).fetchall()
    topics = [_topic(row[2]) for row in rows]
    out = []
    for (_id, iid, _title, ns, path, author, responded), topic in zip(rows, topics, strict=True):
        if topics.count(topic) > 1:
            continue
        reply = "Thank you" if responded else f"@{author}"
        out.append(({"topic": topic}, program_html_eval(
            (f"{GITLAB}/{ns}/{path}/-/merge_requests/{iid}", LAST_NOTE, {"exact_match": reply}),
        )))
    return out


def _solve_review_reply(ctx: OracleContext) -> Iterator[str]:
    topic = ctx.instantiation["topic"]
    yield ctx.click("Merge requests", tag="a", exact=True)
    yield ctx.click("Review requests for me", tag="a", exact=True)
    while not [e for e in ctx.find_all(tag="a") if e.text.strip().lower() == topic]:
        yield ctx.click("Next", tag="a", exact=True)
    yield ctx.click_element(next(e for e in ctx.find_all(tag="a") if e.text.strip().lower() == topic))
    author = ctx.search_text(r"by <a id=\"\d+\">[^<]+</a> @([\w.\-]+)")
    notes = ctx.page.text[ctx.page.text.index("<h2>Activity</h2>"):]
    commenters = re.findall(r"<a id=\"\d+\">[^<]+</a> @([\w.\-]+) · ", notes)
    if not commenters and "No comments yet" not in notes:
        raise OracleError(f"Could not read the comments on {ctx.url}")
    reply = "Thank you" if commenters and commenters[-1] == author else f"@{author}"
    yield ctx.type("Comment", reply)
    yield ctx.click("Comment", tag="button", exact=True)
    yield ctx.exit("")


DISCUSSION_FAMILIES: list[TaskFamily] = [
    family("mr_comment", 'Post "{{content}}" for the merge request related to {{mr}} in {{repo}} project', "content",
           _instances_mr_comment, _solve_mr_comment),
    family("review_reply", "Go to the merge request on {{topic}} I have to review, find if the author of the merge request"
           ' responded at the end, and reply "Thank you" if he did. Otherwise remind him with a simple @.', "content",
           _instances_review_reply, _solve_review_reply),
]
