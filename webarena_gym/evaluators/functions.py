"""Registry of the ``func:`` helpers that WebArena task data names in program_html.

Task data says things like ``func:shopping_get_latest_order_url()`` (a URL to open) or
``func:gitlab_get_project_memeber_role(__page__, 'byteblaze')`` (a locator). We never
``eval`` them: the expression is parsed with :mod:`ast`, the helper is looked up by
name here, and its arguments must be string literals or the placeholders ``__page__``
(the page being evaluated) and ``'__last_url__'`` (the URL the episode ended on).

Every helper takes the :class:`EvaluationPage` as its first argument, whether or not
the expression names ``__page__``. WebArena's own helpers (:mod:`.official_functions`)
are registered when :mod:`webarena_gym.evaluators` loads. The embedded sites export theirs
as data (``FUNCTIONS`` in ``webarena_gym/sites/<name>/families``), and the embedded suite
registers them with :func:`register_functions` when it loads
(:func:`webarena_gym.suites.embedded.all_families`): importing a site registers nothing.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping
from typing import Any

from ..backends.page import EvaluationPage
from ..errors import TaskDataError

Helper = Callable[..., str]
_HELPERS: dict[str, Helper] = {}


def register_function(name: str) -> Callable[[Helper], Helper]:
    """Decorator: make a helper callable from task data as ``func:name(...)``.

    >>> @register_function("example_echo")
    ... def echo(page, text):
    ...     return text
    >>> call_function("func:example_echo('hi')", page=None)
    'hi'
    """

    def decorator(fn: Helper) -> Helper:
        if name in _HELPERS and _HELPERS[name] is not fn:
            raise ValueError(f"func helper {name!r} is registered twice")
        _HELPERS[name] = fn
        return fn

    return decorator


def register_functions(helpers: Mapping[str, Helper]) -> None:
    """Make each helper of ``helpers`` callable from task data as ``func:<its name>(...)``.

    Registering the same helper again is a no-op; another helper under a taken name raises.

    >>> register_functions({"example_upper": lambda page, text: text.upper()})
    >>> call_function("func:example_upper('hi')", page=None)
    'HI'
    """
    for name, fn in helpers.items():
        register_function(name)(fn)


def registered_functions() -> list[str]:
    """The names of the helpers registered so far."""
    return sorted(_HELPERS)


def parse_function(expression: str) -> tuple[str, list[Any]]:
    """Split ``func:name('a', __page__)`` into the name and its arguments.

    ``__page__`` becomes the :data:`PAGE` marker; other arguments must be literals.
    """
    source = expression.strip()
    if source.startswith("func:"):
        source = source[len("func:") :]
    try:
        call = ast.parse(source, mode="eval").body
    except SyntaxError as exc:
        raise TaskDataError(f"Malformed func: expression {expression!r}: {exc.msg}") from exc
    if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Name) or call.keywords:
        raise TaskDataError(f"A func: expression must be a plain call like name('arg'); got {expression!r}")
    args: list[Any] = []
    for node in call.args:
        if isinstance(node, ast.Name) and node.id == "__page__":
            args.append(PAGE)
        elif isinstance(node, ast.Constant):
            args.append(node.value)
        else:
            raise TaskDataError(f"Unsupported argument {ast.unparse(node)!r} in {expression!r}")
    return call.func.id, args


PAGE = object()  # marker for the __page__ argument


def call_function(expression: str, page: EvaluationPage | None, *, last_url: str | None = None) -> str:
    """Evaluate a ``func:`` expression against a page."""
    name, args = parse_function(expression)
    helper = _HELPERS.get(name)
    if helper is None:
        raise TaskDataError(
            f"Unknown func: helper {name!r}; registered: {sorted(_HELPERS)}. The embedded sites' helpers are "
            "registered when the embedded suite loads (an env with suite='embedded', or "
            "webarena_gym.suites.embedded.all_families())."
        )
    current = last_url if last_url is not None else (page.url if page is not None else "")
    values = [a.replace("__last_url__", current) if isinstance(a, str) else a for a in args if a is not PAGE]
    return str(helper(page, *values))
