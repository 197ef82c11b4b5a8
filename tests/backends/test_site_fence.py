"""A Chromium context reaches only its task's sites, without intercepting a request.

Two real loopback sites count the requests they get: the task's own site, and another one
its page links to. A refused navigation must never reach the other site: the refusing proxy
stops it inside the browser. The task's pages load directly, with the browser's HTTP cache on.
"""

from __future__ import annotations

import collections
import socket

import pytest
from werkzeug.wrappers import Request, Response

from webarena_gym.actions import parse_action
from webarena_gym.backends.base import SiteMap, check_action
from webarena_gym.backends.playwright import PlaywrightBackend
from webarena_gym.errors import InvalidActionError

from .real_markup_site import serving_wsgi

pytestmark = pytest.mark.browser


def counting_site(hits: collections.Counter, links: dict[str, str] | None = None):
    """A site whose every page links to ``links`` (label: URL) and loads a stylesheet the browser may keep."""

    @Request.application
    def app(request: Request) -> Response:
        hits[request.path] += 1
        if request.path == "/style.css":
            return Response("body { margin: 0 }", mimetype="text/css", headers={"Cache-Control": "max-age=600"})
        anchors = "".join(f'<li><a href="{url}">{label}</a></li>' for label, url in (links or {}).items())
        return Response(f'<!DOCTYPE html><html><head><title>{request.path}</title><link rel="stylesheet" href="/style.css">'
                        f'</head><body><h1>Page {request.path}</h1><ul>{anchors}</ul></body></html>', mimetype="text/html")

    return app


@pytest.fixture()
def sites():
    """(task site URL, its hits, the other site's URL, its hits, a backend allowed only the task's site)."""
    other_hits, own_hits = collections.Counter(), collections.Counter()
    with socket.socket() as unanswered:  # a site that is down: its port is held, nothing listens
        unanswered.bind(("127.0.0.1", 0))
        down = f"http://127.0.0.1:{unanswered.getsockname()[1]}"
        with serving_wsgi(counting_site(other_hits), "other-site") as other:
            links = {"To the other site": f"{other}/elsewhere", "To the internet": "http://example.com/",
                     "To an address": "http://192.0.2.7/", "To the map": f"{down}/",
                     "To the admin": "/admin/orders", "Next page": "/two"}
            with serving_wsgi(counting_site(own_hits, links), "own-site") as own:
                backend = PlaywrightBackend(site_urls={"reddit": own, "shopping_admin": f"{own}/admin", "gitlab": other,
                                                       "map": down})
                try:
                    yield own, own_hits, other, other_hits, backend
                finally:
                    backend.close()


def click(backend: PlaywrightBackend, label: str) -> None:
    page = backend.observe()
    element = next(e for e in page.elements if e.text == label)
    action = parse_action(f'do(action="Click", element="{element.id}")')
    backend.execute(check_action(action, element), element)


def test_a_link_off_the_task_sites_is_refused_in_the_browser_and_the_page_stays(sites):
    own, own_hits, other, other_hits, backend = sites
    backend.start(f"{own}/one", allowed_sites=("reddit",))
    for label, url in (("To the other site", f"{other}/elsewhere"), ("To the internet", "http://example.com/"),
                       ("To an address", "http://192.0.2.7/")):
        with pytest.raises(InvalidActionError, match=f"Navigation to {url} was blocked: it is not one of this task's sites"):
            click(backend, label)
        assert backend.url == f"{own}/one" and "Page /one" in backend.observe().text
    assert other_hits == {}  # refused before it left the browser
    click(backend, "Next page")  # the task's own pages still load
    assert backend.url == f"{own}/two"


def test_a_site_at_an_allowed_sites_address_is_refused_once_its_page_commits(sites):
    own, own_hits, _, _, backend = sites
    backend.start(f"{own}/one", allowed_sites=("reddit",))
    with pytest.raises(InvalidActionError, match=f"Navigation to {own}/admin/orders was blocked"):
        click(backend, "To the admin")
    assert backend.url == f"{own}/one"
    backend.start(f"{own}/one", allowed_sites=("reddit", "shopping_admin"))  # the next task may go there
    click(backend, "To the admin")
    assert backend.url == f"{own}/admin/orders"


def test_an_allowed_site_that_is_down_is_not_called_off_site(sites):
    own, _, _, _, backend = sites
    backend.start(f"{own}/one", allowed_sites=("reddit", "map"))
    with pytest.raises(InvalidActionError) as refused:
        click(backend, "To the map")
    assert "ERR_CONNECTION_REFUSED" in str(refused.value) and "blocked" not in str(refused.value)


def test_nothing_stands_between_the_browser_and_the_task_sites(sites):
    """No request interception: the browser's HTTP cache works, so a stylesheet is fetched once."""
    own, own_hits, _, _, backend = sites
    backend.start(f"{own}/one", allowed_sites=("reddit",))
    click(backend, "Next page")
    assert own_hits["/style.css"] == 1 and own_hits["/one"] == own_hits["/two"] == 1


def test_a_refused_origin_is_not_one_of_the_direct_origins():
    sites = SiteMap({"reddit": "http://127.0.0.1:9999", "gitlab": "http://localhost:8023",
                     "homepage": "http://127.0.0.1:4399"}).for_task(["gitlab"])
    assert sites.direct_origins() == ("127.0.0.1:4399", "127.0.0.1:8023", "localhost:4399", "localhost:8023")
