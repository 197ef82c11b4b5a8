"""The real WebArena sites in docker: compose them, configure them, log in, reset them.

The site definitions (WebArena's images, ports, health URLs, configuration commands and
login forms) are in :mod:`.registry`; :class:`Deployment` says where they run. The
lifecycle functions take a docker SDK client (:func:`connect`) and converge on a state,
so each can be run again safely. The same operations are the ``webarena-gym sites``
commands (:mod:`.cli`); docker/README.md tells how to obtain the images.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

# The docker SDK is an optional extra (`pip install webarena-gym[docker]`): names are imported
# on first use, so the `sites` commands and the site registry load without it.
_EXPORTS = {
    "ConfigureResult": ".configuration", "configure": ".lifecycle",
    "Companion": ".definitions", "ConfigStep": ".definitions", "DockerSite": ".definitions",
    "Locator": ".definitions", "LoginForm": ".definitions",
    "Deployment": ".deployment", "connect": ".engine",
    "SiteStatus": ".lifecycle", "down": ".lifecycle", "reset": ".lifecycle", "status": ".lifecycle", "up": ".lifecycle",
    "login": ".login_states", "state_path": ".login_states", "SITES": ".registry",
}


def __getattr__(name: str) -> Any:
    if name not in _EXPORTS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(_EXPORTS[name], __name__), name)


__all__ = [
    "SITES",
    "Companion",
    "ConfigStep",
    "ConfigureResult",
    "Deployment",
    "DockerSite",
    "Locator",
    "LoginForm",
    "SiteStatus",
    "configure",
    "connect",
    "down",
    "login",
    "reset",
    "state_path",
    "status",
    "up",
]
