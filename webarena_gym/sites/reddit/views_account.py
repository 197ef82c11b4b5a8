"""Accounts: log in and out, registration, user profiles and biographies."""

from __future__ import annotations

import re

from flask import Blueprint, abort, redirect, render_template, request, url_for

from ..webapp import current_user, db, login_required, login_user, logout_user, world
from .common import LOGIN_PATH, current_uid, page_number, safe_next
from .data import hash_password
from .queries import PAGE_SIZE, SORTS, TIME_FORMAT, list_submissions, user_votes

bp = Blueprint("account", __name__)

USERNAME = re.compile(r"^[A-Za-z0-9_-]{3,25}$")


def _user_or_404(name: str):
    row = db().execute("SELECT * FROM users WHERE username = ?", (name,)).fetchone()
    if row is None:
        abort(404)
    return row


def _profile_context(user) -> dict:
    counts = db().execute(
        "SELECT (SELECT COUNT(*) FROM submissions WHERE user_id = :id) AS submissions,"
        " (SELECT COUNT(*) FROM comments WHERE user_id = :id) AS comments",
        {"id": user["id"]},
    ).fetchone()
    return {"user": user, "counts": counts, "is_self": user["username"] == current_user()}


@bp.route("/login", methods=["GET", "POST"])
def login():
    error = None
    username = request.form.get("_username", "").strip()
    if request.method == "POST":
        row = db().execute("SELECT password_hash FROM users WHERE username = ?", (username,)).fetchone()
        if row is not None and row["password_hash"] == hash_password(request.form.get("_password", "")):
            login_user(username)
            return redirect(safe_next())
        error = "Invalid username or password."
    return render_template("login.html", error=error, username=username, next=safe_next(""))


@bp.post("/logout")
def logout():
    logout_user()
    return redirect("/")


@bp.route("/registration", methods=["GET", "POST"])
def registration():
    errors: list[str] = []
    username = request.form.get("username", "").strip()
    if request.method == "POST":
        password = request.form.get("password", "")
        if not USERNAME.match(username):
            errors.append("The username must be 3 to 25 letters, digits, dashes or underscores.")
        elif db().execute("SELECT 1 FROM users WHERE username = ?", (username,)).fetchone():
            errors.append("That username is taken.")
        if len(password) < 8:
            errors.append("The password must have at least 8 characters.")
        elif password != request.form.get("password_repeat", ""):
            errors.append("The passwords do not match.")
        if not errors:
            db().execute(
                "INSERT INTO users (username, password_hash, created_at) VALUES (?, ?, ?)",
                (username, hash_password(password), world().now().strftime(TIME_FORMAT)),
            )
            login_user(username)
            return redirect("/")
    return render_template("registration.html", errors=errors, username=username)


@bp.get("/user/<username>")
@bp.get("/user/<username>/submissions")
def user_submissions(username: str):
    user = _user_or_404(username)
    page = page_number()
    rows, has_next = list_submissions(db(), where="s.user_id = ?", params=(user["id"],), sort="new", page=page)
    votes = user_votes(db(), "submission_votes", "submission_id", current_uid(), [r["id"] for r in rows])
    return render_template(
        "user.html", tab="submissions", submissions=rows, votes=votes, page=page, has_next=has_next,
        sorts=SORTS, **_profile_context(user),
    )


@bp.get("/user/<username>/comments")
def user_comments(username: str):
    user = _user_or_404(username)
    page = page_number()
    rows = db().execute(
        "SELECT c.id, c.body, c.created_at, c.edited_at, c.upvotes - c.downvotes AS score,"
        " s.id AS submission_id, s.title AS submission_title, f.name AS forum"
        " FROM comments c JOIN submissions s ON s.id = c.submission_id JOIN forums f ON f.id = s.forum_id"
        " WHERE c.user_id = ? ORDER BY c.created_at DESC, c.id DESC LIMIT ? OFFSET ?",
        (user["id"], PAGE_SIZE + 1, (page - 1) * PAGE_SIZE),
    ).fetchall()
    return render_template(
        "user.html", tab="comments", comments=rows[:PAGE_SIZE], page=page, has_next=len(rows) > PAGE_SIZE,
        **_profile_context(user),
    )


@bp.route("/user/<username>/edit_biography", methods=["GET", "POST"])
@login_required(LOGIN_PATH)
def edit_biography(username: str):
    user = _user_or_404(username)
    if username != current_user():
        abort(403)
    if request.method == "POST":
        biography = request.form.get("biography", "").strip()
        db().execute("UPDATE users SET biography = ? WHERE id = ?", (biography, user["id"]))
        return redirect(url_for("account.user_submissions", username=username))
    return render_template("edit_biography.html", user=user)


def _own_settings_user(username: str):
    """The logged-in user's row when ``username`` is them (404 for no such user, 403 for someone else)."""
    user = _user_or_404(username)
    if username != current_user():
        abort(403)
    return user


@bp.get("/user/<username>/block_list")
@login_required(LOGIN_PATH)
def block_list(username: str):
    return render_template(
        "user_setting_list.html", user=_own_settings_user(username), heading="Blocked users",
        explanation="Blocked users cannot send you messages.", empty="You have not blocked anyone.",
    )


@bp.get("/user/<username>/hidden_forums")
@login_required(LOGIN_PATH)
def hidden_forums(username: str):
    return render_template(
        "user_setting_list.html", user=_own_settings_user(username), heading="Hidden forums",
        explanation="Posts from hidden forums are left out of the front page.", empty="You have not hidden any forums.",
    )


@bp.get("/notifications")
@login_required(LOGIN_PATH)
def notifications():
    return render_template("inbox.html", heading="Notifications", empty="You have no notifications.")


@bp.get("/messages")
@login_required(LOGIN_PATH)
def messages():
    return render_template("inbox.html", heading="Messages", empty="You have no messages.")
