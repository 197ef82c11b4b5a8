"""Replicas of a real site: lease latency, recycle time with and without standbys, disk per replica.

Measured on the docker engine with the stand-in site image of tests/docker (busybox httpd
with a notes store written inside the container), so the numbers are the tooling's own
costs: the real images add their own boot time (Magento about a minute, GitLab up to
five) to a cold recycle, and nothing to a standby swap but the swap.

Baselines measured in the same run, side by side:
- lease latency against a plain ``GET /status`` on the same service (the HTTP floor),
- a recycle through a warm standby against a cold recreation of the replica,
- a replica's own disk (its writable layer after a write) against the image it shares.

Run from the checkout's root (it reuses the tests' stand-in image): ``.venv/bin/python -m benchmarks.replicas [--replicas 3] [--recycles 3] [--leases 200]``
(starts dockerd with scripts/ensure_dockerd.sh when none answers).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import time
import urllib.request
from pathlib import Path

from benchmarks.timing import timed
from tests.docker.docker_standin import free_port, import_standin, standin_site
from webarena_gym.backends.site_leases import LeaseClient
from webarena_gym.docker_sites import Deployment, connect, down
from webarena_gym.docker_sites.containers import configured_image
from webarena_gym.docker_sites.lease_service import docker_lease_service
from webarena_gym.docker_sites.replicas import recycle, replica_deployment, replicas_down, replicas_up
from webarena_gym.errors import DockerError

ROOT = Path(__file__).resolve().parents[1]


def engine():
    try:
        return connect()
    except DockerError:
        subprocess.run(["sh", str(ROOT / "scripts" / "ensure_dockerd.sh")], check=False, capture_output=True)
        return connect()


def write_note(url: str) -> None:
    request = urllib.request.Request(url + "/cgi-bin/notes", data=b"note=benchmark", method="POST")
    urllib.request.urlopen(request, timeout=10).close()


def measure_leases(deployment: Deployment, replicas: int, repeats: int) -> list[tuple[str, str, str]]:
    """Median lease + return round trip of a reading episode, beside the service's plain GET."""
    with docker_lease_service(deployment, {"reddit": replicas}) as service:
        client = LeaseClient(service.url)
        floor = timed(client.status, repeats)

        def lease_and_return() -> None:
            client.release(client.acquire(["reddit"], writes=False))

        took = timed(lease_and_return, repeats)
        client.close()
    return [("GET /status (HTTP floor)", f"{floor * 1e3:.2f} ms", "1.0x"),
            ("lease + return (reading episode)", f"{took * 1e3:.2f} ms", f"{took / floor:.1f}x")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replicas", type=int, default=3)
    parser.add_argument("--recycles", type=int, default=3)
    parser.add_argument("--leases", type=int, default=200)
    args = parser.parse_args()

    client = engine()
    image = import_standin(client)
    prefix = "wagymbench-"
    rows: list[tuple[str, str, str]] = []
    for standby in (1, 0):
        deployment = Deployment(prefix=f"{prefix}s{standby}-", sites={"reddit": standin_site("reddit", image, free_port())},
                                proxy_image=image)
        try:
            started = time.perf_counter()
            replicas_up(client, deployment, {"reddit": args.replicas}, standby=standby, progress=False)
            rows.append((f"sites up --replicas reddit={args.replicas} (standby {standby})",
                         f"{time.perf_counter() - started:.2f} s", ""))
            url = replica_deployment(deployment, "reddit", 1).base_url("reddit")
            seconds = []
            for _ in range(args.recycles):
                write_note(url)
                seconds.append(recycle(client, deployment, "reddit", 1))
            rows.append((f"recycle a dirty replica, standby {standby}", f"{statistics.median(seconds):.2f} s", ""))
            if standby:
                rows += measure_leases(deployment, args.replicas, args.leases)
                write_note(url)
                name = replica_deployment(deployment, "reddit", 1).container_name("reddit")
                container = client.api.get(client.api._url("/containers/{0}/json", name), params={"size": 1}).json()
                own, shared = container.get("SizeRw", 0), container.get("SizeRootFs", 0)
                configured = configured_image(client, replica_deployment(deployment, "reddit", 1), "reddit")
                layer = configured.history()[0].get("Size", 0) if configured is not None else 0
                rows.append(("disk of a replica: writable layer after a write", f"{own} B",
                             f"{own / max(shared, 1):.6f}x of the {shared / 1e6:.1f} MB it shares"))
                rows.append(("disk of a replica: its configured image's own layer", f"{layer} B",
                             f"{layer / max(shared, 1):.6f}x"))
        finally:
            replicas_down(client, deployment)
            down(client, deployment, images=True)
    cold = next(value for name, value, _ in rows if name == "recycle a dirty replica, standby 0")
    warm = next(value for name, value, _ in rows if name == "recycle a dirty replica, standby 1")
    rows.append(("recycle: cold / warm standby", f"{float(cold.split()[0]) / float(warm.split()[0]):.1f}x", ""))
    width = max(len(name) for name, _, _ in rows)
    print(f"{'measurement'.ljust(width)}  value       ratio")
    for name, value, ratio in rows:
        print(f"{name.ljust(width)}  {value.ljust(10)}  {ratio}")


if __name__ == "__main__":
    main()
