"""Login storage states written with a real Chromium against a site in a container."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from webarena_gym.docker_sites import login, state_path, up
from webarena_gym.docker_sites.login_states import login_groups
from webarena_gym.errors import InfrastructureError

pytestmark = [pytest.mark.docker, pytest.mark.browser]


def test_login_saves_a_storage_state_that_keeps_the_session(docker_client, make_stack, chromium, tmp_path):
    stack = make_stack()
    up(docker_client, stack, progress=False)
    [path] = login(stack, auth_dir=tmp_path, browser=chromium, progress=False)
    assert path == state_path(tmp_path, ["alpha"]) and path.name == "alpha_state.json"
    cookies = {cookie["name"]: cookie["value"] for cookie in json.loads(path.read_text())["cookies"]}
    assert cookies["standin_session"] == "MarvelsGrantMan136"

    # A browser context loaded from the state is logged in without typing anything.
    context = chromium.new_context(storage_state=str(path))
    page = context.new_page()
    page.goto(stack.site_url("alpha") + "/cgi-bin/account")
    assert "Welcome back, MarvelsGrantMan136" in page.content()
    context.close()

    # Logging in again keeps a state that still works instead of rewriting it.
    written = path.stat().st_mtime_ns
    login(stack, auth_dir=tmp_path, browser=chromium, progress=False)
    assert path.stat().st_mtime_ns == written
    login(stack, auth_dir=tmp_path, browser=chromium, progress=False, force=True)
    assert path.stat().st_mtime_ns != written


def test_two_site_states_follow_webarena_names(docker_client, make_stack, chromium, tmp_path):
    stack = make_stack(names=("gitlab", "reddit", "shopping"))
    assert login_groups(stack, None) == [
        ("gitlab",), ("reddit",), ("shopping",), ("gitlab", "reddit"), ("gitlab", "shopping")
    ]  # the forum and the store share a cookie name on one host: WebArena never pairs them
    up(docker_client, stack, ["gitlab", "reddit"], progress=False)
    paths = login(stack, ["gitlab", "reddit"], auth_dir=tmp_path, browser=chromium, progress=False)
    assert sorted(path.name for path in paths) == ["gitlab.reddit_state.json", "gitlab_state.json", "reddit_state.json"]


def test_wrong_password_is_reported(docker_client, make_stack, chromium, tmp_path):
    stack = make_stack()
    site = stack.site("alpha")
    stack = replace(stack, sites={"alpha": replace(site, login=replace(site.login, account=("MarvelsGrantMan136", "nope")))})
    up(docker_client, stack, progress=False)
    with pytest.raises(InfrastructureError, match=r"Logging in to alpha as 'MarvelsGrantMan136' did not work"):
        login(stack, auth_dir=tmp_path, browser=chromium, progress=False)
    assert not state_path(tmp_path, ["alpha"]).exists()
