"""Tokens per observation on real-markup pages, and what the HTML5 parser costs.

For each page of ``tests/fixtures/real_markup/`` (the real Postmill, Magento and GitLab
pages' patterns), measured in the same run:

- tokens of the observation (characters / 4: no tokenizer can be downloaded here) with
  navigation ordering (navigation after the main content, closed nested menus
  collapsed) and without it (document order, every menu open), and their ratio;
- tokens the agent reads before the page's ``<h1>`` in each;
- parse time of html5lib (the HTML5 algorithm, used for HTML from outside the embedded
  sites) against lxml's libxml2 parser (kept for the embedded sites), and the time of a
  whole ``simplify_html`` call with each;
- characters and tokens of the observation with the desktop visibility rules of
  :mod:`webarena_gym.observation.visibility` (responsive classes at 1280px, mobile-only blocks,
  Magento's admin tabs opened as their widget does) against the same page with them off (as
  before issue #79: ``d-none``/``gl-display-none`` hide at every width, nothing a script reveals
  is shown), their ratio, and the time of a ``simplify_html`` call with each.

Run: ``.venv/bin/python benchmarks/observation_tokens.py``
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path

from timing import timed

from webarena_gym.observation import parse_html, parse_html5, simplify_html, visibility

PAGES = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "real_markup"
REPEATS = 20


def tokens(text: str) -> int:
    return round(len(text) / 4)


def before_heading(text: str) -> int:
    at = text.find("<h1>")
    return tokens(text[: at if at >= 0 else len(text)])



@contextmanager
def desktop_rules_off() -> Iterator[None]:
    """Raw HTML read as before issue #79: no responsive class but ``d-none``/``gl-display-none``
    (hidden at every width) counts, and nothing a page's script reveals on load is shown."""
    saved = (visibility.RESPONSIVE_DISPLAY_RULES, visibility.MOBILE_ONLY_CLASSES, visibility.HIDDEN_CLASSES,
             visibility.shown_by_script)
    visibility.RESPONSIVE_DISPLAY_RULES, visibility.MOBILE_ONLY_CLASSES = (), frozenset()
    visibility.HIDDEN_CLASSES = saved[2] | {"d-none", "gl-display-none"}
    visibility.shown_by_script = lambda el: None
    try:
        yield
    finally:
        (visibility.RESPONSIVE_DISPLAY_RULES, visibility.MOBILE_ONLY_CLASSES, visibility.HIDDEN_CLASSES,
         visibility.shown_by_script) = saved


def desktop_rules() -> None:
    """Observation size and time with the desktop visibility rules on and off, page by page."""
    header = (f"{'page':32} {'chars':>7} {'off':>7} {'tokens':>7} {'off':>7} {'ratio':>6} "
              f"{'ms':>7} {'off ms':>7} {'x':>5}")
    print(header)
    print("-" * len(header))
    totals = {"on": 0, "off": 0, "on_ms": 0.0, "off_ms": 0.0}
    for page in sorted(PAGES.glob("*.html")):
        html = page.read_text()
        on = simplify_html(html).text
        on_ms = timed(partial(simplify_html, html), REPEATS)
        with desktop_rules_off():
            off = simplify_html(html).text
            off_ms = timed(partial(simplify_html, html), REPEATS)
        totals["on"] += tokens(on)
        totals["off"] += tokens(off)
        totals["on_ms"] += on_ms
        totals["off_ms"] += off_ms
        print(f"{page.stem:32} {len(on):7} {len(off):7} {tokens(on):7} {tokens(off):7} {tokens(on) / tokens(off):6.2f} "
              f"{on_ms * 1e3:7.1f} {off_ms * 1e3:7.1f} {on_ms / off_ms:5.2f}")
    print("-" * len(header))
    print(f"all pages: {totals['on']} tokens with the desktop rules vs {totals['off']} without "
          f"(ratio {totals['on'] / totals['off']:.2f}); simplify_html {totals['on_ms'] * 1e3:.0f} ms vs "
          f"{totals['off_ms'] * 1e3:.0f} ms (x{totals['on_ms'] / totals['off_ms']:.2f})")


def main() -> None:
    header = (f"{'page':32} {'KB':>5} {'tokens':>7} {'no-nav':>7} {'ratio':>6} {'pre-h1':>7} {'no-nav':>7} "
              f"{'html5 ms':>9} {'lxml ms':>8} {'x':>5} {'simplify5':>10} {'simplifyL':>10}")
    print(header)
    print("-" * len(header))
    totals = {"ours": 0, "baseline": 0, "html5": 0.0, "lxml": 0.0}
    for page in sorted(PAGES.glob("*.html")):
        html = page.read_text()
        ours = simplify_html(html).text
        baseline = simplify_html(html, order_navigation=False).text
        html5 = timed(partial(parse_html5, html), REPEATS)
        fast = timed(partial(parse_html, html), REPEATS)
        simplify5 = timed(partial(simplify_html, html), REPEATS)
        simplify_fast = timed(partial(simplify_html, html, well_formed=True), REPEATS)
        totals["ours"] += tokens(ours)
        totals["baseline"] += tokens(baseline)
        totals["html5"] += html5
        totals["lxml"] += fast
        print(f"{page.stem:32} {len(html) / 1024:5.0f} {tokens(ours):7} {tokens(baseline):7} "
              f"{tokens(ours) / tokens(baseline):6.2f} {before_heading(ours):7} {before_heading(baseline):7} "
              f"{html5 * 1e3:9.1f} {fast * 1e3:8.2f} {html5 / fast:5.0f} {simplify5 * 1e3:10.1f} {simplify_fast * 1e3:10.1f}")
    print("-" * len(header))
    print(f"all pages: {totals['ours']} tokens with navigation ordering vs {totals['baseline']} without "
          f"(ratio {totals['ours'] / totals['baseline']:.2f}); html5lib parses {totals['html5'] / totals['lxml']:.0f}x "
          f"slower than lxml ({totals['html5'] * 1e3:.0f} ms vs {totals['lxml'] * 1e3:.1f} ms for all pages)")
    print()
    desktop_rules()


if __name__ == "__main__":
    main()
