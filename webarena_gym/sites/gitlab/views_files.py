"""A project's repository files: the tree, a file's page and its raw text, new files and edits (each a commit)."""

from __future__ import annotations

import hashlib
import posixpath

from flask import Blueprint, Response, abort, redirect, request, url_for

from ..webapp import db
from .notes import render_markdown
from .queries import now_stamp, project_or_404, require_level, signed_in, touch_project
from .views_project import render_project

bp = Blueprint("files", __name__)


def branch_names(project_id: int) -> list[str]:
    return [r["name"] for r in db().execute(
        "SELECT name FROM branches WHERE project_id = ? ORDER BY name = 'main' DESC, name", (project_id,))]


def files_on(project, branch: str) -> dict[str, dict]:
    """path -> file row on ``branch`` (a branch sees the default branch's files it has not changed)."""
    rows = db().execute(
        "SELECT * FROM files WHERE project_id = ? AND branch IN (?, ?) ORDER BY branch = ? , path",
        (project["id"], project["default_branch"], branch, branch),
    ).fetchall()
    return {row["path"]: dict(row) for row in rows}


def _branch_or_404(project, branch: str) -> str:
    if branch not in branch_names(project["id"]):
        abort(404)
    return branch


def clean_path(text: str) -> str | None:
    """A repository path (``docs/notes.md``) from what a person typed; None if it leaves the repository."""
    path = posixpath.normpath(text.strip().strip("/"))
    if not text.strip() or path.startswith("..") or path in (".", ""):
        return None
    return path


@bp.get("/<namespace>/<project>/-/tree/<branch>")
@bp.get("/<namespace>/<project>/-/tree/<branch>/<path:folder>")
def tree(namespace: str, project: str, branch: str, folder: str = ""):
    row = project_or_404(namespace, project)
    wanted = request.args.get("ref")
    if wanted and wanted != branch:  # the branch switcher
        return redirect(url_for("files.tree", namespace=namespace, project=project, branch=_branch_or_404(row, wanted)))
    branch = _branch_or_404(row, branch)
    prefix = f"{folder.strip('/')}/" if folder.strip("/") else ""
    folders, files = set(), []
    for path, file in files_on(row, branch).items():
        if not path.startswith(prefix):
            continue
        rest = path[len(prefix):]
        if "/" in rest:
            folders.add(rest.split("/", 1)[0])
        else:
            files.append(file)
    if prefix and not folders and not files:
        abort(404)
    return render_project(
        "tree.html", row, "repository", branch=branch, folder=prefix.rstrip("/"), folders=sorted(folders),
        files=sorted(files, key=lambda f: f["path"]), branches=branch_names(row["id"]),
    )


def _file_or_404(project, branch: str, path: str) -> dict:
    file = files_on(project, _branch_or_404(project, branch)).get(path)
    if file is None:
        abort(404)
    return file


@bp.get("/<namespace>/<project>/-/blob/<branch>/<path:path>")
def blob(namespace: str, project: str, branch: str, path: str):
    row = project_or_404(namespace, project)
    file = _file_or_404(row, branch, path)
    rendered = render_markdown(file["content"]) if path.lower().endswith(".md") else None
    return render_project("blob.html", row, "repository", branch=branch, file=file, rendered=rendered)


@bp.get("/<namespace>/<project>/-/raw/<branch>/<path:path>")
def raw(namespace: str, project: str, branch: str, path: str):
    row = project_or_404(namespace, project)
    return Response(_file_or_404(row, branch, path)["content"], mimetype="text/plain")


def _commit(project, user, branch: str, path: str, content: str, message: str) -> None:
    """Write the file on ``branch`` and record the commit."""
    moment = now_stamp()
    db().execute(
        "INSERT INTO files (project_id, branch, path, content, last_commit, updated_at) VALUES (?, ?, ?, ?, ?, ?)"
        " ON CONFLICT (project_id, branch, path) DO UPDATE SET content = excluded.content,"
        " last_commit = excluded.last_commit, updated_at = excluded.updated_at",
        (project["id"], branch, path, content, message, moment),
    )
    sha = hashlib.sha1(f"{project['id']}-{branch}-{path}-{moment}-{message}".encode()).hexdigest()
    db().execute(
        "INSERT INTO commits (project_id, sha, branch, author_name, author_email, message, committed_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (project["id"], sha, branch, user["name"], user["email"], message, moment),
    )
    db().execute("UPDATE branches SET last_commit = ?, updated_at = ? WHERE project_id = ? AND name = ?",
                 (message, moment, project["id"], branch))
    touch_project(project["id"], moment)


@bp.route("/<namespace>/<project>/-/new/<branch>", methods=["GET", "POST"])
@bp.route("/<namespace>/<project>/-/new/<branch>/<path:folder>", methods=["GET", "POST"])
@signed_in
def new_file(namespace: str, project: str, branch: str, folder: str = ""):
    """Create a file (a name with slashes creates its folders too), committed to a branch."""
    row = project_or_404(namespace, project)
    user = require_level(row, 30)
    branch = _branch_or_404(row, branch)
    prefix = f"{folder.strip('/')}/" if folder.strip("/") else ""
    form = {"file_name": request.form.get("file_name", prefix), "content": request.form.get("content", ""),
            "commit_message": request.form.get("commit_message", "").strip(), "branch": request.form.get("branch", branch)}
    errors: list[str] = []
    if request.method == "POST":
        path = clean_path(form["file_name"])
        if path is None or path.endswith("/"):
            errors.append("File name can't be blank; type a name such as docs/notes.md.")
        elif path in files_on(row, form["branch"] if form["branch"] in branch_names(row["id"]) else branch):
            errors.append(f"A file with the name {path!r} already exists.")
        if form["branch"] not in branch_names(row["id"]):
            errors.append(f"Branch {form['branch']!r} does not exist.")
        if not errors:
            _commit(row, user, form["branch"], path, form["content"], form["commit_message"] or f"Add new file {path}")
            return redirect(url_for("files.blob", namespace=namespace, project=project, branch=form["branch"], path=path))
    return render_project("edit_file.html", row, "repository", form=form, errors=errors, branch=branch,
                          branches=branch_names(row["id"]), editing=None)


@bp.route("/<namespace>/<project>/-/edit/<branch>/<path:path>", methods=["GET", "POST"])
@signed_in
def edit_file(namespace: str, project: str, branch: str, path: str):
    row = project_or_404(namespace, project)
    user = require_level(row, 30)
    file = _file_or_404(row, branch, path)
    form = {"file_name": path, "content": request.form.get("content", file["content"]),
            "commit_message": request.form.get("commit_message", "").strip(), "branch": branch}
    if request.method == "POST":
        _commit(row, user, branch, path, form["content"], form["commit_message"] or f"Update {path}")
        return redirect(url_for("files.blob", namespace=namespace, project=project, branch=branch, path=path))
    return render_project("edit_file.html", row, "repository", form=form, errors=[], branch=branch,
                          branches=branch_names(row["id"]), editing=file)
