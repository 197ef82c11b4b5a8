"""The Playwright backend: real Chromium, for the real WebArena sites and the served embedded sites.

One browser per process, one browser context per env (its own cookies). For the
embedded suite the sites are served over real HTTP on loopback by one process-wide
:class:`~webarena_gym.sites.server.SiteServer`; each env's context carries a
``wa_world`` cookie naming its world. The context reaches only the task's sites: every
other request goes to a proxy that refuses it (:mod:`.refusing_proxy`), with no per-request
interception; a page of another site (refused, or one sharing an allowed site's address) is
an agent error, not a crash, and the page goes back to where it was.

Playwright runs on one background event loop (:class:`BrowserLoop`) with its async API,
so envs may be used from any thread, and envs stepped from several threads (a vector
env) share one browser and run concurrently. The browser may run elsewhere: a
Playwright browser server or a CDP endpoint (``browser_endpoint`` / ``WA_BROWSER_WS``,
see :mod:`.chromium`); the browser must then reach the task's sites itself (the real
sites by their ``WA_*`` URLs; the embedded sites are served on this machine's loopback).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ..actions import SCROLL_STEPS, TEXT_ACTIONS, Action, ActionName
from ..errors import BrowserUnavailableError, InvalidActionError, SiteUnavailableError
from ..observation import (
    ANNOTATE_DOM_JS,
    DRIVEN_BY_WIDGET,
    INDEX_ATTRIBUTE,
    UI_SELECT,
    Element,
    PageObservation,
    observation_cache,
)
from ..sites.world import World
from ..tasks.task import Task
from .base import NOTHING_FOCUSED, SiteMap
from .browser_loop import BrowserLoop
from .chromium import browser_endpoint as _resolve_endpoint
from .network_trace import NetworkTraceRecorder
from .page import EvaluationPage
from .playwright_sites import EmbeddedSites, PlaywrightSites, RealSites, start_page_error
from .refusing_proxy import refusing_proxy_server, was_refused

logger = logging.getLogger(__name__)

ACTION_TIMEOUT_MS = 10_000
NAVIGATION_TIMEOUT_MS = 30_000
# How long an action that should navigate (a link, a form submission) waits for the new page.
EXPECTED_NAVIGATION_MS = 5_000
#: The address of the error page Chromium commits for a navigation that failed (one the refusing
#: proxy stopped, or one to a site that is down).
ERROR_PAGE_URL = "chrome-error://chromewebdata/"

#: The actions that may make the page navigate, which :data:`WILL_NAVIGATE_JS` is asked about
#: (unless the snapshot already says: a click on an element that ``navigates``).
NAVIGATING_ACTIONS = frozenset({ActionName.CLICK, ActionName.PRESS_ENTER, ActionName.SEARCH})

# Whether an action on the element matching ``selector`` (or the focused element when
# ``selector`` is null) will make the page navigate: following a link, submitting a form, or
# opening a grid row (a numbered ``<tr>``, see :func:`webarena_gym.observation.naming.is_row_link`).
# Key presses and clicks return before a navigation they trigger starts, so the backend
# must know to wait.
WILL_NAVIGATE_JS = """([selector, action]) => {
  const target = selector ? document.querySelector(selector) : document.activeElement;
  if (!target) return false;
  const link = target.closest && target.closest('a[href]');
  if (link && action !== 'Search') {
    const href = link.getAttribute('href') || '';
    return !href.startsWith('#') && !href.startsWith('javascript:') && link.target !== '_blank';
  }
  if (action === 'Click' && target.tagName === 'TR') return true;  // a numbered row: its grid script opens it
  if (!target.form) return false;
  const tag = target.tagName.toLowerCase();
  const type = (target.getAttribute('type') || (tag === 'button' ? 'submit' : 'text')).toLowerCase();
  if (action === 'Click') return (tag === 'button' || tag === 'input') && (type === 'submit' || type === 'image');
  return tag === 'input' && !['checkbox', 'radio', 'button', 'reset', 'file'].includes(type);
}"""


# Whether an element other than the page itself has the keyboard focus (what Press Enter acts on).
HAS_FOCUS_JS = """() => {
  const focused = document.activeElement;
  return !!focused && focused !== document.body && focused !== document.documentElement;
}"""


# Choose an option of a Magento ui-select: open it, click the item with that label, and
# press its Done button when it has one (multi-selects). Returns whether the item was found.
CHOOSE_UI_SELECT_OPTION_JS = """(wrap, label) => {
  const clean = (s) => (s || '').replace(/\\s+/g, ' ').trim();
  const toggle = wrap.querySelector('[data-role="advanced-select"]');
  const menu = wrap.querySelector('.action-menu');
  if (toggle && menu && !menu.classList.contains('_active')) toggle.click();
  for (const item of wrap.querySelectorAll('.admin__action-multiselect-menu-inner-item')) {
    const entry = item.querySelector('.action-menu-item');
    const name = entry && entry.querySelector('.admin__action-multiselect-label');
    if (!entry || clean((name || entry).textContent) !== label) continue;
    entry.click();
    const done = wrap.querySelector('[data-action="close-advanced-select"]');
    if (done && menu && menu.classList.contains('_active')) done.click();
    return true;
  }
  return false;
}"""


class PlaywrightBackend:
    """Browsing in a Chromium context of its own.

    Args:
        world: The env's world when running the embedded sites (None for the real sites).
        site_urls: Base URL per real site (default: the ``WA_*`` variables).
        storage_state_dir: Where the real sites' login states are (``<site>_state.json``,
            written by ``webarena-gym sites login``); default ``$WA_AUTH_DIR`` or ``./.auth``.
        step_timeout: Seconds one backend call may take before the page counts as hung.
        browser_endpoint: A remote browser to use (default: ``$WA_BROWSER_WS``, else launch Chromium here).
        leases: A lease service for the real sites' replicas (default: ``$WA_LEASES``; see
            :mod:`.site_leases`): each episode then browses replicas of its own.
        record_network: Record each episode's requests in :attr:`network_trace` (HAR entries).
            The env asks for it where an evaluator reads it (``suite="webarena-verified"``) and
            not elsewhere: reading every request back from the browser costs time in each step.
    """

    name = "playwright"

    def __init__(self, world: World | None = None, site_urls: dict[str, str] | None = None,
                 storage_state_dir: str | Path | None = None, step_timeout: float = 60.0,
                 browser_endpoint: str | None = None, leases: str | None = None, record_network: bool = True):
        self.browser_endpoint = _resolve_endpoint(browser_endpoint)
        self.record_network = record_network
        self.step_timeout = step_timeout
        self.browsed_sites: PlaywrightSites = (
            EmbeddedSites(world) if world is not None else RealSites(site_urls, storage_state_dir, leases)
        )
        self._sites = SiteMap(self.browsed_sites.urls)
        self._browser = BrowserLoop.get(self.browser_endpoint)
        self._context: Any = None
        self._page: Any = None
        self._blocked: list[str] = []
        self._hung = False  # a page that stopped responding: the next start replaces the context
        self._direct: tuple[str, ...] = ()  # the origins the context reaches without the refusing proxy
        self.network_trace = NetworkTraceRecorder()  # the episode's requests, as HAR entries

    @property
    def world(self) -> World | None:
        """The env's world on the embedded sites, None on the real sites."""
        return self.browsed_sites.world

    @property
    def sites(self) -> SiteMap:
        return self._sites

    def begin_episode(self, task: Task) -> Task:
        """The task as this episode runs it (on leased replicas of the real sites, with a lease service)."""
        return self.browsed_sites.begin_episode(task)

    def end_episode(self) -> None:
        """Return what :meth:`begin_episode` leased."""
        self.browsed_sites.end_episode()

    @property
    def episode_info(self) -> dict[str, Any]:
        """Which replicas serve the episode (empty without leases)."""
        return self.browsed_sites.episode_info

    @property
    def url(self) -> str:
        return self._page.url if self._page is not None else ""

    def _run(self, coro: Any) -> Any:
        try:
            return self._browser.run(coro, timeout=self.step_timeout)
        except concurrent.futures.TimeoutError:
            raise _PageTimeoutError(f"The page did not respond within {self.step_timeout:g} s.") from None

    def start(self, start_url: str, *, allowed_sites: tuple[str, ...], logged_in: tuple[str, ...] = (),
              storage_state: str | None = None) -> None:
        self._sites = SiteMap(self.browsed_sites.urls).for_task(allowed_sites)  # leased replicas move per episode
        if not self._browser.connected():
            self._browser = BrowserLoop.get(self.browser_endpoint)
        state = self.browsed_sites.storage_state(logged_in, storage_state)
        try:
            self._run(self._start(start_url, state))
        except InvalidActionError as exc:
            raise SiteUnavailableError(f"Could not open {start_url}: {exc}") from exc

    async def _start(self, start_url: str, state: dict[str, Any]) -> None:
        """A clean session: the env's context is kept when it is healthy, the state is cookies
        only (the embedded sites) and it reaches the same sites, else recreated; a new page
        either way, so no history leaks from one episode into the next."""
        direct = self._sites.direct_origins()
        if self._context is not None and (self._hung or state.get("origins") or direct != self._direct):
            await self._close_context()  # closing the context also ends a hung renderer
        if self._context is not None:
            try:
                await self._page.close()
                await self._context.clear_cookies()
                await self._context.add_cookies(state["cookies"])
                self._page = await self._new_page()
            except Exception as exc:  # a crashed context: replaced below
                logger.info("Replacing a broken browser context: %s", exc)
                self._context = None
        if self._context is None:
            self._context = await self._browser.browser.new_context(
                storage_state=state, proxy={"server": refusing_proxy_server(), "bypass": ",".join(direct)})
            self._direct = direct
            self._context.set_default_timeout(ACTION_TIMEOUT_MS)
            self._context.set_default_navigation_timeout(NAVIGATION_TIMEOUT_MS)
            if self.record_network:
                self.network_trace.attach(self._context)
            self._page = await self._new_page()
        await self.network_trace.settle()  # the last episode's late entries, then none of them
        self.network_trace.clear()
        try:
            response = await self._page.goto(start_url, wait_until="load")
        except Exception as exc:
            raise SiteUnavailableError(
                f"Could not open {start_url}: {exc}. Is the site up? For the real sites check the WA_* "
                "variables and `webarena-gym sites status`."
            ) from exc
        if response is not None and response.status >= 400:  # an episode on an error page is no episode
            raise SiteUnavailableError(start_page_error(start_url, response.url, response.status,
                                                        response.status_text, self._sites.site_of(start_url)))

    async def _close_context(self) -> None:
        context, self._context, self._page = self._context, None, None
        self._hung = False
        try:
            await context.close()
        except Exception as exc:  # already gone with a crashed browser
            logger.debug("Closing a context failed: %s", exc)

    async def _new_page(self) -> Any:
        """A page of the context that reports its refused navigations to :meth:`_on_request_failed`."""
        page = await self._context.new_page()
        page.on("requestfailed", self._on_request_failed)
        return page

    def _on_request_failed(self, request: Any) -> None:
        """A navigation of the page the refusing proxy stopped: the action that led there is refused."""
        page = self._page
        if page is not None and request.frame == page.main_frame and request.is_navigation_request() \
                and was_refused(request.failure):
            self._blocked.append(request.url)

    def observe(self) -> PageObservation:
        try:
            # the embedded sites' pages are well-formed: lxml's fast parser reads them as the
            # browser did; anything else is parsed with the HTML5 algorithm, as browsers do
            # (through the process-wide cache: the same annotated page gives the same observation)
            return observation_cache().simplify(self._run(self._snapshot()), well_formed=self.browsed_sites.well_formed)
        except _PageTimeoutError:  # even reading the page hangs: like a crash, the episode ends
            self._hung = True
            raise BrowserUnavailableError(
                f"The page stopped responding (no snapshot within {self.step_timeout:g} s)."
            ) from None

    async def _snapshot(self) -> str:
        page = self._page
        for attempt in range(3):
            try:
                return await page.evaluate(ANNOTATE_DOM_JS)
            except Exception as exc:  # a navigation raced the snapshot
                if not self._browser.connected():
                    raise BrowserUnavailableError(f"Chromium crashed: {exc}") from exc
                if page.is_closed():
                    raise BrowserUnavailableError(f"The page crashed or was closed: {exc}") from exc
                logger.debug("Snapshot attempt %d failed: %s", attempt, exc)
                await page.wait_for_timeout(200)
        raise BrowserUnavailableError(f"Could not read the page at {page.url}")

    def execute(self, action: Action, element: Element | None) -> None:
        self._blocked.clear()
        self._run(self._execute(action, element))
        if self._blocked:
            raise self._sites.blocked(self._blocked[0])

    async def _execute(self, action: Action, element: Element | None) -> None:
        page = self._page
        before = page.url
        try:
            await self._perform_and_settle(page, action, element)
        except InvalidActionError:
            raise
        except Exception as exc:
            if not self._browser.connected() or page.is_closed():
                raise BrowserUnavailableError(f"Chromium crashed: {exc}") from exc
            if not self._blocked:
                message = str(exc).splitlines()[0]
                raise InvalidActionError(f"{action.name} failed: {message}") from None
        if not self._blocked and page.url != ERROR_PAGE_URL and not self._sites.allows(page.url):
            self._blocked.append(page.url)  # another site at an allowed site's address (an error page of
            # an allowed site that is down stays, as a browser shows it)
        if self._blocked:  # the page goes back to where it was; execute() says why
            await self._return_to(page, before)

    async def _return_to(self, page: Any, before: str) -> None:
        """Back to ``before`` after a refused navigation, once Chromium has committed its error page
        for it (going back sooner, the error page would commit later, over the page gone back to)."""
        from playwright.async_api import TimeoutError as PlaywrightTimeoutError

        if page.url == before:
            try:
                await page.wait_for_url(ERROR_PAGE_URL, wait_until="load", timeout=EXPECTED_NAVIGATION_MS)
            except PlaywrightTimeoutError:
                return  # no error page came (the navigation was cancelled): the page never left
        await page.go_back(wait_until="load")
        if page.url != before:
            await page.goto(before, wait_until="load")

    async def _perform_and_settle(self, page: Any, action: Action, element: Element | None) -> None:
        """Perform the action and wait for the page it leads to, when it leads to one.

        Whether it leads to one is asked of the page in the same breath: the question is sent
        before the action's first command (so the page answers it before any input arrives) and
        its answer is read once the action is done, while a navigation waiter already listens;
        the question costs no round trip of its own."""
        from playwright.async_api import TimeoutError as PlaywrightTimeoutError

        if action.name not in NAVIGATING_ACTIONS:
            await self._perform(page, action, element)
            await page.wait_for_load_state("load")
            return
        will_navigate = asyncio.ensure_future(self._will_navigate(page, action, element))
        performed = False
        try:
            # entering yields to the loop once, which sends the question first
            async with page.expect_navigation(wait_until="load", timeout=EXPECTED_NAVIGATION_MS):
                await self._perform(page, action, element)
                performed = True
                if not await will_navigate:
                    raise _NoNavigation  # leaving with an exception cancels the waiter
        except _NoNavigation:
            pass
        except PlaywrightTimeoutError as exc:
            if not performed:
                raise
            logger.debug("%s did not navigate (a script cancelled it): %s", action.name, exc)
        finally:
            if not will_navigate.done():  # the action failed first: its error is the one to report
                will_navigate.cancel()
            elif not will_navigate.cancelled():
                will_navigate.exception()  # read, so that asyncio never warns of it
        await page.wait_for_load_state("load")

    async def _will_navigate(self, page: Any, action: Action, element: Element | None) -> bool:
        if action.name is ActionName.CLICK and element is not None and element.navigates:
            return True  # the snapshot read a link that leaves the page, or a grid's row: nothing to ask
        selector = None if action.name is ActionName.PRESS_ENTER else _element_selector(element)
        return await page.evaluate(WILL_NAVIGATE_JS, [selector, action.name.value])

    async def _perform(self, page: Any, action: Action, element: Element | None) -> None:
        name = action.name
        if name is ActionName.WAIT:
            await page.wait_for_timeout(1000)
        elif name is ActionName.GO_BACKWARD:
            before = page.url
            went = await page.go_back(wait_until="load") is not None or page.url != before
            if page.url == "about:blank":  # the blank page every new tab opens on is not the agent's
                await page.go_forward(wait_until="load")
                went = False
            if not went:
                raise InvalidActionError("There is no page to go back to.")
        elif name is ActionName.GO_FORWARD:
            if await page.go_forward(wait_until="load") is None:
                raise InvalidActionError("There is no page to go forward to.")
        elif name is ActionName.PRESS_ENTER:
            if not await page.evaluate(HAS_FOCUS_JS):  # Chromium would press it on the page, doing nothing
                raise InvalidActionError(NOTHING_FOCUSED)
            await page.keyboard.press("Enter")
        elif name in SCROLL_STEPS:
            await page.mouse.wheel(0, 600 * SCROLL_STEPS[name])
        else:
            locator = page.locator(_element_selector(element))
            if element.tag == "tr":  # a row is clicked on its first cell: its centre may fall between cells
                locator = locator.locator(":scope > td, :scope > th").first
            force = self.browsed_sites.force_actions
            if name is ActionName.CLICK:
                await locator.click(force=force)
            elif name is ActionName.HOVER:
                await locator.hover(force=force)
            elif name in TEXT_ACTIONS:
                await locator.fill(action.argument or "")
                if name is ActionName.SEARCH:
                    await locator.press("Enter")
            elif name is ActionName.SELECT_DROPDOWN_OPTION:
                option = action.argument or ""  # check_action matched it to one of the element's options
                if element.widget == UI_SELECT:
                    if not await locator.evaluate(CHOOSE_UI_SELECT_OPTION_JS, option):
                        raise InvalidActionError(f"Dropdown {element.id} did not offer {option!r} when opened.")
                else:
                    # a select that a widget drives (select2) is hidden from sight: set it directly;
                    # Playwright sets the value and fires input and change, which the widget follows
                    await locator.select_option(label=option, force=force or element.widget == DRIVEN_BY_WIDGET)

    def settle_network_trace(self) -> list[dict[str, Any]]:
        """The episode's HAR entries once the browser has reported every finished request."""
        self._run(self.network_trace.settle())
        return list(self.network_trace.entries)

    def evaluation_page(self) -> EvaluationPage:
        return _PlaywrightEvaluationPage(self._page, self._run, self.world, self._sites.urls)

    def screenshot(self) -> bytes | None:
        """A PNG of the viewport, or None when the page cannot be captured (a missing
        picture never ends an episode)."""
        if self._page is None:
            return None
        try:
            return self._run(self._page.screenshot(type="png"))
        except Exception as exc:  # a closed or hung page: the next observation says what happened
            logger.info("No screenshot of %s: %s", self.url, exc)
            return None

    def close(self) -> None:
        if self._context is not None:
            try:
                self._browser.run(self._close_context(), timeout=30)
            except Exception as exc:  # the loop may already be gone at interpreter exit
                logger.debug("Closing the browser context failed: %s", exc)
        self.browsed_sites.close()


def _element_selector(element: Element) -> str:
    """The CSS selector of an observed element (by the index the snapshot gave it)."""
    return f"[{INDEX_ATTRIBUTE}='{element.key}']"


class _NoNavigation(Exception):
    """The page said the action would not navigate: the navigation waiter is let go."""


class _PageTimeoutError(InvalidActionError):
    """A backend call outlasted ``step_timeout``: an agent error for an action, a hung page for a snapshot."""


class _PlaywrightEvaluationPage:
    """The final browser page, as the evaluators see it.

    Args:
        page: The backend's Playwright page.
        run: Runs a coroutine on the browser's loop within the backend's step timeout.
        world: The episode's world (None on the real sites).
        site_urls: Base URL per site.
    """

    def __init__(self, page: Any, run: Callable[[Any], Any], world: World | None, site_urls: dict[str, str]):
        self._page, self._run = page, run
        self._world, self._site_urls = world, site_urls

    @property
    def url(self) -> str:
        return self._page.url

    @property
    def world(self) -> World | None:
        return self._world

    @property
    def site_urls(self) -> dict[str, str]:
        return self._site_urls

    def goto(self, url: str) -> None:
        self._run(self._page.goto(url, wait_until="load"))

    def content(self) -> str:
        return self._run(self._page.content())

    def evaluate_locator(self, locator: str) -> str:
        try:
            value = self._run(self._page.evaluate(f"() => {{ return {locator}; }}"))
        except Exception as exc:
            logger.info("Locator %r failed: %s", locator, exc)
            return ""
        if isinstance(value, bool):  # JavaScript spells booleans in lower case, as StaticPage does
            return "true" if value else "false"
        return "" if value is None else str(value)
