"""Which elements are numbered, and the name each numbered element gets.

An element is numbered when the agent can act on it and can tell what it is. Names
follow the order assistive technology uses (a simplified accessible-name computation):
``aria-labelledby``, ``aria-label``, the control's ``<label>``, placeholder, title (or the
tooltip a script took from it), its visible text, an image's alt text, screen-reader-only
text, and last an icon's test id (GitLab's ``data-testid="search-icon"``), so icon-only
buttons get a name. What has no name, or cannot be acted on (in-page links and ``href="#"``
help links no script claims, a ``tabindex="-1"`` copy of a link the page already has), is
not numbered.
"""

from __future__ import annotations

import re
from itertools import islice

import lxml.etree
import lxml.html

from .visibility import TAB_ITEM_CLASS, class_names, is_hidden, is_screen_reader_only

CLICK_ROLES = frozenset("button link checkbox radio tab menuitem option switch combobox textbox searchbox treeitem".split())
BUTTON_INPUT_TYPES = frozenset({"submit", "button", "reset", "image"})
NATIVE_CONTROLS = frozenset({"button", "select", "textarea", "input"})
#: Attributes that say a script gives a ``href="#"`` link something to do.
SCRIPTED_LINK_ATTRIBUTES = (
    "onclick", "role", "aria-haspopup", "aria-expanded", "aria-controls", "data-toggle", "data-bs-toggle", "data-action",
    "data-role", "data-post",
)
DROPPED_TAGS = frozenset(
    "script style noscript template head meta link base canvas iframe object embed audio video source track map".split()
)
DEFAULT_BUTTON_NAMES = {"submit": "Submit", "reset": "Reset"}
#: What holds the items of a dropdown (Bootstrap's menu, GitLab's list inside it), and how far up
#: from an item to look for it.
DROPDOWN_MENU_CLASSES = frozenset({"dropdown-menu", "dropdown-content"})
MENU_DEPTH = 6

_WHITESPACE = re.compile(r"\s+")
_EMPTY_HREFS = frozenset({"", "#", "javascript:;", "javascript:void(0)", "javascript:void(0);"})
#: A ``title`` that is an address: absolute, from the root, or relative to the page ("view/order_id/17/").
_ADDRESS = re.compile(r"^(https?://\S+|/\S*|\S+/)$", re.IGNORECASE)


def clean(text: str) -> str:
    """Whitespace runs as one space, none at the ends (``str.split`` splits on exactly what ``\\s`` matches)."""
    return " ".join(text.split())


def is_interactive(el: lxml.html.HtmlElement) -> bool:
    """Whether ``el`` is a control (it is emitted as one element, its content as its text)."""
    tag = el.tag
    if tag == "a" and el.get("href") is not None:
        return True
    if tag in NATIVE_CONTROLS or (tag == "summary" and el.getparent() is not None and el.getparent().tag == "details"):
        return True  # a <details>'s summary opens and closes it
    if (el.get("role") or "").lower() in CLICK_ROLES:
        return True
    # A script's click handler or a tab stop makes a control, unless it only wraps controls; so do
    # the header of a column that Magento's grid script sorts on click (``<th data-sort="created_at">``),
    # a row that it opens (a row with an "Edit" link in it is opened by the link) and the items of its
    # split buttons' menus (``<span class="item">``, whose handlers a script sets). A knockout grid binds
    # a click to every cell, which does nothing on most grids: a cell is not a control.
    scripted = (el.get("onclick") is not None or el.get("tabindex") == "0" or (_binds_click(el) and tag != "td")
                or el.get("data-sort") is not None or is_row_link(el)
                or ("item" in class_names(el) and _in_dropdown_menu(el)))
    return scripted and not any(is_interactive(d) for d in el.iterdescendants() if isinstance(d.tag, str))


def is_field(el: lxml.html.HtmlElement) -> bool:
    """Whether ``el`` takes a value (a select, a textarea, an input that is not a button); its
    label names it, never its own text."""
    kind = (el.get("type") or "text").lower()
    return el.tag in ("select", "textarea") or (el.tag == "input" and kind not in BUTTON_INPUT_TYPES)


def _binds_click(el: lxml.html.HtmlElement) -> bool:
    """Whether a knockout binding (Magento's ``data-bind="click: activate"``) handles clicks on ``el``."""
    return "click:" in (el.get("data-bind") or "")


def title_of(el: lxml.html.HtmlElement) -> str:
    """``el``'s tooltip: its ``title``, read as text where Bootstrap renders it as markup
    (``data-html="true"``: GitLab's language bar, ``<span>Nunjucks</span>&nbsp;<span>51.8%</span>``)."""
    title = el.get("title") or ""
    if "<" in title and "true" in (el.get("data-html"), el.get("data-bs-html")):
        try:
            title = lxml.html.fragment_fromstring(title, create_parent="div").text_content()
        except (lxml.etree.ParserError, ValueError):
            pass
    return clean(title)


def is_row_link(el: lxml.html.HtmlElement) -> bool:
    """A table row that a grid script opens on click, at the address its ``title`` holds
    (Magento's dashboard and legacy grids: ``<tr title="http://.../order/view/order_id/230/">``)."""
    return el.tag == "tr" and bool(_ADDRESS.match(clean(el.get("title") or "")))


def leaves_page(el: lxml.html.HtmlElement) -> bool:
    """A link whose click loads another page in this tab: an ``href`` that is not a ``#`` fragment
    or a ``javascript:`` URL, and no ``target="_blank"`` (what the Playwright backend's
    ``WILL_NAVIGATE_JS`` asks of a link in the page).

    >>> [leaves_page(lxml.html.fragment_fromstring(a)) for a in (
    ...     '<a href="/cart">Cart</a>', '<a href="#top">Top</a>', '<a href="/x" target="_blank">X</a>', '<a>Plain</a>')]
    [True, False, False, False]
    """
    href = el.get("href")
    return el.tag == "a" and href is not None and not href.startswith(("#", "javascript:")) \
        and el.get("target") != "_blank"


def is_inert_link(el: lxml.html.HtmlElement) -> bool:
    """A link that only scrolls the page ("Jump to main content") or that goes nowhere and is
    kept out of the tab order (``<a href="#" tabindex="-1">Link</a>`` in Postmill's formatting
    help), and that no script claims.

    A script claims it by an attribute of :data:`SCRIPTED_LINK_ATTRIBUTES`, by a ``js-`` class
    (the hooks GitLab's scripts bind to: the sidebar's ``js-sidebar-dropdown-toggle`` "Edit"), by
    holding it as an item of a dropdown menu (GitLab's user and filter pickers), by handling
    clicks on the item around it (Magento's customer tabs: ``<li data-bind="click: activate"><a href="#">``),
    or as the link of a tab of Magento's admin tabs widget (``<a href="#{tab}_content">`` in its item).
    Any other link to nowhere (``href="#"``) is there for a script that binds it by other means
    (OpenStreetMap's "Reverse Directions"), so it is a control."""
    if el.get("href") is None:
        return False
    href = clean(el.get("href") or "").lower()
    nowhere = href in _EMPTY_HREFS or href.startswith("#")
    if not nowhere or any(el.get(name) is not None for name in SCRIPTED_LINK_ATTRIBUTES):
        return False
    handled = any(a.get("onclick") is not None or _binds_click(a) for a in islice(el.iterancestors(), 2))
    parent = el.getparent()
    handled = handled or (parent is not None and parent.tag == "li" and TAB_ITEM_CLASS in class_names(parent))
    if any(name.startswith("js-") for name in class_names(el)) or _in_dropdown_menu(el) or handled:
        return False
    return href not in _EMPTY_HREFS or el.get("tabindex") == "-1"


def _in_dropdown_menu(el: lxml.html.HtmlElement) -> bool:
    for depth, ancestor in enumerate(el.iterancestors()):
        if depth >= MENU_DEPTH:
            return False
        if class_names(ancestor) & DROPDOWN_MENU_CLASSES or (ancestor.get("role") or "") in ("menu", "listbox"):
            return True
    return False


def is_duplicate_link(el: lxml.html.HtmlElement, hrefs: set[str]) -> bool:
    """A ``tabindex="-1"`` link whose target another link of the page already offers
    (Magento's product photo beside the product name)."""
    return el.get("tabindex") == "-1" and (el.get("href") or "") in hrefs


class Namer:
    """Accessible names of a document's elements."""

    def __init__(self, root: lxml.html.HtmlElement):
        self.by_id: dict[str, lxml.html.HtmlElement] = {}
        self.labels_by_for: dict[str, str] = {}
        for el in root.iter():
            if not isinstance(el.tag, str):
                continue
            el_id = el.get("id")
            if el_id and el_id not in self.by_id:
                self.by_id[el_id] = el
            if el.tag == "label" and el.get("for") and not is_hidden(el):
                self.labels_by_for.setdefault(el.get("for"), clean(self.text_of(el, screen_reader=True)))

    def name(self, el: lxml.html.HtmlElement, visible_text: str) -> str:
        """The accessible name of a control whose visible text is ``visible_text``."""
        tag = el.tag
        kind = (el.get("type") or "text").lower() if tag == "input" else tag
        field = is_field(el)
        candidates = [
            self._labelled_by(el),
            el.get("aria-label"),
            self.labels_by_for.get(el.get("id") or "\0"),
            self._wrapping_label(el),
            el.get("placeholder"),
            title_of(el),
            # a tooltip a script has taken over: Bootstrap moves ``title`` here, GitLab sets it from here
            el.get("data-original-title"),
            el.get("data-title"),
            visible_text if not field else "",
            el.get("alt") if tag == "input" else "",
            DEFAULT_BUTTON_NAMES.get(kind, "") if tag == "input" else "",
        ]
        if not field:
            candidates += [self.text_of(el, screen_reader=True), self._icon_name(el)]
        return next((clean(c) for c in candidates if c and clean(c)), "")

    def text_of(self, el: lxml.html.HtmlElement, *, screen_reader: bool = False) -> str:
        """The text ``el`` shows (with images' alt text); ``screen_reader`` adds screen-reader-only text."""
        pieces: list[str] = []

        def collect(node: lxml.html.HtmlElement) -> None:
            if node.text:
                pieces.append(node.text)
            for child in node:
                if isinstance(child.tag, str) and child.tag not in DROPPED_TAGS and child.tag != "svg" and not is_hidden(child):
                    screen_reader_only = is_screen_reader_only(child)
                    if screen_reader or not screen_reader_only:
                        if child.tag == "img" and child.get("alt"):
                            pieces.append(" " + child.get("alt") + " ")
                        pieces.append(" " if screen_reader_only else "")
                        collect(child)
                        pieces.append(" " if screen_reader_only else "")
                if child.tail:
                    pieces.append(child.tail)

        collect(el)
        return "".join(pieces)

    def _labelled_by(self, el: lxml.html.HtmlElement) -> str:
        """The texts ``aria-labelledby`` names, in order; ``el`` itself among them gives its own text
        (Magento's "View as" ``List``: ``aria-labelledby="modes-label mode-list"`` on ``#mode-list``)."""
        ids = (el.get("aria-labelledby") or "").split()
        return " ".join(self.by_id[i].text_content() for i in ids if i in self.by_id)

    def _wrapping_label(self, el: lxml.html.HtmlElement) -> str:
        for ancestor in el.iterancestors():
            if ancestor.tag == "label":
                return self._text_without_controls(ancestor)
            if ancestor.tag in ("form", "body"):
                break
        return ""

    def _text_without_controls(self, label: lxml.html.HtmlElement) -> str:
        """A wrapping label's text, without the text of the select or textarea it holds."""
        pieces: list[str] = [label.text or ""]
        for child in label:
            if isinstance(child.tag, str) and child.tag not in ("select", "textarea") and not is_hidden(child):
                pieces.append(self._text_without_controls(child))
            pieces.append(child.tail or "")
        return " ".join(pieces)

    @staticmethod
    def _icon_name(el: lxml.html.HtmlElement) -> str:
        for node in el.iter():
            if not isinstance(node.tag, str):
                continue
            if node.tag == "svg":
                title = node.find("title")
                if title is not None and clean(title.text_content()):
                    return title.text_content()
            test_id = node.get("data-testid") or ""
            if test_id.endswith("-icon"):
                return test_id[: -len("-icon")].replace("-", " ").replace("_", " ")
        return ""
