"""The agent's context as chat messages and tokens, and demonstrations as BC rows.

Everything the model is trained on goes through the same two functions that rollouts use
(:func:`webarena_gym.prompts.build_messages` for the compressed history and
:func:`prompt_ids` for the tokens), so BC, GRPO and evaluation see identical contexts.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from webarena_gym.observation import window_text
from webarena_gym.prompts import Turn, build_messages

from .config import AgentArguments

_BELOW_MARKER = "\n[... "


def require_chat_template(tokenizer: Any) -> None:
    """Fail early, saying how to fix it, when the tokenizer cannot render chat messages."""
    if not getattr(tokenizer, "chat_template", None):
        raise ValueError(
            f"The tokenizer {getattr(tokenizer, 'name_or_path', '')!r} has no chat template; the agent's context is a "
            "chat. Use an instruct model, set tokenizer.chat_template, or build a tiny model with trainers.tiny."
        )


def render(tokenizer: Any, messages: Sequence[dict[str, str]], *, add_generation_prompt: bool) -> str:
    """The chat template's text for ``messages``."""
    return tokenizer.apply_chat_template(list(messages), tokenize=False, add_generation_prompt=add_generation_prompt)


def text_ids(tokenizer: Any, text: str) -> list[int]:
    # The template's text already holds its special tokens (BOS included, where a model has one).
    return list(tokenizer(text, add_special_tokens=False)["input_ids"])


def prompt_ids(tokenizer: Any, messages: Sequence[dict[str, str]]) -> list[int]:
    """Token ids of the context from which the next action is generated."""
    return text_ids(tokenizer, render(tokenizer, messages, add_generation_prompt=True))


def format_action(action: str, thought: str = "", *, thinking: bool = False) -> str:
    """What the policy writes for one turn in the chosen answer format.

    >>> format_action('do(action="Wait")', "The page is loading.", thinking=True)
    '<think>The page is loading.</think><answer>do(action="Wait")</answer>'
    """
    if not thinking:
        return action
    return f"<think>{thought}</think><answer>{action}</answer>"


def fit_observation(observation: str, max_chars: int) -> str:
    """A recorded observation cut to a smaller character budget, as the env would have shown it.

    Demonstrations keep the page as the recording env showed it; when training uses a
    smaller budget the page is re-cut at a line end with the env's own marker. Only the
    count of characters below is approximate when the recording was itself cut.
    """
    if len(observation) <= max_chars:
        return observation
    marker = observation.rfind(_BELOW_MARKER)
    body = observation[:marker] if marker >= 0 and observation.endswith("...]") else observation
    return window_text(body, 0, max_chars)


def demonstration_rows(demos: Iterable[Any], args: AgentArguments) -> list[dict[str, Any]]:
    """One prompt-completion row per demonstration turn (conversational, for TRL's SFTTrainer).

    The prompt is the compressed-history context the agent would see at that turn, the
    completion the expert's action in the configured answer format.
    """
    rows = []
    context = args.context_kwargs()
    for demo in demos:
        past: list[Turn] = []
        for turn in demo.turns:
            observation = fit_observation(turn.observation, args.max_chars)
            messages = build_messages(demo.intent, past, observation, turn.url, max_steps=args.max_turns, **context)
            written = format_action(turn.action, turn.thought, thinking=args.thinking)
            rows.append({
                "prompt": messages,
                "completion": [{"role": "assistant", "content": written}],
                "task_id": demo.task_id,
            })
            past.append(Turn(observation, written, turn.url))
    return rows


#: The chat roles of what the agent reads (instructions, tasks, pages), and of every message of a BC row
#: (with what the expert wrote: its actions, in completions and in the history).
READ_ROLES = ("system", "user")
ALL_ROLES = (*READ_ROLES, "assistant")


def context_texts(demos: Iterable[Any], args: AgentArguments, *, roles: Sequence[str] = ALL_ROLES) -> list[str]:
    """The messages of every BC row, each as often as the model reads it: a corpus for a tiny model's tokenizer.

    ``roles=READ_ROLES`` keeps only what the agent reads and leaves out what the expert wrote.

    The system prompt is read at every turn and a site's markup on most pages, so a byte-level BPE
    trained on these texts (with long merges allowed) turns them into a few tokens, where one trained
    on each text once spells them out: rows about a third as long, and BC, rollouts and evaluation
    that much cheaper, with the text the model sees unchanged.
    """
    return [m["content"] for row in demonstration_rows(demos, args) for m in (*row["prompt"], *row["completion"])
            if m["role"] in roles]
