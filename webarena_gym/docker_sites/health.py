"""Is a site ready? HTTP probes, and waiting for several sites with a progress bar."""

from __future__ import annotations

import http.client
import time
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from urllib.parse import urlsplit

from tqdm.auto import tqdm

from ..errors import DockerError


def probe(url: str, *, timeout: float = 5.0) -> int | None:
    """HTTP status of ``GET url`` without following redirects, or None when nothing answers.

    >>> probe("http://127.0.0.1:9/") is None
    True
    """
    parts = urlsplit(url)
    path = parts.path or "/"
    if parts.query:
        path += "?" + parts.query
    connection = http.client.HTTPConnection(parts.hostname or "127.0.0.1", parts.port or 80, timeout=timeout)
    try:
        connection.request("GET", path, headers={"User-Agent": "webarena-gym-health"})
        return connection.getresponse().status
    except (OSError, http.client.HTTPException):
        return None
    finally:
        connection.close()


def is_healthy(status: int | None) -> bool:
    """A redirect counts: it proves the web server and its application answer."""
    return status is not None and status < 400


def probe_all(urls: Mapping[str, str], *, timeout: float = 5.0) -> dict[str, int | None]:
    """:func:`probe` of several URLs at once, by name: a site that does not answer costs one timeout, not one each.

    >>> probe_all({"nothing": "http://127.0.0.1:9/"})
    {'nothing': None}
    """
    if not urls:
        return {}
    with ThreadPoolExecutor(max_workers=len(urls), thread_name_prefix="probe") as pool:
        futures = {name: pool.submit(probe, url, timeout=timeout) for name, url in urls.items()}
        return {name: future.result() for name, future in futures.items()}


def describe_status(status: int | None) -> str:
    """``answered HTTP 502`` or ``did not answer``, as the health errors say it."""
    return f"answered HTTP {status}" if status is not None else "did not answer"


@dataclass
class HealthTarget:
    """One site to wait for.

    Attributes:
        name: Shown in the progress bar and errors.
        url: The health URL.
        timeout: Seconds to wait before giving up.
        failure: Returns a message when waiting is pointless (the container exited), else None.
        diagnostics: Returns text for the error message (the container's last log lines).
    """

    name: str
    url: str
    timeout: float
    failure: Callable[[], str | None] | None = None
    diagnostics: Callable[[], str] | None = None


def wait_until_healthy(
    targets: list[HealthTarget], *, progress: bool = True, interval: float = 1.0, description: str = "healthy"
) -> dict[str, float]:
    """Block until every target's URL answers; returns the seconds each one took.

    Raises:
        DockerError: a target stayed unhealthy past its timeout, or its container stopped.
    """
    started = time.monotonic()
    pending = {target.name: target for target in targets}
    took: dict[str, float] = {}
    last_status: dict[str, int | None] = {}
    with tqdm(total=len(targets), desc=description, unit="site", disable=not progress, leave=progress) as bar:
        while pending:
            for name, target in list(pending.items()):
                status = probe(target.url, timeout=min(5.0, max(1.0, target.timeout)))
                last_status[name] = status
                elapsed = time.monotonic() - started
                if is_healthy(status):
                    took[name] = elapsed
                    del pending[name]
                    bar.update(1)
                    continue
                problem = target.failure() if target.failure else None
                if problem or elapsed > target.timeout:
                    reason = problem or (
                        f"{name} is not healthy after {target.timeout:.0f} s: {target.url} "
                        + describe_status(status)
                    )
                    details = target.diagnostics() if target.diagnostics else ""
                    raise DockerError(
                        f"{reason}. Look at `docker logs` of the container; a cold start of the real sites "
                        "can take minutes (raise --timeout)." + (f"\nLast log lines:\n{details}" if details else "")
                    )
            if pending:
                bar.set_postfix_str("waiting for " + ", ".join(sorted(pending)), refresh=True)
                time.sleep(interval)
    return took
