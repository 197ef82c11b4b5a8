"""Task families of the embedded forum (WebArena's reddit / Postmill).

Every instance is computed from the seeded data; an instance is kept only when its
answer is unambiguous (a unique top post, a single comment by the named user, ...).
Oracles navigate from the front page the way a person would: Forums -> forum -> sort
tab -> post, reading answers off the page.
"""

from __future__ import annotations

from ...families import TaskFamily
from . import content, information

FAMILIES: list[TaskFamily] = information.FAMILIES + content.FAMILIES
