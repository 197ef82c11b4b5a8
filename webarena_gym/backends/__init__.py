"""Backends drive one env's browsing session: ``direct`` (the embedded sites in-process, no
browser) and ``playwright`` (real Chromium, for the real WebArena sites and the served
embedded ones). :mod:`.base` holds what the env needs from one; :mod:`.page` what the
evaluators need from the final page.
"""

from __future__ import annotations

from ..errors import ConfigurationError

BACKENDS = ("direct", "playwright")


def check_backend(backend: str) -> str:
    """``backend`` when it is one of :data:`BACKENDS`; else a :class:`ConfigurationError` that lists them."""
    if backend not in BACKENDS:
        raise ConfigurationError(f"backend must be one of {BACKENDS}, got {backend!r}.")
    return backend
