"""Shared view helpers: the login guard, canonical grid URLs, pagination and formatting."""

from __future__ import annotations

import datetime as dt
import math
import re
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qsl, urlencode

from flask import abort, redirect, request
from werkzeug.wrappers import Response

from ..webapp import db, login_required

#: Every admin page needs a login; the login form lives at the site root, like Magento's.
admin_required = login_required("/admin")

PER_PAGE = 20
#: Rows per page a grid offers (its ``limit`` select). Magento also offers 50 to 200; a page of 50 orders
#: would make an observation longer than agents are given (about 14,000 characters).
PAGE_SIZES = (10, 20, 30)
#: The same for grids with long rows (reviews), whose 30 rows would pass that budget too.
SHORT_PAGE_SIZES = (10, 20)
LIMIT_KINDS = {"limit": PAGE_SIZES, "short_limit": SHORT_PAGE_SIZES}


def parse_date(text: str | None) -> dt.date | None:
    """A date typed the way people type them: ``2023-02-01``, ``2/1/2023`` or ``2/1/23``."""
    text = (text or "").strip()
    if not text:
        return None
    match = re.fullmatch(r"(\d{4})-(\d{1,2})-(\d{1,2})", text)
    if match:
        year, month, day = (int(g) for g in match.groups())
    else:
        match = re.fullmatch(r"(\d{1,2})/(\d{1,2})/(\d{2}|\d{4})", text)
        if not match:
            return None
        month, day, year = (int(g) for g in match.groups())
        if year < 100:
            year += 2000
    try:
        return dt.date(year, month, day)
    except ValueError:
        return None


def us_date(value: dt.date | str | None) -> str:
    """``2/1/2023``: how the admin shows dates in its date fields."""
    if value is None or value == "":
        return ""
    if isinstance(value, str):
        value = parse_date(value[:10])
        if value is None:
            return ""
    return f"{value.month}/{value.day}/{value.year}"


def parse_number(text: str | None) -> float | None:
    try:
        return float((text or "").replace(",", "").replace("$", "").strip())
    except ValueError:
        return None


def canonical_query(fields: dict[str, str]) -> list[tuple[str, str]]:
    """The request's query reduced to known, non-empty, normalised parameters in a fixed order.

    ``fields`` maps parameter name -> kind (``text``, ``date``, ``number``, ``page``, ``limit``,
    ``short_limit``).
    Dates become ISO dates, so every way of typing one gives the same URL.
    """
    params = []
    for name, kind in fields.items():
        value = request.args.get(name, "").strip()
        if not value:
            continue
        if kind == "date":
            parsed = parse_date(value)
            value = parsed.isoformat() if parsed else ""
        elif kind == "number":
            number = parse_number(value)
            value = (f"{number:g}" if number is not None else "")
        elif kind == "page":
            value = value if value.isdigit() and int(value) > 1 else ""
        elif kind in LIMIT_KINDS:
            value = value if value.isdigit() and int(value) in LIMIT_KINDS[kind] and int(value) != PER_PAGE else ""
        if value:
            params.append((name, value))
    return params


def redirect_to_canonical(fields: dict[str, str]) -> Response | None:
    """A redirect when the query is not canonical (empty fields from a GET form, odd date formats).

    Canonical URLs keep filtered grids and reports bookmarkable and comparable.
    """
    canonical = canonical_query(fields)
    # Compare decoded pairs, not raw strings: clients differ in how they percent-encode.
    current = parse_qsl(request.query_string.decode("latin-1"), keep_blank_values=True)
    path = request.path if request.path.endswith("/") else request.path + "/"
    if current != canonical or path != request.path:
        return redirect(path + (f"?{urlencode(canonical)}" if canonical else ""))
    return None


def url_with(fields: dict[str, str], **changes: Any) -> str:
    """This page's URL with some parameters changed (None removes one); pagination resets unless given."""
    params = dict(canonical_query(fields))
    params.pop("page", None)
    for name, value in changes.items():
        if value is None or value == "":
            params.pop(name, None)
        else:
            params[name] = str(value)
    ordered = [(n, params[n]) for n in fields if n in params]
    return request.path + (f"?{urlencode(ordered)}" if ordered else "")


@dataclass
class Page:
    """One page of a grid's rows."""

    rows: list[sqlite3.Row]
    total: int
    number: int
    pages: int

    @property
    def has_previous(self) -> bool:
        return self.number > 1

    @property
    def has_next(self) -> bool:
        return self.number < self.pages


def per_page(sizes: Sequence[int] = PAGE_SIZES) -> int:
    """The grid's rows per page from ``limit`` (one of ``sizes``)."""
    raw = request.args.get("limit", "")
    return int(raw) if raw.isdigit() and int(raw) in sizes else PER_PAGE


def paginate(sql: str, args: Sequence[Any], order_by: str, per_page: int = PER_PAGE) -> Page:
    """Run a grid query one page at a time (``page`` from the query string)."""
    total = db().execute(f"SELECT COUNT(*) FROM ({sql})", args).fetchone()[0]
    pages = max(1, math.ceil(total / per_page))
    raw = request.args.get("page", "1")
    number = min(max(1, int(raw)) if raw.isdigit() else 1, pages)
    rows = db().execute(f"{sql} ORDER BY {order_by} LIMIT ? OFFSET ?", [*args, per_page, (number - 1) * per_page]).fetchall()
    return Page(rows, total, number, pages)


def sort_clause(columns: dict[str, str], default: str, default_dir: str = "desc",
                tiebreak: str = "id") -> tuple[str, str, str]:
    """(sort key, direction, ORDER BY clause) from ``sort``/``dir``; unknown keys fall back to the default."""
    key = request.args.get("sort", default)
    if key not in columns:
        key = default
    direction = request.args.get("dir", default_dir if key == default else "asc")
    direction = direction if direction in ("asc", "desc") else "asc"
    # The id breaks ties so paging never shows a row twice.
    return key, direction, f"{columns[key]} {direction.upper()}, {tiebreak} {direction.upper()}"


def one_or_404(sql: str, args: Sequence[Any]) -> sqlite3.Row:
    row = db().execute(sql, args).fetchone()
    if row is None:
        abort(404)
    return row


def money(value: float | None) -> str:
    """``$1,234.50``."""
    if value is None:
        return ""
    sign = "-" if value < 0 else ""
    return f"{sign}${abs(value):,.2f}"


def when(value: str | None) -> str:
    """``Mar 5, 2023 4:07:09 PM``: Magento's way of showing a timestamp."""
    if not value:
        return ""
    moment = dt.datetime.fromisoformat(value)
    hour = moment.hour % 12 or 12
    return f"{moment:%b} {moment.day}, {moment.year} {hour}:{moment:%M:%S} {'AM' if moment.hour < 12 else 'PM'}"


def day(value: str | None) -> str:
    """``Mar 5, 2023``."""
    if not value:
        return ""
    moment = dt.datetime.fromisoformat(value)
    return f"{moment:%b} {moment.day}, {moment.year}"
