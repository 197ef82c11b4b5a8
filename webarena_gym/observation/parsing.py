"""Parsing page HTML into lxml trees: libxml2's fast parser, or the HTML5 algorithm.

The embedded sites' pages (and Chromium's serialization of them) are well-formed, so
:func:`parse_html` reads them with lxml's libxml2 parser. HTML from anywhere else (saved
pages, the real sites' DOM) is read by :func:`parse_html5` with html5lib, which follows
the WHATWG parsing algorithm: misnested tags, stray table content and unclosed elements
end up where a browser puts them, so the tree matches what Chromium built. It costs more
(``benchmarks/observation_tokens.py`` measures how much). Both return ``lxml.html``
elements, so everything downstream (the simplifier, form handling, locators) is shared.

>>> stray = "<!DOCTYPE html><table><tr><td>$5</td></tr><p>Sold out</p></table>"
>>> lxml.html.tostring(parse_html5(stray).find("body"), encoding="unicode")
'<body><p>Sold out</p><table><tbody><tr><td>$5</td></tr></tbody></table></body>'
>>> lxml.html.tostring(parse_html(stray).find("body"), encoding="unicode")
'<body><table><tr><td>$5</td></tr><p>Sold out</p></table></body>'
"""

from __future__ import annotations

import logging
import re
import xml.etree.ElementTree as ElementTree

import html5lib
import lxml.html
from lxml import etree

logger = logging.getLogger(__name__)

#: Deeper elements are flattened into their ancestor at this depth: browsers render
#: them, but a tree that deep is an attack or a bug, and recursion must stay bounded.
MAX_DEPTH = 160

# Code points XML (hence lxml) cannot hold; a browser shows nothing for them either.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")
_HTML_PARSER = lxml.html.HTMLParser(recover=True, remove_comments=True, remove_pis=True)
_TAG = re.compile(r"<(/?)([A-Za-z][^\s/>]*)[^>]*>")
# Void elements, and elements a browser closes by itself: neither nests the next tag.
_NO_DEPTH = frozenset(
    "area base br col embed hr img input link meta source track wbr p li dt dd tr td th option optgroup "
    "thead tbody tfoot colgroup rb rt rp".split()
)


def parse_html(html: str) -> lxml.html.HtmlElement | None:
    """Parse well-formed page HTML with lxml's fast parser (None for an empty or unparseable page)."""
    if not html or not html.strip():
        return None
    try:
        return lxml.html.document_fromstring(_xml_safe(html))
    except (etree.ParserError, ValueError) as exc:
        logger.debug("Unparseable page: %s", exc)
        return None


def parse_html5(html: str) -> lxml.html.HtmlElement | None:
    """Parse page HTML as a browser does (WHATWG algorithm, html5lib) into an lxml.html tree.

    Returns None for an empty page. Comments, processing instructions and the doctype
    are dropped; SVG and MathML elements keep their local names (``svg``, ``title``);
    attributes whose names XML cannot hold (``@click``, ``:class``) are dropped.
    """
    if not html or not html.strip():
        return None
    source = html5lib.parse(_limit_depth(_xml_safe(html)), treebuilder="etree", namespaceHTMLElements=False)
    root = _HTML_PARSER.makeelement("html", _attributes(source))
    _copy_children(source, root)
    return root


def _limit_depth(html: str) -> str:
    """Drop the tags nested deeper than :data:`MAX_DEPTH` (their text stays).

    The HTML5 algorithm looks through the stack of open elements at every tag, so a page
    of 50,000 nested ``<div>`` takes it minutes; past the cap the tags carry no layout an
    agent could use. Elements that close implicitly (``<p>``, ``<li>``...) do not count.
    """
    depth = deepest = 0
    for match in _TAG.finditer(html):
        name = match.group(2).lower()
        if name in _NO_DEPTH or match.group(0).endswith("/>"):
            continue
        depth = max(0, depth - 1) if match.group(1) else depth + 1
        deepest = max(deepest, depth)
    if deepest <= MAX_DEPTH:
        return html
    kept: list[str] = []
    depth, last = 0, 0
    for match in _TAG.finditer(html):
        name = match.group(2).lower()
        if name in _NO_DEPTH or match.group(0).endswith("/>"):
            continue
        closing = bool(match.group(1))
        too_deep = (depth > MAX_DEPTH) if closing else (depth + 1 > MAX_DEPTH)
        depth = max(0, depth - 1) if closing else depth + 1
        if too_deep:
            kept.append(html[last:match.start()])
            last = match.end()
    kept.append(html[last:])
    return "".join(kept)


def _copy_children(source: ElementTree.Element, target: lxml.html.HtmlElement) -> None:
    """Copy html5lib's ElementTree into lxml (iteratively; depth is capped by :data:`MAX_DEPTH`)."""
    target.text = source.text
    stack = [(source, target, 1)]
    while stack:
        node, parent, depth = stack.pop()
        last = None  # the copied element whose tail takes the next text
        for child in node:
            tag = child.tag if isinstance(child.tag, str) and not child.tag.startswith("<") else None
            copied = None
            if tag is not None and depth < MAX_DEPTH:
                try:
                    copied = etree.SubElement(parent, tag.rsplit("}", 1)[-1].lower(), _attributes(child))
                except ValueError:  # a tag name XML cannot hold: its text is kept below
                    copied = None
            if copied is not None:
                copied.text = child.text
                stack.append((child, copied, depth + 1))
                last = copied
            elif tag is not None:  # too deep, or an unusable tag: flattened to its text
                _append_text(parent, last, "".join(child.itertext()))
            if child.tail:
                _append_text(parent, last, child.tail)


def _append_text(parent: lxml.html.HtmlElement, last: lxml.html.HtmlElement | None, text: str) -> None:
    if not text:
        return
    if last is None:
        parent.text = (parent.text or "") + text
    else:
        last.tail = (last.tail or "") + text


def _attributes(node: ElementTree.Element) -> dict[str, str]:
    kept: dict[str, str] = {}
    for name, value in node.attrib.items():
        local = name.rsplit("}", 1)[-1] if name.startswith("{") else name
        if _valid_name(local):
            kept[local] = value
    return kept


_NAME = re.compile(r"^[A-Za-z_][\w.\-]*$")


def _valid_name(name: str) -> bool:
    return bool(_NAME.match(name))


def _xml_safe(html: str) -> str:
    return _NOT_XML.sub("", html)
