"""Navigation families of the store admin (url_match): filtered grids, reports over a range, theme previews."""

from __future__ import annotations

import datetime as dt
import random
import sqlite3
from collections.abc import Iterator
from typing import TYPE_CHECKING
from urllib.parse import urlencode

from ....sites.shopping_admin.data import STATUSES
from ....sites.shopping_admin.names import CATEGORIES
from ....tasks.families import program_html_eval, url_match_eval
from .common import (
    ADMIN,
    MONTHS,
    family,
    filter_orders,
    menu,
    month_bounds,
    month_name,
    open_filters,
    period_bounds,
    us,
)

if TYPE_CHECKING:
    from ....tasks.oracle import OracleContext

#: Report type in intents -> (URL segment, menu entry).
REPORTS = {"sales order": ("sales", "Orders Report"), "shipping": ("shipping", "Shipping Report"),
           "refund": ("refunded", "Refunds Report"), "bestseller": ("bestsellers", "Bestsellers")}
#: Product grid states in intents -> (query parameter, value, filter label, option text).
PRODUCT_STATES = {"out of stock": ("stock", "0", "Stock Status", "Out of Stock"),
                  "in stock": ("stock", "1", "Stock Status", "In Stock"),
                  "disabled": ("status", "2", "Status", "Disabled"),
                  "enabled": ("status", "1", "Status", "Enabled")}


# -- the orders grid filtered by status and month ------------------------------------------------


def _order_filters(conn: sqlite3.Connection):
    codes = list(STATUSES)
    for i, (year, month) in enumerate(MONTHS):
        first, last = month_bounds(year, month)
        for status in (codes[i % len(codes)], codes[(i + 3) % len(codes)]):
            count = conn.execute("SELECT COUNT(*) FROM sales_order WHERE status = ? AND created_at BETWEEN ? AND ?",
                                 (status, f"{first} 00:00:00", f"{last} 23:59:59")).fetchone()[0]
            if not count:
                continue
            query = urlencode([("status", status), ("created_from", first.isoformat()), ("created_to", last.isoformat())])
            values = {"status": STATUSES[status].lower(), "month": month_name(year, month)}
            yield values, url_match_eval(f"{ADMIN}/sales/order/?{query}", "GOLD in PRED")


def solve_order_filters(ctx: OracleContext) -> Iterator[str]:
    status = next(label for label in STATUSES.values() if label.lower() == ctx.instantiation["status"])
    first, last = period_bounds(str(ctx.instantiation["month"]))
    yield from filter_orders(ctx, status=status, start=first, end=last)
    yield ctx.exit("Done")


# -- a report over a date range ------------------------------------------------------------------------


def _reports(conn: sqlite3.Connection):
    rng = random.Random(7780)
    first, days = dt.date(2022, 1, 1), (dt.date(2023, 5, 31) - dt.date(2022, 1, 1)).days
    for report, (segment, _menu) in REPORTS.items():
        for _ in range(5):
            start, end = sorted(first + dt.timedelta(days=d) for d in rng.sample(range(days + 1), 2))
            values = {"type": report, "start_date": f"{start:%m/%d/%Y}", "end_date": f"{end:%m/%d/%Y}"}
            yield values, report_eval(segment, start, end)


def report_eval(segment: str, start: dt.date, end: dt.date) -> dict:
    """The report page with both date fields filled in (as the admin shows them) and its canonical URL."""
    query = urlencode([("from", start.isoformat()), ("to", end.isoformat())])
    return program_html_eval(
        ("last", "document.querySelector('#sales_report_from').value", {"exact_match": us(start)}),
        ("last", "document.querySelector('#sales_report_to').value", {"exact_match": us(end)}),
        reference_url=f"{ADMIN}/reports/report_sales/{segment}/?{query}", note="GOLD in PRED")


def show_report(ctx: OracleContext, report: str, start: dt.date, end: dt.date) -> Iterator[str]:
    """Open a report from the menu and show it over ``start``..``end``."""
    yield from menu(ctx, REPORTS[report][1])
    yield ctx.type("From", us(start))
    yield ctx.type("To", us(end))
    yield ctx.click("Show Report", tag="button")


def solve_report(ctx: OracleContext) -> Iterator[str]:
    start = dt.datetime.strptime(str(ctx.instantiation["start_date"]), "%m/%d/%Y").date()
    end = dt.datetime.strptime(str(ctx.instantiation["end_date"]), "%m/%d/%Y").date()
    yield from show_report(ctx, str(ctx.instantiation["type"]), start, end)
    yield ctx.exit("Done")


# -- a report over a span relative to "today" ---------------------------------------------------------------


TODAY = dt.date(2023, 3, 15)
#: How intents name a span before TODAY -> its first and last day.
SPANS = {"for last month": (dt.date(2023, 2, 1), dt.date(2023, 2, 28)),
         "for last year": (dt.date(2022, 1, 1), dt.date(2022, 12, 31)),
         "for the last quarter": (dt.date(2022, 10, 1), dt.date(2022, 12, 31)),
         "from the beginning of this year until today": (dt.date(2023, 1, 1), TODAY)}


def _relative_reports(conn: sqlite3.Connection):
    for report, (segment, _menu) in REPORTS.items():
        for span, (start, end) in SPANS.items():
            yield {"report": f"{report} report", "time_span": span}, report_eval(segment, start, end)


def solve_relative_report(ctx: OracleContext) -> Iterator[str]:
    start, end = SPANS[str(ctx.instantiation["time_span"])]
    yield from show_report(ctx, str(ctx.instantiation["report"]).removesuffix(" report"), start, end)
    yield ctx.exit("Done")


# -- theme preview ------------------------------------------------------------------------------------


def _themes(conn: sqlite3.Connection):
    for theme_id, title in conn.execute("SELECT id, title FROM theme ORDER BY id"):
        yield {"name": title}, url_match_eval(f"{ADMIN}/admin/system_design_theme/edit/id/{theme_id}/", "EXACT")


def solve_theme(ctx: OracleContext) -> Iterator[str]:
    yield from menu(ctx, "Themes")
    yield ctx.click(f"Preview theme {ctx.instantiation['name']}", tag="a", exact=True)
    yield ctx.exit("Done")


# -- the products grid filtered by category and state ----------------------------------------------------


def _product_filters(conn: sqlite3.Connection):
    states = list(PRODUCT_STATES)
    for i, (category, *_rest) in enumerate(CATEGORIES):
        for state in (states[i % 4], states[(i + 1) % 4]):
            column, value, _label, _option = PRODUCT_STATES[state]
            sql_column = "is_in_stock" if column == "stock" else "status"
            count = conn.execute(f"SELECT COUNT(*) FROM product WHERE category = ? AND {sql_column} = ?",
                                 (category, int(value))).fetchone()[0]
            if not count:
                continue
            query = urlencode([("category", category), (column, value)])
            yield {"category": category, "state": state}, url_match_eval(f"{ADMIN}/catalog/product/?{query}", "GOLD in PRED")


def solve_product_filters(ctx: OracleContext) -> Iterator[str]:
    _column, _value, label, option = PRODUCT_STATES[str(ctx.instantiation["state"])]
    yield from menu(ctx, "Products")
    yield from open_filters(ctx)
    yield ctx.select("Category", str(ctx.instantiation["category"]))
    yield ctx.select(label, option)
    yield ctx.click("Apply Filters", tag="button")
    yield ctx.exit("Done")


FAMILIES = [
    family("filter_orders_grid", "Show me all {{status}} orders placed in {{month}}", "navigation", _order_filters,
           solve_order_filters),
    family("create_report", "Create a {{type}} report from {{start_date}} to {{end_date}}", "navigation",
           _reports, solve_report),
    family("preview_theme", "Preview the {{name}} theme for my shop", "navigation", _themes, solve_theme),
    family("filter_products_grid", "Show me the {{category}} products that are {{state}}", "navigation",
           _product_filters, solve_product_filters),
    family("relative_report", "Today is 3/15/2023, generate a {{report}} {{time_span}}", "navigation",
           _relative_reports, solve_relative_report),
]
