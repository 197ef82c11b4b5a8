"""Merge request families with WebArena-Lite's own templates: comments, review replies, new merge requests.

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
    yield ctx.click_element(next(e for e in ctx.find_all(tag="a") if _topic(e.text.strip()) == topic))
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
    while not [e for e in ctx.find_all(tag="a") if _topic(e.text.strip()) == topic]:
        yield ctx.click("Next", tag="a", exact=True)
    yield ctx.click_element(next(e for e in ctx.find_all(tag="a") if _topic(e.text.strip()) == topic))
    author = ctx.search_text(r"by <a id=\"\d+\">[^<]+</a> @([\w.\-]+)")
    notes = ctx.page.text[ctx.page.text.index("<h2>Activity</h2>"):]
    commenters = re.findall(r"<a id=\"\d+\">[^<]+</a> @([\w.\-]+) · ", notes)
    if not commenters and "No comments yet" not in notes:
        raise OracleError(f"Could not read the comments on {ctx.url}")
    reply = "Thank you" if commenters and commenters[-1] == author else f"@{author}"
    yield ctx.type("Comment", reply)
    yield ctx.click("Comment", tag="button", exact=True)
    yield ctx.exit("")


# -- submit a merge request with a reviewer (Lite template 335) ----------------------------

SOURCE_LINK = "document.querySelectorAll(\".detail-page-description > a.gl-font-monospace\")[{}].outerText"


def _instances_new_mr(conn: sqlite3.Connection) -> Instances:
    rng, out = rng_for("new_merge_request"), []
    for pid, ns, path in projects(conn):
        branches = [r[0] for r in conn.execute(
            "SELECT name FROM branches b WHERE project_id = ? AND name != 'main' AND NOT EXISTS (SELECT 1 FROM merge_requests m"
            " WHERE m.project_id = b.project_id AND m.source_branch = b.name) ORDER BY name", (pid,))]
        reviewers = [r[0] for r in conn.execute(
            "SELECT u.name FROM members m JOIN users u ON u.id = m.user_id WHERE m.project_id = ? AND u.username != ?"
            " ORDER BY u.id", (pid, USER))]
        if not branches or not reviewers:
            continue
        branch, reviewer = rng.choice(branches), rng.choice(reviewers)
        out.append(({"source_branch": f"{path}/{branch}", "target_branch": "main", "reviewer": reviewer}, program_html_eval(
            ("last", SOURCE_LINK.format(0), {"exact_match": branch}),
            ("last", SOURCE_LINK.format(1), {"exact_match": "main"}),
            ("last", "document.querySelector('.block.reviewer').outerText", {"must_include": [reviewer]}),
            reference_url=f"{GITLAB}/{ns}/{path}/-/merge_requests", note="GOLD in PRED",
        )))
    return out


def _solve_new_mr(ctx: OracleContext) -> Iterator[str]:
    repo, branch = ctx.instantiation["source_branch"].split("/", 1)
    reviewer = ctx.instantiation["reviewer"]
    yield from open_section(ctx, repo, "Merge requests")
    yield ctx.click("New merge request", tag="a", exact=True)
    yield ctx.select("Source branch", branch)
    yield ctx.select("Target branch", ctx.instantiation["target_branch"])
    yield ctx.select("Reviewer", ctx.search_text(rf"<option[^>]*>({re.escape(reviewer)} \(@[^<]+\))</option>"))
    yield ctx.type("Title", branch.replace("-", " ").capitalize())
    yield ctx.click("Create merge request", tag="button", exact=True)
    yield ctx.exit("")


DISCUSSION_FAMILIES: list[TaskFamily] = [
    family("mr_comment", 'Post "{{content}}" for the merge request related to {{mr}} in {{repo}} project', "content",
           _instances_mr_comment, _solve_mr_comment),
    family("review_reply", "Go to the merge request on {{topic}} I have to review, find if the author of the merge request"
           ' responded at the end, and reply "Thank you" if he did. Otherwise remind him with a simple @.', "content",
           _instances_review_reply, _solve_review_reply),
    family("new_merge_request", "Submit a merge request for {{source_branch}} branch to be merged into {{target_branch}}"
           " branch, assign {{reviewer}} as the reviewer", "content", _instances_new_mr, _solve_new_mr),
]
