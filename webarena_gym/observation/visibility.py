"""Whether an element is shown, from what the markup (and the browser's annotation) says.

On the Playwright backend the browser decides: :data:`~.annotate.ANNOTATE_DOM_JS` marks
what its computed style and layout hide, and nothing else hides an element it has seen but
``aria-hidden``. On raw HTML only the markup can tell: the
``hidden`` attribute, inline ``display: none``/``visibility: hidden``, hidden inputs,
closed ``<details>``/``<dialog>``, and classes that every site using them hides (see
:data:`HIDDEN_CLASSES`). ``aria-hidden`` hides content (decorative icons) but not a
form control: a select under ``aria-hidden`` is one a visible widget drives, and its
options are what the agent needs.
"""

from __future__ import annotations

import re

import lxml.html

from .annotate import HIDDEN_ATTRIBUTE, INDEX_ATTRIBUTE, SCREEN_READER_ATTRIBUTE

#: Form controls: they stay shown when hidden only from assistive technology.
FORM_CONTROLS = frozenset({"select", "input", "textarea"})
#: Utility classes that hide an element on the sites that define them (Bootstrap,
#: GitLab, Magento, Postmill share these names and meanings).
HIDDEN_CLASSES = frozenset({"hidden", "hide", "d-none", "no-display", "gl-display-none", "is-hidden", "invisible"})
#: Classes that show an element to screen readers only (its text names a control).
SCREEN_READER_CLASSES = frozenset(
    {"sr-only", "gl-sr-only", "visually-hidden", "screen-reader-text", "select2-hidden-accessible", "a11y-hidden"}
)
#: Menus closed until the page's script opens them (Bootstrap's ``.dropdown-menu``
#: without ``.show``).
CLOSED_MENU_CLASS, OPEN_CLASS = "dropdown-menu", "show"

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
        if classes & HIDDEN_CLASSES or (CLOSED_MENU_CLASS in classes and OPEN_CLASS not in classes):
            return True
    return False


def is_screen_reader_only(el: lxml.html.HtmlElement) -> bool:
    """Whether ``el`` is clipped out of sight but meant for screen readers."""
    if el.get(SCREEN_READER_ATTRIBUTE) is not None:
        return True
    return bool(el.get("class")) and bool(class_names(el) & SCREEN_READER_CLASSES)
