"""The forum's Flask app: a Postmill-shaped community (forums, posts, comments, votes)."""

from __future__ import annotations

from flask import Flask, request, url_for

from ..webapp import create_site_app
from . import views_account, views_forum, views_listing, views_post
from .queries import comment_path, format_count, post_path


def page_url(page: int) -> str:
    """This listing's URL at another page, keeping its sort and query."""
    args = {k: v for k, v in request.args.items() if k != "page"}
    if page > 1:
        args["page"] = page
    return url_for(request.endpoint, **(request.view_args or {}), **args)


def create_app() -> Flask:
    app = create_site_app("reddit", __name__)
    app.jinja_env.globals.update(post_path=post_path, comment_path=comment_path, page_url=page_url)
    app.jinja_env.filters["count"] = format_count
    app.jinja_env.filters["points"] = lambda n: f"{n} point" if abs(n) == 1 else f"{n} points"
    app.jinja_env.filters["short_date"] = lambda stamp: stamp[:16] if stamp else ""
    for views in (views_listing, views_forum, views_post, views_account):
        app.register_blueprint(views.bp)
    return app
