"""Request helpers shared by the forum's views: pages, the signed-in user, forums, votes."""

from __future__ import annotations

import sqlite3

from flask import abort, redirect, request
from werkzeug.wrappers import Response

from ..webapp import current_user, db
from .queries import hot_ranking, user_id

LOGIN_PATH = "/login"

#: Vote kinds: (votes table, id column, voted table).
VOTE_TABLES = {
    "submission": ("submission_votes", "submission_id", "submissions"),
    "comment": ("comment_votes", "comment_id", "comments"),
}


def page_number() -> int:
    """The ``?page=`` of a listing; a malformed or out-of-range value is a 404, like the real site."""
    raw = request.args.get("page", "1")
    if not raw.isdigit() or int(raw) < 1:
        abort(404)
    return int(raw)


def current_uid() -> int | None:
    return user_id(db(), current_user())


def safe_next(default: str = "/") -> str:
    """Where to go after a form: the ``next`` field if it is a path on this site."""
    target = request.values.get("next", "")
    if target.startswith("/") and not target.startswith("//"):
        return target
    return default


def login_redirect(next_path: str) -> Response:
    from urllib.parse import quote

    return redirect(f"{LOGIN_PATH}?next={quote(next_path)}")


def forum_or_404(name: str) -> sqlite3.Row:
    """A forum by name, case-insensitively (the views redirect to its canonical spelling)."""
    row = db().execute(
        "SELECT f.*, u.username AS creator FROM forums f JOIN users u ON u.id = f.creator_id WHERE f.name = ?",
        (name,),
    ).fetchone()
    if row is None:
        abort(404)
    return row


def is_subscribed(forum_id: int, uid: int | None) -> bool:
    if uid is None:
        return False
    row = db().execute("SELECT 1 FROM subscriptions WHERE user_id = ? AND forum_id = ?", (uid, forum_id))
    return row.fetchone() is not None


def forum_moderators(forum_id: int) -> list[str]:
    """Usernames of a forum's moderators, the creator first."""
    return [r[0] for r in db().execute(
        "SELECT u.username FROM moderators m JOIN users u ON u.id = m.user_id JOIN forums f ON f.id = m.forum_id"
        " WHERE m.forum_id = ? ORDER BY u.id != f.creator_id, u.username COLLATE NOCASE",
        (forum_id,),
    )]


def subscribed_forums(uid: int | None) -> list[sqlite3.Row]:
    if uid is None:
        return []
    return db().execute(
        "SELECT f.name, f.title FROM forums f JOIN subscriptions s ON s.forum_id = f.id"
        " WHERE s.user_id = ? ORDER BY f.name COLLATE NOCASE",
        (uid,),
    ).fetchall()


def apply_vote(kind: str, item_id: int, uid: int, choice: int) -> None:
    """Cast ``choice`` (+1/-1); casting the same choice again retracts it, as on Postmill."""
    votes, column, target = VOTE_TABLES[kind]
    conn = db()
    if conn.execute(f"SELECT 1 FROM {target} WHERE id = ?", (item_id,)).fetchone() is None:
        abort(404)
    previous = conn.execute(
        f"SELECT choice FROM {votes} WHERE user_id = ? AND {column} = ?", (uid, item_id)
    ).fetchone()
    if previous is not None:
        counter = "upvotes" if previous["choice"] == 1 else "downvotes"
        conn.execute(f"UPDATE {target} SET {counter} = {counter} - 1 WHERE id = ?", (item_id,))
        conn.execute(f"DELETE FROM {votes} WHERE user_id = ? AND {column} = ?", (uid, item_id))
    if previous is None or previous["choice"] != choice:
        counter = "upvotes" if choice == 1 else "downvotes"
        conn.execute(f"UPDATE {target} SET {counter} = {counter} + 1 WHERE id = ?", (item_id,))
        conn.execute(f"INSERT INTO {votes} (user_id, {column}, choice) VALUES (?, ?, ?)", (uid, item_id, choice))
    if kind == "submission":
        row = conn.execute("SELECT created_at, upvotes - downvotes FROM submissions WHERE id = ?", (item_id,)).fetchone()
        conn.execute("UPDATE submissions SET ranking = ? WHERE id = ?", (hot_ranking(row[0], row[1]), item_id))
