"""Reports: sales (orders), shipping, refunds and bestsellers over a date range, by day, month or year."""

from __future__ import annotations

import csv
import datetime as dt
import io
import math
from typing import Any

from flask import Blueprint, render_template, request
from werkzeug.wrappers import Response

from ..webapp import db, world
from .data import STATUSES, stamp
from .helpers import Page, admin_required, parse_date, redirect_to_canonical, url_with

bp = Blueprint("reports", __name__)

REPORT_FIELDS = {"from": "date", "to": "date", "period": "text", "status": "text", "empty_rows": "text", "page": "page",
                 "store": "text", "export": "text"}
#: The filter's Empty Rows choice: value -> label ("1" lists the intervals without orders as zero rows).
EMPTY_ROWS = {"": "No", "1": "Yes"}
#: The report's scope switcher: store scope -> label (one website, one store view: every scope shows the same).
SCOPES = {"": "All Websites", "base": "Main Website", "main": "Main Website Store", "default": "Default Store View"}
EXPORT_FORMATS = {"csv": "CSV", "xml": "Excel XML"}
PERIODS = {"day": "Day", "month": "Month", "year": "Year"}
#: SQL that turns a timestamp column into its interval key, by period.
INTERVAL_SQL = {"day": "substr({col}, 1, 10)", "month": "substr({col}, 1, 7)", "year": "substr({col}, 1, 4)"}
ROWS_PER_PAGE = 50
BESTSELLERS_PER_INTERVAL = 10

REPORTS = {
    "sales": ("Orders Report", "Shows the number of orders and the sales amounts, by period of purchase."),
    "shipping": ("Shipping Report", "Shows the shipping charged on orders, by period of purchase and shipping method."),
    "refunded": ("Refunds Report", "Shows the amounts refunded with credit memos, by period of refund."),
    "bestsellers": ("Bestsellers Report", "Shows the products ordered in the largest quantities, by period."),
}


def interval_label(key: str, period: str) -> str:
    """``2023-02-01`` -> ``Feb 1, 2023``; ``2023-02`` -> ``Feb 2023``; ``2023`` stays."""
    if period == "day":
        date = dt.date.fromisoformat(key)
        return f"{date:%b} {date.day}, {date.year}"
    if period == "month":
        return dt.date.fromisoformat(key + "-01").strftime("%b %Y")
    return key


def interval_keys(start: dt.date, end: dt.date, period: str) -> list[str]:
    """Every interval key from ``start`` to ``end``: days (``2023-02-01``), months (``2023-02``) or years."""
    if period == "year":
        return [str(year) for year in range(start.year, end.year + 1)]
    if period == "month":
        months = range(start.year * 12 + start.month - 1, end.year * 12 + end.month)
        return [f"{m // 12:04d}-{m % 12 + 1:02d}" for m in months]
    return [(start + dt.timedelta(days=n)).isoformat() for n in range((end - start).days + 1)]


def with_empty_rows(kind: str, rows: list[dict[str, Any]], keys: list[str]) -> list[dict[str, Any]]:
    """The rows plus a zero row for each interval that has none, in interval order."""
    present = {row["interval"] for row in rows}
    blank = {"shipping_method": ""} | {key: 0 for key in SUMMED[kind]}
    filled = rows + [{"interval": key, **blank} for key in keys if key not in present]
    return sorted(filled, key=lambda row: row["interval"])


def _sales_rows(interval: str, start: str, end: str, status: str) -> list[dict[str, Any]]:
    status_sql, args = ("status = ?", [status]) if status in STATUSES else ("status != 'canceled'", [])
    rows = db().execute(
        f"SELECT {interval.format(col='created_at')} AS interval, COUNT(*) AS orders, SUM(total_qty) AS items, "
        "SUM(grand_total) AS sales_total, SUM(invoiced) AS invoiced, SUM(refunded) AS refunded, "
        "SUM(shipping_amount) AS shipping, SUM(discount_amount) AS discount FROM ("
        "SELECT o.*, (SELECT COALESCE(SUM(grand_total), 0) FROM invoice WHERE order_id = o.id) AS invoiced, "
        "(SELECT COALESCE(SUM(grand_total), 0) FROM creditmemo WHERE order_id = o.id) AS refunded "
        f"FROM sales_order o WHERE created_at BETWEEN ? AND ? AND {status_sql}) GROUP BY interval ORDER BY interval",
        [start, end, *args]).fetchall()
    return [dict(r) for r in rows]


def _shipping_rows(interval: str, start: str, end: str, status: str) -> list[dict[str, Any]]:
    status_sql, args = ("status = ?", [status]) if status in STATUSES else ("status != 'canceled'", [])
    rows = db().execute(
        f"SELECT {interval.format(col='created_at')} AS interval, shipping_method, COUNT(*) AS orders, "
        f"SUM(shipping_amount) AS shipping FROM sales_order WHERE created_at BETWEEN ? AND ? AND {status_sql} "
        "GROUP BY interval, shipping_method ORDER BY interval, shipping_method", [start, end, *args]).fetchall()
    return [dict(r) for r in rows]


def _refunded_rows(interval: str, start: str, end: str, status: str) -> list[dict[str, Any]]:
    rows = db().execute(
        f"SELECT {interval.format(col='c.created_at')} AS interval, COUNT(DISTINCT c.order_id) AS orders, "
        "SUM(c.grand_total) AS refunded FROM creditmemo c WHERE c.created_at BETWEEN ? AND ? "
        "GROUP BY interval ORDER BY interval", [start, end]).fetchall()
    return [dict(r) for r in rows]


def _bestseller_rows(interval: str, start: str, end: str, status: str) -> list[dict[str, Any]]:
    rows = db().execute(
        f"SELECT {interval.format(col='o.created_at')} AS interval, p.id AS product_id, p.name, p.sku, p.price, "
        "SUM(i.qty) AS qty FROM order_item i JOIN sales_order o ON o.id = i.order_id "
        "JOIN product p ON p.id = i.product_id WHERE o.created_at BETWEEN ? AND ? AND o.status != 'canceled' "
        "GROUP BY interval, p.id ORDER BY interval, qty DESC, p.name", [start, end]).fetchall()
    ranked, last, rank = [], None, 0
    for row in rows:
        rank = rank + 1 if row["interval"] == last else 1
        last = row["interval"]
        if rank <= BESTSELLERS_PER_INTERVAL:
            ranked.append(dict(row) | {"rank": rank})
    return ranked


BUILDERS = {"sales": _sales_rows, "shipping": _shipping_rows, "refunded": _refunded_rows,
            "bestsellers": _bestseller_rows}
SUMMED = {"sales": ("orders", "items", "sales_total", "invoiced", "refunded", "shipping", "discount"),
          "shipping": ("orders", "shipping"), "refunded": ("orders", "refunded"), "bestsellers": ("qty",)}


def _report(kind: str) -> str | Response:
    bounce = redirect_to_canonical(REPORT_FIELDS)
    if bounce:
        return bounce
    title, note = REPORTS[kind]
    start, end = parse_date(request.args.get("from")), parse_date(request.args.get("to"))
    period = request.args.get("period", "day")
    period = period if period in PERIODS else "day"
    status = request.args.get("status", "")
    store = request.args.get("store", "")
    empty_rows = request.args.get("empty_rows", "") if kind != "bestsellers" else ""
    empty_rows = empty_rows if empty_rows in EMPTY_ROWS else ""
    context: dict[str, Any] = {"kind": kind, "title": title, "note": note, "periods": PERIODS, "period": period,
                               "scopes": SCOPES, "store": store if store in SCOPES else "", "formats": EXPORT_FORMATS,
                               "status": status if status in STATUSES else "", "start": start, "end": end,
                               "page": None, "totals": None, "error": None, "empty_rows": empty_rows,
                               "empty_row_choices": EMPTY_ROWS, "updated": stamp(world().now()),
                               "url_with": lambda **kw: url_with(REPORT_FIELDS, **kw)}
    if request.args.get("from") or request.args.get("to"):
        if start is None or end is None:
            context["error"] = "Please enter both dates (for example 2/1/2023)."
        elif start > end:
            context["error"] = "The From date must be on or before the To date."
        else:
            rows = BUILDERS[kind](INTERVAL_SQL[period], f"{start} 00:00:00", f"{end} 23:59:59", status)
            if empty_rows:
                rows = with_empty_rows(kind, rows, interval_keys(start, end, period))
            for row in rows:
                row["label"] = interval_label(row["interval"], period)
            context["totals"] = {key: sum(r[key] or 0 for r in rows) for key in SUMMED[kind]}
            context["rows"] = rows
            pages = max(1, math.ceil(len(rows) / ROWS_PER_PAGE))
            raw = request.args.get("page", "1")
            number = min(int(raw) if raw.isdigit() and int(raw) > 0 else 1, pages)
            context["page"] = Page(rows[(number - 1) * ROWS_PER_PAGE: number * ROWS_PER_PAGE], len(rows), number, pages)
    if request.args.get("export") in EXPORT_FORMATS and context.get("rows") is not None:
        return render_template("report_export.html", csv=_csv(kind, context["rows"]), **context)
    return render_template("report.html", **context)


#: Columns of each report's export: (header, row key).
EXPORT_COLUMNS = {
    "sales": (("Interval", "label"), ("Orders", "orders"), ("Sales Items", "items"), ("Sales Total", "sales_total"),
              ("Invoiced", "invoiced"), ("Refunded", "refunded"), ("Sales Shipping", "shipping"),
              ("Sales Discount", "discount")),
    "shipping": (("Interval", "label"), ("Carrier/Method", "shipping_method"), ("Orders", "orders"),
                 ("Total Sales Shipping", "shipping")),
    "refunded": (("Interval", "label"), ("Refunded Orders", "orders"), ("Total Refunded", "refunded")),
    "bestsellers": (("Interval", "label"), ("Rank", "rank"), ("Product", "name"), ("SKU", "sku"), ("Price", "price"),
                    ("Order Quantity", "qty")),
}


def _csv(kind: str, rows: list[dict[str, Any]]) -> str:
    """The report's rows as CSV text (what Export would download)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([header for header, _ in EXPORT_COLUMNS[kind]])
    for row in rows:
        writer.writerow([f"{row[key]:.2f}" if isinstance(row[key], float) else row[key] for _, key in EXPORT_COLUMNS[kind]])
    return out.getvalue()


for kind in REPORTS:
    view = admin_required(lambda kind=kind: _report(kind))
    view.__name__ = f"report_{kind}"
    bp.add_url_rule(f"/admin/reports/report_sales/{kind}/", f"report_{kind}", view, methods=["GET"])


# -- Reports > Customers > Order Count ---------------------------------------------------------------------

CUSTOMER_REPORT_FIELDS = {"from": "date", "to": "date", "status": "text", "page": "page"}
CUSTOMERS_PER_PAGE = 20


@bp.get("/admin/reports/report_customer/orders/")
@admin_required
def report_customer_orders() -> str | Response:
    """Customers ranked by their number of orders over a date range (optionally of one status)."""
    bounce = redirect_to_canonical(CUSTOMER_REPORT_FIELDS)
    if bounce:
        return bounce
    start, end = parse_date(request.args.get("from")), parse_date(request.args.get("to"))
    status = request.args.get("status", "")
    context: dict[str, Any] = {"start": start, "end": end, "status": status if status in STATUSES else "",
                               "page": None, "error": None,
                               "url_with": lambda **kw: url_with(CUSTOMER_REPORT_FIELDS, **kw)}
    if request.args.get("from") or request.args.get("to"):
        if start is None or end is None:
            context["error"] = "Please enter both dates (for example 2/1/2023)."
        elif start > end:
            context["error"] = "The From date must be on or before the To date."
        else:
            status_sql, args = ("status = ?", [status]) if status in STATUSES else ("status != 'canceled'", [])
            rows = [dict(r) for r in db().execute(
                "SELECT customer_id, customer_name, customer_email, COUNT(*) AS orders, AVG(grand_total) AS average, "
                "SUM(grand_total) AS total FROM sales_order WHERE created_at BETWEEN ? AND ? AND "
                f"{status_sql} GROUP BY customer_id ORDER BY orders DESC, total DESC, customer_name",
                [f"{start} 00:00:00", f"{end} 23:59:59", *args]).fetchall()]
            for rank, row in enumerate(rows, start=1):
                row["rank"] = rank
            pages = max(1, math.ceil(len(rows) / CUSTOMERS_PER_PAGE))
            raw = request.args.get("page", "1")
            number = min(int(raw) if raw.isdigit() and int(raw) > 0 else 1, pages)
            context["page"] = Page(rows[(number - 1) * CUSTOMERS_PER_PAGE: number * CUSTOMERS_PER_PAGE], len(rows),
                                   number, pages)
    return render_template("customer_report.html", **context)
