"""The One Stop Market storefront (WebArena's shopping site, a Magento store) as a Flask app."""

from __future__ import annotations

from typing import Any

from flask import Flask

from ..webapp import create_site_app
from . import store, views_account, views_cart, views_catalog, views_compare, views_orders


def create_app() -> Flask:
    """Build the storefront: catalog, cart and checkout, wish list, customer account."""
    app = create_site_app("shopping", __name__)
    app.jinja_env.filters.update(money=store.money, short_date=store.short_date, long_date=store.long_date)
    app.jinja_env.globals.update(rating_percent=store.rating_percent, compare_preview=store.compare_preview,
                                 wishlist_preview=store.wishlist_preview, related_products=store.related_products,
                                 recently_ordered=store.recently_ordered)

    @app.context_processor
    def _store_header() -> dict[str, Any]:
        customer = store.customer()
        return {
            "customer": customer,
            "cart_count": store.cart_count(customer["id"]) if customer else 0,
            "compare_count": store.compare_count(customer["id"]) if customer else 0,
            "menu_categories": [(top, store.child_categories(top["id"])) for top in store.top_categories()],
        }

    for views in (views_catalog, views_cart, views_compare, views_orders, views_account):
        app.register_blueprint(views.bp)
    return app
