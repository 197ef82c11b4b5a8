"""Content-changing families of the store admin (program_html): orders, prices, comments, shipments, pages."""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Iterator
from decimal import ROUND_HALF_UP, Decimal
from typing import TYPE_CHECKING, Any

from ....sites.shopping_admin.names import CARRIERS, CITIES, STREETS
from ....tasks.families import program_html_eval
from .common import ADMIN, SITE, family, filter_orders, menu, open_filters, open_order, table_rows
from .information import product_reviews, review_rows

if TYPE_CHECKING:
    from ....tasks.oracle import OracleContext

PRICE_CHANGES = ("$5", "10%", "$10", "15%", "$3", "20%", "$7.50", "25%")
MESSAGES = ("the order is ready to be shipped soon!", "Your package will leave our warehouse tomorrow.",
            "We are sorry for the delay, your items are back in stock.", "Thanks for shopping with us again!",
            "A size exchange has been approved for this order.", "Please confirm your shipping address by email.",
            "Your gift message has been added to the package.", "Payment received, we are packing your order.")
NEW_TITLES = ("Bruh bro you clicked the wrong page", "Welcome to the Trail Shop", "Cookies Keep Your Cart Alive",
              "How We Protect Your Data", "Meet the Team", "We Are Here to Help", "Fast and Flat-Rate Shipping",
              "Easy 30-Day Returns", "Find Your Perfect Fit", "Holiday Deals Are Back", "Join Our Crew",
              "Visit Us in Person")


def latest_order_url(page: Any, customer: str, status: str) -> str:
    """URL of ``customer``'s most recent order with ``status`` in the episode's world ("" when none)."""
    if page.world is None:
        return ""
    row = page.world.connection(SITE).execute(
        "SELECT id FROM sales_order WHERE customer_name = ? AND status = ? ORDER BY created_at DESC, id DESC LIMIT 1",
        (customer, status)).fetchone()
    base = page.site_urls.get(SITE, "")
    return f"{base}/sales/order/view/order_id/{row[0]}/" if row else base


def _order_url(order_id: int) -> str:
    return f"{ADMIN}/sales/order/view/order_id/{order_id}/"


# -- cancel an order -----------------------------------------------------------------------------------


def _cancellable(conn: sqlite3.Connection):
    rows = conn.execute(
        "SELECT id FROM sales_order o WHERE status IN ('pending', 'holded', 'fraud') "
        "AND NOT EXISTS (SELECT 1 FROM invoice i WHERE i.order_id = o.id) "
        "AND NOT EXISTS (SELECT 1 FROM shipment s WHERE s.order_id = o.id) ORDER BY id").fetchall()
    for (order_id,) in rows[::3]:
        yield {"id": order_id}, program_html_eval(
            (_order_url(order_id), "document.querySelector('#order_status').outerText", {"exact_match": "Canceled"}))


def solve_cancel(ctx: OracleContext) -> Iterator[str]:
    yield from open_order(ctx, int(ctx.instantiation["id"]))
    yield ctx.click("Cancel", tag="button", exact=True)
    yield ctx.exit("Done")


# -- change a product's price ------------------------------------------------------------------------------


def changed_price(price: Decimal, action: str, amount: str) -> Decimal | None:
    """The new price, or None when a percentage would need rounding (an ambiguous reference)."""
    if amount.endswith("%"):
        delta = price * Decimal(amount[:-1]) / 100
        if delta != delta.quantize(Decimal("0.01")):
            return None
    else:
        delta = Decimal(amount.lstrip("$"))
    new = price + delta if action == "Increase" else price - delta
    return new.quantize(Decimal("0.01"), ROUND_HALF_UP) if new > 0 else None


def _price_changes(conn: sqlite3.Connection):
    rows = conn.execute("SELECT id, name, price FROM product WHERE status = 1 ORDER BY id").fetchall()
    for i, (product_id, name, price) in enumerate(rows[::7]):
        action = "Increase" if i % 2 else "Reduce"
        for amount in PRICE_CHANGES[i % len(PRICE_CHANGES):] + PRICE_CHANGES:
            new = changed_price(Decimal(f"{price:.2f}"), action, amount)
            if new is not None:
                break
        yield {"action": action, "product": name, "amount": amount}, program_html_eval(
            (f"{ADMIN}/catalog/product/edit/id/{product_id}/",
             "document.querySelector('input[name=\"product[price]\"]').value", {"exact_match": f"{new:.2f}"}))


def solve_price(ctx: OracleContext) -> Iterator[str]:
    name = str(ctx.instantiation["product"])
    yield from menu(ctx, "Products")
    yield ctx.search("Search by keyword", name)
    yield ctx.click(f"Edit {name}", tag="a", exact=True)
    current = Decimal(ctx.field("Price").attributes["value"])
    new = changed_price(current, str(ctx.instantiation["action"]), str(ctx.instantiation["amount"]))
    yield ctx.type("Price", f"{new:.2f}")
    yield ctx.click("Save", tag="button", exact=True)
    yield ctx.exit("Done")


# -- notify a customer on their latest pending order ------------------------------------------------------------


def _notifications(conn: sqlite3.Connection):
    customers = conn.execute("SELECT DISTINCT customer_name FROM sales_order WHERE status = 'pending' "
                             "ORDER BY customer_id").fetchall()
    for i, (name,) in enumerate(customers[::2]):
        # the oracle filters the grid by name: it must not catch another customer's orders
        others = conn.execute("SELECT COUNT(DISTINCT customer_id) FROM sales_order WHERE customer_name LIKE ? "
                              "OR customer_email LIKE ?", (f"%{name}%", f"%{name}%")).fetchone()[0]
        if others != 1:
            continue
        message = MESSAGES[i % len(MESSAGES)]
        yield {"name": name, "message": message}, program_html_eval(
            (f"func:shopping_admin_latest_order_url('{name}', 'pending')",
             "document.querySelector('#order_history li').outerText",
             {"must_include": [message, "Customer Notified"]}))


def solve_notify(ctx: OracleContext) -> Iterator[str]:
    yield from filter_orders(ctx, status="Pending", customer=str(ctx.instantiation["name"]))
    yield ctx.click("View order", tag="a")  # newest first
    yield ctx.type("Comment", str(ctx.instantiation["message"]))
    yield ctx.check("Notify Customer by Email")
    yield ctx.click("Submit Comment", tag="button")
    yield ctx.exit("Done")


# -- ship an order with a tracking number -------------------------------------------------------------------------


def _shipments(conn: sqlite3.Connection):
    rng = random.Random(7781)
    rows = conn.execute("SELECT id FROM sales_order o WHERE status IN ('pending', 'processing') "
                        "AND NOT EXISTS (SELECT 1 FROM shipment s WHERE s.order_id = o.id) ORDER BY id").fetchall()
    titles = [title for _code, title in CARRIERS[1:]]
    for i, (order_id,) in enumerate(rows[::7]):
        service, tracking = titles[i % len(titles)], str(rng.randint(10**9, 10**10 - 1))
        yield {"order": order_id, "service": service, "tracking": tracking}, program_html_eval(
            (_order_url(order_id), "document.querySelector('#shipment_tracking').outerText",
             {"must_include": [tracking, service]}))


def solve_ship(ctx: OracleContext) -> Iterator[str]:
    yield from open_order(ctx, int(ctx.instantiation["order"]))
    yield ctx.click("Ship", tag="a", exact=True)
    yield ctx.select("Carrier", str(ctx.instantiation["service"]))
    yield ctx.type("Tracking Number", str(ctx.instantiation["tracking"]))
    yield ctx.click("Submit Shipment", tag="button")
    yield ctx.exit("Done")


# -- rename a CMS page ---------------------------------------------------------------------------------------------


def _page_titles(conn: sqlite3.Connection):
    for (page_id, title), heading in zip(conn.execute("SELECT id, title FROM cms_page ORDER BY id"), NEW_TITLES, strict=True):
        yield {"old-heading": title, "heading": heading}, program_html_eval(
            (f"{ADMIN}/cms/page/edit/page_id/{page_id}/", "document.querySelector('input[name=\"title\"]').value",
             {"exact_match": heading}))


def solve_page_title(ctx: OracleContext) -> Iterator[str]:
    yield from menu(ctx, "Pages")
    yield ctx.click(f"Edit page {ctx.instantiation['old-heading']}", tag="a", exact=True)
    yield ctx.type("Page Title", str(ctx.instantiation["heading"]))
    yield ctx.click("Save Page", tag="button")
    yield ctx.exit("Done")


# -- product edits: disable, out of stock, stock arrived, a price on the product's own page --------------------------


def product_url(product_id: int) -> str:
    return f"{ADMIN}/catalog/product/edit/id/{product_id}/"


def field_value(name: str) -> str:
    """A locator for the value of the product form's field ``name``."""
    return f"document.querySelector('[name=\"{name}\"]').value"


def open_product(ctx: OracleContext, name: str) -> Iterator[str]:
    """Catalog > Products, search the product's name, open its edit page."""
    yield from menu(ctx, "Products")
    yield ctx.search("Search by keyword", name)
    yield ctx.click(f"Edit {name}", tag="a", exact=True)


def _disable(conn: sqlite3.Connection):
    for product_id, name in conn.execute("SELECT id, name FROM product WHERE status = 1 ORDER BY id").fetchall()[2::9]:
        yield {"product": name}, program_html_eval((product_url(product_id), field_value("product[status]"),
                                                    {"exact_match": "2"}))


def solve_disable(ctx: OracleContext) -> Iterator[str]:
    yield from open_product(ctx, str(ctx.instantiation["product"]))
    yield ctx.select("Enable Product", "No")
    yield ctx.click("Save", tag="button", exact=True)
    yield ctx.exit("Done")


def _out_of_stock(conn: sqlite3.Connection):
    rows = conn.execute("SELECT id, name FROM product WHERE is_in_stock = 1 AND status = 1 ORDER BY id").fetchall()
    for product_id, name in rows[5::10]:
        yield {"product": name}, program_html_eval(
            (product_url(product_id), field_value("product[quantity_and_stock_status][is_in_stock]"),
             {"exact_match": "0"}))


def solve_out_of_stock(ctx: OracleContext) -> Iterator[str]:
    yield from open_product(ctx, str(ctx.instantiation["product"]))
    yield ctx.select("Stock Status", "Out of Stock")
    yield ctx.click("Save", tag="button", exact=True)
    yield ctx.exit("Done")


def _arrivals(conn: sqlite3.Connection):
    empty = conn.execute("SELECT id, name, qty FROM product WHERE qty = 0 AND status = 1 ORDER BY id").fetchall()
    stocked = conn.execute("SELECT id, name, qty FROM product WHERE qty > 0 AND status = 1 ORDER BY id").fetchall()
    for i, (product_id, name, qty) in enumerate(empty + stocked[7::19]):
        arrived = (5, 12, 20, 8, 30, 15, 3, 25)[i % 8]
        yield {"quantity": arrived, "product": name}, program_html_eval(
            (product_url(product_id), field_value("product[quantity_and_stock_status][qty]"),
             {"exact_match": str(qty + arrived)}),
            (product_url(product_id), field_value("product[quantity_and_stock_status][is_in_stock]"),
             {"exact_match": "1"}))


def solve_arrival(ctx: OracleContext) -> Iterator[str]:
    yield from open_product(ctx, str(ctx.instantiation["product"]))
    current = int(ctx.field("Quantity").attributes["value"])
    yield ctx.type("Quantity", str(current + int(ctx.instantiation["quantity"])))
    yield ctx.select("Stock Status", "In Stock")
    yield ctx.click("Save", tag="button", exact=True)
    yield ctx.exit("Done")


def _price_changes_here(conn: sqlite3.Connection):
    # The intent names no product, so each (action, amount) pair is used once to keep intents distinct.
    unused = [(action, amount) for amount in PRICE_CHANGES for action in ("Increase", "Reduce")]
    for product_id, price in conn.execute("SELECT id, price FROM product WHERE status = 1 ORDER BY id").fetchall()[3::9]:
        for action, amount in unused:
            new = changed_price(Decimal(f"{price:.2f}"), action, amount)
            if new is not None:
                unused.remove((action, amount))
                yield {"action": action, "amount": amount}, program_html_eval(
                    (product_url(product_id), field_value("product[price]"), {"exact_match": f"{new:.2f}"})), \
                    product_url(product_id)
                break


def solve_price_here(ctx: OracleContext) -> Iterator[str]:
    current = Decimal(ctx.field("Price").attributes["value"])
    new = changed_price(current, str(ctx.instantiation["action"]), str(ctx.instantiation["amount"]))
    yield ctx.type("Price", f"{new:.2f}")
    yield ctx.click("Save", tag="button", exact=True)
    yield ctx.exit("Done")


# -- change an order's shipping address ------------------------------------------------------------------------------


def _new_addresses(conn: sqlite3.Connection):
    rng = random.Random(7782)
    rows = conn.execute("SELECT o.id, a.city FROM sales_order o JOIN order_address a ON a.order_id = o.id "
                        "AND a.address_type = 'shipping' ORDER BY o.id").fetchall()
    for order_id, city_now in rows[11::97]:
        city, region, postcode = rng.choice([c for c in CITIES if c[0] != city_now])
        street = f"{rng.randint(100, 999)} {rng.choice(STREETS)}"
        yield {"order_id": order_id, "address": f"{street}, {city}, {region}, {postcode}"}, program_html_eval(
            (_order_url(order_id), "document.querySelector('#shipping-address').outerText",
             {"must_include": [street, city, postcode]}))


def solve_new_address(ctx: OracleContext) -> Iterator[str]:
    street, city, region, postcode = (part.strip() for part in str(ctx.instantiation["address"]).split(","))
    yield from open_order(ctx, int(ctx.instantiation["order_id"]))
    yield ctx.click("Edit shipping address", tag="a", exact=True)
    yield ctx.type("Street Address", street)
    yield ctx.type("City", city)
    yield ctx.type("State/Province", region)
    yield ctx.type("Zip/Postal Code", postcode)
    yield ctx.click("Save Order Address", tag="button")
    yield ctx.exit("Done")


# -- put a brand's shirts on sale ---------------------------------------------------------------------------------


def _brand_shirts(conn: sqlite3.Connection):
    brands: dict[str, list[tuple[int, int]]] = {}
    for product_id, name, on_sale in conn.execute("SELECT id, name, on_sale FROM product WHERE category = 'Tees' "
                                                  "ORDER BY name"):
        brands.setdefault(name.split()[0], []).append((product_id, on_sale))
    candidates = [(brand, tees) for brand, tees in sorted(brands.items()) if not all(sale for _, sale in tees)]
    for brand, tees in candidates[::2]:
        yield {"brand": brand}, program_html_eval(
            *((product_url(product_id), field_value("product[sale]"), {"exact_match": "1"}) for product_id, _ in tees))


def solve_brand_shirts(ctx: OracleContext) -> Iterator[str]:
    brand = str(ctx.instantiation["brand"])
    yield from menu(ctx, "Products")
    yield ctx.type("Search by keyword", brand)
    yield from open_filters(ctx)
    yield ctx.select("Category", "Tees")
    yield ctx.click("Apply Filters", tag="button")
    shirts = [cells[2] for cells in table_rows(ctx)
              if len(cells) == 10 and cells[3] == "Tees" and cells[2].split()[0] == brand]
    for name in shirts:
        yield from open_product(ctx, name)
        yield ctx.select("On Sale", "Yes")
        yield ctx.click("Save", tag="button", exact=True)
    yield ctx.exit("Done")


# -- quote positive reviews in a product's description ---------------------------------------------------------------


def _quoted_reviews(conn: sqlite3.Connection):
    rows = conn.execute("SELECT p.id, p.name, group_concat(r.detail, '\n') FROM product p JOIN review r "
                        "ON r.product_id = p.id AND r.rating >= 4 GROUP BY p.id HAVING COUNT(*) <= 3 "
                        "ORDER BY p.id").fetchall()
    for product_id, name, details in rows[::8]:
        yield {"product": name}, program_html_eval(
            (product_url(product_id), field_value("product[description]"), {"must_include": details.split("\n")}))


def solve_quoted_reviews(ctx: OracleContext) -> Iterator[str]:
    product = str(ctx.instantiation["product"])
    yield from product_reviews(ctx, product)
    quotes = [cells[6] for cells in review_rows(ctx, product) if int(cells[7]) >= 4]
    yield from open_product(ctx, product)
    description = ctx.field("Description").text
    praise = " ".join(f'"{quote}"' for quote in quotes)
    yield ctx.type("Description", f"{description} What our customers say: {praise}".strip())
    yield ctx.click("Save", tag="button", exact=True)
    yield ctx.exit("Done")


FAMILIES = [
    family("cancel_order", "Cancel order {{id}}", "content", _cancellable, solve_cancel),
    family("change_product_price", "{{action}} the price of {{product}} by {{amount}}", "content", _price_changes,
           solve_price),
    family("notify_latest_pending_order", 'Notify {{name}} in their most recent pending order with message "{{message}}"',
           "content", _notifications, solve_notify),
    family("ship_order_with_tracking", "Update order #{{order}} with the {{service}} tracking number {{tracking}}",
           "content", _shipments, solve_ship),
    family("rename_cms_page", 'Change the page title of "{{old-heading}}" page on my site to "{{heading}}".', "content",
           _page_titles, solve_page_title),
    family("disable_product", "Disable {{product}} from the site, they are facing some quality issues.", "content",
           _disable, solve_disable),
    family("product_out_of_stock", "Make all {{product}} as out of stock", "content", _out_of_stock,
           solve_out_of_stock),
    family("stock_arrived", "{{quantity}} {{product}} arrived, update the stock", "content", _arrivals, solve_arrival),
    family("change_this_product_price", "{{action}} the price of this product by {{amount}}", "content",
           _price_changes_here, solve_price_here),
    family("modify_order_address", "Modify the address of order #{{order_id}} to {{address}}", "content",
           _new_addresses, solve_new_address),
    family("brand_shirts_on_sale", "Mark all {{brand}} shirts on sale", "content", _brand_shirts, solve_brand_shirts),
    family("quote_positive_reviews", "Update the product description of {{product}} to highlight the real user positive "
           "reviews by quoting the comments", "content", _quoted_reviews, solve_quoted_reviews),
]
