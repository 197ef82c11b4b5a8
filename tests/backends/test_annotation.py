"""What Chromium's snapshot marks, and what it leaves on the live page; the navigation check beside the action.

One page with each visibility case (a ``display: none`` subtree, ``visibility: hidden`` with a
visible child, a closed ``<details>``, text placed off the page, screen-reader text, an SVG icon,
typed values) is served over loopback HTTP and read through the Playwright backend.
"""

from __future__ import annotations

import logging

import pytest
from lxml import html as lxml_html
from werkzeug.wrappers import Request, Response

from webarena_gym.actions import parse_action
from webarena_gym.backends.base import check_action
from webarena_gym.observation import (
    HIDDEN_ATTRIBUTE,
    INDEX_ATTRIBUTE,
    LIVE_CHECKED,
    LIVE_SELECTED,
    LIVE_VALUE,
)
from webarena_gym.observation.annotate import SCREEN_READER_ATTRIBUTE

from .real_markup_site import serving_wsgi

pytestmark = pytest.mark.browser

SITE = "reddit"  # any site name: the loopback site stands in for it

CASES = """<!DOCTYPE html><html><head><title>Cases</title><style>
.sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
.away { position: absolute; left: -9999px; }
</style><script>window.ready = true;</script></head><body>
<h1>Visibility cases</h1>
<div id="gone" style="display: none"><p id="gone-child">Never shown</p><span style="display: contents">Nor this</span></div>
<div id="veiled" style="visibility: hidden">Veiled <span id="unveiled" style="visibility: visible">Unveiled</span></div>
<details><summary>More</summary><p id="folded">Folded text</p></details>
<p id="away" class="away">Skip to content</p>
<a id="icon" href="/cases"><svg viewBox="0 0 8 8"><title>Home</title><path d="M0 0h8v8z"></path></svg><span class="sr">Home page</span></a>
<div class="admin__action-multiselect-wrap"><ul id="kept" style="display: none"><li id="kept-child">Kept option</li>
<li style="display: contents">Contents item</li></ul></div>
<form action="/cases"><input id="name" name="name" value="default"><input id="agree" type="checkbox">
<select id="size"><option>Small</option><option>Large</option></select><textarea id="note"></textarea>
<button id="plain" type="button" onclick="this.textContent = 'Pressed'">Press</button>
<button id="submit">Send</button></form>
<a id="next" href="/next">Next page</a>
</body></html>"""

LINKS = """<!DOCTYPE html><html><head><title>Links</title></head><body>
<a href="/next">Leaves</a> <a href="#top">Fragment</a> <a href="javascript:void(0)">Scripted</a>
<a href="/next" target="_blank">New tab</a> <a href="">Reload</a>
<table><tr title="http://127.0.0.1/admin/order/view/order_id/7/"><td>Order 7</td><td>Pending</td></tr></table>
<form action="/next"><input name="q" aria-label="Query"><button>Go</button></form>
</body></html>"""


@Request.application
def cases_app(request: Request) -> Response:
    if request.path == "/links":
        return Response(LINKS, mimetype="text/html")
    if request.path == "/next":
        return Response("<!DOCTYPE html><html><head><title>Next</title></head><body><h1>The next page</h1></body></html>",
                        mimetype="text/html")
    return Response(CASES, mimetype="text/html")


@pytest.fixture(scope="module")
def backend():
    from webarena_gym.backends.playwright import PlaywrightBackend

    with serving_wsgi(cases_app, "annotation-cases") as base_url:
        backend = PlaywrightBackend(site_urls={SITE: base_url})
        backend.start(f"{base_url}/cases", allowed_sites=(SITE,))
        backend.base_url = base_url
        yield backend
        backend.close()


def snapshot(backend) -> lxml_html.HtmlElement:
    backend.start(f"{backend.base_url}/cases", allowed_sites=(SITE,))
    page = backend._page
    backend._run(page.fill("#name", "typed"))
    backend._run(page.check("#agree"))
    backend._run(page.select_option("#size", "Large"))
    return lxml_html.fromstring(backend._run(backend._snapshot()))


def by_id(tree: lxml_html.HtmlElement, element_id: str):
    found = tree.xpath(f"//*[@id='{element_id}']")
    return found[0] if found else None


def test_the_copy_drops_what_is_not_shown_and_marks_what_only_the_live_page_knows(backend):
    tree = snapshot(backend)
    assert by_id(tree, "gone") is None and by_id(tree, "gone-child") is None  # a display: none subtree
    assert by_id(tree, "veiled") is None  # visibility: hidden goes, with its visible child (as before)
    assert by_id(tree, "folded") is None  # inside a closed <details>
    assert by_id(tree, "away") is None  # placed entirely left of the page
    assert tree.xpath("//script | //style") == []
    assert by_id(tree, "icon").xpath(".//span")[0].get(SCREEN_READER_ATTRIBUTE) == "1"
    assert [child.tag for child in by_id(tree, "icon").xpath(".//svg/*")] == ["title"]
    # a hidden list in a multiselect wrap stays, marked; inside it every element is hidden too,
    # a display: contents one included (it has no box of its own in a subtree without boxes)
    kept = by_id(tree, "kept")
    assert kept.get(HIDDEN_ATTRIBUTE) == "1" and [li.get(HIDDEN_ATTRIBUTE) for li in kept] == ["1", "1"]
    assert by_id(tree, "name").get(LIVE_VALUE) == "typed" and by_id(tree, "name").get("value") == "default"
    assert by_id(tree, "agree").get(LIVE_CHECKED) == "1"
    assert [o.get(LIVE_SELECTED) for o in by_id(tree, "size")] == ["0", "1"]
    assert by_id(tree, "note").get(LIVE_VALUE) == ""
    assert by_id(tree, "unveiled") is None


def test_the_live_page_gets_only_each_elements_position(backend):
    snapshot(backend)
    live = backend._run(backend._page.evaluate(f"""() => {{
      const all = [...document.getElementsByTagName('*')];
      return {{
        numbered: all.every((el, i) => el.getAttribute('{INDEX_ATTRIBUTE}') === String(i)),
        marked: document.querySelectorAll('[{HIDDEN_ATTRIBUTE}], [{SCREEN_READER_ATTRIBUTE}], [{LIVE_VALUE}], '
                                          + '[{LIVE_CHECKED}], [{LIVE_SELECTED}]').length,
      }};
    }}"""))
    assert live == {"numbered": True, "marked": 0}


def test_a_second_snapshot_renumbers_after_the_page_changed(backend):
    first = snapshot(backend)
    backend._run(backend._page.evaluate("document.body.prepend(document.createElement('hr'))"))
    second = lxml_html.fromstring(backend._run(backend._snapshot()))
    key = INDEX_ATTRIBUTE
    assert int(by_id(second, "next").get(key)) == int(by_id(first, "next").get(key)) + 1


def act(backend, label: str, action: str = "Click"):
    page = backend.observe()
    element = next(e for e in page.elements if e.label == label)
    parsed = parse_action(f'do(action="{action}", element="{element.id}")')
    backend.execute(check_action(parsed, element), element)
    return backend.observe()


def test_the_navigation_check_beside_the_action_waits_only_for_a_page_that_comes(backend, caplog):
    backend.start(f"{backend.base_url}/cases", allowed_sites=(SITE,))
    with caplog.at_level(logging.DEBUG, logger="webarena_gym.backends.playwright"):
        pressed = act(backend, "Press")  # no navigation: the waiter is let go, not timed out
        assert "Pressed" in pressed.text and backend.url.endswith("/cases")
        arrived = act(backend, "Next page")  # a link: the step returns on the loaded next page
        assert "The next page" in arrived.text and backend.url.endswith("/next")
    assert "did not navigate" not in caplog.text



def marked_navigations(backend, url: str) -> dict[str, bool]:
    """Each numbered element's label and ``navigates`` on the page at ``url``, after checking that the
    page's own check (what a click would otherwise ask) agrees wherever the snapshot says it navigates."""
    from webarena_gym.backends.playwright import WILL_NAVIGATE_JS, _element_selector

    backend.start(url, allowed_sites=(SITE,))
    page = backend.observe()
    for element in page.elements:
        if element.navigates:
            asked = backend._run(backend._page.evaluate(WILL_NAVIGATE_JS, [_element_selector(element), "Click"]))
            assert asked, f"{url}: element {element.id} ({element.tag} {element.label!r}) is marked navigates"
    return {element.label: element.navigates for element in page.elements}


def test_the_snapshot_says_a_click_navigates_only_where_the_page_itself_does(backend):
    """A click on an element the snapshot marks ``navigates`` is not asked about in the page (no
    round trip beside the action); each such element is one the page's own check says navigates."""
    assert marked_navigations(backend, f"{backend.base_url}/links") == {
        "Leaves": True, "Scripted": False, "New tab": False, "Reload": True,  # ("#top" is not numbered)
        "http://127.0.0.1/admin/order/view/order_id/7/": True,  # a grid's row, named by its address
        "Query": False, "Go": False,  # a submit button: the page is asked
    }


def test_on_the_real_markup_fixtures_every_link_marked_navigates_is_one_the_page_follows():
    from webarena_gym.backends.playwright import PlaywrightBackend

    from .real_markup_site import PAGES, served

    with served() as base_url:
        backend = PlaywrightBackend(site_urls={SITE: base_url})
        try:
            marked = sum(sum(marked_navigations(backend, f"{base_url}/{page.stem}").values())
                         for page in sorted(PAGES.glob("*.html")))
        finally:
            backend.close()
    assert marked > 100  # the fixtures' links were read, not skipped
