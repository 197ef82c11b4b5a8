"""StaticPage reads saved HTML as a browser would (the HTML5 algorithm), so locators see Chromium's tree."""

from __future__ import annotations

from webarena_gym.evaluators.static_page import StaticPage

SAVED = ("<!DOCTYPE html><table id='grid'><tr><td>000000301</td></tr><p class='note'>Sold out</p></table>"
         "<form id='outer'><p>Find <form id='inner'><input name='q' value='shoes'></form></p>")


def test_locators_on_saved_html_see_the_tree_a_browser_builds():
    page = StaticPage("http://127.0.0.1:7780/admin/sales/order/", SAVED)
    assert page.evaluate_locator("document.querySelector('#grid').outerText") == "000000301"
    assert page.evaluate_locator("document.querySelector('table > tr')") == ""  # a browser adds <tbody>
    assert page.evaluate_locator("document.querySelector('#inner')") == ""  # and ignores a nested <form>
    assert page.evaluate_locator("document.querySelector('#outer [name=\"q\"]').value") == "shoes"
    assert page.evaluate_locator("document.querySelector('.note').outerText") == "Sold out"
