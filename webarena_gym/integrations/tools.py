"""Tool functions generated from the action definitions: one typed function per action.

Libraries that let a model call tools (TRL's ``environment_factory``, chat templates'
``tools=``) read a function's name, type hints and Google-style docstring. Each action of
:data:`webarena_gym.actions.ACTIONS` becomes one such function, built from the same
definition that gives the parser and the system prompt; calling it writes the action in
the grammar, which the env parses like any agent's action (so a bad element id is an
agent mistake shown on the next page, never an exception).

>>> [tool_name(spec) for spec in ACTIONS][:4]
['click', 'type', 'search', 'select_dropdown_option']
>>> print(action_for_call("select_dropdown_option", {"element": 4, "argument": "Blue"}))
do(action="Select Dropdown Option", element="4", argument="Blue")
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from ..actions import ACTIONS, ACTIONS_BY_NAME, Action, ActionName, ActionSpec, parse_action

ELEMENT_HELP = 'the id of the element on the current page (the number in id="...")'


def tool_name(spec: ActionSpec) -> str:
    """The function name of an action: ``Select Dropdown Option`` -> ``select_dropdown_option``."""
    return spec.name.lower().replace(" ", "_")


SPECS_BY_TOOL = {tool_name(spec): spec for spec in ACTIONS}


def action_for_call(name: str, arguments: dict[str, Any]) -> str:
    """The action string for a call of tool ``name`` with ``arguments`` (missing ones become empty)."""
    spec = SPECS_BY_TOOL[name]
    if spec.name is ActionName.EXIT:
        return Action(ActionName.EXIT, message=str(arguments.get("message") or "")).to_string()
    element = arguments.get("element", "") if spec.element else None
    argument = str(arguments.get("argument", "")) if spec.argument else None
    return Action(spec.name, element, argument).to_string()


def call_for_action(action: str) -> tuple[str, dict[str, Any]]:
    """The tool call (name, arguments) that writes a grammar action: the inverse of :func:`action_for_call`.

    >>> call_for_action('do(action="Type", element="3", argument="blue")')
    ('type', {'element': 3, 'argument': 'blue'})
    """
    parsed = parse_action(action, strict=True)
    spec = ACTIONS_BY_NAME[parsed.name]
    if spec.name is ActionName.EXIT:
        return tool_name(spec), {"message": parsed.message or ""}
    arguments: dict[str, Any] = {}
    if spec.element:
        arguments["element"] = parsed.element
    if spec.argument:
        arguments["argument"] = parsed.argument
    return tool_name(spec), arguments


def _parameters(spec: ActionSpec) -> list[tuple[str, type, str, Any]]:
    """(name, type, help, default) of each parameter of an action's tool."""
    if spec.name is ActionName.EXIT:
        return [("message", str, spec.argument_help, "")]
    parameters: list[tuple[str, type, str, Any]] = []
    if spec.element:
        parameters.append(("element", int, ELEMENT_HELP, inspect.Parameter.empty))
    if spec.argument:
        parameters.append(("argument", str, spec.argument_help, inspect.Parameter.empty))
    return parameters


def tool_docstring(spec: ActionSpec) -> str:
    """A Google-style docstring for the action's tool, from its definition."""
    lines = [spec.description[0].upper() + spec.description[1:] + "."]
    parameters = _parameters(spec)
    if parameters:
        lines += ["", "Args:"] + [f"    {name}: {help_text}" for name, _, help_text, _ in parameters]
    lines += ["", "Returns:", "    The page after the action."]
    return "\n".join(lines)


def action_tool(spec: ActionSpec, act: Callable[..., str], *, method: bool = False) -> Callable[..., str]:
    """A function for one action, typed and documented from its definition.

    Args:
        spec: The action.
        act: Called with the action string (after ``self`` when ``method``); its return value is the tool's.
        method: Build a method (first parameter ``self``) to set on a class.
    """
    name = tool_name(spec)
    parameters = _parameters(spec)

    def tool(*args: Any, **arguments: Any) -> str:
        return act(*args, action_for_call(name, arguments))

    signature = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)] if method else []
    # Keyword-only: libraries call tools with the model's arguments by name.
    signature += [inspect.Parameter(p, inspect.Parameter.KEYWORD_ONLY, annotation=kind, default=default)
                  for p, kind, _, default in parameters]
    tool.__name__ = tool.__qualname__ = name
    tool.__doc__ = tool_docstring(spec)
    tool.__signature__ = inspect.Signature(signature, return_annotation=str)  # type: ignore[attr-defined]
    tool.__annotations__ = {p: kind for p, kind, _, _ in parameters} | {"return": str}
    return tool


def action_tools(act: Callable[[str], str]) -> list[Callable[..., str]]:
    """One tool function per action, each calling ``act`` with the action string."""
    return [action_tool(spec, act) for spec in ACTIONS]


__all__ = ["ELEMENT_HELP", "SPECS_BY_TOOL", "action_for_call", "action_tool", "call_for_action", "action_tools", "tool_docstring",
           "tool_name"]
