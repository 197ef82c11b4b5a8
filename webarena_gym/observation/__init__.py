"""From page HTML to the text observation an agent reads.

:func:`simplify_html` is a pure, deterministic function: scripts, styles, comments and
hidden elements are dropped, decorative wrappers (div, span, section, ...) unwrapped,
headings, paragraphs, lists, tables, forms and labels kept with their text, and every
element the agent can act on and name (links, buttons, inputs, selects, textareas,
elements with a click role) numbered ``id="0..N"`` in reading order with a short
whitelist of attributes. Navigation regions come after the page's main content.
Both backends run it: the direct backend on the HTML the site returned, the Playwright
backend on the browser's DOM after :data:`ANNOTATE_DOM_JS` has copied live state
(typed values, checked boxes, computed visibility) into attributes.

The package follows the work: :mod:`.parsing` (lxml, or the HTML5 algorithm),
:mod:`.visibility`, :mod:`.naming` (what is numbered and its name), :mod:`.widgets`
(select2, ui-select), :mod:`.regions` (navigation ordering) and :mod:`.simplify` (the
walk that writes the text).

>>> page = simplify_html('<html><head><title>Shop</title><script>x()</script></head>'
...     '<body><nav><a href="/">Home</a></nav><div><h1>Hello</h1><a href="/a">Go</a> '
...     '<input placeholder="Search"></div></body></html>')
>>> print(page.text)
<title>Shop</title>
<h1>Hello</h1>
<a id="0">Go</a> <input id="1" type="text" placeholder="Search">
<nav><a id="2">Home</a></nav>
>>> page.elements[1].label
'Search'
"""

from __future__ import annotations

from .annotate import (
    ANNOTATE_DOM_JS,
    HIDDEN_ATTRIBUTE,
    INDEX_ATTRIBUTE,
    LIVE_CHECKED,
    LIVE_SELECTED,
    LIVE_VALUE,
    SCREEN_READER_ATTRIBUTE,
)
from .cache import ObservationCache, configure_observation_cache, observation_cache
from .model import DEFAULT_MAX_CHARS, DRIVEN_BY_WIDGET, UI_SELECT, Element, PageObservation, window_text
from .parsing import parse_html, parse_html5
from .simplify import simplify_document

__all__ = [
    "ANNOTATE_DOM_JS", "DEFAULT_MAX_CHARS", "DRIVEN_BY_WIDGET", "HIDDEN_ATTRIBUTE", "INDEX_ATTRIBUTE", "LIVE_CHECKED",
    "LIVE_SELECTED", "LIVE_VALUE", "SCREEN_READER_ATTRIBUTE", "UI_SELECT", "Element", "ObservationCache",
    "PageObservation", "configure_observation_cache", "observation_cache", "parse_html", "parse_html5",
    "simplify_document", "simplify_html", "window_text",
]


def simplify_html(html: str, *, well_formed: bool = False, order_navigation: bool = True) -> PageObservation:
    """Simplify page HTML into the observation text and its numbered elements.

    Args:
        html: The page's HTML.
        well_formed: The HTML is known to be well-formed (the embedded sites' pages):
            parse it with lxml's fast parser instead of the HTML5 algorithm.
        order_navigation: Put navigation regions after the main content (see
            :mod:`.regions`); False keeps document order.
    """
    root = parse_html(html) if well_formed else parse_html5(html)
    if root is None:
        return PageObservation(text="")
    return simplify_document(root, order_navigation=order_navigation)
