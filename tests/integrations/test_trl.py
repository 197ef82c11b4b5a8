"""TRL: the environment class for GRPOTrainer(environment_factory=...), its tools, and a real GRPO run."""

from __future__ import annotations

import inspect
import json

import pytest

pytest.importorskip("trl")

from webarena_gym.actions import ACTIONS  # noqa: E402
from webarena_gym.integrations.tools import SPECS_BY_TOOL, action_for_call, call_for_action  # noqa: E402
from webarena_gym.integrations.trl import (  # noqa: E402
    WebArenaToolEnv,
    environment_factory,
    task_dataset,
    tool_call_conversations,
    tool_schemas,
)
from webarena_gym.suites.embedded import embedded_tasks  # noqa: E402


def public_tools(env_class):
    """What TRL exposes as tools: the class's public functions other than reset and get_reward."""
    return {name for name, _ in inspect.getmembers(env_class, predicate=inspect.isfunction)
            if not name.startswith("_") and name not in ("reset", "get_reward")}


def test_one_typed_tool_per_action_documented_from_its_definition():
    assert public_tools(WebArenaToolEnv) == set(SPECS_BY_TOOL) and len(SPECS_BY_TOOL) == len(ACTIONS)
    schemas = {s["function"]["name"]: s["function"] for s in tool_schemas()}
    typed = schemas["type"]
    assert typed["description"] == "Replace the content of a text field with the text."
    assert typed["parameters"]["properties"]["element"]["type"] == "integer"
    assert typed["parameters"]["properties"]["argument"]["description"] == "the text to type"
    assert typed["parameters"]["required"] == ["element", "argument"]
    assert schemas["scroll_down"]["parameters"]["properties"] == {}
    assert "message" not in schemas["exit"]["parameters"].get("required", [])
    for action in ['do(action="Select Dropdown Option", element="4", argument="a \\"b\\"")', 'exit(message="")',
                   'do(action="Go Backward")']:
        assert action_for_call(*call_for_action(action)) == action


def test_oracle_tool_calls_earn_one_and_match_the_sft_conversations(family_demos):
    demos = family_demos[:3]
    conversations = tool_call_conversations(demos)
    env = environment_factory(suite="embedded", split="train")()
    for demo, row in zip(demos, conversations, strict=True):
        messages = row["messages"]
        assert env.reset(task_id=demo.task_id, prompt=[]) == messages[1]["content"]
        for call, answer in zip(messages[2::2], messages[3::2], strict=False):
            if not call.get("tool_calls"):
                break
            function = call["tool_calls"][0]["function"]
            assert getattr(env, function["name"])(**json.loads(function["arguments"])) == answer["content"]
        assert env.get_reward() == 1.0
    assert json.loads(conversations[0]["tools"]) == tool_schemas()


def test_get_reward_ends_an_unfinished_episode_and_the_step_limit_follows_trl(family_demos):
    from trl import GRPOConfig

    args = GRPOConfig(output_dir="/tmp/unused", max_tool_calling_iterations=2, report_to="none", bf16=False)
    env = environment_factory(args, suite="embedded", split="train")()
    demo = family_demos[0]
    env.reset(task_id=demo.task_id)
    first = call_for_action(demo.turns[0].action)
    assert "step 2 of 2" in getattr(env, first[0])(**first[1])
    assert env.get_reward() == 0.0  # the rollout stopped calling tools: scored without an answer
    assert env.click(element=1).startswith("[The episode is over")
    env.reset(task_id=demo.task_id)
    env.wait()
    assert env.wait().endswith("[The step limit is reached: the episode is over.]")
    env.reset(task_id=demo.task_id)
    assert "There is no element 999" in env.click(element=999)  # an agent mistake, shown, never raised


def test_task_dataset_rows_play_in_their_own_split_and_a_pinned_other_split_is_refused(family_demos):
    from trl import GRPOConfig

    from webarena_gym.errors import ConfigurationError

    args = GRPOConfig(output_dir="/tmp/unused", max_tool_calling_iterations=4, report_to="none", bf16=False)
    demo = family_demos[0]
    train_row = task_dataset("train", [demo.task_id])[0]
    assert (train_row["split"], train_row["suite"]) == ("train", "embedded")
    env = environment_factory(args, suite="embedded")()  # the README's call: no split, the env follows the rows
    assert env.reset(**train_row).startswith(f"Task: {demo.intent}")
    for turn in demo.turns:
        name, arguments = call_for_action(turn.action)
        getattr(env, name)(**arguments)
    assert env.get_reward() == 1.0
    test_row = task_dataset("test", [9])[0]  # the same pooled env, then given a test task
    test_intent = next(t.intent for t in embedded_tasks("test") if t.task_id == 9)
    assert env.reset(**test_row).startswith(f"Task: {test_intent}")

    pinned = environment_factory(args, suite="embedded", split="test")()
    with pytest.raises(ConfigurationError, match="row's task is from split='train', but this env was built with "
                                                  "split='test'"):
        pinned.reset(**train_row)


@pytest.mark.train
@pytest.mark.slow
def test_grpo_trainer_runs_two_steps_and_the_tiny_model_calls_tools_after_sft(family_demos, tmp_path):
    from datasets import Dataset
    from transformers import AutoModelForCausalLM
    from trl import GRPOConfig, GRPOTrainer, SFTConfig, SFTTrainer

    from trainers.policy import load_tokenizer
    from trainers.tiny import TinyModelSpec, build_tiny_model, demonstration_texts

    conversations = tool_call_conversations(family_demos, max_steps=4)
    tiny = build_tiny_model(tmp_path / "tiny", spec=TinyModelSpec(vocab_size=3000, hidden_size=64, intermediate_size=192),
                            texts=demonstration_texts(family_demos) * 2 + [r["tools"] for r in conversations]
                            + [json.dumps(r["messages"]) for r in conversations])
    tokenizer = load_tokenizer(str(tiny))  # as saved (AutoTokenizer would re-split words for qwen2)
    sft = SFTTrainer(
        model=AutoModelForCausalLM.from_pretrained(tiny), processing_class=tokenizer,
        train_dataset=Dataset.from_list(conversations),
        args=SFTConfig(output_dir=str(tmp_path / "sft"), assistant_only_loss=True, num_train_epochs=30,
                       per_device_train_batch_size=5, learning_rate=1e-2, lr_scheduler_type="constant", max_length=None,
                       save_strategy="no", report_to="none", bf16=False, disable_tqdm=True, seed=0, logging_steps=10),
    )
    sft.train()
    losses = [r["loss"] for r in sft.state.log_history if "loss" in r]
    assert losses[-1] < losses[0]

    args = GRPOConfig(
        output_dir=str(tmp_path / "grpo"), max_steps=2, num_generations=2, per_device_train_batch_size=4,
        max_completion_length=512, max_tool_calling_iterations=4, learning_rate=1e-4, logging_steps=1,
        save_strategy="no", report_to="none", bf16=False, disable_tqdm=True, seed=0,
    )
    trainer = GRPOTrainer(
        model=sft.model, processing_class=tokenizer, args=args,
        train_dataset=task_dataset("train", [d.task_id for d in family_demos]),
        environment_factory=environment_factory(args, suite="embedded", split="train"),
    )
    trainer.train()
    logs = [r for r in trainer.state.log_history if "tools/call_frequency" in r]
    assert trainer.state.global_step == 2 and len(logs) == 2
    assert all("rewards/WebArenaToolEnv/mean" in r for r in logs)  # the env's get_reward scored every rollout
    assert max(r["tools/call_frequency"] for r in logs) > 0
