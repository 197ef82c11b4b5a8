"""Sign-in, user profiles, following, profile settings and access tokens."""

from __future__ import annotations

import random
import re

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for

from ..webapp import db, login_user, logout_user
from .data import random_token
from .queries import me, me_required, now_stamp, signed_in, user_by_username, visible_clause

bp = Blueprint("users", __name__)

TOKEN_SCOPES = ("api", "read_user", "read_api", "read_repository", "write_repository")


def _safe_next(target: str | None) -> str:
    """Only same-site paths are followed after signing in."""
    if target and target.startswith("/") and not target.startswith("//"):
        return target
    return url_for("dashboard.dashboard_projects")


def _user_projects(user_id: int, username: str, starred: bool):
    clause, args = visible_clause()
    if starred:
        where, first = "p.id IN (SELECT project_id FROM stars WHERE user_id = ?)", (user_id,)
    else:
        where, first = "p.namespace = ?", (username,)
    return db().execute(
        "SELECT p.*, (SELECT COUNT(*) FROM stars s WHERE s.project_id = p.id) AS star_count FROM projects p"
        f" WHERE {where} AND {clause} ORDER BY p.last_activity_at DESC",
        (*first, *args),
    ).fetchall()


@bp.get("/")
def root():
    return redirect(url_for("dashboard.dashboard_projects" if me() else "users.sign_in"))


@bp.route("/users/sign_in", methods=["GET", "POST"])
def sign_in():
    error = None
    if request.method == "POST":
        login = request.form.get("username", "").strip()
        row = db().execute(
            "SELECT username, password FROM users WHERE username = ? OR email = ?", (login, login)
        ).fetchone()
        if row is not None and row["password"] == request.form.get("password", ""):
            login_user(row["username"])
            return redirect(_safe_next(request.form.get("next") or request.args.get("next")))
        error = "Invalid login or password."
    return render_template("sign_in.html", error=error, next=request.args.get("next", ""))


@bp.post("/users/sign_out")
def sign_out():
    logout_user()
    return redirect(url_for("users.sign_in"))


@bp.get("/<name>")
def namespace_page(name: str):
    """A user's profile, or a group's page: both live at the top level, as on GitLab."""
    user = db().execute("SELECT * FROM users WHERE username = ?", (name,)).fetchone()
    if user is None:
        return group_page(name)
    viewer = me()
    follows = viewer is not None and db().execute(
        "SELECT 1 FROM follows WHERE follower_id = ? AND followee_id = ?", (viewer["id"], user["id"])
    ).fetchone() is not None
    counts = db().execute(
        "SELECT (SELECT COUNT(*) FROM follows WHERE followee_id = :id) AS followers,"
        " (SELECT COUNT(*) FROM follows WHERE follower_id = :id) AS following",
        {"id": user["id"]},
    ).fetchone()
    tab = "starred" if request.args.get("tab") == "starred" else "projects"
    projects = _user_projects(user["id"], user["username"], starred=tab == "starred")
    return render_template("profile.html", user=user, follows=follows, counts=counts, projects=projects, tab=tab)


def group_page(path: str):
    group = db().execute("SELECT * FROM groups WHERE path = ?", (path,)).fetchone()
    if group is None:
        abort(404)
    clause, args = visible_clause()
    projects = db().execute(
        "SELECT p.*, (SELECT COUNT(*) FROM stars s WHERE s.project_id = p.id) AS star_count FROM projects p"
        f" WHERE p.namespace = ? AND {clause} ORDER BY p.name COLLATE NOCASE",
        (path, *args),
    ).fetchall()
    return render_template("group.html", group=group, projects=projects)


@bp.get("/users/<username>")
def user_alias(username: str):
    return redirect(url_for("users.namespace_page", name=username))


@bp.get("/users/<username>/starred")
def user_starred(username: str):
    return redirect(url_for("users.namespace_page", name=username, tab="starred"))


@bp.get("/users/<username>/following")
def user_following(username: str):
    return _people(username, "following")


@bp.get("/users/<username>/followers")
def user_followers(username: str):
    return _people(username, "followers")


def _people(username: str, which: str):
    user = user_by_username(username)
    if which == "following":
        sql = "SELECT u.* FROM follows f JOIN users u ON u.id = f.followee_id WHERE f.follower_id = ?"
    else:
        sql = "SELECT u.* FROM follows f JOIN users u ON u.id = f.follower_id WHERE f.followee_id = ?"
    people = db().execute(sql + " ORDER BY u.username COLLATE NOCASE", (user["id"],)).fetchall()
    return render_template("people.html", user=user, people=people, which=which)


@bp.post("/users/<username>/follow")
@signed_in
def follow(username: str):
    viewer, user = me_required(), user_by_username(username)
    if viewer["id"] != user["id"]:
        db().execute(
            "INSERT OR IGNORE INTO follows VALUES (?, ?, ?)", (viewer["id"], user["id"], now_stamp())
        )
    return redirect(url_for("users.namespace_page", name=username))


@bp.post("/users/<username>/unfollow")
@signed_in
def unfollow(username: str):
    viewer, user = me_required(), user_by_username(username)
    db().execute("DELETE FROM follows WHERE follower_id = ? AND followee_id = ?", (viewer["id"], user["id"]))
    return redirect(url_for("users.namespace_page", name=username))


#: The profile form's text fields (column names; the form uses the same names).
PROFILE_TEXT_FIELDS = (
    "status_message", "timezone", "name", "pronouns", "pronunciation", "public_email", "website", "location",
    "job_title", "organization", "bio", "discord", "linkedin", "skype", "twitter",
)
#: Its checkboxes.
PROFILE_FLAGS = ("busy", "private_profile")
TIMEZONES = ("UTC", "America/New_York", "America/Los_Angeles", "Europe/London", "Europe/Berlin", "Asia/Tokyo", "Asia/Kolkata")


@bp.route("/-/profile", methods=["GET", "POST"])
@signed_in
def profile_settings():
    user = me_required()
    errors: list[str] = []
    if request.method == "POST":
        form: dict = {key: request.form.get(key, "").strip() for key in PROFILE_TEXT_FIELDS}
        form.update({key: int(bool(request.form.get(key))) for key in PROFILE_FLAGS})
        if not form["name"]:
            errors.append("Full name can't be blank.")
        if form["website"] and not re.match(r"^(https?://)?[\w.-]+\.[a-z]{2,}(/\S*)?$", form["website"], re.I):
            errors.append("Website url is not a valid URL.")
        if len(form["status_message"]) > 100:
            errors.append("Status message is too long (maximum is 100 characters).")
        if form["timezone"] not in TIMEZONES:
            form["timezone"] = "UTC"
        if form["public_email"] not in ("", user["email"]):
            errors.append("Public email must be one of your verified emails.")
        if form["discord"] and not form["discord"].isdigit():
            errors.append("Discord must be your Discord user ID (digits only).")
        if not errors:
            columns = (*PROFILE_TEXT_FIELDS, *PROFILE_FLAGS)
            db().execute(
                f"UPDATE users SET {', '.join(f'{c} = ?' for c in columns)} WHERE id = ?",
                (*(form[c] for c in columns), user["id"]),
            )
            flash("Profile was successfully updated")
            return redirect(url_for("users.profile_settings"))
        user = {**dict(user), **form}
    return render_template("profile_settings.html", user=user, errors=errors, timezones=TIMEZONES)


@bp.route("/-/profile/personal_access_tokens", methods=["GET", "POST"])
@signed_in
def access_tokens():
    user = me_required()
    created_token, errors = None, []
    if request.method == "POST":
        name = request.form.get("name", "").strip()
        scopes = [scope for scope in TOKEN_SCOPES if request.form.get(f"scope_{scope}")]
        expires = request.form.get("expires_at", "").strip()
        if not name:
            errors.append("Name can't be blank.")
        if not scopes:
            errors.append("Scopes can't be blank.")
        if expires and not re.fullmatch(r"\d{4}-\d{2}-\d{2}", expires):
            errors.append("Expiration date must look like YYYY-MM-DD.")
        if not errors:
            moment = now_stamp()
            # Seeded from the data, not the clock, so replays of an episode match.
            token = "glpat-" + random_token(random.Random(f"{user['id']}-{name}-{moment}"))
            db().execute(
                "INSERT INTO access_tokens (user_id, name, token, scopes, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)",
                (user["id"], name, token, ",".join(scopes), moment, expires or None),
            )
            created_token = token
    tokens = db().execute(
        "SELECT * FROM access_tokens WHERE user_id = ? AND revoked = 0 ORDER BY id DESC", (user["id"],)
    ).fetchall()
    return render_template(
        "access_tokens.html", user=user, tokens=tokens, created_token=created_token, errors=errors, scopes=TOKEN_SCOPES
    )


@bp.post("/-/profile/personal_access_tokens/<int:token_id>/revoke")
@signed_in
def revoke_token(token_id: int):
    user = me_required()
    db().execute("UPDATE access_tokens SET revoked = 1 WHERE id = ? AND user_id = ?", (token_id, user["id"]))
    flash("Revoked personal access token")
    return redirect(url_for("users.access_tokens"))


@bp.post("/-/profile/reset_feed_token")
@signed_in
def reset_feed_token():
    user = me_required()
    token = random_token(random.Random(f"feed-{user['id']}-{now_stamp()}"))
    db().execute("UPDATE users SET feed_token = ? WHERE id = ?", (token, user["id"]))
    flash("Feed token was successfully reset")
    return redirect(url_for("users.access_tokens"))
