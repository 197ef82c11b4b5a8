"""A project's overview, stars, members, commits and contributors."""

from __future__ import annotations

import re

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for

from ..webapp import db
from .data import ROLES
from .queries import (
    access_level,
    me,
    me_required,
    now_stamp,
    paginate,
    project_members,
    project_or_404,
    require_level,
    signed_in,
    touch_project,
)

bp = Blueprint("project", __name__)


def project_counts(project_id: int):
    """Numbers the project's sidebar shows."""
    return db().execute(
        "SELECT (SELECT COUNT(*) FROM issues WHERE project_id = :p AND state = 'opened') AS issues,"
        " (SELECT COUNT(*) FROM merge_requests WHERE project_id = :p AND state = 'opened') AS merge_requests,"
        " (SELECT COUNT(*) FROM commits WHERE project_id = :p) AS commits,"
        " (SELECT COUNT(*) FROM branches WHERE project_id = :p) AS branches,"
        " (SELECT COUNT(*) FROM members WHERE project_id = :p) AS members",
        {"p": project_id},
    ).fetchone()


def render_project(template: str, project, section: str, **context):
    """Render a page inside the project layout (sidebar with counts, role of the viewer)."""
    viewer = me()
    level = access_level(project["id"], viewer["id"] if viewer else None)
    return render_template(
        template, project=project, section=section, counts=project_counts(project["id"]), level=level, **context
    )


@bp.get("/<namespace>/<project>")
def project_page(namespace: str, project: str):
    row = project_or_404(namespace, project)
    viewer = me()
    starred = viewer is not None and db().execute(
        "SELECT 1 FROM stars WHERE user_id = ? AND project_id = ?", (viewer["id"], row["id"])
    ).fetchone() is not None
    last_commit = db().execute(
        "SELECT * FROM commits WHERE project_id = ? ORDER BY committed_at DESC, id DESC LIMIT 1", (row["id"],)
    ).fetchone()
    file = db().execute(
        "SELECT content FROM files WHERE project_id = ? AND branch = ? AND path = 'README.md'", (row["id"], row["default_branch"])
    ).fetchone()
    text = file["content"] if file else row["readme"]
    readme = [block.strip() for block in text.split("\n\n") if block.strip()]
    return render_project("project.html", row, "overview", starred=starred, last_commit=last_commit, readme=readme)


@bp.post("/<namespace>/<project>/-/star")
@signed_in
def star(namespace: str, project: str):
    row, user = project_or_404(namespace, project), me_required()
    db().execute("INSERT OR IGNORE INTO stars VALUES (?, ?, ?)", (user["id"], row["id"], now_stamp()))
    return redirect(url_for("project.project_page", namespace=namespace, project=project))


@bp.post("/<namespace>/<project>/-/unstar")
@signed_in
def unstar(namespace: str, project: str):
    row, user = project_or_404(namespace, project), me_required()
    db().execute("DELETE FROM stars WHERE user_id = ? AND project_id = ?", (user["id"], row["id"]))
    return redirect(url_for("project.project_page", namespace=namespace, project=project))


@bp.get("/<namespace>/<project>/-/starrers")
def starrers(namespace: str, project: str):
    row = project_or_404(namespace, project)
    people = db().execute(
        "SELECT u.*, s.created_at AS starred_at FROM stars s JOIN users u ON u.id = s.user_id"
        " WHERE s.project_id = ? ORDER BY s.created_at DESC",
        (row["id"],),
    ).fetchall()
    return render_project("starrers.html", row, "overview", people=people)


@bp.route("/<namespace>/<project>/-/project_members", methods=["GET", "POST"])
def project_members_page(namespace: str, project: str):
    row = project_or_404(namespace, project)
    errors: list[str] = []
    if request.method == "POST":
        if me() is None:
            return redirect(url_for("users.sign_in", next=request.path))
        require_level(row, 40)
        errors = _invite_all(row, request.form.get("username", ""), request.form.get("access_level", ""))
        if not errors:
            flash("Members were successfully added")
            return redirect(url_for("project.project_members_page", namespace=namespace, project=project))
    search = request.args.get("search", "").strip().lower()
    members = [
        m for m in project_members(row["id"]) if not search or search in m["username"].lower() or search in m["name"].lower()
    ]
    sort = request.args.get("sort", "access_level")
    if sort not in MEMBER_SORTS:
        sort = "access_level"
    direction = "asc" if request.args.get("direction") == "asc" else "desc"
    members.sort(key=MEMBER_SORTS[sort][1], reverse=direction == "desc")
    return render_project(
        "members.html", row, "members", members=members, errors=errors, search=search, modal=request.args.get("modal", ""),
        sort=sort, direction=direction, sorts=MEMBER_SORTS,
    )


#: Sorts of the members table -> (label, key).
MEMBER_SORTS = {
    "access_level": ("Max role", lambda m: (m["access_level"], m["username"].lower())),
    "name": ("Account", lambda m: m["name"].lower()),
    "member_since": ("Access granted", lambda m: m["member_since"]),
}


def _invite_all(project, text: str, level_text: str) -> list[str]:
    """Invite everyone named in ``text`` (commas or "and" between people); all or nothing."""
    names = [part.strip().lstrip("@") for part in re.split(r",|\band\b", text) if part.strip()]
    if not names:
        return ["Enter a username to invite."]
    users, errors = [], []
    for name in names:
        user = _find_user(name)
        if user is None:
            errors.append(f"User {name!r} was not found.")
        elif access_level(project["id"], user["id"]):
            errors.append(f"{user['username']} is already a member of this project.")
        else:
            users.append(user)
    try:
        level = int(level_text)
    except ValueError:
        level = 0
    if level not in ROLES:
        errors.append("Select a role.")
    if errors:
        return errors
    moment = now_stamp()
    for user in {u["id"]: u for u in users}.values():
        db().execute("INSERT INTO members VALUES (?, ?, ?, ?)", (project["id"], user["id"], level, moment))
    touch_project(project["id"], moment)
    return []


def _find_user(name: str):
    """A user by username, email, or full name (when exactly one person has it), as the invite search finds them."""
    user = db().execute("SELECT * FROM users WHERE username = ? OR email = ?", (name, name)).fetchone()
    if user is not None:
        return user
    found = db().execute("SELECT * FROM users WHERE name = ? COLLATE NOCASE", (name,)).fetchall()
    return found[0] if len(found) == 1 else None


@bp.post("/<namespace>/<project>/-/project_members/<username>")
@signed_in
def change_role(namespace: str, project: str, username: str):
    row = project_or_404(namespace, project)
    require_level(row, 40)
    target = db().execute("SELECT id FROM users WHERE username = ?", (username,)).fetchone()
    level = request.form.get("access_level", type=int)
    if target is None or level not in ROLES:
        abort(404)
    db().execute(
        "UPDATE members SET access_level = ? WHERE project_id = ? AND user_id = ?", (level, row["id"], target["id"])
    )
    flash(f"Role of {username} changed to {ROLES[level]}")
    return redirect(url_for("project.project_members_page", namespace=namespace, project=project))


@bp.post("/<namespace>/<project>/-/project_members/<username>/remove")
@signed_in
def remove_member(namespace: str, project: str, username: str):
    row = project_or_404(namespace, project)
    require_level(row, 40)
    db().execute(
        "DELETE FROM members WHERE project_id = ? AND access_level < 50"
        " AND user_id = (SELECT id FROM users WHERE username = ?)",
        (row["id"], username),
    )
    flash(f"{username} was removed from the project")
    return redirect(url_for("project.project_members_page", namespace=namespace, project=project))


@bp.get("/<namespace>/<project>/-/commits")
@bp.get("/<namespace>/<project>/-/commits/<branch>")
def commits(namespace: str, project: str, branch: str | None = None):
    row = project_or_404(namespace, project)
    branch = branch or row["default_branch"]
    if branch != row["default_branch"]:
        abort(404)
    author = request.args.get("author", "").strip()
    where, args = "project_id = ? AND branch = ?", [row["id"], branch]
    if author:
        where += " AND (author_name LIKE ? OR author_email LIKE ?)"
        args += [f"%{author}%"] * 2
    page = paginate(f"SELECT * FROM commits WHERE {where} ORDER BY committed_at DESC, id DESC", tuple(args))
    days: list[tuple[str, list]] = []
    for commit in page.rows:
        day = commit["committed_at"][:10]
        if not days or days[-1][0] != day:
            days.append((day, []))
        days[-1][1].append(commit)
    return render_project("commits.html", row, "commits", page=page, days=days, author=author, branch=branch)


@bp.get("/<namespace>/<project>/-/commit/<sha>")
def commit(namespace: str, project: str, sha: str):
    row = project_or_404(namespace, project)
    found = db().execute(
        "SELECT * FROM commits WHERE project_id = ? AND sha LIKE ? ORDER BY id LIMIT 1", (row["id"], f"{sha}%")
    ).fetchone()
    if found is None or len(sha) < 7:
        abort(404)
    return render_project("commit.html", row, "commits", commit=found)


@bp.get("/<namespace>/<project>/-/branches")
def branches(namespace: str, project: str):
    row = project_or_404(namespace, project)
    rows = db().execute(
        "SELECT b.*, (SELECT iid FROM merge_requests m WHERE m.project_id = b.project_id AND m.source_branch = b.name"
        " AND m.state = 'opened') AS mr_iid FROM branches b WHERE b.project_id = ? ORDER BY b.name = ? DESC, b.updated_at DESC",
        (row["id"], row["default_branch"]),
    ).fetchall()
    return render_project("branches.html", row, "branches", branches=rows)


@bp.get("/<namespace>/<project>/-/graphs/<branch>")
def contributors(namespace: str, project: str, branch: str):
    row = project_or_404(namespace, project)
    if branch != row["default_branch"]:
        abort(404)
    people = db().execute(
        "SELECT author_name, author_email, COUNT(*) AS commits, MIN(committed_at) AS first, MAX(committed_at) AS last"
        " FROM commits WHERE project_id = ? AND branch = ? GROUP BY author_email"
        " ORDER BY commits DESC, author_name",
        (row["id"], branch),
    ).fetchall()
    return render_project("contributors.html", row, "contributors", people=people, branch=branch)
