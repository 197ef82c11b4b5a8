"""Finding and launching Chromium for the Playwright backend.

Playwright's own browser is used where it is installed (``playwright install chromium``
on users' machines); otherwise a system Chromium (Debian's ``chromium`` package). The
launch flags keep Chromium from phoning home, which on machines with a closed network
costs seconds per start.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

from ..errors import BrowserUnavailableError

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
