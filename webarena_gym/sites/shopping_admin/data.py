"""Schema and deterministic seed data of the store admin (a separate store, like WebArena's).

Everything comes from one ``random.Random(SEED)``: 120 customers, 168 products, 1,300
orders from January 2022 to May 2023 with invoices, shipments, refunds and status
history, about 420 reviews, 60 search terms, CMS pages and themes.
"""

from __future__ import annotations

import datetime as dt
import random
import sqlite3

from . import names

SEED = 7780
N_CUSTOMERS = 120
N_ORDERS = 1300
N_REVIEWS = 420
FIRST_DAY = dt.datetime(2022, 1, 1)
LAST_DAY = dt.datetime(2023, 5, 31, 23, 59, 59)
FLAT_RATE_PER_ITEM = 5.0

#: Order status code -> label, in the order the admin lists them.
STATUSES = {"pending": "Pending", "processing": "Processing", "complete": "Complete", "canceled": "Canceled",
            "closed": "Closed", "holded": "On Hold", "fraud": "Suspected Fraud"}
REVIEW_STATUSES = ("Approved", "Pending", "Not Approved")
CUSTOMER_GROUPS = ("General", "Wholesale", "Retailer")

SCHEMA = """
CREATE TABLE admin_user (id INTEGER PRIMARY KEY, username TEXT UNIQUE, password TEXT, firstname TEXT,
    lastname TEXT, email TEXT);
CREATE TABLE customer (id INTEGER PRIMARY KEY, firstname TEXT, lastname TEXT, email TEXT UNIQUE, phone TEXT,
    group_name TEXT, street TEXT, city TEXT, region TEXT, postcode TEXT, country TEXT, created_at TEXT);
CREATE TABLE product (id INTEGER PRIMARY KEY, sku TEXT UNIQUE, name TEXT UNIQUE, category TEXT, price REAL,
    special_price REAL, on_sale INTEGER, qty INTEGER, is_in_stock INTEGER, status INTEGER, description TEXT,
    sizes TEXT, colors TEXT, views INTEGER, created_at TEXT);
CREATE TABLE sales_order (id INTEGER PRIMARY KEY, increment_id TEXT UNIQUE, customer_id INTEGER,
    customer_name TEXT, customer_email TEXT, status TEXT, created_at TEXT, subtotal REAL, shipping_amount REAL,
    discount_amount REAL, grand_total REAL, total_qty INTEGER, shipping_method TEXT, payment_method TEXT);
CREATE TABLE order_address (id INTEGER PRIMARY KEY, order_id INTEGER, address_type TEXT, firstname TEXT,
    lastname TEXT, street TEXT, city TEXT, region TEXT, postcode TEXT, country TEXT, telephone TEXT);
CREATE TABLE order_item (id INTEGER PRIMARY KEY, order_id INTEGER, product_id INTEGER, name TEXT, sku TEXT,
    size TEXT, color TEXT, price REAL, qty INTEGER, row_total REAL);
CREATE TABLE invoice (id INTEGER PRIMARY KEY, increment_id TEXT UNIQUE, order_id INTEGER, created_at TEXT,
    grand_total REAL, state TEXT);
CREATE TABLE shipment (id INTEGER PRIMARY KEY, increment_id TEXT UNIQUE, order_id INTEGER, created_at TEXT,
    total_qty INTEGER);
CREATE TABLE shipment_track (id INTEGER PRIMARY KEY, shipment_id INTEGER, order_id INTEGER, carrier TEXT,
    title TEXT, number TEXT, created_at TEXT);
CREATE TABLE creditmemo (id INTEGER PRIMARY KEY, increment_id TEXT UNIQUE, order_id INTEGER, created_at TEXT,
    grand_total REAL);
CREATE TABLE order_status_history (id INTEGER PRIMARY KEY, order_id INTEGER, created_at TEXT, status TEXT,
    comment TEXT, is_customer_notified INTEGER);
CREATE TABLE review (id INTEGER PRIMARY KEY, product_id INTEGER, customer_id INTEGER, nickname TEXT,
    title TEXT, detail TEXT, rating INTEGER, status TEXT, created_at TEXT);
CREATE TABLE review_vote (review_id INTEGER, rating_code TEXT, value INTEGER, PRIMARY KEY (review_id, rating_code));
CREATE TABLE search_term (id INTEGER PRIMARY KEY, query_text TEXT UNIQUE, num_results INTEGER, uses INTEGER,
    updated_at TEXT);
CREATE TABLE cms_page (id INTEGER PRIMARY KEY, title TEXT, identifier TEXT UNIQUE, content TEXT,
    is_active INTEGER, created_at TEXT, updated_at TEXT);
CREATE TABLE theme (id INTEGER PRIMARY KEY, title TEXT, parent TEXT, code TEXT UNIQUE);
CREATE INDEX order_created ON sales_order(created_at);
CREATE INDEX order_customer ON sales_order(customer_id);
CREATE INDEX item_order ON order_item(order_id);
CREATE INDEX history_order ON order_status_history(order_id);
CREATE INDEX review_product ON review(product_id);
CREATE INDEX address_order ON order_address(order_id, address_type);
CREATE INDEX invoice_order ON invoice(order_id);
CREATE INDEX shipment_order ON shipment(order_id);
CREATE INDEX track_order ON shipment_track(order_id);
CREATE INDEX creditmemo_order ON creditmemo(order_id);
"""


def stamp(moment: dt.datetime) -> str:
    return moment.strftime("%Y-%m-%d %H:%M:%S")


def increment_id(number: int) -> str:
    """Magento-style document number: ``000000042``."""
    return f"{number:09d}"


def build_database(conn: sqlite3.Connection) -> None:
    """Create the schema and fill it with the seeded store."""
    rng = random.Random(SEED)
    conn.executescript(SCHEMA)
    conn.execute("INSERT INTO admin_user VALUES (1, 'admin', 'admin1234', 'Store', 'Admin', 'admin@example.com')")
    customers = _customers(conn, rng)
    products = _products(conn, rng)
    _orders(conn, rng, customers, products)
    _reviews(conn, rng, customers, products)
    _search_terms(conn, rng)
    for i, (title, key, active, body) in enumerate(names.CMS_PAGES, start=1):
        created = stamp(FIRST_DAY + dt.timedelta(days=3 * i, hours=i))
        conn.execute("INSERT INTO cms_page VALUES (?,?,?,?,?,?,?)", (i, title, key, body, active, created, created))
    conn.executemany("INSERT INTO theme VALUES (?,?,?,?)",
                     [(i, t, p, c) for i, (t, p, c) in enumerate(names.THEMES, start=1)])


def _customers(conn: sqlite3.Connection, rng: random.Random) -> list[tuple]:
    pairs = [("Emma", "Lopez")]
    seen = set(pairs)
    while len(pairs) < N_CUSTOMERS:
        pair = (rng.choice(names.FIRST_NAMES), rng.choice(names.LAST_NAMES))
        if pair not in seen:
            seen.add(pair)
            pairs.append(pair)
    rows, phones = [], set()
    for i, (first, last) in enumerate(pairs, start=1):
        email = "emma.lopez@hotmail.com" if i == 1 else f"{first}.{last}{rng.randint(1, 99)}@{rng.choice(names.EMAIL_DOMAINS)}".lower()
        phone = ""
        while not phone or phone in phones:
            phone = f"+1 {rng.randint(201, 989)}{rng.randint(200, 999)}{rng.randint(1000, 9999)}"
        phones.add(phone)
        group = rng.choices(CUSTOMER_GROUPS, weights=(8, 1, 1))[0]
        city, region, postcode = rng.choice(names.CITIES)
        street = f"{rng.randint(10, 9899)} {rng.choice(names.STREETS)}"
        created = FIRST_DAY - dt.timedelta(days=rng.randint(30, 700), minutes=rng.randint(0, 1439))
        rows.append((i, first, last, email, phone, group, street, city, region, postcode, "United States", stamp(created)))
    conn.executemany("INSERT INTO customer VALUES (?,?,?,?,?,?,?,?,?,?,?,?)", rows)
    return rows


def _products(conn: sqlite3.Connection, rng: random.Random) -> list[tuple]:
    rows = []
    for category, code, nouns, scale, palette, (low, high) in names.CATEGORIES:
        pairs = [(style, noun) for style in names.STYLES for noun in nouns]
        for n, (style, noun) in enumerate(rng.sample(pairs, names.CATEGORY_SIZES[category]), start=1):
            pid = len(rows) + 1
            sizes = ", ".join(names.SIZE_SCALES[scale]) if scale else ""
            colors = ", ".join(sorted(rng.sample(palette, min(len(palette), rng.randint(2, 4))))) if palette else ""
            price = rng.randint(low, high) + rng.choice((0.0, 0.0, 0.5, 0.99))
            qty = 0 if rng.random() < 0.08 else rng.randint(1, 250)
            on_sale = 1 if rng.random() < 0.12 else 0
            special = round(price * 0.8, 2) if on_sale else None
            status = 2 if rng.random() < 0.06 else 1
            description = (f"The {style} {noun} is made for {rng.choice(('running', 'training', 'hiking', 'yoga', 'travel', 'everyday wear'))}. "
                           f"{rng.choice(('Moisture-wicking fabric.', 'Recycled materials.', 'Reinforced seams.', 'Lightweight build.'))}")
            created = FIRST_DAY - dt.timedelta(days=rng.randint(1, 400))
            rows.append((pid, f"{code}{n:02d}", f"{style} {noun}", category, price, special, on_sale, qty,
                         1 if qty > 0 else 0, status, description, sizes, colors, rng.randint(0, 2500), stamp(created)))
    conn.executemany("INSERT INTO product VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", rows)
    return rows


def _order_status(rng: random.Random, moment: dt.datetime) -> str:
    if moment >= LAST_DAY - dt.timedelta(days=30):
        weights = {"pending": 34, "processing": 24, "complete": 24, "canceled": 10, "holded": 5, "fraud": 3}
    else:
        weights = {"complete": 68, "canceled": 14, "closed": 9, "processing": 4, "pending": 4, "holded": 1}
    return rng.choices(list(weights), weights=list(weights.values()))[0]


def _orders(conn: sqlite3.Connection, rng: random.Random, customers: list[tuple], products: list[tuple]) -> None:
    span = int((LAST_DAY - FIRST_DAY).total_seconds())
    moments = sorted(FIRST_DAY + dt.timedelta(seconds=s) for s in rng.sample(range(span), N_ORDERS))
    # A few loyal customers buy far more often than the rest, as in any real store.
    weights = [1 + 30 / (rank + 2) for rank in range(len(customers))]
    rng.shuffle(weights)
    sellable = [p for p in products if p[9] == 1]
    popularity = [rng.choice((1, 1, 2, 3, 5, 8)) for _ in sellable]
    counters = {"invoice": 0, "shipment": 0, "creditmemo": 0}
    for oid, moment in enumerate(moments, start=1):
        customer = rng.choices(customers, weights=weights)[0]
        status = _order_status(rng, moment)
        picked = []
        for product in rng.choices(sellable, weights=popularity, k=rng.choices((1, 2, 3, 4), weights=(5, 4, 2, 1))[0]):
            if product not in picked:
                picked.append(product)
        subtotal, total_qty = 0.0, 0
        for product in picked:
            qty = rng.choices((1, 2, 3), weights=(7, 2, 1))[0]
            price = product[5] if product[5] is not None else product[4]
            sizes = product[11].split(", ") if product[11] else [""]
            colors = product[12].split(", ") if product[12] else [""]
            conn.execute("INSERT INTO order_item (order_id, product_id, name, sku, size, color, price, qty, row_total) "
                         "VALUES (?,?,?,?,?,?,?,?,?)", (oid, product[0], product[2], product[1], rng.choice(sizes),
                                                        rng.choice(colors), price, qty, round(price * qty, 2)))
            subtotal += price * qty
            total_qty += qty
        subtotal = round(subtotal, 2)
        free = subtotal >= 150 and rng.random() < 0.5
        method = "Free Shipping - Free" if free else "Flat Rate - Fixed"
        shipping = 0.0 if free else FLAT_RATE_PER_ITEM * total_qty
        discount = round(subtotal * rng.choice((0.1, 0.2)), 2) if rng.random() < 0.15 else 0.0
        grand = round(subtotal + shipping - discount, 2)
        name = f"{customer[1]} {customer[2]}"
        conn.execute("INSERT INTO sales_order VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                     (oid, increment_id(oid), customer[0], name, customer[3], status, stamp(moment), subtotal,
                      shipping, discount, grand, total_qty, method, "Check / Money order"))
        _order_addresses(conn, rng, oid, customer)
        _order_documents(conn, rng, oid, moment, status, grand, total_qty, method, counters)


def _order_addresses(conn: sqlite3.Connection, rng: random.Random, oid: int, customer: tuple) -> None:
    billing = (customer[1], customer[2], customer[6], customer[7], customer[8], customer[9], customer[10], customer[4])
    shipping = billing
    if rng.random() < 0.1:  # a gift shipped to someone else
        city, region, postcode = rng.choice(names.CITIES)
        shipping = (rng.choice(names.FIRST_NAMES), customer[2], f"{rng.randint(10, 9899)} {rng.choice(names.STREETS)}",
                    city, region, postcode, "United States", customer[4])
    for kind, address in (("billing", billing), ("shipping", shipping)):
        conn.execute("INSERT INTO order_address (order_id, address_type, firstname, lastname, street, city, region, "
                     "postcode, country, telephone) VALUES (?,?,?,?,?,?,?,?,?,?)", (oid, kind, *address))


def _order_documents(conn: sqlite3.Connection, rng: random.Random, oid: int, moment: dt.datetime, status: str,
                     grand: float, total_qty: int, method: str, counters: dict[str, int]) -> None:
    """Invoices, shipments, refunds and the status history an order's status implies."""
    history = [(moment, "pending", "Order placed.", 1)]
    later = moment
    if status in ("processing", "complete", "closed"):
        later += dt.timedelta(hours=rng.randint(1, 20), minutes=rng.randint(0, 59))
        counters["invoice"] += 1
        number = increment_id(counters["invoice"])
        conn.execute("INSERT INTO invoice (increment_id, order_id, created_at, grand_total, state) VALUES (?,?,?,?,?)",
                     (number, oid, stamp(later), grand, "Paid"))
        history.append((later, "processing", f"Invoice #{number} created. Captured amount of ${grand:,.2f}.", 0))
    if status in ("complete", "closed"):
        later += dt.timedelta(days=rng.randint(1, 3), minutes=rng.randint(0, 600))
        counters["shipment"] += 1
        number = increment_id(counters["shipment"])
        cursor = conn.execute("INSERT INTO shipment (increment_id, order_id, created_at, total_qty) VALUES (?,?,?,?)",
                              (number, oid, stamp(later), total_qty))
        code, title = rng.choice(names.CARRIERS[1:])
        tracking = str(rng.randint(10**9, 10**10 - 1))
        conn.execute("INSERT INTO shipment_track (shipment_id, order_id, carrier, title, number, created_at) "
                     "VALUES (?,?,?,?,?,?)", (cursor.lastrowid, oid, code, title, tracking, stamp(later)))
        history.append((later, "complete", f"Shipment #{number} created. Tracking number {tracking} for {title} assigned.", 1))
    if status == "closed":
        later += dt.timedelta(days=rng.randint(3, 20), minutes=rng.randint(0, 600))
        counters["creditmemo"] += 1
        conn.execute("INSERT INTO creditmemo (increment_id, order_id, created_at, grand_total) VALUES (?,?,?,?)",
                     (increment_id(counters["creditmemo"]), oid, stamp(later), grand))
        history.append((later, "closed", f"Refunded amount of ${grand:,.2f} offline.", 1))
    if status in ("canceled", "holded", "fraud"):
        later += dt.timedelta(hours=rng.randint(1, 48))
        comment = {"canceled": "Order canceled.", "holded": "Order put on hold: payment check pending.",
                   "fraud": "Payment review: suspected fraud."}[status]
        history.append((later, status, comment, 0))
    conn.executemany("INSERT INTO order_status_history (order_id, created_at, status, comment, is_customer_notified) "
                     "VALUES (?,?,?,?,?)", [(oid, stamp(m), s, c, n) for m, s, c, n in history])


def _reviews(conn: sqlite3.Connection, rng: random.Random, customers: list[tuple], products: list[tuple]) -> None:
    span = int((LAST_DAY - FIRST_DAY).total_seconds())
    moments = sorted(FIRST_DAY + dt.timedelta(seconds=s) for s in rng.sample(range(span), N_REVIEWS))
    rows = []
    for rid, moment in enumerate(moments, start=1):
        product = rng.choice(products)
        rating = rng.choices((1, 2, 3, 4, 5), weights=(2, 2, 2, 4, 6))[0]
        if rating >= 4:
            pool, title = names.POSITIVE_SENTENCES, rng.choice(names.POSITIVE_TITLES)
        elif rating <= 2:
            pool, title = names.NEGATIVE_SENTENCES, rng.choice(names.NEGATIVE_TITLES)
        else:
            pool, title = names.NEUTRAL_SENTENCES + names.NEGATIVE_SENTENCES[:3], rng.choice(names.NEUTRAL_TITLES)
        detail = " ".join(rng.sample(pool, rng.randint(1, 3)))
        customer = rng.choice(customers) if rng.random() < 0.7 else None
        nickname = customer[1] if customer else rng.choice(names.FIRST_NAMES) + str(rng.randint(1, 99))
        status = rng.choices(REVIEW_STATUSES, weights=(75, 15, 10))[0]
        rows.append((rid, product[0], customer[0] if customer else None, nickname, title, detail, rating,
                     status, stamp(moment)))
    conn.executemany("INSERT INTO review VALUES (?,?,?,?,?,?,?,?,?)", rows)


def _search_terms(conn: sqlite3.Connection, rng: random.Random) -> None:
    # Distinct use counts keep "the top N terms" unambiguous.
    uses = sorted(rng.sample(range(3, 400), len(names.SEARCH_TERMS)), reverse=True)
    order = list(names.SEARCH_TERMS)
    rng.shuffle(order)
    span = int((LAST_DAY - FIRST_DAY).total_seconds())
    for i, (term, count) in enumerate(zip(order, uses, strict=True), start=1):
        updated = FIRST_DAY + dt.timedelta(seconds=rng.randrange(span))
        conn.execute("INSERT INTO search_term VALUES (?,?,?,?,?)", (i, term, rng.randint(0, 60), count, stamp(updated)))
