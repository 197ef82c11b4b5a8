"""Shared pieces of the store admin's task families: task dicts, periods, and oracle steps."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from functools import partial
from typing import TYPE_CHECKING

from ....sites.shopping_admin.menu import MENU
from ....tasks.families import single_site_family
from ....tasks.task import any_of

if TYPE_CHECKING:
    from ....tasks.oracle import OracleContext

SITE = "shopping_admin"
ADMIN = "__SHOPPING_ADMIN__"
#: The months the seeded orders span, as (year, month).
MONTHS = [(2022, m) for m in range(1, 13)] + [(2023, m) for m in range(1, 6)]
NUMBER_WORDS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
                "fifteen sixteen seventeen eighteen nineteen twenty").split()

#: ``family(name, template, kind, instances, solve)``: an admin family; ``instances(conn)`` yields
#: (instantiation, eval[, start_url]) over the pristine admin data.
family = partial(single_site_family, SITE, start_url=ADMIN)


def count_reference(count: int) -> str:
    """A count as must_include wants it: ``"6 |OR| six"`` (people write small numbers as words)."""
    return any_of(str(count), NUMBER_WORDS[count]) if count < len(NUMBER_WORDS) else str(count)


def month_name(year: int, month: int) -> str:
    return dt.date(year, month, 1).strftime("%B %Y")


def month_bounds(year: int, month: int) -> tuple[dt.date, dt.date]:
    first = dt.date(year, month, 1)
    following = dt.date(year + month // 12, month % 12 + 1, 1)
    return first, following - dt.timedelta(days=1)


def period_bounds(period: str) -> tuple[dt.date, dt.date]:
    """``"2022"`` or ``"March 2023"`` -> its first and last day."""
    if re.fullmatch(r"\d{4}", period):
        return dt.date(int(period), 1, 1), dt.date(int(period), 12, 31)
    start = dt.datetime.strptime(period, "%B %Y").date()
    return month_bounds(start.year, start.month)


def us(date: dt.date) -> str:
    """``3/1/2023``, how the admin's date fields show dates."""
    return f"{date.month}/{date.day}/{date.year}"


def periods() -> list[str]:
    """Every year and month of the seeded history, as intents name them."""
    return ["2022", "2023"] + [month_name(y, m) for y, m in MONTHS]


# -- reading pages ----------------------------------------------------------------------


def table_rows(ctx: OracleContext) -> list[list[str]]:
    """Every table row of the page as its cells' text (header cells included)."""
    rows = []
    for row in re.findall(r"<tr>(.*?)</tr>", ctx.page.text, re.S):
        cells = re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)
        rows.append([" ".join(re.sub(r"<[^>]+>", " ", c).split()) for c in cells])
    return rows


def row_value(ctx: OracleContext, header: str) -> str:
    """The value beside a row header (``Grand Total`` -> ``$53.98``) on a details page."""
    for cells in table_rows(ctx):
        if len(cells) >= 2 and cells[0] == header:
            return cells[1]
    from ....tasks.oracle import OracleError

    raise OracleError(f"No row {header!r} on {ctx.url}")


def records_found(ctx: OracleContext) -> int:
    return int(ctx.search_text(r"(\d+) records found"))


# -- oracle steps -------------------------------------------------------------------------


def menu(ctx: OracleContext, link: str) -> Iterator[str]:
    """Click an entry of the admin menu, opening its section first when it is collapsed."""
    if not ctx.find_all(link, tag="a", exact=True):
        section = next(section for section, groups in MENU for _group, links in groups
                       if any(entry.label == link for entry in links))
        yield ctx.click(section, tag="summary", exact=True)
    yield ctx.click(link, tag="a", exact=True)


def open_filters(ctx: OracleContext) -> Iterator[str]:
    """Expand a grid's Filters panel when it is collapsed."""
    if not ctx.find_all("Apply Filters", tag="button"):
        yield ctx.click("Filters", tag="summary", exact=True)


def open_order(ctx: OracleContext, order_id: int) -> Iterator[str]:
    """Sales > Orders, search the order number, open the order."""
    number = f"{order_id:09d}"
    yield from menu(ctx, "Orders")
    yield ctx.search("Search by keyword", number)
    yield ctx.click(f"View order {number}", tag="a", exact=True)


def filter_orders(ctx: OracleContext, *, status: str | None = None, start: dt.date | None = None,
                  end: dt.date | None = None, customer: str | None = None) -> Iterator[str]:
    """Sales > Orders with the grid's filters filled in, then Apply Filters."""
    yield from menu(ctx, "Orders")
    yield from open_filters(ctx)
    if status:
        yield ctx.select("Status", status)
    if start:
        yield ctx.type("Purchase Date from", us(start))
    if end:
        yield ctx.type("Purchase Date to", us(end))
    if customer:
        yield ctx.type("Customer", customer)
    yield ctx.click("Apply Filters", tag="button")
