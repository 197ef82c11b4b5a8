"""Before a writing task, the env restarts the task's sites through the verified images' env-control endpoint.

The endpoint is a real HTTP server on loopback that answers as the images do; the requests
come from the package's own client. A retrieve or navigate task leaves the sites alone, a
dead or failing endpoint stops the episode with an error naming its URL, and
``reset_sites=False`` turns the resets off.
"""

from __future__ import annotations

import socket

import pytest

from webarena_gym.backends.verified_control import env_ctrl_urls, env_ctrl_variable
from webarena_gym.env import WebArenaEnv
from webarena_gym.errors import ConfigurationError, SiteUnavailableError

from .env_ctrl_server import EnvCtrlServer
from .stub_sites import APPS, DIRECT_URLS, served

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning:url_normalize.*")

RETRIEVE, NAVIGATE, MUTATE = 0, 156, 448  # shopping_admin; gitlab; gitlab (the profile's website)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def make_env(**kwargs) -> WebArenaEnv:
    return WebArenaEnv(suite="webarena-verified", site_apps=APPS, site_urls=kwargs.pop("site_urls", DIRECT_URLS),
                       task_ids=[RETRIEVE, NAVIGATE, MUTATE], **kwargs)


def restarts(server: EnvCtrlServer) -> list[tuple[str, str, dict]]:
    return [request for request in server.requests if request[1] == "/restart"]


def test_a_mutate_task_restarts_its_sites_and_waits_a_retrieve_task_does_not(monkeypatch):
    with EnvCtrlServer() as gitlab, EnvCtrlServer() as admin:
        monkeypatch.setenv("WA_GITLAB_ENV_CTRL", gitlab.url)
        monkeypatch.setenv("WA_SHOPPING_ADMIN_ENV_CTRL", admin.url)
        env = make_env(reset_sites=True)
        try:
            _, info = env.reset(options={"task_id": MUTATE})
            assert info["sites_reset"] == ["gitlab"]
            assert restarts(gitlab) == [("POST", "/restart", {"wait": ["1"]})]  # restarted, waiting for it
            assert ("GET", "/status", {}) in gitlab.requests  # and found ready before the episode began
            _, _, _, _, step_info = env.step('do(action="Wait")')
            assert step_info["sites_reset"] == ["gitlab"]  # the episode's infos keep saying so
            for task_id in (RETRIEVE, NAVIGATE):
                _, info = env.reset(options={"task_id": task_id})
                assert info["sites_reset"] == []
            assert len(restarts(gitlab)) == 1 and admin.requests == []  # reading tasks left the sites alone
            env.reset(options={"task_id": MUTATE})
            assert len(restarts(gitlab)) == 2  # every writing episode starts on a pristine site
        finally:
            env.close()


def test_the_endpoint_is_found_beside_the_site_port_as_the_package_publishes_it(monkeypatch):
    monkeypatch.delenv("WA_GITLAB_ENV_CTRL", raising=False)
    assert env_ctrl_urls({"gitlab": "http://sites.example:8023", "shopping_admin": "http://sites.example:7780/admin",
                          "reddit": "http://sites.example:9999", "homepage": "http://sites.example:4399"}, {}) == {
        "gitlab": "http://sites.example:8024", "shopping_admin": "http://sites.example:7781",
        "reddit": "http://sites.example:9998"}  # the package's host env-ctrl ports; the homepage has none
    assert env_ctrl_urls({"gitlab": "http://h:8023"}, {env_ctrl_variable("gitlab"): "off"}) == {}
    with EnvCtrlServer() as gitlab:
        port = int(gitlab.url.rsplit(":", 1)[1])
        site_urls = {"gitlab": f"http://127.0.0.1:{port - 1}", "shopping_admin": DIRECT_URLS["shopping_admin"]}
        env = make_env(site_urls=site_urls, reset_sites=True)  # no WA_GITLAB_ENV_CTRL: GitLab's port + 1
        try:
            _, info = env.reset(options={"task_id": MUTATE})
        finally:
            env.close()
    assert info["sites_reset"] == ["gitlab"] and len(restarts(gitlab)) == 1


def test_a_dead_endpoint_is_an_infrastructure_error_naming_its_url(monkeypatch):
    dead = f"http://127.0.0.1:{free_port()}"
    monkeypatch.setenv("WA_GITLAB_ENV_CTRL", dead)
    monkeypatch.setenv("WA_SHOPPING_ADMIN_ENV_CTRL", dead)
    env = make_env(reset_sites=True)
    try:
        with pytest.raises(SiteUnavailableError, match=rf"gitlab.*{dead}.*did not answer.*WA_GITLAB_ENV_CTRL"):
            env.reset(options={"task_id": MUTATE})
        _, info = env.reset(options={"task_id": RETRIEVE})  # a reading task needs no reset: it runs
        assert info["sites_reset"] == [] and info["task_id"] == RETRIEVE
    finally:
        env.close()


def test_a_failed_restart_says_what_the_endpoint_answered(monkeypatch):
    with EnvCtrlServer(fail_restart=True) as gitlab:
        monkeypatch.setenv("WA_GITLAB_ENV_CTRL", gitlab.url)
        env = make_env(reset_sites=True)
        try:
            with pytest.raises(SiteUnavailableError, match=rf"{gitlab.url}.*mysql did not come back"):
                env.reset(options={"task_id": MUTATE})
        finally:
            env.close()


def test_reset_sites_false_runs_a_mutate_task_on_the_sites_as_they_are(monkeypatch):
    with EnvCtrlServer() as gitlab:
        monkeypatch.setenv("WA_GITLAB_ENV_CTRL", gitlab.url)
        env = make_env(reset_sites=False)
        try:
            _, info = env.reset(options={"task_id": MUTATE})
        finally:
            env.close()
    assert info["sites_reset"] == [] and gitlab.requests == []


def test_reset_sites_is_refused_where_it_cannot_apply():
    with pytest.raises(ConfigurationError, match="suite='webarena-verified'"):
        WebArenaEnv(suite="embedded", reset_sites=True)
    with pytest.raises(ConfigurationError, match="lease service"):
        make_env(reset_sites=True, leases="http://127.0.0.1:9")
    with pytest.raises(ConfigurationError, match="reset_sites"):
        make_env(reset_sites="yes")


@pytest.mark.browser
def test_on_the_real_sites_path_resets_are_on_by_default(monkeypatch, tmp_path):
    monkeypatch.setenv("WA_AUTH_DIR", str(tmp_path))  # the stand-ins need no login state
    monkeypatch.delenv("WA_LEASES", raising=False)
    with served() as urls, EnvCtrlServer() as gitlab, EnvCtrlServer() as admin:
        monkeypatch.setenv("WA_GITLAB_ENV_CTRL", gitlab.url)
        monkeypatch.setenv("WA_SHOPPING_ADMIN_ENV_CTRL", admin.url)
        env = WebArenaEnv(suite="webarena-verified", backend="playwright", site_urls=urls, task_ids=[RETRIEVE, MUTATE])
        try:
            _, info = env.reset(options={"task_id": MUTATE})
            assert info["sites_reset"] == ["gitlab"] and len(restarts(gitlab)) == 1
            _, info = env.reset(options={"task_id": RETRIEVE})
            assert info["sites_reset"] == [] and admin.requests == []
        finally:
            env.close()
