"""Shared fixtures: embedded-site clients, a served site set, and a real Chromium."""

from __future__ import annotations

import os

import pytest

from webarena_gym.sites import World, app_for
from webarena_gym.sites.server import SiteServer
from webarena_gym.sites.webapp import WORLD_COOKIE, WORLD_KEY, login_cookie


def pytest_configure(config):
    """torch on one CPU thread in the tests and the processes they start, unless ``OMP_NUM_THREADS`` says otherwise.

    Its default, a thread per core, runs the training tests many times slower when another process
    keeps a core busy (benchmarks/cpu_threads.py); a test's time should not hinge on what else runs.
    Set before any test module imports torch, which reads it once.

    The Hugging Face hub offline too: every model of the tests is built here, and a name that reaches
    the hub should fail at once rather than after the client's retries, however the network answers.
    """
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    config.addinivalue_line("markers", "gpu: needs a CUDA device (skipped without one); `pytest -m gpu` on a GPU machine")


# Tests that share one machine-wide resource run one after another on one xdist worker; the others go to
# whichever worker is free. The Docker engine (image tags, containers on host ports) and the Ray cluster
# (``ray stop --force`` stops every one) are shared by the files below.
SERIAL_GROUPS = {"tests/docker/": "docker", "tests/test_vector_ray.py": "ray"}


def serial_group(nodeid: str) -> str:
    """The group a test's node id runs in: a :data:`SERIAL_GROUPS` name, or the test alone."""
    return next((group for prefix, group in SERIAL_GROUPS.items() if nodeid.startswith(prefix)), nodeid)


@pytest.hookimpl(optionalhook=True)  # xdist's hook: unknown, and never called, where xdist is not installed
def pytest_xdist_make_scheduler(config, log):
    """``-n N`` (scripts/run_tests.sh): tests spread one by one, :data:`SERIAL_GROUPS` kept whole."""
    from xdist.scheduler import LoadScopeScheduling

    class SharedResourceScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return serial_group(nodeid)

    return SharedResourceScheduling(config, log)


def pytest_collection_modifyitems(config, items):
    """Tests marked ``gpu`` skip, saying why, where there is no CUDA device (torch is imported only if one is collected)."""
    gpu_items = [item for item in items if item.get_closest_marker("gpu")]
    if not gpu_items:
        return
    try:
        import torch
    except ImportError:
        reason = "needs torch with a CUDA device; torch is not installed"
    else:
        if torch.cuda.is_available():
            return
        reason = (f"needs a CUDA device; torch {torch.__version__} sees none (torch.cuda.is_available() is False): "
                  "run `pytest -m gpu` or `bash scripts/gpu_measure.sh` on a GPU machine")
    for item in gpu_items:
        item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture
def messages_of(caplog):
    """``messages_of(logger_name)`` -> what that logger wrote during the test.

    ``caplog`` holds every logger's records: a test of one logger's words should not see what
    another happens to log meanwhile (asyncio, collecting a task an earlier test left).
    """
    return lambda name: [record.getMessage() for record in caplog.records if record.name == name]


@pytest.fixture
def world():
    """A fresh world, closed after the test."""
    w = World()
    yield w
    w.close()


@pytest.fixture
def site_client(world):
    """``site_client(site, user=None)`` -> a Flask test client bound to ``world``."""

    def make(site: str, user: str | None = None):
        client = app_for(site).test_client()
        client.environ_base[WORLD_KEY] = world
        if user is not None:
            client.set_cookie(*login_cookie(site, user))
        return client

    return make


@pytest.fixture(scope="session")
def site_server():
    """Every embedded site served on ephemeral loopback ports for the whole session."""
    with SiteServer(ephemeral=True) as server:
        yield server


@pytest.fixture(scope="session")
def chromium():
    """A real headless Chromium (Playwright's own, or the system one)."""
    from playwright.sync_api import sync_playwright

    from webarena_gym.backends.chromium import launch_chromium

    with sync_playwright() as playwright:
        browser = launch_chromium(playwright)
        yield browser
        browser.close()


@pytest.fixture
def browser_page(chromium, site_server):
    """``browser_page(user_site=None, user=None)`` -> (page, world): a new context bound to a new world."""
    contexts = []

    def make(site: str | None = None, user: str | None = None):
        world = site_server.pool.acquire()
        context = chromium.new_context()
        cookies = [{"name": WORLD_COOKIE, "value": world.token, "domain": "127.0.0.1", "path": "/"}]
        if site and user:
            name, value = login_cookie(site, user)
            cookies.append({"name": name, "value": value, "domain": "127.0.0.1", "path": "/"})
        context.add_cookies(cookies)
        contexts.append((context, world))
        return context.new_page(), world

    yield make
    for context, world in contexts:
        context.close()
        site_server.pool.release(world)
