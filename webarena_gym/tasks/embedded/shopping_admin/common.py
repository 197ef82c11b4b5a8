"""Shared pieces of the store admin's task families: task dicts, periods, and oracle steps."""

from __future__ import annotations

import datetime as dt
import re
import sqlite3
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from ...families import PristineData, TaskFamily

if TYPE_CHECKING:
    from ...oracle import OracleContext

SITE = "shopping_admin"
ADMIN = "__SHOPPING_ADMIN__"
#: The months the seeded orders span, as (year, month).
MONTHS = [(2022, m) for m in range(1, 13)] + [(2023, m) for m in range(1, 6)]
NUMBER_WORDS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
                "fifteen sixteen seventeen eighteen nineteen twenty").split()

Instance = tuple  # (instantiation dict, eval dict[, start url])


def fill(template: str, values: dict[str, Any]) -> str:
    for key, value in values.items():
        template = template.replace("{{" + key + "}}", str(value))
    return template


def family(name: str, template: str, kind: str, instances: Callable[[sqlite3.Connection], Iterable[Instance]],
           solve: Callable[[OracleContext], Iterator[str]]) -> TaskFamily:
    """A family whose ``instances(conn)`` yields (instantiation, eval[, start_url]) over the pristine admin data."""

    def instantiate(pristine: PristineData) -> list[dict[str, Any]]:
        tasks = []
        for values, evaluation, *start in instances(pristine(SITE)):
            tasks.append({
                "sites": [SITE], "require_login": True, "storage_state": "./.auth/shopping_admin_state.json",
                "start_url": start[0] if start else ADMIN, "geolocation": None,
                "intent": fill(template, values), "instantiation_dict": values, "eval": evaluation,
            })
        return tasks

    return TaskFamily(name=f"{SITE}.{name}", sites=(SITE,), intent_template=template, instantiate=instantiate,
                      solve=solve, kind=kind)


def answer(**answers: Any) -> dict[str, Any]:
    return {"eval_types": ["string_match"], "reference_answers": answers, "reference_url": "", "program_html": []}


def url_eval(reference: str, note: str = "EXACT") -> dict[str, Any]:
    return {"eval_types": ["url_match"], "reference_answers": None, "reference_url": reference, "url_note": note,
            "program_html": []}


def program(*targets: tuple[str, str, dict[str, Any]], reference_url: str = "", note: str = "") -> dict[str, Any]:
    evaluation = {
        "eval_types": (["url_match"] if reference_url else []) + ["program_html"],
        "reference_answers": None, "reference_url": reference_url,
        "program_html": [{"url": u, "locator": loc, "required_contents": req} for u, loc, req in targets],
    }
    if note:
        evaluation["url_note"] = note
    return evaluation


def count_reference(count: int) -> str:
    """A count as must_include wants it: ``"6 |OR| six"`` (people write small numbers as words)."""
    return f"{count} |OR| {NUMBER_WORDS[count]}" if count < len(NUMBER_WORDS) else str(count)


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
    from ...oracle import OracleError

    raise OracleError(f"No row {header!r} on {ctx.url}")


def records_found(ctx: OracleContext) -> int:
    return int(ctx.search_text(r"(\d+) records found"))


# -- oracle steps -------------------------------------------------------------------------


def menu(ctx: OracleContext, link: str) -> str:
    """Click an entry of the admin menu."""
    return ctx.click(link, tag="a", exact=True)


def open_order(ctx: OracleContext, order_id: int) -> Iterator[str]:
    """Sales > Orders, search the order number, open the order."""
    number = f"{order_id:09d}"
    yield menu(ctx, "Orders")
    yield ctx.search("Search by keyword", number)
    yield ctx.click(f"View order {number}", tag="a", exact=True)


def filter_orders(ctx: OracleContext, *, status: str | None = None, start: dt.date | None = None,
                  end: dt.date | None = None, customer: str | None = None) -> Iterator[str]:
    """Sales > Orders with the grid's filters filled in, then Apply Filters."""
    yield menu(ctx, "Orders")
    if status:
        yield ctx.select("Status", status)
    if start:
        yield ctx.type("Purchase Date from", us(start))
    if end:
        yield ctx.type("Purchase Date to", us(end))
    if customer:
        yield ctx.type("Customer", customer)
    yield ctx.click("Apply Filters", tag="button")
