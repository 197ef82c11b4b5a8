"""Activity questions with WebArena-Lite's own templates: commits on a day, my latest issues.

The commit counts come from the commits page filtered by author (grouped by day, newest
first); "my" issues are the ones byteblaze created, found through the dashboard's issue
search (``/dashboard/issues?author_username=byteblaze``).
"""

from __future__ import annotations

import datetime as dt
import re
import sqlite3
from collections.abc import Iterator

from ....tasks.families import TaskFamily, string_match_eval
from ....tasks.oracle import OracleContext
from .common import GITLAB, Instances, contributors, family, open_section, projects, repo_name, rng_for


def _slash_date(day: dt.date) -> str:
    """``1/3/2023``: how Lite's intents write a day."""
    return f"{day.month}/{day.day}/{day.year}"


def _commits_on(conn: sqlite3.Connection, project_id: int, email: str, day: dt.date) -> int:
    return conn.execute(
        "SELECT COUNT(*) FROM commits WHERE project_id = ? AND branch = 'main' AND author_email = ? AND substr(committed_at, 1, 10) = ?",
        (project_id, email, day.isoformat()),
    ).fetchone()[0]


def _commit_day_instances(conn: sqlite3.Connection, name: str, with_repo: bool) -> Instances:
    """One question a project: a contributor and a day; every fourth a day they did not commit (answer 0)."""
    rng, out = rng_for(name), []
    for index, (pid, ns, path) in enumerate(projects(conn)):
        if (index % 2 == 0) != with_repo:  # the two templates ask about different projects
            continue
        author, email, _count = rng.choice(contributors(conn, pid))
        days = sorted({r[0][:10] for r in conn.execute(
            "SELECT committed_at FROM commits WHERE project_id = ? AND author_email = ?", (pid, email))})
        day = dt.date.fromisoformat(rng.choice(days))
        if len(out) % 4 == 3:
            day -= dt.timedelta(days=1)
        values = {"user": author, "repo": repo_name(ns, path), "date": _slash_date(day)} if with_repo else \
            {"user": author, "date": _slash_date(day)}
        evaluation = string_match_eval(must_include=[str(_commits_on(conn, pid, email, day))])
        out.append((values, evaluation) if with_repo else (values, evaluation, f"{GITLAB}/{ns}/{path}"))
    return out


def _count_commits_on_day(ctx: OracleContext) -> Iterator[str]:
    """On the commits page: filter by the author, then count under the day's heading (paging back as needed)."""
    month, day, year = (int(part) for part in ctx.instantiation["date"].split("/"))
    wanted = dt.date(year, month, day)
    heading = f"{wanted:%b} {wanted.day}, {wanted.year}"
    yield ctx.search("Filter by author", ctx.instantiation["user"])
    while True:
        sections = re.split(r"<h2[^>]*>([A-Z][a-z]{2} \d{1,2}, \d{4})</h2>", ctx.page.text)
        days = dict(zip(sections[1::2], sections[2::2], strict=True))
        if heading in days:
            yield ctx.exit(str(len(re.findall(r"\bauthored\b", days[heading]))))
            return
        shown = [dt.datetime.strptime(text, "%b %d, %Y").date() for text in days]
        if not shown or min(shown) < wanted or not ctx.find_all("Next", tag="a", exact=True):
            yield ctx.exit("0")
            return
        yield ctx.click("Next", tag="a", exact=True)


def _instances_commits_repo_day(conn: sqlite3.Connection) -> Instances:
    return _commit_day_instances(conn, "commits_repo_day", with_repo=True)


def _solve_commits_repo_day(ctx: OracleContext) -> Iterator[str]:
    yield from open_section(ctx, ctx.instantiation["repo"], "Commits")
    yield from _count_commits_on_day(ctx)


def _instances_commits_day(conn: sqlite3.Connection) -> Instances:
    return _commit_day_instances(conn, "commits_day", with_repo=False)


def _solve_commits_day(ctx: OracleContext) -> Iterator[str]:
    yield ctx.click("Commits", tag="a", exact=True)
    yield from _count_commits_on_day(ctx)


ACTIVITY_FAMILIES: list[TaskFamily] = [
    family("commits_repo_day", "How many commits did {{user}} make to {{repo}} on {{date}}?", "information",
           _instances_commits_repo_day, _solve_commits_repo_day),
    family("commits_day", "How many commits did {{user}} make on {{date}}?", "information",
           _instances_commits_day, _solve_commits_day),
]
