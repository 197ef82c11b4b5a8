"""The code host: a small GitLab-shaped site (projects, issues, merge requests, members, commits)."""

from __future__ import annotations

from ..spec import SiteSpec
from .app import create_app
from .data import build_database

SITE = SiteSpec(
    name="gitlab",
    title="GitLab",
    create_app=create_app,
    build_database=build_database,
    login_path="/users/sign_in",
    default_user=("byteblaze", "hello1234"),
)
