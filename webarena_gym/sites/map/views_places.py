"""Home, search, place pages, "what's nearby" and the about page."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from flask import Blueprint, abort, redirect, render_template, request, url_for

from ..webapp import db
from .search import (
    PLACE_COLUMNS,
    all_places,
    category_for,
    get_place,
    near_search,
    nearby,
    search_path,
    text_search,
)

bp = Blueprint("places", __name__)

PER_PAGE = 20
#: Landmarks the home page features (looked up by name; missing ones are skipped).
FEATURED = (
    "Carnegie Mellon University", "University of Pittsburgh", "Phipps Conservatory and Botanical Gardens",
    "Carnegie Museum of Natural History", "The Andy Warhol Museum", "PNC Park", "Point State Park",
    "Pittsburgh Union Station",
)
EXPLORE = ("restaurant", "cafe", "hotel", "museum", "park", "supermarket", "pharmacy", "hospital")


def paginate(items: list, page_arg: str | None) -> dict[str, Any]:
    """One page of ``items`` plus what the pager needs (page numbers start at 1)."""
    pages = max(1, -(-len(items) // PER_PAGE))
    try:
        page = min(max(1, int(page_arg or 1)), pages)
    except ValueError:
        page = 1
    start = (page - 1) * PER_PAGE
    return {"items": items[start : start + PER_PAGE], "page": page, "pages": pages, "total": len(items),
            "first": start + 1 if items else 0, "last": min(start + PER_PAGE, len(items))}


def page_url(page: int) -> str:
    """This page's URL with another page number (other query arguments kept in order)."""
    args = [(k, v) for k, v in request.args.items(multi=True) if k != "page"]
    if page > 1:
        args.append(("page", str(page)))
    query = "&".join(f"{quote(k, safe='')}={quote(v, safe='')}" for k, v in args)
    return request.path + (f"?{query}" if query else "")


@bp.get("/")
def home() -> str:
    conn = db()
    rows = conn.execute(
        f"SELECT {PLACE_COLUMNS} WHERE p.name IN ({','.join('?' * len(FEATURED))})", FEATURED
    ).fetchall()
    featured = sorted(rows, key=lambda p: FEATURED.index(p["name"]))
    explore = conn.execute(
        f"SELECT * FROM categories WHERE slug IN ({','.join('?' * len(EXPLORE))}) ORDER BY position", EXPLORE
    ).fetchall()
    return render_template("index.html", featured=featured, explore=explore)


@bp.get("/search")
def search() -> Any:
    conn = db()
    typed = request.args.get("query", "")
    query = typed.strip()
    sort = request.args.get("sort", "")
    if not query:
        return render_template("search.html", query="", near=None, pager=paginate([], None), sort=sort)
    extra = "".join(
        f"&{k}={quote(v, safe='')}" for k, v in (("sort", sort), ("page", request.args.get("page", ""))) if v
    )
    # The URL the real map's search box opens: the text as typed, encoded as its script does
    # ("cafe near cmu" and "Cafes near CMU" are two URLs, as there).
    url = search_path(typed) + extra
    if request.full_path.rstrip("?") != url:
        return redirect(url)
    near = near_search(conn, query)
    if near is not None:
        rows = near.results if sort != "name" else sorted(near.results, key=lambda r: (r[0]["name"], r[0]["id"]))
    else:
        hits = text_search(conn, query)
        if sort == "name":
            hits = sorted(hits, key=lambda p: (p["name"], p["id"]))
        rows = [(p, None) for p in hits]
    return render_template("search.html", query=query, near=near, sort=sort,
                           pager=paginate(rows, request.args.get("page")))


@bp.get("/node/<int:place_id>")
def place(place_id: int) -> str:
    conn = db()
    row = get_place(conn, place_id)
    if row is None:
        abort(404)
    notes = conn.execute(
        "SELECT * FROM notes WHERE place_id = ? ORDER BY created_at DESC, id DESC", (place_id,)
    ).fetchall()
    return render_template("place.html", place=row, notes=notes)


@bp.get("/place/<int:place_id>")
def place_alias(place_id: int) -> Any:
    return redirect(url_for("places.place", place_id=place_id))


@bp.get("/node/<int:place_id>/nearby")
def place_nearby(place_id: int) -> str:
    conn = db()
    anchor = get_place(conn, place_id)
    if anchor is None:
        abort(404)
    slug = request.args.get("category", "")
    category = category_for(conn, slug) if slug else None
    found = nearby(conn, anchor, category)
    categories = conn.execute("SELECT * FROM categories ORDER BY position").fetchall()
    return render_template("nearby.html", place=anchor, category=category, categories=categories,
                           pager=paginate(found.results, request.args.get("page")))


@bp.get("/about")
def about() -> str:
    conn = db()
    counts = {
        "places": len(all_places(conn)),
        "roads": conn.execute("SELECT count(*) FROM roads").fetchone()[0],
        "segments": conn.execute("SELECT count(*) FROM segments").fetchone()[0],
        "notes": conn.execute("SELECT count(*) FROM notes").fetchone()[0],
    }
    return render_template("about.html", counts=counts)


def not_found(_error: Any) -> tuple[str, int]:
    return render_template("not_found.html"), 404
