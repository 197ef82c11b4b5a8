"""Lookups shared by the code host's views: users, projects, permissions, pagination."""

from __future__ import annotations

import math
import sqlite3
from dataclasses import dataclass
from typing import Any

from flask import abort, request, url_for

from ..webapp import current_user, db, login_required, world
from .data import ROLES, stamp

LOGIN_PATH = "/users/sign_in"
PER_PAGE = 20

#: Decorator for views that need a signed-in user.
signed_in = login_required(LOGIN_PATH)

#: Host name shown in clone URLs: fixed, so answers do not depend on the serving port.
CLONE_HOST = "gitlab.webarena.local"


def me() -> sqlite3.Row | None:
    """The signed-in user's row, or None."""
    username = current_user()
    if username is None:
        return None
    return db().execute("SELECT * FROM users WHERE username = ?", (username,)).fetchone()


def me_required() -> sqlite3.Row:
    user = me()
    if user is None:
        abort(403)
    return user


def user_by_username(username: str) -> sqlite3.Row:
    row = db().execute("SELECT * FROM users WHERE username = ?", (username,)).fetchone()
    if row is None:
        abort(404)
    return row


def access_level(project_id: int, user_id: int | None) -> int:
    """The user's role in the project (0 when not a member)."""
    if user_id is None:
        return 0
    row = db().execute(
        "SELECT access_level FROM members WHERE project_id = ? AND user_id = ?", (project_id, user_id)
    ).fetchone()
    return row["access_level"] if row else 0


def visible_clause(alias: str = "p") -> tuple[str, tuple[Any, ...]]:
    """SQL condition for the projects the current visitor may see."""
    user = me()
    if user is None:
        return f"{alias}.visibility = 'public'", ()
    return (
        f"({alias}.visibility IN ('public', 'internal') OR EXISTS (SELECT 1 FROM members vm"
        f" WHERE vm.project_id = {alias}.id AND vm.user_id = ?))",
        (user["id"],),
    )


def project_or_404(namespace: str, path: str) -> sqlite3.Row:
    """The project at ``/<namespace>/<path>`` if the visitor may see it (404 otherwise, as GitLab does)."""
    clause, args = visible_clause()
    row = db().execute(
        f"SELECT p.*, (SELECT COUNT(*) FROM stars s WHERE s.project_id = p.id) AS star_count"
        f" FROM projects p WHERE p.namespace = ? AND p.path = ? AND {clause}",
        (namespace, path, *args),
    ).fetchone()
    if row is None:
        abort(404)
    return row


def require_level(project: sqlite3.Row, level: int) -> sqlite3.Row:
    """The signed-in user, if their role in ``project`` is at least ``level`` (403 otherwise)."""
    user = me_required()
    if access_level(project["id"], user["id"]) < level:
        abort(403, description=f"You need the {ROLES[level]} role or higher in this project.")
    return user


def touch_project(project_id: int, moment: str) -> None:
    """Record activity (drives the "Last updated" sort)."""
    db().execute("UPDATE projects SET last_activity_at = ? WHERE id = ?", (moment, project_id))


def now_stamp() -> str:
    """The world clock's time, in the storage format (new records never read the real clock)."""
    return stamp(world().now())


def project_members(project_id: int) -> list[sqlite3.Row]:
    return db().execute(
        "SELECT u.*, m.access_level, m.created_at AS member_since FROM members m JOIN users u ON u.id = m.user_id"
        " WHERE m.project_id = ? ORDER BY m.access_level DESC, u.username COLLATE NOCASE",
        (project_id,),
    ).fetchall()


@dataclass
class Page:
    """One page of a list, with what the pager needs."""

    rows: list[sqlite3.Row]
    number: int
    pages: int
    total: int

    def url(self, number: int) -> str:
        """This list's URL (same filters) at another page number."""
        args: dict[str, Any] = {key: request.args.getlist(key) for key in request.args if key != "page"}
        args = {key: values[0] if len(values) == 1 else values for key, values in args.items()}
        if number > 1:
            args["page"] = number
        return url_for(request.endpoint, **(request.view_args or {}), **args)


def paginate(sql: str, args: tuple[Any, ...] = (), per_page: int = PER_PAGE) -> Page:
    """Run ``sql`` for the page named by ``?page=`` (counting the whole result first)."""
    total = db().execute(f"SELECT COUNT(*) FROM ({sql})", args).fetchone()[0]
    pages = max(1, math.ceil(total / per_page))
    try:
        number = min(max(int(request.args.get("page", 1)), 1), pages)
    except ValueError:
        number = 1
    rows = db().execute(f"{sql} LIMIT ? OFFSET ?", (*args, per_page, (number - 1) * per_page)).fetchall()
    return Page(rows=rows, number=number, pages=pages, total=total)
