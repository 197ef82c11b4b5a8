"""One Chromium per process (and per remote endpoint), driven by Playwright's async API on a
background event loop, so envs may be used from any thread and envs stepped from several
threads share one browser and run concurrently.
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import logging
import threading
from pathlib import Path
from typing import Any

from ..errors import BrowserUnavailableError
from .chromium import INSTALL_HINT, launch_options

logger = logging.getLogger(__name__)


class BrowserLoop:
    """One Chromium per process (and per remote endpoint), driven by Playwright's async API on a background loop.

    Backends call :meth:`run` from any thread; the loop interleaves the browser I/O of
    all envs, so envs stepped from worker threads (vector envs) run concurrently in one
    browser. Playwright objects never leave the loop's thread.

    Args:
        endpoint: A remote browser (``ws://`` Playwright server or ``http://`` CDP); None launches one here.
    """

    _instances: dict[str | None, BrowserLoop] = {}
    _lock = threading.Lock()

    def __init__(self, endpoint: str | None = None) -> None:
        self.endpoint = endpoint
        self.loop = asyncio.new_event_loop()
        self.loop.set_exception_handler(_report_loop_error)
        self.thread = threading.Thread(target=self.loop.run_forever, name="playwright-loop", daemon=True)
        self.thread.start()
        self.playwright: Any = None
        self.browser: Any = None
        self.run(self._start(), timeout=120)

    async def _start(self) -> None:
        from playwright.async_api import async_playwright

        self.playwright = await async_playwright().start()
        chromium = self.playwright.chromium
        try:
            if self.endpoint is None:
                self.browser = await chromium.launch(**launch_options())
            elif self.endpoint.startswith(("ws://", "wss://")):
                self.browser = await chromium.connect(self.endpoint, timeout=60_000)
            else:
                self.browser = await chromium.connect_over_cdp(self.endpoint, timeout=60_000)
        except Exception as exc:
            await self.playwright.stop()
            if self.endpoint is None:
                raise BrowserUnavailableError(f"Chromium failed to start: {exc}. {INSTALL_HINT}") from exc
            raise BrowserUnavailableError(
                f"Could not connect to the browser at {self.endpoint}: {exc}. Check that the browser server runs "
                "and is reachable from here (start one with `python -m playwright launch-server --browser chromium "
                "--config server.json`), or unset WA_BROWSER_WS to launch Chromium locally."
            ) from exc

    @classmethod
    def get(cls, endpoint: str | None = None) -> BrowserLoop:
        """The process's browser loop for ``endpoint``, started (or restarted after a crash) on demand."""
        with cls._lock:
            current = cls._instances.get(endpoint)
            if current is None or not current.connected():
                if current is not None:
                    current.close()
                elif not cls._instances:
                    atexit.register(cls.shutdown)
                cls._instances[endpoint] = BrowserLoop(endpoint)
            return cls._instances[endpoint]

    def connected(self) -> bool:
        return self.browser is not None and self.browser.is_connected()

    def run(self, coro: Any, timeout: float | None = None) -> Any:
        """Run a coroutine on the loop and wait for its result."""
        future = asyncio.run_coroutine_threadsafe(coro, self.loop)
        try:
            return future.result(timeout)
        except concurrent.futures.TimeoutError:
            future.cancel()
            raise

    def close(self) -> None:
        """Close the browser and the driver, stop the loop, then end the tasks still on it.

        Playwright tasks can outlive the browser (a route handler still waiting for its
        request, some started while the driver stops): as ``asyncio.run`` does at its end,
        they are cancelled and run to their end here, or asyncio would log "Task was
        destroyed but it is pending!" whenever the stopped loop's tasks are collected.
        """
        async def stop() -> None:
            if self.browser is not None:
                await self.browser.close()
            if self.playwright is not None:
                await self.playwright.stop()

        try:
            self.run(stop(), timeout=30)
        except Exception as exc:  # already dead
            logger.debug("Browser shutdown: %s", exc)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)
        leftovers = asyncio.all_tasks(self.loop)
        if leftovers and not self.thread.is_alive():
            for task in leftovers:
                task.cancel()
            # On a thread of its own: the caller's may run an event loop (Jupyter, an async app), beside
            # which this loop cannot run.
            finisher = threading.Thread(target=self.loop.run_until_complete, name="playwright-loop-close",
                                        args=(asyncio.wait(leftovers, timeout=10),))
            finisher.start()
            finisher.join()

    @classmethod
    def shutdown(cls) -> None:
        """Close the process's browsers and connections (tests, clean exits)."""
        with cls._lock:
            for instance in cls._instances.values():
                instance.close()
            cls._instances.clear()


def _report_loop_error(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
    """asyncio's report of an error on the loop, less the stalled routes Playwright leaves by design.

    Playwright stalls the route dispatch of a request whose page or context closes while it
    is routed, and never ends it; once collected, asyncio would log that task at ERROR
    ("Task was destroyed but it is pending!") at a random later moment. Nothing was lost,
    so it is logged at DEBUG; every other loop error is reported as asyncio does.
    """
    if context.get("message", "").startswith("Task was destroyed") and _is_route_dispatch(context.get("task")):
        logger.debug("A stalled Playwright route of a closed page or context was collected: %r", context["task"])
        return
    loop.default_exception_handler(context)


def _is_route_dispatch(task: Any) -> bool:
    """Whether ``task`` is Playwright's dispatch of a routed request (``BrowserContext._on_route`` or ``Page._on_route``)."""
    code = getattr(task.get_coro(), "cr_code", None) if isinstance(task, asyncio.Task) else None
    return code is not None and code.co_name == "_on_route" and Path(code.co_filename).parts[-3:-1] == ("playwright", "_impl")
