"""Leasing a pristine copy of the real sites for one episode (``WA_LEASES=http://host:port``).

On the real WebArena sites one container per site serves every rollout, so rollouts that
write see each other's writes. ``webarena-gym sites up --replicas`` runs several copies
of a site and ``webarena-gym sites lease-service`` hands them out; this module is the
env's side of it: before an episode it leases, for each site of the task, a replica; the
task's URLs (start page, evaluator URLs) are moved onto the leased replicas; after the
episode the lease is returned, and a replica that served a writing episode is recycled
before anyone leases it again.

The rule for "writes" (:func:`task_writes`): a task whose evaluators include
``program_html`` (it checks the state the agent left), or that WebArena marks
``require_reset``, writes; a task scored only by ``string_match`` (it reads) and/or
``url_match`` (it navigates) reads, and reading episodes may share a replica.

>>> from webarena_gym.tasks.task import Task
>>> task = Task.from_dict({"task_id": 1, "sites": ["reddit"], "start_url": "http://h:9999/f/books",
...     "intent": "Post", "eval": {"eval_types": ["program_html"], "program_html": [
...     {"url": "http://h:9999/f/books", "locator": "", "required_contents": {"must_include": ["x"]}}]}})
>>> task_writes(task)
True
>>> rebase_task(task, {"reddit": "http://h:9999"}, {"reddit": "http://h:10999"}).start_url
'http://h:10999/f/books'
"""

from __future__ import annotations

import json
import logging
import os
import re
import shutil
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from ..errors import ConfigurationError, SiteUnavailableError
from ..tasks.task import Task

logger = logging.getLogger(__name__)

#: Seconds a reset waits for a pristine replica before it raises (``$WA_LEASE_WAIT`` overrides).
DEFAULT_WAIT_S = 600.0
#: Seconds a lease lives without a heartbeat; the holder renews it every third of that.
DEFAULT_TTL_S = 60.0
#: Evaluators that only read the site's state (the task may share a replica).
READING_EVALUATORS = frozenset({"string_match", "url_match"})
STATUS_HINT = "`webarena-gym sites status --leases {url}` shows every replica and who holds it"


def task_writes(task: Task) -> bool:
    """Whether an episode of ``task`` may change a site's state (it then gets a replica of its own).

    A task writes when WebArena marks it ``require_reset`` or when one of its evaluators is
    not a reading one (``program_html`` checks the state the agent left behind).
    """
    if task.require_reset:
        return True
    return not set(task.eval.eval_types) <= READING_EVALUATORS


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def rebase_task(task: Task, old_urls: Mapping[str, str], new_urls: Mapping[str, str]) -> Task:
    """``task`` with every URL of a site's ``old_urls`` origin moved to its ``new_urls`` origin."""
    pairs = {_origin(old_urls[site]): _origin(new_urls[site]) for site in new_urls if site in old_urls}
    pairs = {old: new for old, new in pairs.items() if old != new}
    if not pairs:
        return task
    # an origin followed by a digit is another port ("h:99" inside "h:999"): not this site
    pattern = re.compile("|".join(re.escape(old) for old in sorted(pairs, key=len, reverse=True)) + r"(?![0-9])")
    text = pattern.sub(lambda match: pairs[match.group(0)], json.dumps(task.to_dict()))
    return Task.from_dict(json.loads(text))


@dataclass
class Lease:
    """One episode's replicas: ``urls`` per site, the service's lease id and replica names, and the
    local folders holding each replica's login states (``auth_dirs``)."""

    lease_id: str
    urls: dict[str, str]
    replicas: dict[str, str]
    writes: bool
    auth_dirs: dict[str, str] = field(default_factory=dict)


class LeaseClient:
    """Talks to a lease service; one per env.

    Args:
        url: The service (``http://host:port``), as ``webarena-gym sites lease-service`` prints it.
        holder: Who holds the leases (shown by ``sites status``); default host and process id.
        wait: Seconds a lease request waits for a pristine replica (default ``$WA_LEASE_WAIT`` or 600).
        ttl: Seconds a lease lives without a heartbeat (a dead holder's lease expires after it).
        timeout: Seconds one HTTP request may take.
    """

    def __init__(self, url: str, *, holder: str | None = None, wait: float | None = None,
                 ttl: float = DEFAULT_TTL_S, timeout: float = 10.0):
        if not isinstance(url, str) or not url.startswith(("http://", "https://")):
            raise ConfigurationError(f"The lease service must be an http:// URL such as http://host:7700, got {url!r:.80}.")
        self.url = url.rstrip("/")
        self.holder = holder or f"{os.uname().nodename}:{os.getpid()}"
        self.wait = float(os.environ.get("WA_LEASE_WAIT", DEFAULT_WAIT_S)) if wait is None else float(wait)
        self.ttl, self.timeout = float(ttl), float(timeout)
        self._held: dict[str, Lease] = {}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._beater: threading.Thread | None = None
        self._states_dir: str | None = None

    # -- HTTP ---------------------------------------------------------------------------
    def _call(self, method: str, path: str, body: dict[str, Any] | None = None) -> tuple[int, dict[str, Any]]:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.url + path, data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                return response.status, json.loads(response.read() or b"{}")
        except urllib.error.HTTPError as exc:
            try:
                return exc.code, json.loads(exc.read() or b"{}")
            except json.JSONDecodeError:
                return exc.code, {"error": f"HTTP {exc.code} {exc.reason}"}
        except (urllib.error.URLError, OSError, json.JSONDecodeError) as exc:
            reason = getattr(exc, "reason", exc)
            raise SiteUnavailableError(
                f"The lease service at {self.url} does not answer ({reason}). Is it running "
                f"(`webarena-gym sites lease-service`)? {STATUS_HINT.format(url=self.url)}; unset WA_LEASES to "
                "browse the sites at their WA_* URLs without leases."
            ) from None

    def sites(self) -> dict[str, str]:
        """The URL of each site the service leases (its first replica's)."""
        _, answer = self._call("GET", "/sites")
        return dict(answer.get("sites", {}))

    def status(self) -> list[dict[str, Any]]:
        """Every replica with its state (free, shared, leased, dirty, booting), holder and since when."""
        return list(self._call("GET", "/status")[1].get("replicas", []))

    # -- leases -------------------------------------------------------------------------
    def acquire(self, sites: list[str] | tuple[str, ...], *, writes: bool,
                progress: Callable[[str], None] | None = None) -> Lease:
        """A replica of each site, waiting up to :attr:`wait` seconds for pristine ones.

        Raises:
            SiteUnavailableError: the service is unreachable, does not serve a site, or no
                replica came free in time (the message counts busy, dirty and booting ones).
        """
        if isinstance(sites, str) or not all(isinstance(site, str) for site in sites):
            raise ConfigurationError(f"sites must be a list of site names such as ['reddit'], got {sites!r:.80}.")
        started = time.monotonic()
        said = started
        body = {"sites": list(sites), "writes": bool(writes), "holder": self.holder, "ttl": self.ttl}
        while True:
            code, answer = self._call("POST", "/leases", body)
            if code == 200:
                lease = Lease(answer["lease_id"], dict(answer["urls"]), dict(answer["replicas"]), bool(writes),
                              self._save_states(answer.get("states") or {}))
                with self._lock:
                    self._held[lease.lease_id] = lease
                self._start_heartbeat()
                return lease
            if code == 404:
                raise SiteUnavailableError(
                    f"The lease service at {self.url} has no replicas of {', '.join(answer.get('missing', sites))} "
                    f"(it serves {', '.join(answer.get('serves', [])) or 'nothing'}). Start them with "
                    f"`webarena-gym sites up --replicas SITE=N` and restart the service with those sites; "
                    f"{STATUS_HINT.format(url=self.url)}."
                )
            if code != 409:
                raise SiteUnavailableError(f"The lease service at {self.url} answered HTTP {code}: {answer.get('error', answer)}.")
            waited = time.monotonic() - started
            if waited >= self.wait:
                raise SiteUnavailableError(_busy_message(self.url, sites, writes, answer.get("counts", {}), waited))
            if time.monotonic() - said >= 30.0:
                said = time.monotonic()
                message = (f"waiting {waited:.0f} s (of {self.wait:.0f}) for a pristine replica of "
                           f"{', '.join(sites)}: {_counts_text(answer.get('counts', {}))}")
                (progress or logger.warning)(message)
            time.sleep(min(0.5, max(0.0, self.wait - waited)))

    def _save_states(self, states: Mapping[str, Mapping[str, Any]]) -> dict[str, str]:
        """Write the replicas' login states to a local folder per site; returns the folders."""
        folders = {}
        for site, files in states.items():
            if self._states_dir is None:
                self._states_dir = tempfile.mkdtemp(prefix="wa-lease-states-")
            folder = Path(self._states_dir) / site
            folder.mkdir(parents=True, exist_ok=True)
            for old in folder.glob("*.json"):
                old.unlink()
            for name, state in files.items():
                (folder / Path(name).name).write_text(json.dumps(state), encoding="utf-8")
            folders[site] = str(folder)
        return folders

    def release(self, lease: Lease, *, dirty: bool | None = None) -> None:
        """Return a lease; a writing one's replicas are recycled (``dirty`` overrides)."""
        with self._lock:
            self._held.pop(lease.lease_id, None)
        dirty = lease.writes if dirty is None else dirty
        code, answer = self._call("POST", f"/leases/{lease.lease_id}/release", {"dirty": dirty})
        if code not in (200, 404):  # 404: it expired; the service recycled it already
            raise SiteUnavailableError(f"The lease service at {self.url} refused to take lease {lease.lease_id} back: "
                                       f"HTTP {code} {answer.get('error', '')}")

    def close(self) -> None:
        """Return every lease held, stop the heartbeat, remove the login states copied here."""
        self._stop.set()
        if self._states_dir is not None:
            shutil.rmtree(self._states_dir, ignore_errors=True)
            self._states_dir = None
        with self._lock:
            held = list(self._held.values())
        for lease in held:
            try:
                self.release(lease)
            except SiteUnavailableError as exc:  # the service is gone; its leases expire there
                logger.warning("%s", exc)

    def _start_heartbeat(self) -> None:
        if self._beater is not None and self._beater.is_alive():
            return
        self._stop.clear()
        self._beater = threading.Thread(target=self._heartbeat, name="wa-lease-heartbeat", daemon=True)
        self._beater.start()

    def _heartbeat(self) -> None:
        while not self._stop.wait(self.ttl / 3):
            with self._lock:
                held = list(self._held)
            if not held:
                return
            for lease_id in held:
                try:
                    self._call("POST", f"/leases/{lease_id}/heartbeat", {})
                except SiteUnavailableError as exc:
                    logger.warning("heartbeat failed: %s", exc)


def _counts_text(counts: Mapping[str, Mapping[str, int]]) -> str:
    parts = []
    for site, by_state in counts.items():
        described = ", ".join(f"{number} {state}" for state, number in by_state.items() if number)
        parts.append(f"{site}: {sum(by_state.values())} replicas ({described or 'none'})")
    return "; ".join(parts) or "no replicas"


def _busy_message(url: str, sites: Any, writes: bool, counts: Mapping[str, Any], waited: float) -> str:
    kind = "pristine replica of its own" if writes else "replica to share"
    return (
        f"No {kind} of {', '.join(sites)} came free in {waited:.0f} s at {url}: {_counts_text(counts)}. "
        "Add replicas (`webarena-gym sites up --replicas SITE=N`, then restart the lease service with them), "
        "run fewer concurrent episodes, or wait longer (WA_LEASE_WAIT, seconds); "
        f"{STATUS_HINT.format(url=url)}."
    )
