"""Forums: the list of forums, subscriptions, and creating or editing a forum."""

from __future__ import annotations

import re

from flask import Blueprint, abort, redirect, render_template, request, url_for

from ..webapp import current_user, db, login_required, world
from .common import LOGIN_PATH, current_uid, forum_or_404, is_subscribed, page_number, safe_next
from .queries import PAGE_SIZE

bp = Blueprint("forum", __name__)

FORUM_SORTS = {
    "by_name": ("By name", "f.name COLLATE NOCASE"),
    "by_subscribers": ("By subscribers", "f.subscriber_count DESC, f.name COLLATE NOCASE"),
    "by_submissions": ("By submissions", "submission_count DESC, f.name COLLATE NOCASE"),
}
FORUM_NAME = re.compile(r"^[A-Za-z0-9_]{3,25}$")


def _forum_form_errors(form: dict, *, new: bool) -> list[str]:
    errors = []
    if new:
        if not FORUM_NAME.match(form["name"]):
            errors.append("The name must be 3 to 25 letters, digits or underscores.")
        elif db().execute("SELECT 1 FROM forums WHERE name = ?", (form["name"],)).fetchone():
            errors.append(f"A forum named {form['name']} already exists.")
    if not form["title"]:
        errors.append("The title cannot be empty.")
    if not form["description"]:
        errors.append("The description cannot be empty.")
    return errors


@bp.get("/forums")
@bp.get("/forums/<any(by_name,by_subscribers,by_submissions):order>")
def forums(order: str = "by_name"):
    page = page_number()
    rows = db().execute(
        "SELECT f.name, f.title, f.description, f.subscriber_count,"
        " (SELECT COUNT(*) FROM submissions s WHERE s.forum_id = f.id) AS submission_count"
        f" FROM forums f ORDER BY {FORUM_SORTS[order][1]} LIMIT ? OFFSET ?",
        (PAGE_SIZE + 1, (page - 1) * PAGE_SIZE),
    ).fetchall()
    return render_template(
        "forums.html", forums=rows[:PAGE_SIZE], has_next=len(rows) > PAGE_SIZE, page=page,
        order=order, orders=FORUM_SORTS,
    )


@bp.get("/forums/subscribed")
@login_required(LOGIN_PATH)
def subscribed():
    rows = db().execute(
        "SELECT f.name, f.title, f.description, f.subscriber_count FROM forums f"
        " JOIN subscriptions s ON s.forum_id = f.id WHERE s.user_id = ? ORDER BY f.name COLLATE NOCASE",
        (current_uid(),),
    ).fetchall()
    return render_template("subscribed.html", forums=rows)


@bp.post("/f/<forum_name>/subscribe", endpoint="subscribe")
@bp.post("/f/<forum_name>/unsubscribe", endpoint="unsubscribe")
def subscribe(forum_name: str):
    forum = forum_or_404(forum_name)
    back = safe_next(url_for("listing.forum", forum_name=forum["name"]))
    uid = current_uid()
    if uid is None:
        return redirect(url_for("account.login", next=back))
    wanted = request.path.endswith("/subscribe")
    if wanted != is_subscribed(forum["id"], uid):
        if wanted:
            db().execute("INSERT INTO subscriptions (user_id, forum_id) VALUES (?, ?)", (uid, forum["id"]))
        else:
            db().execute("DELETE FROM subscriptions WHERE user_id = ? AND forum_id = ?", (uid, forum["id"]))
        db().execute(
            "UPDATE forums SET subscriber_count = subscriber_count + ? WHERE id = ?",
            (1 if wanted else -1, forum["id"]),
        )
    return redirect(back)


@bp.route("/create_forum", methods=["GET", "POST"])
@login_required(LOGIN_PATH)
def create_forum():
    form = {key: request.form.get(key, "").strip() for key in ("name", "title", "description", "sidebar")}
    errors: list[str] = []
    if request.method == "POST":
        errors = _forum_form_errors(form, new=True)
        if not errors:
            db().execute(
                "INSERT INTO forums (name, title, description, sidebar, created_at, creator_id, subscriber_count)"
                " VALUES (?, ?, ?, ?, ?, ?, 1)",
                (form["name"], form["title"], form["description"], form["sidebar"],
                 world().now().strftime("%Y-%m-%d %H:%M:%S"), current_uid()),
            )
            forum_id = db().execute("SELECT id FROM forums WHERE name = ?", (form["name"],)).fetchone()[0]
            # Postmill subscribes the creator, who is also the forum's moderator.
            db().execute("INSERT INTO subscriptions (user_id, forum_id) VALUES (?, ?)", (current_uid(), forum_id))
            db().execute("INSERT INTO moderators (forum_id, user_id) VALUES (?, ?)", (forum_id, current_uid()))
            return redirect(url_for("listing.forum", forum_name=form["name"]))
    return render_template("forum_form.html", form=form, errors=errors, forum=None)


@bp.route("/f/<forum_name>/edit", methods=["GET", "POST"])
@login_required(LOGIN_PATH)
def edit_forum(forum_name: str):
    forum = forum_or_404(forum_name)
    if forum["creator"] != current_user():
        abort(403)
    form = {key: forum[key] for key in ("name", "title", "description", "sidebar")}
    errors: list[str] = []
    if request.method == "POST":
        form.update({key: request.form.get(key, "").strip() for key in ("title", "description", "sidebar")})
        errors = _forum_form_errors(form, new=False)
        if not errors:
            db().execute(
                "UPDATE forums SET title = ?, description = ?, sidebar = ? WHERE id = ?",
                (form["title"], form["description"], form["sidebar"], forum["id"]),
            )
            return redirect(url_for("listing.forum", forum_name=forum["name"]))
    return render_template("forum_form.html", form=form, errors=errors, forum=forum)


@bp.get("/wiki")
def wiki():
    return render_template("inbox.html", heading="Wiki", empty="The wiki has no pages yet.")
