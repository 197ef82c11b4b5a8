"""Finding and launching Chromium for the Playwright backend, or naming a browser running elsewhere.

Playwright's own browser is used where it is installed (``playwright install chromium``
on users' machines); otherwise a system Chromium (Debian's ``chromium`` package). The
launch flags keep Chromium from phoning home, which on machines with a closed network
costs seconds per start.

A remote browser is a Playwright browser server (``BrowserType.launch_server`` in Node;
from Python: ``python -m playwright launch-server --browser chromium --config server.json``,
which prints its ``ws://`` endpoint) or a Chromium started with ``--remote-debugging-port``
(an ``http://`` endpoint, connected over CDP). It is named by the ``browser_endpoint``
argument or the ``WA_BROWSER_WS`` variable.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

from ..errors import BrowserUnavailableError, ConfigurationError

#: The variable naming a remote browser's endpoint (``ws://host:port/path`` or ``http://host:port``).
BROWSER_ENDPOINT_VARIABLE = "WA_BROWSER_WS"
ENDPOINT_SCHEMES = ("ws://", "wss://", "http://", "https://")

#: Flags for a quiet, headless, sandbox-free (containers, root) Chromium.
CHROMIUM_ARGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--disable-default-apps",
    "--metrics-recording-only",
    "--mute-audio",
)

SYSTEM_CANDIDATES = (
    "/usr/bin/chromium",
    "/usr/bin/chromium-browser",
    "/usr/bin/google-chrome",
    "/usr/lib/chromium/chromium",
)

INSTALL_HINT = (
    "Install Chromium: `python -m playwright install chromium`, or on Debian/Ubuntu "
    "`sudo apt-get install chromium` (the README's setup script does this for you), "
    "or set WEBARENA_GYM_CHROMIUM=/path/to/chromium."
)


def browser_endpoint(explicit: str | None = None) -> str | None:
    """The remote browser to use: ``explicit``, else ``$WA_BROWSER_WS``, else None (launch one here)."""
    endpoint = explicit if explicit is not None else os.environ.get(BROWSER_ENDPOINT_VARIABLE) or None
    if endpoint is not None and (not isinstance(endpoint, str) or not endpoint.startswith(ENDPOINT_SCHEMES)):
        raise ConfigurationError(
            f"A browser endpoint is a ws:// URL of a Playwright browser server (what "
            f"`python -m playwright launch-server --browser chromium` prints) or the http:// URL of a Chromium "
            f"started with --remote-debugging-port; got {endpoint!r} (from the browser_endpoint argument or "
            f"{BROWSER_ENDPOINT_VARIABLE})."
        )
    return endpoint


def find_chromium() -> str | None:
    """Path of the Chromium to launch, or None to let Playwright use its own browser.

    Order: ``$WEBARENA_GYM_CHROMIUM``; Playwright's downloaded browser (None); a system
    Chromium. Raises :class:`BrowserUnavailableError` when there is none.
    """
    explicit = os.environ.get("WEBARENA_GYM_CHROMIUM")
    if explicit:
        if not Path(explicit).exists():
            raise BrowserUnavailableError(f"WEBARENA_GYM_CHROMIUM={explicit!r} does not exist. {INSTALL_HINT}")
        return explicit
    if _playwright_browser_installed():
        return None
    for candidate in SYSTEM_CANDIDATES:
        if Path(candidate).exists():
            return candidate
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found:
        return found
    raise BrowserUnavailableError(f"No Chromium found. {INSTALL_HINT}")


def _playwright_browser_installed() -> bool:
    root = Path(os.environ.get("PLAYWRIGHT_BROWSERS_PATH") or Path.home() / ".cache" / "ms-playwright")
    return any(root.glob("chromium-*/chrome-linux*/chrome")) or any(root.glob("chromium_headless_shell-*/*/*shell"))


def launch_options(*, headless: bool = True) -> dict[str, Any]:
    """Keyword arguments for ``playwright.chromium.launch`` (sync or async API)."""
    return {"headless": headless, "executable_path": find_chromium(), "args": list(CHROMIUM_ARGS)}


def launch_chromium(playwright: Any, *, headless: bool = True) -> Any:
    """Launch a Chromium browser with Playwright's sync API (tests, scripts)."""
    options = launch_options(headless=headless)
    try:
        return playwright.chromium.launch(**options)
    except Exception as exc:  # playwright raises its own Error type
        raise BrowserUnavailableError(f"Chromium failed to start: {exc}. {INSTALL_HINT}") from exc
