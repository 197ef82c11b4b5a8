"""Navigation ordering: the page's own content first, site navigation after it.

Real sites put hundreds of links before their content: Magento's admin menu comes
before every page's ``<h1>``, the storefront's category tree before the products,
GitLab's top bar and project sidebar before the form. The simplifier moves the
navigation regions that sit outside the main content (``<nav>``, ``role="navigation"``
or ``"menubar"``, ``<aside>``, and a ``<header>`` without the page's ``<h1>``) after
it, each kept whole under its own tag, so the agent reads the page first and can still
scroll to (and click) every link. Inside a moved region, a nested menu is collapsed
under the item that opens it, unless that item is open or current; a browser shows it
the same way until the item is clicked or hovered.
"""

from __future__ import annotations

import lxml.html

from .visibility import class_names

#: Containers of the main content: nothing inside them moves.
CONTENT_TAGS = frozenset({"main", "article"})
#: Classes (and ``aria-expanded="true"``) that mark a menu item as open or current.
OPEN_ITEM_CLASSES = frozenset({"_show", "show", "open", "is-open", "expanded", "is-expanded", "active", "_active", "current"})
MENU_TAGS = frozenset({"ul", "ol"})


def navigation_regions(body: lxml.html.HtmlElement) -> list[lxml.html.HtmlElement]:
    """The navigation regions outside the main content, in document order."""
    regions: list[lxml.html.HtmlElement] = []
    stack = [iter(body)]
    while stack:
        child = next(stack[-1], None)
        if child is None:
            stack.pop()
            continue
        if not isinstance(child.tag, str) or child.tag in CONTENT_TAGS or _role(child) == "main":
            continue
        if region_tag(child):
            regions.append(child)
        else:
            stack.append(iter(child))
    return regions


def region_tag(el: lxml.html.HtmlElement) -> str:
    """The tag a navigation region is shown under ("" when ``el`` is not one)."""
    tag, role = el.tag, _role(el)
    if tag == "nav" or role in ("navigation", "menubar"):
        return "nav"
    if tag == "aside" or role == "complementary":
        return "aside"
    if (tag == "header" or role == "banner") and el.find(".//h1") is None:
        return "header"
    return ""


def collapsed_submenus(item: lxml.html.HtmlElement) -> list[lxml.html.HtmlElement]:
    """The children of a closed menu item that hold its submenu ([] when nothing collapses).

    An item collapses when it has a control of its own before the submenu (the link or
    toggle that opens it) and nothing marks it open or current.
    """
    if item.get("aria-expanded") == "true" or class_names(item) & OPEN_ITEM_CLASSES:
        return []
    # a <details> collapses by itself (closed, only its summary shows), as in a browser
    held = [child for child in item if isinstance(child.tag, str) and child.tag != "details" and _holds_menu(child)]
    if not held:
        return []
    first_menu = held[0]
    for child in item:
        if child is first_menu:
            return []
        if isinstance(child.tag, str) and _is_control(child):
            if child.get("aria-expanded") == "true":
                return []
            return held
    return []


def _holds_menu(el: lxml.html.HtmlElement) -> bool:
    if el.tag in MENU_TAGS or _role(el) == "menu":
        return True
    return any(isinstance(d.tag, str) and (d.tag in MENU_TAGS or _role(d) == "menu") for d in el.iterdescendants())


def _is_control(el: lxml.html.HtmlElement) -> bool:
    for node in el.iter():
        if isinstance(node.tag, str) and (node.tag in ("a", "button") or _role(node) in ("button", "menuitem", "link")):
            return True
    return False


def _role(el: lxml.html.HtmlElement) -> str:
    return (el.get("role") or "").strip().lower()
