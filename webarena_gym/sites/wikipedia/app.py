"""The reference site's Flask app: wiring of the views and template helpers."""

from __future__ import annotations

from flask import Flask

from ..webapp import create_site_app
from . import views
from .data import BOOK, MAIN_PAGE
from .markup import article_path, render


def create_app() -> Flask:
    app = create_site_app("wikipedia", __name__)
    app.jinja_env.filters.update(wiki=render)
    app.jinja_env.globals.update(article_path=article_path, book=BOOK, main_page=MAIN_PAGE)
    app.register_error_handler(404, views.not_found)
    app.register_blueprint(views.bp)
    return app
