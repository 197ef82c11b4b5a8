"""A tiny task family on the embedded map site, its expert demonstrations, and run settings
shared by the trainer tests.

The family ("Open the map page of <place>.") is built from what the map's home page
shows, so it follows the site's seed data: one task per featured place, solved in two
turns (click the place, then exit). Rewards come from the real evaluator (url_match).
"""

from __future__ import annotations

import re
from pathlib import Path

from webarena_gym.demos import Demonstration
from webarena_gym.env import WebArenaEnv
from webarena_gym.prompts import Turn, build_messages

#: Small budgets keep contexts near 1,000 tokens so CPU steps take seconds.
MAX_CHARS = 2000
MAX_TURNS = 2


def _probe_task() -> dict:
    return {"task_id": 0, "sites": ["map"], "require_login": False, "start_url": "__MAP__/", "intent": "Look around.",
            "eval": {"eval_types": ["string_match"], "reference_answers": {"exact_match": "-"}}}


def build_place_family() -> tuple[list[dict], list[Demonstration]]:
    """Tasks "Open the map page of <place>." for the home page's featured places, with expert demos."""
    env = WebArenaEnv(suite="embedded", tasks=[_probe_task()], max_chars=MAX_CHARS, max_steps=MAX_TURNS)
    try:
        home, info = env.reset(options={"task_id": 0})
        featured = re.findall(r'<li><a id="(\d+)">([^<]+)</a> \w', home)
        assert len(featured) >= 4, f"the map home page should list featured places:\n{home}"
        tasks, demos = [], []
        for task_id, (element, name) in enumerate(featured, start=1):
            env.reset(options={"task_id": 0})
            click = f'do(action="Click", element="{element}")'
            page, _r, _t, _tr, after = env.step(click)
            reference = after["url"].replace(env.backend.sites.urls["map"], "__MAP__")
            intent = f"Open the map page of {name}."
            tasks.append({"task_id": task_id, "sites": ["map"], "require_login": False, "start_url": "__MAP__/",
                          "intent": intent, "eval": {"eval_types": ["url_match"], "reference_url": reference,
                                                     "url_note": "EXACT"}})
            turns = [Turn(home, click, info["url"], f'I click "{name}".'),
                     Turn(page, 'exit(message="")', after["url"], "The task is done.")]
            demos.append(Demonstration(task_id, intent, turns, 1.0, sites=["map"]))
        return tasks, demos
    finally:
        env.close()


def bc_config(output_dir: Path, **overrides):
    from trainers.config import BCConfig

    settings = dict(
        output_dir=str(output_dir), max_turns=MAX_TURNS, max_chars=MAX_CHARS, learning_rate=1e-2,
        lr_scheduler_type="constant", per_device_train_batch_size=8,
        save_strategy="no", disable_tqdm=True, seed=0,
    )
    settings.update(overrides)
    return BCConfig(**settings)


def grpo_config(output_dir: Path, **overrides):
    from trainers.config import MultiTurnGRPOConfig

    settings = dict(
        output_dir=str(output_dir), max_turns=MAX_TURNS, max_chars=MAX_CHARS, num_generations=4,
        per_device_train_batch_size=8, max_steps=1, learning_rate=1e-3, max_completion_length=24,
        save_strategy="no", disable_tqdm=True, seed=0,
        rollout_workers=2, rollout_envs=8,
    )
    settings.update(overrides)
    return MultiTurnGRPOConfig(**settings)


def place_envs(tasks: list[dict], num_envs: int, *, workers: int = 2, max_turns: int = MAX_TURNS):
    """Rollout envs over the family's tasks, built the way the trainers build them from a config."""
    from trainers.config import AgentArguments
    from trainers.rollout import make_rollout_envs

    agent = AgentArguments(max_turns=max_turns, max_chars=MAX_CHARS)
    return make_rollout_envs(agent, num_envs, workers=workers, tasks=tasks)


#: A hand-built episode (two pages, two actions) for exact checks of masks and losses.
PAGES = [("<h1>Home</h1>\n<a id=\"3\">PNC Park</a>", "http://127.0.0.1:3000/"),
         ("<h1>PNC Park</h1>\n<p>Stadium</p>", "http://127.0.0.1:3000/node/36")]
ACTIONS = ['do(action="Click", element="3")', 'exit(message="")']
INTENT = "Open the map page of PNC Park."


def hand_built(tokenizer, actions=ACTIONS, *, reward=1.0, cut_last=False):
    """A hand-built two-turn trajectory as the rollout records it: exact contexts and sampled ids."""
    from trainers.chat import prompt_ids, text_ids
    from trainers.rollout import Trajectory, TurnSample

    turns, past = [], []
    for k, ((page, url), action) in enumerate(zip(PAGES, actions, strict=True)):
        messages = build_messages(INTENT, past, page, url, max_steps=3)
        sampled = text_ids(tokenizer, action) + [tokenizer.eos_token_id]
        if cut_last and k == len(actions) - 1:
            sampled = sampled[:-1]  # stopped by the token limit, no EOS
        turns.append(TurnSample(messages, prompt_ids(tokenizer, messages), sampled, action))
        past.append(Turn(page, action, url))
    return Trajectory(7, INTENT, ["map"], turns, reward=reward, terminated=True)


def winner_loser_batch(tokenizer) -> dict:
    """A trajectory-layout batch of one group of two: the right answer (reward 1) and a wrong one (reward 0),
    with their advantages, as TRL's loss takes it."""
    import torch

    from trainers.layouts import trajectory_rows
    from trainers.objective import collate_rows, group_advantages

    winner = hand_built(tokenizer, reward=1.0)
    loser = hand_built(tokenizer, ['do(action="Wait")', 'exit(message="")'], reward=0.0)
    batch = collate_rows(trajectory_rows([winner, loser], tokenizer), tokenizer.pad_token_id)
    batch["advantages"] = group_advantages(torch.tensor([winner.reward, loser.reward]), 2)
    batch["num_items_in_batch"] = (batch["completion_mask"] * batch["tool_mask"]).sum()
    return batch
