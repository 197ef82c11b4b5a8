"""Navigation families (url_match) and content-changing families (program_html)."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote, quote_plus

import lxml.html

from ....sites.gitlab import seed_text
from ....sites.gitlab.data import ROLES
from ....tasks.families import TaskFamily, program_html_eval, url_match_eval
from ....tasks.oracle import OracleContext
from ....tasks.task import any_of
from .common import (
    GITLAB,
    USER,
    Instances,
    contributors,
    element_matching,
    family,
    open_issue,
    open_project,
    open_section,
    projects,
    repo_name,
    rng_for,
    unique_titles,
)

# -- navigation (url_match) --------------------------------------------------------------


def _query_forms(prefix: str, key: str, value: str) -> str:
    """Reference URL alternatives for a query value, spaces written as %20 or as + (forms send +)."""
    return any_of(f"{prefix}?{key}={quote(value)}", f"{prefix}?{key}={quote_plus(value)}")


def _instances_issues_by_label(conn: sqlite3.Connection) -> Instances:
    rng, out = rng_for("issues_by_label"), []
    for pid, ns, path in projects(conn):
        labels = [r[0] for r in conn.execute(
            "SELECT DISTINCT l.name FROM labels l JOIN issue_labels il ON il.label_id = l.id WHERE l.project_id = ? ORDER BY l.name",
            (pid,),
        )]
        if labels:
            label = rng.choice(labels)
            reference = _query_forms(f"{GITLAB}/{ns}/{path}/-/issues", "label_name%5B%5D", label)
            out.append(({"repo": repo_name(ns, path), "label": label}, url_match_eval(reference, "GOLD in PRED")))
    return out


def _solve_issues_by_label(ctx: OracleContext) -> Iterator[str]:
    yield from open_section(ctx, ctx.instantiation["repo"], "Issues")
    yield ctx.select("Label", ctx.instantiation["label"])
    yield ctx.click("Filter", tag="button", exact=True)
    yield ctx.exit("")


def _instances_mrs_by_state(conn: sqlite3.Connection) -> Instances:
    out = []
    for index, (pid, ns, path) in enumerate(projects(conn)):
        states = [r[0] for r in conn.execute(
            "SELECT DISTINCT state FROM merge_requests WHERE project_id = ? AND state != 'opened' ORDER BY state", (pid,)
        )]
        if states:
            state = states[index % len(states)]  # alternate merged/closed across projects
            reference = f"{GITLAB}/{ns}/{path}/-/merge_requests?state={state}"
            out.append(({"state": state, "repo": repo_name(ns, path)}, url_match_eval(reference, "GOLD in PRED")))
    return out


def _solve_mrs_by_state(ctx: OracleContext) -> Iterator[str]:
    yield from open_section(ctx, ctx.instantiation["repo"], "Merge requests")
    yield ctx.click_element(element_matching(ctx, rf"{ctx.instantiation['state'].capitalize()} \d+"))
    yield ctx.exit("")


def _instances_open_issue_page(conn: sqlite3.Connection) -> Instances:
    rng, out = rng_for("open_issue_page"), []
    for pid, ns, path in projects(conn):
        issues = unique_titles(conn, "issues", pid, "t.state = 'opened'")
        if issues:
            iid, title, *_ = rng.choice(issues)
            out.append(({"title": title, "repo": repo_name(ns, path)}, url_match_eval(f"{GITLAB}/{ns}/{path}/-/issues/{iid}", "EXACT")))
    return out


def _solve_open_issue_page(ctx: OracleContext) -> Iterator[str]:
    yield from open_issue(ctx, ctx.instantiation["repo"], ctx.instantiation["title"])
    yield ctx.exit("")


def _instances_commits_by_author(conn: sqlite3.Connection) -> Instances:
    rng, out = rng_for("commits_by_author"), []
    for pid, ns, path in projects(conn):
        name = rng.choice(contributors(conn, pid))[0]
        reference = _query_forms(f"{GITLAB}/{ns}/{path}/-/commits/main", "author", name)
        out.append(({"user": name, "repo": repo_name(ns, path)}, url_match_eval(reference, "GOLD in PRED")))
    return out


def _solve_commits_by_author(ctx: OracleContext) -> Iterator[str]:
    yield from open_section(ctx, ctx.instantiation["repo"], "Commits")
    yield ctx.search("Filter by author", ctx.instantiation["user"])
    yield ctx.exit("")


# -- content (program_html) --------------------------------------------------------------


def member_role(page: Any, username: str) -> str:
    """The role a project's members page shows for ``username`` ("" when not a member)."""
    html = page.content()
    if not html:
        return ""
    rows = lxml.html.fromstring(html).cssselect(f'tr[data-username="{username}"] .member-role')
    if not rows:
        return ""
    selected = rows[0].cssselect("option[selected]")
    return " ".join((selected[0] if selected else rows[0]).text_content().split())


def newest_project_url(page: Any, username: str) -> str:
    """URL of the project ``username`` created last in the episode's world (where "create a project" lands)."""
    base = page.site_urls.get("gitlab", "")
    if page.world is None:
        return base
    row = page.world.connection("gitlab").execute(
        "SELECT p.namespace, p.path FROM projects p JOIN users u ON u.id = p.creator_id WHERE u.username = ?"
        " ORDER BY p.id DESC LIMIT 1",
        (username,),
    ).fetchone()
    return f"{base}/{row[0]}/{row[1]}" if row else base


def _instances_star(conn: sqlite3.Connection) -> Instances:
    starred = {r[0] for r in conn.execute(
        "SELECT s.project_id FROM stars s JOIN users u ON u.id = s.user_id WHERE u.username = ?", (USER,))}
    return [
        ({"repo": repo_name(ns, path)}, program_html_eval((
            f"{GITLAB}/{ns}/{path}/-/starrers", "document.querySelector('.starrers').outerText",
            {"must_include": [f"@{USER}"]},
        )))
        for pid, ns, path in projects(conn) if pid not in starred
    ]


def _solve_star(ctx: OracleContext) -> Iterator[str]:
    yield from open_project(ctx, ctx.instantiation["repo"])
    yield ctx.click("Star", tag="button", exact=True)
    yield ctx.exit("")


INVITE_ROLES = tuple(ROLES[level] for level in (10, 20, 30, 40))


def _instances_invite(conn: sqlite3.Connection) -> Instances:
    rng, out = rng_for("invite"), []
    usernames = [r[0] for r in conn.execute("SELECT username FROM users WHERE username NOT IN (?, 'root') ORDER BY id", (USER,))]
    for pid, ns, path in conn.execute(
        "SELECT p.id, p.namespace, p.path FROM projects p JOIN members m ON m.project_id = p.id JOIN users u ON u.id = m.user_id"
        " WHERE u.username = ? AND m.access_level >= 40 ORDER BY p.id",
        (USER,),
    ).fetchall():
        members = {r[0] for r in conn.execute(
            "SELECT u.username FROM members m JOIN users u ON u.id = m.user_id WHERE m.project_id = ?", (pid,))}
        user = rng.choice([u for u in usernames if u not in members])
        role = rng.choice(INVITE_ROLES)
        out.append(({"user": user, "repo": repo_name(ns, path), "role": role}, program_html_eval((
            f"{GITLAB}/{ns}/{path}/-/project_members", f"func:gitlab_member_role(__page__, '{user}')", {"exact_match": role},
        ))))
    return out


def _solve_invite(ctx: OracleContext) -> Iterator[str]:
    yield from open_section(ctx, ctx.instantiation["repo"], "Members")
    yield ctx.click("Invite members", tag="a", exact=True)
    yield ctx.type("Username or email address", ctx.instantiation["user"])
    yield ctx.select("Select a role", ctx.instantiation["role"])
    yield ctx.click("Invite", tag="button", exact=True)
    yield ctx.exit("")


def _instances_new_issue(conn: sqlite3.Connection) -> Instances:
    rng, out = rng_for("new_issue"), []
    for pid, ns, path in projects(conn):
        taken = {r[0] for r in conn.execute("SELECT title FROM issues WHERE project_id = ?", (pid,))}
        while True:
            template, _label = rng.choice(seed_text.ISSUE_TEMPLATES)
            title = template.format(c=rng.choice(seed_text.COMPONENTS), f=rng.choice(seed_text.FEATURES),
                                    h=rng.choice(seed_text.HOWTOS), d=rng.choice(seed_text.DEPENDENCIES))
            title = title[0].upper() + title[1:]
            if title not in taken:
                break
        out.append(({"repo": repo_name(ns, path), "title": title}, program_html_eval(
            ("last", "document.querySelector('h1.title').outerText", {"exact_match": title}),
            ("last", "document.querySelector('.breadcrumbs').outerText", {"must_include": [f"{ns} / {path}"]}),
        )))
    return out


def _solve_new_issue(ctx: OracleContext) -> Iterator[str]:
    yield from open_section(ctx, ctx.instantiation["repo"], "Issues")
    yield ctx.click("New issue", tag="a", exact=True)
    yield ctx.type("Title", ctx.instantiation["title"])
    yield ctx.click("Create issue", tag="button", exact=True)
    yield ctx.exit("")


#: Names for new projects, in WebArena's style.
NEW_PROJECT_NAMES = (
    "chatgpt_plugin", "planner", "web_arena", "AutoAGI", "awesome-llms", "agi_index", "web_agent_nodejs",
    "llm_eval_suite", "solarized-vim", "a11y-checklist", "weekend_hacks", "recipe-box",
)


def _instances_new_project(conn: sqlite3.Connection) -> Instances:
    taken = {r[0].lower() for r in conn.execute("SELECT path FROM projects WHERE namespace = ?", (USER,))}
    url = f"func:gitlab_newest_project_url('{USER}')"
    out = []
    for index, name in enumerate(NEW_PROJECT_NAMES):
        if name.lower() in taken:
            continue
        visibility = ("private", "public", "internal")[index % 3]
        out.append(({"visibility": visibility, "name": name}, program_html_eval(
            (url, "document.querySelector('.project-title').outerText", {"exact_match": name}),
            (url, "document.querySelector('.visibility').outerText", {"exact_match": visibility.capitalize()}),
        )))
    return out


def _solve_new_project(ctx: OracleContext) -> Iterator[str]:
    yield ctx.click("New project", tag="a", exact=True)
    yield ctx.type("Project name", ctx.instantiation["name"])
    yield ctx.check(ctx.instantiation["visibility"].capitalize())
    yield ctx.click("Create project", tag="button", exact=True)
    yield ctx.exit("")


#: Statuses people set, for the status family.
STATUSES = (
    "Busy", "On vacation", "Working from home", "In a meeting", "Out sick", "Focusing",
    "Back on Monday", "At a conference", "Reviewing merge requests", "Parental leave", "Commuting", "Offline today",
)


def _instances_set_status(conn: sqlite3.Connection) -> Instances:
    current = conn.execute("SELECT status_message FROM users WHERE username = ?", (USER,)).fetchone()[0]
    return [
        ({"status": status}, program_html_eval((
            f"{GITLAB}/{USER}", "document.querySelector('.cover-status .status-text').outerText", {"exact_match": status},
        )))
        for status in STATUSES if status != current
    ]


def _solve_set_status(ctx: OracleContext) -> Iterator[str]:
    yield ctx.click("Edit profile", tag="a", exact=True)
    yield ctx.type("What's your status?", ctx.instantiation["status"])
    yield ctx.click("Update profile settings", tag="button", exact=True)
    yield ctx.exit("")


def _instances_follow(conn: sqlite3.Connection) -> Instances:
    return [
        ({"user": username}, program_html_eval((
            f"{GITLAB}/users/{USER}/following", "document.querySelector('.user-list').outerText", {"must_include": [f"@{username}"]},
        )))
        for (username,) in conn.execute(
            "SELECT username FROM users WHERE username != ? AND id NOT IN (SELECT followee_id FROM follows"
            " WHERE follower_id = (SELECT id FROM users WHERE username = ?)) ORDER BY id",
            (USER, USER),
        )
    ]


def _solve_follow(ctx: OracleContext) -> Iterator[str]:
    username = ctx.instantiation["user"]
    yield ctx.search("Search GitLab", username)
    yield ctx.click_element(element_matching(ctx, r"Users \d+"))
    yield ctx.click_element(element_matching(ctx, rf".* @{re.escape(username)}"))
    yield ctx.click("Follow", tag="button", exact=True)
    yield ctx.exit("")


ACTION_FAMILIES: list[TaskFamily] = [
    family("issues_by_label", "Display the list of issues in the {{repo}} repository that have labels related to {{label}}",
           "navigation", _instances_issues_by_label, _solve_issues_by_label),
    family("mrs_by_state", "Show me the {{state}} merge requests of {{repo}}", "navigation", _instances_mrs_by_state, _solve_mrs_by_state),
    family("open_issue_page", 'Open the issue "{{title}}" in {{repo}}', "navigation", _instances_open_issue_page, _solve_open_issue_page),
    family("commits_by_author", "Show me the commits {{user}} made to {{repo}}", "navigation",
           _instances_commits_by_author, _solve_commits_by_author),
    family("star_project", "Star the {{repo}} project", "content", _instances_star, _solve_star),
    family("invite_member", "Invite {{user}} to {{repo}} as {{role}}", "content", _instances_invite, _solve_invite),
    family("new_issue", 'Create an issue in {{repo}} with the title "{{title}}"', "content", _instances_new_issue, _solve_new_issue),
    family("new_project", 'Create a new {{visibility}} project named "{{name}}"', "content", _instances_new_project, _solve_new_project),
    family("set_status", "Set my gitlab status as {{status}}.", "content", _instances_set_status, _solve_set_status),
    family("follow_user", "Follow {{user}} on Gitlab", "content", _instances_follow, _solve_follow),
]
