"""Menu sections this store does not use (Stores, System, most of Marketing, ...): each an empty grid page."""

from __future__ import annotations

from flask import Blueprint, render_template

from .helpers import admin_required
from .menu import section_pages

bp = Blueprint("menu", __name__)


def _section_view(section: str, label: str):
    def view() -> str:
        return render_template("section_page.html", section=section, label=label)

    return admin_required(view)


for number, (section, label, path) in enumerate(section_pages()):
    bp.add_url_rule(path, f"section_{number}", _section_view(section, label), methods=["GET"])
