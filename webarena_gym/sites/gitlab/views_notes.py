"""Actions on one note of an issue or merge request: emoji reactions and editing one's own comment."""

from __future__ import annotations

from flask import Blueprint, abort, redirect, request, url_for

from ..webapp import db
from .notes import AWARD_NAMES
from .queries import me_required, project_or_404, signed_in

bp = Blueprint("notes", __name__)


def _note_or_404(project_id: int, note_id: int):
    row = db().execute("SELECT * FROM notes WHERE id = ? AND project_id = ? AND system = 0", (note_id, project_id)).fetchone()
    if row is None:
        abort(404)
    return row


def _back_to(namespace: str, project: str, note) -> str:
    """The page of the issue or merge request the note is on, at the note."""
    if note["noteable_type"] == "issue":
        iid = db().execute("SELECT iid FROM issues WHERE id = ?", (note["noteable_id"],)).fetchone()[0]
        page = url_for("issues.issue_page", namespace=namespace, project=project, iid=iid)
    else:
        iid = db().execute("SELECT iid FROM merge_requests WHERE id = ?", (note["noteable_id"],)).fetchone()[0]
        page = url_for("merge_requests.merge_request_page", namespace=namespace, project=project, iid=iid)
    return f"{page}#note_{note['id']}"


@bp.post("/<namespace>/<project>/-/notes/<int:note_id>/award")
@signed_in
def award(namespace: str, project: str, note_id: int):
    """Toggle the viewer's reaction ``name`` on a comment."""
    row, user = project_or_404(namespace, project), me_required()
    note = _note_or_404(row["id"], note_id)
    name = request.form.get("name", "")
    if name not in AWARD_NAMES:
        abort(400, description=f"Unknown reaction {name!r}; expected one of {', '.join(AWARD_NAMES)}.")
    given = db().execute(
        "SELECT id FROM award_emoji WHERE note_id = ? AND user_id = ? AND name = ?", (note_id, user["id"], name)
    ).fetchone()
    if given:
        db().execute("DELETE FROM award_emoji WHERE id = ?", (given["id"],))
    else:
        db().execute("INSERT INTO award_emoji (note_id, user_id, name) VALUES (?, ?, ?)", (note_id, user["id"], name))
    return redirect(_back_to(namespace, project, note))


@bp.post("/<namespace>/<project>/-/notes/<int:note_id>/edit")
@signed_in
def edit(namespace: str, project: str, note_id: int):
    """Save a new text for one's own comment (a blank text keeps the old one)."""
    row, user = project_or_404(namespace, project), me_required()
    note = _note_or_404(row["id"], note_id)
    if note["author_id"] != user["id"]:
        abort(403, description="You can only edit your own comments.")
    body = request.form.get("note", "").strip()
    if body:
        db().execute("UPDATE notes SET body = ? WHERE id = ?", (body, note_id))
    return redirect(_back_to(namespace, project, note))
