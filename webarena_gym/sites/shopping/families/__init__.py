"""Task families of the embedded store (WebArena's shopping site, OneStopShop).

Every instance is computed from the seeded data and kept only when its answer is
unambiguous (a unique cheapest product, a whole-number rating, ...). Oracles start on
the home page (or wherever the task starts) and move the way a shopper would: the
search box, the category menu, My Account -> My Orders, reading answers off the page.
"""

from __future__ import annotations

from collections.abc import Callable

from ....tasks.families import TaskFamily
from . import common, contact, content, information, navigation, orders

FAMILIES: list[TaskFamily] = (information.FAMILIES + orders.FAMILIES + navigation.FAMILIES + content.FAMILIES
                              + contact.FAMILIES)

#: The ``func:`` helpers this site's task data names, by name (the embedded suite registers them with the
#: evaluators when it loads).
FUNCTIONS: dict[str, Callable[..., str]] = {
    "shopping_latest_order_url": common.latest_order_url,
    "shopping_latest_review_field": common.latest_review_field,
}
