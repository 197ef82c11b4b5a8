"""Information-seeking families of the store admin (string_match): read reports, grids and records."""

from __future__ import annotations

import datetime as dt
import sqlite3
from collections.abc import Iterator
from decimal import Decimal
from typing import TYPE_CHECKING

from ....sites.shopping_admin.data import STATUSES
from ....tasks.families import money, string_match_eval
from .common import (
    count_reference,
    family,
    filter_orders,
    menu,
    open_order,
    period_bounds,
    periods,
    records_found,
    row_value,
    table_rows,
    us,
)

if TYPE_CHECKING:
    from ....tasks.oracle import OracleContext

#: Words of the review vocabulary worth counting (kept only where titles do not blur the count).
REVIEW_TERMS = ("disappointed", "comfortable", "color", "fabric", "gift", "zipper", "itchy", "warm", "soft", "cheap",
                "stylish", "shipping", "runs small", "durable", "breathable", "money", "compliments", "faded",
                "stitching", "heavy", "lightweight", "washing", "morning runs", "hikes", "packed")
ORDER_ATTRIBUTES = {"customer name": "Customer Name", "customer email": "Email", "grand total": "Grand Total"}


def _between(period: str) -> tuple[str, str]:
    start, end = period_bounds(period)
    return f"{start} 00:00:00", f"{end} 23:59:59"


# -- top-n best-selling product in a period ------------------------------------------------


def _bestsellers(conn: sqlite3.Connection):
    for period in periods():
        ranking = conn.execute(
            "SELECT p.name, SUM(i.qty) AS qty FROM order_item i JOIN sales_order o ON o.id = i.order_id "
            "JOIN product p ON p.id = i.product_id WHERE o.status != 'canceled' AND o.created_at BETWEEN ? AND ? "
            "GROUP BY p.id ORDER BY qty DESC, p.name", _between(period)).fetchall()
        quantities = [row[1] for row in ranking]
        for n in (1, 2, 3):
            if len(ranking) < n + 1:
                continue
            # only ranks the report shows without a tie on either side
            if (n > 1 and quantities[n - 2] == quantities[n - 1]) or quantities[n] == quantities[n - 1]:
                continue
            yield {"n": n, "period": period}, string_match_eval(exact_match=ranking[n - 1][0])


def solve_bestseller(ctx: OracleContext) -> Iterator[str]:
    n, period = int(ctx.instantiation["n"]), str(ctx.instantiation["period"])
    start, end = period_bounds(period)
    yield from menu(ctx, "Bestsellers")
    yield ctx.select("Period", "Year" if period.isdigit() else "Month")
    yield ctx.type("From", us(start))
    yield ctx.type("To", us(end))
    yield ctx.click("Show Report", tag="button")
    product = next(cells[2] for cells in table_rows(ctx) if len(cells) == 6 and cells[1] == str(n))
    yield ctx.exit(product)


# -- reviews that mention a term --------------------------------------------------------------


def _review_terms(conn: sqlite3.Connection):
    for term in REVIEW_TERMS:
        like = f"%{term}%"
        in_detail = conn.execute("SELECT COUNT(*) FROM review WHERE detail LIKE ?", (like,)).fetchone()[0]
        anywhere = conn.execute("SELECT COUNT(*) FROM review WHERE detail LIKE ? OR title LIKE ?",
                                (like, like)).fetchone()[0]
        if in_detail and in_detail == anywhere:
            yield {"term": term}, string_match_eval(must_include=[count_reference(in_detail)])


def solve_review_terms(ctx: OracleContext) -> Iterator[str]:
    yield from menu(ctx, "All Reviews")
    yield ctx.type("Review", str(ctx.instantiation["term"]))
    yield ctx.click("Search", tag="button", exact=True)
    yield ctx.exit(str(records_found(ctx)))


# -- top search terms ----------------------------------------------------------------------------


def _top_terms(conn: sqlite3.Connection):
    terms = [r[0] for r in conn.execute("SELECT query_text FROM search_term ORDER BY uses DESC LIMIT 10")]
    for n in range(1, 11):
        yield {"n": n}, string_match_eval(must_include=terms[:n])


def solve_top_terms(ctx: OracleContext) -> Iterator[str]:
    yield from menu(ctx, "Search Terms")
    rows = [cells[0] for cells in table_rows(ctx) if len(cells) == 4 and not cells[0].startswith("Search Query")]
    yield ctx.exit(", ".join(rows[: int(ctx.instantiation["n"])]))


# -- a customer by phone number ----------------------------------------------------------------------


def _customers_by_phone(conn: sqlite3.Connection):
    for first, last, email, phone in conn.execute(
            "SELECT firstname, lastname, email, phone FROM customer WHERE id % 5 = 2 ORDER BY id"):
        yield {"PhoneNum": phone}, string_match_eval(must_include=[f"{first} {last}", email])


def solve_customer_by_phone(ctx: OracleContext) -> Iterator[str]:
    yield from menu(ctx, "All Customers")
    yield ctx.search("Search by keyword", str(ctx.instantiation["PhoneNum"]))
    cells = next(c for c in table_rows(ctx) if len(c) == 10 and c[0].isdigit())
    yield ctx.exit(f"{cells[1]}, {cells[2]}")


# -- grand total of an invoice -------------------------------------------------------------------------


def _invoices(conn: sqlite3.Connection):
    for number, total in conn.execute("SELECT increment_id, grand_total FROM invoice WHERE id % 40 = 7 ORDER BY id"):
        yield {"id": number}, string_match_eval(must_include=[money(total)])


def solve_invoice(ctx: OracleContext) -> Iterator[str]:
    number = str(ctx.instantiation["id"])
    yield from menu(ctx, "Invoices")
    yield ctx.search("Search by keyword", number)
    cells = next(c for c in table_rows(ctx) if len(c) == 8 and c[0] == number)
    yield ctx.exit(cells[6])


# -- an attribute of the latest order with a status ------------------------------------------------------


def _latest_orders(conn: sqlite3.Connection):
    for status, label in STATUSES.items():
        latest = conn.execute("SELECT customer_name, customer_email, grand_total, created_at FROM sales_order "
                              "WHERE status = ? ORDER BY created_at DESC LIMIT 2", (status,)).fetchall()
        if not latest or (len(latest) == 2 and latest[0][3] == latest[1][3]):
            continue
        name, email, total, _ = latest[0]
        values = {"customer name": name, "customer email": email, "grand total": f"${total:,.2f}"}
        for attribute, value in values.items():
            yield {"attribute": attribute, "status": f"most recent {label.lower()}"}, string_match_eval(fuzzy_match=[value])


def solve_latest_order(ctx: OracleContext) -> Iterator[str]:
    status = str(ctx.instantiation["status"]).removeprefix("most recent ")
    label = next(label for label in STATUSES.values() if label.lower() == status)
    yield from filter_orders(ctx, status=label)
    yield ctx.click("View order", tag="a")  # newest first: the grid sorts by purchase date
    yield ctx.exit(row_value(ctx, ORDER_ATTRIBUTES[str(ctx.instantiation["attribute"])]))


# -- reviews and orders in a period ------------------------------------------------------------------------


def _reviews_in_period(conn: sqlite3.Connection):
    for period in periods():
        count = conn.execute("SELECT COUNT(*) FROM review WHERE created_at BETWEEN ? AND ?", _between(period)).fetchone()[0]
        yield {"time": f"in {period}"}, string_match_eval(must_include=[count_reference(count)])


def solve_reviews_in_period(ctx: OracleContext) -> Iterator[str]:
    start, end = period_bounds(str(ctx.instantiation["time"]).removeprefix("in "))
    yield from menu(ctx, "All Reviews")
    yield ctx.type("Created from", us(start))
    yield ctx.type("Created to", us(end))
    yield ctx.click("Search", tag="button", exact=True)
    yield ctx.exit(str(records_found(ctx)))


def _orders_in_period(conn: sqlite3.Connection):
    for period in periods():
        count = conn.execute("SELECT COUNT(*) FROM sales_order WHERE created_at BETWEEN ? AND ?",
                             _between(period)).fetchone()[0]
        yield {"period": period}, string_match_eval(must_include=[count_reference(count)])


def solve_orders_in_period(ctx: OracleContext) -> Iterator[str]:
    start, end = period_bounds(str(ctx.instantiation["period"]))
    yield from filter_orders(ctx, start=start, end=end)
    yield ctx.exit(str(records_found(ctx)))


# -- how many orders a customer placed ------------------------------------------------------------------------


def _customer_order_counts(conn: sqlite3.Connection):
    for first, last, count in conn.execute(
            "SELECT c.firstname, c.lastname, COUNT(o.id) FROM customer c JOIN sales_order o ON o.customer_id = c.id "
            "WHERE c.id % 6 = 1 GROUP BY c.id ORDER BY c.id"):
        yield {"customer": f"{first} {last}"}, string_match_eval(must_include=[count_reference(count)])


def solve_customer_order_count(ctx: OracleContext) -> Iterator[str]:
    name = str(ctx.instantiation["customer"])
    yield from menu(ctx, "All Customers")
    yield ctx.search("Search by keyword", name)
    yield ctx.click(f"Edit {name}", tag="a", exact=True)
    yield ctx.exit(ctx.search_text(r"Orders: (\d+)"))


# -- unachievable: tracking numbers of orders that never shipped ------------------------------------------------


def _unshipped(conn: sqlite3.Connection):
    rows = conn.execute("SELECT id FROM sales_order o WHERE NOT EXISTS (SELECT 1 FROM shipment s WHERE s.order_id = o.id) "
                        "ORDER BY id").fetchall()
    for (order_id,) in rows[::24]:
        evaluation = string_match_eval(fuzzy_match="N/A")
        evaluation["string_note"] = "The order has no shipment, so it has no tracking number."
        yield {"order": order_id}, evaluation


def solve_unshipped(ctx: OracleContext) -> Iterator[str]:
    yield from open_order(ctx, int(ctx.instantiation["order"]))
    ctx.search_text(r"(No shipments yet)")
    yield ctx.exit("N/A")


# -- the top-n best-selling products of a period --------------------------------------------------


def _top_bestsellers(conn: sqlite3.Connection):
    for i, period in enumerate(periods()):
        ranking = conn.execute(
            "SELECT p.name, SUM(i.qty) AS qty FROM order_item i JOIN sales_order o ON o.id = i.order_id "
            "JOIN product p ON p.id = i.product_id WHERE o.status != 'canceled' AND o.created_at BETWEEN ? AND ? "
            "GROUP BY p.id ORDER BY qty DESC, p.name", _between(period)).fetchall()
        names, quantities = [row[0] for row in ranking], [row[1] for row in ranking]
        for n in ((2, 3), (3, 5), (4, 2), (5, 3))[i % 4]:
            # the n-th and the (n+1)-th must differ, or "the top n" is not one set
            if len(quantities) > n and quantities[n - 1] != quantities[n]:
                yield {"n": n, "period": period}, string_match_eval(must_include=names[:n])
                break


def solve_top_bestsellers(ctx: OracleContext) -> Iterator[str]:
    n, period = int(ctx.instantiation["n"]), str(ctx.instantiation["period"])
    start, end = period_bounds(period)
    yield from menu(ctx, "Bestsellers")
    yield ctx.select("Period", "Year" if period.isdigit() else "Month")
    yield ctx.type("From", us(start))
    yield ctx.type("To", us(end))
    yield ctx.click("Show Report", tag="button")
    products = [cells[2] for cells in table_rows(ctx) if len(cells) == 6 and cells[1].isdigit() and int(cells[1]) <= n]
    yield ctx.exit(", ".join(products))


# -- payments of the last orders of two statuses -------------------------------------------------------


#: Status code -> how intents name it.
STATUS_WORDS = {"canceled": "canceled", "complete": "completed", "pending": "pending", "processing": "processing",
                "closed": "closed", "holded": "on hold"}
STATUS_PAIRS = (("canceled", "complete"), ("pending", "complete"), ("processing", "canceled"), ("closed", "complete"),
                ("pending", "canceled"), ("holded", "complete"))


def _latest_totals(conn: sqlite3.Connection, status: str, n: int) -> list[float] | None:
    rows = conn.execute("SELECT grand_total, created_at FROM sales_order WHERE status = ? "
                        "ORDER BY created_at DESC LIMIT ?", (status, n + 1)).fetchall()
    if len(rows) <= n or rows[n - 1][1] == rows[n][1]:
        return None
    return [row[0] for row in rows[:n]]


def _payment_differences(conn: sqlite3.Connection):
    for i, (first, second) in enumerate(STATUS_PAIRS):
        for n in (2, 3, 4, 5, 6)[i % 2::2]:
            a, b = _latest_totals(conn, first, n), _latest_totals(conn, second, n)
            if a is None or b is None:
                continue
            difference = abs(round(sum(a), 2) - round(sum(b), 2))
            yield ({"N": n, "status_1": STATUS_WORDS[first], "status_2": STATUS_WORDS[second]},
                   string_match_eval(must_include=[money(difference)]))


def solve_payment_difference(ctx: OracleContext) -> Iterator[str]:
    n = int(ctx.instantiation["N"])
    sums = []
    for key in ("status_1", "status_2"):
        code = next(c for c, word in STATUS_WORDS.items() if word == ctx.instantiation[key])
        yield from filter_orders(ctx, status=STATUSES[code])  # newest first
        totals = [cells[5] for cells in table_rows(ctx) if len(cells) == 8 and cells[1].isdigit()][:n]
        sums.append(sum(Decimal(t.replace("$", "").replace(",", "")) for t in totals))
    yield ctx.exit(f"{abs(sums[0] - sums[1]):.2f}")


# -- items in the most recent orders -----------------------------------------------------------------------


def _recent_items(conn: sqlite3.Connection):
    rows = conn.execute("SELECT total_qty FROM sales_order ORDER BY created_at DESC LIMIT 12").fetchall()
    for k in range(2, 12):
        yield {"k": k}, string_match_eval(must_include=[count_reference(sum(r[0] for r in rows[:k]))])


def solve_recent_items(ctx: OracleContext) -> Iterator[str]:
    yield from menu(ctx, "Orders")  # newest first
    numbers = [cells[1] for cells in table_rows(ctx) if len(cells) == 8 and cells[1].isdigit()]
    total = 0
    for number in numbers[: int(ctx.instantiation["k"])]:
        yield ctx.click(f"View order {number}", tag="a", exact=True)
        total += sum(int(cells[7]) for cells in table_rows(ctx) if len(cells) == 12 and cells[7].isdigit())
        yield ctx.go_back()
    yield ctx.exit(str(total))


# -- monthly counts of successful orders -----------------------------------------------------------------


MONTH_RANGES = ((2022, 1, 12), (2022, 1, 6), (2022, 7, 12), (2022, 3, 8), (2022, 2, 5), (2022, 9, 11), (2022, 4, 10),
                (2023, 1, 5), (2023, 1, 3), (2023, 2, 4), (2023, 3, 5))


def _monthly_counts(conn: sqlite3.Connection):
    for i, (year, first, last) in enumerate(MONTH_RANGES):
        counts = dict(conn.execute(
            "SELECT substr(created_at, 6, 2), COUNT(*) FROM sales_order WHERE status = 'complete' "
            "AND created_at BETWEEN ? AND ? GROUP BY 1",
            (f"{year}-{first:02d}-01 00:00:00", f"{year}-{last:02d}-31 23:59:59")).fetchall())
        start = dt.date(year, first, 1).strftime("%b" if i % 2 == 0 else "%B")
        period = f"from {start} to {dt.date(year, last, 1):%B} {year}"
        parts = [f"{m:02d}:{counts.get(f'{m:02d}', 0)}" for m in range(first, last + 1)]
        yield {"period": period}, string_match_eval(fuzzy_match=parts)


def solve_monthly_counts(ctx: OracleContext) -> Iterator[str]:
    words = str(ctx.instantiation["period"]).split()  # from Jan to December 2022
    year = int(words[4])
    first = dt.datetime.strptime(words[1][:3], "%b").month
    last = dt.datetime.strptime(words[3][:3], "%b").month
    yield from menu(ctx, "Orders Report")
    yield ctx.select("Period", "Month")
    yield ctx.type("From", us(dt.date(year, first, 1)))
    yield ctx.type("To", us(period_bounds(f"{words[3]} {year}")[1]))
    yield ctx.select("Order Status", "Complete")
    yield ctx.click("Show Report", tag="button")
    counts = {cells[0]: cells[1] for cells in table_rows(ctx) if len(cells) == 8 and cells[1].isdigit()}
    parts = [f"{m:02d}:{counts.get(dt.date(year, m, 1).strftime('%b %Y'), 0)}" for m in range(first, last + 1)]
    yield ctx.exit(", ".join(parts))


# -- what customers say about a product ------------------------------------------------------------------


def _reviews_of(conn: sqlite3.Connection, product_id: int) -> list[sqlite3.Row]:
    return conn.execute("SELECT nickname, detail, rating, customer_id FROM review WHERE product_id = ? ORDER BY id",
                        (product_id,)).fetchall()


def sentences(detail: str) -> list[str]:
    """A review's sentences (details are sentences ending with a full stop)."""
    return [part.strip().rstrip(".") for part in detail.split(". ") if part.strip()]


def _products(conn: sqlite3.Connection) -> list[tuple[int, str]]:
    return conn.execute("SELECT id, name FROM product ORDER BY id").fetchall()


def _unhappy_customers(conn: sqlite3.Connection):
    for product_id, name in _products(conn)[1::8]:
        unhappy = sorted({row[0] for row in _reviews_of(conn, product_id) if row[2] <= 2})
        yield {"product": name}, (string_match_eval(must_include=unhappy) if unhappy
                                  else string_match_eval(exact_match="N/A"))


def _dislikes(conn: sqlite3.Connection):
    disliked = {row[0] for row in conn.execute("SELECT product_id FROM review WHERE rating <= 2")}
    products = _products(conn)
    chosen = [p for p in products if p[0] in disliked][::4] + [p for p in products if p[0] not in disliked][::25]
    for product_id, name in sorted(chosen):
        parts = [part for row in _reviews_of(conn, product_id) if row[2] <= 2 for part in sentences(row[1])]
        yield {"product": name}, string_match_eval(fuzzy_match=list(dict.fromkeys(parts)) or "N/A")


def _likes(conn: sqlite3.Connection):
    for product_id, name in _products(conn)[6::8]:
        parts = [part for row in _reviews_of(conn, product_id) if row[2] >= 4 for part in sentences(row[1])]
        yield {"product": name}, string_match_eval(fuzzy_match=list(dict.fromkeys(parts)) or "N/A")


def product_reviews(ctx: OracleContext, product: str) -> Iterator[str]:
    """Marketing > All Reviews filtered by the product's name."""
    yield from menu(ctx, "All Reviews")
    yield ctx.type("Product", product)
    yield ctx.click("Search", tag="button", exact=True)


def review_rows(ctx: OracleContext, product: str) -> list[list[str]]:
    """The grid's rows of that product's reviews: [_, id, created, status, title, nickname, review, rating, ...]."""
    return [cells for cells in table_rows(ctx) if len(cells) == 10 and cells[8] == product and cells[7].isdigit()]


def solve_unhappy_customers(ctx: OracleContext) -> Iterator[str]:
    product = str(ctx.instantiation["product"])
    yield from product_reviews(ctx, product)
    names = sorted({cells[5] for cells in review_rows(ctx, product) if int(cells[7]) <= 2})
    yield ctx.exit(", ".join(names) or "N/A")


def _solve_opinions(ctx: OracleContext, liked: bool) -> Iterator[str]:
    product = str(ctx.instantiation["product"])
    yield from product_reviews(ctx, product)
    details = [cells[6] for cells in review_rows(ctx, product) if (int(cells[7]) >= 4 if liked else int(cells[7]) <= 2)]
    yield ctx.exit(" ".join(details) or "N/A")


def solve_dislikes(ctx: OracleContext) -> Iterator[str]:
    yield from _solve_opinions(ctx, liked=False)


def solve_likes(ctx: OracleContext) -> Iterator[str]:
    yield from _solve_opinions(ctx, liked=True)


#: What intents ask about the unhappiest customer -> the customer form's field label.
CUSTOMER_INFORMATION = {"email address": "Email", "phone number": "Phone Number", "ZIP code": "Zip/Postal Code"}


def _unhappiest(conn: sqlite3.Connection):
    i = 0
    for product_id, name in _products(conn):
        low = [row for row in _reviews_of(conn, product_id) if row[2] <= 2]
        if not low or [row[2] for row in low].count(min(row[2] for row in low)) > 1:
            continue  # nobody unhappy, or a tie for the unhappiest
        customer_id = min(low, key=lambda row: row[2])[3]
        information = list(CUSTOMER_INFORMATION)[i % 3]
        i += 1
        if i % 2:
            continue
        if customer_id is None:
            yield {"information": information, "product": name}, string_match_eval(exact_match="N/A")
            continue
        column = {"email address": "email", "phone number": "phone", "ZIP code": "postcode"}[information]
        value = conn.execute(f"SELECT {column} FROM customer WHERE id = ?", (customer_id,)).fetchone()[0]
        yield {"information": information, "product": name}, string_match_eval(must_include=[value])


def solve_unhappiest(ctx: OracleContext) -> Iterator[str]:
    product = str(ctx.instantiation["product"])
    yield from product_reviews(ctx, product)
    rows = review_rows(ctx, product)
    worst = min(rows, key=lambda cells: int(cells[7]))
    yield ctx.click(f"Edit review {worst[1]}", tag="a", exact=True)
    if "(guest)" in ctx.text():
        yield ctx.exit("N/A")
        return
    yield ctx.click(worst[5], tag="a", exact=True)
    label = CUSTOMER_INFORMATION[str(ctx.instantiation["information"])]
    yield ctx.exit(ctx.field(label).attributes["value"])


# -- customers ranked by orders of one status ----------------------------------------------------------------


ORDINALS = ("", "second ", "third ", "fourth ", "fifth ", "sixth ", "seventh ", "eighth ", "ninth ", "tenth ",
            "eleventh ", "twelfth ")
#: Quantifier in intents -> rank (1 = the most); people say both "fifth most" and "fifth highest".
RANK_WORDS = {f"{ordinal}{word}": rank for word in ("most", "highest") for rank, ordinal in enumerate(ORDINALS, start=1)}
HISTORY = (dt.date(2022, 1, 1), dt.date(2023, 5, 31))


def _customer_ranking(conn: sqlite3.Connection, status: str) -> list[tuple[int, str, int]]:
    return conn.execute("SELECT customer_id, customer_name, COUNT(*) AS n FROM sales_order WHERE status = ? "
                        "GROUP BY customer_id ORDER BY n DESC", (status,)).fetchall()


def _completed_ranks(conn: sqlite3.Connection):
    ranking = _customer_ranking(conn, "complete")
    counts = [row[2] for row in ranking]
    for word, rank in RANK_WORDS.items():
        if counts[rank - 1] not in (counts[rank - 2] if rank > 1 else None, counts[rank]):
            yield {"quantifier": word}, string_match_eval(must_include=[ranking[rank - 1][1]])


def customer_report(ctx: OracleContext, status: str) -> Iterator[str]:
    """Reports > Order Count over the whole history, for one order status."""
    yield from menu(ctx, "Order Count")
    yield ctx.type("From", us(HISTORY[0]))
    yield ctx.type("To", us(HISTORY[1]))
    yield ctx.select("Order Status", status)
    yield ctx.click("Show Report", tag="button")


def solve_completed_rank(ctx: OracleContext) -> Iterator[str]:
    rank = RANK_WORDS[str(ctx.instantiation["quantifier"])]
    yield from customer_report(ctx, "Complete")
    yield ctx.exit(next(cells[1] for cells in table_rows(ctx) if len(cells) == 6 and cells[0] == str(rank)))


#: What intents ask about a customer -> (customer column, the customer form's field label).
CUSTOMER_ATTRIBUTES = {"name": ("firstname || ' ' || lastname", ""), "email address": ("email", "Email"),
                       "phone number": ("phone", "Phone Number"), "ZIP code": ("postcode", "Zip/Postal Code"),
                       "city": ("city", "City"), "state": ("region", "State/Province"),
                       "street address": ("street", "Street Address"), "customer group": ("group_name", "Group"),
                       "first name": ("firstname", "First Name"), "last name": ("lastname", "Last Name")}


def _most_cancellations(conn: sqlite3.Connection):
    ranking = _customer_ranking(conn, "canceled")
    if ranking[0][2] == ranking[1][2]:
        return
    for attribute, (column, _label) in CUSTOMER_ATTRIBUTES.items():
        value = conn.execute(f"SELECT {column} FROM customer WHERE id = ?", (ranking[0][0],)).fetchone()[0]
        yield {"attribute": attribute}, string_match_eval(must_include=[value])


def solve_most_cancellations(ctx: OracleContext) -> Iterator[str]:
    yield from customer_report(ctx, "Canceled")
    name = next(cells[1] for cells in table_rows(ctx) if len(cells) == 6 and cells[0] == "1")
    attribute = str(ctx.instantiation["attribute"])
    if attribute == "name":
        yield ctx.exit(name)
        return
    yield ctx.click(name, tag="a", exact=True)
    field = ctx.field(CUSTOMER_ATTRIBUTES[attribute][1])
    yield ctx.exit(field.text if field.tag == "select" else field.attributes["value"])


FAMILIES = [
    family("bestseller_rank", "What is the top-{{n}} best-selling product in {{period}}", "information",
           _bestsellers, solve_bestseller),
    family("review_term_count",
           'Tell me the the number of reviews that our store received by far that mention term "{{term}}"',
           "information", _review_terms, solve_review_terms),
    family("top_search_terms", "List the top {{n}} search terms in my store", "information", _top_terms,
           solve_top_terms),
    family("customer_by_phone", "Find the customer name and email with phone number {{PhoneNum}}", "information",
           _customers_by_phone, solve_customer_by_phone),
    family("invoice_grand_total", "Telll me the grand total of invoice {{id}}.", "information", _invoices, solve_invoice),
    family("latest_order_attribute", "Get the {{attribute}} of the {{status}} order", "information",
           _latest_orders, solve_latest_order),
    family("reviews_in_period", "How many reviews our shop received {{time}}?", "information", _reviews_in_period,
           solve_reviews_in_period),
    family("orders_in_period", "How many orders were placed in {{period}}?", "information", _orders_in_period,
           solve_orders_in_period),
    family("customer_order_count", "How many orders has {{customer}} placed in the entire history?", "information",
           _customer_order_counts, solve_customer_order_count),
    family("unshipped_tracking_number", "What is the tracking number of the shipment for order #{{order}}?",
           "information", _unshipped, solve_unshipped),
    family("top_n_bestsellers", "What are the top-{{n}} best-selling product in {{period}}", "information",
           _top_bestsellers, solve_top_bestsellers),
    family("payment_difference", "Compare the payment difference of the last {{N}} {{status_1}} orders and "
           "{{status_2}} orders", "information", _payment_differences, solve_payment_difference),
    family("items_in_recent_orders", "What's the total number of items sold in the most recent {{k}} orders?",
           "information", _recent_items, solve_recent_items),
    family("monthly_successful_orders", "Presents the monthly count of successful orders {{period}} in MM:COUNT format",
           "information", _monthly_counts, solve_monthly_counts),
    family("unhappy_customers", "Show me the name of the customers who have expressed dissatisfaction with {{product}}",
           "information", _unhappy_customers, solve_unhappy_customers),
    family("review_dislikes", "What are the key aspects that the customers don't like about {{product}}",
           "information", _dislikes, solve_dislikes),
    family("review_likes", "Tell me the reasons why customers like {{product}}", "information", _likes, solve_likes),
    family("unhappiest_customer", "Show me the {{information}} of the customer who is the most unhappy with {{product}}",
           "information", _unhappiest, solve_unhappiest),
    family("completed_orders_rank", "Which customer has completed the {{quantifier}} number of orders in the entire "
           "history?", "information", _completed_ranks, solve_completed_rank),
    family("most_cancellations_customer", "Tell me the {{attribute}} of the customer who has the most cancellations in "
           "the history", "information", _most_cancellations, solve_most_cancellations),
]
