"""The embedded online store, shaped like WebArena's OneStopShop (a Magento storefront).

Categories with layered navigation, search, product pages with reviews, cart and
checkout, wish list, newsletter and a customer account with order history.
"""

from __future__ import annotations

from ..spec import SiteSpec
from .app import create_app
from .data import DEFAULT_EMAIL, DEFAULT_PASSWORD, build_database
from .store import LOGIN_PATH

SITE = SiteSpec(
    name="shopping",
    title="One Stop Market",
    create_app=create_app,
    build_database=build_database,
    login_path=LOGIN_PATH,
    default_user=(DEFAULT_EMAIL, DEFAULT_PASSWORD),
)
