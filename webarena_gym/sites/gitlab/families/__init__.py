"""Task families of the embedded code host (WebArena's GitLab).

Every reference answer is computed from the seeded data; an instance is kept only when
its answer is unambiguous (a unique top contributor, a unique title, ...). Oracles
start from the dashboard like a person: the header search finds the project, the
project sidebar leads to commits, contributors, issues, merge requests and members,
and answers are read off the page.

Evaluators across the families follow WebArena-Lite's mix: string_match for the
information families (:mod:`.information`), url_match for navigation and program_html
for content changes (:mod:`.navigation_content`, which also defines the ``func:`` helpers in :data:`FUNCTIONS`).
"""

from __future__ import annotations

from collections.abc import Callable

from ....tasks.families import TaskFamily
from .activity import ACTIVITY_FAMILIES
from .content import CONTENT_FAMILIES
from .discussion import DISCUSSION_FAMILIES
from .information import INFORMATION_FAMILIES
from .issues import ISSUE_FAMILIES
from .navigation_content import ACTION_FAMILIES, member_role, newest_project_url


def _interleave(information: list[TaskFamily], actions: list[TaskFamily]) -> list[TaskFamily]:
    """Information, navigation and content families in turn.

    The test split draws round-robin over a site's families in list order, so the
    families that get a second test task are the first few: interleaving keeps the test
    split's evaluator mix near WebArena-Lite's (about 55% string, 20% url, 25% program).
    """
    navigation = [f for f in actions if f.kind == "navigation"]
    content = [f for f in actions if f.kind == "content"]
    order: list[TaskFamily] = []
    pattern = ("information", "navigation", "information", "content", "information")
    queues = {"information": list(information), "navigation": navigation, "content": content}
    while any(queues.values()):
        for kind in pattern:
            if queues[kind]:
                order.append(queues[kind].pop(0))
    return order


FAMILIES: list[TaskFamily] = _interleave(INFORMATION_FAMILIES + ACTIVITY_FAMILIES, ACTION_FAMILIES + ISSUE_FAMILIES + CONTENT_FAMILIES + DISCUSSION_FAMILIES)

#: The ``func:`` helpers this site's task data names, by name (the embedded suite registers them with the
#: evaluators when it loads).
FUNCTIONS: dict[str, Callable[..., str]] = {
    "gitlab_member_role": member_role,
    "gitlab_newest_project_url": newest_project_url,
}
