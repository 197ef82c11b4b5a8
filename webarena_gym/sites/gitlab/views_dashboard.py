"""Project lists (explore, dashboard), the dashboard's issues, merge requests and to-dos, new projects."""

from __future__ import annotations

import hashlib

from flask import Blueprint, flash, redirect, render_template, request, url_for

from ..webapp import db
from .data import slugify
from .queries import me_required, now_stamp, paginate, signed_in, visible_clause
from .seed_text import LABELS

bp = Blueprint("dashboard", __name__)

#: Sort keys of project lists (GitLab's names) -> (label, ORDER BY).
PROJECT_SORTS = {
    "latest_activity_desc": ("Last updated", "p.last_activity_at DESC, p.id"),
    "name_asc": ("Name", "p.name COLLATE NOCASE, p.namespace COLLATE NOCASE"),
    "stars_desc": ("Most stars", "star_count DESC, p.name COLLATE NOCASE"),
    "created_desc": ("Created date", "p.created_at DESC"),
}

PROJECT_COLUMNS = (
    "p.*, (SELECT COUNT(*) FROM stars s WHERE s.project_id = p.id) AS star_count,"
    " (SELECT COUNT(*) FROM issues i WHERE i.project_id = p.id AND i.state = 'opened') AS open_issues"
)


#: Built-in project templates offered by the new-project form.
PROJECT_TEMPLATES = (
    "Ruby on Rails", "Spring", "NodeJS Express", "iOS (Swift)", ".NET Core", "Android", "Go Micro",
    "Pages/Plain HTML", "Pages/Jekyll", "Pages/Hugo", "Serverless Framework/JS", "Django",
)


def _project_list(template_tab: str, where: str, args: tuple, default_sort: str):
    sort = request.args.get("sort", default_sort)
    if sort not in PROJECT_SORTS:
        sort = default_sort
    search = request.args.get("name", "").strip()
    conditions, params = [where], list(args)
    if search:
        conditions.append("(p.name LIKE ? OR p.namespace || '/' || p.path LIKE ? OR p.description LIKE ?)")
        params += [f"%{search}%"] * 3
    page = paginate(
        f"SELECT {PROJECT_COLUMNS} FROM projects p WHERE {' AND '.join(conditions)} ORDER BY {PROJECT_SORTS[sort][1]}",
        tuple(params),
    )
    return render_template(
        "projects.html", page=page, tab=template_tab, sort=sort, sorts=PROJECT_SORTS, search=search
    )


def _dashboard_filter(kind: str) -> tuple[str, str]:
    """The dashboard's user filter: (query argument, username); defaults to "assigned to me"."""
    user = me_required()
    for arg in ("assignee_username", "author_username", "reviewer_username"):
        if arg == "reviewer_username" and kind == "issues":
            continue
        if request.args.get(arg):
            return arg, request.args[arg]
    return "assignee_username", user["username"]


@bp.get("/explore")
@bp.get("/explore/projects")
def explore():
    clause, args = visible_clause()
    return _project_list("explore", clause, args, "latest_activity_desc")


@bp.get("/explore/projects/starred")
def explore_starred():
    """GitLab's "Most starred" tab: every visible project, most stars first."""
    clause, args = visible_clause()
    return _project_list("explore_starred", clause, args, "stars_desc")


@bp.get("/search")
def search():
    """Global search: projects or users whose names contain the text."""
    text = request.args.get("search", "").strip()
    scope = "users" if request.args.get("scope") == "users" else "projects"
    like = f"%{text}%"
    clause, args = visible_clause()
    projects_sql = (
        f"SELECT {PROJECT_COLUMNS} FROM projects p WHERE {clause} AND (p.name LIKE ? OR"
        " p.namespace || '/' || p.path LIKE ? OR p.description LIKE ?) ORDER BY p.name COLLATE NOCASE"
    )
    users_sql = "SELECT * FROM users WHERE username LIKE ? OR name LIKE ? ORDER BY username COLLATE NOCASE"
    project_args, user_args = (*args, like, like, like), (like, like)
    counts = {
        "projects": db().execute(f"SELECT COUNT(*) FROM ({projects_sql})", project_args).fetchone()[0] if text else 0,
        "users": db().execute(f"SELECT COUNT(*) FROM ({users_sql})", user_args).fetchone()[0] if text else 0,
    }
    page = None
    if text:
        page = paginate(projects_sql, project_args) if scope == "projects" else paginate(users_sql, user_args)
    return render_template("search.html", text=text, scope=scope, counts=counts, page=page)


@bp.get("/dashboard/projects")
@signed_in
def dashboard_projects():
    user = me_required()
    return _project_list(
        "yours", "p.id IN (SELECT project_id FROM members WHERE user_id = ?)", (user["id"],),
        "latest_activity_desc",
    )


@bp.get("/dashboard/projects/starred")
@signed_in
def dashboard_starred():
    user = me_required()
    return _project_list(
        "starred", "p.id IN (SELECT project_id FROM stars WHERE user_id = ?)", (user["id"],),
        "latest_activity_desc",
    )


#: Sorts of the dashboard's issue list (GitLab's query values) -> (label, ORDER BY).
DASHBOARD_ISSUE_SORTS = {
    "created_date": ("Created date", "i.created_at DESC, i.id DESC"),
    "updated_desc": ("Updated date", "i.updated_at DESC, i.id DESC"),
    "created_asc": ("Oldest created", "i.created_at ASC, i.id ASC"),
}


@bp.get("/dashboard/issues")
@signed_in
def dashboard_issues():
    arg, username = _dashboard_filter("issues")
    column = {"assignee_username": "i.assignee_id", "author_username": "i.author_id"}[arg]
    state = request.args.get("state", "opened")
    if state not in ("opened", "closed", "all"):
        state = "opened"
    sort = request.args.get("sort", "created_date")
    if sort not in DASHBOARD_ISSUE_SORTS:
        sort = "created_date"
    search = request.args.get("search", "").strip()
    conditions, args = [f"{column} = (SELECT id FROM users WHERE username = ?)"], [username]
    if state != "all":
        conditions.append("i.state = ?")
        args.append(state)
    if search:
        conditions.append("i.title LIKE ?")
        args.append(f"%{search}%")
    clause, visible_args = visible_clause()
    page = paginate(
        "SELECT i.*, p.namespace, p.path, u.name AS author_name, a.name AS assignee_name FROM issues i"
        " JOIN projects p ON p.id = i.project_id JOIN users u ON u.id = i.author_id"
        " LEFT JOIN users a ON a.id = i.assignee_id"
        f" WHERE {' AND '.join(conditions)} AND {clause} ORDER BY {DASHBOARD_ISSUE_SORTS[sort][1]}",
        (*args, *visible_args),
    )
    return render_template(
        "dashboard_issues.html", page=page, arg=arg, username=username, state=state, sort=sort,
        sorts=DASHBOARD_ISSUE_SORTS, search=search,
    )


@bp.get("/dashboard/merge_requests")
@signed_in
def dashboard_merge_requests():
    arg, username = _dashboard_filter("merge_requests")
    conditions = {
        "assignee_username": "m.assignee_id = (SELECT id FROM users WHERE username = ?)",
        "author_username": "m.author_id = (SELECT id FROM users WHERE username = ?)",
        "reviewer_username": "m.id IN (SELECT mr_id FROM mr_reviewers WHERE user_id = (SELECT id FROM users WHERE username = ?))",
    }
    state = request.args.get("state", "opened")
    state_sql = "" if state == "all" else "AND m.state = ?"
    clause, args = visible_clause()
    page = paginate(
        "SELECT m.*, p.namespace, p.path, u.name AS author_name FROM merge_requests m"
        " JOIN projects p ON p.id = m.project_id JOIN users u ON u.id = m.author_id"
        f" WHERE {conditions[arg]} {state_sql} AND {clause} ORDER BY m.created_at DESC",
        (username, *((state,) if state != "all" else ()), *args),
    )
    return render_template("dashboard_mrs.html", page=page, arg=arg, username=username, state=state)


@bp.get("/dashboard/todos")
@signed_in
def dashboard_todos():
    user = me_required()
    state = "done" if request.args.get("state") == "done" else "pending"
    page = paginate(
        "SELECT t.*, p.namespace, p.path, u.name AS author_name,"
        " COALESCE(i.title, m.title) AS title, COALESCE(i.iid, m.iid) AS iid FROM todos t"
        " JOIN projects p ON p.id = t.project_id JOIN users u ON u.id = t.author_id"
        " LEFT JOIN issues i ON t.target_type = 'Issue' AND i.id = t.target_id"
        " LEFT JOIN merge_requests m ON t.target_type = 'MergeRequest' AND m.id = t.target_id"
        " WHERE t.user_id = ? AND t.state = ? ORDER BY t.created_at DESC, t.id DESC",
        (user["id"], state),
    )
    return render_template("todos.html", page=page, state=state)


@bp.post("/dashboard/todos/<int:todo_id>/mark_done")
@signed_in
def todo_done(todo_id: int):
    user = me_required()
    db().execute("UPDATE todos SET state = 'done' WHERE id = ? AND user_id = ?", (todo_id, user["id"]))
    flash("To-do item marked as done.")
    return redirect(url_for("dashboard.dashboard_todos"))


@bp.post("/dashboard/todos/mark_all_done")
@signed_in
def todos_all_done():
    user = me_required()
    db().execute("UPDATE todos SET state = 'done' WHERE user_id = ? AND state = 'pending'", (user["id"],))
    flash("Everything on your To-Do List is marked as done.")
    return redirect(url_for("dashboard.dashboard_todos"))


@bp.route("/projects/new", methods=["GET", "POST"])
@signed_in
def new_project():
    user = me_required()
    form = {"name": "", "path": "", "description": "", "visibility": "private", "readme": "1", "template": ""}
    errors: list[str] = []
    if request.method == "POST":
        form = {key: request.form.get(key, "").strip()
                for key in ("name", "path", "description", "visibility", "readme", "template")}
        if form["template"] and form["template"] not in PROJECT_TEMPLATES:
            errors.append(f"Unknown template {form['template']!r}; pick one of the listed templates.")
        path = slugify(form["path"] or form["name"])
        if not form["name"]:
            errors.append("Project name can't be blank.")
        if form["visibility"] not in ("private", "internal", "public"):
            errors.append("Choose a visibility level.")
        taken = db().execute(
            "SELECT 1 FROM projects WHERE namespace = ? AND (path = ? OR name = ?)", (user["username"], path, form["name"])
        ).fetchone()
        if taken:
            errors.append("Name has already been taken.")
        if not errors:
            moment = now_stamp()
            readme = f"# {form['name']}\n\n{form['description']}".strip() if form["readme"] else ""
            if form["template"]:
                readme = f"# {form['name']}\n\nCreated from the {form['template']} project template."
            project_id = db().execute(
                "INSERT INTO projects (namespace, path, name, description, visibility, readme, creator_id,"
                " created_at, last_activity_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (user["username"], path, form["name"], form["description"], form["visibility"], readme,
                 user["id"], moment, moment),
            ).lastrowid
            db().execute("INSERT INTO members VALUES (?, ?, 50, ?)", (project_id, user["id"], moment))
            if form["template"]:
                sha = hashlib.sha1(f"{project_id}-{form['template']}-{moment}".encode()).hexdigest()
                db().execute(
                    "INSERT INTO commits (project_id, sha, branch, author_name, author_email, message, committed_at)"
                    " VALUES (?, ?, 'main', ?, ?, ?, ?)",
                    (project_id, sha, user["name"], user["email"], f"Initialized from '{form['template']}' project template", moment),
                )
            db().execute(
                "INSERT INTO branches (project_id, name, author_name, last_commit, updated_at) VALUES (?, 'main', ?, ?, ?)",
                (project_id, user["name"], "Initial commit", moment),
            )
            if readme:
                db().execute(
                    "INSERT INTO files (project_id, branch, path, content, last_commit, updated_at) VALUES (?, 'main', 'README.md', ?, ?, ?)",
                    (project_id, readme, "Initial commit", moment),
                )
            for name, color, description in LABELS[:3]:  # bug, enhancement, documentation, as GitLab suggests
                db().execute(
                    "INSERT INTO labels (project_id, name, color, description) VALUES (?, ?, ?, ?)",
                    (project_id, name, color, description),
                )
            flash(f"Project '{form['name']}' was successfully created.")
            return redirect(url_for("project.project_page", namespace=user["username"], project=path))
    return render_template("new_project.html", form=form, errors=errors, user=user, templates=PROJECT_TEMPLATES)
