"""What the code host's families share: task dict builders, queries over the seed data, oracle navigation."""

from __future__ import annotations

import random
import re
import sqlite3
from collections.abc import Iterator
from functools import partial
from typing import Any

from ....observation import Element
from ....tasks.families import single_site_family
from ....tasks.oracle import OracleContext, OracleError

GITLAB = "__GITLAB__"
USER = "byteblaze"

#: (instantiation_dict, eval) pairs, what each family's instance function returns.
Instances = list[tuple[dict[str, Any], dict[str, Any]]]

#: ``family(name, template, kind, instances, solve)``: a code host family over the pristine data.
family = partial(single_site_family, "gitlab", start_url=GITLAB)


# -- queries -----------------------------------------------------------------------------


def projects(conn: sqlite3.Connection) -> list[tuple[int, str, str]]:
    """(id, namespace, path) of every project byteblaze can see, in creation order."""
    return conn.execute(
        "SELECT p.id, p.namespace, p.path FROM projects p WHERE p.visibility != 'private' OR EXISTS"
        " (SELECT 1 FROM members m JOIN users u ON u.id = m.user_id WHERE m.project_id = p.id AND u.username = ?)"
        " ORDER BY p.id",
        (USER,),
    ).fetchall()


def repo_name(namespace: str, path: str) -> str:
    """How intents name a project: bare for byteblaze's own ("my repo"), else namespace/path."""
    return path if namespace == USER else f"{namespace}/{path}"


def contributors(conn: sqlite3.Connection, project_id: int) -> list[tuple[str, str, int]]:
    """(name, email, commits) on main, most commits first, as the contributors page lists them."""
    return conn.execute(
        "SELECT author_name, author_email, COUNT(*) AS n FROM commits WHERE project_id = ? AND branch = 'main'"
        " GROUP BY author_email ORDER BY n DESC, author_name",
        (project_id,),
    ).fetchall()


def rng_for(name: str) -> random.Random:
    """A family's own fixed random stream, for picking one of several equally good instances."""
    return random.Random(f"gitlab.{name}")


def unique_titles(conn: sqlite3.Connection, table: str, project_id: int, where: str = "1") -> list[tuple]:
    """(iid, title, state, assignee username, assignee name) of a project's issues or merge requests

    whose title no other row of the same project shares (so a title names one row).
    """
    return conn.execute(
        f"SELECT t.iid, t.title, t.state, u.username, u.name FROM {table} t LEFT JOIN users u ON u.id = t.assignee_id"
        f" WHERE t.project_id = ? AND {where} AND (SELECT COUNT(*) FROM {table} o WHERE o.project_id = t.project_id"
        f" AND o.title = t.title) = 1 ORDER BY t.iid",
        (project_id,),
    ).fetchall()


# -- oracle helpers ----------------------------------------------------------------------


def element_matching(ctx: OracleContext, pattern: str, tag: str = "a") -> Element:
    """The first element of ``tag`` whose whole text matches the regex ``pattern``."""
    for candidate in ctx.find_all(tag=tag):
        if re.fullmatch(pattern, candidate.text.strip()):
            return candidate
    raise OracleError(f"No <{tag}> matching {pattern!r} on {ctx.url}:\n{ctx.observation[:3000]}")


def open_project(ctx: OracleContext, repo: str) -> Iterator[str]:
    """Header search -> the project's result link."""
    yield ctx.search("Search GitLab", repo)
    yield ctx.click_element(element_matching(ctx, rf"\S+ / {re.escape(repo.split('/')[-1])}"))


def open_section(ctx: OracleContext, repo: str, section: str) -> Iterator[str]:
    """The project, then a sidebar entry (Issues and Merge requests carry their counts)."""
    yield from open_project(ctx, repo)
    if section in ("Issues", "Merge requests"):
        yield ctx.click_element(element_matching(ctx, rf"{section} \d+"))
    else:
        yield ctx.click(section, tag="a", exact=True)


def contributor_rows(ctx: OracleContext) -> list[tuple[str, str, int]]:
    """(name, email, commits) read off the contributors page."""
    rows = re.findall(r"<tr><td>([^<]*)</td><td>([^<]*)</td><td>(\d+)</td>", ctx.page.text)
    return [(name, email, int(count)) for name, email, count in rows]


def open_issue(ctx: OracleContext, repo: str, title: str) -> Iterator[str]:
    """The project's issue list, searched for the title, then the issue itself."""
    yield from open_section(ctx, repo, "Issues")
    yield ctx.search("Search issues", title)
    yield ctx.click(title, tag="a", exact=True)


