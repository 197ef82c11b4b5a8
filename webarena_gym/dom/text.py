"""What a browser's DOM properties return, computed on lxml trees without a browser.

``inner_text`` follows the HTML standard's rendered-text algorithm for the markup
without stylesheets that our sites serve: elements that are not rendered (``script``,
``style``, ``head``..., the ``hidden`` attribute, inline ``display:none`` or
``visibility:hidden``) give nothing; block-level elements start and end a line and
paragraphs leave an empty line; ``<br>`` is a line break; table cells are separated by
tabs and rows by line breaks; runs of whitespace collapse to one space and vanish at
line edges (except inside ``<pre>`` and ``<textarea>``). Form controls contribute no
text. What it cannot know is CSS from stylesheets (a class that hides or floats
something), which our embedded sites never rely on.

The second half maps DOM property names (``firstElementChild``, ``selectedIndex``...) to
these computations for the locator interpreter (:mod:`.locators`).
"""

from __future__ import annotations

import re
from typing import Any

from lxml import etree, html

from .locator_syntax import UNDEFINED, Document, TextNode, UnsupportedLocatorError

_NOT_RENDERED = frozenset(
    "head script style template noscript title meta link base param source track datalist area".split()
)
_BLOCK = frozenset(
    "html body address article aside blockquote center details dialog dd div dl dt fieldset figcaption figure "
    "footer form h1 h2 h3 h4 h5 h6 header hgroup hr legend li main menu nav ol pre section summary table ul "
    "caption optgroup option select".split()
)
_NO_TEXT = frozenset("input textarea img video audio canvas iframe object embed svg meter progress".split())
_HIDDEN_STYLE = re.compile(r"(?:^|;)\s*(?:display\s*:\s*none|visibility\s*:\s*hidden)\b", re.IGNORECASE)

# private-use markers for the line structure while whitespace is being collapsed
_BREAK = "\ue000"  # followed by a digit: a required line break count
_NEWLINE = "\ue001"  # a literal line break (<br>, table rows, preserved newlines)
_TAB = "\ue002"  # a literal tab (between table cells)
_SPACE = "\ue003"  # a preserved space (inside <pre>)


def is_element(node: object) -> bool:
    """True for real elements (lxml also yields comments and processing instructions)."""
    return isinstance(node, etree.ElementBase) and isinstance(node.tag, str)


def element_children(node: html.HtmlElement) -> list[html.HtmlElement]:
    return [child for child in node if is_element(child)]


def _tag(node: html.HtmlElement) -> str:
    return node.tag.lower() if isinstance(node.tag, str) else ""


def is_hidden(node: html.HtmlElement) -> bool:
    """Whether the element itself is not rendered (its own tag or attributes say so)."""
    if _tag(node) in _NOT_RENDERED or node.get("hidden") is not None:
        return True
    if _tag(node) == "input" and (node.get("type") or "").lower() == "hidden":
        return True
    return bool(_HIDDEN_STYLE.search(node.get("style") or ""))


def is_rendered(node: html.HtmlElement) -> bool:
    """Whether the element and all its ancestors are rendered."""
    return not any(is_hidden(n) for n in [node, *node.iterancestors()])


def text_content(node: html.HtmlElement) -> str:
    """``node.textContent``: every descendant text, as written (hidden text included)."""
    return "".join(node.xpath(".//text()")) if is_element(node) else (node.text or "")


def _collect(node: html.HtmlElement, out: list[str], preserve: bool) -> None:
    tag = _tag(node)
    if is_hidden(node):
        return
    if tag == "br":
        out.append(_NEWLINE)
        return
    preserve = preserve or tag in ("pre", "textarea", "listing", "plaintext")
    marker = f"{_BREAK}2" if tag == "p" else f"{_BREAK}1" if tag in _BLOCK else ""
    out.append(marker)
    if tag == "details" and node.get("open") is None:
        # a closed disclosure shows only its summary
        summary = next((c for c in node if _tag(c) == "summary"), None)
        if summary is not None:
            _collect(summary, out, preserve)
    elif tag not in _NO_TEXT:
        _text(node.text, out, preserve)
        for child in node:
            if is_element(child):
                _collect(child, out, preserve)
            _text(child.tail, out, preserve)
    if tag in ("td", "th") and any(_tag(s) in ("td", "th") for s in node.itersiblings()):
        out.append(_TAB)
    if tag == "tr":
        table = next(node.iterancestors("table"), None)
        rows = list(table.iter("tr")) if table is not None else []
        if rows and rows[-1] is not node:
            out.append(_NEWLINE)
    out.append(marker)


def _text(text: str | None, out: list[str], preserve: bool) -> None:
    if not text:
        return
    if preserve:
        out.append(
            text.replace("\r\n", "\n").replace("\n", _NEWLINE).replace(" ", _SPACE).replace("\t", _TAB)
        )
    else:
        out.append(re.sub(r"[ \t\n\r\f]+", " ", text))


def _render(pieces: list[str]) -> str:
    text = "".join(pieces)
    # spaces vanish next to line structure, and runs of spaces collapse
    text = re.sub(rf" *({_BREAK}\d|{_NEWLINE}|{_TAB}) *", r"\1", text)
    text = re.sub(r" {2,}", " ", text).strip(" ")
    # runs of required line breaks: the largest count wins; none at the very start or end
    text = re.sub(rf"^(?:{_BREAK}\d)+|(?:{_BREAK}\d)+$", "", text)
    text = re.sub(rf"(?:{_BREAK}\d)+", lambda m: "\n" * max(int(c) for c in m.group()[1::2]), text)
    return text.replace(_NEWLINE, "\n").replace(_TAB, "\t").replace(_SPACE, " ")


def inner_text(node: html.HtmlElement) -> str:
    """``node.innerText`` (also ``outerText``'s getter) as a browser would render it.

    >>> doc = html.fromstring("<div><h1> Title </h1><p>One <b>bold</b>\\n word.</p><p>Two</p>"
    ...                       "<span hidden>secret</span><table><tr><td>a</td><td>b</td></tr><tr><td>c</td></tr></table></div>")
    >>> inner_text(doc)
    'Title\\n\\nOne bold word.\\n\\nTwo\\n\\na\\tb\\nc'
    """
    if not is_element(node):
        return node.text or ""
    if not is_rendered(node):
        return text_content(node)
    pieces: list[str] = []
    preserve = any(
        _tag(a) in ("pre", "textarea", "listing", "plaintext") for a in [node, *node.iterancestors()]
    )
    # the standard collects the element's children: its own line breaks or cell tab do not count
    children = list(node)
    if _tag(node) == "details" and node.get("open") is None:
        children = [c for c in children if _tag(c) == "summary"][:1]
    else:
        _text(node.text, pieces, preserve)
    for child in children:
        if is_element(child):
            _collect(child, pieces, preserve)
        if _tag(node) != "details" or node.get("open") is not None:
            _text(child.tail, pieces, preserve)
    return _render(pieces)


def options_of(select: html.HtmlElement) -> list[html.HtmlElement]:
    return [o for o in select.iter("option")]


def _option_value(option: html.HtmlElement) -> str:
    value = option.get("value")
    return value if value is not None else " ".join(text_content(option).split())


def selected_index(node: html.HtmlElement) -> int | None:
    """``select.selectedIndex``: the first selected option, else 0 for a drop-down (-1 if empty)."""
    if _tag(node) != "select":
        return None
    options = options_of(node)
    for index, option in enumerate(options):
        if option.get("selected") is not None:
            return index
    if node.get("multiple") is not None or not options:
        return -1
    return 0


def form_value(node: html.HtmlElement) -> str | None:
    """``node.value`` for form controls (None where the property does not exist)."""
    tag = _tag(node)
    if tag == "input":
        value = node.get("value")
        if value is None and (node.get("type") or "").lower() in ("checkbox", "radio"):
            return "on"
        return value or ""
    if tag == "textarea":
        text = text_content(node)
        return text[1:] if text.startswith("\n") else text
    if tag == "select":
        index = selected_index(node)
        options = options_of(node)
        return _option_value(options[index]) if index is not None and 0 <= index < len(options) else ""
    if tag == "option":
        return _option_value(node)
    if tag in ("button", "output", "data", "param"):
        return node.get("value") or ""
    return None


def is_checked(node: html.HtmlElement) -> bool:
    return _tag(node) == "input" and node.get("checked") is not None


# ------------------------------------------------------------------ DOM properties for locators


def _child_nodes(element: Any) -> list[Any]:
    """DOM child nodes: text runs and elements (comments left out, like most code expects)."""
    nodes: list[Any] = []
    if element.text:
        nodes.append(TextNode(element.text, element))
    for child in element:
        if is_element(child):
            nodes.append(child)
        if child.tail:
            nodes.append(TextNode(child.tail, element))
    return nodes


_REFLECTED_ATTRIBUTES = {
    "id": "id",
    "className": "class",
    "title": "title",
    "name": "name",
    "href": "href",
    "src": "src",
    "alt": "alt",
    "placeholder": "placeholder",
    "type": "type",
    "dateTime": "datetime",
    "htmlFor": "for",
    "rel": "rel",
    "target": "target",
    "lang": "lang",
    "action": "action",
    "method": "method",
}


def document_property(document: Document, name: str) -> Any:
    root = document.root
    if name == "body":
        return root.find("body")
    if name == "head":
        return root.find("head")
    if name == "documentElement":
        return root
    if name == "title":
        title = root.find(".//title")
        return " ".join(text_content(title).split()) if title is not None else ""
    raise UnsupportedLocatorError(f"document.{name}")


def element_property(element: Any, name: str) -> Any:
    if name in ("outerText", "innerText"):
        return inner_text(element)
    if name == "textContent":
        return text_content(element)
    if name == "value":
        value = form_value(element)
        return UNDEFINED if value is None else value
    if name == "selectedIndex":
        index = selected_index(element)
        return UNDEFINED if index is None else index
    if name == "checked":
        return is_checked(element)
    if name == "disabled":
        return element.get("disabled") is not None
    if name in _REFLECTED_ATTRIBUTES:
        return element.get(_REFLECTED_ATTRIBUTES[name]) or ""
    if name in ("tagName", "nodeName"):
        return element.tag.upper()
    if name == "children":
        return element_children(element)
    if name == "childElementCount":
        return len(element_children(element))
    if name == "childNodes":
        return _child_nodes(element)
    if name in ("firstElementChild", "lastElementChild"):
        children = element_children(element)
        return (children[0] if name.startswith("first") else children[-1]) if children else None
    if name in ("firstChild", "lastChild"):
        nodes = _child_nodes(element)
        return (nodes[0] if name == "firstChild" else nodes[-1]) if nodes else None
    if name in ("parentElement", "parentNode"):
        return element.getparent()
    if name in ("nextElementSibling", "previousElementSibling"):
        siblings = element.itersiblings(preceding=name.startswith("previous"))
        return next((s for s in siblings if is_element(s)), None)
    if name == "options":
        return options_of(element)
    if name == "innerHTML":
        return (element.text or "") + "".join(
            etree.tostring(c, encoding="unicode", method="html") for c in element
        )
    if name == "outerHTML":
        return etree.tostring(element, encoding="unicode", method="html", with_tail=False)
    raise UnsupportedLocatorError(f"element property {name}")
