"""Context a library holds after 15 steps: its own append-only history vs CompressedHistory.

TRL's environment_factory, SkyRL and verifiers keep the chat history themselves and append
every page the env returns; WebAgent-R1's compression (past pages replaced by a one-line
placeholder) cannot be applied inside them. This script replays the oracle's trajectories
on 12 test tasks (one per family), padded with Scroll Down / Scroll Up to 15 actions, and
measures the context each library would send at the 16th turn, against the compressed
context of the same episode (what CompressedHistory, the repo's trainer and OpenEnv's
``compressed_context`` give). Tokens are estimated as characters / 4.

    python benchmarks/integration_context.py
"""

from __future__ import annotations

import json
import statistics

from env_throughput import record_trajectories

from webarena_gym.env import WebArenaEnv
from webarena_gym.integrations.text_episode import TextEpisode
from webarena_gym.integrations.tools import call_for_action
from webarena_gym.integrations.trl import tool_schemas
from webarena_gym.prompts import system_prompt, tool_system_prompt
from webarena_gym.wrappers import CompressedHistory

STEPS = 15


def tokens(messages: list[dict[str, str]], extra: str = "") -> float:
    return (sum(len(m["content"]) for m in messages) + len(extra)) / 4


def padded(actions: list[str]) -> list[str]:
    moves = [a for a in actions if not a.startswith("exit")]
    return (moves + ['do(action="Scroll Down")', 'do(action="Scroll Up")'] * STEPS)[:STEPS]


def appended(task_id: int, actions: list[str], *, tools: bool) -> float:
    """The history a library accumulates: every page appended (tool results for TRL, user turns otherwise)."""
    episode = TextEpisode(suite="embedded", max_steps=STEPS + 1)
    try:
        messages = [{"role": "system", "content": tool_system_prompt() if tools else system_prompt()},
                    {"role": "user", "content": episode.start(task_id)}]
        for action in actions:
            written = json.dumps(dict(zip(("name", "arguments"), call_for_action(action), strict=True))) if tools else action
            messages += [{"role": "assistant", "content": written},
                         {"role": "tool" if tools else "user", "content": episode.act(action)}]
        return tokens(messages, json.dumps(tool_schemas()) if tools else "")
    finally:
        episode.close()


def compressed(task_id: int, actions: list[str]) -> float:
    env = CompressedHistory(WebArenaEnv(suite="embedded", max_steps=STEPS + 1))
    try:
        env.reset(options={"task_id": task_id})
        for action in actions:
            env.step(action)
        return tokens(env.messages())
    finally:
        env.close()


def main() -> None:
    trajectories = [(task_id, padded(actions)) for task_id, actions, _ in record_trajectories(12)]
    rows = {
        "TRL environment_factory (tool results)": [appended(t, a, tools=True) for t, a in trajectories],
        "SkyRL / verifiers (user turns)": [appended(t, a, tools=False) for t, a in trajectories],
    }
    baseline = [compressed(t, a) for t, a in trajectories]
    print(f"{len(trajectories)} episodes of {STEPS} actions; context at turn {STEPS + 1}, tokens = chars / 4\n")
    print(f"{'history':<42}{'mean tokens':>12}{'max':>10}{'vs compressed':>15}")
    for name, sizes in rows.items():
        print(f"{name:<42}{statistics.mean(sizes):>12,.0f}{max(sizes):>10,.0f}"
              f"{statistics.mean(sizes) / statistics.mean(baseline):>14.1f}x")
    print(f"{'CompressedHistory (past pages -> placeholder)':<42}{statistics.mean(baseline):>12,.0f}"
          f"{max(baseline):>10,.0f}{1.0:>14.1f}x")


if __name__ == "__main__":
    main()
