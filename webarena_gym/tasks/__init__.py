"""Tasks in WebArena's JSON schema: the Task type, official loaders, the embedded suite."""

from __future__ import annotations
