"""Prompt text for web agents: the system prompt, per-turn user messages, and the compressed history.

The action list in the system prompt is generated from :data:`webarena_gym.actions.ACTIONS`,
the same definitions the parser uses, so prompt and parser cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .actions import describe_actions

PLAIN_FORMAT = (
    "Answer with exactly one action and nothing else, for example:\n"
    'do(action="Click", element="12")'
)
THINKING_FORMAT = (
    "First think about the page and your plan inside <think>...</think>, then give exactly one action "
    "inside <answer>...</answer>, for example:\n"
    '<think>The search box is element 3.</think><answer>do(action="Search", element="3", argument="blue shoes")</answer>'
)
OMITTED = "[Observation omitted: the page at {url} was shown here.]"


_ROLE = (
    "You are a web agent. You complete a task on websites by acting on the current page, one action "
    "per turn. Pages are shown as simplified HTML; interactive elements carry an id, which is what "
    "element= refers to."
)
_ANSWERING = (
    "When the task asks a question, answer it with {exit} (just the answer). When the task asks you to "
    "change something, do it and then call {empty_exit}. If the task cannot be done, say so with {na_exit}."
)


def system_prompt(*, thinking: bool = False) -> str:
    """Instructions, the action grammar and the answer format.

    >>> "do(action=\\"Click\\"" in system_prompt()
    True
    """
    answering = _ANSWERING.format(exit='exit(message="...")', empty_exit='exit(message="")',
                                  na_exit='exit(message="N/A")')
    return (
        f"{_ROLE}\n\nActions:\n{describe_actions()}\n\n{answering}\n\n"
        f"{THINKING_FORMAT if thinking else PLAIN_FORMAT}"
    )


def tool_system_prompt() -> str:
    """Instructions for models that act through tool calls (one tool per action, from the same definitions).

    >>> "the exit tool" in tool_system_prompt()
    True
    """
    answering = _ANSWERING.format(exit="the exit tool", empty_exit="exit with an empty message",
                                  na_exit='the exit tool and message "N/A"')
    return f"{_ROLE}\n\nAct by calling exactly one tool per turn. {answering}"


def user_turn(observation: str, *, url: str, intent: str | None = None, step: int = 0, max_steps: int = 0,
              task_after_page: bool = False) -> str:
    """The user message for one turn: the task (when given) and the page.

    The task comes before the page (WebRL's and WebAgent-R1's layout), or after it with
    ``task_after_page`` (WebArena's own prompts: OBSERVATION, URL, then OBJECTIVE).

    >>> user_turn("<p>x</p>", url="http://a/", intent="Find X", task_after_page=True).splitlines()[-1]
    'Task: Find X'
    """
    task = f"Task: {intent}" if intent else ""
    budget = f" (step {step + 1} of {max_steps})" if max_steps else ""
    page = f"Current page{budget}: {url}\n{observation}"
    if not task:
        return page
    return f"{page}\n\n{task}" if task_after_page else f"{task}\n\n{page}"


@dataclass(frozen=True)
class Turn:
    """One turn of an episode: the page the agent saw, and what it answered.

    ``action`` is the agent's whole output (with its thinking, if any); ``thought`` is an
    optional short rationale recorded with demonstrations.
    """

    observation: str
    action: str
    url: str = ""
    thought: str = ""


def build_messages(
    intent: str,
    past: Sequence[Turn],
    observation: str,
    url: str,
    *,
    thinking: bool = False,
    keep_last: int = 0,
    step: int | None = None,
    max_steps: int = 0,
    task_after_page: bool = False,
) -> list[dict[str, str]]:
    """Chat messages with compressed history.

    Every past action is kept in full; every past observation except the last
    ``keep_last`` ones is replaced by a one-line placeholder; the current observation is
    in full. The intent stays in the first user message, or, with ``task_after_page``,
    follows the page in every user message (as WebArena's prompts restate the objective
    after each observation), so the task is read last before every action.

    >>> msgs = build_messages("Find X", [Turn("<p>long page</p>", 'do(action="Scroll Down")', "http://a/")],
    ...                       "<p>now</p>", "http://a/")
    >>> [m["role"] for m in msgs]
    ['system', 'user', 'assistant', 'user']
    >>> msgs[1]["content"].splitlines()[-1]
    '[Observation omitted: the page at http://a/ was shown here.]'
    """
    messages = [{"role": "system", "content": system_prompt(thinking=thinking)}]
    full_from = len(past) - keep_last
    for index, turn in enumerate(past):
        shown = turn.observation if index >= full_from else OMITTED.format(url=turn.url)
        told = intent if index == 0 or task_after_page else None
        messages.append({"role": "user", "content": user_turn(shown, url=turn.url, intent=told, step=index,
                                                              max_steps=max_steps, task_after_page=task_after_page)})
        messages.append({"role": "assistant", "content": turn.action})
    current_step = len(past) if step is None else step
    told = intent if not past or task_after_page else None
    messages.append({"role": "user", "content": user_turn(observation, url=url, intent=told, step=current_step,
                                                          max_steps=max_steps, task_after_page=task_after_page)})
    return messages


def messages_to_text(messages: Sequence[dict[str, str]]) -> str:
    """A flat transcript for models without a chat template.

    >>> print(messages_to_text([{"role": "user", "content": "hi"}, {"role": "assistant", "content": "exit()"}]))
    USER: hi
    <BLANKLINE>
    ASSISTANT: exit()
    """
    return "\n\n".join(f"{m['role'].upper()}: {m['content']}" for m in messages)
