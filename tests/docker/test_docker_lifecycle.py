"""Up, health, status, configure, reset and standby pools against a real docker engine.

The sites are stand-ins (busybox httpd, see docker_standin.py) so each test runs in
seconds; the code paths are the ones the real WebArena images take.
"""

from __future__ import annotations

import socket
import urllib.error
import urllib.request
from dataclasses import replace

import pytest

from webarena_gym.docker_sites import configure, connect, reset, status, up
from webarena_gym.docker_sites.containers import FRONTED
from webarena_gym.docker_sites.engine import get_container
from webarena_gym.errors import DockerError

pytestmark = pytest.mark.docker


def fetch(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, ""


def test_up_starts_sites_that_answer_and_is_idempotent(docker_client, make_stack):
    stack = make_stack(names=("alpha", "beta"))
    took = up(docker_client, stack, progress=False)
    assert set(took) == {"alpha", "beta"}
    for name in ("alpha", "beta"):
        assert fetch(stack.site_url(name)) == (200, "<!doctype html><title>Stand-in</title><h1>Stand-in site</h1>\n")
    first = get_container(docker_client, stack.container_name("alpha")).id
    up(docker_client, stack, progress=False)
    assert get_container(docker_client, stack.container_name("alpha")).id == first
    rows = {row.site: row for row in status(docker_client, stack)}
    assert rows["alpha"].state == "running" and rows["alpha"].healthy
    assert rows["alpha"].configured == "no"


def test_stopped_site_is_started_again_with_its_data(docker_client, make_stack):
    stack = make_stack()
    up(docker_client, stack, progress=False)
    container = get_container(docker_client, stack.container_name("alpha"))
    container.exec_run(["sh", "-c", "echo kept > /www/note.txt"])
    container.stop(timeout=1)
    up(docker_client, stack, progress=False)
    assert fetch(stack.base_url("alpha") + "/note.txt") == (200, "kept\n")


def test_configure_then_reset_discards_writes_but_keeps_configuration(docker_client, make_stack):
    stack = make_stack()
    up(docker_client, stack, progress=False)
    [result] = configure(docker_client, stack, progress=False)
    assert result.ran == ["base URL", "flush"] and result.committed.startswith(stack.prefix)
    assert fetch(stack.base_url("alpha") + "/config/base_url") == (200, stack.base_url("alpha") + "\n")
    [again] = configure(docker_client, stack, progress=False)
    assert again.ran == [] and again.committed == ""

    container = get_container(docker_client, stack.container_name("alpha"))
    container.exec_run(["sh", "-c", "echo 'order #1' > /www/orders.txt"])
    assert fetch(stack.base_url("alpha") + "/orders.txt")[0] == 200
    reset(docker_client, stack, progress=False)
    assert fetch(stack.base_url("alpha") + "/orders.txt")[0] == 404
    assert fetch(stack.base_url("alpha") + "/config/base_url") == (200, stack.base_url("alpha") + "\n")
    assert get_container(docker_client, stack.container_name("alpha")).id != container.id
    [row] = status(docker_client, stack)
    assert row.healthy and row.configured == "yes"


def test_configuration_in_a_volume_is_applied_again_after_reset(docker_client, make_stack, standin_volume_image):
    stack = make_stack(image=standin_volume_image)
    up(docker_client, stack, progress=False)
    [result] = configure(docker_client, stack, progress=False)
    assert result.reapply_after_reset and result.committed == ""
    reset(docker_client, stack, progress=False)
    assert fetch(stack.base_url("alpha") + "/config/base_url") == (200, stack.base_url("alpha") + "\n")
    # The flush ran once per fresh volume: the configuration was really redone, not kept.
    assert fetch(stack.base_url("alpha") + "/config/flushes") == (200, "flushed\n")
    [row] = status(docker_client, stack)
    assert row.configured == "yes"


def test_standby_pool_swaps_in_a_warm_container(docker_client, make_stack):
    stack = make_stack()
    up(docker_client, stack, standby=1, progress=False)
    configure(docker_client, stack, progress=False)
    front = get_container(docker_client, stack.container_name("alpha", "front"))
    assert front is not None and front.status == "running"
    [row] = status(docker_client, stack)
    assert row.topology == FRONTED and row.healthy and row.standby.endswith("/1 ready")

    before = get_container(docker_client, stack.container_name("alpha"))
    before.exec_run(["sh", "-c", "echo 'order #1' > /www/orders.txt"])
    assert fetch(stack.base_url("alpha") + "/orders.txt")[0] == 200
    standby = get_container(docker_client, stack.container_name("alpha", "standby-1"))
    reset(docker_client, stack, progress=False)
    after = get_container(docker_client, stack.container_name("alpha"))
    assert after.id == standby.id  # the warm standby took the site's name
    assert fetch(stack.base_url("alpha") + "/orders.txt")[0] == 404
    assert fetch(stack.base_url("alpha") + "/config/base_url") == (200, stack.base_url("alpha") + "\n")
    refill = get_container(docker_client, stack.container_name("alpha", "standby-1"))
    assert refill is not None and refill.id not in (before.id, standby.id)

    up(docker_client, stack, standby=0, progress=False)  # back to WebArena's topology
    assert get_container(docker_client, stack.container_name("alpha", "front")) is None
    assert get_container(docker_client, stack.container_name("alpha", "standby-1")) is None
    assert fetch(stack.site_url("alpha"))[0] == 200


def test_missing_image_says_how_to_get_it(docker_client, make_stack):
    stack = make_stack(image="wagymtest/not-loaded:1", obtain="Load it with `docker load --input x.tar`.")
    with pytest.raises(DockerError, match=r"wagymtest/not-loaded:1.*not in the docker engine.*docker load --input x.tar"):
        up(docker_client, stack, progress=False)


def test_missing_data_folder_is_named(docker_client, make_stack, tmp_path):
    stack = make_stack(volumes={str(tmp_path / "wikipedia"): "/data"}, obtain="Put the ZIM file there.")
    with pytest.raises(DockerError, match=rf"needs {tmp_path / 'wikipedia'}, which does not exist. Put the ZIM file there."):
        up(docker_client, stack, progress=False)
    (tmp_path / "wikipedia").mkdir()
    up(docker_client, stack, progress=False)


def test_taken_port_names_its_holder(docker_client, make_stack):
    stack = make_stack()
    with socket.socket() as holder:
        holder.bind(("0.0.0.0", stack.site("alpha").host_port))
        holder.listen()
        with pytest.raises(DockerError, match=r"Port \d+ for the alpha site is taken by a process outside docker"):
            up(docker_client, stack, progress=False)
    up(docker_client, stack, progress=False)
    rival = replace(make_stack(), ports={"alpha": stack.site("alpha").host_port})
    with pytest.raises(DockerError, match=rf"taken by container '{stack.container_name('alpha')}'"):
        up(docker_client, rival, progress=False)


def test_unhealthy_site_fails_after_timeout_with_logs(docker_client, make_stack):
    stack = make_stack(health_path="/never-there", start_timeout=2.0)
    with pytest.raises(DockerError, match=r"alpha is not healthy after 2 s: .*answered HTTP 404"):
        up(docker_client, stack, progress=False)


def test_crashing_container_fails_fast(docker_client, make_stack):
    stack = make_stack(command=("false",), start_timeout=60.0)
    with pytest.raises(DockerError, match=r"stopped \(exit code 1\)"):
        up(docker_client, stack, progress=False)


def test_no_engine_error_says_how_to_start_one():
    with pytest.raises(DockerError, match=r"No docker engine answers at unix:///nonexistent.sock.*ensure_dockerd.sh"):
        connect("unix:///nonexistent.sock")
