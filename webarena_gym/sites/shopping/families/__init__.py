"""Task families of the embedded store (WebArena's shopping site, OneStopShop).

Every instance is computed from the seeded data and kept only when its answer is
unambiguous (a unique cheapest product, a whole-number rating, ...). Oracles start on
the home page (or wherever the task starts) and move the way a shopper would: the
search box, the category menu, My Account -> My Orders, reading answers off the page.
"""

from __future__ import annotations

from ...families import TaskFamily
from . import content, information, navigation

FAMILIES: list[TaskFamily] = information.FAMILIES + navigation.FAMILIES + content.FAMILIES
