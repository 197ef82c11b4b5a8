"""The small framework every embedded site is built on (Flask + Jinja2 + SQLite).

A site app is stateless: the data of the request's :class:`~webarena_gym.sites.world.World`
arrives in the WSGI environ under :data:`WORLD_KEY` (set by the direct backend or by the
server's :class:`WorldRouter`). Logins live in a signed cookie named after the site, so
sites on different ports of one host never overwrite each other's sessions (browsers do
not separate cookies by port).
"""

from __future__ import annotations

import functools
import sqlite3
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import quote, urlsplit

from flask import Flask, abort, current_app, g, redirect, request, session

from .world import World

#: WSGI environ key holding the request's World.
WORLD_KEY = "webarena_gym.world"
#: WSGI environ key holding {site name: base URL} for links between sites.
SITE_URLS_KEY = "webarena_gym.site_urls"
#: Cookie that tells a served site which world a browser context belongs to.
WORLD_COOKIE = "wa_world"
#: Signing key of the session cookies; worlds are throwaway data, not secrets.
SECRET_KEY = "webarena-gym-embedded-sites"


def create_site_app(site_name: str, import_name: str) -> Flask:
    """A Flask app for one embedded site, bound per request to the caller's world.

    Templates live in ``templates/`` beside ``import_name``'s module. Inside views use
    :func:`db`, :func:`world`, :func:`current_user`, :func:`login_user` and
    :func:`site_url`; templates get ``current_user`` and ``site_url`` too.
    """
    app = Flask(import_name, template_folder="templates", static_folder=None)
    app.config.update(
        SECRET_KEY=SECRET_KEY,
        SESSION_COOKIE_NAME=f"{site_name}_session",
        SESSION_COOKIE_PATH="/",
        SITE_NAME=site_name,
        TEMPLATES_AUTO_RELOAD=False,
    )
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True

    @app.before_request
    def _bind_world() -> None:
        bound = request.environ.get(WORLD_KEY)
        if not isinstance(bound, World):
            abort(500, description="No world is bound to this request (see webarena_gym.sites.webapp).")
        g.world = bound

    @app.after_request
    def _no_stored_copy(response: Any) -> Any:
        # every page shows the world as it is now: the browser keeps no copy to show on Back
        # (as the real sites' own pages ask), so Chromium and the direct backend show the same page
        response.headers["Cache-Control"] = "no-store"
        return response

    @app.teardown_request
    def _finish(exc: BaseException | None) -> None:
        conn = g.pop("db", None)
        if conn is not None:
            if exc is None:
                conn.commit()
            else:
                conn.rollback()

    @app.context_processor
    def _template_helpers() -> dict[str, Any]:
        return {"current_user": current_user(), "site_url": site_url}

    return app


def db() -> sqlite3.Connection:
    """The request world's connection to this site's database (rows are ``sqlite3.Row``).

    Committed when the request ends without an exception, rolled back otherwise.
    """
    if "db" not in g:
        g.db = g.world.connection(current_app.config["SITE_NAME"])
    return g.db


def world() -> World:
    """The request's world (use ``world().now()`` for timestamps of new records)."""
    return g.world


def current_user() -> str | None:
    """Username of the logged-in user, or None."""
    return session.get("user")


def login_user(username: str) -> None:
    session.clear()
    session["user"] = username


def logout_user() -> None:
    session.clear()


def site_url(name: str, path: str = "") -> str:
    """Absolute URL of another embedded site (the homepage's links, cross-site tasks)."""
    urls = request.environ.get(SITE_URLS_KEY) or {}
    if name not in urls:
        from .spec import default_base_url

        return default_base_url(name) + path
    return urls[name] + path


def login_required(login_path: str = "/login") -> Callable:
    """Decorator: redirect anonymous users to ``login_path?next=<this url>``."""

    def decorator(view: Callable) -> Callable:
        @functools.wraps(view)
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            if current_user() is None:
                # a form posted while logged out comes back to the page that held the form
                target = request.full_path.rstrip("?") if request.method == "GET" else _referrer_path()
                return redirect(f"{login_path}?next={quote(target)}")
            return view(*args, **kwargs)

        return wrapped

    return decorator


def _referrer_path() -> str:
    referrer = urlsplit(request.referrer or "")
    if referrer.netloc and referrer.netloc != request.host:
        return "/"
    return (referrer.path or "/") + (f"?{referrer.query}" if referrer.query else "")


def default_login_cookies(sites: Iterable[str]) -> list[tuple[str, str]]:
    """Session cookies of WebArena's account on each of ``sites`` that has an embedded site with
    an account (the embedded counterpart of WebArena's storage states)."""
    from .spec import SITE_MODULES, get_site

    cookies = []
    for site in sites:
        account = get_site(site).default_user if site in SITE_MODULES else None
        if account:
            cookies.append(login_cookie(site, account[0]))
    return cookies


def login_cookie(site_name: str, username: str) -> tuple[str, str]:
    """(cookie name, value) of a session logged in as ``username`` on a site.

    This is how envs start tasks with ``require_login`` already logged in, the way
    WebArena's storage states do.
    """
    from .spec import app_for

    app = app_for(site_name)
    value = app.session_interface.get_signing_serializer(app).dumps({"user": username})
    return app.config["SESSION_COOKIE_NAME"], value
