"""Success rate of a model per site, and its trajectories as JSONL.

    python examples/evaluate.py --model runs/grpo --split test --max_turns 30 \\
        --trajectories runs/grpo/test_trajectories.jsonl

Greedy decoding by default (``--temperature`` > 0 samples); the test split with 30
interactions by default, as WebArena-Lite is evaluated. The agent settings must
match training (``--max_chars``, ``--thinking``, ``--keep_last``);
``--max_turns`` may be raised for test-time scaling. Several ``--model`` values give one
column each. ``webarena-gym eval --model PATH`` does the same for one model with a resumable
run file (and evaluates OpenAI-compatible endpoints); ``webarena-gym report`` renders the
trajectories written here as HTML.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

from transformers import set_seed

from trainers.agent_record import agent_settings_of, warn_about_agent_settings
from trainers.config import AgentArguments
from trainers.cpu import THREADS_HELP, set_cpu_threads
from trainers.evaluation import evaluate_model
from trainers.policy import check_pretrained, load_policy
from trainers.script_arguments import parse_script_arguments, run_script
from webarena_gym.evaluation import format_success_table, write_results
from webarena_gym.settings import EVALUATION_MAX_STEPS


@dataclass
class EvaluationArguments:
    model: list[str] = field(default_factory=lambda: ["runs/grpo"], metadata={"help": "Model directories or hub ids."})
    temperature: float = field(default=0.0, metadata={"help": "0 decodes greedily."})
    max_new_tokens: int = field(default=128, metadata={"help": "Token limit of one turn."})
    episodes_at_once: int = field(default=16, metadata={"help": "Episodes generated as one batch."})
    trajectories: str | None = field(default=None, metadata={"help": "Write every episode here (JSONL; "
                                                                      "with several models, one file each)."})
    seed: int = field(default=0, metadata={"help": "Seed of sampling."})
    threads: int = field(default=0, metadata={"help": THREADS_HELP})


def check(args: EvaluationArguments, agent: AgentArguments) -> None:
    agent.validate_agent()
    set_cpu_threads(args.threads)
    for path in args.model:  # every model, before the first is evaluated
        check_pretrained(path)
        warn_about_agent_settings(path, agent_settings_of(agent))


def main() -> None:
    logging.basicConfig(level=logging.WARNING)
    args, agent = parse_script_arguments((EvaluationArguments, AgentArguments), check=check,
                                         defaults={"split": "test", "max_turns": EVALUATION_MAX_STEPS})
    columns = {}
    for index, path in enumerate(args.model):
        set_seed(args.seed)
        model, tokenizer = load_policy(path)
        results = evaluate_model(model, tokenizer, agent, agent.task_ids, max_new_tokens=args.max_new_tokens,
                                 temperature=args.temperature, episodes_at_once=args.episodes_at_once, desc=path)
        columns[path.rstrip("/").split("/")[-1] or path] = results
        if args.trajectories:
            target = args.trajectories if len(args.model) == 1 else args.trajectories.replace(".jsonl", f".{index}.jsonl")
            write_results(results, target)
    print(f"Success rate, {agent.suite} {agent.split} split, at most {agent.max_turns} interactions:")
    print(format_success_table(columns))


if __name__ == "__main__":
    run_script(main)
