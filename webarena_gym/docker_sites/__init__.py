"""The real WebArena sites in docker: compose them, configure them, log in, reset them.

The site definitions (WebArena's images, ports, health URLs, configuration commands and
login forms) are in :mod:`.registry`; :class:`Deployment` says where they run. The
lifecycle functions take a docker SDK client (:func:`connect`) and converge on a state,
so each can be run again safely. The same operations are the ``webarena-gym sites``
commands (:mod:`.cli`); docker/README.md tells how to obtain the images.
"""

from __future__ import annotations

from .configure import ConfigureResult, configure
from .definitions import Companion, ConfigStep, DockerSite, Locator, LoginForm
from .deployment import Deployment
from .engine import connect
from .lifecycle import SiteStatus, down, reset, status, up
from .login import login, state_path
from .registry import SITES

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
