"""Posts and comments: reading threads, submitting, commenting, editing, deleting and voting."""

from __future__ import annotations

import sqlite3
from collections import defaultdict

from flask import Blueprint, abort, redirect, render_template, request, url_for

from ..webapp import current_user, db, login_required, world
from .common import (
    LOGIN_PATH,
    apply_vote,
    current_uid,
    forum_moderators,
    forum_or_404,
    is_subscribed,
    login_redirect,
    page_number,
    safe_next,
)
from .queries import TIME_FORMAT, comment_path, get_submission, hot_ranking, post_path, user_votes

bp = Blueprint("post", __name__)


def _now() -> str:
    return world().now().strftime(TIME_FORMAT)


def _submission_in(forum_name: str, submission_id: int) -> sqlite3.Row:
    post = get_submission(db(), submission_id)
    if post is None or post["forum"].lower() != forum_name.lower():
        abort(404)
    return post


def _forum_sidebar(post: sqlite3.Row, uid: int | None) -> dict:
    """What the sidebar shows of the post's forum: subscription, description, subscribers, moderators."""
    forum = forum_or_404(post["forum"])
    return {"subscribed": is_subscribed(forum["id"], uid), "forum_info": forum,
            "moderators": forum_moderators(forum["id"])}


def _comment_tree(submission_id: int) -> tuple[dict, dict[int, sqlite3.Row]]:
    """Comments of a post as {parent id or None: [children]}, best-scored first."""
    rows = db().execute(
        "SELECT c.*, c.upvotes - c.downvotes AS score, u.username AS author FROM comments c"
        " JOIN users u ON u.id = c.user_id WHERE c.submission_id = ? ORDER BY score DESC, c.id",
        (submission_id,),
    ).fetchall()
    children: dict = defaultdict(list)
    for row in rows:
        children[row["parent_id"]].append(row)
    return children, {row["id"]: row for row in rows}


#: Comments per page of a thread (whole reply trees: a page may hold more when one tree is bigger).
COMMENTS_PER_PAGE = 25


def _thread_pages(roots: list[sqlite3.Row], children: dict) -> list[list[sqlite3.Row]]:
    """The top-level comments split into pages of about :data:`COMMENTS_PER_PAGE` comments, replies included."""
    def size(row: sqlite3.Row) -> int:
        return 1 + sum(size(child) for child in children[row["id"]])

    pages: list[list[sqlite3.Row]] = [[]]
    used = 0
    for root in roots:
        n = size(root)
        if pages[-1] and used + n > COMMENTS_PER_PAGE:
            pages.append([])
            used = 0
        pages[-1].append(root)
        used += n
    return pages


def _post_form() -> dict:
    return {key: request.form.get(key, "").strip() for key in ("url", "title", "body", "forum")}


def _post_errors(form: dict) -> list[str]:
    errors = []
    if not form["title"]:
        errors.append("The title cannot be empty.")
    if form["url"] and not form["url"].startswith(("http://", "https://")):
        errors.append("The URL must start with http:// or https://.")
    return errors


@bp.get("/f/<forum_name>/<int:submission_id>")
@bp.get("/f/<forum_name>/<int:submission_id>/")  # the form WebArena's reddit_get_post_url gives
@bp.get("/f/<forum_name>/<int:submission_id>/<slug>")
def submission(forum_name: str, submission_id: int, slug: str | None = None):
    post = _submission_in(forum_name, submission_id)
    canonical = post_path(post["forum"], post["id"], post["title"])
    if request.path != canonical:
        query = request.query_string.decode()
        return redirect(f"{canonical}?{query}" if query else canonical)
    children, by_id = _comment_tree(post["id"])
    pages, page = _thread_pages(children[None], children), page_number()
    if page > len(pages):
        abort(404)
    uid = current_uid()
    return render_template(
        "submission.html", post=post, children=children, roots=pages[page - 1], page=page,
        has_next=page < len(pages),
        vote=user_votes(db(), "submission_votes", "submission_id", uid, [post["id"]]).get(post["id"], 0),
        comment_votes=user_votes(db(), "comment_votes", "comment_id", uid, list(by_id)),
        **_forum_sidebar(post, uid),
    )


@bp.get("/f/<forum_name>/<int:submission_id>/-/comment/<int:comment_id>")
def comment(forum_name: str, submission_id: int, comment_id: int):
    post = _submission_in(forum_name, submission_id)
    children, by_id = _comment_tree(post["id"])
    if comment_id not in by_id:
        abort(404)
    return render_template(
        "comment.html", post=post, children=children, roots=[by_id[comment_id]],
        parent=by_id[comment_id], parent_comment=by_id.get(by_id[comment_id]["parent_id"]),
        comment_votes=user_votes(db(), "comment_votes", "comment_id", current_uid(), list(by_id)),
        **_forum_sidebar(post, current_uid()),
    )


@bp.post("/f/<forum_name>/<int:submission_id>/-/comment")
@bp.post("/f/<forum_name>/<int:submission_id>/-/comment/<int:comment_id>")
def add_comment(forum_name: str, submission_id: int, comment_id: int | None = None):
    post = _submission_in(forum_name, submission_id)
    here = comment_path(post["forum"], post["id"], comment_id) if comment_id else post_path(
        post["forum"], post["id"], post["title"])
    uid = current_uid()
    if uid is None:
        return login_redirect(here)
    if comment_id is not None:
        parent = db().execute("SELECT submission_id FROM comments WHERE id = ?", (comment_id,)).fetchone()
        if parent is None or parent["submission_id"] != post["id"]:
            abort(404)
    body = request.form.get("body", "").strip()
    if body:
        db().execute(
            "INSERT INTO comments (submission_id, parent_id, user_id, body, created_at, upvotes, downvotes)"
            " VALUES (?, ?, ?, ?, ?, 1, 0)",
            (post["id"], comment_id, uid, body, _now()),
        )
        new_id = db().execute("SELECT last_insert_rowid()").fetchone()[0]
        # Authors upvote their own comments, as Postmill does.
        db().execute("INSERT INTO comment_votes (user_id, comment_id, choice) VALUES (?, ?, 1)", (uid, new_id))
    return redirect(here)


@bp.route("/f/<forum_name>/<int:submission_id>/-/comment/<int:comment_id>/edit", methods=["GET", "POST"])
@login_required(LOGIN_PATH)
def edit_comment(forum_name: str, submission_id: int, comment_id: int):
    post = _submission_in(forum_name, submission_id)
    row = db().execute(
        "SELECT c.*, u.username AS author FROM comments c JOIN users u ON u.id = c.user_id"
        " WHERE c.id = ? AND c.submission_id = ?",
        (comment_id, post["id"]),
    ).fetchone()
    if row is None:
        abort(404)
    if row["author"] != current_user():
        abort(403)
    error = None
    if request.method == "POST":
        body = request.form.get("body", "").strip()
        if body:
            db().execute("UPDATE comments SET body = ?, edited_at = ? WHERE id = ?", (body, _now(), comment_id))
            return redirect(comment_path(post["forum"], post["id"], comment_id))
        error = "The comment cannot be empty."
    return render_template("edit_comment.html", post=post, comment=row, error=error)


@bp.route("/submit", methods=["GET", "POST"])
@bp.route("/submit/<forum_name>", methods=["GET", "POST"])
@login_required(LOGIN_PATH)
def submit(forum_name: str | None = None):
    forums = db().execute("SELECT name FROM forums ORDER BY name COLLATE NOCASE").fetchall()
    form = {"url": "", "title": "", "body": "", "forum": forum_or_404(forum_name)["name"] if forum_name else ""}
    errors: list[str] = []
    if request.method == "POST":
        form = _post_form()
        forum = db().execute("SELECT id, name FROM forums WHERE name = ?", (form["forum"],)).fetchone()
        errors = _post_errors(form) + ([] if forum else ["Choose a forum to post in."])
        if not errors:
            created = _now()
            db().execute(
                "INSERT INTO submissions (forum_id, user_id, title, url, body, created_at, upvotes, downvotes,"
                " ranking) VALUES (?, ?, ?, ?, ?, ?, 1, 0, ?)",
                (forum["id"], current_uid(), form["title"], form["url"], form["body"], created,
                 hot_ranking(created, 1)),
            )
            new_id = db().execute("SELECT last_insert_rowid()").fetchone()[0]
            db().execute(
                "INSERT INTO submission_votes (user_id, submission_id, choice) VALUES (?, ?, 1)",
                (current_uid(), new_id),
            )
            return redirect(post_path(forum["name"], new_id, form["title"]))
    query = request.args.get("forum_query", "").strip()
    matches = []
    if query:
        pattern = "%" + query.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        matches = db().execute(
            "SELECT name, title FROM forums WHERE name LIKE ? ESCAPE '\\' OR title LIKE ? ESCAPE '\\'"
            " ORDER BY name COLLATE NOCASE", (pattern, pattern),
        ).fetchall()
    return render_template("submit.html", form=form, forums=forums, errors=errors, post=None,
                           forum_query=query, forum_matches=matches)


@bp.route("/f/<forum_name>/<int:submission_id>/-/edit", methods=["GET", "POST"])
@login_required(LOGIN_PATH)
def edit_submission(forum_name: str, submission_id: int):
    post = _submission_in(forum_name, submission_id)
    if post["author"] != current_user():
        abort(403)
    form = {key: post[key] for key in ("url", "title", "body", "forum")}
    errors: list[str] = []
    if request.method == "POST":
        form = _post_form() | {"forum": post["forum"]}
        errors = _post_errors(form)
        if not errors:
            db().execute(
                "UPDATE submissions SET title = ?, url = ?, body = ?, edited_at = ? WHERE id = ?",
                (form["title"], form["url"], form["body"], _now(), post["id"]),
            )
            return redirect(post_path(post["forum"], post["id"], form["title"]))
    return render_template("submit.html", form=form, forums=[], errors=errors, post=post)


@bp.post("/f/<forum_name>/<int:submission_id>/-/delete")
@login_required(LOGIN_PATH)
def delete_submission(forum_name: str, submission_id: int):
    post = _submission_in(forum_name, submission_id)
    if post["author"] != current_user():
        abort(403)
    conn = db()
    conn.execute(
        "DELETE FROM comment_votes WHERE comment_id IN (SELECT id FROM comments WHERE submission_id = ?)",
        (post["id"],),
    )
    conn.execute("DELETE FROM comments WHERE submission_id = ?", (post["id"],))
    conn.execute("DELETE FROM submission_votes WHERE submission_id = ?", (post["id"],))
    conn.execute("DELETE FROM submissions WHERE id = ?", (post["id"],))
    return redirect(url_for("listing.forum", forum_name=post["forum"]))


@bp.post("/sv/<int:submission_id>")
@bp.post("/cv/<int:comment_id>")
def vote(submission_id: int | None = None, comment_id: int | None = None):
    back = safe_next()
    uid = current_uid()
    if uid is None:
        return login_redirect(back)
    choice = request.form.get("choice", "")
    if choice not in ("1", "-1"):
        abort(400)
    if submission_id is not None:
        apply_vote("submission", submission_id, uid, int(choice))
    else:
        apply_vote("comment", comment_id, uid, int(choice))
    return redirect(back)
