"""Information-seeking families (string_match): contributors, commits, issues, clone URLs, stars."""

from __future__ import annotations

import datetime as dt
import re
import sqlite3
from collections.abc import Iterator

from ....sites.gitlab.queries import CLONE_HOST
from ....tasks.families import TaskFamily, string_match_eval
from ....tasks.oracle import OracleContext, OracleError
from ....tasks.task import any_of
from .common import (
    USER,
    Instances,
    contributor_rows,
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

# -- information seeking (string_match) --------------------------------------------------


def _instances_top_contributor(conn: sqlite3.Connection) -> Instances:
    out = []
    for pid, ns, path in projects(conn):
        people = contributors(conn, pid)
        if len(people) == 1 or people[0][2] > people[1][2]:
            out.append(({"repo": repo_name(ns, path)}, string_match_eval(exact_match=people[0][0])))
    return out


def _solve_top_contributor(ctx: OracleContext) -> Iterator[str]:
    yield from open_section(ctx, ctx.instantiation["repo"], "Contributors")
    yield ctx.exit(contributor_rows(ctx)[0][0])


def _instances_open_label_count(conn: sqlite3.Connection) -> Instances:
    rng, out = rng_for("open_label_count"), []
    for pid, ns, path in projects(conn):
        counts = conn.execute(
            "SELECT l.name, COUNT(*) FROM issues i JOIN issue_labels il ON il.issue_id = i.id JOIN labels l ON l.id = il.label_id"
            " WHERE i.project_id = ? AND i.state = 'opened' GROUP BY l.name ORDER BY l.name",
            (pid,),
        ).fetchall()
        if counts:
            label, count = rng.choice(counts)
            out.append(({"label": label, "repo": repo_name(ns, path)}, string_match_eval(must_include=[str(count)])))
    return out


def _solve_open_label_count(ctx: OracleContext) -> Iterator[str]:
    yield from open_section(ctx, ctx.instantiation["repo"], "Issues")
    yield ctx.select("Label", ctx.instantiation["label"])
    yield ctx.click("Filter", tag="button", exact=True)
    yield ctx.exit(ctx.search_text(r">Open (\d+)<"))


def _instances_clone_ssh(conn: sqlite3.Connection) -> Instances:
    return [
        ({"repo": repo_name(ns, path)}, string_match_eval(exact_match=f"git clone ssh://git@{CLONE_HOST}:2222/{ns}/{path}.git"))
        for _pid, ns, path in projects(conn)
    ]


def _solve_clone_ssh(ctx: OracleContext) -> Iterator[str]:
    yield from open_project(ctx, ctx.instantiation["repo"])
    yield ctx.exit("git clone " + ctx.field("Clone with SSH").attributes["value"])


def _date_forms(stamp: str) -> str:
    """A date as must_include alternatives: ISO, "May 7, 2023", "May 07, 2023", "7 May 2023" (short and long months)."""
    day = dt.datetime.strptime(stamp[:10], "%Y-%m-%d")
    forms = [day.strftime("%Y-%m-%d")]
    for month in (day.strftime("%b"), day.strftime("%B")):
        forms += [f"{month} {day.day}, {day.year}", f"{month} {day.day:02d}, {day.year}", f"{day.day} {month} {day.year}"]
    return any_of(*forms)


def _instances_last_commit(conn: sqlite3.Connection) -> Instances:
    rng, out = rng_for("last_commit"), []
    for pid, ns, path in projects(conn):
        people = [p for p in contributors(conn, pid) if p[2] >= 2]
        if people:
            name, email, _count = rng.choice(people)
            last = conn.execute(
                "SELECT MAX(committed_at) FROM commits WHERE project_id = ? AND author_email = ?", (pid, email)
            ).fetchone()[0]
            out.append(({"user": name, "repo": repo_name(ns, path)}, string_match_eval(must_include=[_date_forms(last)])))
    return out


def _solve_last_commit(ctx: OracleContext) -> Iterator[str]:
    name = ctx.instantiation["user"]
    yield from open_section(ctx, ctx.instantiation["repo"], "Commits")
    yield ctx.search("Filter by author", name)
    yield ctx.exit(ctx.search_text(rf"{re.escape(name)} authored (\w{{3}} \d{{1,2}}, \d{{4}})"))


def _instances_repo_members(conn: sqlite3.Connection) -> Instances:
    out = []
    for pid, ns, path in projects(conn):
        if ns != USER:
            continue
        others = [r[0] for r in conn.execute(
            "SELECT u.username FROM members m JOIN users u ON u.id = m.user_id WHERE m.project_id = ? AND u.username != ?"
            " ORDER BY u.username COLLATE NOCASE",
            (pid, USER),
        )]
        if others:
            out.append(({"repo": path}, string_match_eval(fuzzy_match=others)))
    return out


def _solve_repo_members(ctx: OracleContext) -> Iterator[str]:
    yield from open_section(ctx, ctx.instantiation["repo"], "Members")
    users = re.findall(r'<td><a id="\d+">[^<]*</a> @([\w.\-]+)</td>', ctx.page.text)
    yield ctx.exit(", ".join(u for u in users if u != USER))


def _instances_stars_unachievable(conn: sqlite3.Connection) -> Instances:
    """"more than N stars" for thresholds above every repository byteblaze committed to: nothing qualifies."""
    most = conn.execute(
        "SELECT MAX((SELECT COUNT(*) FROM stars s WHERE s.project_id = p.id)) FROM projects p WHERE p.id IN"
        " (SELECT project_id FROM commits c JOIN users u ON u.email = c.author_email WHERE u.username = ?)",
        (USER,),
    ).fetchone()[0]
    start = (most // 50 + 1) * 50
    return [({"description": f"more than {n}"}, string_match_eval(fuzzy_match="N/A")) for n in range(start, start + 500, 50)]


def _solve_stars_unachievable(ctx: OracleContext) -> Iterator[str]:
    yield ctx.click("Projects", tag="a", exact=True)
    yield ctx.select("Sort by", "Most stars")
    yield ctx.click("Search", tag="button", exact=True)
    top = int(ctx.search_text(r"</a> (\d+) stars"))
    threshold = int(ctx.instantiation["description"].split()[-1])
    if top > threshold:
        raise OracleError(f"{top} stars exceeds {threshold}: this task is achievable after all")
    yield ctx.exit("N/A")


def _instances_commit_count(conn: sqlite3.Connection) -> Instances:
    rng, out = rng_for("commit_count"), []
    for pid, ns, path in projects(conn):
        people = contributors(conn, pid)
        name, _email, count = rng.choice(people[1:] or people)
        out.append(({"user": name, "repo": repo_name(ns, path)}, string_match_eval(must_include=[str(count)])))
    return out


def _solve_commit_count(ctx: OracleContext) -> Iterator[str]:
    yield from open_section(ctx, ctx.instantiation["repo"], "Contributors")
    counts = {name: count for name, _email, count in contributor_rows(ctx)}
    yield ctx.exit(str(counts[ctx.instantiation["user"]]))


def _instances_top3_emails(conn: sqlite3.Connection) -> Instances:
    out = []
    for pid, ns, path in projects(conn):
        people = contributors(conn, pid)
        if len(people) >= 3 and (len(people) == 3 or people[2][2] > people[3][2]):
            out.append(({"attribute": "emails", "repo": repo_name(ns, path)},
                        string_match_eval(must_include=[email for _name, email, _n in people[:3]])))
    return out


def _solve_top3_emails(ctx: OracleContext) -> Iterator[str]:
    yield from open_section(ctx, ctx.instantiation["repo"], "Contributors")
    yield ctx.exit(", ".join(email for _name, email, _n in contributor_rows(ctx)[:3]))


def _instances_issue_assignee(conn: sqlite3.Connection) -> Instances:
    rng, out = rng_for("issue_assignee"), []
    for pid, ns, path in projects(conn):
        issues = [i for i in unique_titles(conn, "issues", pid, "t.state = 'opened' AND t.assignee_id IS NOT NULL")]
        if issues:
            _iid, title, _state, username, name = rng.choice(issues)
            out.append(({"title": title, "repo": repo_name(ns, path)}, string_match_eval(must_include=[any_of(name, username)])))
    return out


def _solve_issue_assignee(ctx: OracleContext) -> Iterator[str]:
    yield from open_issue(ctx, ctx.instantiation["repo"], ctx.instantiation["title"])
    yield ctx.exit(ctx.search_text(r'<h2>Assignee</h2>\s*(?:<a id="\d+"[^>]*>Edit</a>\s*)?<p><a id="\d+">([^<]+)</a>'))


MR_STATE_WORDS = {"opened": ("Open", "Opened"), "merged": ("Merged",), "closed": ("Closed",)}


def _instances_mr_state(conn: sqlite3.Connection) -> Instances:
    rng, out = rng_for("mr_state"), []
    for pid, ns, path in projects(conn):
        mrs = unique_titles(conn, "merge_requests", pid)
        if mrs:
            _iid, title, state, _u, _n = rng.choice(mrs)
            out.append(({"title": title, "repo": repo_name(ns, path)}, string_match_eval(must_include=[any_of(*MR_STATE_WORDS[state])])))
    return out


def _solve_mr_state(ctx: OracleContext) -> Iterator[str]:
    title = ctx.instantiation["title"]
    yield from open_section(ctx, ctx.instantiation["repo"], "Merge requests")
    yield ctx.click_element(element_matching(ctx, r"All \d+"))
    yield ctx.search("Search merge requests", title)
    yield ctx.click(title, tag="a", exact=True)
    yield ctx.exit(ctx.search_text(r"(Open|Merged|Closed) Merge request !\d+"))


def _instances_star_count(conn: sqlite3.Connection) -> Instances:
    return [
        ({"repo": repo_name(ns, path)}, string_match_eval(must_include=[str(conn.execute(
            "SELECT COUNT(*) FROM stars WHERE project_id = ?", (pid,)).fetchone()[0])]))
        for pid, ns, path in projects(conn)
    ]


def _solve_star_count(ctx: OracleContext) -> Iterator[str]:
    yield from open_project(ctx, ctx.instantiation["repo"])
    yield ctx.exit(ctx.search_text(r">(\d+) stars<"))


INFORMATION_FAMILIES: list[TaskFamily] = [
    family("top_contributor", "Tell me who has made the most contributions, in terms of number of commits, to the {{repo}} project",
            "information", _instances_top_contributor, _solve_top_contributor),
    family("open_label_count", 'How many open issues in {{repo}} have the label "{{label}}"?',
            "information", _instances_open_label_count, _solve_open_label_count),
    family("clone_ssh", "Show me the command to clone {{repo}} with SSH.", "information", _instances_clone_ssh, _solve_clone_ssh),
    family("last_commit", "When did {{user}} last commit to {{repo}}? Give me the date.",
            "information", _instances_last_commit, _solve_last_commit),
    family("repo_members", "Who else have access to my repo {{repo}}, show me their usernames",
            "information", _instances_repo_members, _solve_repo_members),
    family("stars_unachievable", "Tell me the full names of the repositories where I made contributions and they got {{description}} stars?",
            "information", _instances_stars_unachievable, _solve_stars_unachievable),
    family("commit_count", "How many commits did {{user}} make to {{repo}}?", "information", _instances_commit_count, _solve_commit_count),
    family("top3_contributors", "List the {{attribute}} of the top 3 contributors to {{repo}} repo, ranked by the number of commits?",
            "information", _instances_top3_emails, _solve_top3_emails),
    family("issue_assignee", 'Who is assigned to the open issue "{{title}}" in {{repo}}?',
            "information", _instances_issue_assignee, _solve_issue_assignee),
    family("mr_state", 'What is the status of the merge request "{{title}}" in {{repo}}?',
            "information", _instances_mr_state, _solve_mr_state),
    family("star_count", "How many stars does the {{repo}} project have?", "information", _instances_star_count, _solve_star_count),
]
