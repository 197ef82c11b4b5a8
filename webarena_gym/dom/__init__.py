"""What a browser's DOM gives, computed on lxml trees without a browser: WebArena's
program_html locators (:mod:`.locators`, parsed by :mod:`.locator_syntax`) and rendered
text (:mod:`.text`). The direct backend reads its final page with them, and the evaluators'
:class:`~webarena_gym.evaluators.StaticPage` reads saved HTML with them.
"""

from __future__ import annotations

from .locators import evaluate_locator, evaluate_locator_on_html, parse_html

__all__ = ["evaluate_locator", "evaluate_locator_on_html", "parse_html"]
