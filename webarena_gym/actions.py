"""The action vocabulary: one definition per action gives both the prompt text and the parser.

Grammar (WebRL / WebAgent-R1)::

    do(action="Click", element="12")
    do(action="Type", element="12", argument="text")
    exit(message="the answer")

Parsed with :mod:`ast`, never ``eval``; keyword order is free.

Values are quoted strings. One rule covers every keyword (``action``, ``element``,
``argument``, ``message``) and exit's positional message, in both modes: a number written
without quotes (``element=12``, ``exit(message=3.50)``, ``-4``) is accepted and read as the
text the agent wrote (``"3.50"``, never ``3.5``); any other non-string (``None``, ``True``, a
list, a name, a call) is refused. Refused too, as agent mistakes with a message that says
what to write instead: a keyword given twice; string literals side by side
(``element="1" "0"``, which Python would join into ``"10"``); an element id of more than
:data:`MAX_ELEMENT_DIGITS` digits and an unquoted number of more than
:data:`MAX_NUMBER_CHARS` characters (judged on the text, before any conversion); and a text
that is nothing but several calls (``do(...)`` then ``exit(...)``): one action per step.
Lenient mode's extraction (the last ``<answer>``, else the last code fence, else the last
call that parses among the last 20 in prose) still picks one call out of prose that mentions
several; the env names the action it took in ``info["parsed_action"]``.

>>> parse_action('do(element="3", action="Type", argument="blue shoes")')
Action(name='Type', element=3, argument='blue shoes', message=None)
>>> parse_action('<think>the total is shown</think><answer>exit(message="$5")</answer>').message
'$5'
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
import warnings
from dataclasses import dataclass
from enum import Enum

from .errors import ConfigurationError, InvalidActionError


class ActionName(str, Enum):
    """The name of each action: the ``action=`` value of ``do(...)``, or ``exit``.

    A ``str`` (``ActionName.CLICK == "Click"``, and ``str()``/f-strings give the value), so
    code compares and writes members, never repeated literals. Each member has one
    :class:`ActionSpec` in :data:`ACTIONS` (checked when this module is imported); the kinds
    (:data:`ELEMENT_ACTIONS`, :data:`TEXT_ACTIONS`, :data:`SCROLL_STEPS`) derive from those specs.

    >>> ActionName.SELECT_DROPDOWN_OPTION == "Select Dropdown Option", f"{ActionName.CLICK}"
    (True, 'Click')
    """

    CLICK = "Click"
    TYPE = "Type"
    SEARCH = "Search"
    SELECT_DROPDOWN_OPTION = "Select Dropdown Option"
    HOVER = "Hover"
    PRESS_ENTER = "Press Enter"
    SCROLL_DOWN = "Scroll Down"
    SCROLL_UP = "Scroll Up"
    GO_BACKWARD = "Go Backward"
    GO_FORWARD = "Go Forward"
    WAIT = "Wait"
    EXIT = "exit"

    # What enum.StrEnum (Python 3.11+) does; spelled out to keep Python 3.10.
    __str__ = str.__str__
    __format__ = str.__format__


@dataclass(frozen=True)
class ActionSpec:
    """One action of the grammar.

    Attributes:
        name: The ``action=`` value (``Click``) or ``exit``.
        element: Whether ``element=`` is required.
        argument: Whether ``argument=`` is required.
        description: One line for the system prompt.
        argument_help: What ``argument=`` (``message=`` for exit) holds, for tool schemas.
        types_text: Whether the argument is typed into a text field (the element must be one).
        scroll: The direction the action scrolls the page (+1 down, -1 up), 0 if it does not.
    """

    name: ActionName
    element: bool
    argument: bool
    description: str
    argument_help: str = ""
    types_text: bool = False
    scroll: int = 0

    def example(self) -> str:
        if self.name is ActionName.EXIT:
            return 'exit(message="your answer")'
        parts = [f'action="{self.name}"']
        if self.element:
            parts.append('element="12"')
        if self.argument:
            parts.append('argument="Option text"' if self.name is ActionName.SELECT_DROPDOWN_OPTION else 'argument="text"')
        return f"do({', '.join(parts)})"


ACTIONS: tuple[ActionSpec, ...] = (
    ActionSpec(ActionName.CLICK, True, False, "click the element (follow a link, press a button, toggle a checkbox)"),
    ActionSpec(ActionName.TYPE, True, True, "replace the content of a text field with the text", "the text to type",
               types_text=True),
    ActionSpec(ActionName.SEARCH, True, True, "type the text into a field, then press Enter", "the text to search for",
               types_text=True),
    ActionSpec(ActionName.SELECT_DROPDOWN_OPTION, True, True, "choose the option with this text in a dropdown",
               "the text of the option to choose"),
    ActionSpec(ActionName.HOVER, True, False, "move the mouse over the element"),
    ActionSpec(ActionName.PRESS_ENTER, False, False, "press Enter in the field last typed into (submits its form)"),
    ActionSpec(ActionName.SCROLL_DOWN, False, False, "show the next part of a long page", scroll=+1),
    ActionSpec(ActionName.SCROLL_UP, False, False, "show the previous part of a long page", scroll=-1),
    ActionSpec(ActionName.GO_BACKWARD, False, False, "go back to the previous page"),
    ActionSpec(ActionName.GO_FORWARD, False, False, "go forward again after going back"),
    ActionSpec(ActionName.WAIT, False, False, "wait for the page to change"),
    ActionSpec(ActionName.EXIT, False, False,
               "finish the task; message is your answer (empty when the task asks for no answer)",
               "your answer, or an empty string when the task asks for no answer"),
)
ACTIONS_BY_NAME: dict[ActionName, ActionSpec] = {spec.name: spec for spec in ACTIONS}
_BY_VALUE: dict[str, ActionSpec] = {spec.name.value: spec for spec in ACTIONS}
_BY_LOWER: dict[str, ActionSpec] = {spec.name.lower(): spec for spec in ACTIONS}


def check_action_specs(specs: tuple[ActionSpec, ...]) -> None:
    """Refuse a spec table that misses an :class:`ActionName` or defines one twice.

    Raises:
        ConfigurationError: naming the members without a spec, or those with several.
    """
    names = [spec.name for spec in specs]
    missing = [name.value for name in ActionName if name not in names]
    repeated = sorted({name.value for name in names if names.count(name) > 1})
    if missing or repeated:
        raise ConfigurationError(
            f"Every ActionName needs exactly one ActionSpec in ACTIONS; without one: {missing}, "
            f"with several: {repeated}. Add (or remove) the ActionSpec in webarena_gym/actions.py."
        )


check_action_specs(ACTIONS)

#: Actions that act on an element of the page (``element=`` required).
ELEMENT_ACTIONS: frozenset[ActionName] = frozenset(spec.name for spec in ACTIONS if spec.element)
#: Actions that type their argument into a text field.
TEXT_ACTIONS: frozenset[ActionName] = frozenset(spec.name for spec in ACTIONS if spec.types_text)
#: Actions that scroll the page, and in which direction (+1 down, -1 up).
SCROLL_STEPS: dict[ActionName, int] = {spec.name: spec.scroll for spec in ACTIONS if spec.scroll}


@dataclass(frozen=True, repr=False)
class Action:
    """A parsed action: ``name`` is one of :data:`ACTIONS`' names (a plain string is read as its :class:`ActionName`).

    >>> Action("Click", element=3).name is ActionName.CLICK
    True
    """

    name: ActionName
    element: int | None = None
    argument: str | None = None
    message: str | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.name, ActionName):
            try:
                name = ActionName(self.name)
            except ValueError:
                raise ConfigurationError(
                    f"Action name {self.name!r} is not an ActionName; expected one of "
                    f"{[member.value for member in ActionName]}."
                ) from None
            object.__setattr__(self, "name", name)

    def __repr__(self) -> str:
        return (f"Action(name={self.name.value!r}, element={self.element!r}, argument={self.argument!r}, "
                f"message={self.message!r})")

    def to_string(self) -> str:
        """The canonical action string (what an oracle or a demo writes)."""
        if self.name is ActionName.EXIT:
            return f"exit(message={_quote(self.message or '')})"
        parts = [f"action={_quote(self.name)}"]
        if self.element is not None:
            parts.append(f"element={_quote(str(self.element))}")
        if self.argument is not None:
            parts.append(f"argument={_quote(self.argument)}")
        return f"do({', '.join(parts)})"


#: Characters XML (hence HTML forms) cannot hold: C0 controls other than tab and newlines,
#: lone surrogates and non-characters.
_UNPRINTABLE = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def printable(text: str) -> str:
    """A model's output without characters no web page (or UTF-8 file) can hold.

    A byte-level model can sample any byte and an endpoint can send any JSON escape; the
    direct backend would raise (instead of reporting an agent mistake) when such
    characters are typed into a field, and a lone surrogate cannot even be written to a
    UTF-8 file. So they are dropped before the text reaches the env or a trajectory file.

    >>> printable('exit(message="a\\x00b\\ud800c")')
    'exit(message="abc")'
    """
    return _UNPRINTABLE.sub("", text)


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def describe_actions() -> str:
    """The action list for a system prompt, generated from :data:`ACTIONS`.

    >>> print(describe_actions().splitlines()[0])
    - do(action="Click", element="12"): click the element (follow a link, press a button, toggle a checkbox)
    """
    return "\n".join(f"- {spec.example()}: {spec.description}" for spec in ACTIONS)


#: The longest action text parsed (a 100,000-character answer fits many times over); longer is an agent mistake.
MAX_ACTION_CHARS = 1_000_000
#: The most digits an element id may have (a page numbers its elements from 0; no page has 10^9 of them).
MAX_ELEMENT_DIGITS = 9
#: The longest number accepted without quotes (Python's int cannot even read one of 4,301 digits).
MAX_NUMBER_CHARS = 100
#: How many ``do(``/``exit(`` calls in free text are tried, from the last one back.
_MAX_CALLS_TRIED = 20
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
#: Characters no web page's text field can hold: C0 controls but tab and newlines, and non-characters.
_UNTYPEABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
_ANSWER_TAG = re.compile(r"<answer>(.*?)(?:</answer>|$)", re.DOTALL | re.IGNORECASE)
_CODE_FENCE = re.compile(r"```(?:[a-zA-Z]*)\n?(.*?)```", re.DOTALL)
_CALL_START = re.compile(r"\b(do|exit)\s*\(")
_SCANNED = re.compile(r"""[\\'"()\[\]{}\n]""")
#: What may stand between the calls of a text that is nothing but calls.
_BETWEEN_CALLS = re.compile(r"[\s;,()\[\]]*")
_LONG_DIGIT_RUN = re.compile(r"\d(?:_?\d){" + str(min(MAX_ELEMENT_DIGITS, MAX_NUMBER_CHARS)) + ",}")


def parse_action(text: str, *, strict: bool = False) -> Action:
    """Parse an agent's output into an :class:`Action`.

    Strict mode accepts exactly one call and nothing else. The default lenient mode
    takes the action from the last ``<answer>...</answer>`` (the thinking format), else
    the last code fence; there, a text that is one ``do``/``exit`` call is judged as
    written, a text made of several calls and nothing else is refused (one action per
    step), and from prose the last of the last 20 ``do(...)``/``exit(...)`` calls that
    parses is taken. Lenient mode also accepts action names in any letter case and a
    positional exit message.

    >>> parse_action('I see the box. do(action="Click", element="3") should open it.')
    Action(name='Click', element=3, argument=None, message=None)

    Raises:
        InvalidActionError: with a message that says what was wrong and what is expected.
    """
    if not isinstance(text, str):
        raise InvalidActionError(f"An action must be a string, got {type(text).__name__}.")
    if len(text) > MAX_ACTION_CHARS:
        raise InvalidActionError(f"The action is {len(text):,} characters long; at most {MAX_ACTION_CHARS:,} are read.")
    surrogate = _LONE_SURROGATE.search(text)
    if surrogate:
        raise InvalidActionError(
            f"The action holds a lone surrogate ({surrogate.group()!r} at position {surrogate.start()}), "
            "which is not a character: it cannot be typed or sent."
        )
    if "\x00" in text:
        raise InvalidActionError(
            f"The action holds a NUL character (position {text.index(chr(0))}), which an action cannot contain."
        )
    try:
        return _parse_text(text, strict=strict)
    except (RecursionError, MemoryError):
        raise InvalidActionError(f"The action {preview(text)} is nested too deeply to parse.") from None


def _parse_text(text: str, *, strict: bool) -> Action:
    source = text.strip()
    if not source:
        raise InvalidActionError("Empty action. Expected e.g. " + ACTIONS[0].example() + ".")
    if not strict:
        answers = _ANSWER_TAG.findall(source)
        if answers:
            source = answers[-1].strip()
        fences = _CODE_FENCE.findall(source)
        if fences:
            source = fences[-1].strip()
    try:
        call = _parse_expression(source)
    except InvalidActionError as direct_error:
        _refuse_several_calls(source)
        if strict:
            raise
        found = _last_call(source)
        if found is None:
            raise direct_error from None
        call, source = found
    else:
        # A whole text that is one do/exit call is judged as written: a call nested in its arguments
        # (``do(action="Click", element=exit(message="x"))``) is a malformed action, never extracted.
        if not strict and _function_name(call) not in ("do", "exit"):
            found = _last_call(source)
            if found is not None:
                call, source = found
    return _parse_call(call, source, strict=strict)


def _parse_python(source: str) -> ast.expr:
    """The expression ``source`` as a syntax tree (never evaluated), without Python's warnings about it.

    Model output such as ``1if`` or ``"C:\\d"`` makes ``ast.parse`` warn (invalid literal or
    escape): that is the agent's text, judged by the parser, not a warning for the user.
    """
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)
        warnings.simplefilter("ignore", DeprecationWarning)
        return ast.parse(source, mode="eval").body


def _parse_expression(source: str) -> ast.Call:
    try:
        node = _parse_python(source)
    except (SyntaxError, ValueError) as exc:  # Python < 3.12 raises ValueError on a NUL character
        # An integer literal past Python's 4,300 digits fails to parse with advice for the interpreter's
        # user (sys.set_int_max_str_digits); the agent is told what it wrote instead.
        too_long = _long_number_error(source)
        if too_long is not None:
            raise too_long from None
        message = exc.msg if isinstance(exc, SyntaxError) else str(exc)
        raise InvalidActionError(
            f"Cannot parse action {preview(source)}: {message}. Expected e.g. {ACTIONS[0].example()}."
        ) from None
    if not isinstance(node, ast.Call):
        raise InvalidActionError(f"Action {preview(source)} is not a do(...) or exit(...) call.")
    return node


def _last_call(source: str) -> tuple[ast.Call, str] | None:
    """The last ``do(...)``/``exit(...)`` call that parses in free text (among the last few), and its text."""
    for match in list(_CALL_START.finditer(source))[-_MAX_CALLS_TRIED:][::-1]:
        end = _closing_parenthesis(source, match.end())
        if end is None:
            continue
        segment = source[match.start() : end + 1]
        try:
            node = _parse_python(segment)
        except (SyntaxError, ValueError):
            continue
        if isinstance(node, ast.Call):
            return node, segment
    return None


def _calls_only(source: str) -> list[str]:
    """The calls of a text made of nothing but two or more ``do(...)``/``exit(...)`` calls, else ``[]``.

    >>> _calls_only('do(action="Click", element="1")\\nexit(message="done")')
    ['do(action="Click", element="1")', 'exit(message="done")']
    >>> _calls_only('I click do(action="Click", element="1")')
    []
    """
    calls: list[str] = []
    position = 0
    while True:
        position = _BETWEEN_CALLS.match(source, position).end()  # type: ignore[union-attr]  # matches ""
        if position == len(source):
            return calls if len(calls) > 1 else []
        match = _CALL_START.match(source, position)
        end = None if match is None else _closing_parenthesis(source, match.end())
        if end is None:
            return []
        calls.append(source[position : end + 1])
        position = end + 1


def _refuse_several_calls(source: str) -> None:
    calls = _calls_only(source)
    if calls:
        raise InvalidActionError(
            f"The action text holds {len(calls):,} calls ({preview(calls[0], 60)} first, {preview(calls[-1], 60)} "
            "last); send one action per step, then the next one once you see the page it leads to."
        )


def _closing_parenthesis(source: str, start: int) -> int | None:
    """Index of the ``)`` that closes a call opened just before ``start`` (brackets nest, quoted text skipped).

    >>> _closing_parenthesis('do(action="a)b") and more', 3)
    15
    """
    depth, quote, skip_to = 1, "", start
    for match in _SCANNED.finditer(source, start):
        index, char = match.start(), match.group()
        if index < skip_to:
            continue  # an escaped character
        if quote:
            if char == "\\":
                skip_to = index + 2
            elif char == quote:
                quote = ""
            elif char == "\n":
                return None  # a quoted string never spans lines
        elif char in "'\"":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
            if depth == 0:
                return index
    return None


def _function_name(call: ast.Call) -> str | None:
    return call.func.id if isinstance(call.func, ast.Name) else None


def _parse_call(call: ast.Call, source: str, *, strict: bool) -> Action:
    """The action ``call`` (a tree parsed from ``source``) stands for."""
    func = _function_name(call)
    if func not in ("do", "exit"):
        shown = preview(ast.unparse(call.func))
        raise InvalidActionError(f"Unknown function {shown}: actions are do(action=..., ...) or exit(message=...).")
    example = ACTIONS_BY_NAME[ActionName.EXIT].example() if func == "exit" else ACTIONS[0].example()
    given: set[str] = set()
    for keyword in call.keywords:
        if keyword.arg is None:
            raise InvalidActionError("Actions take plain keyword arguments, not **kwargs.")
        if keyword.arg in given:
            raise InvalidActionError(
                f"{func} got {keyword.arg}= twice, so it is unclear which one is meant; "
                f"give each argument once, e.g. {example}."
            )
        given.add(keyword.arg)
    if func == "exit":
        unknown = given - {"message"}
        if unknown:
            raise InvalidActionError(f"exit got unknown argument(s) {_names(unknown)}; use {example}.")
        kwargs = {keyword.arg: _value(keyword.value, "message", source) for keyword in call.keywords}
        if call.args and not strict and not kwargs and len(call.args) == 1:
            kwargs["message"] = _value(call.args[0], "message", source)
        elif call.args:
            raise InvalidActionError(f"exit takes its answer as a keyword: {example}.")
        return Action(ActionName.EXIT, message=kwargs.get("message", ""))
    if call.args:
        raise InvalidActionError(f"do takes keyword arguments only: {example}.")
    unknown = given - {"action", "element", "argument"}
    if unknown:
        raise InvalidActionError(f"do got unknown argument(s) {_names(unknown)}; allowed: action, element, argument.")
    kwargs = {str(keyword.arg): _value(keyword.value, str(keyword.arg), source) for keyword in call.keywords}
    name = kwargs.get("action")
    if name is None:
        raise InvalidActionError('do needs action="..." naming one of: ' + _action_names() + ".")
    spec = _BY_VALUE.get(name) if strict else _BY_LOWER.get(name.strip().lower())
    if spec is None or spec.name is ActionName.EXIT:
        raise InvalidActionError(f"Unknown action {preview(name)}; expected one of: {_action_names()}.")
    element = _element(kwargs.get("element"), spec)
    argument = kwargs.get("argument")
    if spec.argument:
        if argument is None:
            raise InvalidActionError(f'{spec.name} needs argument="..."; e.g. {spec.example()}.')
        untypeable = _UNTYPEABLE.search(argument)
        if untypeable:
            raise InvalidActionError(
                f"{spec.name}'s argument holds the control character {untypeable.group()!r} "
                f"(position {untypeable.start()}), which no text field can hold."
            )
    elif argument is not None:
        if strict:
            raise InvalidActionError(f"{spec.name} takes no argument; e.g. {spec.example()}.")
        argument = None
    if not spec.element and element is not None and strict:
        raise InvalidActionError(f"{spec.name} takes no element; e.g. {spec.example()}.")
    return Action(spec.name, element if spec.element else None, argument)


def _element(value: str | None, spec: ActionSpec) -> int | None:
    if value is None:
        if spec.element:
            raise InvalidActionError(f'{spec.name} needs element="<id>"; e.g. {spec.example()}.')
        return None
    text = value.strip()
    # ASCII digits only ("²" is a digit to str.isdigit but not to int), and few enough to be an id of a page:
    # the length is judged before int() ever sees the text.
    if len(text) > MAX_ELEMENT_DIGITS:
        raise _element_error(text)
    if not (text.isascii() and text.isdigit()):
        raise InvalidActionError(
            f'element must be an element id (a number from the page), got {preview(text)}; e.g. element="12".'
        )
    return int(text)


def _element_error(text: str) -> InvalidActionError:
    return InvalidActionError(
        f"element must be an element id (a number from the page, at most {MAX_ELEMENT_DIGITS} digits), "
        f"got {preview(text, 40)} ({len(text):,} characters); use an id shown on the page, e.g. element=\"12\"."
    )


def _value(node: ast.expr, name: str, source: str) -> str:
    """The text of one argument: a quoted string, or a number as the agent wrote it (see the module docstring)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        _refuse_adjacent_literals(node, name, source)
        return node.value
    sign = ""
    number = node
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.UAdd, ast.USub)):
        sign, number = ("-" if isinstance(node.op, ast.USub) else "+"), node.operand
    if isinstance(number, ast.Constant) and type(number.value) in (int, float):
        text = sign + (ast.get_source_segment(source, number) or repr(number.value))
        too_long = _number_error(name, text)
        if too_long is not None:
            raise too_long
        return text
    shown = ast.get_source_segment(source, node) or ast.unparse(node)
    raise InvalidActionError(f'{name}= must be a quoted string, got {preview(shown)}; e.g. {name}="...".')


def _refuse_adjacent_literals(node: ast.Constant, name: str, source: str) -> None:
    """Refuse ``"1" "0"``: Python joins string literals written side by side, which the agent may not mean."""
    segment = ast.get_source_segment(source, node) or ""
    strings = 0
    try:
        for token in tokenize.generate_tokens(io.StringIO(segment).readline):
            strings += token.type == tokenize.STRING
    except (tokenize.TokenError, SyntaxError):
        return
    if strings > 1:
        joined = str(node.value)
        example = _quote(joined) if len(joined) <= 40 else '"..."'
        raise InvalidActionError(
            f"{name}= is {strings} string literals side by side ({preview(segment, 60)}), which would be read "
            f"joined as {preview(joined, 40)}; write one quoted string, e.g. {name}={example}."
        )


def _number_error(name: str | None, text: str) -> InvalidActionError | None:
    """The error for an unquoted number too long to be read as ``name``'s value, if it is."""
    if name == "element" and len(text) > MAX_ELEMENT_DIGITS:
        return _element_error(text)
    if len(text) > MAX_NUMBER_CHARS:
        return InvalidActionError(
            f"{name or 'an argument'}= is a number of {len(text):,} characters without quotes; at most "
            f"{MAX_NUMBER_CHARS} are read as a number: write it as a quoted string, e.g. {name or 'message'}=\"...\"."
        )
    return None


def _long_number_error(source: str) -> InvalidActionError | None:
    """The error for the first unquoted number in ``source`` too long to read, if any (judged on its tokens)."""
    if not _LONG_DIGIT_RUN.search(source):
        return None
    previous: list[tokenize.TokenInfo] = []
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.NUMBER:
                before = tuple(t.string for t in previous)
                name = before[0] if before[1:] == ("=",) else "message" if before == ("exit", "(") else None
                error = _number_error(name, token.string)
                if error is not None:
                    return error
            if token.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.COMMENT):
                previous = [*previous[-1:], token]
    except (tokenize.TokenError, SyntaxError):
        pass
    return None


def _action_names() -> str:
    return ", ".join(spec.name for spec in ACTIONS if spec.name is not ActionName.EXIT)


def preview(text: str, limit: int = 80) -> str:
    """``text`` quoted, cut to ``limit`` characters: what an error message shows of the agent's text."""
    return repr(text if len(text) <= limit else text[: limit - 3] + "...")


def _names(names: set[str], shown: int = 5) -> str:
    """A few of ``names`` (sorted), each cut short, and how many more there are."""
    listed = ", ".join(preview(name, 40) for name in sorted(names)[:shown])
    return f"[{listed}{f', ... ({len(names) - shown} more)' if len(names) > shown else ''}]"
