"""What a policy sees: the compressed-history context of a short episode on the embedded sites.

    python examples/compressed_history.py [--thinking] [--keep-last 1]

Plays three oracle steps of one embedded test task and prints the chat messages the
policy would get, with the size of the context after each turn.
"""

from __future__ import annotations

import argparse

import gymnasium as gym

import webarena_gym  # noqa: F401  (registers the envs)
from webarena_gym.arguments import whole
from webarena_gym.errors import UnknownTaskError
from webarena_gym.suites.embedded import family_of
from webarena_gym.tasks.oracle import OracleContext
from webarena_gym.wrappers import CompressedHistory


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--task-id", type=whole(0), default=0, help="an embedded test task")
    parser.add_argument("--thinking", action="store_true")
    parser.add_argument("--keep-last", type=whole(0), default=0, help="past observations kept in full")
    args = parser.parse_args()

    env = CompressedHistory(gym.make("WebArenaLite-v0", suite="embedded"), thinking=args.thinking, keep_last=args.keep_last)
    try:
        prompt, info = env.reset(options={"task_id": args.task_id})
    except UnknownTaskError as exc:
        env.close()
        parser.error(f"--task-id: {exc}")
    task = env.unwrapped.tasks_by_id[args.task_id]
    context = OracleContext(task.to_dict())
    oracle = family_of(args.task_id, "test").solve(context)
    for turn in range(3):
        context.update(env.unwrapped.render() or "", info, env.unwrapped.page)
        action = next(oracle)
        prompt, reward, terminated, truncated, info = env.step(action)
        print(f"turn {turn + 1}: {action}  ->  context {info['context_chars']:,} chars, per message {info['turn_chars']}")
        if terminated or truncated:
            break
    print()
    for message in info["messages"]:
        print(f"--- {message['role']} ---\n{message['content'][:600]}\n")
    env.close()


if __name__ == "__main__":
    main()
