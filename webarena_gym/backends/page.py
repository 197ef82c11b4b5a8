"""What the evaluators may do with an episode's final page: the :class:`EvaluationPage` protocol.

Backends own it because they make the pages: the direct backend over its parsed document,
the Playwright backend over the live page; :class:`~webarena_gym.evaluators.StaticPage`
implements it over saved HTML.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from ..sites.world import World


@runtime_checkable
class EvaluationPage(Protocol):
    """What evaluators may do with the episode's final browser state.

    ``world`` is the episode's embedded world (None on the real sites).
    """

    @property
    def url(self) -> str: ...

    @property
    def world(self) -> World | None: ...

    @property
    def site_urls(self) -> dict[str, str]: ...

    def goto(self, url: str) -> None:
        """Open ``url`` in the page (program_html targets with a literal or func: url)."""

    def evaluate_locator(self, locator: str) -> str:
        """Run a WebArena locator (a JavaScript expression) and return its value as text.

        The empty locator returns the page's whole HTML.
        """

    def content(self) -> str:
        """The page's current HTML."""
