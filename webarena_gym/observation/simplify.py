"""The walk from a parsed page to the observation text and its numbered elements."""

from __future__ import annotations

import re

import lxml.html

from .annotate import INDEX_ATTRIBUTE, LIVE_CHECKED, LIVE_SELECTED, LIVE_VALUE
from .model import DRIVEN_BY_WIDGET, UI_SELECT, Element, PageObservation
from .naming import (
    BUTTON_INPUT_TYPES,
    DROPPED_TAGS,
    Namer,
    clean,
    is_duplicate_link,
    is_field,
    is_inert_link,
    is_interactive,
    is_row_link,
    leaves_page,
    title_of,
)
from .regions import collapsed_submenus, navigation_regions, region_tag
from .visibility import FORM_CONTROLS, class_names, is_hidden, is_open_tab, is_screen_reader_only
from .widgets import is_driven_by_widget, read_ui_select, select2_container_before, widget_stand_ins

#: Kept as tags in the observation; everything else is unwrapped to its content.
KEPT_TAGS = frozenset(
    "h1 h2 h3 h4 h5 h6 p ul ol li table tr th td dl dt dd form label pre blockquote "
    "a button input select option textarea img caption fieldset legend".split()
)
#: Kept tags rendered on their own line(s).
BLOCK_TAGS = frozenset("h1 h2 h3 h4 h5 h6 p ul ol li table tr dl dt dd form pre blockquote caption fieldset legend".split())
#: Unwrapped tags that still break the line, as a browser would render them.
BREAKING_TAGS = frozenset(
    "div section article header footer nav main aside br hr address figure figcaption details summary body html "
    "thead tbody tfoot".split()
)
#: Inside these, wrappers that would break the line only separate words (a table cell
#: built from divs stays on its row).
LINE_CONTAINERS = frozenset("td th p h1 h2 h3 h4 h5 h6 dt dd label caption legend".split())
#: The attributes an observation shows: ``type`` (inputs), these, and the flags below.
TEXT_ATTRIBUTES = ("placeholder", "value", "title", "aria-label", "role")
#: What tells radio buttons and checkboxes apart (beside their label).
CHOICE_ATTRIBUTES = ("name", "value")
BOOLEAN_ATTRIBUTES = frozenset({"checked", "selected", "disabled", "pressed", "expanded", "multiple"})
#: The state of scripted widgets (a swatch or a switch with ``role="option"|"switch"``, a tab, a
#: toggle button), shown as the flag beside it when "true"; a checkbox that is "mixed" says so.
ARIA_STATES = (("aria-checked", "checked"), ("aria-selected", "selected"), ("aria-pressed", "pressed"),
               ("aria-expanded", "expanded"), ("aria-disabled", "disabled"))
#: How a column header says it sorts: ARIA's ``aria-sort``, or the classes Magento's grids set.
SORT_CLASSES = {"_ascend": "ascending", "_descend": "descending"}
#: Classes that mark the current tab or the chosen item itself (Postmill's tabs, GitLab's tab bars
#: and the chosen item of its dropdowns) ...
CURRENT_ITEM_CLASSES = frozenset({"tab--active", "menu-item--active", "gl-tab-nav-item-active", "is-active", "_active"})
#: ... or mark the ``<li>`` around it (GitLab's dropdowns, Magento's tabs and menu, jQuery UI's tabs that
#: Magento's admin tabs widget is built on), or an ``<li class="active">`` in a tab bar (GitLab's and
#: Bootstrap's); Bootstrap's chosen ``dropdown-item`` is ``active``. In raw HTML, the tab that Magento's
#: tabs widget opens on load is chosen too (see :func:`.visibility.is_open_tab`).
CURRENT_LIST_ITEM_CLASSES = frozenset({"is-active", "_active", "ui-tabs-active"})
TAB_BAR_CLASSES = frozenset({"nav-links", "nav-tabs"})
#: Roles that a native control shows too (``<button role="switch">``: its state means on or off).
STATE_ROLES = frozenset({"switch", "checkbox", "radio", "tab", "option", "menuitemcheckbox", "menuitemradio"})
CHOICE_TYPES = frozenset({"checkbox", "radio"})
#: Relative times ("13 years ago") whose date only a tooltip holds (GitLab's lists, Postmill's posts).
RELATIVE_TIME = re.compile(r"\bago\b|\b(just now|yesterday|today)\b", re.IGNORECASE)
YEAR = re.compile(r"\b\d{4}\b")
WORD, DIGIT = re.compile(r"[^\W\d_]{2,}"), re.compile(r"\d")


def simplify_document(root: lxml.html.HtmlElement, *, order_navigation: bool = True) -> PageObservation:
    """Simplify an already parsed document (element keys are its XPaths, or the
    browser's ``data-wa-idx``).

    Args:
        root: The document's root element.
        order_navigation: Move navigation regions after the main content and collapse
            closed nested menus (see :mod:`.regions`); False keeps document order.
    """
    return _Simplifier(root, order_navigation).run()


class _Simplifier:
    def __init__(self, root: lxml.html.HtmlElement, order_navigation: bool):
        self.root = root
        self.tree = root.getroottree()
        self.parts: list[str] = []
        self.elements: list[Element] = []
        self.namer = Namer(root)
        self.left_out = set(widget_stand_ins(root))
        self.link_hrefs = {a.get("href") for a in root.iter("a") if a.get("href") and a.get("tabindex") != "-1"}
        self.ambiguous_choices = _ambiguous_choices(root, self.namer)
        self.order_navigation = order_navigation
        self.regions: list[lxml.html.HtmlElement] = []
        self.in_region = 0
        self.line_depth = 0  # > 0 inside a LINE_CONTAINERS element

    def run(self) -> PageObservation:
        title_el = self.root.find(".//title")
        title = clean(title_el.text_content()) if title_el is not None else ""
        if title:
            self.parts.append(f"<title>{_escape(title)}</title>\n")
        body = self.root.find("body")
        body = body if body is not None else self.root
        if self.order_navigation:
            self.regions = navigation_regions(body)
        moved = set(self.regions)
        self._walk(body, moved)
        self.in_region += 1
        for region in self.regions:
            if not is_hidden(region):
                self._kept(region, region_tag(region), set())
        return PageObservation(text=_tidy("".join(self.parts)), elements=self.elements, title=title)

    def _walk(self, el: lxml.html.HtmlElement, moved: set) -> None:
        tag = el.tag if isinstance(el.tag, str) else ""
        if not tag or tag in DROPPED_TAGS or el in moved or el in self.left_out:
            return
        if is_hidden(el) and select2_container_before(el) is None:  # select2 3.x hides the select it drives
            return
        if tag == "svg" or (is_screen_reader_only(el) and tag not in FORM_CONTROLS and is_interactive(el)):
            return  # icons name controls; a control clipped out of sight (a skip link) is not there to use
        if tag == "tr" and is_interactive(el):
            self._emit_row(el, moved)
            return
        if is_interactive(el) or read_ui_select(el) is not None:
            if self._emit_interactive(el):
                return
            if tag != "a" or not is_inert_link(el):
                return  # nameless, or a copy of another link: nothing to show
        if tag in KEPT_TAGS and tag not in ("input", "select", "textarea", "button", "a"):
            if tag == "img":
                alt = clean(el.get("alt") or "")
                if alt:
                    self.parts.append(f'<img alt="{_attr(alt)}">')
                return
            self._kept(el, tag, moved)
            return
        separator = ("\n" if not self.line_depth else " ") if tag in BREAKING_TAGS else ""
        self.parts.append(separator)
        self._children(el, moved)
        tooltip = self._tooltip(el, tag)
        if tooltip:
            self.parts.append(f" {_escape(tooltip)}")
        self.parts.append(separator)

    def _tooltip(self, el: lxml.html.HtmlElement, tag: str) -> str:
        """What a non-numbered element says only on hover: the tooltip of an icon or a bar that
        shows no text (GitLab's "Private - ..." lock); in brackets, the date of a relative time and
        what bare numbers count (a branch's "109 commits behind main, 39 commits ahead")."""
        title = title_of(el) or (clean(el.get("datetime") or "") if tag == "time" else "")
        if not title:
            return ""
        text = clean(self.namer.text_of(el, screen_reader=True))
        if not text:
            return title
        dated = (tag == "time" or RELATIVE_TIME.search(text)) and not YEAR.search(text)
        counted = DIGIT.search(text) and not WORD.search(text) and WORD.search(title)  # "109 39": "109 commits behind ..."
        return f"({title})" if (dated or counted) and title not in text else ""

    def _kept(self, el: lxml.html.HtmlElement, tag: str, moved: set, opening: str = "") -> None:
        """``el``'s content under ``tag`` (a tag kept in the observation, or a moved region's);
        ``opening`` replaces the bare opening tag (a numbered row's)."""
        block = tag in BLOCK_TAGS or el in self.regions
        start = len(self.parts)
        self.parts.append(("\n" if block else "") + (opening or f"<{tag}>"))
        in_line = tag in LINE_CONTAINERS
        self.line_depth += in_line
        skipped = set(collapsed_submenus(el)) if self.in_region and tag == "li" else set()
        self._children(el, moved | skipped if skipped else moved)
        self.line_depth -= in_line
        if tag not in ("td", "th") and not any(p.strip() for p in self.parts[start + 1 :]):
            del self.parts[start:]  # an empty wrapper says nothing
            self.parts.append("\n" if block else " ")
            return
        self.parts.append(f"</{tag}>" + ("\n" if block else ""))

    def _children(self, el: lxml.html.HtmlElement, moved: set) -> None:
        if el.text:
            self.parts.append(_escape(el.text))
        children = list(el)
        if el.tag == "table":  # a footer written before the body is drawn after it (Magento's order totals)
            children.sort(key=lambda child: child.tag == "tfoot")
        for child in children:
            if isinstance(child.tag, str):
                self._walk(child, moved)
            if child.tail:
                self.parts.append(_escape(child.tail))

    def _emit_interactive(self, el: lxml.html.HtmlElement) -> bool:
        """Number ``el`` and write it; False when it is not numbered (no name, nothing to do)."""
        tag = el.tag
        if tag == "a" and (is_inert_link(el) or is_duplicate_link(el, self.link_hrefs)):
            return False
        attributes = self._shown_attributes(el)
        options: tuple[str, ...] = ()
        widget = ""
        ui_select = read_ui_select(el)
        if ui_select is not None:
            tag, widget, options = "select", UI_SELECT, ui_select.options
            text = ", ".join(ui_select.chosen) or ui_select.placeholder
            inner = "".join(f"<option{' selected' if o in ui_select.chosen else ''}>{_escape(o)}</option>" for o in options)
            label = el.get("aria-label") or _field_label(el, self.namer) or ui_select.placeholder
        elif tag == "select":
            options, text, inner = _select_options(el)
            widget = DRIVEN_BY_WIDGET if is_driven_by_widget(el) else ""
            label = self.namer.name(el, text)
        elif tag == "textarea":
            text = clean(el.get(LIVE_VALUE) if el.get(LIVE_VALUE) is not None else el.text_content())
            inner = _escape(text)
            label = self.namer.name(el, text)
        elif tag == "input":
            kind = attributes["type"]
            text = attributes.get("value", "") if kind not in CHOICE_TYPES else ""
            inner = ""
            label = self.namer.name(el, text if kind in BUTTON_INPUT_TYPES else "")
            widget = DRIVEN_BY_WIDGET if el.get("aria-hidden") == "true" else ""
        else:
            text = clean(self.namer.text_of(el, screen_reader=True))
            label = self.namer.name(el, text)
            if not label:
                return False
            shown_names = {attributes.get("title"), attributes.get("aria-label")}
            inner = _escape(text or (label if label not in shown_names else ""))
        if not clean(label) and is_field(el) and attributes.get("type") not in CHOICE_TYPES and clean(el.get("name") or ""):
            attributes["name"] = clean(el.get("name"))  # a legacy grid's filter box says only this
        element_id = self._number(el, tag, text, attributes, clean(label), options, widget)
        if tag == "input":
            self.parts.append(f'<input id="{element_id}"{_shown(attributes)}>')
        else:
            self.parts.append(f'<{tag} id="{element_id}"{_shown(attributes)}>{inner}</{tag}>')
        return True

    def _emit_row(self, el: lxml.html.HtmlElement, moved: set) -> None:
        """A row that a grid script opens on click: numbered, with its cells kept as cells."""
        cells = (clean(self.namer.text_of(c, screen_reader=True)) for c in el if c.tag in ("td", "th") and not is_hidden(c))
        text = " ".join(cell for cell in cells if cell)
        if not text:
            self._kept(el, "tr", moved)
            return
        attributes = self._shown_attributes(el)
        element_id = self._number(el, "tr", text, attributes, self.namer.name(el, text))
        self._kept(el, "tr", moved, opening=f'<tr id="{element_id}"{_shown(attributes)}>')

    def _number(self, el: lxml.html.HtmlElement, tag: str, text: str, attributes: dict[str, str], label: str,
                options: tuple[str, ...] = (), widget: str = "") -> int:
        """Number ``el`` as the next element (keyed where the backend finds it again); returns its number."""
        element_id = len(self.elements)
        key = el.get(INDEX_ATTRIBUTE) or self.tree.getpath(el)
        navigates = leaves_page(el) or is_row_link(el)
        self.elements.append(Element(element_id, tag, text, attributes, label, key, options, widget, navigates))
        return element_id

    def _shown_attributes(self, el: lxml.html.HtmlElement) -> dict[str, str]:
        """The whitelisted attributes, in a fixed order, with form controls' live state."""
        tag = el.tag
        shown: dict[str, str] = {}
        kind = (el.get("type") or "text").lower() if tag == "input" else ""
        if tag == "input":
            shown["type"] = kind
        if kind in CHOICE_TYPES:
            for name in CHOICE_ATTRIBUTES:
                if el.get(name) and clean(el.get(name)):
                    shown[name] = clean(el.get(name))
            if el in self.ambiguous_choices and el.get("id"):
                shown["dom-id"] = clean(el.get("id"))
        for name in TEXT_ATTRIBUTES:
            if name == "value":
                value = _input_value(el) if tag == "input" and kind not in CHOICE_TYPES else None
            elif name == "role" and tag in ("a", "button", "input", "select", "textarea") and el.get(name) not in STATE_ROLES:
                continue
            else:
                value = title_of(el) if name == "title" else el.get(name)
            if value is not None and clean(value):
                shown[name] = clean(value)
        if kind in CHOICE_TYPES and _is_checked(el):
            shown["checked"] = ""
        if tag == "select" and el.get("multiple") is not None:
            shown["multiple"] = ""  # several options may be selected (Magento's report filters)
        if el.get("disabled") is not None or (tag in ("a", "button") and "disabled" in class_names(el)):
            shown["disabled"] = ""  # Bootstrap's and Magento's pagers disable links and buttons by class
        for name, flag in ARIA_STATES:
            state = (el.get(name) or "").strip().lower()
            if state == "true":
                shown[flag] = ""
            elif state == "mixed" and flag in ("checked", "pressed"):
                shown[flag] = "mixed"
        if "selected" not in shown and _is_current_tab(el):
            shown["selected"] = ""
        details = el.getparent()
        if tag == "summary" and details is not None and details.tag == "details" and details.get("open") is not None:
            shown["expanded"] = ""
        sort = _sort_state(el)
        if sort:
            shown["sorted"] = sort
        return shown


def _shown(attributes: dict[str, str]) -> str:
    """A numbered element's attributes as written in its tag (flags bare, values quoted)."""
    return "".join(f" {name}" if name in BOOLEAN_ATTRIBUTES and not value else f' {name}="{_attr(value)}"'
                   for name, value in attributes.items())


def _sort_state(el: lxml.html.HtmlElement) -> str:
    """How a column header (or the control inside one) sorts: "ascending", "descending" or ""."""
    parent = el.getparent()
    aria = el.get("aria-sort")
    if aria is None and parent is not None:
        aria = parent.get("aria-sort")
    aria = (aria or "").strip().lower()
    if aria in ("ascending", "descending"):
        return aria
    return next((SORT_CLASSES[name] for name in class_names(el) if name in SORT_CLASSES), "")


def _is_current_tab(el: lxml.html.HtmlElement) -> bool:
    """Whether a class marks ``el`` as the chosen tab or menu item (no ARIA says so on these sites)."""
    classes = class_names(el)
    if classes & CURRENT_ITEM_CLASSES or {"dropdown-item", "active"} <= classes:
        return True
    item = el.getparent()
    if item is None or item.tag != "li":
        return False
    if class_names(item) & CURRENT_LIST_ITEM_CLASSES:
        return True
    if item.get(INDEX_ATTRIBUTE) is None and is_open_tab(item):
        return True  # raw HTML: the tabs widget has not run
    bar = item.getparent()
    return bar is not None and "active" in class_names(item) and bool(class_names(bar) & TAB_BAR_CLASSES)


def _select_options(el: lxml.html.HtmlElement) -> tuple[tuple[str, ...], str, str]:
    """A select's option texts, its shown value and its rendered options."""
    option_els = [o for o in el.iter("option") if not is_hidden(o)]
    chosen = {o for o in option_els if _is_selected(o)}
    if not chosen and el.get("multiple") is None and not any(o.get(LIVE_SELECTED) for o in option_els):
        # a browser selects the first enabled option when none is marked
        first = next((o for o in option_els if o.get("disabled") is None), None)
        chosen = {first} if first is not None else set()
    texts = [clean(o.text_content()) for o in option_els]
    text = next((t for o, t in zip(option_els, texts, strict=True) if o in chosen), "")
    inner = "".join(f"<option{' selected' if o in chosen else ''}>{_escape(t)}</option>" for o, t in zip(option_els, texts, strict=True))
    return tuple(texts), text, inner


def _ambiguous_choices(root: lxml.html.HtmlElement, namer: Namer) -> set:
    """Radio buttons and checkboxes whose label does not tell them apart within their group
    (Magento's five ``★`` rating radios): they also show their ``id``."""
    groups: dict[str, list] = {}
    for el in root.iter("input"):
        if (el.get("type") or "").lower() in CHOICE_TYPES and el.get("name"):
            groups.setdefault(el.get("name"), []).append(el)
    ambiguous = set()
    for members in groups.values():
        labels = [namer.name(m, "") for m in members]
        if len(set(labels)) < len(labels):
            ambiguous.update(m for m, label in zip(members, labels, strict=True) if labels.count(label) > 1)
    return ambiguous


def _field_label(el: lxml.html.HtmlElement, namer: Namer) -> str:
    """The nearest ``<label>`` before a widget in its field (Magento's ``admin__field``)."""
    for depth, ancestor in enumerate(el.iterancestors()):
        if depth > 3:
            break
        labels = [label for label in ancestor.iter("label") if el not in label.iterancestors() and label not in el.iter()]
        if labels:
            return namer.text_of(labels[0], screen_reader=True)
    return ""


def _input_value(el: lxml.html.HtmlElement) -> str | None:
    live = el.get(LIVE_VALUE)
    return live if live is not None else el.get("value")


def _is_checked(el: lxml.html.HtmlElement) -> bool:
    live = el.get(LIVE_CHECKED)
    return live == "1" if live is not None else el.get("checked") is not None


def _is_selected(option: lxml.html.HtmlElement) -> bool:
    live = option.get(LIVE_SELECTED)
    return live == "1" if live is not None else option.get("selected") is not None


_WHITESPACE = re.compile(r"\s+")


def _escape(text: str) -> str:
    """Source whitespace is one space; page text that looks like markup must not read as a tag."""
    return _WHITESPACE.sub(" ", text).replace("<", "&lt;").replace(">", "&gt;")


def _attr(value: str) -> str:
    return value.replace('"', "&quot;")


_SPACE_AFTER_OPEN = re.compile(r"(<[a-z][a-z0-9]*(?: [^<>]*)?>) +")
_SPACE_BEFORE_CLOSE = re.compile(r" +(</[a-z][a-z0-9]*>)")


def _tidy(text: str) -> str:
    return "\n".join(line for line in map(_tidy_line, text.split("\n")) if line)


def _tidy_line(line: str) -> str:
    line = clean(line)
    if "> " in line:  # what the patterns need to match at all: most lines have neither, and skip the regex
        line = _SPACE_AFTER_OPEN.sub(_first_group, line)
    if " </" in line:
        line = _SPACE_BEFORE_CLOSE.sub(_first_group, line)
    return line


def _first_group(match: re.Match[str]) -> str:
    return match.group(1)
