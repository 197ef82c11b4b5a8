"""``StaticPage``: an :class:`EvaluationPage` over saved HTML, for rescoring saved trajectories.

A trajectory file keeps the final URL and the final page's HTML; ``StaticPage`` lets the
evaluators read them as if the browser were still open. It can only "open" pages it was
given: the final one, and optionally more saved pages by URL (for program_html targets
that read another page). Opening anything else raises, since guessing would score wrong.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..dom import evaluate_locator, parse_html
from ..errors import ConfigurationError
from ..observation import parse_html5
from .url_match import clean_url

if TYPE_CHECKING:
    from ..sites.world import World


class StaticPage:
    """A page made of saved HTML.

    Args:
        url: The page's URL (the episode's final URL).
        html: The page's HTML.
        other_pages: More saved pages, by URL, that program_html targets may open.
        site_urls: Base URLs by site name, for ``func:`` helpers that need them.
        world: The embedded world, when the trajectory ran on the embedded sites and the
            world is still at the episode's final state (for embedded ``func:`` helpers).

    >>> page = StaticPage("http://127.0.0.1:9999/f/books", "<h1 class='t'>Books</h1>")
    >>> page.evaluate_locator("document.querySelector('.t').outerText")
    'Books'
    >>> page.goto("http://localhost:9999/f/books/")  # the same page: fine
    >>> page.goto("http://127.0.0.1:9999/f/pics")
    Traceback (most recent call last):
    ...
    webarena_gym.errors.ConfigurationError: StaticPage has no saved page for http://127.0.0.1:9999/f/pics ...
    """

    def __init__(
        self,
        url: str,
        html: str,
        *,
        other_pages: Mapping[str, str] | None = None,
        site_urls: Mapping[str, str] | None = None,
        world: World | None = None,
    ):
        self._pages = {clean_url(u): h for u, h in (other_pages or {}).items()}
        self._pages[clean_url(url)] = html
        self._url = url
        self._html = html
        self._root: Any = None
        self._site_urls = dict(site_urls or {})
        self._world = world

    @property
    def url(self) -> str:
        return self._url

    @property
    def world(self) -> World | None:
        return self._world

    @property
    def site_urls(self) -> dict[str, str]:
        return dict(self._site_urls)

    def goto(self, url: str) -> None:
        """Switch to a saved page; raises :class:`ConfigurationError` for a page not saved."""
        html = self._pages.get(clean_url(url))
        if html is None:
            raise ConfigurationError(
                f"StaticPage has no saved page for {url} (it holds {sorted(self._pages)}). The task reads "
                "that page in program_html: save it and pass other_pages={url: html}, or rescore with a live backend."
            )
        if html is not self._html:
            self._root = None
        self._url, self._html = url, html

    def content(self) -> str:
        return self._html

    def evaluate_locator(self, locator: str) -> str:
        if not locator.strip():
            return self._html
        if self._root is None:
            # saved HTML comes from anywhere: parsed as a browser parses it (HTML5 algorithm)
            self._root = parse_html5(self._html) if self._html.strip() else parse_html(self._html)
        return evaluate_locator(self._root, locator)
