"""The plug-in point of evaluation: a policy answers a batch of contexts with one output each.

A context is the compressed-history chat (``info["messages"]`` of
:class:`~webarena_gym.wrappers.CompressedHistory`). Batches let a local model generate for
all episodes in flight at once, and an endpoint policy send their requests concurrently.
Implementations: :class:`~.chat_completions.ChatCompletionsPolicy` (any OpenAI-compatible
endpoint) and ``trainers.policy.LocalModelPolicy`` (a transformers model).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

Messages = Sequence[dict[str, str]]


@dataclass
class PolicyOutput:
    """One answer of a policy.

    Attributes:
        text: The model's whole answer; the env parses the action from it. Anything, even
            garbage or "", is acceptable: an answer without a valid action is an agent
            mistake, reported by the env.
        prompt_tokens: Tokens of the context, when the policy knows them.
        completion_tokens: Tokens of ``text``, when the policy knows them.
        reasoning: A separate reasoning channel (some endpoints return one), kept for the report.
        error: Why the model gave no answer, when a request was refused (e.g. a context
            longer than the model's): the turn counts as an agent mistake.
    """

    text: str
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    reasoning: str = ""
    error: str = ""


@runtime_checkable
class Policy(Protocol):
    """Answers each context of a batch, in order.

    Raise :class:`~webarena_gym.errors.InfrastructureError` (or a subclass) for faults a
    person must fix, such as an endpoint that stays down; never for bad model output.
    """

    def act(self, contexts: Sequence[Messages]) -> list[PolicyOutput]:
        """One output per context."""

    def describe(self) -> dict[str, Any]:
        """Settings that identify the policy in a run file (model, decoding); compared on resume."""
