"""The store's task families: instances from the seeded data, and oracles that earn the reward."""

from __future__ import annotations

import re

import lxml.html
import pytest

from webarena_gym.evaluators.functions import registered_functions
from webarena_gym.sites.world import pristine_database
from webarena_gym.tasks.embedded.shopping import FAMILIES
from webarena_gym.tasks.task import Task

EMMA = "emma.lopez@hotmail.com"
INSTANCES = {family.name: family.instantiate(pristine_database) for family in FAMILIES}
ALL = [(family, item) for family in FAMILIES for item in INSTANCES[family.name]]


def evals():
    return [item["eval"] for _family, item in ALL]


def test_quota_families_and_instances():
    assert len(FAMILIES) >= 8 and all(f.name.startswith("shopping.") for f in FAMILIES)
    assert sum(len(items) for items in INSTANCES.values()) >= 225
    assert {name: len(items) for name, items in INSTANCES.items() if len(items) < 10} == {}
    assert {f.kind for f in FAMILIES} == {"information", "navigation", "content"}


def test_instances_are_valid_distinct_and_deterministic():
    for family, item in ALL:
        task = Task.from_dict(item | {"task_id": 0, "intent_template": family.intent_template})
        assert task.sites == ("shopping",) and task.start_url.startswith("__SHOPPING__")
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
    targets = [t for e in evals() for t in e["program_html"]]
    urls = {t["url"] for t in targets}
    assert "last" in urls and any(u.startswith("__SHOPPING__/") for u in urls)
    helpers = {re.match(r"func:(\w+)", u).group(1) for u in urls if u.startswith("func:")}
    helpers |= {re.match(r"func:(\w+)", t["locator"]).group(1) for t in targets if t["locator"].startswith("func:")}
    assert helpers and helpers <= set(registered_functions())


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
    from webarena_gym.tasks.embedded.shopping.common import latest_order_url, latest_review_field

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


# -- oracles (need the env, the direct backend and the evaluators) ---------------------------

oracle = pytest.importorskip("webarena_gym.tasks.oracle")


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.name)
def test_oracle_solves_every_instance(family):
    for item in INSTANCES[family.name]:
        episode = oracle.run_oracle(item, family.solve)
        assert episode.reward == 1.0, (item["intent"], episode.actions, episode.info.get("reward_components"))


@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.name)
def test_wrong_or_missing_answers_earn_nothing(family):
    item = INSTANCES[family.name][0]
    assert oracle.run_answer(item, "I am not sure").reward == 0.0
    assert oracle.run_answer(item, None).reward == 0.0


@pytest.mark.browser
@pytest.mark.parametrize("family", FAMILIES, ids=lambda f: f.name)
def test_oracle_works_in_a_real_browser(family):
    item = INSTANCES[family.name][1]
    episode = oracle.run_oracle(item, family.solve, backend="playwright")
    assert episode.reward == 1.0, (item["intent"], episode.actions, episode.info.get("reward_components"))
