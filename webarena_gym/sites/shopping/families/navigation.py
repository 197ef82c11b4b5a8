"""Navigation families: reach a category page, a search results page, a sorted product list."""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import urlencode

from ....tasks.families import TaskFamily, url_match_eval
from .common import SHOPPING, category_names, category_parent, family, open_category, pick, rows

# -- Browse a category --------------------------------------------------------------------


def _browse_instances(conn):
    names = category_names(conn)
    for category in rows(conn, "SELECT id, url_path FROM categories ORDER BY id"):
        name, parent = names[category["id"]]
        yield {"category": name}, url_match_eval(f"{SHOPPING}/{category['url_path']}.html", "GOLD in PRED")


def _browse_solve(ctx) -> Iterator[str]:
    name = ctx.instantiation["category"]
    yield from open_category(ctx, name, category_parent(ctx, name))
    yield ctx.exit("")


# -- Search for a keyword -----------------------------------------------------------------


STOP_WORDS = frozenset({"a", "and", "for", "in", "of", "set", "the", "to", "with", "edition"})


def search_keyword(name: str, brand: str) -> str | None:
    """Two neighbouring plain words of a product's kind (``ground coffee``), or None."""
    kind = name[len(brand):].split(",")[0].split()
    for first, second in reversed(list(zip(kind, kind[1:], strict=False))):
        if first.isalpha() and second.isalpha() and not {first.lower(), second.lower()} & STOP_WORDS:
            return f"{first} {second}".lower()
    return None


def _search_instances(conn):
    keywords = []
    for product in rows(conn, "SELECT name, brand FROM products ORDER BY category_id, position"):
        keyword = search_keyword(product["name"], product["brand"])
        if keyword and keyword not in keywords:
            keywords.append(keyword)
    for keyword in pick(keywords, 20, salt=11):
        yield {"keyword": keyword}, url_match_eval(f"{SHOPPING}/catalogsearch/result/?{urlencode({'q': keyword})}", "GOLD in PRED")


def _search_solve(ctx) -> Iterator[str]:
    yield ctx.search("Search", ctx.instantiation["keyword"])
    yield ctx.exit("")


# -- List a category's products by price --------------------------------------------------

DIRECTIONS = {"ascending": "asc", "descending": "desc"}


def _sort_instances(conn):
    names = category_names(conn)
    pairs = [
        (category, order)
        for category in rows(conn, "SELECT id, url_path FROM categories ORDER BY id")
        for order in DIRECTIONS
    ]
    for category, order in pick(pairs, 24, salt=13):
        query = urlencode({"product_list_order": "price", "product_list_dir": DIRECTIONS[order]})
        yield ({"category": names[category["id"]][0], "order": order},
               url_match_eval(f"{SHOPPING}/{category['url_path']}.html?{query}", "GOLD in PRED"))


def _sort_solve(ctx) -> Iterator[str]:
    name = ctx.instantiation["category"]
    yield from open_category(ctx, name, category_parent(ctx, name))
    yield ctx.select("Sort By", "Price")
    yield ctx.select("Direction", ctx.instantiation["order"].capitalize())
    yield ctx.click("Sort", tag="button", exact=True)
    yield ctx.exit("")


FAMILIES: list[TaskFamily] = [
    family("browse_category", "I want to browse the products in the {{category}} category", "navigation",
           _browse_instances, _browse_solve),
    family("search_keyword", 'Search for "{{keyword}}"', "navigation", _search_instances, _search_solve),
    family("sort_category_by_price", "List products from {{category}} category by {{order}} price", "navigation",
           _sort_instances, _sort_solve),
]
