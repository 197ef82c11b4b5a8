"""The store admin: a Magento-shaped back office for a separate sports-apparel store.

Dashboard, orders (invoice, ship, cancel, comment, edit addresses), invoices, customers,
products, reviews, reports (orders, shipping, refunds, bestsellers, search terms), CMS
pages and themes, all under ``/admin`` on WebArena's port 7780.
"""

from __future__ import annotations

from ..spec import SiteSpec
from .app import create_app
from .data import build_database

SITE = SiteSpec(
    name="shopping_admin",
    title="Store Admin",
    create_app=create_app,
    build_database=build_database,
    login_path="/admin",
    default_user=("admin", "admin1234"),
)
