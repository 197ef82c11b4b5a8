"""Map notes: anyone can report a problem with a place, comment on it, resolve or reactivate it.

OpenStreetMap lets anonymous visitors open notes; the embedded map has no accounts at
all, so every new note and comment is signed "anonymous".
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, redirect, render_template, request, url_for

from ..webapp import db, world
from .search import get_place
from .views_places import paginate

bp = Blueprint("notes", __name__)

MAX_TEXT = 1000
STATUSES = {"all": None, "open": "open", "closed": "closed"}
#: What each comment-form button does: (required status, new status, action logged).
TRANSITIONS = {"comment": (None, None, "commented"), "close": ("open", "closed", "closed"),
               "reopen": ("closed", "open", "reopened")}


@bp.get("/notes")
def notes() -> str:
    status = request.args.get("status", "all")
    sort = request.args.get("sort", "newest")
    where, params = ("WHERE n.status = ?", [STATUSES[status]]) if STATUSES.get(status) else ("", [])
    order = "n.created_at ASC, n.id ASC" if sort == "oldest" else "n.created_at DESC, n.id DESC"
    rows = db().execute(
        f"SELECT n.*, p.name AS place_name FROM notes n JOIN places p ON p.id = n.place_id {where} ORDER BY {order}",
        params,
    ).fetchall()
    return render_template("notes.html", pager=paginate(rows, request.args.get("page")),
                           status=status if status in STATUSES else "all", sort=sort)


@bp.get("/note/<int:note_id>")
def note(note_id: int) -> str:
    return _render_note(note_id)


@bp.post("/note/<int:note_id>/comment")
def comment(note_id: int) -> Any:
    conn = db()
    row = conn.execute("SELECT * FROM notes WHERE id = ?", (note_id,)).fetchone()
    if row is None:
        abort(404)
    action = request.form.get("action", "comment")
    text = request.form.get("text", "").strip()
    if action not in TRANSITIONS:
        return _render_note(note_id, error="Unknown action.", text=text), 400
    needed, new_status, logged = TRANSITIONS[action]
    if needed is not None and row["status"] != needed:
        return _render_note(note_id, error="This note has already been changed.", text=text), 409
    if action == "comment" and not text:
        return _render_note(note_id, error="Write a comment first.", text=text), 400
    if len(text) > MAX_TEXT:
        return _render_note(note_id, error=f"Comments are limited to {MAX_TEXT} characters.", text=text), 400
    stamp = world().now().strftime("%Y-%m-%d %H:%M:%S")
    conn.execute(
        "INSERT INTO note_comments (note_id, author, action, text, created_at) VALUES (?, 'anonymous', ?, ?, ?)",
        (note_id, logged, text, stamp),
    )
    if new_status is not None:
        conn.execute("UPDATE notes SET status = ?, closed_at = ? WHERE id = ?",
                     (new_status, stamp if new_status == "closed" else None, note_id))
    return redirect(url_for("notes.note", note_id=note_id))


@bp.route("/note/new", methods=["GET", "POST"])
def new_note() -> Any:
    conn = db()
    source = request.form if request.method == "POST" else request.args
    try:
        place = get_place(conn, int(source.get("node", "")))
    except ValueError:
        place = None
    if place is None:
        abort(404)
    if request.method == "GET":
        return render_template("note_new.html", place=place, text="", error="")
    text = request.form.get("text", "").strip()
    error = "Describe the problem first." if not text else ""
    if len(text) > MAX_TEXT:
        error = f"Notes are limited to {MAX_TEXT} characters."
    if error:
        return render_template("note_new.html", place=place, text=text, error=error), 400
    stamp = world().now().strftime("%Y-%m-%d %H:%M:%S")
    cur = conn.execute(
        "INSERT INTO notes (place_id, text, status, created_at) VALUES (?, ?, 'open', ?)", (place["id"], text, stamp)
    )
    conn.execute(
        "INSERT INTO note_comments (note_id, author, action, text, created_at) VALUES (?, 'anonymous', 'opened', ?, ?)",
        (cur.lastrowid, text, stamp),
    )
    return redirect(url_for("notes.note", note_id=cur.lastrowid))


def _render_note(note_id: int, *, error: str = "", text: str = "") -> str:
    conn = db()
    row = conn.execute("SELECT * FROM notes WHERE id = ?", (note_id,)).fetchone()
    if row is None:
        abort(404)
    comments = conn.execute(
        "SELECT * FROM note_comments WHERE note_id = ? ORDER BY created_at, id", (note_id,)
    ).fetchall()
    opened = next((c for c in comments if c["action"] == "opened"), None)
    return render_template("note.html", note=row, place=get_place(conn, row["place_id"]), opened=opened,
                           comments=[c for c in comments if c["action"] != "opened"], error=error, text=text)
