"""Tokens per observation on real-markup pages, and what the HTML5 parser costs.

For each page of ``tests/fixtures/real_markup/`` (the real Postmill, Magento and GitLab
pages' patterns), measured in the same run:

- tokens of the observation (characters / 4: no tokenizer can be downloaded here) with
  navigation ordering (navigation after the main content, closed nested menus
  collapsed) and without it (document order, every menu open), and their ratio;
- tokens the agent reads before the page's ``<h1>`` in each;
- parse time of html5lib (the HTML5 algorithm, used for HTML from outside the embedded
  sites) against lxml's libxml2 parser (kept for the embedded sites), and the time of a
  whole ``simplify_html`` call with each.

Run: ``.venv/bin/python benchmarks/observation_tokens.py``
"""

from __future__ import annotations

import sys
from functools import partial
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[1]), str(Path(__file__).resolve().parent)]

from timing import timed  # noqa: E402

from webarena_gym.observation import parse_html, parse_html5, simplify_html  # noqa: E402

PAGES = Path(__file__).resolve().parents[1] / "tests" / "fixtures" / "real_markup"
REPEATS = 20


def tokens(text: str) -> int:
    return round(len(text) / 4)


def before_heading(text: str) -> int:
    at = text.find("<h1>")
    return tokens(text[: at if at >= 0 else len(text)])



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


if __name__ == "__main__":
    main()
