"""The Playwright backend: real Chromium, for the real WebArena sites and the served embedded sites.

One browser per process, one browser context per env (its own cookies). For the
embedded suite the sites are served over real HTTP on loopback by one process-wide
:class:`~webarena_gym.sites.server.SiteServer`; each env's context carries a
``wa_world`` cookie naming its world. Requests to hosts that are not the task's sites
are blocked; a blocked navigation is an agent error, not a crash.

Playwright's sync API is bound to the thread that started it: use an env from one
thread (vector envs run each Playwright env on its own worker thread).
"""

from __future__ import annotations

import json
import logging
import threading
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from ..actions import Action
from ..errors import BrowserUnavailableError, InvalidActionError, SiteUnavailableError
from ..observation import ANNOTATE_DOM_JS, INDEX_ATTRIBUTE, Element, PageObservation, simplify_html
from ..sites.world import World
from .base import SiteMap
from .chromium import launch_chromium

logger = logging.getLogger(__name__)

ACTION_TIMEOUT_MS = 10_000
NAVIGATION_TIMEOUT_MS = 30_000


class _BrowserRuntime:
    """The per-thread Playwright driver and browser, started on first use."""

    _local = threading.local()

    @classmethod
    def browser(cls) -> Any:
        browser = getattr(cls._local, "browser", None)
        if browser is None or not browser.is_connected():
            from playwright.sync_api import sync_playwright

            try:
                cls._local.playwright = sync_playwright().start()
            except Exception as exc:
                raise BrowserUnavailableError(f"Playwright failed to start: {exc}") from exc
            cls._local.browser = launch_chromium(cls._local.playwright)
        return cls._local.browser

    @classmethod
    def shutdown(cls) -> None:
        browser = getattr(cls._local, "browser", None)
        if browser is not None:
            browser.close()
            cls._local.playwright.stop()
            cls._local.browser = cls._local.playwright = None


_server_lock = threading.Lock()
_embedded_server: Any = None


def embedded_server() -> Any:
    """The process-wide server of the embedded sites (ephemeral loopback ports)."""
    global _embedded_server
    with _server_lock:
        if _embedded_server is None:
            from ..sites.server import SiteServer

            _embedded_server = SiteServer(ephemeral=True).start()
        return _embedded_server


class PlaywrightBackend:
    """Browsing in a Chromium context of its own.

    Args:
        world: The env's world when running the embedded sites (None for the real sites).
        site_urls: Base URL per real site (default: the ``WA_*`` variables).
        storage_state_dir: Where the real sites' login states are (``<site>_state.json``,
            written by ``webarena-gym sites login``); default ``./.auth``.
    """

    name = "playwright"

    def __init__(self, world: World | None = None, site_urls: dict[str, str] | None = None,
                 storage_state_dir: str | Path = ".auth"):
        self.world = world
        self.storage_state_dir = Path(storage_state_dir)
        if world is not None:
            server = embedded_server()
            server.pool.add(world)
            urls = dict(server.base_urls)
        else:
            from ..tasks.official import site_urls_from_environment

            urls = dict(site_urls or site_urls_from_environment())
        self._sites = SiteMap(urls)
        self._context: Any = None
        self._page: Any = None
        self._blocked: list[str] = []

    @property
    def sites(self) -> SiteMap:
        return self._sites

    @property
    def url(self) -> str:
        return self._page.url if self._page is not None else ""

    def start(self, start_url: str, *, allowed_sites: tuple[str, ...], login: dict[str, str]) -> None:
        self._sites = self._sites.for_task(allowed_sites)
        if self._context is not None:
            self._context.close()
        browser = _BrowserRuntime.browser()
        self._context = browser.new_context(storage_state=self._storage_state(allowed_sites, login))
        self._context.set_default_timeout(ACTION_TIMEOUT_MS)
        self._context.set_default_navigation_timeout(NAVIGATION_TIMEOUT_MS)
        self._context.route("**/*", self._route)
        self._page = self._context.new_page()
        try:
            self._page.goto(start_url, wait_until="load")
        except Exception as exc:
            raise SiteUnavailableError(
                f"Could not open {start_url}: {exc}. Is the site up? For the real sites check the WA_* "
                "variables and `webarena-gym sites status`."
            ) from exc

    def _storage_state(self, sites: tuple[str, ...], login: dict[str, str]) -> dict[str, Any]:
        cookies: list[dict[str, Any]] = []
        origins: list[dict[str, Any]] = []
        if self.world is not None:
            from ..sites.webapp import WORLD_COOKIE, login_cookie

            host = urlsplit(next(iter(self._sites.urls.values()))).hostname
            cookies.append(_cookie(WORLD_COOKIE, self.world.token, host))
            for site, user in login.items():
                cookies.append(_cookie(*login_cookie(site, user), host))
        else:
            for site in sites:
                path = self.storage_state_dir / f"{site}_state.json"
                if login.get(site) is not None and path.exists():
                    state = json.loads(path.read_text())
                    cookies.extend(state.get("cookies", []))
                    origins.extend(state.get("origins", []))
        return {"cookies": cookies, "origins": origins}

    def _route(self, route: Any) -> None:
        request = route.request
        url = request.url
        if url.startswith(("data:", "blob:", "about:")) or self._sites.site_of(url) in (self._sites.allowed or self._sites.urls):
            route.continue_()
            return
        if request.is_navigation_request() and request.frame == self._page.main_frame:
            self._blocked.append(url)
        route.abort()

    def observe(self) -> PageObservation:
        try:
            self._page.wait_for_load_state("load", timeout=NAVIGATION_TIMEOUT_MS)
            self._page.evaluate(ANNOTATE_DOM_JS)
            html = self._page.content()
        except Exception as exc:
            if not self._page.context.browser.is_connected():
                raise BrowserUnavailableError(f"Chromium crashed: {exc}") from exc
            logger.warning("Reading the page failed (%s); retrying once", exc)
            self._page.wait_for_timeout(500)
            self._page.evaluate(ANNOTATE_DOM_JS)
            html = self._page.content()
        return simplify_html(html)

    def execute(self, action: Action, element: Element | None) -> None:
        self._blocked.clear()
        page = self._page
        try:
            self._perform(page, action, element)
            page.wait_for_load_state("load")
        except InvalidActionError:
            raise
        except Exception as exc:
            if not page.context.browser.is_connected():
                raise BrowserUnavailableError(f"Chromium crashed: {exc}") from exc
            message = str(exc).splitlines()[0]
            raise InvalidActionError(f"{action.name} failed: {message}") from None
        if self._blocked:
            raise InvalidActionError(
                f"Navigation to {self._blocked[0]} was blocked: it is not one of this task's sites."
            )

    def _perform(self, page: Any, action: Action, element: Element | None) -> None:
        name = action.name
        if name == "Wait":
            page.wait_for_timeout(1000)
        elif name == "Go Backward":
            if page.go_back(wait_until="load") is None:
                raise InvalidActionError("There is no page to go back to.")
        elif name == "Go Forward":
            if page.go_forward(wait_until="load") is None:
                raise InvalidActionError("There is no page to go forward to.")
        elif name == "Press Enter":
            page.keyboard.press("Enter")
        elif name in ("Scroll Down", "Scroll Up"):
            page.mouse.wheel(0, 600 if name == "Scroll Down" else -600)
        else:
            locator = page.locator(f"[{INDEX_ATTRIBUTE}='{element.key}']")
            if name == "Click":
                locator.click()
            elif name == "Hover":
                locator.hover()
            elif name in ("Type", "Search"):
                if not element.is_text_field():
                    raise InvalidActionError(
                        f"Element {element.id} is a {element.input_type}, not a text field; Type needs one."
                    )
                locator.fill(action.argument or "")
                if name == "Search":
                    locator.press("Enter")
            elif name == "Select Dropdown Option":
                if element.tag != "select":
                    raise InvalidActionError(f"Element {element.id} is a {element.input_type}, not a dropdown.")
                option = _match_option(element, action.argument or "")
                locator.select_option(label=option)

    def evaluation_page(self) -> Any:
        return _PlaywrightEvaluationPage(self)

    def close(self) -> None:
        if self._context is not None:
            try:
                self._context.close()
            except Exception:  # the browser may already be gone
                pass
            self._context = self._page = None
        if self.world is not None:
            embedded_server().pool.discard(self.world)


def _match_option(element: Element, wanted: str) -> str:
    for option in element.options:
        if option == wanted.strip():
            return option
    for option in element.options:
        if option.lower() == wanted.strip().lower():
            return option
    choices = ", ".join(repr(o) for o in element.options)
    raise InvalidActionError(f"Dropdown {element.id} has no option {wanted!r}; options: {choices}.")


def _cookie(name: str, value: str, host: str | None) -> dict[str, Any]:
    return {"name": name, "value": value, "domain": host or "127.0.0.1", "path": "/"}


class _PlaywrightEvaluationPage:
    """The final browser page, as the evaluators see it."""

    def __init__(self, backend: PlaywrightBackend):
        self._backend = backend
        self._page = backend._page

    @property
    def url(self) -> str:
        return self._page.url

    @property
    def world(self) -> World | None:
        return self._backend.world

    @property
    def site_urls(self) -> dict[str, str]:
        return self._backend.sites.urls

    def goto(self, url: str) -> None:
        self._page.goto(url, wait_until="load")

    def content(self) -> str:
        return self._page.content()

    def evaluate_locator(self, locator: str) -> str:
        try:
            value = self._page.evaluate(f"() => {{ return {locator}; }}")
        except Exception as exc:
            logger.info("Locator %r failed: %s", locator, exc)
            return ""
        return "" if value is None else str(value)
