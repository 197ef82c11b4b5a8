"""Task families of the embedded forum (WebArena's reddit / Postmill).

Every instance is computed from the seeded data; an instance is kept only when its
answer is unambiguous (a unique top post, a single comment by the named user, ...).
Oracles navigate from the front page the way a person would: Forums -> forum -> sort
tab -> post, reading answers off the page.
"""

from __future__ import annotations

from collections.abc import Callable

from ....tasks.families import TaskFamily
from . import common, content, information, posting, voting

FAMILIES: list[TaskFamily] = information.FAMILIES + content.FAMILIES + voting.FAMILIES + posting.FAMILIES

#: The ``func:`` helpers this site's task data names, by name (the embedded suite registers them with the
#: evaluators when it loads).
FUNCTIONS: dict[str, Callable[..., str]] = {"reddit_newest_post_url": common.newest_post_url}
