"""Catalog views: home page, category pages, product pages, search and reviews."""

from __future__ import annotations

import re
from urllib.parse import urlencode

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for

from ..webapp import db, world
from . import store
from .listing import build_listing, custom_price_url

bp = Blueprint("catalog", __name__)

SHOWCASE_SIZE = 8


@bp.get("/")
def home() -> str:
    categories = [(top, store.child_categories(top["id"])) for top in store.top_categories()]
    showcase = store.most_reviewed_products(SHOWCASE_SIZE)
    return render_template("home.html", categories=categories, showcase=showcase)


@bp.get("/<path:path>.html")
def catalog_page(path: str):
    category = db().execute("SELECT * FROM categories WHERE url_path = ?", (path,)).fetchone()
    if category is not None:
        return _category_page(category)
    product = db().execute("SELECT * FROM products WHERE url_key = ?", (path,)).fetchone()
    if product is None:
        abort(404)
    return _product_page(product)


@bp.get("/catalogsearch/result/index/")
@bp.get("/catalogsearch/result/")  # registered first, so url_for() gives Magento's usual address
def search() -> str:
    target = custom_price_url(request.args, url_for("catalog.search"))
    if target is not None:
        return redirect(target)
    query = (request.args.get("q") or "").strip()
    terms = re.findall(r"[a-z0-9]+", query.lower())
    matches = []
    for product in store.all_products() if terms else []:
        relevance = _relevance(product, query.lower(), terms)
        if relevance:
            matches.append(dict(product, relevance=relevance))
    listing = build_listing(matches, request.args, url_for("catalog.search"), search=True)
    return render_template("search.html", listing=listing, query=query)


@bp.post("/review/product/post/id/<int:product_id>/")
def post_review(product_id: int):
    product = db().execute("SELECT * FROM products WHERE id = ?", (product_id,)).fetchone()
    if product is None:
        abort(404)
    form = request.form
    fields = {name: (form.get(name) or "").strip() for name in ("nickname", "title", "detail")}
    rating = form.get("rating", "")
    if rating not in {"1", "2", "3", "4", "5"} or not all(fields.values()):
        flash("Please select a rating and fill in the nickname, summary and review.", "error")
        return redirect(url_for("catalog.catalog_page", path=product["url_key"]) + "#review-form")
    customer = store.customer()
    db().execute(
        "INSERT INTO reviews (product_id, customer_id, nickname, summary, body, rating, created_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?)",
        (product_id, customer["id"] if customer else None, fields["nickname"], fields["title"], fields["detail"],
         int(rating), world().now().isoformat(" ")),
    )
    flash("You submitted your review.", "success")
    return redirect(url_for("catalog.catalog_page", path=product["url_key"]) + "#reviews")


def _relevance(product: dict, phrase: str, terms: list[str]) -> int:
    """0 unless every term starts a word of the product; name matches rank first."""
    name = f"{product['name']} {product['sku']}".lower()
    text = f"{name} {product['description']}".lower()
    if not all(re.search(rf"\b{re.escape(term)}", text) for term in terms):
        return 0
    score = 1 + sum(10 for term in terms if re.search(rf"\b{re.escape(term)}", name))
    return score + (100 if phrase in name else 0)


def _category_page(category):
    target = custom_price_url(request.args, url_for("catalog.catalog_page", path=category["url_path"]))
    if target is not None:
        return redirect(target)
    listing = build_listing(
        store.products_in_category(category["id"]), request.args, url_for("catalog.catalog_page", path=category["url_path"])
    )
    children = []
    for child in store.child_categories(category["id"]):
        count = len(store.products_in_category(child["id"]))
        children.append((child, count))
    return render_template(
        "category.html", category=category, trail=store.category_trail(category["id"]), children=children, listing=listing
    )


PRODUCT_TABS = (("description", "Details"), ("additional", "More Information"), ("reviews", "Reviews"))


def _product_page(product) -> str:
    reviews = db().execute(
        "SELECT * FROM reviews WHERE product_id = ? ORDER BY created_at DESC, id DESC", (product["id"],)
    ).fetchall()
    average = sum(r["rating"] for r in reviews) / len(reviews) if reviews else None
    # options are chosen by links (swatches) that re-render the page: no script needed
    options = [(name, choices, request.args.get(f"option_{name}") if request.args.get(f"option_{name}") in choices else None)
               for name, choices in store.product_options(product["id"])]
    chosen = {f"option_{name}": value for name, _, value in options if value}
    tab = request.args.get("tab") if request.args.get("tab") in {key for key, _ in PRODUCT_TABS} else ""
    base = url_for("catalog.catalog_page", path=product["url_key"])

    def option_url(name: str, value: str) -> str:
        return base + "?" + urlencode({**chosen, f"option_{name}": value, **({"tab": tab} if tab else {})})

    def tab_url(key: str) -> str:
        return base + "?" + urlencode({**chosen, "tab": key})

    tabs = [(key, f"{label} ({len(reviews)})" if key == "reviews" else label) for key, label in PRODUCT_TABS]
    return render_template(
        "product.html",
        product=product,
        trail=store.category_trail(product["category_id"]),
        options=options,
        ready=all(value for _, _, value in options),
        option_url=option_url,
        tab_url=tab_url,
        tabs=tabs,
        tab=tab,
        reviews=reviews,
        rating=store.rating_percent(average),
        average=average,
    )
