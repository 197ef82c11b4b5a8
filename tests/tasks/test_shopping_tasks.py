"""The store's task families: instances from the seeded data, and oracles that earn the reward."""

from __future__ import annotations

import re

import lxml.html
import pytest

from webarena_gym.sites.shopping.families import FAMILIES
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
