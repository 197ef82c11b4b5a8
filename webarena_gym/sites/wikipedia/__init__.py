"""The reference site: a Wikipedia-style encyclopedia served the way WebArena's kiwix-serve serves it.

Articles live at ``/wikipedia_en_all_maxi_2022-05/A/<Title>`` and search at
``/search?content=wikipedia_en_all_maxi_2022-05&pattern=...``, as on WebArena's port 8888.
Like kiwix-serve it has no accounts and nothing to edit: it is read, and its facts are
used on the other sites (where a team plays, when a museum opened).
"""

from __future__ import annotations

from ..spec import SiteSpec
from .app import create_app
from .data import build_database

SITE = SiteSpec(
    name="wikipedia",
    title="Wikipedia",
    create_app=create_app,
    build_database=build_database,
    login_path="/",
    default_user=None,
)
