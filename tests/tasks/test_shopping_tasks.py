"""The store's task families: instances from the seeded data, and oracles that earn the reward."""

from __future__ import annotations

import re

import lxml.html
import pytest

from webarena_gym.evaluators.functions import register_functions
from webarena_gym.sites.shopping.families import FAMILIES, FUNCTIONS
from webarena_gym.sites.world import pristine_database

from .family_checks import (
    check_evaluator_mix,
    check_instances,
    check_oracle_solves,
    check_quota,
    check_wrong_answers_earn_nothing,
)

EMMA = "emma.lopez@hotmail.com"
INSTANCES = {family.name: family.instantiate(pristine_database) for family in FAMILIES}


def test_quota_families_and_instances():
    check_quota(FAMILIES, INSTANCES, prefix="shopping.", families_at_least=8, tasks_at_least=225)


def test_instances_are_valid_distinct_and_deterministic():
    for family in FAMILIES:
        check_instances(family, INSTANCES[family.name], start_url="__SHOPPING__", own_start_urls=True)


def test_evaluator_mix_follows_webarena_lite():
    register_functions(FUNCTIONS)  # what loading the suite does; this test may run before any env is made
    check_evaluator_mix(FAMILIES, INSTANCES, site_url="__SHOPPING__", string_match=(0.45, 0.65),
                        url_match=(0.15, 0.3), program_html=(0.2, 0.35))


def test_references_agree_with_what_the_site_shows(site_client):
    client = site_client("shopping", user=EMMA)

    def doc(path: str) -> lxml.html.HtmlElement:
        response = client.get(path, follow_redirects=True)
        assert response.status_code == 200, path
        return lxml.html.fromstring(response.get_data(as_text=True))

    def search(name: str) -> lxml.html.HtmlElement:
        results = doc(f"/catalogsearch/result/?q={name}")
        link = next(a for a in results.cssselect(".product-item-link") if a.text_content() == name)
        return doc(link.get("href"))

    for item in INSTANCES["shopping.product_sku"][:5]:
        page = search(item["instantiation_dict"]["product"])
        assert page.cssselect(".sku .value")[0].text_content() == item["eval"]["reference_answers"]["exact_match"]
    for item in INSTANCES["shopping.summarize_missing_reviews"][:5]:
        assert not search(item["instantiation_dict"]["product"]).cssselect(".review-item")
    for item in INSTANCES["shopping.browse_category"] + INSTANCES["shopping.sort_category_by_price"]:
        page = doc(item["eval"]["reference_url"].replace("__SHOPPING__", ""))
        assert page.cssselect("h1")[0].text_content() == item["instantiation_dict"]["category"]
    for item in INSTANCES["shopping.search_keyword"]:
        assert doc(item["eval"]["reference_url"].replace("__SHOPPING__", "")).cssselect(".product-item-link")
    history = " ".join(doc(f"/sales/order/history/?p={p}").text_content() for p in range(1, 5))
    for item in INSTANCES["shopping.order_grand_total"]:
        number = item["instantiation_dict"]["order_number"]
        total = item["eval"]["reference_answers"]["must_include"][0].split(" |OR| ")[0]
        assert re.search(rf"{number}\s+\S+\s+Emma Lopez\s+\${re.escape(total)}", " ".join(history.split()))


def test_func_helpers_read_the_episode_world(world, site_client):
    from webarena_gym.sites.shopping.families.common import latest_order_url, latest_review_field

    class Page:  # the two things the helpers use of an evaluation page
        def __init__(self, world):
            self.world, self.site_urls = world, {"shopping": "http://127.0.0.1:7770"}

    client = site_client("shopping", user=EMMA)
    product = world.connection("shopping").execute("SELECT id, sku FROM products ORDER BY id LIMIT 1").fetchone()
    client.post(f"/review/product/post/id/{product['id']}/",
                data={"rating": "2", "nickname": "EmmaL", "title": "Hmm", "detail": "So-so."})
    assert latest_review_field(Page(world), product["sku"], "rating") == "40"
    assert latest_review_field(Page(world), product["sku"], "nickname") == "EmmaL"
    newest = world.connection("shopping").execute(
        "SELECT o.id FROM orders o JOIN customers c ON c.id = o.customer_id WHERE c.email = ? ORDER BY o.created_at DESC",
        (EMMA,)).fetchone()[0]
    assert latest_order_url(Page(world)) == f"http://127.0.0.1:7770/sales/order/view/order_id/{newest}/"


# -- oracles (the env, the direct backend and the evaluators) --------------------------------


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.name)
def test_oracle_solves_the_first_instances(family):
    check_oracle_solves(family, INSTANCES[family.name][:2])


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.name)
def test_wrong_or_missing_answers_earn_nothing(family):
    check_wrong_answers_earn_nothing(INSTANCES[family.name][:1])


def test_new_lite_template_references_agree_with_the_site(site_client):
    """References of the families written to Lite's templates match what the store's pages show."""
    client = site_client("shopping", user=EMMA)

    def doc(path: str) -> lxml.html.HtmlElement:
        response = client.get(path.replace("__SHOPPING__", ""), follow_redirects=True)
        assert response.status_code == 200, path
        return lxml.html.fromstring(response.get_data(as_text=True))

    def listed_prices(page: lxml.html.HtmlElement) -> list[float]:
        return [float(p.text_content().strip("$").replace(",", "")) for p in page.cssselect(".product-items .price")]

    rows = [[cell.text_content().strip() for cell in row.cssselect("td")]
            for p in range(1, 5) for row in doc(f"/sales/order/history/?p={p}").cssselect("#my-orders-table tbody tr")]
    statuses = {int(row[0]): row[4].lower() for row in rows}
    for item in INSTANCES["shopping.order_statuses"]:
        numbers = [int(n) for n in item["instantiation_dict"]["order_number"].split(" and ")]
        assert item["eval"]["reference_answers"]["fuzzy_match"] == [f"{n}: {statuses[n]}" for n in numbers]
    canceled_2022 = sum(float(row[3].strip("$").replace(",", "")) for row in rows
                        if row[4] == "Canceled" and row[1].endswith("/22"))
    refund = next(i for i in INSTANCES["shopping.refund_for_cancelled_orders"] if i["instantiation_dict"]["time"] == "2022")
    assert f"{canceled_2022:.2f}" in refund["eval"]["reference_answers"]["must_include"][0].split(" |OR| ")

    for item in INSTANCES["shopping.product_kind_price_range"][:8]:
        kind = item["instantiation_dict"]["product"]
        results = doc(f"/catalogsearch/result/?q={kind}")
        found = [float(p.cssselect(".price")[0].text_content().strip("$").replace(",", ""))
                 for p in results.cssselect(".product-item") if kind in p.cssselect(".product-item-link")[0].text_content().lower()]
        low, high = item["eval"]["reference_answers"]["must_include"]
        assert (f"{min(found):.2f}", f"{max(found):.2f}") == (low.split(" |OR| ")[-1], high.split(" |OR| ")[-1])

    for item in INSTANCES["shopping.brand_kind_opinions"][:6]:
        kind, brand = item["instantiation_dict"]["product_type"], item["instantiation_dict"]["manufature"]
        results = doc(f"/catalogsearch/result/?q={brand} {kind}")
        matching = [p for p in results.cssselect(".product-item")
                    if p.cssselect(".product-item-link")[0].text_content().startswith(brand)
                    and kind in p.cssselect(".product-item-link")[0].text_content().lower()]
        assert matching and not any(p.cssselect(".product-reviews-summary") for p in matching)

    for item in INSTANCES["shopping.products_under_price"]:
        page = doc(item["eval"]["reference_url"])
        cap = float(item["instantiation_dict"]["price"])
        assert page.cssselect("h1")[0].text_content() == item["instantiation_dict"]["product_category"]
        assert listed_prices(page) and all(p < cap for p in listed_prices(page))
    for item in INSTANCES["shopping.most_expensive_in_category"]:
        page = doc(item["eval"]["reference_url"])
        assert listed_prices(page) == sorted(listed_prices(page), reverse=True)
    for item in INSTANCES["shopping.sorted_search_listing"]:
        page = doc(item["eval"]["reference_url"])
        if "price" in item["instantiation_dict"]["sorting_order"]:
            shown = listed_prices(page)
            assert shown == sorted(shown, reverse="descending" in item["instantiation_dict"]["sorting_order"])
        else:
            names = [a.text_content().lower() for a in page.cssselect(".product-item-link")]
            assert names == sorted(names, reverse="reverse" in item["instantiation_dict"]["sorting_order"])
