"""From page HTML to the text observation an agent reads.

:func:`simplify_html` is a pure, deterministic function: scripts, styles, comments and
hidden elements are dropped, decorative wrappers (div, span, section, ...) unwrapped,
headings, paragraphs, lists, tables, forms and labels kept with their text, and every
interactive element (links, buttons, inputs, selects, textareas, elements with a click
role) numbered ``id="0..N"`` in document order with a short whitelist of attributes.
Both backends run it: the direct backend on the HTML the site returned, the Playwright
backend on the browser's DOM after :data:`ANNOTATE_DOM_JS` has copied live state
(typed values, checked boxes, computed visibility) into attributes.

>>> page = simplify_html('<html><head><title>Shop</title><script>x()</script></head>'
...     '<body><div><h1>Hello</h1><a href="/a">Go</a> <input placeholder="Search"></div></body></html>')
>>> print(page.text)
<title>Shop</title>
<h1>Hello</h1>
<a id="0">Go</a> <input id="1" type="text" placeholder="Search">
>>> page.elements[1].label
'Search'
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import lxml.html
from lxml import etree

#: Attribute set by :data:`ANNOTATE_DOM_JS` on every element: its position in document order.
INDEX_ATTRIBUTE = "data-wa-idx"
#: Attribute set by :data:`ANNOTATE_DOM_JS` on elements the browser does not render.
HIDDEN_ATTRIBUTE = "data-wa-hidden"

#: Run in the browser before serializing the DOM: live form state becomes attributes
#: (so the text matches the direct backend's), and each element gets its index.
#: Attributes where :data:`ANNOTATE_DOM_JS` records live form state (typed values,
#: checked boxes, selected options). The real ``value``/``checked``/``selected``
#: attributes are left alone: they are the controls' defaults, which browsers compare
#: against when they restore typed values on Back.
LIVE_VALUE, LIVE_CHECKED, LIVE_SELECTED = "data-wa-value", "data-wa-checked", "data-wa-selected"

#: Run in the browser to serialize the DOM: live form state and computed visibility
#: become data attributes (so the text matches the direct backend's), each element
#: gets its index, and the annotated page's HTML is returned.
ANNOTATE_DOM_JS = """() => {
  let i = 0;
  for (const el of document.querySelectorAll('*')) {
    el.setAttribute('data-wa-idx', String(i++));
    const style = window.getComputedStyle(el);
    if (style.display === 'none' || style.visibility === 'hidden') el.setAttribute('data-wa-hidden', '1');
    else el.removeAttribute('data-wa-hidden');
    const tag = el.tagName;
    if (tag === 'INPUT') {
      if (el.type === 'checkbox' || el.type === 'radio') el.setAttribute('data-wa-checked', el.checked ? '1' : '0');
      else if (el.type !== 'file') el.setAttribute('data-wa-value', el.value);
    } else if (tag === 'TEXTAREA') {
      el.setAttribute('data-wa-value', el.value);
    } else if (tag === 'OPTION') {
      el.setAttribute('data-wa-selected', el.selected ? '1' : '0');
    }
  }
  return document.documentElement.outerHTML;
}"""

DROPPED_TAGS = frozenset(
    "script style noscript template head meta link base svg canvas iframe object embed audio video source track map".split()
)
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
CLICK_ROLES = frozenset("button link checkbox radio tab menuitem option switch combobox textbox searchbox treeitem".split())
#: The attributes an observation shows: ``type`` (inputs), these, and the flags below.
TEXT_ATTRIBUTES = ("placeholder", "value", "title", "aria-label", "role")
BOOLEAN_ATTRIBUTES = frozenset({"checked", "selected", "disabled"})
TEXT_INPUT_TYPES = frozenset("text search email url tel password number date datetime-local month week time".split())
BUTTON_INPUT_TYPES = frozenset({"submit", "button", "reset", "image"})
DEFAULT_MAX_CHARS = 16_000

_WHITESPACE = re.compile(r"\s+")
_DISPLAY_NONE = re.compile(r"(display\s*:\s*none|visibility\s*:\s*hidden)", re.IGNORECASE)


@dataclass(frozen=True)
class Element:
    """One numbered, interactive element of an observation.

    Attributes:
        id: The number the agent uses (``element="12"``).
        tag: Lower-case tag name.
        text: The element's visible text (for selects: the selected option).
        attributes: The whitelisted attributes as shown in the observation.
        label: Its accessible name: aria-label, associated ``<label>``, placeholder,
            title, or its text.
        key: Where the backend finds it again: the ``data-wa-idx`` the browser
            annotation gave it, else its XPath in the parsed document.
        options: Option texts of a select, in order.
    """

    id: int
    tag: str
    text: str
    attributes: dict[str, str]
    label: str
    key: str
    options: tuple[str, ...] = ()

    @property
    def input_type(self) -> str:
        """``type`` of an input (``text`` when absent), else the tag name."""
        return self.attributes.get("type", "text") if self.tag == "input" else self.tag

    def is_text_field(self) -> bool:
        return self.tag == "textarea" or (self.tag == "input" and self.input_type in TEXT_INPUT_TYPES) or (
            self.attributes.get("role") in ("textbox", "searchbox", "combobox")
        )


@dataclass(frozen=True)
class PageObservation:
    """The simplified page: the full text (no budget applied) and its numbered elements."""

    text: str
    elements: list[Element] = field(default_factory=list)
    title: str = ""

    def element(self, element_id: int) -> Element | None:
        return self.elements[element_id] if 0 <= element_id < len(self.elements) else None

    def window(self, offset: int = 0, max_chars: int = DEFAULT_MAX_CHARS) -> str:
        """The text from ``offset`` on, cut at a line end within ``max_chars`` with a visible marker."""
        return window_text(self.text, offset, max_chars)


def window_text(text: str, offset: int, max_chars: int) -> str:
    """A line-aligned window of ``text`` with markers for what lies before and after it.

    >>> print(window_text("aaaa\\nbbbb\\ncccc", 0, 10))
    aaaa
    bbbb
    [... 5 more characters below; use Scroll Down ...]
    """
    offset = max(0, min(offset, len(text)))
    head = f"[... {offset} characters above; use Scroll Up ...]\n" if offset else ""
    rest = text[offset:]
    if len(rest) <= max_chars:
        return head + rest
    cut = rest.rfind("\n", 0, max_chars + 1)
    if cut <= 0:
        cut = max_chars
    shown = rest[:cut].rstrip("\n")
    remaining = len(rest) - len(shown)
    return f"{head}{shown}\n[... {remaining} more characters below; use Scroll Down ...]"


def simplify_html(html: str) -> PageObservation:
    """Simplify page HTML into the observation text and its numbered elements."""
    root = parse_html(html)
    return simplify_document(root) if root is not None else PageObservation(text="")


def parse_html(html: str) -> lxml.html.HtmlElement | None:
    """Parse a page with lxml (None for an empty or unparseable page)."""
    if not html or not html.strip():
        return None
    try:
        return lxml.html.document_fromstring(html)
    except (etree.ParserError, ValueError):
        return None


def simplify_document(root: lxml.html.HtmlElement) -> PageObservation:
    """:func:`simplify_html` on an already parsed document (element keys are its XPaths)."""
    return _Simplifier(root).run()


class _Simplifier:
    def __init__(self, root: lxml.html.HtmlElement):
        self.root = root
        self.tree = root.getroottree()
        self.parts: list[str] = []
        self.elements: list[Element] = []
        self.labels_by_for = self._labels_by_for()
        self.line_depth = 0  # > 0 inside a LINE_CONTAINERS element

    def run(self) -> PageObservation:
        title_el = self.root.find(".//title")
        title = _clean(title_el.text_content()) if title_el is not None else ""
        if title:
            self.parts.append(f"<title>{title}</title>\n")
        body = self.root.find("body")
        self._walk(body if body is not None else self.root)
        return PageObservation(text=_tidy("".join(self.parts)), elements=self.elements, title=title)

    def _labels_by_for(self) -> dict[str, str]:
        labels: dict[str, str] = {}
        for label in self.root.iter("label"):
            target = label.get("for")
            if target and not _is_hidden(label):
                labels.setdefault(target, _clean(label.text_content()))
        return labels

    def _walk(self, el: lxml.html.HtmlElement) -> None:
        tag = el.tag if isinstance(el.tag, str) else ""
        if not tag or tag in DROPPED_TAGS or _is_hidden(el):
            return
        interactive = _is_interactive(el)
        if interactive:
            self._emit_interactive(el)
            return
        if tag in KEPT_TAGS and tag not in ("input", "select", "textarea", "button"):
            if tag == "img":
                alt = _clean(el.get("alt") or "")
                if alt:
                    self.parts.append(f'<img alt="{_attr(alt)}">')
                return
            block = tag in BLOCK_TAGS
            start = len(self.parts)
            self.parts.append(("\n" if block else "") + f"<{tag}>")
            in_line = tag in LINE_CONTAINERS
            self.line_depth += in_line
            self._children(el)
            self.line_depth -= in_line
            if tag not in ("td", "th") and not _has_content(self.parts[start + 1 :]):
                del self.parts[start:]  # an empty wrapper says nothing
                self.parts.append("\n" if block else " ")
                return
            self.parts.append(f"</{tag}>" + ("\n" if block else ""))
            return
        separator = ("\n" if not self.line_depth else " ") if tag in BREAKING_TAGS else ""
        self.parts.append(separator)
        self._children(el)
        self.parts.append(separator)

    def _children(self, el: lxml.html.HtmlElement) -> None:
        if el.text:
            self.parts.append(_escape(el.text))
        for child in el:
            if isinstance(child.tag, str):
                self._walk(child)
            if child.tail:
                self.parts.append(_escape(child.tail))

    def _emit_interactive(self, el: lxml.html.HtmlElement) -> None:
        tag = el.tag
        element_id = len(self.elements)
        attributes = self._shown_attributes(el)
        options: tuple[str, ...] = ()
        if tag == "select":
            option_els = [o for o in el.iter("option") if not _is_hidden(o)]
            options = tuple(_clean(o.text_content()) for o in option_els)
            chosen = {id(o) for o in option_els if _is_selected(o)}
            if not chosen and el.get("multiple") is None and not any(o.get(LIVE_SELECTED) for o in option_els):
                # a browser selects the first enabled option when none is marked
                first = next((o for o in option_els if o.get("disabled") is None), None)
                chosen = {id(first)} if first is not None else set()
            text = next((_clean(o.text_content()) for o in option_els if id(o) in chosen), "")
            inner = "".join(
                f"<option{' selected' if id(o) in chosen else ''}>{_clean(o.text_content())}</option>" for o in option_els
            )
        elif tag == "textarea":
            text = _clean(el.get(LIVE_VALUE) if el.get(LIVE_VALUE) is not None else el.text_content())
            inner = text
        elif tag == "input":
            text = attributes.get("value", "") if attributes.get("type") not in ("checkbox", "radio") else ""
            inner = ""
        else:
            text = _clean(self._visible_text(el))
            inner = text
        label = (
            el.get("aria-label")
            or self.labels_by_for.get(el.get("id") or "\0")
            or self._wrapping_label(el)
            or el.get("placeholder")
            or el.get("title")
            or (text if tag not in ("input", "textarea", "select") or attributes.get("type") in BUTTON_INPUT_TYPES else "")
            or (el.get("alt") or "")
        )
        key = el.get(INDEX_ATTRIBUTE) or self.tree.getpath(el)
        self.elements.append(
            Element(element_id, tag, text, attributes, _clean(label), key, options)
        )
        shown = "".join(
            f" {name}" if name in BOOLEAN_ATTRIBUTES else f' {name}="{_attr(value)}"' for name, value in attributes.items()
        )
        if tag == "input":
            self.parts.append(f'<input id="{element_id}"{shown}>')
        else:
            self.parts.append(f'<{tag} id="{element_id}"{shown}>{inner}</{tag}>')

    def _shown_attributes(self, el: lxml.html.HtmlElement) -> dict[str, str]:
        """The whitelisted attributes, in a fixed order, with form controls' live state."""
        tag = el.tag
        shown: dict[str, str] = {}
        if tag == "input":
            shown["type"] = (el.get("type") or "text").lower()
        for name in TEXT_ATTRIBUTES:
            if name == "value":
                value = _input_value(el) if tag == "input" and shown["type"] not in ("checkbox", "radio") else None
            elif name == "role" and tag in ("a", "button", "input", "select", "textarea"):
                continue
            else:
                value = el.get(name)
            if value is not None and _clean(value):
                shown[name] = _clean(value)
        if tag == "input" and shown["type"] in ("checkbox", "radio") and _is_checked(el):
            shown["checked"] = ""
        if el.get("disabled") is not None:
            shown["disabled"] = ""
        return shown

    def _visible_text(self, el: lxml.html.HtmlElement) -> str:
        pieces: list[str] = []

        def collect(node: lxml.html.HtmlElement) -> None:
            if node.text:
                pieces.append(node.text)
            for child in node:
                if isinstance(child.tag, str) and child.tag not in DROPPED_TAGS and not _is_hidden(child):
                    if child.tag == "img" and child.get("alt"):
                        pieces.append(" " + child.get("alt") + " ")
                    collect(child)
                if child.tail:
                    pieces.append(child.tail)

        collect(el)
        text = "".join(pieces)
        if not text.strip() and el.tag in ("button", "input"):
            text = el.get("value") or ""
        return text

    def _wrapping_label(self, el: lxml.html.HtmlElement) -> str:
        for ancestor in el.iterancestors():
            if ancestor.tag == "label":
                return _clean(ancestor.text_content())
            if ancestor.tag in ("form", "body"):
                break
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


def _is_hidden(el: lxml.html.HtmlElement) -> bool:
    if el.get(HIDDEN_ATTRIBUTE) is not None or el.get("hidden") is not None:
        return True
    if el.get("aria-hidden") == "true":
        return True
    if el.tag == "input" and (el.get("type") or "").lower() == "hidden":
        return True
    style = el.get("style")
    return bool(style and _DISPLAY_NONE.search(style))


def _is_interactive(el: lxml.html.HtmlElement) -> bool:
    tag = el.tag
    if tag == "a":
        return el.get("href") is not None
    if tag in ("button", "select", "textarea", "input"):
        return True
    return (el.get("role") or "").lower() in CLICK_ROLES or el.get("onclick") is not None


def _has_content(parts: list[str]) -> bool:
    return any(p.strip() for p in parts)


def _clean(text: str) -> str:
    return _WHITESPACE.sub(" ", text).strip()


def _escape(text: str) -> str:
    """Source whitespace is one space; page text that looks like markup must not read as a tag."""
    return _WHITESPACE.sub(" ", text).replace("<", "&lt;").replace(">", "&gt;")


def _attr(value: str) -> str:
    return value.replace('"', "&quot;")


_SPACE_AFTER_OPEN = re.compile(r"(<[a-z][a-z0-9]*(?: [^<>]*)?>) +")
_SPACE_BEFORE_CLOSE = re.compile(r" +(</[a-z][a-z0-9]*>)")


def _tidy(text: str) -> str:
    lines = (_SPACE_BEFORE_CLOSE.sub(r"\1", _SPACE_AFTER_OPEN.sub(r"\1", _clean(line))) for line in text.split("\n"))
    return "\n".join(line for line in lines if line)
