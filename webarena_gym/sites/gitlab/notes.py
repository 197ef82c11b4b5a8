"""Comments on issues and merge requests (GitLab's notes), including the system notes that
record a state change or an assignment."""

from __future__ import annotations

from flask import flash, request

from ..webapp import db
from .queries import now_stamp, touch_project

#: Note kind -> the table of what it is attached to.
NOTEABLE_TABLES = {"issue": "issues", "merge_request": "merge_requests"}


def add_note(project_id: int, kind: str, target_id: int, author_id: int, body: str, *, system: bool = False) -> str:
    """Attach a note to the issue or merge request ``target_id``; returns its timestamp."""
    moment = now_stamp()
    db().execute(
        "INSERT INTO notes (project_id, noteable_type, noteable_id, author_id, body, system, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (project_id, kind, target_id, author_id, body, int(system), moment),
    )
    touch_project(project_id, moment)
    return moment


def notes_of(kind: str, target_id: int):
    """The notes of an issue or merge request, oldest first, with their authors' names."""
    return db().execute(
        "SELECT n.*, u.name AS author_name, u.username AS author_username FROM notes n JOIN users u ON u.id = n.author_id"
        " WHERE n.noteable_type = ? AND n.noteable_id = ? ORDER BY n.created_at, n.id",
        (kind, target_id),
    ).fetchall()


def post_comment(kind: str, project_id: int, target_id: int, author_id: int) -> None:
    """Attach the posted comment (form field ``note``) to an issue or merge request and mark it
    updated; a blank comment is refused with a flashed message."""
    body = request.form.get("note", "").strip()
    if not body:
        flash("Comment can't be blank.")
        return
    moment = add_note(project_id, kind, target_id, author_id, body)
    db().execute(f"UPDATE {NOTEABLE_TABLES[kind]} SET updated_at = ? WHERE id = ?", (moment, target_id))
