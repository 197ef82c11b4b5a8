"""The store's schema and its deterministic seed data.

Everything is generated from ``random.Random(SEED)``: the catalog (from the pools in
:mod:`.catalog`), reviews, customers with their addresses, orders spread over 2022-2023,
Emma Lopez's wish list. Money is stored in cents.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import random
import re
import sqlite3

from .catalog import CATALOG, FEATURES, Leaf, parse_kind
from .phrases import (
    ASPECTS,
    FIRST_NAMES,
    GENERAL_ASPECTS,
    GROUP_ASPECTS,
    HANDLES,
    LAST_INITIALS,
    OPINIONS,
    OTHER_CUSTOMERS,
    PLACES,
    SECOND_LINES,
    STREET_NAMES,
    SUMMARIES,
)

SEED = 7770
DEFAULT_EMAIL = "emma.lopez@hotmail.com"
DEFAULT_PASSWORD = "Password.123"
FLAT_RATE = "Flat Rate - Fixed"
TABLE_RATE = "Best Way - Table Rate"
#: Shipping methods: name -> (label, cents per item, cents per order).
SHIPPING_METHODS = {FLAT_RATE: ("$5.00 per item", 500, 0), TABLE_RATE: ("$15.00 per order", 0, 1500)}
PAYMENT_METHOD = "Check / Money order"

SCHEMA = """
CREATE TABLE categories (id INTEGER PRIMARY KEY, parent_id INTEGER REFERENCES categories(id), name TEXT NOT NULL,
    url_path TEXT NOT NULL UNIQUE, position INTEGER NOT NULL);
CREATE TABLE products (id INTEGER PRIMARY KEY, sku TEXT NOT NULL UNIQUE, name TEXT NOT NULL, url_key TEXT NOT NULL UNIQUE,
    brand TEXT NOT NULL, category_id INTEGER NOT NULL REFERENCES categories(id), price INTEGER NOT NULL,
    description TEXT NOT NULL, position INTEGER NOT NULL);
CREATE TABLE product_options (id INTEGER PRIMARY KEY, product_id INTEGER NOT NULL REFERENCES products(id),
    name TEXT NOT NULL, choices TEXT NOT NULL, position INTEGER NOT NULL);
CREATE TABLE reviews (id INTEGER PRIMARY KEY, product_id INTEGER NOT NULL REFERENCES products(id),
    customer_id INTEGER REFERENCES customers(id), nickname TEXT NOT NULL, summary TEXT NOT NULL, body TEXT NOT NULL,
    rating INTEGER NOT NULL, created_at TEXT NOT NULL);
CREATE TABLE customers (id INTEGER PRIMARY KEY, email TEXT NOT NULL UNIQUE, firstname TEXT NOT NULL,
    lastname TEXT NOT NULL, password_hash TEXT NOT NULL, created_at TEXT NOT NULL);
CREATE TABLE addresses (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL REFERENCES customers(id),
    firstname TEXT NOT NULL, lastname TEXT NOT NULL, street1 TEXT NOT NULL, street2 TEXT NOT NULL DEFAULT '',
    city TEXT NOT NULL, region TEXT NOT NULL, postcode TEXT NOT NULL, country TEXT NOT NULL, telephone TEXT NOT NULL,
    is_default_billing INTEGER NOT NULL DEFAULT 0, is_default_shipping INTEGER NOT NULL DEFAULT 0);
CREATE TABLE orders (id INTEGER PRIMARY KEY, increment_id TEXT NOT NULL UNIQUE,
    customer_id INTEGER NOT NULL REFERENCES customers(id), created_at TEXT NOT NULL, status TEXT NOT NULL,
    subtotal INTEGER NOT NULL, shipping_amount INTEGER NOT NULL, grand_total INTEGER NOT NULL,
    shipping_method TEXT NOT NULL, payment_method TEXT NOT NULL, ship_name TEXT NOT NULL, ship_street1 TEXT NOT NULL,
    ship_street2 TEXT NOT NULL, ship_city TEXT NOT NULL, ship_region TEXT NOT NULL, ship_postcode TEXT NOT NULL,
    ship_country TEXT NOT NULL, ship_telephone TEXT NOT NULL);
CREATE TABLE order_items (id INTEGER PRIMARY KEY, order_id INTEGER NOT NULL REFERENCES orders(id),
    product_id INTEGER NOT NULL REFERENCES products(id), sku TEXT NOT NULL, name TEXT NOT NULL,
    options TEXT NOT NULL DEFAULT '', price INTEGER NOT NULL, qty INTEGER NOT NULL);
CREATE TABLE cart_items (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL REFERENCES customers(id),
    product_id INTEGER NOT NULL REFERENCES products(id), options TEXT NOT NULL DEFAULT '', qty INTEGER NOT NULL,
    added_at TEXT NOT NULL);
CREATE TABLE wishlist_items (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL REFERENCES customers(id),
    product_id INTEGER NOT NULL REFERENCES products(id), added_at TEXT NOT NULL, UNIQUE (customer_id, product_id));
CREATE TABLE compare_items (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL REFERENCES customers(id),
    product_id INTEGER NOT NULL REFERENCES products(id), added_at TEXT NOT NULL, UNIQUE (customer_id, product_id));
CREATE TABLE newsletter_subscribers (id INTEGER PRIMARY KEY, email TEXT NOT NULL UNIQUE,
    customer_id INTEGER REFERENCES customers(id), subscribed_at TEXT NOT NULL);
CREATE TABLE checkout_shipping (customer_id INTEGER PRIMARY KEY REFERENCES customers(id), firstname TEXT NOT NULL,
    lastname TEXT NOT NULL, street1 TEXT NOT NULL, street2 TEXT NOT NULL, city TEXT NOT NULL, region TEXT NOT NULL,
    postcode TEXT NOT NULL, country TEXT NOT NULL, telephone TEXT NOT NULL, shipping_method TEXT NOT NULL);
CREATE TABLE contact_messages (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT NOT NULL, telephone TEXT NOT NULL,
    comment TEXT NOT NULL, created_at TEXT NOT NULL);
CREATE INDEX products_category ON products(category_id);
CREATE INDEX reviews_product ON reviews(product_id);
CREATE INDEX orders_customer ON orders(customer_id, created_at);
CREATE INDEX order_items_order ON order_items(order_id);
"""


def password_hash(email: str, password: str) -> str:
    """Salted SHA-256 of a password (the salt is the e-mail, so seeds stay deterministic)."""
    return hashlib.sha256(f"one-stop-market:{email.lower()}:{password}".encode()).hexdigest()


def slugify(text: str) -> str:
    """URL key of a name, Magento style: lower case words joined by dashes."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower().replace("&", " ").replace("'", "")).strip("-")


def build_database(conn: sqlite3.Connection) -> None:
    """Create the schema and the seed data (deterministic)."""
    rng = random.Random(SEED)
    conn.executescript(SCHEMA)
    leaves = _seed_catalog(conn, rng)
    _seed_reviews(conn, rng, leaves)
    customers = _seed_customers(conn, rng)
    _seed_orders(conn, rng, customers)
    _seed_extras(conn, rng, customers)
    # a later, separate stream: deeper shelves without changing anything seeded above
    _seed_more_products(conn, random.Random(SEED + 1), leaves)


#: At most this many more products per leaf category from its unused brand/kind pairs (long, paginated shelves).
MORE_PER_LEAF = 16


def _money(rng: random.Random, low: float, high: float) -> int:
    dollars = rng.randint(int(low), int(high))
    return dollars * 100 + rng.choice((99, 99, 49, 95, 29, 79, 0, 19))


def _seed_catalog(conn: sqlite3.Connection, rng: random.Random) -> dict[int, Leaf]:
    """Categories and products; returns leaf category id -> its pool."""
    leaves: dict[int, Leaf] = {}
    skus: set[str] = set()
    keys: set[str] = set()
    brands_seen: set[str] = set()
    for top_position, (top_name, top_key, top_leaves) in enumerate(CATALOG, start=1):
        top_id = conn.execute(
            "INSERT INTO categories (parent_id, name, url_path, position) VALUES (NULL, ?, ?, ?)",
            (top_name, top_key, top_position),
        ).lastrowid
        for leaf_position, leaf in enumerate(top_leaves, start=1):
            if brands_seen & set(leaf.brands):
                raise ValueError(f"brand reused in {leaf.name}: {brands_seen & set(leaf.brands)}")
            brands_seen |= set(leaf.brands)
            leaf_id = conn.execute(
                "INSERT INTO categories (parent_id, name, url_path, position) VALUES (?, ?, ?, ?)",
                (top_id, leaf.name, f"{top_key}/{leaf.key}", leaf_position),
            ).lastrowid
            leaves[leaf_id] = leaf
            pairs = [(b, k) for b in leaf.brands for k in leaf.kinds]
            count = min(len(pairs), rng.randint(9, 12))
            positions = list(range(1, count + 1))
            rng.shuffle(positions)
            for (brand, kind), position in zip(rng.sample(pairs, count), positions, strict=True):
                _insert_product(conn, rng, leaf_id, leaf, brand, kind, position, skus, keys)
    return leaves


#: The characters of a product's SKU after its "B0".
SKU_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


def _insert_product(conn: sqlite3.Connection, rng: random.Random, leaf_id: int, leaf: Leaf, brand: str, kind: str,
                    position: int, skus: set[str], keys: set[str]) -> int:
    """One product of a leaf's brand and kind, with its options (a unique SKU and URL key, kept in ``skus`` and
    ``keys``); its id."""
    kind_name, price_range, variants = parse_kind(kind, leaf)
    variant = rng.choice(variants)
    name = f"{brand} {kind_name}" + (f", {variant}" if variant else "")
    sku = "B0" + "".join(rng.choice(SKU_ALPHABET) for _ in range(8))
    while sku in skus:
        sku = "B0" + "".join(rng.choice(SKU_ALPHABET) for _ in range(8))
    skus.add(sku)
    key = slugify(name)
    if key in keys:
        key = f"{key}-{sku.lower()}"
    keys.add(key)
    description = f"{name} from {brand}. " + " ".join(rng.sample(FEATURES[leaf.group], 3))
    product_id = conn.execute(
        "INSERT INTO products (sku, name, url_key, brand, category_id, price, description, position)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (sku, name, key, brand, leaf_id, _money(rng, *price_range), description, position),
    ).lastrowid
    for option_position, (option, values, share) in enumerate(leaf.options):
        if rng.random() < share:
            start = rng.randint(0, max(0, len(values) - 3))
            choices = values[start : start + rng.randint(3, len(values))]
            conn.execute("INSERT INTO product_options (product_id, name, choices, position) VALUES (?, ?, ?, ?)",
                         (product_id, option, "\n".join(choices), option_position))
    return product_id


def _seed_more_products(conn: sqlite3.Connection, rng: random.Random, leaves: dict[int, Leaf]) -> None:
    """More products (with options and a few reviews) from each leaf's brand/kind pairs not used yet."""
    skus = {row[0] for row in conn.execute("SELECT sku FROM products")}
    keys = {row[0] for row in conn.execute("SELECT url_key FROM products")}
    nicknames = _nicknames()
    for leaf_id, leaf in leaves.items():
        names = [row[0] for row in conn.execute("SELECT name FROM products WHERE category_id = ?", (leaf_id,))]
        position = len(names)
        unused = []
        for brand in leaf.brands:
            for kind in leaf.kinds:
                stem = f"{brand} {parse_kind(kind, leaf)[0]}"
                if not any(name == stem or name.startswith(stem + ",") for name in names):
                    unused.append((brand, kind))
        for brand, kind in rng.sample(unused, min(len(unused), MORE_PER_LEAF)):
            position += 1
            product_id = _insert_product(conn, rng, leaf_id, leaf, brand, kind, position, skus, keys)
            if rng.random() < 0.6:
                quality = rng.uniform(2.3, 4.9)
                reviews = []
                for nickname in rng.sample(nicknames, rng.choice((1, 1, 2, 3, 4, 6))):
                    rating = min(5, max(1, round(rng.gauss(quality, 1.0))))
                    created = _random_time(rng, dt.date(2022, 1, 1), dt.date(2023, 5, 30))
                    reviews.append((product_id, nickname, rng.choice(SUMMARIES[rating]), _review_text(rng, rating, leaf.group),
                                    rating, created.isoformat(" ")))
                conn.executemany("INSERT INTO reviews (product_id, nickname, summary, body, rating, created_at)"
                                 " VALUES (?, ?, ?, ?, ?, ?)", sorted(reviews, key=lambda row: row[5]))


def _random_time(rng: random.Random, start: dt.date, end: dt.date) -> dt.datetime:
    day = start + dt.timedelta(days=rng.randint(0, (end - start).days))
    return dt.datetime(day.year, day.month, day.day, rng.randint(7, 22), rng.randint(0, 59), rng.randint(0, 59))


def _nicknames() -> list[str]:
    return [f"{first} {initial}." for first in FIRST_NAMES for initial in LAST_INITIALS] + list(HANDLES)


def _review_text(rng: random.Random, rating: int, group: str) -> str:
    sentences = [rng.choice(OPINIONS[rating])]
    aspects = rng.sample(GENERAL_ASPECTS + GROUP_ASPECTS[group], rng.choice((0, 1, 1, 2)))
    for aspect in aspects:
        positive, negative = ASPECTS[aspect]
        good = rating >= 4 or (rating == 3 and rng.random() < 0.5)
        sentences.append(rng.choice(positive if good else negative))
    rng.shuffle(sentences)
    return " ".join(sentences)


def _seed_reviews(conn: sqlite3.Connection, rng: random.Random, leaves: dict[int, Leaf]) -> None:
    nicknames = _nicknames()
    products = conn.execute("SELECT id, category_id FROM products ORDER BY id").fetchall()
    for product_id, category_id in products:
        if rng.random() < 0.2:
            continue
        count = rng.choice((1, 1, 2, 2, 3, 3, 4, 5, 6, 7, 8, 10, 12))
        quality = rng.uniform(2.3, 4.9)
        rows = []
        for nickname in rng.sample(nicknames, count):
            rating = min(5, max(1, round(rng.gauss(quality, 1.0))))
            created = _random_time(rng, dt.date(2022, 1, 1), dt.date(2023, 5, 30))
            text = _review_text(rng, rating, leaves[category_id].group)
            rows.append((product_id, nickname, rng.choice(SUMMARIES[rating]), text, rating, created.isoformat(" ")))
        conn.executemany(
            "INSERT INTO reviews (product_id, nickname, summary, body, rating, created_at) VALUES (?, ?, ?, ?, ?, ?)",
            sorted(rows, key=lambda row: row[5]),
        )


def _seed_customers(conn: sqlite3.Connection, rng: random.Random) -> list[int]:
    """Emma Lopez first, then the other customers; each with one default address."""
    people = [("Emma", "Lopez", DEFAULT_EMAIL)] + list(OTHER_CUSTOMERS)
    ids = []
    for index, (first, last, email) in enumerate(people):
        created = _random_time(rng, dt.date(2021, 6, 1), dt.date(2021, 12, 20))
        customer_id = conn.execute(
            "INSERT INTO customers (email, firstname, lastname, password_hash, created_at) VALUES (?, ?, ?, ?, ?)",
            (email, first, last, password_hash(email, DEFAULT_PASSWORD), created.isoformat(" ")),
        ).lastrowid
        if index == 0:  # WebArena's Emma Lopez lives in San Mateo
            street, street2, city, region, postcode = "101 S San Mateo Dr", "", "San Mateo", "California", "94010"
            phone = "6505551212"
        else:
            city, region, postcode = rng.choice(PLACES)
            street = f"{rng.randint(10, 9800)} {rng.choice(STREET_NAMES)}"
            street2 = rng.choice(("",) * 3 + SECOND_LINES)
            phone = f"{rng.randint(200, 989)}555{rng.randint(1000, 9999)}"
        conn.execute(
            "INSERT INTO addresses (customer_id, firstname, lastname, street1, street2, city, region, postcode, country,"
            " telephone, is_default_billing, is_default_shipping) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 'United States', ?, 1, 1)",
            (customer_id, first, last, street, street2, city, region, postcode, phone),
        )
        ids.append(customer_id)
    return ids


def _order_dates(rng: random.Random, count: int, start: dt.date, end: dt.date) -> list[dt.datetime]:
    days = sorted(rng.sample(range((end - start).days + 1), count))
    return [
        dt.datetime.combine(start + dt.timedelta(days=d), dt.time(rng.randint(7, 22), rng.randint(0, 59), rng.randint(0, 59)))
        for d in days
    ]


def _seed_orders(conn: sqlite3.Connection, rng: random.Random, customers: list[int]) -> None:
    """Orders of every customer, numbered in date order (so Emma's ids are spread out)."""
    products = conn.execute("SELECT id, sku, name, price, category_id FROM products ORDER BY id").fetchall()
    options = {}
    for product_id, name, choices in conn.execute("SELECT product_id, name, choices FROM product_options ORDER BY position"):
        options.setdefault(product_id, []).append((name, choices.split("\n")))
    staple_categories = {
        row[0] for row in conn.execute(
            "SELECT c.id FROM categories c JOIN categories p ON c.parent_id = p.id "
            "WHERE p.url_path IN ('grocery-gourmet-food', 'health-household', 'beauty-personal-care')"
        )
    }
    staples = rng.sample([p for p in products if p[4] in staple_categories], 14)
    pending = []
    for customer_id in customers:
        emma = customer_id == customers[0]
        count = rng.randint(34, 38) if emma else rng.randint(8, 20)
        dates = _order_dates(rng, count, dt.date(2022, 1, 3), dt.date(2023, 5, 29))
        for index, created in enumerate(dates):
            from_end = count - index
            if from_end <= 4:
                status = ("Pending", "Pending", "Processing", "Processing")[from_end - 1]
            else:
                status = "Canceled" if rng.random() < 0.2 else "Complete"
            lines = []
            for _ in range(rng.choice((1, 1, 1, 2, 2, 2, 3, 3, 4))):
                product = rng.choice(staples) if emma and rng.random() < 0.45 else rng.choice(products)
                if any(line[0][0] == product[0] for line in lines):
                    continue
                chosen = ", ".join(f"{name}: {rng.choice(values)}" for name, values in options.get(product[0], []))
                lines.append((product, chosen, rng.choice((1, 1, 1, 1, 1, 1, 2, 2, 3))))
            pending.append((created, customer_id, status, lines, rng.random() < 0.85))
    pending.sort(key=lambda order: order[0])
    addresses = {row[0]: row for row in conn.execute("SELECT customer_id, firstname, lastname, street1, street2, city,"
                                                     " region, postcode, country, telephone FROM addresses")}
    for order_id, (created, customer_id, status, lines, flat) in enumerate(pending, start=1):
        subtotal = sum(product[3] * qty for product, _, qty in lines)
        quantity = sum(qty for _, _, qty in lines)
        method = FLAT_RATE if flat else TABLE_RATE
        _, per_item, per_order = SHIPPING_METHODS[method]
        shipping = per_item * quantity + per_order
        address = addresses[customer_id]
        conn.execute(
            "INSERT INTO orders VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (order_id, f"{order_id:09d}", customer_id, created.isoformat(" "), status, subtotal, shipping,
             subtotal + shipping, method, PAYMENT_METHOD, f"{address[1]} {address[2]}", *address[3:]),
        )
        conn.executemany(
            "INSERT INTO order_items (order_id, product_id, sku, name, options, price, qty) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(order_id, product[0], product[1], product[2], chosen, product[3], qty) for product, chosen, qty in lines],
        )


def _seed_extras(conn: sqlite3.Connection, rng: random.Random, customers: list[int]) -> None:
    """Emma's reviews of two past purchases, her wish list, and newsletter subscribers."""
    emma = customers[0]
    bought = conn.execute(
        "SELECT DISTINCT i.product_id, o.created_at FROM order_items i JOIN orders o ON o.id = i.order_id"
        " WHERE o.customer_id = ? AND o.status = 'Complete' ORDER BY o.created_at, i.product_id",
        (emma,),
    ).fetchall()
    first_purchase = {}
    for product_id, ordered in bought:
        first_purchase.setdefault(product_id, ordered)
    for product_id, ordered in rng.sample(sorted(first_purchase.items())[:20], 2):
        rating = rng.choice((4, 5))
        created = dt.datetime.fromisoformat(ordered) + dt.timedelta(days=rng.randint(5, 20))
        conn.execute(
            "INSERT INTO reviews (product_id, customer_id, nickname, summary, body, rating, created_at)"
            " VALUES (?, ?, 'Emma', ?, ?, ?, ?)",
            (product_id, emma, rng.choice(SUMMARIES[rating]), rng.choice(OPINIONS[rating]), rating, created.isoformat(" ")),
        )
    product_ids = [row[0] for row in conn.execute("SELECT id FROM products ORDER BY id")]
    for product_id in rng.sample(product_ids, 3):
        added = _random_time(rng, dt.date(2023, 3, 1), dt.date(2023, 5, 25))
        conn.execute("INSERT INTO wishlist_items (customer_id, product_id, added_at) VALUES (?, ?, ?)",
                     (emma, product_id, added.isoformat(" ")))
    for customer_id in customers[1:4]:
        email = conn.execute("SELECT email FROM customers WHERE id = ?", (customer_id,)).fetchone()[0]
        added = _random_time(rng, dt.date(2022, 1, 1), dt.date(2023, 5, 1))
        conn.execute("INSERT INTO newsletter_subscribers (email, customer_id, subscribed_at) VALUES (?, ?, ?)",
                     (email, customer_id, added.isoformat(" ")))
