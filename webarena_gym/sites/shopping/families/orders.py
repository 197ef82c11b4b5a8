"""Information-seeking families over Emma Lopez's order history (WebArena-Lite's templates).

Reference answers come from her seeded orders; the oracles read My Orders (every page
when the question spans time) and open single orders only where the history table
does not show the answer.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Iterator
from decimal import Decimal

from ....sites.shopping.phrases import PLACES, SECOND_LINES, STREET_NAMES, US_STATES
from ....sites.shopping.store import long_date
from ....tasks.families import TaskFamily, money
from ....tasks.task import any_of
from .common import (
    CHOICE_SEED,
    TODAY,
    all_order_rows,
    answer,
    emma_items,
    emma_orders,
    family,
    kind_of,
    open_order_history,
    order_rows,
    pick,
    row_date,
    viewed_items,
)


def _cents(total: str) -> int:
    """Cents of a history row's total (``$1,234.56``)."""
    return int(Decimal(total.strip("$").replace(",", "")) * 100)


def _day(created_at: str) -> dt.date:
    return dt.datetime.fromisoformat(created_at).date()


# -- Fulfilled orders and spend over a recent period (fuzzy_match) -------------------------

#: (phrase, days back from TODAY or None, months back or None).
PERIODS = (
    ("over the past three days", 3, None), ("over the past week", 7, None), ("over the past two weeks", 14, None),
    ("over the past month", None, 1), ("over the past two months", None, 2), ("over the past three months", None, 3),
    ("over the past four months", None, 4), ("over the past five months", None, 5),
    ("over the past six months", None, 6), ("over the past eight months", None, 8),
    ("over the past ten months", None, 10), ("over the past year", None, 12),
)


def period_start(days: int | None, months: int | None) -> dt.date:
    """The first day a period ending TODAY covers (``over the past month`` from 6/12/2023: 5/12/2023)."""
    if days is not None:
        return TODAY - dt.timedelta(days=days)
    month = TODAY.month - months
    year = TODAY.year + (month - 1) // 12
    return dt.date(year, (month - 1) % 12 + 1, TODAY.day)


def _fulfilled_instances(conn):
    orders = emma_orders(conn)
    for phrase, days, months in PERIODS:
        start = period_start(days, months)
        if any(_day(o["created_at"]) == start for o in orders):
            continue  # an order on the boundary day would make the answer depend on reading "past"
        done = [o for o in orders if o["status"] == "Complete" and _day(o["created_at"]) >= start]
        total = sum(o["grand_total"] for o in done) / 100
        yield {"period": phrase}, answer(fuzzy_match=[str(len(done)), f"${total:,.2f}"])


def _fulfilled_solve(ctx) -> Iterator[str]:
    phrase = ctx.instantiation["period"]
    _, days, months = next(period for period in PERIODS if period[0] == phrase)
    start = period_start(days, months)
    found = yield from all_order_rows(ctx)
    done = [row for row in found if row[3] == "Complete" and row_date(row[1]) >= start]
    total = sum(_cents(row[2]) for row in done) / 100
    yield ctx.exit(f"{len(done)} fulfilled order{'s' if len(done) != 1 else ''}, ${total:,.2f} in total")


# -- Spend in a month with a 20% discount on big orders (must_include) ----------------------

DISCOUNT_OVER = 20000  # cents


def discounted(totals: list[int]) -> str:
    """The month's spend in dollars, 20% off each order over $200, written without trailing zeros."""
    cents = sum(Decimal(t) * (Decimal("0.8") if t > DISCOUNT_OVER else 1) for t in totals)
    text = format((cents / 100).normalize(), "f")
    return any_of(text, f"{cents / 100:.2f}") if "." not in text or len(text.split(".")[1]) < 2 else text


def _discount_instances(conn):
    months: dict[str, list[int]] = {}
    for order in emma_orders(conn):
        if order["status"] != "Canceled":
            months.setdefault(dt.datetime.fromisoformat(order["created_at"]).strftime("%B %Y"), []).append(
                order["grand_total"])
    for month, totals in months.items():
        yield {"time": f"on {month}"}, answer(must_include=[discounted(totals)])


def _discount_solve(ctx) -> Iterator[str]:
    month = dt.datetime.strptime(ctx.instantiation["time"].removeprefix("on "), "%B %Y")
    found = yield from all_order_rows(ctx)
    totals = [_cents(row[2]) for row in found if row[3] != "Canceled"
              and (row_date(row[1]).year, row_date(row[1]).month) == (month.year, month.month)]
    yield ctx.exit(discounted(totals).split(" |OR| ")[0])


# -- Refund due for cancelled orders in a period (must_include) -----------------------------

SEASONS = {"spring": (3, 4, 5), "summer": (6, 7, 8), "fall": (9, 10, 11)}


def _period_phrases(day: dt.date) -> list[str]:
    """The ways to name a period containing ``day``: its year, its month, its season."""
    found = [str(day.year), day.strftime("%B %Y")]
    found += [f"{season} {day.year}" for season, months in SEASONS.items() if day.month in months]
    return found


def _in_period(day: dt.date, phrase: str) -> bool:
    return phrase in _period_phrases(day)


def _refund_instances(conn):
    canceled = [o for o in emma_orders(conn) if o["status"] == "Canceled"]
    phrases = []
    for order in canceled:
        phrases += [p for p in _period_phrases(_day(order["created_at"])) if p not in phrases]
    for phrase in sorted(phrases, key=lambda p: (len(p) > 4, p)):
        total = sum(o["grand_total"] for o in canceled if _in_period(_day(o["created_at"]), phrase)) / 100
        yield {"time": phrase}, answer(must_include=[money(total)])


def _refund_solve(ctx) -> Iterator[str]:
    phrase = ctx.instantiation["time"]
    found = yield from all_order_rows(ctx)
    total = sum(_cents(row[2]) for row in found if row[3] == "Canceled" and _in_period(row_date(row[1]), phrase))
    yield ctx.exit(f"${total / 100:.2f}")


# -- When did I last order something, by description (fuzzy_match) -------------------------

FIRST_PAGE = 10  # orders on the first page of My Orders


def _description_instances(conn):
    items = emma_items(conn)
    recent = {o["increment_id"] for o in emma_orders(conn)[-FIRST_PAGE:]}
    descriptions = []
    for item in reversed(items):
        description = kind_of(item["name"], item["brand"]).lower()
        if item["increment_id"] in recent and description not in descriptions:
            descriptions.append(description)
    for description in pick(descriptions, 15, salt=41):
        last = max(i["created_at"] for i in items if description in i["name"].lower())
        yield {"description": description}, answer(fuzzy_match=[long_date(last)])


def _description_solve(ctx) -> Iterator[str]:
    description = ctx.instantiation["description"]
    yield from open_order_history(ctx)
    for number, _date, _total, _status in order_rows(ctx):
        yield ctx.click(f"View Order {number}", tag="a")
        if any(description in item["name"].lower() for item in viewed_items(ctx)):
            yield ctx.exit(ctx.search_text(r"Order Date: (\w+ \d+, \d{4})"))
            return
        yield ctx.go_back()
    yield ctx.exit("N/A")


# -- The status of given orders (fuzzy_match) ----------------------------------------------


def _status_instances(conn):
    orders = emma_orders(conn)
    rng = random.Random(CHOICE_SEED + 43)
    seen = set()
    while len(seen) < 14:
        chosen = tuple(sorted(rng.sample(orders, rng.choice((1, 2))), key=lambda o: o["id"]))
        numbers = tuple(int(o["increment_id"]) for o in chosen)
        if numbers in seen:
            continue
        seen.add(numbers)
        info = "order statuses" if len(chosen) > 1 else "order status"
        yield ({"info": info, "order_number": " and ".join(str(n) for n in numbers)},
               answer(fuzzy_match=[f"{int(o['increment_id'])}: {o['status'].lower()}" for o in chosen]))


def _status_solve(ctx) -> Iterator[str]:
    wanted = [int(n) for n in ctx.instantiation["order_number"].split(" and ")]
    found = yield from all_order_rows(ctx)
    statuses = {int(number): status for number, _date, _total, status in found}
    yield ctx.exit(", ".join(f"{n}: {statuses[n]}" for n in wanted))


# -- Unachievable: change the delivery address of the latest order (must_include N/A) -------


def _readdress_instances(conn):
    rng = random.Random(CHOICE_SEED + 45)
    codes = dict(US_STATES)
    seen = set()
    while len(seen) < 12:
        street = f"{rng.randint(10, 990)} {rng.choice(STREET_NAMES)}"
        second = rng.choice(("",) * 3 + SECOND_LINES)
        city, state, _postcode = rng.choice(PLACES)
        address = ", ".join([street] + ([second] if second else []) + [city, codes[state]])
        if address in seen:
            continue
        seen.add(address)
        yield {"address": address}, answer(must_include=["N/A"])


def _readdress_solve(ctx) -> Iterator[str]:
    yield from open_order_history(ctx)
    yield ctx.click(f"View Order {order_rows(ctx)[0][0]}", tag="a")
    if ctx.find_all("Edit Address") or ctx.find_all("Change Address"):
        yield ctx.exit("The order's address can be edited.")
    else:
        yield ctx.exit("N/A")


# -- The latest order of a status: its number, its total (must_include; N/A when none) -----

#: How a shopper names a status -> the store's status (None: the store has no such order).
STATUS_WORDS = {"complete": "Complete", "completed": "Complete", "canceled": "Canceled", "cancelled": "Canceled",
                "pending": "Pending", "processing": "Processing", "on hold": None, "closed": None,
                "suspected fraud": None, "payment review": None}


def _latest_of_status(conn, status: str | None):
    if status is None:
        return None
    return next((o for o in reversed(emma_orders(conn)) if o["status"] == status), None)


def _latest_number_instances(conn):
    for word, status in STATUS_WORDS.items():
        order = _latest_of_status(conn, status)
        yield {"status": word}, answer(must_include=[order["increment_id"] if order else "N/A"])


def _latest_total_instances(conn):
    for word, status in STATUS_WORDS.items():
        order = _latest_of_status(conn, status)
        yield {"status": word}, answer(must_include=[money(order["grand_total"] / 100) if order else "N/A"])


def _latest_row(ctx) -> Iterator[str]:
    """Page through My Orders until a row of the asked status; returns (generator value) it or None."""
    wanted = STATUS_WORDS[ctx.instantiation["status"]]
    found = yield from all_order_rows(ctx)
    return next((row for row in found if row[3] == wanted), None)


def _latest_number_solve(ctx) -> Iterator[str]:
    row = yield from _latest_row(ctx)
    yield ctx.exit(row[0] if row else "N/A")


def _latest_total_solve(ctx) -> Iterator[str]:
    row = yield from _latest_row(ctx)
    yield ctx.exit(row[2] if row else "N/A")


FAMILIES: list[TaskFamily] = [
    family("fulfilled_orders_in_period", "Today is 6/12/2023. Tell me how many fulfilled orders I have {{period}}, "
           "and the total amount of money I spent.", "information", _fulfilled_instances, _fulfilled_solve),
    family("discounted_spend_in_month", "How much did I spend on shopping at One Stop Market {{time}}? They gave me a "
           "20% discount on the total amount for orders exceeding $200 in cash", "information",
           _discount_instances, _discount_solve),
    family("refund_for_cancelled_orders", "How much refund I should expect from my order canlled in {{time}}, "
           "including shipping fee", "information", _refund_instances, _refund_solve),
    family("last_ordered_description", "Tell me when I last ordered my {{description}}?", "information",
           _description_instances, _description_solve),
    family("order_statuses", "Show me the {{info}} for order number {{order_number}}.", "information",
           _status_instances, _status_solve),
    family("change_order_address", "Change the delivery address for my most recent order to {{address}}.",
           "information", _readdress_instances, _readdress_solve),
    family("latest_order_number_of_status", "Get the order number of my most recent {{status}} order", "information",
           _latest_number_instances, _latest_number_solve),
    family("latest_order_total_of_status", "Tell me the total cost of my latest {{status}} order?", "information",
           _latest_total_instances, _latest_total_solve),
]
