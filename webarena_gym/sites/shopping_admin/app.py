"""The store admin app: its Blueprints (dashboard, sales, catalog, customers, marketing,
reports, content), template helpers and error page."""

from __future__ import annotations

from flask import Flask, render_template

from ..webapp import create_site_app
from . import (
    helpers,
    views_catalog,
    views_content,
    views_customers,
    views_dashboard,
    views_marketing,
    views_order_actions,
    views_reports,
    views_sales,
)
from .data import STATUSES
from .names import CARRIERS

BLUEPRINTS = (views_dashboard, views_order_actions, views_sales, views_catalog, views_customers, views_marketing,
              views_reports, views_content)


def not_found(_error: Exception) -> tuple[str, int]:
    return render_template("not_found.html"), 404


def create_app() -> Flask:
    app = create_site_app("shopping_admin", __name__)
    app.url_map.strict_slashes = False
    app.jinja_env.filters.update(money=helpers.money, when=helpers.when, day=helpers.day, us_date=helpers.us_date)
    app.jinja_env.globals.update(STATUSES=STATUSES, CARRIERS=CARRIERS)
    app.register_error_handler(404, not_found)
    for views in BLUEPRINTS:
        app.register_blueprint(views.bp)
    return app
