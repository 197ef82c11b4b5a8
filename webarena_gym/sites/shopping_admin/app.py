"""The store admin app: its Blueprints (dashboard, sales, catalog, customers, marketing,
reports, content), template helpers and error page."""

from __future__ import annotations

from flask import Flask, current_app, render_template, url_for

from ..webapp import create_site_app
from . import (
    helpers,
    views_catalog,
    views_content,
    views_customers,
    views_dashboard,
    views_marketing,
    views_menu,
    views_order_actions,
    views_reports,
    views_sales,
)
from .data import STATUSES
from .menu import MENU
from .names import CARRIERS

BLUEPRINTS = (views_dashboard, views_order_actions, views_sales, views_catalog, views_customers, views_marketing,
              views_reports, views_content, views_menu)


def not_found(_error: Exception) -> tuple[str, int]:
    return render_template("not_found.html"), 404


def admin_menu() -> list[tuple[str, list[tuple[str, list[tuple[str, str]]]], set[str]]]:
    """The menu as (section, [(group, [(label, href)])], its hrefs), built once per app (url_for is slow)."""
    cached = current_app.extensions.get("admin_menu")
    if cached is None:
        cached = []
        for section, groups in MENU:
            built = [(group, [(link.label, url_for(link.target) if link.is_page else link.target) for link in links])
                     for group, links in groups]
            cached.append((section, built, {href for _group, links in built for _label, href in links}))
        current_app.extensions["admin_menu"] = cached
    return cached


def create_app() -> Flask:
    app = create_site_app("shopping_admin", __name__)
    app.url_map.strict_slashes = False
    app.jinja_env.filters.update(money=helpers.money, when=helpers.when, day=helpers.day, us_date=helpers.us_date)
    app.jinja_env.globals.update(STATUSES=STATUSES, CARRIERS=CARRIERS, admin_menu=admin_menu)
    app.register_error_handler(404, not_found)
    for views in BLUEPRINTS:
        app.register_blueprint(views.bp)
    return app
