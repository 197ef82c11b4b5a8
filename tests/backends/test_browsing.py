"""Both backends browse the embedded sites the same way: links, forms, state, history, blocking."""

from __future__ import annotations


def test_get_form_search_and_history(driver):
    d = driver.reset(4)
    start = d.info["url"]
    d.do(d.ctx.search("Search", "mask"))
    assert "/catalogsearch/result/" in d.info["url"] and "q=mask" in d.info["url"]
    assert "mask" in d.ctx.text().lower()
    d.do(d.ctx.go_back())
    assert d.info["url"] == start
    d.do('do(action="Go Forward")')
    assert "q=mask" in d.info["url"]
    assert "go forward" in d.do('do(action="Go Forward")')["last_action_error"]


def test_select_then_submit_sorts_the_listing(driver):
    d = driver.reset(2)
    d.do(d.ctx.select("Sort By", "Price"))
    assert d.info["last_action_error"] == ""
    assert d.ctx.field("Sort By").text == "Price"  # the page shows the new choice before submitting
    d.do(d.ctx.click("Sort", tag="button"))
    assert "price" in d.info["url"].lower()
    bad = d.do(d.ctx.select("Sort By", "Sideways"))["last_action_error"]
    assert "no option 'Sideways'" in bad and "'Price'" in bad


def test_post_form_writes_to_this_env_world_only(driver):
    d = driver.reset(1)
    d.do(d.ctx.type("Title", "Parity check post"))
    d.do(d.ctx.type("Body", "Written by the backend tests."))
    d.do(d.ctx.select("Forum", "books"))
    d.do(d.ctx.click("Create submission", tag="button"))
    assert d.info["last_action_error"] == "" and "/f/books/" in d.info["url"]
    assert "Parity check post" in d.ctx.text() and "Written by the backend tests." in d.ctx.text()
    world = d.env.world
    assert world.is_dirty()
    d.reset(1)  # reset restores the pristine world
    assert not world.is_dirty()


def test_navigation_off_the_task_sites_is_blocked(driver):
    d = driver.reset(3)  # a reddit task that starts on the homepage
    homepage, page_text = d.info["url"], d.ctx.page.text
    d.do(d.ctx.click("One Stop Market"))
    assert "blocked" in d.info["last_action_error"] and "not one of this task's sites" in d.info["last_action_error"]
    assert d.info["url"] == homepage and d.ctx.page.text == page_text
    d.do('do(action="Wait")')  # no error page commits late, after the action has settled
    assert d.info["url"] == homepage and d.ctx.page.text == page_text
    forum = next(e for e in d.ctx.elements if "Postmill" in e.text or "Reddit" in e.text or "forum" in e.text.lower())
    d.do(d.ctx.click_element(forum))
    assert d.info["last_action_error"] == ""


def test_each_episode_blocks_the_sites_its_own_task_does_not_allow(driver):
    """One env (one browser context on Playwright) runs tasks allowing different sites in turn: each
    episode lets through exactly its own task's sites, whatever the episode before it allowed."""
    for task_id, allowed, blocked in ((3, "forum", "One Stop Market"), (5, "One Stop Market", "forum"),
                                      (3, "forum", "One Stop Market")):
        d = driver.reset(task_id)
        homepage = d.info["url"]
        link = next(e for e in d.ctx.elements if blocked.lower() in e.text.lower()
                    or (blocked == "forum" and ("Postmill" in e.text or "Reddit" in e.text)))
        d.do(d.ctx.click_element(link))
        assert "not one of this task's sites" in d.info["last_action_error"] and d.info["url"] == homepage
        link = next(e for e in d.ctx.elements if allowed.lower() in e.text.lower()
                    or (allowed == "forum" and ("Postmill" in e.text or "Reddit" in e.text)))
        d.do(d.ctx.click_element(link))
        assert d.info["last_action_error"] == "" and d.info["url"] != homepage


def test_press_enter_without_focus_and_typing_into_buttons_are_agent_errors(driver):
    d = driver.reset(4)
    button = d.ctx.find("Search", tag="button")
    assert "not a text field" in d.do(f'do(action="Type", element="{button.id}", argument="x")')["last_action_error"]
    d.do(d.ctx.type("Search", "tea"))
    d.do('do(action="Press Enter")')
    assert "q=tea" in d.info["url"]


def test_going_back_from_the_first_page_is_an_agent_error_and_stays_on_the_page(driver):
    d = driver.reset(3)
    start, page_text = d.info["url"], d.ctx.page.text
    assert d.do('do(action="Go Backward")')["last_action_error"] == "There is no page to go back to."
    assert d.info["url"] == start and d.ctx.page.text == page_text


def test_a_page_seen_before_is_read_from_the_observation_cache_but_typed_text_never_is(driver):
    d = driver.reset(4)
    first = d.env.page
    d.do(d.ctx.type("Search", "green tea"))
    assert 'value="green tea"' in d.ctx.page.text and 'value="green tea"' not in first.text
    d.reset(4)  # the next episode opens the page as served again: the same observation, not walked again
    assert d.env.page is first and 'value="green tea"' not in d.ctx.page.text
    assert isinstance(first.elements, tuple)  # shared between envs, so nobody may change it
