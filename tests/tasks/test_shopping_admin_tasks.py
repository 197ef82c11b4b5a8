"""The store admin's task families: instances from the seeded data, and oracles that earn the reward."""

from __future__ import annotations

import re

import lxml.html
import pytest

from webarena_gym.evaluators.functions import call_function, registered_functions
from webarena_gym.sites import World
from webarena_gym.sites.world import pristine_database
from webarena_gym.tasks.embedded.shopping_admin import FAMILIES
from webarena_gym.tasks.task import Task

SITE = "shopping_admin"
INSTANCES = {family.name: family.instantiate(pristine_database) for family in FAMILIES}
ALL = [(family, item) for family in FAMILIES for item in INSTANCES[family.name]]


def evals():
    return [item["eval"] for _family, item in ALL]


def visible_text(response) -> str:
    return " ".join(" ".join(lxml.html.fromstring(response.get_data(as_text=True)).itertext()).split())


def test_quota_families_and_instances():
    assert len(FAMILIES) >= 8 and all(f.name.startswith("shopping_admin.") for f in FAMILIES)
    assert sum(len(items) for items in INSTANCES.values()) >= 175
    assert {name: len(items) for name, items in INSTANCES.items() if len(items) < 10} == {}
    assert {f.kind for f in FAMILIES} == {"information", "navigation", "content"}


def test_instances_are_valid_distinct_and_deterministic():
    for family, item in ALL:
        task = Task.from_dict(item | {"task_id": 0, "intent_template": family.intent_template})
        assert task.sites == (SITE,) and task.start_url.startswith("__SHOPPING_ADMIN__")
        assert "{{" not in task.intent
    for family in FAMILIES:
        intents = [item["intent"] for item in INSTANCES[family.name]]
        assert len(set(intents)) == len(intents), family.name
        assert family.instantiate(pristine_database) == INSTANCES[family.name]


def test_evaluator_mix_follows_webarena_lite():
    kinds = [tuple(INSTANCES[f.name][0]["eval"]["eval_types"]) for f in FAMILIES]
    share = lambda name: sum(name in k for k in kinds) / len(kinds)  # noqa: E731
    assert 0.45 <= share("string_match") <= 0.65
    assert 0.15 <= share("url_match") <= 0.3
    assert 0.2 <= share("program_html") <= 0.35
    answers = [e["reference_answers"] for e in evals() if e["reference_answers"]]
    assert any("exact_match" in a for a in answers)
    assert any(" |OR| " in m for a in answers for m in a.get("must_include", []))
    assert any(isinstance(a.get("fuzzy_match"), list) for a in answers)
    assert any(a.get("fuzzy_match") == "N/A" for a in answers)
    assert any(e.get("url_note") == "GOLD in PRED" and "?" in e["reference_url"] for e in evals())
    urls = [t["url"] for e in evals() for t in e["program_html"]]
    assert "last" in urls and any(u.startswith("__SHOPPING_ADMIN__/") for u in urls)
    helpers = {re.match(r"func:(\w+)", u).group(1) for u in urls if u.startswith("func:")}
    assert helpers and helpers <= set(registered_functions())


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


# -- oracles (need the env, the direct backend and the evaluators) ---------------------------

oracle = pytest.importorskip("webarena_gym.tasks.oracle")


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.name)
def test_oracle_solves_every_instance(family):
    for item in INSTANCES[family.name]:
        episode = oracle.run_oracle(item, family.solve)
        assert episode.reward == 1.0, (item["intent"], episode.actions, episode.info.get("reward_components"))


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.name)
def test_wrong_or_missing_answers_earn_nothing(family):
    for item in INSTANCES[family.name][:3]:
        assert oracle.run_answer(item, "I am not sure").reward == 0.0
        assert oracle.run_answer(item, None).reward == 0.0
