"""The code host's Flask app: GitLab-shaped routes over the world's SQLite data."""

from __future__ import annotations

import datetime as dt

from flask import Flask, render_template
from markupsafe import Markup, escape
from werkzeug.exceptions import HTTPException

from ..webapp import create_site_app, db
from . import (
    views_dashboard,
    views_files,
    views_issues,
    views_merge_requests,
    views_notes,
    views_project,
    views_users,
)
from .data import ROLES
from .queries import CLONE_HOST, me


def _parse(value: str | None) -> dt.datetime | None:
    return dt.datetime.strptime(value, "%Y-%m-%d %H:%M:%S") if value else None


def format_date(value: str | None) -> str:
    """``Mar 4, 2023``: how GitLab writes dates in lists."""
    moment = _parse(value)
    return f"{moment:%b} {moment.day}, {moment.year}" if moment else ""


def format_datetime(value: str | None) -> str:
    moment = _parse(value)
    return f"{moment:%b} {moment.day}, {moment.year} {moment:%H:%M}" if moment else ""


def create_app() -> Flask:
    app = create_site_app("gitlab", __name__)
    app.jinja_env.filters["date"] = format_date
    app.jinja_env.filters["datetime"] = format_datetime
    app.jinja_env.filters["day"] = lambda value: format_date(f"{value} 00:00:00") if value else ""
    # Apostrophes left as they are in text (GitLab's commit titles keep them), so the page source reads like the text.
    app.jinja_env.filters["text_quotes"] = lambda value: Markup(str(escape(value)).replace("&#39;", "'"))
    app.jinja_env.filters["iso"] = lambda value: value.replace(" ", "T") if value else ""
    app.jinja_env.filters["role"] = lambda level: ROLES.get(level, "")

    @app.context_processor
    def _globals() -> dict:
        user = me()
        pending = 0
        if user is not None:
            pending = db().execute(
                "SELECT COUNT(*) FROM todos WHERE user_id = ? AND state = 'pending'", (user["id"],)
            ).fetchone()[0]
        return {"me": user, "todo_count": pending, "clone_host": CLONE_HOST, "roles": ROLES}

    @app.errorhandler(403)
    def _forbidden(error: HTTPException):
        return render_template("error.html", code=403, title="Access denied", message=error.description), 403

    @app.errorhandler(404)
    def _not_found(error: HTTPException):
        message = "The page could not be found or you don't have permission to view it."
        return render_template("error.html", code=404, title="Page not found", message=message), 404

    for views in (views_users, views_dashboard, views_project, views_issues, views_merge_requests, views_notes, views_files):
        app.register_blueprint(views.bp)
    return app
