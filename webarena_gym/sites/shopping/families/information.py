"""Information-seeking families: product facts, reviews and Emma Lopez's order history."""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Iterator

from ....sites.shopping.phrases import ASPECTS
from ....sites.shopping.store import long_date, rating_percent
from ....tasks.families import TaskFamily, money
from ....tasks.task import any_of
from .common import (
    SHOPPING,
    answer,
    emma_id,
    family,
    has_next_page,
    kind_of,
    listed_products,
    open_order_history,
    open_product,
    order_rows,
    pick,
    rows,
    shown_prices,
    viewed_items,
)

# -- What is the SKU of a product (exact_match) -------------------------------------------


def _sku_instances(conn):
    for product in pick(rows(conn, "SELECT name, sku FROM products ORDER BY id"), 20, salt=1):
        yield {"product": product["name"]}, answer(exact_match=product["sku"])


def _sku_solve(ctx) -> Iterator[str]:
    yield from open_product(ctx, ctx.instantiation["product"])
    yield ctx.exit(ctx.search_text(r"SKU: (\w+)"))


# -- How many orders in a month (exact_match) ---------------------------------------------

_MONTHS = [dt.date(2022 + (m // 12), m % 12 + 1, 1) for m in range(0, 17)]  # Jan 2022 .. May 2023


def _month_count_instances(conn):
    emma = emma_id(conn)
    for month in _MONTHS:
        prefix = month.strftime("%Y-%m")
        count = rows(conn, "SELECT COUNT(*) AS n FROM orders WHERE customer_id = ? AND created_at LIKE ?", emma,
                     prefix + "%")[0]["n"]
        yield {"month": month.strftime("%B %Y")}, answer(exact_match=str(count))


def _month_count_solve(ctx) -> Iterator[str]:
    month = dt.datetime.strptime(ctx.instantiation["month"], "%B %Y")
    yield from open_order_history(ctx)
    count = 0
    while True:
        for _number, date, _total, _status in order_rows(ctx):
            m, _d, y = (int(part) for part in date.split("/"))
            count += (m, 2000 + y) == (month.month, month.year)
        if not has_next_page(ctx):
            break
        yield ctx.click("Next", tag="a", exact=True)
    yield ctx.exit(str(count))


# -- Rating of a product (must_include, percentage |OR| stars) -----------------------------


def _rating_instances(conn):
    rated = rows(conn, "SELECT p.name, AVG(r.rating) AS average, COUNT(*) AS n FROM products p"
                       " JOIN reviews r ON r.product_id = p.id GROUP BY p.id HAVING n >= 2 ORDER BY p.id")
    # half stars have no single nearest whole number
    clear = [row for row in rated if abs(row["average"] - math.floor(row["average"]) - 0.5) > 1e-9]
    for row in pick(clear, 20, salt=3):
        stars = math.floor(row["average"] + 0.5)
        yield {"product": row["name"]}, answer(must_include=[any_of(str(rating_percent(row['average'])), str(stars))])


def _rating_solve(ctx) -> Iterator[str]:
    yield from open_product(ctx, ctx.instantiation["product"])
    yield ctx.exit(ctx.search_text(r"Rating: (\d+%)"))


# -- Grand total of an order (must_include) -----------------------------------------------


def _order_total_instances(conn):
    for order in rows(conn, "SELECT increment_id, grand_total FROM orders WHERE customer_id = ? ORDER BY id",
                      emma_id(conn)):
        yield {"order_number": order["increment_id"]}, answer(must_include=[money(order["grand_total"] / 100)])


def _order_total_solve(ctx) -> Iterator[str]:
    wanted = ctx.instantiation["order_number"]
    yield from open_order_history(ctx)
    while not any(row[0] == wanted for row in order_rows(ctx)):
        yield ctx.click("Next", tag="a", exact=True)
    yield ctx.exit(next(total for number, _date, total, _status in order_rows(ctx) if number == wanted))


# -- Reviewers who mention an aspect (must_include, a list) -------------------------------


def mentions(text: str, keyword: str) -> bool:
    return re.search(rf"\b{re.escape(keyword)}\b", text, re.IGNORECASE) is not None


def _reviewer_instances(conn):
    candidates = []
    products = rows(conn, "SELECT p.id, p.name FROM products p WHERE (SELECT COUNT(*) FROM reviews r"
                          " WHERE r.product_id = p.id) >= 4 ORDER BY p.id")
    for product in products:
        reviews = rows(conn, "SELECT nickname, summary, body FROM reviews WHERE product_id = ? ORDER BY id", product["id"])
        keywords = sorted(ASPECTS)
        offset = product["id"] % len(keywords)  # vary the aspect from product to product
        for keyword in keywords[offset:] + keywords[:offset]:
            names = [r["nickname"] for r in reviews if mentions(f"{r['summary']} {r['body']}", keyword)]
            if 1 <= len(names) <= 3:
                candidates.append((product["name"], keyword, names))
                break  # one aspect per product keeps instances about different products
    for name, keyword, names in pick(candidates, 16, salt=5):
        yield {"product": name, "description": keyword}, answer(must_include=names)


def _reviewer_solve(ctx) -> Iterator[str]:
    yield from open_product(ctx, ctx.instantiation["product"])
    keyword = ctx.instantiation["description"]
    names = []
    for block in re.findall(r"<li>(.*?)</li>", ctx.page.text, re.DOTALL):
        author = re.search(r"Review by (.+?), posted on", block)
        if author and mentions(block.split("Review by")[0], keyword):
            names.append(author.group(1))
    yield ctx.exit(", ".join(names))


# -- When did I last order a product (fuzzy_match) ----------------------------------------

RECENT_ORDERS = 8


def _last_order_instances(conn):
    emma = emma_id(conn)
    recent = rows(conn, "SELECT created_at FROM orders WHERE customer_id = ? ORDER BY created_at DESC LIMIT ?",
                  emma, RECENT_ORDERS)
    cutoff = recent[-1]["created_at"]  # only products the first page of My Orders leads to
    last = rows(conn, "SELECT i.name, MAX(o.created_at) AS last FROM order_items i JOIN orders o ON o.id = i.order_id"
                      " WHERE o.customer_id = ? GROUP BY i.product_id ORDER BY i.product_id", emma)
    for row in last:
        if row["last"] >= cutoff:
            yield {"product": row["name"]}, answer(fuzzy_match=[long_date(row["last"])])


def _last_order_solve(ctx) -> Iterator[str]:
    product = ctx.instantiation["product"]
    yield from open_order_history(ctx)
    for number, _date, _total, _status in order_rows(ctx):
        yield ctx.click(f"View Order {number}", tag="a")
        if any(item["name"] == product for item in viewed_items(ctx)):  # the sidebar names other products
            yield ctx.exit(ctx.search_text(r"Order Date: (\w+ \d+, \d{4})"))
            return
        yield ctx.go_back()
    yield ctx.exit("N/A")


# -- Price range of a brand (must_include) ------------------------------------------------


def _brand_range_instances(conn):
    brands = rows(conn, "SELECT brand, MIN(price) AS low, MAX(price) AS high, COUNT(*) AS n FROM products"
                        " GROUP BY brand HAVING n >= 2 AND n <= 12 AND low < high ORDER BY brand")
    for brand in pick(brands, 20, salt=7):
        yield {"brand": brand["brand"]}, answer(must_include=[money(brand["low"] / 100), money(brand["high"] / 100)])


def _brand_range_solve(ctx) -> Iterator[str]:
    brand = ctx.instantiation["brand"]
    yield ctx.search("Search", brand)
    yield ctx.click(brand, tag="a", exact=True)  # the Brand filter of the results
    found = shown_prices(ctx)
    yield ctx.exit(f"${min(found):,.2f} - ${max(found):,.2f}")


# -- Unachievable: summarize reviews of a product that has none (fuzzy_match N/A) ----------


def _no_review_instances(conn):
    lonely = rows(conn, "SELECT name FROM products WHERE id NOT IN (SELECT product_id FROM reviews) ORDER BY id")
    for product in pick(lonely, 15, salt=9):
        yield {"product": product["name"]}, answer(fuzzy_match="N/A")


def _no_review_solve(ctx) -> Iterator[str]:
    yield from open_product(ctx, ctx.instantiation["product"])
    if "There are no reviews for this product yet." in ctx.text():
        yield ctx.exit("N/A")
    else:
        yield ctx.exit("The product has reviews.")


# -- Reviewers who mention an aspect, asked on the product's page (must_include) -----------


def _page_reviewer_instances(conn):
    keywords = sorted(ASPECTS)
    products = rows(conn, "SELECT p.id, p.url_key FROM products p WHERE (SELECT COUNT(*) FROM reviews r"
                          " WHERE r.product_id = p.id) >= 3 ORDER BY p.id")
    found: dict[str, tuple[str, list[str]]] = {}
    for product in products:
        reviews = rows(conn, "SELECT nickname, summary, body FROM reviews WHERE product_id = ? ORDER BY id", product["id"])
        offset = product["id"] % len(keywords)
        for keyword in keywords[offset:] + keywords[:offset]:
            names = [r["nickname"] for r in reviews if mentions(f"{r['summary']} {r['body']}", keyword)]
            if 1 <= len(names) <= 3 and keyword not in found:
                # the intent names only the aspect: one product per aspect, one aspect per product
                found[keyword] = (product["url_key"], names)
                break
    for keyword, (url_key, names) in found.items():
        yield {"description": keyword}, answer(must_include=names), f"{SHOPPING}/{url_key}.html"


def _page_reviewer_solve(ctx) -> Iterator[str]:
    keyword = ctx.instantiation["description"]
    names = []
    for block in re.findall(r"<li>(.*?)</li>", ctx.page.text, re.DOTALL):
        author = re.search(r"Review by (.+?), posted on", block)
        if author and mentions(block.split("Review by")[0], keyword):
            names.append(author.group(1))
    yield ctx.exit(", ".join(names) or "N/A")


# -- Rating of a product, as Lite words it (must_include, percentage |OR| stars) -----------


def _plain_rating_instances(conn):
    rated = rows(conn, "SELECT p.name, AVG(r.rating) AS average, COUNT(*) AS n FROM products p"
                       " JOIN reviews r ON r.product_id = p.id GROUP BY p.id HAVING n >= 3 ORDER BY p.id")
    clear = [row for row in rated if abs(row["average"] - math.floor(row["average"]) - 0.5) > 1e-9]
    for row in pick(clear, 16, salt=61):
        stars = math.floor(row["average"] + 0.5)
        yield {"product": row["name"]}, answer(must_include=[any_of(str(rating_percent(row["average"])), str(stars))])


# -- Price range of a kind of product (must_include) ---------------------------------------


def _kind_range_instances(conn):
    by_kind: dict[str, list[int]] = {}
    for product in rows(conn, "SELECT name, brand, price FROM products ORDER BY id"):
        by_kind.setdefault(kind_of(product["name"], product["brand"]).lower(), []).append(product["price"])
    # a kind whose name is inside another kind's name would pull that kind's products in too
    kinds = [k for k, prices in by_kind.items() if len(prices) >= 2 and min(prices) < max(prices)
             and not any(k != other and k in other for other in by_kind)]
    for kind in pick(kinds, 20, salt=63):
        prices = by_kind[kind]
        yield {"product": kind}, answer(must_include=[money(min(prices) / 100), money(max(prices) / 100)])


def _kind_range_solve(ctx) -> Iterator[str]:
    kind = ctx.instantiation["product"]
    yield ctx.search("Search", kind)
    prices = [price for name, _rating, _count, price in listed_products(ctx) if kind in name.lower()]
    while has_next_page(ctx):
        yield ctx.click("Next", tag="a", exact=True)
        prices += [price for name, _rating, _count, price in listed_products(ctx) if kind in name.lower()]
    yield ctx.exit(f"${min(prices):,.2f} - ${max(prices):,.2f}")


# -- What customers say about a brand's kind of product, when nobody reviewed it (fuzzy_match) ----


def _brand_kind_instances(conn):
    found: dict[tuple[str, str], list[int]] = {}
    for product in rows(conn, "SELECT p.name, p.brand, (SELECT COUNT(*) FROM reviews r WHERE r.product_id = p.id) AS n"
                              " FROM products p ORDER BY p.id"):
        found.setdefault((kind_of(product["name"], product["brand"]).lower(), product["brand"]), []).append(product["n"])
    silent = [pair for pair, counts in found.items() if not any(counts)]
    for kind, brand in pick(silent, 15, salt=65):
        yield ({"product_type": kind, "manufature": brand},
               answer(fuzzy_match=["no reviews"]))  # Lite: "No reviews available for the sephora brushes."


def _brand_kind_solve(ctx) -> Iterator[str]:
    kind, brand = ctx.instantiation["product_type"], ctx.instantiation["manufature"]
    yield ctx.search("Search", f"{brand} {kind}")
    names = [name for name, _rating, _count, _price in listed_products(ctx)
             if name.startswith(brand) and kind in name.lower()]
    counts = [count for name, _rating, count, _price in listed_products(ctx) if name in names]
    if names and not any(counts):
        yield ctx.exit(f"No reviews available for the {kind} from {brand}.")
    else:
        yield ctx.exit(f"The {kind} from {brand} has reviews.")


FAMILIES: list[TaskFamily] = [
    family("product_sku", "What is the SKU of {{product}}?", "information", _sku_instances, _sku_solve),
    family("orders_in_month", "How many orders did I place in {{month}}?", "information",
           _month_count_instances, _month_count_solve),
    family("product_rating", "What is the rating of {{product}}? Please round to the nearest whole number.",
           "information", _rating_instances, _rating_solve),
    family("order_grand_total", "What is the grand total of my order number {{order_number}}?", "information",
           _order_total_instances, _order_total_solve),
    family("reviewers_mentioning", "List out reviewers of {{product}}, if exist, who mention about {{description}}.",
           "information", _reviewer_instances, _reviewer_solve),
    family("last_ordered_date", "When did I last order {{product}}?", "information",
           _last_order_instances, _last_order_solve),
    family("brand_price_range", "What is the price range for products from {{brand}}?", "information",
           _brand_range_instances, _brand_range_solve),
    family("summarize_missing_reviews", "Summarize customer reviews for {{product}}.", "information",
           _no_review_instances, _no_review_solve),
    family("reviewers_mentioning_here", "List out reviewers, if exist, who mention about {{description}}", "information",
           _page_reviewer_instances, _page_reviewer_solve),
    family("product_rating_plain", "What is the rating of {{product}}", "information", _plain_rating_instances,
           _rating_solve),
    family("product_kind_price_range", "What is the price range of {{product}} in the One Stop Market?", "information",
           _kind_range_instances, _kind_range_solve),
    family("brand_kind_opinions", "What do customers say about {{product_type}} from {{manufature}}", "information",
           _brand_kind_instances, _brand_kind_solve),
]
