"""Run WebArena's program_html locators (JavaScript expressions) on saved HTML, without a browser.

Task data reads values off the final page with expressions such as
``document.querySelector('.submission__inner').outerText``. In a browser they run as
JavaScript; here a small interpreter covers the subset that WebArena's 812 tasks and
our embedded tasks use (every distinct locator form in the official data is supported):

- ``document.querySelector(css)``, ``.querySelectorAll(css)[i]``, ``getElementById``,
  ``getElementsByClassName`` / ``TagName``, ``document.body``; the same methods on
  elements; ``.children``, ``.firstElementChild``, ``.lastElementChild``, ``.firstChild``,
  ``.lastChild``, ``.parentElement``, sibling links;
- values: ``.outerText`` / ``.innerText`` (rendered like a browser, see :mod:`.text`),
  ``.textContent``, ``.value``, ``.selectedIndex``, ``.checked``, ``.getAttribute(name)``,
  ``.className``, ``.id``, ``.title``, ``.href``, ``.innerHTML``...;
- JavaScript glue: string literals, ``+``, ``||``, ``&&``, ``!``, ``===``, ``? :``, optional
  chaining ``?.``, ``[...list]``, ``Array.from``, arrow functions with ``.map`` /
  ``.filter`` / ``.find`` / ``.some``, ``.join``, ``.length``, ``.toString()``, ``.trim()``,
  ``.toLowerCase()``, ``.includes()``, ``.split()``, ``String(x)``.

A locator that fails as it would in a browser (``null.outerText``) gives ``""``. One outside
the subset also gives ``""`` and logs a warning that names it. A final ``null`` or
``undefined`` gives ``""`` (WebArena's harness would turn it into the string ``"None"``).
"""

from __future__ import annotations

import logging
import math
import re
from typing import Any

from lxml import html

from . import text as dom_text
from .locator_syntax import (
    UNDEFINED,
    Arrow,
    Document,
    LocatorRuntimeError,
    TextNode,
    UnsupportedLocatorError,
    parse_locator,
    select_css,
)

logger = logging.getLogger(__name__)

__all__ = ["evaluate_locator", "evaluate_locator_on_html", "parse_html", "to_js_string"]


def parse_html(text: str) -> Any:
    """Parse a page the way evaluators need it: always a full document with ``<html>`` at the root."""
    if not text or not text.strip():
        return html.document_fromstring("<html><body></body></html>")
    return html.document_fromstring(text)


def evaluate_locator_on_html(page_html: str, locator: str) -> str:
    """Evaluate a WebArena locator against saved HTML and return its value as text.

    ``""`` as the locator returns the HTML itself (WebArena's "whole page" locator).

    >>> page = '<div class="a"><p>Hi <b>there</b></p><input name="q" value="shoes"></div>'
    >>> evaluate_locator_on_html(page, "document.querySelector('.a').outerText")
    'Hi there'
    >>> evaluate_locator_on_html(page, "document.querySelector('[name=\\"q\\"').value")
    'shoes'
    >>> evaluate_locator_on_html(page, "document.querySelector('.missing').outerText")
    ''
    """
    if not locator.strip():
        return page_html
    return evaluate_locator(parse_html(page_html), locator)


def evaluate_locator(root: Any, locator: str) -> str:
    """Evaluate a locator against a parsed document (see :func:`parse_html`)."""
    try:
        value = _Interpreter(Document(root)).run(parse_locator(locator))
    except UnsupportedLocatorError as exc:
        logger.warning("Unsupported program_html locator %r (%s); it reads as ''.", locator, exc)
        return ""
    except (LocatorRuntimeError, IndexError, KeyError, TypeError, ValueError, RecursionError) as exc:
        logger.debug("Locator %r failed: %s", locator, exc)
        return ""
    return "" if value is None or value is UNDEFINED else to_js_string(value)


def to_js_string(value: Any) -> str:
    """``String(value)`` in JavaScript.

    >>> to_js_string(True), to_js_string(2.0), to_js_string([1, "a", None])
    ('true', '2', '1,a,')
    """
    if isinstance(value, str):
        return value
    if value is None:
        return "null"
    if value is UNDEFINED:
        return "undefined"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        if isinstance(value, float) and math.isfinite(value) and value == int(value):
            return str(int(value))
        return {math.inf: "Infinity", -math.inf: "-Infinity"}.get(
            value, "NaN" if value != value else str(value)
        )
    if isinstance(value, list):
        return ",".join("" if v is None or v is UNDEFINED else to_js_string(v) for v in value)
    if isinstance(value, TextNode):
        return "[object Text]"
    if isinstance(value, Document):
        return "[object HTMLDocument]"
    if dom_text.is_element(value):
        return f"[object HTML{value.tag.capitalize()}Element]"
    return str(value)


def _truthy(value: Any) -> bool:
    if value is None or value is UNDEFINED:
        return False
    if isinstance(value, float) and value != value:
        return False
    if isinstance(value, (bool, int, float, str)):
        return bool(value)
    return True


class _Interpreter:
    def __init__(self, document: Document):
        self.document = document
        self.scopes: list[dict[str, Any]] = [{"document": document}]

    def run(self, node: Any) -> Any:
        if isinstance(node, Arrow):
            return node
        kind = node[0]
        if kind == "const":
            return node[1]
        if kind == "name":
            for scope in reversed(self.scopes):
                if node[1] in scope:
                    return scope[node[1]]
            if node[1] in ("Array", "String", "Number", "parseInt", "parseFloat", "window"):
                return ("builtin", node[1])
            raise UnsupportedLocatorError(f"unknown name {node[1]!r}")
        if kind == "get":
            target = self.run(node[1])
            if node[3] and (target is None or target is UNDEFINED):
                return UNDEFINED
            return self.property(target, node[2])
        if kind == "index":
            target, key = self.run(node[1]), self.run(node[2])
            if isinstance(key, str):
                return self.property(target, key)
            if isinstance(target, (list, str)) and isinstance(key, (int, float)):
                i = int(key)
                return target[i] if 0 <= i < len(target) else UNDEFINED
            raise LocatorRuntimeError(f"cannot index {to_js_string(target)} with {key!r}")
        if kind == "call":
            return self.call(node[1], self.values(node[2]))
        if kind == "array":
            return self.values(node[1])
        if kind == "not":
            return not _truthy(self.run(node[1]))
        if kind == "if":
            return self.run(node[2]) if _truthy(self.run(node[1])) else self.run(node[3])
        if kind == "op":
            return self.operator(node[1], node[2], node[3])
        raise UnsupportedLocatorError(f"unsupported syntax {kind}")

    def operator(self, op: str, left_node: Any, right_node: Any) -> Any:
        left = self.run(left_node)
        if op == "||":
            return left if _truthy(left) else self.run(right_node)
        if op == "&&":
            return self.run(right_node) if _truthy(left) else left
        right = self.run(right_node)
        if op == "+":
            if (
                isinstance(left, (int, float))
                and isinstance(right, (int, float))
                and not isinstance(left, bool)
            ):
                return left + right
            return to_js_string(left) + to_js_string(right)
        same = left is right if not isinstance(left, (str, int, float)) else left == right
        if op in ("===", "=="):
            return same
        return not same

    def values(self, nodes: list[Any]) -> list[Any]:
        """Evaluate argument or array-item nodes in order, expanding ``...spread`` ones."""
        items: list[Any] = []
        for item in nodes:
            if not isinstance(item, Arrow) and item[0] == "spread":
                items.extend(self.iterable(self.run(item[1])))
            else:
                items.append(self.run(item))
        return items

    def iterable(self, value: Any) -> list[Any]:
        if isinstance(value, list):
            return value
        if isinstance(value, str):
            return list(value)
        raise LocatorRuntimeError(f"{to_js_string(value)} is not iterable")

    def apply(self, function: Any, *args: Any) -> Any:
        if not isinstance(function, Arrow):
            raise UnsupportedLocatorError("only arrow functions can be passed as callbacks")
        self.scopes.append(dict(zip(function.params, args, strict=False)))
        try:
            return self.run(function.body)
        finally:
            self.scopes.pop()

    def call(self, callee_node: Any, args: list[Any]) -> Any:
        if callee_node[0] != "get":
            function = self.run(callee_node)
            if function == ("builtin", "String"):
                return to_js_string(args[0]) if args else ""
            if function in (("builtin", "parseInt"), ("builtin", "parseFloat"), ("builtin", "Number")):
                return _to_number(args[0] if args else UNDEFINED, integer=function[1] == "parseInt")
            if isinstance(function, Arrow):
                return self.apply(function, *args)
            raise UnsupportedLocatorError(f"cannot call {function!r}")
        target = self.run(callee_node[1])
        name = callee_node[2]
        if callee_node[3] and (target is None or target is UNDEFINED):
            return UNDEFINED
        if target is None or target is UNDEFINED:
            raise LocatorRuntimeError(f"cannot call {name}() on {to_js_string(target)}")
        if target == ("builtin", "Array") and name == "from":
            items = self.iterable(args[0])
            return [self.apply(args[1], v, i) for i, v in enumerate(items)] if len(args) > 1 else list(items)
        if isinstance(target, Document) or dom_text.is_element(target):
            return self.element_method(target, name, args)
        if isinstance(target, list):
            return self.list_method(target, name, args)
        if isinstance(target, str):
            return _string_method(target, name, args)
        if name == "toString" and isinstance(target, (bool, int, float)):
            return to_js_string(target)
        raise UnsupportedLocatorError(f"method {name}() on {to_js_string(target)}")

    def element_method(self, target: Any, name: str, args: list[Any]) -> Any:
        argument = to_js_string(args[0]) if args else ""
        if name == "querySelector":
            found = select_css(target, argument)
            return found[0] if found else None
        if name == "querySelectorAll":
            return select_css(target, argument)
        if name == "getElementById":
            found = select_css(target, f'[id="{_css_string(argument)}"]')
            return found[0] if found else None
        if name == "getElementsByClassName":
            classes = "".join(f".{c}" for c in argument.split())
            return select_css(target, classes) if classes else []
        if name == "getElementsByTagName":
            return select_css(target, argument if argument != "*" else "*")
        if isinstance(target, Document):
            raise UnsupportedLocatorError(f"document.{name}()")
        if name == "getAttribute":
            return target.get(argument)
        if name == "hasAttribute":
            return target.get(argument) is not None
        if name in ("closest", "matches"):
            matching = set(map(id, select_css(self.document, argument)))
            if name == "matches":
                return id(target) in matching
            return next((n for n in [target, *target.iterancestors()] if id(n) in matching), None)
        if name == "toString":
            return to_js_string(target)
        if name in ("click", "focus", "blur", "scrollIntoView"):
            return UNDEFINED  # prep actions that expand panels: saved HTML already holds their content
        raise UnsupportedLocatorError(f"element method {name}()")

    def list_method(self, items: list[Any], name: str, args: list[Any]) -> Any:
        if name == "map":
            return [self.apply(args[0], v, i) for i, v in enumerate(items)]
        if name == "filter":
            return [v for i, v in enumerate(items) if _truthy(self.apply(args[0], v, i))]
        if name == "find":
            return next((v for i, v in enumerate(items) if _truthy(self.apply(args[0], v, i))), UNDEFINED)
        if name == "some":
            return any(_truthy(self.apply(args[0], v, i)) for i, v in enumerate(items))
        if name == "every":
            return all(_truthy(self.apply(args[0], v, i)) for i, v in enumerate(items))
        if name == "join":
            separator = to_js_string(args[0]) if args and args[0] is not UNDEFINED else ","
            return separator.join("" if v is None or v is UNDEFINED else to_js_string(v) for v in items)
        if name == "includes":
            return any(v is args[0] or (isinstance(v, (str, int, float)) and v == args[0]) for v in items)
        if name == "at":
            i = int(args[0])
            return items[i] if -len(items) <= i < len(items) else UNDEFINED
        if name == "slice":
            return items[slice(*(int(a) for a in args))]
        if name == "toString":
            return to_js_string(items)
        raise UnsupportedLocatorError(f"array method {name}()")

    def property(self, target: Any, name: str) -> Any:
        if target is None or target is UNDEFINED:
            raise LocatorRuntimeError(f"cannot read {name!r} of {to_js_string(target)}")
        if isinstance(target, Document):
            return dom_text.document_property(target, name)
        if isinstance(target, TextNode):
            if name in ("textContent", "nodeValue", "data", "wholeText"):
                return target.text
            if name == "parentElement" or name == "parentNode":
                return target.parent
            raise UnsupportedLocatorError(f"text node property {name}")
        if dom_text.is_element(target):
            return dom_text.element_property(target, name)
        if isinstance(target, (list, str)) and name == "length":
            return len(target)
        if isinstance(target, (str, list, bool, int, float)):
            return UNDEFINED  # e.g. a method name read as a value; calls go through call()
        raise UnsupportedLocatorError(f"property {name} of {to_js_string(target)}")


def _string_method(text: str, name: str, args: list[Any]) -> Any:
    first = to_js_string(args[0]) if args else ""
    simple = {
        "toLowerCase": lambda: text.lower(),
        "toUpperCase": lambda: text.upper(),
        "trim": lambda: text.strip(),
        "trimStart": lambda: text.lstrip(),
        "trimEnd": lambda: text.rstrip(),
        "toString": lambda: text,
        "includes": lambda: first in text,
        "startsWith": lambda: text.startswith(first),
        "endsWith": lambda: text.endswith(first),
        "indexOf": lambda: text.find(first),
        "split": lambda: text.split(first) if first else list(text),
        "replace": lambda: text.replace(first, to_js_string(args[1]), 1),
        "replaceAll": lambda: text.replace(first, to_js_string(args[1])),
        "substring": lambda: text[int(args[0]) : int(args[1]) if len(args) > 1 else None],
        "slice": lambda: text[int(args[0]) : int(args[1]) if len(args) > 1 else None],
    }
    if name in simple:
        return simple[name]()
    raise UnsupportedLocatorError(f"string method {name}()")


def _to_number(value: Any, *, integer: bool) -> float | int:
    match = re.match(r"\s*[-+]?\d+(\.\d+)?" if not integer else r"\s*[-+]?\d+", to_js_string(value))
    if not match:
        return math.nan
    return int(match.group()) if integer else float(match.group())


def _css_string(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')
