"""Whether an element is shown, from what the markup (and the browser's annotation) says.

On the Playwright backend the browser decides: :data:`~.annotate.ANNOTATE_DOM_JS` marks
what its computed style and layout hide, and nothing else hides an element it has seen but
``aria-hidden``. On raw HTML (the direct backend, HTML from outside) only the markup can
tell, and it is read as a desktop browser at :data:`DESKTOP_WIDTH` shows it once the page's
own scripts have run:

- the ``hidden`` attribute, inline ``display: none``/``visibility: hidden``, hidden inputs,
  closed ``<details>``/``<dialog>``, and classes that every site using them hides (see
  :data:`HIDDEN_CLASSES`);
- responsive utility classes resolved at that width (:data:`RESPONSIVE_DISPLAY_RULES`):
  Bootstrap's ``d-none d-md-inline-block`` and GitLab's ``gl-display-none gl-sm-display-block``
  are shown, ``d-block d-sm-none`` (a mobile-only copy) is not; so are the classes of
  mobile-only blocks (:data:`MOBILE_ONLY_CLASSES`, GitLab's mobile menu);
- what a page's script does on load where the pattern is recognisable
  (:func:`shown_by_script`): Magento's admin tabs widget reveals its tab items and shows the
  active tab's content only.

``aria-hidden`` hides content (decorative icons) but not a form control: a select under
``aria-hidden`` is one a visible widget drives, and its options are what the agent needs.
"""

from __future__ import annotations

import re

import lxml.html

from .annotate import HIDDEN_ATTRIBUTE, INDEX_ATTRIBUTE, SCREEN_READER_ATTRIBUTE

#: Form controls: they stay shown when hidden only from assistive technology.
FORM_CONTROLS = frozenset({"select", "input", "textarea"})
#: Utility classes that hide an element on the sites that define them (Bootstrap,
#: GitLab, Magento, Postmill share these names and meanings). Bootstrap's ``d-none`` and
#: GitLab's ``gl-display-none`` are responsive classes (below): a wider breakpoint may show.
HIDDEN_CLASSES = frozenset({"hidden", "hide", "no-display", "is-hidden", "invisible"})
#: Classes that show an element to screen readers only (its text names a control).
SCREEN_READER_CLASSES = frozenset(
    {"sr-only", "gl-sr-only", "visually-hidden", "screen-reader-text", "select2-hidden-accessible", "a11y-hidden"}
)
#: Menus closed until the page's script opens them (Bootstrap's ``.dropdown-menu``
#: without ``.show``).
CLOSED_MENU_CLASS, OPEN_CLASS = "dropdown-menu", "show"

#: The width (CSS pixels) raw HTML is read at: a desktop browser's, and the Playwright
#: backend's (Playwright's default viewport, 1280x720).
DESKTOP_WIDTH = 1280
#: Where each breakpoint of the responsive classes starts (``min-width``, pixels): Bootstrap 4
#: and 5 and GitLab UI share these; no infix is the smallest screen.
BREAKPOINTS = {"": 0, "sm": 576, "md": 768, "lg": 992, "xl": 1200, "xxl": 1400}
_DISPLAYS = "none|inline|inline-block|block|grid|inline-grid|table|table-row|table-cell|flex|inline-flex|contents"
#: Responsive display classes: a pattern (its ``breakpoint`` and ``display`` groups, and
#: ``important`` for a trailing ``!``) and whether the class is ``!important`` anyway. As in
#: CSS, of the classes whose breakpoint the width reaches, an ``!important`` one beats the
#: rest, then the widest breakpoint wins (its media query comes later in the stylesheet).
RESPONSIVE_DISPLAY_RULES = (
    # Bootstrap: d-none, d-md-inline-block, d-sm-none (all !important; d-print-* is not for screens)
    (re.compile(rf"d-(?:(?P<breakpoint>sm|md|lg|xl|xxl)-)?(?P<display>{_DISPLAYS})"), True),
    # GitLab UI: gl-display-none, gl-sm-display-block, gl-md-display-none! ("!" is !important)
    (re.compile(rf"gl-(?:(?P<breakpoint>sm|md|lg|xl)-)?display-(?P<display>{_DISPLAYS})(?P<important>!)?"), False),
)
#: Blocks that only small screens show, whose stylesheet hides them from ``sm`` up rather than
#: a utility class (GitLab's responsive top menu and its sidebar toggle).
MOBILE_ONLY_CLASSES = frozenset({"top-nav-responsive", "toggle-mobile-nav"})

#: Magento's admin tabs (``mage/backend/tabs``): every tab item is
#: ``<li class="admin__page-nav-item no-display">`` holding its link and its content
#: ``<div id="{tab}_content">``; a script after the item removes ``no-display``, one inside it
#: hides the content, and the widget (its options in a script after the tabs container) shows
#: the ``active`` tab's content, or the first tab's.
TAB_ITEM_CLASS, TAB_CONTENT_SUFFIX = "admin__page-nav-item", "_content"
_REVEALS_ITEM = re.compile(r"""removeClass\(\s*['"]no-display['"]\s*\)""")
_ACTIVE_TAB = re.compile(r"""\bactive\s*:\s*['"]([^'"]+)['"]""")

_STYLE_HIDDEN = re.compile(r"(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)", re.IGNORECASE)


def class_names(el: lxml.html.HtmlElement) -> set[str]:
    return set((el.get("class") or "").split())


def is_hidden(el: lxml.html.HtmlElement) -> bool:
    """Whether ``el`` (and so everything in it) is not shown."""
    if el.get(HIDDEN_ATTRIBUTE) is not None:
        return True
    tag = el.tag
    if el.get("aria-hidden") == "true" and tag not in FORM_CONTROLS:
        return True
    if el.get(INDEX_ATTRIBUTE) is not None:
        return False  # the browser has decided from computed style and layout (Magento opens menus by a parent's class)
    if el.get("hidden") is not None:
        return True
    if tag == "input" and (el.get("type") or "").lower() == "hidden":
        return True
    by_script = shown_by_script(el)
    if by_script is not None:
        return not by_script
    style = el.get("style")
    if style and _STYLE_HIDDEN.search(style):
        return True
    if tag == "dialog" and el.get("open") is None:
        return True
    parent = el.getparent()
    if parent is not None and parent.tag == "details" and parent.get("open") is None and tag != "summary":
        return True
    if el.get("class"):
        classes = class_names(el)
        if desktop_display(classes) == "none" or classes & MOBILE_ONLY_CLASSES:
            return True
        if classes & HIDDEN_CLASSES or (CLOSED_MENU_CLASS in classes and OPEN_CLASS not in classes):
            return True
    return False


def desktop_display(classes: set[str]) -> str | None:
    """The display that responsive utility classes give at :data:`DESKTOP_WIDTH` (None when
    none of ``classes`` is one)."""
    best: tuple[bool, int, bool] | None = None
    display = None
    for name in classes:
        if not name.startswith(("d-", "gl-")):
            continue
        for pattern, important in RESPONSIVE_DISPLAY_RULES:
            match = pattern.fullmatch(name)
            if match is None:
                continue
            start = BREAKPOINTS[match.group("breakpoint") or ""]
            if start > DESKTOP_WIDTH:
                continue
            value = match.group("display")
            # at one breakpoint a shown display beats none: Bootstrap writes "none" first
            rank = (important or bool(match.groupdict().get("important")), start, value != "none")
            if best is None or rank > best:
                best, display = rank, value
    return display


def shown_by_script(el: lxml.html.HtmlElement) -> bool | None:
    """What the page's own script does to ``el`` on load, where the pattern is known: True
    when it shows ``el``, False when it hides it, None when nothing is known (see
    :data:`TAB_ITEM_CLASS`)."""
    tag = el.tag
    if tag == "li":
        if "no-display" not in class_names(el) or TAB_ITEM_CLASS not in class_names(el):
            return None
        script = _next_element(el)
        text = (script.text or "") if script is not None and script.tag == "script" else ""
        if _REVEALS_ITEM.search(text) and (not el.get("id") or re.search(rf"#{re.escape(el.get('id'))}(?![\w-])", text)):
            return True
        return None
    if tag == "div" and (el.get("id") or "").endswith(TAB_CONTENT_SUFFIX):
        item = el.getparent()
        if item is None or item.tag != "li" or TAB_ITEM_CLASS not in class_names(item):
            return None
        return item is active_tab_item(item.getparent())
    return None


def is_open_tab(item: lxml.html.HtmlElement) -> bool:
    """Whether ``item`` is the Magento tab item (holding its content) that the tabs widget
    opens on load."""
    if item.tag != "li" or TAB_ITEM_CLASS not in class_names(item):
        return False
    holds_content = any(child.tag == "div" and (child.get("id") or "").endswith(TAB_CONTENT_SUFFIX) for child in item)
    return holds_content and item is active_tab_item(item.getparent())


def active_tab_item(tab_list: lxml.html.HtmlElement | None) -> lxml.html.HtmlElement | None:
    """The item of a Magento tab list (its ``<ul>``) that the tabs widget opens on load."""
    if tab_list is None:
        return None
    items = [item for item in tab_list if item.tag == "li" and TAB_ITEM_CLASS in class_names(item)]
    container = tab_list.getparent()
    script = _next_element(container) if container is not None else None
    if script is not None and script.tag == "script":
        active = _ACTIVE_TAB.search(script.text or "")
        if active:
            chosen = next((item for item in items if _tab_id(item) == active.group(1)), None)
            if chosen is not None:
                return chosen
    return items[0] if items else None


def _tab_id(item: lxml.html.HtmlElement) -> str | None:
    link = next((child for child in item if child.tag == "a"), None)
    return (link.get("id") if link is not None else None) or item.get("id")


def _next_element(el: lxml.html.HtmlElement) -> lxml.html.HtmlElement | None:
    """The next sibling that is an element (comments skipped)."""
    return next((sibling for sibling in el.itersiblings() if isinstance(sibling.tag, str)), None)


def is_screen_reader_only(el: lxml.html.HtmlElement) -> bool:
    """Whether ``el`` is clipped out of sight but meant for screen readers."""
    if el.get(SCREEN_READER_ATTRIBUTE) is not None:
        return True
    return bool(el.get("class")) and bool(class_names(el) & SCREEN_READER_CLASSES)
