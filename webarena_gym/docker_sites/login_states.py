"""Log in to the real sites with a browser and save Playwright storage states.

WebArena tasks with ``require_login`` name a storage state such as
``./.auth/shopping_admin_state.json`` (or ``./.auth/gitlab.reddit_state.json`` for
tasks that span two sites). This module fills each site's real login form in Chromium,
checks that a page only a logged-in user sees opens, and saves the context's cookies.
An existing state that still works is kept (``force=True`` renews it).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from itertools import combinations
from pathlib import Path
from typing import Any

from tqdm.auto import tqdm

from ..errors import InfrastructureError
from ..webarena_sites import login_state_name
from .definitions import Locator, LoginForm
from .deployment import Deployment

logger = logging.getLogger(__name__)

#: Site pairs that share a storage state in WebArena's tasks. Postmill and Magento both use
#: a PHPSESSID cookie on the same host, so WebArena never combines the forum with the store.
SKIPPED_PAIRS = frozenset({frozenset({"reddit", "shopping"}), frozenset({"reddit", "shopping_admin"})})


def state_path(auth_dir: str | Path, sites: Iterable[str]) -> Path:
    """WebArena's file name for a storage state: ``<auth_dir>/<site>[.<site>]_state.json``.

    >>> state_path(".auth", ["shopping_admin", "gitlab"]).as_posix()
    '.auth/gitlab.shopping_admin_state.json'
    """
    return Path(auth_dir) / login_state_name(sites)


def login_groups(deployment: Deployment, names: list[str] | None, *, pairs: bool = True) -> list[tuple[str, ...]]:
    """The site groups to save states for: each site with a login form, then WebArena's pairs."""
    sites = [name for name in deployment.names(names) if deployment.site(name).login is not None]
    groups = [(name,) for name in sites]
    if pairs:
        groups += [
            tuple(sorted(pair)) for pair in combinations(sites, 2) if frozenset(pair) not in SKIPPED_PAIRS
        ]
    return groups


def _locate(page: Any, locator: Locator) -> Any:
    if locator.by == "label":
        return page.get_by_label(locator.target, exact=locator.exact)
    if locator.by == "placeholder":
        return page.get_by_placeholder(locator.target, exact=locator.exact)
    if locator.by == "test_id":
        return page.get_by_test_id(locator.target)
    if locator.by == "button":
        return page.get_by_role("button", name=locator.target, exact=locator.exact)
    return page.locator(locator.target)


def fill_login_form(page: Any, base_url: str, form: LoginForm, *, timeout_ms: float = 60_000) -> None:
    """Open the login page, type WebArena's account into the form and send it."""
    page.goto(base_url + form.path, timeout=timeout_ms)
    username, password = form.account
    _locate(page, form.username).fill(username, timeout=timeout_ms)
    _locate(page, form.password).fill(password, timeout=timeout_ms)
    _locate(page, form.submit).click(timeout=timeout_ms)
    page.wait_for_load_state("load", timeout=timeout_ms)


def is_logged_in(page: Any, base_url: str, form: LoginForm, *, timeout_ms: float = 60_000) -> bool:
    """True when the page only a logged-in user sees opens (and shows its text)."""
    url = base_url + form.check_path
    page.goto(url, timeout=timeout_ms)
    if form.check_text:
        return form.check_text in page.content()
    return page.url.rstrip("/") == url.rstrip("/")


def login(
    deployment: Deployment,
    names: list[str] | None = None,
    *,
    auth_dir: str | Path = ".auth",
    pairs: bool = True,
    force: bool = False,
    progress: bool = True,
    browser: Any | None = None,
) -> list[Path]:
    """Write a storage state per site (and per WebArena site pair); returns the files.

    Args:
        auth_dir: Folder for the states (WebArena's tasks say ``./.auth``).
        pairs: Also write the two-site states WebArena's multi-site tasks use.
        force: Log in again even when a saved state still works.
        browser: A Playwright browser to use (default: launch Chromium).

    Raises:
        InfrastructureError: a login did not work; the message says which site and why.
    """
    groups = login_groups(deployment, names, pairs=pairs)
    if not groups:
        return []
    Path(auth_dir).mkdir(parents=True, exist_ok=True)
    if browser is not None:
        return _login_all(deployment, groups, browser, Path(auth_dir), force=force, progress=progress)
    from playwright.sync_api import sync_playwright

    from ..backends.chromium import launch_chromium

    with sync_playwright() as playwright:
        launched = launch_chromium(playwright)
        try:
            return _login_all(deployment, groups, launched, Path(auth_dir), force=force, progress=progress)
        finally:
            launched.close()


def _login_all(
    deployment: Deployment, groups: list[tuple[str, ...]], browser: Any, auth_dir: Path, *, force: bool, progress: bool
) -> list[Path]:
    written = []
    for group in tqdm(groups, desc="login", unit="state", disable=not progress, leave=progress):
        path = state_path(auth_dir, group)
        if not force and path.exists() and _state_works(deployment, group, browser, path):
            logger.info("%s still logged in; keeping %s", "+".join(group), path)
            written.append(path)
            continue
        context = browser.new_context()
        try:
            page = context.new_page()
            for name in group:
                form = deployment.site(name).login
                assert form is not None  # login_groups keeps only sites with a form
                base_url = deployment.site_url(name)
                try:
                    fill_login_form(page, base_url, form)
                    ok = is_logged_in(page, base_url, form)
                except Exception as exc:  # Playwright's TimeoutError/Error: the site broke, not the caller
                    raise InfrastructureError(
                        f"Logging in to {name} at {base_url + form.path} failed: {exc}. Is the site up and "
                        f"configured for this URL? (`webarena-gym sites status {name}`, `sites configure {name}`)"
                    ) from exc
                if not ok:
                    raise InfrastructureError(
                        f"Logging in to {name} as {form.account[0]!r} did not work: {base_url + form.check_path} "
                        f"ended at {page.url}"
                        + (f" without showing {form.check_text!r}" if form.check_text else "")
                        + ". Check the account, and that the site is configured for this URL "
                        f"(`webarena-gym sites configure {name}`)."
                    )
            context.storage_state(path=str(path))
        finally:
            context.close()
        written.append(path)
    return written


def _state_works(deployment: Deployment, group: tuple[str, ...], browser: Any, path: Path) -> bool:
    context = browser.new_context(storage_state=str(path))
    try:
        page = context.new_page()
        for name in group:
            form = deployment.site(name).login
            base_url = deployment.site_url(name)
            try:
                if form is None or not is_logged_in(page, base_url, form):
                    return False
            except Exception:  # an unreachable site means "log in again", which reports the cause
                return False
        return True
    finally:
        context.close()
