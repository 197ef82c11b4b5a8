"""Locators on saved HTML: the official forms on site-shaped pages, browser-like innerText, failures."""

from __future__ import annotations

import json
import logging

import pytest

from webarena_gym.dom.locator_syntax import close_selector, parse_locator
from webarena_gym.dom.locators import evaluate_locator_on_html, parse_html
from webarena_gym.dom.text import inner_text
from webarena_gym.suites.official import official_data_path

from .site_pages import FORUM_POST, LOCATOR_CASES

# Pages whose innerText exercises the rendering rules (blocks, inline whitespace, tables...).
RENDERING_CASES = [
    '<div id="x"> a <span> b </span> <span>c</span>d </div>',
    '<div id="x"><ul><li>one<ul><li>two</li></ul></li><li> three </li></ul></div>',
    '<div id="x"><p></p><p>  </p><div>a</div><div></div><div>b</div></div>',
    '<div id="x">a<br><br>b<br></div>',
    '<div id="x"><pre>  keep\n   this  </pre>after</div>',
    '<div id="x"><span style="display: none">hid</span>shown<span style="visibility:hidden">v</span></div>',
    '<div id="x"><label>Name <input value="q"></label><button> Save </button>'
    "<select><option>A</option><option selected>B</option></select></div>",
    '<div id="x">a&nbsp;&nbsp;b &nbsp; c</div>',
    '<div id="x"><h2>T</h2>text<h3>U</h3><blockquote>q</blockquote></div>',
    '<div id="x"><script>var a=1;</script><style>.a{}</style><noscript>ns</noscript>vis</div>',
    '<div id="x"><dl><dt>K</dt><dd>V</dd></dl><hr><span>z</span></div>',
    '<div id="x" hidden>secret <b>text</b></div>',
    '<div id="x"><table><thead><tr><th>a</th><th>b</th></tr></thead><tbody><tr><td>1</td><td></td></tr>'
    "</tbody><tfoot><tr><td>f</td></tr></tfoot></table></div>",
    '<div id="x"><details><summary>S</summary>inside</details><!-- c --><p>a<!-- d -->b</p></div>',
    '<div id="x">\n  <div>\n    <span>Price</span>\n    <span>$5.00</span>\n  </div>\n</div>',
    '<table><tr><td id="x"> a <b>b</b></td><td>c</td></tr></table>',
    '<table><tr id="x"><td>a</td><td>b</td></tr><tr><td>c</td></tr></table>',
    '<p id="x">para <br> text</p><p>next</p>',
    '<pre id="x">  pre\n  text </pre>',
]


def official_locators() -> set[str]:
    """Every JavaScript locator and prep action in the 812 WebArena tasks and the 165 Lite ones."""
    found = set()
    for which in ("webarena", "webarena-lite"):
        for task in json.loads(official_data_path(which).read_text()):
            for target in task["eval"]["program_html"]:
                if target["locator"] and not target["locator"].startswith("func:"):
                    found.add(target["locator"])
                found.update(target.get("prep_actions", []))
    return found


@pytest.mark.parametrize(
    ("page", "locator", "expected"), LOCATOR_CASES, ids=[c[1][:60] for c in LOCATOR_CASES]
)
def test_official_locator_forms_read_site_shaped_pages(page, locator, expected):
    assert evaluate_locator_on_html(page, locator) == expected


def test_every_official_locator_is_supported(caplog):
    locators = official_locators()
    assert len(locators) >= 60
    with caplog.at_level(logging.WARNING, logger="webarena_gym.dom.locators"):
        for locator in locators:
            parse_locator(locator)
            for page in {c[0] for c in LOCATOR_CASES} | {""}:
                evaluate_locator_on_html(page, locator)
    # Only the locators' own warnings count: the capture also holds whatever else logs meanwhile.
    warnings = [r.getMessage() for r in caplog.records if r.name == "webarena_gym.dom.locators"]
    assert not warnings, warnings


def test_unclosed_selector_brackets_are_closed_like_a_browser():
    assert close_selector('[title="What’s on your mind?"') == '[title="What’s on your mind?"]'
    assert close_selector("input[name='x']") == "input[name='x']"
    assert close_selector('[name="product[price]"') == '[name="product[price]"]'


def test_empty_locator_gives_the_page_html():
    assert evaluate_locator_on_html(FORUM_POST, "") == FORUM_POST


def test_failing_locators_read_as_empty():
    page = "<p class='a'>x</p>"
    assert evaluate_locator_on_html(page, "document.querySelector('.b').outerText") == ""
    assert evaluate_locator_on_html(page, "document.querySelectorAll('p')[3].outerText") == ""
    assert evaluate_locator_on_html(page, "document.querySelector('.a').getAttribute('title')") == ""
    assert evaluate_locator_on_html(page, "document.querySelector('.a').value") == ""  # undefined


def test_unsupported_locators_read_as_empty_and_warn(caplog, messages_of):
    with caplog.at_level(logging.WARNING, logger="webarena_gym.dom.locators"):
        assert evaluate_locator_on_html("<p>x</p>", "window.localStorage.getItem('k')") == ""
        assert (
            evaluate_locator_on_html("<p>x</p>", "document.querySelector('p:focus-within').outerText") == ""
        )
    warnings = messages_of("webarena_gym.dom.locators")
    assert len(warnings) == 2 and "Unsupported program_html locator" in warnings[0]


def test_javascript_glue_the_locators_use():
    page = "<ul><li><a href='/a'>A</a></li><li><img src='/b.png'></li><li>plain</li></ul><input id='n' value='5'>"
    assert (
        evaluate_locator_on_html(
            page,
            "[...document.querySelectorAll('[href],[src]')].map(e => e.getAttribute('href') || e.getAttribute('src'))"
            ".join(' ')",
        )
        == "/a /b.png"
    )
    assert (
        evaluate_locator_on_html(
            page,
            "Array.from(document.querySelectorAll('li')).filter((li) => li.textContent.includes('a')).length",
        )
        == "1"
    )
    assert evaluate_locator_on_html(page, "document.getElementById('n').value + ' items'") == "5 items"
    assert (
        evaluate_locator_on_html(page, "document.querySelector('li').outerText.toLowerCase().trim()") == "a"
    )
    assert (
        evaluate_locator_on_html(page, "document.querySelectorAll('li').length > 2 ? 'many' : 'few'") == ""
    )  # '>' unsupported
    assert (
        evaluate_locator_on_html(page, "document.querySelectorAll('li').length === 3 ? 'many' : 'few'")
        == "many"
    )
    assert evaluate_locator_on_html(page, "!document.querySelector('.none')") == "true"


def test_inner_text_hides_what_a_browser_hides():
    root = parse_html(
        '<div id="x"><span hidden>a</span><b style="display:none">b</b>c<input value="d"></div>'
    )
    assert inner_text(root.get_element_by_id("x")) == "c"


@pytest.mark.browser
def test_locators_match_chromium(chromium):
    page = chromium.new_page()
    try:
        cases = [(h, loc) for h, loc, _ in LOCATOR_CASES]
        cases += [
            (h, f"document.querySelector('#x').{prop}")
            for h in RENDERING_CASES
            for prop in ("innerText", "textContent")
        ]
        for html, locator in cases:
            page.set_content(html)
            try:
                value = page.evaluate(f"() => {{ return {locator}; }}")
            except Exception:  # a TypeError in the browser: the evaluators read it as ""
                value = ""
            expected = (
                ""
                if value is None
                else ("true" if value else "false")
                if isinstance(value, bool)
                else str(value)
            )
            assert evaluate_locator_on_html(html, locator) == expected, (html, locator)
    finally:
        page.close()
