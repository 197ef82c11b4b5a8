"""The map's Flask app: wiring of the views and template helpers."""

from __future__ import annotations

from flask import Flask

from ..webapp import create_site_app
from . import views_directions, views_notes, views_places
from .geo import format_coordinates, format_distance
from .routing import ENGINES
from .search import address, display_name


def create_app() -> Flask:
    app = create_site_app("map", __name__)
    app.jinja_env.filters.update(distance=format_distance, address=address, display_name=display_name)
    app.jinja_env.globals.update(coordinates=format_coordinates, page_url=views_places.page_url, engines=ENGINES)
    app.register_error_handler(404, views_places.not_found)
    for views in (views_places, views_directions, views_notes):
        app.register_blueprint(views.bp)
    return app
