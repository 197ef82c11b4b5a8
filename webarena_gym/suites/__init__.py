"""The task suites an env runs: which suites and splits there are, and which runs by default.

The package loads them: :mod:`.embedded` (the sites' task families, the multi-site ones of
:mod:`.multisite`, the test/train splits), :mod:`.official` (WebArena-Lite's data from PyPI)
and :mod:`.loading` (an env's tasks, their URLs resolved). This module stays light: it imports
no site and no task data.

>>> check_split("train"), resolve_suite("embedded")
('train', 'embedded')
"""

from __future__ import annotations

from ..errors import ConfigurationError
from ..webarena_sites import site_urls_from_environment

#: ``embedded``: the offline sites of this package and their tasks; ``webarena-lite``: the
#: official tasks on the real WebArena sites; ``webarena-verified``: WebArena-Verified's tasks,
#: scored by its own package (:mod:`.verified`; splits all/hard/lite).
SUITES = ("embedded", "webarena-lite", "webarena-verified")
SPLITS = ("test", "train")


def check_suite(suite: str) -> str:
    """``suite`` when it is one of :data:`SUITES`; else a :class:`ConfigurationError` that lists them."""
    if suite not in SUITES:
        raise ConfigurationError(f"suite must be one of {SUITES}, got {suite!r}.")
    return suite


def check_split(split: str) -> str:
    """``split`` when it is one of :data:`SPLITS`; else a :class:`ConfigurationError` that lists them."""
    if split not in SPLITS:
        raise ConfigurationError(f"split must be one of {SPLITS}, got {split!r}.")
    return split


def resolve_suite(suite: str | None) -> str:
    """The suite to run: explicit, else webarena-lite when real sites are configured, else embedded."""
    if suite is None:
        return "webarena-lite" if site_urls_from_environment() else "embedded"
    return check_suite(suite)
