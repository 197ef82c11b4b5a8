"""The homepage: links to every embedded site, like WebArena's port-4399 homepage."""

from __future__ import annotations

from flask import Blueprint, Flask, render_template

from ..spec import SiteSpec, data_sites, get_site
from ..webapp import create_site_app, site_url

bp = Blueprint("homepage", __name__)


@bp.get("/")
def index() -> str:
    sites = [(get_site(name).title, site_url(name)) for name in data_sites()]
    return render_template("index.html", sites=sites)


def create_app() -> Flask:
    app = create_site_app("homepage", __name__)
    app.register_blueprint(bp)
    return app


SITE = SiteSpec(name="homepage", title="Homepage", create_app=create_app)
