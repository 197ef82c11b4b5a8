"""The embedded code host (WebArena's GitLab) driven through real requests."""

from __future__ import annotations

import re

import lxml.html
import pytest

from webarena_gym.observation import simplify_html
from webarena_gym.sites import World, app_for
from webarena_gym.sites.webapp import WORLD_KEY

USER = "byteblaze"
A11Y = "/a11yproject/a11yproject.com"


def html(response):
    assert response.status_code == 200, (response.status_code, response.headers.get("Location"))
    return lxml.html.fromstring(response.get_data(as_text=True))


def texts(doc, css):
    return [" ".join(el.text_content().split()) for el in doc.cssselect(css)]


@pytest.fixture
def gitlab(site_client):
    return site_client("gitlab", USER)


@pytest.fixture
def anonymous(site_client):
    return site_client("gitlab")


# --- sign-in -------------------------------------------------------------------------


def test_sign_in_and_out_and_login_required(anonymous):
    assert anonymous.get("/").headers["Location"] == "/users/sign_in"
    redirect = anonymous.get("/dashboard/todos")
    assert redirect.status_code == 302 and redirect.headers["Location"] == "/users/sign_in?next=/dashboard/todos"
    wrong = anonymous.post("/users/sign_in", data={"username": USER, "password": "nope"})
    assert "Invalid login or password." in wrong.get_data(as_text=True)
    ok = anonymous.post("/users/sign_in?next=/dashboard/todos", data={"username": USER, "password": "hello1234"})
    assert ok.headers["Location"] == "/dashboard/todos"
    assert texts(html(anonymous.get("/dashboard/todos")), "h1") == ["To-Do List"]
    anonymous.post("/users/sign_out")
    assert anonymous.get("/dashboard/projects").status_code == 302
    assert anonymous.post(f"{A11Y}/-/star").status_code == 302  # writes need a session too


def test_private_projects_are_hidden_from_others(anonymous, gitlab, site_client):
    assert anonymous.get("/byteblaze/awesome_web_agents").status_code == 404
    assert gitlab.get("/byteblaze/awesome_web_agents").status_code == 200
    assert site_client("gitlab", "vinta").get("/byteblaze/awesome_web_agents").status_code == 404
    listed = texts(html(anonymous.get("/explore?name=byteblaze")), ".project-name")
    assert "byteblaze / dotfiles" in listed and "byteblaze / awesome_web_agents" not in listed


# --- project lists -------------------------------------------------------------------


def test_explore_sorts_searches_and_paginates(anonymous):
    first = html(anonymous.get("/explore/projects/starred"))
    stars = [int(t.split()[0]) for t in texts(first, ".project-row .stars")]
    assert len(stars) == 20 and stars == sorted(stars, reverse=True)
    second = html(anonymous.get("/explore/projects/starred?page=2"))
    assert not set(texts(first, ".project-name")) & set(texts(second, ".project-name"))
    by_name = texts(html(anonymous.get("/explore?sort=name_asc")), ".project-name")
    assert [n.split(" / ")[1].lower() for n in by_name] == sorted(n.split(" / ")[1].lower() for n in by_name)
    assert texts(html(anonymous.get("/explore?name=ffmpeg")), ".project-name") == ["kkroening / ffmpeg-python"]


def test_dashboard_lists_my_and_starred_projects(gitlab):
    mine = texts(html(gitlab.get("/dashboard/projects?sort=name_asc")), ".project-name")
    assert "byteblaze / awesome_web_agents" in mine and "a11yproject / a11yproject.com" in mine
    assert "vinta / awesome-python" not in mine
    starred = html(gitlab.get("/dashboard/projects/starred"))
    assert texts(starred, ".project-name") and "No projects found." not in starred.text_content()


# --- project pages -------------------------------------------------------------------


def test_project_page_shows_clone_urls_readme_and_stars(anonymous):
    doc = html(anonymous.get("/byteblaze/dotfiles"))
    assert doc.cssselect("#ssh_project_clone")[0].get("value") == "ssh://git@gitlab.webarena.local:2222/byteblaze/dotfiles.git"
    assert doc.cssselect("#http_project_clone")[0].get("value").endswith(":8023/byteblaze/dotfiles.git")
    assert doc.cssselect("#ssh_project_clone")[0].get("readonly") is not None
    assert "My dotfiles" in texts(doc, ".project-description")[0]
    assert "Installation" in doc.cssselect(".readme")[0].text_content()
    assert re.fullmatch(r"\d+ stars", texts(doc, ".star-count")[0])


def test_star_and_unstar_change_the_count(gitlab):
    def count():
        return int(texts(html(gitlab.get("/vinta/awesome-python")), ".star-count")[0].split()[0])

    before = count()
    starred = "Unstar" in texts(html(gitlab.get("/vinta/awesome-python")), "button")
    gitlab.post("/vinta/awesome-python/-/unstar" if starred else "/vinta/awesome-python/-/star")
    assert count() == before + (-1 if starred else 1)
    assert ("Byte Blaze" in texts(html(gitlab.get("/vinta/awesome-python/-/starrers")), ".starrers li")[0]) != starred


def test_commits_group_by_day_filter_and_paginate(anonymous):
    doc = html(anonymous.get(f"{A11Y}/-/commits/main"))
    times = [t.get("datetime") for t in doc.cssselect(".commit time")]
    assert len(times) == 20 and times == sorted(times, reverse=True)
    later = html(anonymous.get(f"{A11Y}/-/commits/main?page=2"))
    assert later.cssselect(".commit time")[0].get("datetime") <= times[-1]
    author = texts(doc, ".commit-author")[0]
    filtered = texts(html(anonymous.get(f"{A11Y}/-/commits/main?author={author}")), ".commit-author")
    assert filtered and set(filtered) == {author}
    assert anonymous.get(f"{A11Y}/-/commits/develop").status_code == 404


def test_contributors_count_commits_per_author(anonymous):
    doc = html(anonymous.get(f"{A11Y}/-/graphs/main"))
    counts = [int(c) for c in texts(doc, ".contributors .count")]
    assert counts == sorted(counts, reverse=True)
    total = texts(html(anonymous.get(f"{A11Y}/-/commits/main")), ".muted")[0]
    assert f"{sum(counts)} commits" in total


# --- issues --------------------------------------------------------------------------


def test_issue_list_filters_by_state_label_assignee_and_search(anonymous):
    opened = html(anonymous.get(f"{A11Y}/-/issues"))
    tabs = dict(re.match(r"(\w+) (\d+)", t).groups() for t in texts(opened, 'nav[aria-label="Issue state"] a'))
    assert int(tabs["All"]) == int(tabs["Open"]) + int(tabs["Closed"]) > 20
    assert opened.cssselect(".pagination") and "CLOSED" not in opened.cssselect(".issues-list")[0].text_content()
    bug = html(anonymous.get(f"{A11Y}/-/issues?label_name%5B%5D=bug&state=all"))
    for row in bug.cssselect(".issue"):
        assert "bug" in texts(row, ".label")
    assignee = html(anonymous.get(f"{A11Y}/-/issues?assignee_username=byteblaze&state=all"))
    assert all("assigned to Byte Blaze" in t for t in texts(assignee, ".issue .muted"))
    title = texts(opened, ".issue-title")[0]
    found = texts(html(anonymous.get(f"{A11Y}/-/issues", query_string={"search": title})), ".issue-title")
    assert found == [title]


def test_new_issue_comment_close_reopen_and_sidebar_edits(gitlab):
    created = gitlab.post(
        "/byteblaze/dotfiles/-/issues/new",
        data={"title": "Zsh prompt is slow", "description": "It takes a second.", "assignee_username": USER},
    )
    path = created.headers["Location"]
    doc = html(gitlab.get(path))
    assert texts(doc, "h1.title") == ["Zsh prompt is slow"] and "Byte Blaze" in texts(doc, ".assignee")[0]
    gitlab.post(f"{path}/notes", data={"note": "Profiling now."})
    assert "Profiling now." in texts(html(gitlab.get(path)), ".note-body")
    gitlab.post(f"{path}/state", data={"state_event": "close"})
    assert texts(html(gitlab.get(path)), ".issuable-status-badge") == ["Closed"]
    gitlab.post(f"{path}/state", data={"state_event": "reopen"})
    doc = html(gitlab.get(path))
    assert texts(doc, ".issuable-status-badge") == ["Open"]
    menu = html(gitlab.get(f"{path}?edit=labels&q=bu"))
    options = menu.cssselect('[role="listbox"] [role="option"]')
    assert menu.cssselect('input[role="combobox"]') and [o.text_content() for o in options] == ["bug"]
    gitlab.post(f"{path}/edit", data={"toggle_label": options[0].get("value")})
    gitlab.post(f"{path}/edit", data={"assignee_username": ""})
    doc = html(gitlab.get(path))
    assert texts(doc, ".labels .label") == ["bug"] and texts(doc, "p.assignee") == ["None"]
    assert "added ~bug label" in texts(doc, ".note.system .note-body")
    assert gitlab.post("/byteblaze/dotfiles/-/issues/new", data={"title": ""}).status_code == 200


def test_reporters_cannot_edit_others_issues(site_client):
    outsider = site_client("gitlab", "vinta")
    assert outsider.post("/byteblaze/dotfiles/-/issues/1/state", data={"state_event": "close"}).status_code == 403


# --- merge requests ------------------------------------------------------------------


def test_merge_requests_list_page_and_comment(gitlab):
    merged = html(gitlab.get(f"{A11Y}/-/merge_requests?state=merged"))
    assert all("MERGED" in t for t in texts(merged, ".merge-request .muted"))
    href = merged.cssselect(".merge-request-title")[0].get("href")
    gitlab.post(f"{href}/notes", data={"note": "Thanks, working on reviews"})
    doc = html(gitlab.get(href))
    assert texts(doc, ".issuable-status-badge") == ["Merged"] and "Thanks, working on reviews" in texts(doc, ".note-body")


def test_dashboard_filters_review_requests_and_todos(gitlab):
    reviews = texts(html(gitlab.get("/dashboard/merge_requests?reviewer_username=byteblaze")), ".mr-list li > a")
    assigned = texts(html(gitlab.get("/dashboard/merge_requests")), ".mr-list li > a")
    assert reviews and reviews != assigned

    def pending(doc):
        return int(re.search(r"To-Do List \((\d+)\)", doc.text_content()).group(1))

    todos = html(gitlab.get("/dashboard/todos"))
    before, first = pending(todos), todos.cssselect(".todo")[0]
    gitlab.post(first.cssselect("form")[0].get("action"))
    done = html(gitlab.get("/dashboard/todos?state=done"))
    assert pending(done) == before - 1
    assert first.cssselect("a")[0].get("href") in [a.get("href") for a in done.cssselect(".todo a")]
    gitlab.post("/dashboard/todos/mark_all_done")
    assert "Nothing is on your to-do list" in html(gitlab.get("/dashboard/todos")).text_content()


# --- members -------------------------------------------------------------------------


def test_invite_member_change_role_and_remove(gitlab):
    members = "/byteblaze/dotfiles/-/project_members"
    assert gitlab.post(members, data={"username": "yjlou", "access_level": "30"}).status_code == 302
    row = html(gitlab.get(members)).cssselect('tr[data-username="yjlou"]')[0]
    assert row.cssselect("option[selected]")[0].text == "Developer"
    again = gitlab.post(members, data={"username": "yjlou", "access_level": "10"})
    assert "already a member" in again.get_data(as_text=True)
    assert "was not found" in gitlab.post(members, data={"username": "nobody", "access_level": "10"}).get_data(as_text=True)
    gitlab.post(f"{members}/yjlou", data={"access_level": "40"})
    assert html(gitlab.get(members)).cssselect('tr[data-username="yjlou"] option[selected]')[0].text == "Maintainer"
    gitlab.post(f"{members}/yjlou/remove")
    assert not html(gitlab.get(members)).cssselect('tr[data-username="yjlou"]')


def test_only_maintainers_can_invite(site_client):
    guest = site_client("gitlab", "vinta")
    assert guest.post("/byteblaze/dotfiles/-/project_members", data={"username": "yjlou", "access_level": "10"}).status_code == 403


# --- users and settings --------------------------------------------------------------


def test_follow_and_unfollow(gitlab):
    following = "/users/byteblaze/following"
    already = "@convexegg" in html(gitlab.get(following)).text_content()
    gitlab.post("/users/convexegg/unfollow" if already else "/users/convexegg/follow")
    assert ("@convexegg" in html(gitlab.get(following)).text_content()) != already
    assert ("Unfollow" in texts(html(gitlab.get("/convexegg")), "button")) != already


def test_profile_settings_show_on_profile(gitlab):
    form = {"name": "Byte Blaze", "status_message": "Busy", "website": "https://egg.tart.com", "location": "", "bio": ""}
    assert gitlab.post("/-/profile", data=form).status_code == 302
    doc = html(gitlab.get("/byteblaze"))
    assert doc.cssselect(".cover-status span")[-1].text == "Busy"
    assert texts(doc, '.profile-header [itemprop="url"]') == ["egg.tart.com"]
    bad = gitlab.post("/-/profile", data={**form, "website": "not a url"})
    assert "not a valid URL" in bad.get_data(as_text=True)


def test_access_tokens_and_feed_token_reset(gitlab):
    page = "/-/profile/personal_access_tokens"
    old_feed = html(gitlab.get(page)).cssselect("#feed_token")[0].get("value")
    created = html(gitlab.post(page, data={"name": "ci", "scope_api": "1"}))
    assert created.cssselect("#created-personal-access-token")[0].get("value").startswith("glpat-")
    assert "ci" in texts(html(gitlab.get(page)), "td")
    gitlab.post("/-/profile/reset_feed_token")
    assert html(gitlab.get(page)).cssselect("#feed_token")[0].get("value") != old_feed
    assert "Scopes can't be blank." in html(gitlab.post(page, data={"name": "x"})).text_content()


def test_new_project_is_created_with_visibility(gitlab):
    response = gitlab.post("/projects/new", data={"name": "chatgpt_plugin", "visibility": "private", "readme": "1"})
    assert response.headers["Location"] == "/byteblaze/chatgpt_plugin"
    doc = html(gitlab.get("/byteblaze/chatgpt_plugin"))
    assert texts(doc, ".project-title") == ["chatgpt_plugin"] and texts(doc, ".visibility") == ["Private"]
    assert "Name has already been taken." in gitlab.post("/projects/new", data={"name": "chatgpt_plugin", "visibility": "public"}).get_data(as_text=True)


def test_global_search_finds_projects_and_users(anonymous):
    projects = html(anonymous.get("/search?search=primer/design"))
    assert texts(projects, ".project-name") == ["primer / design"]
    users = html(anonymous.get("/search?search=yjlou&scope=users"))
    assert len(texts(users, ".user-results a")) == 1 and texts(users, ".user-results a")[0].endswith("@yjlou")
    assert "couldn't find any users" in html(anonymous.get("/search?search=zzzz&scope=users")).text_content()


def test_group_page_lists_its_projects(anonymous):
    assert "a11yproject / a11yproject.com" in texts(html(anonymous.get("/a11yproject")), ".project-name")
    assert anonymous.get("/no-such-namespace").status_code == 404


# --- worlds --------------------------------------------------------------------------


def test_writes_are_isolated_per_world_and_reset_restores(gitlab, world):
    gitlab.post("/projects/new", data={"name": "isolated", "visibility": "public"})
    assert gitlab.get("/byteblaze/isolated").status_code == 200
    other = app_for("gitlab").test_client()
    other.environ_base[WORLD_KEY] = World()
    assert other.get("/byteblaze/isolated").status_code == 404
    world.reset()
    assert gitlab.get("/byteblaze/isolated").status_code == 404


# --- discussions, sidebar widgets ----------------------------------------------------


def busiest_issue(gitlab) -> str:
    """The issue page with the most notes (the seed data gives some 15-40)."""
    best = None
    for href in html(gitlab.get(f"{A11Y}/-/issues?state=all")).cssselect(".issue-title"):
        doc = html(gitlab.get(href.get("href")))
        count = len(doc.cssselect("#notes-list > li"))
        if best is None or count > best[0]:
            best = (count, href.get("href"))
    return best[1]


def test_long_threads_carry_system_notes_reactions_and_icon_only_note_controls(gitlab):
    doc = html(gitlab.get(busiest_issue(gitlab)))
    notes = doc.cssselect("#notes-list > li")
    assert len(notes) >= 15 and doc.cssselect("#notes-list > li.system-note") and doc.cssselect(".awards .award")
    comment = next(li for li in notes if "system-note" not in li.get("class"))
    controls = comment.cssselect(".note-actions[role=toolbar] > a, .note-actions > details > summary")
    assert {c.get("aria-label") for c in controls} >= {"Add reaction", "Reply to comment", "More actions"}
    assert all(not c.text_content().strip() and c.get("aria-label") for c in controls)


def test_the_busiest_issue_page_stays_within_the_observation_budget(gitlab):
    """Long threads make long pages; with a sidebar dropdown open the observation still fits ~14,000 characters."""
    path = busiest_issue(gitlab)
    for query in ("", "?edit=labels", "?edit=assignee"):
        observation = simplify_html(gitlab.get(path + query).get_data(as_text=True)).text
        assert 9000 < len(observation) <= 14000, (path + query, len(observation))


def test_comment_preview_reply_edit_and_reaction(gitlab):
    path = "/byteblaze/dotfiles/-/issues/1"
    page = html(gitlab.post(f"{path}/notes", data={"note": "Looks **bold** to me", "tab": "preview"}))
    assert page.cssselect('[role="tablist"] [role="tab"][aria-selected="true"]')[0].text_content() == "Preview"
    assert texts(page, ".md-preview strong") == ["bold"] and page.cssselect('input[name="note"]')[0].get("value") == "Looks **bold** to me"
    assert "Looks **bold** to me" not in texts(html(gitlab.get(path)), ".note-body")  # previewing posts nothing
    gitlab.post(f"{path}/notes", data={"note": "First draft", "tab": "comment"})
    doc = html(gitlab.get(path))
    mine = doc.cssselect("#notes-list > li")[-1]
    note_id = mine.get("id").removeprefix("note_")
    quoted = html(gitlab.get(f"{path}?reply_to={note_id}")).cssselect('textarea[name="note"]')[0].text
    assert quoted.startswith("> First draft")
    assert mine.cssselect('a[aria-label="Edit comment"]')
    editor = html(gitlab.get(f"{path}?edit_note={note_id}")).cssselect("form.note-edit")[0]
    gitlab.post(editor.get("action"), data={"note": "Second draft"})
    reacted = gitlab.post(mine.cssselect(".award-menu form")[0].get("action"), data={"name": "tada"})
    assert reacted.status_code == 302
    last = html(gitlab.get(path)).cssselect("#notes-list > li")[-1]
    assert texts(last, ".timeline-discussion-body") == ["Second draft"] and texts(last, ".award.selected") == ["🎉 1"]


def test_sidebar_milestone_due_date_and_notifications_switch(gitlab):
    path = "/byteblaze/dotfiles/-/issues/1"
    menu = html(gitlab.get(f"{path}?edit=milestone"))
    first = menu.cssselect('#milestone-listbox button[role="option"][name="milestone_id"]')[1]
    gitlab.post(f"{path}/edit", data={"milestone_id": first.get("value")})
    gitlab.post(f"{path}/edit", data={"due_date": "2030-1-3"})
    doc = html(gitlab.get(path))
    assert texts(doc, ".milestone-title") == [first.text_content()]
    assert texts(doc, '[data-testid="sidebar-due-date"]') == ["Jan 3, 2030"]
    assert "changed due date to January 3, 2030" in texts(doc, ".note.system .note-body")
    assert html(gitlab.get(f"{path}?edit=due_date")).cssselect('input[type="date"][name="due_date"]')[0].get("value") == "2030-01-03"
    switch = doc.cssselect('button[role="switch"]')[0]
    gitlab.post(doc.cssselect(".subscription form")[0].get("action"), data={"subscribed": "0" if switch.get("aria-checked") == "true" else "1"})
    assert html(gitlab.get(path)).cssselect('button[role="switch"]')[0].get("aria-checked") != switch.get("aria-checked")


def test_invite_dialog_takes_several_people_by_name(gitlab):
    members = "/byteblaze/dotfiles/-/project_members"
    assert not html(gitlab.get(members)).cssselect('[role="dialog"]')
    dialog = html(gitlab.get(f"{members}?modal=invite")).cssselect('[role="dialog"]')
    assert dialog and dialog[0].cssselect('input[type="date"]')
    outsiders = [u for u in ("yjlou", "koush", "patou") if not html(gitlab.get(members)).cssselect(f'tr[data-username="{u}"]')][:2]
    full_name = texts(html(gitlab.get(f"/{outsiders[1]}")), "h1.user-name")[0]
    gitlab.post(members, data={"username": f"{outsiders[0]} and {full_name}", "access_level": "20"})
    doc = html(gitlab.get(members))
    for username in outsiders:
        assert texts(doc, f'tr[data-username="{username}"] td.col-max-role span') == ["Reporter"]
        assert f"@{username}" in texts(doc, "td[data-label='Account'] span.gl-avatar-labeled-sublabel")


def test_branches_and_a_new_merge_request_with_a_reviewer(gitlab):
    branches = html(gitlab.get(f"{A11Y}/-/branches"))
    start = branches.cssselect('a[aria-label^="Create merge request from"]')[0].get("href")
    form = html(gitlab.get(start))
    source = form.cssselect('#mr_source_branch option[selected]')[0].get("value")
    reviewer = form.cssselect("#mr_reviewer option")[1]
    created = gitlab.post(f"{A11Y}/-/merge_requests/new", data={
        "source_branch": source, "target_branch": "main", "title": "Redesign", "reviewer_username": reviewer.get("value")})
    doc = html(gitlab.get(created.headers["Location"]))
    assert texts(doc, ".detail-page-description > a.gl-font-monospace") == [source, "main"]
    assert reviewer.text_content().split(" (@")[0] in texts(doc, ".block.reviewer")[0]
    same = gitlab.post(f"{A11Y}/-/merge_requests/new", data={"source_branch": "main", "target_branch": "main", "title": "x"})
    assert "must differ" in same.get_data(as_text=True)


def test_project_from_a_template_records_its_first_commit(gitlab):
    assert html(gitlab.get("/projects/new?tab=template")).cssselect('input[name="template"][value="Android"]')
    gitlab.post("/projects/new", data={"name": "droid", "visibility": "private", "template": "Android"})
    assert "Initialized from 'Android' project template" in gitlab.get("/byteblaze/droid/-/commits").get_data(as_text=True)
    assert html(gitlab.get("/byteblaze/droid")).cssselect(".visibility-icon")[0].get("title") == "Private"


def test_dashboard_issues_search_and_sort_by_update(gitlab):
    base = "/dashboard/issues?author_username=byteblaze&state=all"
    titles = texts(html(gitlab.get(f"{base}&search=the")), ".issues-list li > a")
    assert titles and all("the" in t.lower() for t in titles)
    updated = html(gitlab.get(f"{base}&sort=updated_desc")).cssselect(".issues-list li .muted")
    days = [re.search(r"updated (\w{3} \d+, \d{4})", li.text_content()).group(1) for li in updated]
    from datetime import datetime
    stamps = [datetime.strptime(day, "%b %d, %Y") for day in days]
    assert stamps == sorted(stamps, reverse=True)


def test_profile_form_has_gitlab_fields(gitlab):
    doc = html(gitlab.get("/-/profile"))
    fields = doc.cssselect("form input:not([type=hidden]), form select, form textarea")
    assert len([f for f in fields if f.get("name") not in (None, "search")]) >= 14
    form = {f.get("name"): f.get("value") or "" for f in doc.cssselect("form input[name]") if f.get("type") != "checkbox"}
    form.update({"name": "Byte Blaze", "job_title": "Staff engineer", "organization": "A11y Project", "pronouns": "they/them"})
    assert gitlab.post("/-/profile", data=form).status_code == 302
    profile = html(gitlab.get("/byteblaze"))
    assert texts(profile, ".job") == ["Staff engineer at A11y Project"] and texts(profile, ".pronouns") == ["(they/them)"]


def test_repository_files_tree_new_file_in_a_folder_raw_and_edit(gitlab, anonymous):
    tree = html(gitlab.get("/byteblaze/dotfiles/-/tree/main"))
    assert "README.md" in texts(tree, ".tree-file") and "docs/" in texts(tree, ".tree-folder")
    readme = anonymous.get("/byteblaze/dotfiles/-/raw/main/README.md").get_data(as_text=True)
    assert readme.startswith("# dotfiles")
    created = gitlab.post("/byteblaze/dotfiles/-/new/main", data={"file_name": "car/urls.txt", "content": "https://a.example"})
    assert created.headers["Location"].endswith("/-/blob/main/car/urls.txt")
    assert "car/" in texts(html(gitlab.get("/byteblaze/dotfiles/-/tree/main")), ".tree-folder")
    assert gitlab.get("/byteblaze/dotfiles/-/raw/main/car/urls.txt").get_data(as_text=True) == "https://a.example"
    assert "Add new file car/urls.txt" in texts(html(gitlab.get("/byteblaze/dotfiles/-/commits")), ".commit-title")
    again = gitlab.post("/byteblaze/dotfiles/-/new/main", data={"file_name": "car/urls.txt", "content": "x"})
    assert "already exists" in again.get_data(as_text=True)
    gitlab.post("/byteblaze/dotfiles/-/edit/main/README.md", data={"content": "# dotfiles\n\nNow with **zsh**."})
    assert texts(html(gitlab.get("/byteblaze/dotfiles")), ".readme p") == ["Now with **zsh**."]
    assert texts(html(gitlab.get("/byteblaze/dotfiles/-/blob/main/README.md")), ".file-content strong") == ["zsh"]
    assert site_forbids(anonymous, "/byteblaze/dotfiles/-/new/main")


def site_forbids(client, path: str) -> bool:
    """Writing needs a session: anonymous visitors are sent to sign in."""
    return client.post(path, data={"file_name": "x.txt"}).status_code == 302


# --- browser -------------------------------------------------------------------------


@pytest.mark.browser
def test_browser_opens_a_project_and_files_an_issue(browser_page, site_server):
    page, _world = browser_page("gitlab", USER)
    page.goto(site_server.base_urls["gitlab"] + "/dashboard/projects")
    page.get_by_role("link", name="byteblaze / dotfiles").click()
    page.get_by_role("link", name=re.compile(r"^Issues \d+$")).click()
    page.get_by_role("link", name="New issue").click()
    page.get_by_label("Title").fill("Filed from a real browser")
    page.get_by_role("button", name="Create issue").click()
    page.wait_for_url(re.compile(r".*/byteblaze/dotfiles/-/issues/\d+$"))
    assert page.locator("h1.title").inner_text() == "Filed from a real browser"
