"""Parsing for :mod:`.locators`: a tokenizer and recursive-descent parser for the JavaScript
subset of WebArena locators, and CSS selector compilation (lxml's cssselect).

The AST is nested tuples: ``("const", v)``, ``("name", n)``, ``("get", obj, prop, optional)``,
``("call", fn, args)``, ``("index", obj, key)``, ``("op", op, a, b)``, ``("not", a)``,
``("if", c, a, b)``, ``("array", items)``, ``("spread", a)``, and :class:`Arrow`. The
runtime values that are not Python ones live here too: :data:`UNDEFINED`, :class:`TextNode`,
:class:`Document`.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from cssselect import SelectorError
from lxml.cssselect import CSSSelector


class UnsupportedLocatorError(ValueError):
    """The locator uses JavaScript or DOM features outside the supported subset."""


class LocatorRuntimeError(ValueError):
    """The locator would throw in a browser too (e.g. reading a property of null)."""


class _Undefined:
    def __repr__(self) -> str:
        return "undefined"


UNDEFINED = _Undefined()


@dataclass(frozen=True)
class TextNode:
    """A DOM text node (lxml keeps text as strings on elements)."""

    text: str
    parent: Any


@dataclass(frozen=True)
class Document:
    """The ``document`` object: the parsed page."""

    root: Any


@dataclass(frozen=True)
class Arrow:
    """An arrow function ``(params) => body``; the body is evaluated lazily."""

    params: tuple[str, ...]
    body: Any


# ------------------------------------------------------------------------- parsing

_TOKEN_RE = re.compile(
    r"""\s*(?:
      (?P<string>'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"|`(?:[^`\\$]|\\.)*`)
     |(?P<number>\d+(?:\.\d+)?)
     |(?P<name>[A-Za-z_$][\w$]*)
     |(?P<punct>\.\.\.|\?\.|=>|\|\||&&|===|!==|==|!=|[.()\[\],+!?:;])
    )""",
    re.VERBOSE,
)
_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}
_ESCAPE_RE = re.compile(r"\\(?:u([0-9a-fA-F]{4})|x([0-9a-fA-F]{2})|(.))", re.DOTALL)


def _unescape(match: re.Match[str]) -> str:
    code = match.group(1) or match.group(2)
    if code:
        return chr(int(code, 16))
    return _ESCAPES.get(match.group(3), match.group(3))


def _tokenize(source: str) -> list[tuple[str, str]]:
    tokens: list[tuple[str, str]] = []
    position = 0
    source = source.rstrip().rstrip(";")
    while position < len(source):
        if source[position:].strip() == "":
            break
        match = _TOKEN_RE.match(source, position)
        if not match:
            raise UnsupportedLocatorError(f"unexpected text {source[position : position + 20]!r}")
        kind = match.lastgroup or "punct"
        value = match.group(kind)
        if kind == "string":
            value = _ESCAPE_RE.sub(_unescape, value[1:-1])
        tokens.append((kind, value))
        position = match.end()
    return tokens


class _Parser:
    """Recursive descent over the token list, producing nested tuples (the AST)."""

    def __init__(self, source: str):
        self.tokens = _tokenize(source)
        self.index = 0

    def peek(self, offset: int = 0) -> tuple[str, str]:
        i = self.index + offset
        return self.tokens[i] if i < len(self.tokens) else ("end", "")

    def take(self, value: str | None = None) -> tuple[str, str]:
        token = self.peek()
        if value is not None and token[1] != value:
            raise UnsupportedLocatorError(f"expected {value!r}, found {token[1] or 'the end'!r}")
        self.index += 1
        return token

    def accept(self, value: str) -> bool:
        if self.peek() == ("punct", value):
            self.index += 1
            return True
        return False

    def parse(self) -> Any:
        node = self.expression()
        if self.peek()[0] != "end":
            raise UnsupportedLocatorError(f"unexpected {self.peek()[1]!r}")
        return node

    def expression(self) -> Any:
        condition = self.binary(0)
        if self.accept("?"):
            yes = self.expression()
            self.take(":")
            return ("if", condition, yes, self.expression())
        return condition

    _LEVELS = (("||",), ("&&",), ("===", "!==", "==", "!="), ("+",))

    def binary(self, level: int) -> Any:
        if level == len(self._LEVELS):
            return self.unary()
        node = self.binary(level + 1)
        while self.peek()[0] == "punct" and self.peek()[1] in self._LEVELS[level]:
            operator = self.take()[1]
            node = ("op", operator, node, self.binary(level + 1))
        return node

    def unary(self) -> Any:
        if self.accept("!"):
            return ("not", self.unary())
        return self.postfix(self.primary())

    def postfix(self, node: Any) -> Any:
        while True:
            if self.accept("."):
                node = ("get", node, self.take()[1], False)
            elif self.accept("?."):
                node = ("get", node, self.take()[1], True)
            elif self.accept("("):
                node = ("call", node, self.arguments(")"))
            elif self.accept("["):
                key = self.expression()
                self.take("]")
                node = ("index", node, key)
            else:
                return node

    def arguments(self, closer: str) -> list[Any]:
        args: list[Any] = []
        while not self.accept(closer):
            if args:
                self.take(",")
            if self.accept("..."):
                args.append(("spread", self.expression()))
            else:
                args.append(self.expression())
        return args

    def primary(self) -> Any:
        kind, value = self.peek()
        if kind == "name" and self.peek(1) == ("punct", "=>"):
            self.index += 2
            return Arrow((value,), self.expression())
        if (kind, value) == ("punct", "(") and self._arrow_ahead():
            self.take("(")
            params = []
            while not self.accept(")"):
                if params:
                    self.take(",")
                params.append(self.take()[1])
            self.take("=>")
            return Arrow(tuple(params), self.expression())
        self.index += 1
        if kind == "string":
            return ("const", value)
        if kind == "number":
            return ("const", float(value) if "." in value else int(value))
        if kind == "name":
            constants = {"true": True, "false": False, "null": None, "undefined": UNDEFINED}
            return ("const", constants[value]) if value in constants else ("name", value)
        if value == "(":
            node = self.expression()
            self.take(")")
            return node
        if value == "[":
            return ("array", self.arguments("]"))
        raise UnsupportedLocatorError(f"unexpected {value or 'end of locator'!r}")

    def _arrow_ahead(self) -> bool:
        depth = 0
        for offset in range(len(self.tokens) - self.index):
            token = self.peek(offset)
            if token == ("punct", "("):
                depth += 1
            elif token == ("punct", ")"):
                depth -= 1
                if depth == 0:
                    return self.peek(offset + 1) == ("punct", "=>")
        return False


@lru_cache(maxsize=512)
def parse_locator(locator: str) -> Any:
    """The AST of a locator (cached: task data repeats the same few dozen locators)."""
    return _Parser(locator).parse()


# ------------------------------------------------------------------------- CSS


def close_selector(selector: str) -> str:
    """Close quotes, brackets and parentheses left open at the end, as CSS parsing does.

    >>> close_selector('[name="product[price]"')
    '[name="product[price]"]'
    """
    stack: list[str] = []
    quote = ""
    escaped = False
    for char in selector:
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif quote:
            if char == quote:
                quote = ""
        elif char in "\"'":
            quote = char
        elif char in "[(":
            stack.append("]" if char == "[" else ")")
        elif stack and char == stack[-1]:
            stack.pop()
    return selector + quote + "".join(reversed(stack))


_compiled = threading.local()  # lxml XPath evaluators are safest kept per thread


def _compile(selector: str) -> CSSSelector:
    cache: dict[str, CSSSelector] | None = getattr(_compiled, "selectors", None)
    if cache is None:
        cache = _compiled.selectors = {}
    matcher = cache.get(selector)
    if matcher is None:
        try:
            matcher = CSSSelector(close_selector(selector), translator="html")
        except SelectorError as exc:
            raise UnsupportedLocatorError(f"CSS selector {selector!r}: {exc}") from exc
        if len(cache) > 1024:
            cache.clear()
        cache[selector] = matcher
    return matcher


def select_css(scope: Any, selector: str) -> list[Any]:
    """Elements matching ``selector`` inside ``scope`` (a Document or an element), in document order."""
    matcher = _compile(selector)
    if isinstance(scope, Document):
        return matcher(scope.root)
    # Browsers match the whole selector against the document, then keep descendants of scope.
    return [m for m in matcher(scope.getroottree().getroot()) if any(a is scope for a in m.iterancestors())]
