"""The direct backend: the embedded sites' WSGI apps called in-process, no browser.

Pages are parsed with lxml; links are followed and forms submitted the way a browser
without JavaScript would (lxml's form handling gives the successful controls). Typing,
checking and selecting change the parsed document in place, so the next observation
shows the new state and a later submit sends it. The fast path for RL on CPU.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from http.cookies import CookieError, SimpleCookie
from typing import Any
from urllib.parse import urldefrag, urlencode, urljoin, urlsplit

import lxml.html
from werkzeug.test import EnvironBuilder, run_wsgi_app

from ..actions import SCROLL_STEPS, TEXT_ACTIONS, Action, ActionName
from ..dom import evaluate_locator_on_html
from ..errors import InvalidActionError, SiteUnavailableError
from ..observation import (
    UI_SELECT,
    Element,
    PageObservation,
    observation_cache,
    parse_html,
    simplify_document,
)
from ..observation.cache import html_key
from ..sites.spec import SITE_MODULES, app_for, default_base_url
from ..sites.webapp import SITE_URLS_KEY, WORLD_KEY, default_login_cookies
from ..sites.world import World
from .base import NOTHING_FOCUSED, SiteMap
from .network_trace import NetworkTraceRecorder
from .page import EvaluationPage

logger = logging.getLogger(__name__)

MAX_REDIRECTS = 10
SUBMIT_TYPES = ("submit", "image")


class DirectBackend:
    """In-process browsing of the embedded sites for one env.

    Args:
        world: The env's world; every request of this backend reads and writes it.
        site_urls: Base URL per site (default: WebArena's ports on 127.0.0.1). Only
            used to route URLs to apps; nothing listens on them.
        apps: WSGI apps that serve a site instead of its embedded app, by site name
            (a site of one's own, or saved pages, browsed the same way).
    """

    name = "direct"

    def __init__(self, world: World, site_urls: dict[str, str] | None = None,
                 apps: Mapping[str, Callable[..., Any]] | None = None):
        self.world = world
        self._apps = dict(apps or {})
        self._sites = SiteMap(dict(site_urls or {name: default_base_url(name) for name in SITE_MODULES}))
        self._cookies: dict[str, str] = {}
        self._history: list[str] = []
        self._form_state: list[dict[str, tuple[str, str | None]]] = []  # per history entry
        self._position = -1
        self._edited: dict[str, tuple[str, str | None]] = {}  # xpath -> (kind, value) of fields the agent changed
        self._url = ""
        self._root: lxml.html.HtmlElement | None = None
        self._page: PageObservation | None = None
        self._page_html: str | None = None  # the HTML of the page as served, until an action changes it
        self._focused: str | None = None  # key of the field Press Enter submits
        self.network_trace = NetworkTraceRecorder()  # the episode's requests, as HAR entries

    # -- Backend protocol -------------------------------------------------------------
    @property
    def sites(self) -> SiteMap:
        return self._sites

    @property
    def url(self) -> str:
        return self._url

    def start(self, start_url: str, *, allowed_sites: tuple[str, ...], logged_in: tuple[str, ...] = (),
              storage_state: str | None = None) -> None:
        self._sites = self._sites.for_task(allowed_sites)
        self._cookies = dict(default_login_cookies(logged_in))
        self._history, self._form_state, self._position = [], [], -1
        self.network_trace.clear()
        self._navigate("GET", start_url, check=False)

    def observe(self) -> PageObservation:
        if self._page is None:
            if self._root is None:
                self._page = PageObservation(text="")
            elif self._page_html is not None:  # the page as served: shared with every env that saw the same HTML
                root = self._root
                self._page = observation_cache().get_or_compute(
                    html_key(self._page_html, "direct"), lambda: simplify_document(root))
            else:  # changed in place (typed, checked, selected): its own
                self._page = simplify_document(self._root)
        return self._page

    def execute(self, action: Action, element: Element | None) -> None:
        name = action.name
        if name in (ActionName.WAIT, ActionName.HOVER) or name in SCROLL_STEPS:
            return  # no scripts run here, so none changes the page (the env moves the scroll window)
        if name is ActionName.GO_BACKWARD:
            return self._go_history(-1)
        if name is ActionName.GO_FORWARD:
            return self._go_history(+1)
        if name is ActionName.PRESS_ENTER:
            return self._press_enter()
        node = self._node(element)
        if node.get("disabled") is not None:
            raise InvalidActionError(f"Element {element.id} is disabled.")
        if name is ActionName.CLICK:
            return self._click(node, element)
        if name in TEXT_ACTIONS:
            self._type(node, element, action.argument or "")
            if name is ActionName.SEARCH:
                self._press_enter()
            return
        if name is ActionName.SELECT_DROPDOWN_OPTION:
            return self._select(node, element, action.argument or "")
        raise InvalidActionError(f"{name} is not supported by the direct backend.")

    def evaluation_page(self) -> EvaluationPage:
        html = lxml.html.tostring(self._root, encoding="unicode") if self._root is not None else ""
        return _DirectEvaluationPage(self._url, html, self.world, self._sites.urls, self.fetch)

    def close(self) -> None:
        self._cookies.clear()
        self._root = self._page = self._page_html = None

    # -- requests ---------------------------------------------------------------------
    def fetch(self, method: str, url: str, data: list[tuple[str, str]] | None = None) -> tuple[str, int, str]:
        """Request ``url`` (following redirects); returns (final url, status, html)."""
        for _ in range(MAX_REDIRECTS):
            site = self._sites.site_of(url)
            if site is None:
                raise InvalidActionError(f"Navigation to {url} was blocked: it is not one of the embedded sites.")
            status, headers, body = self._call(site, method, url, data)
            location = headers.get("Location")
            if status in (301, 302, 303, 307, 308) and location:
                url = urljoin(url, location)
                if status in (301, 302, 303):
                    method, data = "GET", None
                continue
            return url, status, body
        raise InvalidActionError(f"Too many redirects from {url}.")

    def _call(self, site: str, method: str, url: str, data: list[tuple[str, str]] | None):
        parts = urlsplit(url)
        post_data = urlencode(data or []) if method == "POST" else None
        builder = EnvironBuilder(
            path=parts.path or "/",
            base_url=f"{parts.scheme}://{parts.netloc}",
            query_string=parts.query,
            method=method,
            data=post_data,
            content_type="application/x-www-form-urlencoded" if method == "POST" else None,
            headers=self._request_headers(),
        )
        environ = builder.get_environ()
        environ[WORLD_KEY] = self.world
        environ[SITE_URLS_KEY] = self._sites.urls
        try:
            with self.world.lock:
                app = self._apps.get(site) or app_for(site)
                app_iter, status, headers = run_wsgi_app(app, environ, buffered=True)
                body = b"".join(app_iter)
        except Exception as exc:  # a bug in an embedded site, not the agent's fault
            raise SiteUnavailableError(f"The embedded {site} site failed on {method} {url}: {exc!r}") from exc
        for header in headers.getlist("Set-Cookie"):
            self._store_cookie(header)
        code = int(status.split()[0])
        self.network_trace.record(method=method, url=url, request_headers=self._request_headers(),
                                  post_data=post_data, post_mime="application/x-www-form-urlencoded", status=code,
                                  status_text=status.partition(" ")[2], response_headers=list(headers.items()),
                                  body=body.decode("utf-8", errors="replace"))
        if code >= 500:
            logger.warning("Embedded site %s answered %s for %s %s", site, status, method, url)
        return code, headers, body.decode("utf-8", errors="replace")

    def _request_headers(self) -> dict[str, str]:
        """What a browser without scripts sends: it asks for HTML, names the page it leaves, and its cookies."""
        headers = {"Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"}
        if self._url:
            headers["Referer"] = self._url
        if self._cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self._cookies.items())
        return headers

    def _store_cookie(self, header: str) -> None:
        try:
            jar = SimpleCookie(header)
        except CookieError:
            return
        for name, morsel in jar.items():
            if morsel["max-age"] == "0" or "1970" in (morsel["expires"] or ""):
                self._cookies.pop(name, None)
            else:
                self._cookies[name] = morsel.value

    def _navigate(self, method: str, url: str, data: list[tuple[str, str]] | None = None, *, check: bool = True) -> None:
        url = urldefrag(url)[0]
        if check:
            self._sites.check_navigation(url)
        final_url, _status, html = self.fetch(method, url, data)
        self._remember_form_state()
        self._show(final_url, html)
        del self._history[self._position + 1 :]
        del self._form_state[self._position + 1 :]
        self._history.append(final_url)
        self._form_state.append({})
        self._position = len(self._history) - 1

    def _remember_form_state(self) -> None:
        if 0 <= self._position < len(self._form_state):
            self._form_state[self._position] = dict(self._edited)

    def _show(self, url: str, html: str) -> None:
        self._edited = {}
        self._url = url
        self._root = parse_html(html)
        self._page, self._page_html = None, html  # the HTML of the unchanged page: the observation cache's key
        self._focused = None

    def _go_history(self, step: int) -> None:
        target = self._position + step
        if not 0 <= target < len(self._history):
            raise InvalidActionError("There is no page to go " + ("back to." if step < 0 else "forward to."))
        final_url, _status, html = self.fetch("GET", self._history[target])
        self._remember_form_state()
        self._position = target
        self._show(final_url, html)
        self._restore_form_state(self._form_state[target])

    def _restore_form_state(self, state: dict[str, tuple[str, str | None]]) -> None:
        """Put back what the agent had typed, checked or selected, as browsers do on Back/Forward."""
        if self._root is None or not state:
            return
        tree = self._root.getroottree()
        for path, (kind, value) in state.items():
            found = tree.xpath(path)
            if not found:
                continue
            node = found[0]
            if kind == "text" and node.tag in ("input", "textarea"):
                self._set_text(node, value or "")
            elif kind == "checked" and node.tag == "input":
                if value is None:
                    node.attrib.pop("checked", None)
                else:
                    node.set("checked", "")
            elif kind == "selected" and node.tag == "select":
                for option in node.iter("option"):
                    option.attrib.pop("selected", None)
                    if _text(option) == value:
                        option.set("selected", "")
            self._edited[path] = (kind, value)
        self._page = self._page_html = None

    # -- page actions -----------------------------------------------------------------
    def _node(self, element: Element | None) -> lxml.html.HtmlElement:
        if element is None or self._root is None:
            raise InvalidActionError("This action needs an element of the current page.")
        found = self._root.getroottree().xpath(element.key)
        if not found:
            raise InvalidActionError(f"Element {element.id} is no longer on the page.")
        return found[0]

    def _click(self, node: lxml.html.HtmlElement, element: Element) -> None:
        tag = node.tag
        kind = (node.get("type") or "").lower()
        if tag == "a":
            href = (node.get("href") or "").strip()
            if not href or href.startswith("#"):
                return
            if href.lower().startswith(("javascript:", "mailto:", "tel:")):
                raise InvalidActionError(f"Element {element.id} is a link the direct backend cannot follow ({href}).")
            return self._navigate("GET", urljoin(self._url, href))
        if tag == "input" and kind in ("checkbox", "radio"):
            return self._toggle(node, kind)
        if tag == "summary":  # opens or closes its <details>, as a browser does without scripts
            details = node.getparent()
            if details.get("open") is None:
                details.set("open", "")
            else:
                del details.attrib["open"]
            self._page = self._page_html = None
            return None
        if (tag == "button" and kind in ("", "submit")) or (tag == "input" and kind in SUBMIT_TYPES):
            form = _form_of(node)
            if form is None:
                return
            return self._submit(form, node)
        if element.is_text_field() or tag == "select":
            self._focused = element.key
        # other clickables (type=button, ARIA roles) need scripts, which do not run here

    def _toggle(self, node: lxml.html.HtmlElement, kind: str) -> None:
        if kind == "checkbox":
            changed = [node]
            if node.get("checked") is None:
                node.set("checked", "")
            else:
                del node.attrib["checked"]
        else:
            form = _form_of(node)
            scope = form if form is not None else self._root
            changed = [i for i in scope.iter("input")
                       if (i.get("type") or "").lower() == "radio" and i.get("name") == node.get("name")]
            for other in changed:
                other.attrib.pop("checked", None)
            node.set("checked", "")
        tree = self._root.getroottree()
        for box in changed:
            self._edited[tree.getpath(box)] = ("checked", "" if box.get("checked") is not None else None)
        self._page = self._page_html = None

    def _type(self, node: lxml.html.HtmlElement, element: Element, text: str) -> None:
        self._set_text(node, text)
        self._edited[element.key] = ("text", text)
        self._focused = element.key
        self._page = self._page_html = None

    @staticmethod
    def _set_text(node: lxml.html.HtmlElement, text: str) -> None:
        if node.tag == "textarea":
            for child in list(node):
                node.remove(child)
            node.text = text
        else:
            node.set("value", text)

    def _select(self, node: lxml.html.HtmlElement, element: Element, option_text: str) -> None:
        """Select the option ``check_action`` matched (spelled as the observation shows it)."""
        if element.widget == UI_SELECT:
            raise InvalidActionError(
                f"Dropdown {element.id} is a scripted widget (Magento ui-select); choosing from it needs a browser "
                "(backend='playwright')."
            )
        options = list(node.iter("option"))
        chosen = next(o for o in options if _text(o) == option_text)
        for option in options:
            option.attrib.pop("selected", None)
        chosen.set("selected", "")
        self._edited[element.key] = ("selected", option_text)
        self._focused = element.key
        self._page = self._page_html = None

    def _press_enter(self) -> None:
        if self._focused is None or self._root is None:
            raise InvalidActionError(NOTHING_FOCUSED)
        node = self._root.getroottree().xpath(self._focused)[0]
        if node.tag == "textarea":
            node.text = (node.text or "") + "\n"
            self._page = self._page_html = None
            return
        form = _form_of(node)
        if form is None:
            raise InvalidActionError("The focused field is not in a form; Enter does nothing here.")
        default_button = next(
            (b for b in form.iter("button", "input") if (b.get("type") or ("submit" if b.tag == "button" else "")).lower() in SUBMIT_TYPES),
            None,
        )
        self._submit(form, default_button)

    def _submit(self, form: lxml.html.FormElement, button: lxml.html.HtmlElement | None) -> None:
        values = [(k, v if v is not None else "") for k, v in form.form_values()]
        if button is not None and button.get("name"):
            values.append((button.get("name"), button.get("value") or ""))
        method = (form.get("method") or "GET").upper()
        action = urljoin(self._url, form.get("action") or self._url)
        if method == "GET":
            base = urldefrag(action)[0].split("?")[0]
            self._navigate("GET", f"{base}?{urlencode(values)}" if values else base)
        else:
            self._navigate("POST", action, values)


def _form_of(node: lxml.html.HtmlElement) -> lxml.html.FormElement | None:
    form_id = node.get("form")
    if form_id:
        found = node.getroottree().getroot().get_element_by_id(form_id, None)
        if found is not None and found.tag == "form":
            return found
    for ancestor in node.iterancestors("form"):
        return ancestor
    return None


def _text(node: lxml.html.HtmlElement) -> str:
    return " ".join(node.text_content().split())


class _DirectEvaluationPage:
    """The direct backend's final page, as the evaluators see it.

    Args:
        url, html: The final page.
        world: The episode's world.
        site_urls: Base URL per site.
        fetch: The backend's :meth:`DirectBackend.fetch`, for program_html targets on other pages.
    """

    def __init__(self, url: str, html: str, world: World, site_urls: dict[str, str],
                 fetch: Callable[[str, str], tuple[str, int, str]]):
        self._url, self._html = url, html
        self._world, self._site_urls, self._fetch = world, site_urls, fetch

    @property
    def url(self) -> str:
        return self._url

    @property
    def world(self) -> World:
        return self._world

    @property
    def site_urls(self) -> dict[str, str]:
        return self._site_urls

    def goto(self, url: str) -> None:
        self._url, _status, self._html = self._fetch("GET", url)

    def content(self) -> str:
        return self._html

    def evaluate_locator(self, locator: str) -> str:
        return evaluate_locator_on_html(self._html, locator)
