"""Task families of the embedded store admin (WebArena's shopping_admin, a Magento back office).

Instances are computed from the seeded data and kept only when their answer is
unambiguous (no tie at a bestseller rank, a unique most recent order, ...). Oracles
start on the dashboard and use the admin menu, grids and forms the way a person would.
Split along WebArena's three task kinds: :mod:`.information` (string_match),
:mod:`.navigation` (url_match) and :mod:`.content` (program_html).
"""

from __future__ import annotations

from collections.abc import Callable

from . import content, information, navigation

FAMILIES = information.FAMILIES + navigation.FAMILIES + content.FAMILIES

__all__ = ["FAMILIES", "FUNCTIONS"]

#: The ``func:`` helpers this site's task data names, by name (the embedded suite registers them with the
#: evaluators when it loads).
FUNCTIONS: dict[str, Callable[..., str]] = {"shopping_admin_latest_order_url": content.latest_order_url}
