"""The store admin's task families: instances from the seeded data, and oracles that earn the reward."""

from __future__ import annotations

import datetime as dt
import re

import lxml.html
import pytest

from webarena_gym.evaluators.functions import call_function, register_functions
from webarena_gym.sites import World
from webarena_gym.sites.shopping_admin.families import FAMILIES, FUNCTIONS
from webarena_gym.sites.shopping_admin.families.information import RANK_WORDS
from webarena_gym.sites.world import pristine_database

from .family_checks import (
    check_evaluator_mix,
    check_instances,
    check_oracle_solves,
    check_quota,
    check_wrong_answers_earn_nothing,
)

SITE = "shopping_admin"
INSTANCES = {family.name: family.instantiate(pristine_database) for family in FAMILIES}


def visible_text(response) -> str:
    return " ".join(" ".join(lxml.html.fromstring(response.get_data(as_text=True)).itertext()).split())


def test_quota_families_and_instances():
    check_quota(FAMILIES, INSTANCES, prefix="shopping_admin.", families_at_least=8, tasks_at_least=175)


def test_instances_are_valid_distinct_and_deterministic():
    for family in FAMILIES:
        check_instances(family, INSTANCES[family.name], start_url="__SHOPPING_ADMIN__", own_start_urls=True)


def test_evaluator_mix_follows_webarena_lite():
    register_functions(FUNCTIONS)  # as the suite does when it loads, so this test runs alone too
    check_evaluator_mix(FAMILIES, INSTANCES, site_url="__SHOPPING_ADMIN__", string_match=(0.4, 0.6),
                        url_match=(0.1, 0.3), program_html=(0.3, 0.5))  # Lite's admin: 18/35, 5/35, 15/35


def test_references_agree_with_what_the_site_shows(site_client):
    admin = site_client(SITE, user="admin")
    for item in INSTANCES["shopping_admin.invoice_grand_total"]:
        page = visible_text(admin.get("/admin/sales/invoice/", query_string={"search": item["instantiation_dict"]["id"]}))
        expected = item["eval"]["reference_answers"]["must_include"][0].split(" |OR| ")[0]
        assert f"${expected}" in page
    for item in INSTANCES["shopping_admin.bestseller_rank"][:6]:
        values, name = item["instantiation_dict"], item["eval"]["reference_answers"]["exact_match"]
        period = values["period"]
        query = {"from": "1/1/" + period, "to": "12/31/" + period, "period": "year"} if period.isdigit() else None
        if query:
            page = visible_text(admin.get("/admin/reports/report_sales/bestsellers/", query_string=query,
                                          follow_redirects=True))
            assert f"{period} {values['n']} {name}" in page
    for family in ("cancel_order", "change_product_price", "ship_order_with_tracking", "rename_cms_page"):
        for item in INSTANCES[f"shopping_admin.{family}"]:
            path = item["eval"]["program_html"][0]["url"].replace("__SHOPPING_ADMIN__", "/admin")
            assert admin.get(path).status_code == 200, path
    for item in INSTANCES["shopping_admin.filter_orders_grid"] + INSTANCES["shopping_admin.filter_products_grid"]:
        path = item["eval"]["reference_url"].replace("__SHOPPING_ADMIN__", "/admin")
        response = admin.get(path)
        assert response.status_code == 200 and "records found" in visible_text(response), path  # canonical already


def test_new_families_references_agree_with_the_site(site_client):
    admin = site_client(SITE, user="admin")
    for item in INSTANCES["shopping_admin.top_n_bestsellers"]:
        values = item["instantiation_dict"]
        period = str(values["period"])
        query = ({"from": f"1/1/{period}", "to": f"12/31/{period}", "period": "year"} if period.isdigit() else
                 {"from": period, "to": period, "period": "month"})
        if not period.isdigit():
            month = dt.datetime.strptime(period, "%B %Y").date()
            last = (month.replace(day=28) + dt.timedelta(days=4)).replace(day=1) - dt.timedelta(days=1)
            query |= {"from": month.isoformat(), "to": last.isoformat()}
        page = visible_text(admin.get("/admin/reports/report_sales/bestsellers/", query_string=query,
                                      follow_redirects=True))
        for rank, name in enumerate(item["eval"]["reference_answers"]["must_include"], start=1):
            assert f" {rank} {name} " in page, (period, rank, name)
    for item in INSTANCES["shopping_admin.monthly_successful_orders"]:
        words = item["instantiation_dict"]["period"].split()  # from Jan to December 2022
        year = words[4]
        page = visible_text(admin.get("/admin/reports/report_sales/sales/", follow_redirects=True, query_string={
            "from": f"1/1/{year}", "to": f"12/31/{year}", "period": "month", "status": "complete"}))
        for part in item["eval"]["reference_answers"]["fuzzy_match"]:
            month, count = part.split(":")
            label = dt.date(int(year), int(month), 1).strftime("%b %Y")
            assert f"{label} {count} " in page, (label, count)
    report = visible_text(admin.get("/admin/reports/report_customer/orders/", follow_redirects=True,
                                    query_string={"from": "2022-01-01", "to": "2023-05-31", "status": "complete"}))
    for item in INSTANCES["shopping_admin.completed_orders_rank"]:
        rank = RANK_WORDS[item["instantiation_dict"]["quantifier"]]
        assert f" {rank} {item['eval']['reference_answers']['must_include'][0]} " in report
    for item in INSTANCES["shopping_admin.unhappy_customers"]:
        product = item["instantiation_dict"]["product"]
        page = visible_text(admin.get("/admin/review/product/", query_string={"product": product}))
        for name in item["eval"]["reference_answers"].get("must_include", []):
            assert re.search(rf" {re.escape(name)} [^|]*? [12] {re.escape(product)} Edit", page), (product, name)


def test_latest_order_helper_follows_the_episode_world():
    class Page:
        def __init__(self, world):
            self.world, self.url, self.site_urls = world, "", {SITE: "http://127.0.0.1:7780/admin"}

    world = World()
    try:
        conn = world.connection(SITE)
        name, order_id = conn.execute("SELECT customer_name, id FROM sales_order WHERE status = 'pending' "
                                      "ORDER BY created_at DESC LIMIT 1").fetchone()
        expression = f"func:shopping_admin_latest_order_url('{name}', 'pending')"
        url = call_function(expression, Page(world))
        assert url == f"http://127.0.0.1:7780/admin/sales/order/view/order_id/{order_id}/"
        conn.execute("UPDATE sales_order SET status = 'canceled' WHERE id = ?", (order_id,))
        assert call_function(expression, Page(world)) != url
    finally:
        world.close()


# -- oracles (the env, the direct backend and the evaluators) --------------------------------


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.name)
def test_oracle_solves_the_first_instances(family):
    check_oracle_solves(family, INSTANCES[family.name][:2])


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.name)
def test_wrong_or_missing_answers_earn_nothing(family):
    check_wrong_answers_earn_nothing(INSTANCES[family.name][:3])
