"""Navigation families: reach a category page, a search results page, a sorted product list."""

from __future__ import annotations

from collections.abc import Iterator
from urllib.parse import urlencode

from ....tasks.families import TaskFamily, url_match_eval
from .common import SHOPPING, category_names, category_parent, family, open_category, pick, rows, sort_listing

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
    yield from sort_listing(ctx, "Price", ctx.instantiation["order"].capitalize())
    yield ctx.exit("")


# -- Most expensive product of a category: the list sorted by price, descending ------------


def _priciest_instances(conn):
    names = category_names(conn)
    categories = rows(conn, "SELECT id, url_path FROM categories ORDER BY id")
    query = urlencode({"product_list_order": "price", "product_list_dir": "desc"})
    for category in pick(categories, 20, salt=31):
        yield ({"product_category": names[category["id"]][0]},
               url_match_eval(f"{SHOPPING}/{category['url_path']}.html?{query}", "GOLD in PRED"))


def _priciest_solve(ctx) -> Iterator[str]:
    name = ctx.instantiation["product_category"]
    yield from open_category(ctx, name, category_parent(ctx, name))
    yield from sort_listing(ctx, "Price", "Descending")
    yield ctx.exit("")


# -- Products under a price in a category: the Min/Max price filter -------------------------

PRICE_CAPS = (10, 15, 20, 25, 30, 40, 50, 75, 100, 150, 200, 300)


def _under_price_instances(conn):
    names = category_names(conn)
    candidates = []
    for category in rows(conn, "SELECT id, url_path FROM categories ORDER BY id"):
        prices = [row["price"] for row in rows(
            conn, "WITH RECURSIVE tree(id) AS (SELECT ? UNION ALL SELECT c.id FROM categories c"
                  " JOIN tree ON c.parent_id = tree.id) SELECT price FROM products"
                  " WHERE category_id IN (SELECT id FROM tree)", category["id"])]
        # a cap that leaves some products in and some out, so the filter visibly matters
        caps = [cap for cap in PRICE_CAPS if 0 < sum(p < cap * 100 for p in prices) < len(prices)]
        if caps:
            candidates.append((category, caps[(category["id"] * 7) % len(caps)]))
    for category, cap in pick(candidates, 20, salt=33):
        yield ({"price": str(cap), "product_category": names[category["id"]][0]},
               url_match_eval(f"{SHOPPING}/{category['url_path']}.html?{urlencode({'price': f'0-{cap}'})}", "GOLD in PRED"))


def _under_price_solve(ctx) -> Iterator[str]:
    name = ctx.instantiation["product_category"]
    yield from open_category(ctx, name, category_parent(ctx, name))
    yield ctx.type("Max Price", ctx.instantiation["price"])
    yield ctx.click("Apply", tag="button", exact=True)
    yield ctx.exit("")


# -- Search results in a given order -------------------------------------------------------

SEARCH_ORDERS = {
    "ascending price": ("price", "asc", "Price", "Ascending"),
    "descending price": ("price", "desc", "Price", "Descending"),
    "name in alphabetical order": ("name", "asc", "Product Name", "Ascending"),
    "name in reverse alphabetical order": ("name", "desc", "Product Name", "Descending"),
}


def _sorted_search_instances(conn):
    keywords = []
    for product in rows(conn, "SELECT name, brand FROM products ORDER BY category_id, position"):
        keyword = search_keyword(product["name"], product["brand"])
        if keyword and keyword not in keywords:
            keywords.append(keyword)
    orders = list(SEARCH_ORDERS)
    for index, keyword in enumerate(pick(keywords, 20, salt=35)):
        order, direction, _, _ = SEARCH_ORDERS[orders[index % len(orders)]]
        query = urlencode({"q": keyword, "product_list_order": order, "product_list_dir": direction})
        yield ({"product": keyword, "sorting_order": orders[index % len(orders)]},
               url_match_eval(f"{SHOPPING}/catalogsearch/result/?{query}", "GOLD in PRED"))


def _sorted_search_solve(ctx) -> Iterator[str]:
    _, _, order, direction = SEARCH_ORDERS[ctx.instantiation["sorting_order"]]
    yield ctx.search("Search", ctx.instantiation["product"])
    yield from sort_listing(ctx, order, direction)
    yield ctx.exit("")


FAMILIES: list[TaskFamily] = [
    family("browse_category", "I want to browse the products in the {{category}} category", "navigation",
           _browse_instances, _browse_solve),
    family("search_keyword", 'Search for "{{keyword}}"', "navigation", _search_instances, _search_solve),
    family("sort_category_by_price", "List products from {{category}} category by {{order}} price", "navigation",
           _sort_instances, _sort_solve),
    family("most_expensive_in_category", "I am doing a market survey for one stop market, show me the most expensive "
           "product from {{product_category}} category", "navigation", _priciest_instances, _priciest_solve),
    family("products_under_price", 'Show me products under ${{price}} in "{{product_category}}" category', "navigation",
           _under_price_instances, _under_price_solve),
    family("sorted_search_listing", 'Show me the "{{product}}" listings by {{sorting_order}}.', "navigation",
           _sorted_search_instances, _sorted_search_solve),
]
