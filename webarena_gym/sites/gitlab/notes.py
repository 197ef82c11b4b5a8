"""Comments on issues and merge requests (GitLab's notes), including the system notes that
record a state change or an assignment, their emoji reactions, and the comment box's
Markdown preview (rendered on the server, so it works without JavaScript)."""

from __future__ import annotations

import html
import re
import sqlite3
from typing import Any

from flask import flash, request, url_for
from markupsafe import Markup

from ..webapp import db
from .queries import me, now_stamp, touch_project

#: Note kind -> the table of what it is attached to.
NOTEABLE_TABLES = {"issue": "issues", "merge_request": "merge_requests"}

#: Reactions people can award, by GitLab's emoji names.
AWARD_NAMES = ("thumbsup", "thumbsdown", "tada", "heart", "eyes", "rocket")


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


def awards_of(notes: list[sqlite3.Row]) -> dict[int, list[tuple[str, int, bool]]]:
    """note id -> [(emoji name, count, whether the viewer gave it)], in GitLab's emoji order."""
    viewer = me()
    result: dict[int, list[tuple[str, int, bool]]] = {}
    ids = [n["id"] for n in notes]
    if not ids:
        return result
    rows = db().execute(
        f"SELECT note_id, name, COUNT(*) AS n, SUM(user_id = ?) AS mine FROM award_emoji"
        f" WHERE note_id IN ({','.join('?' * len(ids))}) GROUP BY note_id, name",
        (viewer["id"] if viewer else -1, *ids),
    ).fetchall()
    for row in sorted(rows, key=lambda r: (r["note_id"], AWARD_NAMES.index(r["name"]) if r["name"] in AWARD_NAMES else 99)):
        result.setdefault(row["note_id"], []).append((row["name"], row["n"], bool(row["mine"])))
    return result


def render_markdown(text: str) -> Markup:
    """A small Markdown subset (paragraphs, ``#`` headings, ``-`` lists, ``>`` quotes, **bold**, *italic*, `code`), escaped first."""

    def inline(line: str) -> str:
        line = html.escape(line)
        line = re.sub(r"`([^`]+)`", r"<code>\1</code>", line)
        line = re.sub(r"\*\*([^*]+)\*\*", r"<strong>\1</strong>", line)
        return re.sub(r"\*([^*]+)\*", r"<em>\1</em>", line)

    blocks = []
    for block in re.split(r"\n\s*\n", text.strip()):
        lines = block.splitlines()
        if lines and all(line.lstrip().startswith(("- ", "* ")) for line in lines):
            blocks.append("<ul>" + "".join(f"<li>{inline(line.lstrip()[2:])}</li>" for line in lines) + "</ul>")
        elif len(lines) == 1 and re.match(r"#{1,6} ", lines[0]):
            level = len(lines[0].split(" ", 1)[0])
            blocks.append(f"<h{level + 1}>{inline(lines[0][level + 1:])}</h{level + 1}>")
        elif lines and all(line.startswith(">") for line in lines):
            blocks.append("<blockquote>" + "<br>".join(inline(line[1:].strip()) for line in lines) + "</blockquote>")
        elif lines:
            blocks.append("<p>" + "<br>".join(inline(line) for line in lines) + "</p>")
    return Markup("".join(blocks) or '<p class="muted">Nothing to preview.</p>')


def discussion(kind: str, target_id: int, note_url: str, namespace: str, project: str) -> dict[str, Any]:
    """What ``_notes.html`` needs: the notes, their reactions, and the comment box's state

    (``?notes_filter=all|comments|history`` and ``?sort=asc|desc`` pick and order the activity,
    ``?reply_to=<note id>`` quotes a note, ``?edit_note=<note id>`` opens one's own note for editing;
    a posted ``tab=preview`` shows the draft rendered).
    """
    notes = notes_of(kind, target_id)
    notes_filter = request.args.get("notes_filter", "all")
    if notes_filter not in ("all", "comments", "history"):
        notes_filter = "all"
    notes_sort = "desc" if request.args.get("sort") == "desc" else "asc"
    shown = [n for n in notes if notes_filter == "all" or bool(n["system"]) == (notes_filter == "history")]
    if notes_sort == "desc":
        shown.reverse()
    draft = request.form.get("note", "") if request.method == "POST" else ""
    reply_to = request.args.get("reply_to", type=int)
    if reply_to and not draft:
        quoted = next((n for n in notes if n["id"] == reply_to), None)
        if quoted is not None:
            draft = "\n".join(f"> {line}" for line in quoted["body"].splitlines()) + "\n\n"
    preview = request.method == "POST" and request.form.get("tab") == "preview"
    return {
        "notes": shown, "awards": awards_of(notes), "note_url": note_url, "draft": draft,
        "notes_filter": notes_filter, "notes_sort": notes_sort,
        "preview_html": render_markdown(draft) if preview else None,
        "edit_note": request.args.get("edit_note", type=int),
        "award_url": lambda note: url_for("notes.award", namespace=namespace, project=project, note_id=note["id"]),
        "note_edit_url": lambda note: url_for("notes.edit", namespace=namespace, project=project, note_id=note["id"]),
    }


def wants_preview() -> bool:
    """Whether the comment box's Write or Preview tab was pressed (re-render, do not post)."""
    return request.form.get("tab") in ("write", "preview")


def post_comment(kind: str, project_id: int, target_id: int, author_id: int) -> None:
    """Attach the posted comment (form field ``note``) to an issue or merge request and mark it
    updated; a blank comment is refused with a flashed message."""
    body = request.form.get("note", "").strip()
    if not body:
        flash("Comment can't be blank.")
        return
    moment = add_note(project_id, kind, target_id, author_id, body)
    db().execute(f"UPDATE {NOTEABLE_TABLES[kind]} SET updated_at = ? WHERE id = ?", (moment, target_id))
