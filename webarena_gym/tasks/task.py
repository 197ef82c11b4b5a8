"""The one task type, in WebArena's JSON schema.

A :class:`Task` is an immutable, validated view of one WebArena task dict (the schema
of ``test.raw.json`` in WebArena and WebArena-Lite). ``Task.from_dict`` checks it and
normalises the known data quirks; ``to_dict`` gives the JSON back; ``resolve`` replaces
the site placeholders (``__SHOPPING__``, ``__GITLAB__``, ...) with base URLs.

Data quirks, decided by looking at the official files:

- Lite task 81 has ``must_include`` as a bare string: it becomes a one-item list.
- ``fuzzy_match`` may be the bare string ``"N/A"`` (an unachievable task); it is kept
  as is, since the evaluators treat ``"N/A"`` and ``["N/A"]`` alike.
- Two store-admin references read ``__SHOPPING_ADMIN__/admin/system_design_theme/...``.
  With the admin base URL ending in ``/admin`` that gives ``/admin/admin/...``, which is
  Magento's real URL for the theme editor (its admin routes live under the ``admin``
  front name), not a duplicate: it is kept. No other official URL repeats the base path.
- One Lite task (141) starts on its own reference URL; that is the data, kept as is.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..errors import ConfigurationError, TaskDataError
from ..webarena_sites import PLACEHOLDERS

_PLACEHOLDER_RE = re.compile(
    "|".join(re.escape(p) for p in sorted(PLACEHOLDERS.values(), key=len, reverse=True))
)

#: "webarena_verified": scored by the webarena-verified package (webarena_gym.suites.verified), not by evaluators.
EVAL_TYPES = ("string_match", "url_match", "program_html", "webarena_verified")
#: Separates the alternatives inside one reference (a must_include item, a reference URL).
OR_SEPARATOR = " |OR| "
URL_NOTES = ("EXACT", "GOLD in PRED")
_ANSWER_KINDS = ("exact_match", "must_include", "fuzzy_match")


def any_of(*alternatives: str) -> str:
    """One reference that any of ``alternatives`` satisfies (duplicates dropped, order kept).

    >>> any_of("1,234.56", "1234.56"), any_of("27.49", "27.49")
    ('1,234.56 |OR| 1234.56', '27.49')
    """
    return OR_SEPARATOR.join(dict.fromkeys(alternatives))


def alternatives_of(reference: str) -> list[str]:
    """The alternatives of one reference (itself when it has none).

    >>> alternatives_of("a |OR| b")
    ['a', 'b']
    """
    return reference.split(OR_SEPARATOR)


class _Context:
    """Where we are in a task dict, so every error names the task and the field."""

    def __init__(self, task_id: Any):
        self.task_id = task_id

    def fail(self, where: str, message: str) -> TaskDataError:
        return TaskDataError(f"Task {self.task_id!r}, field {where}: {message}")

    def string(self, value: Any, where: str, *, optional: bool = False) -> str | None:
        if value is None and optional:
            return None
        if not isinstance(value, str):
            raise self.fail(where, f"expected a string, got {type(value).__name__} {value!r}")
        return value

    def strings(self, value: Any, where: str) -> tuple[str, ...]:
        if isinstance(value, str):  # the bare-string quirk (Lite task 81)
            return (value,)
        if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
            raise self.fail(where, f"expected a list of strings, got {value!r}")
        return tuple(value)


@dataclass(frozen=True)
class ReferenceAnswers:
    """What a ``string_match`` (or a program_html target) compares the answer with.

    Attributes:
        exact_match: The whole answer must equal this (after cleaning).
        must_include: Every item must be found; an item may hold ``" |OR| "`` alternatives.
        fuzzy_match: Parts judged by the fuzzy rule (or an LLM judge); the string ``"N/A"``
            marks an unachievable task.
        must_include_is_string: The data gave ``must_include`` as a bare string (Lite task
            81), read here as a one-item list; VisualAgentBench's evaluator raises on it.
    """

    exact_match: str | None = None
    must_include: tuple[str, ...] | None = None
    fuzzy_match: tuple[str, ...] | str | None = None
    must_include_is_string: bool = False

    @property
    def unachievable(self) -> bool:
        """Whether the reference says the task cannot be done ("N/A" in any kind)."""
        parts = [self.exact_match or "", *(self.must_include or ())]
        parts += [self.fuzzy_match] if isinstance(self.fuzzy_match, str) else list(self.fuzzy_match or ())
        return any(p.strip().upper() == "N/A" for p in parts)

    @classmethod
    def from_dict(cls, data: Any, ctx: _Context, where: str) -> ReferenceAnswers:
        if not isinstance(data, Mapping) or not data:
            raise ctx.fail(
                where, f"expected a non-empty object with {' | '.join(_ANSWER_KINDS)}, got {data!r}"
            )
        unknown = sorted(set(data) - set(_ANSWER_KINDS))
        if unknown:
            raise ctx.fail(where, f"unsupported kind(s) {unknown}; expected {list(_ANSWER_KINDS)}")
        fuzzy = data.get("fuzzy_match")
        if fuzzy is not None and not (isinstance(fuzzy, str) and fuzzy.strip().upper() == "N/A"):
            if isinstance(fuzzy, str):
                raise ctx.fail(f"{where}.fuzzy_match", f'expected a list of strings or "N/A", got {fuzzy!r}')
            fuzzy = ctx.strings(fuzzy, f"{where}.fuzzy_match")
        return cls(
            exact_match=ctx.string(data.get("exact_match"), f"{where}.exact_match", optional=True),
            must_include=(
                ctx.strings(data["must_include"], f"{where}.must_include")
                if data.get("must_include") is not None
                else None
            ),
            fuzzy_match=fuzzy,
            must_include_is_string=isinstance(data.get("must_include"), str),
        )

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.exact_match is not None:
            out["exact_match"] = self.exact_match
        if self.must_include is not None:
            out["must_include"] = self.must_include[0] if self.must_include_is_string else list(self.must_include)
        if self.fuzzy_match is not None:
            out["fuzzy_match"] = (
                self.fuzzy_match if isinstance(self.fuzzy_match, str) else list(self.fuzzy_match)
            )
        return out


@dataclass(frozen=True)
class ProgramHtmlTarget:
    """One program_html check: open ``url``, read ``locator``, compare with ``required_contents``.

    Attributes:
        url: ``"last"`` (the page the episode ended on), a literal URL, or ``"func:..."``.
        locator: ``""`` (the page's HTML), a JavaScript expression, or ``"func:..."``.
        required_contents: What the located text must match.
        prep_actions: JavaScript statements run before the locator (a few official tasks
            expand a collapsed panel first); ignored where no JavaScript runs.
    """

    url: str
    locator: str
    required_contents: ReferenceAnswers
    prep_actions: tuple[str, ...] = ()

    @classmethod
    def from_dict(cls, data: Any, ctx: _Context, where: str) -> ProgramHtmlTarget:
        if not isinstance(data, Mapping):
            raise ctx.fail(where, f"expected an object with url, locator, required_contents, got {data!r}")
        for key in ("url", "locator", "required_contents"):
            if key not in data:
                raise ctx.fail(f"{where}.{key}", "is missing")
        return cls(
            url=ctx.string(data["url"], f"{where}.url"),
            locator=ctx.string(data["locator"], f"{where}.locator"),
            required_contents=ReferenceAnswers.from_dict(
                data["required_contents"], ctx, f"{where}.required_contents"
            ),
            prep_actions=ctx.strings(data.get("prep_actions") or [], f"{where}.prep_actions"),
        )

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "url": self.url,
            "locator": self.locator,
            "required_contents": self.required_contents.to_dict(),
        }
        if self.prep_actions:
            out["prep_actions"] = list(self.prep_actions)
        return out


@dataclass(frozen=True)
class Evaluation:
    """The ``eval`` block of a task: which evaluators run and what they compare with."""

    eval_types: tuple[str, ...]
    reference_answers: ReferenceAnswers | None = None
    reference_url: str | None = None
    url_note: str | None = None
    program_html: tuple[ProgramHtmlTarget, ...] = ()
    string_note: str | None = None
    reference_answer_raw_annotation: str | None = None
    extra: Mapping[str, Any] = field(default_factory=dict, hash=False)

    @classmethod
    def from_dict(cls, data: Any, ctx: _Context) -> Evaluation:
        if not isinstance(data, Mapping):
            raise ctx.fail("eval", f"expected an object, got {data!r}")
        types = ctx.strings(data.get("eval_types"), "eval.eval_types") if "eval_types" in data else ()
        if not types:
            raise ctx.fail("eval.eval_types", f"expected a non-empty list drawn from {list(EVAL_TYPES)}")
        for name in types:
            if name not in EVAL_TYPES:
                raise ctx.fail(
                    "eval.eval_types", f"unknown evaluator {name!r}; expected one of {list(EVAL_TYPES)}"
                )
        answers = data.get("reference_answers")
        reference_answers = (
            ReferenceAnswers.from_dict(answers, ctx, "eval.reference_answers")
            if answers is not None
            else None
        )
        if "string_match" in types and reference_answers is None:
            raise ctx.fail("eval.reference_answers", "string_match needs reference answers")
        reference_url = ctx.string(data.get("reference_url"), "eval.reference_url", optional=True)
        if "url_match" in types and not (reference_url or "").strip():
            raise ctx.fail("eval.reference_url", "url_match needs a reference URL")
        url_note = ctx.string(data.get("url_note"), "eval.url_note", optional=True)
        if url_note is not None and url_note not in URL_NOTES:
            raise ctx.fail("eval.url_note", f"expected one of {list(URL_NOTES)}, got {url_note!r}")
        targets = data.get("program_html") or []
        if not isinstance(targets, list):
            raise ctx.fail("eval.program_html", f"expected a list, got {targets!r}")
        program_html = tuple(
            ProgramHtmlTarget.from_dict(t, ctx, f"eval.program_html[{i}]") for i, t in enumerate(targets)
        )
        if "program_html" in types and not program_html:
            raise ctx.fail("eval.program_html", "program_html is an eval type but has no targets")
        known = {
            "eval_types",
            "reference_answers",
            "reference_url",
            "url_note",
            "program_html",
            "string_note",
            "reference_answer_raw_annotation",
        }
        return cls(
            eval_types=types,
            reference_answers=reference_answers,
            reference_url=reference_url,
            url_note=url_note,
            program_html=program_html,
            string_note=ctx.string(data.get("string_note"), "eval.string_note", optional=True),
            reference_answer_raw_annotation=ctx.string(
                data.get("reference_answer_raw_annotation"),
                "eval.reference_answer_raw_annotation",
                optional=True,
            ),
            extra={k: v for k, v in data.items() if k not in known},
        )

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "eval_types": list(self.eval_types),
            "reference_answers": self.reference_answers.to_dict() if self.reference_answers else None,
            "reference_url": self.reference_url,
            "program_html": [t.to_dict() for t in self.program_html],
        }
        for key in ("url_note", "string_note", "reference_answer_raw_annotation"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        out.update(self.extra)
        return out


@dataclass(frozen=True)
class Task:
    """One WebArena task (official or embedded), validated and immutable.

    Attributes mirror WebArena's JSON keys. ``old_task_id`` is WebArena-Lite's pointer to
    the original WebArena task (``None`` elsewhere); ``extra`` keeps unknown top-level keys
    so ``to_dict`` gives them back.

    >>> task = Task.from_dict({
    ...     "task_id": 7, "sites": ["gitlab"], "start_url": "__GITLAB__/explore",
    ...     "intent": "Who owns the repo?", "require_login": True,
    ...     "eval": {"eval_types": ["string_match"], "reference_answers": {"must_include": "byteblaze"}},
    ... })
    >>> task.eval.reference_answers.must_include
    ('byteblaze',)
    >>> task.resolve({"gitlab": "http://127.0.0.1:8023/"}).start_url
    'http://127.0.0.1:8023/explore'
    >>> Task.from_dict(task.to_dict()) == task
    True
    """

    task_id: int | str
    sites: tuple[str, ...]
    intent: str
    start_url: str
    eval: Evaluation
    require_login: bool = False
    storage_state: str | None = None
    geolocation: Any = field(default=None, hash=False)
    intent_template: str = ""
    instantiation_dict: Mapping[str, Any] = field(default_factory=dict, hash=False)
    intent_template_id: int | None = None
    require_reset: bool | None = None
    old_task_id: int | None = None
    extra: Mapping[str, Any] = field(default_factory=dict, hash=False)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Task:
        """Validate a WebArena task dict; raises :class:`TaskDataError` naming the task and field."""
        if not isinstance(data, Mapping):
            raise TaskDataError(f"A task must be a JSON object, got {type(data).__name__}: {data!r:.200}")
        task_id = data.get("task_id")
        ctx = _Context(task_id)
        if not isinstance(task_id, (int, str)) or isinstance(task_id, bool):
            raise ctx.fail("task_id", f"expected an integer or a string, got {task_id!r}")
        for key in ("sites", "intent", "start_url", "eval"):
            if key not in data:
                raise ctx.fail(key, "is missing")
        sites = ctx.strings(data["sites"], "sites")
        if not sites:
            raise ctx.fail("sites", "expected at least one site")
        template_id = data.get("intent_template_id")
        if template_id is not None and (not isinstance(template_id, int) or isinstance(template_id, bool)):
            raise ctx.fail("intent_template_id", f"expected an integer, got {template_id!r}")
        old_id = data.get("old_task_id")
        if old_id is not None and (not isinstance(old_id, int) or isinstance(old_id, bool)):
            raise ctx.fail("old_task_id", f"expected an integer, got {old_id!r}")
        instantiation = data.get("instantiation_dict") or {}
        if not isinstance(instantiation, Mapping):
            raise ctx.fail("instantiation_dict", f"expected an object, got {instantiation!r}")
        for key in ("require_login", "require_reset"):
            if data.get(key) is not None and not isinstance(data[key], bool):
                raise ctx.fail(key, f"expected true or false, got {data[key]!r}")
        known = {f for f in cls.__dataclass_fields__ if f != "extra"}
        return cls(
            task_id=task_id,
            sites=sites,
            intent=ctx.string(data["intent"], "intent"),
            start_url=ctx.string(data["start_url"], "start_url"),
            eval=Evaluation.from_dict(data["eval"], ctx),
            require_login=bool(data.get("require_login", False)),
            storage_state=ctx.string(data.get("storage_state"), "storage_state", optional=True),
            geolocation=data.get("geolocation"),
            intent_template=ctx.string(data.get("intent_template", ""), "intent_template"),
            instantiation_dict=dict(instantiation),
            intent_template_id=template_id,
            require_reset=data.get("require_reset"),
            old_task_id=old_id,
            extra={k: v for k, v in data.items() if k not in known},
        )

    def to_dict(self) -> dict[str, Any]:
        """The task as WebArena JSON (``Task.from_dict(t.to_dict()) == t``)."""
        out: dict[str, Any] = {
            "sites": list(self.sites),
            "task_id": self.task_id,
            "require_login": self.require_login,
            "storage_state": self.storage_state,
            "start_url": self.start_url,
            "geolocation": self.geolocation,
            "intent_template": self.intent_template,
            "instantiation_dict": dict(self.instantiation_dict),
            "intent": self.intent,
            "eval": self.eval.to_dict(),
            "intent_template_id": self.intent_template_id,
        }
        if self.require_reset is not None:
            out["require_reset"] = self.require_reset
        if self.old_task_id is not None:
            out["old_task_id"] = self.old_task_id
        out.update(self.extra)
        return out

    @property
    def webarena_id(self) -> int | str:
        """The id of this task in the original 812-task WebArena (Lite tasks point back to it)."""
        return self.old_task_id if self.old_task_id is not None else self.task_id

    def placeholders(self) -> set[str]:
        """The site placeholders still present anywhere in the task (empty once resolved)."""
        found: set[str] = set()
        _map_strings(self.to_dict(), lambda s: found.update(_PLACEHOLDER_RE.findall(s)) or s)
        return found

    def resolve(self, site_urls: Mapping[str, str]) -> Task:
        """A copy with ``__SITE__`` placeholders replaced by base URLs, in every string field.

        ``site_urls`` maps site names (``shopping``, ``shopping_admin``, ``reddit``, ``gitlab``,
        ``map``, ``wikipedia``, ``homepage``) to base URLs; one trailing ``/`` is dropped.
        Sites not given keep their placeholder (see :meth:`placeholders`).
        """
        replacements = _placeholder_map(site_urls)
        if not replacements:
            return self

        def substitute(text: str) -> str:
            return _PLACEHOLDER_RE.sub(lambda m: replacements.get(m.group(0), m.group(0)), text)

        return Task.from_dict(_map_strings(self.to_dict(), substitute))


def _placeholder_map(site_urls: Mapping[str, str]) -> dict[str, str]:
    """``{"__SHOPPING__": "http://..."}`` from ``{"shopping": "http://.../"}``; validates names."""
    out: dict[str, str] = {}
    for name, url in (site_urls or {}).items():
        key = name.lower()
        if key not in PLACEHOLDERS:
            raise ConfigurationError(
                f"Unknown site {name!r} in site_urls; expected some of {sorted(PLACEHOLDERS)}."
            )
        if not isinstance(url, str) or not url.strip().startswith(("http://", "https://")):
            raise ConfigurationError(f"site_urls[{name!r}] must be the site's http(s) base URL, got {url!r:.80}.")
        url = url.strip()
        out[PLACEHOLDERS[key]] = url[:-1] if url.endswith("/") else url
    return out


def _map_strings(value: Any, fn: Callable[[str], str]) -> Any:
    """Apply ``fn`` to every string inside nested dicts and lists (keys untouched)."""
    if isinstance(value, str):
        return fn(value)
    if isinstance(value, Mapping):
        return {k: _map_strings(v, fn) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_map_strings(v, fn) for v in value]
    return value
