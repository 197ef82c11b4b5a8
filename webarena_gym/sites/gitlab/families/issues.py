"""Issue families with WebArena-Lite's own templates: my latest issue with a keyword, assigning an issue.

"My" issues are the ones byteblaze created, as the dashboard's "Created by me" tab lists
them; the keyword search and the sort (created or updated) are the dashboard's own.
"""

from __future__ import annotations

import datetime as dt
import re
import sqlite3
from collections.abc import Iterator

from ....sites.gitlab import seed_text
from ....tasks.families import TaskFamily, program_html_eval, string_match_eval, url_match_eval
from ....tasks.oracle import OracleContext, OracleError
from .common import GITLAB, USER, Instances, family, open_section, projects, repo_name, rng_for

#: Words too common to pick an issue out by.
STOPWORDS = {"about", "after", "again", "should", "their", "there", "these", "which", "while", "would", "when", "with",
             "from", "into", "does", "doesn't", "page", "error", "issue", "support", "update", "using"}


def _my_issues(conn: sqlite3.Connection) -> list[tuple]:
    """(id, namespace, path, iid, title, state, created_at, updated_at) of byteblaze's issues in projects they can see."""
    visible = [pid for pid, _ns, _path in projects(conn)]
    return conn.execute(
        "SELECT i.id, p.namespace, p.path, i.iid, i.title, i.state, i.created_at, i.updated_at FROM issues i"
        " JOIN projects p ON p.id = i.project_id JOIN users u ON u.id = i.author_id"
        f" WHERE u.username = ? AND p.id IN ({','.join('?' * len(visible))}) ORDER BY i.id",
        (USER, *visible),
    ).fetchall()


def _words(title: str) -> list[str]:
    return [w for w in re.findall(r"[a-z][a-z'-]{4,}", title.lower()) if w not in STOPWORDS]


def _latest_by_keyword(conn: sqlite3.Connection, column: int, name: str) -> list[tuple[str, tuple]]:
    """(keyword, issue) pairs: the keyword is in two or more of my issue titles and one of them is strictly latest."""
    issues = _my_issues(conn)
    keywords = sorted({w for issue in issues for w in _words(issue[4])})
    chosen = []
    for keyword in keywords:
        matching = sorted((i for i in issues if keyword in i[4].lower()), key=lambda i: i[column], reverse=True)
        if len(matching) >= 2 and matching[0][column] != matching[1][column]:
            chosen.append((keyword, matching[0]))
    # Both answers, alternating, as far as the data allows.
    opened = [c for c in chosen if c[1][5] == "opened"]
    closed = [c for c in chosen if c[1][5] == "closed"]
    rng = rng_for(name)
    rng.shuffle(opened)
    rng.shuffle(closed)
    mixed = [pair for both in zip(opened, closed, strict=False) for pair in both]
    rest = opened[len(closed):] + closed[len(opened):]
    return (mixed + rest)[:14]


def _issue_url(issue: tuple) -> str:
    return f"{GITLAB}/{issue[1]}/{issue[2]}/-/issues/{issue[3]}"


def _instances_latest_updated(conn: sqlite3.Connection) -> Instances:
    return [
        ({"keyword": keyword}, {
            **string_match_eval(fuzzy_match=["Yes, it is closed" if issue[5] == "closed" else "No, it is open"]),
            **_url_part(issue),
        })
        for keyword, issue in _latest_by_keyword(conn, 7, "latest_updated_issue")
    ]


def _instances_latest_created(conn: sqlite3.Connection) -> Instances:
    return [
        ({"keyword": keyword}, {**string_match_eval(exact_match="Yes" if issue[5] == "closed" else "No"), **_url_part(issue)})
        for keyword, issue in _latest_by_keyword(conn, 6, "latest_created_issue")
    ]


def _url_part(issue: tuple) -> dict:
    """The url_match half of a two-evaluator task: the issue's own page."""
    url = url_match_eval(_issue_url(issue), "EXACT")
    return {"reference_url": url["reference_url"], "url_note": url.get("url_note", "EXACT"),
            "eval_types": ["string_match", "url_match"]}


def _open_my_latest(ctx: OracleContext, sort: str) -> Iterator[str]:
    yield ctx.click("Issues", tag="a", exact=True)
    yield ctx.click("Created by me", tag="a", exact=True)
    yield ctx.click("All", tag="a", exact=True)
    yield ctx.select("Sort by", sort)
    yield ctx.type("Search or filter results", ctx.instantiation["keyword"])
    yield ctx.click("Filter", tag="button", exact=True)
    link = re.search(r'<li><a id="(\d+)">', ctx.page.text)
    if link is None:
        raise OracleError(f"No issues listed on {ctx.url}")
    yield ctx.click_element(next(e for e in ctx.elements if str(e.id) == link.group(1)))


def _solve_latest_updated(ctx: OracleContext) -> Iterator[str]:
    yield from _open_my_latest(ctx, "Updated date")
    closed = ctx.search_text(r"<p>(Open|Closed) Issue #") == "Closed"
    yield ctx.exit("Yes, it is closed" if closed else "No, it is open")


def _solve_latest_created(ctx: OracleContext) -> Iterator[str]:
    yield from _open_my_latest(ctx, "Created date")
    yield ctx.exit("Yes" if ctx.search_text(r"<p>(Open|Closed) Issue #") == "Closed" else "No")


# -- assign an issue (Lite template 999) -------------------------------------------------


def _instances_assign_issue(conn: sqlite3.Connection) -> Instances:
    """An open issue named by a word no other title of its project has, assigned to myself or a member.

    Kept only when the dashboard's first page (20 issues, newest first) will list it afterwards.
    """
    rng, out = rng_for("assign_issue"), []
    editable = {r[0] for r in conn.execute(  # the sidebar's Edit needs the Reporter role or higher
        "SELECT m.project_id FROM members m JOIN users u ON u.id = m.user_id WHERE u.username = ? AND m.access_level >= 20",
        (USER,))}
    for pid, ns, path in projects(conn):
        if pid not in editable:
            continue
        members = conn.execute(
            "SELECT u.id, u.username, u.name FROM members m JOIN users u ON u.id = m.user_id WHERE m.project_id = ?"
            " ORDER BY u.id", (pid,)).fetchall()
        issues = conn.execute(
            "SELECT id, iid, title, assignee_id, created_at, state FROM issues WHERE project_id = ? ORDER BY iid", (pid,)
        ).fetchall()
        counts: dict[str, int] = {}
        for issue in issues:
            for word in set(_words(issue[2])):
                counts[word] = counts.get(word, 0) + 1
        candidates = []
        for _issue_id, _iid, title, assignee, created, state in issues:
            unique = sorted(w for w in set(_words(title)) if counts[w] == 1)
            if state != "opened" or not unique or re.search(r"[&<>'\"]", title):  # the page's HTML escapes these
                continue
            for uid, username, name in members:
                ahead = conn.execute(
                    "SELECT COUNT(*) FROM issues i WHERE i.assignee_id = ? AND i.state = 'opened' AND i.created_at > ?"
                    " AND i.project_id IN (SELECT id FROM projects WHERE visibility != 'private' OR id IN"
                    " (SELECT project_id FROM members WHERE user_id = (SELECT id FROM users WHERE username = ?)))",
                    (uid, created, USER),
                ).fetchone()[0]
                if uid != assignee and ahead < 20:
                    candidates.append((unique[0], title, username, "myself" if username == USER else name))
        if candidates:
            keyword, title, username, account = rng.choice(candidates)
            out.append(({"issue": keyword, "repo": repo_name(ns, path), "account": account}, program_html_eval((
                f"{GITLAB}/dashboard/issues?scope=all&state=opened&assignee_username={username}", "",
                {"must_include": [title]},
            ))))
    return out


def _solve_assign_issue(ctx: OracleContext) -> Iterator[str]:
    account = ctx.instantiation["account"]
    yield from open_section(ctx, ctx.instantiation["repo"], "Issues")
    yield ctx.search("Search issues", ctx.instantiation["issue"])
    yield ctx.click_element(next(e for e in ctx.find_all(tag="a") if ctx.instantiation["issue"] in e.text.lower()))
    if account == "myself":
        account = ctx.search_text(rf'<a id="\d+">([^<]+) @{USER}</a>')
    yield from assign(ctx, account)
    yield ctx.exit("")


def assign(ctx: OracleContext, name: str) -> Iterator[str]:
    """On an issue page: the sidebar's assignee "Edit", then the member called ``name`` in its dropdown."""
    yield ctx.click("Edit assignee", tag="a")
    yield ctx.search("Search assignee", name)
    yield ctx.click_element(next(e for e in ctx.find_all(tag="button") if e.text.startswith(f"{name} @")))


# -- a new issue with an assignee and a due date (Lite template 327) -----------------------


def _new_title(conn: sqlite3.Connection, project_id: int, rng) -> str:
    taken = {r[0] for r in conn.execute("SELECT title FROM issues WHERE project_id = ?", (project_id,))}
    while True:
        template, _label = rng.choice(seed_text.ISSUE_TEMPLATES)
        title = template.format(c=rng.choice(seed_text.COMPONENTS), f=rng.choice(seed_text.FEATURES),
                                h=rng.choice(seed_text.HOWTOS), d=rng.choice(seed_text.DEPENDENCIES), n=rng.randint(2, 9))
        title = title[0].upper() + title[1:]
        if title not in taken and not re.search(r"[&<>'\"]", title):
            return title


def _instances_issue_due(conn: sqlite3.Connection) -> Instances:
    rng, out = rng_for("issue_with_due_date"), []
    for pid, ns, path in projects(conn):
        members = conn.execute(
            "SELECT u.username, u.name FROM members m JOIN users u ON u.id = m.user_id WHERE m.project_id = ? ORDER BY u.id",
            (pid,)).fetchall()
        username, name = rng.choice(members)
        due = dt.date(2030, 1, 3) + dt.timedelta(days=rng.randint(0, 700))
        title = _new_title(conn, pid, rng)
        out.append(({"repo": repo_name(ns, path), "issue": title, "account": "myself" if username == USER else name,
                     "due": f"{due.year}-{due.month}-{due.day}"}, program_html_eval(
            ("last", "document.querySelector('[data-qa-selector=\"title_content\"]').outerText", {"exact_match": title}),
            ("last", "document.querySelector('[data-testid=\"sidebar-due-date\"').outerText",
             {"must_include": [f"{due:%b} {due.day}, {due.year}"]}),
            ("last", "document.querySelector('.block.assignee').outerText", {"must_include": [name]}),
            reference_url=f"{GITLAB}/{ns}/{path}/-/issues", note="GOLD in PRED",
        )))
    return out


def _solve_issue_due(ctx: OracleContext) -> Iterator[str]:
    account = ctx.instantiation["account"]
    yield from open_section(ctx, ctx.instantiation["repo"], "Issues")
    yield ctx.click("New issue", tag="a", exact=True)
    if account == "myself":
        account = ctx.search_text(rf'<a id="\d+">([^<]+) @{USER}</a>')
    yield ctx.type("Title", ctx.instantiation["issue"])
    yield ctx.select("Assignee", ctx.search_text(rf"<option[^>]*>({re.escape(account)} \(@[^<]+\))</option>"))
    year, month, day = (int(part) for part in ctx.instantiation["due"].split("-"))
    yield ctx.type("Due date", f"{year:04d}-{month:02d}-{day:02d}")
    yield ctx.click("Create issue", tag="button", exact=True)
    yield ctx.exit("")


ISSUE_FAMILIES: list[TaskFamily] = [
    family("latest_updated_issue",
           'Open my latest updated issue that has keyword "{{keyword}}" in its title to check if it is closed',
           "navigation", _instances_latest_updated, _solve_latest_updated),
    family("latest_created_issue", "Open my latest created issue that has {{keyword}} in its title to check if it is closed",
           "navigation", _instances_latest_created, _solve_latest_created),
    family("issue_with_due_date", 'Create an issue in {{repo}} repo with title "{{issue}}". Assign the issue to {{account}}.'
           " Set due date to be {{due}}", "content", _instances_issue_due, _solve_issue_due),
    family("assign_issue", "Assign the issue regarding {{issue}} in {{repo}} to {{account}}.", "content",
           _instances_assign_issue, _solve_assign_issue),
]
